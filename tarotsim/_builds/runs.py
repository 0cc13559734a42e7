"""The batch kernels of a table, picked from the seats' kinds (private).

The batch kernels for a table (private): the build of the deal kernel picked from the seats'
kinds, what ``tarotsim.runs.simulate`` calls.

Every seat ``random``: the engine's random builds (``tarotsim._kernels.play.run_*_random``, which
take the table-2 build or the other one by argument); a ``learned`` seat: the learned build
(``learned.py``, tables 3, 4, 5 and 5d); a ``pimc`` seat with ``bid_search`` on, at
any table but 2: a bid-search build (``bid_search.py``: ``bid_search_full`` when a pimc seat sets
``exact_from`` or ``infer``, else ``bid_search``); another seat ``pimc``: a pimc build
(``pimc.py``: ``pimc_full`` or ``pimc`` alike); any other table: the bots build (``deal.py``).
``pol`` is the policy tuple (``policy.policy_tuple``) or None.

The slow path's searches are here too, for the facade (``tarotsim.adapters``): a ``pimc`` seat's
card (:func:`pimc_card`) and its bid search's decisions (:func:`bid_search_decision`).
"""

from __future__ import annotations

import numpy as np

from tarotsim._kernels._cache import COMPILE_SECONDS
from tarotsim._kernels.play import run_aggregate_random, run_facts_random, run_logs_random
from tarotsim.rules import RV_TABLE, TABLE_2

from bots import BOT_KINDS

from .deal import run_aggregate_bots, run_facts_bots, run_logs_bots


def _all_random(kinds) -> bool:
    return not bool(np.any(np.asarray(kinds) != BOT_KINDS["random"]))


def _two(rv):
    """The two table flags of the random batch kernels.

    ``not_two, two`` of the random batch kernels: ``None, True`` at table 2 (R-VAR-TWO), whose
    random deal has a build of its own, else ``True, None``."""
    return (None, True) if int(rv[RV_TABLE]) == TABLE_2 else (True, None)


def _learned(kinds) -> bool:
    """Whether a seat plays ``learned`` (its deals are the ``learned`` build's, ``learned.py``)."""
    return bool(np.any(np.asarray(kinds) == BOT_KINDS["learned"]))


def _pimc(kinds, params, rv=None):
    """The pimc or bid-search build's batch kernels these seats need, or None when no seat plays pimc.

    ``bid_search.BUILDS[...]`` when a pimc seat has ``bid_search`` on (not at table 2, ``rv``),
    else ``pimc.BUILDS[pimc.build_for(kinds, params)]`` when some seat plays ``pimc``, else None:
    a :class:`pimc.Build`."""
    if bool(np.any(np.asarray(kinds) == BOT_KINDS["pimc"])):
        b = build(kinds, params, rv)
        if b.startswith("bid_search"):
            from . import bid_search  # imported when needed, as the pimc builds
            return bid_search.BUILDS[b]
        from . import pimc  # imported when needed: its builds cost a little even uncompiled
        return pimc.BUILDS[b]
    return None


def build(kinds, params, rv=None) -> str:
    """The build of the deal kernel that plays these seats.

    ``random``, ``bots``, ``pimc``, ``pimc_full``, ``bid_search`` or ``bid_search_full``; ``rv``:
    the rules vector (at table 2 a ``bid_search`` seat plays on a pimc build), None for any other
    table."""
    if _all_random(kinds):
        return "random"
    if _learned(kinds):
        return "learned"
    if not bool(np.any(np.asarray(kinds) == BOT_KINDS["pimc"])):
        return "bots"
    from bots.bid_search import needs_bid_search

    from .pimc import build_for
    b = build_for(kinds, params)
    return b.replace("pimc", "bid_search") if needs_bid_search(kinds, params, rv) else b


def first_kernel(kinds, params, what: str = "aggregate", rv=None) -> tuple:
    """The first batch kernel a run of these seats calls, and its compile time.

    The batch kernel a run of these seats calls (``what``: ``aggregate`` for ``simulate``,
    ``facts`` for ``tournament``, ``logs`` for records, ``study`` for the bidding study) and
    about how long compiling it takes (:data:`COMPILE_SECONDS`; each batch kernel inlines its
    whole build): what the notice of a cold numba cache checks and says. ``rv``: the rules
    vector, as :func:`build` takes it."""
    b = build(kinds, params, rv)
    if b == "learned":
        from . import learned
        return (learned.run_facts_learned if what == "facts" else learned.run_aggregate_learned), COMPILE_SECONDS[b]
    if what == "study":  # the study plays no bid-search build (it refuses bid_search)
        b = b.replace("bid_search", "pimc")
        from . import study
        return study.STUDY_KERNELS[b], COMPILE_SECONDS["study" if b in ("random", "bots") else "study_" + b]
    search = _pimc(kinds, params, rv)
    # a pimc or bid-search build has one batch kernel, its logs (``pimc.Build``)
    kernels = {"random": (run_aggregate_random, run_facts_random, run_logs_random),
               "bots": (run_aggregate_bots, run_facts_bots, run_logs_bots)}.get(b) or (search.kernel,) * 3
    return kernels[("aggregate", "facts", "logs").index(what)], COMPILE_SECONDS[b]


