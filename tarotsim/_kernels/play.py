"""The deal kernel: one whole deal of French Tarot, from (seed, index) to the scores.

Follows docs/engine-contract.md step by step (R-DEAL … R-SCORE). Hands are two int64 masks
(trump word: bit 0 Excuse, bit t trump t; suit word: bit 14*suit + rank-1). Everything lives
in arrays the caller allocates once per thread: ``buf`` (workspace, public view for bots,
scorer arrays; ``new_buffer()``) and ``log`` (facts + record of the deal, ``layout.L_*``).
Nothing is allocated per deal; ``play_deal`` is compiled without NRT (no reference counting).

The deal is a short sequence of named steps (``_play``), each citing the rules it implements,
in the order of docs/engine-contract.md:

===========================  ====================================================================
``_seating``, ``_new_deal``  dealer, 5d dummy, playing order (R-GEN-2, R-DEAL-6); facts' defaults
``_deal_cards``              shuffle and deal (R-DEAL-1, R-DEAL-2)
``_lay_piles``               table 2: 6 piles of 3 per player, tops face up (R-VAR-TWO)
``_petit_sec``               R-DEAL-4 (not at table 2)
``_auction``                 R-BID-1, R-BID-2, R-BID-3, or a forced contract
``_call``, ``_sides``        R-CALL-1; partner and sides (R-CALL-2, R-GEN-3)
``_chien_and_ecart``         R-CHIEN-1, R-CHIEN-2, R-CHIEN-3, R-CHIEN-4
``_announce_chelem``         R-SLAM-1, leader of trick 1 (R-PLAY-1)
``_play_rest``               the tricks, then ``_count`` and ``_score``:
``_first_turn``              poignée (R-POIG-1, R-POIG-2, R-POIG-3), misères (R-MIS-1); not at 2
``_card_step``               one card, any trick: R-PLAY-2, R-PLAY-3, R-PLAY-4a to R-PLAY-4e,
                             R-PLAY-5, R-EXC-1, R-CALL-4; table 2: ``_take_top``
``_turn_up_piles``           table 2, after each trick: the next card of a pile turns up
``_close_trick``             winner, the Excuse (R-EXC-2, R-EXC-3, R-EXC-4), petit au bout
                             (R-PAB-1, R-PAB-2), the attack's pile (R-COUNT-1)
``_count``                   R-COUNT-1, R-COUNT-2, R-EXC-5, R-SLAM-2
``_score``                   ``tarotsim.scoring.score_core`` (R-COUNT-3, R-COUNT-4, R-SCORE-1, ...)
===========================  ====================================================================

Table 2 (R-VAR-TWO) runs the same steps, selected by the table code (or by the build: ``TABLE2``
of :func:`_make_play`): a seat's hand slots
(``WS_HT``, ``WS_HS``) hold what it may play, its hand and its face-up pile tops, so the duties of
R-PLAY-4 count them all and the card step of the other tables is unchanged; the piles are in the
workspace (``WS_STACK``, ``WS_HEIGHT``), the tops in the public view (``PUB_TOPS_*``), the dealt
piles in the log (``L_PILES``) and the chien and écart are made from the hand alone.

The steps are inlined (one compiled body per build), except ``_first_turn``: numba inlines by
copying the callee's IR at every level, so a big step nested in others costs seconds of cold
compile (the comments there give the figures). The small scalar helpers (``_legal``,
``_after_card``, ``_after_lead``, the random stream and bit tricks) are ``_bits.scalar``: compiled
once, inlined by LLVM. A search gets an out-of-line ``_play_rest``. The card loop holds no call
at tricks 2 and later (trick 1, with its declarations, has a loop of its own; table 2's piles
give up their played tops after the trick): a call in the loop made LLVM keep the trick's state
in memory, some 5% of a random deal's instructions.

What a deal carries between steps lives in the workspace (``WS_*``), the log and the public view;
only the trick being played is a tuple of locals. So ``_play_rest`` can finish a deal from any
card, for instance a position set up by a search.

The deal is built by a factory (:func:`_make_play`): here for tables of random bots only
(:data:`_play_random`, the engine's random player, exactly the random deal of before the other
bots existed; :data:`_play_random_two` at table 2, so that the piles' steps cost the other tables
no compile time); the package that owns the bots builds it with its dispatch (a
:class:`BotDispatch`), the public bookkeeping the bots read (``layout.PUB_*``) and an optional
decision trace (``tarotsim/_builds/``): the kernels never import the bots.
Batch kernels (``run_facts_random``, ``run_aggregate_random``, ``run_logs_random``, and the bots
builds' own) loop over deals inside numba and release the GIL, so ``tarotsim.simulate`` can run
chunks on a thread pool.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from ..rules import (KERNEL_CHIEN_SIZE, KERNEL_HAND_SIZE, KERNEL_N_TRICKS, KERNEL_PILE_CARDS, KERNEL_POIGNEE_BONUS,
                     KERNEL_POIGNEE_SIZES, PILE_DEPTH, PILES, RV_CALLED_SUIT_AFTER_EXCUSE_RESTRICTED, RV_EXCUSE_SLAM_EITHER_SIDE, RV_MISERE,
                     RV_MISERE_EXCUSE_IS_TRUMP, RV_N_ACTIVE, RV_N_SEATS, RV_PAB_SLAM_PENULTIMATE,
                     RV_PETIT_SEC, RV_POIGNEE_ECART_TRUMPS, RV_TABLE, TABLE_2, TABLE_5, TABLE_5D)
from ..scoring import ST_DIFFERENCE, ST_LEN, ST_MADE, ST_VALUE, score_core
from ._bits import popcount, scalar, select_bit, tzcnt
from .seats import next_seat
from ._rng import U_STREAM_BOTS, U_STREAM_CARDS, below, stream_state
from .masks import (card_bits, SW_HONOURS, SW_JACKS, SW_KINGS, SW_KNIGHTS, SW_QUEENS, SW_SUIT, TW_OUDLERS,  # noqa: F401
                    TW_T2_T20, TW_TRUMPS, half_points)
from .random_player import random_bid, random_call, random_card_bits, random_ecart
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
                     PUB_SEAT_PLAYED_S, PUB_TRICKS_WON, PUB_WON_HP, U_ERR, U_LEN,
                     PUB_H_LEADER, PUB_H_CARDS, PUB_MISERE_KINDS, L_PILES, PILE_CARDS, PILE_SEATS, PUB_TOPS_S,
                     PUB_TOPS_T,
                     ACC_BOT_ERRORS, OUTCOME_BOT_ERROR)

score_kernel = njit(cache=True, nogil=True)(score_core)


# per table code (3, 4, 5, 5d, 2): hand size, chien size, tricks, cards laid in piles per player,
# poignée sizes (their home: tarotsim.rules)
HAND_SIZE = KERNEL_HAND_SIZE
CHIEN_SIZE = KERNEL_CHIEN_SIZE
N_TRICKS = KERNEL_N_TRICKS
PILE_SIZE = KERNEL_PILE_CARDS
N_PILES = PILES["2"]  # table 2 (R-VAR-TWO): piles per player, of PILE_DEPTH cards
POIGNEE_SIZES = KERNEL_POIGNEE_SIZES

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

# Workspace layout (``buf[0:WS_LEN]``): everything a deal carries from one step to the next
# besides the trick being played (the ``trick`` tuple of ``_card_step``). Hands, sides, piles
# and declarations live here, so that play can resume from any card of a deal: set these slots,
# the log's tricks so far and the public view, then call ``_play_rest`` (see ``_play_rest``).
WS_DECK = 0                       # the shuffled pack, 78 card ids (R-DEAL-2)
WS_NEXT = WS_DECK + 78            # per seat: the next active seat in playing order (R-GEN-2)
WS_HT = WS_NEXT + MAX_SEATS       # per seat: its hand (table 2: and face-up pile tops), trump word
WS_HS = WS_HT + MAX_SEATS         # per seat: the same, suit word
WS_ATT = WS_HS + MAX_SEATS        # per seat: 1 if it plays for the attack (R-GEN-3)
WS_TAKER = WS_ATT + MAX_SEATS     # the taker, -1 before the auction ends
WS_ECART_T = WS_TAKER + 1         # trumps the taker put in the écart (R-CHIEN-2; R-POIG-3)
WS_CALLED = WS_ECART_T + 1        # the called card id (table 5, R-CALL-1), else -1
WS_CALLED_SUIT = WS_CALLED + 1    # suit-word mask of the called suit, else 0
WS_CALL_BAN = WS_CALLED_SUIT + 1  # cards trick 1 may not be led with (R-CALL-4), else 0
WS_PILE_T = WS_CALL_BAN + 1       # the attack's pile (R-COUNT-1), trump word
WS_PILE_S = WS_PILE_T + 1         # the attack's pile, suit word
WS_EXC_ADJ = WS_PILE_S + 1        # R-EXC-2 low-card payments, in attack half-points
WS_ATT_TRICKS = WS_EXC_ADJ + 1    # tricks won by the attack so far
WS_PREV_T = WS_ATT_TRICKS + 1     # trump word of the last finished trick: its Petit (R-PAB-2)
WS_N_DECL = WS_PREV_T + 1         # declarations written to the log so far (L_DECL)
WS_POIG_ATT = WS_N_DECL + 1       # poignée bonuses declared by the attack (R-POIG-1)
WS_POIG_DEF = WS_POIG_ATT + 1     # poignée bonuses declared by the defence
WS_N_MIS = WS_POIG_DEF + 1        # misères declared (R-MIS-1)
# table 2 (R-VAR-TWO): per seat its pile cards (``seat * PILE_CARDS + PILE_DEPTH * pile + depth``,
# bottom first) and per pile the cards left in it (``seat * N_PILES + pile``); the face-up tops are
# public (``PUB_TOPS_*``)
WS_STACK = WS_N_MIS + 1
WS_HEIGHT = WS_STACK + PILE_SEATS * PILE_CARDS
WS_LEN = WS_HEIGHT + PILE_SEATS * N_PILES
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


@njit(cache=True, nogil=True)
def new_buffer():
    """The scratch buffer of one thread (``play_deal``'s ``buf``)."""
    return np.zeros(BUF_LEN, dtype=np.int64)


@scalar
def _legal(ht, hs, fixed, fmask, amask):
    """Legal cards (trump word, suit word) of a hand, branch-free.

    ``fixed``: the led suit is fixed (a card other than the Excuse was played; before that the
    player is free, R-PLAY-3); ``fmask``: the suit-word mask of the led suit (0 when trumps were
    led); ``amask``: the trumps above the highest trump in the trick.
    """
    exc = ht & 1
    sm = hs & fmask
    trumps = ht & TW_TRUMPS
    above = trumps & amask
    # R-PLAY-4b, R-PLAY-4c: a trump above the highest one in the trick when he can, else any
    # trump; R-PLAY-4e: whoever is winning the trick (``amask`` ignores who played that trump)
    tsel = above if above != 0 else trumps
    # R-PLAY-3: nothing fixed yet, free; R-PLAY-4d: neither the led suit nor a trump, free
    free = (not fixed) | ((sm | tsel) == 0)
    # R-PLAY-4a: the led suit when he has it, else R-PLAY-4b or R-PLAY-4c: trumps; R-EXC-1: the
    # Excuse is always allowed
    lt = ht if free else (exc if sm != 0 else tsel | exc)
    ls = hs if free else sm
    return lt, ls


@scalar
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


@scalar
def _after_lead(c, bt, seat):
    """Trick state after ``seat`` leads ``c`` (trump-word bit ``bt``): ``_after_card`` from an empty
    trick, written out (R-PLAY-3: the suit is fixed unless ``c`` is the Excuse; R-PLAY-5)."""
    amask = TW_TRUMPS & -(bt << 1) if bt > 1 else TW_TRUMPS
    return c != 0, FOLLOW_MASK[c], amask, CARD_KEY_LED[c], seat, (seat if c == 0 else np.int64(-1))


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
    not following (R-PLAY-4a, R-PLAY-4b), the partner once the called card is out (R-CALL-3), the tricks
    and card points each seat won. Once per trick, and only when a bot reads them."""
    base = L_CARDS + tr * MAX_SEATS
    seat = log[L_LEADER + tr]
    fixed = False
    fmask = np.int64(0)
    # table 2: a card not followed may lie under a pile (R-VAR-TWO): no void is shown
    voids_shown = pub[PUB_TABLE] != TABLE_2
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
        if fixed and c != 0 and voids_shown:
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
    pub[PUB_WON_HP + winner] += half_points(tt & ~np.int64(1), ts)


# --- the deal's steps, in the order of docs/engine-contract.md ----------------------------------
# The steps that ask a bot are in ``_make_play`` (they depend on its build flags), the others
# are here.

@njit(inline="always")
def _seating(rv, index, ws):
    """Dealer, 5d dummy and first seat to speak and play; ``WS_NEXT`` (R-GEN-2, R-DEAL-3, R-DEAL-6).

    Seat ``s`` is followed by ``s + 1`` mod n, the 5d dummy (the dealer) skipped; the first
    player is the one after the dealer (R-BID-2, R-PLAY-1).
    """
    n = rv[RV_N_SEATS]
    dealer = index % n
    dummy = dealer if rv[RV_TABLE] == TABLE_5D else -1
    for s in range(n):
        ws[WS_NEXT + s] = next_seat(s, n, dummy)
    return dealer, dummy, ws[WS_NEXT + dealer]


@njit(inline="always")
def _new_deal(rv, index, forced_seat, dealer, dummy, ws, pub, log, miseres):
    """The facts' defaults (a deal that ends early keeps them), the workspace and public view
    emptied."""
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
        pub[PUB_TOPS_T + s] = 0
        pub[PUB_TOPS_S + s] = 0
    ws[WS_TAKER] = -1
    ws[WS_ECART_T] = 0
    ws[WS_CALLED] = -1
    ws[WS_CALLED_SUIT] = 0
    ws[WS_CALL_BAN] = 0
    ws[WS_PILE_T] = 0
    ws[WS_PILE_S] = 0
    ws[WS_EXC_ADJ] = 0
    ws[WS_ATT_TRICKS] = 0
    ws[WS_PREV_T] = 0
    ws[WS_N_DECL] = 0
    ws[WS_POIG_ATT] = 0
    ws[WS_POIG_DEF] = 0
    ws[WS_N_MIS] = 0
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


@njit(inline="always")
def _new_bots_view(rv, pub):
    """The bots' public bookkeeping (voids, who played what, tricks won), emptied; kept up to date
    only in the build where some seat reads it (``_track_trick``)."""
    pub[PUB_TRICK] = 0
    pub[PUB_LEADER] = -1
    pub[PUB_TABLE] = rv[RV_TABLE]
    pub[PUB_N_ACTIVE] = rv[RV_N_ACTIVE]
    pub[PUB_N_TRICKS] = N_TRICKS[rv[RV_TABLE]]
    pub[PUB_PARTNER] = -1
    for s in range(MAX_SEATS):
        pub[PUB_VOIDS + s] = 0
        pub[PUB_SEAT_PLAYED_T + s] = 0
        pub[PUB_SEAT_PLAYED_S + s] = 0
        pub[PUB_TRICKS_WON + s] = 0
        pub[PUB_WON_HP + s] = 0
        pub[PUB_MISERE_KINDS + s] = 0
    # The history (``PUB_H_*``) is not emptied: only its first ``PUB_TRICK`` tricks are read, and
    # each is written when played (measured: emptying its 144 slots cost 2-3% of a heuristic deal).


@njit(inline="always")
def _deal_cards(rv, seed, index, first, ws, log):
    """Shuffle with the cards stream and deal (R-DEAL-1, R-DEAL-2; ``tarotsim.rng.deal``): hands
    of the table's size to the active seats in dealing order from ``first``, the rest is the
    chien. Returns the chien (trump word, suit word)."""
    na = rv[RV_N_ACTIVE]
    h = HAND_SIZE[rv[RV_TABLE]]
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
    for p in range(na * (h + PILE_SIZE[rv[RV_TABLE]]), 78):  # table 2: after the piles (R-VAR-TWO)
        c = ws[WS_DECK + p]
        if c < 22:
            chien_t |= np.int64(1) << c
        else:
            chien_s |= np.int64(1) << (c - 22)
    log[L_CHIEN_T] = chien_t
    log[L_CHIEN_S] = chien_s
    return chien_t, chien_s


@njit(inline="always")
def _lay_piles(rv, first, ws, pub, log):
    """Table 2 (R-VAR-TWO; ``tarotsim.rng.deal_with_piles``): after the hands, each player in
    dealing order from ``first`` lays the next 18 cards of the pack in 6 piles of 3, each from
    bottom to top; the top of each pile is face up (public)."""
    start = rv[RV_N_ACTIVE] * HAND_SIZE[rv[RV_TABLE]]
    seat = first
    for k in range(PILE_SEATS):
        for i in range(PILE_CARDS):
            c = ws[WS_DECK + start + k * PILE_CARDS + i]
            ws[WS_STACK + seat * PILE_CARDS + i] = c
            log[L_PILES + seat * PILE_CARDS + i] = c
        for p in range(N_PILES):
            ws[WS_HEIGHT + seat * N_PILES + p] = PILE_DEPTH
        seat = ws[WS_NEXT + seat]
    _turn_up_piles(ws, pub)


# out of line: table 2 only, once a trick; the card loop of the other tables keeps no call
@njit(nogil=True, _nrt=False)
def _turn_up_piles(ws, pub):
    """Table 2 (R-VAR-TWO): every non-empty pile shows its top card (after the deal, and after
    each trick: a pile whose top was played turns its next card up; the others show the same),
    which joins what its owner may play (``WS_HT``, ``WS_HS``: hand and face-up tops).

    A top played in the trick left the tops at once (``_take_top``); its pile gives it up here,
    when the trick is over: a pile whose top place holds a played card (``PUB_PLAYED_*``, which
    ``_close_trick`` has just updated) loses it."""
    played_t = pub[PUB_PLAYED_T]
    played_s = pub[PUB_PLAYED_S]
    for seat in range(PILE_SEATS):
        tt = np.int64(0)
        ts = np.int64(0)
        for p in range(N_PILES):
            h = ws[WS_HEIGHT + seat * N_PILES + p]
            if h > 0:
                bt, bs = card_bits(ws[WS_STACK + seat * PILE_CARDS + PILE_DEPTH * p + h - 1])
                if (played_t & bt) | (played_s & bs):
                    h -= 1
                    ws[WS_HEIGHT + seat * N_PILES + p] = h
                    if h > 0:
                        bt, bs = card_bits(ws[WS_STACK + seat * PILE_CARDS + PILE_DEPTH * p + h - 1])
                if h > 0:
                    tt |= bt
                    ts |= bs
        ws[WS_HT + seat] |= tt
        ws[WS_HS + seat] |= ts
        pub[PUB_TOPS_T + seat] = tt
        pub[PUB_TOPS_S + seat] = ts


@njit(inline="always")
def _take_top(seat, bt, bs, pub):
    """Table 2 (R-VAR-TWO): ``seat`` played the card of bits ``bt``, ``bs``; if it was one of its
    face-up tops, it leaves the public tops now, and its pile gives it up when the trick is over
    (``_turn_up_piles``): the card under it stays face down until then. No call and no loop, so
    the card step of the other tables pays one branch for table 2."""
    pub[PUB_TOPS_T + seat] &= ~bt
    pub[PUB_TOPS_S + seat] &= ~bs


@njit(inline="always")
def _petit_sec(rv, first, ws, log):
    """R-DEAL-4 (option ``petit_sec``): the first seat in dealing order holding the Petit as its
    only trump, without the Excuse, annuls the deal. Returns True when it does. Not at table 2
    (R-VAR-TWO)."""
    if not rv[RV_PETIT_SEC] or rv[RV_TABLE] == TABLE_2:
        return False
    seat = first
    for _ in range(rv[RV_N_ACTIVE]):
        if ws[WS_HT + seat] == 2:  # trump word: the Petit alone (no other trump, no Excuse)
            log[L_OUTCOME] = OUTCOME_PETIT_SEC
            log[L_PETIT_SEC_SEAT] = seat
            return True
        seat = ws[WS_NEXT + seat]
    return False


@njit(inline="always")
def _callable(ths):
    """The cards the taker may call (R-CALL-1), suit word: the kings; the queens if he holds
    every king; the knights if every king and queen; the jacks if every king, queen and knight."""
    legal = SW_KINGS
    if ths & SW_KINGS == SW_KINGS:
        legal |= SW_QUEENS
        if ths & SW_QUEENS == SW_QUEENS:
            legal |= SW_KNIGHTS
            if ths & SW_KNIGHTS == SW_KNIGHTS:
                legal |= SW_JACKS
    return legal


@njit(inline="always")
def _set_called(called, ws, log, pub):
    """Record the called card, and what R-CALL-4 bans in trick 1: the other cards of its suit."""
    log[L_CALLED] = called
    pub[PUB_CALLED] = called
    ws[WS_CALLED] = called
    called_suit = SW_SUIT << (14 * ((called - 22) // 14))
    ws[WS_CALLED_SUIT] = called_suit
    ws[WS_CALL_BAN] = called_suit & ~(np.int64(1) << (called - 22))


@njit(inline="always")
def _sides(rv, taker, ws, log):
    """The partner (R-CALL-2): at table 5, the holder of the called card among the other seats
    once the chien is dealt with, else none (the taker plays alone; so at 3, 4 and 5d). The
    attack is the taker and his partner (R-GEN-3, ``WS_ATT``). Returns the partner or -1."""
    partner = -1
    called = ws[WS_CALLED]
    if called >= 0:
        cb = np.int64(1) << (called - 22)
        for s in range(rv[RV_N_SEATS]):
            if s != taker and ws[WS_HS + s] & cb:
                partner = s
        log[L_PARTNER] = partner
    ws[WS_ATT + taker] = 1
    if partner >= 0:
        ws[WS_ATT + partner] = 1
    return partner


@njit(inline="always")
def _declare(log, ws, seat, kind, level, cards):
    """Append a declaration (``DECL_*``) to the log."""
    n_decl = ws[WS_N_DECL]
    d = L_DECL + DECL_FIELDS * n_decl
    log[d] = seat
    log[d + 1] = kind
    log[d + 2] = level
    log[d + 3] = cards
    ws[WS_N_DECL] = n_decl + 1


@njit(inline="always")
def _poignee_levels(rv, seat, ht, ws):
    """The poignée levels ``seat`` may declare (R-POIG-1, R-POIG-3), and the trumps it may show.

    Trumps available: those in hand, plus (R-POIG-3, option ``poignee_ecart_trumps``) the trumps
    the taker put in the écart; the Excuse completes a level only when it holds exactly
    size - 1 of them. Returns ``(number of levels 0..3, trumps available)``.
    """
    table = rv[RV_TABLE]
    avail = ht & TW_TRUMPS
    if seat == ws[WS_TAKER] and rv[RV_POIGNEE_ECART_TRUMPS]:
        avail |= ws[WS_ECART_T]
    cap = popcount(avail) + (ht & 1)
    n_lev = (np.int64(cap >= POIGNEE_SIZES[table, 0]) + np.int64(cap >= POIGNEE_SIZES[table, 1])
             + np.int64(cap >= POIGNEE_SIZES[table, 2]))
    return n_lev, avail


@njit(inline="always")
def _show_poignee(rv, seat, lvl, avail, ws, pub, log):
    """Show a poignée of level ``lvl`` (R-POIG-2, R-POIG-3): the lowest ``size`` trumps available,
    or all of them and the Excuse when it holds exactly size - 1; its bonus (R-POIG-1: 20, 30,
    40) goes to the declarer's side's tally (R-POIG-4 gives it to the winner at scoring)."""
    size = POIGNEE_SIZES[rv[RV_TABLE], lvl - 1]
    if popcount(avail) >= size:
        top = select_bit(avail, size - 1)
        shown = avail & ((np.int64(2) << top) - 1)
    else:
        shown = avail | 1
    _declare(log, ws, seat, DECL_POIGNEE, lvl, shown)
    pub[PUB_POIGNEE_T + seat] = shown
    if ws[WS_ATT + seat]:
        ws[WS_POIG_ATT] += KERNEL_POIGNEE_BONUS[lvl]
    else:
        ws[WS_POIG_DEF] += KERNEL_POIGNEE_BONUS[lvl]


@njit(inline="always")
def _misere_eligible(rv, which, ht, hs):
    """R-MIS-1, judged on the hand now (taker: after the écart): misère d'atout (``which`` 0) no
    trump (nor the Excuse under option ``misere_excuse_is_trump``); de tête (1) no K, Q, N, J."""
    if which == 0:
        return (ht & TW_TRUMPS) == 0 and (rv[RV_MISERE_EXCUSE_IS_TRUMP] == 0 or (ht & 1) == 0)
    return (hs & SW_HONOURS) == 0


@njit(inline="always")
def _declare_misere(seat, which, ws, pub, log, miseres):
    """Record a misère (R-MIS-1) of ``seat``; the scorer pays it (R-MIS-2)."""
    _declare(log, ws, seat, DECL_MISERE_ATOUT if which == 0 else DECL_MISERE_TETE, 0, 0)
    miseres[seat] += 1
    ws[WS_N_MIS] += 1
    pub[PUB_MISERES + seat] += 1


@njit(inline="always")
def _open_trick(tr, leader, log, pub):
    """Trick ``tr`` led by ``leader`` (R-PLAY-1): the state of a trick before its first card.

    The trick state is a tuple ``(seat to play, fixed, fmask, amask, best_key, best_seat,
    ex_seat, tt, ts)``: the led suit is fixed (R-PLAY-3), its suit-word mask (0 when trumps were
    led), the trumps above the highest one played (R-PLAY-4b, R-PLAY-4c), the winning key and
    seat so far (R-PLAY-5), who played the Excuse (-1: nobody), the cards played (trump word,
    suit word). Before the first card nothing is fixed and the leader plays any card.
    """
    log[L_LEADER + tr] = leader
    pub[PUB_TRICK] = tr
    pub[PUB_LEADER] = leader
    # np.bool_: a literal False would compile ``_legal`` and ``_after_card`` twice (``_bits.scalar``)
    return (leader, np.bool_(False), np.int64(0), TW_TRUMPS, np.int64(-2), leader, np.int64(-1), np.int64(0), np.int64(0))


@njit(inline="always")
def _call_restriction(rv, ws, pos, fixed, ht, hs, ls):
    """R-CALL-4: in trick 1 the leader may not lead a card of the called suit but the called card
    itself, lifted when every card he holds is of that suit; after an Excuse lead the second
    player is free, unless option ``called_suit_after_excuse`` is ``restricted``. Returns the
    legal suit word."""
    if not fixed and (pos == 0 or rv[RV_CALLED_SUIT_AFTER_EXCUSE_RESTRICTED] != 0):
        ban = ws[WS_CALL_BAN]  # 0 unless a card was called (table 5)
        if ban != 0 and (ht | (hs & ~ws[WS_CALLED_SUIT])) != 0:
            return hs & ~ban  # nothing is fixed yet: every card of the hand was legal
    return ls


@njit(inline="always")
def _close_trick(rv, ws, pub, log, tr, trick):
    """Close trick ``tr``: its winner (R-PLAY-5) and where its cards go, the Excuse apart.

    * R-EXC-2: outside the last trick the Excuse stays with its owner's side (to the attack's
      pile if the owner attacks); if the trick went to the other side, the owner's side pays one
      low card: attack half-points 9 - 1 = 8 for the Excuse, one to the winners (``WS_EXC_ADJ``).
    * R-EXC-3: in the last trick the Excuse is an ordinary card and goes to the winner,
    * R-EXC-4: unless it was led to the last trick by a seat whose side won every earlier trick:
      it wins that trick (option ``excuse_slam_lead`` = ``attack_only``: for the attack only).
    * R-COUNT-1: the trick's cards go to the attack's pile when the attack won it.
    * R-PAB-1: the Petit in the last trick gives the petit au bout to the side winning it;
      R-PAB-2 (option ``pab_slam_penultimate``): after R-EXC-4, the Petit in the penultimate
      trick counts too.

    Returns ``(winner, pab)``: the winner leads the next trick (R-PLAY-1); ``pab`` is +1 / -1
    (the attack / the defence) after the last trick, else 0.
    """
    _, _, _, _, _, best_seat, ex_seat, tt, ts = trick
    last = N_TRICKS[rv[RV_TABLE]] - 1
    pub[PUB_PLAYED_T] |= tt
    pub[PUB_PLAYED_S] |= ts
    winner = best_seat
    w_att = ws[WS_ATT + winner]
    exc4 = False
    if ex_seat >= 0:
        if tr == last:
            leader = log[L_LEADER + tr]
            if ex_seat == leader:
                # R-EXC-4: led to the last trick by a side that won every earlier trick
                l_att = ws[WS_ATT + leader]
                att_tricks = ws[WS_ATT_TRICKS]
                if (att_tricks == last) if l_att else (att_tricks == 0):
                    if l_att or rv[RV_EXCUSE_SLAM_EITHER_SIDE]:
                        winner = leader
                        w_att = l_att
                        exc4 = True
            # R-EXC-3: otherwise an ordinary card of the trick, to its winner
        else:
            # R-EXC-2: the Excuse stays with its side; one low card to the winners if they differ
            o_att = ws[WS_ATT + ex_seat]
            if o_att:
                ws[WS_PILE_T] |= 1
            if o_att != w_att:
                ws[WS_EXC_ADJ] += 1 if w_att else -1
            tt &= ~np.int64(1)
    log[L_WINNER + tr] = winner
    wm = -w_att  # R-COUNT-1: all bits when the attack won the trick
    ws[WS_PILE_T] |= tt & wm
    ws[WS_PILE_S] |= ts & wm
    ws[WS_ATT_TRICKS] += w_att
    pab = np.int64(0)
    if tr == last:
        if tt & 2:
            pab = np.int64(1) if w_att else np.int64(-1)  # R-PAB-1
        elif exc4 and rv[RV_PAB_SLAM_PENULTIMATE] and (ws[WS_PREV_T] & 2):
            pab = np.int64(1) if w_att else np.int64(-1)  # R-PAB-2
    ws[WS_PREV_T] = tt
    return winner, pab


@njit(inline="always")
def _count(rv, ws, log):
    """Count the attack's pile (R-COUNT-1, R-COUNT-2) and the chelem (R-SLAM-2).

    The pile already holds the écart (prise, garde: R-CHIEN-1) or the chien (garde sans:
    R-CHIEN-3; garde contre: the defence's, R-CHIEN-4), the tricks the attack won and the
    Excuse where R-EXC-2, R-EXC-3 and R-EXC-4 put it; ``WS_EXC_ADJ`` adds the R-EXC-2
    payments. The Excuse in the pile counts as an oudler (R-EXC-5). A side makes the chelem by
    winning every trick (R-SLAM-2). Returns ``(attack half-points, oudlers, slam side)``, the
    side +1 attack, -1 defence, 0 none.
    """
    pile_t = ws[WS_PILE_T]
    attack_hp = half_points(pile_t, ws[WS_PILE_S]) + ws[WS_EXC_ADJ]
    oudlers = popcount(pile_t & TW_OUDLERS)
    att_tricks = ws[WS_ATT_TRICKS]
    slam_side = 0
    if att_tricks == N_TRICKS[rv[RV_TABLE]]:
        slam_side = 1
    elif att_tricks == 0:
        slam_side = -1
    log[L_N_TRICKS] = N_TRICKS[rv[RV_TABLE]]
    log[L_ATTACK_TRICKS] = att_tricks
    log[L_ATTACK_HP] = attack_hp
    log[L_OUDLERS] = oudlers
    return attack_hp, oudlers, slam_side


@njit(inline="always")
def _score(rv, attack_hp, oudlers, pab, slam_side, ws, pub, log, steps, scores, miseres):
    """Score the deal with ``tarotsim.scoring.score_core``, the one formula (R-COUNT-3 target,
    R-COUNT-4 made and difference, R-PAB-3, R-POIG-4, R-SLAM-3, R-SCORE-1, R-SCORE-2, R-MIS-2),
    into the log. Taker, contract, partner and chelem announce are read from the log, the
    dummy from the public view, the declarations from the workspace."""
    slam = log[L_SLAM_ANNOUNCED]
    # the chelem outcome, from which score_core takes the slam term (R-SLAM-3)
    if slam_side == 1:
        chelem = CHELEM_ANNOUNCED_MADE if slam else CHELEM_MADE
    elif slam_side == -1:
        chelem = CHELEM_ANNOUNCED_DEFENCE if slam else CHELEM_DEFENCE
    elif slam:
        chelem = CHELEM_ANNOUNCED_FAILED
    else:
        chelem = CHELEM_NONE
    poig_att = ws[WS_POIG_ATT]
    poig_def = ws[WS_POIG_DEF]
    score_kernel(rv, log[L_CONTRACT], attack_hp, oudlers, pab, poig_att, poig_def, slam, slam_side,
                 log[L_TAKER], log[L_PARTNER], pub[PUB_DUMMY], miseres, steps, scores)
    log[L_N_DECL] = ws[WS_N_DECL]
    log[L_MADE] = steps[ST_MADE]
    log[L_DIFFERENCE] = steps[ST_DIFFERENCE]
    log[L_PAB] = pab
    log[L_CHELEM] = chelem
    log[L_POIGNEE_ATTACK] = poig_att
    log[L_POIGNEE_DEFENCE] = poig_def
    log[L_VALUE] = steps[ST_VALUE]
    log[L_N_MISERES] = ws[WS_N_MIS]
    for s in range(rv[RV_N_SEATS]):
        log[L_SCORES + s] = scores[s]
        log[L_MISERES + s] = miseres[s]
    for i in range(ST_LEN):
        log[L_STEPS + i] = steps[i]


class BotDispatch(NamedTuple):
    """The bots' decisions as the deal kernel calls them (njit functions, signatures as
    ``bots.dispatch.bot_*``): what the package that owns the bots hands to :func:`_make_play`,
    so that the engine never imports it."""

    bid: object
    call: object
    ecart: object
    chelem: object
    poignee: object
    misere: object
    card: object


def build_name(disp, tag):
    """Give an out-of-line closure of one build of a factory its own name (``disp``: its njit
    dispatcher, not compiled yet). numba names a compiled function by its qualified name, its
    argument types and a counter of the process that compiled it: the same closure of two builds,
    compiled by two processes, could get one name, and with both loaded from the on-disk cache
    one build would run the other's code."""
    disp.py_func.__qualname__ = f"{disp.py_func.__qualname__}__{tag}"
    return disp


