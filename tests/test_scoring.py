"""Scoring (RULES §8-§14): worked examples, one test per rule id, options against defaults, properties."""

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from tarotsim.rules import CONTRACTS, TARGETS, Rules
from tarotsim.scoring import (CHELEM_OUTCOMES, ST_LEN, DealFacts, ScoringError, attack_points_range,
                              format_breakdown, parse_points, score, score_core)


def facts(table="4", contract="prise", points=51, oudlers=1, **kw):
    rules = kw.pop("rules", None) or Rules(table)
    return DealFacts(rules=rules, contract=contract, attack_half_points=int(points * 2), oudlers=oudlers, **kw)


def possible(rules, contract, hp, k, pab, chelem=None):
    """Drawn facts moved onto facts a deal can have (contradictions are refused, as
    test_facts_contradictions.py checks): an oudler count the contract and chelem allow, points
    within their bounds, no petit au bout for a side that cannot hold it (R-PAB-1)."""
    ks = [j for j in range(4) if attack_points_range(rules, contract, chelem, j)]
    k = k if k in ks else ks[k % len(ks)]
    lo, hi = attack_points_range(rules, contract, chelem, k)
    hp = hp if lo <= hp <= hi else lo + hp % (hi - lo + 1)
    slam_side = CHELEM_OUTCOMES[chelem][1]
    if (pab == "attack" and (k == 0 or slam_side == -1)) or (pab == "defence" and (k == 3 or slam_side == 1)):
        pab = None
    return hp, k, pab


def showable(rules, poignees, attackers):
    """The poignées of a list that a table can show together: one per player, 22 cards in all (R-POIG-2, R-POIG-3)."""
    players = {"attack": attackers, "defence": rules.n_active - attackers}
    kept = []
    for lv, side in poignees:
        trial = kept + [(lv, side)]
        shown = sum(rules.poignee_sizes[("simple", "double", "triple").index(x)] for x, _ in trial)
        if shown <= 22 and sum(1 for _, sd in trial if sd == side) <= players[side]:
            kept = trial
    return tuple(kept)


# --- RULES §15: the worked examples, exactly -------------------------------------------------

def test_EX_1_four_players_made_exactly():
    b = score(facts("4", "prise", 51, 1))
    assert (b.target, b.made, b.difference, b.value) == (51, True, 0, 25)
    assert b.scores == (75, -25, -25, -25)


def test_EX_2_failed_garde_sans_pab_and_poignee_against_taker():
    b = score(facts("4", "garde_sans", 37, 2, petit_au_bout="defence", poignees=(("simple", "attack"),)))
    assert (b.target, b.made, b.difference) == (41, False, -4)
    assert (b.contract_term, b.petit_au_bout_term, b.poignee_term, b.value) == (-116, -40, -20, -176)
    assert b.scores == (-528, 176, 176, 176)


def test_EX_3_three_players_half_point_defender_poignee_paid_to_taker():
    b = score(facts("3", "garde", 45.5, 2, poignees=(("double", "defence"),)))
    assert (b.difference, b.value, b.scores) == (5, 90, (180, -90, -90))


def test_EX_4_unannounced_slam_excuse_kept_by_defence():
    b = score(facts("4", "garde", 87, 2, petit_au_bout="attack", chelem="made"))
    assert (b.difference, b.petit_au_bout_term, b.chelem_term, b.value) == (46, 20, 200, 362)
    assert b.scores == (1086, -362, -362, -362)


def test_EX_5_five_players_partner_half_point_partner_poignee_pab_kept():
    b = score(facts("5", "prise", 48.5, 1, taker=0, partner=1, petit_au_bout="attack",
                    poignees=(("simple", "attack"),)))
    assert (b.difference, b.value) == (-3, -38)
    assert b.scores == (-76, -38, 38, 38, 38)


