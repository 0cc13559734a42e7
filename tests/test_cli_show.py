"""`tarotsim show FILE --line N`: a recorded deal shown as `show --seed S --index I` shows one."""

import gzip
import io
import json
import sys
from pathlib import Path

import pytest

from tarotsim.runs import simulate as sim
from tarotsim.display import format_record
from tarotsim.record import complete
from tarotsim.rules import Rules

EXAMPLES_FILE = Path(__file__).parent / "data" / "examples.jsonl"
EXAMPLES = [json.loads(line) for line in EXAMPLES_FILE.read_text().splitlines()]


def test_show_line_is_the_display_of_that_record_and_json_is_the_record(cli):
    for n, rec in enumerate(EXAMPLES, 1):
        code, out, err = cli("show", str(EXAMPLES_FILE), "--line", str(n))
        assert (code, err) == (0, "") and out == format_record(rec) + "\n"
        code, out, err = cli("show", str(EXAMPLES_FILE), "--line", str(n), "--json")
        assert (code, err) == (0, "") and json.loads(out) == rec


def test_show_a_simulated_deal_from_its_record_as_from_its_seed(cli, tmp_path):
    rec = sim.records(Rules("5"), 7, [12], bots="heuristic")[0]  # show's default bots, as simulate's
    path = tmp_path / "deals.jsonl.gz"
    path.write_bytes(gzip.compress((json.dumps(rec) + "\n").encode()))
    from_seed = cli("show", "--table", "5", "--seed", "7", "--index", "12", "--names", "A,B,C,D,E")
    from_file = cli("show", str(path), "--line", "1", "--names", "A,B,C,D,E")
    assert from_seed == from_file and from_file[1] == format_record(rec, list("ABCDE")) + "\n"


def test_show_from_standard_input_gzip_and_first_record_by_default(cli, monkeypatch):
    data = b"\n\n" + EXAMPLES_FILE.read_bytes()                 # the first record is on line 3
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(io.BytesIO(gzip.compress(data)))))
    code, out, _ = cli("show", "-", "--json")
    assert code == 0 and json.loads(out) == EXAMPLES[0]


def test_show_a_hand_typed_deal_without_result_or_scores(cli, tmp_path):
    rec = json.loads(json.dumps(EXAMPLES[2]))                   # table 3, attack makes it by 1
    del rec["result"], rec["scores"]
    path = tmp_path / "typed.jsonl"
    path.write_text(json.dumps(rec) + "\n")
    code, out, _ = cli("show", str(path), "--names", "Ann,Bob,Cy")
    assert code == 0 and out == format_record(complete(rec), ["Ann", "Bob", "Cy"]) + "\n"
    assert "Scores: Ann -52, Bob +104, Cy -52" in out and "made by 1" in out
    code, out, _ = cli("show", str(path), "--json")
    assert code == 0 and json.loads(out) == rec                  # the record as it is in the file


def bad_file(tmp_path) -> Path:
    wrong_score = json.loads(json.dumps(EXAMPLES[2]))
    wrong_score["scores"][0] += 10
    illegal = json.loads(json.dumps(EXAMPLES[2]))
    illegal["tricks"][1]["cards"][1] = "T8"
    lines = [json.dumps(EXAMPLES[0]), "", json.dumps(wrong_score), json.dumps(illegal), '{"format": 1',
             json.dumps(dict(EXAMPLES[0], table="2"))]
    path = tmp_path / "bad.jsonl"
    path.write_bytes("\n".join(lines).encode() + b"\n\xe9\n")
    return path


@pytest.mark.parametrize("line, message", [
    (2, "line 2: a blank line: no deal record there"),
    (5, "line 5: malformed JSON: Expecting ',' delimiter (column 13)"),
    (6, "line 6: field piles: missing field: at table 2 each player has 6 piles of 3 cards (R-VAR-TWO)"),
    (7, "line 7: not UTF-8 text (byte 0xe9 at column 1)"),
    (9, "line 9: no such line: the file has 7 line(s)"),
])
def test_show_a_line_that_is_not_a_good_record_is_one_line_exit_2(cli, tmp_path, line, message):
    path = bad_file(tmp_path)
    for extra in ([], ["--json"]):
        code, out, err = cli("show", str(path), "--line", str(line), *extra)
        assert (code, out, err) == (2, "", f"tarotsim: error: {path}: {message}\n")


