"""Pictures of the game as SVG text: a card, a hand, a trick, the whole table at any point of a deal.

SVG is plain text, so nothing beyond the standard library draws it; every figure is a complete
``<svg>`` document that a browser, a notebook or an image viewer shows as it is:

```python
from tarotsim import svg
svg.card_svg("KH")                       # one card
svg.hand_svg(["T21", "EX", "KH", "3S"])  # a hand, fanned as a player holds it
svg.table_svg(game)                      # a Game at its current decision
record.record_svg(rec)                   # a deal record at the start of play
```

``Game`` and the records :func:`tarotsim.record.load` reads have ``_repr_svg_`` and
``_repr_html_``: a notebook shows them as the table. Cards read at a glance: rank and suit
symbol in the corner (hearts and diamonds red), trumps on a blue ground with their number, the
three oudlers edged in gold, the Excuse with a star. Every card drawn is one ``<g class="card">``
element carrying its name in ``data-card`` (the notation of docs/records.md, "Seats and cards").

The whole table (:func:`layout`) is computed from a :class:`Position`, the state of a deal at one
step, read off the reference engine (:func:`position_of`); :func:`tarotsim.record.positions`
gives the position after every step of a record (dealt, each bid, the call, the écart, each
declaration, each card).
The replay page (:mod:`tarotsim.analysis.replay_page`) places the same cards at the same coordinates.

What cannot be drawn (a trick with a card twice, a winner who played no card of it, names too
few for the seats) raises :class:`PictureError`, and a thing that is not a deal
:class:`PictureTypeError`, each with one line for the user.
"""

from __future__ import annotations

import math
import operator
import re
from dataclasses import dataclass, field
from xml.sax.saxutils import escape, quoteattr

from .cards import RANK_NAMES, SUIT_NAMES, Card, format_points
from .display import declaration_phrase, display_order
from .observations import MAX_SEATS
from .reference.tricks import trick_winner
from .rules import CONTRACT_OF
from .scoring import ScoreBreakdown

# -- sizes (SVG user units, i.e. CSS pixels at 100 %) -------------------------------------------
CARD_WIDTH = 50
CARD_HEIGHT = 74
CARD_RADIUS = 5
#: Horizontal step between two overlapped cards of a hand: the corner index stays visible.
FAN_STEP = 19
#: Vertical step between two rows of a hand held on a side of the table.
ROW_STEP = 40
PILE_STEP = 6           # table 2: vertical step between the cards of one pile
PILE_GAP = 58           # table 2: from one pile to the next
TABLE_WIDTH = 1000
TABLE_HEIGHT = 800
HEADER_HEIGHT = 44      # the lines above the table: deal, contract, declarations
FOOTER_HEIGHT = 30      # the line below: the scores once the deal is over
TRICK_RADIUS = (110, 80)  # how far from the centre each seat's card of the trick lies
TRICK_RADIUS_TWO = (0, 62)  # table 2: nearer, clear of the piles (R-VAR-TWO)

# -- colours and font ---------------------------------------------------------------------------
FELT = "#1d6b3c"
FELT_TEXT = "#f4f1e8"
CARD_FILL = "#ffffff"
CARD_EDGE = "#8a8a8a"
RED = "#c62828"
BLACK = "#1b1b1b"
TRUMP_FILL = "#e8eefb"
TRUMP_INK = "#1f3a93"
OUDLER_EDGE = "#c9a227"
BACK_FILL = "#2f5d8c"
BACK_LINE = "#9db8d6"
MARK_EDGE = "#f08c00"   # a card of the chien, in the taker's hand until the écart
WINNER_EDGE = "#ffd23f"
COST_FILL = "#b3261e"
#: Generic families only: the pictures load no font.
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"

#: The four suit symbols as paths in a 20 x 20 box (spades, hearts, diamonds, clubs), drawn as
#: shapes so that no font needs the glyphs.
SUIT_PATHS = (
    "M10 1.5C10 1.5 1.5 8 1.5 12.2C1.5 14.8 3.5 16.4 5.8 16.4C7.4 16.4 8.6 15.6 9.3 14.5"
    "C9.1 16.4 8.3 17.8 6.8 18.8H13.2C11.7 17.8 10.9 16.4 10.7 14.5C11.4 15.6 12.6 16.4 14.2 16.4"
    "C16.5 16.4 18.5 14.8 18.5 12.2C18.5 8 10 1.5 10 1.5Z",
    "M10 18.5C10 18.5 1.2 12 1.2 6.6C1.2 3.6 3.4 1.5 5.9 1.5C7.9 1.5 9.3 2.7 10 4.3"
    "C10.7 2.7 12.1 1.5 14.1 1.5C16.6 1.5 18.8 3.6 18.8 6.6C18.8 12 10 18.5 10 18.5Z",
    "M10 1L17.5 10L10 19L2.5 10Z",
    "M10 1.2A4.3 4.3 0 1 0 10 9.8A4.3 4.3 0 1 0 10 1.2Z"
    "M5.4 7.2A4.3 4.3 0 1 0 5.4 15.8A4.3 4.3 0 1 0 5.4 7.2Z"
    "M14.6 7.2A4.3 4.3 0 1 0 14.6 15.8A4.3 4.3 0 1 0 14.6 7.2Z"
    "M9.1 10.5C9.1 14.8 8.3 17 6.5 18.8H13.5C11.7 17 10.9 14.8 10.9 10.5Z",
)
#: A suit card's rank in words, for its tooltip.
RANK_WORDS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "knight", "queen", "king")
STAR_PATH = "M10 1.5L12.4 7.4L18.8 7.9L13.9 12L15.4 18.3L10 14.9L4.6 18.3L6.1 12L1.2 7.9L7.6 7.4Z"


