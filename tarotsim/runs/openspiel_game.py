"""French tarot as an OpenSpiel Python game, ``python_french_tarot``.

French tarot as an OpenSpiel Python game, ``python_french_tarot`` (the ``openspiel`` extra:
``pip install 'tarotsim[openspiel]'``).

```python
import pyspiel
import tarotsim.runs.openspiel_game  # registers the game
params = {"table": 4, "dealer": 0}  # table 5d: {"table": 5, "dummy": True}
game = pyspiel.load_game("python_french_tarot", params)
state = game.new_initial_state()
```

* **Chance**: the deal, one card at a time (78 chance nodes, uniform over the cards left): the
  hands of seats 0, 1, ... in turn (the 5d dummy gets none), then the chien.
* **Actions**: the 91 ids of :mod:`tarotsim.actions` (the écart picked card by card, R-CHIEN-2
  in the legal actions after each pick), played by the step-by-step :class:`tarotsim.engine.Game`
  (the reference rules); the returns are the deal's scores (zero-sum).
* **Tensors**: the observation and information-state tensors of :mod:`tarotsim.observations`
  (float32; zeros while the cards are being dealt); the strings name the tensor's non-zero entries.
* **Resampling**: ``resample_from_infostate`` draws the hidden cards with :mod:`tarotsim.worlds`
  (uniform among the deals the player cannot tell apart) and replays the history on them, so
  OpenSpiel's Python ``ISMCTSBot`` plays the game (``examples/ismcts.py``). OpenSpiel 2.0.2's C++
  MCTS and ISMCTS bots crash on Python-defined games: use its Python bots.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from ..actions import ACTION_NAMES, N_ACTIONS
from ..cards import DECK
from ..observations import INFO_LEN, OBS_LEN, information_state, observation
from ..rules import Rules

EXTRA_HINT = "tarotsim.runs.openspiel_game needs OpenSpiel: pip install 'tarotsim[openspiel]'"

try:
    import pyspiel
except ImportError:
    raise ImportError(EXTRA_HINT) from None

SHORT_NAME = "python_french_tarot"
MAX_DECISIONS = 100  # bids 5, call 1, écart 6, chelem 1, poignées 5, misères 10, cards 72
MAX_SCORE = 10_000.0  # above any deal's score in absolute value

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Python French Tarot (tarotsim)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=5,
    min_num_players=3,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"table": 4, "dummy": False, "dealer": 0})


def _slot_sizes(rules: Rules, dealer: int) -> list[int]:
    """Cards dealt to each seat, then to the chien (R-DEAL-1; the 5d dummy none, R-DEAL-6)."""
    from ..rng import deal

    _, hands, chien = deal(rules, 0, 0)
    sizes = [len(max(hands, key=len))] * rules.n_seats
    if rules.table == "5d":
        sizes[dealer] = 0
    return sizes + [len(chien)]


@cache
def _config(table: int, dummy: bool, dealer: int) -> tuple[Rules, int, list[int]]:
    """``(rules, dealer, cards per seat then chien)`` of the game's parameters."""
    if table not in (3, 4, 5) or (dummy and table != 5):
        raise ValueError(f"table {table}{' with a dummy' if dummy else ''}: tables 3, 4, 5 and 5 with a dummy")
    rules = Rules(f"{table}d" if dummy else str(table))
    if not 0 <= dealer < rules.n_seats:
        raise ValueError(f"dealer {dealer} is not a seat of table {rules.table}")
    return rules, dealer, _slot_sizes(rules, dealer)


def _params(params) -> tuple[int, bool, int]:
    params = dict(params or {})
    return int(params.get("table", 4)), bool(params.get("dummy", False)), int(params.get("dealer", 0))


