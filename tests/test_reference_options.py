"""Each option of RULES §14 that concerns a deal, against its default, on the reference engine.

Positions are the ones of test_reference_deal (universe A, the DESIGN §6 examples, pinned
random-bot deals). Options that only change scoring are checked by replaying a fixed record
under both values: the play is the same, the numbers differ.
"""

import pytest

from helpers_reference import FORCED_CHIEN, FORCED_TRUMPS, R4, R5, C, example, universe_a
from tarotsim.record import RecordError, replay
from tarotsim.reference import RuleViolation, play_deal
from tarotsim.reference.positions import make_deal, play_out
from tarotsim.rules import Rules

PETIT_SEC = {1: C("T1 1S 2S 3S 4S 5S 6S 7S 8S 9S 10S JS NS QS KS 1H 2H 3H")}


def test_petit_sec_off_plays_the_deal_R_DEAL_4():
    assert make_deal(R4, 3, PETIT_SEC).outcome == "petit_sec"
    d = make_deal(Rules(petit_sec="off"), 3, PETIT_SEC)
    assert d.outcome is None and d.phase == "bid"


def test_called_suit_after_excuse_restricted_binds_the_second_card_R_CALL_4():
    hands = {0: C("EX 2S"), 1: C("2H 3S")}
    for option, allowed in (("free", True), ("restricted", False)):
        d = make_deal(Rules(table="5", called_suit_after_excuse=option), 4, hands, forced=(0, "garde_sans"))
        d.call(0, "KH")
        d.announce_chelem(0, False)
        d.play(0, "EX")
        assert (C("2H")[0] in d.legal_cards(1)) is allowed
        if not allowed:
            with pytest.raises(RuleViolation) as e:
                d.play(1, "2H")
            assert e.value.rule_id == "R-CALL-4"


def test_excuse_slam_lead_attack_only_R_EXC_4():
    rec = example(3, excuse_slam_lead="attack_only")       # a defender leads EX to the last trick
    with pytest.raises(RecordError) as e:
        replay(rec)
    assert e.value.action == "trick 18" and e.value.rule_id == "R-PLAY-5"
    rec["tricks"][-1]["winner"] = 3                         # 1H EX-led: 5H of seat 3 wins the hearts
    out = replay(rec)
    assert out.result["chelem"] == "defence" and out.result["petit_au_bout"] is None
    assert replay(example(1, excuse_slam_lead="attack_only")).deal.tricks[-1].excuse_won


def test_pab_slam_penultimate_false_R_PAB_2():
    assert replay(example(1)).result["petit_au_bout"] == "attack"
    out = replay(example(1, pab_slam_penultimate=False))
    assert out.result["petit_au_bout"] is None and out.result["value"] == 760 - 40


def test_pab_multiplied_false_R_PAB_3():
    out = replay(example(1, pab_multiplied=False))
    assert out.deal.breakdown.petit_au_bout_term == 10 and out.result["value"] == 760 - 30


def test_poignee_to_declarer_side_R_POIG_4():
    rec = play_deal(R4, 11, 606)   # the taker (seat 2) shows a simple poignée and fails
    assert rec["declarations"][-1]["seat"] == rec["taker"] == 2 and not rec["result"]["made"]
    assert replay(rec).deal.breakdown.poignee_term == -20
    rec["options"] = {"poignee_to": "declarer_side"}
    out = replay(rec)
    assert out.deal.breakdown.poignee_term == 20 and out.result["value"] == rec["result"]["value"] + 40


def test_poignee_ecart_trumps_false_R_POIG_3():
    shown = C("T2 T3 T4 T5 T6 T7 T8 T9 T10 T11")
    for option, ok in ((True, True), (False, False)):
        d = make_deal(Rules(poignee_ecart_trumps=option), 3, {0: C(FORCED_TRUMPS[0])}, C(FORCED_CHIEN),
                      forced=(0, "prise"))
        d.discard(0, C("1S 2S T2 T3 T4 T5"))
        d.announce_chelem(0, False)
        assert len(d.poignee_trumps(0)) == (18 if ok else 14)
        if ok:
            d.check_poignee(0, "simple", shown)
        else:
            with pytest.raises(RuleViolation, match="poignee_ecart_trumps is off") as e:
                d.check_poignee(0, "simple", shown)
            assert e.value.rule_id == "R-POIG-3"


def test_defence_slam_bonus_zero_R_SLAM_3():
    assert replay(example(3)).deal.breakdown.chelem_term == -200
    out = replay(example(3, defence_slam_bonus=0))
    assert out.deal.breakdown.chelem_term == 0 and out.result["value"] == -766 + 200


def test_misere_off_by_default_R_MIS_1():
    d = universe_a(play=False)
    assert d.misere_kinds(0) == []
    d.declare_poignee(0, None)
    assert d.decision().kind == "card"


def test_misere_excuse_is_trump_false_R_MIS_1():
    d = universe_a(rules=Rules(misere=True, misere_excuse_is_trump=False), play=False)
    assert d.misere_kinds(0) == ["atout", "tete"]      # the Excuse no longer bars misère d'atout
    d.declare_poignee(0, None)
    assert d.decision().kind == "misere_atout"


def test_misere_value_R_MIS_2():
    d = universe_a(rules=Rules(misere=True, misere_value=20), play=False)
    d.declare_misere(0, "tete")
    play_out(d)
    assert d.scores == [-1416 + 60, 472 - 20, 472 - 20, 472 - 20]


@pytest.mark.parametrize("option", [{"chien_gap_limit": "unlimited"}, {"dummy_redeal_same": False},
                                    {"game_end": 1000}])
def test_options_outside_a_deal_change_only_the_records_options(option):
    """chien_gap_limit (R-DEAL-2), dummy_redeal_same (R-DEAL-6) and game_end act between deals."""
    for table in ("4", "5d"):
        a = play_deal(Rules(table=table), 4, 2)
        b = play_deal(Rules.from_options(table, option), 4, 2)
        assert b["options"] == option
        b["options"] = {}
        assert a == b


def test_non_default_options_are_recorded():
    rec = play_deal(Rules(table="5", misere=True, called_suit_after_excuse="restricted"), 1, 1)
    assert rec["options"] == {"misere": True, "called_suit_after_excuse": "restricted"}
    assert play_deal(R5, 1, 1)["options"] == {}
