"""``benchmarks.frontier``: one entry per setting with its time and strength (no timing asserted:
speed is measured by the scripts, never tested), its settings' grammar, and the strength page's
figure drawn from the stored run."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from benchmarks import frontier
from benchmarks.search import BenchError
from bots import ALIASES

ROOT = Path(__file__).resolve().parent.parent


def test_a_tiny_run_has_one_entry_per_setting_with_its_time_and_strength(tmp_path, capsys):
    out = tmp_path / "f.json"
    args = ["--settings", "pimc:worlds=8,bid_search=1@3,heuristic", "--deals", "2", "--speed-deals", "4",
            "--seed", "9", "--out", str(out)]
    assert frontier.main(args) == 0
    err = capsys.readouterr().err
    assert "[1/2] pimc:worlds=8,bid_search=1: strength, 3/3 deals\n" in err
    assert err.endswith(f"frontier written to {out}\n")
    run = json.loads(out.read_text())
    assert run["format"] == frontier.FORMAT and (run["table"], run["seed"], run["threads"]) == ("4", 9, 1)
    assert run["command"] == "python -m benchmarks.frontier " + " ".join(args)
    assert len(run["load"]["before"]) == len(run["load"]["after"]) == 3 and run["date"] and run["machine"]["cpu"]
    search, zero = run["settings"]
    assert (search["bots"], search["deals"], zero["bots"], zero["deals"]) == ("pimc:worlds=8,bid_search=1", 3,
                                                                              "heuristic", 2)
    assert search["ms_per_decision"] > 0 and search["ms_per_bid"] > 0  # it searches its cards and its bids
    assert search["ci"][0] <= search["mean"] <= search["ci"][1]
    # the heuristic against itself: the zero, exactly (the same deals, the same decisions at every seat)
    assert zero["ms_per_decision"] > 0 and zero["ms_per_bid"] is None
    assert (zero["mean"], zero["ci"]) == (0.0, [0.0, 0.0])


def test_the_strength_is_the_tournament_s_paired_difference():
    """A setting's strength is the library's duplicate tournament, the setting at one seat."""
    from tarotsim.rules import Rules
    from tarotsim.runs import tournament
    from tarotsim.runs.players import parse_players

    rules = Rules(table="3")
    st = frontier.strength(rules, "greedy", 40, 5)
    res = tournament.run(rules, 5, 40, parse_players("greedy,heuristic,heuristic", rules), threads=1)
    pair = res.pairs[0]
    assert (pair["a"], pair["b"]) == ("greedy", "heuristic")
    assert st["mean"] == round(pair["mean"], 3) and st["ci"] == [round(pair["ci_low"], 3), round(pair["ci_high"], 3)]
    assert st["deals"] == 40


def test_settings_split_by_the_bots_grammar_with_their_own_deals():
    assert frontier.parse_settings("pimc:worlds=8,pimc:worlds=256,bid_search=1@500,strong") == [
        frontier.Setting("pimc:worlds=8"), frontier.Setting("pimc:worlds=256,bid_search=1", 500),
        frontier.Setting("strong")]
    for text, message in (("pimc@x", "the deals after @ must be a whole number of at least 1"),
                          ("pimc@0", "the deals after @ must be a whole number of at least 1"),
                          ("pimc,heuristic,pimc@3", "'pimc' given twice"), ("worlds=8", "comes before any bot")):
        with pytest.raises(BenchError, match=message):
            frontier.parse_settings(text)


@pytest.mark.parametrize("settings, message", [
    ("bogus", "unknown bot 'bogus'"),
    ("pimc:infer=1", "bot pimc: infer does nothing at table 2"),
    ("strong:worlds=8", "bot strong takes no parameters"),
])
def test_a_setting_that_does_not_play_is_one_line_and_exit_2(settings, message, tmp_path, capsys):
    out = tmp_path / "f.json"
    with pytest.raises(SystemExit) as e:
        frontier.main(["--table", "2", "--settings", settings, "--deals", "2", "--out", str(out)])
    err = capsys.readouterr().err
    assert e.value.code == 2 and message in err.splitlines()[-1] and "Traceback" not in err
    assert not out.exists()  # nothing half-written


def figures_hook():
    spec = importlib.util.spec_from_file_location("figures", ROOT / "docs" / "_ext" / "figures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_figure_draws_every_setting_of_a_stored_run(tmp_path):
    """The strength page's figure is drawn from the stored run at every build: one point per
    setting, labelled, on a log scale of the time; the same run draws the same file."""
    hook = figures_hook()
    stored = json.loads(hook.FRONTIER.read_text(encoding="utf-8"))
    svg = hook.FIGURES["figures/frontier-4.svg"]()
    assert svg == hook.frontier()
    strong = ALIASES["strong"].setting
    for e in stored["settings"]:  # each point's label, the alias's named
        assert f">{frontier.label(e['bots'])}{' (strong)' if e['bots'] == strong else ''}<" in svg
    assert "log scale" in svg and f"seed {stored['seed']}" in svg
    mine = {**stored, "seed": 123, "settings": stored["settings"][:2]}
    path = tmp_path / "run.json"
    path.write_text(json.dumps(mine))
    drawn = hook.frontier(path)
    assert "seed 123" in drawn and f">{frontier.label(stored['settings'][2]['bots'])}<" not in drawn


def test_the_strength_page_shows_every_setting_of_the_stored_run_with_its_command():
    """The strength page's frontier table is the stored run's: one row per setting with its time,
    its strength and its deals, and the command that measures that row alone; and the figure."""
    page = (ROOT / "docs" / "explanation" / "strength.md").read_text(encoding="utf-8")
    run = json.loads((ROOT / "benchmarks" / "frontier-4.json").read_text(encoding="utf-8"))
    assert "](../figures/frontier-4.svg)" in page

    def num(x: float) -> str:
        return f"{x:+.2f}".replace("-", "−")

    for e in run["settings"]:
        row = next(line for line in page.splitlines() if line.startswith(f"| `{e['bots']}`"))
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert float(cells[1]) == pytest.approx(e["ms_per_decision"], rel=0.01)
        assert cells[2] == (f"{e['ms_per_bid']:.2f}" if e["ms_per_bid"] is not None else "")
        zero = e["bots"] == frontier.BASELINE
        assert cells[3] == ("0 (the zero)" if zero else f"{num(e['mean'])} [{num(e['ci'][0])}, {num(e['ci'][1])}]")
        assert cells[4] == f"{e['deals']:,}"
        assert cells[5] == (f"`python -m benchmarks.frontier --seed {run['seed']} --speed-deals {run['speed_deals']} "
                            f"--deals {e['deals']} --settings {e['bots']}`")
