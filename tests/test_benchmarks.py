"""The benchmark suite's report (no timing here: speed is measured by the scripts, never asserted)."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks import suite


def test_markdown_report_checks_every_target_from_a_saved_run(tmp_path):
    res = json.loads((Path(suite.__file__).parent / "last-run.json").read_text())
    md = suite.markdown(res)
    assert md.startswith("# Benchmarks")
    targets = suite._sections(md)["## Targets"]  # the solver's section has goals of its own
    rows = [line for line in targets.splitlines()
            if line.startswith("| ") and line.rstrip().endswith(("| yes |", "| **no** |"))]
    assert len(rows) == len(suite.TARGETS) == 10
    slow = json.loads(json.dumps(res))
    slow["startup"]["simulate_1000_heuristic_cold_s"] = 99.0
    for r in slow["throughput"]:
        if (r["table"], r["bots"], r["threads"]) == ("4", "random", 1):
            r["deals_per_s"] = 1000.0
    bad = suite.markdown(slow)
    assert bad.count("**no**") == 2 + (md.count("**no**"))
    out = tmp_path / "B.md"
    assert suite.main(["--from-json", str(Path(suite.__file__).parent / "last-run.json"), "--markdown", str(out)]) == 0
    assert out.read_text() == md


def test_throughput_times_code_loaded_from_the_cache(capsys):
    """The throughput script compiles in a child process first, so the timed code is loaded from
    numba's cache (no figure is asserted: speed is measured, never tested)."""
    from benchmarks import throughput

    assert throughput.main(["--table", "4", "--deals", "200", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["compiled_in"] == "a child process" and res["deals"] == 200 and res["deals_per_s"] > 0
    assert throughput.main(["--table", "4", "--deals", "200", "--json", "--compile-here"]) == 0
    assert json.loads(capsys.readouterr().out)["compiled_in"] == "this process"


def test_worlds_benchmark_reports_every_stage_and_renders(capsys):
    """``benchmarks.worlds`` on a tiny run: one row per table and stage, every figure positive
    (no speed asserted), and its table in the suite's report (absent from a run without it)."""
    from benchmarks import worlds

    args = ["--tables", "4,2", "--deals", "1", "--repeat", "2", "--batch", "50", "--json"]
    assert worlds.main(args) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["benchmark"] == "worlds" and res["tables"] == ["4", "2"] and res["batch"] == 50
    assert res["compiled_in"] == "a child process"
    assert res["command"] == "python -m benchmarks.worlds " + " ".join(args)
    assert set(res["machine"]) >= {"cpu", "cores", "python", "numba", "numpy"}
    assert [(r["table"], r["stage"]) for r in res["rows"]] == [(t, s) for t in ("4", "2") for s in worlds.STAGES]
    for r in res["rows"]:
        assert r["positions"] > 0 and r["worlds_per_s"] > 0
        for key in ("derive_us", "count_us", "worlds64_us", "call_us"):
            assert 0 < r[key]["median"] <= r[key]["max"]
        assert r["worlds64_us"]["median"] > r["call_us"]["median"]
    table = worlds.markdown(res).splitlines()
    assert table[0].startswith("| position | positions |") and "batches of 50 |" in table[0]
    assert [line.split(" | ")[0] for line in table[2:]] == [f"| table {t}, {s}" for s in worlds.STAGES
                                                            for t in ("4", "2")]
    saved = json.loads((Path(suite.__file__).parent / "last-run.json").read_text())
    saved.pop("worlds", None)   # a run saved before the sampler's benchmark existed
    assert "## Worlds" not in suite.markdown(saved)
    md = suite.markdown(dict(saved, worlds=res))
    assert "\n## Worlds (sampler kernels)\n" in md and "\n".join(table) in md and res["command"] in md
