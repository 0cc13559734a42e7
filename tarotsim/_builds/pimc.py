"""The deal kernel's ``pimc`` build (private): the bots build with the search as its card
dispatch (``bots.search._card_pimc``) and the bid search's decisions (``bots.bid_search.SEARCH``:
the bid, call, écart, chelem and poignée of a seat with ``bid_search`` on), its batch kernels, and
the card search as one compiled call for the slow path.

Compiled only when a seat plays ``pimc``. The searches' scratch (``bots.search.PW_*``,
``PIMC_LEN`` int64, then ``bots.bid_search.BS_*``, ``BID_LEN``) follows the deal kernel's buffer
(``buf[BUF_LEN:]``); the batch kernels allocate it once per chunk (:func:`new_pimc_buffer`).
:data:`PIMC_PARTS` holds the build's inner steps (the hand-level study plays its deals with them).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarotsim._kernels._cache import guard_cache
from tarotsim._kernels.layout import L_LEN, L_OUTCOME, OUTCOME_BOT_ERROR
from tarotsim._kernels.play import accumulate_deal, make_play, store_facts
from tarotsim._kernels.workspace import BUF_LEN
from tarotsim.rules import RV_N_SEATS

from bots.bid_search import BID_LEN, SEARCH
from bots.dispatch import DISPATCH
from bots.search import PIMC_LEN, PW_STATS, _card_pimc, pimc_card

from . import sources


@njit(cache=True, nogil=True)
def new_pimc_buffer():
    """A deal buffer with the searches' scratch after it (``workspace.new_buffer`` + :data:`PIMC_LEN` +
    ``bid_search.BID_LEN``)."""
    return np.zeros(BUF_LEN + PIMC_LEN + BID_LEN, dtype=np.int64)


#: The deal kernel's pimc build (the bots build with :func:`_card_pimc` as its card dispatch and the
#: bid search's decisions), and its inner steps.
PIMC_PARTS: dict = {}
_play_pimc = make_play(DISPATCH, CARD=_card_pimc, DECIDE=SEARCH, parts=PIMC_PARTS)


# --- batch kernels of the pimc build (as ``_deal.run_*_bots``) -----------------------------------

@njit(cache=True, nogil=True)
def run_facts_pimc(rv, seed, start, forced_seat, forced_contract, kinds, params, pol, out):
    buf = new_pimc_buffer()
    log = np.zeros(L_LEN, dtype=np.int64)
    for i in range(out.shape[0]):
        _play_pimc(rv, seed, start + i, forced_seat, forced_contract, kinds, params, pol, log, buf)
        store_facts(log, out, i)
        if log[L_OUTCOME] == OUTCOME_BOT_ERROR:
            return


@njit(cache=True, nogil=True)
def run_aggregate_pimc(rv, seed, start, count, forced_seat, forced_contract, kinds, params, pol, acc):
    buf = new_pimc_buffer()
    log = np.zeros(L_LEN, dtype=np.int64)
    for i in range(count):
        _play_pimc(rv, seed, start + i, forced_seat, forced_contract, kinds, params, pol, log, buf)
        accumulate_deal(log, acc, rv[RV_N_SEATS])
        if log[L_OUTCOME] == OUTCOME_BOT_ERROR:
            return


@njit(cache=True, nogil=True)
def run_logs_pimc(rv, seed, indices, forced_seat, forced_contract, kinds, params, pol, logs):
    buf = new_pimc_buffer()
    for i in range(indices.shape[0]):
        _play_pimc(rv, seed, indices[i], forced_seat, forced_contract, kinds, params, pol, logs[i], buf)


@njit(cache=True, nogil=True)
def run_stats_pimc(rv, seed, start, count, kinds, params, acc, stats):
    """``run_aggregate_pimc`` (no forced contract, no policy set) that also adds the search's
    counters into ``stats`` (int64[3]: decisions searched, worlds sampled, rollouts played), for
    ``benchmarks/search.py``."""
    buf = new_pimc_buffer()
    log = np.zeros(L_LEN, dtype=np.int64)
    for i in range(count):
        _play_pimc(rv, seed, start + i, np.int64(-1), np.int64(0), kinds, params, None, log, buf)
        accumulate_deal(log, acc, rv[RV_N_SEATS])
    for k in range(3):
        stats[k] += buf[BUF_LEN + PW_STATS + k]


@njit(cache=True, nogil=True)
def decide_pimc_card(rv, params, seat, ht, hs, pub, ecart_t, ecart_s, lt, ls, pos, piles, st):
    """:func:`pimc_card` for the slow path (``tarotsim.adapters.FastBotAdapter``): ``(card, state)``;
    ``piles``: :func:`pile_vector` of the seat's view (table 2)."""
    wsp = np.zeros(PIMC_LEN, dtype=np.int64)
    return pimc_card(rv, params, seat, ht, hs, pub, ecart_t, ecart_s, lt, ls, pos, piles, st, wsp)


# the cache guard (``tarotsim._kernels._cache``): these kernels inline the engine and the policies
guard_cache("builds-pimc", (new_pimc_buffer, run_facts_pimc, run_aggregate_pimc, run_logs_pimc, run_stats_pimc,
                            decide_pimc_card), sources())
