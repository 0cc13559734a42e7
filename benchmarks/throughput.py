"""Deals per second of the numba kernels, as JSON.

    python -m benchmarks.throughput --table 4 --bots random --deals 2000000 --threads 1 --json

``compile_s`` is the first call on a few deals (numba compiles, or loads its on-disk cache:
``--cold`` uses a fresh empty cache directory so the figure is a real compilation).
``deals_per_s`` is steady state: the timed run starts after that first call. It is measured on
code loaded from numba's cache: a child process compiles first when the cache lacks it (code
compiled in the measuring process runs several percent faster or slower, by where it lands in
memory; BENCHMARKS.md, "Design measurements"). ``--cold`` and ``--compile-here``
compile in this process. ``--mode
aggregate`` (default) is the streaming summary; ``--mode facts`` fills the facts table.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine() -> dict:
    """The machine and versions a figure was measured with (every benchmark's JSON ``machine``)."""
    import numba
    import numpy as np

    from tarotsim._kernels import HAS_PDEP

    return {"cpu": _cpu_model(), "cores": os.cpu_count(), "pdep": bool(HAS_PDEP),
            "python": platform.python_version(), "numba": numba.__version__, "numpy": np.__version__,
            "platform": platform.platform()}


def _engine_bots(text: str, rules):
    """``--bots`` as the kernels take it: registered bots with parameters, or a user's policy set
    (``module:ATTR``, e.g. ``examples.my_policy:POLICY``); a slow-path Python bot is refused."""
    from tarotsim.runs.players import PlayersError, parse_players

    try:
        players = parse_players(text, rules)
    except (PlayersError, ValueError) as e:  # an unknown bot, a bad parameter, a module that does not load
        raise SystemExit(f"benchmarks.throughput: {e}") from None
    if not all(p.fast for p in players):
        raise SystemExit("benchmarks.throughput: a Python bot (module:Class) plays on the slow path; "
                         "measure it with tarotsim simulate")
    return [p.engine_bot for p in players]


def fill_cache(table: str, bots: str, mode: str = "aggregate") -> None:
    """Compile the kernels of a run in a child process, into numba's on-disk cache, so that this
    process times code loaded from it, as a user's run loads it."""
    subprocess.run([sys.executable, "-m", "benchmarks.throughput", "--table", table, "--bots", bots,
                    "--mode", mode, "--deals", "64", "--json", "--compile-here"],
                   check=True, capture_output=True)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.throughput", description=__doc__.split("\n\n")[0])
    p.add_argument("--table", default="4", choices=["3", "4", "5", "5d", "2"])
    p.add_argument("--bots", default="random")
    p.add_argument("--deals", type=int, default=2_000_000)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--chunk-size", type=int, default=None)
    p.add_argument("--seed", type=int, default=20240601)
    p.add_argument("--mode", choices=["aggregate", "facts"], default="aggregate")
    p.add_argument("--repeat", type=int, default=1, help="timed runs; the best is reported")
    p.add_argument("--cold", action="store_true", help="compile from scratch in an empty numba cache")
    p.add_argument("--json", action="store_true", help="print JSON only")
    p.add_argument("--compile-here", action="store_true",
                   help="compile in this process, not in a child first (the timed code then runs where this "
                        "process placed it)")
    a = p.parse_args(argv)

    if a.cold:
        os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="tarotsim-numba-")
    here = a.cold or a.compile_here
    if not here:
        fill_cache(a.table, a.bots, a.mode)
    t_import = time.perf_counter()

    from tarotsim.runs import simulate
    from tarotsim.rules import Rules
    import_s = time.perf_counter() - t_import

    rules = Rules(table=a.table)
    bots = _engine_bots(a.bots, rules)
    chunk = a.chunk_size or simulate.DEFAULT_CHUNK
    run = simulate.aggregate if a.mode == "aggregate" else simulate.facts

    t0 = time.perf_counter()
    run(rules, a.seed, 0, 64, bots=bots)  # compile (or load from the cache)
    compile_s = time.perf_counter() - t0

    best = None
    for _ in range(max(1, a.repeat)):
        t0 = time.perf_counter()
        out = run(rules, a.seed, 0, a.deals, bots=bots, threads=a.threads, chunk_size=chunk)
        dt = time.perf_counter() - t0
        best = dt if best is None else min(best, dt)
    res = {
        "deals_per_s": round(a.deals / best, 1),
        "elapsed_s": round(best, 4),
        "compile_s": round(compile_s, 3),
        "cold_cache": a.cold,
        "compiled_in": "this process" if here else "a child process",
        "import_s": round(import_s, 3),
        "deals": a.deals,
        "table": a.table,
        "bots": a.bots,
        "threads": a.threads,
        "chunk_size": chunk,
        "mode": a.mode,
        "seed": a.seed,
        "machine": machine(),
    }
    if a.mode == "aggregate":
        res["played"] = out.played
        res["made_rate"] = out.made_rate
    if a.json:
        print(json.dumps(res))
    else:
        print(json.dumps(res, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
