"""The deal kernel's ``pimc`` build (private): the bots with the search as their card decision.

The deal kernel's ``pimc`` build (private): the bots build with the search
(``bots.search.make_search``) as its card dispatch, its batch kernels, and the search as one
compiled call for the slow path.

The search finishes its sampled deals with the bots build's ``_play_rest`` (its rollouts:
random, greedy and heuristic seats only), handed to it here.

Compiled only when a seat plays ``pimc``. The search's scratch (``bots.search.PW_*``,
``PIMC_LEN`` int64) follows the deal kernel's buffer (``buf[BUF_LEN:]``); the batch kernels
allocate it once per chunk (:func:`new_pimc_buffer`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarotsim._kernels._cache import guard_cache
from tarotsim._kernels.layout import (BOT_PIMC, L_ECART, L_LEN, L_N_ECART, L_OUTCOME, OUTCOME_BOT_ERROR, PUB_CONTRACT,
                                      PUB_TAKER)
from tarotsim._kernels.masks import card_bits
from tarotsim._kernels.play import accumulate_deal, make_play, store_facts
from tarotsim._kernels.workspace import BUF_LEN, WS_LEN
from tarotsim.rules import KERNEL_ECART_MADE, RV_N_SEATS

from bots.dispatch import DISPATCH, bot_card_bits
from bots.search import (IW_STATS, N_STATS, PILES_LEN, PIMC_LEN, PW_INFER, PW_PILES, PW_STATS, make_search,
                         public_piles)

from . import sources
from .deal import BOTS_PARTS

#: The search, its rollouts finishing a deal with the bots build's ``_play_rest`` (random, greedy,
#: heuristic only).
pimc_card = make_search(BOTS_PARTS["play_rest"])


@njit(cache=True, nogil=True)
def new_pimc_buffer():
    """A deal buffer with the search's scratch after it (``workspace.new_buffer`` + :data:`PIMC_LEN`)."""
    return np.zeros(BUF_LEN + PIMC_LEN, dtype=np.int64)


@njit(nogil=True, _nrt=False)
def _card_pimc(kind, params, pol, ub, seat, ht, hs, pub, lt, ls, fixed, fmask, amask, pos, rv, buf, log, st):
    """The pimc build's card dispatch: the search for a ``pimc`` seat, the bots' dispatch otherwise.

    The card dispatch of the pimc build: :func:`pimc_card` for a ``pimc`` seat (its own écart
    from the log when it is the taker at prise or garde), ``bots.dispatch.bot_card_bits`` otherwise."""
    if kind == BOT_PIMC:
        et = np.int64(0)
        es = np.int64(0)
        if seat == pub[PUB_TAKER] and KERNEL_ECART_MADE[pub[PUB_CONTRACT]]:
            for i in range(log[L_N_ECART]):
                bt, bs = card_bits(log[L_ECART + i])
                et |= bt
                es |= bs
        wsp = buf[BUF_LEN:BUF_LEN + PIMC_LEN]
        piles = wsp[PW_PILES:PW_PILES + PILES_LEN]
        public_piles(rv, buf[0:WS_LEN], pub, piles)
        c, st = pimc_card(rv, params, seat, ht, hs, pub, et, es, lt, ls, pos, piles, st, wsp)
        bt, bs = card_bits(c)
        return c, bt, bs, st
    return bot_card_bits(kind, params, pol, ub, seat, ht, hs, pub, lt, ls, fixed, fmask, amask, pos, st)


#: The deal kernel's pimc build (the bots build with :func:`_card_pimc` as its card dispatch).
_play_pimc = make_play(DISPATCH, CARD=_card_pimc)


# --- batch kernels of the pimc build (as ``deal.run_*_bots``) ------------------------------------

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
    """Run the pimc build's aggregate and count the search's work into ``stats``.

    ``run_aggregate_pimc`` (no forced contract, no policy set) that also adds the search's
    counters into ``stats`` (int64[3]: decisions searched, worlds sampled, rollouts played; a
    longer ``stats`` gets the weighing's counters after them, ``bots.inference.ST_*``), for
    ``benchmarks/search.py``."""
    buf = new_pimc_buffer()
    log = np.zeros(L_LEN, dtype=np.int64)
    for i in range(count):
        _play_pimc(rv, seed, start + i, np.int64(-1), np.int64(0), kinds, params, None, log, buf)
        accumulate_deal(log, acc, rv[RV_N_SEATS])
    for k in range(3):
        stats[k] += buf[BUF_LEN + PW_STATS + k]
    for k in range(min(stats.shape[0] - 3, N_STATS)):
        stats[3 + k] += buf[BUF_LEN + PW_INFER + IW_STATS + k]


@njit(cache=True, nogil=True)
def decide_pimc_card(rv, params, seat, ht, hs, pub, ecart_t, ecart_s, lt, ls, pos, piles, st):
    """One ``pimc`` card decision as a compiled call, for the slow path.

    :func:`pimc_card` for the slow path (``tarotsim.adapters.FastBotAdapter``): ``(card, state)``;
    ``piles``: :func:`pile_vector` of the seat's view (table 2)."""
    wsp = np.zeros(PIMC_LEN, dtype=np.int64)
    return pimc_card(rv, params, seat, ht, hs, pub, ecart_t, ecart_s, lt, ls, pos, piles, st, wsp)


# the cache guard (``tarotsim._kernels._cache``): these kernels inline the engine and the policies
guard_cache("builds-pimc", (new_pimc_buffer, run_facts_pimc, run_aggregate_pimc, run_logs_pimc, run_stats_pimc,
                            decide_pimc_card), sources())
