"""The ``pimc`` bot's card search, inside the deal kernel (perfect-information Monte Carlo).

At a card decision of a ``pimc`` seat with more than one legal card (``pimc_card``, :func:`make_search`):

1. its knowledge (``worlds.K_*``) is built from what the seat may see only: its hand, the public
   view ``pub`` (``layout.PUB_*``: the contract, the shown chien and écart trumps, poignées,
   misères, the history of plays ``PUB_H_*``) and, when it is the taker at prise or garde, its own
   écart (the dispatch reads it from the log: it is the seat's own knowledge);
2. ``worlds`` deals of the cards it cannot see are drawn uniformly among those that agree with it
   (``worlds.derive``, ``worlds.sample_worlds``), from the deal's bots stream, which then gives
   one rollout stream per world and rollout: the samples never depend on the hidden cards; with
   ``infer``, ``candidates`` worlds are drawn, weighed by the other seats' decisions
   (``inference.weigh_worlds``) and ``worlds`` of them kept by weight (``inference.resample``,
   one more draw): each distinct world is played out once and its scores count as many times as
   it was drawn; with ``locations`` the card-location model's log probabilities of each world's
   places join its log weight (:func:`location_log_probs`: the seat's observation rebuilt from
   its view, the model packed after the scratch);
3. in each world the deal so far is set up in a scratch workspace (hands from the world; the
   sides: the taker and, at table 5, the holder of the called card in that world; the attack's
   pile, Excuse payments and tricks won by re-running ``steps.close_trick`` over the finished
   tricks; the poignée bonuses and misères declared), then for every legal card: the card is
   played and the deal finished by the bots build's ``_play_rest`` with every seat playing the
   rollout policy (the same rollout stream for every card: common random numbers);
4. the card with the best total score for the seat is played (ties: the lowest card id).

No recursion: the rollouts run the function the search is built on (:func:`make_search`), the
bots build's ``_play_rest`` (``tarotsim._builds.deal.BOTS_PARTS``), which knows random, greedy
and heuristic only. The pimc build of the deal kernel (``play.make_play`` with the search as its card
dispatch) and its batch kernels are in ``tarotsim/_builds/pimc.py``, compiled only when a seat
plays ``pimc``: the bots never import the builds. The search's scratch (``PW_*``,
:data:`PIMC_LEN` int64) follows the deal kernel's buffer (``buf[BUF_LEN:]``); the batch kernels
allocate it once per chunk.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarotsim._kernels._bits import popcount, tzcnt
from tarotsim._kernels._rng import below, next_u64
from tarotsim._kernels.layout import (L_CALLED, L_CARDS, L_CONTRACT, L_ECART,
                                      L_LEADER, L_LEN, L_N_ECART, L_PARTNER, L_SCORES, L_SLAM_ANNOUNCED, L_TAKER,
                                      MAX_SEATS, N_BOT_PARAMS, PUB_CALLED, PUB_CHIEN_S, PUB_CHIEN_T, PUB_CONTRACT,
                                      PUB_DEALER, PUB_ECART_T, PUB_H_CARDS, PUB_H_LEADER, PUB_LEADER, PUB_LEN,
                                      PUB_MISERE_KINDS, PUB_MISERES, PUB_POIGNEE_T, PUB_SLAM, PUB_PLAYED_S,
                                      PUB_PLAYED_T, PUB_TAKER, PUB_TOPS_S, PUB_TOPS_T, PUB_TRICK, PUB_TRICK_CARDS,
                                      PILE_CARDS, PILE_SEATS, U_LEN)
from tarotsim._kernels import solver as SV
from tarotsim._kernels.masks import SW_LOWS, TW_T2_T20, card_bits
from tarotsim._kernels.play import build_name
from tarotsim._kernels.steps import add_to_trick, empty_workspace, replay_tricks, seating, set_called, take_top
from tarotsim._kernels.workspace import (B_MISERES, B_PUB, B_USER, BUF_LEN, N_PILES, POIGNEE_SIZES, WS_ATT,
                                         WS_ECART_T,
                                         WS_HEIGHT, WS_HS, WS_HT, WS_LEN, WS_N_MIS, WS_NEXT,
                                         WS_PILE_S, WS_PILE_T, WS_POIG_ATT, WS_POIG_DEF, WS_STACK,
                                         WS_TAKER)
from tarotsim._kernels.worlds import (C_LEN, K_CALLED, K_CARDS, K_CHIEN_S, K_CHIEN_T, K_CONTRACT, K_DEALER,
                                      K_ECART_KNOWN, K_ECART_S, K_ECART_T, K_HAND_S, K_HAND_T, K_LEADER, K_LEN,
                                      K_MISERE, K_N_PLAYED, K_POIGNEE, K_SEAT, K_STAGE, K_TAKER, K_TOPS_S, K_TOPS_T,
                                      K_UNDER, LOC_PILE, LOC_UNDER, OK, STAGE_PLAY, WF_LEN, WI_LEN, derive,
                                      sample_worlds)
from tarotsim.rules import (KERNEL_CHIEN_TO_ATTACK, KERNEL_ECART_MADE, KERNEL_N_TRICKS as N_TRICKS,
                            KERNEL_POIGNEE_BONUS, PILE_DEPTH, RV_N_ACTIVE, RV_N_SEATS, RV_TABLE, TABLE_2)

from . import greedy, heuristic, pimc
from tarotsim._kernels.env import view_observation
from tarotsim._kernels.worlds import C_ALLOWED, N_LOC
from tarotsim.learn.features import N_LOCATIONS, PILE
from tarotsim.actions import N_ACTIONS
from tarotsim.learn.forward import has_model, locations_core, packed_model, unpack
from tarotsim.observations import OBS_LEN

from .inference import (INFER_LEN, IW_COUNT, IW_LOC_ON, IW_LOGQ, IW_LOGW, add_locations, move_by_locations,
                        move_worlds, resample, weigh_worlds)
# the weighing's entry points and counters, for the library (it reaches the bots' kernels through here)
from .inference import IW_STATS, N_STATS, draw_worlds, log_weights, tempering_power  # noqa: F401
# the models' switches, for the builds, which pack the models (``tarotsim._builds.pimc``)
from .pimc import P_LOCATION_MODEL, P_OPPONENT_MODEL  # noqa: F401
from .pimc import (EPSILON_MIN, MAX_MOVES, MAX_ROLLOUTS, MAX_WORLDS, P_CANDIDATES, P_CARD_EPSILON, P_EPSILON,
                   P_EXACT_FROM, P_HALVING, P_INFER, P_LEARNED_OPPONENT, P_LOCATION_POWER, P_LOCATIONS, P_MIN_ESS,
                   P_MOVES, P_POLICY, P_ROLLOUTS, P_TRUST, P_WORLDS)

#: the highest rollout policy's code (a seat's ``policy`` parameter is clamped to ``0..POLICY_MAX``)
POLICY_MAX = max(pimc.POLICIES.values())
# the rollout seats' parameters: each policy's defaults, by its code (``pimc.POLICIES``; random has none)
ROLLOUT_PARAMS = np.zeros((POLICY_MAX + 1, N_BOT_PARAMS), dtype=np.float64)
ROLLOUT_PARAMS[greedy.CODE, :len(greedy.PARAMS)] = [p[1] for p in greedy.PARAMS]
ROLLOUT_PARAMS[heuristic.CODE, :len(heuristic.PARAMS)] = [p[1] for p in heuristic.PARAMS]
#: the ``pimc`` bot's kind
PIMC = pimc.CODE

# --- the search's scratch, int64 offsets in ``buf[BUF_LEN:]`` ------------------------------------
PW_BUF = 0                              # a rollout's deal buffer (workspace.new_buffer's layout)
PW_BASE = PW_BUF + BUF_LEN              # the world's position before the candidate card (WS + pub)
PW_BASE_MIS = PW_BASE + WS_LEN + PUB_LEN
PW_LOG = PW_BASE_MIS + MAX_SEATS        # a rollout's log
PW_KNOW = PW_LOG + L_LEN                # the seat's knowledge (worlds.K_*)
PW_CONS = PW_KNOW + K_LEN               # its constraints (worlds.C_*)
PW_WI = PW_CONS + C_LEN                 # the sampler's int64 workspace
PW_KINDS = PW_WI + WI_LEN               # the rollout seats' kinds
PW_PARAMS = PW_KINDS + MAX_SEATS        # ... and parameters (float64 bits)
PW_CAND = PW_PARAMS + MAX_SEATS * N_BOT_PARAMS  # legal cards, in id order
PW_SUM = PW_CAND + 78                   # total score per legal card
PW_WORLDS = PW_SUM + 78                 # int8[MAX_WORLDS, 78] (8 per int64)
PW_WF = PW_WORLDS + (MAX_WORLDS * 78 + 7) // 8  # the sampler's float64 workspace
PW_STATS = PW_WF + WF_LEN               # counters: decisions searched, worlds, rollouts (benchmarks)
PW_PILES = PW_STATS + 3                 # table 2: the piles as both players see them (PILES_LEN)
PW_UNDER = PW_PILES + 2 * PILE_SEATS * N_PILES  # table 2: a world's face-down cards, shuffled
# ``exact_from``: the exact solver's question, answer, stack and transposition table, and the
# table's generation (a new one for each world: its sides may differ, R-CALL-2)
PW_SOLVE_CFG = PW_UNDER + 78
PW_SOLVE_OUT = PW_SOLVE_CFG + SV.CFG_LEN
PW_SOLVE_STK = PW_SOLVE_OUT + SV.OUT_LEN
PW_SOLVE_GEN = PW_SOLVE_STK + SV.MAX_PLY * SV.PL_LEN
PW_SOLVE_TT = PW_SOLVE_GEN + 1
#: entries of the transposition table of ``exact_from`` (the last tricks need few)
SOLVE_TT_ENTRIES = 1 << 14
PW_INFER = PW_SOLVE_TT + SOLVE_TT_ENTRIES * SV.TT_LEN  # with infer: the weighing's scratch (``inference.IW_*``)
# ``locations``: the seat's observation (uint8, 8 a word) and per card the relative places it allows
PW_OBS = PW_INFER + INFER_LEN
PW_ALLOWED = PW_OBS + (OBS_LEN + 7) // 8
#: The search's scratch; a card-location model packed after it (``tarotsim.learn.forward.pack``),
#: when a seat reads one.
PIMC_LEN = PW_ALLOWED + 78

# Table 2 (R-VAR-TWO): the piles as both players see them, int64[PILES_LEN]: per seat and pile
# (``seat * N_PILES + pile``, the deal's pile order) its height at ``PILE_HEIGHT``, and its face-up top
# at ``PILE_TOP`` (-1 when the pile is empty or its top was played in the trick being played, the
# card under it not turned up yet). Public: every card shown, and how tall each pile is.
PILE_HEIGHT = 0
PILE_TOP = PILE_SEATS * N_PILES
PILES_LEN = 2 * PILE_SEATS * N_PILES


@njit(inline="always")
def public_piles(rv, ws, pub, piles):
    """Table 2: the piles as both players see them, from the deal kernel's workspace.

    Table 2 (R-VAR-TWO): the piles as both players see them (``PILE_*``) from the deal
    kernel's workspace: each pile's height, and its top when it is face up (a top is one of the
    public ``PUB_TOPS_*``). A pile whose top was played in this trick still holds it in the
    workspace until the trick is over (``steps.turn_up_piles``): seen from the table, it is one
    card lower and shows no top (the card under it, face down, is written nowhere). Zeros at the
    other tables."""
    for i in range(PILES_LEN):
        piles[i] = 0
    if rv[RV_TABLE] != TABLE_2:
        return
    for seat in range(PILE_SEATS):
        for p in range(N_PILES):
            h = ws[WS_HEIGHT + seat * N_PILES + p]
            top = np.int64(-1)
            if h > 0:
                c = ws[WS_STACK + seat * PILE_CARDS + PILE_DEPTH * p + h - 1]
                bt, bs = card_bits(c)
                if (pub[PUB_TOPS_T + seat] & bt) | (pub[PUB_TOPS_S + seat] & bs):
                    top = c
                else:  # its top was played in this trick
                    h -= 1
            piles[PILE_HEIGHT + seat * N_PILES + p] = h
            piles[PILE_TOP + seat * N_PILES + p] = top


@njit(inline="always")
def own_ecart(seat, pub, log):
    """The seat's own écart (trump word, suit word) when it is the taker at prise or garde, else 0.

    Its own knowledge (R-CHIEN-2: the taker laid it aside), read from the deal's log: what a pimc
    seat's searches are handed beside the public view."""
    et = np.int64(0)
    es = np.int64(0)
    if seat == pub[PUB_TAKER] and KERNEL_ECART_MADE[pub[PUB_CONTRACT]]:
        for i in range(log[L_N_ECART]):
            bt, bs = card_bits(log[L_ECART + i])
            et |= bt
            es |= bs
    return et, es


