"""Speed of a tournament with a Python bot (``module:Class``), as JSON: the batched engine
(:mod:`tarotsim.runs.pybatch`, what the library chooses) against the step-by-step reference engine
(the slow path, the fallback for a deal the batch cannot take), on the same deals with the same results.

    python -m benchmarks.pybots --table 4 --bots examples.my_bot:CautiousBot,greedy,greedy,greedy --deals 200 --json

``deals_per_s`` counts deal-plays (each deal once per seat rotation) per second of
``tournament.run``, one thread; ``speedup`` is the batched figure over the slow one. The kernels
are compiled (or loaded from the cache) before the clock starts.
"""

from __future__ import annotations

import argparse
import json
import sys
import time


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.pybots", description=__doc__.split("\n\n")[0])
    p.add_argument("--table", default="4", choices=["3", "4", "5", "5d"])
    p.add_argument("--bots", default="examples.my_bot:CautiousBot,greedy,greedy,greedy")
    p.add_argument("--deals", type=int, default=200)
    p.add_argument("--seed", type=int, default=4272324579)
    p.add_argument("--json", action="store_true", help="print JSON only")
    a = p.parse_args(argv)
    if a.deals < 1:
        p.error("--deals must be >= 1")

    from tarotsim.runs import tournament
    from tarotsim.runs.players import parse_players
    from tarotsim.runs.runner import Runner
    from tarotsim.rules import Rules

    rules = Rules(a.table)
    entries = parse_players(a.bots, rules)

    def slow(rules, seed, lo, hi, seats, threads):
        runner = Runner(rules, seed, seats, threads)
        runner.batched = False  # the step-by-step engine
        return runner.block(lo, hi)[0]

    tournament.run(rules, a.seed, 2, entries, threads=1)  # compile or load the kernels
    timings, results = {}, {}
    for name, play in (("batched", tournament.play_chunk), ("slow", slow)):
        t0 = time.perf_counter()
        res = tournament.run(rules, a.seed, a.deals, entries, threads=1, play=play)
        timings[name] = time.perf_counter() - t0
        results[name] = res.to_dict()["bots"]
    plays = a.deals * res.rotations
    out = {"table": a.table, "bots": a.bots, "deals": a.deals, "rotations": res.rotations, "deal_plays": plays,
           "batched_s": round(timings["batched"], 3), "slow_s": round(timings["slow"], 3),
           "batched_deals_per_s": round(plays / timings["batched"]), "slow_deals_per_s": round(plays / timings["slow"]),
           "speedup": round(timings["slow"] / timings["batched"], 1),
           "same_results": results["batched"] == results["slow"],
           "command": "python -m benchmarks.pybots " + " ".join(sys.argv[1:] if argv is None else argv)}
    print(json.dumps(out) if a.json else json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
