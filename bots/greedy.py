"""``greedy``: a simple, fast rule-of-thumb player (fast path, njit).

- Bid on a count: trumps + ``oudler`` x oudlers (the Excuse counts as an oudler, not a trump),
  against one threshold per contract (given for 18 cards, scaled by the hand size).
- Call (5): the king it lacks in its longest suit.
- Écart: its lowest cards (rank, then id order); trumps only when forced, the lowest.
- Never a chelem, never a misère; the simple poignée whenever it holds one.
- Cards: wins a trick when it is cheap (last to play, or with a 0.5-point card), otherwise
  plays its lowest card; leads its lowest card; gets rid of the Excuse rather than giving a
  point card away, and before the last trick.

The bot draws nothing from the bots stream: its choices depend on its view only.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarotsim._kernels._bits import popcount, scalar
from tarotsim._kernels.layout import PUB_DUMMY, PUB_N_ACTIVE, PUB_N_TRICKS, PUB_TRICK

from ._common import (CARD_HP, TW_EXCUSE, SW_LOWS, TW_OUDLERS, TW_PETIT, SW_SUITS, TW_TRUMPS, bid_by_thresholds, lobit,
                      n_seats_of, partner_seat, sides, trick_state)

NAME = "greedy"
#: Its kind in the kernels' ``kinds`` arrays (``bots.BOT_KINDS``).
CODE = 1
#: The bot whose policies make its decisions in the dispatch (``bots/dispatch.py``): its own policies.
DECIDES_AS = "greedy"
DESCRIPTION = "simple rules: bids on trumps and oudlers, follows low, wins cheap tricks"

#: (name, default, kind, help), in parameter-vector order
PARAMS = (
    ("prise", 9.0, float, "count (trumps + oudler x oudlers, for 18 cards) to bid a prise"),
    ("garde", 12.0, float, "count to bid a garde"),
    ("garde_sans", 15.0, float, "count to bid a garde sans le chien"),
    ("garde_contre", 18.0, float, "count to bid a garde contre le chien"),
    ("oudler", 2.0, float, "weight of each oudler in the count"),
)
_IX = {p[0]: i for i, p in enumerate(PARAMS)}
G_PRISE = _IX["prise"]
G_OUDLER = _IX["oudler"]


@njit(_nrt=False)
def _count(params, seat, ht, n_cards):
    c = popcount(ht & TW_TRUMPS) + params[seat, G_OUDLER] * popcount(ht & TW_OUDLERS)
    return c * 18.0 / n_cards


@njit(_nrt=False)
def greedy_bid(params, seat, ht, hs, pub, highest):
    n_cards = popcount(ht) + popcount(hs)
    c = _count(params, seat, ht, n_cards)
    return bid_by_thresholds(params, seat, G_PRISE, c, c, 0.0, highest)


@njit(_nrt=False)
def greedy_call(params, seat, ht, hs, pub, legal_s):
    """The legal card it lacks in its longest suit (else the first legal card)."""
    best = -1
    best_len = -1
    rem = legal_s & ~hs
    while rem:
        b = lobit(rem)
        rem &= rem - 1
        n = popcount(hs & SW_SUITS[b // 14])
        if n > best_len:
            best_len = n
            best = b
    if best < 0:
        best = lobit(legal_s)
    return best


@njit(_nrt=False)
def greedy_ecart(params, seat, ht, hs, pub, normal, cands, n_ecart, out, out_pos):
    """Lowest ranks first (then id order); when short, all ``normal`` and the lowest trumps."""
    et = np.int64(0)
    es = np.int64(0)
    i = 0
    rank = 0
    while i < n_ecart and rank < 14:
        for su in range(4):
            b = 14 * su + rank
            if i < n_ecart and (normal >> b) & 1:
                es |= np.int64(1) << b
                out[out_pos + i] = 22 + b
                i += 1
        rank += 1
    rem = cands
    while i < n_ecart:
        b = lobit(rem)
        rem &= rem - 1
        et |= np.int64(1) << b
        out[out_pos + i] = b
        i += 1
    return et, es


@scalar
def _lowest_rank(m):
    """The suit card of ``m`` (suit word, not empty) of the lowest rank, the first suit on ties."""
    best = -1
    best_r = 99
    for su in range(4):
        ms = m & SW_SUITS[su]
        if ms:
            b = lobit(ms)
            if b - 14 * su < best_r:
                best_r = b - 14 * su
                best = b
    return best


@njit(_nrt=False)
def _lowest(lt, ls):
    """The cheapest legal card.

    The cheapest legal card: a low suit card (lowest rank), a trump (not the Petit), a face
    card (lowest), the Petit, the 21; never the Excuse unless it is the only card."""
    low = ls & SW_LOWS
    if low:
        return 22 + _lowest_rank(low)
    tr = lt & TW_TRUMPS & ~TW_PETIT & ~(np.int64(1) << 21)
    if tr:
        return lobit(tr)
    if ls:
        return 22 + _lowest_rank(ls)
    tr = lt & TW_TRUMPS
    if tr:
        return lobit(tr)
    return 0


@njit(_nrt=False)
def greedy_card(params, seat, ht, hs, pub, lt, ls, fixed, fmask, amask, pos):
    if popcount(lt) + popcount(ls) == 1:
        return lobit(lt) if lt else 22 + lobit(ls)
    tricks_left = pub[PUB_N_TRICKS] - pub[PUB_TRICK]
    if (lt & TW_EXCUSE) and tricks_left <= 2:
        return 0
    low = _lowest(lt, ls)
    if pos == 0 or not fixed:
        return low
    n_seats = n_seats_of(pub)
    best_seat, best_key, led, tt, ts, hp, me = trick_state(pub, pos, n_seats, pub[PUB_DUMMY])
    allies, opps = sides(pub, seat, hs, partner_seat(pub, pos, n_seats, pub[PUB_DUMMY]))
    if (allies >> best_seat) & 1:
        return low
    # the cheapest card that takes the trick
    if best_key >= 33:
        win_s = np.int64(0)
        win_t = lt & amask
    else:
        win_s = ls & fmask & -(np.int64(1) << (14 * led + best_key)) if best_key > 0 else ls & fmask
        win_t = lt & TW_TRUMPS
    w = -1
    if win_s:
        w = 22 + lobit(win_s)
    elif win_t:
        w = lobit(win_t)
    if w >= 0 and (pos == pub[PUB_N_ACTIVE] - 1 or CARD_HP[w] == 1):
        return w
    if (lt & TW_EXCUSE) and CARD_HP[low] > 1:
        return 0
    return low
