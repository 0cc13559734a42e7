"""tarotsim.audit and `tarotsim sheet --check`: the scores players wrote, checked deal by deal, each
wrong deal explained by the variants of RULES §14 and the common mistakes that reproduce it."""

import json
import re
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from tarotsim.audit import CAUSE_NAMES, CAUSES, Deal, audit_sheet, explain, format_audit, shares_of
from tarotsim.rules import CONTRACTS, Rules
from tarotsim.scoring import CHELEM_OUTCOMES, DealFacts, ScoringError, attack_points_range, check_facts, score
from tarotsim.sheet import SheetError, read_sheet

ROOT = Path(__file__).resolve().parent.parent
NAMES = ["Emma", "Nico", "Pat", "Lea"]
R4 = Rules("4")


def facts(table="4", contract="garde", points=45, oudlers=2, **kw):
    rules = kw.pop("rules", None) or Rules(table)
    return DealFacts(rules=rules, contract=contract, attack_half_points=int(points * 2), oudlers=oudlers, **kw)


# --- one deal per documented cause: scored by hand with that cause, reported with it alone ------

#: cause -> (facts, the scores written with that cause, worked by hand from RULES §13).
BY_HAND = {
    # garde failed by 3 (48 for 51), petit au bout defence: V = -28 x 2 - 10 instead of - 20
    "pab_multiplied=false": (facts(points=48, oudlers=1, petit_au_bout="defence"), (-198, 66, 66, 66)),
    # the same deal on a sheet kept with pab_multiplied=false: the official -20
    "pab_multiplied=true": (facts(points=48, oudlers=1, petit_au_bout="defence",
                                  rules=Rules("4", pab_multiplied=False)), (-228, 76, 76, 76)),
    # garde made by 15, a defender's simple poignée: V = 40 x 2 - 20 (to the declarer) instead of + 20
    "poignee_to=declarer_side": (facts(points=56, poignees=(("simple", "defence"),)), (180, -60, -60, -60)),
    "poignee_to=winner": (facts(points=56, poignees=(("simple", "defence"),),
                                rules=Rules("4", poignee_to="declarer_side")), (300, -100, -100, -100)),
    # garde, the defence won every trick, 3 points in the écart: V = -(25 + 53) x 2 - 0 instead of - 200
    "defence_slam_bonus=0": (facts(points=3, oudlers=0, chelem="defence"), (-468, 156, 156, 156)),
    "defence_slam_bonus=200": (facts(points=3, oudlers=0, chelem="defence",
                                     rules=Rules("4", defence_slam_bonus=0)), (-1068, 356, 356, 356)),
    # prise made by 0 (75, -25 x 3), Nico's misère de tête paid 20 by each instead of 10
    "misere_value": (facts(contract="prise", points=51, oudlers=1, miseres=((1, "tete"),),
                           rules=Rules("4", misere=True)), (55, 35, -45, -45)),
    # table 3, garde 45.5 for 41: d = 4 instead of 5, V = 29 x 2; the taker 2V
    "difference_rounded_down": (facts("3", points=45.5), (116, -58, -58)),
    # table 4, a half point left in P (40.5 for 41): failed by 0.5 kept, V = -25.5 x 2 instead of -26 x 2
    "half_point_kept": (facts(points=40.5), (-153, 51, 51, 51)),
    # garde made by 9, petit au bout won by the defence but paid to the attack: 68 + 20 instead of 68 - 20
    "pab_to_contract_winner": (facts(points=50, petit_au_bout="defence"), (264, -88, -88, -88)),
    # garde made by 4, the taker's simple poignée: 58 + 20 x 2 instead of 58 + 20
    "poignee_multiplied": (facts(points=45, poignees=(("simple", "attack"),)), (294, -98, -98, -98)),
    # garde, chelem made unannounced, 91 with 3 oudlers: 80 x 2 + 200 x 2 instead of + 200
    "slam_multiplied": (facts(points=91, oudlers=3, chelem="made"), (1680, -560, -560, -560)),
    # garde made by 4: the taker +58 instead of 3 x 58
    "taker_paid_once": (facts(points=45), (58, -58, -58, -58)),
    # table 5, Emma's garde with Nico made by 10 (V = 70): 105 each instead of 140 and 70
    "five_split_equally": (facts("5", points=61, oudlers=1, partner=1), (105, 105, -70, -70, -70)),
    "five_partner_unpaid": (facts("5", points=61, oudlers=1, partner=1), (210, 0, -70, -70, -70)),
    # prise made by 0 written the wrong way round
    "signs_swapped": (facts(contract="prise", points=51, oudlers=1), (-75, 25, 25, 25)),
}