class PictureError(ValueError):
    """What cannot be drawn, said in one line for the user.

    A trick with a card or a seat twice, a winner or a leader who played no card of it, names
    too few or too many for the seats, a step the deal does not have."""


class PictureTypeError(PictureError, TypeError):
    """Something :func:`table_svg` cannot draw: not a Game, a reference deal or a Position."""


def coord(x: float) -> str:
    """A coordinate, short: whole numbers without a decimal point."""
    return str(int(x)) if float(x).is_integer() else f"{x:.1f}"


def _attr(value) -> str:
    return quoteattr(str(value))


def _text(x: float, y: float, text: str, size: float, fill: str, *, anchor: str = "start", bold: bool = False,
          cls: str | None = None) -> str:
    weight = ' font-weight="bold"' if bold else ""
    klass = f" class={_attr(cls)}" if cls else ""
    return (f'<text{klass} x="{coord(x)}" y="{coord(y)}" font-size="{coord(size)}" fill="{fill}"{weight} '
            f'text-anchor="{anchor}">{escape(text)}</text>')


def _shape(path: str, x: float, y: float, size: float, fill: str) -> str:
    """A 20 x 20 path drawn ``size`` units wide with its top-left corner at (x, y)."""
    return f'<path transform="translate({coord(x)} {coord(y)}) scale({size / 20:g})" d="{path}" fill="{fill}"/>'


# ---------------------------------------------------------------------------------------------
# one card


def card_face(card) -> str:
    """The elements drawing ``card`` face up with its top-left corner at the origin."""
    c = Card.parse(card)
    edge, width = (OUDLER_EDGE, 2) if c.is_oudler else (CARD_EDGE, 1)
    fill = TRUMP_FILL if c.is_trump else CARD_FILL
    out = [f'<rect x="0.5" y="0.5" width="{CARD_WIDTH - 1}" height="{CARD_HEIGHT - 1}" rx="{CARD_RADIUS}" '
           f'fill="{fill}" stroke="{edge}" stroke-width="{width}"/>']
    if c.is_excuse:
        out.append(_text(3, 13, "EX", 10, BLACK, bold=True))
        out.append(_shape(STAR_PATH, 12, 22, 26, OUDLER_EDGE))
        out.append(_text(CARD_WIDTH / 2, 63, "Excuse", 8, BLACK, anchor="middle"))
    elif c.is_trump:
        number = str(c.rank)
        out.append(_text(3, 14, number, 12 if len(number) == 1 else 11, TRUMP_INK, bold=True))
        out.append(_text(CARD_WIDTH / 2 + 4, 50, number, 24, TRUMP_INK, anchor="middle", bold=True))
        out.append(_text(CARD_WIDTH / 2 + 4, 64, "atout", 8, TRUMP_INK, anchor="middle"))
    else:
        suit = c.suit
        assert suit is not None  # neither the Excuse nor a trump
        ink = RED if suit in (1, 2) else BLACK
        rank = RANK_NAMES[c.rank - 1]
        out.append(_text(3 if len(rank) == 1 else 1.5, 14, rank, 12 if len(rank) == 1 else 11, ink, bold=True))
        out.append(_shape(SUIT_PATHS[suit], 3, 17, 12, ink))
        if c.rank > 10:  # a face card: its letter over the suit
            out.append(_text(CARD_WIDTH / 2 + 4, 42, rank, 22, ink, anchor="middle", bold=True))
            out.append(_shape(SUIT_PATHS[suit], CARD_WIDTH / 2 - 5, 48, 18, ink))
        else:
            out.append(_shape(SUIT_PATHS[suit], CARD_WIDTH / 2 - 11, 25, 26, ink))
    return "".join(out)