def test_EX_6_five_players_alone_with_misere():
    b = score(facts("5", "garde_sans", 61, 1, rules=Rules("5", misere=True), taker=0,
                    petit_au_bout="defence", miseres=((1, "tete"),)))
    assert (b.difference, b.value) == (10, 100)
    assert b.scores == (390, -60, -110, -110, -110)


def test_worked_examples_in_shared_records_score_as_recorded():
    """The result and scores of the six shared records follow from their facts by this scorer."""
    path = Path(__file__).parent / "data" / "examples.jsonl"  # a copy of shared/records/examples.jsonl
    chelem_of = {None: None, "announced_made": "announced_made", "made": "made",
                 "announced_failed": "announced_failed", "defence": "defence"}
    for line in path.read_text().splitlines():
        rec = json.loads(line)
        rules = Rules.from_options(rec["table"], rec["options"])
        res = rec["result"]
        attack = {rec["taker"]} | ({rec["partner"]} if rec.get("partner") is not None else set())
        poig = tuple((d["level"], "attack" if d["seat"] in attack else "defence")
                     for d in rec["declarations"] if d["kind"] == "poignee")
        announced = any(d["kind"] == "chelem" for d in rec["declarations"])
        chelem = res["chelem"]
        if chelem == "defence" and announced:
            chelem = "announced_defence"
        b = score(DealFacts(rules=rules, contract=rec["contract"], attack_half_points=res["attack_half_points"],
                            oudlers=res["oudlers"], taker=rec["taker"], partner=rec.get("partner"),
                            dummy=rec["dealer"] if rec["table"] == "5d" else None,
                            petit_au_bout=res["petit_au_bout"], poignees=poig, chelem=chelem_of.get(chelem, chelem)))
        assert b.value == res["value"] and b.made == res["made"] and b.difference == res["difference"]
        assert list(b.scores) == rec["scores"]


# --- §8 counting ------------------------------------------------------------------------------

def test_R_COUNT_1_defence_points_give_attack_points():
    assert score(facts(points=91 - 40, oudlers=1)).value == score(facts(points=51, oudlers=1)).value


def test_R_COUNT_2_oudlers_choose_the_target():
    assert score(facts(points=50, oudlers=1)).made is False
    assert score(facts(points=50, oudlers=2)).made is True


@pytest.mark.parametrize("k,target", [(0, 56), (1, 51), (2, 41), (3, 36)])
def test_R_COUNT_3_targets(k, target):
    assert score(facts(points=60, oudlers=k)).target == target == TARGETS[k]


def test_R_COUNT_4_half_point_goes_to_the_winner_and_exactly_is_made():
    assert score(facts(points=41.5, oudlers=2)).difference == 1
    assert score(facts(points=40.5, oudlers=2)).difference == -1
    b = score(facts(points=41, oudlers=2))
    assert b.made and b.difference == 0 and b.value == 25


def test_R_COUNT_5_half_point_at_four_warns_but_scores():
    b = score(facts("4", points=41.5, oudlers=2))
    assert b.warnings and "R-COUNT-5" in b.warnings[0] and b.difference == 1
    assert not score(facts("3", points=41.5, oudlers=2)).warnings
    assert not score(facts("5", points=41.5, oudlers=2, partner=1)).warnings
    assert score(facts("5d", points=41.5, oudlers=2, taker=0, dummy=4)).warnings


def test_impossible_points_for_the_oudlers_are_refused():
    with pytest.raises(ScoringError):
        score(facts(points=10, oudlers=3))  # three oudlers are 13.5 points
    with pytest.raises(ScoringError):
        score(facts(points=90, oudlers=0))  # the defence cannot hold 3 oudlers in 1 point
    with pytest.raises(ScoringError):
        score(facts(points=13, oudlers=3))  # the Excuse counts 4 only for a side that won no trick (R-EXC-2)
    # the least a pile with 3 oudlers can hold: one trick at 3, Petit, 21 and an exchanged Excuse
    score(facts("3", "garde_contre", 13.5, 3))


@pytest.mark.parametrize("text,hp", [("0", 0), ("41.5", 83), ("91", 182), ("45.0", 90)])
def test_parse_points(text, hp):
    assert parse_points(text) == hp


