"""The exact open-card solver: what each side takes with best play when every card is known.

A *position* is a moment of the card play with every remaining card known: each seat's hand, the
trick in progress, what the attack has won so far, the sides. The solver answers, with best play
by both sides (every seat knowing every card, as bridge's double-dummy solvers do):

```python
from tarotsim.analysis.solver import Position, Solver, solve
pos = Position.from_game(game)  # a Game of tarotsim.engine (all hands known)
sol = solve(pos)                # the value, and the value of each legal card
sol.value, sol.best, sol.card_values, sol.cost(card)
solver = Solver()               # keeps its transposition table across questions
solver.reach(pos, 92)           # can the attack end with at least 46 points?
```

Two objectives (``mode``): ``"points"``, the attack's card points at the end of the deal in
half-points (0..182: the écart or chien and the tricks already won included, the Excuse by
R-EXC-2, R-EXC-3, R-EXC-4); ``"score"``, the taker's score for the deal (made or failed and by how
much, R-COUNT-3, R-COUNT-4; the oudlers the attack ends with, R-EXC-5; the petit au bout, R-PAB-1,
R-PAB-2; the slam, R-SLAM-2, R-SLAM-3; the poignées and misères declared), which the attack
maximises and the defence minimises. Best play for points and for the score can differ near the
end.

Positions come from a :class:`~tarotsim.engine.Game` (:meth:`Position.from_game`: a deal from
``(seed, index)``, a hand-entered one, or a record replayed, :meth:`Position.from_record`), from a
world sampled by :mod:`tarotsim.worlds` (:meth:`Position.from_world`), or are built by hand
(:class:`Position` itself, e.g. a few tricks before the end). Card play only: a poignée or misère
not declared yet counts as declined. Table 2 (R-VAR-TWO, its face-down piles) is not solved.

The search is in ``tarotsim._kernels.solver`` (a null-window search with equivalent cards merged,
a transposition table, move ordering and bounds); budgets are node counts, never seconds, so
answers are reproducible. docs/solver.md explains the method and gives its speed.

Each question runs in a worker thread while the calling (main) thread waits
(:func:`tarotsim.parallel.call_waiting`), so Ctrl-C or SIGTERM stops even a long search at once.
The first question of a process loads the search from numba's cache, or compiles it when the cache
lacks it (a first run, or sources changed): a :class:`CompileWarning` says so first, once
(:func:`warm_up`).
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

import numpy as np

from ..cards import DECK, Card, masks_of
from ..parallel import call_waiting
from ..reference.deal import as_card, as_cards
from ..reference.tricks import play_duty, trick_winner
from ..rng import dealing_order
from ..rules import CONTRACT_OF, CONTRACTS, N_TRICKS, POIGNEE_BONUS, POIGNEE_LEVELS, SOLVER_TABLES, Rules

__all__ = ["MAX_BUDGET", "MODES", "TABLE_TWO", "CompileWarning", "Position", "Solution", "Solver", "SolverError",
           "solve", "warm_up"]

#: The objectives: the attack's card points (half-points), or the taker's score.
MODES = ("points", "score")
#: The largest budget: the kernels count nodes in 64-bit integers.
MAX_BUDGET = 2**63 - 1
#: Why table 2 is not solved, as every refusal says it.
TABLE_TWO = "table 2 (R-VAR-TWO) is not solved: its face-down piles change what each player may play"
#: Farther than any value of either objective: a target beyond it is brought back to it (the same
#: answer), so the kernels' ``target - 1`` stays a 64-bit integer.
_FAR = 2**62


class SolverError(ValueError):
    """A position or argument the solver cannot take.

    A position the solver cannot take (inconsistent, unknown cards, a finished deal, table 2),
    or a bad argument; the message names the problem.

    Examples
    --------
    >>> from tarotsim.reference import play_deal
    >>> Position.from_record(play_deal(Rules("4"), 7, 3), trick=18)
    Traceback (most recent call last):
    ...
    tarotsim.analysis.solver.SolverError: trick 18 (0-based) is not a trick of the deal: its 18 tricks are 0..17
    """


class CompileWarning(UserWarning):
    """numba compiles the solver's search now, once (its cache lacks it): the first question waits.

    Silence it with ``warnings.simplefilter("ignore", tarotsim.analysis.solver.CompileWarning)``."""


def _kernels():
    from .._kernels import solver as K
    return K


@dataclass(frozen=True)
class Position:
    """A position of card play with every remaining card known.

    Attributes
    ----------
    rules : Rules
        The table (3, 4, 5 or 5d) and its options.
    dealer : int
        The dealer (at 5d, the dummy: R-DEAL-6).
    taker : int
    partner : int or None
        Table 5: the called partner, None when the taker plays alone (R-CALL-2); else None.
    contract : str
        ``prise``, ``garde``, ``garde_sans`` or ``garde_contre``.
    hands : tuple of tuples of Card
        Every seat's cards now, in seat order (the dummy's empty).
    leader : int
        The leader of the trick in progress.
    trick : tuple of Card
        Its cards so far, from the leader.
    tricks : tuple of (leader, cards)
        Finished tricks to replay before it (cards from the leader), from trick ``first_trick``.
    first_trick : int
        How many tricks were finished before ``tricks`` (0 for a deal followed from its start).
    attack_pile : tuple of Card
        The attack's pile before ``tricks``: the écart (prise, garde, R-CHIEN-1) or the chien
        (garde sans, R-CHIEN-3) at the start of play, and what the attack won in the tricks before
        ``first_trick``.
    excuse_debt : int
        R-EXC-2 payments before ``tricks``, in attack half-points (+1: the defence owes the attack a
        low card, -1 the reverse).
    attack_tricks : int
        Tricks the attack won before ``tricks`` (R-EXC-4, R-SLAM-2).
    petit_in_previous : bool
        The Petit was played in the trick just before ``tricks`` (R-PAB-2).
    called : Card or None
        Table 5: the called card (R-CALL-1; its suit is barred from the lead of trick 1, R-CALL-4).
    slam_announced : bool
    poignees : tuple of (seat, level)
        Poignées declared (R-POIG-1), ``level`` simple, double or triple.
    miseres : tuple of (seat, kind)
        Misères declared (R-MIS-1), ``kind`` atout or tete.

    Examples
    --------
    Deal ``(7, 3)`` at table 4 before its last two tricks: the taker, seat 1, leads:

    >>> from tarotsim.reference import play_deal
    >>> pos = Position.from_record(play_deal(Rules("4"), 7, 3), trick=16)
    >>> pos.contract, pos.taker, pos.tricks_left, pos.to_move
    ('garde_contre', 1, 2, 1)
    >>> [" ".join(map(str, hand)) for hand in pos.hands]
    ['4S 10C', '6D T2', 'ND 7S', 'T18 QH']
    >>> pos.legal_cards(), pos.play("6D").to_move
    ([Card('T2'), Card('6D')], 2)
    """

    rules: Rules
    dealer: int
    taker: int
    partner: int | None
    contract: str
    hands: tuple[tuple[Card, ...], ...]
    leader: int
    trick: tuple[Card, ...] = ()
    tricks: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    first_trick: int = 0
    attack_pile: tuple[Card, ...] = ()
    excuse_debt: int = 0
    attack_tricks: int = 0
    petit_in_previous: bool = False
    called: Card | None = None
    slam_announced: bool = False
    poignees: tuple[tuple[int, str], ...] = ()
    miseres: tuple[tuple[int, str], ...] = ()

    def __post_init__(self):
        norm = object.__setattr__
        try:
            norm(self, "hands", tuple(tuple(as_cards(h)) for h in self.hands))
            norm(self, "trick", tuple(as_cards(self.trick)))
            norm(self, "tricks", tuple((int(ld), tuple(as_cards(cs))) for ld, cs in self.tricks))
            norm(self, "attack_pile", tuple(as_cards(self.attack_pile)))
            if self.called is not None:
                norm(self, "called", as_card(self.called))
        except (ValueError, TypeError) as e:
            raise SolverError(f"unknown card: {e}") from None
        self._check()

    # -- facts ---------------------------------------------------------------------------------------
    @property
    def n_tricks(self) -> int:
        return N_TRICKS[self.rules.table]

    @property
    def trick_index(self) -> int:
        """The index of the trick in progress (0 for trick 1)."""
        return self.first_trick + len(self.tricks)

    @property
    def tricks_left(self) -> int:
        """Tricks still to finish, the one in progress included."""
        return self.n_tricks - self.trick_index

    @property
    def order(self) -> list[int]:
        """The active seats in playing order from the seat after the dealer (R-GEN-2)."""
        return dealing_order(self.rules, self.dealer)

    def seat_after(self, seat: int, k: int = 1) -> int:
        order = self.order
        return order[(order.index(seat) + k) % len(order)]

    @property
    def to_move(self) -> int:
        """The seat to play the next card."""
        return self.seat_after(self.leader, len(self.trick))

    def side_of(self, seat: int) -> str | None:
        """``attack`` (the taker, the partner), ``defence``, or None for the 5d dummy (R-GEN-3)."""
        if self.rules.table == "5d" and seat == self.dealer:
            return None
        return "attack" if seat in (self.taker, self.partner) else "defence"

    def legal_cards(self) -> list[Card]:
        """The cards the seat to move may play (R-PLAY-3, R-PLAY-4a to R-PLAY-4e, R-EXC-1, R-CALL-4)."""
        return play_duty(self.hands[self.to_move], list(self.trick), called=self.called,
                         first_trick=self.trick_index == 0,
                         called_suit_after_excuse=self.rules.called_suit_after_excuse)[0]

    def play(self, card) -> Position:
        """The position after the seat to move plays ``card`` (checked: R-PLAY-4a to R-PLAY-4e, R-CALL-4)."""
        card = as_card(card)
        seat = self.to_move
        if card not in self.legal_cards():
            raise SolverError(f"seat {seat} may not play {card} now: legal {' '.join(map(str, self.legal_cards()))}")
        hands = tuple(tuple(c for c in h if c != card) if s == seat else h for s, h in enumerate(self.hands))
        trick = self.trick + (card,)
        if len(trick) < self.rules.n_active:
            return _replace(self, hands=hands, trick=trick)
        if self.trick_index == self.n_tricks - 1:
            raise SolverError("that card ends the deal: a finished deal is no position to solve")
        winner = self.seat_after(self.leader, trick_winner(list(trick)))
        return _replace(self, hands=hands, trick=(), leader=winner, tricks=self.tricks + ((self.leader, trick),))

    # -- checks --------------------------------------------------------------------------------------
    def _check(self) -> None:
        rules = self.rules
        table = rules.table
        if table not in SOLVER_TABLES:
            raise SolverError(TABLE_TWO)
        n = rules.n_seats
        if len(self.hands) != n:
            raise SolverError(f"{len(self.hands)} hands for a table of {n} seats")
        order = self.order
        for what, seat in (("dealer", self.dealer), ("taker", self.taker), ("leader", self.leader)):
            if not (isinstance(seat, (int, np.integer)) and 0 <= seat < n):
                raise SolverError(f"{what} {seat!r} is not a seat of a table of {n}")
        if self.taker not in order or self.leader not in order:
            raise SolverError("the 5d dummy (the dealer) neither takes nor plays (R-DEAL-6)")
        if self.contract not in CONTRACTS:
            raise SolverError(f"unknown contract {self.contract!r}: one of {', '.join(CONTRACTS)}")
        if table == "5":
            if self.partner is not None and (self.partner == self.taker or self.partner not in order):
                raise SolverError(f"partner {self.partner!r} is not another seat of the table (R-CALL-2)")
        elif self.partner is not None or self.called is not None:
            raise SolverError(f"a card is called, and a partner plays, only at table 5 (R-CALL-1), not {table}")
        if self.rules.table == "5d" and self.hands[self.dealer]:
            raise SolverError("the 5d dummy holds no cards (R-DEAL-6)")
        tr = self.trick_index
        if not 0 <= self.first_trick or tr >= self.n_tricks:
            raise SolverError(f"trick {tr + 1}: the deal has {self.n_tricks} tricks at table {table}")
        if len(self.trick) >= rules.n_active:
            raise SolverError(f"{len(self.trick)} cards in the trick in progress: a trick holds {rules.n_active}")
        if not 0 <= self.attack_tricks <= self.first_trick:
            raise SolverError(f"the attack cannot have won {self.attack_tricks} of {self.first_trick} tricks")
        seen: dict[Card, str] = {}

        def place(cards, where):
            for c in cards:
                if c in seen:
                    raise SolverError(f"{c} is both in {seen[c]} and in {where}")
                seen[c] = where

        for s, h in enumerate(self.hands):
            place(h, f"seat {s}'s hand")
        place(self.trick, "the trick in progress")
        for k, (_, cards) in enumerate(self.tricks):
            place(cards, f"trick {self.first_trick + k + 1}")
        place(self.attack_pile, "the attack's pile")
        # each active seat holds one card per trick left (one fewer once it played in this trick)
        played_now = {self.seat_after(self.leader, k) for k in range(len(self.trick))}
        for s in order:
            want = self.tricks_left - (1 if s in played_now else 0)
            if len(self.hands[s]) != want:
                raise SolverError(f"seat {s} holds {len(self.hands[s])} cards: {want} at trick {tr + 1} "
                                  f"(R-DEAL-1, R-PLAY-2)")
        for seat, level in self.poignees:
            if level not in POIGNEE_LEVELS or seat not in order:
                raise SolverError(f"poignée {level!r} of seat {seat!r}: a level of {', '.join(POIGNEE_LEVELS)} "
                                  "by an active seat (R-POIG-1)")
        for seat, kind in self.miseres:
            if kind not in ("atout", "tete") or seat not in order:
                raise SolverError(f"misère {kind!r} of seat {seat!r}: atout or tete by an active seat (R-MIS-1)")
        self._check_plays()

    def _check_plays(self) -> None:
        """Check the play so far by replaying it from the hands.

        Replay the tricks and the trick in progress from the hands they were played from: every
        card legal (R-PLAY-4a to R-PLAY-4e, R-CALL-4), every trick led by the previous winner
        (R-PLAY-1)."""
        hands = {s: list(h) for s, h in enumerate(self.hands)}
        plays = list(self.tricks) + [(self.leader, self.trick)]
        for leader, cards in plays:
            for k, c in enumerate(cards):
                hands[self.seat_after(leader, k)].append(c)
        leader_due = None
        for k, (leader, cards) in enumerate(plays):
            t = self.first_trick + k
            if leader_due is not None and leader != leader_due:
                raise SolverError(f"trick {t + 1} is led by seat {leader}: the winner of trick {t}, seat "
                                  f"{leader_due}, leads it (R-PLAY-1)")
            if k < len(self.tricks) and len(cards) != self.rules.n_active:
                raise SolverError(f"trick {t + 1} has {len(cards)} cards: one per active player (R-PLAY-2)")
            for j, c in enumerate(cards):
                seat = self.seat_after(leader, j)
                allowed, rule, why = play_duty(hands[seat], list(cards[:j]), called=self.called, first_trick=t == 0,
                                               called_suit_after_excuse=self.rules.called_suit_after_excuse)
                if c not in allowed:
                    raise SolverError(f"trick {t + 1}: seat {seat} may not play {c}: {why} ({rule})")
                hands[seat].remove(c)
            if k < len(self.tricks):
                leader_due = self.seat_after(leader, trick_winner(list(cards)))

    # -- constructors --------------------------------------------------------------------------------
    @classmethod
    def from_game(cls, game) -> Position:
        """The position of a game in its card play.

        The position of a :class:`~tarotsim.engine.Game` in its card play (at a card, poignée or
        misère decision: declarations still to make count as declined).

        The game is the true deal, so every card is known: the hands, the chien and the écart are
        read from its state (the reference deal it plays), the history from its tricks."""
        deal = game._deal  # the full deal: a solver sees every card
        rules = game.rules
        if rules.table not in SOLVER_TABLES:
            raise SolverError(TABLE_TWO)
        if deal.phase == "done":
            raise SolverError("the deal is over: there is no card left to play")
        if deal.phase != "play":
            raise SolverError(f"the card play has not started: the deal is at its {deal.phase} decision")
        return cls(rules=rules, dealer=deal.dealer, taker=deal.taker, partner=deal.partner, contract=deal.contract,
                   hands=tuple(tuple(h) for h in deal.hands), leader=deal.leader,
                   trick=tuple(c for _, c in deal.trick),
                   tricks=tuple((t.leader, tuple(t.cards)) for t in deal.tricks),
                   attack_pile=_start_pile(deal.contract, deal.ecart, deal.chien), called=deal.called,
                   slam_announced=deal.chelem_announced, poignees=_poignees(deal.declarations),
                   miseres=tuple(deal._miseres))

    @classmethod
    def from_record(cls, record: dict, trick: int, card: int = 0) -> Position:
        """The position of a deal record before one of its cards.

        The position of a deal record (docs/records.md) before card ``card`` (0-based, from the leader)
        of trick ``trick`` (0-based); the record is replayed and checked first
        (``tarotsim.record.replay``)."""
        from ..record import RecordError, replay

        _whole("trick", trick)
        _whole("card", card)
        try:
            deal = replay(record).deal
        except RecordError as e:
            raise SolverError(f"bad record: {e}") from None
        return cls.from_deal(deal, trick, card)

    @classmethod
    def from_deal(cls, deal, trick: int, card: int = 0) -> Position:
        """The position of a finished reference deal before one of its cards.

        The position of a finished reference deal (``tarotsim.reference.deal.ReferenceDeal``, as
        ``tarotsim.record.replay`` gives it) before card ``card`` of trick ``trick`` (0-based)."""
        if deal.outcome != "played":
            raise SolverError(f"the deal was not played ({deal.outcome}): no card play to solve")
        n = len(deal.tricks)
        if not 0 <= _whole("trick", trick) < n:
            raise SolverError(f"trick {trick} (0-based) is not a trick of the deal: its {n} tricks are 0..{n - 1}")
        if not 0 <= _whole("card", card) < deal.n_active:
            raise SolverError(f"card {card} (0-based, from the leader) is not a card of a trick: its "
                              f"{deal.n_active} cards are 0..{deal.n_active - 1}")
        later = set(c for t in deal.tricks[trick + 1:] for c in t.cards) | set(deal.tricks[trick].cards[card:])
        hands = tuple(tuple(c for t in deal.tricks[trick:] for seat, c in t.plays if seat == s and c in later)
                      for s in range(deal.n_seats))
        now = deal.tricks[trick]
        return cls(rules=deal.rules, dealer=deal.dealer, taker=deal.taker, partner=deal.partner,
                   contract=deal.contract, hands=hands, leader=now.leader, trick=tuple(now.cards[:card]),
                   tricks=tuple((t.leader, tuple(t.cards)) for t in deal.tricks[:trick]),
                   attack_pile=_start_pile(deal.contract, deal.ecart, deal.chien), called=deal.called,
                   slam_announced=deal.chelem_announced, poignees=_poignees(deal.declarations),
                   miseres=tuple(deal._miseres))

    @classmethod
    def from_world(cls, game, worlds, w: int) -> Position:
        """The position of one sampled world of a game.

        The position of world ``w`` of ``worlds`` (:func:`tarotsim.worlds.sample` on ``game``): its
        hands and hidden pile with the game's public history, the sides as they are in that world
        (table 5: the partner is whoever holds or played the called card, R-CALL-2)."""
        view = game.view(worlds.seat)
        if game.done:
            raise SolverError("the deal is over: there is no card left to play")
        if view.decision is None or view.decision.kind in ("bid", "call", "ecart", "chelem"):
            raise SolverError("the card play has not started: a world is solved from the first card on")
        if not 0 <= w < len(worlds):
            raise SolverError(f"no world {w}: {len(worlds)} were sampled")
        hands = worlds.hands(w)
        pile = worlds.pile(w)
        tricks = tuple((leader, tuple(c for _, c in plays)) for leader, plays, _ in view.tricks)
        trick = tuple(c for _, c in view.trick)
        leader = view.trick[0][0] if view.trick else (view.tricks[-1][2] if view.tricks else None)
        deal = game._deal
        if leader is None:
            leader = deal.leader
        partner = None
        if view.called is not None:
            holder = next((s for s, h in enumerate(hands) if view.called in h), None)
            if holder is None:
                holder = next((seat for _, plays, _ in view.tricks for seat, c in plays if c == view.called), None)
                if holder is None:
                    holder = next((seat for seat, c in view.trick if c == view.called), None)
            partner = holder if holder != view.taker else None
        if CONTRACT_OF[view.contract].ecart_made:
            start = tuple(pile if view.ecart is None else view.ecart)
        else:
            start = tuple(pile) if CONTRACT_OF[view.contract].chien_to == "attack" else ()
        return cls(rules=game.rules, dealer=view.dealer, taker=view.taker, partner=partner, contract=view.contract,
                   hands=tuple(tuple(h) for h in hands), leader=leader, trick=trick, tricks=tricks,
                   attack_pile=start, called=view.called, slam_announced=deal.chelem_announced,
                   poignees=_poignees(view.declarations), miseres=tuple(deal._miseres))

    # -- the kernels' form ---------------------------------------------------------------------------
    def description(self) -> np.ndarray:
        """The kernels' description vector (``tarotsim._kernels.solver.D_*``)."""
        K = _kernels()
        d = np.zeros(K.D_LEN, dtype=np.int64)
        d[K.D_DEALER] = self.dealer
        d[K.D_TAKER] = self.taker
        d[K.D_PARTNER] = -1 if self.partner is None else self.partner
        d[K.D_CONTRACT] = CONTRACTS.index(self.contract)
        d[K.D_SLAM] = int(self.slam_announced)
        d[K.D_CALLED] = -1 if self.called is None else self.called.id
        for seat, level in self.poignees:
            bonus = POIGNEE_BONUS[POIGNEE_LEVELS.index(level)]
            d[K.D_POIG_ATT if self.side_of(seat) == "attack" else K.D_POIG_DEF] += bonus
        for seat, _ in self.miseres:
            d[K.D_MISERES + seat] += 1
        for s, h in enumerate(self.hands):
            d[K.D_HT + s], d[K.D_HS + s] = masks_of(h)
        d[K.D_PILE_T], d[K.D_PILE_S] = masks_of(self.attack_pile)
        d[K.D_EXC_ADJ] = self.excuse_debt
        d[K.D_ATT_TRICKS] = self.attack_tricks
        d[K.D_PREV_T] = 2 if self.petit_in_previous else 0
        d[K.D_FIRST] = self.first_trick
        d[K.D_TRICK] = self.trick_index
        d[K.D_POS] = len(self.trick)
        for k, (leader, cards) in enumerate(list(self.tricks) + [(self.leader, self.trick)]):
            d[K.D_LEADERS + k] = leader
            for j, c in enumerate(cards):
                d[K.D_CARDS + 5 * k + j] = c.id
        return d

    def deal_key(self) -> tuple:
        """The position's key for the transposition table, beyond the cards.

        What the transposition table's entries depend on beyond the cards: entries of one
        deal key stay valid from one position to the next."""
        return (self.rules, self.dealer, self.taker, self.partner, self.contract, self.slam_announced,
                tuple(sorted(self.poignees)), tuple(sorted(self.miseres)))