def pile_vector(view) -> np.ndarray:
    """Table 2: the piles as both players see them, from a seat's view.

    :func:`public_piles` from a ``tarotsim.engine.SeatView`` (the slow path's adapter), in the
    same pile order (the deal's, ``tarotsim.rng.deal_with_piles``)."""
    piles = np.zeros(PILES_LEN, dtype=np.int64)
    for seat, (tops, sizes) in enumerate(zip(view.pile_tops, view.pile_sizes)):
        for p, (top, h) in enumerate(zip(tops, sizes)):
            piles[PILE_HEIGHT + seat * N_PILES + p] = h
            piles[PILE_TOP + seat * N_PILES + p] = -1 if top is None else top.id
    return piles


@njit(inline="always")
def _deal_under(piles, row, ws, under, st):
    """Table 2: deal world ``row``'s piles into the workspace.

    Table 2 (R-VAR-TWO): the piles of world ``row`` in the workspace (``WS_STACK``, ``WS_HEIGHT``):
    every face-up top at the top of its pile, the world's face-down cards (``LOC_UNDER``) dealt to
    the places under them, and under the piles whose top was played in this trick, by a uniform
    shuffle drawn from ``st`` (those cards are exchangeable: nothing tells one place from
    another). A pile whose top was played is written without it (the card is in the trick): when
    the trick is over, ``steps.turn_up_piles`` finds an unplayed card on top and turns it up.
    Returns the new state."""
    n = 0
    for c in range(78):
        if row[c] == LOC_UNDER:
            under[n] = c
            n += 1
    k = 0
    for seat in range(PILE_SEATS):
        for p in range(N_PILES):
            h = piles[PILE_HEIGHT + seat * N_PILES + p]
            top = piles[PILE_TOP + seat * N_PILES + p]
            ws[WS_HEIGHT + seat * N_PILES + p] = h
            for d in range(h):
                slot = WS_STACK + seat * PILE_CARDS + PILE_DEPTH * p + d
                if d == h - 1 and top >= 0:
                    ws[slot] = top
                else:   # the next card of the shuffle (Fisher-Yates, front first)
                    j, st = below(st, n - k)
                    j += k
                    c = under[j]
                    under[j] = under[k]
                    under[k] = c
                    ws[slot] = c
                    k += 1
    return st


