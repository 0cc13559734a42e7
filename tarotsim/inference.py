"""Weighted worlds: what one seat cannot see, weighed by what the other seats did.

:func:`tarotsim.worlds.sample` draws the hidden cards uniformly among the deals that agree with
every hard rule. :func:`weighted_sample` draws the same worlds and gives each a weight: how well
an opponent model (the ``heuristic`` bot, which with probability ε makes any legal choice instead)
explains the other seats' bids, call, écart, declarations and cards in that world. This is what
``pimc:infer=1`` searches over (``bots/inference.py`` has the method):

```python
from tarotsim.inference import weighted_sample
ww = weighted_sample(game, seat=2, n=2000, seed=7, epsilon=0.1)
ww.where("KH")  # {seat or 5 (the hidden pile): probability}, weighed
ww.ess          # effective sample size of the weights
```

Like :func:`tarotsim.worlds.sample`, it reads the game only through ``game.view(seat)``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

from . import echo
from .cards import Card
from .worlds import Worlds, WorldsError, sample

__all__ = ["WeightedWorlds", "draw", "weighted_sample"]


@dataclass(frozen=True)
class WeightedWorlds:
    """Worlds of one seat with their weights (:func:`weighted_sample`).

    ``locations`` is :attr:`tarotsim.worlds.Worlds.locations` (int8, shape ``(n, 78)``);
    ``weights`` (float64, shape ``(n,)``) sum to 1; ``ess`` is their effective sample size,
    ``1 / sum(weights ** 2)``: n when every world weighs the same, 1 when one world has all of
    the weight. ``state``: the generator state after the draws.
    """

    worlds: Worlds
    weights: np.ndarray
    ess: float
    epsilon: float

    @property
    def seat(self) -> int:
        return self.worlds.seat

    @property
    def locations(self) -> np.ndarray:
        return self.worlds.locations

    @property
    def state(self) -> int:
        return self.worlds.state

    def __len__(self) -> int:
        return len(self.worlds)

    def hands(self, w: int) -> list[list[Card]]:
        """World ``w``: each seat's hand (:meth:`tarotsim.worlds.Worlds.hands`)."""
        return self.worlds.hands(w)

    def pile(self, w: int) -> list[Card]:
        """World ``w``: the hidden pile's cards (the chien or the écart)."""
        return self.worlds.pile(w)

    def where(self, card) -> dict[int, float]:
        """``{location: probability}`` of ``card`` (a Card, a card name or an id) under the weights.

        A location is a seat, or :data:`tarotsim.worlds.PILE` (5) for the hidden pile; ``{-1: 1.0}``
        for a card already played. Locations of probability 0 are left out."""
        c = _card_id(card)
        col = self.worlds.locations[:, c]
        out: dict[int, float] = {}
        for loc in np.unique(col):
            p = float(self.weights[col == loc].sum())
            if p > 0.0:
                out[int(loc)] = p
        return out


def _card_id(card) -> int:
    if isinstance(card, Card):
        return card.id
    if isinstance(card, (int, np.integer)) and not isinstance(card, bool) and 0 <= card < 78:
        return int(card)
    if isinstance(card, str):
        try:
            return Card.parse(card).id
        except ValueError as e:
            raise WorldsError(str(e)) from None
    raise WorldsError(f"not a card: {echo.shown(card)}")


def _check(n, epsilon, min_ess, what="n"):
    from bots.search import EPSILON_MIN, MAX_WORLDS

    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not 1 <= n <= MAX_WORLDS:
        raise WorldsError(f"{what} must be a whole number in 1..{MAX_WORLDS}, not {echo.shown(n)}")
    if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float, np.floating)) or \
            not EPSILON_MIN <= float(epsilon) <= 1.0:
        raise WorldsError(f"epsilon must be a number in {EPSILON_MIN}..1, not {echo.shown(epsilon)}")
    if isinstance(min_ess, bool) or not isinstance(min_ess, (int, np.integer)) or not 0 <= min_ess <= MAX_WORLDS:
        raise WorldsError(f"min_ess must be a whole number in 0..{MAX_WORLDS}, not {echo.shown(min_ess)}")


