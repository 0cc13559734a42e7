"""The 78 cards: notation (docs/records.md), ids, bitmasks and half-point values (docs/rules.md §1).

Card ids are small integers chosen so that a hand is two machine words:

* ids ``0..21`` are the *trump word*: id 0 is the Excuse, id ``t`` is trump ``t``
  (``T1`` is the Petit). Bit ``id`` of the trump mask.
* ids ``22..77`` are the *suit word*: id ``22 + 14*suit + (rank-1)``, with suits
  ``S H D C`` = 0..3 and ranks 1..10, J=11, N=12, Q=13, K=14. Bit ``id-22`` of the
  suit mask.

Within a word a higher bit is a higher card of the same suit, so "must overtrump"
and "follow suit" are a few mask operations in the kernels.
"""

from __future__ import annotations

from functools import total_ordering

import numpy as np

from . import echo

N_CARDS = 78
EXCUSE = 0
PETIT = 1
TRUMP_21 = 21
SUIT_BASE = 22
SUITS = "SHDC"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
SUIT_SYMBOLS = "♠♥♦♣"
RANK_NAMES = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "N", "Q", "K")
JACK, KNIGHT, QUEEN, KING = 11, 12, 13, 14

#: Deck total in half-points (R-GEN-4: 91 points).
DECK_HALF_POINTS = 182


class CardError(ValueError):
    """A card name that is not in the notation of the records (docs/records.md, "Seats and cards")."""


def _half_points(cid: int) -> int:
    if cid in (EXCUSE, PETIT, TRUMP_21):
        return 9  # oudler: 4.5 points (R-CARD-4)
    if cid < SUIT_BASE:
        return 1  # trumps 2..20
    rank = (cid - SUIT_BASE) % 14 + 1
    return {KING: 9, QUEEN: 7, KNIGHT: 5, JACK: 3}.get(rank, 1)


#: Half-point value of each card id, shape (78,), int64 (R-CARD-4).
HALF_POINTS = np.array([_half_points(c) for c in range(N_CARDS)], dtype=np.int64)
#: 1 for the three oudlers (R-CARD-3), shape (78,), int64.
IS_OUDLER = np.zeros(N_CARDS, dtype=np.int64)
IS_OUDLER[[EXCUSE, PETIT, TRUMP_21]] = 1
#: Trump-word mask of the three oudlers.
OUDLER_TRUMP_MASK = (1 << EXCUSE) | (1 << PETIT) | (1 << TRUMP_21)
#: Mask of the 21 trumps (Excuse excluded) in the trump word.
ALL_TRUMPS_MASK = ((1 << 22) - 1) & ~1
#: Mask of the 56 suit cards in the suit word.
ALL_SUITS_MASK = (1 << 56) - 1


def suit_mask(suit: int) -> int:
    """Mask of one suit's 14 cards in the suit word."""
    return ((1 << 14) - 1) << (14 * suit)


