"""The deal kernel: one whole deal of French Tarot, from (seed, index) to the scores.

Follows docs/engine-contract.md step by step (R-DEAL … R-SCORE). Hands are two int64 masks
(trump word: bit 0 Excuse, bit t trump t; suit word: bit 14*suit + rank-1). Everything lives
in arrays the caller allocates once per thread: ``buf`` (workspace, public view for bots,
scorer arrays; ``new_buffer()``) and ``log`` (facts + record of the deal, ``layout.L_*``).
Nothing is allocated per deal; ``play_deal`` is compiled without NRT (no reference counting).

The deal is a short sequence of named steps (``_play``), each citing the rules it implements,
in the order of docs/engine-contract.md. The steps that ask a bot are built here (closures of
:func:`make_play`); the others are the rule steps of ``steps.py``, and the workspace they share
is laid out in ``workspace.py``:

===========================  ====================================================================
``seating``, ``new_deal``  dealer, 5d dummy, playing order (R-GEN-2, R-DEAL-6); facts' defaults
``deal_cards``              shuffle and deal (R-DEAL-1, R-DEAL-2)
``lay_piles``               table 2: 6 piles of 3 per player, tops face up (R-VAR-TWO)
``annul_petit_sec``               R-DEAL-4 (not at table 2)
``_auction``                 R-BID-1, R-BID-2, R-BID-3, or a forced contract
``_call``, ``set_sides``        R-CALL-1; partner and sides (R-CALL-2, R-GEN-3)
``_chien_and_ecart``         R-CHIEN-1, R-CHIEN-2, R-CHIEN-3, R-CHIEN-4
``_announce_chelem``         R-SLAM-1, leader of trick 1 (R-PLAY-1)
``_play_rest``               the tricks, then ``count_points`` and ``score_deal``:
``_first_turn``              poignée (R-POIG-1, R-POIG-2, R-POIG-3), misères (R-MIS-1); not at 2
``_card_step``               one card, any trick: R-PLAY-2, R-PLAY-3, R-PLAY-4a to R-PLAY-4e,
                             R-PLAY-5, R-EXC-1, R-CALL-4; table 2: ``take_top``
``turn_up_piles``           table 2, after each trick: the next card of a pile turns up
``close_trick``             winner, the Excuse (R-EXC-2, R-EXC-3, R-EXC-4), petit au bout
                             (R-PAB-1, R-PAB-2), the attack's pile (R-COUNT-1)
``count_points``                   R-COUNT-1, R-COUNT-2, R-EXC-5, R-SLAM-2
``score_deal``                   ``tarotsim.scoring.score_core`` (R-COUNT-3, R-COUNT-4, R-SCORE-1, ...)
===========================  ====================================================================

Table 2 (R-VAR-TWO) runs the same steps, selected by the table code (or by the build: ``TABLE2``
of :func:`make_play`): a seat's hand slots
(``WS_HT``, ``WS_HS``) hold what it may play, its hand and its face-up pile tops, so the duties of
R-PLAY-4 count them all and the card step of the other tables is unchanged; the piles are in the
workspace (``WS_STACK``, ``WS_HEIGHT``), the tops in the public view (``PUB_TOPS_*``), the dealt
piles in the log (``L_PILES``) and the chien and écart are made from the hand alone.

The steps are inlined (one compiled body per build), except ``_first_turn``: numba inlines by
copying the callee's IR at every level, so a big step nested in others is compiled again at each
level (BENCHMARKS.md, "Design measurements", has the figures behind these choices). The small
scalar helpers (``legal_masks``, ``after_card``, ``after_lead``, the random stream and bit tricks) are
``_bits.scalar``: compiled once, inlined by LLVM. A search gets an out-of-line ``_play_rest``. The
card loop holds no call at tricks 2 and later (trick 1, with its declarations, has a loop of its
own; table 2's piles give up their played tops after the trick): a call in the loop makes LLVM
keep the trick's state in memory.

What a deal carries between steps lives in the workspace (``WS_*``), the log and the public view;
only the trick being played is a tuple of locals. So ``_play_rest`` can finish a deal from any
card, for instance a position set up by a search.

The deal is built by a factory (:func:`make_play`): here for tables of random bots only
(:data:`play_random`, the engine's random player, with no bot typed or compiled;
:data:`play_random_two` at table 2, so that the piles' steps cost the other tables no compile
time); the package that owns the bots builds it with its dispatch (a
:class:`BotDispatch`), the public bookkeeping the bots read (``layout.PUB_*``) and an optional
decision trace (``tarotsim/_builds/``): the kernels never import the bots.
Batch kernels (``run_facts_random``, ``run_aggregate_random``, ``run_logs_random``, and the bots
builds' own) loop over deals inside numba and release the GIL, so ``tarotsim.runs.simulate`` can run
chunks on a thread pool.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from ..rules import (KERNEL_CHIEN_TO_ATTACK, KERNEL_ECART_MADE, RV_MISERE, RV_N_ACTIVE, RV_N_SEATS, RV_TABLE, TABLE_2,
                     TABLE_5)
from ..scoring import ST_LEN
from ._bits import at
from ._rng import below, stream_state, U_STREAM_BOTS
from .layout import (ACC_ALL_PASSED, ACC_ALONE, ACC_ATTACK_HP, ACC_BOT_ERRORS, ACC_CHELEM, ACC_DEALS, ACC_MADE,
                     ACC_MISERES, ACC_PAB_ATTACK, ACC_PAB_DEFENCE, ACC_PETIT_SEC, ACC_PLAYED, ACC_POIGNEES,
                     ACC_SCORE_SUM, ACC_TAKEN, ACC_TAKER_SCORE_SUM, DECL_CHELEM, L_ATTACK_HP, L_ATTACK_TRICKS, L_BID,
                     L_BID_SEAT, L_CALLED, L_CARDS, L_CHELEM, L_CONTRACT, L_DEALER, L_DIFFERENCE, L_ECART, L_INDEX,
                     L_LEN, L_MADE, L_N_BIDS, L_N_ECART, L_N_MISERES, L_OUDLERS, L_OUTCOME, L_PAB, L_PARTNER,
                     L_PETIT_SEC_SEAT, L_POIGNEE_ATTACK, L_POIGNEE_DEFENCE, L_SCORES, L_SLAM_ANNOUNCED, L_TAKER,
                     L_VALUE, MAX_SEATS, OUTCOME_ALL_PASSED, OUTCOME_BOT_ERROR, OUTCOME_PETIT_SEC, PUB_BIDS,
                     PUB_CHIEN_S, PUB_CHIEN_T, PUB_CONTRACT, PUB_ECART_T, PUB_H_CARDS, PUB_H_LEADER, PUB_HIGHEST,
                     PUB_LEN, PUB_MISERE_KINDS, PUB_SLAM, PUB_TAKER, PUB_TOPS_S, PUB_TOPS_T, PUB_TRICK_CARDS, U_ERR,
                     U_LEN)
from .masks import SW_KINGS, TW_T2_T20
from .random_player import random_bid, random_call, random_card_bits, random_ecart
from .steps import (add_to_trick, annul_petit_sec, callable_cards, close_trick, count_points, deal_cards, declare,
                    declare_misere, lay_piles, misere_eligible, new_bots_view, new_deal, open_trick, playable,
                    poignee_levels, score_deal, seating, set_called, set_sides, show_poignee, take_top,
                    trace_decision, track_trick, turn_up_piles)
from .workspace import (B_MISERES, B_PUB, B_SCORES, B_STEPS, B_USER, BUF_LEN, CHIEN_SIZE, N_TRICKS, new_buffer, TR_BID,
                        TR_CALL, TR_CARD, TR_CHELEM, TR_ECART, TR_MISERE, TR_POIGNEE, WS_CALLED, WS_ECART_T, WS_HS,
                        WS_HT, WS_LEN, WS_NEXT, WS_PILE_S, WS_PILE_T, WS_TAKER)


class BotDispatch(NamedTuple):
    """The bots' decision functions that the deal kernel calls, handed in by the bots' package.

    The bots' decisions as the deal kernel calls them (njit functions, signatures as
    ``bots.dispatch.bot_*``): what the package that owns the bots hands to :func:`make_play`,
    so that the engine never imports it."""

    bid: object
    call: object
    ecart: object
    chelem: object
    poignee: object
    misere: object
    card: object


class SearchDecisions(NamedTuple):
    """Decisions made with the deal's context, in place of a :class:`BotDispatch`'s (njit functions).

    What :func:`make_play` takes as ``DECIDE``: each is called as the :class:`BotDispatch`
    decision of the same name is, with ``rv``, ``kinds``, ``buf`` and ``log`` before ``bst`` (the
    poignée also with ``pos``, the cards already in the trick, after ``log``), so that it may read
    the rules, every seat's bot and a scratch in ``buf`` past ``BUF_LEN`` (the bid search's build,
    ``tarotsim/_builds/bid_search.py``)."""

    bid: object
    call: object
    ecart: object
    chelem: object
    poignee: object


def build_name(disp, tag):
    """Give one build's out-of-line closure a name of its own, so cached builds never clash.

    Give an out-of-line closure of one build of a factory its own name (``disp``: its njit
    dispatcher, not compiled yet). numba names a compiled function by its qualified name, its
    argument types and a counter of the process that compiled it: the same closure of two builds,
    compiled by two processes, could get one name, and with both loaded from the on-disk cache
    one build would run the other's code."""
    disp.py_func.__qualname__ = f"{disp.py_func.__qualname__}__{tag}"
    return disp


