"""Facts no deal can have together are refused by the library, naming the rules that rule them
out; facts of deals that were played are never refused.

The bounds are checked three ways: by hand against RULES (the tables below), at their edges by
deals of the reference engine built to reach them, and by a property over engine deals.
"""

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tarotsim.runs import simulate
from tarotsim.cards import parse_cards
from tarotsim.reference.positions import make_deal, play_out
from tarotsim.rules import CONTRACTS, POIGNEE_BONUS, POIGNEE_LEVELS, Rules
from tarotsim.scoring import DealFacts, ScoringError, attack_points_range, check_facts, score

FULL_RULE_ID = re.compile(r"\bR-(?:[A-Z]+-\d+[a-z]?|VAR-TWO)\b")


def facts(table="4", contract="prise", points=51, oudlers=1, **kw):
    rules = kw.pop("rules", None) or Rules(table, misere=True)
    return DealFacts(rules=rules, contract=contract, attack_half_points=round(points * 2), oudlers=oudlers, **kw)


def refused(f, *rule_ids, fields=()):
    """The facts are refused with one line citing ``rule_ids`` in full and naming ``fields``."""
    with pytest.raises(ScoringError) as exc:
        score(f)
    msg = str(exc.value)
    assert "\n" not in msg and FULL_RULE_ID.search(msg), msg
    assert not re.search(r"R-[A-Z]+-\d+[a-z]?/", msg), msg  # ids in full, never compressed with a slash
    for rule_id in rule_ids:
        assert rule_id in msg, (rule_id, msg)
    assert set(fields) <= set(exc.value.fields), (fields, exc.value.fields)
    return msg


def accepted(f):
    b = score(f)
    assert sum(b.scores) == 0
    return b


# --- the attack won every trick (R-SLAM-2) ------------------------------------------------------

def test_R_SLAM_2_R_EXC_2_chelem_made_leaves_the_defence_at_most_its_excuse():
    msg = refused(facts(contract="garde", points=40, oudlers=2, chelem="made"), "R-SLAM-2", "R-EXC-2",
                  fields=("chelem", "attack_half_points"))
    assert "exactly 87" in msg
    b = accepted(facts(contract="garde", points=87, oudlers=2, chelem="made", petit_au_bout="attack"))  # EX-4
    assert b.scores == (1086, -362, -362, -362)
    for contract in ("prise", "garde", "garde_sans"):
        for chelem in ("made", "announced_made"):
            accepted(facts(contract=contract, points=91, oudlers=3, chelem=chelem))
            accepted(facts(contract=contract, points=87, oudlers=2, chelem=chelem))
            for points, k in ((91, 2), (87, 3), (90.5, 3), (87.5, 2), (86.5, 2), (88, 3)):
                refused(facts(contract=contract, points=points, oudlers=k, chelem=chelem), "R-SLAM-2")


@pytest.mark.parametrize("contract", ["prise", "garde", "garde_sans"])
@pytest.mark.parametrize("k", [0, 1])
def test_R_SLAM_2_chelem_made_leaves_the_attack_two_oudlers_at_least(contract, k):
    msg = refused(facts(contract=contract, points=87, oudlers=k, chelem="made"), "R-SLAM-2", "R-EXC-2",
                  fields=("chelem", "oudlers"))
    assert "only 2 or 3" in msg


def test_R_CHIEN_4_a_slam_at_garde_contre_leaves_the_chien_to_the_defence():
    msg = refused(facts(contract="garde_contre", points=91, oudlers=3, chelem="made"), "R-CHIEN-4", "R-SLAM-2")
    assert "from 66 to 88" in msg  # six chien cards: 3 points at least, 3 kings and 3 queens at most
    accepted(facts(contract="garde_contre", points=88, oudlers=3, chelem="announced_made"))
    # the chien may hold the Petit, the 21 and four kings, and a defender keep the Excuse: k = 0
    accepted(facts(contract="garde_contre", points=60, oudlers=0, chelem="made"))
    refused(facts(contract="garde_contre", points=59, oudlers=0, chelem="made"), "R-CHIEN-4")
    # table 5: a chien of three cards
    accepted(facts("5", "garde_contre", 89.5, 3, chelem="made", partner=1))
    refused(facts("5", "garde_contre", 90, 3, chelem="made", partner=1), "R-CHIEN-4")


# --- the defence won every trick -------------------------------------------------------------------