def _make_play(BOTS=None, TRACE=False, CARD=None, parts=None, TABLE2=None):
    """The deal kernel, built for ``BOTS``: None when every seat plays ``random`` (the random
    player's rules, ``random_player.random_*``, are called directly and no bot is typed or
    compiled: the random deal runs, and compiles, as fast as before bots existed); otherwise a
    :class:`BotDispatch` (the ``bot_*`` dispatch on each seat's kind and the bots' public
    bookkeeping; ``tarotsim/_builds/deal.py`` builds it). ``TRACE`` adds the decision trace
    (``tarotsim._builds.deal.play_deal``, for the tests; the batch kernels do without it, and compile a fifth
    faster). Both are closure constants: numba prunes the branches on them before typing. ``pol``
    (the policy tuple) may be None when no seat plays a policy set: the user branch of the
    dispatch is pruned too.

    The steps below ask the bots; each decision draws from the bots stream ``bst`` (passed and
    returned) and is appended to the trace when ``TRACE and tracing`` (``TRACE`` first: in an
    inlined step ``tracing`` is an argument, which numba cannot prune).

    ``CARD`` (bots build only): the card dispatch, None for ``BOTS.card``; otherwise an njit
    function called as ``BOTS.card`` is, with ``rv``, ``buf`` and ``log`` before ``bst`` (the
    ``pimc`` build, ``tarotsim/_builds/pimc.py``: it reads the seat's own écart from the log and keeps its
    scratch in ``buf`` past ``BUF_LEN``). ``parts``: a dict that receives the inner steps
    (``_play_rest``: a search finishes sampled deals with it).

    ``TABLE2``: the tables this build plays. None: any, table 2 (R-VAR-TWO) as ``rv`` says (the
    bots builds); False: every table but 2, whose steps (``_lay_piles``, ``_take_top``,
    ``_turn_up_piles``) are pruned before typing, so they cost the random deal of the other
    tables no compile time; True: table 2 only.
    """
    POLICIES = BOTS is not None
    PILES = TABLE2 is not False  # closure constants, like POLICIES: the piles' steps are compiled
    ONLY_PILES = TABLE2 is True
    # this build's name, for its out-of-line closures (``build_name``)
    TAG = ("bots" if POLICIES else "random") + ("_traced" if TRACE else "") + (
        "" if CARD is None else "_" + CARD.py_func.__name__) + ("" if TABLE2 is None else f"_table2_{TABLE2}")
    # closure constants; in the random build the branches that name them are pruned before typing
    bot_bid, bot_call, bot_ecart, bot_chelem, bot_poignee, bot_misere, bot_card_bits = (
        BOTS if POLICIES else (None,) * 7)

    @njit(inline="always")
    def _auction(rv, first, forced_seat, forced_contract, kinds, params, pol, ub, ws, pub, log, buf, tracing, bst):
        """The auction (R-BID-1, R-BID-2, R-BID-3): each active seat once, in dealing order from
        ``first``, passes (-1) or bids a contract (0 prise .. 3 garde contre) strictly above the
        highest so far; the highest bidder takes. A forced contract (``forced_seat`` >= 0, for
        studies) replaces the bids: that seat bids ``forced_contract``, everybody else passes.
        Returns ``(taker, contract, bst)``; taker -1 when all passed (then the deal is thrown in,
        R-BID-3)."""
        highest = -1
        taker = -1
        seat = first
        for k in range(rv[RV_N_ACTIVE]):
            if forced_seat >= 0:
                bid = forced_contract if seat == forced_seat else -1
            else:
                if POLICIES:
                    bid, bst = bot_bid(kinds[seat], params, pol, ub, seat, ws[WS_HT + seat], ws[WS_HS + seat], pub,
                                       highest, bst)
                else:
                    bid, bst = random_bid(highest, bst)
                if TRACE and tracing:
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
        log[L_N_BIDS] = rv[RV_N_ACTIVE]
        if taker < 0:
            log[L_OUTCOME] = OUTCOME_ALL_PASSED
        else:
            ws[WS_TAKER] = taker
            log[L_TAKER] = taker
            log[L_CONTRACT] = highest
            pub[PUB_TAKER] = taker
            pub[PUB_CONTRACT] = highest
        return taker, highest, bst

    @njit(inline="always")
    def _call(taker, kinds, params, pol, ub, ws, pub, log, buf, tracing, bst):
        """Table 5: the taker calls a card among those R-CALL-1 allows (``_callable``)."""
        ths = ws[WS_HS + taker]
        legal = _callable(ths)
        if POLICIES:
            b, bst = bot_call(kinds[taker], params, pol, ub, taker, ws[WS_HT + taker], ths, pub, legal, bst)
        else:
            b, bst = random_call(legal, bst)
        if TRACE and tracing:
            _trace(buf, TR_CALL, taker, ws[WS_HT + taker], ths, legal, 0, 0, 0, 0, 0, b, 0, pub, 0)
        _set_called(22 + b, ws, log, pub)
        return bst

    @njit(inline="always")
    def _chien_and_ecart(rv, taker, contract, chien_t, chien_s, kinds, params, pol, ub, ws, pub, log, buf, tracing,
                         bst):
        """The chien (R-CHIEN-1, R-CHIEN-2, R-CHIEN-3, R-CHIEN-4) and the start of the attack's pile.

        Prise, garde (R-CHIEN-1): the chien is shown, joins the taker's hand, and the taker lays
        aside as many cards (the écart, the attack's). R-CHIEN-2: no king, no oudler; trumps
        (T2..T20, shown) only when the suit cards other than kings are too few; the bot gets
        those (``normal``) and the candidate trumps. Garde sans (R-CHIEN-3): the unseen chien is
        the attack's. Garde contre (R-CHIEN-4): it is the defence's, nothing to do.
        """
        if contract <= 1:
            n_chien = CHIEN_SIZE[rv[RV_TABLE]]
            pub[PUB_CHIEN_T] = chien_t
            pub[PUB_CHIEN_S] = chien_s
            tht = ws[WS_HT + taker] | chien_t
            ths = ws[WS_HS + taker] | chien_s
            # the écart is made from the hand only (R-VAR-TWO): never a face-up pile top (0 but at 2)
            normal = ths & ~pub[PUB_TOPS_S + taker] & ~SW_KINGS
            trumps = tht & ~pub[PUB_TOPS_T + taker] & TW_T2_T20
            if POLICIES:
                ecart_t, ecart_s, bst = bot_ecart(kinds[taker], params, pol, ub, taker, tht, ths, pub, normal,
                                                  trumps, n_chien, log, L_ECART, bst)
            else:
                ecart_t, ecart_s, bst = random_ecart(normal, trumps, n_chien, log, L_ECART, bst)
            if TRACE and tracing:
                _trace(buf, TR_ECART, taker, tht, ths, normal, trumps, n_chien, 0, 0, 0, ecart_t, ecart_s,
                       pub, 0)
            log[L_N_ECART] = n_chien
            ws[WS_HT + taker] = tht & ~ecart_t
            ws[WS_HS + taker] = ths & ~ecart_s
            pub[PUB_ECART_T] = ecart_t
            ws[WS_ECART_T] = ecart_t
            ws[WS_PILE_T] = ecart_t
            ws[WS_PILE_S] = ecart_s
        elif contract == 2:
            ws[WS_PILE_T] = chien_t
            ws[WS_PILE_S] = chien_s
        return bst

    @njit(inline="always")
    def _announce_chelem(first, kinds, params, pol, ub, ws, pub, log, buf, tracing, bst):
        """R-SLAM-1: the taker may announce a chelem, after the call and the écart; then he leads
        trick 1, else the first seat does (R-PLAY-1). Returns ``(leader of trick 1, bst)``."""
        taker = ws[WS_TAKER]
        if POLICIES:
            slam, bst = bot_chelem(kinds[taker], params, pol, ub, taker, ws[WS_HT + taker], ws[WS_HS + taker], pub, bst)
        else:
            slam, bst = below(bst, np.int64(2))
        if TRACE and tracing:
            _trace(buf, TR_CHELEM, taker, ws[WS_HT + taker], ws[WS_HS + taker], 0, 0, 0, 0, 0, 0, slam, 0, pub, 0)
        log[L_SLAM_ANNOUNCED] = slam
        if slam:
            _declare(log, ws, taker, DECL_CHELEM, 0, 0)
            pub[PUB_SLAM] = 1
            return taker, bst
        return first, bst

    # out of line: called at most once per seat and deal, and it keeps the declarations out of
    # the card loop (inlined there, under ``if first``, deals were a fifth slower)
    @njit(nogil=True, _nrt=False)
    def _first_turn(rv, seat, kinds, params, pol, buf, log, tracing, pos, bst):
        """The declarations of ``seat`` at its first turn to play, before its card: a poignée
        (R-POIG-1, R-POIG-2, R-POIG-3), then the misères if option ``misere`` is on (R-MIS-1)."""
        ws = buf[0:WS_LEN]
        pub = buf[B_PUB:B_PUB + PUB_LEN]
        miseres = buf[B_MISERES:B_MISERES + MAX_SEATS]
        ub = buf[B_USER:B_USER + U_LEN]
        ht = ws[WS_HT + seat]
        hs = ws[WS_HS + seat]
        kind = kinds[seat]
        n_lev, avail = _poignee_levels(rv, seat, ht, ws)
        if POLICIES:
            lvl, bst = bot_poignee(kind, params, pol, ub, seat, ht, hs, pub, n_lev, bst)
        else:
            lvl, bst = below(bst, n_lev + 1)
        if TRACE and tracing:
            _trace(buf, TR_POIGNEE, seat, ht, hs, n_lev, 0, 0, 0, 0, 0, lvl, 0, pub, pos)
        if lvl > 0:
            _show_poignee(rv, seat, lvl, avail, ws, pub, log)
        if rv[RV_MISERE]:
            for which in range(2):
                if _misere_eligible(rv, which, ht, hs):
                    if POLICIES:
                        yes, bst = bot_misere(kind, params, pol, ub, seat, ht, hs, pub, which, bst)
                    else:
                        yes, bst = below(bst, np.int64(2))
                    if TRACE and tracing:
                        _trace(buf, TR_MISERE, seat, ht, hs, which, 0, 0, 0, 0, 0, yes, 0, pub, pos)
                    if yes:
                        _declare_misere(seat, which, ws, pub, log, miseres)
                        if POLICIES:
                            pub[PUB_MISERE_KINDS + seat] |= np.int64(1) << which
        return bst

    @njit(inline="always")
    def _card_step(rv, kinds, params, pol, ub, ws, pub, log, miseres, buf, tracing, first, two, tr, pos, trick,
                   bst):
        """The card at position ``pos`` of trick ``tr`` (R-PLAY-2), the same step for every trick.

        ``first`` (trick 1): the seat first declares
        (``_first_turn``) and R-CALL-4 binds the lead. The legal cards are R-PLAY-3, R-PLAY-4a,
        R-PLAY-4b, R-PLAY-4c, R-PLAY-4d and R-PLAY-4e with R-EXC-1 (``_legal``); the card leaves
        the hand, joins the trick (log and public view) and updates the trick state
        (``_after_card``, R-PLAY-5). ``trick``: the tuple of ``_open_trick``; returns the new one
        and ``bst``.
        """
        seat, fixed, fmask, amask, best_key, best_seat, ex_seat, tt, ts = trick
        if first:
            bst = _first_turn(rv, seat, kinds, params, pol, buf, log, tracing, pos, bst)
        # what the seat may play (``WS_HT``, ``WS_HS``): its hand and, at table 2, its face-up pile
        # tops (R-VAR-TWO: every duty of R-PLAY-4 counts them all)
        ht = ws[WS_HT + seat]
        hs = ws[WS_HS + seat]
        # the leader is free (R-PLAY-3): what ``_legal`` gives, on a short path (measured: 7% of a
        # random deal, the card chain of a trick being latency-bound)
        if pos == 0:
            lt, ls = ht, hs
        else:
            lt, ls = _legal(ht, hs, fixed, fmask, amask)
        if first:
            ls = _call_restriction(rv, ws, pos, fixed, ht, hs, ls)
        if POLICIES:
            if CARD is None:
                c, bt, bs, bst = bot_card_bits(kinds[seat], params, pol, ub, seat, ht, hs, pub, lt, ls, fixed, fmask,
                                               amask, pos, bst)
            else:
                c, bt, bs, bst = CARD(kinds[seat], params, pol, ub, seat, ht, hs, pub, lt, ls, fixed, fmask, amask,
                                      pos, rv, buf, log, bst)
        else:
            c, bt, bs, bst = random_card_bits(lt, ls, bst)
        if TRACE and tracing:
            _trace(buf, TR_CARD, seat, ht, hs, lt, ls, fixed, fmask, amask, pos, c, 0, pub, pos)
        ws[WS_HT + seat] = ht ^ bt
        ws[WS_HS + seat] = hs ^ bs
        if PILES and two:  # R-VAR-TWO: a face-up pile top leaves the tops
            _take_top(seat, bt, bs, pub)
        log[L_CARDS + tr * MAX_SEATS + pos] = c
        pub[PUB_TRICK_CARDS + pos] = c
        if POLICIES:  # the history, for a search (public: who led, what was played)
            if pos == 0:
                pub[PUB_H_LEADER + tr] = seat
            pub[PUB_H_CARDS + tr * MAX_SEATS + pos] = c
        if pos == 0:
            fixed, fmask, amask, best_key, best_seat, ex_seat = _after_lead(c, bt, seat)
        else:
            fixed, fmask, amask, best_key, best_seat, ex_seat = _after_card(
                c, bt, seat, fixed, fmask, amask, best_key, best_seat, ex_seat)
        return (ws[WS_NEXT + seat], fixed, fmask, amask, best_key, best_seat, ex_seat, tt | bt, ts | bs), bst

    def _play_rest(rv, kinds, params, pol, ub, buf, log, tracing, tr, pos, trick, bst):
        """Play the deal on from the card at position ``pos`` of trick ``tr``, then count and score it.

        Everything it reads is in the arrays (hands, sides, called card and R-CALL-4 ban,
        piles, declarations in the workspace ``WS_*``; the tricks so far in the log; the public
        view) but for the trick in progress, ``trick`` (``_open_trick``'s tuple, after the
        cards already in it), and the bots stream ``bst``. The deal calls it at the first card
        of trick 1; a search that samples the hidden cards can set those arrays to any position
        and finish the deal from there with the same code. Returns ``bst``.
        """
        ws = buf[0:WS_LEN]
        pub = buf[B_PUB:B_PUB + PUB_LEN]
        miseres = buf[B_MISERES:B_MISERES + MAX_SEATS]
        na = rv[RV_N_ACTIVE]
        last = N_TRICKS[rv[RV_TABLE]] - 1
        # R-VAR-TWO: piles; no poignée, no misère (``_first_turn``)
        two = ONLY_PILES or (PILES and rv[RV_TABLE] == TABLE_2)
        while True:
            # trick 1 apart (declarations at each seat's first turn, R-CALL-4): the loop of the
            # other tricks then holds no call, so its state stays in registers
            if tr == 0 and not two:
                for j in range(pos, na):
                    trick, bst = _card_step(rv, kinds, params, pol, ub, ws, pub, log, miseres, buf, tracing,
                                            True, two, tr, j, trick, bst)
            else:
                for j in range(pos, na):
                    trick, bst = _card_step(rv, kinds, params, pol, ub, ws, pub, log, miseres, buf, tracing,
                                            False, two, tr, j, trick, bst)
            winner, pab = _close_trick(rv, ws, pub, log, tr, trick)
            if PILES and two:
                _turn_up_piles(ws, pub)
            if POLICIES:
                _track_trick(pub, log, ws, tr, na, ws[WS_CALLED], winner, trick[7], trick[8])
            if tr == last:
                break
            tr += 1
            pos = 0
            trick = _open_trick(tr, winner, log, pub)
        attack_hp, oudlers, slam_side = _count(rv, ws, log)
        _score(rv, attack_hp, oudlers, pab, slam_side, ws, pub, log, buf[B_STEPS:B_STEPS + ST_LEN],
               buf[B_SCORES:B_SCORES + MAX_SEATS], miseres)
        return bst

    build_name(_first_turn, TAG)

    if parts is not None:
        # a search finishes its sampled deals with an out-of-line copy: one compiled body that the
        # pimc build calls per rollout (compiled only with that build)
        parts["play_rest"] = build_name(njit(nogil=True, _nrt=False)(_play_rest), TAG)
    # Inlined into ``_play`` in every build (measured on the heuristic deal, table 4, against out of
    # line: +2% deals/s, +2.8 s of cold compile, which is the monolithic kernel's compile time).
    _play_rest = njit(inline="always")(_play_rest)

    # _nrt=False: the deal allocates nothing, and without NRT numba emits no reference counting
    # of the nine array arguments (measured: ~15% of the time of a deal).
    @njit(nogil=True, _nrt=False)
    def _play(rv, seed, index, forced_seat, forced_contract, kinds, params, pol, log, buf):
        """:func:`play_deal` (this build: ``POLICIES`` of :func:`_make_play`): the steps of
        docs/engine-contract.md in order."""
        # one scratch buffer (fewer arguments to pass per deal): workspace, public view, scorer
        ws = buf[0:WS_LEN]
        pub = buf[B_PUB:B_PUB + PUB_LEN]
        miseres = buf[B_MISERES:B_MISERES + MAX_SEATS]
        ub = buf[B_USER:B_USER + U_LEN]
        if POLICIES:
            ub[U_ERR] = 0
        tracing = False
        if TRACE:
            tracing = buf.shape[0] > BUF_LEN
        if tracing:
            buf[BUF_LEN] = 0

        dealer, dummy, first = _seating(rv, index, ws)
        _new_deal(rv, index, forced_seat, dealer, dummy, ws, pub, log, miseres)
        if POLICIES:
            _new_bots_view(rv, pub)
        chien_t, chien_s = _deal_cards(rv, seed, index, first, ws, log)
        if PILES and (ONLY_PILES or rv[RV_TABLE] == TABLE_2):
            _lay_piles(rv, first, ws, pub, log)
        if _petit_sec(rv, first, ws, log):
            return
        bst = stream_state(seed, np.uint64(index), U_STREAM_BOTS)
        taker, contract, bst = _auction(rv, first, forced_seat, forced_contract, kinds, params, pol, ub, ws, pub, log,
                                        buf, tracing, bst)
        if taker < 0:
            return
        if rv[RV_TABLE] == TABLE_5:
            bst = _call(taker, kinds, params, pol, ub, ws, pub, log, buf, tracing, bst)
        bst = _chien_and_ecart(rv, taker, contract, chien_t, chien_s, kinds, params, pol, ub, ws, pub, log, buf,
                               tracing, bst)
        _sides(rv, taker, ws, log)
        leader, bst = _announce_chelem(first, kinds, params, pol, ub, ws, pub, log, buf, tracing, bst)
        trick = _open_trick(np.int64(0), leader, log, pub)
        _play_rest(rv, kinds, params, pol, ub, buf, log, tracing, np.int64(0), np.int64(0), trick, bst)

    build_name(_play, TAG)
    if not POLICIES:
        return _play

    @njit(nogil=True, _nrt=False)
    def _play_marked(rv, seed, index, forced_seat, forced_contract, kinds, params, pol, log, buf):
        """:func:`_play`, its outcome ``bot_error`` when a policy set chose what the rules forbid."""
        _play(rv, seed, index, forced_seat, forced_contract, kinds, params, pol, log, buf)
        if buf[B_USER + U_ERR] != 0:
            log[L_OUTCOME] = OUTCOME_BOT_ERROR

    return build_name(_play_marked, TAG)


