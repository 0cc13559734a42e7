"""Models learned from the engine's own deals (``tarotsim learn``; docs/learn.md is the manual).

```python
from tarotsim.cards import Card
from tarotsim.engine import Game
from tarotsim.learn import locations
game = Game(seed=1, index=0)
# float32[78, n_seats + 1]: per card, each seat, then the hidden pile
p = locations(game, 0)
p[Card.parse("KH").id]  # where is the king of hearts likely?
```

* :mod:`tarotsim.learn.data`: training data from the kernels (``tarotsim learn data``): every
  decision of chosen seats with what the seat saw and where every card truly was
  (the layout: :mod:`tarotsim.learn.features`);
* :mod:`tarotsim.learn.train`: the two models trained with torch (``tarotsim learn train``);
* :mod:`tarotsim.learn.models`: the model files; :mod:`tarotsim.learn.forward`: their forward
  passes in the kernels, which the ``learned`` bot (``bots/learned.py``) plays.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from ..worlds import Worlds

__all__ = ["LearnError", "WeightedWorlds", "action_probabilities", "allowed", "best_action", "locations",
           "weighted_worlds"]



class LearnError(ValueError):
    """A position the models do not cover (table 2, a deal over) or a bad seat."""


def _check(game, seat) -> int:
    from ..rules import ENV_TABLES

    n = game.rules.n_seats
    if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < n:
        raise LearnError(f"seat must be a seat of the table, 0..{n - 1}, not {seat!r}")
    if game.rules.table not in ENV_TABLES:
        raise LearnError(f"table {game.rules.table}: the models cover tables {', '.join(ENV_TABLES)}")
    if game.done:
        raise LearnError("the deal is over: no card is hidden any more")
    return int(seat)


def allowed(game, seat: int) -> np.ndarray:
    """Per card, the locations ``seat``'s knowledge allows: uint8[78], bit k the seat k places after it, bit 5 the pile.

    From the exact sampler's constraints of the seat's view (:func:`tarotsim.worlds.constraints`):
    0 for a card played, one bit for a card whose place the seat knows."""
    from ..worlds import PILE as WORLDS_PILE, constraints
    from .features import PILE

    seat = _check(game, seat)
    cons = constraints(game, seat)
    n = game.rules.n_seats
    out = np.zeros(78, dtype=np.uint8)
    for c, loc in cons.known.items():
        out[c.id] = 1 << (PILE if loc == WORLDS_PILE else (loc - seat) % n)
    for c, locs in cons.allowed.items():
        out[c.id] = sum(1 << (PILE if loc == WORLDS_PILE else (loc - seat) % n) for loc in locs)
    return out


def _model(model, kind: str):
    from .models import Model, load_model, shipped

    if isinstance(model, Model):
        return model
    return load_model(shipped(kind) if model is None else model, kind)


def locations(game, seat: int, model=None) -> np.ndarray:
    """Where each card is likely, as ``seat`` can tell: float32[78, n_seats + 1].

    Row ``c``: card ``c``'s probability at each seat (absolute seats), then in the hidden pile.
    A card whose place the seat knows is one-hot there (its hand and écart, a card played at the
    seat that played it, a poignée card, ...); the other cards have the card-location model's
    probabilities, 0 where the hard rules (:func:`allowed`) rule a place out.

    ``model``: a model file or :class:`tarotsim.learn.models.Model` (default: the shipped one).
    """
    from ..observations import observation
    from .features import INPUT_SCALE, PILE
    from .forward import location_probabilities, work_size

    seat = _check(game, seat)
    m = _model(model, "locations")
    a = allowed(game, seat).astype(np.int64)
    n = game.rules.n_seats
    out = np.zeros((1, 78, PILE + 1), dtype=np.float32)
    location_probabilities(observation(game, seat)[None, :], a[None, :], INPUT_SCALE, *m.arrays(),
                           np.zeros(work_size(m), dtype=np.float32), out)
    rel = out[0]
    absolute = np.zeros((78, n + 1), dtype=np.float32)
    for s in range(n):
        absolute[:, s] = rel[:, (s - seat) % n]
    absolute[:, n] = rel[:, PILE]
    for s, c in [p for t in game._deal.tricks for p in t.plays] + list(game._deal.trick):
        absolute[c.id, s] = 1.0  # a card played: at the seat that played it
    return absolute


def best_action(game, seat: int | None = None, model=None) -> int:
    """The action id the ``learned`` bot plays at the game's decision: the policy's best legal action.

    The same compiled function as the bot's in the kernels (:func:`tarotsim.learn.forward.policy_best`);
    ``seat``: the seat to decide (checked), ``model``: a policy model file or Model (default: the shipped one)."""
    from ..actions import N_ACTIONS
    from ..observations import observation
    from .features import INPUT_SCALE
    from .forward import policy_actions, work_size

    seat = _check(game, game.to_move if seat is None else seat)
    if seat != game.to_move:
        raise LearnError(f"seat {seat} is not to decide (seat {game.to_move} is)")
    m = _model(model, "policy")
    mask = np.zeros((1, N_ACTIONS), dtype=np.bool_)
    mask[0, game.legal_action_ids()] = True
    out = np.zeros(1, dtype=np.int64)
    policy_actions(observation(game, seat)[None, :], mask, INPUT_SCALE, *m.arrays(),
                   np.zeros(work_size(m), dtype=np.float32), out)
    return int(out[0])


def action_probabilities(game, seat: int | None = None, model=None) -> np.ndarray:
    """The policy's probability of each action id at the game's decision: float32[N_ACTIONS], 0 where illegal.

    What the policy the ``learned`` bot plays (its best action, :func:`best_action`) and the
    ``pimc:learned_opponent`` search's opponent model (a card's probability) read from the seat's
    observation. ``seat``: the seat to decide (checked), ``model``: a policy model file or Model
    (default: the shipped one)."""
    from ..actions import N_ACTIONS
    from ..observations import observation
    from .features import INPUT_SCALE
    from .forward import policy_probabilities, work_size

    seat = _check(game, game.to_move if seat is None else seat)
    if seat != game.to_move:
        raise LearnError(f"seat {seat} is not to decide (seat {game.to_move} is)")
    m = _model(model, "policy")
    mask = np.zeros((1, N_ACTIONS), dtype=np.bool_)
    mask[0, game.legal_action_ids()] = True
    out = np.zeros((1, N_ACTIONS), dtype=np.float32)
    policy_probabilities(observation(game, seat)[None, :], mask, INPUT_SCALE, *m.arrays(),
                         np.zeros(work_size(m), dtype=np.float32), out)
    return out[0]


@dataclass(frozen=True)
class WeightedWorlds:
    """Worlds of one seat with the location model's weights (:func:`weighted_worlds`).

    ``worlds``: the exact sampler's draws (``tarotsim.worlds.Worlds``: every one satisfies every
    hard constraint); ``weights``: float64[n], summing to 1, the model's law over them."""

    worlds: Worlds
    weights: np.ndarray

    @property
    def ess(self) -> float:
        """The effective sample size of the weights, ``1 / sum(w^2)`` (n when they are equal)."""
        return float(1.0 / np.square(self.weights).sum())

    def marginals(self) -> np.ndarray:
        """float64[78, n_seats + 1]: each card's weighted frequency at each seat, then the pile."""
        locs = self.worlds.locations
        n = _n_seats(self.worlds.table)
        out = np.zeros((78, n + 1))
        for col, code in enumerate(list(range(n)) + [_worlds_pile()]):
            out[:, col] = self.weights @ (locs == code)
        return out


