"""Speed of the ``pimc`` search inside the deal kernel, as JSON.

    python -m benchmarks.search --table 4 --bots pimc,heuristic,heuristic,heuristic --deals 2000 --json
    python -m benchmarks.search --decision bid --bots pimc:bid_search=1,heuristic,heuristic,heuristic --json

One thread, the batch kernel of the pimc build with the search's counters
(``tarotsim._builds.pimc.run_logs_pimc``; ``run_logs_pimc_full`` when a seat sets ``exact_from``
or ``infer``). ``decisions``: card decisions searched (a seat with a single legal card, or a
single class of equivalent ones, plays it without searching); ``worlds``: worlds sampled; ``rollouts``: deals
finished from a candidate card (worlds x rollouts x classes of legal cards). Rates are per second of the whole
run (deals, bidding and the other seats included), so ``ms_per_decision`` is an upper bound of a
decision's cost. ``compile_s``: the first call on a few deals (numba compiles the pimc build, or
loads it from its on-disk cache; ``--cold``: a fresh empty cache, so a real compilation).

With a seat playing ``pimc:infer=1`` (worlds weighed by the other seats' decisions,
``bots/inference.py``), ``inference`` gives the decisions weighed, the candidates drawn and the
distinct worlds kept per decision, the effective sample size (ESS) of the candidates' weights
(mean) and its distribution: ``ess_histogram[k]`` counts the decisions whose ESS lay in
[2^k, 2^(k+1)) (the last bin: 2^12 or more); with ``moves``, the swaps proposed and accepted per
decision.

``--decision bid`` / ``ecart``: the bid search of the first seat (``pimc:bid_search=1``,
``bots/bid_search.py``) alone, timed on a batch of positions in one compiled loop
(``tarotsim._builds.bid_search.run_decisions``): every bid of the heuristic's auctions of
``--deals`` deals (each seat in turn, the heuristic's bids before it), or the écart of the
first seat forced to take each deal at garde (the heuristic's call before it at table 5).
``ms_per_decision`` is then the cost of one decision, every position counted (a bid after a
garde contre and an écart the rules leave no choice of cost next to nothing); ``searched``
and ``rollouts_per_decision`` count the ones that ran the search.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.search", description=__doc__.split("\n\n")[0])
    p.add_argument("--table", default="4", choices=["3", "4", "5", "5d", "2"])
    p.add_argument("--bots", default=None, help="default: pimc then heuristic at every other seat")
    p.add_argument("--deals", type=int, default=2000)
    p.add_argument("--seed", type=int, default=20240601)
    p.add_argument("--cold", action="store_true", help="compile from scratch in an empty numba cache")
    p.add_argument("--json", action="store_true", help="print JSON only")
    p.add_argument("--decision", default="card", choices=["card", "bid", "ecart"],
                   help="card: the card search over whole deals; bid, ecart: the bid search alone")
    a = p.parse_args(argv)
    if a.deals < 1:
        p.error("--deals must be >= 1")
    if a.decision != "card":
        return _decisions(p, a)

    if a.cold:
        os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="tarotsim-numba-")
    import numpy as np

    from tarotsim.runs import simulate
    from tarotsim._kernels import layout as L
    from bots import inference as I, pimc
    from tarotsim._builds import bid_search as S
    from tarotsim._builds import pimc as K
    from tarotsim._builds import runs
    from tarotsim.rules import Rules

    rules = Rules(table=a.table)
    bots = a.bots or ",".join(["pimc"] + ["heuristic"] * (rules.n_seats - 1))
    kinds, params, pol = simulate.bot_setup(rules, bots)
    if pol is not None or not (kinds == pimc.CODE).any():
        p.error("--bots: registered bots only, and at least one pimc seat")
    rv = rules.to_vector()
    seed = np.uint64(a.seed)
    b = runs.build(kinds, params, rv)  # a pimc build, or a bid-search build when a seat has bid_search on
    build = (S.BUILDS if b.startswith("bid_search") else K.BUILDS)[b]

    def run(start, count):
        acc = np.zeros(L.ACC_LEN, dtype=np.int64)
        stats = np.zeros(3 + I.N_STATS, dtype=np.int64)
        build.run_aggregate(rv, seed, start, count, np.int64(-1), np.int64(0), kinds, params, None, acc, stats)
        return acc, stats

    t0 = time.perf_counter()
    run(0, 4)
    compile_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    acc, stats = run(1_000_000, a.deals)
    dt = time.perf_counter() - t0
    decisions, worlds, rollouts = (int(x) for x in stats[:3])
    inf = stats[3:]
    out = {
        "benchmark": "search", "table": a.table, "bots": bots, "deals": a.deals, "threads": 1,
        "played": int(acc[L.ACC_PLAYED]), "compile_s": round(compile_s, 3), "seconds": round(dt, 3),
        "deals_per_s": round(a.deals / dt, 1), "decisions": decisions,
        "decisions_per_s": round(decisions / dt, 1), "worlds_per_s": round(worlds / dt, 1),
        "rollouts_per_s": round(rollouts / dt, 1),
        "ms_per_decision": round(1000 * dt / decisions, 4) if decisions else None,
        "rollouts_per_decision": round(rollouts / decisions, 1) if decisions else None,
    }
    weighed = int(inf[I.ST_DECISIONS])
    if weighed:
        out["inference"] = {
            "decisions": weighed,
            "candidates_per_decision": round(int(inf[I.ST_CANDIDATES]) / weighed, 1),
            "kept_per_decision": round(int(inf[I.ST_KEPT]) / weighed, 2),
            "ess_mean": round(int(inf[I.ST_ESS_MILLI]) / 1000 / weighed, 2),
            "ess_histogram": [int(x) for x in inf[I.ST_ESS_HIST:I.ST_ESS_HIST + I.N_ESS_BINS]],
            "moves_proposed_per_decision": round(int(inf[I.ST_PROPOSED]) / weighed, 1),
            "moves_accepted_per_decision": round(int(inf[I.ST_ACCEPTED]) / weighed, 1),
        }
    return _emit(out, a.json)


def _emit(out: dict, as_json: bool) -> int:
    """Print a measurement: one JSON line, or one ``name: value`` line per figure; returns 0."""
    if as_json:
        print(json.dumps(out))
    else:
        for key, v in out.items():
            print(f"{key:>22}: {v}")
    return 0


def _positions(rules, what: str, seed: int, deals: int):
    """The kernel's inputs at every bid of the heuristic's auctions (``what`` bid), or at the
    écart of seat 0 forced to garde (``ecart``), in deals ``1_000_000 ..``: seats, hands, public
    views, the decision's arguments."""
    import numpy as np

    from tarotsim import rng
    from tarotsim.adapters import FastBotAdapter
    from tarotsim.engine import Game

    h = FastBotAdapter("heuristic")
    seats, hands, pubs, args = [], [], [], []
    for index in range(1_000_000, 1_000_000 + deals):
        game = Game(rules, seed, index, forced=(0, "garde") if what == "ecart" else None)
        while (d := game.decision) is not None and d.kind in ("bid", "call", "ecart"):
            view, legal = game.view(d.seat), game.legal_actions()
            if d.kind == what:
                _, ht, hs, a, pub = h.kernel_inputs(view, legal)
                seats.append(d.seat)
                hands.append((ht, hs))
                pubs.append(pub)
                args.append(a[:3])
            game.apply(h.choose(view, legal, rng.Rng(0)))
    return (np.array(seats, dtype=np.int64), np.array(hands, dtype=np.int64), np.array(pubs, dtype=np.int64),
            np.array(args, dtype=np.int64))


