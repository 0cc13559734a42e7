"""The step-by-step facade: a deal that a person or a Python bot plays one decision at a time.

:class:`Game` follows the python-chess / OpenSpiel pattern:

```python
game = Game(Rules("4"), seed=7, index=0)  # the deal from (seed, index)
while not game.done:
    d = game.decision                     # Decision(kind, seat)
    view, legal = game.view(d.seat), game.legal_actions()
    game.apply(some_bot.choose(view, legal, rng))  # verified, then applied
game.scores, game.record()                # each decision is logged as an Event
```

Every decision also has dense action ids (:mod:`tarotsim.actions`): ``legal_action_ids()``,
``legal_action_mask()``, ``verify_action`` / ``can_action`` / ``apply_action(int)`` (the écart
as single-card picks); ``clone()`` copies a game, and ``replay(events)`` applies the
:class:`Event` values another game logged.

For each kind of action there is ``can_*`` (bool), ``verify_*`` (raises
:class:`IllegalPlayError` naming the rule id, e.g. ``"must overtrump: holds T17 above T12
(R-PLAY-4b)"``) and the action itself, which verifies and then applies; a refused action
leaves the state unchanged. The rules themselves are those of the plain-Python engine of
:mod:`tarotsim.reference` (written from the rules of docs/rules.md), which the numba kernels are tested
against: the slow path and the fast path play the same deal for the same seed and bots.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import echo
from .actions import (ACTION_NAMES, CHELEM_NO, CHELEM_YES, KIND_RANGES, MISERE_NO, MISERE_YES, N_ACTIONS,
                      POIGNEE_BASE, POIGNEE_NONE, bid_action)
from .cards import Card, cards_of, masks_of
from .observations import information_state, observation
from .reference.deal import Decision, ReferenceDeal, as_card, as_cards
from .reference.errors import RuleViolation
from .reference.play import record_from_deal
from .rng import STREAM_BOTS, Rng, check_index, check_seed, deal_with_piles
from .rules import CONTRACT_OF, CONTRACTS, POIGNEE_LEVELS, Rules, ecart_pick_choices

__all__ = ["BotRaisedError", "Decision", "EcartChoice", "Event", "Game", "IllegalPlayError", "N_ACTIONS",
           "PyRandomBot", "SeatView", "play_game"]


class IllegalPlayError(RuleViolation):
    """An action the rules forbid; ``rule_id`` names the rule (R-PLAY-6).

    Examples
    --------
    A card is no answer to a bid; the game is left as it was:

    >>> from tarotsim.rules import Rules
    >>> game = Game(Rules("4"), seed=7, index=3)
    >>> game.play("KH")
    Traceback (most recent call last):
    ...
    tarotsim.engine.IllegalPlayError: seat 0 is to decide on bid, not to card (R-PLAY-6)
    >>> game.can_play("KH"), game.decision
    (False, Decision(kind='bid', seat=0))
    """


class BotRaisedError(Exception):
    """A Python bot's ``choose`` raised an exception.

    A Python bot's ``choose`` raised: the run stops with one line naming the bot, the
    exception, the seat, the deal ``(seed, index)`` and the decision (the exception itself is
    the ``__cause__``). ``KeyboardInterrupt`` and ``SystemExit`` are never turned into this.

    Examples
    --------
    What :func:`tarotsim.runs.slowpath.play_record` raises when a bot's ``choose`` fails:

    >>> error = ZeroDivisionError("division by zero")
    >>> print(BotRaisedError("mine", error, 2, 7, 3, "card"))
    bot mine raised ZeroDivisionError: division by zero at seat 2, deal (7, 3) (card decision)
    """

    def __init__(self, bot: str, error: BaseException, seat: int, seed, index, decision: str):
        self.bot, self.error, self.seat, self.seed, self.index, self.decision = bot, error, seat, seed, index, decision
        text = echo.cut(error, echo.MESSAGE)  # one line, whatever the exception says
        what = f"{type(error).__name__}: {text}" if text else type(error).__name__
        super().__init__(f"bot {bot} raised {what} at seat {seat}, deal ({seed}, {index}) "
                         f"({decision.replace('_', ' ')} decision)")


@dataclass(frozen=True)
class Event:
    """One thing that happened in a deal.

    One thing that happened in a deal, as :attr:`Game.events` logs it; :meth:`Game.apply_event`
    and :meth:`Game.replay` apply it back. ``value`` has one type per ``kind``:

    | kind | value |
    |---|---|
    | ``bid`` | the bid, ``"pass"`` or a contract name (str) |
    | ``call`` | the called :class:`Card` |
    | ``ecart`` | the écart, a tuple of Cards in id order |
    | ``chelem`` | bool: announced or not |
    | ``poignee`` | None (declined) or ``(level, tuple of Cards shown)`` |
    | ``misere`` | ``(kind, yes)``: kind ``"atout"`` or ``"tete"``, yes a bool |
    | ``card`` | the :class:`Card` played |
    | ``trick`` | the cards of a finished trick from its leader (tuple of Cards); ``seat`` is its winner (a consequence: checked on replay, not applied) |

    Examples
    --------
    The events of a deal played out replay it on a new game:

    >>> from tarotsim.rules import Rules
    >>> game = play_game(Game(Rules("4"), seed=7, index=3), PyRandomBot())
    >>> game.events[:2]
    [Event(kind='bid', seat=0, value='garde'), Event(kind='bid', seat=1, value='garde_contre')]
    >>> again = Game(Rules("4"), seed=7, index=3).replay(game.events)
    >>> again.record() == game.record()
    True
    """

    kind: str
    seat: int | None
    value: object = None


@dataclass(frozen=True)
class EcartChoice:
    """What the écart may be (R-CHIEN-2).

    What the écart may be (R-CHIEN-2): ``size`` cards among ``normal``; when ``normal`` is
    short, all of it plus ``trumps_needed`` trumps among ``trumps``.

    Examples
    --------
    Seat 1 takes a garde: the chien joins its hand, and it lays 6 cards aside:

    >>> from tarotsim.rules import Rules
    >>> game = Game(Rules("4"), seed=7, index=3, forced=(1, "garde"))
    >>> choice = game.legal_actions()
    >>> choice.size, len(choice.normal), choice.trumps_needed
    (6, 15, 0)
    >>> print(*game.discard(choice.normal[:6]).value)
    10S QS 5H 6H 10H NH
    """

    size: int
    normal: tuple[Card, ...]
    trumps: tuple[Card, ...]
    trumps_needed: int


@dataclass(frozen=True)
class SeatView:
    """What one seat may see: its own hand and the public history only.

    Examples
    --------
    >>> from tarotsim.rules import Rules
    >>> view = Game(Rules("4"), seed=7, index=3).view(2)
    >>> print(*view.hand[:8])
    T4 T6 T12 T20 1S 2S 7S NS
    >>> view.decision, view.bids, view.taker
    (Decision(kind='bid', seat=0), (), None)
    """

    seat: int
    table: str
    dealer: int
    decision: Decision | None
    hand: tuple[Card, ...]
    bids: tuple[tuple[int, str], ...]
    taker: int | None
    contract: str | None
    called: Card | None
    partner: int | None             # known to the partner himself, to all once the called card is out
    chien: tuple[Card, ...] | None  # shown for prise/garde (R-CHIEN-1), else unseen
    ecart: tuple[Card, ...] | None  # the taker's own écart (others see only trumps shown)
    declarations: tuple[dict, ...]
    tricks: tuple[tuple[int, tuple[tuple[int, Card], ...], int], ...]  # (leader, plays, winner)
    trick: tuple[tuple[int, Card], ...]  # the trick being played
    options: dict = field(default_factory=dict)
    ecart_trumps: tuple[Card, ...] = ()  # trumps put in the écart, shown to all (R-CHIEN-2)
    # table 2 (R-VAR-TWO), public: per seat, per pile, its face-up top (None when empty or when the
    # card under a top played in this trick is not turned up yet) and how many cards it holds
    pile_tops: tuple[tuple[Card | None, ...], ...] = ()
    pile_sizes: tuple[tuple[int, ...], ...] = ()


class Game:
    """One deal of French Tarot, played decision by decision.

    Parameters
    ----------
    rules : Rules or str
        Table 3, 4, 5 or 5d and variant options; a table's name (``"4"``) is ``Rules("4")``.
    seed, index : int
        Deal identity: the cards come from ``tarotsim.rng.deal(rules, seed, index)``. A seed is a
        whole number in 0..2**64-1, an index one in 0..2**63-1 (else ``rng.DealIdError``, a
        ``ValueError``).
    hands, chien, dealer :
        Alternatively, a hand-entered deal (card names, ids or Cards, one hand per seat).
    piles :
        Table 2 (R-VAR-TWO), a hand-entered deal: per seat, 6 piles of 3 cards from bottom to top.
    forced : (seat, contract) or None
        Skip the auction: that seat takes that contract.

    Examples
    --------
    The deal ``(7, 3)`` at table 4, one decision at a time:

    >>> from tarotsim.rules import Rules
    >>> game = Game(Rules("4"), seed=7, index=3)
    >>> game.decision
    Decision(kind='bid', seat=0)
    >>> game.legal_actions()
    ['pass', 'prise', 'garde', 'garde_sans', 'garde_contre']
    >>> game.bid("garde")
    Event(kind='bid', seat=0, value='garde')
    >>> game.can_bid("prise")  # seat 1 bids higher or passes (R-BID-2)
    False
    >>> game.legal_action_ids()  # pass, garde_sans, garde_contre
    [78, 81, 82]

    The random bots play the rest; the record says what happened:

    >>> play_game(game, PyRandomBot()).scores
    [306, 306, -918, 306]
    >>> record = game.record()
    >>> record["taker"], record["contract"], record["result"]["made"]
    (2, 'garde_contre', False)
    """

    def __init__(self, rules: Rules | None = None, seed: int | None = None, index: int = 0, *,
                 hands=None, chien=None, dealer: int | None = None, forced=None, piles=None):
        self.rules = rules if isinstance(rules, Rules) else Rules() if rules is None else Rules(str(rules))
        if seed is not None:  # the deal identity: whole numbers in range, never wrapped
            seed, index = check_seed(seed), check_index(index)
        if hands is None:
            if seed is None:
                raise ValueError("give (seed, index) or hands, chien and dealer")
            dealer, hands, chien, dealt_piles = deal_with_piles(self.rules, seed, index)
            piles = dealt_piles if self.rules.table == "2" else None
        elif chien is None or dealer is None:
            raise ValueError("a hand-entered deal needs hands, chien and dealer")
        self.seed: int | None = seed
        self.index: int | None = index if seed is not None else None
        if forced is not None and forced[1] not in CONTRACTS:
            raise IllegalPlayError("R-BID-1", f"unknown contract {echo.shown(forced[1])}")
        try:
            self._deal = ReferenceDeal(self.rules, dealer, hands, chien, forced=forced, piles=piles)
        except RuleViolation as e:
            raise IllegalPlayError(e.rule_id, e.message) from None
        self.events: list[Event] = []
        self._picks: list[Card] = []  # écart cards picked one by one (apply_action)

    # -- state ---------------------------------------------------------------------------------
    @property
    def decision(self) -> Decision | None:
        """Who acts next and on what, or None when the deal is over.

        Who acts next and on what (``bid``, ``call``, ``ecart``, ``chelem``, ``poignee``,
        ``misere_atout``, ``misere_tete``, ``card``), or None when the deal is over."""
        return self._deal.decision()

    @property
    def to_move(self) -> int | None:
        d = self.decision
        return d.seat if d else None

    @property
    def done(self) -> bool:
        return self._deal.done

    @property
    def outcome(self) -> str | None:
        return self._deal.outcome

    @property
    def scores(self) -> list[int]:
        return list(self._deal.scores)

    @property
    def result(self) -> dict | None:
        return self._deal.result

    @property
    def breakdown(self):
        return self._deal.breakdown

    def hand(self, seat: int) -> list[Card]:
        return list(self._deal.hands[seat])

    # -- legal choices -------------------------------------------------------------------------
    def legal_bids(self) -> list[str]:
        return self._deal.legal_bids()

    def legal_calls(self) -> list[Card]:
        return self._deal.legal_calls()

    def legal_cards(self) -> list[Card]:
        d = self.decision
        return self._deal.legal_cards(d.seat) if d and d.kind == "card" else []

    def ecart_choice(self) -> EcartChoice | None:
        d = self._deal
        if d.phase != "ecart":
            return None
        return EcartChoice(d.ecart_size, tuple(d.ecart_normal()), tuple(d.ecart_trump_choices()),
                           d.ecart_trumps_needed())

    def legal_actions(self):
        """The choices of the current decision.

        The choices of the current decision: bids, callable cards, an :class:`EcartChoice`,
        ``[False, True]`` (chelem, misère), poignée levels with ``None`` first, or cards."""
        d = self.decision
        if d is None:
            return []
        if d.kind == "bid":
            return self.legal_bids()
        if d.kind == "call":
            return self.legal_calls()
        if d.kind == "ecart":
            return self.ecart_choice()
        if d.kind == "poignee":
            return [None] + self._deal.poignee_levels(d.seat)
        if d.kind == "card":
            return self.legal_cards()
        return [False, True]

    # -- action ids (tarotsim.actions) -------------------------------------------------------------
    def legal_action_ids(self) -> list[int]:
        """The action ids of the current decision's legal answers.

        The ids (:mod:`tarotsim.actions`) of the current decision's legal answers, ascending;
        empty when the deal is over. At the écart, the cards the next single pick may take
        (R-CHIEN-2 applied to the picks made so far)."""
        d = self.decision
        if d is None:
            return []
        if d.kind == "bid":
            return [bid_action(b) for b in self.legal_bids()]
        if d.kind in ("call", "card"):
            return [c.id for c in (self.legal_calls() if d.kind == "call" else self.legal_cards())]
        if d.kind == "ecart":
            return [c.id for c in self._pick_choices()]
        if d.kind == "chelem":
            return [CHELEM_NO, CHELEM_YES]
        if d.kind == "poignee":
            return [POIGNEE_NONE] + [POIGNEE_BASE + POIGNEE_LEVELS.index(lv)
                                     for lv in self._deal.poignee_levels(d.seat)]
        return [MISERE_NO, MISERE_YES]

    def legal_action_mask(self) -> np.ndarray:
        """:meth:`legal_action_ids` as a bool[N_ACTIONS] mask."""
        mask = np.zeros(N_ACTIONS, dtype=bool)
        mask[self.legal_action_ids()] = True
        return mask

    @property
    def ecart_picks(self) -> tuple[Card, ...]:
        """The écart cards picked so far.

        The écart cards picked so far by :meth:`apply_action` (the écart is laid aside at the
        last pick)."""
        return tuple(self._picks)

    def _decode(self, action) -> tuple[Decision, int]:
        d = self.decision
        if d is None:
            raise IllegalPlayError("R-PLAY-6", "the deal is over")
        if not isinstance(action, (int, np.integer)) or isinstance(action, bool) or not 0 <= action < N_ACTIONS:
            raise IllegalPlayError("R-PLAY-6", f"no action with id {echo.shown(action)} (ids are 0..{N_ACTIONS - 1})")
        action = int(action)
        if action not in KIND_RANGES[d.kind]:
            raise IllegalPlayError("R-PLAY-6", f"seat {d.seat} is to decide on {d.kind.replace('_', ' ')}: "
                                               f"{ACTION_NAMES[action]} is no answer to it")
        return d, action

    def verify_action(self, action: int) -> None:
        """Check that an action id answers the current decision legally.

        Raise :class:`IllegalPlayError` (naming the rule) unless action id ``action`` answers the
        current decision legally. The verdict is the reference engine's, as for :meth:`apply_action`."""
        d, a = self._decode(action)
        if d.kind == "bid":
            self.verify_bid(ACTION_NAMES[a])
        elif d.kind == "call":
            self.verify_call(a)
        elif d.kind == "ecart":
            self.verify_pick(a)
        elif d.kind == "chelem":
            self.verify_chelem(a == CHELEM_YES)
        elif d.kind == "poignee":
            self.verify_poignee(None if a == POIGNEE_NONE else POIGNEE_LEVELS[a - POIGNEE_BASE])
        elif d.kind == "card":
            self.verify_play(a)
        else:
            self.verify_misere(a == MISERE_YES)

    def can_action(self, action: int) -> bool:
        return _can(self.verify_action, action)

    def apply_action(self, action: int) -> Event | None:
        """Apply action id ``action`` (:mod:`tarotsim.actions`) to the current decision.

        Verified by the reference engine first (a refused action raises
        :class:`IllegalPlayError` and changes nothing). Returns the event logged, or None for an
        écart pick that is not the last one (the écart is one event, logged at its last pick).
        """
        d, a = self._decode(action)
        if d.kind == "bid":
            return self.bid(ACTION_NAMES[a])
        if d.kind == "call":
            return self.call(a)
        if d.kind == "ecart":
            return self.pick(a)
        if d.kind == "chelem":
            return self.announce_chelem(a == CHELEM_YES)
        if d.kind == "poignee":
            return self.declare_poignee(None if a == POIGNEE_NONE else POIGNEE_LEVELS[a - POIGNEE_BASE])
        if d.kind == "card":
            return self.play(a)
        return self.declare_misere(a == MISERE_YES)

    # -- the écart card by card ---------------------------------------------------------------------
    def _pick_choices(self) -> list[Card]:
        """The cards the next écart pick may take (R-CHIEN-2).

        Cards the next pick may take: R-CHIEN-2 on the picks so far. Eligible non-trumps
        (``normal``) while some are left; trumps T2..T20 only while the écart still needs one
        (all ``normal`` must then go, so every order of the picks is legal)."""
        d = self._deal
        if d.phase != "ecart":
            return []
        picked_t, picked_s = masks_of(self._picks)
        t, s = ecart_pick_choices(masks_of(d.ecart_normal())[1], masks_of(d.ecart_trump_choices())[0],
                                  d.ecart_trumps_needed(), picked_t, picked_s, sum(c.is_trump for c in self._picks))
        return cards_of(t, s)

    def verify_pick(self, card, seat: int | None = None) -> Card:
        """Raise :class:`IllegalPlayError` unless ``card`` may be the next écart card.

        The reference engine judges: the picks so far, this card, and the eligible cards left
        (non-trumps first, then T2..T20, id order) to fill the écart, must make an écart that
        :meth:`ReferenceDeal.check_ecart` accepts; a legal pick always has such a completion."""
        seat = self._seat("ecart", seat)
        try:
            card = as_card(card)
        except ValueError as e:
            raise IllegalPlayError("R-CARD-1", str(e)) from None
        d = self._deal
        chosen = self._picks + [card]
        fill = [c for c in d.ecart_normal() + d.ecart_trump_choices() if c not in chosen]
        try:
            d.check_ecart(seat, chosen + fill[:max(0, d.ecart_size - len(chosen))])
        except RuleViolation as e:
            raise IllegalPlayError(e.rule_id, e.message) from None
        return card

    def can_pick(self, card, seat: int | None = None) -> bool:
        return _can(self.verify_pick, card, seat)

    def pick(self, card, seat: int | None = None) -> Event | None:
        """Lay one card aside for the écart; the last pick lays the écart (an ``ecart`` event)."""
        card = self.verify_pick(card, seat)
        if len(self._picks) + 1 < self._deal.ecart_size:
            self._picks.append(card)
            return None
        return self.discard(self._picks + [card], seat)

    # -- verify / can / do -------------------------------------------------------------------------
    def _seat(self, kind: str, seat: int | None) -> int:
        d = self.decision
        if d is None:
            raise IllegalPlayError("R-PLAY-6", "the deal is over")
        if seat is None:
            seat = d.seat
        kinds = (kind,) if kind != "misere" else ("misere_atout", "misere_tete")
        if d.kind not in kinds and not (kind == "card" and d.kind in ("poignee", "misere_atout", "misere_tete")):
            raise IllegalPlayError("R-PLAY-6", f"seat {d.seat} is to decide on {d.kind.replace('_', ' ')}, "
                                               f"not to {kind}")
        return seat

    def _trial(self, kind: str, seat: int | None, fn, *args) -> ReferenceDeal:
        """Try an action on a copy of the deal.

        Apply ``fn`` (a ReferenceDeal method) to a copy of the deal: the reference engine's
        verdict on an action, the game unchanged. Returns the copy."""
        seat = self._seat(kind, seat)
        trial = _clone_deal(self._deal)
        try:
            fn(trial, seat, *args)
        except RuleViolation as e:
            raise IllegalPlayError(e.rule_id, e.message) from None
        except ValueError as e:
            raise IllegalPlayError("R-CARD-1", str(e)) from None
        return trial

    def verify_play(self, card, seat: int | None = None) -> Card:
        """Raise :class:`IllegalPlayError` unless the card may be played now; return it."""
        seat = self._seat("card", seat)
        try:
            return self._deal.check_play(seat, as_card(card))
        except RuleViolation as e:
            raise IllegalPlayError(e.rule_id, e.message) from None
        except ValueError as e:
            raise IllegalPlayError("R-CARD-1", str(e)) from None

    def can_play(self, card, seat: int | None = None) -> bool:
        return _can(self.verify_play, card, seat)

    def play(self, card, seat: int | None = None) -> Event:
        """Play a card (declarations not yet made by this seat are declined)."""
        card = self.verify_play(card, seat)
        seat = self._deal.next_player()
        assert seat is not None  # verify_play checked that a card is due
        n_before = len(self._deal.tricks)
        self._deal.play(seat, card)
        ev = self._log("card", seat, card)
        if len(self._deal.tricks) > n_before:
            t = self._deal.tricks[-1]
            self._log("trick", t.winner, tuple(t.cards))
        return ev

    def _do(self, kind: str, fn, seat, value, *args):
        seat = self._seat(kind, seat)
        try:
            fn(seat, *args)
        except RuleViolation as e:
            raise IllegalPlayError(e.rule_id, e.message) from None
        except ValueError as e:
            raise IllegalPlayError("R-CARD-1", str(e)) from None
        return self._log(kind, seat, value)

    def verify_bid(self, bid: str, seat: int | None = None) -> str:
        """Raise :class:`IllegalPlayError` unless ``bid`` (``pass`` or a contract) is legal now (R-BID-1, R-BID-2)."""
        self._trial("bid", seat, ReferenceDeal.bid, bid)
        return bid

    def can_bid(self, bid: str, seat: int | None = None) -> bool:
        return _can(self.verify_bid, bid, seat)

    def bid(self, bid: str, seat: int | None = None) -> Event:
        return self._do("bid", self._deal.bid, seat, bid, bid)

    def verify_call(self, card, seat: int | None = None) -> Card:
        """Raise :class:`IllegalPlayError` unless the taker may call ``card`` (R-CALL-1)."""
        self._trial("call", seat, ReferenceDeal.call, card)
        return as_card(card)

    def can_call(self, card, seat: int | None = None) -> bool:
        return _can(self.verify_call, card, seat)

    def call(self, card, seat: int | None = None) -> Event:
        card = as_card(card)
        return self._do("call", self._deal.call, seat, card, card)

    def verify_discard(self, cards, seat: int | None = None) -> list[Card]:
        """Raise :class:`IllegalPlayError` unless ``cards`` is a legal écart (R-CHIEN-1, R-CHIEN-2)."""
        seat = self._seat("ecart", seat)
        try:
            return self._deal.check_ecart(seat, as_cards(cards))
        except RuleViolation as e:
            raise IllegalPlayError(e.rule_id, e.message) from None
        except ValueError as e:
            raise IllegalPlayError("R-CARD-1", str(e)) from None

    verify_ecart = verify_discard  # today's name, kept for one release

    def can_discard(self, cards, seat: int | None = None) -> bool:
        return _can(self.verify_discard, cards, seat)

    def discard(self, cards, seat: int | None = None) -> Event:
        """Lay the whole écart aside (replacing any single picks made so far)."""
        cards = self.verify_discard(cards, seat)
        ev = self._do("ecart", self._deal.discard, seat, tuple(cards), cards)
        self._picks = []
        return ev

    def verify_chelem(self, yes: bool = True, seat: int | None = None) -> bool:
        """Raise :class:`IllegalPlayError` unless the taker may answer the chelem now (R-SLAM-1)."""
        self._trial("chelem", seat, ReferenceDeal.announce_chelem, bool(yes))
        return bool(yes)

    def can_announce_chelem(self, yes: bool = True, seat: int | None = None) -> bool:
        return _can(self.verify_chelem, yes, seat)

    def announce_chelem(self, yes: bool = True, seat: int | None = None) -> Event:
        return self._do("chelem", self._deal.announce_chelem, seat, bool(yes), bool(yes))

    def verify_poignee(self, level: str | None, cards=None, seat: int | None = None):
        """Check that showing this poignée is legal now.

        Raise :class:`IllegalPlayError` unless showing ``level`` (None: none) with ``cards``
        (default: the lowest trumps) is legal now (R-POIG-1, R-POIG-2, R-POIG-3). Returns
        ``(level, cards shown)`` or None."""
        trial = self._trial("poignee", seat, ReferenceDeal.declare_poignee, level, cards)
        if level is None:
            return None
        _, shown = trial._poignee_shown[self._seat("poignee", seat)]
        return level, tuple(shown)

    def can_declare_poignee(self, level: str | None, cards=None, seat: int | None = None) -> bool:
        return _can(self.verify_poignee, level, cards, seat)

    def declare_poignee(self, level: str | None, cards=None, seat: int | None = None) -> Event:
        """Show a poignée of ``level`` (``cards`` default: the lowest trumps), or decline (None)."""
        ev = self._do("poignee", self._deal.declare_poignee, seat, level, level, cards)
        shown = self._deal._poignee_shown.get(ev.seat)
        if shown:
            self.events[-1] = Event("poignee", ev.seat, (level, tuple(shown[1])))
        return self.events[-1]

    def _misere_kind(self) -> str:
        d = self.decision
        return d.kind.split("_", 1)[1] if d and d.kind.startswith("misere") else "atout"

    def verify_misere(self, yes: bool, seat: int | None = None) -> tuple[str, bool]:
        """Raise :class:`IllegalPlayError` unless the misère asked now may be answered ``yes`` (R-MIS-1)."""
        kind = self._misere_kind()
        self._trial("misere", seat, ReferenceDeal.declare_misere, kind, bool(yes))
        return kind, bool(yes)

    def can_declare_misere(self, yes: bool, seat: int | None = None) -> bool:
        return _can(self.verify_misere, yes, seat)

    def declare_misere(self, yes: bool, seat: int | None = None) -> Event:
        kind = self._misere_kind()
        return self._do("misere", self._deal.declare_misere, seat, (kind, bool(yes)), kind, bool(yes))

    def apply(self, action) -> Event:
        """Apply the answer to the current decision, whatever its kind."""
        d = self.decision
        if d is None:
            raise IllegalPlayError("R-PLAY-6", "the deal is over")
        if d.kind == "bid":
            return self.bid(action)
        if d.kind == "call":
            return self.call(action)
        if d.kind == "ecart":
            return self.discard(action)
        if d.kind == "chelem":
            return self.announce_chelem(action)
        if d.kind == "poignee":
            if isinstance(action, tuple):
                return self.declare_poignee(*action)
            return self.declare_poignee(action)
        if d.kind.startswith("misere"):
            return self.declare_misere(action)
        return self.play(action)

    def verify(self, action) -> None:
        """Raise :class:`IllegalPlayError` unless :meth:`apply` would take ``action``."""
        d = self.decision
        if d is None:
            raise IllegalPlayError("R-PLAY-6", "the deal is over")
        if d.kind == "bid":
            self.verify_bid(action)
        elif d.kind == "call":
            self.verify_call(action)
        elif d.kind == "ecart":
            self.verify_discard(action)
        elif d.kind == "chelem":
            self.verify_chelem(action)
        elif d.kind == "poignee":
            self.verify_poignee(*action) if isinstance(action, tuple) else self.verify_poignee(action)
        elif d.kind.startswith("misere"):
            self.verify_misere(action)
        else:
            self.verify_play(action)

    def can(self, action) -> bool:
        return _can(self.verify, action)

    def _log(self, kind, seat, value) -> Event:
        ev = Event(kind, seat, value)
        self.events.append(ev)
        return ev

    # -- clone, events applied back ---------------------------------------------------------------
    def clone(self) -> Game:
        """An independent copy of the game in its current state (events and écart picks too)."""
        other = object.__new__(Game)
        other.__dict__.update(self.__dict__)
        other._deal = _clone_deal(self._deal)
        other.events = list(self.events)
        other._picks = list(self._picks)
        return other

    def apply_event(self, event: Event) -> Event | None:
        """Apply a logged event back.

        Apply a logged :class:`Event` back, verified like any action. A ``trick`` event is a
        consequence: it is checked against the trick just closed, not applied."""
        k, seat = event.kind, event.seat
        v: Any = event.value  # its type follows ``kind`` (see :class:`Event`)
        if k == "trick":
            t = self._deal.tricks[-1] if self._deal.tricks and not self._deal.trick else None
            if t is None or t.winner != seat or tuple(t.cards) != tuple(as_cards(v)):
                raise ValueError(f"the trick event {event} does not match the trick just played")
            return None  # already logged by its last card
        if k == "bid":
            return self.bid(v, seat)
        if k == "call":
            return self.call(v, seat)
        if k == "ecart":
            return self.discard(list(v), seat)
        if k == "chelem":
            return self.announce_chelem(v, seat)
        if k == "poignee":
            return self.declare_poignee(None, seat=seat) if v is None else self.declare_poignee(v[0], v[1], seat)
        if k == "misere":
            if self._misere_kind() != v[0] or not (self.decision and self.decision.kind.startswith("misere")):
                raise IllegalPlayError("R-MIS-1", f"misère {v[0]} is not the decision now")
            return self.declare_misere(v[1], seat)
        if k == "card":
            return self.play(v, seat)
        raise ValueError(f"unknown event kind {echo.shown(k)}")

    def replay(self, events) -> Game:
        """Apply ``events`` (another game's :attr:`events`) in order; returns this game."""
        for ev in events:
            self.apply_event(ev)
        return self

    # -- views and records -----------------------------------------------------------------------
    def view(self, seat: int) -> SeatView:
        """Everything ``seat`` may see, and nothing more."""
        d = self._deal
        shown_chien = d.contract is not None and CONTRACT_OF[d.contract].chien_shown and d.phase not in ("bid", "call")
        # R-CALL-3: the partner is known to himself, and to all once the called card is played
        called_played = d.called is not None and any(
            c == d.called for c in [c for t in d.tricks for c in t.cards] + [c for _, c in d.trick])
        partner = d.partner if (seat == d.partner or called_played) else None
        return SeatView(
            seat=seat, table=d.table, dealer=d.dealer, decision=d.decision(),
            hand=tuple(d.hands[seat]), bids=tuple(d.bids), taker=d.taker, contract=d.contract,
            called=d.called, partner=partner,
            chien=tuple(d.chien) if shown_chien else None,
            ecart=tuple(d.ecart) if seat == d.taker and d.ecart else None,
            declarations=tuple(dict(x) for x in d.declarations),
            tricks=tuple((t.leader, t.plays, t.winner) for t in d.tricks),
            trick=tuple(d.trick), options=self.rules.non_default_options(),
            ecart_trumps=tuple(c for c in d.ecart if c.is_trump),
            pile_tops=tuple(tuple(p[-1] if p and up else None for p, up in zip(ps, ups))
                            for ps, ups in zip(d.piles, d.face_up)) if d.two_player else (),
            pile_sizes=tuple(tuple(len(p) for p in ps) for ps in d.piles) if d.two_player else ())

    def observation(self, seat: int) -> np.ndarray:
        """The observation tensor of ``seat`` (docs/observations.md)."""
        return observation(self, seat)

    def information_state(self, seat: int) -> np.ndarray:
        """The information-state tensor of ``seat``: its observation and the public history."""
        return information_state(self, seat)

    def record(self) -> dict:
        """The deal record (docs/records.md) of a finished deal."""
        return record_from_deal(self._deal, self.seed, self.index)

    def _repr_svg_(self) -> str:
        """The table now, as a notebook shows it (:func:`tarotsim.svg.table_svg`)."""
        from .svg import table_svg
        return table_svg(self)

    def _repr_html_(self) -> str:
        from .svg import html_figure
        return html_figure(self._repr_svg_())