def card_back() -> str:
    """The elements drawing a card face down with its top-left corner at the origin."""
    return (f'<rect x="0.5" y="0.5" width="{CARD_WIDTH - 1}" height="{CARD_HEIGHT - 1}" rx="{CARD_RADIUS}" '
            f'fill="{BACK_FILL}" stroke="{CARD_EDGE}"/>'
            f'<rect x="5" y="5" width="{CARD_WIDTH - 10}" height="{CARD_HEIGHT - 10}" rx="3" fill="none" '
            f'stroke="{BACK_LINE}" stroke-dasharray="3 2"/>')


def card_title(card) -> str:
    """What a card's tooltip says.

    The card as the pictures write it, then in words: ``K♥ (king of hearts)``, ``T5 (trump)``,
    ``T21 (oudler)``, ``EX (the Excuse, oudler)``."""
    c = Card.parse(card)
    if c.is_excuse:
        return "EX (the Excuse, oudler)"
    if c.is_trump:
        return f"{c} ({'the Petit, ' if c.rank == 1 else ''}{'oudler' if c.is_oudler else 'trump'})"
    assert c.suit is not None  # neither the Excuse nor a trump
    return f"{c.pretty()} ({RANK_WORDS[c.rank - 1]} of {SUIT_NAMES[c.suit]})"


def card_group(card, x: float = 0, y: float = 0, *, face_up: bool = True, marked: bool = False) -> str:
    """One card as a ``<g class="card" data-card="KH">`` element at (x, y)."""
    c = Card.parse(card)
    klass = "card" + ("" if face_up else " down") + (" mark" if marked else "")
    body = card_face(c) if face_up else card_back()
    if marked:
        body += (f'<rect x="1.5" y="1.5" width="{CARD_WIDTH - 3}" height="{CARD_HEIGHT - 3}" rx="{CARD_RADIUS}" '
                 f'fill="none" stroke="{MARK_EDGE}" stroke-width="3"/>')
    return (f'<g class="{klass}" data-card="{c}" transform="translate({coord(x)} {coord(y)})">'
            f"<title>{escape(card_title(c))}</title>{body}</g>")


def _document(width: float, height: float, body: str, background: str | None = None) -> str:
    back = f'<rect width="100%" height="100%" fill="{background}"/>' if background else ""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{coord(width)}" height="{coord(height)}" '
            f'viewBox="0 0 {coord(width)} {coord(height)}" font-family="{FONT}">{back}{body}</svg>')


def card_svg(card, face_up: bool = True) -> str:
    """One card as a whole SVG document (face down with ``face_up=False``)."""
    return _document(CARD_WIDTH, CARD_HEIGHT, card_group(card, face_up=face_up))


def hand_svg(cards, *, sort: bool = True) -> str:
    """A hand fanned in one row.

    A hand fanned in one row, as a player holds it (:func:`tarotsim.display.display_order`
    unless ``sort`` is False)."""
    cs = display_order(cards) if sort else [Card.parse(c) for c in cards]
    twice = next((c for i, c in enumerate(cs) if c in cs[:i]), None)
    if twice is not None:
        raise PictureError(f"{twice.pretty()} is twice in the hand: each card once")
    width = FAN_STEP * max(0, len(cs) - 1) + CARD_WIDTH if cs else CARD_WIDTH
    return _document(width + 4, CARD_HEIGHT + 4, "".join(card_group(c, 2 + FAN_STEP * i, 2) for i, c in enumerate(cs)))


def trick_svg(plays, leader: int | None = None, winner: int | None = None, names=None) -> str:
    """A trick laid out from its leader.

    A trick laid out from its leader: ``plays`` is ``[(seat, card), ...]`` in playing order,
    seats counted from 0; the winner's card is edged in gold, each card captioned with its seat
    (``names[seat]``, else ``seat 0`` ...).

    Raises
    ------
    PictureError
        A card or a seat twice in the trick, more plays than seats at a table, a ``leader`` who
        does not play first, a ``winner`` whose card does not win the trick (R-PLAY-5; the
        Excuse led to the last trick may win, R-EXC-4), a seat that ``names`` does not name.
    PictureTypeError
        A play that is not a ``(seat, card)`` pair.
    tarotsim.cards.CardError
        A card name that is not in the notation.
    """
    plays = [_play(play) for play in plays]
    seats = [s for s, _ in plays]
    _check_trick(plays, leader, winner)
    leader = plays[0][0] if leader is None and plays else leader
    if names is not None:
        names = list(names)
        missing = [s for s in seats if s >= len(names)]
        if missing:
            raise PictureError(f"no name for seat {missing[0]}: {len(names)} name(s), for seats 0..{len(names) - 1}")
    gap = CARD_WIDTH + 12
    body = []
    for i, (seat, c) in enumerate(plays):
        x = 6 + gap * i
        body.append(card_group(c, x, 6))
        who = names[seat] if names is not None else f"seat {seat}"
        body.append(_text(x + CARD_WIDTH / 2, CARD_HEIGHT + 20, who, 11, BLACK, anchor="middle"))
        if seat == winner:
            body.append(_winner_ring(x, 6))
        if seat == leader:
            body.append(_text(x + CARD_WIDTH / 2, CARD_HEIGHT + 33, "leads", 9, BLACK, anchor="middle"))
    return _document(6 + gap * max(1, len(plays)), CARD_HEIGHT + 40, "".join(body))