def _decisions(p, a) -> int:
    """``--decision bid`` or ``ecart``: the bid search on a batch of positions, one thread."""
    import numpy as np

    from bots import pimc
    from bots.bid_search import STAT_BID, STAT_ECART
    from tarotsim.runs import simulate
    from tarotsim._builds import bid_search as S
    from tarotsim.rules import Rules

    rules = Rules(table=a.table)
    if a.table == "2":
        p.error("--decision bid or ecart: the bid search does not play table 2")
    bots = a.bots or ",".join(["pimc:bid_search=1"] + ["heuristic"] * (rules.n_seats - 1))
    kinds, params, pol = simulate.bot_setup(rules, bots)
    if pol is not None or kinds[0] != pimc.CODE:
        p.error("--bots: registered bots only, the first a pimc bot (its bid search is timed)")
    what = 0 if a.decision == "bid" else 1
    seats, hands, pubs, args = _positions(rules, a.decision, a.seed, a.deals)
    # every position is the first seat's: its parameters decide, the others' bots bid the rest
    params = params.copy()
    params[:] = params[0]
    kinds = kinds.copy()
    kinds[:] = kinds[0]
    rv = rules.to_vector()
    scratch = S.new_scratch()
    t0 = time.perf_counter()
    S.run_decisions(rv, kinds, params, what, seats[:2], hands[:2], pubs[:2], args[:2], np.uint64(1), scratch)
    compile_s = time.perf_counter() - t0
    scratch = S.new_scratch()
    t0 = time.perf_counter()
    S.run_decisions(rv, kinds, params, what, seats, hands, pubs, args, np.uint64(a.seed), scratch)
    dt = time.perf_counter() - t0
    k = STAT_BID if what == 0 else STAT_ECART
    searched, rollouts = (int(x) for x in S.stats(scratch, len(scratch) - S.BID_LEN)[2 * k:2 * k + 2])
    n = len(seats)
    out = {"benchmark": "search", "decision": a.decision, "table": a.table, "bots": bots, "deals": a.deals,
           "threads": 1, "positions": n, "searched": searched, "compile_s": round(compile_s, 3),
           "seconds": round(dt, 3), "ms_per_decision": round(1000 * dt / n, 4) if n else None,
           "ms_per_searched": round(1000 * dt / searched, 4) if searched else None,
           "rollouts_per_decision": round(rollouts / searched, 1) if searched else None,
           "rollouts_per_s": round(rollouts / dt, 1) if dt > 0 else None}
    return _emit(out, a.json)


if __name__ == "__main__":
    sys.exit(main())