def play_game(game: Game, bots, rng: Rng | None = None) -> Game:
    """Play ``game`` to the end with Python bots (one per seat, or one for all seats).

    A bot is any object with ``choose(view, legal, rng)`` returning an answer that
    :meth:`Game.apply` takes. All seats draw from one generator, by default the deal's bots
    stream, so random bots here give the same deal as the fast path.

    Examples
    --------
    >>> from tarotsim.rules import Rules
    >>> game = play_game(Game(Rules("3"), seed=1), PyRandomBot())
    >>> game.done, game.outcome, game.scores
    (True, 'played', [278, -556, 278])
    """
    if rng is None:
        if game.seed is None:
            raise ValueError("a hand-entered deal needs an explicit rng")
        assert game.index is not None  # a seeded deal has both
        rng = Rng.for_deal(game.seed, game.index, STREAM_BOTS)
    if not isinstance(bots, (list, tuple)):
        bots = [bots] * game.rules.n_seats
    while (d := game.decision) is not None:
        try:
            game.apply(bots[d.seat].choose(game.view(d.seat), game.legal_actions(), rng))
        except IllegalPlayError as e:
            who = getattr(bots[d.seat], "name", type(bots[d.seat]).__name__)
            raise IllegalPlayError(e.rule_id, f"bot {who} at seat {d.seat}, deal ({game.seed}, {game.index}): "
                                              f"{e.message}") from None
    return game


