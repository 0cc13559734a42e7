"""`tarotsim simulate`, `show` and `replay` as a user runs them."""

import csv
import json

import pytest

from tarotsim import echo
from tarotsim.runs import simulate as sim
from tarotsim.record import load, verify
from tarotsim.rules import Rules


def test_simulate_summary_reports_seed_and_contracts(cli):
    code, out, _ = cli("simulate", "--deals", "2000", "--seed", "5")
    assert code == 0
    assert "seed 5" in out and "garde_contre" in out and "deals/s" in out and "thrown in" in out


def test_simulate_json_matches_the_library_and_any_thread_count(cli):
    code, out, _ = cli("simulate", "--table", "5", "--deals", "3000", "--seed", "9", "--json",
                       "--threads", "2")
    d = json.loads(out)
    ref = sim.aggregate(Rules("5"), 9, 0, 3000, bots="heuristic")  # the command's default bots
    assert code == 0 and d["seed"] == 9 and d["deals"] == 3000 and d["bots"] == "heuristic"
    assert d["taken"] == ref.taken and d["mean_score"] == ref.mean_score


def test_simulate_without_seed_draws_one_and_reports_it(cli):
    _, out, _ = cli("simulate", "--deals", "100", "--json")
    seed = json.loads(out)["seed"]
    _, out2, _ = cli("simulate", "--deals", "100", "--json", "--seed", str(seed))
    assert json.loads(out2)["taken"] == json.loads(out)["taken"]


def test_simulate_writes_records_and_facts_that_agree(cli, tmp_path):
    recs, facts = tmp_path / "r.jsonl", tmp_path / "f.csv"
    code, out, _ = cli("simulate", "--table", "3", "--deals", "300", "--seed", "2", "--start", "50",
                       "--records", str(recs), "--facts", str(facts), "--json", "--option", "misere=on")
    assert code == 0
    loaded = [r for _, r in load(recs)]
    assert [r["index"] for r in loaded] == list(range(50, 350))
    rows = list(csv.DictReader(facts.open(newline="")))
    assert len(rows) == 300 and list(rows[0])[:5] == ["seed", "table", "index", "dealer", "outcome"]
    for rec, row in zip(loaded[:40], rows[:40]):
        verify(rec)
        assert (int(row["seed"]), row["table"], int(row["index"])) == (2, "3", rec["index"])
        assert row["outcome"] == rec["outcome"]
        assert [int(row[f"score_{s}"]) for s in range(3)] == rec["scores"]
        assert rec["options"] == {"misere": True}
        if rec["outcome"] == "played":  # names, not codes
            res = rec["result"]
            assert (int(row["taker"]), row["contract"]) == (rec["taker"], rec["contract"])
            assert float(row["attack_points"]) * 2 == res["attack_half_points"]
            assert row["made"] == ("true" if res["made"] else "false")
            assert int(row["difference"]) == res["difference"]
            assert row["petit_au_bout"] == (res["petit_au_bout"] or "")
            assert row["chelem"] == (res["chelem"] or "")
        else:
            assert row["taker"] == row["contract"] == row["made"] == ""
    d = json.loads(out)
    assert d["deals"] == 300 and d["records"] == str(recs)


def test_simulate_bad_output_path_leaves_nothing(cli, tmp_path):
    code, out, err = cli("simulate", "--deals", "10", "--records", str(tmp_path / "no" / "r.jsonl"))
    assert code == 2 and out == "" and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("argv", [
    ["simulate", "--bots", "alphago"],
    ["simulate", "--bots", "random,random,random"],
    ["simulate", "--table", "7"],
    ["simulate", "--deals", "-5"],
    ["simulate", "--threads", "0"],
    ["simulate", "--option", "pab_multiplied=perhaps"],
    ["show", "--seed", "1", "--index", "-1"],
    ["show", "--index", "1"],
    ["show", "--seed", "1", "--names", "A,B"],
    ["replay", "/nonexistent.jsonl"],
])
def test_bad_input_one_line_exit_2(cli, argv):
    code, out, err = cli(*argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err


def test_show_is_readable_and_json_is_the_record(cli):
    code, out, _ = cli("show", "--table", "5", "--seed", "7", "--index", "12", "--names", "A,B,C,D,E")
    assert code == 0
    for word in ("Hands", "chien", "Bids:", "Tricks", "Scores:", "calls"):
        assert word in out
    _, out, _ = cli("show", "--table", "5", "--seed", "7", "--index", "12", "--json")
    rec = json.loads(out)
    assert rec == sim.records(Rules("5"), 7, [12], bots="heuristic")[0]  # the command's default bots
    verify(rec)


def test_replay_verify_accepts_good_records_and_names_the_first_bad(cli, tmp_path):
    good = sim.records(Rules("4"), 3, range(5))
    bad = json.loads(json.dumps(good[2]))
    t = bad["tricks"][1]
    t["winner"] = (t["winner"] + 1) % 4
    path = tmp_path / "deals.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in [good[0], good[1], bad, good[3]]) + "\n")
    code, out, _ = cli("replay", str(path), "--verify")
    assert code == 1
    assert "line 3: BAD" in out and "trick 2" in out and "R-PLAY-5" in out
    assert "4 record(s) verified, 1 bad" in out
    path.write_text("\n".join(json.dumps(r) for r in good) + "\n")
    code, out, _ = cli("replay", str(path), "--verify", "--json")
    lines = [json.loads(x) for x in out.splitlines()]
    assert code == 0 and lines[-1] == {"records": 5, "bad": 0, "first_bad": None, "verified": True}


def test_replay_examples(cli):
    from pathlib import Path
    code, out, _ = cli("replay", str(Path(__file__).parent / "data" / "examples.jsonl"), "--verify")
    assert code == 0 and "6 record(s) verified, 0 bad" in out


def test_simulate_plays_heuristic_bots_by_default_and_calls_random_a_baseline(cli):
    """A newcomer's first screen shows a sensible game; random stays one flag away, labelled."""
    code, out, err = cli("simulate", "--deals", "2000", "--seed", "1")
    assert code == 0 and out.splitlines()[0].endswith("· seed 1 · bots heuristic")
    ref = sim.aggregate(Rules("4"), 1, 0, 2000, bots="heuristic")
    assert f"mean score of the taker: {ref.mean_taker_score:+.2f}" in out and ref.mean_taker_score > 0
    code, out, err = cli("simulate", "--deals", "2000", "--seed", "1", "--bots", "random")
    assert code == 0
    head = out.split("\n\n")[0].splitlines()  # the header, wrapped, then the threads and speed
    assert " ".join(head[:-1]).endswith("· bots random (random: a baseline, uniform over the legal choices)")
    assert len(head) == 3 and max(map(len, head)) <= echo.TEXT_WIDTH
    code, out, err = cli("bots")
    assert "random     uniform over the legal choices: a baseline to compare bots with" in out
