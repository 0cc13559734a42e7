"""Speed of the ``pimc`` search inside the deal kernel, as JSON.

    python -m benchmarks.search --table 4 --bots pimc,heuristic,heuristic,heuristic --deals 2000 --json

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
    a = p.parse_args(argv)
    if a.deals < 1:
        p.error("--deals must be >= 1")

    if a.cold:
        os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="tarotsim-numba-")
    import numpy as np

    from tarotsim import simulate
    from tarotsim._kernels import layout as L
    from bots import inference as I
    from tarotsim._builds import pimc as K
    from tarotsim.rules import Rules

    rules = Rules(table=a.table)
    bots = a.bots or ",".join(["pimc"] + ["heuristic"] * (rules.n_seats - 1))
    kinds, params, pol = simulate.bot_setup(rules, bots)
    if pol is not None or not (kinds == L.BOT_PIMC).any():
        p.error("--bots: registered bots only, and at least one pimc seat")
    rv = rules.to_vector()
    seed = np.uint64(a.seed)

    def run(start, count):
        acc = np.zeros(L.ACC_LEN, dtype=np.int64)
        stats = np.zeros(3 + I.N_STATS, dtype=np.int64)
        K.BUILDS[K.build_for(kinds, params)].run_aggregate(rv, seed, start, count, np.int64(-1), np.int64(0), kinds,
                                                           params, None, acc, stats)
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
    if a.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k:>22}: {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
