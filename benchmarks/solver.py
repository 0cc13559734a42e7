"""Cost of the exact solver (``tarotsim.analysis.solver``) on positions of heuristic deals, as a Markdown table or JSON.

    python -m benchmarks.solver --tables 4,3,5 --deals 40 --left 4,6,8,10,12,14,16 --full 10 --json

Positions: ``--deals`` deals per table (seed ``--seed``, indices 0, 1, ...; a deal everyone passes
is skipped), played by the ``heuristic`` bot at every seat (``tarotsim.runs.simulate.records``), at the
start of the trick with ``L`` tricks left for each ``L`` of ``--left``. Each question is timed
alone, one thread, on an empty transposition table (``Solver.forget``) of ``2**--table-bits``
entries, the kernel loaded from numba's cache (a child process fills it first; ``--compile-here``
compiles in this process instead):

* ``value``: ``Solver.solve(position, cards=False)``, the attack's exact half-points;
* ``reach``: ``Solver.reach(position, value)``, the tightest null window (true);
* ``reach_far``: ``Solver.reach(position, value + 20)``, ten points above the value (false).

Per table and ``L``: how many positions a question finished within ``--budget`` nodes
(``finished``), the median, 90th and 99th percentiles (nearest rank) and the maximum of the time
(ms) and of the nodes (cards tried). For ``value`` they are over every position, an unfinished one
counted as over the budget (``None`` in the JSON, ``over`` in the table: the position at that rank
did not finish); ``reach`` and ``reach_far`` are asked of the positions whose value finished, and
their figures are over those they finished. ``tests``: the mean number of null-window tests per
value finished.

``--full N``: the whole deal from trick 1 (before the first card) of ``N`` deals per table, the
value within ``--full-budget`` nodes, with the same figures as ``value``'s. ``goals``: the solver
issue's goals (``GOALS``) against a result's table 4 rows, as the suite prints them.

``--without NAME,...`` switches techniques off (``merge``, ``tt``, ``order``, ``bounds``,
``canon``, ``part``, ``small``, ``quick``, ``trick``, ``step``: ``tarotsim._kernels.solver.F_*``);
``--ablation`` measures ``value`` with each of them off in turn, at the first table and the
``--left`` values given, against all on: what each technique gains, in nodes (the median, an
unfinished position over the budget; the total, an unfinished one counted at the budget) and in
ms. Speed is measured here,
never asserted in tests. Progress goes to stderr; stdout has the table (default) or one line of
JSON (``--json``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

from benchmarks.throughput import machine

DEFAULT_TABLES = "4,3,5"
DEFAULT_LEFT = "4,6,8,10,12,14,16"
TECHNIQUES = ("merge", "tt", "order", "bounds", "canon", "part", "small", "quick", "trick", "step")


def _note(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def deals(rules, seed: int, n: int) -> list:
    """The reference deals (``tarotsim.record.replay``) of the first ``n`` played heuristic deals."""
    from tarotsim.runs import simulate
    from tarotsim.record import replay

    out: list = []
    start = 0
    while len(out) < n:
        if start > 50 * n + 50:
            raise SystemExit(f"benchmarks.solver: table {rules.table}: only {len(out)} deals played")
        recs = simulate.records(rules, seed, range(start, start + 2 * n), bots="heuristic")
        out += [replay(r).deal for r in recs if r["outcome"] == "played"]
        start += 2 * n
    return out[:n]


def _over_last(x):
    return float("inf") if x is None else x


def _pct(values: list, q: float):
    s = sorted(values, key=_over_last)
    k = max(0, min(len(s) - 1, int(round(q / 100 * (len(s) - 1)))))
    return s[k]


def _median(values: list):
    s = sorted(values, key=_over_last)
    mid = s[(len(s) - 1) // 2:len(s) // 2 + 1]
    return None if None in mid else statistics.mean(mid)


def summary(values: list, digits: int = 3) -> dict:
    """Median, p90, p99 and max of ``values`` (nearest rank), rounded; a None (a question over its
    budget) ranks above every number, and a figure that falls on one is None."""
    if not values:
        return {}

    def rounded(x):
        return None if x is None else round(x, digits)

    return {"median": rounded(_median(values)), "p90": rounded(_pct(values, 90)), "p99": rounded(_pct(values, 99)),
            "max": rounded(_pct(values, 100))}


def _timed(fn, *args, **kw):
    """``(fn(*args, **kw), its time in ms)``."""
    t0 = time.perf_counter()
    r = fn(*args, **kw)
    return r, 1000 * (time.perf_counter() - t0)


def flags_without(names) -> int:
    """The flags with the techniques ``names`` switched off."""
    from tarotsim._kernels import solver as K

    bits = {"merge": K.F_MERGE, "tt": K.F_TT, "order": K.F_ORDER, "bounds": K.F_BOUNDS, "canon": K.F_CANON,
            "part": K.F_PART, "small": K.F_SMALL, "quick": K.F_QUICK, "trick": K.F_TRICK, "step": K.F_STEP}
    flags = K.F_ALL
    for n in names:
        flags &= ~bits[n]
    return flags


def make_solver(table_bits: int, budget: int, without=()):
    from tarotsim.analysis.solver import Solver

    return Solver(table_bits=table_bits, budget=budget, flags=flags_without(without))


def measure_row(solver, positions: list, questions=("value", "reach", "reach_far")) -> dict:
    """The figures of one table and ``L`` (see the module docstring)."""
    times: dict[str, list] = {q: [] for q in questions}
    nodes: dict[str, list] = {q: [] for q in questions}
    tests: list[int] = []
    finished = {q: 0 for q in questions}
    for pos in positions:
        solver.forget()
        sol, ms = _timed(solver.solve, pos, cards=False)
        times["value"].append(ms if sol.complete else None)
        nodes["value"].append(sol.nodes if sol.complete else None)
        if not sol.complete:
            continue
        finished["value"] += 1
        tests.append(sol.tests)
        for q, target in (("reach", sol.value), ("reach_far", sol.value + 20)):
            if q not in questions:
                continue
            solver.forget()
            ok, ms = _timed(solver.reach, pos, target)
            if ok is None:
                continue
            finished[q] += 1
            times[q].append(ms)
            nodes[q].append(solver.nodes_last)
    row: dict = {"positions": len(positions)}
    for q in questions:
        row[q] = {"finished": finished[q], "ms": summary(times[q]), "nodes": summary(nodes[q], 0)}
    row["value"]["tests"] = round(statistics.mean(tests), 2) if tests else None
    return row


def measure_full(solver, deal_list: list, budget: int) -> dict:
    """The whole deal from trick 1 within ``budget`` nodes."""
    from tarotsim.analysis.solver import Position

    times, nodes = [], []
    for d in deal_list:
        pos = Position.from_deal(d, 0, 0)
        solver.forget()
        sol, ms = _timed(solver.solve, pos, cards=False, budget=budget)
        times.append(ms if sol.complete else None)
        nodes.append(sol.nodes if sol.complete else None)
    return {"deals": len(deal_list), "budget": budget, "finished": sum(1 for x in nodes if x is not None),
            "ms": summary(times), "nodes": summary(nodes, 0)}


def _fmt(x) -> str:
    if x is None:
        return "over"
    return f"{x:.2f}" if x < 10 else f"{x:,.0f}"


def _figures(f: dict) -> str:
    return " / ".join(_fmt(f.get(k)) for k in ("median", "p90", "p99", "max")) if f else "-"


#: the solver issue's goals on table 4: (what, tricks left (0: the whole deal), figure, at most)
GOALS = (("value, 6 tricks left, p99", 6, "nodes", "p99", 100_000),
         ("value, 8 tricks left, median", 8, "nodes", "median", 30_000),
         ("value, 10 tricks left, median", 10, "nodes", "median", 250_000),
         ("value, 10 tricks left, median", 10, "ms", "median", 100),
         ("value, 10 tricks left, every position finished", 10, "finished", None, None),
         ("value, 12 tricks left, median", 12, "nodes", "median", 1_000_000),
         ("value, 12 tricks left, every position finished", 12, "finished", None, None),
         ("the whole deal, some deals finished", 0, "finished", None, None))


def goals(res: dict) -> list[str]:
    """The Markdown table of ``GOALS`` against a result's table 4 rows (those it measured)."""
    lines = ["| goal (table 4, one core) | measured | wanted | met |", "|---|---|---|---|"]
    for what, left, unit, key, most in GOALS:
        if left:
            row = next((r for r in res["rows"] if r["table"] == "4" and r["left"] == left), None)
            f, n = (row["value"], row["positions"]) if row else (None, 0)
        else:
            row = next((r for r in res.get("full", []) if r["table"] == "4"), None)
            f, n = (row, row["deals"]) if row else (None, 0)
        if f is None:
            continue
        if unit == "finished":
            got, want = f"{f['finished']}/{n}", "some" if not left else f"{n}/{n}"
            ok = f["finished"] > 0 if not left else f["finished"] == n
        else:
            x = f[unit][key]
            got = "over the budget" if x is None else f"{_fmt(x)} {unit}"
            want = f"<= {most:,} {unit}"
            ok = x is not None and x <= most
        lines.append(f"| {what} | {got} | {want} | {'yes' if ok else '**no**'} |")
    return lines