def _card_epsilon(card_epsilon, epsilon) -> float:
    """The cards' ε: ``epsilon`` when not given, else checked as ``epsilon`` is."""
    if card_epsilon is None:
        return float(epsilon)
    from bots.search import EPSILON_MIN

    if isinstance(card_epsilon, bool) or not isinstance(card_epsilon, (int, float, np.floating)) or \
            not EPSILON_MIN <= float(card_epsilon) <= 1.0:
        raise WorldsError(f"card_epsilon must be a number in {EPSILON_MIN}..1, not {echo.shown(card_epsilon)}")
    return float(card_epsilon)


def _trust(trust) -> float:
    """The prior that a seat plays as the model, checked: a number in 0..1."""
    if isinstance(trust, bool) or not isinstance(trust, (int, float, np.floating)) or not 0.0 <= float(trust) <= 1.0:
        raise WorldsError(f"trust must be a number in 0..1, not {echo.shown(trust)}")
    return float(trust)


def _kernel_view(game, seat):
    """``(view, rules vector, stage, pub, pos)``: what the weighing kernels read of the seat's view."""
    from . import worlds as W
    from .adapters import public_view

    view = game.view(seat)
    know = W.knowledge(view, game.rules)
    stage = int(know[W._kernels().K_STAGE])
    pos = len(view.trick) if stage == W._kernels().STAGE_PLAY else 0
    return view, game.rules.to_vector(), stage, public_view(view, game.rules), pos


def _opponent_words(opponent) -> np.ndarray:
    """The packed policy of ``opponent`` ("heuristic": none, empty; "learned": the shipped one; else a policy file)."""
    if isinstance(opponent, str) and opponent == "heuristic":
        return np.zeros(0, dtype=np.int64)
    from .learn.features import INPUT_SCALE
    from .learn.forward import pack
    from .learn.models import ModelError, load_model, registered

    if not isinstance(opponent, (str, os.PathLike)):
        raise WorldsError(f"opponent must be 'heuristic', 'learned' or a policy model file, not {echo.shown(opponent)}")
    try:
        model = registered(0, "policy") if opponent == "learned" else load_model(opponent, "policy")
    except ModelError as e:
        raise WorldsError(str(e)) from None
    return pack(model, INPUT_SCALE)


def weighted_sample(game, seat: int, n: int, seed: int, *, epsilon: float = 0.1, min_ess: int = 0,
                    card_epsilon: float | None = None, trust: float = 1.0, opponent="heuristic") -> WeightedWorlds:
    """``n`` worlds of ``seat``, each weighed by how the opponent model explains the table.

    They are drawn as :func:`tarotsim.worlds.sample` draws them; each weight says how well the
    model explains the other seats' decisions in the world.

    Parameters
    ----------
    game : tarotsim.engine.Game
        A deal that is not over; only ``game.view(seat)`` and the rules are read.
    seat : int
        The seat whose knowledge is used (its own decisions are not weighed).
    n : int
        Number of worlds, 1 .. 4096 (``bots.pimc.MAX_WORLDS``).
    seed : int
        The initial splitmix64 state, 0 .. 2**64 - 1 (as :func:`tarotsim.worlds.sample`).
    epsilon : float
        The model's ε in 0.001 .. 1: the heuristic's choice with probability 1 - ε, else any legal
        one uniformly. 1 weighs every world the same (the exact sampler's law).
    min_ess : int
        Temper the weights (raise them to a power below 1) when they would leave an effective
        sample size below ``min_ess``, as ``pimc:infer=1,min_ess=...`` does; 0: never.
    card_epsilon : float, optional
        The model's ε for the cards played (``epsilon`` then weighs the bids, the call, the écart
        and the declarations); 1: a card only counts by its legality. Default: ``epsilon``.
    trust : float
        The prior probability, in 0 .. 1, that a seat plays as the model rather than uniformly:
        a world's weight is the product over the seats of ``trust * (the seat's weight) + 1 - trust``,
        so a seat the model explains badly stops moving the weights. 1: every seat as the model.
    opponent : str or path
        The model of the cards played: ``"heuristic"``, ``"learned"`` (the shipped policy of the
        ``learned`` bot, ``docs/learn.md``: a card weighs ``n (1 - card_epsilon) p + card_epsilon``,
        ``p`` the policy's probability of it among the ``n`` legal ones) or a policy model file
        (``tarotsim learn train --model policy``), as ``pimc:learned_opponent=1`` weighs them.

    Raises
    ------
    WorldsError
        Bad arguments, a finished deal, or (never with true information) no consistent world.
    """
    from bots import search as K

    _check(n, epsilon, min_ess)
    card_epsilon = _card_epsilon(card_epsilon, epsilon)
    trust = _trust(trust)
    words = _opponent_words(opponent)
    worlds = sample(game, seat, n, seed)
    _, rv, stage, pub, pos = _kernel_view(game, worlds.seat)
    logw = np.empty(len(worlds), dtype=np.float64)
    K.log_weights(rv, np.int64(worlds.seat), np.int64(stage), pub, np.int64(pos), worlds.locations,
                  float(epsilon), card_epsilon, trust, words, logw)
    if not np.isfinite(logw.max()):
        raise WorldsError(f"seat {worlds.seat}: no world drawn agrees with the observed plays")
    power = K.tempering_power(logw, np.int64(min_ess)) if min_ess > 1 else 1.0
    w = np.exp(power * (logw - logw.max()))
    w /= w.sum()
    return WeightedWorlds(worlds=worlds, weights=w, ess=float(1.0 / np.sum(w * w)), epsilon=float(epsilon))


