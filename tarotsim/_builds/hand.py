"""The hand-level bidding study's loops (private): one hand's contracts played over worlds of the other cards.

The loops of the hand-level bidding study (the facade is ``tarotsim.runs.hand_study``).

One seat's hand is given. Deal ``index`` of a run is a world of the other cards (the other
hands and the chien), drawn uniformly among those that agree with the hand (the exact sampler,
``worlds.derive`` and ``worlds.sample_worlds``, from the cards stream of ``(seed, index)``: the
same world whatever the chunks and threads), then played once per studied contract with that
seat forced as taker (the others pass, R-BID-3), the bots playing everything else from the
deal's bots stream, on the bots build or, when a seat plays ``pimc``, the bid-search build (the
steps of the build: ``parts``, played by ``bots.bid_search.make_from_auction``; it plays a
``pimc`` seat without ``bid_search`` as the pimc build does, so one loop serves both). So the
contracts are compared on the same worlds, as in the study of dealt hands.

Totals are integer sums (``acc`` int64[N_CONTRACTS, H_LEN] per contract: plays, made, the taker's score and
its square, the paired difference with the next lower studied contract, passing counted 0, and
its square); ``misc`` int64[2]: the deals studied, and 1 + the index of a deal whose policy set
chose what the rules forbid (0: none; the loop stops there).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarotsim._kernels._cache import guard_cache
from tarotsim._kernels._rng import U_STREAM_BOTS, U_STREAM_CARDS, stream_state
from tarotsim._kernels.play import build_name
from tarotsim._kernels.layout import (L_LEN, L_MADE, L_SCORES, MAX_SEATS, PUB_BIDS, PUB_CALLED, PUB_CONTRACT,
                                      PUB_DEALER, PUB_DUMMY, PUB_HIGHEST, PUB_LEN, PUB_TAKER, U_ERR, U_LEN)
from tarotsim._kernels.workspace import B_MISERES, B_PUB, B_USER, WS_LEN, new_buffer
from tarotsim._kernels.worlds import (C_LEN, K_CALLED, K_CONTRACT, K_DEALER, K_HAND_S, K_HAND_T, K_LEN, K_SEAT,
                                      K_STAGE, K_TAKER, OK, STAGE_AUCTION, derive, new_workspace, sample_worlds)
from tarotsim.rules import N_CONTRACTS, RV_TABLE, TABLE_5D

from bots.bid_search import deal_world, make_from_auction

from . import sources
from .deal import BOTS_PARTS
from .bid_search import BID_SEARCH_FULL_PARTS, BID_SEARCH_PARTS, new_bid_search_buffer

#: per contract: plays, made, score, score², paired difference, difference²
H_N, H_MADE, H_S, H_S2, H_D, H_D2 = range(6)
H_LEN = 6
M_DEALS, M_ERROR = range(2)
M_LEN = 2


@njit(inline="always")
def _hand_knowledge(seat, dealer, ht, hs, know):
    """The seat's knowledge before the first bid: its hand and the dealer (``worlds.K_*``)."""
    for i in range(K_LEN):
        know[i] = 0
    know[K_SEAT] = seat
    know[K_DEALER] = dealer
    know[K_STAGE] = STAGE_AUCTION
    know[K_TAKER] = -1
    know[K_CONTRACT] = -1
    know[K_CALLED] = -1
    know[K_HAND_T] = ht
    know[K_HAND_S] = hs


@njit(inline="always")
def _empty_view(rv, dealer, pub):
    """The public view before the first bid, as :func:`bots.bid_search.deal_world` copies it."""
    for i in range(PUB_LEN):
        pub[i] = 0
    pub[PUB_DEALER] = dealer
    pub[PUB_DUMMY] = dealer if rv[RV_TABLE] == TABLE_5D else -1
    pub[PUB_TAKER] = -1
    pub[PUB_CONTRACT] = -1
    pub[PUB_CALLED] = -1
    pub[PUB_HIGHEST] = -1
    for s in range(MAX_SEATS):
        pub[PUB_BIDS + s] = -2


