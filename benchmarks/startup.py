"""Start-up and memory of the command line, as a user meets them, as JSON.

    python -m benchmarks.startup --json                 # warm and cold start-up, peak RSS

* ``score_warm_s``: wall time of ``tarotsim score ...`` (no numba at all on that path);
* ``simulate_1000_warm_s``: ``tarotsim simulate --deals 1000 --bots random`` with the numba cache filled;
* ``simulate_1000_cold_s``: the same with an empty cache (everything compiled);
* ``simulate_1000_heuristic_cold_s``: ``--bots heuristic`` with an empty cache (the deal kernel
  with the bots' dispatch, the built-in bots and the policy defaults compiled);
* ``peak_rss_mb``: peak resident memory of ``tarotsim simulate --deals N --bots random`` (no records),
  for two values of N: it must not grow with the number of deals.

Each wall time is the median of ``--repeat`` runs, in fresh processes.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

CLI = [sys.executable, "-m", "tarotsim.cli"]
SCORE = CLI + ["score", "--contract", "garde", "--oudlers", "2", "--points", "45"]


def _wall(cmd, env=None) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    return time.perf_counter() - t0


def _peak_rss_mb(cmd) -> float:
    """Peak RSS of one child process (ru_maxrss of a fresh ``wait4``), in MB."""
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    if status != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed")
    return usage.ru_maxrss / 1024  # kilobytes on Linux


def measure(repeat: int = 5, rss_deals=(100_000, 10_000_000)) -> dict:
    env_warm = dict(os.environ)
    _wall(CLI + ["simulate", "--deals", "1000", "--seed", "1", "--bots", "random"])  # fill the cache
    res = {
        "score_warm_s": statistics.median(_wall(SCORE) for _ in range(repeat)),
        "simulate_1000_warm_s": statistics.median(
            _wall(CLI + ["simulate", "--deals", "1000", "--seed", "1", "--bots", "random"], env_warm)
            for _ in range(repeat)),
    }
    for key, bots in (("simulate_1000_cold_s", "random"), ("simulate_1000_heuristic_cold_s", "heuristic")):
        colds = []
        for _ in range(max(1, repeat // 3)):
            env = dict(os.environ, NUMBA_CACHE_DIR=tempfile.mkdtemp(prefix="tarotsim-cold-"))
            colds.append(_wall(CLI + ["simulate", "--deals", "1000", "--seed", "1", "--bots", bots], env))
        res[key] = statistics.median(colds)
    res["peak_rss_mb"] = {str(n): round(_peak_rss_mb(CLI + ["simulate", "--deals", str(n), "--seed", "1",
                                                             "--bots", "random"]), 1)
                          for n in rss_deals}
    res = {k: (round(v, 3) if isinstance(v, float) else v) for k, v in res.items()}
    res["repeat"] = repeat
    res["command"] = "python -m benchmarks.startup"
    return res


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.startup", description=__doc__.split("\n\n")[0])
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--rss-deals", default="100000,10000000", help="comma-separated deal counts for peak RSS")
    p.add_argument("--json", action="store_true", help="print JSON on one line")
    a = p.parse_args(argv)
    res = measure(a.repeat, tuple(int(x) for x in a.rss_deals.split(",")))
    print(json.dumps(res) if a.json else json.dumps(res, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
