"""What a user gave, echoed: every message that quotes a value shortens it (``tarotsim.echo``),
and every name a user gives is refused, or escaped, when it holds a character that would break a
table (a newline, a tab, an escape).

Each class of the audit is checked where it happens: a Python bot's answer and what its
exception says, a file's bad field (a record, a sheet, a saved run, a thresholds file), a
command-line value (click's own messages too); the names of ``--names``, ``--players``, a
sheet's header and a record's ``players``. The bots below are named ``test_echo:Name``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tarotsim import echo
from tarotsim.engine import PyRandomBot
from tarotsim.record import load

HUGE = "X" * 10_000_000
#: a field of a file as long as its reader takes (a record's line and a sheet's cell have limits)
LONG = "X" * 100_000
EXAMPLES_FILE = Path(__file__).parent / "data" / "examples.jsonl"
EVENING = Path(__file__).parent.parent / "examples" / "evening.csv"
#: an error line quoting a value is never longer than this, whatever the value's size
SHORT = len("tarotsim: error: \n") + echo.LINE


class AnswersAHugeBid:
    def choose(self, view, legal, rng):
        return HUGE if view.decision.kind == "bid" else PyRandomBot().choose(view, legal, rng)


class AnswersAHugeList:
    def choose(self, view, legal, rng):
        return list(range(1_000_000)) if view.decision.kind == "bid" else PyRandomBot().choose(view, legal, rng)


class RaisesAHugeMessage:
    def choose(self, view, legal, rng):
        raise ValueError("Y" * 10_000_000)


class NamedOnTwoLines:
    name = "first\nsecond"

    def choose(self, view, legal, rng):
        raise ValueError("no")


# ---------------------------------------------------------------------------------------------
# the helper


def test_shown_cuts_a_long_value_and_says_its_length():
    assert echo.shown("abc") == "'abc'"
    assert echo.shown(HUGE) == f"'{'X' * echo.LIMIT}'... (10,000,000 characters)"
    assert echo.shown(b"\0" * 100).endswith("... (100 bytes)")
    assert echo.shown(list(range(10**6))) == "[0, 1, 2, 3, 4, 5, ...]"
    assert echo.shown("a\nb") == "'a\\nb'"  # one line: a control character shows escaped

    class BadRepr:
        def __repr__(self):
            raise RuntimeError("no repr")

    assert echo.shown(BadRepr()).startswith("<BadRepr instance at 0x")


def test_cut_keeps_both_ends_of_a_long_text_on_one_line():
    assert echo.cut("a\n b\tc") == "a b c"
    text = "head " + "Y" * 1000 + " tail"
    got = echo.cut(text, 60)
    assert got.startswith("head YYY") and got.endswith("YYY tail") and "(1,010 characters)" in got
    assert len(got) <= 60


def test_paragraph_breaks_a_sentence_between_words_and_keeps_a_long_word_whole():
    text = "take = taken / deals with an auction; share = taken / deals; made = made / taken"
    lines = echo.paragraph(text, 30, indent="  ")
    assert lines == ["take = taken / deals with an", "  auction; share = taken /", "  deals; made = made / taken"]
    assert " ".join(line.strip() for line in lines) == text
    assert all(len(line) <= echo.TEXT_WIDTH for line in echo.paragraph(text * 4))
    word = "a-path/" * 10
    assert echo.paragraph(f"see {word} now", 20) == ["see", word, "now"]


# ---------------------------------------------------------------------------------------------
# every place that echoes a user-given value


def _one_short_line(code: int, err: str, *parts: str) -> None:
    assert code == 2 and err.count("\n") == 1 and len(err) < SHORT and err.startswith("tarotsim: error: "), err[:300]
    for part in parts:
        assert part in err, err


@pytest.mark.parametrize("bot,parts", [
    ("AnswersAHugeBid", ["unknown bid 'XXXX", "... (10,000,000 characters)", "(R-BID-1)"]),
    ("AnswersAHugeList", ["unknown bid [0, 1, 2, 3, 4, 5, ...]: pass or one of"]),
    ("RaisesAHugeMessage", ["raised ValueError: YYYY", "(10,000,000 characters)", "(bid decision)"]),
    ("NamedOnTwoLines", ["bot first second (test_echo:NamedOnTwoLines) raised ValueError: no"]),
])
@pytest.mark.parametrize("command", [["show", "--seed", "1"], ["simulate", "--deals", "2", "--seed", "1"]])
def test_a_python_bot_s_enormous_answer_is_one_short_line(cli, bot, parts, command):
    code, out, err = cli(*command, "--bots", f"test_echo:{bot}")
    _one_short_line(code, err, *parts)


@pytest.mark.parametrize("argv,parts", [
    (["score", "--contract", "garde", "--oudlers", "2", "--points", "9" * 100_000], ["(100,000 characters)"]),
    (["score", "--contract", "garde", "--oudlers", "2", "--points", "45", "--poignee", HUGE], ["poignée 'XXX"]),
    (["score", "--contract", "garde", "--oudlers", "2", "--points", "45", "--option", f"poignee_to={HUGE}"],
     ["option poignee_to takes one of", "(10,000,000 characters)"]),
    (["score", "--contract", "garde", "--oudlers", "2", "--points", "45", "--taker", HUGE],
     ["taker 'XXX", "is not one of the players"]),
    (["simulate", "--deals", "2", "--bots", HUGE], ["unknown bot 'XXX", "(10,000,000 characters)"]),
    (["simulate", "--deals", "2", "--bots", f"heuristic:garde={HUGE}"], ["takes a number, not 'XXX"]),
    (["simulate", "--deals", "2", "--shard", HUGE], ["--shard: 'XXX"]),
    (["show", "--seed", "1", "--table", HUGE], ["Invalid value for '--table'", "(10,000,"]),  # click's own
    (["study", "bidding", "--contracts", HUGE], ["unknown contract 'xxx", "(10,000,000 characters)"]),
])
def test_a_command_line_value_is_echoed_short(cli, argv, parts):
    code, out, err = cli(*argv)
    _one_short_line(code, err, *parts)


def test_a_bad_field_of_a_record_file_is_echoed_short(cli, tmp_path):
    rec = next(r for _, r in load(EXAMPLES_FILE))
    rec["contract"] = LONG
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(rec) + "\n")
    for argv in (["show", path], ["stats", path]):
        code, out, err = cli(*argv)
        _one_short_line(code, err, "unknown contract 'XXX", "(100,000 characters)")
    code, out, err = cli("replay", path)
    assert code == 1 and len(out) < SHORT and "unknown contract 'XXX" in out


def test_a_bad_cell_or_header_of_a_sheet_is_echoed_short(cli, tmp_path):
    sheet = tmp_path / "s.csv"
    sheet.write_text(f"taker,contract,oudlers,points\nEmma,{LONG},2,45\n")
    code, out, err = cli("sheet", sheet, "--players", "Emma,Nico,Pat,Lea")
    _one_short_line(code, err, "unknown contract 'XXX")
    sheet.write_text(f"taker,contract,oudlers,points,{LONG}\nEmma,garde,2,45,1\n")
    code, out, err = cli("sheet", sheet, "--players", "Emma,Nico,Pat,Lea")
    _one_short_line(code, err, "unknown column(s) 'xxx", "(100,000 characters)")


def test_a_bad_setting_of_a_saved_run_is_echoed_short(cli, tmp_path):
    from tarotsim.runs import shards

    a, b = tmp_path / "a.json", tmp_path / "b.json"
    assert cli("simulate", "--deals", "4", "--seed", "1", "--save", a)[0] == 0
    assert cli("simulate", "--deals", "4", "--seed", "1", "--start", "4", "--save", b)[0] == 0
    saved = shards.load(str(b))
    saved.config["bots"] = HUGE
    b.write_text(shards.dumps(saved))
    code, out, err = cli("merge", a, b)
    _one_short_line(code, err, "bots heuristic vs XXX", "(10,000,000 characters)")


def test_a_bad_value_of_a_thresholds_file_is_echoed_short(cli, tmp_path):
    path = tmp_path / "cal.json"
    path.write_text(json.dumps({"format": "tarotsim-thresholds/1", "thresholds": {
        "prise": HUGE, "garde": 1, "garde_sans": 2, "garde_contre": 3}}))
    code, out, err = cli("simulate", "--deals", "2", "--bots", f"heuristic:thresholds={path}")
    _one_short_line(code, err, "prise must be a finite number, not 'XXX")


# ---------------------------------------------------------------------------------------------
# names: refused where a user types them, escaped where a file holds them


@pytest.mark.parametrize("name,fault", [("Emma\nNico", "a newline (U+000A)"), ("Em\tma", "a tab (U+0009)"),
                                        ("\x1b[31mEmma", "an escape (U+001B)"),
                                        ("Emma\u202e", "a control character (U+202E)")])
def test_a_name_that_would_break_a_table_is_refused(cli, tmp_path, name, fault):
    names = f"{name},Nico,Pat,Lea"
    code, out, err = cli("score", "--contract", "garde", "--oudlers", "2", "--points", "45", "--names", names)
    assert (code, out) == (2, "") and err == f"tarotsim: error: --names: player name {name!r} holds {fault}\n"
    code, out, err = cli("sheet", EVENING, "--players", names)
    assert (code, out) == (2, "") and f"player name {name!r} holds {fault}" in err and err.count("\n") == 1
    code, out, err = cli("show", "--seed", "1", "--names", names)
    assert (code, out) == (2, "") and f"player name {name!r} holds {fault}" in err
    header = tmp_path / "header.csv"  # a sheet whose header names the players (their written scores)
    header.write_text(f"taker,contract,oudlers,points,\"{name}\",Nico,Pat,Lea\nNico,garde,2,45,-58,174,-58,-58\n")
    code, out, err = cli("sheet", header, "--check")
    assert (code, out) == (2, "") and f"player name {name!r} holds {fault}" in err and err.count("\n") == 1


def test_a_name_a_record_holds_is_shown_escaped_on_one_line(cli, tmp_path):
    path = tmp_path / "game.jsonl"
    with path.open("w") as f:
        for _, rec in load(EXAMPLES_FILE):
            if rec["table"] == "4":
                f.write(json.dumps(dict(rec, players=["Emma\nNico", "\x1b[2JPat", "Lea", "Zoé"])) + "\n")
    code, out, err = cli("stats", path, "--by", "player")
    rows = [line.split()[0] for line in out.splitlines()[3:7]]
    assert code == 0 and sorted(rows) == sorted(["Emma\\nNico", "\\x1b[2JPat", "Lea", "Zoé"])
    assert "\x1b" not in out and "Emma\nNico" not in out
