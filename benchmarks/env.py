"""Speed of the batched environment (``tarotsim.runs.env.VecEnv``), as JSON.

    python -m benchmarks.env --table 4 --num-envs 1024 --steps 2000 --json

Self-play by default (the agent decides at every seat; ``--opponents heuristic``: the agent at
seat 0 against kernel bots). Each step draws a uniform legal action in every slot (numpy, from
the masks) and the observation is computed at every step (``--no-obs``: masks only).
``steps_per_s``: decision steps (one per slot and step) per second of the whole loop, the
action draws and the copies ``step`` returns included; ``kernel_steps_per_s``: the same steps per
second spent in the step kernel only. One thread unless ``--threads``. ``compile_s``: the first
``reset`` (numba compiles or loads the kernels; ``--cold``: an empty cache, a real compilation).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.env", description=__doc__.split("\n\n")[0])
    p.add_argument("--table", default="4", choices=["3", "4", "5", "5d"])
    p.add_argument("--num-envs", type=int, default=1024)
    p.add_argument("--steps", type=int, default=2000)
    p.add_argument("--opponents", default=None)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--seed", type=int, default=20240601)
    p.add_argument("--no-obs", action="store_true")
    p.add_argument("--cold", action="store_true", help="compile from scratch in an empty numba cache")
    p.add_argument("--json", action="store_true", help="print JSON only")
    a = p.parse_args(argv)
    if a.num_envs < 1 or a.steps < 1:
        p.error("--num-envs and --steps must be >= 1")
    if a.cold:
        os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="tarotsim-numba-")
    import numpy as np

    from tarotsim.runs.env import VecEnv
    from tarotsim.rules import Rules

    t0 = time.perf_counter()
    env = VecEnv(Rules(a.table), a.num_envs, seed=a.seed, opponents=a.opponents, threads=a.threads,
                 observations=not a.no_obs)
    _, masks, _ = env.reset()
    compile_s = time.perf_counter() - t0

    kernel_s = 0.0
    run = env._run

    def timed(actions):
        nonlocal kernel_s
        t = time.perf_counter()
        run(actions)
        kernel_s += time.perf_counter() - t

    env._run = timed
    rng = np.random.default_rng(a.seed)
    deals = 0
    t0 = time.perf_counter()
    for _ in range(a.steps):
        k = (rng.random(a.num_envs) * masks.sum(axis=1)).astype(np.int64)
        actions = np.argmax(masks.cumsum(axis=1) > k[:, None], axis=1)
        _, masks, _, terminated, _ = env.step(actions)
        deals += int(terminated.sum())
    elapsed = time.perf_counter() - t0
    steps = a.steps * a.num_envs
    out = {"table": a.table, "num_envs": a.num_envs, "steps": a.steps, "opponents": a.opponents,
           "threads": a.threads, "observations": not a.no_obs, "decision_steps": steps, "deals": deals,
           "elapsed_s": round(elapsed, 3), "steps_per_s": round(steps / elapsed),
           "kernel_steps_per_s": round(steps / kernel_s), "deals_per_s": round(deals / elapsed),
           "compile_s": round(compile_s, 2), "cold": a.cold,
           "command": "python -m benchmarks.env " + " ".join(sys.argv[1:] if argv is None else argv)}
    print(json.dumps(out) if a.json else json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
