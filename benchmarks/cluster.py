"""The Dask path against the plain local run on the same deals, as JSON.

    python -m benchmarks.cluster --table 4 --bots random --deals 10000000 --workers 1,2 --json

For the same deals: the plain local run on one thread (``tarotsim.runs.shards.execute``), then a
local Dask cluster of N worker processes (one thread each) for every N of ``--workers``. Every
figure is steady state: the timed work starts once every worker has loaded the kernels
(``elapsed_s``); ``wall_s`` adds the cluster's start and stop. ``overhead`` compares the Dask
run on one worker with the local run on one thread; ``scaling`` the Dask run on the most workers
with the one on one worker. The totals are checked equal to the local run's.
"""

from __future__ import annotations

import argparse
import json
import time


def main(argv=None) -> None:
    from tarotsim.runs import distributed as tdist
    from tarotsim.runs import shards
    from tarotsim.rules import Rules

    ap = argparse.ArgumentParser(prog="python -m benchmarks.cluster", description=__doc__.split("\n\n")[0])
    ap.add_argument("--command", default="simulate", choices=shards.COMMANDS)
    ap.add_argument("--table", default="4")
    ap.add_argument("--bots", default="random")
    ap.add_argument("--deals", type=int, default=10_000_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", default="1,2", help="worker processes of the local Dask clusters, e.g. 1,2")
    ap.add_argument("--task-deals", type=int, default=None, help="deals per task (default: the command's)")
    ap.add_argument("--no-local", action="store_true", help="skip the plain local run")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)

    job = shards.Job.of(args.command, Rules(args.table), args.seed, 0, args.deals, args.bots)
    out = {"command": args.command, "table": args.table, "bots": args.bots, "deals": args.deals,
           "task_deals": args.task_deals or job.task_deals(), "runs": []}
    local = None
    if not args.no_local:
        t = time.perf_counter()
        local = shards.execute(job, threads=1)
        out["runs"].append({"where": "local, 1 thread", "elapsed_s": local.elapsed_s,
                            "wall_s": time.perf_counter() - t, "deals_per_s": args.deals / local.elapsed_s})
    for n in (int(x) for x in args.workers.split(",")):
        t = time.perf_counter()
        saved = shards.execute(job, executor=tdist.executor(local_workers=n, task_deals=args.task_deals))
        same = None if local is None else \
            shards._totals_json(args.command, saved.totals) == shards._totals_json(args.command, local.totals)
        out["runs"].append({"where": f"dask, {n} worker(s)", "workers": n, "elapsed_s": saved.elapsed_s,
                            "wall_s": time.perf_counter() - t, "deals_per_s": args.deals / saved.elapsed_s,
                            "same_totals": same})
    dask = [r for r in out["runs"] if "workers" in r]
    one = next((r for r in dask if r["workers"] == 1), None)
    if local is not None and one is not None:
        out["overhead"] = one["elapsed_s"] / out["runs"][0]["elapsed_s"] - 1
    if one is not None and len(dask) > 1:
        out["scaling"] = one["elapsed_s"] / dask[-1]["elapsed_s"]
    print(json.dumps(out, indent=None if args.json else 2))


if __name__ == "__main__":
    main()
