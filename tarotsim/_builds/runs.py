"""The batch kernels of a table, picked from the seats' kinds (private).

The batch kernels for a table (private): the build of the deal kernel picked from the seats'
kinds, what ``tarotsim.simulate`` calls.

Every seat ``random``: the engine's random builds (``tarotsim._kernels.play.run_*_random``, which
take the table-2 build or the other one by argument); a ``pimc`` seat with ``bid_search`` on
(not at table 2, where it decides as the heuristic): the bid-search build (``bid_search.py``);
another seat ``pimc``: the pimc build (``pimc.py``); any other table: the bots build
(``deal.py``). ``pol`` is the policy tuple (``policy.policy_tuple``) or None.
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


def bid_searching(kinds, params, rv=None) -> bool:
    """Whether a ``pimc`` seat has ``bid_search`` on (and the table, when given, is not table 2)."""
    if params is None or (rv is not None and int(rv[RV_TABLE]) == TABLE_2):
        return False
    from bots import REGISTRY
    column = [p.name for p in REGISTRY["pimc"].params].index("bid_search")
    kinds = np.asarray(kinds)
    on = np.asarray(params)[:kinds.shape[0], column] != 0
    return bool(np.any((kinds == BOT_PIMC) & on))


def _pimc(kinds, params=None, rv=None):
    """The batch kernels of the build of pimc seats, when a seat plays pimc.

    When some seat plays ``pimc``: ``(run_facts, run_aggregate, run_logs)`` of the bid-search
    build (``bid_search.py``) if :func:`bid_searching`, else of the pimc build (``pimc.py``);
    otherwise None. Imported when needed: the builds cost a little even uncompiled."""
    if not bool(np.any(np.asarray(kinds) == BOT_PIMC)):
        return None
    if bid_searching(kinds, params, rv):
        from . import bid_search as b
        return b.run_facts_bid_search, b.run_aggregate_bid_search, b.run_logs_bid_search
    from . import pimc as p
    return p.run_facts_pimc, p.run_aggregate_pimc, p.run_logs_pimc


#: About how long numba takes to compile each build's batch kernels, once (seconds, one core of
#: the 2-core machine of BENCHMARKS.md), for the notice of a cold cache: the random build, the
#: bots build (greedy, heuristic, policy sets), the pimc build, the bid-search build, and the bidding
#: study's loops.
COMPILE_SECONDS = {"random": 5, "bots": 14, "pimc": 30, "bid_search": 60, "study": 20, "study_pimc": 40}


def build(kinds, params=None) -> str:
    """The build of the deal kernel that plays these seats: ``random``, ``bid_search``, ``pimc`` or ``bots``."""
    if _all_random(kinds):
        return "random"
    if _pimc(kinds) is None:
        return "bots"
    return "bid_search" if bid_searching(kinds, params) else "pimc"


def first_kernel(kinds, what: str = "aggregate", params=None) -> tuple:
    """The first batch kernel a run of these seats calls, and its compile time.

    The batch kernel a run of these seats calls (``what``: ``aggregate`` for ``simulate``,
    ``facts`` for ``tournament``, ``study`` for the bidding study; ``params``: the seats'
    parameters, which pick the bid-search build) and about how long compiling it takes
    (:data:`COMPILE_SECONDS`; each batch kernel inlines its whole build): what the notice of a
    cold numba cache checks and says."""
    b = build(kinds, params)
    if what == "study":
        from . import study
        return (study.run_study_pimc, COMPILE_SECONDS["study_pimc"]) if b in ("pimc", "bid_search") else \
            (study.run_study, COMPILE_SECONDS["study"])
    if b == "bid_search":  # its one compiled batch kernel (facts and aggregates are read from the logs)
        from .bid_search import run_logs_bid_search
        return run_logs_bid_search, COMPILE_SECONDS[b]
    search = _pimc(kinds, params)
    kernels = {"random": (run_aggregate_random, run_facts_random), "bots": (run_aggregate_bots, run_facts_bots)}.get(
        b, (search[1], search[0]) if search is not None else ())
    return kernels[what == "facts"], COMPILE_SECONDS[b]


def hint_kernels(name: str) -> tuple[list, int]:
    """The kernels a registered bot's slow-path decisions call, and their compile time.

    The kernels a registered bot's decisions call on the slow path (``tarotsim play``'s hint
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
    elif (search := _pimc(kinds, params, rv)) is not None:
        search[0](rv, seed, start, forced_seat, forced_contract, kinds, params, pol, out)
    else:
        run_facts_bots(rv, seed, start, forced_seat, forced_contract, kinds, params, pol, out)


def run_aggregate(rv, seed, start, count, forced_seat, forced_contract, kinds, params, acc, pol=None):
    """Deals ``start .. start + count - 1`` added into the aggregate ``acc`` (``ACC_*``)."""
    if _all_random(kinds):
        run_aggregate_random(rv, seed, start, count, forced_seat, forced_contract, kinds, params, acc, *_two(rv))
    elif (search := _pimc(kinds, params, rv)) is not None:
        search[1](rv, seed, start, count, forced_seat, forced_contract, kinds, params, pol, acc)
    else:
        run_aggregate_bots(rv, seed, start, count, forced_seat, forced_contract, kinds, params, pol, acc)


def run_logs(rv, seed, indices, forced_seat, forced_contract, kinds, params, logs, pol=None):
    """Full logs (facts + record arrays) of the deals ``indices`` into ``logs[i, :]``."""
    if _all_random(kinds):
        run_logs_random(rv, seed, indices, forced_seat, forced_contract, kinds, params, logs, *_two(rv))
    elif (search := _pimc(kinds, params, rv)) is not None:
        search[2](rv, seed, indices, forced_seat, forced_contract, kinds, params, pol, logs)
    else:
        run_logs_bots(rv, seed, indices, forced_seat, forced_contract, kinds, params, pol, logs)