@total_ordering
class Card:
    """One of the 78 cards, interned: ``Card.parse("KH") is Card.parse("kh")``.

    Ordering is by id (Excuse, trumps 1..21, then suits S H D C low to high),
    which is also the display order within a hand.

    Examples
    --------
    >>> king = Card.parse("kh")
    >>> king, king.id, king is Card(49), king.is_trump
    (Card('KH'), 49, True, False)
    >>> print(*sorted(parse_cards("KH 10S T21 EX")))
    EX T21 10S KH
    """

    __slots__ = ("id",)
    id: int
    _all: list[Card] = []

    def __new__(cls, cid: int) -> Card:
        if cls._all:
            try:
                return cls._all[cid]
            except (IndexError, TypeError):
                raise CardError(f"no card with id {echo.shown(cid)} (ids are 0..77)") from None
        self = object.__new__(cls)
        self.id = cid
        return self

    # -- notation ---------------------------------------------------------
    @classmethod
    def parse(cls, text: str, pretty: bool = False) -> Card:
        """Parse a card name (case-insensitive): ``KH``, ``10S``, ``NC``, ``T21``, ``EX``.

        With ``pretty``, a name as :meth:`pretty` prints it is read too: ``K♥``, ``10♠`` (what
        a person types or pastes; records keep the notation of docs/records.md)."""
        if isinstance(text, Card):
            return text
        s = str(text).strip().upper()
        if pretty:
            s = s.translate(_LETTER_OF_SYMBOL)
        cid = _NAME_TO_ID.get(s)
        if cid is None:
            suits = "S, H, D, C or " + " ".join(SUIT_SYMBOLS) if pretty else "S, H, D, C"
            raise CardError(
                f"unknown card {echo.shown(text)}: use rank+suit (1..10, J, N, Q, K + {suits}), "
                "T1..T21 for trumps, EX for the Excuse"
            )
        return cls._all[cid]

    def __str__(self) -> str:
        return _ID_TO_NAME[self.id]

    def __repr__(self) -> str:
        return f"Card({_ID_TO_NAME[self.id]!r})"

    def __reduce__(self):
        return (Card, (self.id,))

    def __eq__(self, other) -> bool:
        return isinstance(other, Card) and other.id == self.id

    def __lt__(self, other: Card) -> bool:
        return self.id < other.id

    def __hash__(self) -> int:
        return self.id

    # -- facts --------------------------------------------------------------
    @property
    def is_excuse(self) -> bool:
        return self.id == EXCUSE

    @property
    def is_trump(self) -> bool:
        """A numbered trump 1..21 (the Excuse is not a trump, R-CARD-2)."""
        return 0 < self.id < SUIT_BASE

    @property
    def is_oudler(self) -> bool:
        return self.id in (EXCUSE, PETIT, TRUMP_21)

    @property
    def suit(self) -> int | None:
        """Suit 0..3 (S H D C) of a suit card, else None."""
        return (self.id - SUIT_BASE) // 14 if self.id >= SUIT_BASE else None

    @property
    def rank(self) -> int:
        """Rank within its suit (1..14), trump number (1..21), or 0 for the Excuse."""
        return (self.id - SUIT_BASE) % 14 + 1 if self.id >= SUIT_BASE else self.id

    @property
    def half_points(self) -> int:
        return int(HALF_POINTS[self.id])

    @property
    def is_low(self) -> bool:
        """A 0.5-point card (R-CARD-5)."""
        return self.half_points == 1

    def pretty(self) -> str:
        """Name with a suit symbol, for humans: ``K♥``, ``T21``, ``EX``."""
        if self.id < SUIT_BASE:
            return str(self)
        suit = self.suit
        assert suit is not None  # a suit card (id >= SUIT_BASE)
        return RANK_NAMES[self.rank - 1] + SUIT_SYMBOLS[suit]


def _build_names() -> tuple[list[str], dict[str, int]]:
    names = ["EX"] + [f"T{t}" for t in range(1, 22)]
    for s in range(4):
        for r in range(14):
            names.append(RANK_NAMES[r] + SUITS[s])
    lookup = {n: i for i, n in enumerate(names)}
    return names, lookup


_ID_TO_NAME, _NAME_TO_ID = _build_names()
_LETTER_OF_SYMBOL = str.maketrans(SUIT_SYMBOLS, SUITS)
for _i in range(N_CARDS):
    _c = object.__new__(Card)
    _c.id = _i
    Card._all.append(_c)
del _i, _c

#: All 78 cards in id order.
DECK: tuple[Card, ...] = tuple(Card._all)


def parse_cards(names, pretty: bool = False) -> list[Card]:
    """Parse an iterable of card names (or a comma/space separated string); ``pretty``: see :meth:`Card.parse`.

    Examples
    --------
    >>> parse_cards("KH, 10s T21 EX")
    [Card('KH'), Card('10S'), Card('T21'), Card('EX')]
    >>> parse_cards(["K♥", "10♠"], pretty=True)
    [Card('KH'), Card('10S')]
    """
    if isinstance(names, str):
        names = names.replace(",", " ").split()
    return [Card.parse(n, pretty) for n in names]


def masks_of(cards) -> tuple[int, int]:
    """(trump word, suit word) bitmasks of a collection of cards or ids."""
    tw = sw = 0
    for c in cards:
        cid = c.id if isinstance(c, Card) else int(c)
        if cid < SUIT_BASE:
            tw |= 1 << cid
        else:
            sw |= 1 << (cid - SUIT_BASE)
    return tw, sw


def cards_of(trump_word: int, suit_word: int) -> list[Card]:
    """The cards in a pair of masks, in id order."""
    out = [DECK[i] for i in range(SUIT_BASE) if trump_word >> i & 1]
    out += [DECK[SUIT_BASE + i] for i in range(56) if suit_word >> i & 1]
    return out


def half_points_of(cards) -> int:
    return sum(Card.parse(c).half_points for c in cards)


def oudlers_of(cards) -> int:
    return sum(1 for c in cards if Card.parse(c).is_oudler)


def format_points(half_points: int) -> str:
    """Half-points as points for display: 83 -> '41.5', 82 -> '41'."""
    return f"{half_points // 2}.5" if half_points % 2 else str(half_points // 2)