@pytest.mark.parametrize("line, message", [
    (3, "line 3: field scores: recomputed [-52, 104, -52], recorded [-42, 104, -52] (R-SCORE-2)"),
    (4, "line 4: trick 2, seat 0 plays T8: must follow spades: holds 4S (R-PLAY-4a)"),
])
def test_show_a_record_replay_flags_shows_it_as_recorded_with_a_warning(cli, tmp_path, line, message):
    """The very record `replay` names as bad can be looked at: shown as recorded, the problem on stderr."""
    path = bad_file(tmp_path)
    rec = json.loads(path.read_text(encoding="utf-8", errors="replace").splitlines()[line - 1])
    code, out, err = cli("show", str(path), "--line", str(line))
    assert code == 0 and out == format_record(rec) + "\n"
    assert err == f"tarotsim: warning: {path}: {message}; shown as recorded\n"
    code, out, err = cli("replay", "--verify", str(path))
    assert f"line {line}: BAD  {message.split(': ', 1)[1]}" in out


def test_show_and_replay_verify_name_a_record_whose_seed_or_index_was_edited(cli, tmp_path):
    """DESIGN §3: a record with a seed and an index holds the deal they deal; an edited one is
    flagged by replay --verify, and shown with a warning (not with a false identity alone)."""
    rec = sim.records(Rules("4"), 7, [12], bots="heuristic")[0]
    for field, value in (("seed", 8), ("index", 13)):
        edited = dict(rec, **{field: value})
        path = tmp_path / f"{field}.jsonl"
        path.write_text(json.dumps(edited) + "\n")
        seed, index = edited["seed"], edited["index"]
        what = (f"deal ({seed}, {index}) is dealt by seat 1, not seat 0" if field == "index" else
                f"field hands[0]: deal ({seed}, {index}) deals seat 0 other cards")
        code, out, err = cli("replay", "--verify", str(path))
        assert code == 1 and what in out and "the record's seed or index was edited" in out, out
        code, out, err = cli("show", str(path))
        assert code == 0 and what in err and err.startswith("tarotsim: warning: ") and err.count("\n") == 1
    path = tmp_path / "ok.jsonl"
    path.write_text(json.dumps(rec) + "\n")
    assert cli("replay", "--verify", str(path))[0] in (0, None)


def test_show_line_1_of_the_bad_file_is_fine(cli, tmp_path):
    code, out, _ = cli("show", str(bad_file(tmp_path)), "--line", "1")
    assert code == 0 and out == format_record(EXAMPLES[0]) + "\n"


@pytest.mark.parametrize("argv", [
    ["show", str(EXAMPLES_FILE), "--seed", "3"],
    ["show", str(EXAMPLES_FILE), "--index", "3"],
    ["show", str(EXAMPLES_FILE), "--bots", "heuristic"],
    ["show", str(EXAMPLES_FILE), "--table", "5"],
    ["show", str(EXAMPLES_FILE), "--option", "misere=true"],
    ["show", str(EXAMPLES_FILE), "--line", "0"],
    ["show", str(EXAMPLES_FILE), "--line", "1", "--names", "A,B"],
    ["show", "--seed", "1", "--line", "2"],
    ["show", "--line", "2"],
    ["show"],
    ["show", "--seed", "1", "--index", str(2**63)],
    ["show", "/nonexistent/deals.jsonl"],
])
def test_show_bad_usage_one_line_exit_2(cli, argv):
    code, out, err = cli(*argv)
    assert code == 2 and out == "" and err.startswith("tarotsim: error: ") and err.count("\n") == 1


def test_show_largest_index_is_accepted(cli):
    code, out, _ = cli("show", "--seed", "1", "--index", str(2**63 - 1), "--json")
    assert code == 0 and json.loads(out)["index"] == 2**63 - 1