@njit(inline="always")
def seat_knowledge(rv, seat, ht, hs, pub, ecart_t, ecart_s, pos, piles, know):
    """Write the seat's knowledge of where the cards are into ``know``.

    The seat's knowledge (``worlds.K_*``) from its hand, the public view, its own écart and,
    at table 2, the piles as both players see them (``PILE_*``)."""
    for i in range(K_LEN):
        know[i] = 0
    taker = pub[PUB_TAKER]
    contract = pub[PUB_CONTRACT]
    know[K_SEAT] = seat
    know[K_DEALER] = pub[PUB_DEALER]
    know[K_STAGE] = STAGE_PLAY
    know[K_TAKER] = taker
    know[K_CONTRACT] = contract
    know[K_CALLED] = pub[PUB_CALLED]
    know[K_HAND_T] = ht
    know[K_HAND_S] = hs
    know[K_CHIEN_T] = pub[PUB_CHIEN_T]
    know[K_CHIEN_S] = pub[PUB_CHIEN_S]
    if seat == taker and KERNEL_ECART_MADE[contract]:
        know[K_ECART_T] = ecart_t
        know[K_ECART_S] = ecart_s
        know[K_ECART_KNOWN] = 1
    else:
        know[K_ECART_T] = pub[PUB_ECART_T]  # the trumps shown in the écart (R-CHIEN-2)
    for s in range(MAX_SEATS):
        know[K_POIGNEE + s] = pub[PUB_POIGNEE_T + s]
        know[K_MISERE + s] = pub[PUB_MISERE_KINDS + s]
    tr = pub[PUB_TRICK]
    na = rv[RV_N_ACTIVE]
    for t in range(tr):
        know[K_LEADER + t] = pub[PUB_H_LEADER + t]
        for j in range(na):
            know[K_CARDS + t * MAX_SEATS + j] = pub[PUB_H_CARDS + t * MAX_SEATS + j]
    know[K_LEADER + tr] = pub[PUB_LEADER]
    for j in range(pos):
        know[K_CARDS + tr * MAX_SEATS + j] = pub[PUB_TRICK_CARDS + j]
    know[K_N_PLAYED] = tr * na + pos
    # table 2 (R-VAR-TWO): the face-up tops, and how many cards lie face down in each seat's piles
    if rv[RV_TABLE] == TABLE_2:
        for s in range(PILE_SEATS):
            know[K_TOPS_T + s] = pub[PUB_TOPS_T + s]
            know[K_TOPS_S + s] = pub[PUB_TOPS_S + s]
            down = 0
            for p in range(N_PILES):
                h = piles[PILE_HEIGHT + s * N_PILES + p]
                if h > 0:
                    down += h - 1 if piles[PILE_TOP + s * N_PILES + p] >= 0 else h
            know[K_UNDER + s] = down