def _replace(pos: Position, **kw) -> Position:
    return replace(pos, **kw)


def _whole(what: str, x) -> int:
    """``x``, a trick's or a card's 0-based place, checked to be a whole number."""
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)):
        raise SolverError(f"{what} must be a whole number (0-based), not {x!r}")
    return int(x)


def _start_pile(contract: str, ecart, chien) -> tuple[Card, ...]:
    """The attack's pile when the play starts.

    The attack's pile when the play starts: the écart (R-CHIEN-1), the chien at garde sans
    (R-CHIEN-3), nothing at garde contre (R-CHIEN-4: the chien is the defence's)."""
    if CONTRACT_OF[contract].ecart_made:
        return tuple(ecart)
    return tuple(chien) if CONTRACT_OF[contract].chien_to == "attack" else ()


def _poignees(declarations) -> tuple[tuple[int, str], ...]:
    return tuple((d["seat"], d["level"]) for d in declarations if d["kind"] == "poignee")


@dataclass(frozen=True)
class Solution:
    """The solver's answer for one position.

    ``value`` is exact (the attack's half-points, or the taker's score) when ``complete``; otherwise
    it lies in ``[lo, hi]`` (the node budget ran out). ``card_values`` maps each legal card of the
    seat to move (``to_move``, of ``side``) to the value after it; ``best`` are the cards that keep
    ``value``. ``nodes``: cards the search tried; ``tests``: its null-window searches.

    Examples
    --------
    Before the last two tricks of deal ``(7, 3)`` (see :class:`Position`), the attack ends with
    29 points (58 half-points) if the taker leads 6D, 24 if it trumps:

    >>> from tarotsim.reference import play_deal
    >>> sol = solve(Position.from_record(play_deal(Rules("4"), 7, 3), trick=16))
    >>> sol.value, sol.complete, sol.side, sol.best
    (58, True, 'attack', (Card('6D'),))
    >>> sol.card_values
    {Card('T2'): 48, Card('6D'): 58}
    >>> sol.cost("T2"), sol.cost("6D")
    (10, 0)
    """

    mode: str
    value: int | None
    lo: int
    hi: int
    complete: bool
    to_move: int
    side: str
    card_values: dict[Card, int]
    nodes: int
    tests: int = 0

    @property
    def best(self) -> tuple[Card, ...]:
        return tuple(c for c, v in sorted(self.card_values.items()) if v == self.value)

    def cost(self, card) -> int:
        """What a card loses against best play.

        What ``card`` loses against best play, for the side that plays it (0 for a best card),
        in half-points (points) or score points (score)."""
        card = as_card(card)
        if card not in self.card_values:
            raise SolverError(f"{card} is not a legal card of seat {self.to_move} here")
        assert self.value is not None
        v = self.card_values[card]
        return self.value - v if self.side == "attack" else v - self.value