def test_every_documented_cause_has_its_worked_deal_and_its_docs_entry():
    assert set(BY_HAND) == set(CAUSE_NAMES)
    doc = (ROOT / "docs" / "audit.md").read_text(encoding="utf-8")
    for name in CAUSE_NAMES:
        assert f"`{name}`" in doc, name


@pytest.mark.parametrize("name", list(BY_HAND))
def test_a_deal_scored_with_one_cause_is_reported_with_that_cause_alone(name):
    f, written = BY_HAND[name]
    assert written != score(f).scores
    assert [m.name for m in explain(f, written)] == [name]


def test_the_misere_value_found_is_named_R_MIS_2():
    f, written = BY_HAND["misere_value"]
    (m,) = explain(f, written)
    assert m.text == "each misère paid 20 instead of 10, as option misere_value=20 does" and m.rules == ("R-MIS-2",)


def test_two_causes_that_give_the_same_scores_are_both_named():
    # table 3, garde with 3 oudlers and 86 points, announced chelem failed, petit au bout and a
    # poignée for the attack: V = 2 x 75 + 20 + 20 - 200 = -10, and -10 + 20 (poignée x 2) = +10
    f = facts("3", points=86, oudlers=3, petit_au_bout="attack", poignees=(("simple", "attack"),),
              chelem="announced_failed")
    assert score(f).scores == (-20, 10, 10)
    assert [m.name for m in explain(f, (20, -10, -10))] == ["poignee_multiplied", "signs_swapped"]


def test_scores_no_cause_explains_get_none_and_right_scores_need_none():
    f = facts(points=45)
    assert explain(f, (170, -60, -50, -60)) == ()
    assert explain(f, score(f).scores) == ()
    with pytest.raises(ValueError):
        explain(f, (174, -58, -58))


@pytest.mark.parametrize("table,kw,shares", [
    ("3", {}, (2, -1, -1)),
    ("4", {}, (3, -1, -1, -1)),
    ("5", {"partner": 2}, (2, -1, 1, -1, -1)),
    ("5", {}, (4, -1, -1, -1, -1)),
    ("5d", {"taker": 1, "dummy": 4}, (-1, 3, -1, -1, 0)),
    ("2", {}, (1, -1)),
])
def test_shares_of_V_are_those_of_R_SCORE_2(table, kw, shares):
    assert shares_of(facts(table, points=51, oudlers=1, **kw)) == shares


# --- properties ----------------------------------------------------------------------------

@st.composite
def deals(draw):
    table = draw(st.sampled_from(["3", "4", "5", "5d"]))
    rules = Rules(table, misere=True, pab_multiplied=draw(st.booleans()),
                  poignee_to=draw(st.sampled_from(["winner", "declarer_side"])),
                  defence_slam_bonus=draw(st.sampled_from([200, 0])))
    contract, chelem = draw(st.sampled_from(CONTRACTS)), draw(st.sampled_from(list(CHELEM_OUTCOMES)))
    k = draw(st.integers(0, 3))
    span = attack_points_range(rules, contract, chelem, k)
    assume(span is not None)
    taker = draw(st.integers(0, rules.n_seats - 1))
    others = [s for s in range(rules.n_seats) if s != taker]
    partner = draw(st.sampled_from([None] + others)) if table == "5" else None
    dummy = draw(st.sampled_from(others)) if table == "5d" else None
    active = [s for s in range(rules.n_seats) if s != dummy]
    f = DealFacts(rules=rules, contract=contract, attack_half_points=draw(st.integers(*span)), oudlers=k,
                  taker=taker, partner=partner, dummy=dummy,
                  petit_au_bout=draw(st.sampled_from([None, "attack", "defence"])),
                  poignees=tuple(draw(st.lists(st.tuples(st.just("simple"), st.sampled_from(["attack", "defence"])),
                                               max_size=1))),
                  chelem=chelem, miseres=tuple((s, "tete") for s in draw(st.sets(st.sampled_from(active), max_size=2))))
    try:
        check_facts(f)
    except ScoringError:
        assume(False)
    return f