@njit(inline="always")
def set_up_world(rv, seat, pub, row, pos, ws, spub, smis, slog):
    """Set up the deal so far in world ``row`` and return its trick state.

    The deal so far in world ``row`` (``sample_worlds``'s locations), as the deal kernel would
    hold it before the seat's card: hands, sides, piles and declarations in the workspace ``ws``,
    the public view ``spub`` (a copy of ``pub``), the misères ``smis`` and the log ``slog`` (its
    tricks so far). Returns the trick state (``steps.open_trick``'s tuple) after the cards already
    in the trick being played."""
    n = rv[RV_N_SEATS]
    na = rv[RV_N_ACTIVE]
    for i in range(PUB_LEN):
        spub[i] = pub[i]
    taker = pub[PUB_TAKER]
    contract = pub[PUB_CONTRACT]
    called = pub[PUB_CALLED]
    seating(rv, pub[PUB_DEALER], ws)  # the dealer is the deal index modulo the seats
    empty_workspace(ws)
    pile_t = np.int64(0)
    pile_s = np.int64(0)
    for c in range(78):
        loc = row[c]
        if loc < 0 or loc == LOC_UNDER:   # played, or face down in a pile (table 2: ``_deal_under``)
            continue
        bt, bs = card_bits(c)
        if loc == LOC_PILE:
            pile_t |= bt
            pile_s |= bs
        else:
            ws[WS_HT + loc] |= bt
            ws[WS_HS + loc] |= bs
    tr = pub[PUB_TRICK]
    for t in range(tr):
        slog[L_LEADER + t] = pub[PUB_H_LEADER + t]
        for j in range(na):
            slog[L_CARDS + t * MAX_SEATS + j] = pub[PUB_H_CARDS + t * MAX_SEATS + j]
    slog[L_LEADER + tr] = pub[PUB_LEADER]
    for j in range(pos):
        slog[L_CARDS + tr * MAX_SEATS + j] = pub[PUB_TRICK_CARDS + j]
    # the sides (R-CALL-2, R-GEN-3): at table 5, whoever holds the called card in this world, or
    # played it; nobody when it is the taker's, in the chien or in the écart
    partner = -1
    if called >= 0:
        loc = row[called]
        if loc >= 0 and loc < LOC_PILE:
            partner = loc
        elif loc < 0:
            for t in range(tr + 1):
                s = slog[L_LEADER + t]
                for j in range(na if t < tr else pos):
                    if slog[L_CARDS + t * MAX_SEATS + j] == called:
                        partner = s
                    s = ws[WS_NEXT + s]
        if partner == taker:
            partner = -1
        set_called(called, ws, slog, spub)
    ws[WS_ATT + taker] = 1
    if partner >= 0:
        ws[WS_ATT + partner] = 1
    ws[WS_TAKER] = taker
    ws[WS_ECART_T] = pub[PUB_ECART_T]
    slog[L_TAKER] = taker
    slog[L_CONTRACT] = contract
    slog[L_PARTNER] = partner
    slog[L_CALLED] = called
    slog[L_SLAM_ANNOUNCED] = pub[PUB_SLAM]
    # the attack's pile starts with the écart (R-CHIEN-1) or the chien at garde sans (R-CHIEN-3);
    # at garde contre the chien is the defence's (R-CHIEN-4)
    if KERNEL_CHIEN_TO_ATTACK[contract]:
        ws[WS_PILE_T] = pile_t
        ws[WS_PILE_S] = pile_s
    # the poignée bonuses (R-POIG-1) to the declarer's side in this world; the misères (R-MIS-1)
    n_mis = 0
    for s in range(n):
        shown = pub[PUB_POIGNEE_T + s]
        if shown != 0:
            size = popcount(shown)
            lvl = 1
            for k in range(3):
                if POIGNEE_SIZES[rv[RV_TABLE], k] == size:
                    lvl = k + 1
            if ws[WS_ATT + s]:
                ws[WS_POIG_ATT] += KERNEL_POIGNEE_BONUS[lvl]
            else:
                ws[WS_POIG_DEF] += KERNEL_POIGNEE_BONUS[lvl]
        smis[s] = pub[PUB_MISERES + s]
        n_mis += smis[s]
    ws[WS_N_MIS] = n_mis
    # the finished tricks, closed again under this world's sides (R-EXC-2, R-COUNT-1, ...)
    return replay_tricks(rv, ws, spub, slog, 0, tr, pos)




