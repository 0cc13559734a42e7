"""The batched environment's kernel (private): many deals, each advanced one decision at a time.

``tarotsim.runs.env.VecEnv`` keeps, per slot, the deal kernel's arrays (workspace and public view
``buf``, ``log``: ``play.py``'s layouts) and the state of a deal paused at a decision (``est``,
``E_*`` below: what ``play.make_play`` keeps in locals between its steps). One call of the step
kernel takes an action id (:mod:`tarotsim.actions`) per slot, applies it, lets the opponents
(kernel bots) play until the agent's next decision, and writes the observation
(:mod:`tarotsim.observations`' layout), the mask of legal action ids and the seat to decide.

The rules are the deal kernel's own steps, imported from ``play.py`` (``seating``,
``deal_cards``, ``annul_petit_sec``, ``callable_cards``, ``set_called``, ``set_sides``, ``poignee_levels``,
``show_poignee``, ``misere_eligible``, ``declare_misere``, ``open_trick``, ``playable``,
``add_to_trick``, ``close_trick``, ``track_trick``,
``count_points``, ``score_deal``), in the order of docs/engine-contract.md; an opponent's decision draws
from the deal's bots stream as in the deal kernel. Slot ``i`` plays deals ``start + i``,
``start + i + N``, ... of ``(seed, index)``; nothing depends on other slots or on threads.

Like the deal kernel it is built by a factory (:func:`make_env_step`): here with the engine's
random player for the opponents; ``bots/_env.py`` builds it with the bots' dispatch (this module
never imports the bots).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit

from ..actions import CHELEM_NO, CONTRACT_BASE, MISERE_NO, N_ACTIONS, PASS, POIGNEE_NONE
from ..observations import MAX_SEATS as OBS_MAX_SEATS, OBS_AT, OBS_LEN
from ..rules import (DECISION_KINDS, KERNEL_CHIEN_SHOWN, KERNEL_CHIEN_SIZE, KERNEL_CHIEN_TO_ATTACK, KERNEL_ECART_MADE,
                     KERNEL_HAND_SIZE, LED_NONE, N_CONTRACTS, NO_CEILING, RV_MISERE, RV_N_ACTIVE, RV_N_SEATS, RV_TABLE, TABLE_5)
from ..scoring import ST_LEN
from ._bits import popcount, tzcnt
from ._cache import engine_sources, guard_cache
from ._rng import U_STREAM_BOTS, below, stream_state
from .layout import (DECL_CHELEM, L_BID, L_BID_SEAT, L_CALLED, L_CARDS,
                     L_CONTRACT, L_DEALER, L_ECART, L_LEADER, L_LEN, L_N_BIDS, L_N_ECART, L_OUTCOME, L_PARTNER,
                     L_SCORES, L_SLAM_ANNOUNCED, L_TAKER, MAX_SEATS,
                     OUTCOME_ALL_PASSED, PUB_BIDS, PUB_CALLED, PUB_CHIEN_S, PUB_CHIEN_T, PUB_CONTRACT, PUB_DEALER,
                     PUB_DUMMY, PUB_ECART_T,
                     PUB_H_CARDS, PUB_H_LEADER, PUB_HIGHEST, PUB_LEADER, PUB_LEN, PUB_MISERE_KINDS, PUB_POIGNEE_T,
                     PUB_SLAM, PUB_TAKER, PUB_TRICK, PUB_TRICK_CARDS, PUB_TRICKS_WON, PUB_WON_HP, U_LEN)
from .masks import SW_KINGS, TW_T2_T20, card_bits
from .play import build_name
from .random_player import ecart_needed, random_bid, random_call, random_card_bits, random_ecart
from .seats import next_seat
from .steps import (add_to_trick, after_card_played, annul_petit_sec, callable_cards, close_trick, count_points, deal_cards,
                    declare, declare_misere, ecart_pick_mask, led_of, misere_eligible, new_bots_view, new_deal,
                    open_trick, playable, poignee_levels, score_deal, seating, set_called, set_sides, show_poignee,
                    shown_by_play, top_of, track_trick)
from .workspace import (B_MISERES, B_PUB, B_SCORES, B_STEPS, B_USER, BUF_LEN, WS_CALLED, WS_ECART_T, WS_HS, WS_HT,
                        WS_LEN, WS_NEXT, WS_PILE_S, WS_PILE_T, WS_TAKER)

assert OBS_MAX_SEATS == MAX_SEATS

# decision kinds (their codes in ``rules.DECISION_KINDS``), and the deal over
K_BID, K_CALL, K_ECART, K_CHELEM, K_POIGNEE, K_MISERE_ATOUT, K_MISERE_TETE, K_CARD = range(len(DECISION_KINDS))
K_DONE = len(DECISION_KINDS)

# A paused deal (``est``, int64[E_LEN] per slot)
E_INDEX = 0                     # the deal's index
E_KIND = E_INDEX + 1            # K_*: the decision it waits for
E_SEAT = E_KIND + 1             # the seat to decide
E_FIRST = E_SEAT + 1            # the dealer's right: first to bid and to lead (R-BID-2, R-PLAY-1)
E_NBIDS = E_FIRST + 1           # bids made (R-BID-2)
E_HIGHEST = E_NBIDS + 1         # the highest bid so far, -1 none
E_BIDDER = E_HIGHEST + 1        # who made it
E_CHIEN_T = E_BIDDER + 1        # the chien (trump word, suit word)
E_CHIEN_S = E_CHIEN_T + 1
E_NORMAL = E_CHIEN_S + 1        # the écart's eligible non-trumps (suit word, R-CHIEN-2)
E_CANDS = E_NORMAL + 1          # the trumps T2..T20 of the enlarged hand
E_NEEDED = E_CANDS + 1          # trumps the écart must hold
E_PICK_T = E_NEEDED + 1         # the écart picked so far (then the whole écart)
E_PICK_S = E_PICK_T + 1
E_NPICK = E_PICK_S + 1
E_TR = E_NPICK + 1              # the trick being played
E_POS = E_TR + 1                # cards already in it
E_TRICK = E_POS + 1             # steps.open_trick's tuple (9 values)
E_NLEV = E_TRICK + 9            # poignée levels the seat to decide may show (R-POIG-1)
E_AVAIL = E_NLEV + 1            # and the trumps it may show (R-POIG-3)
E_PL_T = E_AVAIL + 1            # per seat, the cards it has played (trump word, suit word)
E_PL_S = E_PL_T + MAX_SEATS
E_VOIDS = E_PL_S + MAX_SEATS    # per seat, the voids its plays showed (bit s suit s, bit 4 trumps)
E_CEIL = E_VOIDS + MAX_SEATS    # per seat, the highest trump it may still hold (21: no sign)
E_MIS = E_CEIL + MAX_SEATS      # per seat, misères declared (bit 0 atout, bit 1 tête)
E_SKIPPED = E_MIS + MAX_SEATS   # deals of this slot that asked the agent nothing (petit sec; the 5d dummy)
E_ERR = E_SKIPPED + 1           # 1 + the action refused (not in the mask), else 0
E_FINAL_INDEX = E_ERR + 1       # the index of the deal that ended at this step, -1 none
E_LEN = E_FINAL_INDEX + 1

# the step kernel's configuration vector (int64); C_ONCE 1: each slot plays its one deal and
# stops there (no automatic reset; a deal that asks the agent nothing ends at the reset), for
# the Python bots' batches (``tarotsim.runs.pybatch``)
C_STRIDE, C_AGENT, C_OBS, C_ONCE, C_LEN = 0, 1, 2, 3, 4

_O_TABLE, _O_DECISION, _O_TO_PLAY, _O_DEALER, _O_DUMMY, _O_HAND = (
    OBS_AT["table"], OBS_AT["decision"], OBS_AT["to_play"], OBS_AT["dealer"], OBS_AT["dummy"], OBS_AT["hand"])
_O_BIDS, _O_TAKER, _O_CONTRACT, _O_CALLED, _O_PARTNER, _O_CHIEN, _O_ECART, _O_ECART_TRUMPS = (
    OBS_AT["bids"], OBS_AT["taker"], OBS_AT["contract"], OBS_AT["called"], OBS_AT["partner"], OBS_AT["chien"],
    OBS_AT["ecart"], OBS_AT["ecart_trumps"])
_O_CHELEM, _O_POIGNEES, _O_MISERES, _O_PLAYED, _O_TRICK, _O_TRICK_LEADER, _O_TRICK_NUMBER = (
    OBS_AT["chelem"], OBS_AT["poignees"], OBS_AT["miseres"], OBS_AT["played"], OBS_AT["trick"],
    OBS_AT["trick_leader"], OBS_AT["trick_number"])
_O_VOIDS, _O_CEIL, _O_TRICKS_WON, _O_POINTS_WON = (
    OBS_AT["voids"], OBS_AT["trump_ceiling"], OBS_AT["tricks_won"], OBS_AT["points_won"])


def new_state(num_envs: int):
    """The arrays of ``num_envs`` slots: ``(bufs, logs, est, bst)``."""
    return (np.zeros((num_envs, BUF_LEN), dtype=np.int64), np.zeros((num_envs, L_LEN), dtype=np.int64),
            np.zeros((num_envs, E_LEN), dtype=np.int64), np.zeros(num_envs, dtype=np.uint64))


# --- the deal as a sequence of decisions ------------------------------------------------------

# out of line, as ``_run`` and the other big steps: the step kernel calls them from several
# places, and numba's inlining copies a callee's IR at every call (a longer cold compile)
@njit(nogil=True, _nrt=False)
def _begin(rv, seed, index, buf, log, e):
    """Start a deal in an environment slot, up to its first decision.

    Deal ``(seed, index)``: seating, cards, petit sec (R-GEN-2, R-DEAL-1, R-DEAL-2, R-DEAL-4),
    then the auction's first decision. Returns the deal's bots stream."""
    ws = buf[0:WS_LEN]
    pub = buf[B_PUB:B_PUB + PUB_LEN]
    miseres = buf[B_MISERES:B_MISERES + MAX_SEATS]
    dealer, dummy, first = seating(rv, index, ws)
    new_deal(rv, index, -1, dealer, dummy, ws, pub, log, miseres)
    new_bots_view(rv, pub)
    chien_t, chien_s = deal_cards(rv, seed, index, first, ws, log)
    e[E_INDEX] = index
    e[E_FIRST] = first
    e[E_NBIDS] = 0
    e[E_HIGHEST] = -1
    e[E_BIDDER] = -1
    e[E_CHIEN_T] = chien_t
    e[E_CHIEN_S] = chien_s
    e[E_PICK_T] = 0
    e[E_PICK_S] = 0
    e[E_NPICK] = 0
    e[E_TR] = 0
    e[E_POS] = 0
    for s in range(MAX_SEATS):
        e[E_PL_T + s] = 0
        e[E_PL_S + s] = 0
        e[E_VOIDS + s] = 0
        e[E_CEIL + s] = NO_CEILING
        e[E_MIS + s] = 0
    e[E_SEAT] = first
    e[E_KIND] = K_DONE if annul_petit_sec(rv, first, ws, log) else K_BID
    return stream_state(seed, np.uint64(index), U_STREAM_BOTS)


@njit(inline="always")
def _turn(rv, buf, e):
    """The next decision of the play: at a seat's first turn (trick 1) its poignée, else its card."""
    ws = buf[0:WS_LEN]
    seat = e[E_TRICK]
    e[E_SEAT] = seat
    if e[E_TR] == 0:
        n_lev, avail = poignee_levels(rv, seat, ws[WS_HT + seat], ws)
        e[E_NLEV] = n_lev
        e[E_AVAIL] = avail
        e[E_KIND] = K_POIGNEE
    else:
        e[E_KIND] = K_CARD


