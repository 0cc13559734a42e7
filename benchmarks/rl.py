"""Speed of the PettingZoo adapter (``tarotsim.runs.rl``), as JSON.

    python -m benchmarks.rl --table 4 --deals 200 --json

Each agent step draws a uniform legal action from the mask (numpy) and the observation is
computed at every step (``last()``); ``steps_per_s`` counts agent steps of the deals (the dead
steps after a deal's end excluded) per second, one thread.
"""

from __future__ import annotations

import argparse
import json
import sys
import time


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.rl", description=__doc__.split("\n\n")[0])
    p.add_argument("--table", default="4", choices=["3", "4", "5", "5d"])
    p.add_argument("--deals", type=int, default=200)
    p.add_argument("--seed", type=int, default=20240601)
    p.add_argument("--json", action="store_true", help="print JSON only")
    a = p.parse_args(argv)
    if a.deals < 1:
        p.error("--deals must be >= 1")
    import numpy as np

    from tarotsim.runs.rl import env

    e = env(a.table)
    rng = np.random.default_rng(a.seed)
    steps = 0
    t0 = time.perf_counter()
    e.reset(seed=a.seed)
    for k in range(a.deals):
        if k:
            e.reset()
        for _ in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    elapsed = time.perf_counter() - t0
    out = {"table": a.table, "deals": a.deals, "agent_steps": steps, "elapsed_s": round(elapsed, 3),
           "steps_per_s": round(steps / elapsed), "deals_per_s": round(a.deals / elapsed, 1),
           "command": "python -m benchmarks.rl " + " ".join(sys.argv[1:] if argv is None else argv)}
    print(json.dumps(out) if a.json else json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