def _make_auction(POLICIES, TRACE, bot_bid, ask_bid=None):
    """The auction step of a build (:func:`make_play`): ``bot_bid`` (or ``ask_bid``) asks the bots."""

    @njit(inline="always")
    def _auction(rv, first, forced_seat, forced_contract, kinds, params, pol, ub, ws, pub, log, buf, tracing, bst):
        """Run the auction and return its taker and contract (R-BID-1, R-BID-2, R-BID-3).

        The auction (R-BID-1, R-BID-2, R-BID-3): each active seat once, in dealing order from
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
                if POLICIES and ask_bid is not None:
                    bid, bst = ask_bid(kinds[seat], params, pol, ub, seat, ws[WS_HT + seat], ws[WS_HS + seat], pub,
                                       highest, rv, kinds, buf, log, bst)
                elif POLICIES:
                    bid, bst = bot_bid(kinds[seat], params, pol, ub, seat, ws[WS_HT + seat], ws[WS_HS + seat], pub,
                                       highest, bst)
                else:
                    bid, bst = random_bid(highest, bst)
                if TRACE and tracing:
                    trace_decision(buf, TR_BID, seat, ws[WS_HT + seat], ws[WS_HS + seat], highest, 0, 0, 0, 0, 0, bid, 0,
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

    return _auction


def _make_call(POLICIES, TRACE, bot_call, ask_call=None):
    """The call step of a build (:func:`make_play`, table 5): ``bot_call`` (or ``ask_call``) asks the taker."""

    @njit(inline="always")
    def _call(rv, taker, kinds, params, pol, ub, ws, pub, log, buf, tracing, bst):
        """Table 5: the taker calls a card among those R-CALL-1 allows (``callable_cards``)."""
        ths = ws[WS_HS + taker]
        legal = callable_cards(ths)
        if POLICIES and ask_call is not None:
            b, bst = ask_call(kinds[taker], params, pol, ub, taker, ws[WS_HT + taker], ths, pub, legal, rv, kinds, buf,
                              log, bst)
        elif POLICIES:
            b, bst = bot_call(kinds[taker], params, pol, ub, taker, ws[WS_HT + taker], ths, pub, legal, bst)
        else:
            b, bst = random_call(legal, bst)
        if TRACE and tracing:
            trace_decision(buf, TR_CALL, taker, ws[WS_HT + taker], ths, legal, 0, 0, 0, 0, 0, b, 0, pub, 0)
        set_called(22 + b, ws, log, pub)
        return bst

    return _call


def _make_chien_and_ecart(POLICIES, TRACE, bot_ecart, ask_ecart=None):
    """The chien and écart step of a build (:func:`make_play`): ``bot_ecart`` (or ``ask_ecart``) asks the taker."""

    @njit(inline="always")
    def _chien_and_ecart(rv, taker, contract, chien_t, chien_s, kinds, params, pol, ub, ws, pub, log, buf, tracing,
                         bst):
        """The chien (R-CHIEN-1, R-CHIEN-2, R-CHIEN-3, R-CHIEN-4) and the start of the attack's pile.

        What the contract does with the chien is the contract table's (``rules.CONTRACT_TABLE``).
        Prise, garde (R-CHIEN-1): the chien is shown, joins the taker's hand, and the taker lays
        aside as many cards (the écart, the attack's). R-CHIEN-2: no king, no oudler; trumps
        (T2..T20, shown) only when the suit cards other than kings are too few; the bot gets
        those (``normal``) and the candidate trumps. Garde sans (R-CHIEN-3): the unseen chien is
        the attack's. Garde contre (R-CHIEN-4): it is the defence's, nothing to do.
        """
        if KERNEL_ECART_MADE[contract]:
            n_chien = CHIEN_SIZE[rv[RV_TABLE]]
            pub[PUB_CHIEN_T] = chien_t
            pub[PUB_CHIEN_S] = chien_s
            tht = ws[WS_HT + taker] | chien_t
            ths = ws[WS_HS + taker] | chien_s
            # the écart is made from the hand only (R-VAR-TWO): never a face-up pile top (0 but at 2)
            normal = ths & ~pub[PUB_TOPS_S + taker] & ~SW_KINGS
            trumps = tht & ~pub[PUB_TOPS_T + taker] & TW_T2_T20
            if POLICIES and ask_ecart is not None:
                ecart_t, ecart_s, bst = ask_ecart(kinds[taker], params, pol, ub, taker, tht, ths, pub, normal,
                                                  trumps, n_chien, log, L_ECART, rv, kinds, buf, log, bst)
            elif POLICIES:
                ecart_t, ecart_s, bst = bot_ecart(kinds[taker], params, pol, ub, taker, tht, ths, pub, normal,
                                                  trumps, n_chien, log, L_ECART, bst)
            else:
                ecart_t, ecart_s, bst = random_ecart(normal, trumps, n_chien, log, L_ECART, bst)
            if TRACE and tracing:
                trace_decision(buf, TR_ECART, taker, tht, ths, normal, trumps, n_chien, 0, 0, 0, ecart_t, ecart_s,
                       pub, 0)
            log[L_N_ECART] = n_chien
            ws[WS_HT + taker] = tht & ~ecart_t
            ws[WS_HS + taker] = ths & ~ecart_s
            pub[PUB_ECART_T] = ecart_t
            ws[WS_ECART_T] = ecart_t
            ws[WS_PILE_T] = ecart_t
            ws[WS_PILE_S] = ecart_s
        elif KERNEL_CHIEN_TO_ATTACK[contract]:
            ws[WS_PILE_T] = chien_t
            ws[WS_PILE_S] = chien_s
        return bst

    return _chien_and_ecart


def _make_announce_chelem(POLICIES, TRACE, bot_chelem, ask_chelem=None):
    """The chelem announcement step of a build (:func:`make_play`): ``bot_chelem`` (or ``ask_chelem``) asks the taker."""

    @njit(inline="always")
    def _announce_chelem(rv, first, kinds, params, pol, ub, ws, pub, log, buf, tracing, bst):
        """Let the taker announce a chelem and return who leads trick 1 (R-SLAM-1, R-PLAY-1).

        R-SLAM-1: the taker may announce a chelem, after the call and the écart; then he leads
        trick 1, else the first seat does (R-PLAY-1). Returns ``(leader of trick 1, bst)``."""
        taker = ws[WS_TAKER]
        if POLICIES and ask_chelem is not None:
            slam, bst = ask_chelem(kinds[taker], params, pol, ub, taker, ws[WS_HT + taker], ws[WS_HS + taker], pub, rv,
                                   kinds, buf, log, bst)
        elif POLICIES:
            slam, bst = bot_chelem(kinds[taker], params, pol, ub, taker, ws[WS_HT + taker], ws[WS_HS + taker], pub, bst)
        else:
            slam, bst = below(bst, np.int64(2))
        if TRACE and tracing:
            trace_decision(buf, TR_CHELEM, taker, ws[WS_HT + taker], ws[WS_HS + taker], 0, 0, 0, 0, 0, 0, slam, 0, pub, 0)
        log[L_SLAM_ANNOUNCED] = slam
        if slam:
            declare(log, ws, taker, DECL_CHELEM, 0, 0)
            pub[PUB_SLAM] = 1
            return taker, bst
        return first, bst

    return _announce_chelem


def _make_first_turn(POLICIES, TRACE, bot_poignee, bot_misere, TAG, ask_poignee=None):
    """The declarations at a seat's first turn (:func:`make_play`), out of line and named after the build ``TAG``: ``bot_poignee`` (or ``ask_poignee``), ``bot_misere`` ask the seat."""

    # out of line: called at most once per seat and deal, and it keeps the declarations out of
    # the card loop (inlined there, under ``if first``, they slow every card down)
    @njit(nogil=True, _nrt=False)
    def _first_turn(rv, seat, kinds, params, pol, buf, log, tracing, pos, bst):
        """Make a seat's first-turn declarations: its poignée, then its misères.

        The declarations of ``seat`` at its first turn to play, before its card: a poignée
        (R-POIG-1, R-POIG-2, R-POIG-3), then the misères if option ``misere`` is on (R-MIS-1)."""
        ws = buf[0:WS_LEN]
        pub = buf[B_PUB:B_PUB + PUB_LEN]
        miseres = buf[B_MISERES:B_MISERES + MAX_SEATS]
        ub = buf[B_USER:B_USER + U_LEN]
        ht = ws[WS_HT + seat]
        hs = ws[WS_HS + seat]
        kind = kinds[seat]
        n_lev, avail = poignee_levels(rv, seat, ht, ws)
        if POLICIES and ask_poignee is not None:
            lvl, bst = ask_poignee(kind, params, pol, ub, seat, ht, hs, pub, n_lev, rv, kinds, buf, log, pos, bst)
        elif POLICIES:
            lvl, bst = bot_poignee(kind, params, pol, ub, seat, ht, hs, pub, n_lev, bst)
        else:
            lvl, bst = below(bst, n_lev + 1)
        if TRACE and tracing:
            trace_decision(buf, TR_POIGNEE, seat, ht, hs, n_lev, 0, 0, 0, 0, 0, lvl, 0, pub, pos)
        if lvl > 0:
            show_poignee(rv, seat, lvl, avail, ws, pub, log)
        if rv[RV_MISERE]:
            for which in range(2):
                if misere_eligible(rv, which, ht, hs):
                    if POLICIES:
                        yes, bst = bot_misere(kind, params, pol, ub, seat, ht, hs, pub, which, bst)
                    else:
                        yes, bst = below(bst, np.int64(2))
                    if TRACE and tracing:
                        trace_decision(buf, TR_MISERE, seat, ht, hs, which, 0, 0, 0, 0, 0, yes, 0, pub, pos)
                    if yes:
                        declare_misere(seat, which, ws, pub, log, miseres)
                        if POLICIES:
                            pub[PUB_MISERE_KINDS + seat] |= np.int64(1) << which
        return bst

    return build_name(_first_turn, TAG)


def _make_card_step(POLICIES, TRACE, PILES, CARD, bot_card_bits, _first_turn):
    """The card step of a build (:func:`make_play`): ``CARD`` (or ``bot_card_bits``) asks the seat, ``_first_turn`` makes its declarations at trick 1."""

    @njit(inline="always")
    def _card_step(rv, kinds, params, pol, ub, ws, pub, log, miseres, buf, tracing, first, two, tr, pos, trick,
                   bst):
        """The card at position ``pos`` of trick ``tr`` (R-PLAY-2), the same step for every trick.

        ``first`` (trick 1): the seat first declares
        (``_first_turn``) and R-CALL-4 binds the lead. The legal cards are R-PLAY-3, R-PLAY-4a,
        R-PLAY-4b, R-PLAY-4c, R-PLAY-4d and R-PLAY-4e with R-EXC-1 and R-CALL-4 (``playable``); the card leaves
        the hand, joins the trick (log and public view) and updates the trick state
        (``add_to_trick``, R-PLAY-5). ``trick``: the tuple of ``open_trick``; returns the new one
        and ``bst``.
        """
        seat, fixed, fmask, amask = trick[0], trick[1], trick[2], trick[3]
        if first:
            bst = _first_turn(rv, seat, kinds, params, pol, buf, log, tracing, pos, bst)
        # what the seat may play (``WS_HT``, ``WS_HS``): its hand and, at table 2, its face-up pile
        # tops (R-VAR-TWO: every duty of R-PLAY-4 counts them all)
        ht = ws[at(WS_HT + seat)]
        hs = ws[at(WS_HS + seat)]
        lt, ls = playable(rv, ws, ht, hs, pos, fixed, fmask, amask, first)
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
            trace_decision(buf, TR_CARD, seat, ht, hs, lt, ls, fixed, fmask, amask, pos, c, 0, pub, pos)
        ws[at(WS_HT + seat)] = ht ^ bt
        ws[at(WS_HS + seat)] = hs ^ bs
        if PILES and two:  # R-VAR-TWO: a face-up pile top leaves the tops
            take_top(seat, bt, bs, pub)
        log[at(L_CARDS + tr * MAX_SEATS + pos)] = c
        pub[at(PUB_TRICK_CARDS + pos)] = c
        if POLICIES:  # the history, for a search (public: who led, what was played)
            if pos == 0:
                pub[PUB_H_LEADER + tr] = seat
            pub[PUB_H_CARDS + tr * MAX_SEATS + pos] = c
        return add_to_trick(trick, pos, c, bt, bs, seat, ws[at(WS_NEXT + seat)]), bst

    return _card_step


def _make_play_rest(POLICIES, PILES, ONLY_PILES, _card_step):
    """The rest of a deal from any card (:func:`make_play`), as a Python function: the build compiles it inlined, and out of line for a search."""

    def _play_rest(rv, kinds, params, pol, ub, buf, log, tracing, tr, pos, trick, bst):
        """Play the deal on from the card at position ``pos`` of trick ``tr``, then count and score it.

        Everything it reads is in the arrays (hands, sides, called card and R-CALL-4 ban,
        piles, declarations in the workspace ``WS_*``; the tricks so far in the log; the public
        view) but for the trick in progress, ``trick`` (``open_trick``'s tuple, after the
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
            winner, pab = close_trick(rv, ws, pub, log, tr, trick)
            if PILES and two:
                turn_up_piles(ws, pub)
            if POLICIES:
                track_trick(pub, log, ws, tr, na, ws[WS_CALLED], winner, trick[7], trick[8])
            if tr == last:
                break
            tr += 1
            pos = 0
            trick = open_trick(tr, winner, log, pub)
        attack_hp, oudlers, slam_side = count_points(rv, ws, log)
        score_deal(rv, attack_hp, oudlers, pab, slam_side, ws, pub, log, buf[B_STEPS:B_STEPS + ST_LEN],
               buf[B_SCORES:B_SCORES + MAX_SEATS], miseres)
        return bst

    return _play_rest


def make_play(BOTS=None, TRACE=False, CARD=None, parts=None, TABLE2=None, DECIDE=None):
    """Build the deal kernel for the bots ``BOTS``.

    The deal kernel, built for ``BOTS``: None when every seat plays ``random`` (the random
    player's rules, ``random_player.random_*``, are called directly and no bot is typed or
    compiled, so the random deal neither runs nor compiles any bot's code); otherwise a
    :class:`BotDispatch` (the ``bot_*`` dispatch on each seat's kind and the bots' public
    bookkeeping; ``tarotsim/_builds/deal.py`` builds it). ``TRACE`` adds the decision trace
    (``tarotsim._builds.deal.play_deal``, for the tests; the batch kernels do without it, and
    compile faster). Both are closure constants: numba prunes the branches on them before typing. ``pol``
    (the policy tuple) may be None when no seat plays a policy set: the user branch of the
    dispatch is pruned too.

    The steps that ask the bots are built by the ``_make_*`` factories (closures of these
    constants); each decision draws from the bots stream ``bst`` (passed and returned) and is
    appended to the trace when ``TRACE and tracing`` (``TRACE`` first: in an inlined step
    ``tracing`` is an argument, which numba cannot prune).

    ``CARD`` (bots build only): the card dispatch, None for ``BOTS.card``; otherwise an njit
    function called as ``BOTS.card`` is, with ``rv``, ``buf`` and ``log`` before ``bst`` (the
    ``pimc`` build, ``tarotsim/_builds/pimc.py``: it reads the seat's own écart from the log and keeps its
    scratch in ``buf`` past ``BUF_LEN``). ``DECIDE`` (bots build only): None for ``BOTS``' own bid,
    call, écart, chelem and poignée, or a :class:`SearchDecisions` that makes them instead (the
    bid search's build). ``parts``: a dict that receives the inner steps (``play_rest``, out of
    line: a search finishes sampled deals with it; ``auction``, ``call``, ``chien_and_ecart`` and
    ``announce_chelem``, inlined where they are called: a search plays sampled deals from the
    auction on with them).

    ``TABLE2``: the tables this build plays. None: any, table 2 (R-VAR-TWO) as ``rv`` says (the
    bots builds); False: every table but 2, whose steps (``lay_piles``, ``take_top``,
    ``turn_up_piles``) are pruned before typing, so they cost the random deal of the other
    tables no compile time; True: table 2 only.
    """
    POLICIES = BOTS is not None
    PILES = TABLE2 is not False  # closure constants, like POLICIES: the piles' steps are compiled
    ONLY_PILES = TABLE2 is True
    # this build's name, for its out-of-line closures (``build_name``)
    TAG = ("bots" if POLICIES else "random") + ("_traced" if TRACE else "") + (
        "" if CARD is None else "_" + CARD.py_func.__qualname__.rsplit(".", 1)[-1]) + (
        "" if TABLE2 is None else f"_table2_{TABLE2}") + ("" if DECIDE is None else "_" + DECIDE.bid.py_func.__name__)
    # closure constants; in the random build the branches that name them are pruned before typing
    bot_bid, bot_call, bot_ecart, bot_chelem, bot_poignee, bot_misere, bot_card_bits = (
        BOTS if POLICIES else (None,) * 7)
    # None in every build but the bid search's: the branches that name them are pruned before typing
    ask_bid, ask_call, ask_ecart, ask_chelem, ask_poignee = DECIDE if DECIDE is not None else (None,) * 5

    _auction = _make_auction(POLICIES, TRACE, bot_bid, ask_bid)
    _call = _make_call(POLICIES, TRACE, bot_call, ask_call)
    _chien_and_ecart = _make_chien_and_ecart(POLICIES, TRACE, bot_ecart, ask_ecart)
    _announce_chelem = _make_announce_chelem(POLICIES, TRACE, bot_chelem, ask_chelem)
    _first_turn = _make_first_turn(POLICIES, TRACE, bot_poignee, bot_misere, TAG, ask_poignee)
    _card_step = _make_card_step(POLICIES, TRACE, PILES, CARD, bot_card_bits, _first_turn)
    _play_rest = _make_play_rest(POLICIES, PILES, ONLY_PILES, _card_step)

    if parts is not None:
        # a search finishes its sampled deals with an out-of-line copy: one compiled body that the
        # pimc build calls per rollout (compiled only with that build)
        parts["play_rest"] = build_name(njit(nogil=True, _nrt=False)(_play_rest), TAG)
        # and plays sampled deals from the auction on with the very steps of the deal (inlined)
        parts.update(auction=_auction, call=_call, chien_and_ecart=_chien_and_ecart,
                     announce_chelem=_announce_chelem)
    if DECIDE is not None and parts is not None:
        # the bid search's build calls that copy: its searches cost a deal far more than the call,
        # and one compiled body then serves the deal and the loops that play its steps (``tracing``
        # as a plain bool, their signature: a literal one would compile the copy twice)
        rest = parts["play_rest"]

        @njit(inline="always")
        def _play_rest(rv, kinds, params, pol, ub, buf, log, tracing, tr, pos, trick, bst):
            return rest(rv, kinds, params, pol, ub, buf, log, np.bool_(tracing), tr, pos, trick, bst)
    else:
        # Inlined into ``_play`` in every other build: the deal runs faster so than calling it out
        # of line, for a longer compile (BENCHMARKS.md, "Design measurements").
        _play_rest = njit(inline="always")(_play_rest)

    # _nrt=False: the deal allocates nothing, and without NRT numba emits no reference counting
    # of the nine array arguments, a good part of the time of a deal.
    @njit(nogil=True, _nrt=False)
    def _play(rv, seed, index, forced_seat, forced_contract, kinds, params, pol, log, buf):
        """Play one deal of this build, step by step.

        :func:`play_deal` (this build: ``POLICIES`` of :func:`make_play`): the steps of
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

        dealer, dummy, first = seating(rv, index, ws)
        new_deal(rv, index, forced_seat, dealer, dummy, ws, pub, log, miseres)
        if POLICIES:
            new_bots_view(rv, pub)
        chien_t, chien_s = deal_cards(rv, seed, index, first, ws, log)
        if PILES and (ONLY_PILES or rv[RV_TABLE] == TABLE_2):
            lay_piles(rv, first, ws, pub, log)
        if annul_petit_sec(rv, first, ws, log):
            return
        bst = stream_state(seed, np.uint64(index), U_STREAM_BOTS)
        taker, contract, bst = _auction(rv, first, forced_seat, forced_contract, kinds, params, pol, ub, ws, pub, log,
                                        buf, tracing, bst)
        if taker < 0:
            return
        if rv[RV_TABLE] == TABLE_5:
            bst = _call(rv, taker, kinds, params, pol, ub, ws, pub, log, buf, tracing, bst)
        bst = _chien_and_ecart(rv, taker, contract, chien_t, chien_s, kinds, params, pol, ub, ws, pub, log, buf,
                               tracing, bst)
        set_sides(rv, taker, ws, log)
        leader, bst = _announce_chelem(rv, first, kinds, params, pol, ub, ws, pub, log, buf, tracing, bst)
        trick = open_trick(np.int64(0), leader, log, pub)
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
#: (R-VAR-TWO), whose piles would lengthen the others' cold start.
play_random = make_play(TABLE2=False)
play_random_two = make_play(TABLE2=True)


@njit(inline="always")
def store_facts(log, out, i):
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
def accumulate_deal(log, acc, n):
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


@njit(cache=True, nogil=True)
def facts_of_logs(logs, out, first):
    """Store the facts of the deals ``logs`` (int64[n, L_LEN]) into rows ``first ..`` of ``out``.

    As a facts loop does, it stops after a deal whose outcome is ``bot_error``, and returns
    whether it did (a build whose one batch kernel gives logs: ``tarotsim._builds.pimc``)."""
    for i in range(logs.shape[0]):
        store_facts(logs[i], out, first + i)
        if logs[i, L_OUTCOME] == OUTCOME_BOT_ERROR:
            return True
    return False


@njit(cache=True, nogil=True)
def aggregate_logs(logs, acc, n):
    """Add the deals ``logs`` (int64[n_deals, L_LEN]) into the aggregate ``acc`` (``ACC_*``), ``n`` seats.

    As an aggregate loop does, it stops after a deal whose outcome is ``bot_error``, and returns
    whether it did."""
    for i in range(logs.shape[0]):
        accumulate_deal(logs[i], acc, n)
        if logs[i, L_OUTCOME] == OUTCOME_BOT_ERROR:
            return True
    return False


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
            play_random(rv, seed, start + i, forced_seat, forced_contract, kinds, params, None, log, buf)
        if two is not None:
            play_random_two(rv, seed, start + i, forced_seat, forced_contract, kinds, params, None, log, buf)
        store_facts(log, out, i)


@njit(cache=True, nogil=True)
def run_aggregate_random(rv, seed, start, count, forced_seat, forced_contract, kinds, params, acc, not_two, two):
    buf = new_buffer()
    log = np.zeros(L_LEN, dtype=np.int64)
    for i in range(count):
        if not_two is not None:
            play_random(rv, seed, start + i, forced_seat, forced_contract, kinds, params, None, log, buf)
        if two is not None:
            play_random_two(rv, seed, start + i, forced_seat, forced_contract, kinds, params, None, log, buf)
        accumulate_deal(log, acc, rv[RV_N_SEATS])


@njit(cache=True, nogil=True)
def run_logs_random(rv, seed, indices, forced_seat, forced_contract, kinds, params, logs, not_two, two):
    buf = new_buffer()
    for i in range(indices.shape[0]):
        if not_two is not None:
            play_random(rv, seed, indices[i], forced_seat, forced_contract, kinds, params, None, logs[i], buf)
        if two is not None:
            play_random_two(rv, seed, indices[i], forced_seat, forced_contract, kinds, params, None, logs[i], buf)