def markdown(res: dict) -> str:
    """The Markdown tables of a result (``main(["--json"])``'s JSON)."""
    lines = ["| position | question | finished | ms: median / p90 / p99 / max | nodes: median / p90 / p99 / max |",
             "|---|---|---|---|---|"]
    for r in res["rows"]:
        for q in ("value", "reach", "reach_far"):
            f = r.get(q)
            if not f:
                continue
            lines.append(f"| table {r['table']}, {r['left']} tricks left | {q} | {f['finished']}/{r['positions']} | "
                         f"{_figures(f['ms'])} | {_figures(f['nodes'])} |")
    for f in res.get("full", []):
        lines.append(f"| table {f['table']}, whole deal (budget {f['budget']:,}) | value | {f['finished']}/{f['deals']} "
                     f"| {_figures(f['ms'])} | {_figures(f['nodes'])} |")
    if res.get("ablation"):
        lines += ["", "| technique off | position | value nodes, median (all on) | nodes, total (all on) | "
                  "unfinished (all on) | value ms, median (all on) |", "|---|---|---|---|---|---|"]
        for a in res["ablation"]:
            lines.append(f"| {a['without']} | table {a['table']}, {a['left']} tricks left | {_fmt(a['nodes_median'])} "
                         f"({_fmt(a['base_nodes_median'])}) | {a['nodes_total']:,} ({a['base_nodes_total']:,}) | "
                         f"{a['unfinished']} ({a['base_unfinished']}) | {_fmt(a['ms_median'])} "
                         f"({_fmt(a['base_ms_median'])}) |")
    return "\n".join(lines) + "\n"