@njit(inline="always")
def _after_declarations(rv, buf, e, which):
    """Move on after a declaration to the next misère or the card.

    After the poignée (``which`` 0) or misère d'atout (1): the next misère the seat is eligible
    for (R-MIS-1, option ``misere``), else its card."""
    ws = buf[0:WS_LEN]
    seat = e[E_SEAT]
    if rv[RV_MISERE]:
        for w in range(which, 2):
            if misere_eligible(rv, w, ws[WS_HT + seat], ws[WS_HS + seat]):
                e[E_KIND] = K_MISERE_ATOUT + w
                return
    e[E_KIND] = K_CARD


@njit(inline="always")
def _close_auction(rv, buf, log, e):
    ws = buf[0:WS_LEN]
    pub = buf[B_PUB:B_PUB + PUB_LEN]
    log[L_N_BIDS] = rv[RV_N_ACTIVE]
    taker = e[E_BIDDER]
    if taker < 0:
        log[L_OUTCOME] = OUTCOME_ALL_PASSED  # R-BID-3
        e[E_KIND] = K_DONE
        return
    ws[WS_TAKER] = taker
    log[L_TAKER] = taker
    log[L_CONTRACT] = e[E_HIGHEST]
    pub[PUB_TAKER] = taker
    pub[PUB_CONTRACT] = e[E_HIGHEST]
    e[E_SEAT] = taker
    if rv[RV_TABLE] == TABLE_5:
        e[E_KIND] = K_CALL
    else:
        _after_call(rv, buf, log, e)