class PyRandomBot:
    """The ``random`` bot on the slow path: the same draws as the fast path (docs/engine-contract.md).

    Examples
    --------
    Its deals are the reference engine's random deals, record for record:

    >>> from tarotsim.reference import play_deal
    >>> from tarotsim.rules import Rules
    >>> game = play_game(Game(Rules("4"), seed=7, index=3), PyRandomBot())
    >>> game.record() == play_deal(Rules("4"), 7, 3)
    True
    """

    name = "random"

    def choose(self, view: SeatView, legal, rng: Rng):
        if isinstance(legal, EcartChoice):
            if legal.trumps_needed == 0:  # trumps only when short (R-CHIEN-2)
                return _picks(legal.normal, legal.size, rng)
            return list(legal.normal) + _picks(legal.trumps, legal.trumps_needed, rng)
        return legal[rng.below(len(legal))]


def _can(verify, *args) -> bool:
    try:
        verify(*args)
    except IllegalPlayError:
        return False
    return True


def _clone_deal(deal: ReferenceDeal) -> ReferenceDeal:
    """Copy a reference deal, sharing nothing mutable with it.

    A copy of a reference deal that shares nothing mutable with it: its lists (the hands, a
    list of lists, one level deeper), sets and dicts are copied; cards and tricks are immutable."""
    other = copy.copy(deal)
    for name, value in vars(other).items():
        if isinstance(value, list):
            setattr(other, name, [x[:] if isinstance(x, list) else x for x in value])
        elif isinstance(value, (set, dict)):
            setattr(other, name, value.copy())
    return other


def _picks(pool, k: int, rng: Rng) -> list:
    """``k`` successive uniform picks without replacement from ``pool`` kept in id order."""
    remaining = sorted(pool)
    return [remaining.pop(rng.below(len(remaining))) for _ in range(k)]
