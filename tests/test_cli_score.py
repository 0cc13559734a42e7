"""`tarotsim score`, `tarotsim sheet` and `tarotsim options` as a user runs them."""

import json
import subprocess
import sys

import pytest



def test_score_ex2_table(cli):
    code, out, err = cli("score", "--contract", "garde_sans", "--oudlers", "2", "--points", "37",
                         "--petit-au-bout", "defence", "--poignee", "simple:defence")
    assert code == 0 and err == ""
    assert "failed by 4" in out and "-528" in out and "+176" in out


def test_score_json_ex3(cli):
    code, out, _ = cli("score", "--table", "3", "--contract", "garde", "--oudlers", "2", "--points",
                       "45.5", "--poignee", "double:defence", "--names", "A,B,C", "--json")
    d = json.loads(out)
    assert code == 0
    assert (d["target"], d["difference"], d["made"], d["value"]) == (41, 5, True, 90)
    assert d["scores"] == {"A": 180, "B": -90, "C": -90}


def test_score_defence_points_and_taker_name(cli):
    code, out, _ = cli("score", "--contract", "prise", "--oudlers", "1", "--defence-points", "40",
                       "--names", "Emma,Nico,Pat,Lea", "--taker", "pat", "--json")
    assert json.loads(out)["scores"] == {"Emma": -25, "Nico": -25, "Pat": 75, "Lea": -25}


def test_score_ex5_partner_and_ex6_alone_with_misere(cli):
    _, out, _ = cli("score", "--table", "5", "--contract", "prise", "--oudlers", "1", "--points", "48.5",
                    "--petit-au-bout", "attack", "--poignee", "simple:attack", "--json")
    assert list(json.loads(out)["scores"].values()) == [-76, -38, 38, 38, 38]
    _, out, _ = cli("score", "--table", "5", "--contract", "garde_sans", "--oudlers", "1", "--points",
                    "61", "--petit-au-bout", "defence", "--alone", "--misere", "P2:tete", "--option", "misere=on",
                    "--json")
    assert list(json.loads(out)["scores"].values()) == [390, -60, -110, -110, -110]


def test_score_5d_dummy(cli):
    _, out, _ = cli("score", "--table", "5d", "--contract", "prise", "--oudlers", "1", "--points", "51",
                    "--dummy", "P3", "--json")
    assert list(json.loads(out)["scores"].values()) == [75, -25, 0, -25, -25]


def test_score_half_point_at_four_warns_on_stderr(cli):
    code, out, err = cli("score", "--contract", "garde", "--oudlers", "2", "--points", "41.5", "--json")
    assert code == 0 and "R-COUNT-5" in err and json.loads(out)["difference"] == 1