def _play(play) -> tuple[int, Card]:
    """A play of a trick, ``(seat, card)``, as a seat number and a card."""
    if isinstance(play, (str, bytes)) or not isinstance(play, (tuple, list)) or len(play) != 2:
        raise PictureTypeError(f"a play of a trick is a (seat, card) pair such as (0, 'KH'), not {play!r}")
    return _seat_number(play[0]), Card.parse(play[1])


def _seat_number(seat) -> int:
    """A seat of a trick as a number from 0 (a bool, a fraction, a text or a negative number is no seat)."""
    try:
        number = operator.index(seat)
    except TypeError:
        number = -1
    if isinstance(seat, bool) or not 0 <= number < MAX_SEATS:
        raise PictureError(f"seat {seat!r}: a seat is a whole number from 0 to {MAX_SEATS - 1}")
    return number


def _check_trick(plays: list[tuple[int, Card]], leader, winner) -> None:
    """Refuse a trick no deal can have.

    A card or a seat twice, a leader who does not play first, a winner who plays no card of it."""
    if len(plays) > MAX_SEATS:
        raise PictureError(f"{len(plays)} plays: a trick has one card per seat, {MAX_SEATS} at most")
    seen_cards: set[Card] = set()
    seen_seats: set[int] = set()
    for seat, c in plays:
        if c in seen_cards:
            raise PictureError(f"{c.pretty()} is played twice in the trick: each card once")
        if seat in seen_seats:
            raise PictureError(f"seat {seat} plays twice in the trick: one card per seat")
        seen_cards.add(c)
        seen_seats.add(seat)
    order = f"it is played by {', '.join(f'seat {s}' for s, _ in plays)}" if plays else "it holds no card"
    if leader is not None and (not plays or _seat_number(leader) != plays[0][0]):
        raise PictureError(f"leader seat {leader}: the leader plays the trick's first card, and {order}")
    if winner is None:
        return
    if _seat_number(winner) not in seen_seats:
        raise PictureError(f"winner seat {winner}: seat {winner} plays no card of the trick ({order})")
    cards = [c for _, c in plays]
    if all(c.is_excuse for c in cards):
        return  # the Excuse alone: the trick's winner is still to come
    best = plays[trick_winner(cards)]
    # R-EXC-4: the Excuse led to the last trick of a chelem wins it
    if winner != best[0] and not (cards[0].is_excuse and winner == plays[0][0]):
        raise PictureError(f"winner seat {winner}: {dict(plays)[winner].pretty()} does not win the trick, "
                           f"{best[1].pretty()} of seat {best[0]} does (R-PLAY-5)")


def _winner_ring(x: float, y: float) -> str:
    return (f'<rect class="winner" x="{coord(x - 3)}" y="{coord(y - 3)}" width="{CARD_WIDTH + 6}" '
            f'height="{CARD_HEIGHT + 6}" rx="{CARD_RADIUS + 2}" fill="none" stroke="{WINNER_EDGE}" '
            f'stroke-width="3"/>')


# ---------------------------------------------------------------------------------------------
# the state of a deal at one step


@dataclass(frozen=True)
class Position:
    """The whole table at one step of a deal, every card known (the picture's input).

    ``hands`` per seat in display order; ``piles`` (table 2, R-VAR-TWO) per seat, per pile,
    the cards left from bottom to top, with ``face_up`` telling whether each pile's top is turned
    up; ``trick`` the ``(seat, card)`` plays in the middle (the trick being played, or the last
    one finished, whose ``trick_winner`` is then set); ``aside`` what lies beside the table: the
    chien until it is taken, then the écart (``aside_label`` says which); ``marked`` the chien's
    cards while they are in the taker's hand before the écart.
    """

    table: str
    dealer: int
    dummy: int | None
    hands: tuple[tuple[Card, ...], ...]
    step: str = ""
    seed: int | None = None
    index: int | None = None
    piles: tuple[tuple[tuple[Card, ...], ...], ...] = ()
    face_up: tuple[tuple[bool, ...], ...] = ()
    aside: tuple[Card, ...] = ()
    aside_label: str = "chien"
    marked: frozenset = frozenset()
    bids: tuple[tuple[int, str], ...] = ()
    taker: int | None = None
    contract: str | None = None
    called: Card | None = None
    partner: int | None = None
    declarations: tuple[dict, ...] = ()
    trick: tuple[tuple[int, Card], ...] = ()
    trick_leader: int | None = None
    trick_winner: int | None = None
    trick_number: int = 0
    tricks_won: tuple[int, ...] = ()
    to_act: int | None = None
    outcome: str | None = None
    scores: tuple[int, ...] | None = None
    result: dict | None = None
    breakdown: ScoreBreakdown | None = None

    @property
    def n_seats(self) -> int:
        return len(self.hands)

    def shown(self) -> list[Card]:
        """Every card the picture draws: hands, piles, what lies aside and the trick."""
        out = [c for h in self.hands for c in h] + [c for ps in self.piles for p in ps for c in p]
        return out + list(self.aside) + [c for _, c in self.trick]


