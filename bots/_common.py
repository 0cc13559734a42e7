"""Shared njit helpers of the built-in bots: card masks, card values, the trick so far, sides.

Cards are the kernels' two int64 words (``tarotsim/_kernels``): the trump word (bit 0 the
Excuse, bit t trump t) and the suit word (bit 14*suit + rank - 1, suits S H D C). A bot gets
its own hand, the legal cards and the public view ``pub`` (``layout.PUB_*``); these helpers read
nothing else. The masks are ``tarotsim._kernels.masks``'s (``TW_*`` trump word, ``SW_*`` suit word).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarotsim._kernels._bits import hibit, lobit, popcount, scalar, tzcnt  # noqa: F401  (the bots' bit helpers)
from tarotsim._kernels.masks import (CARD_HP, SW_ALL, SW_HONOURS, SW_JACKS, SW_KINGS, SW_KNIGHTS,  # noqa: F401
                                     SW_LOWS, SW_QUEENS, SW_SUIT, SW_SUITS, TW_EXCUSE, TW_MAJORS, TW_OUDLERS,
                                     TW_PETIT, TW_T21, TW_TRUMPS)  # (the bots' masks)
from tarotsim._kernels.seats import next_seat  # noqa: F401  (the bots' seating helper)
from tarotsim._kernels.layout import (PUB_CALLED, PUB_CHIEN_S, PUB_DUMMY, PUB_LEADER, PUB_N_ACTIVE,
                                      PUB_PARTNER, PUB_SEAT_PLAYED_S, PUB_TABLE, PUB_TAKER,
                                      PUB_TRICK_CARDS)
from tarotsim.rules import KERNEL_ECART_MADE, N_CONTRACTS, TABLE_3, TABLE_5  # noqa: F401  (the bots' table codes)


@njit(inline="always")
def bid_by_thresholds(params, seat, first, count, count_no_ecart, shift, highest):
    """The highest contract the hand's count reaches, or -1 (pass).

    The highest contract k (0..3) whose threshold ``params[seat, first + k] + shift`` the hand's
    count reaches (``count_no_ecart`` for the contracts without an écart, garde sans and contre,
    which keep no chien to fix the hand), if it beats ``highest``; else -1 (pass)."""
    bid = -1
    for k in range(N_CONTRACTS):
        c = count if KERNEL_ECART_MADE[k] else count_no_ecart
        if c >= params[seat, first + k] + shift:
            bid = k
    return bid if bid > highest else -1


@njit(inline="always")
def lowest_ecart(normal, cands, n_ecart, out, out_pos):
    """Lay the écart of the lowest cards by id (R-CHIEN-2).

    The écart of the lowest cards by id: ``normal`` (suit word) first, then the lowest trumps
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


@scalar
def hp_of(t, s):
    """Half-points of the cards in two masks (R-CARD-4)."""
    return (popcount(t) + 8 * popcount(t & TW_OUDLERS) + popcount(s)
            + 2 * popcount(s & SW_JACKS) + 4 * popcount(s & SW_KNIGHTS) + 6 * popcount(s & SW_QUEENS)
            + 8 * popcount(s & SW_KINGS))


@njit(inline="always")
def n_seats_of(pub):
    return pub[PUB_N_ACTIVE] + (1 if pub[PUB_DUMMY] >= 0 else 0)


@scalar
def trumps_above(t):
    """Trump-word mask of the trumps above trump ``t`` (1..21)."""
    return TW_TRUMPS & -(np.int64(2) << t)


@njit(_nrt=False)
def partner_seat(pub, pos, n_seats, dummy):
    """The seat that played the called card at table 5, or -1.

    Table 5: the seat that played the called card (finished tricks, or the ``pos`` cards of
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
    """The seat's allies and opponents as far as it knows (R-CALL-3).

    ``(allies, opponents)`` as seat bit masks, as far as ``seat`` knows (R-CALL-3);
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
    """The state of the trick so far.

    The trick so far: ``(best seat, best key, led suit (0..3, 4 trumps, -1 none), trump word,
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
    hp = hp_of(tt & ~TW_EXCUSE, ts)
    return best_seat, best_key, led, tt, ts, hp, s
