"""The pure-Python baseline: the reference engine (plain Python, lists of Card objects) playing
whole deals with random bots: the kind of speed a typical Python tarot program has.

    python -m benchmarks.baseline --table 4 --deals 2000 --json
"""

from __future__ import annotations

import argparse
import json
import sys
import time


def measure(table: str = "4", deals: int = 2000, seed: int = 20240601) -> dict:
    from tarotsim.reference import play_deal
    from tarotsim.rules import Rules

    rules = Rules(table=table)
    play_deal(rules, seed, 0)  # warm the imports
    t0 = time.perf_counter()
    for i in range(deals):
        play_deal(rules, seed, i)
    dt = time.perf_counter() - t0
    return {"engine": "reference (plain Python)", "table": table, "bots": "random", "deals": deals,
            "elapsed_s": round(dt, 3), "deals_per_s": round(deals / dt, 1)}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.baseline", description=__doc__.split("\n\n")[0])
    p.add_argument("--table", default="4", choices=["3", "4", "5", "5d"])
    p.add_argument("--deals", type=int, default=2000)
    p.add_argument("--seed", type=int, default=20240601)
    p.add_argument("--json", action="store_true", help="print JSON on one line")
    a = p.parse_args(argv)
    res = measure(a.table, a.deals, a.seed)
    print(json.dumps(res) if a.json else json.dumps(res, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
