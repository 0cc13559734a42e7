"""The batch kernels for a table (private): the build of the deal kernel picked from the seats'
kinds, what ``tarotsim.simulate`` calls.

Every seat ``random``: the engine's random builds (``tarotsim._kernels.play.run_*_random``, which
take the table-2 build or the other one by argument); a seat
``pimc``: the pimc build (``pimc.py``); any other table: the bots build (``deal.py``). ``pol``
is the policy tuple (``policy.policy_tuple``) or None.
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
    """``not_two, two`` of the random batch kernels: ``None, True`` at table 2 (R-VAR-TWO), whose
    random deal has a build of its own, else ``True, None``."""
    return (None, True) if int(rv[RV_TABLE]) == TABLE_2 else (True, None)


def _pimc(kinds):
    """The pimc build's batch kernels (module ``pimc``) when some seat plays ``pimc``, else
    None."""
    if bool(np.any(np.asarray(kinds) == BOT_PIMC)):
        from . import pimc  # imported when needed: its builds cost a little even uncompiled
        return pimc
    return None


#: About how long numba takes to compile each build's batch kernels, once (seconds, one core of
#: the 2-core machine of BENCHMARKS.md), for the notice of a cold cache: the random build, the
#: bots build (greedy, heuristic, policy sets), the pimc build, and the bidding study's loops.
COMPILE_SECONDS = {"random": 5, "bots": 14, "pimc": 30, "study": 20, "study_pimc": 40}


def build(kinds) -> str:
    """The build of the deal kernel that plays these seats: ``random``, ``pimc`` or ``bots``."""
    return "random" if _all_random(kinds) else "pimc" if _pimc(kinds) is not None else "bots"


def first_kernel(kinds, what: str = "aggregate") -> tuple:
    """The batch kernel a run of these seats calls (``what``: ``aggregate`` for ``simulate``,
    ``facts`` for ``tournament``, ``study`` for the bidding study) and about how long compiling
    it takes (:data:`COMPILE_SECONDS`; each batch kernel inlines its whole build): what the
    notice of a cold numba cache checks and says."""
    b = build(kinds)
    if what == "study":
        from . import study
        return (study.run_study_pimc, COMPILE_SECONDS["study_pimc"]) if b == "pimc" else \
            (study.run_study, COMPILE_SECONDS["study"])
    search = _pimc(kinds)
    kernels = {"random": (run_aggregate_random, run_facts_random), "bots": (run_aggregate_bots, run_facts_bots),
               "pimc": (search.run_aggregate_pimc, search.run_facts_pimc) if search is not None else ()}[b]
    return kernels[what == "facts"], COMPILE_SECONDS[b]


def hint_kernels(name: str) -> tuple[list, int]:
    """The kernels a registered bot's decisions call on the slow path (``tarotsim play``'s hint
    through its adapter) and about how long compiling them takes, once."""
    from bots import dispatch

    kernels = [dispatch.decide_bid, dispatch.decide_card]
    if name == "pimc":
        from .pimc import decide_pimc_card
        return kernels + [decide_pimc_card], COMPILE_SECONDS["pimc"]
    return kernels, COMPILE_SECONDS["bots"]


def run_facts(rv, seed, start, forced_seat, forced_contract, kinds, params, out, pol=None):
    """Deals ``start .. start + len(out) - 1`` into the facts rows ``out`` (FACTS_DTYPE)."""
    if _all_random(kinds):
        run_facts_random(rv, seed, start, forced_seat, forced_contract, kinds, params, out, *_two(rv))
    elif (search := _pimc(kinds)) is not None:
        search.run_facts_pimc(rv, seed, start, forced_seat, forced_contract, kinds, params, pol, out)
    else:
        run_facts_bots(rv, seed, start, forced_seat, forced_contract, kinds, params, pol, out)


def run_aggregate(rv, seed, start, count, forced_seat, forced_contract, kinds, params, acc, pol=None):
    """Deals ``start .. start + count - 1`` added into the aggregate ``acc`` (``ACC_*``)."""
    if _all_random(kinds):
        run_aggregate_random(rv, seed, start, count, forced_seat, forced_contract, kinds, params, acc, *_two(rv))
    elif (search := _pimc(kinds)) is not None:
        search.run_aggregate_pimc(rv, seed, start, count, forced_seat, forced_contract, kinds, params, pol, acc)
    else:
        run_aggregate_bots(rv, seed, start, count, forced_seat, forced_contract, kinds, params, pol, acc)


def run_logs(rv, seed, indices, forced_seat, forced_contract, kinds, params, logs, pol=None):
    """Full logs (facts + record arrays) of the deals ``indices`` into ``logs[i, :]``."""
    if _all_random(kinds):
        run_logs_random(rv, seed, indices, forced_seat, forced_contract, kinds, params, logs, *_two(rv))
    elif (search := _pimc(kinds)) is not None:
        search.run_logs_pimc(rv, seed, indices, forced_seat, forced_contract, kinds, params, pol, logs)
    else:
        run_logs_bots(rv, seed, indices, forced_seat, forced_contract, kinds, params, pol, logs)