def draw(game, seat: int, n: int, seed: int, *, candidates: int | None = None, epsilon: float | None = None,
         min_ess: int | None = None, moves: int | None = None, card_epsilon: float | None = None,
         trust: float | None = None) -> WeightedWorlds:
    """The worlds a ``pimc:infer=1`` decision of ``seat`` plays out, with the same parameters.

    ``candidates`` worlds drawn as :func:`tarotsim.worlds.sample` draws them from ``seed``, weighed
    (:func:`weighted_sample`), ``n`` of them drawn by weight (tempered to keep an ESS of
    ``min_ess``), each then moved ``moves`` times by Metropolis-Hastings swaps towards the weighted
    law (``card_epsilon``, ``trust``: as :func:`weighted_sample`). A parameter not given is the
    ``pimc`` bot's default (``tarotsim bots`` lists them). Returns the distinct worlds, each weighted
    by the share of the ``n`` draws it stands for; ``ess`` is the candidates' ESS. Raises
    :class:`tarotsim.worlds.WorldsError` on bad arguments."""
    from bots import REGISTRY
    from bots import search as K
    from bots.search import MAX_MOVES

    from . import worlds as W

    pimc = REGISTRY["pimc"]
    default = pimc.values(pimc.vector())
    candidates = default["candidates"] if candidates is None else candidates
    epsilon = default["epsilon"] if epsilon is None else epsilon
    min_ess = default["min_ess"] if min_ess is None else min_ess
    moves = default["moves"] if moves is None else moves
    card_epsilon = default["card_epsilon"] if card_epsilon is None else card_epsilon
    trust = default["trust"] if trust is None else trust

    _check(n, epsilon, min_ess)
    _check(candidates, epsilon, min_ess, what="candidates")
    card_epsilon = _card_epsilon(card_epsilon, epsilon)
    trust = _trust(trust)
    if isinstance(moves, bool) or not isinstance(moves, (int, np.integer)) or not 0 <= moves <= MAX_MOVES:
        raise WorldsError(f"moves must be a whole number in 0..{MAX_MOVES}, not {echo.shown(moves)}")
    cand = sample(game, seat, max(int(candidates), int(n)), seed)
    view, rv, stage, pub, pos = _kernel_view(game, cand.seat)
    _, cons = W._derive(view, game.rules)
    rows = np.array(cand.locations)
    out = np.empty((int(n), 78), dtype=np.int8)
    counts = np.zeros(int(n), dtype=np.int64)
    kept, ess, st = K.draw_worlds(rv, np.int64(cand.seat), np.int64(stage), pub, np.int64(pos), cons, rows,
                                  np.int64(n), float(epsilon), card_epsilon, trust, np.int64(min_ess), np.int64(moves),
                                  np.uint64(cand.state), out, counts)
    worlds = W.Worlds(seat=cand.seat, table=cand.table, pile_kind=cand.pile_kind, locations=out[:kept].copy(),
                      state=int(st))
    return WeightedWorlds(worlds=worlds, weights=counts[:kept] / n, ess=float(ess), epsilon=float(epsilon))