def test_R_SLAM_2_R_CHIEN_2_chelem_defence_leaves_the_attack_its_ecart_and_excuse():
    msg = refused(facts(contract="prise", points=60, oudlers=1, chelem="defence"), "R-SLAM-2", "R-CHIEN-2",
                  "R-EXC-2", fields=("chelem", "attack_half_points"))
    assert "from 7 to 23" in msg
    # the écart: six cards, never a king nor an oudler: 3 points to 4 queens and 2 knights (19)
    for contract in ("prise", "garde"):
        accepted(facts(contract=contract, points=3, oudlers=0, chelem="defence"))
        accepted(facts(contract=contract, points=19, oudlers=0, chelem="announced_defence"))
        accepted(facts(contract=contract, points=23, oudlers=1, chelem="defence"))  # with its Excuse at 4
        for points, k in ((0, 0), (2.5, 0), (19.5, 0), (6.5, 1), (23.5, 1)):
            refused(facts(contract=contract, points=points, oudlers=k, chelem="defence"), "R-CHIEN-2")
        refused(facts(contract=contract, points=12, oudlers=2, chelem="defence"), "R-CHIEN-2",
                fields=("chelem", "oudlers"))


def test_R_CHIEN_3_chelem_defence_at_garde_sans_gives_the_attack_the_chien():
    # the chien may hold the Petit and the 21, the attack its own Excuse: all three oudlers
    accepted(facts(contract="garde_sans", points=15, oudlers=3, chelem="defence"))
    accepted(facts(contract="garde_sans", points=31, oudlers=3, chelem="defence"))
    accepted(facts(contract="garde_sans", points=29, oudlers=1, chelem="defence"))
    refused(facts(contract="garde_sans", points=31.5, oudlers=3, chelem="defence"), "R-CHIEN-3")
    refused(facts(contract="garde_sans", points=2.5, oudlers=0, chelem="defence"), "R-CHIEN-3")


def test_R_CHIEN_4_chelem_defence_at_garde_contre_leaves_the_attack_only_its_excuse():
    accepted(facts(contract="garde_contre", points=0, oudlers=0, chelem="defence"))
    accepted(facts(contract="garde_contre", points=4, oudlers=1, chelem="announced_defence"))
    for points, k in ((0.5, 0), (4, 0), (3.5, 1), (4.5, 1)):
        refused(facts(contract="garde_contre", points=points, oudlers=k, chelem="defence"), "R-CHIEN-4")
    refused(facts(contract="garde_contre", points=9, oudlers=2, chelem="defence"), "R-CHIEN-4",
            fields=("chelem", "oudlers"))


def test_R_CHIEN_2_table_5_has_a_three_card_ecart():
    accepted(facts("5", "prise", 1.5, 0, chelem="defence", partner=2))
    accepted(facts("5", "prise", 14.5, 1, chelem="defence"))  # three queens and the Excuse
    refused(facts("5", "prise", 15, 1, chelem="defence"), "R-CHIEN-2")
    refused(facts("5", "prise", 1, 0, chelem="defence"), "R-CHIEN-2")


# --- no chelem: each side won a trick ------------------------------------------------------------

def test_R_SLAM_2_without_a_chelem_each_side_won_a_trick():
    msg = refused(facts(points=91, oudlers=3), "R-SLAM-2", "R-COUNT-1", "R-CARD-4",
                  fields=("attack_half_points", "oudlers"))
    assert "from 17 to 89" in msg and "that is the chelem made" in msg
    assert "chelem announced_made" in refused(facts(points=91, oudlers=3, chelem="announced_failed"))
    refused(facts(points=87, oudlers=2), "R-SLAM-2")  # the defence's Excuse kept at 4: it won no trick
    assert "chelem defence" in refused(facts(points=3, oudlers=0), "R-SLAM-2")
    assert "chelem defence" in refused(facts(contract="garde_contre", points=0, oudlers=0), "R-SLAM-2")
    # the edges: a trick and the écart of low cards; a trick of 4 with the defence's three oudlers
    accepted(facts(points=5, oudlers=0))
    accepted(facts(points=77, oudlers=0))
    refused(facts(points=77.5, oudlers=0), "R-CARD-4")
    accepted(facts(points=89, oudlers=3))
    # the least pile holding the three oudlers: one trick at 3, the Excuse paid back with a low card
    accepted(facts("3", "garde_contre", 13.5, 3))
    refused(facts("3", "garde_contre", 13, 3), "R-CARD-4")


# --- petit au bout (R-PAB-1) -------------------------------------------------------------------------

def test_R_PAB_1_R_CARD_3_petit_au_bout_of_the_attack_puts_an_oudler_in_its_pile():
    refused(facts(points=50, oudlers=0, petit_au_bout="attack"), "R-PAB-1", "R-CARD-3",
            fields=("petit_au_bout", "oudlers"))
    accepted(facts(points=50, oudlers=1, petit_au_bout="attack"))