class Solver:
    """An exact open-card solver answering questions about positions.

    Answers questions about positions, keeping its transposition table from one question to the
    next while the positions belong to one deal (:meth:`Position.deal_key`; another deal empties it).

    Parameters
    ----------
    mode : str
        ``"points"`` or ``"score"`` (:data:`MODES`).
    table_bits : int
        The transposition table holds ``2**table_bits`` entries of 128 bytes (default 18: 32 MB).
    budget : int or None
        The most nodes (cards tried by the search) per question; None: no limit.
    flags : int
        The techniques used (``tarotsim._kernels.solver.F_*``; all by default), for measurements.

    Examples
    --------
    Questions about one position of deal ``(7, 3)`` (see :class:`Position`):

    >>> from tarotsim.reference import play_deal
    >>> pos = Position.from_record(play_deal(Rules("4"), 7, 3), trick=16)
    >>> solver = Solver()
    >>> solver.reach(pos, 58), solver.reach(pos, 59), solver.value(pos)
    (True, False, 58)
    >>> solver.moves(pos)
    [Card('T2'), Card('6D')]
    >>> Solver("score").value(pos)  # the taker's score for the deal
    -1536
    """

    def __init__(self, mode: str = "points", table_bits: int = 18, budget: int | None = None, flags: int | None = None):
        K = _kernels()
        if mode not in MODES:
            raise SolverError(f"unknown mode {mode!r}: points or score")
        if isinstance(table_bits, bool) or not isinstance(table_bits, int) or not 4 <= table_bits <= 26:
            raise SolverError(f"table_bits must be a whole number in 4..26, not {table_bits!r}")
        self.mode = mode
        self.budget = _budget(budget)
        self.flags = K.F_ALL if flags is None else int(flags)
        self.exact = K.EXACT_TRICKS
        self.table_bits = table_bits
        self._new_arrays()
        #: nodes searched by every question so far, and by the last one
        self.nodes = 0
        self.nodes_last = 0

    def _new_arrays(self) -> None:
        """The search's arrays, new: the transposition table (empty), the stack, the buffers."""
        from .._kernels.layout import L_LEN
        from .._kernels.workspace import new_buffer

        K = _kernels()
        self.tt = K.new_table(self.table_bits)
        self.stk = K.new_stack()
        self.buf = new_buffer()
        self.log = np.zeros(L_LEN, dtype=np.int64)
        self.out = np.zeros(K.OUT_LEN, dtype=np.int64)
        self.generation = 0
        self._deal_key: tuple | None = None

    def forget(self) -> None:
        """Empty the transposition table (at once: its entries of an older generation are ignored)."""
        self.generation += 1
        self._deal_key = None

    def _ask(self, position: Position, question: int, target: int = 0, guess: int | None = None,
             budget: int | None = None) -> np.ndarray:
        K = _kernels()
        if not isinstance(position, Position):
            raise SolverError(f"a Position is needed, not {type(position).__name__}")
        key = position.deal_key()
        if key != self._deal_key:
            self.forget()
            self._deal_key = key
        cfg = np.zeros(K.CFG_LEN, dtype=np.int64)
        cfg[K.CFG_QUESTION] = question
        cfg[K.CFG_MODE] = K.MODE_POINTS if self.mode == "points" else K.MODE_SCORE + position.taker
        cfg[K.CFG_TARGET] = target
        cfg[K.CFG_GUESS] = K.NO_GUESS if guess is None else guess
        cfg[K.CFG_BUDGET] = self.budget if budget is None else _budget(budget)
        cfg[K.CFG_FLAGS] = self.flags
        cfg[K.CFG_GEN] = self.generation
        cfg[K.CFG_EXACT] = self.exact
        warm_up()
        try:
            call_waiting(K.solve_position, position.rules.to_vector(), position.description(), cfg, self.tt, self.stk,
                         self.buf, self.log, self.out)
        except BaseException:  # an interrupt: the abandoned search still writes into the arrays it was given
            self._new_arrays()
            raise
        self.nodes_last = int(self.out[K.OUT_NODES])
        self.nodes += self.nodes_last
        return self.out

    def reach(self, position: Position, target: int, budget: int | None = None) -> bool | None:
        """Whether the objective reaches ``target`` with best play.

        Whether the objective reaches ``target`` with best play (a null-window search); None
        when the budget ran out first. Any whole number is a target (beyond every value of the
        objective, the answer is plain)."""
        if isinstance(target, bool) or not isinstance(target, (int, np.integer)):
            raise SolverError(f"target must be a whole number, not {target!r}")
        K = _kernels()
        out = self._ask(position, K.Q_REACH, max(-_FAR, min(_FAR, int(target))), budget=budget)
        return None if out[K.OUT_STATUS] != K.DONE else bool(out[K.OUT_REACH])

    def solve(self, position: Position, cards: bool = True, guess: int | None = None,
              budget: int | None = None) -> Solution:
        """The exact value of ``position`` and, with ``cards``, of each legal card of the seat to move.

        ``guess``: a value to try first (e.g. the value one card earlier)."""
        K = _kernels()
        out = self._ask(position, K.Q_CARDS if cards else K.Q_VALUE, guess=guess, budget=budget)
        complete = out[K.OUT_STATUS] == K.DONE
        values = {}
        if complete and cards:
            values = {DECK[c]: int(out[K.OUT_CARDS + c]) for c in range(78) if out[K.OUT_CARDS + c] != K.NOT_LEGAL}
        lo, hi = int(out[K.OUT_LO]), int(out[K.OUT_HI])
        mover = int(out[K.OUT_MOVER])
        return Solution(mode=self.mode, value=lo if lo == hi else None, lo=lo, hi=hi, complete=bool(complete and lo == hi),
                        to_move=mover, side=position.side_of(mover) or "", card_values=values,
                        nodes=int(out[K.OUT_NODES]), tests=int(out[K.OUT_TESTS]))

    def moves(self, position: Position) -> list[Card]:
        """The cards the search tries at ``position``, in its order.

        The cards the search tries at ``position``, in its order: the legal cards (with merging on,
        one of each class of equivalent ones: the lowest)."""
        K = _kernels()
        out = self._ask(position, K.Q_MOVES)
        return [DECK[int(c)] for c in out[K.OUT_CARDS:K.OUT_CARDS + int(out[K.OUT_LO])]]

    def value(self, position: Position, guess: int | None = None, budget: int | None = None) -> int | None:
        """The exact value of ``position`` (None when the budget ran out first)."""
        return self.solve(position, cards=False, guess=guess, budget=budget).value