def position_of(deal, step: str = "", seed: int | None = None, index: int | None = None) -> Position:
    """The :class:`Position` of a :class:`~tarotsim.reference.deal.ReferenceDeal` now."""
    d = deal
    n = d.n_seats
    if d.trick:
        plays, leader, winner, number = tuple(d.trick), d.leader, None, len(d.tricks) + 1
    elif d.tricks:
        t = d.tricks[-1]
        plays, leader, winner, number = t.plays, t.leader, t.winner, len(d.tricks)
    else:
        plays, leader, winner, number = (), None, None, 0
    won = [0] * n
    for t in d.tricks:
        won[t.winner] += 1
    aside, label, marked = _aside(d)
    decision = d.decision()
    return Position(
        table=d.table, dealer=d.dealer, dummy=d.dummy, step=step, seed=seed, index=index,
        hands=tuple(tuple(display_order(h)) for h in d.hands),
        piles=tuple(tuple(tuple(p) for p in ps) for ps in d.piles) if d.two_player else (),
        face_up=tuple(tuple(u) for u in d.face_up) if d.two_player else (),
        aside=aside, aside_label=label, marked=marked, bids=tuple(d.bids), taker=d.taker, contract=d.contract,
        called=d.called, partner=d.partner, declarations=tuple(dict(x) for x in d.declarations),
        trick=plays, trick_leader=leader, trick_winner=winner, trick_number=number, tricks_won=tuple(won),
        to_act=decision.seat if decision else None, outcome=d.outcome,
        scores=tuple(d.scores) if d.done else None, result=d.result, breakdown=d.breakdown)


def _aside(d) -> tuple[tuple[Card, ...], str, frozenset]:
    """What lies beside the table.

    What lies beside the table (R-CHIEN-1 to R-CHIEN-4): the chien until the taker takes it,
    nothing (its cards marked in his hand) until the écart, then the écart."""
    if d.contract is None or d.phase in ("bid", "call"):
        return tuple(d.chien), "chien", frozenset()
    contract = CONTRACT_OF[d.contract]
    if contract.chien_shown:
        if d.phase == "ecart":
            return (), f"chien: in seat {d.taker}'s hand (orange)", frozenset(d.chien)
        return tuple(d.ecart), f"écart of seat {d.taker}", frozenset()
    return tuple(d.chien), f"chien, unseen: counts for the {contract.chien_to}", frozenset()


# ---------------------------------------------------------------------------------------------
# the whole table


@dataclass(frozen=True)
class Placed:
    """One card of the table picture: where it lies, face up or down, edged as the chien's."""

    card: Card
    x: float
    y: float
    face_up: bool = True
    marked: bool = False


@dataclass
class Layout:
    """The table picture of one position.

    The table picture of one position: the cards placed, and the rest (felt, labels, marks) as
    SVG elements drawn over them."""

    cards: list[Placed] = field(default_factory=list)
    overlay: list[str] = field(default_factory=list)
    width: int = TABLE_WIDTH
    height: int = TABLE_HEIGHT


#: Per number of seats, each seat's place as fractions of the felt (seat 0 at the bottom, then
#: counter-clockwise as the deal goes round, R-GEN-2) and the cards in one row of its hand.
SEAT_PLACES = {
    2: ((0.5, 0.86, 30), (0.5, 0.12, 30)),
    3: ((0.5, 0.88, 30), (0.81, 0.22, 10), (0.19, 0.22, 10)),
    4: ((0.5, 0.89, 30), (0.86, 0.48, 9), (0.5, 0.1, 30), (0.14, 0.48, 9)),
    5: ((0.5, 0.89, 30), (0.86, 0.56, 9), (0.69, 0.14, 9), (0.31, 0.14, 9), (0.14, 0.56, 9)),
}


def _seat_anchor(n: int, seat: int) -> tuple[float, float, int]:
    fx, fy, per_row = SEAT_PLACES[n][seat]
    felt = TABLE_HEIGHT - HEADER_HEIGHT - FOOTER_HEIGHT
    return fx * TABLE_WIDTH, HEADER_HEIGHT + fy * felt, per_row


def _centre() -> tuple[float, float]:
    return TABLE_WIDTH / 2, HEADER_HEIGHT + 0.5 * (TABLE_HEIGHT - HEADER_HEIGHT - FOOTER_HEIGHT)


