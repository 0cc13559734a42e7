"""tarotsim.sheet: score sheets as spreadsheets save them (encodings, separators, sizes), rows
checked like `tarotsim score` (row and column named), the evening scored, a game to N points."""

import io

import pytest

from tarotsim.rules import Rules
from tarotsim.sheet import SheetError, decode_sheet, read_sheet, score_sheet

R4 = Rules("4")
NAMES = ["Emma", "Nico", "Zoé", "Lea"]
BODY = "taker,contract,oudlers,points,poignees\nZoé,garde,2,45,\nNico,prise,1,51,simple:defence\n"


def rows_of(data, names=NAMES, rules=R4, name="s.csv"):
    return read_sheet(data, rules, names, name=name)


def error(data, names=NAMES, rules=R4):
    with pytest.raises(SheetError) as exc:
        rows_of(data, names, rules)
    msg = str(exc.value)
    assert "\n" not in msg and msg.startswith(("s.csv", "players"))
    return msg


# --- encodings ---------------------------------------------------------------------------------

@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "cp1252", "latin-1", "utf-16"])
def test_sheets_in_the_encodings_spreadsheets_write(encoding):
    rows = rows_of(BODY.encode(encoding))
    assert [r.row for r in rows] == [2, 3]
    assert rows[0].facts.taker == 2  # "Zoé", whatever the encoding
    assert rows[1].facts.poignees == (("simple", "defence"),)


def test_utf8_is_tried_first_then_cp1252_then_latin1():
    assert decode_sheet("Zoé €".encode()) == "Zoé €"
    assert decode_sheet("Zoé €".encode("cp1252")) == "Zoé €"       # French spreadsheets: the € is 0x80
    assert decode_sheet(b"Zo\xe9 \x81") == "Zoé \x81"               # 0x81 is no cp1252 character


def test_a_nul_byte_is_refused_with_its_row():
    msg = error(b"taker,contract,oudlers,points\nEmma,garde,2,45\nNico,pr\x00ise,1,51\n")
    assert msg.startswith("s.csv: row 3: a NUL byte")
    assert "NUL" in error(BODY.encode("utf-16-le"))  # UTF-16 without its BOM


def test_a_field_over_the_csv_limit_names_the_row():
    big = "x" * (200 * 1024)
    msg = error(f"taker,contract,oudlers,points\nEmma,garde,2,45\nEmma,{big},2,45\n".encode())
    assert msg.startswith("s.csv: row 3: a cell longer than 131,072 characters")


def test_broken_quoting_names_the_row():
    msg = error(b'taker,contract,oudlers,points\nEmma,garde,2,45\n"Nico"x,prise,1,51\n')
    assert msg.startswith("s.csv: row 3: not CSV")
    assert "row 2" in error(b'taker,contract,oudlers,points\n"Emma,garde,2,45\n')  # quote never closed


# --- separators and layout -----------------------------------------------------------------------

def test_semicolon_sheet_with_decimal_commas_as_french_excel_saves_it():
    data = 'taker;contract;oudlers;points;poignees\r\nZoé;garde;2;41,5;"simple:attack;simple:defence"\r\n'
    (row,) = rows_of(data.encode("cp1252"))
    assert row.facts.attack_half_points == 83 and len(row.facts.poignees) == 2


def test_tab_separated_sheet():
    (row,) = rows_of(b"taker\tcontract\toudlers\tpoints\nEmma\tgarde\t2\t45\n")
    assert row.facts.contract == "garde"


def test_rows_are_numbered_as_the_spreadsheet_shows_them_blank_rows_skipped():
    data = b"taker,contract,oudlers,points,,\nEmma,garde,2,45,,\n\n,,,,,\nNico,garde,2,oops,,\n"
    assert error(data).startswith("s.csv: row 5, column points:")
    rows = rows_of(b"taker,contract,oudlers,points,,\nEmma,garde,2,45,,\n\n,,,,,\nNico,pass,,,,\n")
    assert [(r.row, r.facts is None) for r in rows] == [(2, False), (5, True)]


@pytest.mark.parametrize("data,where", [
    (b"", "the sheet is empty"),
    (b"taker,contract,oudlers,points\n", "no deal in the sheet"),
    (b"taker,contract,taker\nEmma,garde,Emma\n", "column(s) 'taker' appear twice"),
    (b"taker,contract,oudlers,points\nEmma,garde,2,45,red\n", "row 2: 'red' is in no named column"),
    (b"taker,oudlers,points\nEmma,2,45\n", "lacks column(s) contract"),
])
def test_sheet_layout_errors(data, where):
    assert where in error(data)