def _ablation(table: str, positions_by_left: dict, table_bits: int, budget: int) -> list:
    out = []
    base = {}
    for without in ("",) + TECHNIQUES:
        solver = make_solver(table_bits, budget, (without,) if without else ())
        for left, positions in positions_by_left.items():
            ms, nodes, spent = [], [], []
            for pos in positions:
                solver.forget()
                sol, t = _timed(solver.solve, pos, cards=False)
                ms.append(t if sol.complete else None)
                nodes.append(sol.nodes if sol.complete else None)
                spent.append(min(sol.nodes, budget))
            median_ms = _median(ms)
            fig = {"ms_median": None if median_ms is None else round(median_ms, 3), "nodes_median": _median(nodes),
                   "nodes_total": int(sum(spent)), "unfinished": sum(1 for x in nodes if x is None)}
            if not without:
                base[left] = fig
                continue
            b = base[left]
            out.append({"without": without, "table": table, "left": left, **fig,
                        "base_ms_median": b["ms_median"], "base_nodes_median": b["nodes_median"],
                        "base_nodes_total": b["nodes_total"], "base_unfinished": b["unfinished"]})
            _note(f"ablation: without {without}, {left} tricks left: nodes {fig['nodes_total']:,} "
                  f"(all on {b['nodes_total']:,})")
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.solver", description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", default=DEFAULT_TABLES, help=f"comma-separated, of 3, 4, 5, 5d (default {DEFAULT_TABLES})")
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--deals", type=int, default=40, help="positions per table and tricks left (default 40)")
    p.add_argument("--left", default=DEFAULT_LEFT, help=f"tricks left, comma-separated (default {DEFAULT_LEFT})")
    p.add_argument("--budget", type=int, default=20_000_000, help="most nodes per question (default 20,000,000)")
    p.add_argument("--table-bits", type=int, default=20, help="transposition table: 2**N entries (default 20)")
    p.add_argument("--full", type=int, default=0, metavar="N", help="also N whole deals per table from trick 1")
    p.add_argument("--full-budget", type=int, default=100_000_000, help="most nodes for a whole deal")
    p.add_argument("--without", default="", help=f"techniques off, comma-separated, of {', '.join(TECHNIQUES)}")
    p.add_argument("--ablation", action="store_true", help="value with each technique off in turn (first table)")
    p.add_argument("--json", action="store_true", help="print JSON only")
    p.add_argument("--compile-here", action="store_true", help="compile in this process, not in a child first")
    a = p.parse_args(argv)
    tables = [t.strip() for t in a.tables.split(",") if t.strip()]
    if not tables or any(t not in ("3", "4", "5", "5d") for t in tables) or len(set(tables)) < len(tables):
        p.error("--tables: distinct tables among 3, 4, 5, 5d")
    try:
        lefts = [int(x) for x in a.left.split(",") if x.strip()]
    except ValueError:
        p.error("--left: whole numbers, comma-separated")
    without = tuple(w.strip() for w in a.without.split(",") if w.strip())
    if any(w not in TECHNIQUES for w in without):
        p.error(f"--without: among {', '.join(TECHNIQUES)}")
    if a.deals < 1 or a.budget < 1 or not lefts or any(x < 1 for x in lefts) or not 10 <= a.table_bits <= 26:
        p.error("--deals, --budget and --left must be >= 1, --table-bits in 10..26")
    t_start = time.perf_counter()
    if not a.compile_here:  # fill numba's cache in a child: the timed code is then loaded, as a bot's is
        subprocess.run([sys.executable, "-m", "benchmarks.solver", "--tables", tables[0], "--seed", str(a.seed),
                        "--deals", "1", "--left", "1", "--table-bits", "10", "--json", "--compile-here"],
                       check=True, capture_output=True)
    from tarotsim.rules import N_TRICKS, Rules
    from tarotsim.analysis.solver import Position

    found = {}
    for t in tables:
        rules = Rules(table=t)
        found[t] = deals(rules, a.seed, max(a.deals, a.full))
        _note(f"table {t}: {len(found[t])} deals played")
    t0 = time.perf_counter()  # warm-up: compile (or load from numba's cache) the solver's kernel
    solver = make_solver(a.table_bits, a.budget, without)
    solver.solve(Position.from_deal(found[tables[0]][0], N_TRICKS[tables[0]] - 1, 0))
    compile_s = time.perf_counter() - t0
    rows = []
    t0 = time.perf_counter()
    for t in tables:
        for left in lefts:
            if left > N_TRICKS[t]:
                continue
            positions = [Position.from_deal(d, N_TRICKS[t] - left, 0) for d in found[t][:a.deals]]
            r = measure_row(solver, positions)
            rows.append({"table": t, "left": left, **r})
            _note(f"table {t}, {left} tricks left: value median {r['value']['ms'].get('median')} ms, "
                  f"{r['value']['finished']}/{len(positions)} finished")
    full = []
    if a.full:
        for t in tables:
            f = measure_full(solver, found[t][:a.full], a.full_budget)
            full.append({"table": t, **f})
            _note(f"table {t}, whole deals: {f['finished']}/{f['deals']} within {a.full_budget:,} nodes")
    ablation = []
    if a.ablation:
        t = tables[0]
        ablation = _ablation(t, {left: [Position.from_deal(d, N_TRICKS[t] - left, 0) for d in found[t][:a.deals]]
                                 for left in lefts if left <= N_TRICKS[t]}, a.table_bits, a.budget)
    timed_s = time.perf_counter() - t0
    res = {"benchmark": "solver", "tables": tables, "seed": a.seed, "deals": a.deals, "left": lefts,
           "budget": a.budget, "table_bits": a.table_bits, "without": list(without), "threads": 1, "rows": rows,
           "full": full, "ablation": ablation, "compile_s": round(compile_s, 3),
           "compiled_in": "this process" if a.compile_here else "a child process", "timed_s": round(timed_s, 3),
           "elapsed_s": round(time.perf_counter() - t_start, 3), "machine": machine(),
           "command": "python -m benchmarks.solver " + " ".join(sys.argv[1:] if argv is None else argv)}
    print(json.dumps(res) if a.json else markdown(res), end="\n" if a.json else "")
    return 0


if __name__ == "__main__":
    sys.exit(main())
