"""Every benchmark of the project in one run, as JSON (and optionally a Markdown table).

    python -m benchmarks.suite --json > bench.json
    python -m benchmarks.suite --markdown BENCHMARKS.md

Throughput for tables 3, 4, 5, 5d x bots random, greedy, heuristic x one thread and all cores
(each in a fresh process, after compilation), the pure-Python baseline (the reference engine)
measured in the same run, the deal kernel beside a hand-written C kernel (``benchmarks.cbaseline``),
start-up and memory of the command line, the pimc search, the world sampler's kernels
(``benchmarks.worlds``) and the exact solver (``benchmarks.solver``). Every figure
comes with the command that reproduces it.
Ratios (speedup, scaling) are computed from figures of this run.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys

from benchmarks import solver as solver_bench
from benchmarks import worlds as worlds_bench

TABLES = ("3", "4", "5", "5d", "2")  # table 2: R-VAR-TWO
BOTS = ("random", "greedy", "heuristic")
DEALS = {"random": 2_000_000, "greedy": 1_000_000, "heuristic": 1_000_000}
#: the pimc search (one pimc seat, three heuristic ones, table 4) at three budgets
SEARCH_WORLDS = (8, 32, 128)
SEARCH_DEALS = {8: 2000, 32: 1000, 128: 300}
#: the world sampler (``benchmarks.worlds``): heuristic deals per table, worlds per batch
WORLDS_DEALS = 20
WORLDS_BATCH = 10_000
#: the exact solver (``benchmarks.solver``): positions per table and tricks left, whole deals
SOLVER_DEALS = 40
SOLVER_LEFT = solver_bench.DEFAULT_LEFT
SOLVER_FULL = 10


def _run(module: str, *args: str) -> dict:
    cmd = [sys.executable, "-m", module, *args, "--json"]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    res = json.loads(out.strip().splitlines()[-1])
    res["command"] = "python -m " + module + " " + " ".join(args) + " --json"
    return res


def measure(quick: bool = False, repeat: int = 3) -> dict:
    cores = os.cpu_count() or 1
    scale = 10 if quick else 1
    rows = []
    for table in TABLES:
        for bots in BOTS:
            for threads in sorted({1, cores}):
                deals = DEALS[bots] // scale
                r = _run("benchmarks.throughput", "--table", table, "--bots", bots, "--deals", str(deals),
                         "--threads", str(threads), "--repeat", str(repeat))
                rows.append({k: r[k] for k in ("table", "bots", "threads", "deals", "deals_per_s", "command")})
                machine = r["machine"]
    search = []
    for w in SEARCH_WORLDS:
        r = _run("benchmarks.search", "--table", "4", "--bots", f"pimc:worlds={w},heuristic,heuristic,heuristic",
                 "--deals", str(max(20, SEARCH_DEALS[w] // scale)))
        search.append(dict(r, worlds=w))
    worlds = _run("benchmarks.worlds", "--deals", str(max(2, WORLDS_DEALS // scale)),
                  "--batch", str(WORLDS_BATCH // scale))
    solver = _run("benchmarks.solver", "--deals", str(max(4, SOLVER_DEALS // scale)), "--left",
                  "4,6,8" if quick else SOLVER_LEFT, "--full", str(max(1, SOLVER_FULL // scale)))
    baseline = _run("benchmarks.baseline", "--table", "4", "--deals", str(2000 // scale))
    cbaseline = _run("benchmarks.cbaseline", "--deals", str(DEALS["random"] // scale), "--repeat", str(repeat))
    startup = _run("benchmarks.startup", "--repeat", "3" if not quick else "1",
                   "--rss-deals", "100000,10000000" if not quick else "10000,1000000")

    def rate(table, bots, threads):
        return next(r["deals_per_s"] for r in rows if (r["table"], r["bots"], r["threads"]) == (table, bots, threads))

    ratios = {
        "speedup_random_t4_vs_reference": round(rate("4", "random", 1) / baseline["deals_per_s"], 1),
        "scaling_random_t4_all_cores": round(rate("4", "random", cores) / rate("4", "random", 1), 2),
        "scaling_heuristic_t4_all_cores": round(rate("4", "heuristic", cores) / rate("4", "heuristic", 1), 2),
    }
    return {"machine": machine, "throughput": rows, "baseline": baseline, "startup": startup, "ratios": ratios,
            "search": search, "worlds": worlds, "solver": solver, "cbaseline": cbaseline}


#: The targets of the benchmark issue: (what, key function of the results, comparison, target, unit)
TARGETS = (
    ("random bots, table 4, full deals, one core", lambda r, q, s, b: _rate(r, "4", "random", 1), ">=", 800_000,
     "deals/s"),
    ("heuristic bots, table 4, one core", lambda r, q, s, b: _rate(r, "4", "heuristic", 1), ">=", 150_000, "deals/s"),
    ("all cores vs one (table 4, random)", lambda r, q, s, b: q["scaling_random_t4_all_cores"], ">=", 1.8, "x"),
    ("all cores vs one (table 4, heuristic)", lambda r, q, s, b: q["scaling_heuristic_t4_all_cores"], ">=", 1.8, "x"),
    ("speedup over the pure-Python reference engine", lambda r, q, s, b: q["speedup_random_t4_vs_reference"], ">=",
     200, "x"),
    ("`tarotsim score`, warm", lambda r, q, s, b: s["score_warm_s"], "<=", 0.5, "s"),
    ("`tarotsim simulate --deals 1000`, warm cache", lambda r, q, s, b: s["simulate_1000_warm_s"], "<=", 2, "s"),
    ("cold first run, random bots (`simulate --deals 1000`, empty cache)",
     lambda r, q, s, b: s["simulate_1000_cold_s"], "<=", 30, "s"),
    ("cold first run, heuristic bots (`simulate --deals 1000 --bots heuristic`, empty cache)",
     lambda r, q, s, b: s["simulate_1000_heuristic_cold_s"], "<=", 30, "s"),
    ("peak RSS, 10,000,000 deals, no records", lambda r, q, s, b: max(s["peak_rss_mb"].values()), "<=", 300, "MB"),
)
#: the search issue's budget: a pimc card decision of the default bot (32 worlds), one core
SEARCH_TARGET_MS = 10


def _rate(rows, table, bots, threads):
    for r in rows:
        if (r["table"], r["bots"], r["threads"]) == (table, bots, threads):
            return r["deals_per_s"]
    return max((r["deals_per_s"] for r in rows if (r["table"], r["bots"]) == (table, bots)), default=0.0)


def _fmt(x, unit) -> str:
    return f"{x:,.0f} {unit}" if unit == "deals/s" else f"{x:,.2f} {unit}" if unit != "x" else f"{x:,.2f}x"


def markdown(res: dict) -> str:
    m = res["machine"]
    rows, q, s, b = res["throughput"], res["ratios"], res["startup"], res["baseline"]
    lines = ["# Benchmarks", "",
             "Written by `python -m benchmarks.suite --markdown BENCHMARKS.md` (every figure below comes from that "
             "one run; each row names the command that reproduces it). Throughput is the best of `--repeat` timed "
             "runs after compilation, whole deals (auction, chien and écart, declarations, play, counting, scoring). "
             "The machine is a shared virtual one: the same command can vary by a third from one minute to the "
             "next, so compare figures of one run.", "",
             f"Machine: {m['cpu']}, {m['cores']} cores, Python {m['python']}, numba {m['numba']}, "
             f"numpy {m['numpy']}.", "",
             "## Targets", "",
             "| target | measured | wanted | met |", "|---|---|---|---|"]
    for what, get, cmp, want, unit in TARGETS:
        x = get(rows, q, s, b)
        ok = x >= want if cmp == ">=" else x <= want
        lines.append(f"| {what} | {_fmt(x, unit)} | {cmp} {_fmt(want, unit)} | {'yes' if ok else '**no**'} |")
    lines += ["", "## Throughput", "",
              "| table | bots | threads | deals/s | command |", "|---|---|---|---|---|"]
    for r in res["throughput"]:
        lines.append(f"| {r['table']} | {r['bots']} | {r['threads']} | {r['deals_per_s']:,.0f} | `{r['command']}` |")
    lines += ["", "## Baseline, start-up, memory", "", "| what | figure | command |", "|---|---|---|",
              f"| pure-Python reference engine, table 4, random | {b['deals_per_s']:,.0f} deals/s | `{b['command']}` |",
              f"| speedup of the kernels over it (table 4, random, one core) | {q['speedup_random_t4_vs_reference']:,}x | |",
              f"| all cores vs one (table 4, random / heuristic) | {q['scaling_random_t4_all_cores']}x / "
              f"{q['scaling_heuristic_t4_all_cores']}x | |",
              f"| `tarotsim score ...`, warm | {s['score_warm_s']} s | `{s['command']}` |",
              f"| `tarotsim simulate --deals 1000`, warm cache | {s['simulate_1000_warm_s']} s | |",
              f"| `tarotsim simulate --deals 1000`, cold cache (compiling) | {s['simulate_1000_cold_s']} s | |",
              f"| `tarotsim simulate --deals 1000 --bots heuristic`, cold cache | "
              f"{s['simulate_1000_heuristic_cold_s']} s | |"]
    for n, mb in s["peak_rss_mb"].items():
        lines.append(f"| peak RSS, `tarotsim simulate --deals {int(n):,}` (no records) | {mb} MB | |")
    if res.get("cbaseline"):
        lines += ["", *cbaseline_section(res["cbaseline"])]
    if res.get("search"):
        lines += ["", "## Search (pimc)", "",
                  "One `pimc` seat and three `heuristic` ones at table 4, one thread. A decision is a card "
                  "decision searched (a single legal card is played without search); rates are per second of the "
                  f"whole run, so ms per decision is an upper bound (target: {SEARCH_TARGET_MS} ms or less).", "",
                  "| worlds | ms per decision | decisions/s | worlds/s | rollouts/s | deals/s | command |",
                  "|---|---|---|---|---|---|---|"]
        for r in res["search"]:
            lines.append(f"| {r['worlds']} | {r['ms_per_decision']:.2f} | {r['decisions_per_s']:,.0f} | "
                         f"{r['worlds_per_s']:,.0f} | {r['rollouts_per_s']:,.0f} | {r['deals_per_s']:,.0f} | "
                         f"`{r['command']}` |")
    if res.get("worlds"):
        lines += ["", *worlds_section(res["worlds"])]
    if res.get("solver"):
        lines += ["", *solver_section(res["solver"])]
    return "\n".join(lines) + "\n"


def cbaseline_section(c: dict) -> list[str]:
    """The lines of the ``## Beside hand-written C`` section from a ``benchmarks.cbaseline`` result."""
    return ["## Beside hand-written C", "",
            f"The deal kernel (table 4, random bots, one thread) and `benchmarks/cbaseline.c` ({c['compiler']}) "
            f"playing the same {c['deals']:,} deals (seed {c['seed']}) with the same totals, timed in turn in one "
            f"run, best of {c['repeat']} each; what work is and is not the same: the docstring of "
            "`benchmarks/cbaseline.py`. Above 1: the kernel is faster.", "",
            "| kernel deals/s | C deals/s | kernel / C (best) | kernel / C (median of rounds) | command |",
            "|---|---|---|---|---|",
            f"| {c['kernel_deals_per_s']:,.0f} | {c['c_deals_per_s']:,.0f} | {c['ratio']:.3f}x | "
            f"{c['median_ratio']:.3f}x | `{c['command']}` |"]