# --- rows checked as `score` checks its options ---------------------------------------------------

@pytest.mark.parametrize("row,where,rule", [
    ("Emma,garde,2,40,,made,,", "row 2, columns chelem, points:", "R-SLAM-2"),
    ("Emma,garde,2,,51,made,,", "row 2, columns chelem, defence_points:", "R-SLAM-2"),
    ("Emma,garde,1,91,,made,,", "row 2, columns chelem, oudlers:", "R-SLAM-2"),
    ("Emma,prise,1,60,,defence,,", "row 2, columns chelem, points:", "R-CHIEN-2"),
    ("Emma,garde,0,50,,,attack,", "row 2, columns petit_au_bout, oudlers:", "R-PAB-1"),
    ("Emma,garde,3,91,,made,defence,", "row 2, columns petit_au_bout, chelem:", "R-PAB-1"),
    ("Emma,garde,3,91,,,,", "row 2, columns points, oudlers:", "R-SLAM-2"),
    ("Emma,garde,2,45,,,,simple:attack;simple:attack", "row 2, column poignees:", "R-POIG-2"),
    ("Emma,garde,2,45,,,,simple:attack;double:defence", "row 2, column poignees:", "R-POIG-3"),
])
def test_contradictory_rows_name_row_columns_and_rules(row, where, rule):
    data = f"taker,contract,oudlers,points,defence_points,chelem,petit_au_bout,poignees\n{row}\n".encode()
    msg = error(data)
    assert where in msg and rule in msg


def test_misere_contradictions_in_rows():
    rules = Rules("4", misere=True)
    data = b"taker,contract,oudlers,points,poignees,miseres\nEmma,garde,2,45,simple:attack,emma:atout\n"
    assert "row 2, columns poignees, miseres:" in error(data, rules=rules)
    data = b"taker,contract,oudlers,points,miseres\nEmma,garde,2,45,Emma:atout;Nico:atout;Zo\xc3\xa9:atout;Lea:atout\n"
    assert "row 2, column miseres:" in error(data, rules=rules)


def test_names_differing_only_in_case_are_refused():
    assert "names differ only in case: a and A" in error(BODY.encode(), names=["a", "A", "Zoé", "Lea"])
    # a player is found whatever the case once names are distinct
    (row,) = rows_of(b"taker,contract,oudlers,points\nzo\xc3\xa9,garde,2,45\n")
    assert row.facts.taker == 2


# --- sources ---------------------------------------------------------------------------------------

def test_read_from_a_path_a_binary_file_and_standard_input(tmp_path, monkeypatch):
    p = tmp_path / "evening.csv"
    p.write_bytes(BODY.encode("cp1252"))
    assert len(read_sheet(p, R4, NAMES)) == 2
    assert len(read_sheet(io.BytesIO(BODY.encode("cp1252")), R4, NAMES)) == 2
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(BODY.encode("cp1252"))))
    assert len(read_sheet("-", R4, NAMES)) == 2
    with pytest.raises(SheetError, match="cannot read"):
        read_sheet(tmp_path / "missing.csv", R4, NAMES)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"taker,contract\nEmma,garde\n\x00")))
    with pytest.raises(SheetError, match=r"^<stdin>: row \d+"):
        read_sheet("-", R4, NAMES)


# --- scoring the evening ---------------------------------------------------------------------------

EVENING = b"""taker,contract,oudlers,points
Emma,garde,2,45
Nico,prise,1,50
Zo\xc3\xa9,pass,,
Lea,garde,1,61
"""


def test_score_sheet_running_totals_zero_sum_and_winner():
    res = score_sheet(rows_of(EVENING), R4, NAMES)
    assert [d.scores for d in res.deals] == [(174, -58, -58, -58), (26, -78, 26, 26), (0, 0, 0, 0),
                                              (-70, -70, -70, 210)]
    assert all(sum(d.scores) == 0 for d in res.deals)
    assert res.totals == (130, -206, -102, 178)
    assert res.winners == res.leader == ["Lea"] and res.finished_at is None


def test_game_to_n_points_stops_at_the_first_deal_reaching_n():
    res = score_sheet(rows_of(EVENING), R4, NAMES, until=150)
    assert res.finished_at == 1 and res.winners == ["Emma"] and len(res.deals) == 1
    assert res.to_dict()["deals_not_played"] == 3


