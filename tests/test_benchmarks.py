"""The benchmark suite's report (no timing here: speed is measured by the scripts, never asserted)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

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


def _kernel_deal(log) -> list[int]:
    """A tarotsim deal's log (``layout.L_*``) in ``cbaseline.cb_deal``'s slots."""
    from tarotsim._kernels import layout as L

    if log[L.L_OUTCOME] != L.OUTCOME_PLAYED:
        return [int(log[L.L_OUTCOME]), int(log[L.L_TAKER]), int(log[L.L_CONTRACT])] + [0] * 9 + [-1] * 72
    head = [log[k] for k in (L.L_OUTCOME, L.L_TAKER, L.L_CONTRACT, L.L_ATTACK_HP, L.L_OUDLERS, L.L_PAB, L.L_CHELEM,
                             L.L_VALUE)]
    cards = [log[L.L_CARDS + t * L.MAX_SEATS + p] for t in range(18) for p in range(4)]
    return [int(x) for x in head + list(log[L.L_SCORES:L.L_SCORES + 4]) + cards]


def test_c_baseline_plays_the_kernels_deals_and_times_both(capsys, tmp_path):
    """``benchmarks.cbaseline``'s C kernel plays the tarotsim deals card by card (the misère's draws
    and a flat petit au bout too), and its run prints both rates and their ratio with equal totals
    (no speed asserted)."""
    from benchmarks import cbaseline
    from tarotsim.rules import Rules
    from tarotsim.runs import simulate

    lib = cbaseline.build(str(tmp_path))
    for rules in (Rules(table="4"), Rules(table="4", misere=True, pab_multiplied=False, petit_sec="off")):
        opts = cbaseline.options(rules)
        logs = simulate.logs(rules, 11, range(300))
        assert [cbaseline.c_deal(lib, 11, i, opts).tolist() for i in range(300)] == [_kernel_deal(g) for g in logs]
    assert cbaseline.main(["--deals", "300", "--repeat", "2", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["benchmark"] == "cbaseline" and res["same_totals"] and len(res["round_ratios"]) == 2
    assert res["kernel_deals_per_s"] > 0 and res["c_deals_per_s"] > 0
    assert res["ratio"] == pytest.approx(res["kernel_deals_per_s"] / res["c_deals_per_s"], abs=0.002)
    assert cbaseline.text(res).splitlines()[-1] == (f"tarotsim / C     {res['ratio']:.3f}x (rounds: "
                                                     + ", ".join(f"{r:.3f}x" for r in res["round_ratios"]) + ")")
    saved = json.loads((Path(suite.__file__).parent / "last-run.json").read_text())
    assert "## Beside hand-written C" not in suite.markdown(saved)  # a run saved before the C baseline
    md = suite.markdown(dict(saved, cbaseline=dict(res, command="python -m benchmarks.cbaseline --deals 300")))
    assert f"| {res['kernel_deals_per_s']:,.0f} | {res['c_deals_per_s']:,.0f} | {res['ratio']:.3f}x |" in md


def test_location_power_benchmark_measures_every_power(tmp_path):
    """``benchmarks.location_power``: one entry per power, power 0 the uniform worlds (every world weighs the same)."""
    import json

    from benchmarks.location_power import POWERS, main

    out = tmp_path / "power.json"
    main(["--deals", "3", "--worlds", "50", "--seed", "2", "--out", str(out)])
    run = json.loads(out.read_text())
    assert [p["power"] for p in run["powers"]] == list(POWERS)
    assert run["powers"][0]["median_ess"] == pytest.approx(50)
    assert run["positions"] >= 3 and run["hidden_cards"] > 50
    assert all(p["bits"] > 0 for p in run["powers"]) and run["model_bits"] > 0
    assert run["powers"][-1]["median_ess"] < run["powers"][0]["median_ess"]


def test_opponent_worlds_benchmark_measures_every_setting(tmp_path):
    """``benchmarks.opponent_worlds``: one entry per setting, ``uniform`` the exact sampler's law (equal weights)."""
    import json

    from benchmarks.opponent_worlds import SETTINGS, main

    out = tmp_path / "opponent.json"
    main(["--deals", "3", "--worlds", "40", "--seed", "2", "--out", str(out)])
    run = json.loads(out.read_text())
    assert [s["setting"] for s in run["settings"]] == [s for s, _ in SETTINGS]
    uniform = run["settings"][0]
    assert uniform["median_ess"] == pytest.approx(40) and uniform["gain_over_uniform"] == 0
    assert run["positions"] >= 3 and run["hidden_cards"] > 50
    assert all(s["bits"] > 0 for s in run["settings"])
    assert all(s["median_ess"] < 40 for s in run["settings"][1:])   # every model moves the weights