def _budget(budget) -> int:
    if budget is None:
        return 0
    if isinstance(budget, bool) or not isinstance(budget, (int, np.integer)) or not 1 <= budget <= MAX_BUDGET:
        raise SolverError(f"budget must be a whole number of nodes from 1 to {MAX_BUDGET:,} (2**63 - 1), or None, "
                          f"not {budget!r}")
    return int(budget)


#: Whether this process has the search ready (loaded or compiled by :func:`warm_up`).
_ready = False


def _warn(line: str) -> None:
    warnings.warn(line, CompileWarning, stacklevel=5)  # at the caller's question, past the solver's own frames


def _last_card() -> Position:
    """A smallest position: the last card of a deal at table 3, for :func:`warm_up`'s question."""
    kh, qh, jh = (Card.parse(c) for c in ("KH", "QH", "JH"))
    return Position(rules=Rules(table="3"), dealer=0, taker=1, partner=None, contract="prise",
                    hands=((), (), (kh,)), leader=0, trick=(qh, jh), first_trick=N_TRICKS["3"] - 1)


def warm_up(notice: Callable[[str], None] | None = _warn) -> float:
    """Load the solver's search, or compile it, before the first question of the process.

    Load the solver's search from numba's cache, or compile it when the cache lacks it (a first
    run, or sources changed): then ``notice`` is told first, with about how long it takes
    (default: a :class:`CompileWarning`; None: nothing said). Returns the seconds spent
    compiling: 0 when loaded, or ready already. Every :class:`Solver`'s question calls it; call
    it first to say or time the compile yourself (``tarotsim analyse`` does).

    Examples
    --------
    >>> seconds = warm_up(notice=None)  # the next question waits for no compile
    >>> warm_up(notice=None)
    0.0
    """
    global _ready
    if _ready:
        return 0.0
    from .._builds.runs import COMPILE_SECONDS
    from .._kernels._cache import compile_notice, is_cached

    K = _kernels()
    _ready = True  # the question below is asked by a Solver, which comes back here
    cold = not is_cached([K.solve_position])
    if cold and notice is not None:
        notice(compile_notice("the exact solver", COMPILE_SECONDS["solver"]))
    t0 = time.perf_counter()
    try:
        Solver(table_bits=4).value(_last_card())
    except BaseException:
        _ready = False
        raise
    return time.perf_counter() - t0 if cold else 0.0