def test_game_to_n_points_that_nobody_reached_names_no_winner():
    res = score_sheet(rows_of(EVENING), R4, NAMES, until=500)
    assert res.finished_at is None and res.winners == [] and res.leader == ["Lea"] and res.best == 178
    d = res.to_dict()
    assert d["winner"] == [] and d["leader"] == ["Lea"] and d["until"] == 500 and d["finished_at_deal"] is None
    # the game_end option is the same target
    assert score_sheet(rows_of(EVENING), R4.with_options(game_end=500), NAMES).winners == []


@pytest.mark.parametrize("until", [0, -5, True, 2.5, "100"])
def test_score_sheet_checks_the_target(until):
    with pytest.raises(SheetError):
        score_sheet(rows_of(EVENING), R4, NAMES, until=until)


# --- no silent guess: table 5 without partners, table 2 from two columns ----------------------

def test_table_5_without_a_partner_column_is_refused_R_CALL_2():
    """Without the column every deal would be scored as the taker alone (R-CALL-2)."""
    msg = error(b"taker,contract,oudlers,points\nA,garde,2,45\n", list("ABCDE"), Rules("5"))
    assert msg == ("s.csv: table 5 needs a partner column: each deal's called partner, left empty when the taker "
                   "played alone (R-CALL-2)")
    rows = rows_of(b"taker,contract,oudlers,points,partner\nA,garde,2,45,\n", list("ABCDE"), Rules("5"))
    assert rows[0].facts.partner is None  # the column given, an empty cell: alone


def test_table_of_never_guesses_table_2_R_VAR_TWO(capsys, tmp_path):
    from tarotsim.cli import main
    from tarotsim.sheet import table_of

    assert table_of(None) == "4" and table_of(["A", "B", "C"]) == "3" and table_of(list("ABCDE")) == "5"
    for names in (["A", "B"], list("ABCDEF")):
        with pytest.raises(SheetError):
            table_of(names)
    p = tmp_path / "two.csv"
    p.write_text("taker,contract,oudlers,points,Emma,Nico\nEmma,garde,2,45,100,-100\n")
    with pytest.raises(SystemExit) as exc:
        main(["sheet", str(p), "--check"])
    out, err = capsys.readouterr()
    assert exc.value.code == 2 and out == ""
    assert err == ("tarotsim: error: the header names 2 players (Emma, Nico): give --table 2 to score the two-player "
                   "variant (R-VAR-TWO), or --players with every player of the table\n")
    with pytest.raises(SystemExit) as exc:
        main(["sheet", str(p), "--check", "--table", "2"])
    assert exc.value.code == 1 and "1 deal(s) checked" in capsys.readouterr().out  # asked for: scored at table 2


# --- a sheet written from played deals (tarotsim.sheet.write_sheet) ----------------------------

def test_a_written_sheet_reads_back_to_the_deals_scores_and_checks_R_SCORE_2(tmp_path):
    """Every example deal (poignée, chelems, table 5 partner, 5d dummy) and a thrown-in one, written
    as a sheet with the players' scores: read back, every deal scores as recorded, --check agrees."""
    import json
    from pathlib import Path

    from tarotsim.audit import audit_sheet
    from tarotsim.record import replay
    from tarotsim.sheet import sheet_row, write_sheet

    examples = [json.loads(x) for x in (Path(__file__).parent / "data" / "examples.jsonl").read_text().splitlines()]
    by_table: dict = {}
    for rec in examples:
        by_table.setdefault(rec["table"], []).append((replay(rec).deal.facts(), rec["scores"]))
    assert sheet_row(None, NAMES) == {"contract": "pass"}
    for table, deals in by_table.items():
        rules = Rules(table)
        names = [f"P{i}" for i in range(rules.n_seats)]
        deals.append((None, [0] * rules.n_seats))  # a deal thrown in (R-BID-3)
        fh = io.StringIO(newline="")
        write_sheet(deals, rules, names, fh)
        rows = read_sheet(fh.getvalue().encode(), rules, names, name="evening.csv")
        scored = score_sheet(rows, rules, names)
        assert [list(d.scores) for d in scored.deals] == [list(s) for _, s in deals]
        assert [r.written for r in rows] == [tuple(s) for _, s in deals]
        assert audit_sheet(rows, rules, names).wrong == []
        header = fh.getvalue().splitlines()[0].split(",")
        assert ("partner" in header) == (table == "5") and ("dummy" in header) == (table == "5d")