@njit(inline="always")
def _after_call(rv, buf, log, e):
    """Deal with the chien after the call, then set the sides.

    Prise, garde: the chien is shown and joins the taker's hand, the écart follows (R-CHIEN-1,
    R-CHIEN-2); garde sans: the chien is the attack's (R-CHIEN-3); garde contre: the defence's
    (R-CHIEN-4); then the sides (R-CALL-2) and the chelem."""
    ws = buf[0:WS_LEN]
    pub = buf[B_PUB:B_PUB + PUB_LEN]
    taker = e[E_SEAT]
    contract = e[E_HIGHEST]
    if KERNEL_ECART_MADE[contract]:
        n_chien = KERNEL_CHIEN_SIZE[rv[RV_TABLE]]
        pub[PUB_CHIEN_T] = e[E_CHIEN_T]
        pub[PUB_CHIEN_S] = e[E_CHIEN_S]
        tht = ws[WS_HT + taker] | e[E_CHIEN_T]
        ths = ws[WS_HS + taker] | e[E_CHIEN_S]
        ws[WS_HT + taker] = tht
        ws[WS_HS + taker] = ths
        normal = ths & ~SW_KINGS
        e[E_NORMAL] = normal
        e[E_CANDS] = tht & TW_T2_T20
        e[E_NEEDED] = ecart_needed(n_chien, popcount(normal))
        e[E_KIND] = K_ECART
        return
    if KERNEL_CHIEN_TO_ATTACK[contract]:
        ws[WS_PILE_T] = e[E_CHIEN_T]
        ws[WS_PILE_S] = e[E_CHIEN_S]
    set_sides(rv, taker, ws, log)
    e[E_KIND] = K_CHELEM


@njit(inline="always")
def _lay_ecart(rv, buf, log, e, et, es):
    """Lay the taker's écart.

    The écart ``(et, es)`` leaves the taker's hand and starts the attack's pile (R-CHIEN-1);
    its trumps are shown (R-CHIEN-2)."""
    ws = buf[0:WS_LEN]
    pub = buf[B_PUB:B_PUB + PUB_LEN]
    taker = e[E_SEAT]
    log[L_N_ECART] = KERNEL_CHIEN_SIZE[rv[RV_TABLE]]
    ws[WS_HT + taker] &= ~et
    ws[WS_HS + taker] &= ~es
    pub[PUB_ECART_T] = et
    ws[WS_ECART_T] = et
    ws[WS_PILE_T] = et
    ws[WS_PILE_S] = es
    e[E_PICK_T] = et
    e[E_PICK_S] = es
    set_sides(rv, taker, ws, log)
    e[E_KIND] = K_CHELEM


@njit(inline="always")
def _card_legal(rv, buf, e):
    """The legal cards of the seat to play (R-PLAY-3, R-PLAY-4a to R-PLAY-4e, R-EXC-1, R-CALL-4)."""
    ws = buf[0:WS_LEN]
    seat = e[E_SEAT]
    ht = ws[WS_HT + seat]
    hs = ws[WS_HS + seat]
    pos = e[E_POS]
    fixed = e[E_TRICK + 1] != 0
    return playable(rv, ws, ht, hs, pos, fixed, e[E_TRICK + 2], e[E_TRICK + 3], e[E_TR] == 0)