@njit(inline="always")
def _equivalent(prev, c, word_known, plain):
    """Whether two legal cards of one word are equivalent to the searching seat.

    Two legal cards of one word (bit indices ``prev < c``) are equivalent when both are worth
    one half-point (``plain``: T2..T20 in the trump word, ranks 1..10 in the suit word, R-CARD-4), of the same suit for suit cards, and every card ranked between
    them is already known to be out of the other seats' hands (``word_known``: played, in the
    trick, in the seat's hand or its écart): whatever the hidden cards, they win and lose the
    same tricks and count the same, so playing either gives the same deal."""
    if (plain >> prev) & 1 == 0 or (plain >> c) & 1 == 0:
        return False
    between = ((np.int64(1) << c) - 1) & ~((np.int64(1) << (prev + 1)) - 1)
    return between & ~word_known == 0


@njit(inline="always")
def _candidates(ht, hs, pub, ecart_t, ecart_s, lt, ls, pos, cand):
    """Write the legal cards to search into ``cand``, one of each equivalent class.

    The legal cards in id order into ``cand``, the lowest of each class of equivalent cards
    only (:func:`_equivalent`: a search that plays out every candidate spends nothing on
    duplicates). Returns their number. At table 2 (R-VAR-TWO) a face-up pile top is never merged
    with another card: playing it turns up the card under it."""
    kt = ht | ecart_t | pub[PUB_PLAYED_T]
    ks = hs | ecart_s | pub[PUB_PLAYED_S]
    # the legal cards are the seat's own: the tops among them are its own face-up tops
    tops_t = pub[PUB_TOPS_T] | pub[PUB_TOPS_T + 1]
    tops_s = pub[PUB_TOPS_S] | pub[PUB_TOPS_S + 1]
    for j in range(pos):
        bt, bs = card_bits(pub[PUB_TRICK_CARDS + j])
        kt |= bt
        ks |= bs
    n = 0
    prev = np.int64(-1)
    rem = lt
    while rem:
        b = tzcnt(rem)
        rem &= rem - 1
        if prev < 0 or (tops_t >> prev) & 1 or (tops_t >> b) & 1 or not _equivalent(prev, b, kt, TW_T2_T20):
            cand[n] = b
            n += 1
        prev = b
    prev = -1
    rem = ls
    while rem:
        b = tzcnt(rem)
        rem &= rem - 1
        if prev < 0 or prev // 14 != b // 14 or (tops_s >> prev) & 1 or (tops_s >> b) & 1 or \
                not _equivalent(prev, b, ks, SW_LOWS):
            cand[n] = 22 + b
            n += 1
        prev = b
    return n


@njit(inline="always")
def _solve_world(rv, seat, sbuf, base_ws, base_pub, base_mis, slog, trick0, tr, pos, cand, n_cand, total, times,
                 wsp):
    """Solve one sampled world exactly and add each candidate card's score for the seat to ``total``.

    Each score counts ``times`` over (the world's multiplicity). ``exact_from``: the world set up in ``base_*`` and ``slog``, every card known
    (``tarotsim._kernels.solver.solve_in``, the seat's score with best play by every seat)."""
    for k in range(WS_LEN):
        sbuf[k] = base_ws[k]
    for k in range(PUB_LEN):
        sbuf[B_PUB + k] = base_pub[k]
    for k in range(MAX_SEATS):
        sbuf[B_MISERES + k] = base_mis[k]
    cfg = wsp[PW_SOLVE_CFG:PW_SOLVE_CFG + SV.CFG_LEN]
    out = wsp[PW_SOLVE_OUT:PW_SOLVE_OUT + SV.OUT_LEN]
    stk = wsp[PW_SOLVE_STK:PW_SOLVE_GEN].reshape((SV.MAX_PLY, SV.PL_LEN))
    tt = wsp[PW_SOLVE_TT:PW_SOLVE_TT + SOLVE_TT_ENTRIES * SV.TT_LEN].reshape((SOLVE_TT_ENTRIES, SV.TT_LEN))
    wsp[PW_SOLVE_GEN] += 1
    cfg[SV.CFG_QUESTION] = SV.Q_CARDS
    cfg[SV.CFG_MODE] = SV.MODE_SCORE + seat
    cfg[SV.CFG_TARGET] = 0
    cfg[SV.CFG_GUESS] = SV.NO_GUESS
    cfg[SV.CFG_BUDGET] = 0
    cfg[SV.CFG_FLAGS] = SV.F_ALL
    cfg[SV.CFG_GEN] = wsp[PW_SOLVE_GEN]
    cfg[SV.CFG_EXACT] = SV.EXACT_TRICKS
    SV.solve_in(rv, sbuf, slog, trick0, np.int64(tr), np.int64(pos), cfg, tt, stk, out)
    # the objective is the seat's score counted for the attack (minus it for a defender)
    sign = 1 if base_ws[WS_ATT + seat] == 1 else -1
    for i in range(n_cand):
        total[i] += times * sign * out[SV.OUT_CARDS + cand[i]]


def needs_full_build(kinds, params) -> bool:
    """Whether a ``pimc`` seat asks for the search's optional parts (``exact_from``, ``infer``).

    The deal kernel's default pimc build compiles the search without the exact solver and the
    weighing (``tarotsim._builds.pimc``); a run in which a ``pimc`` seat sets ``exact_from`` or
    ``infer`` plays on the full build.

    Parameters
    ----------
    kinds : int64[n_seats]
        Bot kind per seat (``bots.BOT_KINDS``).
    params : float64[n_seats, N_BOT_PARAMS]
        Bot parameters per seat (row = seat).
    """
    return any(int(k) == PIMC and (params[s][P_EXACT_FROM] != 0 or params[s][P_INFER] != 0)
               for s, k in enumerate(kinds))