def _n_seats(table: str) -> int:
    from ..rules import Rules

    return Rules(table).n_seats


def _worlds_pile() -> int:
    from ..worlds import PILE

    return PILE


def weighted_worlds(game, seat: int, n: int, seed: int, model=None) -> WeightedWorlds:
    """``n`` worlds of ``seat`` weighted by the card-location model.

    The law is ``pi(w) ∝ prod_c q(c, w_c)`` over the worlds ``w`` that agree with everything the
    seat knows, ``q`` the model's probabilities (:func:`locations`): the hard rules say which
    worlds are possible, the model only which of them are likely. The worlds are drawn uniformly
    among the possible ones by the exact sampler (``tarotsim.worlds.sample``) and weighted by
    ``prod_c q(c, w_c)``, normalised to sum 1 (self-normalised importance sampling: a weighted
    mean over the worlds estimates the mean under ``pi``, more precisely the larger the weights'
    effective sample size, :attr:`WeightedWorlds.ess`)."""
    from ..worlds import sample

    seat = _check(game, seat)
    q = locations(game, seat, model).astype(np.float64)
    worlds = sample(game, seat, n, seed)
    locs = worlds.locations.astype(np.int64)
    nseats = game.rules.n_seats
    col = np.where(locs == _worlds_pile(), nseats, locs)
    live = locs >= 0
    picked = np.where(live, q[np.arange(78)[None, :], np.where(live, col, 0)], 1.0)
    with np.errstate(divide="ignore"):
        logw = np.log(picked).sum(axis=1)
    if not np.isfinite(logw.max()):  # pragma: no cover - the model gives every allowed place a probability > 0
        raise LearnError("the model gives every world drawn probability 0")
    w = np.exp(logw - logw.max())
    return WeightedWorlds(worlds, w / w.sum())
