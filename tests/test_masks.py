"""The kernels' card masks (``tarotsim._kernels.masks``) are int64 views of ``tarotsim.cards``,
their one home: the same cards, the same half-points (R-CARD-3, R-CARD-4)."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from tarotsim import cards
from tarotsim._kernels import masks as M


def _ids(t, s):
    return [b for b in range(22) if (int(t) >> b) & 1] + [22 + b for b in range(56) if (int(s) >> b) & 1]


def test_trump_word_masks_R_CARD_3():
    assert _ids(M.TW_OUDLERS, 0) == [cards.EXCUSE, cards.PETIT, cards.TRUMP_21]
    assert _ids(M.TW_TRUMPS, 0) == list(range(1, 22))
    assert _ids(M.TW_T2_T20, 0) == list(range(2, 21))
    assert _ids(M.TW_MAJORS, 0) == list(range(16, 21))
    assert M.TW_ALL == M.TW_TRUMPS | M.TW_EXCUSE


def test_suit_word_masks_by_rank():
    deck = cards.DECK
    by_rank = {r: [c.id for c in deck if c.id >= cards.SUIT_BASE and (c.id - cards.SUIT_BASE) % 14 + 1 == r]
               for r in range(1, 15)}
    assert _ids(0, M.SW_KINGS) == by_rank[cards.KING]
    assert _ids(0, M.SW_JACKS) == by_rank[cards.JACK]
    assert _ids(0, M.SW_HONOURS) == sorted(sum((by_rank[r] for r in range(11, 15)), []))
    assert _ids(0, M.SW_LOWS) == sorted(sum((by_rank[r] for r in range(1, 11)), []))
    assert [_ids(0, m) for m in M.SW_SUITS] == [list(range(22 + 14 * s, 36 + 14 * s)) for s in range(4)]


@given(st.integers(0, (1 << 22) - 1), st.integers(0, (1 << 56) - 1))
def test_half_points_of_masks_is_the_sum_of_the_cards_R_CARD_4(t, s):
    assert M.half_points(np.int64(t), np.int64(s)) == sum(int(cards.HALF_POINTS[c]) for c in _ids(t, s))
    assert np.array_equal(M.CARD_HP, cards.HALF_POINTS)