#: The random builds: every seat plays the engine's random player; tables 3, 4, 5 and 5d, and table 2
#: (R-VAR-TWO), whose piles would cost the others' cold start a third of a second of compile time.
_play_random = _make_play(TABLE2=False)
_play_random_two = _make_play(TABLE2=True)


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


# The batch kernels of the random builds (every seat plays random). ``not_two``, ``two``: one of
# them None, the other True, for the build of tables 3 to 5d or of table 2 (R-VAR-TWO). numba
# compiles a specialization per argument type and prunes a branch on ``x is not None`` when ``x``
# is None (it cannot on a bool), so a run of the other tables never compiles table 2's build, nor
# the reverse. The bots' builds and their batch kernels are in ``tarotsim/_builds/`` (the kernels
# never import the bots); ``tarotsim._builds.runs.run_facts`` /
# ``run_aggregate`` / ``run_logs`` pick the build from the table and the kinds.

@njit(cache=True, nogil=True)
def run_facts_random(rv, seed, start, forced_seat, forced_contract, kinds, params, out, not_two, two):
    buf = new_buffer()
    log = np.zeros(L_LEN, dtype=np.int64)
    for i in range(out.shape[0]):
        if not_two is not None:
            _play_random(rv, seed, start + i, forced_seat, forced_contract, kinds, params, None, log, buf)
        if two is not None:
            _play_random_two(rv, seed, start + i, forced_seat, forced_contract, kinds, params, None, log, buf)
        _store_facts(log, out, i)


@njit(cache=True, nogil=True)
def run_aggregate_random(rv, seed, start, count, forced_seat, forced_contract, kinds, params, acc, not_two, two):
    buf = new_buffer()
    log = np.zeros(L_LEN, dtype=np.int64)
    for i in range(count):
        if not_two is not None:
            _play_random(rv, seed, start + i, forced_seat, forced_contract, kinds, params, None, log, buf)
        if two is not None:
            _play_random_two(rv, seed, start + i, forced_seat, forced_contract, kinds, params, None, log, buf)
        _accumulate(log, acc, rv[RV_N_SEATS])


@njit(cache=True, nogil=True)
def run_logs_random(rv, seed, indices, forced_seat, forced_contract, kinds, params, logs, not_two, two):
    buf = new_buffer()
    for i in range(indices.shape[0]):
        if not_two is not None:
            _play_random(rv, seed, indices[i], forced_seat, forced_contract, kinds, params, None, logs[i], buf)
        if two is not None:
            _play_random_two(rv, seed, indices[i], forced_seat, forced_contract, kinds, params, None, logs[i], buf)
