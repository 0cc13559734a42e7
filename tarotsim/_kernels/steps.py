"""The deal kernel's rule steps (private).

The deal kernel's rule steps (private): small njit functions over the workspace (``WS_*``),
the log (``layout.L_*``) and the public view (``layout.PUB_*``), each citing the rules it
implements. The builds (``play.py``) call them in the order of docs/engine-contract.md and add
the decisions; the env kernel (``env.py``) and the pimc search call the same steps.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..rules import (KERNEL_POIGNEE_BONUS, LED_NONE, LED_TRUMPS, NO_CEILING, PILE_DEPTH,
                     RV_CALLED_SUIT_AFTER_EXCUSE_RESTRICTED, RV_EXCUSE_SLAM_EITHER_SIDE, RV_MISERE_EXCUSE_IS_TRUMP,
                     RV_N_ACTIVE, RV_N_SEATS, RV_PAB_SLAM_PENULTIMATE, RV_PETIT_SEC, RV_POIGNEE_ECART_TRUMPS, RV_TABLE,
                     TABLE_2, TABLE_5D, after_play, ecart_pick_choices, play_shows)
from ..cards import suit_mask
from ..scoring import score_core, ST_DIFFERENCE, ST_LEN, ST_MADE, ST_VALUE
from ._bits import at, popcount, scalar, select_bit, tzcnt
from ._rng import below, stream_state, U_STREAM_CARDS
from .layout import (CHELEM_ANNOUNCED_DEFENCE, CHELEM_ANNOUNCED_FAILED, CHELEM_ANNOUNCED_MADE, CHELEM_DEFENCE,
                     CHELEM_MADE, CHELEM_NONE, DECL_FIELDS, DECL_MISERE_ATOUT, DECL_MISERE_TETE, DECL_POIGNEE,
                     L_ATTACK_HP, L_ATTACK_TRICKS, L_CALLED, L_CARDS, L_CHELEM, L_CHIEN_S, L_CHIEN_T, L_CONTRACT,
                     L_DEALER, L_DECL, L_DIFFERENCE, L_FORCED, L_HAND_S, L_HAND_T, L_INDEX, L_LEADER, L_MADE,
                     L_MISERES, L_N_BIDS, L_N_DECL, L_N_ECART, L_N_MISERES, L_N_TRICKS, L_OUDLERS, L_OUTCOME, L_PAB,
                     L_PARTNER, L_PETIT_SEC_SEAT, L_PILES, L_POIGNEE_ATTACK, L_POIGNEE_DEFENCE, L_SCORES,
                     L_SLAM_ANNOUNCED, L_STEPS, L_TAKER, L_VALUE, L_WINNER, MAX_SEATS, OUTCOME_PETIT_SEC,
                     OUTCOME_PLAYED, PILE_CARDS, PILE_SEATS, PUB_BIDS, PUB_CALLED, PUB_CHIEN_S, PUB_CHIEN_T,
                     PUB_CONTRACT, PUB_DEALER, PUB_DUMMY, PUB_ECART_T, PUB_HIGHEST, PUB_LEADER, PUB_LEN,
                     PUB_MISERE_KINDS, PUB_MISERES, PUB_N_ACTIVE, PUB_N_TRICKS, PUB_PARTNER, PUB_PLAYED_S,
                     PUB_PLAYED_T, PUB_POIGNEE_T, PUB_SEAT_PLAYED_S, PUB_SEAT_PLAYED_T, PUB_SLAM, PUB_TABLE, PUB_TAKER,
                     PUB_TOPS_S, PUB_TOPS_T, PUB_TRICK, PUB_TRICK_CARDS, PUB_TRICKS_WON, PUB_VOIDS, PUB_WON_HP)
from .masks import (card_bits, half_points, SW_HONOURS, SW_JACKS, SW_KINGS, SW_KNIGHTS, SW_QUEENS, SW_SUITS, TW_OUDLERS,
                    TW_TRUMPS)
from .seats import next_seat
from .workspace import (BUF_LEN, HAND_SIZE, N_PILES, N_TRICKS, PILE_SIZE, POIGNEE_SIZES, TR_ARGS, TR_CHOICE, TR_HS,
                        TR_HT, TR_PUB, TR_REC, TR_SEAT, TR_WHAT, WS_ATT, WS_ATT_TRICKS, WS_CALL_BAN, WS_CALLED,
                        WS_CALLED_SUIT, WS_DECK, WS_ECART_T, WS_EXC_ADJ, WS_HEIGHT, WS_HS, WS_HT, WS_N_DECL, WS_N_MIS,
                        WS_NEXT, WS_PILE_S, WS_PILE_T, WS_POIG_ATT, WS_POIG_DEF, WS_PREV_T, WS_STACK, WS_TAKER)


score_kernel = njit(cache=True, nogil=True)(score_core)
#: What a play shows (voids, trump ceiling) and the trick's led suit and top trump after it:
#: ``rules.play_shows`` and ``rules.after_play`` compiled, so the kernels and the facade read the
#: same signs.
shown_by_play = scalar(play_shows)
after_card_played = scalar(after_play)
#: The écart picked card by card (R-CHIEN-2): ``rules.ecart_pick_choices`` compiled (the env kernel;
#: ``random_player.ecart_needed`` is its count of trumps).
ecart_pick_mask = scalar(ecart_pick_choices)


# per card id, its winning key (R-PLAY-5): a trump
# t beats everything (32 + t); a suit card of the led suit counts its rank; others 0; Excuse -1.
CARD_KEY_LED = np.array([-1] + [32 + t for t in range(1, 22)] + [r for _ in range(4) for r in range(1, 15)],
                        dtype=np.int64)
CARD_KEY_OFF = np.array([-1] + [32 + t for t in range(1, 22)] + [0] * 56, dtype=np.int64)

# per card id: the suit-word mask of its suit (0 for trumps and the Excuse), and its own
# suit-word bit (0 for trumps and the Excuse)
FOLLOW_MASK = np.array([0] * 22 + [suit_mask(s) for s in range(4) for _ in range(14)],
                       dtype=np.int64)
SUIT_BIT_OF = np.array([0] * 22 + [1 << i for i in range(56)], dtype=np.int64)


@scalar
def legal_masks(ht, hs, fixed, fmask, amask):
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
def after_card(c, bt, seat, fixed, fmask, amask, best_key, best_seat, ex_seat):
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
def after_lead(c, bt, seat):
    """The trick state after a lead.

    Trick state after ``seat`` leads ``c`` (trump-word bit ``bt``): ``after_card`` from an empty
    trick, written out (R-PLAY-3: the suit is fixed unless ``c`` is the Excuse; R-PLAY-5)."""
    amask = TW_TRUMPS & -(bt << 1) if bt > 1 else TW_TRUMPS
    return c != 0, FOLLOW_MASK[c], amask, CARD_KEY_LED[c], seat, (seat if c == 0 else np.int64(-1))


@njit(nogil=True, _nrt=False)
def trace_decision(buf, what, seat, ht, hs, a0, a1, a2, a3, a4, a5, r0, r1, pub, pos):
    """Append a decision record to the trace.

    Append a decision record to the trace (``pub`` as the bot saw it; the trick slots past
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


@scalar
def led_of(fixed, fmask):
    """The led suit (``rules.LED_*``, R-PLAY-3) from the trick state's ``fixed`` and ``fmask``."""
    if not fixed:
        return np.int64(LED_NONE)
    return np.int64(LED_TRUMPS) if fmask == 0 else tzcnt(fmask) // 14


@scalar
def top_of(amask):
    """The highest trump in the trick (0: none) from the trick state's ``amask``, the trumps above it."""
    return np.int64(21) if amask == 0 else tzcnt(amask) - 1


@njit(nogil=True, _nrt=False)
def track_trick(pub, log, ws, tr, na, called, winner, tt, ts):
    """Record the public facts of a finished trick for the bots.

    Public facts of finished trick ``tr`` for the bots: who played what, the voids its plays
    show (``shown_by_play``: R-PLAY-4a to R-PLAY-4d), the partner once the called card is out
    (R-CALL-3), the tricks and card points each seat won. Once per trick, and only when a bot
    reads them."""
    base = L_CARDS + tr * MAX_SEATS
    seat = log[L_LEADER + tr]
    led = np.int64(LED_NONE)
    top = np.int64(0)
    # table 2: a card not followed may lie under a pile (R-VAR-TWO): no void is shown
    voids_shown = pub[PUB_TABLE] != TABLE_2
    for j in range(na):
        c = log[base + j]
        bt, bs = card_bits(c)
        pub[PUB_SEAT_PLAYED_T + seat] |= bt
        pub[PUB_SEAT_PLAYED_S + seat] |= bs
        if voids_shown:
            v, _ = shown_by_play(c, led, top, pub[PUB_VOIDS + seat], np.int64(NO_CEILING))
            pub[PUB_VOIDS + seat] = v
        led, top = after_card_played(c, led, top)
        if c == called:
            pub[PUB_PARTNER] = seat
        seat = ws[WS_NEXT + seat]
    pub[PUB_TRICKS_WON + winner] += 1
    pub[PUB_WON_HP + winner] += half_points(tt & ~np.int64(1), ts)


# --- the deal's steps, in the order of docs/engine-contract.md ----------------------------------
# The steps that ask a bot are in ``make_play`` (they depend on its build flags), the others
# are here.

@njit(inline="always")
def seating(rv, index, ws):
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
def empty_workspace(ws):
    """Reset the workspace of a deal before its cards.

    The workspace of a deal before its cards: no hand, side, taker, called card, pile,
    Excuse payment, trick won nor declaration (``WS_*``; ``WS_NEXT`` is the seating's). The one
    reset of the workspace: a deal (``new_deal``) and a search's world start from it."""
    for s in range(MAX_SEATS):
        ws[WS_HT + s] = 0
        ws[WS_HS + s] = 0
        ws[WS_ATT + s] = 0
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


@njit(inline="always")
def new_deal(rv, index, forced_seat, dealer, dummy, ws, pub, log, miseres):
    """Reset a deal's facts, hands, workspace and public view.

    The facts' defaults (a deal that ends early keeps them), the hands dealt emptied (the 5d
    dummy is dealt none), the workspace (``empty_workspace``) and public view emptied."""
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
        log[L_HAND_T + s] = 0
        log[L_HAND_S + s] = 0
        miseres[s] = 0
        pub[PUB_BIDS + s] = -2
        pub[PUB_POIGNEE_T + s] = 0
        pub[PUB_MISERES + s] = 0
        pub[PUB_TOPS_T + s] = 0
        pub[PUB_TOPS_S + s] = 0
    empty_workspace(ws)
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
def new_bots_view(rv, pub):
    """Empty the bots' public bookkeeping.

    The bots' public bookkeeping (voids, who played what, tricks won), emptied; kept up to date
    only in the build where some seat reads it (``track_trick``)."""
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
    # each is written when played (emptying its slots at every deal would slow the bots' deal).


@njit(inline="always")
def deal_cards(rv, seed, index, first, ws, log):
    """Shuffle and deal the hands and the chien (R-DEAL-1, R-DEAL-2).

    Shuffle with the cards stream and deal (R-DEAL-1, R-DEAL-2; ``tarotsim.rng.deal``): hands
    of the table's size to the active seats in dealing order from ``first``, the rest is the
    chien. Returns the chien (trump word, suit word)."""
    na = rv[RV_N_ACTIVE]
    h = HAND_SIZE[rv[RV_TABLE]]
    st = stream_state(seed, np.uint64(index), U_STREAM_CARDS)
    for i in range(78):
        ws[at(WS_DECK + i)] = i
    for i in range(77, 0, -1):
        j, st = below(st, i + 1)
        x = ws[at(WS_DECK + i)]
        ws[at(WS_DECK + i)] = ws[at(WS_DECK + j)]
        ws[at(WS_DECK + j)] = x
    seat = first
    for k in range(na):
        t = np.int64(0)
        s = np.int64(0)
        for p in range(k * h, k * h + h):
            c = ws[at(WS_DECK + p)]
            ge = np.int64(c >= 22)
            b = np.int64(1) << (c - 22 * ge)
            t |= b & (ge - 1)
            s |= b & (-ge)
        ws[at(WS_HT + seat)] = t
        ws[at(WS_HS + seat)] = s
        log[at(L_HAND_T + seat)] = t
        log[at(L_HAND_S + seat)] = s
        seat = ws[at(WS_NEXT + seat)]
    chien_t = np.int64(0)
    chien_s = np.int64(0)
    for p in range(na * (h + PILE_SIZE[rv[RV_TABLE]]), 78):  # table 2: after the piles (R-VAR-TWO)
        c = ws[at(WS_DECK + p)]
        if c < 22:
            chien_t |= np.int64(1) << c
        else:
            chien_s |= np.int64(1) << (c - 22)
    log[L_CHIEN_T] = chien_t
    log[L_CHIEN_S] = chien_s
    return chien_t, chien_s


@njit(inline="always")
def lay_piles(rv, first, ws, pub, log):
    """Lay the piles of table 2 (R-VAR-TWO).

    Table 2 (R-VAR-TWO; ``tarotsim.rng.deal_with_piles``): after the hands, each player in
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
    turn_up_piles(ws, pub)


# out of line: table 2 only, once a trick; the card loop of the other tables keeps no call
@njit(nogil=True, _nrt=False)
def turn_up_piles(ws, pub):
    """Turn up the top card of every pile at table 2 (R-VAR-TWO).

    Table 2 (R-VAR-TWO): every non-empty pile shows its top card (after the deal, and after
    each trick: a pile whose top was played turns its next card up; the others show the same),
    which joins what its owner may play (``WS_HT``, ``WS_HS``: hand and face-up tops).

    A top played in the trick left the tops at once (``take_top``); its pile gives it up here,
    when the trick is over: a pile whose top place holds a played card (``PUB_PLAYED_*``, which
    ``close_trick`` has just updated) loses it."""
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
def take_top(seat, bt, bs, pub):
    """Take a played face-up top from its owner's tops at table 2 (R-VAR-TWO).

    Table 2 (R-VAR-TWO): ``seat`` played the card of bits ``bt``, ``bs``; if it was one of its
    face-up tops, it leaves the public tops now, and its pile gives it up when the trick is over
    (``turn_up_piles``): the card under it stays face down until then. No call and no loop, so
    the card step of the other tables pays one branch for table 2."""
    pub[PUB_TOPS_T + seat] &= ~bt
    pub[PUB_TOPS_S + seat] &= ~bs


@njit(inline="always")
def annul_petit_sec(rv, first, ws, log):
    """Annul the deal of a petit sec (R-DEAL-4).

    R-DEAL-4 (option ``petit_sec``): the first seat in dealing order holding the Petit as its
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
def callable_cards(ths):
    """The cards the taker may call (R-CALL-1).

    The cards the taker may call (R-CALL-1), suit word: the kings; the queens if he holds
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
def set_called(called, ws, log, pub):
    """Record the called card, and what R-CALL-4 bans in trick 1: the other cards of its suit."""
    log[L_CALLED] = called
    pub[PUB_CALLED] = called
    ws[WS_CALLED] = called
    called_suit = SW_SUITS[(called - 22) // 14]
    ws[WS_CALLED_SUIT] = called_suit
    ws[WS_CALL_BAN] = called_suit & ~(np.int64(1) << (called - 22))


@njit(inline="always")
def set_sides(rv, taker, ws, log):
    """Find the partner and set the sides (R-CALL-2).

    The partner (R-CALL-2): at table 5, the holder of the called card among the other seats
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
def declare(log, ws, seat, kind, level, cards):
    """Append a declaration (``DECL_*``) to the log."""
    n_decl = ws[WS_N_DECL]
    d = L_DECL + DECL_FIELDS * n_decl
    log[d] = seat
    log[d + 1] = kind
    log[d + 2] = level
    log[d + 3] = cards
    ws[WS_N_DECL] = n_decl + 1


@njit(inline="always")
def poignee_levels(rv, seat, ht, ws):
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
def show_poignee(rv, seat, lvl, avail, ws, pub, log):
    """Show a poignée and add its bonus (R-POIG-2, R-POIG-3).

    Show a poignée of level ``lvl`` (R-POIG-2, R-POIG-3): the lowest ``size`` trumps available,
    or all of them and the Excuse when it holds exactly size - 1; its bonus (R-POIG-1: 20, 30,
    40) goes to the declarer's side's tally (R-POIG-4 gives it to the winner at scoring)."""
    size = POIGNEE_SIZES[rv[RV_TABLE], lvl - 1]
    if popcount(avail) >= size:
        top = select_bit(avail, size - 1)
        shown = avail & ((np.int64(2) << top) - 1)
    else:
        shown = avail | 1
    declare(log, ws, seat, DECL_POIGNEE, lvl, shown)
    pub[PUB_POIGNEE_T + seat] = shown
    if ws[WS_ATT + seat]:
        ws[WS_POIG_ATT] += KERNEL_POIGNEE_BONUS[lvl]
    else:
        ws[WS_POIG_DEF] += KERNEL_POIGNEE_BONUS[lvl]


@njit(inline="always")
def misere_eligible(rv, which, ht, hs):
    """Whether a seat may declare a misère (R-MIS-1).

    R-MIS-1, judged on the hand now (taker: after the écart): misère d'atout (``which`` 0) no
    trump (nor the Excuse under option ``misere_excuse_is_trump``); de tête (1) no K, Q, N, J."""
    if which == 0:
        return (ht & TW_TRUMPS) == 0 and (rv[RV_MISERE_EXCUSE_IS_TRUMP] == 0 or (ht & 1) == 0)
    return (hs & SW_HONOURS) == 0


@njit(inline="always")
def declare_misere(seat, which, ws, pub, log, miseres):
    """Record a misère (R-MIS-1) of ``seat``; the scorer pays it (R-MIS-2)."""
    declare(log, ws, seat, DECL_MISERE_ATOUT if which == 0 else DECL_MISERE_TETE, 0, 0)
    miseres[seat] += 1
    ws[WS_N_MIS] += 1
    pub[PUB_MISERES + seat] += 1


@njit(inline="always")
def open_trick(tr, leader, log, pub):
    """Trick ``tr`` led by ``leader`` (R-PLAY-1): the state of a trick before its first card.

    The trick state is a tuple ``(seat to play, fixed, fmask, amask, best_key, best_seat,
    ex_seat, tt, ts)``: the led suit is fixed (R-PLAY-3), its suit-word mask (0 when trumps were
    led), the trumps above the highest one played (R-PLAY-4b, R-PLAY-4c), the winning key and
    seat so far (R-PLAY-5), who played the Excuse (-1: nobody), the cards played (trump word,
    suit word). Before the first card nothing is fixed and the leader plays any card.
    """
    log[at(L_LEADER + tr)] = leader
    pub[PUB_TRICK] = tr
    pub[PUB_LEADER] = leader
    # np.bool_: a literal False would compile ``legal_masks`` and ``after_card`` twice (``_bits.scalar``)
    return (leader, np.bool_(False), np.int64(0), TW_TRUMPS, np.int64(-2), leader, np.int64(-1), np.int64(0), np.int64(0))


@njit(inline="always")
def add_to_trick(trick, pos, c, bt, bs, seat, nxt):
    """The trick state after ``seat`` plays ``c`` at position ``pos``, ``nxt`` to play next.

    ``trick``: the state tuple of :func:`open_trick`; ``bt``, ``bs``: the card's trump-word and
    suit-word bits. The first card leads (:func:`after_lead`), a later one follows
    (:func:`after_card`): R-PLAY-3, R-PLAY-5. Every replay of a trick (the deal, the environment,
    the search, the solver, the weighing) adds its cards with this step."""
    _, fixed, fmask, amask, best_key, best_seat, ex_seat, tt, ts = trick
    if pos == 0:
        fixed, fmask, amask, best_key, best_seat, ex_seat = after_lead(c, bt, seat)
    else:
        fixed, fmask, amask, best_key, best_seat, ex_seat = after_card(c, bt, seat, fixed, fmask, amask, best_key,
                                                                       best_seat, ex_seat)
    return (nxt, fixed, fmask, amask, best_key, best_seat, ex_seat, tt | bt, ts | bs)


@njit(inline="always")
def call_restriction(rv, ws, pos, fixed, ht, hs, ls):
    """The legal suit word under the called-suit rule of trick 1 (R-CALL-4).

    R-CALL-4: in trick 1 the leader may not lead a card of the called suit but the called card
    itself, lifted when every card he holds is of that suit; after an Excuse lead the second
    player is free, unless option ``called_suit_after_excuse`` is ``restricted``. Returns the
    legal suit word."""
    if not fixed and (pos == 0 or rv[RV_CALLED_SUIT_AFTER_EXCUSE_RESTRICTED] != 0):
        ban = ws[WS_CALL_BAN]  # 0 unless a card was called (table 5)
        if ban != 0 and (ht | (hs & ~ws[WS_CALLED_SUIT])) != 0:
            return hs & ~ban  # nothing is fixed yet: every card of the hand was legal
    return ls


@njit(inline="always")
def playable(rv, ws, ht, hs, pos, fixed, fmask, amask, first):
    """The cards a seat may play now (trump word, suit word), from its hand ``ht``, ``hs``.

    The leader is free (R-PLAY-3), else the duties of R-PLAY-4a to R-PLAY-4e with R-EXC-1
    (:func:`legal_masks`); in trick 1 (``first``) the called-suit rule (R-CALL-4,
    :func:`call_restriction`). ``pos``: the seat's place in the trick; ``fixed``, ``fmask``,
    ``amask``: the trick state (:func:`add_to_trick`). The leader takes a short path rather than
    ``legal_masks``: the card chain of a trick is latency-bound."""
    if pos == 0:
        lt, ls = ht, hs
    else:
        lt, ls = legal_masks(ht, hs, fixed, fmask, amask)
    if first:
        ls = call_restriction(rv, ws, pos, fixed, ht, hs, ls)
    return lt, ls


@njit(inline="always")
def replay_tricks(rv, ws, pub, log, first, tr, pos):
    """Replay the logged tricks ``first`` to ``tr`` and return the state of trick ``tr``.

    Every trick before ``tr`` is played again from the log's leader and cards
    (:func:`add_to_trick`: R-PLAY-3, R-PLAY-5) and closed under the workspace's sides
    (:func:`close_trick`: R-EXC-2, R-COUNT-1, ...); trick ``tr`` gets its first ``pos`` cards.
    The one replay of a deal so far: a search's world and a solver's position are set up
    with it. Returns the trick state (:func:`open_trick`'s tuple)."""
    na = rv[RV_N_ACTIVE]
    for t in range(first, tr):
        close_trick(rv, ws, pub, log, t, _replay_cards(ws, log, t, na))
    return _replay_cards(ws, log, tr, pos)


@njit(inline="always")
def _replay_cards(ws, log, t, k):
    """The state of logged trick ``t`` after its first ``k`` cards."""
    s = log[at(L_LEADER + t)]
    trick = (s, np.bool_(False), np.int64(0), TW_TRUMPS, np.int64(-2), s, np.int64(-1), np.int64(0), np.int64(0))
    for j in range(k):
        c = log[at(L_CARDS + t * MAX_SEATS + j)]
        bt, bs = card_bits(c)
        trick = add_to_trick(trick, j, c, bt, bs, s, ws[at(WS_NEXT + s)])
        s = ws[at(WS_NEXT + s)]
    return trick


@njit(inline="always")
def close_trick(rv, ws, pub, log, tr, trick):
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
    w_att = ws[at(WS_ATT + winner)]
    exc4 = False
    if ex_seat >= 0:
        if tr == last:
            leader = log[at(L_LEADER + tr)]
            if ex_seat == leader:
                # R-EXC-4: led to the last trick by a side that won every earlier trick
                l_att = ws[at(WS_ATT + leader)]
                att_tricks = ws[WS_ATT_TRICKS]
                if (att_tricks == last) if l_att else (att_tricks == 0):
                    if l_att or rv[RV_EXCUSE_SLAM_EITHER_SIDE]:
                        winner = leader
                        w_att = l_att
                        exc4 = True
            # R-EXC-3: otherwise an ordinary card of the trick, to its winner
        else:
            # R-EXC-2: the Excuse stays with its side; one low card to the winners if they differ
            o_att = ws[at(WS_ATT + ex_seat)]
            if o_att:
                ws[WS_PILE_T] |= 1
            if o_att != w_att:
                ws[WS_EXC_ADJ] += 1 if w_att else -1
            tt &= ~np.int64(1)
    log[at(L_WINNER + tr)] = winner
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
def count_points(rv, ws, log):
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
def score_deal(rv, attack_hp, oudlers, pab, slam_side, ws, pub, log, steps, scores, miseres):
    """Score the deal into the log.

    Score the deal with ``tarotsim.scoring.score_core``, the one formula (R-COUNT-3 target,
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