@njit(inline="always")
def location_log_probs(rv, seat, ht, hs, ecart_t, ecart_s, pub, pos, cons, power, wsp):
    """The card-location model's log probabilities of the seat's decision into ``IW_LOGQ`` (``locations``).

    The seat's observation rebuilt from its view (``env.view_observation``), the places its
    knowledge allows each card (``cons``, relative to it as the model reads them), the model's
    forward pass (``learn.forward.locations_core``, the model packed at ``wsp[PIMC_LEN:]``), then
    per card and location code the log of its probability there times ``power``: 0 for a card whose
    place the seat knows, and at least ``power`` log 1e-30 at an allowed place, so that the model
    never rules a world out."""
    n = rv[RV_N_SEATS]
    obs = wsp[PW_OBS:PW_ALLOWED].view(np.uint8)[:OBS_LEN]
    allowed = wsp[PW_ALLOWED:PW_ALLOWED + 78]
    for c in range(78):
        a = cons[C_ALLOWED + c]
        r = np.int64(0)
        for s in range(n):
            if (a >> s) & 1:
                r |= np.int64(1) << ((s - seat + n) % n)
        if (a >> LOC_PILE) & 1:
            r |= np.int64(1) << PILE
        allowed[c] = r
    view_observation(rv, seat, ht, hs, ecart_t, ecart_s, pub, pos, obs)
    scale, w0, b0, w1, b1, w2, b2, work, out = unpack(packed_model(wsp[PIMC_LEN:], 78 * N_LOCATIONS))
    q = out.reshape((78, N_LOCATIONS))
    locations_core(obs, allowed, scale, w0, b0, w1, b1, w2, b2, work, q)
    iw = wsp[PW_INFER:PW_INFER + INFER_LEN]
    logq = iw[IW_LOGQ:IW_LOGQ + 78 * N_LOC].view(np.float64)
    for c in range(78):
        a = cons[C_ALLOWED + c]
        several = popcount(a) > 1
        for loc in range(N_LOC):
            logq[c * N_LOC + loc] = 0.0
            if several and (a >> loc) & 1:
                col = PILE if loc == LOC_PILE else (loc - seat + n) % n
                logq[c * N_LOC + loc] = power * np.log(max(np.float64(q[c, col]), 1e-30))
    iw[IW_LOC_ON] = 1


@njit(inline="always")
def _weigh_and_resample(rv, params, seat, pub, pos, cons, worlds, n_draw, n_worlds, opponent, iw, st):
    """Weigh the ``n_draw`` drawn worlds and keep ``n_worlds`` draws of them by weight (``infer``).

    The other seats' decisions weigh each world (``inference.weigh_worlds``), ``n_worlds`` of them
    are resampled by weight and moved (``inference.resample``, ``inference.move_worlds``): the
    distinct worlds first in ``worlds``, their multiplicities in ``iw[IW_COUNT:]``. Returns
    ``(distinct worlds, state)``."""
    eps = min(max(params[seat, P_EPSILON], EPSILON_MIN), 1.0)
    card_eps = min(max(params[seat, P_CARD_EPSILON], EPSILON_MIN), 1.0)
    trust = min(max(params[seat, P_TRUST], 0.0), 1.0)
    if eps >= 1.0 and card_eps >= 1.0:
        # no model of the other seats: every decision weighs 1, and every card they played is legal
        # in every world the exact sampler draws (its voids and ceilings come from those plays)
        logw = iw[IW_LOGW:IW_LOGW + MAX_WORLDS].view(np.float64)
        for w in range(n_draw):
            logw[w] = 0.0
        if iw[IW_LOC_ON]:
            add_locations(worlds, n_draw, iw[IW_LOGQ:IW_LOGQ + 78 * N_LOC].view(np.float64), logw)
    else:
        weigh_worlds(rv, seat, np.int64(STAGE_PLAY), pub, pos, worlds, n_draw, eps, card_eps, trust, opponent, iw)
    kept, _, power, st = resample(worlds, n_draw, n_worlds, np.int64(params[seat, P_MIN_ESS]), iw, st)
    n_moves = min(max(np.int64(params[seat, P_MOVES]), 0), MAX_MOVES)
    if n_moves > 0 and eps >= 1.0 and card_eps >= 1.0:
        if iw[IW_LOC_ON]:  # the location model alone: moves that replay nothing
            kept, st = move_by_locations(cons, worlds, kept, n_worlds, n_moves, power, iw, st)
    elif n_moves > 0:
        kept, st = move_worlds(rv, seat, np.int64(STAGE_PLAY), pub, pos, cons, worlds, kept, n_worlds, n_moves,
                               power, eps, card_eps, trust, opponent, iw, st)
    return kept, st


@njit(inline="always")
def halving_rounds(n_cards, n_worlds):
    """The rounds of sequential halving over ``n_cards`` candidate cards and ``n_worlds`` worlds.

    One round, then one more each time the cards still in play are halved (rounded up) until two
    are left; never more rounds than worlds, so that every round plays at least one world.

    Examples
    --------
    >>> [int(halving_rounds(n, 32)) for n in (1, 2, 3, 4, 5, 8, 9, 24)]
    [1, 1, 2, 2, 3, 3, 4, 5]
    >>> int(halving_rounds(8, 2))
    2
    """
    rounds = np.int64(1)
    k = n_cards
    while k > 2:
        k = (k + 1) // 2
        rounds += 1
    return min(rounds, max(n_worlds, 1))


@njit(inline="always")
def round_end(r, rounds, n_worlds):
    """The first world after round ``r`` of ``rounds`` (the worlds split into near-equal runs).

    The last round has no end within the worlds (-1): nothing is dropped after it.

    Examples
    --------
    >>> [int(round_end(r, 3, 32)) for r in range(3)]
    [10, 21, -1]
    """
    return ((r + 1) * n_worlds) // rounds if r + 1 < rounds else np.int64(-1)