@njit(nogil=True, _nrt=False)
def _play_card(rv, buf, log, e, c, policies):
    """Play a card, closing the trick and the deal when they end.

    The seat to play plays card ``c`` (legal): the trick, the public signs of its play (voids,
    trump ceiling: ``steps.shown_by_play``, R-PLAY-4a to R-PLAY-4d), and at the trick's last card its close
    (R-PLAY-5, R-EXC-2, R-EXC-3, R-EXC-4, R-PAB-1, R-PAB-2); after the last trick, the count and
    the score."""
    ws = buf[0:WS_LEN]
    pub = buf[B_PUB:B_PUB + PUB_LEN]
    seat = e[E_SEAT]
    tr = e[E_TR]
    pos = e[E_POS]
    na = rv[RV_N_ACTIVE]
    fixed = e[E_TRICK + 1] != 0
    fmask = e[E_TRICK + 2]
    amask = e[E_TRICK + 3]
    bt, bs = card_bits(c)
    voids, ceiling = shown_by_play(c, led_of(fixed, fmask), top_of(amask), e[E_VOIDS + seat], e[E_CEIL + seat])
    e[E_VOIDS + seat] = voids
    e[E_CEIL + seat] = ceiling
    e[E_PL_T + seat] |= bt
    e[E_PL_S + seat] |= bs
    ws[WS_HT + seat] ^= bt
    ws[WS_HS + seat] ^= bs
    log[L_CARDS + tr * MAX_SEATS + pos] = c
    pub[PUB_TRICK_CARDS + pos] = c
    if policies:
        if pos == 0:
            pub[PUB_H_LEADER + tr] = seat
        pub[PUB_H_CARDS + tr * MAX_SEATS + pos] = c
    trick = add_to_trick((e[E_TRICK], fixed, fmask, amask, e[E_TRICK + 4], e[E_TRICK + 5], e[E_TRICK + 6],
                          e[E_TRICK + 7], e[E_TRICK + 8]), pos, c, bt, bs, seat, ws[WS_NEXT + seat])
    nxt, fixed, fmask, amask, best_key, best_seat, ex_seat, tt, ts = trick
    e[E_TRICK] = nxt
    e[E_TRICK + 1] = np.int64(fixed)
    e[E_TRICK + 2] = fmask
    e[E_TRICK + 3] = amask
    e[E_TRICK + 4] = best_key
    e[E_TRICK + 5] = best_seat
    e[E_TRICK + 6] = ex_seat
    e[E_TRICK + 7] = tt
    e[E_TRICK + 8] = ts
    pos += 1
    e[E_POS] = pos
    if pos < na:
        _turn(rv, buf, e)
        return
    winner, pab = close_trick(rv, ws, pub, log, tr, trick)
    track_trick(pub, log, ws, tr, na, ws[WS_CALLED], winner, tt, ts)
    if tr == KERNEL_HAND_SIZE[rv[RV_TABLE]] - 1:
        attack_hp, oudlers, slam_side = count_points(rv, ws, log)
        score_deal(rv, attack_hp, oudlers, pab, slam_side, ws, pub, log, buf[B_STEPS:B_STEPS + ST_LEN],
               buf[B_SCORES:B_SCORES + MAX_SEATS], buf[B_MISERES:B_MISERES + MAX_SEATS])
        e[E_KIND] = K_DONE
        return
    _start_trick(tr + 1, winner, buf, log, e)
    _turn(rv, buf, e)


@njit(inline="always")
def _start_trick(tr, leader, buf, log, e):
    t = open_trick(np.int64(tr), leader, log, buf[B_PUB:B_PUB + PUB_LEN])
    e[E_TR] = tr
    e[E_POS] = 0
    e[E_TRICK] = t[0]
    e[E_TRICK + 1] = np.int64(t[1])
    e[E_TRICK + 2] = t[2]
    e[E_TRICK + 3] = t[3]
    e[E_TRICK + 4] = t[4]
    e[E_TRICK + 5] = t[5]
    e[E_TRICK + 6] = t[6]
    e[E_TRICK + 7] = t[7]
    e[E_TRICK + 8] = t[8]