def solve(what, mode: str = "points", cards: bool = True, budget: int | None = None) -> Solution:
    """Solve a position or a game: its exact value and each legal card's value.

    Solve a :class:`Position` or a :class:`~tarotsim.engine.Game` (:meth:`Position.from_game`):
    its exact value and the value of each legal card (see :class:`Solution`).

    Examples
    --------
    >>> from tarotsim.reference import play_deal
    >>> pos = Position.from_record(play_deal(Rules("4"), 7, 3), trick=16)
    >>> solve(pos).value, solve(pos, mode="score").value
    (58, -1536)
    """
    position = what if isinstance(what, Position) else Position.from_game(what)
    return Solver(mode, budget=budget).solve(position, cards=cards)


def positions_of(record: dict) -> Iterable[Position]:
    """Every position of a played deal record, card by card (before each card).

    Examples
    --------
    >>> from tarotsim.reference import play_deal
    >>> positions = list(positions_of(play_deal(Rules("4"), 7, 3)))
    >>> len(positions), positions[-1].legal_cards()  # 18 tricks of 4 cards
    (72, [Card('7S')])
    """
    from ..record import replay

    deal = replay(record).deal
    for t in range(len(deal.tricks)):
        for j in range(deal.n_active):
            yield Position.from_deal(deal, t, j)