@given(deals())
def test_right_scores_have_no_cause_and_every_cause_is_found_again(f):
    official = score(f)
    assert explain(f, official.scores) == ()
    deal = Deal(f, official, shares_of(f), official.scores)
    for cause in CAUSES:
        if cause.name == "misere_value":
            continue  # needs the written scores to find its value: BY_HAND covers it
        rescored = cause.rescore(deal)
        if rescored is None or rescored == official.scores:
            continue
        assert cause.name in [m.name for m in explain(f, rescored)]
        # a mistake a scorer makes still balances the deal (R-SCORE-3), except paying the taker once
        assert (sum(rescored) == 0) == (cause.name != "taker_paid_once")


@given(deals(), st.integers(1, 50))
def test_a_misere_worth_another_value_is_found_with_that_value(f, value):
    assume(f.miseres and value != f.rules.misere_value)
    written = score(replace(f, rules=f.rules.with_options(misere_value=value))).scores
    assume(written != score(f).scores)
    assert any(m.name == "misere_value" and f"misere_value={value} " in m.text for m in explain(f, written))


# --- the sheet ------------------------------------------------------------------------------

def sheet(tmp_path, text, name="s.csv"):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def audit_of(p, names=NAMES, rules=R4, until=None):
    return audit_sheet(read_sheet(p, rules, names), rules, names, until, name=str(p))


SCORES = """taker,contract,oudlers,points,petit_au_bout,Emma,Nico,Pat,Lea
Emma,garde,2,45,,174,-58,-58,-58
Nico,garde,1,48,defence,76,-228,76,76
Pat,pass,,,,0,0,0,0
Lea,prise,1,51,,-25,-25,-25,75
"""

TOTALS = """taker;contract;oudlers;points;petit_au_bout;Emma total;Nico total;Pat total;Lea total
Emma;garde;2;45;;174;-58;-58;-58
Nico;garde;1;48;defence;250;-286;18;18
Pat;pass;;;;250;-286;18;18
Lea;prise;1;51;;225;-311;-7;93
"""


def test_a_correct_sheet_reports_nothing(tmp_path, cli):
    a = audit_of(sheet(tmp_path, SCORES))
    assert len(a.checks) == 4 and a.wrong == []
    code, out, err = cli("sheet", str(tmp_path / "s.csv"), "--players", ",".join(NAMES), "--check")
    assert code == 0 and err == "" and out == "4 deal(s) checked: every one scored as the rules say\n"
    assert audit_of(sheet(tmp_path, TOTALS)).wrong == []


def test_a_wrong_running_total_is_localised_to_its_deal(tmp_path):
    # row 3 written with a flat petit au bout (+66 instead of +76): every later total is off by
    # 10, yet only row 3 is wrong, and its cause found from the totals' difference
    text = TOTALS.replace("250;-286;18;18", "240;-256;8;8").replace("225;-311;-7;93", "215;-281;-17;83")
    (wrong,) = audit_of(sheet(tmp_path, text)).wrong
    assert wrong.row == 3 and wrong.written == (66, -198, 66, 66) and wrong.expected == (76, -228, 76, 76)
    assert [m.name for m in wrong.causes] == ["pab_multiplied=false"]


def test_running_totals_that_do_not_add_up_the_scores_beside_them_are_noted(tmp_path):
    text = ("taker,contract,oudlers,points,Emma,Nico,Pat,Lea,Emma total,Nico total,Pat total,Lea total\n"
            "Emma,garde,2,45,174,-58,-58,-58,174,-58,-58,-58\n"
            "Nico,prise,1,51,-25,75,-25,-25,149,17,-83,-83\n")  # Nico's total: -58 + 75 = 17, right
    assert audit_of(sheet(tmp_path, text)).wrong == []
    (wrong,) = audit_of(sheet(tmp_path, text.replace("149,17", "149,27"))).wrong
    assert wrong.row == 3 and wrong.written == wrong.expected and "do not add up" in wrong.notes[0]