def test_R_PAB_1_R_CARD_3_petit_au_bout_of_the_defence_leaves_the_attack_two_oudlers_at_most():
    refused(facts(points=60, oudlers=3, petit_au_bout="defence"), "R-PAB-1", "R-CARD-3",
            fields=("petit_au_bout", "oudlers"))
    accepted(facts(points=60, oudlers=2, petit_au_bout="defence"))


def test_R_PAB_1_R_SLAM_2_no_petit_au_bout_for_a_side_that_won_no_trick():
    refused(facts(contract="garde", points=91, oudlers=3, chelem="made", petit_au_bout="defence"), "R-PAB-1",
            "R-SLAM-2", fields=("petit_au_bout", "chelem"))
    refused(facts(contract="garde_sans", points=20, oudlers=1, chelem="defence", petit_au_bout="attack"),
            "R-PAB-1", "R-SLAM-2", fields=("petit_au_bout", "chelem"))
    accepted(facts(contract="garde_sans", points=15, oudlers=2, chelem="defence", petit_au_bout="defence"))


# --- poignées (R-POIG-2, R-POIG-3) ------------------------------------------------------------------

def test_R_POIG_2_one_poignee_per_player_of_the_side():
    two = (("simple", "attack"), ("simple", "attack"))
    refused(facts(poignees=two), "R-POIG-2", fields=("poignees",))
    refused(facts("5d", dummy=3, poignees=two), "R-POIG-2")
    accepted(facts("5", partner=2, poignees=two))  # taker and partner
    assert "taker alone" in refused(facts("5", poignees=two), "R-POIG-2", fields=("poignees", "partner"))
    accepted(facts(poignees=(("simple", "defence"), ("simple", "defence"))))


def test_R_POIG_3_no_more_trumps_shown_than_the_21_and_the_excuse():
    refused(facts(poignees=(("simple", "attack"), ("double", "defence"))), "R-POIG-3")  # 10 + 13
    accepted(facts(poignees=(("simple", "attack"), ("simple", "defence"))))  # 10 + 10
    refused(facts("3", poignees=(("simple", "attack"), ("simple", "defence"))), "R-POIG-3")  # 13 + 13
    accepted(facts("5", poignees=(("double", "attack"), ("double", "defence"))))  # 10 + 10
    refused(facts("5", partner=1, poignees=(("double", "attack"), ("triple", "defence"))), "R-POIG-3")


def test_R_VAR_TWO_no_poignee_and_no_misere_at_table_2():
    refused(facts("2", poignees=(("simple", "attack"),)), "R-VAR-TWO", fields=("poignees",))
    refused(facts("2", miseres=((1, "atout"),)), "R-VAR-TWO", fields=("miseres",))


def test_R_MIS_1_R_POIG_3_a_player_with_misere_d_atout_shows_no_poignee():
    refused(facts(miseres=((0, "atout"),), poignees=(("simple", "attack"),)), "R-MIS-1", "R-POIG-3",
            fields=("poignees", "miseres"))
    accepted(facts(miseres=((0, "tete"),), poignees=(("simple", "attack"),)))
    accepted(facts(miseres=((1, "atout"),), poignees=(("simple", "defence"),)))  # another defender
    refused(facts(miseres=((1, "atout"), (2, "atout")), poignees=(("simple", "defence"), ("simple", "defence"))),
            "R-MIS-1")
    accepted(facts("5", partner=1, miseres=((1, "atout"),), poignees=(("simple", "attack"),)))  # the taker's


# --- misères (R-MIS-1) -------------------------------------------------------------------------------

@pytest.mark.parametrize("table,kind,players,ok", [
    ("4", "atout", (0, 1, 2, 3), False), ("4", "atout", (0, 1, 2), True),   # 18 + 6 cards left for 21 trumps
    ("5", "atout", (0, 1, 2, 3), False), ("5", "atout", (0, 1, 2), True),   # 15 + 3 < 21
    ("5", "tete", (0, 1, 2, 3, 4), False), ("5", "tete", (0, 1, 2, 3), True),  # 15 + 3 >= 16 face cards
    ("3", "tete", (0, 1, 2), False), ("3", "tete", (0, 1), True),
    ("4", "both", (0, 1, 2), False), ("4", "both", (0, 1), True),         # 18 + 6 < 21 + 16
    ("3", "both", (0, 1), False), ("3", "both", (0,), True),              # 24 + 6 < 37
    ("5d", "atout", (0, 1, 3, 4), False), ("5d", "atout", (0, 1, 3), True),  # seat 2 is the dummy
])
def test_R_MIS_1_misères_leave_room_for_the_trumps_and_face_cards(table, kind, players, ok):
    kinds = ("atout", "tete") if kind == "both" else (kind,)
    f = facts(table, dummy=2 if table == "5d" else None, miseres=tuple((p, k) for p in players for k in kinds))
    if ok:
        accepted(f)
    else:
        refused(f, "R-MIS-1", "R-DEAL-1", fields=("miseres",))


