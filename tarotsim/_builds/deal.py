"""The deal kernel built with the bots (private).

The deal kernel built with the bots (private): the bots build, its traced twin and their batch
kernels, and the choice of a build from the seats' kinds.

The engine (``tarotsim._kernels.play``) builds the deal from a factory and never imports the
bots; here the factory receives the bots' dispatch (``bots.dispatch.DISPATCH``):

* :data:`_play_bots`: every table with a seat other than ``random`` (greedy, heuristic, a policy
  set); its inner step ``_play_rest`` is kept in :data:`BOTS_PARTS` for the search's rollouts;
* :data:`_play_traced`: the same with the decision trace, behind :func:`play_deal` (tests, the
  slow path's checks);
* the pimc build is in ``pimc.py`` (compiled only when a seat plays ``pimc``).

``runs.py`` picks a build from the seats' kinds. The ``_bots`` loops stop after a deal whose
outcome is ``bot_error`` (the caller names the rule on the slow path).
"""

from __future__ import annotations

from numba import njit

from tarotsim._kernels._cache import guard_cache
from tarotsim._kernels.play import make_play, play_random
from tarotsim._kernels.workspace import new_buffer
from tarotsim.rules import RV_N_SEATS, RV_TABLE, TABLE_2

from bots import BOT_KINDS
from bots.dispatch import DISPATCH

from . import sources
from .loops import make_loops

#: the ``random`` bot's kind (``bots/random.py``): a table of them plays the engine's random build
RANDOM = BOT_KINDS["random"]

#: the bots build's inner steps: the search (``bots/search.py``) finishes its sampled deals with its ``_play_rest``
BOTS_PARTS: dict = {}
_play_bots = make_play(DISPATCH, parts=BOTS_PARTS)
_play_traced = make_play(DISPATCH, TRACE=True)


@njit(cache=True, nogil=True, _nrt=False)
def play_deal(rv, seed, index, forced_seat, forced_contract, kinds, params, pol, log, buf):
    """Play deal ``(seed, index)`` (seed uint64, index int64 >= 0) into ``log``.

    ``forced_seat`` < 0: normal auction; else that seat takes ``forced_contract`` (0..3).
    ``kinds``: int64[n_seats] bot kind per seat; ``params``: float64[n_seats, N_BOT_PARAMS];
    ``pol``: the policy tuple (``bots.policy.policy_tuple``: FunctionType[MAX_SEATS * 7]), or
    None when no seat plays a policy set.
    A ``buf`` longer than ``new_buffer()`` receives a trace of the bots' decisions (``TR_*``;
    tests). (The batch kernels below pick the build of the deal kernel once per call.)
    """
    # table 2 (R-VAR-TWO): the traced build, which plays random seats as the random build does
    # (compiling the random build of table 2 here too would cost every caller its compile time)
    traced = rv[RV_TABLE] == TABLE_2
    for s in range(rv[RV_N_SEATS]):
        traced = traced or kinds[s] != RANDOM
    if traced:
        _play_traced(rv, seed, index, forced_seat, forced_contract, kinds, params, pol, log, buf)
    else:
        play_random(rv, seed, index, forced_seat, forced_contract, kinds, params, None, log, buf)


_facts_bots, _aggregate_bots, _logs_bots = make_loops(_play_bots, new_buffer)


@njit(cache=True, nogil=True)
def run_facts_bots(rv, seed, start, forced_seat, forced_contract, kinds, params, pol, out):
    _facts_bots(rv, seed, start, forced_seat, forced_contract, kinds, params, pol, out)


@njit(cache=True, nogil=True)
def run_aggregate_bots(rv, seed, start, count, forced_seat, forced_contract, kinds, params, pol, acc):
    _aggregate_bots(rv, seed, start, count, forced_seat, forced_contract, kinds, params, pol, acc)


@njit(cache=True, nogil=True)
def run_logs_bots(rv, seed, indices, forced_seat, forced_contract, kinds, params, pol, logs):
    _logs_bots(rv, seed, indices, forced_seat, forced_contract, kinds, params, pol, logs)


# the cache guard (``tarotsim._kernels._cache``): these kernels inline the engine and the policies
guard_cache("builds-deal", (play_deal, run_facts_bots, run_aggregate_bots, run_logs_bots), sources())
