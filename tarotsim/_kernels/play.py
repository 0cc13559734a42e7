"""The deal kernel: one whole deal of French Tarot, from (seed, index) to the scores.

Follows docs/engine-contract.md step by step (R-DEAL … R-SCORE). Hands are two int64 masks
(trump word: bit 0 Excuse, bit t trump t; suit word: bit 14*suit + rank-1). Everything lives
in arrays the caller allocates once per thread: ``buf`` (workspace, public view for bots,
scorer arrays; ``new_buffer()``) and ``log`` (facts + record of the deal, ``layout.L_*``).
Nothing is allocated per deal; ``play_deal`` is compiled without NRT (no reference counting).

The deal is built twice (:func:`_make_play`): for tables of random bots only, exactly the
random deal of before the other bots existed; and for any other table, with the bots'
dispatch, the public bookkeeping they read (``layout.PUB_*``) and an optional decision trace.
Batch kernels (``run_facts``, ``run_aggregate``, ``run_logs``: one compiled loop per build, picked
from the seats' kinds) loop over deals inside numba and release the GIL, so
``tarotsim.simulate`` can run chunks on a thread pool.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..rules import (RV_CALLED_SUIT_AFTER_EXCUSE_RESTRICTED, RV_EXCUSE_SLAM_EITHER_SIDE, RV_MISERE,
                     RV_MISERE_EXCUSE_IS_TRUMP, RV_N_ACTIVE, RV_N_SEATS, RV_PAB_SLAM_PENULTIMATE,
                     RV_PETIT_SEC, RV_POIGNEE_ECART_TRUMPS, RV_TABLE, TABLE_5, TABLE_5D)
from ..scoring import ST_DIFFERENCE, ST_LEN, ST_MADE, ST_VALUE, score_core
from ._bits import popcount, select_bit, tzcnt
from ._rng import U_STREAM_BOTS, U_STREAM_CARDS, below, stream_state
from .bots import (bot_bid, bot_call, bot_card_bits, bot_chelem, bot_ecart, bot_misere, bot_poignee, random_bid,
                   random_call, random_card_bits, random_ecart)
from .layout import (ACC_ALL_PASSED, ACC_ALONE, ACC_ATTACK_HP, ACC_CHELEM, ACC_DEALS, ACC_MADE,
                     ACC_MISERES, ACC_PAB_ATTACK, ACC_PAB_DEFENCE, ACC_PETIT_SEC, ACC_PLAYED,
                     ACC_POIGNEES, ACC_SCORE_SUM, ACC_TAKEN, ACC_TAKER_SCORE_SUM, CHELEM_ANNOUNCED_DEFENCE,
                     CHELEM_ANNOUNCED_FAILED, CHELEM_ANNOUNCED_MADE, CHELEM_DEFENCE, CHELEM_MADE,
                     CHELEM_NONE, DECL_CHELEM, DECL_FIELDS, DECL_MISERE_ATOUT, DECL_MISERE_TETE,
                     DECL_POIGNEE, L_ATTACK_HP, L_ATTACK_TRICKS, L_BID, L_BID_SEAT, L_CALLED, L_CARDS,
                     L_CHELEM, L_CHIEN_S, L_CHIEN_T, L_CONTRACT, L_DEALER, L_DECL, L_DIFFERENCE,
                     L_ECART, L_FORCED, L_HAND_S, L_HAND_T, L_INDEX, L_LEADER, L_MADE, L_MISERES,
                     L_N_BIDS, L_N_DECL, L_N_ECART, L_N_MISERES, L_N_TRICKS, L_OUDLERS, L_OUTCOME,
                     L_PAB, L_PARTNER, L_PETIT_SEC_SEAT, L_POIGNEE_ATTACK, L_POIGNEE_DEFENCE, L_SCORES,
                     L_LEN, L_SLAM_ANNOUNCED, L_STEPS, L_TAKER, L_VALUE, L_WINNER, MAX_SEATS,
                     OUTCOME_ALL_PASSED, OUTCOME_PETIT_SEC, OUTCOME_PLAYED, PUB_BIDS, PUB_CALLED,
                     PUB_CHIEN_S, PUB_CHIEN_T, PUB_CONTRACT, PUB_DEALER, PUB_DUMMY, PUB_ECART_T,
                     PUB_HIGHEST, PUB_LEADER, PUB_LEN, PUB_MISERES, PUB_PLAYED_S, PUB_PLAYED_T,
                     PUB_POIGNEE_T, PUB_SLAM, PUB_TAKER, PUB_TRICK, PUB_TRICK_CARDS, PUB_TABLE,
                     PUB_N_ACTIVE, PUB_N_TRICKS, PUB_PARTNER, PUB_VOIDS, PUB_SEAT_PLAYED_T,
                     PUB_SEAT_PLAYED_S, PUB_TRICKS_WON, PUB_WON_HP, BOT_RANDOM, U_ERR, U_LEN,
                     ACC_BOT_ERRORS, OUTCOME_BOT_ERROR)

score_kernel = njit(cache=True, nogil=True)(score_core)

# --- constant masks (int64, all below 2**63) ------------------------------------------------
TRUMPS = np.int64(((1 << 22) - 1) & ~1)          # T1..T21 in the trump word
T2_T20 = np.int64(TRUMPS & ~((1 << 1) | (1 << 21)))
OUDLERS = np.int64((1 << 0) | (1 << 1) | (1 << 21))
SUIT14 = np.int64((1 << 14) - 1)


def _ranks(r):
    return sum(1 << (14 * s + r - 1) for s in range(4))


JACKS, KNIGHTS, QUEENS, KINGS = (np.int64(_ranks(r)) for r in (11, 12, 13, 14))
HONOURS = np.int64(JACKS | KNIGHTS | QUEENS | KINGS)
JNQK = HONOURS
NQK = np.int64(KNIGHTS | QUEENS | KINGS)
QK = np.int64(QUEENS | KINGS)

# per table code (3, 4, 5, 5d, 2): hand size, chien size, poignée sizes
HAND_SIZE = np.array([24, 18, 15, 18, 0], dtype=np.int64)
CHIEN_SIZE = np.array([6, 6, 3, 6, 0], dtype=np.int64)
POIGNEE_SIZES = np.array([[13, 15, 18], [10, 13, 15], [8, 10, 13], [10, 13, 15], [99, 99, 99]],
                         dtype=np.int64)

# per card id, its winning key (R-PLAY-5): a trump
# t beats everything (32 + t); a suit card of the led suit counts its rank; others 0; Excuse -1.
CARD_KEY_LED = np.array([-1] + [32 + t for t in range(1, 22)] + [r for _ in range(4) for r in range(1, 15)],
                        dtype=np.int64)
CARD_KEY_OFF = np.array([-1] + [32 + t for t in range(1, 22)] + [0] * 56, dtype=np.int64)

# per card id: the suit-word mask of its suit (0 for trumps and the Excuse), and its own
# suit-word bit (0 for trumps and the Excuse)
FOLLOW_MASK = np.array([0] * 22 + [((1 << 14) - 1) << (14 * s) for s in range(4) for _ in range(14)],
                       dtype=np.int64)
SUIT_BIT_OF = np.array([0] * 22 + [1 << i for i in range(56)], dtype=np.int64)

# workspace layout
WS_DECK = 0
WS_NEXT = 78
WS_HT = WS_NEXT + MAX_SEATS
WS_HS = WS_HT + MAX_SEATS
WS_ATT = WS_HS + MAX_SEATS
WS_LEN = WS_ATT + MAX_SEATS
# scratch buffer of play_deal: workspace, public view (layout.PUB_*), scorer steps/scores/misères
B_PUB = WS_LEN
B_STEPS = B_PUB + PUB_LEN
B_SCORES = B_STEPS + ST_LEN
B_MISERES = B_SCORES + MAX_SEATS
B_USER = B_MISERES + MAX_SEATS  # a user policy set's scratch (layout.U_*)
BUF_LEN = B_USER + U_LEN
# Decision trace (tests only): a buffer longer than BUF_LEN gets, after BUF_LEN, the number of
# decisions then one record per decision: what the bot was handed and what it chose.
TR_BID, TR_CALL, TR_ECART, TR_CHELEM, TR_POIGNEE, TR_MISERE, TR_CARD = range(7)
TR_WHAT, TR_SEAT, TR_HT, TR_HS, TR_ARGS, TR_CHOICE, TR_PUB = 0, 1, 2, 3, 4, 10, 12  # args: 6, choice: 2
TR_REC = TR_PUB + PUB_LEN


@njit(inline="always")
def _hp(t, s):
    """Half-points of the cards in masks (R-CARD-4): 1 each, +8 oudlers, +2/+4/+6/+8 J/N/Q/K."""
    return (popcount(t) + 8 * popcount(t & OUDLERS) + popcount(s)
            + 2 * (popcount(s & JNQK) + popcount(s & NQK) + popcount(s & QK) + popcount(s & KINGS)))


@njit(cache=True, nogil=True)
def new_buffer():
    """The scratch buffer of one thread (``play_deal``'s ``buf``)."""
    return np.zeros(BUF_LEN, dtype=np.int64)


@njit(inline="always")
def _legal(ht, hs, fixed, fmask, amask):
    """Legal cards (trump word, suit word) of a hand (R-PLAY-3/4, R-EXC-1), branch-free.

    ``fixed``: the led suit is fixed (a card other than the Excuse was played); ``fmask``: the
    suit-word mask of the led suit (0 when trumps were led); ``amask``: the trumps above the
    highest trump in the trick.
    """
    exc = ht & 1
    sm = hs & fmask
    trumps = ht & TRUMPS
    above = trumps & amask
    tsel = above if above != 0 else trumps
    free = (not fixed) | ((sm | tsel) == 0)
    lt = ht if free else (exc if sm != 0 else tsel | exc)
    ls = hs if free else sm
    return lt, ls


@njit(inline="always")
def _after_card(c, bt, seat, fixed, fmask, amask, best_key, best_seat, ex_seat):
    """Trick state after ``seat`` plays ``c`` (trump-word bit ``bt``) (R-PLAY-3, R-PLAY-5)."""
    if not fixed:  # only after an Excuse lead: a branch, so followers skip the table load
        fmask = FOLLOW_MASK[c]
        fixed = c != 0
    amask = amask & -(bt << 1) if bt > 1 else amask  # a trump: only higher ones now
    key = CARD_KEY_LED[c] if (fmask & SUIT_BIT_OF[c]) != 0 else CARD_KEY_OFF[c]
    ex_seat = seat if c == 0 else ex_seat
    better = key > best_key
    return fixed, fmask, amask, (key if better else best_key), (seat if better else best_seat), ex_seat


@njit(nogil=True, _nrt=False)
def _trace(buf, what, seat, ht, hs, a0, a1, a2, a3, a4, a5, r0, r1, pub, pos):
    """Append a decision record to the trace (``pub`` as the bot saw it; the trick slots past
    ``pos``, left over from an earlier trick, are zeroed in the copy)."""
    k = buf[BUF_LEN]
    base = BUF_LEN + 1 + k * TR_REC
    if base + TR_REC > buf.shape[0]:
        return
    buf[base + TR_WHAT] = what
    buf[base + TR_SEAT] = seat
    buf[base + TR_HT] = ht
    buf[base + TR_HS] = hs
    buf[base + TR_ARGS] = a0
    buf[base + TR_ARGS + 1] = a1
    buf[base + TR_ARGS + 2] = a2
    buf[base + TR_ARGS + 3] = a3
    buf[base + TR_ARGS + 4] = a4
    buf[base + TR_ARGS + 5] = a5
    buf[base + TR_CHOICE] = r0
    buf[base + TR_CHOICE + 1] = r1
    for i in range(PUB_LEN):
        buf[base + TR_PUB + i] = pub[i]
    for j in range(pos, MAX_SEATS):
        buf[base + TR_PUB + PUB_TRICK_CARDS + j] = 0
    buf[BUF_LEN] = k + 1


@njit(nogil=True, _nrt=False)
def _track_trick(pub, log, ws, tr, na, called, winner, tt, ts):
    """Public facts of finished trick ``tr`` for the bots: who played what, the voids shown by
    not following (R-PLAY-4), the partner once the called card is out (R-CALL-3), the tricks
    and card points each seat won. Once per trick, and only when a bot reads them."""
    base = L_CARDS + tr * MAX_SEATS
    seat = log[L_LEADER + tr]
    fixed = False
    fmask = np.int64(0)
    for j in range(na):
        c = log[base + j]
        if c >= 22:
            bs = np.int64(1) << (c - 22)
            pub[PUB_SEAT_PLAYED_S + seat] |= bs
            bt = np.int64(0)
        else:
            bt = np.int64(1) << c
            pub[PUB_SEAT_PLAYED_T + seat] |= bt
            bs = np.int64(0)
        if fixed and c != 0:
            v = pub[PUB_VOIDS + seat]
            if fmask != 0:
                if (bs & fmask) == 0:
                    v |= np.int64(1) << (tzcnt(fmask) // 14)
                    if bt == 0:
                        v |= 16
            elif bt == 0:
                v |= 16
            pub[PUB_VOIDS + seat] = v
        if not fixed and c != 0:
            fixed = True
            fmask = FOLLOW_MASK[c]
        if c == called:
            pub[PUB_PARTNER] = seat
        seat = ws[WS_NEXT + seat]
    pub[PUB_TRICKS_WON + winner] += 1
    pub[PUB_WON_HP + winner] += _hp(tt & ~np.int64(1), ts)


def _make_play(POLICIES, TRACE=False):
    """The deal kernel, built for ``POLICIES``: False when every seat plays ``random`` (the bots'
    ``random_*`` rules are called directly and the other bots are neither typed nor compiled:
    the random deal runs as fast, and compiles as fast, as before they existed), True otherwise
    (the ``bot_*`` dispatch on each seat's kind and the bots' public bookkeeping); ``TRACE``
    adds the decision trace (``play_deal``, for the tests; the batch kernels do without it, and
    compile a fifth faster). Both are closure constants: numba prunes the branches on them
    before typing. ``pol`` (the policy tuple) may be None when no seat plays a policy set: the
    user branch of the dispatch is pruned too."""

    @njit(inline="always")
    def _first_turn(rv, table, seat, taker, ecart_t, kinds, params, pol, ub, ws, pub, log, miseres,
                    n_decl, poig_att, poig_def, n_mis, bst, buf, tracing, pos):
        """Poignée then misères of ``seat`` before its first card (R-POIG-2/3, R-MIS-1)."""
        ht = ws[WS_HT + seat]
        hs = ws[WS_HS + seat]
        kind = kinds[seat]
        avail = ht & TRUMPS
        if seat == taker and rv[RV_POIGNEE_ECART_TRUMPS]:
            avail |= ecart_t
        n_av = popcount(avail)
        cap = n_av + (ht & 1)
        n_lev = (np.int64(cap >= POIGNEE_SIZES[table, 0]) + np.int64(cap >= POIGNEE_SIZES[table, 1])
                 + np.int64(cap >= POIGNEE_SIZES[table, 2]))
        if POLICIES:
            lvl, bst = bot_poignee(kind, params, pol, ub, seat, ht, hs, pub, n_lev, bst)
        else:
            lvl, bst = below(bst, n_lev + 1)
        if tracing:
            _trace(buf, TR_POIGNEE, seat, ht, hs, n_lev, 0, 0, 0, 0, 0, lvl, 0, pub, pos)
        if lvl > 0:
            size = POIGNEE_SIZES[table, lvl - 1]
            if n_av >= size:
                top = select_bit(avail, size - 1)
                shown = avail & ((np.int64(2) << top) - 1)
            else:
                shown = avail | 1
            d = L_DECL + DECL_FIELDS * n_decl
            log[d] = seat
            log[d + 1] = DECL_POIGNEE
            log[d + 2] = lvl
            log[d + 3] = shown
            n_decl += 1
            pub[PUB_POIGNEE_T + seat] = shown
            if ws[WS_ATT + seat]:
                poig_att += 10 + 10 * lvl
            else:
                poig_def += 10 + 10 * lvl
        if rv[RV_MISERE]:
            for which in range(2):
                if which == 0:
                    ok = (ht & TRUMPS) == 0 and (rv[RV_MISERE_EXCUSE_IS_TRUMP] == 0 or (ht & 1) == 0)
                else:
                    ok = (hs & HONOURS) == 0
                if ok:
                    if POLICIES:
                        yes, bst = bot_misere(kind, params, pol, ub, seat, ht, hs, pub, which, bst)
                    else:
                        yes, bst = below(bst, 2)
                    if tracing:
                        _trace(buf, TR_MISERE, seat, ht, hs, which, 0, 0, 0, 0, 0, yes, 0, pub, pos)
                    if yes:
                        d = L_DECL + DECL_FIELDS * n_decl
                        log[d] = seat
                        log[d + 1] = DECL_MISERE_ATOUT if which == 0 else DECL_MISERE_TETE
                        log[d + 2] = 0
                        log[d + 3] = 0
                        n_decl += 1
                        miseres[seat] += 1
                        n_mis += 1
                        pub[PUB_MISERES + seat] += 1
        return n_decl, poig_att, poig_def, n_mis, bst


    # _nrt=False: the deal allocates nothing, and without NRT numba emits no reference counting
    # of the nine array arguments (measured: ~15% of the time of a deal).
    @njit(nogil=True, _nrt=False)
    def _play(rv, seed, index, forced_seat, forced_contract, kinds, params, pol, log, buf):
        """:func:`play_deal` (this build: ``POLICIES`` of :func:`_make_play`)."""
        # one scratch buffer (fewer arguments to pass per deal): workspace, public view, scorer
        ws = buf[0:WS_LEN]
        pub = buf[B_PUB:B_PUB + PUB_LEN]
        steps = buf[B_STEPS:B_STEPS + ST_LEN]
        scores = buf[B_SCORES:B_SCORES + MAX_SEATS]
        miseres = buf[B_MISERES:B_MISERES + MAX_SEATS]
        ub = buf[B_USER:B_USER + U_LEN]
        if POLICIES:
            ub[U_ERR] = 0
        n = rv[RV_N_SEATS]
        na = rv[RV_N_ACTIVE]
        table = rv[RV_TABLE]
        is5 = table == TABLE_5
        h = HAND_SIZE[table]
        n_chien = CHIEN_SIZE[table]
        dealer = index % n
        dummy = dealer if table == TABLE_5D else -1
        for s in range(n):
            nx = s + 1
            if nx == n:
                nx = 0
            if nx == dummy:
                nx += 1
                if nx == n:
                    nx = 0
            ws[WS_NEXT + s] = nx
        first = ws[WS_NEXT + dealer]

        # ---- facts defaults ---------------------------------------------------------------------
        log[L_INDEX] = index
        log[L_DEALER] = dealer
        log[L_OUTCOME] = OUTCOME_PLAYED
        log[L_TAKER] = -1
        log[L_CONTRACT] = -1
        log[L_PARTNER] = -1
        log[L_CALLED] = -1
        log[L_ATTACK_HP] = 0
        log[L_OUDLERS] = 0
        log[L_MADE] = 0
        log[L_DIFFERENCE] = 0
        log[L_PAB] = 0
        log[L_CHELEM] = CHELEM_NONE
        log[L_POIGNEE_ATTACK] = 0
        log[L_POIGNEE_DEFENCE] = 0
        log[L_VALUE] = 0
        log[L_PETIT_SEC_SEAT] = -1
        log[L_ATTACK_TRICKS] = 0
        log[L_N_MISERES] = 0
        log[L_SLAM_ANNOUNCED] = 0
        log[L_FORCED] = 1 if forced_seat >= 0 else 0
        log[L_N_BIDS] = 0
        log[L_N_ECART] = 0
        log[L_N_DECL] = 0
        log[L_N_TRICKS] = 0
        for s in range(MAX_SEATS):
            log[L_SCORES + s] = 0
            log[L_MISERES + s] = 0
            miseres[s] = 0
            ws[WS_HT + s] = 0
            ws[WS_HS + s] = 0
            ws[WS_ATT + s] = 0
            pub[PUB_BIDS + s] = -2
            pub[PUB_POIGNEE_T + s] = 0
            pub[PUB_MISERES + s] = 0
        pub[PUB_DEALER] = dealer
        pub[PUB_DUMMY] = dummy
        pub[PUB_TAKER] = -1
        pub[PUB_CONTRACT] = -1
        pub[PUB_CALLED] = -1
        pub[PUB_HIGHEST] = -1
        pub[PUB_CHIEN_T] = 0
        pub[PUB_CHIEN_S] = 0
        pub[PUB_ECART_T] = 0
        pub[PUB_SLAM] = 0
        pub[PUB_PLAYED_T] = 0
        pub[PUB_PLAYED_S] = 0
        # the bots' public bookkeeping (voids, who played what, tricks won) only when one reads it
        track = POLICIES
        if POLICIES:
            pub[PUB_TRICK] = 0
            pub[PUB_LEADER] = -1
            pub[PUB_TABLE] = table
            pub[PUB_N_ACTIVE] = na
            pub[PUB_N_TRICKS] = h
            pub[PUB_PARTNER] = -1
            for s in range(MAX_SEATS):
                pub[PUB_VOIDS + s] = 0
                pub[PUB_SEAT_PLAYED_T + s] = 0
                pub[PUB_SEAT_PLAYED_S + s] = 0
                pub[PUB_TRICKS_WON + s] = 0
                pub[PUB_WON_HP + s] = 0
        tracing = False
        if TRACE:
            tracing = buf.shape[0] > BUF_LEN
        if tracing:
            buf[BUF_LEN] = 0

        # ---- deal (tarotsim.rng.deal) -----------------------------------------------------------
        st = stream_state(seed, np.uint64(index), U_STREAM_CARDS)
        for i in range(78):
            ws[WS_DECK + i] = i
        for i in range(77, 0, -1):
            j, st = below(st, i + 1)
            x = ws[WS_DECK + i]
            ws[WS_DECK + i] = ws[WS_DECK + j]
            ws[WS_DECK + j] = x
        seat = first
        for k in range(na):
            t = np.int64(0)
            s = np.int64(0)
            for p in range(k * h, k * h + h):
                c = ws[WS_DECK + p]
                ge = np.int64(c >= 22)
                b = np.int64(1) << (c - 22 * ge)
                t |= b & (ge - 1)
                s |= b & (-ge)
            ws[WS_HT + seat] = t
            ws[WS_HS + seat] = s
            log[L_HAND_T + seat] = t
            log[L_HAND_S + seat] = s
            seat = ws[WS_NEXT + seat]
        chien_t = np.int64(0)
        chien_s = np.int64(0)
        for p in range(na * h, 78):
            c = ws[WS_DECK + p]
            if c < 22:
                chien_t |= np.int64(1) << c
            else:
                chien_s |= np.int64(1) << (c - 22)
        log[L_CHIEN_T] = chien_t
        log[L_CHIEN_S] = chien_s

        # ---- petit sec (R-DEAL-4) ---------------------------------------------------------------
        if rv[RV_PETIT_SEC]:
            seat = first
            for k in range(na):
                if ws[WS_HT + seat] == 2:
                    log[L_OUTCOME] = OUTCOME_PETIT_SEC
                    log[L_PETIT_SEC_SEAT] = seat
                    return
                seat = ws[WS_NEXT + seat]

        # ---- auction (R-BID) or forced contract --------------------------------------------------
        bst = stream_state(seed, np.uint64(index), U_STREAM_BOTS)
        highest = -1
        taker = -1
        seat = first
        for k in range(na):
            if forced_seat >= 0:
                bid = forced_contract if seat == forced_seat else -1
            else:
                if POLICIES:
                    bid, bst = bot_bid(kinds[seat], params, pol, ub, seat, ws[WS_HT + seat], ws[WS_HS + seat], pub,
                                       highest, bst)
                else:
                    bid, bst = random_bid(highest, bst)
                if tracing:
                    _trace(buf, TR_BID, seat, ws[WS_HT + seat], ws[WS_HS + seat], highest, 0, 0, 0, 0, 0, bid, 0,
                           pub, 0)
            log[L_BID_SEAT + k] = seat
            log[L_BID + k] = bid
            pub[PUB_BIDS + seat] = bid
            if bid >= 0:
                highest = bid
                taker = seat
                pub[PUB_HIGHEST] = bid
            seat = ws[WS_NEXT + seat]
        log[L_N_BIDS] = na
        if taker < 0:
            log[L_OUTCOME] = OUTCOME_ALL_PASSED
            return
        contract = highest
        log[L_TAKER] = taker
        log[L_CONTRACT] = contract
        pub[PUB_TAKER] = taker
        pub[PUB_CONTRACT] = contract

        # ---- call (table 5, R-CALL-1) ------------------------------------------------------------
        called = -1
        if is5:
            ths = ws[WS_HS + taker]
            legal = KINGS
            if ths & KINGS == KINGS:
                legal |= QUEENS
                if ths & QUEENS == QUEENS:
                    legal |= KNIGHTS
                    if ths & KNIGHTS == KNIGHTS:
                        legal |= JACKS
            if POLICIES:
                b, bst = bot_call(kinds[taker], params, pol, ub, taker, ws[WS_HT + taker], ths, pub, legal, bst)
            else:
                b, bst = random_call(legal, bst)
            if tracing:
                _trace(buf, TR_CALL, taker, ws[WS_HT + taker], ths, legal, 0, 0, 0, 0, 0, b, 0, pub, 0)
            called = 22 + b
            log[L_CALLED] = called
            pub[PUB_CALLED] = called

        # ---- chien and écart (R-CHIEN) -----------------------------------------------------------
        att_t = np.int64(0)  # the attack's pile as masks
        att_s = np.int64(0)
        ecart_t = np.int64(0)
        if contract <= 1:
            pub[PUB_CHIEN_T] = chien_t
            pub[PUB_CHIEN_S] = chien_s
            tht = ws[WS_HT + taker] | chien_t
            ths = ws[WS_HS + taker] | chien_s
            normal = ths & ~KINGS
            if POLICIES:
                ecart_t, ecart_s, bst = bot_ecart(kinds[taker], params, pol, ub, taker, tht, ths, pub, normal,
                                                  tht & T2_T20, n_chien, log, L_ECART, bst)
            else:
                ecart_t, ecart_s, bst = random_ecart(normal, tht & T2_T20, n_chien, log, L_ECART, bst)
            if tracing:
                _trace(buf, TR_ECART, taker, tht, ths, normal, tht & T2_T20, n_chien, 0, 0, 0, ecart_t, ecart_s,
                       pub, 0)
            log[L_N_ECART] = n_chien
            ws[WS_HT + taker] = tht & ~ecart_t
            ws[WS_HS + taker] = ths & ~ecart_s
            pub[PUB_ECART_T] = ecart_t
            att_t = ecart_t
            att_s = ecart_s
        elif contract == 2:
            att_t = chien_t
            att_s = chien_s

        # ---- partner (R-CALL-2) ------------------------------------------------------------------
        partner = -1
        if is5:
            cb = np.int64(1) << (called - 22)
            for s in range(n):
                if s != taker and ws[WS_HS + s] & cb:
                    partner = s
            log[L_PARTNER] = partner
        ws[WS_ATT + taker] = 1
        if partner >= 0:
            ws[WS_ATT + partner] = 1

        # ---- chelem announce (R-SLAM-1) ----------------------------------------------------------
        n_decl = 0
        if POLICIES:
            slam, bst = bot_chelem(kinds[taker], params, pol, ub, taker, ws[WS_HT + taker], ws[WS_HS + taker], pub, bst)
        else:
            slam, bst = below(bst, 2)
        if tracing:
            _trace(buf, TR_CHELEM, taker, ws[WS_HT + taker], ws[WS_HS + taker], 0, 0, 0, 0, 0, 0, slam, 0, pub, 0)
        if slam:
            log[L_DECL + 0] = taker
            log[L_DECL + 1] = DECL_CHELEM
            log[L_DECL + 2] = 0
            log[L_DECL + 3] = 0
            n_decl = 1
            pub[PUB_SLAM] = 1
            leader = taker
        else:
            leader = first
        log[L_SLAM_ANNOUNCED] = slam

        # ---- play (R-PLAY, R-CALL-4, R-EXC) ------------------------------------------------------
        # Trick 1 is peeled off the loop: it alone has the first-turn declarations and R-CALL-4.
        poig_att = 0
        poig_def = 0
        n_mis = 0
        restricted = rv[RV_CALLED_SUIT_AFTER_EXCUSE_RESTRICTED] != 0
        ban = np.int64(0)
        called_suit = np.int64(0)
        if is5:
            called_suit = SUIT14 << (14 * ((called - 22) // 14))
            ban = called_suit & ~(np.int64(1) << (called - 22))
        adj = 0          # R-EXC-2 low-card payments, in attack half-points
        att_tricks = 0
        last = h - 1
        tt_prev = np.int64(0)
        winner = leader
        exc4 = False
        played_t = np.int64(0)
        played_s = np.int64(0)

        # trick 1
        log[L_LEADER] = leader
        pub[PUB_TRICK] = 0
        pub[PUB_LEADER] = leader
        seat = leader
        fixed = False
        fmask = np.int64(0)
        amask = TRUMPS
        best_key = -2
        best_seat = leader
        ex_seat = -1
        tt = np.int64(0)
        ts = np.int64(0)
        for j in range(na):
            n_decl, poig_att, poig_def, n_mis, bst = _first_turn(
                rv, table, seat, taker, ecart_t, kinds, params, pol, ub, ws, pub, log, miseres,
                n_decl, poig_att, poig_def, n_mis, bst, buf, tracing, j)
            ht = ws[WS_HT + seat]
            hs = ws[WS_HS + seat]
            lt, ls = _legal(ht, hs, fixed, fmask, amask)
            if not fixed and is5 and (j == 0 or restricted):
                # R-CALL-4: no card of the called suit but the called card; lifted when every
                # card held is of the called suit
                if (ht | (hs & ~called_suit)) != 0:
                    ls = hs & ~ban
            if POLICIES:
                c, bt, bs, bst = bot_card_bits(kinds[seat], params, pol, ub, seat, ht, hs, pub, lt, ls, fixed, fmask,
                                               amask, j, bst)
            else:
                c, bt, bs, bst = random_card_bits(lt, ls, bst)
            if tracing:
                _trace(buf, TR_CARD, seat, ht, hs, lt, ls, fixed, fmask, amask, j, c, 0, pub, j)
            ws[WS_HT + seat] = ht ^ bt
            ws[WS_HS + seat] = hs ^ bs
            tt |= bt
            ts |= bs
            log[L_CARDS + j] = c
            pub[PUB_TRICK_CARDS + j] = c
            fixed, fmask, amask, best_key, best_seat, ex_seat = _after_card(
                c, bt, seat, fixed, fmask, amask, best_key, best_seat, ex_seat)
            seat = ws[WS_NEXT + seat]

        tr = 0
        while True:
            # ---- close trick ``tr`` (cards in tt/ts, winner so far best_seat)
            played_t |= tt
            played_s |= ts
            pub[PUB_PLAYED_T] = played_t
            pub[PUB_PLAYED_S] = played_s
            winner = best_seat
            w_att = ws[WS_ATT + winner]
            if ex_seat >= 0:
                if tr == last:
                    if ex_seat == leader:
                        # R-EXC-4: the Excuse led to the last trick by a side that won every earlier trick
                        l_att = ws[WS_ATT + leader]
                        if (att_tricks == last) if l_att else (att_tricks == 0):
                            if l_att or rv[RV_EXCUSE_SLAM_EITHER_SIDE]:
                                winner = leader
                                w_att = l_att
                                exc4 = True
                else:
                    # R-EXC-2: the Excuse stays with its side; one low card to the winners if they differ
                    o_att = ws[WS_ATT + ex_seat]
                    if o_att:
                        att_t |= 1
                    if o_att != w_att:
                        adj += 1 if w_att else -1
                    tt &= ~np.int64(1)
            log[L_WINNER + tr] = winner
            if track:
                _track_trick(pub, log, ws, tr, na, called, winner, tt, ts)
            wm = -w_att
            att_t |= tt & wm
            att_s |= ts & wm
            if ex_seat >= 0:
                tt |= 1
            att_tricks += w_att
            leader = winner
            if tr == last:
                break
            # ---- play trick ``tr + 1``: the leader is free (R-PLAY-3), then the others follow
            tr += 1
            log[L_LEADER + tr] = leader
            pub[PUB_TRICK] = tr
            pub[PUB_LEADER] = leader
            tt_prev = tt
            cbase = L_CARDS + tr * MAX_SEATS
            seat = leader
            ht = ws[WS_HT + seat]
            hs = ws[WS_HS + seat]
            if POLICIES:
                c, tt, ts, bst = bot_card_bits(kinds[seat], params, pol, ub, seat, ht, hs, pub, ht, hs, False,
                                               np.int64(0), TRUMPS, 0, bst)
            else:
                c, tt, ts, bst = random_card_bits(ht, hs, bst)
            if tracing:
                _trace(buf, TR_CARD, seat, ht, hs, ht, hs, 0, 0, TRUMPS, 0, c, 0, pub, 0)
            ws[WS_HT + seat] = ht ^ tt
            ws[WS_HS + seat] = hs ^ ts
            log[cbase] = c
            pub[PUB_TRICK_CARDS] = c
            fixed = c != 0
            fmask = FOLLOW_MASK[c]
            amask = TRUMPS & -(tt << 1) if tt > 1 else TRUMPS
            best_key = CARD_KEY_LED[c]
            best_seat = seat
            ex_seat = seat if c == 0 else -1
            seat = ws[WS_NEXT + seat]
            for j in range(1, na):
                ht = ws[WS_HT + seat]
                hs = ws[WS_HS + seat]
                lt, ls = _legal(ht, hs, fixed, fmask, amask)
                if POLICIES:
                    c, bt, bs, bst = bot_card_bits(kinds[seat], params, pol, ub, seat, ht, hs, pub, lt, ls, fixed,
                                                   fmask, amask, j, bst)
                else:
                    c, bt, bs, bst = random_card_bits(lt, ls, bst)
                if tracing:
                    _trace(buf, TR_CARD, seat, ht, hs, lt, ls, fixed, fmask, amask, j, c, 0, pub, j)
                ws[WS_HT + seat] = ht ^ bt
                ws[WS_HS + seat] = hs ^ bs
                tt |= bt
                ts |= bs
                log[cbase + j] = c
                pub[PUB_TRICK_CARDS + j] = c
                fixed, fmask, amask, best_key, best_seat, ex_seat = _after_card(
                    c, bt, seat, fixed, fmask, amask, best_key, best_seat, ex_seat)
                seat = ws[WS_NEXT + seat]
        log[L_N_TRICKS] = h
        log[L_N_DECL] = n_decl

        # ---- counting (R-COUNT), petit au bout (R-PAB), chelem (R-SLAM) -------------------------
        if contract == 3:
            pass  # garde contre: the chien is the defence's
        attack_hp = _hp(att_t, att_s) + adj
        oudlers = popcount(att_t & OUDLERS)
        pab = 0
        side = 1 if ws[WS_ATT + winner] else -1
        if tt & 2:
            pab = side
        elif exc4 and rv[RV_PAB_SLAM_PENULTIMATE] and (tt_prev & 2):
            pab = side
        slam_side = 0
        if att_tricks == h:
            slam_side = 1
        elif att_tricks == 0:
            slam_side = -1
        if slam_side == 1:
            chelem = CHELEM_ANNOUNCED_MADE if slam else CHELEM_MADE
        elif slam_side == -1:
            chelem = CHELEM_ANNOUNCED_DEFENCE if slam else CHELEM_DEFENCE
        elif slam:
            chelem = CHELEM_ANNOUNCED_FAILED
        else:
            chelem = CHELEM_NONE

        score_kernel(rv, contract, attack_hp, oudlers, pab, poig_att, poig_def, slam, slam_side,
                     taker, partner, dummy, miseres, steps, scores)

        log[L_ATTACK_HP] = attack_hp
        log[L_OUDLERS] = oudlers
        log[L_MADE] = steps[ST_MADE]
        log[L_DIFFERENCE] = steps[ST_DIFFERENCE]
        log[L_PAB] = pab
        log[L_CHELEM] = chelem
        log[L_POIGNEE_ATTACK] = poig_att
        log[L_POIGNEE_DEFENCE] = poig_def
        log[L_VALUE] = steps[ST_VALUE]
        log[L_ATTACK_TRICKS] = att_tricks
        log[L_N_MISERES] = n_mis
        for s in range(n):
            log[L_SCORES + s] = scores[s]
            log[L_MISERES + s] = miseres[s]
        for i in range(ST_LEN):
            log[L_STEPS + i] = steps[i]

    if not POLICIES:
        return _play

    @njit(nogil=True, _nrt=False)
    def _play_marked(rv, seed, index, forced_seat, forced_contract, kinds, params, pol, log, buf):
        """:func:`_play`, its outcome ``bot_error`` when a policy set chose what the rules forbid."""
        _play(rv, seed, index, forced_seat, forced_contract, kinds, params, pol, log, buf)
        if buf[B_USER + U_ERR] != 0:
            log[L_OUTCOME] = OUTCOME_BOT_ERROR

    return _play_marked


_play_random = _make_play(False)
_play_bots = _make_play(True)
_play_traced = _make_play(True, True)


@njit(cache=True, nogil=True, _nrt=False)
def play_deal(rv, seed, index, forced_seat, forced_contract, kinds, params, pol, log, buf):
    """Play deal ``(seed, index)`` (seed uint64, index int64 >= 0) into ``log``.

    ``forced_seat`` < 0: normal auction; else that seat takes ``forced_contract`` (0..3).
    ``kinds``: int64[n_seats] bot kind per seat; ``params``: float64[n_seats, N_BOT_PARAMS];
    ``pol``: the policy tuple (``bots.policy.policy_tuple``: FunctionType[MAX_SEATS * 7]), or
    None when no seat plays a policy set.
    A ``buf`` longer than ``new_buffer()`` receives a trace of the bots' decisions (``TR_*``;
    tests). (The batch kernels below pick the build of the deal kernel once per call.)
    """
    for s in range(rv[RV_N_SEATS]):
        if kinds[s] != BOT_RANDOM:
            _play_traced(rv, seed, index, forced_seat, forced_contract, kinds, params, pol, log, buf)
            return
    _play_random(rv, seed, index, forced_seat, forced_contract, kinds, params, None, log, buf)


@njit(inline="always")
def _store_facts(log, out, i):
    r = out[i]
    r.index = log[L_INDEX]
    r.dealer = log[L_DEALER]
    r.outcome = log[L_OUTCOME]
    r.taker = log[L_TAKER]
    r.contract = log[L_CONTRACT]
    r.partner = log[L_PARTNER]
    r.called = log[L_CALLED]
    r.attack_half_points = log[L_ATTACK_HP]
    r.oudlers = log[L_OUDLERS]
    r.made = log[L_MADE]
    r.difference = log[L_DIFFERENCE]
    r.petit_au_bout = log[L_PAB]
    r.chelem = log[L_CHELEM]
    r.slam_announced = log[L_SLAM_ANNOUNCED]
    r.poignee_attack = log[L_POIGNEE_ATTACK]
    r.poignee_defence = log[L_POIGNEE_DEFENCE]
    r.miseres = log[L_N_MISERES]
    r.attack_tricks = log[L_ATTACK_TRICKS]
    r.petit_sec_seat = log[L_PETIT_SEC_SEAT]
    r.value = log[L_VALUE]
    for s in range(MAX_SEATS):
        r.scores[s] = log[L_SCORES + s]


@njit(inline="always")
def _accumulate(log, acc, n):
    """Add one deal's log into the aggregate ``acc`` (``ACC_*``)."""
    acc[ACC_DEALS] += 1
    outcome = log[L_OUTCOME]
    if outcome == OUTCOME_BOT_ERROR:
        acc[ACC_BOT_ERRORS] += 1
        return
    if outcome == OUTCOME_ALL_PASSED:
        acc[ACC_ALL_PASSED] += 1
        return
    if outcome == OUTCOME_PETIT_SEC:
        acc[ACC_PETIT_SEC] += 1
        return
    acc[ACC_PLAYED] += 1
    contract = log[L_CONTRACT]
    acc[ACC_TAKEN + contract] += 1
    acc[ACC_MADE + contract] += log[L_MADE]
    acc[ACC_ATTACK_HP + contract] += log[L_ATTACK_HP]
    for s in range(n):
        acc[ACC_SCORE_SUM + s] += log[L_SCORES + s]
    acc[ACC_TAKER_SCORE_SUM] += log[L_SCORES + log[L_TAKER]]
    pab = log[L_PAB]
    if pab == 1:
        acc[ACC_PAB_ATTACK] += 1
    elif pab == -1:
        acc[ACC_PAB_DEFENCE] += 1
    acc[ACC_CHELEM + log[L_CHELEM]] += 1
    if log[L_POIGNEE_ATTACK] + log[L_POIGNEE_DEFENCE] > 0:
        acc[ACC_POIGNEES] += 1
    acc[ACC_MISERES] += log[L_N_MISERES]
    if log[L_CALLED] >= 0 and log[L_PARTNER] < 0:
        acc[ACC_ALONE] += 1


# The batch kernels, once per build of the deal kernel (``_random``: every seat plays random;
# ``_bots``: any other table, with the policy tuple ``pol``). Each is compiled, and cached, only
# when first used: a table of random bots never compiles the other bots. ``run_facts`` /
# ``run_aggregate`` / ``run_logs`` pick the build from the kinds. The ``_bots`` loops stop after
# a deal whose outcome is ``bot_error`` (the caller names the rule on the slow path).

@njit(cache=True, nogil=True)
def run_facts_random(rv, seed, start, forced_seat, forced_contract, kinds, params, out):
    buf = new_buffer()
    log = np.zeros(L_LEN, dtype=np.int64)
    for i in range(out.shape[0]):
        _play_random(rv, seed, start + i, forced_seat, forced_contract, kinds, params, None, log, buf)
        _store_facts(log, out, i)


@njit(cache=True, nogil=True)
def run_facts_bots(rv, seed, start, forced_seat, forced_contract, kinds, params, pol, out):
    buf = new_buffer()
    log = np.zeros(L_LEN, dtype=np.int64)
    for i in range(out.shape[0]):
        _play_bots(rv, seed, start + i, forced_seat, forced_contract, kinds, params, pol, log, buf)
        _store_facts(log, out, i)
        if log[L_OUTCOME] == OUTCOME_BOT_ERROR:
            return


@njit(cache=True, nogil=True)
def run_aggregate_random(rv, seed, start, count, forced_seat, forced_contract, kinds, params, acc):
    buf = new_buffer()
    log = np.zeros(L_LEN, dtype=np.int64)
    for i in range(count):
        _play_random(rv, seed, start + i, forced_seat, forced_contract, kinds, params, None, log, buf)
        _accumulate(log, acc, rv[RV_N_SEATS])


@njit(cache=True, nogil=True)
def run_aggregate_bots(rv, seed, start, count, forced_seat, forced_contract, kinds, params, pol, acc):
    buf = new_buffer()
    log = np.zeros(L_LEN, dtype=np.int64)
    for i in range(count):
        _play_bots(rv, seed, start + i, forced_seat, forced_contract, kinds, params, pol, log, buf)
        _accumulate(log, acc, rv[RV_N_SEATS])
        if log[L_OUTCOME] == OUTCOME_BOT_ERROR:
            return


@njit(cache=True, nogil=True)
def run_logs_random(rv, seed, indices, forced_seat, forced_contract, kinds, params, logs):
    buf = new_buffer()
    for i in range(indices.shape[0]):
        _play_random(rv, seed, indices[i], forced_seat, forced_contract, kinds, params, None, logs[i], buf)


@njit(cache=True, nogil=True)
def run_logs_bots(rv, seed, indices, forced_seat, forced_contract, kinds, params, pol, logs):
    buf = new_buffer()
    for i in range(indices.shape[0]):
        _play_bots(rv, seed, indices[i], forced_seat, forced_contract, kinds, params, pol, logs[i], buf)


def _all_random(kinds) -> bool:
    return not bool(np.any(np.asarray(kinds) != BOT_RANDOM))


def run_facts(rv, seed, start, forced_seat, forced_contract, kinds, params, out, pol=None):
    """Deals ``start .. start + len(out) - 1`` into the facts rows ``out`` (FACTS_DTYPE)."""
    if _all_random(kinds):
        run_facts_random(rv, seed, start, forced_seat, forced_contract, kinds, params, out)
    else:
        run_facts_bots(rv, seed, start, forced_seat, forced_contract, kinds, params, pol, out)


def run_aggregate(rv, seed, start, count, forced_seat, forced_contract, kinds, params, acc, pol=None):
    """Deals ``start .. start + count - 1`` added into the aggregate ``acc`` (``ACC_*``)."""
    if _all_random(kinds):
        run_aggregate_random(rv, seed, start, count, forced_seat, forced_contract, kinds, params, acc)
    else:
        run_aggregate_bots(rv, seed, start, count, forced_seat, forced_contract, kinds, params, pol, acc)


def run_logs(rv, seed, indices, forced_seat, forced_contract, kinds, params, logs, pol=None):
    """Full logs (facts + record arrays) of the deals ``indices`` into ``logs[i, :]``."""
    if _all_random(kinds):
        run_logs_random(rv, seed, indices, forced_seat, forced_contract, kinds, params, logs)
    else:
        run_logs_bots(rv, seed, indices, forced_seat, forced_contract, kinds, params, pol, logs)
