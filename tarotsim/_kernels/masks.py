"""The card masks of the kernels and the bots (a leaf module).

The card masks of the kernels and the bots, as int64 (a leaf module: it imports only
``tarotsim.cards``, their one home, and numba).

A hand is two words: the trump word (bit 0 the Excuse, bit t trump t) and the suit word (bit
14 * suit + rank - 1, suits S H D C). Every mask is named by its word: ``TW_*`` in the trump word,
``SW_*`` in the suit word. Card ids are ``tarotsim.cards`` constants (``cards.EXCUSE`` is the id 0;
``TW_EXCUSE`` its bit).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .. import cards
from ._bits import popcount, scalar

# --- the trump word ------------------------------------------------------------------------------
TW_EXCUSE = np.int64(1 << cards.EXCUSE)
TW_PETIT = np.int64(1 << cards.PETIT)
TW_T21 = np.int64(1 << cards.TRUMP_21)
#: T1..T21 (the Excuse is not a trump)
TW_TRUMPS = np.int64(cards.ALL_TRUMPS_MASK)
#: the Excuse, the Petit and the 21 (R-CARD-3)
TW_OUDLERS = np.int64(cards.OUDLER_TRUMP_MASK)
#: the trumps an écart may hold, shown (R-CHIEN-2): T2..T20
TW_T2_T20 = np.int64(TW_TRUMPS & ~(TW_PETIT | TW_T21))
#: T16..T20
TW_MAJORS = np.int64(sum(1 << t for t in range(16, 21)))
#: the trumps and the Excuse
TW_ALL = np.int64(TW_TRUMPS | TW_EXCUSE)

# --- the suit word -------------------------------------------------------------------------------
#: one suit's 14 cards, at suit 0 (shift by 14 * suit)
SW_SUIT = np.int64(cards.suit_mask(0))
#: the 56 suit cards
SW_ALL = np.int64(cards.ALL_SUITS_MASK)
#: per suit (S H D C), its 14 cards
SW_SUITS = np.array([cards.suit_mask(s) for s in range(4)], dtype=np.int64)


def _ranks(lo: int, hi: int) -> np.int64:
    return np.int64(sum(1 << (14 * s + r - 1) for s in range(4) for r in range(lo, hi + 1)))


SW_KINGS = _ranks(cards.KING, cards.KING)
SW_QUEENS = _ranks(cards.QUEEN, cards.QUEEN)
SW_KNIGHTS = _ranks(cards.KNIGHT, cards.KNIGHT)
SW_JACKS = _ranks(cards.JACK, cards.JACK)
#: jacks, knights, queens and kings
SW_HONOURS = _ranks(cards.JACK, cards.KING)
#: ranks 1..10: half a point each (R-CARD-4)
SW_LOWS = _ranks(1, 10)
_SW_NQK = _ranks(cards.KNIGHT, cards.KING)
_SW_QK = _ranks(cards.QUEEN, cards.KING)

#: half-points of each card id (R-CARD-4), int64[78]
CARD_HP = cards.HALF_POINTS.astype(np.int64)


@njit(inline="always")
def half_points(t, s):
    """Half-points of the cards in two masks.

    Half-points of the cards in the masks ``t`` (trump word) and ``s`` (suit word), as
    ``CARD_HP`` counts them (R-CARD-4): 1 each, +8 an oudler, +2/+4/+6/+8 a jack/knight/queen/king."""
    return (popcount(t) + 8 * popcount(t & TW_OUDLERS) + popcount(s)
            + 2 * (popcount(s & SW_HONOURS) + popcount(s & _SW_NQK) + popcount(s & _SW_QK) + popcount(s & SW_KINGS)))


@scalar
def card_bits(c):
    """``(trump-word bit, suit-word bit)`` of card id ``c``: one of them is 0."""
    if c < 22:
        return np.int64(1) << c, np.int64(0)
    return np.int64(0), np.int64(1) << (c - 22)