def test_written_scores_that_do_not_sum_to_zero_are_reported_R_SCORE_3(tmp_path, cli):
    p = sheet(tmp_path, SCORES.replace("174,-58", "58,-58"))
    (wrong,) = audit_of(p).wrong
    assert wrong.written_sum == -116 and wrong.notes == ("the written scores sum to -116, not 0 (R-SCORE-3)",)
    assert [m.name for m in wrong.causes] == ["taker_paid_once"]
    code, out, _ = cli("sheet", str(p), "--players", ",".join(NAMES), "--check")
    assert code == 1 and "note: the written scores sum to -116, not 0 (R-SCORE-3)" in out
    assert "cause: the taker paid once instead of by each defender (R-SCORE-2)" in out


def test_a_row_no_single_cause_explains_says_so(tmp_path, cli):
    p = sheet(tmp_path, SCORES.replace("-25,-25,-25,75", "-20,-20,-20,60"))
    code, out, _ = cli("sheet", str(p), "--players", ",".join(NAMES), "--check")
    assert code == 1 and "row 5: Lea prise made +0\n" in out
    assert "no single known cause explains it" in out and "differ from the rules (row(s) 5)" in out


def test_a_pass_with_scores_and_a_half_point_kept(tmp_path):
    text = SCORES.replace("0,0,0,0", "10,-10,0,0").replace("Emma,garde,2,45,,174,-58,-58,-58",
                                                           "Emma,garde,2,40.5,,-153,51,51,51")
    wrong = audit_of(sheet(tmp_path, text)).wrong
    assert [c.row for c in wrong] == [2, 4]
    assert wrong[0].written == (-153, 51, 51, 51) and [m.name for m in wrong[0].causes] == ["half_point_kept"]
    assert wrong[1].causes == () and wrong[1].expected == (0, 0, 0, 0)
    # halves are written with a decimal comma too, and kept as halves
    text = "taker;contract;oudlers;points;Emma;Nico;Pat\nEmma;prise;2;45,5;59;-29,5;-29,5\n"
    (wrong,) = audit_of(sheet(tmp_path, text), ["Emma", "Nico", "Pat"], Rules("3")).wrong
    assert wrong.written == (59, Fraction(-59, 2), Fraction(-59, 2)) and wrong.expected == (60, -30, -30)
    assert [m.name for m in wrong.causes] == ["half_point_kept"]


def test_rows_left_empty_and_rows_after_the_game_end_are_not_checked(tmp_path):
    a = audit_of(sheet(tmp_path, SCORES.replace("0,0,0,0", ",,,")))
    assert a.unchecked == (4,) and [c.row for c in a.checks] == [2, 3, 5]
    a = audit_of(sheet(tmp_path, SCORES), until=200)
    assert [c.row for c in a.checks] == [2, 3] and a.not_counted == 2
    assert "2 row(s) after the game's end not checked" in format_audit(a)


def test_json_gives_written_expected_and_causes_per_row(tmp_path, cli):
    p = sheet(tmp_path, SCORES.replace("76,-228,76,76", "66,-198,66,66"))
    code, out, _ = cli("sheet", str(p), "--players", ",".join(NAMES), "--check", "--json")
    d = json.loads(out)
    assert code == 1 and d["checked"] == 4 and d["wrong_rows"] == [3] and len(d["rows"]) == 4
    row = d["rows"][1]
    assert row["written"] == {"Emma": 66, "Nico": -198, "Pat": 66, "Lea": 66}
    assert row["expected"] == {"Emma": 76, "Nico": -228, "Pat": 76, "Lea": 76}
    assert row["causes"] == [{"name": "pab_multiplied=false", "kind": "variant", "rules": ["R-PAB-3"],
                              "text": "the petit au bout not multiplied: a flat 10, as option "
                                      "pab_multiplied=false does"}]
    # the same sheet checked under that variant (the table's own rule): nothing wrong
    code, out, _ = cli("sheet", str(p), "--players", ",".join(NAMES), "--check", "--json",
                       "--option", "pab_multiplied=false")
    d = json.loads(out)
    assert code == 0 and d["wrong"] == 0 and d["options"] == {"pab_multiplied": False}


# --- bad input: one line naming the row and column, exit 2 -------------------------------------------

