"""The bidding study's batch loops over the bots' builds (private).

The bidding study's batch loops (private; the facade is ``tarotsim.runs.study``, the steps and the
accumulators' layout ``tarotsim._kernels.study``).

Every deal of a chunk is played once per studied contract with the studied seat forced as taker,
on the bots build of the deal kernel (``deal._play_bots``) or, when a seat plays ``pimc``, on
a pimc build (``pimc._play_pimc``, or ``pimc._play_pimc_full`` for ``exact_from`` or ``infer``); the studied hand is counted with the heuristic's
``evaluate``. They live with the builds because they play the bots: the kernels never import
them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarotsim._kernels._cache import guard_cache
from tarotsim._kernels.layout import L_HAND_S, L_HAND_T, L_LEN, L_PILES, PILE_CARDS
from tarotsim.rules import PILE_DEPTH, RV_TABLE, TABLE_2
from tarotsim._kernels.workspace import new_buffer
from tarotsim._kernels.study import M_DEALS, N_CONTRACTS, _add_deal, _bot_erred, _keep_play, _studied_seat

from bots.heuristic import bid_counts, evaluate

from . import sources
from .deal import _play_bots
from .pimc import _play_pimc, _play_pimc_full, new_pimc_buffer


@njit(inline="always")
def _count_hand(ok, eval_params, seat, log):
    """Count the studied seat's dealt hand with the heuristic.

    The heuristic's counts of the studied seat's dealt hand (``bots.heuristic.bid_counts``):
    ``(count, count without an écart)``; zeros when the deal was annulled."""
    if not ok:
        return 0.0, 0.0
    pts, voids = evaluate(eval_params, seat, log[L_HAND_T + seat], log[L_HAND_S + seat])
    return bid_counts(pts, voids)


@njit(inline="always")
def _seen_at_bid(rv, seat, log):
    """Add the studied seat's face-up pile tops to its logged hand, at table 2.

    Table 2 (R-VAR-TWO): the studied seat counts the cards it sees as its own when it bids, its
    hand and its face-up pile tops (as ``tarotsim.runs.study`` counts them); into the log's hand slots."""
    if rv[RV_TABLE] == TABLE_2:
        for p in range(PILE_CARDS // PILE_DEPTH):
            c = log[L_PILES + seat * PILE_CARDS + PILE_DEPTH * p + PILE_DEPTH - 1]
            if c < 22:
                log[L_HAND_T + seat] |= np.int64(1) << c
            else:
                log[L_HAND_S + seat] |= np.int64(1) << (c - 22)


def make_study_loop(play, new_buf):
    """Build the bidding study's loop over one build's deal kernel ``play`` (buffers from ``new_buf``).

    An inlined njit function with :func:`run_study`'s arguments: every deal of the chunk played
    once per studied contract with the studied seat forced as taker (the others pass), its hand
    counted and the plays added into the accumulators."""

    @njit(inline="always")
    def study(rv, seed, start, count, kinds, params, pol, eval_params, contracts, acc_bin, acc_oud, misc, bad):
        buf = new_buf()
        log = np.zeros(L_LEN, dtype=np.int64)
        score = np.zeros(N_CONTRACTS, dtype=np.int64)
        made = np.zeros(N_CONTRACTS, dtype=np.int64)
        for i in range(count):
            index = start + i
            seat = _studied_seat(rv, index, misc)
            ok = True
            for c in range(N_CONTRACTS):
                if contracts[c] != 0:
                    # the deal kernel, forced: ``seat`` takes contract ``c``, the others pass
                    play(rv, seed, index, seat, c, kinds, params, pol, log, buf)
                    if _bot_erred(log, index, c, bad):
                        return
                    ok = _keep_play(log, seat, c, score, made)
                    if not ok:
                        break
            _seen_at_bid(rv, seat, log)
            count, count_no_ecart = _count_hand(ok, eval_params, seat, log)
            _add_deal(ok, count, count_no_ecart, seat, log, contracts, score, made, acc_bin, acc_oud, misc)

    return study


_study_bots = make_study_loop(_play_bots, new_buffer)
_study_pimc = make_study_loop(_play_pimc, new_pimc_buffer)
_study_pimc_full = make_study_loop(_play_pimc_full, new_pimc_buffer)


@njit(cache=True, nogil=True)
def run_study(rv, seed, start, count, kinds, params, pol, eval_params, contracts, acc_bin, acc_oud, misc, bad):
    """Study deals ``start .. start + count - 1``, adding into the accumulators.

    Parameters
    ----------
    rv : int64[RV_LEN]
        The rules vector (``Rules.to_vector``).
    seed : uint64
        The run's seed.
    start, count : int64
        The first deal index and the number of deals.
    kinds : int64[n_seats]
        Bot kind per seat (``layout.BOT_*``).
    params : float64[n_seats, N_BOT_PARAMS]
        Bot parameters per seat (row = seat).
    pol : UniTuple(FunctionType, MAX_SEATS * 7)
        The policy tuple of the deal kernel (``bots.policy.policy_tuple``).
    eval_params : float64[n_seats, N_BOT_PARAMS]
        Per seat, the ``heuristic`` parameter row whose count is studied (the seat's own when it
        plays ``heuristic``, else the heuristic defaults).
    contracts : int64[N_CONTRACTS]
        1 for each contract (0 prise .. 3 garde contre) to play, else 0; at least one.
    acc_bin : int64[N_CONTRACTS, N_BINS, N_FIELDS]
        Per contract and bin of its count (see the module docstring), modified in place.
    acc_oud : int64[N_CONTRACTS, 4, N_FIELDS]
        Per contract and number of oudlers in the hand, modified in place.
    misc : int64[M_LEN]
        Deals, annulled, played; modified in place.
    bad : int64[BAD_LEN]
        Set to the deal and contract in which a policy set chose what the rules forbid; the loop
        stops there (``-1`` left when none).
    """
    _study_bots(rv, seed, start, count, kinds, params, pol, eval_params, contracts, acc_bin, acc_oud, misc, bad)


@njit(cache=True, nogil=True)
def add_played_deal(ok, eval_params, seat, log, contracts, score, made, acc_bin, acc_oud, misc):
    """Add one deal played elsewhere to the study's accumulators.

    What :func:`run_study` adds for one deal whose plays were made elsewhere (the step-by-step
    twin of table 2, R-VAR-TWO, ``tarotsim.runs.study._study_slow``): ``log`` holds the studied seat's hand at ``L_HAND_T/S + seat``,
    ``score`` and ``made`` its plays per contract, ``ok`` False for an annulled deal."""
    misc[M_DEALS] += 1
    count, count_no_ecart = _count_hand(ok, eval_params, seat, log)
    _add_deal(ok, count, count_no_ecart, seat, log, contracts, score, made, acc_bin, acc_oud, misc)


@njit(cache=True, nogil=True)
def run_study_pimc(rv, seed, start, count, kinds, params, pol, eval_params, contracts, acc_bin, acc_oud, misc,
                   bad):
    """Run the bidding study on the pimc build.

    :func:`run_study` when a seat plays ``pimc``: the same plays on the pimc build of the deal
    kernel (``pimc._play_pimc``, whose buffer carries the search's scratch)."""
    _study_pimc(rv, seed, start, count, kinds, params, pol, eval_params, contracts, acc_bin, acc_oud, misc, bad)


@njit(cache=True, nogil=True)
def run_study_pimc_full(rv, seed, start, count, kinds, params, pol, eval_params, contracts, acc_bin, acc_oud, misc,
                        bad):
    """Run the bidding study on the full pimc build (a pimc seat with ``exact_from`` or ``infer``)."""
    _study_pimc_full(rv, seed, start, count, kinds, params, pol, eval_params, contracts, acc_bin, acc_oud, misc,
                     bad)


#: The study's batch kernel by build (``runs.build``): the bots build's for the random and bots builds.
STUDY_KERNELS = {"random": run_study, "bots": run_study, "pimc": run_study_pimc, "pimc_full": run_study_pimc_full}


# the cache guard (``tarotsim._kernels._cache``): these kernels inline the engine and the policies
guard_cache("builds-study", (run_study, run_study_pimc, run_study_pimc_full, add_played_deal), sources())