# --- the bounds, worked by hand ---------------------------------------------------------------------

@pytest.mark.parametrize("table,contract,chelem,k,points", [
    ("4", "prise", "made", 3, (91, 91)),
    ("4", "prise", "made", 2, (87, 87)),          # a defender's Excuse kept at 4 (EX-4)
    ("4", "garde_sans", "made", 1, None),
    ("4", "garde_contre", "made", 0, (60, 76)),   # chien Petit, 21, 4 kings + Excuse kept; chien 3 oudlers, 3 low
    ("4", "garde_contre", "made", 3, (66, 88)),   # chien 3 kings, 3 queens; chien 6 low cards
    ("5", "garde_contre", "made", 3, (77.5, 89.5)),
    ("4", "prise", "defence", 0, (3, 19)),        # écart of 6 low cards; 4 queens, 2 knights
    ("4", "garde", "defence", 1, (7, 23)),        # the same with the attack's Excuse at 4
    ("3", "prise", "defence", 0, (3, 19)),        # the écart of table 3 is 6 cards too
    ("5", "prise", "defence", 1, (5.5, 14.5)),    # écart of 3: low cards; 3 queens
    ("4", "garde_sans", "defence", 3, (15, 31)),  # chien Petit, 21 + 4 low or 4 kings; Excuse kept
    ("4", "garde_contre", "defence", 1, (4, 4)),
    ("4", "garde_contre", "defence", 2, None),
    ("4", "prise", None, 0, (5, 77)),             # 10 cards at least vs a trick of 4 with 3 oudlers
    ("4", "garde_contre", None, 0, (2, 74)),      # a trick of 4 vs a trick and the chien with 3 oudlers
    ("3", "garde_contre", None, 3, (13.5, 86.5)),
    ("5", "prise", "announced_failed", 1, (8, 80.5)),
    ("2", "prise", None, 0, (4, 77.5)),           # R-VAR-TWO: tricks of 2 cards, chien of 6
])
def test_attack_points_range_worked_by_hand(table, contract, chelem, k, points):
    span = attack_points_range(Rules(table), contract, chelem, k)
    assert span == (None if points is None else tuple(round(p * 2) for p in points))


# --- the edges, reached by real deals of the reference engine --------------------------------------

def _reference_facts(rules, dealer, hands, chien, contract, discard=None, call=None, script=None):
    d = make_deal(rules, dealer, {s: parse_cards(h) for s, h in hands.items()}, parse_cards(chien),
                  forced=(0, contract))
    if call:
        d.call(0, parse_cards(call)[0])
    if discard:
        d.discard(0, parse_cards(discard))
    d.announce_chelem(0, False)
    play_out(d, script)
    return d.facts()


TRUMPS = {"T1-T18": " ".join(f"T{i}" for i in range(1, 19)), "T3-T20": " ".join(f"T{i}" for i in range(3, 21))}


def _at_edge(f, edge):
    span = attack_points_range(f.rules, f.contract, f.chelem, f.oudlers)
    assert f.attack_half_points == span[edge]
    accepted(f)
    beyond = f.attack_half_points + (1 if edge else -1)
    with pytest.raises(ScoringError):
        check_facts(DealFacts(**{**f.__dict__, "attack_half_points": beyond}))


def test_R_CHIEN_4_R_EXC_2_the_poorest_slam_at_garde_contre_is_a_real_deal():
    """Seat 0 wins every trick with 18 trumps; the chien holds the Petit, the 21 and four kings and
    a defender plays the Excuse at trick 1: the attack has 60 points and no oudler."""
    f = _reference_facts(Rules("4"), 3, {0: TRUMPS["T3-T20"], 1: "EX T2"}, "T1 T21 KS KH KD KC",
                         "garde_contre", script={(1, 1): "EX"})
    assert (f.chelem, f.attack_half_points, f.oudlers) == ("made", 120, 0)
    _at_edge(f, 0)


