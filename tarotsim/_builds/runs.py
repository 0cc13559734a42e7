"""The batch kernels of a table, picked from the seats' kinds (private).

The batch kernels for a table (private): the build of the deal kernel picked from the seats'
kinds, what ``tarotsim.simulate`` calls.

Every seat ``random``: the engine's random builds (``tarotsim._kernels.play.run_*_random``, which
take the table-2 build or the other one by argument); a seat
``pimc``: a pimc build (``pimc.py``: ``pimc_full`` when a pimc seat sets ``exact_from`` or
``infer``, else ``pimc``); any other table: the bots build (``deal.py``). ``pol`` is the policy
tuple (``policy.policy_tuple``) or None.
"""

from __future__ import annotations

import numpy as np

from tarotsim._kernels.layout import BOT_PIMC, BOT_RANDOM
from tarotsim._kernels.play import run_aggregate_random, run_facts_random, run_logs_random
from tarotsim.rules import RV_TABLE, TABLE_2

from .deal import run_aggregate_bots, run_facts_bots, run_logs_bots


def _all_random(kinds) -> bool:
    return not bool(np.any(np.asarray(kinds) != BOT_RANDOM))


def _two(rv):
    """The two table flags of the random batch kernels.

    ``not_two, two`` of the random batch kernels: ``None, True`` at table 2 (R-VAR-TWO), whose
    random deal has a build of its own, else ``True, None``."""
    return (None, True) if int(rv[RV_TABLE]) == TABLE_2 else (True, None)


def _pimc(kinds, params):
    """The pimc build's batch kernels these seats need, or None when no seat plays pimc.

    ``pimc.BUILDS[pimc.build_for(kinds, params)]`` when some seat plays ``pimc``, else None."""
    if bool(np.any(np.asarray(kinds) == BOT_PIMC)):
        from . import pimc  # imported when needed: its builds cost a little even uncompiled
        return pimc.BUILDS[pimc.build_for(kinds, params)]
    return None


#: About how long numba takes to compile each build's batch kernels, once (seconds, one core of
#: the 2-core machine of BENCHMARKS.md), for the notice of a cold cache: the random build, the
#: bots build (greedy, heuristic, policy sets), the pimc builds, and the bidding study's loops.
COMPILE_SECONDS = {"random": 5, "bots": 14, "pimc": 30, "pimc_full": 60, "study": 20, "study_pimc": 40,
                   "study_pimc_full": 70}


def build(kinds, params) -> str:
    """The build of the deal kernel that plays these seats: ``random``, ``bots``, ``pimc`` or ``pimc_full``."""
    if _all_random(kinds):
        return "random"
    if not bool(np.any(np.asarray(kinds) == BOT_PIMC)):
        return "bots"
    from .pimc import build_for
    return build_for(kinds, params)


def first_kernel(kinds, params, what: str = "aggregate") -> tuple:
    """The first batch kernel a run of these seats calls, and its compile time.

    The batch kernel a run of these seats calls (``what``: ``aggregate`` for ``simulate``,
    ``facts`` for ``tournament``, ``study`` for the bidding study) and about how long compiling
    it takes (:data:`COMPILE_SECONDS`; each batch kernel inlines its whole build): what the
    notice of a cold numba cache checks and says."""
    b = build(kinds, params)
    if what == "study":
        from . import study
        return study.STUDY_KERNELS[b], COMPILE_SECONDS["study" if b in ("random", "bots") else "study_" + b]
    search = _pimc(kinds, params)
    # a pimc build has one batch kernel, its logs (``pimc.Build``)
    kernels = {"random": (run_aggregate_random, run_facts_random), "bots": (run_aggregate_bots, run_facts_bots)}.get(
        b) or (search.kernel, search.kernel)
    return kernels[what == "facts"], COMPILE_SECONDS[b]


def hint_kernels(name: str) -> tuple[list, int]:
    """The kernels a registered bot's slow-path decisions call, and their compile time.

    The kernels a registered bot's decisions call on the slow path (``tarotsim play``'s hint
    through its adapter) and about how long compiling them takes, once."""
    from bots import dispatch

    kernels = [dispatch.decide_bid, dispatch.decide_card]
    if name == "pimc":  # its default parameters: the pimc build
        from .pimc import decide_pimc_card
        return kernels + [decide_pimc_card], COMPILE_SECONDS["pimc"]
    return kernels, COMPILE_SECONDS["bots"]


def run_facts(rv, seed, start, forced_seat, forced_contract, kinds, params, out, pol=None):
    """Deals ``start .. start + len(out) - 1`` into the facts rows ``out`` (FACTS_DTYPE)."""
    if _all_random(kinds):
        run_facts_random(rv, seed, start, forced_seat, forced_contract, kinds, params, out, *_two(rv))
    elif (search := _pimc(kinds, params)) is not None:
        search.run_facts(rv, seed, start, forced_seat, forced_contract, kinds, params, pol, out)
    else:
        run_facts_bots(rv, seed, start, forced_seat, forced_contract, kinds, params, pol, out)


def run_aggregate(rv, seed, start, count, forced_seat, forced_contract, kinds, params, acc, pol=None):
    """Deals ``start .. start + count - 1`` added into the aggregate ``acc`` (``ACC_*``)."""
    if _all_random(kinds):
        run_aggregate_random(rv, seed, start, count, forced_seat, forced_contract, kinds, params, acc, *_two(rv))
    elif (search := _pimc(kinds, params)) is not None:
        search.run_aggregate(rv, seed, start, count, forced_seat, forced_contract, kinds, params, pol, acc)
    else:
        run_aggregate_bots(rv, seed, start, count, forced_seat, forced_contract, kinds, params, pol, acc)


def run_logs(rv, seed, indices, forced_seat, forced_contract, kinds, params, logs, pol=None):
    """Full logs (facts + record arrays) of the deals ``indices`` into ``logs[i, :]``."""
    if _all_random(kinds):
        run_logs_random(rv, seed, indices, forced_seat, forced_contract, kinds, params, logs, *_two(rv))
    elif (search := _pimc(kinds, params)) is not None:
        search.run_logs(rv, seed, indices, forced_seat, forced_contract, kinds, params, pol, logs)
    else:
        run_logs_bots(rv, seed, indices, forced_seat, forced_contract, kinds, params, pol, logs)