def solver_section(r: dict) -> list[str]:
    """The lines of the ``## Solver (exact, open cards)`` section from a ``benchmarks.solver`` result:
    its goals (table 4, ``benchmarks.solver.goals``), then its table; a ``note`` the result carries
    (how it was measured) follows its command."""
    goals = solver_bench.goals(r)
    return ["## Solver (exact, open cards)", "",
            f"`tarotsim.analysis.solver` on positions of {r['deals']} heuristic deals per table (seed {r['seed']}) at the "
            f"start of a trick, one thread, an empty transposition table of 2**{r['table_bits']} entries per "
            f"question, at most {r['budget']:,} nodes each; questions and figures as the docstring of "
            f"`benchmarks/solver.py` defines them. Command: `{r['command']}`."
            + (f" {r['note']}" if r.get("note") else ""), "",
            *goals, "", *solver_bench.markdown(r).rstrip("\n").splitlines()]


def worlds_section(w: dict) -> list[str]:
    """The lines of the ``## Worlds (sampler kernels)`` section from a ``benchmarks.worlds`` result."""
    call = max((r["call_us"]["median"] for r in w["rows"]), default=0.0)
    return ["## Worlds (sampler kernels)", "",
            f"`tarotsim._kernels.worlds` at the card decisions of {w['deals']} heuristic deals per table "
            f"(seed {w['seed']}), one thread, from Python; positions, stages and figures as the docstring of "
            f"`benchmarks/worlds.py` defines them. Each figure includes the Python call of a kernel (about "
            f"{call:.2f} µs). "
            f"Command: `{w['command']}`.", "",
            *worlds_bench.markdown(w).rstrip("\n").splitlines()]