def test_R_CHIEN_3_R_EXC_2_the_richest_defence_slam_at_garde_sans_is_a_real_deal():
    hands = {0: "EX 1S 2S 3S 4S 5S 6S 7S 8S 9S 10S 1H 2H 3H 4H 5H 6H 7H", 1: TRUMPS["T1-T18"],
             2: "T19 T20 T21 JS NS 9C 10C JC NC QC 8H 9H 10H JH NH 1D 2D 3D"}
    f = _reference_facts(Rules("4"), 3, hands, "KS KH KD KC QS QH", "garde_sans", script={(1, 0): "EX"})
    assert (f.chelem, f.attack_half_points, f.oudlers) == ("defence", 58, 1)
    _at_edge(f, 1)


def test_R_CHIEN_2_the_richest_ecart_of_a_defence_slam_is_a_real_deal_at_tables_4_and_5():
    hands4 = {0: "EX QS QH QD QC NS NH 1S 2S 3S 4S 5S 6S 7S 8S 9S 10S 1H",
              1: TRUMPS["T1-T18"],
              2: "T19 T20 T21 JS KS 9C 10C JC NC KC 8H 9H 10H JH KH 1D 2D 3D"}
    f = _reference_facts(Rules("4"), 3, hands4, "2H 3H 4H 5H 6H 7H", "prise", discard="QS QH QD QC NS NH",
                         script={(1, 0): "EX"})
    assert (f.chelem, f.attack_half_points, f.oudlers) == ("defence", 46, 1)
    _at_edge(f, 1)
    hands5 = {0: "EX QS QH QD KS 1S 2S 3S 4S 5S 6S 7S 8S 9S 10S", 1: " ".join(f"T{i}" for i in range(1, 16)),
              2: "T16 T17 T18 T19 T20 T21 JS NS 1H 2H 3H 4H 5H 6H 7H"}
    f = _reference_facts(Rules("5"), 4, hands5, "8H 9H 10H", "prise", call="KS", discard="QS QH QD",
                         script={(1, 0): "EX"})
    assert (f.chelem, f.partner, f.attack_half_points, f.oudlers) == ("defence", None, 29, 1)
    _at_edge(f, 1)


# --- no false refusal: the facts of engine deals -------------------------------------------------

def engine_facts(rules, row, rec):
    """DealFacts of a played deal: the numbers from its facts row, the declarations (which the row
    only sums) from its record."""
    attack = {int(row["taker"])} | ({int(row["partner"])} if row["partner"] >= 0 else set())
    decl = rec["declarations"]
    poignees = tuple((d["level"], "attack" if d["seat"] in attack else "defence")
                     for d in decl if d["kind"] == "poignee")
    miseres = tuple((d["seat"], d["kind"].removeprefix("misere_")) for d in decl if d["kind"].startswith("misere"))
    for side, field in (("attack", "poignee_attack"), ("defence", "poignee_defence")):
        assert row[field] == sum(POIGNEE_BONUS[POIGNEE_LEVELS.index(lv)] for lv, s in poignees if s == side)
    assert row["miseres"] == len(miseres)
    return DealFacts(rules=rules, contract=CONTRACTS[row["contract"]],
                     attack_half_points=int(row["attack_half_points"]), oudlers=int(row["oudlers"]),
                     taker=int(row["taker"]), partner=int(row["partner"]) if row["partner"] >= 0 else None,
                     dummy=int(row["dealer"]) if rules.table == "5d" else None,
                     petit_au_bout={1: "attack", -1: "defence", 0: None}[int(row["petit_au_bout"])],
                     poignees=poignees, chelem=simulate.CHELEM_NAMES[row["chelem"]], miseres=miseres)


@pytest.mark.parametrize("bots", ["random", "heuristic"])
@pytest.mark.parametrize("table", ["3", "4", "5", "5d"])
@given(seed=st.integers(0, 2**64 - 1), misere=st.booleans(),
       forced=st.sampled_from([None, *CONTRACTS]))
@settings(max_examples=4)
def test_facts_of_engine_deals_are_never_refused(table, bots, seed, misere, forced):
    rules = Rules(table, misere=misere)
    rows = simulate.facts(rules, seed, 0, 250, bots=bots, forced=(1, forced) if forced else None)
    played = np.flatnonzero(rows["outcome"] == 0)
    recs = simulate.records(rules, seed, played.tolist(), bots=bots, forced=(1, forced) if forced else None)
    for i, rec in zip(played, recs):
        f = engine_facts(rules, rows[i], rec)
        assert rec["result"]["attack_half_points"] == f.attack_half_points
        b = score(f)  # check_facts first: raises on a false refusal
        assert list(b.scores) == rows[i]["scores"][:rules.n_seats].tolist()