@pytest.mark.parametrize("text", ["-1", "91.5", "41.3", "abc", ""])
def test_parse_points_rejects(text):
    with pytest.raises(ScoringError):
        parse_points(text)


# --- §9 petit au bout ------------------------------------------------------------------------

def test_R_PAB_1_pab_counts_whether_or_not_made():
    made = score(facts(contract="garde", points=60, oudlers=1, petit_au_bout="attack"))
    failed = score(facts(contract="garde", points=40, oudlers=1, petit_au_bout="attack"))
    assert made.petit_au_bout_term == failed.petit_au_bout_term == 20


def test_R_PAB_3_sign_and_option_pab_multiplied():
    assert score(facts(contract="garde_contre", points=60, oudlers=1, petit_au_bout="defence")).petit_au_bout_term == -60
    flat = Rules(pab_multiplied=False)
    assert score(facts(rules=flat, contract="garde_contre", points=60, oudlers=1,
                       petit_au_bout="defence")).petit_au_bout_term == -10
    assert score(facts(points=60, oudlers=1)).petit_au_bout_term == 0


# --- §10 poignée -------------------------------------------------------------------------------

@pytest.mark.parametrize("level,bonus", [("simple", 20), ("double", 30), ("triple", 40)])
def test_R_POIG_1_bonuses_never_multiplied(level, bonus):
    for contract in CONTRACTS:
        b = score(facts(contract=contract, points=60, oudlers=1, poignees=((level, "defence"),)))
        assert b.poignee_term == bonus


def test_R_POIG_4_all_poignees_go_to_the_winner():
    b = score(facts("5", points=40, oudlers=1, poignees=(("simple", "attack"), ("double", "defence"))))
    assert b.poignee_term == -50
    b = score(facts("5", points=60, oudlers=1, poignees=(("simple", "attack"), ("double", "defence"))))
    assert b.poignee_term == 50


def test_option_poignee_to_declarer_side():
    r = Rules(poignee_to="declarer_side")
    b = score(facts(rules=r.with_options(table="5"), points=40, oudlers=1,
                    poignees=(("simple", "attack"), ("double", "defence"))))
    assert b.poignee_term == 20 - 30


def test_poignee_refused_at_table_2():
    with pytest.raises(ScoringError):
        score(facts("2", points=60, oudlers=1, poignees=(("simple", "attack"),)))


# --- §11 chelem --------------------------------------------------------------------------------

@pytest.mark.parametrize("chelem,term", [("announced_made", 400), ("made", 200), ("announced_failed", -200),
                                         ("defence", -200), ("announced_defence", -400), (None, 0)])
def test_R_SLAM_3_terms(chelem, term):
    pts = 91 if chelem in ("announced_made", "made") else (3 if chelem and "defence" in chelem else 60)
    k = 3 if pts == 91 else (0 if pts == 3 else 1)
    b = score(facts(contract="garde", points=pts, oudlers=k, chelem=chelem))
    assert b.chelem_term == term


def test_option_defence_slam_bonus_zero():
    r = Rules(defence_slam_bonus=0)
    assert score(facts(rules=r, points=3, oudlers=0, chelem="defence")).chelem_term == 0
    assert score(facts(rules=r, points=3, oudlers=0, chelem="announced_defence")).chelem_term == -200


def test_R_SLAM_3_chelem_not_multiplied():
    terms = {score(facts(contract=c, points=88 if c == "garde_contre" else 91, oudlers=3,
                         chelem="made")).chelem_term for c in CONTRACTS}
    assert terms == {200}


# --- §12 misère ----------------------------------------------------------------------------------

def test_R_MIS_1_needs_the_option():
    with pytest.raises(ScoringError):
        score(facts(points=60, oudlers=1, miseres=((1, "atout"),)))


