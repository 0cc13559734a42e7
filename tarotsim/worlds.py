"""Worlds one seat cannot tell apart: its constraints, and uniform samples of the hidden cards.

A *world* places every card not yet played: in a seat's hand or in the hidden pile (the chien
while nobody has seen it, or the écart). From what one seat knows -- its hand, its écart when it
is the taker, the chien when it was shown, every card played and by whom, the declarations --
:func:`sample` draws worlds uniformly among those that agree with every hard rule:

```python
from tarotsim.worlds import constraints, sample
cons = constraints(game, seat)  # voids, trump ceilings, known cards, counts ...
worlds = sample(game, seat, n=100, seed=12345)
worlds.hands(0)                 # world 0: a list of Cards per seat
worlds.pile(0)                  # world 0: the hidden pile's cards
```

Both read the game only through ``game.view(seat)`` (:class:`tarotsim.engine.SeatView`), so
they cannot use a card the seat has not seen. The draws are made by the numba kernels of
``tarotsim._kernels.worlds`` (which a bot can call from inside the deal kernel); see that
module, and docs/worlds.md, for the method and why the law is uniform.

Supported: every decision of a deal that is not over, from the first bid to the last card
(tables 3, 4, 5, 5d and 2). What is used (rule ids in ``tarotsim/_kernels/worlds.py``): voids and trump
ceilings shown by the plays (R-PLAY-4a, R-PLAY-4b, R-PLAY-4c, R-PLAY-4d; the Excuse shows nothing, R-EXC-1, and the card
after an Excuse lead was free, R-PLAY-3), the shown chien and écart (R-CHIEN-1, R-CHIEN-2), the
unseen chien as one more hidden pile (R-CHIEN-3, R-CHIEN-4), poignées (R-POIG-2, R-POIG-3),
misères (R-MIS-1; also a seat being asked about one, which only an eligible seat is), the hand
sizes (R-DEAL-1) and "no petit sec was dealt" (R-DEAL-4, option ``petit_sec``). At table 5 a call
below the kings shows cards the taker was dealt (R-CALL-1: the four kings for a queen, and the
queens for a knight, and the knights for a jack), still in his hand or, a queen or knight at
prise and garde, in the écart; the called card itself is a hidden card like any other until it is
played (R-CALL-3); R-CALL-4 shows nothing, since lifting its ban needs 15 cards of one suit.

Table 2 (R-VAR-TWO): both players' face-up pile tops are public, known to be their owner's (a
seat's location holds its hand and its face-up tops); the cards lying face down in the piles,
both players' (the seat's own included), are one more place, :data:`UNDER`, that may hold any
card: a void or a trump ceiling shown by a play binds the player's hand only. No petit sec there.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import echo
from .cards import DECK, SUITS, Card, masks_of, parse_cards
from .rules import CONTRACTS, Rules

__all__ = ["Constraints", "Worlds", "WorldsError", "constraints", "knowledge", "sample"]

#: Location code of the hidden pile in :attr:`Worlds.locations` (seats are 0..4).
PILE = 5
#: Location code of a card already played.
PLAYED = -1
#: Table 2 (R-VAR-TWO): location code of a card face down in a pile (either player's).
UNDER = 6


class WorldsError(ValueError):
    """Bad arguments, or (with true information, never) a position no world agrees with.

    Examples
    --------
    >>> from tarotsim.engine import Game
    >>> from tarotsim.rules import Rules
    >>> sample(Game(Rules("4"), seed=7, index=3), seat=4, n=10, seed=1)
    Traceback (most recent call last):
    ...
    tarotsim.worlds.WorldsError: seat must be a seat of the table, 0..3, not 4
    """


def _kernels():
    from ._kernels import worlds as W
    return W


@dataclass(frozen=True)
class Constraints:
    """What one seat knows about the cards it cannot see (built by :func:`constraints`).

    Per seat lists are indexed by seat (the seat itself and the 5d dummy included, with no
    constraint). ``pile`` names the hidden pile: ``"chien"`` (unseen), ``"ecart"``, or None
    when there is none (the écart being made).

    Attributes
    ----------
    counts : tuple of int
        Cards each location holds now: one per seat, then the pile.
    voids : tuple of frozenset of str
        Suits (``"S" "H" "D" "C"``) each seat showed it lacks (R-PLAY-4a).
    trump_ceiling : tuple of int or None
        ``t``: the seat holds no trump above ``T<t>`` (R-PLAY-4b, R-PLAY-4c); 0: no trump at all
        (R-PLAY-4b, R-PLAY-4d, misère d'atout R-MIS-1); None: no limit.
    no_excuse, no_honours, no_plain, poignee_excuse : tuple of bool
        Misère d'atout with the Excuse counted as a trump, misère de tête (R-MIS-1); the taker
        after trumps went to the écart holds no suit card but kings (R-CHIEN-2); a poignée shown
        with the Excuse: no trump but the shown ones (R-POIG-3).
    petit_sec_checked : tuple of int
        Seats for which a world could deal a petit sec, rejected when sampling (R-DEAL-4).
    dealt_to_taker : frozenset of Card
        Table 5: the cards the call shows the taker was dealt (R-CALL-1): after a queen call the
        four kings, after a knight call the kings and queens, after a jack call the kings,
        queens and knights; empty after a king call (and at the other tables).
    under : int
        Table 2 (R-VAR-TWO): cards lying face down in the piles (location :data:`UNDER`), else 0.
    known : dict Card -> int
        Unplayed cards whose location is certain (the seat's hand, poignée cards, shown chien
        cards that stayed with the taker, the écart as the seat knows it).
    allowed : dict Card -> frozenset of int
        Every other unplayed card and the locations it may be in.
    played : frozenset of Card

    Examples
    --------
    At the first bid seat 0 knows its own 18 cards; the 60 others may be anywhere:

    >>> from tarotsim.engine import Game
    >>> from tarotsim.rules import Rules
    >>> cons = constraints(Game(Rules("4"), seed=7, index=3), 0)
    >>> cons.counts, cons.pile
    ((18, 18, 18, 18, 6), 'chien')
    >>> len(cons.known), len(cons.allowed), cons.no_trump
    (18, 60, ())
    """

    seat: int
    table: str
    pile: str | None
    counts: tuple[int, ...]
    voids: tuple[frozenset, ...]
    trump_ceiling: tuple[int | None, ...]
    no_excuse: tuple[bool, ...]
    no_honours: tuple[bool, ...]
    no_plain: tuple[bool, ...]
    poignee_excuse: tuple[bool, ...]
    petit_sec_checked: tuple[int, ...]
    known: dict
    allowed: dict
    played: frozenset
    under: int = 0
    dealt_to_taker: frozenset = frozenset()

    @property
    def no_trump(self) -> tuple[int, ...]:
        """Seats known to hold no trump (trump ceiling 0)."""
        return tuple(s for s, c in enumerate(self.trump_ceiling) if c == 0)


@dataclass(frozen=True)
class Worlds:
    """Sampled worlds of one seat (:func:`sample`).

    ``locations[w, card_id]`` (int8, shape ``(n, 78)``) is where card ``card_id`` lies in world
    ``w``: a seat ``0..n_seats-1``, :data:`PILE` (5) for the hidden pile, :data:`UNDER` (6) for a
    card face down in a pile (table 2), :data:`PLAYED` (-1) for a card already played. Known cards (the seat's own hand among them) have the same
    location in every world. ``state`` is the generator state after the draws (to go on drawing
    from the same stream).

    Examples
    --------
    >>> from tarotsim.engine import Game
    >>> from tarotsim.rules import Rules
    >>> game = Game(Rules("4"), seed=7, index=3)
    >>> worlds = sample(game, 0, n=3, seed=12345)
    >>> len(worlds), worlds.locations.shape, worlds.pile_kind
    (3, (3, 78), 'chien')
    >>> print(*worlds.pile(0))
    T15 T16 5H 3D NC KC
    >>> worlds.hands(0)[0] == game.hand(0)  # its own hand, in every world
    True
    """

    seat: int
    table: str
    pile_kind: str | None
    locations: np.ndarray
    state: int

    def __len__(self) -> int:
        return self.locations.shape[0]

    def hands(self, w: int) -> list[list[Card]]:
        """Each seat's hand in world ``w``.

        World ``w``: each seat's hand, cards in id order (the 5d dummy: []; table 2: with its
        face-up pile tops)."""
        n = Rules(table=self.table).n_seats
        row = self.locations[w]
        return [[DECK[c] for c in np.flatnonzero(row == s)] for s in range(n)]

    def pile(self, w: int) -> list[Card]:
        """World ``w``: the hidden pile's cards (the chien or the écart), in id order."""
        return [DECK[c] for c in np.flatnonzero(self.locations[w] == PILE)]

    def under_piles(self, w: int) -> list[Card]:
        """World ``w``: the cards face down in the piles (table 2, R-VAR-TWO), in id order."""
        return [DECK[c] for c in np.flatnonzero(self.locations[w] == UNDER)]


# ---------------------------------------------------------------------------------------------
# the seat's knowledge, from its view only

def _rules_of(view, rules):
    if rules is None:
        rules = Rules.from_options(view.table, view.options)
    return rules


def _stage(view) -> int:
    W = _kernels()
    d = view.decision
    if d is None:
        raise WorldsError("the deal is over: no card is hidden any more")
    if d.kind in ("bid", "call"):
        return W.STAGE_AUCTION
    if d.kind == "ecart":
        return W.STAGE_ECART
    return W.STAGE_PLAY


def knowledge(view, rules: Rules | None = None) -> np.ndarray:
    """The kernels' knowledge vector of a seat's view.

    The kernels' knowledge vector (``int64[K_LEN]``, ``tarotsim._kernels.worlds.K_*``) of a
    :class:`tarotsim.engine.SeatView`.

    Examples
    --------
    >>> from tarotsim._kernels import worlds as W
    >>> from tarotsim.engine import Game
    >>> from tarotsim.rules import Rules
    >>> know = knowledge(Game(Rules("4"), seed=7, index=3).view(2))
    >>> know.shape == (W.K_LEN,), int(know[W.K_SEAT])
    (True, 2)
    >>> bool(know[W.K_STAGE] == W.STAGE_AUCTION)
    True
    """
    W = _kernels()
    rules = _rules_of(view, rules)
    know = np.zeros(W.K_LEN, dtype=np.int64)
    stage = _stage(view)
    know[W.K_SEAT] = view.seat
    know[W.K_DEALER] = view.dealer
    know[W.K_STAGE] = stage
    know[W.K_TAKER] = -1 if view.taker is None else view.taker
    know[W.K_CONTRACT] = -1 if view.contract is None else CONTRACTS.index(view.contract)
    know[W.K_CALLED] = -1 if view.called is None else view.called.id
    know[W.K_HAND_T], know[W.K_HAND_S] = masks_of(view.hand)
    if view.chien is not None:
        know[W.K_CHIEN_T], know[W.K_CHIEN_S] = masks_of(view.chien)
    if view.ecart is not None:
        know[W.K_ECART_T], know[W.K_ECART_S] = masks_of(view.ecart)
        know[W.K_ECART_KNOWN] = 1
    else:
        know[W.K_ECART_T] = masks_of(view.ecart_trumps)[0]
    for d in view.declarations:
        if d["kind"] == "poignee":
            know[W.K_POIGNEE + d["seat"]] = masks_of(parse_cards(d["cards"]))[0]
        elif d["kind"] == "misere_atout":
            know[W.K_MISERE + d["seat"]] |= 1
        elif d["kind"] == "misere_tete":
            know[W.K_MISERE + d["seat"]] |= 2
    # R-MIS-1: another seat asked about a misère is eligible for it, as if it had declared it
    pending = view.decision
    if pending.seat != view.seat and pending.kind in ("misere_atout", "misere_tete"):
        know[W.K_MISERE + pending.seat] |= 1 if pending.kind == "misere_atout" else 2
    k = 0
    tricks = [(leader, plays) for leader, plays, _ in view.tricks]
    if view.trick:
        tricks.append((view.trick[0][0], view.trick))
    for tr, (leader, plays) in enumerate(tricks):
        know[W.K_LEADER + tr] = leader
        for j, (_, c) in enumerate(plays):
            know[W.K_CARDS + tr * 5 + j] = c.id
            k += 1
    know[W.K_N_PLAYED] = k
    # table 2 (R-VAR-TWO): the face-up tops (public) and the cards face down under each pile (a
    # pile with no face-up top, its top played in this trick, shows none of its cards yet)
    for seat, (tops, sizes) in enumerate(zip(view.pile_tops, view.pile_sizes)):
        know[W.K_TOPS_T + seat], know[W.K_TOPS_S + seat] = masks_of([c for c in tops if c is not None])
        know[W.K_UNDER + seat] = sum(size - (top is not None) for top, size in zip(tops, sizes) if size > 0)
    return know


def _derive(view, rules):
    W = _kernels()
    rules = _rules_of(view, rules)
    know = knowledge(view, rules)
    cons = np.zeros(W.C_LEN, dtype=np.int64)
    status = W.derive(rules.to_vector(), know, cons)
    if status != W.OK:
        raise WorldsError(f"seat {view.seat}'s knowledge is inconsistent (code {status})")
    return rules, cons


def _check_seat(game, seat) -> int:
    n = game.rules.n_seats
    if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < n:
        raise WorldsError(f"seat must be a seat of the table, 0..{n - 1}, not {echo.shown(seat)}")
    return int(seat)


def _pile_kind(cons, view) -> str | None:
    W = _kernels()
    if cons[W.C_COUNTS + W.LOC_PILE] == 0:
        return None
    return "ecart" if view.chien is not None else "chien"


def constraints(game, seat: int) -> Constraints:
    """The constraints on the cards ``seat`` cannot see, from ``game.view(seat)`` alone.

    Examples
    --------
    Six tricks into deal ``(7, 3)``, seat 3 played T8 under T20: it holds no trump above T20
    (R-PLAY-4b, R-PLAY-4c):

    >>> from tarotsim.engine import Game, PyRandomBot, play_game
    >>> from tarotsim.rules import Rules
    >>> events = play_game(Game(Rules("4"), seed=7, index=3), PyRandomBot()).events
    >>> game = Game(Rules("4"), seed=7, index=3).replay(events[:42])
    >>> game.view(0).trick
    ((1, Card('T15')), (2, Card('T20')), (3, Card('T8')))
    >>> cons = constraints(game, 0)
    >>> cons.trump_ceiling, cons.counts, len(cons.played)
    ((None, None, None, 20), (12, 11, 11, 11, 6), 27)
    """
    seat = _check_seat(game, seat)
    view = game.view(seat)
    rules, cons = _derive(view, game.rules)
    W = _kernels()
    n = rules.n_seats
    known, allowed, played = {}, {}, set()
    for c in range(78):
        a = int(cons[W.C_ALLOWED + c])
        if a == 0:
            played.add(DECK[c])
        elif a & (a - 1) == 0:
            known[DECK[c]] = a.bit_length() - 1
        else:
            allowed[DECK[c]] = frozenset(l for l in range(W.N_LOC) if a >> l & 1)
    flags = [int(cons[W.C_FLAGS + s]) for s in range(n)]
    return Constraints(
        seat=seat, table=rules.table, pile=_pile_kind(cons, view),
        counts=tuple(int(cons[W.C_COUNTS + s]) for s in range(n)) + (int(cons[W.C_COUNTS + W.LOC_PILE]),),
        voids=tuple(frozenset(SUITS[i] for i in range(4) if cons[W.C_VOIDS + s] >> i & 1) for s in range(n)),
        trump_ceiling=tuple(None if cons[W.C_CEILING + s] >= 21 else int(cons[W.C_CEILING + s]) for s in range(n)),
        no_excuse=tuple(bool(f & W.F_NO_EXCUSE) for f in flags),
        no_honours=tuple(bool(f & W.F_NO_HONOURS) for f in flags),
        no_plain=tuple(bool(f & W.F_NO_PLAIN) for f in flags),
        poignee_excuse=tuple(bool(f & W.F_POIGNEE_EXCUSE) for f in flags),
        petit_sec_checked=tuple(s for s in range(n) if cons[W.C_PSEC_ON + s]),
        known=known, allowed=allowed, played=frozenset(played), under=int(cons[W.C_COUNTS + W.LOC_UNDER]),
        dealt_to_taker=frozenset(DECK[22 + b] for b in range(56) if int(cons[W.C_DEALT_S]) >> b & 1))


_WORKSPACE: list = []


def _workspace():
    if not _WORKSPACE:
        _WORKSPACE.append(_kernels().new_workspace())
    return _WORKSPACE[0]


def sample(game, seat: int, n: int, seed: int) -> Worlds:
    """``n`` worlds drawn uniformly among those ``seat`` cannot tell from the true one.

    Parameters
    ----------
    game : tarotsim.engine.Game
        A deal that is not over (any decision from the first bid on); only ``game.view(seat)``
        and the rules are read.
    seat : int
        The seat whose knowledge is used.
    n : int
        Number of worlds, >= 1.
    seed : int
        The initial splitmix64 state, 0 .. 2**64 - 1 (for instance the deal's bots stream,
        ``tarotsim.rng.Rng.for_deal(seed, index, STREAM_BOTS).state``).

    Raises
    ------
    WorldsError
        Bad arguments, a finished deal, or (never with true information) no consistent world.

    Examples
    --------
    In every world seat 0 draws, seat 3 holds no trump above T20 (see :func:`constraints`):

    >>> from tarotsim.engine import Game, PyRandomBot, play_game
    >>> from tarotsim.rules import Rules
    >>> events = play_game(Game(Rules("4"), seed=7, index=3), PyRandomBot()).events
    >>> game = Game(Rules("4"), seed=7, index=3).replay(events[:42])
    >>> worlds = sample(game, 0, n=100, seed=1)
    >>> trumps = {c for w in range(100) for c in worlds.hands(w)[3] if c.is_trump}
    >>> max(trumps) <= Card.parse("T20")
    True
    """
    W = _kernels()
    seat = _check_seat(game, seat)
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise WorldsError(f"n must be a whole number >= 1, not {echo.shown(n)}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2 ** 64:
        raise WorldsError(f"seed must be a whole number in 0..2**64-1, not {echo.shown(seed)}")
    view = game.view(seat)
    rules, cons = _derive(view, game.rules)
    out = np.empty((int(n), 78), dtype=np.int8)
    wf, wi = _workspace()
    status, st = W.sample_worlds(cons, np.uint64(seed), out, wf, wi)
    if status != W.OK:
        what = {W.ERR_NO_WORLD: "no world agrees with what the seat knows",
                W.ERR_WORKSPACE: "the position needs a larger workspace",
                W.ERR_REJECT: "every world drawn dealt a petit sec (R-DEAL-4)"}.get(int(status), "error")
        raise WorldsError(f"cannot sample seat {seat}'s worlds: {what} (code {status})")
    return Worlds(seat=seat, table=rules.table, pile_kind=_pile_kind(cons, view), locations=out, state=int(st))