def _make_loop(parts, new_buf, tag):
    """The loop of :func:`run_hand_bots` / :func:`run_hand_search` over one build's steps.

    Out of line, named for its build (``play.build_name``)."""
    auction = parts["auction"]
    _, from_auction = make_from_auction(parts, "hand_" + tag)

    def run(rv, seed, start, count, seat, dealer, ht, hs, kinds, params, pol, contracts, acc, misc):
        buf = new_buf()
        log = np.zeros(L_LEN, dtype=np.int64)
        know = np.zeros(K_LEN, dtype=np.int64)
        cons = np.zeros(C_LEN, dtype=np.int64)
        wf, wi = new_workspace()
        row = np.zeros((1, 78), dtype=np.int8)
        pub0 = np.zeros(PUB_LEN, dtype=np.int64)
        _empty_view(rv, dealer, pub0)
        _hand_knowledge(seat, dealer, ht, hs, know)
        if derive(rv, know, cons) != OK:
            return
        ws = buf[0:WS_LEN]
        pub = buf[B_PUB:B_PUB + PUB_LEN]
        mis = buf[B_MISERES:B_MISERES + MAX_SEATS]
        ub = buf[B_USER:B_USER + U_LEN]
        tracing = np.bool_(False)
        for i in range(count):
            index = start + i
            misc[M_DEALS] += 1
            status, _ = sample_worlds(cons, stream_state(seed, np.uint64(index), U_STREAM_CARDS), row, wf, wi)
            if status != OK:
                return
            prev = np.int64(0)  # passing scores 0
            for c in range(N_CONTRACTS):
                if contracts[c] == 0:
                    continue
                first, chien_t, chien_s = deal_world(rv, pub0, row[0], ws, pub, log, mis)
                ub[U_ERR] = 0
                bst = stream_state(seed, np.uint64(index), U_STREAM_BOTS)
                taker, contract, bst = auction(rv, first, seat, np.int64(c), kinds, params, pol, ub, ws, pub, log,
                                               buf, tracing, bst)
                from_auction(rv, first, taker, contract, chien_t, chien_s, kinds, params, pol, buf, log, bst)
                if ub[U_ERR] != 0:
                    misc[M_ERROR] = index + 1
                    return
                score = log[L_SCORES + seat]
                d = score - prev
                prev = score
                acc[c, H_N] += 1
                acc[c, H_MADE] += log[L_MADE]
                acc[c, H_S] += score
                acc[c, H_S2] += score * score
                acc[c, H_D] += d
                acc[c, H_D2] += d * d

    return build_name(njit(nogil=True)(run), tag)


_loop_bots = _make_loop(BOTS_PARTS, new_buffer, "bots")
_loop_search = _make_loop(BID_SEARCH_PARTS, new_bid_search_buffer, "bid_search")
_loop_search_full = _make_loop(BID_SEARCH_FULL_PARTS, new_bid_search_buffer, "bid_search_full")


@njit(cache=True, nogil=True)
def run_hand_bots(rv, seed, start, count, seat, dealer, ht, hs, kinds, params, pol, contracts, acc, misc):
    """Study a range of deals of one hand on the bots build.

    Study deals ``start .. start + count - 1`` of the hand ``ht``, ``hs`` of ``seat`` (the
    module docstring) on the bots build, adding into ``acc`` (int64[N_CONTRACTS, H_LEN]) and ``misc``
    (int64[M_LEN]); ``contracts``: int64[N_CONTRACTS], 1 for each contract to play."""
    _loop_bots(rv, seed, start, count, seat, dealer, ht, hs, kinds, params, pol, contracts, acc, misc)


@njit(cache=True, nogil=True)
def run_hand_search(rv, seed, start, count, seat, dealer, ht, hs, kinds, params, pol, contracts, acc, misc):
    """:func:`run_hand_bots` on the bid-search build (a seat plays ``pimc``, with ``bid_search`` or not)."""
    _loop_search(rv, seed, start, count, seat, dealer, ht, hs, kinds, params, pol, contracts, acc, misc)


@njit(cache=True, nogil=True)
def run_hand_search_full(rv, seed, start, count, seat, dealer, ht, hs, kinds, params, pol, contracts, acc, misc):
    """:func:`run_hand_search` on the full card search (a ``pimc`` seat sets ``exact_from`` or ``infer``)."""
    _loop_search_full(rv, seed, start, count, seat, dealer, ht, hs, kinds, params, pol, contracts, acc, misc)


@njit(cache=True, nogil=True)
def hand_worlds(rv, seed, indices, seat, dealer, ht, hs, out):
    """The worlds the loops play, for the tests' slow twin.

    The worlds the loops play: ``out[i]`` (int8[78], ``sample_worlds``'s locations) for deal
    ``indices[i]``; returns the status (``worlds.OK`` or an error code). For the tests' slow twin."""
    know = np.zeros(K_LEN, dtype=np.int64)
    cons = np.zeros(C_LEN, dtype=np.int64)
    wf, wi = new_workspace()
    _hand_knowledge(seat, dealer, ht, hs, know)
    status = derive(rv, know, cons)
    for i in range(indices.shape[0]):
        if status == OK:
            status, _ = sample_worlds(cons, stream_state(seed, np.uint64(indices[i]), U_STREAM_CARDS),
                                      out[i:i + 1], wf, wi)
    return status


# the cache guard (``tarotsim._kernels._cache``): these kernels inline the engine and the policies
guard_cache("builds-hand", (run_hand_bots, run_hand_search, run_hand_search_full, hand_worlds), sources())