def test_R_MIS_2_declarer_paid_by_every_other_active_player():
    r = Rules("4", misere=True)
    b = score(facts(rules=r, points=51, oudlers=1, miseres=((2, "atout"),)))
    assert b.misere_terms == (-10, -10, 30, -10) and sum(b.scores) == 0
    assert b.scores == (75 - 10, -35, -25 + 30, -35)


def test_R_MIS_2_dummy_pays_nothing_and_option_value():
    r = Rules("5d", misere=True, misere_value=20)
    b = score(facts(rules=r, points=51, oudlers=1, taker=0, dummy=2, miseres=((1, "tete"), (1, "atout"))))
    assert b.misere_terms == (-40, 120, 0, -40, -40)
    assert b.scores[2] == 0


# --- §13 scoring -------------------------------------------------------------------------------

def test_R_SCORE_1_value_formula():
    b = score(facts(contract="garde_contre", points=25, oudlers=1, petit_au_bout="attack",
                    poignees=(("triple", "attack"),), chelem="announced_failed"))
    d = 26
    assert b.value == -(25 + d) * 6 + 10 * 6 - 40 - 200


@pytest.mark.parametrize("table,kw,expect", [
    ("3", {}, (50, -25, -25)),
    ("4", {}, (75, -25, -25, -25)),
    ("5", {"partner": 3}, (50, -25, -25, 25, -25)),
    ("5", {}, (100, -25, -25, -25, -25)),
    ("5d", {"dummy": 1}, (75, 0, -25, -25, -25)),
    ("2", {}, (25, -25)),
])
def test_R_SCORE_2_distribution_by_table(table, kw, expect):
    assert score(facts(table, points=51, oudlers=1, **kw)).scores == expect


@given(st.sampled_from(["3", "4", "5", "5d"]), st.sampled_from(CONTRACTS), st.integers(0, 182),
       st.integers(0, 3), st.sampled_from([None, "attack", "defence"]),
       st.sampled_from(list(CHELEM_OUTCOMES)), st.lists(st.tuples(st.sampled_from(["simple", "double"]),
                                                                  st.sampled_from(["attack", "defence"])),
                                                        max_size=2),
       st.booleans(), st.integers(0, 4))
def test_R_SCORE_3_and_R_GEN_5_zero_sum(table, contract, hp, k, pab, chelem, poig, with_partner, taker):
    rules = Rules(table, misere=True)
    hp, k, pab = possible(rules, contract, hp, k, pab, chelem)
    taker = taker % rules.n_seats
    partner = (taker + 2) % 5 if table == "5" and with_partner else None
    poig = showable(rules, poig, 1 if partner is None else 2)
    dummy = (taker + 1) % 5 if table == "5d" else None
    mis = ((partner if partner is not None else (taker + 3) % rules.n_seats, "tete"),) if table != "5d" else ()
    b = score(DealFacts(rules=rules, contract=contract, attack_half_points=hp, oudlers=k, taker=taker,
                        partner=partner, dummy=dummy, petit_au_bout=pab, poignees=tuple(poig), chelem=chelem,
                        miseres=mis))
    assert sum(b.scores) == 0
    # the breakdown's steps add up to V (R-SCORE-1)
    assert b.contract_term + b.petit_au_bout_term + b.poignee_term + b.chelem_term == b.value
    assert b.contract_term == (1 if b.made else -1) * b.base * b.multiplier
    if dummy is not None:
        assert b.scores[dummy] == 0


@given(st.sampled_from(["3", "4", "5"]), st.sampled_from(CONTRACTS), st.integers(0, 3),
       st.sampled_from([None, "attack", "defence"]))
def test_value_non_decreasing_in_attack_points(table, contract, k, pab):
    assume(not (pab == "attack" and k == 0) and not (pab == "defence" and k == 3))  # R-PAB-1
    lo, hi = attack_points_range(Rules(table), contract, None, k)
    values = [score(facts(table, contract, hp / 2, k, petit_au_bout=pab,
                          partner=1 if table == "5" else None)).value for hp in range(lo, hi + 1)]
    assert values == sorted(values)