@njit(nogil=True, _nrt=False)
def _apply(rv, buf, log, e, a, policies):
    """Apply one action and move on to the next decision.

    Apply action id ``a`` (legal: in the mask) to the decision the deal waits for, and move on
    to the next decision (``E_KIND``, ``E_SEAT``)."""
    ws = buf[0:WS_LEN]
    pub = buf[B_PUB:B_PUB + PUB_LEN]
    kind = e[E_KIND]
    seat = e[E_SEAT]
    if kind == K_BID:  # R-BID-1, R-BID-2
        bid = a - CONTRACT_BASE
        k = e[E_NBIDS]
        log[L_BID_SEAT + k] = seat
        log[L_BID + k] = bid
        pub[PUB_BIDS + seat] = bid
        if bid >= 0:
            e[E_HIGHEST] = bid
            e[E_BIDDER] = seat
            pub[PUB_HIGHEST] = bid
        e[E_NBIDS] = k + 1
        e[E_SEAT] = ws[WS_NEXT + seat]
        if k + 1 == rv[RV_N_ACTIVE]:
            _close_auction(rv, buf, log, e)
    elif kind == K_CALL:  # R-CALL-1
        set_called(a, ws, log, pub)
        _after_call(rv, buf, log, e)
    elif kind == K_ECART:  # one card of the écart (R-CHIEN-2 in the mask)
        log[L_ECART + e[E_NPICK]] = a
        e[E_NPICK] += 1
        if a >= 22:
            e[E_PICK_S] |= np.int64(1) << (a - 22)
        else:
            e[E_PICK_T] |= np.int64(1) << a
        if e[E_NPICK] == KERNEL_CHIEN_SIZE[rv[RV_TABLE]]:
            _lay_ecart(rv, buf, log, e, e[E_PICK_T], e[E_PICK_S])
    elif kind == K_CHELEM:  # R-SLAM-1, then the leader of trick 1 (R-PLAY-1)
        slam = a - CHELEM_NO
        log[L_SLAM_ANNOUNCED] = slam
        leader = e[E_FIRST]
        if slam:
            declare(log, ws, seat, DECL_CHELEM, 0, 0)
            pub[PUB_SLAM] = 1
            leader = seat
        _start_trick(0, leader, buf, log, e)
        _turn(rv, buf, e)
    elif kind == K_POIGNEE:  # R-POIG-1, R-POIG-2, R-POIG-3
        lvl = a - POIGNEE_NONE
        if lvl > 0:
            show_poignee(rv, seat, lvl, e[E_AVAIL], ws, pub, log)
        _after_declarations(rv, buf, e, 0)
    elif kind == K_MISERE_ATOUT or kind == K_MISERE_TETE:  # R-MIS-1
        which = kind - K_MISERE_ATOUT
        if a - MISERE_NO:
            declare_misere(seat, which, ws, pub, log, buf[B_MISERES:B_MISERES + MAX_SEATS])
            e[E_MIS + seat] |= np.int64(1) << which
            if policies:
                pub[PUB_MISERE_KINDS + seat] |= np.int64(1) << which
        _after_declarations(rv, buf, e, which + 1)
    else:
        _play_card(rv, buf, log, e, a, policies)


@njit(inline="always")
def _set_bits(row, base, t, s):
    """row[base + id] = 1 for every card of the words ``(t, s)``."""
    while t:
        row[base + tzcnt(t)] = 1
        t &= t - 1
    while s:
        row[base + 22 + tzcnt(s)] = 1
        s &= s - 1


@njit(nogil=True, _nrt=False)
def _fill_mask(rv, buf, e, row):
    """The legal action ids of the decision the deal waits for (``tarotsim.actions``)."""
    for k in range(N_ACTIONS):
        row[k] = 0
    kind = e[E_KIND]
    ws = buf[0:WS_LEN]
    if kind == K_BID:
        row[PASS] = 1
        for b in range(e[E_HIGHEST] + 1, N_CONTRACTS):  # R-BID-2: above the highest bid
            row[CONTRACT_BASE + b] = 1
    elif kind == K_CALL:
        _set_bits(row, 0, np.int64(0), callable_cards(ws[WS_HS + e[E_SEAT]]))
    elif kind == K_ECART:
        # R-CHIEN-2 after each pick (``steps.ecart_pick_mask``)
        t, s = ecart_pick_mask(e[E_NORMAL], e[E_CANDS], e[E_NEEDED], e[E_PICK_T], e[E_PICK_S], popcount(e[E_PICK_T]))
        _set_bits(row, 0, t, s)
    elif kind == K_CHELEM:
        row[CHELEM_NO] = 1
        row[CHELEM_NO + 1] = 1
    elif kind == K_POIGNEE:
        for lvl in range(e[E_NLEV] + 1):
            row[POIGNEE_NONE + lvl] = 1
    elif kind == K_MISERE_ATOUT or kind == K_MISERE_TETE:
        row[MISERE_NO] = 1
        row[MISERE_NO + 1] = 1
    elif kind == K_CARD:
        lt, ls = _card_legal(rv, buf, e)
        _set_bits(row, 0, lt, ls)