@njit(inline="always")
def best_cards(total, n_cards, alive, keep):
    """The ``keep`` candidates of ``alive`` (a bit per candidate) with the highest totals.

    The best first, a tie to the candidate listed first (the lower card id), as pimc chooses its
    card among all of them. Returns their bits.

    Examples
    --------
    >>> import numpy as np
    >>> bin(int(best_cards(np.array([5, 9, 9, 1]), 4, np.int64(0b1111), 2)))
    '0b110'
    >>> bin(int(best_cards(np.array([5, 9, 9, 1]), 4, np.int64(0b1001), 1)))
    '0b1'
    """
    kept = np.int64(0)
    for _ in range(keep):
        best = np.int64(-1)
        for i in range(n_cards):
            if (alive >> i) & 1 and not (kept >> i) & 1 and (best < 0 or total[i] > total[best]):
                best = i
        if best < 0:
            break
        kept |= np.int64(1) << best
    return kept


def make_search(rollout, EXACT=False, INFER=False):
    """Build the ``pimc`` seat's card decision on ``rollout``.

    The ``pimc`` seat's card decision, built on ``rollout``: the njit function
    ``pimc_card(rv, params, seat, ht, hs, pub, ecart_t, ecart_s, lt, ls, pos, piles, st, wsp)``.

    ``rollout`` finishes a deal from a position with the arguments of the bots build's
    ``_play_rest`` (``tarotsim._builds.deal.BOTS_PARTS["play_rest"]``), every seat playing the
    rollout policy. The builds make the search once (``tarotsim._builds.pimc``) and hand it the
    rollout as a closure constant, as the deal kernel's factory gets the bots' dispatch: the bots
    never import the builds, and the kernels that call it stay in numba's cache.

    ``EXACT`` and ``INFER`` (closure constants) compile the search's optional parts: the exact
    solver that ``exact_from`` calls and the weighing that ``infer`` calls. Without them numba
    prunes those branches before typing, so the search compiles in about half the time, and a
    seat's ``exact_from`` and ``infer`` are read as 0: the builds (``tarotsim._builds.runs``)
    choose the search with them only when a seat asks for one.
    """

    @njit(nogil=True, _nrt=False)
    def pimc_card(rv, params, seat, ht, hs, pub, ecart_t, ecart_s, lt, ls, pos, piles, st, wsp):
        """The card of a ``pimc`` seat: ``(card id, new bots-stream state)``.

        Parameters
        ----------
        rv : int64[RV_LEN]
            The rules vector.
        params : float64[n_seats, N_BOT_PARAMS]
            Row ``seat``: ``bots/pimc.py``'s parameters (``worlds``, ``rollouts``, ``policy``,
            ``exact_from``: in the last tricks each world is solved exactly, :func:`_solve_world`).
        seat, ht, hs, pub :
            The seat, its hand (trump word, suit word) and the public view, as every bot gets them.
        ecart_t, ecart_s : int64
            Its own écart when it is the taker at prise or garde (its own knowledge), else ignored.
        lt, ls, pos :
            The legal cards (trump word, suit word) and the cards already in the trick.
        piles : int64[PILES_LEN]
            Table 2 (R-VAR-TWO): the piles as both players see them (``PILE_*``), else ignored.
        st : uint64
            The bots stream: the worlds (with ``infer``: the candidates, then the resampling's and
            the moves' draws), then world by world (at table 2 first the shuffle of its
            face-down pile cards, :func:`_deal_under`) one rollout stream per rollout, are drawn from
            it (whatever the hidden cards); a single legal card draws nothing.
        wsp : int64[>= PIMC_LEN]
            The search's scratch (``PW_*``), then the models the seats read, packed one after
            another (``tarotsim.learn.forward.pack``): the card-location model (``locations``),
            the policy (``learned_opponent``).
        """
        nt = popcount(lt)
        n_legal = nt + popcount(ls)
        if n_legal == 1:
            return (tzcnt(lt) if nt else 22 + tzcnt(ls)), st
        n_worlds = min(max(np.int64(params[seat, P_WORLDS]), 1), MAX_WORLDS)
        n_roll = min(max(np.int64(params[seat, P_ROLLOUTS]), 1), MAX_ROLLOUTS)
        policy = min(max(np.int64(params[seat, P_POLICY]), 0), POLICY_MAX)
        # reading the table (``inference.py``): draw more worlds, weigh them, keep ``n_worlds`` by weight
        infer = False
        n_draw = n_worlds
        if INFER:
            infer = params[seat, P_INFER] != 0 and rv[RV_TABLE] != TABLE_2
            if infer:
                n_draw = min(max(np.int64(params[seat, P_CANDIDATES]), n_worlds), MAX_WORLDS)
        know = wsp[PW_KNOW:PW_KNOW + K_LEN]
        cons = wsp[PW_CONS:PW_CONS + C_LEN]
        wi = wsp[PW_WI:PW_WI + WI_LEN]
        wf = wsp[PW_WF:PW_WF + WF_LEN].view(np.float64)
        worlds = wsp[PW_WORLDS:PW_WF].view(np.int8)[:n_draw * 78].reshape((n_draw, 78))
        cand = wsp[PW_CAND:PW_CAND + 78]
        total = wsp[PW_SUM:PW_SUM + 78]
        # the legal cards, in id order, one per class of equivalent cards
        n_legal = _candidates(ht, hs, pub, ecart_t, ecart_s, lt, ls, pos, cand)
        if n_legal == 1:
            return cand[0], st
        seat_knowledge(rv, seat, ht, hs, pub, ecart_t, ecart_s, pos, piles, know)
        status = derive(rv, know, cons)
        if status == OK:
            status, st = sample_worlds(cons, st, worlds, wf, wi)
        if status != OK:  # never with true information; play as the rollout policy's first card then
            return cand[0], st
        # each world's multiplicity: 1, or with infer how often the resampling drew it (the distinct
        # worlds first in ``worlds``)
        iw = wsp[PW_INFER:PW_INFER + INFER_LEN]
        mult = iw[IW_COUNT:IW_COUNT + MAX_WORLDS]
        for w in range(n_worlds):
            mult[w] = 1
        if INFER:
            if infer:
                iw[IW_LOC_ON] = 0
                if params[seat, P_LOCATIONS] != 0 and has_model(packed_model(wsp[PIMC_LEN:], 78 * N_LOCATIONS)):
                    power = min(max(params[seat, P_LOCATION_POWER], 0.0), 1.0)
                    location_log_probs(rv, seat, ht, hs, ecart_t, ecart_s, pub, pos, cons, power, wsp)
                # the opponent model of the cards: the learned policy packed after the scratch, or the heuristic
                opponent = packed_model(wsp[PIMC_LEN:], N_ACTIONS if params[seat, P_LEARNED_OPPONENT] != 0 else -1)
                n_worlds, st = _weigh_and_resample(rv, params, seat, pub, pos, cons, worlds, n_draw, n_worlds,
                                                   opponent, iw, st)
        # the rollout seats: every one plays the policy, with its default parameters
        kinds = wsp[PW_KINDS:PW_KINDS + MAX_SEATS]
        rparams = wsp[PW_PARAMS:PW_PARAMS + MAX_SEATS * N_BOT_PARAMS].view(np.float64).reshape(
            (MAX_SEATS, N_BOT_PARAMS))
        for s in range(MAX_SEATS):
            kinds[s] = policy
            for i in range(N_BOT_PARAMS):
                rparams[s, i] = ROLLOUT_PARAMS[policy, i]
        for i in range(n_legal):
            total[i] = 0
        sbuf = wsp[PW_BUF:PW_BUF + BUF_LEN]
        sws = sbuf[0:WS_LEN]
        spub = sbuf[B_PUB:B_PUB + PUB_LEN]
        smis = sbuf[B_MISERES:B_MISERES + MAX_SEATS]
        sub = sbuf[B_USER:B_USER + U_LEN]
        base_ws = wsp[PW_BASE:PW_BASE + WS_LEN]
        base_pub = wsp[PW_BASE + WS_LEN:PW_BASE + WS_LEN + PUB_LEN]
        base_mis = wsp[PW_BASE_MIS:PW_BASE_MIS + MAX_SEATS]
        slog = wsp[PW_LOG:PW_LOG + L_LEN]
        tr = pub[PUB_TRICK]
        wsp[PW_STATS] += 1
        wsp[PW_STATS + 1] += n_draw
        tracing = pos < 0  # False (a run-time bool: the rollout build's own signature)
        two = rv[RV_TABLE] == TABLE_2
        under = wsp[PW_UNDER:PW_UNDER + 78]
        exact = False
        if EXACT:
            exact = not two and N_TRICKS[rv[RV_TABLE]] - tr <= np.int64(params[seat, P_EXACT_FROM])
        # sequential halving: the cards still in play (a bit per candidate), the rounds of worlds
        alive = (np.int64(1) << n_legal) - 1
        n_alive = n_legal
        rounds = np.int64(1)
        if params[seat, P_HALVING] != 0 and not exact:
            rounds = halving_rounds(n_legal, n_worlds)
        r = np.int64(0)
        for w in range(n_worlds):
            if w == round_end(r, rounds, n_worlds):  # round r is over: the better half plays on
                n_alive = max((n_alive + 1) // 2, 2)
                alive = best_cards(total, n_legal, alive, n_alive)
                r += 1
            if not exact:
                wsp[PW_STATS + 2] += n_roll * n_alive
            trick0 = set_up_world(rv, seat, pub, worlds[w], pos, base_ws, base_pub, base_mis, slog)
            if two:  # R-VAR-TWO: the world's piles, its face-down cards shuffled into them
                st = _deal_under(piles, worlds[w], base_ws, under, st)
            if EXACT:
                if exact:
                    _solve_world(rv, seat, sbuf, base_ws, base_pub, base_mis, slog, trick0, tr, pos, cand, n_legal,
                                 total, mult[w], wsp)
                    continue
            for _ in range(n_roll):
                rst, st = next_u64(st)
                for i in range(n_legal):
                    if (alive >> i) & 1 == 0:
                        continue
                    for k in range(WS_LEN):
                        sws[k] = base_ws[k]
                    for k in range(PUB_LEN):
                        spub[k] = base_pub[k]
                    for k in range(MAX_SEATS):
                        smis[k] = base_mis[k]
                    # the candidate card, as ``play._card_step`` plays it
                    c = cand[i]
                    bt, bs = card_bits(c)
                    sws[WS_HT + seat] ^= bt
                    sws[WS_HS + seat] ^= bs
                    if two:  # R-VAR-TWO: a face-up top leaves the tops (the deal kernel's own step)
                        take_top(seat, bt, bs, spub)
                    slog[L_CARDS + tr * MAX_SEATS + pos] = c
                    spub[PUB_TRICK_CARDS + pos] = c
                    if pos == 0:
                        spub[PUB_H_LEADER + tr] = seat
                    spub[PUB_H_CARDS + tr * MAX_SEATS + pos] = c
                    trick = add_to_trick(trick0, pos, c, bt, bs, seat, sws[WS_NEXT + seat])
                    rollout(rv, kinds, rparams, None, sub, sbuf, slog, tracing, np.int64(tr), np.int64(pos + 1),
                            trick, np.uint64(rst))
                    total[i] += mult[w] * slog[L_SCORES + seat]
        return cand[tzcnt(best_cards(total, n_legal, alive, 1))], st

    return build_name(pimc_card, "pimc" + ("_exact" if EXACT else "") + ("_infer" if INFER else ""))