@given(st.sampled_from(CONTRACTS), st.integers(0, 3), st.integers(1, 40),
       st.sampled_from([None, "attack", "defence"]), st.sampled_from(["simple", "double"]))
def test_flipping_made_failed_flips_the_base_term_only(contract, k, d, pab, level):
    up, down = 2 * TARGETS[k] + 2 * d, 2 * TARGETS[k] - 2 * d  # made by d / failed by d
    lo, hi = attack_points_range(Rules(), contract, None, k)
    assume(lo <= down and up <= hi)
    assume(not (pab == "attack" and k == 0) and not (pab == "defence" and k == 3))  # R-PAB-1
    kw = dict(contract=contract, oudlers=k, petit_au_bout=pab, poignees=((level, "attack"),))
    made, failed = score(facts(points=up / 2, **kw)), score(facts(points=down / 2, **kw))
    assert (made.difference, failed.difference) == (d, -d)
    assert made.contract_term == -failed.contract_term
    assert made.petit_au_bout_term == failed.petit_au_bout_term
    assert made.chelem_term == failed.chelem_term
    # the poignée follows the result (R-POIG-4), the petit au bout keeps its own sign (R-PAB-3)
    assert made.poignee_term == -failed.poignee_term


@given(st.sampled_from(list(CHELEM_OUTCOMES)), st.sampled_from(["simple", "double", "triple"]),
       st.sampled_from(["attack", "defence"]), st.booleans())
def test_poignee_and_chelem_terms_do_not_change_with_contract(chelem, level, side, made):
    terms = set()
    for c in CONTRACTS:  # a slam fixes the points, and so made or failed, whatever the contract
        hp, k, _ = possible(Rules(), c, 120 if made else 60, 1, None, chelem)
        terms.add((score(facts(contract=c, points=hp / 2, oudlers=k, chelem=chelem,
                               poignees=((level, side),))).poignee_term,
                   score(facts(contract=c, points=hp / 2, oudlers=k, chelem=chelem)).chelem_term))
    assert len(terms) == 1


def test_R_SCORE_4_integers_only():
    b = score(facts("3", "garde", 45.5, 2))
    assert all(isinstance(x, int) for x in (b.value, b.difference, *b.scores))


def test_R_SCORE_5_inputs_checked():
    with pytest.raises(ScoringError):
        score(facts("4", partner=1))  # partner outside table 5
    with pytest.raises(ScoringError):
        score(facts("5d"))  # 5d needs the dummy
    with pytest.raises(ScoringError):
        score(facts("4", chelem="sometimes"))
    with pytest.raises(ScoringError):
        score(facts("4", contract="garde_avec"))


def test_score_core_is_numba_compilable_and_agrees():
    """The simulator compiles the same function; it must give the same numbers."""
    import numba
    core = numba.njit(score_core)
    rules = Rules("5", misere=True)
    vec = rules.to_vector()
    steps_py, steps_nb = np.zeros(ST_LEN, np.int64), np.zeros(ST_LEN, np.int64)
    sc_py, sc_nb = np.zeros(5, np.int64), np.zeros(5, np.int64)
    mis = np.array([0, 1, 0, 0, 0], np.int64)
    args = (vec, 2, 97, 1, -1, 20, 30, 1, 0, 0, 3, -1, mis)
    score_core(*args, steps_py, sc_py)
    core(*args, steps_nb, sc_nb)
    assert steps_py.tolist() == steps_nb.tolist() and sc_py.tolist() == sc_nb.tolist()
    assert sc_py.sum() == 0


def test_format_breakdown_mentions_every_step():
    b = score(facts("5", "garde", 48.5, 1, partner=2, petit_au_bout="attack", poignees=(("simple", "defence"),),
                    chelem="announced_failed"))
    text = format_breakdown(b, ["A", "B", "C", "D", "E"])
    for word in ("target", "failed by 3", "petit au bout", "poignée", "chelem", "value V", "partner"):
        assert word in text