@njit(nogil=True, _nrt=False)
def _fill_obs(rv, buf, log, e, seat, row):
    """Write a seat's observation.

    The observation of ``seat`` (``tarotsim.observations``: the same values as
    ``observation(game, seat)`` on the same deal)."""
    for k in range(OBS_LEN):
        row[k] = 0
    ws = buf[0:WS_LEN]
    pub = buf[B_PUB:B_PUB + PUB_LEN]
    n = rv[RV_N_SEATS]
    kind = e[E_KIND]
    row[_O_TABLE + rv[RV_TABLE]] = 1
    if kind != K_DONE:
        row[_O_DECISION + kind] = 1
        row[_O_TO_PLAY + (e[E_SEAT] - seat + n) % n] = 1
    row[_O_DEALER + (log[L_DEALER] - seat + n) % n] = 1
    if pub[PUB_DUMMY] >= 0:
        row[_O_DUMMY + (pub[PUB_DUMMY] - seat + n) % n] = 1
    taker = ws[WS_TAKER]
    ht = ws[WS_HT + seat]
    hs = ws[WS_HS + seat]
    if seat == taker and kind == K_ECART:
        ht &= ~e[E_PICK_T]
        hs &= ~e[E_PICK_S]
    _set_bits(row, _O_HAND, ht, hs)
    for k in range(e[E_NBIDS]):
        row[_O_BIDS + (1 + N_CONTRACTS) * ((log[L_BID_SEAT + k] - seat + n) % n) + log[L_BID + k] + 1] = 1
    if taker >= 0:
        row[_O_TAKER + (taker - seat + n) % n] = 1
        row[_O_CONTRACT + log[L_CONTRACT]] = 1
        if seat == taker:
            _set_bits(row, _O_ECART, e[E_PICK_T], e[E_PICK_S])
        if KERNEL_CHIEN_SHOWN[log[L_CONTRACT]] and kind != K_CALL:
            _set_bits(row, _O_CHIEN, e[E_CHIEN_T], e[E_CHIEN_S])
    called = log[L_CALLED]
    if called >= 0:
        row[_O_CALLED + called] = 1
        partner = log[L_PARTNER]
        if kind == K_ECART:  # the sides are set after the écart; the holder is known (R-CALL-2)
            for s in range(n):
                if s != taker and (ws[WS_HS + s] >> (called - 22)) & 1:
                    partner = s
        if partner >= 0:
            out = seat == partner
            for s in range(n):
                out = out or (e[E_PL_S + s] >> (called - 22)) & 1 == 1
            if out:
                row[_O_PARTNER + (partner - seat + n) % n] = 1
    _set_bits(row, _O_ECART_TRUMPS, pub[PUB_ECART_T], np.int64(0))
    row[_O_CHELEM] = pub[PUB_SLAM]
    for s in range(n):
        r = (s - seat + n) % n
        _set_bits(row, _O_POIGNEES + 22 * r, pub[PUB_POIGNEE_T + s], np.int64(0))
        row[_O_MISERES + 2 * r] = e[E_MIS + s] & 1
        row[_O_MISERES + 2 * r + 1] = (e[E_MIS + s] >> 1) & 1
        _set_bits(row, _O_PLAYED + 78 * r, e[E_PL_T + s], e[E_PL_S + s])
        v = e[E_VOIDS + s]
        for k in range(5):
            row[_O_VOIDS + 5 * r + k] = (v >> k) & 1
        row[_O_CEIL + r] = e[E_CEIL + s]
        row[_O_TRICKS_WON + r] = pub[PUB_TRICKS_WON + s]
        row[_O_POINTS_WON + r] = pub[PUB_WON_HP + s]
    if K_POIGNEE <= kind <= K_CARD:
        tr = e[E_TR]
        s = log[L_LEADER + tr]
        row[_O_TRICK_LEADER + (s - seat + n) % n] = 1
        row[_O_TRICK_NUMBER + tr] = 1
        for j in range(e[E_POS]):
            row[_O_TRICK + 78 * ((s - seat + n) % n) + log[L_CARDS + tr * MAX_SEATS + j]] = 1
            s = ws[WS_NEXT + s]


@njit(inline="always")
def view_observation(rv, seat, ht, hs, ecart_t, ecart_s, pub, pos, row):
    """Write the observation of ``seat`` at its card decision from what a bot sees.

    The same values as :func:`_fill_obs` at a card decision (``K_CARD``) of ``seat``, computed
    from what a bot inside the deal kernel is given: its hand ``ht``, ``hs``, its own écart
    ``ecart_t``, ``ecart_s`` (the taker at prise or garde; else 0), the public view ``pub`` with
    its history (``PUB_H_*``, kept when a seat is a bot) and ``pos``, the cards already in the
    trick being played. What the environment tracks as the play goes (each seat's cards played,
    voids and trump ceiling: ``steps.shown_by_play``, R-PLAY-4a to R-PLAY-4d) is replayed from
    the history, trick by trick, in the order of play."""
    for k in range(OBS_LEN):
        row[k] = 0
    n = rv[RV_N_SEATS]
    row[_O_TABLE + rv[RV_TABLE]] = 1
    row[_O_DECISION + K_CARD] = 1
    row[_O_TO_PLAY] = 1
    row[_O_DEALER + (pub[PUB_DEALER] - seat + n) % n] = 1
    dummy = pub[PUB_DUMMY]
    if dummy >= 0:
        row[_O_DUMMY + (dummy - seat + n) % n] = 1
    _set_bits(row, _O_HAND, ht, hs)
    for s in range(n):
        bid = pub[PUB_BIDS + s]
        if bid >= -1:   # -2: the seat did not speak (the 5d dummy)
            row[_O_BIDS + (1 + N_CONTRACTS) * ((s - seat + n) % n) + bid + 1] = 1
    taker = pub[PUB_TAKER]
    contract = pub[PUB_CONTRACT]
    row[_O_TAKER + (taker - seat + n) % n] = 1
    row[_O_CONTRACT + contract] = 1
    if seat == taker:
        _set_bits(row, _O_ECART, ecart_t, ecart_s)
    if KERNEL_CHIEN_SHOWN[contract]:
        _set_bits(row, _O_CHIEN, pub[PUB_CHIEN_T], pub[PUB_CHIEN_S])
    _set_bits(row, _O_ECART_TRUMPS, pub[PUB_ECART_T], np.int64(0))
    row[_O_CHELEM] = pub[PUB_SLAM]
    # the tricks so far in the order of play: who played what, and what each play showed (the
    # voids and ceilings kept in their slots of ``row`` as the replay goes)
    for s in range(n):
        row[_O_CEIL + s] = NO_CEILING
    called = pub[PUB_CALLED]
    partner = np.int64(-1)
    tr_now = pub[PUB_TRICK]
    for t in range(tr_now + 1):
        s = pub[PUB_H_LEADER + t] if t < tr_now else pub[PUB_LEADER]
        led = np.int64(LED_NONE)
        top = np.int64(0)
        for j in range(rv[RV_N_ACTIVE] if t < tr_now else pos):
            c = pub[PUB_H_CARDS + t * MAX_SEATS + j] if t < tr_now else pub[PUB_TRICK_CARDS + j]
            r = (s - seat + n) % n
            row[_O_PLAYED + 78 * r + c] = 1
            if t == tr_now:
                row[_O_TRICK + 78 * r + c] = 1
            v = np.int64(0)
            for k in range(5):
                v |= np.int64(row[_O_VOIDS + 5 * r + k]) << k
            v, ceiling = shown_by_play(c, led, top, v, np.int64(row[_O_CEIL + r]))
            for k in range(5):
                row[_O_VOIDS + 5 * r + k] = (v >> k) & 1
            row[_O_CEIL + r] = ceiling
            led, top = after_card_played(c, led, top)
            if c == called and s != taker:
                partner = s
            s = next_seat(s, n, dummy)
    # R-CALL-3: the partner is known to himself, and to all once the called card is played
    if called >= 0 and seat != taker and (hs >> (called - 22)) & 1:
        partner = seat
    if called >= 0:
        row[_O_CALLED + called] = 1
    if partner >= 0:
        row[_O_PARTNER + (partner - seat + n) % n] = 1
    for s in range(n):
        r = (s - seat + n) % n
        _set_bits(row, _O_POIGNEES + 22 * r, pub[PUB_POIGNEE_T + s], np.int64(0))
        kinds = pub[PUB_MISERE_KINDS + s]
        row[_O_MISERES + 2 * r] = kinds & 1
        row[_O_MISERES + 2 * r + 1] = (kinds >> 1) & 1
        row[_O_TRICKS_WON + r] = pub[PUB_TRICKS_WON + s]
        row[_O_POINTS_WON + r] = pub[PUB_WON_HP + s]
    row[_O_TRICK_LEADER + (pub[PUB_LEADER] - seat + n) % n] = 1
    row[_O_TRICK_NUMBER + tr_now] = 1