@pytest.mark.parametrize("text,where", [
    (SCORES.replace("174,-58", "174,abc"), "s.csv: row 2, column nico: a written score is a whole number"),
    (SCORES.replace("174,-58", "174,1e3"), "s.csv: row 2, column nico:"),
    (SCORES.replace("174,-58", "174,-58.25"), "s.csv: row 2, column nico:"),
    (SCORES.replace(",", ";").replace("174;-58", "174;1,000"), "s.csv: row 2, column nico:"),
    (SCORES.replace("174,-58", "174,"), "s.csv: row 2, column nico: empty while other players' are written"),
    (SCORES.replace(",Lea\n", ",Lea,Zoe\n"), "unknown column(s) 'zoe'"),
    (SCORES.replace(",Lea\n", ",\n"), "the header has written scores for some players but no column 'Lea'"),
    (TOTALS.replace("250;-286;18;18", ";;;"), "s.csv: row 3, columns Emma total, Nico total, Pat total, Lea total: "
                                            "no running totals written"),
    ("taker,contract,oudlers,points\nEmma,garde,2,45\n", "s.csv: nothing to check: no written scores"),
])
def test_bad_written_scores_are_one_line_naming_row_and_column(tmp_path, cli, text, where):
    p = sheet(tmp_path, text)
    with pytest.raises(SheetError) as exc:
        audit_sheet(read_sheet(p, R4, NAMES, name="s.csv"), R4, NAMES, name="s.csv")
    assert where in str(exc.value)
    code, out, err = cli("sheet", str(p), "--players", ",".join(NAMES), "--check")
    assert code == 2 and out == "" and err.startswith("tarotsim: error: ") and err.count("\n") == 1


# --- the README's example -----------------------------------------------------------------------

def test_the_readme_example_is_what_the_command_prints(cli, monkeypatch):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```(?:text|console)\n\$ (tarotsim sheet examples/written\.csv [^\n]*--check)\n(.*?)```", readme, re.S)
    assert block, "the README shows `tarotsim sheet examples/written.csv ... --check` and its report"
    sheet_text = (ROOT / "examples" / "written.csv").read_text(encoding="utf-8")
    assert sheet_text in readme  # the sheet shown is the example file
    monkeypatch.chdir(ROOT)
    code, out, _ = cli(*block.group(1).split()[1:])
    assert code == 1 and out == block.group(2)
    assert out.count("  cause: ") == 2


def test_written_columns_are_found_whatever_the_case_and_plain_scoring_ignores_them(tmp_path, cli):
    text = TOTALS.replace("Emma total;Nico total", "EMMA TOTAL;nico Total")
    assert audit_of(sheet(tmp_path, text)).wrong == []
    rows = read_sheet(ROOT / "examples" / "written.csv", R4, NAMES)
    assert rows[1].written == (66, -198, 66, 66) and rows[1].written_totals is None
    code, out, _ = cli("sheet", str(ROOT / "examples" / "written.csv"), "--players", ",".join(NAMES))
    assert code == 0 and "winner: Lea with +318" in out  # scored from the facts, as without --check


def test_a_slip_in_one_running_total_is_noted_with_its_player(tmp_path):
    # Lea's total after row 5 written 83 instead of 93: only her difference is off, by -10
    (wrong,) = audit_of(sheet(tmp_path, TOTALS.replace("225;-311;-7;93", "225;-311;-7;83"))).wrong
    assert wrong.row == 5 and wrong.causes == ()
    assert wrong.notes == ("the written scores sum to -10, not 0 (R-SCORE-3)",
                           "only Lea's running total differs, by -10: a slip of the pen or of addition")


def test_the_players_are_named_by_their_own_columns_without_players(tmp_path, cli):
    """A sheet with the players' columns needs no --players: the header names them in order (and
    a running-total column names its player once)."""
    from tarotsim.sheet import players_in_header

    assert players_in_header(ROOT / "examples" / "written.csv") == NAMES
    assert players_in_header(TOTALS.encode()) == NAMES
    assert players_in_header(b"taker,contract,oudlers,points\n") is None
    code, out, _ = cli("sheet", str(ROOT / "examples" / "written.csv"), "--check")
    assert code == 1 and out.splitlines()[0].split() == NAMES
    # the facts alone name no player: --players is still asked for
    code, _, err = cli("sheet", str(ROOT / "examples" / "evening.csv"))
    assert code == 2 and "name the players with --players" in err