@pytest.mark.parametrize("argv", [
    ["--contract", "gardex", "--oudlers", "1", "--points", "50"],
    ["--table", "6", "--contract", "garde", "--oudlers", "1", "--points", "50"],
    ["--contract", "garde", "--oudlers", "4", "--points", "50"],
    ["--contract", "garde", "--oudlers", "1", "--points", "92"],
    ["--contract", "garde", "--oudlers", "1", "--points", "50.2"],
    ["--contract", "garde", "--oudlers", "1"],
    ["--contract", "garde", "--oudlers", "1", "--points", "50", "--defence-points", "41"],
    ["--contract", "garde", "--oudlers", "1", "--points", "50", "--partner", "P2"],
    ["--contract", "garde", "--oudlers", "1", "--points", "50", "--misere", "P2:atout"],
    ["--contract", "garde", "--oudlers", "1", "--points", "50", "--poignee", "quadruple:attack"],
    ["--contract", "garde", "--oudlers", "1", "--points", "50", "--poignee", "triple:defence",
     "--poignee", "triple:defence"],
    ["--contract", "garde", "--oudlers", "1", "--points", "50", "--poignee", "simple:attack",
     "--poignee", "simple:attack"],
    ["--table", "2", "--contract", "garde", "--oudlers", "1", "--points", "50", "--poignee", "simple:attack"],
    ["--contract", "garde", "--oudlers", "1", "--points", "50", "--taker", "Zoe"],
    ["--contract", "garde", "--oudlers", "1", "--points", "50", "--names", "A,B,C"],
    ["--contract", "garde", "--oudlers", "1", "--points", "50", "--option", "nope=1"],
    ["--contract", "garde", "--oudlers", "3", "--points", "5"],
])
def test_score_bad_input_is_one_line_exit_2(cli, argv):
    code, out, err = cli("score", *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("tarotsim: error:") and "Traceback" not in err


@pytest.mark.slow
def test_console_script_bad_input_has_no_traceback():
    p = subprocess.run([sys.executable, "-m", "tarotsim.cli", "score", "--contract", "x"],
                       capture_output=True, text=True)
    assert p.returncode == 2 and "Traceback" not in p.stderr and p.stderr.count("\n") == 1


def test_help_teaches(cli):
    code, out, _ = cli("score", "--help")
    assert code == 0 and "--poignee" in out and "Example" in out
    code, out, _ = cli("--help")
    assert code == 0 and "sheet" in out and "score" in out


def test_options_lists_every_variant(cli):
    code, out, _ = cli("options")
    assert code == 0
    for name in ("pab_multiplied", "poignee_to", "defence_slam_bonus", "misere", "excuse_slam_lead"):
        assert name in out
    # the columns never run together: each row is 4 cells apart by two spaces or more, aligned
    import re

    from tarotsim.rules import OPTION_SPECS
    lines = out.splitlines()
    assert len(lines) == 1 + len(OPTION_SPECS) and lines[0].split() == ["option", "default", "values", "what", "it",
                                                                        "sets"]
    cells = [re.split(r" {2,}", line, maxsplit=3) for line in lines]
    assert all(len(c) == 4 for c in cells), [c for c in cells if len(c) != 4]
    starts = {tuple(line.index(c, len(" ".join(row[:i]))) for i, c in enumerate(row)) for line, row in zip(lines, cells)}
    assert len(starts) == 1  # every column starts at one place
    assert "excuse_slam_lead          either_side  either_side | attack_only    which side" in out


SHEET = """taker,contract,oudlers,points,defence_points,petit_au_bout,poignees,chelem
Emma,garde,2,45,,,,
Nico,prise,1,,43,defence,simple:attack,
Pat,pass,,,,,,
Lea,garde_sans,3,91,,attack,,announced_made
"""


@pytest.fixture
def sheet_file(tmp_path):
    p = tmp_path / "evening.csv"
    p.write_text(SHEET)
    return p


def test_sheet_running_totals_and_winner(cli, sheet_file):
    code, out, _ = cli("sheet", str(sheet_file), "--players", "Emma,Nico,Pat,Lea")
    assert code == 0
    assert "winner: Lea with +2280" in out and "R-SCORE-3" in out


def test_sheet_totals_keep_their_sign(cli, sheet_file):
    """A total is a score: +174, not 174, beside -58 (the deal's own row has its sign too)."""
    code, out, _ = cli("sheet", str(sheet_file), "--players", "Emma,Nico,Pat,Lea")
    totals = [line.split()[1:] for line in out.splitlines() if line.split()[:1] == ["total"]]
    assert code == 0 and totals[0] == ["+174", "-58", "-58", "-58"] and totals[2] == ["+232", "-232", "+0", "+0"]
    assert all(t[0] in "+-" for row in totals for t in row)


def test_sheet_json(cli, sheet_file):
    code, out, _ = cli("sheet", str(sheet_file), "--players", "Emma,Nico,Pat,Lea", "--json")
    d = json.loads(out)
    assert [x["scores"]["Emma"] for x in d["deals"]] == [174, 58, 0, -760]
    assert d["deals"][2]["scores"] == {"Emma": 0, "Nico": 0, "Pat": 0, "Lea": 0}  # a row of pass
    assert d["totals"] == {"Emma": -528, "Nico": -992, "Pat": -760, "Lea": 2280}
    assert all(sum(x["scores"].values()) == 0 for x in d["deals"])


def test_sheet_until_stops_at_the_first_deal_past_the_target(cli, sheet_file):
    code, out, _ = cli("sheet", str(sheet_file), "--players", "Emma,Nico,Pat,Lea", "--until", "150",
                       "--json")
    d = json.loads(out)
    assert len(d["deals"]) == 1 and d["finished_at_deal"] == 1 and d["deals_not_played"] == 3
    code, out, _ = cli("sheet", str(sheet_file), "--players", "Emma,Nico,Pat,Lea", "--until", "150")
    assert "game over at deal 1" in out and "winner: Emma" in out


def test_sheet_table_5_partner_and_alone(cli, tmp_path):
    p = tmp_path / "five.csv"
    p.write_text("taker,contract,oudlers,points,partner\nA,prise,1,51,C\nB,garde,1,51,\n")
    code, out, _ = cli("sheet", str(p), "--players", "A,B,C,D,E", "--json")
    d = json.loads(out)
    assert d["deals"][0]["scores"] == {"A": 50, "B": -25, "C": 25, "D": -25, "E": -25}
    assert d["deals"][1]["scores"] == {"A": -50, "B": 200, "C": -50, "D": -50, "E": -50}


@pytest.mark.parametrize("body,where", [
    ("taker,contract,oudlers,points\nEmma,garde,5,45\n", "row 2, column oudlers"),
    ("taker,contract,oudlers,points\nEmma,garde,2,45\nZoe,garde,2,45\n", "row 3, column taker"),
    ("taker,contract,oudlers,points\nEmma,grade,2,45\n", "row 2, column contract"),
    ("taker,contract,oudlers,points\nEmma,garde,2,\n", "row 2, column points"),
    ("taker,contract,oudlers,points,partner\nEmma,garde,2,45,Nico\n", "row 2, column partner"),
    ("taker,contract,oudlers,points,poignees\nEmma,garde,2,45,simple:nobody\n", "row 2, column poignees"),
    ("taker,contract,oudlers,points,miseres\nEmma,garde,2,45,Nico:atout\n", "row 2, column miseres"),
    ("taker,contract,oudlers,points,colour\nEmma,garde,2,45,red\n", "unknown column"),
    ("taker,oudlers,points\nEmma,2,45\n", "lacks column"),
])
def test_sheet_bad_rows_name_row_and_column_and_print_nothing(cli, tmp_path, body, where):
    p = tmp_path / "bad.csv"
    p.write_text(body)
    code, out, err = cli("sheet", str(p), "--players", "Emma,Nico,Pat,Lea")
    assert code == 2 and out == "" and where in err and err.count("\n") == 1


def test_sheet_missing_file(cli):
    code, out, err = cli("sheet", "/nonexistent/x.csv")
    assert code == 2 and "cannot read" in err


# --- contradictions, names, encodings, games nobody won -------------------------------

def one_line_error(code, out, err):
    return code == 2 and out == "" and err.count("\n") == 1 and err.startswith("tarotsim: error:") \
        and "Traceback" not in err


def test_score_partner_and_alone_together_are_refused_R_CALL_2(cli):
    code, out, err = cli("score", "--table", "5", "--contract", "prise", "--oudlers", "1", "--points",
                         "51", "--partner", "P2", "--alone")
    assert one_line_error(code, out, err) and "--alone" in err and "R-CALL-2" in err


@pytest.mark.parametrize("argv,rule", [
    (["--contract", "garde", "--oudlers", "2", "--points", "40", "--chelem", "made"], "R-SLAM-2"),
    (["--contract", "garde", "--oudlers", "0", "--points", "50", "--petit-au-bout", "attack"], "R-PAB-1"),
    (["--contract", "garde", "--oudlers", "1", "--points", "60", "--chelem", "defence"], "R-CHIEN-2"),
    (["--contract", "garde", "--oudlers", "3", "--points", "91", "--chelem", "made", "--petit-au-bout", "defence"],
     "R-PAB-1"),
    (["--contract", "prise", "--oudlers", "3", "--points", "91"], "R-SLAM-2"),
    (["--table", "5", "--alone", "--contract", "prise", "--oudlers", "1", "--points", "51", "--poignee",
      "simple:attack", "--poignee", "simple:attack"], "R-POIG-2"),
])
def test_score_contradictory_facts_are_refused_with_their_rules(cli, argv, rule):
    code, out, err = cli("score", *argv)
    assert one_line_error(code, out, err) and rule in err


def test_names_differing_only_in_case_are_refused(cli, sheet_file):
    code, out, err = cli("score", "--names", "a,A,C,D", "--taker", "A", "--contract", "prise",
                         "--oudlers", "1", "--points", "51")
    assert one_line_error(code, out, err) and "names differ only in case: a and A" in err
    code, out, err = cli("sheet", str(sheet_file), "--players", "Emma,NICO,Nico,Lea")
    assert one_line_error(code, out, err) and "names differ only in case: NICO and Nico" in err


def test_sheet_contradictory_row_names_the_row_and_columns(cli, tmp_path):
    p = tmp_path / "evening.csv"
    p.write_text("taker,contract,oudlers,points,chelem\nEmma,garde,2,45,\nNico,garde,2,40,made\n")
    code, out, err = cli("sheet", str(p), "--players", "Emma,Nico,Pat,Lea")
    assert one_line_error(code, out, err) and "row 3, columns chelem, points" in err and "R-SLAM-2" in err


def test_sheet_saved_by_a_french_spreadsheet_cp1252_semicolons_decimal_commas(cli, tmp_path):
    p = tmp_path / "soirée.csv"
    p.write_bytes("taker;contract;oudlers;points\r\nZoé;garde;2;45\r\nNico;garde;2;41,5\r\n".encode("cp1252"))
    code, out, err = cli("sheet", str(p), "--players", "Zoé,Nico,Pat", "--json")  # table 3: halves
    assert code == 0 and err == ""
    d = json.loads(out)
    assert [x["scores"]["Zoé"] for x in d["deals"]] == [116, -52]


@pytest.mark.parametrize("data,where", [
    (b"taker,contract,oudlers,points\nEmma,garde,2,45\x00\n", "row 2: a NUL byte"),
    (b"taker,contract,oudlers,points\nEmma,garde,2," + b"4" * (200 * 1024) + b"\n", "row 2: a cell longer than"),
    (b'taker,contract,oudlers,points\n"Emma"x,garde,2,45\n', "row 2: not CSV"),
])
def test_sheet_bad_bytes_and_sizes_are_one_line_naming_file_and_row(cli, tmp_path, data, where):
    p = tmp_path / "bad.csv"
    p.write_bytes(data)
    code, out, err = cli("sheet", str(p), "--players", "Emma,Nico,Pat,Lea")
    assert one_line_error(code, out, err) and f"{p}: {where}" in err


@pytest.mark.slow
def test_sheet_from_standard_input_in_cp1252():
    root = __import__("pathlib").Path(__file__).parent.parent
    p = subprocess.run([sys.executable, "-m", "tarotsim.cli", "sheet", "-", "--players", "Zoé,Nico,Pat,Lea"],
                       input="taker,contract,oudlers,points\nzoé,garde,2,45\n".encode("cp1252"),
                       capture_output=True, cwd=root)
    assert p.returncode == 0 and b"winner: Zo\xc3\xa9 with +174" in p.stdout


def test_sheet_until_nobody_reached_names_the_leader_not_a_winner(cli, sheet_file):
    code, out, _ = cli("sheet", str(sheet_file), "--players", "Emma,Nico,Pat,Lea", "--until", "5000")
    assert code == 0 and "nobody reached 5000: leader Lea with +2280 after 4 deal(s)" in out
    assert "winner" not in out and "game over" not in out
    code, out, _ = cli("sheet", str(sheet_file), "--players", "Emma,Nico,Pat,Lea", "--until", "5000",
                       "--json")
    d = json.loads(out)
    assert d["winner"] == [] and d["leader"] == ["Lea"] and d["finished_at_deal"] is None
    assert d["deals_not_played"] == 0 and d["until"] == 5000


@pytest.mark.slow
def test_score_and_sheet_never_load_the_kernels():
    """Scoring by hand stays instant: neither numba nor the kernels are imported (a run of
    `tarotsim score` once took 0.4 s instead of 0.15 s for an import in the error handler)."""
    code = ("import sys\nfrom tarotsim.cli import main\n"
            "for argv in (['score', '--contract', 'garde', '--oudlers', '2', '--points', '45'],\n"
            "             ['score', '--contract', 'garde', '--oudlers', '9', '--points', '45'],\n"
            "             ['sheet', 'examples/evening.csv', '--players', 'Emma,Nico,Pat,Lea']):\n"
            "    try:\n        main(argv)\n    except SystemExit:\n        pass\n"
            "print(sorted(m for m in sys.modules if m.startswith(('numba', 'tarotsim._kernels'))))\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert p.stdout.strip().splitlines()[-1] == "[]", p.stderr