# --- the step kernel, built for the opponents -------------------------------------------------------

def _make_opponent(POLICIES, bot_bid, bot_call, bot_ecart, bot_chelem, bot_poignee, bot_misere, bot_card_bits):
    """Build the opponents' decision step of a step kernel.

    The opponents' decisions of a step kernel (:func:`make_env_step`): the random player's, or
    the bots' dispatch (``bot_*``) when ``POLICIES``."""

    @njit(nogil=True, _nrt=False)
    def _opponent(rv, kinds, params, pol, buf, log, e, bst):
        """Make the next opponent's decision.

        The opponent to decide decides (the random player's draws, or its bot's); returns
        ``(action id, bst)``, -1 when it laid its whole écart."""
        ws = buf[0:WS_LEN]
        pub = buf[B_PUB:B_PUB + PUB_LEN]
        ub = buf[B_USER:B_USER + U_LEN]
        kind = e[E_KIND]
        seat = e[E_SEAT]
        ht = ws[WS_HT + seat]
        hs = ws[WS_HS + seat]
        if kind == K_BID:
            if POLICIES:
                bid, bst = bot_bid(kinds[seat], params, pol, ub, seat, ht, hs, pub, e[E_HIGHEST], bst)
            else:
                bid, bst = random_bid(e[E_HIGHEST], bst)
            return CONTRACT_BASE + bid, bst
        if kind == K_CALL:
            legal = callable_cards(hs)
            if POLICIES:
                b, bst = bot_call(kinds[seat], params, pol, ub, seat, ht, hs, pub, legal, bst)
            else:
                b, bst = random_call(legal, bst)
            return 22 + b, bst
        if kind == K_ECART:
            n_chien = KERNEL_CHIEN_SIZE[rv[RV_TABLE]]
            if POLICIES:
                et, es, bst = bot_ecart(kinds[seat], params, pol, ub, seat, ht, hs, pub, e[E_NORMAL], e[E_CANDS],
                                        n_chien, log, L_ECART, bst)
            else:
                et, es, bst = random_ecart(e[E_NORMAL], e[E_CANDS], n_chien, log, L_ECART, bst)
            _lay_ecart(rv, buf, log, e, et, es)
            return np.int64(-1), bst
        if kind == K_CHELEM:
            if POLICIES:
                slam, bst = bot_chelem(kinds[seat], params, pol, ub, seat, ht, hs, pub, bst)
            else:
                slam, bst = below(bst, np.int64(2))
            return CHELEM_NO + slam, bst
        if kind == K_POIGNEE:
            if POLICIES:
                lvl, bst = bot_poignee(kinds[seat], params, pol, ub, seat, ht, hs, pub, e[E_NLEV], bst)
            else:
                lvl, bst = below(bst, e[E_NLEV] + 1)
            return POIGNEE_NONE + lvl, bst
        if kind == K_MISERE_ATOUT or kind == K_MISERE_TETE:
            if POLICIES:
                yes, bst = bot_misere(kinds[seat], params, pol, ub, seat, ht, hs, pub, kind - K_MISERE_ATOUT, bst)
            else:
                yes, bst = below(bst, np.int64(2))
            return MISERE_NO + yes, bst
        lt, ls = _card_legal(rv, buf, e)
        if POLICIES:
            fixed = e[E_TRICK + 1] != 0
            c, bt, bs, bst = bot_card_bits(kinds[seat], params, pol, ub, seat, ht, hs, pub, lt, ls, fixed,
                                           e[E_TRICK + 2], e[E_TRICK + 3], e[E_POS], bst)
        else:
            c, bt, bs, bst = random_card_bits(lt, ls, bst)
        return c, bst

    return _opponent