def hint_kernels(text: str) -> tuple[list, int]:
    """The kernels a registered bot's slow-path decisions call, and their compile time.

    The kernels the decisions of the bot ``text`` (``--bots`` grammar: ``pimc``,
    ``pimc:infer=1``) call on the slow path (``tarotsim play``'s hint through its adapter), and
    about how long compiling them takes, once: its card search's build, and the bid search's
    kernel when it searches its bids."""
    from bots import dispatch, parse_bot

    kernels = [dispatch.decide_bid, dispatch.decide_card]
    name, vec = parse_bot(text)
    kinds = np.array([BOT_KINDS[name]])
    if kinds[0] != BOT_KINDS["pimc"]:
        return kernels, COMPILE_SECONDS["bots"]
    b = build(kinds, vec[None, :])
    search = _pimc(kinds, vec[None, :])
    kernels.append(search.decide_card)
    if b.startswith("bid_search"):
        from . import bid_search
        kernels.append(bid_search.decide_search)
    return kernels, COMPILE_SECONDS[b]


def pimc_card(rv, params, seat, ht, hs, pub, et, es, lt, ls, pos, piles, st):
    """The card the search of the ``pimc`` seat ``seat`` plays, as the deal kernel's pimc build plays it.

    One decision for the slow path (``tarotsim.adapters.FastBotAdapter``), on the deal kernel's
    inputs (``bots.search.make_search``'s, the seat's own écart ``et, es`` and the piles' vector),
    with the build its parameters ``params[seat]`` need (``pimc``, or ``pimc_full`` for
    ``exact_from`` or ``infer``): ``(card id, new state)``."""
    from . import pimc

    seat_params = np.asarray(params)[int(seat)][None, :]
    build = pimc.BUILDS[pimc.build_for(np.array([BOT_KINDS["pimc"]]), seat_params)]
    return build.decide(rv, params, seat, ht, hs, pub, et, es, lt, ls, pos, piles, st)


def new_bid_search_scratch():
    """The scratch :func:`bid_search_decision` works in (keep one per seat: it is reused)."""
    from . import bid_search

    return bid_search.new_scratch()


def bid_search_decision(what, rv, kinds, params, seat, ht, hs, pub, args, ecart, out, st, scratch):
    """One bid, call, écart, chelem or poignée decision of a ``pimc`` seat with ``bid_search`` on.

    For the slow path (``tarotsim.adapters.FastBotAdapter``): the bid search's one compiled call
    (``tarotsim._builds.bid_search.decide_search``, its arguments), ``(choice, écart suit word,
    new state)``."""
    from . import bid_search

    return bid_search.decide_search(what, rv, kinds, params, seat, ht, hs, pub, args, ecart, out, st, scratch)


def run_facts(rv, seed, start, forced_seat, forced_contract, kinds, params, out, pol=None):
    """Deals ``start .. start + len(out) - 1`` into the facts rows ``out`` (FACTS_DTYPE)."""
    if _all_random(kinds):
        run_facts_random(rv, seed, start, forced_seat, forced_contract, kinds, params, out, *_two(rv))
    elif _learned(kinds):
        from . import learned
        learned.run_facts_learned(rv, seed, start, kinds, params, *learned.weights(kinds, params, forced_seat, pol), out)
    elif (search := _pimc(kinds, params, rv)) is not None:
        search.run_facts(rv, seed, start, forced_seat, forced_contract, kinds, params, pol, out)
    else:
        run_facts_bots(rv, seed, start, forced_seat, forced_contract, kinds, params, pol, out)


def run_aggregate(rv, seed, start, count, forced_seat, forced_contract, kinds, params, acc, pol=None):
    """Deals ``start .. start + count - 1`` added into the aggregate ``acc`` (``ACC_*``)."""
    if _all_random(kinds):
        run_aggregate_random(rv, seed, start, count, forced_seat, forced_contract, kinds, params, acc, *_two(rv))
    elif _learned(kinds):
        from . import learned
        learned.run_aggregate_learned(rv, seed, start, count, kinds, params,
                                      *learned.weights(kinds, params, forced_seat, pol), acc)
    elif (search := _pimc(kinds, params, rv)) is not None:
        search.run_aggregate(rv, seed, start, count, forced_seat, forced_contract, kinds, params, pol, acc)
    else:
        run_aggregate_bots(rv, seed, start, count, forced_seat, forced_contract, kinds, params, pol, acc)


def run_logs(rv, seed, indices, forced_seat, forced_contract, kinds, params, logs, pol=None):
    """Full logs (facts + record arrays) of the deals ``indices`` into ``logs[i, :]``."""
    if _all_random(kinds):
        run_logs_random(rv, seed, indices, forced_seat, forced_contract, kinds, params, logs, *_two(rv))
    elif _learned(kinds):
        from . import learned
        learned.run_logs_learned(rv, seed, indices, kinds, params, *learned.weights(kinds, params, forced_seat, pol),
                                 logs)
    elif (search := _pimc(kinds, params, rv)) is not None:
        search.run_logs(rv, seed, indices, forced_seat, forced_contract, kinds, params, pol, logs)
    else:
        run_logs_bots(rv, seed, indices, forced_seat, forced_contract, kinds, params, pol, logs)