def _hand_box(count: int, per_row: int) -> tuple[float, float]:
    """Width and height of a hand of ``count`` cards, ``per_row`` to a row."""
    cols = max(1, min(count, per_row))
    rows = max(1, math.ceil(count / per_row))
    return FAN_STEP * (cols - 1) + CARD_WIDTH, ROW_STEP * (rows - 1) + CARD_HEIGHT


def layout(pos: Position, names=None, costs=None, you: int | None = None) -> Layout:
    """Lay out the table picture of a position.

    Place every card of ``pos`` and draw its labels: each seat's hand fanned at its place,
    the trick in the middle (its leader named, its winner edged in gold), the chien or the écart
    in the bottom-left corner, the contract and declarations above, the scores below.

    ``names`` name the seats (default ``seat 0`` ...). ``costs`` maps a card of the trick shown
    to what it cost against best play, in half-points (an exact solver's figure; None: unknown).
    ``you``: the seat the picture speaks to (``you take``, ``your écart``), as a player's page draws it.
    """
    names = seat_names(names, pos.n_seats)
    out = Layout()
    out.overlay.append(f'<rect class="felt" width="{TABLE_WIDTH}" height="{TABLE_HEIGHT}" fill="{FELT}"/>')
    _header(pos, names, out, you)
    for seat in range(pos.n_seats):
        _seat(pos, seat, names, out)
    _aside_cards(pos, names, out, you)
    _trick(pos, names, out, costs or {}, you)
    _footer(pos, names, out)
    return out


def seat_names(names, n_seats: int) -> list[str]:
    """The names of the seats of a picture: ``names``, one per seat from seat 0, else ``seat 0`` ...

    Raises
    ------
    PictureError
        ``names`` does not hold one name per seat.
    """
    if names is None:
        return [f"seat {s}" for s in range(n_seats)]
    names = [str(x) for x in names]
    if len(names) != n_seats:
        raise PictureError(f"{len(names)} name(s) for {n_seats} seats: one name per seat, seat 0 first")
    return names


#: A card of the records' notation (``KH``, ``10S``) in a step's text; trumps and the Excuse are
#: written alike in both notations.
_SUIT_CARD = re.compile(r"\b(?:10|[1-9JNQK])[SHDC]\b", re.IGNORECASE)
_SEAT = re.compile(r"\bseat (\d)\b")


def shown_text(text: str, names, you: int | None = None) -> str:
    """A text of a position as the pictures write it: each seat by its name, each card as ``K♥``.

    ``text`` is a :class:`Position`'s ``step`` (the text of :func:`tarotsim.record.positions`,
    ``"trick 7, seat 2 plays KH"``: the records' notation, as the replay's errors name a step) or
    its ``aside_label``; ``names`` one name per seat; seat ``you``'s hand and écart are ``your``."""
    if you is not None:
        text = text.replace(f"écart of seat {you}", "your écart").replace(f"seat {you}'s", "your")
    text = _SUIT_CARD.sub(lambda m: Card.parse(m[0]).pretty(), text)
    return _SEAT.sub(lambda m: names[int(m[1])] if int(m[1]) < len(names) else m[0], text)


def _header(pos: Position, names, out: Layout, you: int | None = None) -> None:
    ident = f"seed {pos.seed}, index {pos.index}" if pos.seed is not None else "hand-entered deal"
    line1 = f"Table {pos.table} · {ident} · dealer {names[pos.dealer]}"
    out.overlay.append(_text(12, 18, line1, 14, FELT_TEXT, bold=True, cls="deal"))
    out.overlay.append(_text(TABLE_WIDTH - 12, 18, shown_text(pos.step, names), 13, FELT_TEXT, anchor="end",
                             cls="step"))
    out.overlay.append(_text(12, 36, contract_line(pos, names, you), 12, FELT_TEXT, cls="contract"))


def _verb(seat: int, you: int | None, third: str, second: str) -> str:
    return second if seat == you else third


def contract_line(pos: Position, names, you: int | None = None) -> str:
    """The line above the table: the auction, or the contract, the call and the declarations.

    ``you``: the seat the picture speaks to, as for :func:`layout`."""
    if pos.outcome == "petit_sec":
        return "Petit sec: the deal is annulled (R-DEAL-4)"
    if pos.outcome == "all_passed":
        return "Everybody passed: the deal is thrown in (R-BID-3)"
    if pos.taker is None:
        return "Auction" + (": " + ", ".join(f"{names[s]} {b.replace('_', ' ')}" for s, b in pos.bids)
                            if pos.bids else "")
    m = CONTRACT_OF[pos.contract].multiplier if pos.contract else 1
    takes = _verb(pos.taker, you, "takes", "take")
    parts = [f"{names[pos.taker]} {takes}: {str(pos.contract).replace('_', ' ')} (x{m})"]
    if pos.called is not None:
        partner = names[pos.partner] if pos.partner is not None else "nobody (alone)"
        parts.append(f"calls {pos.called.pretty()}, partner {partner}")
    parts.extend(declaration_phrase(d, names[d["seat"]], to_you=d["seat"] == you, pretty=True)
                 for d in pos.declarations)
    return " · ".join(parts)