class FrenchTarotGame(pyspiel.Game):
    """The game ``python_french_tarot`` and its parameters.

    ``python_french_tarot``: parameters ``table`` (3, 4, 5), ``dummy`` (table 5 with the
    dealer as dummy: table 5d) and ``dealer``. (OpenSpiel reads a parameter "5" as a number,
    hence no table name "5d".)"""

    def __init__(self, params=None):
        table, dummy, dealer = _params(params)
        rules, _, _ = _config(table, dummy, dealer)
        info = pyspiel.GameInfo(num_distinct_actions=N_ACTIONS, max_chance_outcomes=len(DECK),
                                num_players=rules.n_seats, min_utility=-MAX_SCORE, max_utility=MAX_SCORE,
                                utility_sum=0.0, max_game_length=len(DECK) + MAX_DECISIONS)
        super().__init__(_GAME_TYPE, info, {"table": table, "dummy": dummy, "dealer": dealer})

    def new_initial_state(self):
        return FrenchTarotState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return FrenchTarotObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class FrenchTarotState(pyspiel.State):
    """A deal of ``python_french_tarot``: the cards dealt so far, then a :class:`tarotsim.engine.Game`."""

    def __init__(self, game: FrenchTarotGame):
        super().__init__(game)
        # the game's Python attributes do not survive OpenSpiel's copies: its parameters do
        self.rules, self.dealer, self.sizes = _config(*_params(game.get_parameters()))
        self.dealt: list[int] = []     # card ids in dealing order (the chance actions)
        self.moves: list[int] = []     # the players' action ids
        self.game: Any = None          # the tarotsim Game once every card is dealt

    # -- OpenSpiel's State interface --------------------------------------------------------------
    def current_player(self):
        if self.game is None:
            return pyspiel.PlayerId.CHANCE
        if self.game.done:
            return pyspiel.PlayerId.TERMINAL
        return self.game.to_move

    def _legal_actions(self, player):
        return self.game.legal_action_ids()

    def chance_outcomes(self):
        left = sorted(set(range(len(DECK))) - set(self.dealt))
        return [(c, 1.0 / len(left)) for c in left]

    def _apply_action(self, action):
        if self.game is None:
            card = int(action)
            if not 0 <= card < len(DECK):
                raise ValueError(f"chance action {card}: not a card id 0..{len(DECK) - 1}")
            if card in self.dealt:  # each card is dealt once (R-CARD-1): refused now, not at the 78th card
                raise ValueError(f"chance action {card}: {DECK[card]} is dealt already")
            self.dealt.append(card)
            if len(self.dealt) == len(DECK):
                self._start()
        else:
            self.game.apply_action(int(action))
            self.moves.append(int(action))

    def _start(self) -> None:
        from ..engine import Game

        hands, k = [], 0
        for size in self.sizes[:-1]:
            hands.append([DECK[c] for c in self.dealt[k:k + size]])
            k += size
        chien = [DECK[c] for c in self.dealt[k:]]
        self.game = Game(self.rules, hands=hands, chien=chien, dealer=self.dealer)

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {DECK[action]}"
        return ACTION_NAMES[action]

    def is_terminal(self):
        return self.game is not None and self.game.done

    def returns(self):
        if not self.is_terminal():
            return [0.0] * self.rules.n_seats
        return [float(s) for s in self.game.scores]

    def __str__(self):
        if self.game is None:
            return f"dealing: {len(self.dealt)} cards dealt"
        d = self.game.decision
        return f"table {self.rules.table}: " + (f"{d.kind} for seat {d.seat}" if d else
                                                       f"over, scores {self.game.scores}")

    # -- resampling (for ISMCTS) ------------------------------------------------------------------
    def resample_from_infostate(self, player_id, probability_sampler):
        """A state the player cannot tell from this one.

        A state ``player_id`` cannot tell from this one: the hidden cards drawn uniformly
        (:func:`tarotsim.worlds.sample`), the same history replayed on them."""
        from ..worlds import sample

        if self.game is None or self.game.done:
            return self.clone()
        try:
            seed = int(probability_sampler() * 2 ** 53)
        except TypeError:  # a sampler that is not callable from Python
            seed = int(np.random.default_rng().integers(2 ** 53))
        worlds = sample(self.game, int(player_id), 1, seed)
        hands, pile = worlds.hands(0), worlds.pile(0)
        view = self.game.view(int(player_id))
        n = self.rules.n_seats
        initial = [list(h) for h in hands]
        for _, plays, _ in view.tricks:
            for s, c in plays:
                initial[s].append(c)
        for s, c in view.trick:
            initial[s].append(c)
        chien = list(pile)
        new_ecart = None
        kind = view.decision.kind if view.decision else None
        if view.chien is not None:  # prise, garde: the chien was shown and taken (R-CHIEN-1)
            chien = list(view.chien)
            taker = view.taker
            if kind == "ecart":  # the taker decides: its hand holds the chien
                initial[taker] = [c for c in initial[taker] if c not in chien]
            else:
                ecart = list(view.ecart) if view.ecart is not None else list(pile)
                initial[taker] = [c for c in initial[taker] + ecart if c not in chien]
                new_ecart = sorted(c.id for c in ecart)
        other = FrenchTarotState(self.get_game())
        for s in range(n):
            for c in sorted(initial[s]):
                other._apply_action(c.id)
        for c in sorted(chien):
            other._apply_action(c.id)
        picks = 0
        for a in self.moves:
            if new_ecart is not None and other.game.decision.kind == "ecart":
                a = new_ecart[picks]
                picks += 1
            other._apply_action(a)
        return other

    def clone(self):
        other = FrenchTarotState(self.get_game())
        other.dealt = list(self.dealt)
        other.moves = list(self.moves)
        other.game = self.game.clone() if self.game is not None else None
        return other

    def __deepcopy__(self, memo):
        return self.clone()


class FrenchTarotObserver:
    """The tensors of :mod:`tarotsim.observations` as an OpenSpiel observer.

    The tensors of :mod:`tarotsim.observations` (information state with perfect recall, else
    the observation), as OpenSpiel's Python observers give them."""

    def __init__(self, iig_obs_type, params):
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        size = INFO_LEN if self.perfect_recall else OBS_LEN
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        if state.game is None:
            self.tensor.fill(0)
            return
        fn = information_state if self.perfect_recall else observation
        self.tensor[:] = fn(state.game, int(player))

    def string_from(self, state, player):
        if state.game is None:
            return f"p{player} dealing {len(state.dealt)}"
        self.set_from(state, player)
        nz = np.flatnonzero(self.tensor)
        return f"p{player} " + ",".join(str(i) if v == 1 else f"{i}:{int(v)}"
                                         for i, v in zip(nz.tolist(), self.tensor[nz].tolist()))


pyspiel.register_game(_GAME_TYPE, FrenchTarotGame)