def make_env_step(BOTS=None):
    """Build the environment's step kernel.

    The step kernel with the engine's random player for the opponents (``BOTS`` None), or the
    bots' dispatch (a ``play.BotDispatch``; ``tarotsim/_builds/env.py``)."""
    POLICIES = BOTS is not None
    tag = "bots" if POLICIES else "random"  # one name per build of each closure (``play.build_name``)
    _opponent = build_name(_make_opponent(POLICIES, *(BOTS if POLICIES else (None,) * 7)), tag)

    @njit(nogil=True, _nrt=False)
    def _run(rv, agent, kinds, params, pol, buf, log, e, bst):
        """Let the opponents decide until the agent's turn or the deal's end."""
        while e[E_KIND] != K_DONE and not (agent >> e[E_SEAT]) & 1:
            a, bst = _opponent(rv, kinds, params, pol, buf, log, e, bst)
            if a >= 0:
                _apply(rv, buf, log, e, a, POLICIES)
        return bst

    @njit(nogil=True, _nrt=False)
    def step(rv, cfg, seed, lo, hi, actions, kinds, params, pol, bufs, logs, est, bsts, obs, masks, to_play,
             rewards, terminated, final_logs):
        """Step the slots ``lo..hi-1`` up to the agent's next decision.

        Slots ``lo..hi-1``: apply ``actions[i]`` (-1: start the slot's deal ``est[i, E_INDEX]``),
        play the opponents, and at a deal's end store its scores and log, then start the slot's
        next deal (index + stride) at once: the observation, mask and seat written are those of
        the next decision the agent faces. With no agent seat (``cfg[C_AGENT]`` 0) every call
        plays one whole deal per slot."""
        stride = cfg[C_STRIDE]
        agent = cfg[C_AGENT]
        for i in range(lo, hi):
            buf = bufs[i]
            log = logs[i]
            e = est[i]
            bst = bsts[i]
            terminated[i] = False
            e[E_FINAL_INDEX] = -1
            for s in range(MAX_SEATS):
                rewards[i, s] = 0
            a = actions[i]
            if cfg[C_ONCE]:  # one deal per slot: a finished slot stays as it is
                if a == -1:
                    bst = _begin(rv, seed, e[E_INDEX], buf, log, e)
                elif a < -1 or e[E_KIND] == K_DONE:  # -2: this slot waits (or is over)
                    continue
                elif a >= N_ACTIONS or a < 0 or masks[i, a] == 0:
                    e[E_ERR] = 1 + a
                    continue
                else:
                    _apply(rv, buf, log, e, a, POLICIES)
                bst = _run(rv, agent, kinds, params, pol, buf, log, e, bst)
                terminated[i] = e[E_KIND] == K_DONE
            elif agent == 0:  # every seat an opponent: one whole deal per step (none at the reset)
                if a == -1:
                    continue
                index = e[E_INDEX]
                bst = _begin(rv, seed, index, buf, log, e)
                bst = _run(rv, agent, kinds, params, pol, buf, log, e, bst)
                a = np.int64(-2)
                e[E_INDEX] = index + stride
            elif a < 0:
                bst = _begin(rv, seed, e[E_INDEX], buf, log, e)
                bst = _run(rv, agent, kinds, params, pol, buf, log, e, bst)
            else:
                if a >= N_ACTIONS or masks[i, a] == 0:
                    e[E_ERR] = 1 + a
                    continue
                _apply(rv, buf, log, e, a, POLICIES)
                bst = _run(rv, agent, kinds, params, pol, buf, log, e, bst)
            while e[E_KIND] == K_DONE and not cfg[C_ONCE]:
                if a != -1:  # the deal the agent (or nobody) played ended at this step
                    terminated[i] = True
                    e[E_FINAL_INDEX] = log[0]
                    for s in range(rv[RV_N_SEATS]):
                        rewards[i, s] = log[L_SCORES + s]
                    for k in range(L_LEN):
                        final_logs[i, k] = log[k]
                    if agent == 0:
                        break
                    e[E_INDEX] += stride
                else:  # started and ended without asking the agent: skipped
                    e[E_SKIPPED] += 1
                    e[E_INDEX] += stride
                a = np.int64(-1)
                bst = _begin(rv, seed, e[E_INDEX], buf, log, e)
                bst = _run(rv, agent, kinds, params, pol, buf, log, e, bst)
            bsts[i] = bst
            _fill_mask(rv, buf, e, masks[i])
            to_play[i] = e[E_SEAT] if e[E_KIND] != K_DONE else -1
            if cfg[C_OBS] and e[E_KIND] != K_DONE:
                _fill_obs(rv, buf, log, e, e[E_SEAT], obs[i])

    for f in (_run, step):
        build_name(f, tag)
    return step


_step_random = make_env_step()


@njit(cache=True, nogil=True)
def env_step_random(rv, cfg, seed, lo, hi, actions, kinds, params, bufs, logs, est, bsts, obs, masks, to_play,
                    rewards, terminated, final_logs):
    """The step kernel with random opponents (see ``make_env_step``)."""
    _step_random(rv, cfg, seed, lo, hi, actions, kinds, params, None, bufs, logs, est, bsts, obs, masks, to_play,
                 rewards, terminated, final_logs)


@njit(cache=True, nogil=True)
def observe(rv, bufs, logs, est, i, seat, row):
    """The observation of any ``seat`` of slot ``i`` (tests, and a seat other than the one to play)."""
    _fill_obs(rv, bufs[i], logs[i], est[i], seat, row)


guard_cache("tarotsim-env", (env_step_random, observe),
            engine_sources() + [Path(__file__).resolve().parent.parent / n for n in ("actions.py", "observations.py")])
