"""The deal kernel's ``pimc`` builds (private): the bots with the search as their card decision.

The deal kernel's two ``pimc`` builds (private): the bots build with the search
(``bots.search.make_search``) as its card dispatch, their batch kernels, and the search as one
compiled call for the slow path.

* ``pimc``: the search alone, what a ``pimc`` seat plays with its default parameters;
* ``pimc_full``: the search with its optional parts, the exact solver (``exact_from``) and the
  weighing of the worlds (``infer``); it takes about twice as long to compile, so a run compiles
  it only when a seat asks for one of them (:func:`build_for`, ``bots.pimc.needs_full_build``).

The search finishes its sampled deals with the bots build's ``_play_rest`` (its rollouts:
random, greedy and heuristic seats only), handed to it here.

Compiled only when a seat plays ``pimc``. The search's scratch (``bots.search.PW_*``,
``PIMC_LEN`` int64) follows the deal kernel's buffer (``buf[BUF_LEN:]``); the batch kernels
allocate it once per chunk (:func:`new_pimc_buffer`).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import njit

from tarotsim._kernels._cache import guard_cache
from tarotsim._kernels.layout import BOT_PIMC, L_ECART, L_N_ECART, PUB_CONTRACT, PUB_TAKER
from tarotsim._kernels.masks import card_bits
from tarotsim._kernels.play import build_name, make_play
from tarotsim._kernels.workspace import BUF_LEN, WS_LEN
from tarotsim.rules import KERNEL_ECART_MADE

from bots.dispatch import DISPATCH, bot_card_bits
from bots.pimc import needs_full_build
from bots.search import (IW_STATS, N_STATS, PILES_LEN, PIMC_LEN, PW_INFER, PW_PILES, PW_STATS, make_search,
                         public_piles)

from . import sources
from .deal import BOTS_PARTS
from .loops import make_loops


@njit(cache=True, nogil=True)
def new_pimc_buffer():
    """A deal buffer with the search's scratch after it (``workspace.new_buffer`` + :data:`PIMC_LEN`)."""
    return np.zeros(BUF_LEN + PIMC_LEN, dtype=np.int64)


def _make_build(EXACT, INFER):
    """Build one pimc build: its search, its card dispatch and its deal kernel.

    The search (``bots.search.make_search``, with the exact solver when ``EXACT`` and the weighing
    when ``INFER``), its rollouts finishing a deal with the bots build's ``_play_rest`` (random,
    greedy, heuristic only); the card dispatch that calls it for a ``pimc`` seat; and the deal
    kernel with that dispatch (``make_play``). Returns ``(search, deal kernel)``."""
    search = make_search(BOTS_PARTS["play_rest"], EXACT, INFER)

    @njit(nogil=True, _nrt=False)
    def _card_pimc(kind, params, pol, ub, seat, ht, hs, pub, lt, ls, fixed, fmask, amask, pos, rv, buf, log, st):
        """The pimc build's card dispatch: the search for a ``pimc`` seat, the bots' dispatch otherwise.

        The search for a ``pimc`` seat (its own écart from the log when it is the taker at prise
        or garde), ``bots.dispatch.bot_card_bits`` otherwise."""
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
            c, st = search(rv, params, seat, ht, hs, pub, et, es, lt, ls, pos, piles, st, wsp)
            bt, bs = card_bits(c)
            return c, bt, bs, st
        return bot_card_bits(kind, params, pol, ub, seat, ht, hs, pub, lt, ls, fixed, fmask, amask, pos, st)

    card = build_name(_card_pimc, search.py_func.__qualname__.rsplit("__", 1)[-1])
    return search, make_play(DISPATCH, CARD=card)


#: The pimc build: the search without its optional parts, what ``pimc`` plays by default.
pimc_card, _play_pimc = _make_build(False, False)
#: The full pimc build: the search with the exact solver (``exact_from``) and the weighing
#: (``infer``), for the runs in which a seat asks for them (``bots.pimc.needs_full_build``).
pimc_card_full, _play_pimc_full = _make_build(True, True)
_facts, _aggregate, _logs = make_loops(_play_pimc, new_pimc_buffer)
_facts_full, _aggregate_full, _logs_full = make_loops(_play_pimc_full, new_pimc_buffer)


# --- batch kernels of the pimc builds (as ``deal.run_*_bots``) -----------------------------------

@njit(cache=True, nogil=True)
def run_facts_pimc(rv, seed, start, forced_seat, forced_contract, kinds, params, pol, out):
    _facts(rv, seed, start, forced_seat, forced_contract, kinds, params, pol, out)


@njit(cache=True, nogil=True)
def run_aggregate_pimc(rv, seed, start, count, forced_seat, forced_contract, kinds, params, pol, acc):
    _aggregate(rv, seed, start, count, forced_seat, forced_contract, kinds, params, pol, acc)


@njit(cache=True, nogil=True)
def run_logs_pimc(rv, seed, indices, forced_seat, forced_contract, kinds, params, pol, logs):
    _logs(rv, seed, indices, forced_seat, forced_contract, kinds, params, pol, logs)


