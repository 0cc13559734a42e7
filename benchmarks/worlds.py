"""Cost of the world sampler's kernels at positions of heuristic deals, as a Markdown table or JSON.

    python -m benchmarks.worlds --tables 4,5,3,2 --seed 11 --deals 20 --batch 10000 --json

Positions: ``--deals`` deals per table (seed ``--seed``, indices 0, 1, ...; a deal everyone
passes is skipped and not counted) played by the ``heuristic`` bot at every seat through
``tarotsim.engine.Game``; at three stages a position is taken at every card decision, the seat to
play being the one whose worlds are drawn (its view, ``tarotsim.worlds.knowledge``). With ``T``
tricks in a deal (24 at table 3, 18 at 4, 15 at 5 and 5d, 36 at 2, R-VAR-TWO), the stages are
the card decisions of the trick played when ``0`` (``trick 1``), ``T // 2`` (``mid-deal``) and
``T - 3`` (``late``: three tricks left, this one included) tricks are over, so one position per
active seat and deal at each stage.

Timed per position, one thread, from Python with arrays allocated once (the kernels allocate
nothing), each figure the median of ``--repeat`` calls timed one by one after a warm-up call of
every kernel (which loads it from numba's cache: a child process fills the cache first, so the timed
code is placed as a bot's is; ``--compile-here`` compiles in this process instead; ``compile_s``):

* ``derive``: ``derive(rv, know, cons)``, the constraints from the knowledge vector;
* ``count``: ``count_worlds(cons, wf, wi)``, which fills the count tables (``_prepare``);
* ``worlds64``: what a PIMC decision pays, ``derive`` then ``sample_worlds`` drawing 64 worlds
  (the count tables filled again inside it);
* ``call``: ``count_worlds`` on constraints marked as an error, which returns at once: the cost
  of calling a kernel from Python, included in every figure above.

Per stage and table: the median and the max over positions of those per-position medians (µs;
``count`` also its 90th percentile, ``p90``), and ``worlds_per_s``: all the worlds drawn by one
``sample_worlds`` call of ``--batch`` worlds per position, over the sum of those calls' times.
Speed is measured here, never asserted in tests. Progress goes to stderr; stdout has the table
(default) or one line of JSON (``--json``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from functools import partial

from benchmarks.throughput import machine

STAGES = ("trick 1", "mid-deal", "late")
DEFAULT_TABLES = "4,5,3,2"


def stage_tricks(n_tricks: int) -> dict[str, int]:
    """Tricks over at each stage's trick, for a deal of ``n_tricks`` tricks."""
    return {"trick 1": 0, "mid-deal": n_tricks // 2, "late": n_tricks - 3}


def _note(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def positions(rules, seed: int, deals: int) -> tuple[dict[str, list], int]:
    """``({stage: [knowledge vectors]}, deals tried)`` of ``deals`` heuristic deals that are
    played (thrown-in deals skipped) at ``rules``'s table."""
    from tarotsim.adapters import FastBotAdapter
    from tarotsim.engine import Game
    from tarotsim.rng import STREAM_BOTS, Rng
    from tarotsim.rules import N_TRICKS
    from tarotsim.worlds import knowledge

    at = {t: s for s, t in stage_tricks(N_TRICKS[rules.table]).items()}
    bot = FastBotAdapter("heuristic")
    out: dict[str, list] = {s: [] for s in STAGES}
    played = index = 0
    while played < deals:
        if index >= 50 * deals + 50:
            raise SystemExit(f"benchmarks.worlds: table {rules.table}: {index} deals, only {played} played")
        game = Game(rules, seed=seed, index=index)
        rng = Rng.for_deal(seed, index, STREAM_BOTS)
        found: dict[str, list] = {s: [] for s in STAGES}
        while (d := game.decision) is not None:
            view = game.view(d.seat)
            if d.kind == "card" and len(view.tricks) in at:
                found[at[len(view.tricks)]].append(knowledge(view, rules))
            game.apply(bot.choose(view, game.legal_actions(), rng))
        index += 1
        if found["trick 1"]:  # the deal was played (not thrown in)
            played += 1
            for s in STAGES:
                out[s] += found[s]
    return out, index


def _median_us(fn, repeat: int) -> float:
    """Median over ``repeat`` calls of ``fn()``, each timed alone, in µs."""
    clock = time.perf_counter_ns
    times = []
    for _ in range(repeat):
        t0 = clock()
        fn()
        times.append(clock() - t0)
    return statistics.median(times) / 1000.0


def _summary(values: list[float]) -> dict:
    return {"median": round(statistics.median(values), 3), "max": round(max(values), 3)}


def measure_stage(W, rv, knows: list, batch: int, repeat: int, state) -> dict:
    """The figures of one stage of one table (see the module docstring)."""
    import numpy as np

    cons = np.zeros(W.C_LEN, dtype=np.int64)
    bad = np.zeros(W.C_LEN, dtype=np.int64)
    bad[W.C_STATUS] = W.ERR_INPUT
    out64 = np.empty((64, 78), dtype=np.int8)
    out_batch = np.empty((batch, 78), dtype=np.int8)
    wf, wi = W.new_workspace()
    derive, count_worlds, sample_worlds = W.derive, W.count_worlds, W.sample_worlds

    def check(status, what):
        if status != W.OK:
            raise SystemExit(f"benchmarks.worlds: {what} returned status {int(status)}")

    def worlds64(know):
        derive(rv, know, cons)
        sample_worlds(cons, state, out64, wf, wi)

    fig: dict[str, list] = {"derive_us": [], "count_us": [], "worlds64_us": [], "call_us": []}
    drawn, batch_s = 0, 0.0
    for know in knows:
        check(derive(rv, know, cons), "derive")
        check(count_worlds(cons, wf, wi)[0], "count_worlds")
        check(sample_worlds(cons, state, out64, wf, wi)[0], "sample_worlds")
        fig["derive_us"].append(_median_us(partial(derive, rv, know, cons), repeat))
        fig["count_us"].append(_median_us(partial(count_worlds, cons, wf, wi), repeat))
        fig["worlds64_us"].append(_median_us(partial(worlds64, know), repeat))
        fig["call_us"].append(_median_us(partial(count_worlds, bad, wf, wi), repeat))
        t0 = time.perf_counter()
        status, _ = sample_worlds(cons, state, out_batch, wf, wi)
        batch_s += time.perf_counter() - t0
        check(status, "sample_worlds")
        drawn += batch
    res: dict = {"positions": len(knows)}
    for k, v in fig.items():
        res[k] = _summary(v)
    res["count_us"]["p90"] = round(float(np.percentile(fig["count_us"], 90)), 3)
    res["worlds_per_s"] = round(drawn / batch_s)
    return res


def _us(x: float) -> str:
    return f"{x:.1f}" if x < 10 else f"{x:,.0f}"


def markdown(res: dict) -> str:
    """The Markdown table of a result (``main(["--json"])``'s JSON): one row per stage and table,
    stage by stage."""
    lines = ["| position | positions | derive, µs (median / max) | count tables, µs (median / max) | "
             f"64 worlds, µs (median / max) | worlds/s in batches of {res['batch']:,} |",
             "|---|---|---|---|---|---|"]
    for stage in STAGES:
        for r in res["rows"]:
            if r["stage"] != stage:
                continue
            lines.append(f"| table {r['table']}, {stage} | {r['positions']} | "
                         f"{_us(r['derive_us']['median'])} / {_us(r['derive_us']['max'])} | "
                         f"{_us(r['count_us']['median'])} / {_us(r['count_us']['max'])} | "
                         f"{_us(r['worlds64_us']['median'])} / {_us(r['worlds64_us']['max'])} | "
                         f"{r['worlds_per_s']:,} |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.worlds", description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", default=DEFAULT_TABLES, help=f"comma-separated, of 2, 3, 4, 5, 5d (default "
                   f"{DEFAULT_TABLES})")
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--deals", type=int, default=20, help="deals played per table (default 20)")
    p.add_argument("--batch", type=int, default=10_000, help="worlds per sample_worlds call for worlds/s")
    p.add_argument("--repeat", type=int, default=31, help="timed calls per position and figure (median)")
    p.add_argument("--json", action="store_true", help="print JSON only")
    p.add_argument("--compile-here", action="store_true",
                   help="compile in this process, not in a child first (the timed code then runs where this "
                        "process placed it)")
    a = p.parse_args(argv)
    tables = [t.strip() for t in a.tables.split(",") if t.strip()]
    if not tables or any(t not in ("2", "3", "4", "5", "5d") for t in tables) or len(set(tables)) < len(tables):
        p.error("--tables: distinct tables among 2, 3, 4, 5, 5d")
    if a.deals < 1 or a.batch < 1 or a.repeat < 1:
        p.error("--deals, --batch and --repeat must be >= 1")
    t_start = time.perf_counter()
    if not a.compile_here:  # fill numba's cache in a child: the timed code is then loaded, as a bot's is
        subprocess.run([sys.executable, "-m", "benchmarks.worlds", "--tables", tables[0], "--seed", str(a.seed),
                        "--deals", "1", "--repeat", "1", "--batch", "1", "--json", "--compile-here"],
                       check=True, capture_output=True)
    import numpy as np

    from tarotsim._kernels import worlds as W
    from tarotsim.rules import N_TRICKS, Rules

    state = np.uint64(a.seed)
    found = {}
    t0 = time.perf_counter()
    for t in tables:
        found[t] = positions(Rules(table=t), a.seed, a.deals)
        _note(f"table {t}: {found[t][1]} deals, {a.deals} played: "
              + ", ".join(f"{s} {len(found[t][0][s])}" for s in STAGES) + " positions")
    play_s = time.perf_counter() - t0

    t0 = time.perf_counter()  # warm-up: compile (or load from numba's cache) every kernel timed
    rv = Rules(table=tables[0]).to_vector()
    know = found[tables[0]][0]["trick 1"][0]
    cons = np.zeros(W.C_LEN, dtype=np.int64)
    wf, wi = W.new_workspace()
    W.derive(rv, know, cons)
    W.count_worlds(cons, wf, wi)
    W.sample_worlds(cons, state, np.empty((64, 78), dtype=np.int8), wf, wi)
    compile_s = time.perf_counter() - t0
    _note(f"kernels ready in {compile_s:.2f} s")

    rows = []
    t0 = time.perf_counter()
    for t in tables:
        rules = Rules(table=t)
        rv = rules.to_vector()
        for stage in STAGES:
            knows = found[t][0][stage]
            if not knows:
                continue
            r = measure_stage(W, rv, knows, a.batch, a.repeat, state)
            rows.append({"table": t, "stage": stage, "tricks_over": stage_tricks(N_TRICKS[t])[stage], **r})
            _note(f"table {t}, {stage}: {r['positions']} positions, 64 worlds {r['worlds64_us']['median']} µs")
    timed_s = time.perf_counter() - t0
    res = {"benchmark": "worlds", "tables": tables, "seed": a.seed, "deals": a.deals, "batch": a.batch,
           "repeat": a.repeat, "threads": 1, "rows": rows, "compile_s": round(compile_s, 3),
           "compiled_in": "this process" if a.compile_here else "a child process",
           "play_s": round(play_s, 3), "timed_s": round(timed_s, 3),
           "elapsed_s": round(time.perf_counter() - t_start, 3), "machine": machine(),
           "command": "python -m benchmarks.worlds " + " ".join(sys.argv[1:] if argv is None else argv)}
    print(json.dumps(res) if a.json else markdown(res), end="\n" if a.json else "")
    return 0


if __name__ == "__main__":
    sys.exit(main())