def _role(pos: Position, seat: int) -> str:
    if seat == pos.dummy:
        return "dummy, sits out"
    if pos.taker is None:
        return ""
    if seat == pos.taker:
        return "taker"
    return "partner" if seat == pos.partner else "defence"


def _seat(pos: Position, seat: int, names, out: Layout) -> None:
    ax, ay, per_row = _seat_anchor(pos.n_seats, seat)
    hand = pos.hands[seat]
    w, h = _hand_box(len(hand), per_row)
    x0, y0 = ax - w / 2, ay - h / 2
    for i, c in enumerate(hand):
        out.cards.append(Placed(c, x0 + FAN_STEP * (i % per_row), y0 + ROW_STEP * (i // per_row),
                                marked=c in pos.marked))
    bits = [names[seat]] + (["dealer"] if seat == pos.dealer else [])
    role = _role(pos, seat)
    bits += [role] if role else []
    bid = [b for s, b in pos.bids if s == seat]
    if bid and pos.taker is None and pos.outcome is None:
        bits.append(bid[-1].replace("_", " "))
    if pos.trick_number and seat != pos.dummy:
        won = pos.tricks_won[seat]
        bits.append(f"{won} trick" + ("" if won == 1 else "s"))
    if pos.scores is not None:
        bits.append(f"{pos.scores[seat]:+d}")
    turn = seat == pos.to_act
    label = ("▶ " if turn else "") + " · ".join(bits)
    right = ax > 0.7 * TABLE_WIDTH  # a seat on the right: its label ends at its hand's right edge
    out.overlay.append(_text(x0 + w if right else x0, y0 - 7, label, 12, WINNER_EDGE if turn else FELT_TEXT,
                             anchor="end" if right else "start", bold=turn, cls=f"seat seat-{seat}"))
    if pos.piles:
        _piles(pos, seat, ax, y0, h, out)


def _piles(pos: Position, seat: int, ax: float, y0: float, h: float, out: Layout) -> None:
    """Place one seat's piles at table 2 (R-VAR-TWO).

    Table 2 (R-VAR-TWO): the six piles between a player's hand and the middle, each from
    bottom to top; the cards under a top lie face down, a top face up once turned."""
    piles = pos.piles[seat]
    tall = CARD_HEIGHT + PILE_STEP * 2
    y = y0 - 24 - tall if seat == 0 else y0 + h + 24
    x0 = ax - (PILE_GAP * (len(piles) - 1) + CARD_WIDTH) / 2
    for k, p in enumerate(piles):
        for depth, c in enumerate(p):
            top = depth == len(p) - 1
            out.cards.append(Placed(c, x0 + PILE_GAP * k, y + PILE_STEP * depth, face_up=top and pos.face_up[seat][k]))


def _aside_cards(pos: Position, names, out: Layout, you: int | None = None) -> None:
    y = TABLE_HEIGHT - FOOTER_HEIGHT - CARD_HEIGHT - 6
    if pos.aside or pos.marked:
        out.overlay.append(_text(16, y - 7, shown_text(pos.aside_label, names, you), 12, FELT_TEXT, cls="aside"))
    for i, c in enumerate(pos.aside):
        out.cards.append(Placed(c, 16 + FAN_STEP * i, y))


def _trick_slot(n: int, seat: int) -> tuple[float, float]:
    """Top-left corner of ``seat``'s card in the trick: from the centre towards the seat."""
    cx, cy = _centre()
    ax, ay, _ = _seat_anchor(n, seat)
    dx, dy = ax - cx, ay - cy
    norm = math.hypot(dx, dy) or 1.0
    rx, ry = TRICK_RADIUS_TWO if n == 2 else TRICK_RADIUS
    return cx + dx / norm * rx - CARD_WIDTH / 2, cy + dy / norm * ry - CARD_HEIGHT / 2


def _trick(pos: Position, names, out: Layout, costs, you: int | None = None) -> None:
    if not pos.trick:
        return
    cx, cy = _centre()
    title = f"trick {pos.trick_number}"
    if pos.trick_winner is not None:
        title += f": {names[pos.trick_winner]} {_verb(pos.trick_winner, you, 'wins', 'win')}"
    out.overlay.append(_text(cx, cy + 4, title, 12, FELT_TEXT, anchor="middle", bold=True, cls="trick-title"))
    for seat, c in pos.trick:
        x, y = _trick_slot(pos.n_seats, seat)
        out.cards.append(Placed(c, x, y))
        if seat == pos.trick_winner:
            out.overlay.append(_winner_ring(x, y))
        if seat == pos.trick_leader:
            out.overlay.append(_text(x + CARD_WIDTH / 2, y - 5, "leads", 10, FELT_TEXT, anchor="middle",
                                     cls="leader"))
        cost = costs.get(str(c))
        if cost:
            out.overlay.append(_cost_badge(x + CARD_WIDTH - 6, y + CARD_HEIGHT - 6, cost))


def _cost_badge(x: float, y: float, half_points: int) -> str:
    """A card's cost, centred at (x, y): a red disc, or a pill as wide as a longer figure (``-12.5``)."""
    text = "-" + format_points(half_points)
    width = max(22, 6 * len(text) + 4)
    return (f'<g class="cost"><rect x="{coord(x - width / 2)}" y="{coord(y - 11)}" width="{width}" height="22" '
            f'rx="11" fill="{COST_FILL}"/>'
            + _text(x, y + 4, text, 10, "#ffffff", anchor="middle", bold=True) + "</g>")


def _footer(pos: Position, names, out: Layout) -> None:
    if pos.scores is None:
        return
    text = "Scores: " + " · ".join(f"{names[s]} {sc:+d}" for s, sc in enumerate(pos.scores))
    res = pos.result
    if res:
        text = (f"attack {format_points(res['attack_half_points'])} points, {res['oudlers']} oudler(s): "
                f"{'made' if res['made'] else 'failed'} by {abs(res['difference'])} · ") + text
    out.overlay.append(_text(TABLE_WIDTH - 12, TABLE_HEIGHT - 10, text, 12, FELT_TEXT, anchor="end", bold=True,
                             cls="scores"))


def render(lay: Layout, unseen=frozenset()) -> str:
    """A :class:`Layout` as a whole SVG document: the felt, the cards, then the labels and marks.

    The cards of ``unseen`` are drawn as backs that name no card (no ``data-card``, no title):
    the table as a seat sees it, whose page must not hold the other hands."""
    felt, rest = lay.overlay[:1], lay.overlay[1:]
    cards = [card_group(p.card, p.x, p.y, face_up=p.face_up, marked=p.marked) if p.card not in unseen
             else f'<g class="card down" transform="translate({coord(p.x)} {coord(p.y)})">{card_back()}</g>'
             for p in lay.cards]
    return _document(lay.width, lay.height, "".join(felt + cards + rest))


# ---------------------------------------------------------------------------------------------
# the front doors


def table_svg(what, names=None, costs=None) -> str:
    """The whole table as SVG.

    The whole table as SVG: a :class:`~tarotsim.engine.Game` at its current decision, a
    :class:`~tarotsim.reference.deal.ReferenceDeal`, or a :class:`Position`; ``names`` and
    ``costs`` as :func:`layout` takes them.

    Raises
    ------
    PictureTypeError
        ``what`` is none of those (a deal record is drawn by :func:`tarotsim.record.record_svg`).
    PictureError
        ``names`` does not hold one name per seat.
    """
    from .reference.deal import ReferenceDeal

    if isinstance(what, Position):
        pos = what
    elif isinstance(getattr(what, "_deal", None), ReferenceDeal):
        pos = position_of_game(what)
    elif isinstance(what, ReferenceDeal):
        pos = position_of(what)
    else:
        hint = "; a deal record is drawn by tarotsim.record.record_svg" if isinstance(what, dict) else ""
        raise PictureTypeError(f"table_svg draws a Game, a ReferenceDeal or a Position, not {type(what).__name__}"
                               + hint)
    return render(layout(pos, names, costs))


def position_of_game(game) -> Position:
    """The :class:`Position` of a :class:`~tarotsim.engine.Game` at its current decision."""
    return position_of(game._deal, _game_step(game), game.seed, game.index)  # its reference deal is the state


def _game_step(game) -> str:
    d = game.decision
    if d is None:
        return "the deal is over"
    return f"seat {d.seat} to {'play' if d.kind == 'card' else 'decide: ' + d.kind.replace('_', ' ')}"


def start_of_play(steps: list[Position]) -> int:
    """The step at which the first card is about to be played (the last step if none is)."""
    for i, p in enumerate(steps):
        if p.trick:
            return max(0, i - 1)
    return len(steps) - 1


def html_figure(svg_text: str) -> str:
    """An SVG picture for a notebook's HTML output."""
    return f'<div class="tarotsim-figure" style="max-width:100%;overflow-x:auto">{svg_text}</div>'


__all__ = ["CARD_HEIGHT", "CARD_WIDTH", "Layout", "PictureError", "PictureTypeError", "Placed", "Position", "card_face",
           "card_group", "card_svg", "hand_svg", "html_figure", "layout", "position_of", "position_of_game", "render",
           "seat_names", "start_of_play", "shown_text", "table_svg", "trick_svg"]