def _sections(text: str) -> dict[str, str]:
    """``{"## heading": its text}`` of a Markdown file's second-level sections."""
    parts = re.split(r"(?m)^(?=## )", text)
    return {part.splitlines()[0]: part for part in parts if part.startswith("## ")}


def with_other_sections(text: str, path: str) -> str:
    """``text`` followed by the sections of the file at ``path`` that this suite does not write
    (figures measured by other benchmarks, such as the Dask runs or the batched environment), so
    that a new run keeps them."""
    try:
        with open(path, encoding="utf-8") as f:
            old = _sections(f.read())
    except OSError:
        return text
    ours = _sections(text)
    kept = [body.rstrip("\n") + "\n" for head, body in old.items() if head not in ours]
    return text.rstrip("\n") + "\n" + ("\n" + "\n".join(kept) if kept else "")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.suite", description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="a tenth of the deals (a smoke run)")
    p.add_argument("--repeat", type=int, default=3, help="timed runs per throughput figure; the best is kept")
    p.add_argument("--markdown", metavar="FILE", help="also write the figures as Markdown tables")
    p.add_argument("--json", action="store_true", help="print JSON on one line")
    p.add_argument("--from-json", metavar="FILE", help="write --markdown from the JSON of an earlier run")
    a = p.parse_args(argv)
    if a.from_json:
        with open(a.from_json, encoding="utf-8") as f:
            res = json.load(f)
    else:
        res = measure(a.quick, a.repeat)
    if a.markdown:
        text = with_other_sections(markdown(res), a.markdown)
        with open(a.markdown, "w", encoding="utf-8") as f:
            f.write(text)
    print(json.dumps(res) if a.json else json.dumps(res, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