@njit(cache=True, nogil=True)
def run_facts_pimc_full(rv, seed, start, forced_seat, forced_contract, kinds, params, pol, out):
    _facts_full(rv, seed, start, forced_seat, forced_contract, kinds, params, pol, out)


@njit(cache=True, nogil=True)
def run_aggregate_pimc_full(rv, seed, start, count, forced_seat, forced_contract, kinds, params, pol, acc):
    _aggregate_full(rv, seed, start, count, forced_seat, forced_contract, kinds, params, pol, acc)


@njit(cache=True, nogil=True)
def run_logs_pimc_full(rv, seed, indices, forced_seat, forced_contract, kinds, params, pol, logs):
    _logs_full(rv, seed, indices, forced_seat, forced_contract, kinds, params, pol, logs)


@njit(inline="always")
def _add_stats(buf, stats):
    """Add the search's counters of a run's buffer into ``stats`` (the weighing's after them)."""
    for k in range(3):
        stats[k] += buf[BUF_LEN + PW_STATS + k]
    for k in range(min(stats.shape[0] - 3, N_STATS)):
        stats[3 + k] += buf[BUF_LEN + PW_INFER + IW_STATS + k]


@njit(cache=True, nogil=True)
def run_stats_pimc(rv, seed, start, count, kinds, params, acc, stats):
    """Run the pimc build's aggregate and count the search's work into ``stats``.

    ``run_aggregate_pimc`` (no forced contract, no policy set) that also adds the search's
    counters into ``stats`` (int64[3]: decisions searched, worlds sampled, rollouts played; a
    longer ``stats`` gets the weighing's counters after them, ``bots.inference.ST_*``), for
    ``benchmarks/search.py``."""
    _add_stats(_aggregate(rv, seed, start, count, np.int64(-1), np.int64(0), kinds, params, None, acc), stats)


@njit(cache=True, nogil=True)
def run_stats_pimc_full(rv, seed, start, count, kinds, params, acc, stats):
    """:func:`run_stats_pimc` on the full pimc build."""
    _add_stats(_aggregate_full(rv, seed, start, count, np.int64(-1), np.int64(0), kinds, params, None, acc), stats)


@njit(cache=True, nogil=True)
def decide_pimc_card(rv, params, seat, ht, hs, pub, ecart_t, ecart_s, lt, ls, pos, piles, st):
    """One ``pimc`` card decision as a compiled call, for the slow path.

    :func:`pimc_card` for the slow path (``tarotsim.adapters.FastBotAdapter``): ``(card, state)``;
    ``piles``: :func:`pile_vector` of the seat's view (table 2)."""
    wsp = np.zeros(PIMC_LEN, dtype=np.int64)
    return pimc_card(rv, params, seat, ht, hs, pub, ecart_t, ecart_s, lt, ls, pos, piles, st, wsp)


@njit(cache=True, nogil=True)
def decide_pimc_card_full(rv, params, seat, ht, hs, pub, ecart_t, ecart_s, lt, ls, pos, piles, st):
    """:func:`decide_pimc_card` on the full pimc build."""
    wsp = np.zeros(PIMC_LEN, dtype=np.int64)
    return pimc_card_full(rv, params, seat, ht, hs, pub, ecart_t, ecart_s, lt, ls, pos, piles, st, wsp)


class Build(NamedTuple):
    """One pimc build's batch kernels, as ``tarotsim._builds.runs`` and the slow path call them."""

    run_facts: Any
    run_aggregate: Any
    run_logs: Any
    run_stats: Any
    decide_card: Any


#: The pimc builds by name: ``pimc`` (the search alone) and ``pimc_full`` (with the exact solver
#: and the weighing).
BUILDS = {"pimc": Build(run_facts_pimc, run_aggregate_pimc, run_logs_pimc, run_stats_pimc, decide_pimc_card),
          "pimc_full": Build(run_facts_pimc_full, run_aggregate_pimc_full, run_logs_pimc_full, run_stats_pimc_full,
                             decide_pimc_card_full)}


def build_for(kinds, params) -> str:
    """The pimc build these seats need: ``pimc_full`` when a ``pimc`` seat asks for an optional part.

    Parameters
    ----------
    kinds : int64[n_seats]
        Bot kind per seat.
    params : float64[n_seats, N_BOT_PARAMS]
        Bot parameters per seat.
    """
    return "pimc_full" if needs_full_build(kinds, params) else "pimc"


# the cache guard (``tarotsim._kernels._cache``): these kernels inline the engine and the policies
guard_cache("builds-pimc", (new_pimc_buffer, run_facts_pimc, run_aggregate_pimc, run_logs_pimc, run_stats_pimc,
                            decide_pimc_card, run_facts_pimc_full, run_aggregate_pimc_full, run_logs_pimc_full,
                            run_stats_pimc_full, decide_pimc_card_full), sources())
