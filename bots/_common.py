"""Shared njit helpers of the built-in bots: card masks, card values, the trick so far, sides.

Cards are the kernels' two int64 words (``tarotsim/_kernels``): the trump word (bit 0 the
Excuse, bit t trump t) and the suit word (bit 14*suit + rank - 1, suits S H D C). A bot gets
its own hand, the legal cards and the public view ``pub`` (``layout.PUB_*``); these helpers read
nothing else. This module imports only kernel *submodules* (no ``tarotsim._kernels.play``), so
the kernels can import the bots while they load.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarotsim._kernels._bits import hibit, lobit, popcount, tzcnt  # noqa: F401  (the bots' bit helpers)
from tarotsim._kernels.seats import next_seat  # noqa: F401  (the bots' seating helper)
from tarotsim._kernels.layout import (PUB_CALLED, PUB_CHIEN_S, PUB_DUMMY, PUB_LEADER, PUB_N_ACTIVE,
                                      PUB_PARTNER, PUB_SEAT_PLAYED_S, PUB_TABLE, PUB_TAKER,
                                      PUB_TRICK_CARDS)

# --- masks (int64, below 2**63) ---------------------------------------------------------------
TRUMPS = np.int64(((1 << 22) - 1) & ~1)      # T1..T21
EXCUSE = np.int64(1)
PETIT = np.int64(2)
T21 = np.int64(1 << 21)
OUDLERS_T = np.int64(1 | 2 | (1 << 21))
MAJORS = np.int64(sum(1 << t for t in range(16, 21)))  # T16..T20
SUIT14 = np.int64((1 << 14) - 1)
ALL_S = np.int64((1 << 56) - 1)


def _ranks(lo, hi):
    return np.int64(sum(1 << (14 * s + r - 1) for s in range(4) for r in range(lo, hi + 1)))


KINGS = _ranks(14, 14)
QUEENS = _ranks(13, 13)
KNIGHTS = _ranks(12, 12)
JACKS = _ranks(11, 11)
HONOURS = _ranks(11, 14)
LOWS = _ranks(1, 10)          # 0.5-point suit cards (R-CARD-5)
SUIT_MASKS = np.array([int(SUIT14) << (14 * s) for s in range(4)], dtype=np.int64)

#: half-points of each card id (R-CARD-4)
CARD_HP = np.array([9] + [9 if t in (1, 21) else 1 for t in range(1, 22)]
                   + [{14: 9, 13: 7, 12: 5, 11: 3}.get(r, 1) for _ in range(4) for r in range(1, 15)],
                   dtype=np.int64)

TABLE_3, TABLE_5 = 0, 2  # rules.TABLE_3, rules.TABLE_5 (literal: no numpy-heavy import here)


@njit(inline="always")
def bid_by_thresholds(params, seat, first, count, count_no_ecart, shift, highest):
    """The highest contract k (0..3) whose threshold ``params[seat, first + k] + shift`` the hand's
    count reaches (``count_no_ecart`` for garde sans / contre, which keep no chien to fix the
    hand), if it beats ``highest``; else -1 (pass)."""
    bid = -1
    for k in range(4):
        c = count_no_ecart if k >= 2 else count
        if c >= params[seat, first + k] + shift:
            bid = k
    return bid if bid > highest else -1


@njit(inline="always")
def lowest_ecart(normal, cands, n_ecart, out, out_pos):
    """The écart of the lowest cards by id: ``normal`` (suit word) first, then the lowest trumps
    of ``cands`` when those run short (R-CHIEN-2); ids written at ``out[out_pos:]``; returns
    ``(trump word, suit word)`` of the écart."""
    et = np.int64(0)
    es = np.int64(0)
    rem_s = normal
    rem_t = cands
    for i in range(n_ecart):
        if rem_s:
            b = tzcnt(rem_s)
            rem_s &= rem_s - 1
            es |= np.int64(1) << b
            out[out_pos + i] = 22 + b
        else:
            b = tzcnt(rem_t)
            rem_t &= rem_t - 1
            et |= np.int64(1) << b
            out[out_pos + i] = b
    return et, es


@njit(inline="always")
def hp_of(t, s):
    """Half-points of the cards in two masks (R-CARD-4)."""
    return (popcount(t) + 8 * popcount(t & OUDLERS_T) + popcount(s)
            + 2 * popcount(s & JACKS) + 4 * popcount(s & KNIGHTS) + 6 * popcount(s & QUEENS)
            + 8 * popcount(s & KINGS))


@njit(inline="always")
def n_seats_of(pub):
    return pub[PUB_N_ACTIVE] + (1 if pub[PUB_DUMMY] >= 0 else 0)


@njit(inline="always")
def trumps_above(t):
    """Trump-word mask of the trumps above trump ``t`` (1..21)."""
    return TRUMPS & -(np.int64(2) << t)


@njit(_nrt=False)
def partner_seat(pub, pos, n_seats, dummy):
    """Table 5: the seat that played the called card (finished tricks, or the ``pos`` cards of
    the trick being played), else -1."""
    p = pub[PUB_PARTNER]
    if p >= 0 or pub[PUB_TABLE] != TABLE_5:
        return p
    s = pub[PUB_LEADER]
    called = pub[PUB_CALLED]
    for j in range(pos):
        if pub[PUB_TRICK_CARDS + j] == called:
            return s
        s = next_seat(s, n_seats, dummy)
    return np.int64(-1)


@njit(_nrt=False)
def sides(pub, seat, hs, partner):
    """``(allies, opponents)`` as seat bit masks, as far as ``seat`` knows (R-CALL-3);
    ``partner``: :func:`partner_seat` (-1 while the called card is not played).

    Seats in neither mask are unknown (table 5, before the called card is played). The seat
    itself is in ``allies``. Before the auction ends both masks are the seat alone / empty.
    """
    n_seats = n_seats_of(pub)
    dummy = pub[PUB_DUMMY]
    active = (np.int64(1) << n_seats) - 1
    if dummy >= 0:
        active &= ~(np.int64(1) << dummy)
    me = np.int64(1) << seat
    taker = pub[PUB_TAKER]
    if taker < 0:
        return me, np.int64(0)
    tb = np.int64(1) << taker
    if pub[PUB_TABLE] != TABLE_5:
        if seat == taker:
            return me, active & ~me
        return active & ~tb, tb
    called = pub[PUB_CALLED]
    cb = np.int64(1) << (called - 22)
    if partner >= 0:
        att = tb | (np.int64(1) << partner)
        if me & att:
            return att, active & ~att
        return active & ~att, att
    if seat == taker:
        if (hs & cb) != 0 or (pub[PUB_CHIEN_S] & cb) != 0:
            return me, active & ~me           # alone, and he knows it
        return me, np.int64(0)                # partner unknown
    if (hs & cb) != 0 or (pub[PUB_SEAT_PLAYED_S + seat] & cb) != 0:
        return me | tb, active & ~(me | tb)   # I am the partner
    if (pub[PUB_CHIEN_S] & cb) != 0:
        return active & ~tb, tb               # the called card was in the shown chien: alone
    return me, tb


@njit(_nrt=False)
def trick_state(pub, pos, n_seats, dummy):
    """The trick so far: ``(best seat, best key, led suit (0..3, 4 trumps, -1 none), trump word,
    suit word, half-points of its cards (the Excuse aside), my seat)``.

    Keys as the kernel: trump t -> 32 + t, a card of the led suit -> its rank, others 0, Excuse -1.
    """
    s = pub[PUB_LEADER]
    best_key = np.int64(-2)
    best_seat = s
    led = np.int64(-1)
    tt = np.int64(0)
    ts = np.int64(0)
    for j in range(pos):
        c = pub[PUB_TRICK_CARDS + j]
        if c == 0:
            key = np.int64(-1)
            tt |= 1
        elif c < 22:
            key = 32 + c
            tt |= np.int64(1) << c
            if led < 0:
                led = 4
        else:
            b = c - 22
            ts |= np.int64(1) << b
            su = b // 14
            if led < 0:
                led = su
            key = (b % 14) + 1 if su == led else np.int64(0)
        if key > best_key:
            best_key = key
            best_seat = s
        s = next_seat(s, n_seats, dummy)
    hp = hp_of(tt & ~EXCUSE, ts)
    return best_seat, best_key, led, tt, ts, hp, s
