"""The solver's benchmark runs and renders (no speed asserted: speed is measured, never tested)."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks import solver as bench
from benchmarks import suite


def test_solver_benchmark_reports_every_row_and_renders(capsys):
    args = ["--tables", "4,5", "--deals", "2", "--left", "2,3", "--full", "1", "--full-budget", "1000",
            "--table-bits", "12", "--ablation", "--json"]
    assert bench.main(args) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["benchmark"] == "solver" and res["tables"] == ["4", "5"] and res["compiled_in"] == "a child process"
    assert res["command"] == "python -m benchmarks.solver " + " ".join(args)
    assert [(r["table"], r["left"]) for r in res["rows"]] == [(t, n) for t in ("4", "5") for n in (2, 3)]
    for r in res["rows"]:
        assert r["positions"] == 2
        for q in ("value", "reach", "reach_far"):
            assert r[q]["finished"] == 2
            ms, nodes = r[q]["ms"], r[q]["nodes"]
            assert 0 <= ms["median"] <= ms["p90"] <= ms["p99"] <= ms["max"]
            assert 0 <= nodes["median"] <= nodes["max"]
        assert r["value"]["tests"] >= 1
    assert [f["table"] for f in res["full"]] == ["4", "5"] and all(f["finished"] <= f["deals"] == 1 for f in res["full"])
    assert {a["without"] for a in res["ablation"]} == set(bench.TECHNIQUES)
    assert all(a["unfinished"] == a["base_unfinished"] == 0 and a["nodes_median"] is not None for a in res["ablation"])
    table = bench.markdown(res).splitlines()
    assert table[0].startswith("| position | question |")
    assert "| table 5, 3 tricks left | reach_far | 2/2 |" in "\n".join(table)
    assert any(line.startswith("| table 4, whole deal (budget 1,000) | value | ") for line in table)
    assert any(line.startswith("| merge | table 4, 2 tricks left | ") for line in table)
    saved = json.loads((Path(suite.__file__).parent / "last-run.json").read_text())
    saved.pop("solver", None)   # a run saved before the solver's benchmark existed
    assert "## Solver" not in suite.markdown(saved)
    md = suite.markdown(dict(saved, solver=res))
    assert "\n## Solver (exact, open cards)\n" in md and "\n".join(table) in md and res["command"] in md


def test_percentiles_are_nearest_ranks_an_unfinished_question_over_every_number():
    assert bench.summary([5.0, 1.0, 3.0]) == {"median": 3.0, "p90": 5.0, "p99": 5.0, "max": 5.0}
    assert bench.summary([4.0, None, 1.0, 2.0]) == {"median": 3.0, "p90": None, "p99": None, "max": None}
    assert bench.summary([None, 1.0, None]) == {"median": None, "p90": None, "p99": None, "max": None}
    assert bench.summary([]) == {}
    from tarotsim._kernels import solver as K

    assert bench.flags_without(["tt", "part"]) == K.F_ALL & ~K.F_TT & ~K.F_PART


def test_goals_are_read_from_the_table_4_rows():
    """``goals`` reads the issue's goals from a result: a row over its budget is no median."""
    value = {"finished": 40, "ms": {"median": 50.0, "p99": 80.0}, "nodes": {"median": 200_000, "p99": 90_000}}
    res = {"rows": [{"table": "4", "left": 6, "positions": 40, "value": value},
                    {"table": "4", "left": 10, "positions": 40,
                     "value": dict(value, finished=39, nodes={"median": None})}],
           "full": [{"table": "4", "deals": 5, "finished": 1}]}
    lines = bench.goals(res)
    assert "| value, 6 tricks left, p99 | 90,000 nodes | <= 100,000 nodes | yes |" in lines
    assert "| value, 10 tricks left, median | over the budget | <= 250,000 nodes | **no** |" in lines
    assert "| value, 10 tricks left, median | 50 ms | <= 100 ms | yes |" in lines
    assert "| value, 10 tricks left, every position finished | 39/40 | 40/40 | **no** |" in lines
    assert "| the whole deal, some deals finished | 1/5 | some | yes |" in lines
