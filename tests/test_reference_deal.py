"""One small test per rule id of RULES §0–§12, on hand-built deals of the reference engine.

Most positions are built with ``make_deal`` (the cards that matter, the rest of the deck in id
order) and played with ``play_out`` (lowest legal card, the Excuse kept for last, except where
a script says otherwise); "universe A", a table-4 deal in which the defence wins every trick, is
described in ``helpers_reference``. A few positions come from the examples of DESIGN §6 (tests/data/examples.jsonl) or from
random-bot deals pinned by (seed, index); their decisive trick is spelled out in the test.
"""


import pytest

from tarotsim.cards import DECK, Card
from tarotsim.record import replay
from tarotsim.reference import Decision, RuleViolation, ReferenceDeal, deal_for, play_deal
from tarotsim.reference.positions import complete_hands, make_deal, play_out
from tarotsim.rules import Rules

from helpers_reference import (FORCED_CHIEN, FORCED_TRUMPS, R3, R4, R5, R5D, UA_CHIEN, UA_HANDS, C, S,
                               example, first_turn_of, rng_deal, universe_a)



# ================================================================ §0 conventions


def test_R_GEN_1_tables_3_4_5_5d_and_2_are_played():
    for rules, active in ((R3, 3), (R4, 4), (R5, 5), (R5D, 4), (Rules(table="2"), 2)):
        d = deal_for(rules, 1, 1)
        assert d.n_active == active
        assert sum(1 for h in d.initial_hands if h) == active
    with pytest.raises(RuleViolation) as e:  # table 2 without its piles (R-VAR-TWO)
        ReferenceDeal(Rules(table="2"), 0, [[], []], [])
    assert e.value.rule_id == "R-VAR-TWO"


def test_R_GEN_2_playing_order_starts_at_the_dealers_right():
    d = deal_for(R4, 1, 2)
    assert d.dealer == 2 and d.order == [3, 0, 1, 2]
    assert d.decision() == Decision("bid", 3)
    d5 = deal_for(R5D, 1, 3)                      # 5d: the dealer (3) is skipped
    assert d5.order == [4, 0, 1, 2]
    d = universe_a(play=False)
    for seat in (0, 1, 2, 3):
        assert d.next_player() == seat
        d.play(seat, d.legal_cards(seat)[-1])


def test_R_GEN_3_sides_taker_and_partner_attack_the_others_defend():
    d = make_deal(R5, 4, {2: C("KH")}, forced=(0, "garde_sans"))
    d.call(0, "KH")
    assert d.partner == 2
    assert [d.side_of(s) for s in range(5)] == ["attack", "defence", "attack", "defence", "defence"]
    assert deal_for(R5D, 1, 3).side_of(3) is None     # the 5d dummy


def test_R_GEN_4_half_points_whole_deck_is_182():
    d = universe_a()
    assert d.attack_half_points == 26 and d.defence_half_points == 156
    assert d.attack_half_points + d.defence_half_points == 182
    assert isinstance(d.result["attack_half_points"], int)


def test_R_GEN_5_zero_sum_and_zero_for_thrown_in_deals():
    d = universe_a()
    assert d.scores == [-1416, 472, 472, 472] and sum(d.scores) == 0
    d = make_deal(R4, 3, {})
    for seat in d.order:
        d.bid(seat, "pass")
    assert d.outcome == "all_passed" and d.scores == [0, 0, 0, 0]


# ================================================================ §1 cards (see also test_reference_tricks)


def test_R_CARD_3_oudlers_counted_in_the_attack_pile():
    assert universe_a().result["oudlers"] == 0
    assert universe_a(script={(1, 0): "EX"}).result["oudlers"] == 1   # the attack keeps its Excuse


def test_R_CARD_4_card_points_in_half_points():
    assert sum(c.half_points for c in DECK) == 182
    assert sum(c.half_points for c in C("9C 10C JC NC QC KC")) == 26
    assert [Card.parse(n).half_points for n in ("EX", "T1", "T21", "KH", "QH", "NH", "JH", "10H", "T2")] == \
        [9, 9, 9, 9, 7, 5, 3, 1, 1]


def test_R_CARD_5_the_excuse_is_paid_with_one_low_card():
    d = universe_a(script={(1, 0): "EX"})
    # 26 (chien) + 9 (Excuse) − 1 (a low card owed to the defence)
    assert d.attack_half_points == 34 and d.defence_half_points == 148


# ================================================================ §2 deal


def test_R_DEAL_1_sizes_and_partition_are_checked():
    hands, chien = complete_hands(R4, 3, {})
    assert [len(h) for h in hands] == [18] * 4 and len(chien) == 6
    with pytest.raises(RuleViolation) as e:
        ReferenceDeal(R4, 3, [hands[0][:-1]] + hands[1:], chien + hands[0][-1:])
    assert e.value.rule_id == "R-DEAL-1"
    bad = [list(h) for h in hands]
    bad[1][0] = bad[0][0]
    with pytest.raises(RuleViolation, match="dealt twice") as e:
        ReferenceDeal(R4, 3, bad, chien)
    assert e.value.rule_id == "R-DEAL-1"


def test_R_DEAL_2_dealt_hands_have_the_sizes_of_R_DEAL_1():
    for rules, hand, chien in ((R3, 24, 6), (R4, 18, 6), (R5, 15, 3), (R5D, 18, 6)):
        rec = play_deal(rules, 3, 4)
        assert sorted(len(h) for h in rec["hands"] if h) == [hand] * rules.n_active
        assert len(rec["chien"]) == chien


def test_R_DEAL_3_dealer_rotates_with_the_index():
    assert [play_deal(R4, 5, i)["dealer"] for i in range(5)] == [0, 1, 2, 3, 0]
    assert [play_deal(R5D, 5, i)["dealer"] for i in range(6)] == [0, 1, 2, 3, 4, 0]


def test_R_DEAL_4_petit_sec_annuls_the_deal():
    suits = "1S 2S 3S 4S 5S 6S 7S 8S 9S 10S JS NS QS KS 1H 2H 3H"
    d = make_deal(R4, 3, {1: C("T1 " + suits)})
    assert d.outcome == "petit_sec" and d.petit_sec_seat == 1
    assert d.decision() is None and d.bids == [] and d.scores == [0, 0, 0, 0]


def test_R_DEAL_4_petit_with_the_excuse_or_another_trump_is_not_sec():
    suits = "1S 2S 3S 4S 5S 6S 7S 8S 9S 10S JS NS QS KS 1H 2H"
    assert make_deal(R4, 3, {1: C("T1 EX " + suits)}).phase == "bid"
    assert make_deal(R4, 3, {1: C("T1 T2 " + suits)}).phase == "bid"


def test_R_DEAL_4_applies_at_5d_but_not_to_a_hand_without_trumps():
    a = "T1 1S 2S 3S 4S 5S 6S 7S 8S 9S 10S JS NS QS KS 1H 2H 3H"
    b = "4H 5H 6H 7H 8H 9H 10H JH NH QH KH 1D 2D 3D 4D 5D 6D 7D"
    d = make_deal(R5D, 1, {2: C(b), 4: C(a)})       # seat 2 holds no trump at all: not petit sec
    assert d.outcome == "petit_sec" and d.petit_sec_seat == 4


def test_R_DEAL_5_the_chien_stays_unseen_at_garde_sans():
    d = universe_a("garde_sans", play=False)
    assert d.hands[0] == d.initial_hands[0]        # the chien did not join the taker's hand
    d = make_deal(R4, 3, {k: C(v) for k, v in UA_HANDS.items()}, C(UA_CHIEN), forced=(0, "prise"))
    assert len(d.hands[0]) == 24                   # shown and taken at prise (R-CHIEN-1)


def test_R_DEAL_6_the_5d_dealer_is_the_dummy():
    rec = play_deal(R5D, 2, 7)                      # dealer 2
    assert rec["dealer"] == 2 and rec["hands"][2] == []
    assert 2 not in [s for s, _ in rec["bids"]]
    assert all(2 not in (t["leader"], t["winner"]) for t in rec["tricks"])
    assert rec["scores"][2] == 0
    hands, chien = complete_hands(R5D, 2, {})
    hands[2], hands[3] = hands[3][:1], hands[3][1:]
    with pytest.raises(RuleViolation) as e:
        ReferenceDeal(R5D, 2, hands, chien)
    assert e.value.rule_id == "R-DEAL-6"


# ================================================================ §3 bidding


def test_R_BID_1_contracts_low_to_high():
    d = make_deal(R4, 3, {})
    assert d.legal_bids() == ["pass", "prise", "garde", "garde_sans", "garde_contre"]
    with pytest.raises(RuleViolation) as e:
        d.bid(0, "petite")
    assert e.value.rule_id == "R-BID-1"


def test_R_BID_2_strictly_higher_bids_in_turn_from_the_dealers_right():
    d = make_deal(R4, 3, {})
    d.bid(0, "garde")
    assert d.legal_bids() == ["pass", "garde_sans", "garde_contre"]
    with pytest.raises(RuleViolation, match="not higher") as e:
        d.bid(1, "garde")                            # equal: illegal
    assert e.value.rule_id == "R-BID-2" and d.bids == [(0, "garde")]
    with pytest.raises(RuleViolation, match="out of turn"):
        d.bid(2, "pass")
    d.bid(1, "garde_contre")
    assert d.legal_bids() == ["pass"]                # still asked after a garde contre
    d.bid(2, "pass")
    d.bid(3, "pass")
    with pytest.raises(RuleViolation, match="auction is over"):
        d.bid(0, "pass")


def test_R_BID_3_highest_bidder_takes_or_all_pass_throws_in():
    d = make_deal(R4, 3, {})
    for seat, bid in ((0, "prise"), (1, "pass"), (2, "garde"), (3, "pass")):
        d.bid(seat, bid)
    assert (d.taker, d.contract, d.phase) == (2, "garde", "ecart")
    d = make_deal(R4, 3, {})
    for seat in (0, 1, 2, 3):
        d.bid(seat, "pass")
    assert d.outcome == "all_passed" and d.decision() is None


# ================================================================ §4 calling (table 5)


def test_R_CALL_1_kings_or_lower_when_holding_all_higher():
    d = make_deal(R5, 4, {1: C("KS")}, forced=(0, "prise"))
    assert S(d.legal_calls()) == "KS KH KD KC"
    with pytest.raises(RuleViolation, match="all four kings") as e:
        d.call(0, "QH")
    assert e.value.rule_id == "R-CALL-1"
    with pytest.raises(RuleViolation, match="only the taker"):
        d.call(1, "KH")
    d = make_deal(R5, 4, {0: C("KS KH KD KC")}, forced=(0, "prise"))
    assert S(d.legal_calls()) == "QS KS QH KH QD KD QC KC"   # his own kings still allowed
    d = make_deal(R5, 4, {0: C("KS KH KD KC QS QH QD QC NS NH ND NC")}, forced=(0, "prise"))
    assert S(d.legal_calls()) == "JS NS QS KS JH NH QH KH JD ND QD KD JC NC QC KC"


def test_R_CALL_2_partner_is_the_holder_or_the_taker_is_alone():
    d = make_deal(R5, 4, {3: C("KH")}, forced=(0, "prise"))
    d.call(0, "KH")
    assert d.partner == 3
    d = make_deal(R5, 4, {0: C("KH")}, forced=(0, "prise"))
    d.call(0, "KH")
    assert d.partner is None                         # his own king
    d = make_deal(R5, 4, {}, C("KH"), forced=(0, "garde_sans"))
    d.call(0, "KH")
    assert d.partner is None                         # in the (unseen) chien


def test_R_CALL_3_the_partners_poignee_counts_for_the_attack():
    d = make_deal(R5, 4, {2: C("KH T1 T2 T3 T4 T5 T6 T7 T8")}, forced=(0, "garde_sans"))
    d.call(0, "KH")
    d.announce_chelem(0, False)
    first_turn_of(d, 2)
    d.declare_poignee(2, "simple")
    play_out(d)
    assert d.facts().poignees == (("simple", "attack"),)


def test_R_CALL_4_called_suit_barred_at_the_opening_lead_of_a_deal():
    d = make_deal(R5, 4, {0: C("2H 3S"), 1: C("KH")}, forced=(0, "garde_sans"))
    d.call(0, "KH")
    d.announce_chelem(0, False)
    with pytest.raises(RuleViolation, match="called suit") as e:
        d.play(0, "2H")
    assert e.value.rule_id == "R-CALL-4"
    assert "2H" not in S(d.legal_cards(0)).split() and "3S" in S(d.legal_cards(0)).split()


# ================================================================ §5 chien and écart


def test_R_CHIEN_1_chien_joins_the_hand_then_an_ecart_of_its_size():
    d = make_deal(R4, 3, {k: C(v) for k, v in UA_HANDS.items()}, C(UA_CHIEN), forced=(0, "garde"))
    assert d.phase == "ecart" and len(d.hands[0]) == 24
    with pytest.raises(RuleViolation, match="6 cards, not 5") as e:
        d.discard(0, d.ecart_normal()[:5])
    assert e.value.rule_id == "R-CHIEN-1"
    d.discard(0, d.ecart_normal()[:6])
    assert len(d.hands[0]) == 18 and len(d.ecart) == 6 and d.phase == "chelem"
    d = universe_a("prise")                       # the écart is in the attack's pile
    assert set(C("1S 2S 3S 4S 5S 6S")) <= set(d.attack_pile)


def test_R_CHIEN_2_no_king_no_oudler_no_needless_trump():
    d = make_deal(R4, 3, {0: C("KH T21 EX T5 1S 2S 3S 4S 5S 6S")}, forced=(0, "prise"))
    for bad, why in (("KH 1S 2S 3S 4S 5S", "king"), ("T21 1S 2S 3S 4S 5S", "oudler"),
                     ("EX 1S 2S 3S 4S 5S", "oudler"), ("T5 1S 2S 3S 4S 5S", "trump only")):
        with pytest.raises(RuleViolation, match=why) as e:
            d.discard(0, C(bad))
        assert e.value.rule_id == "R-CHIEN-2"
    assert d.phase == "ecart" and d.ecart == []


def test_R_CHIEN_2_missing_cards_are_made_up_with_exactly_that_many_trumps():
    d = make_deal(R4, 3, {0: C(FORCED_TRUMPS[0])}, C(FORCED_CHIEN), forced=(0, "prise"))
    assert S(d.ecart_normal()) == "1S 2S" and d.ecart_trumps_needed() == 4
    assert not d.is_legal_ecart(0, C("1S T2 T3 T4 T5 T6"))        # 5 trumps
    assert not d.is_legal_ecart(0, C("1S 2S T2 T3 T4 T21"))       # T21 never
    d.discard(0, C("1S 2S T2 T3 T4 T19"))
    assert S(d.ecart) == "T2 T3 T4 T19 1S 2S"


def test_R_CHIEN_3_garde_sans_no_ecart_and_the_chien_counts_for_the_attack():
    d = universe_a("garde_sans", play=False)
    with pytest.raises(RuleViolation) as e:
        d.discard(0, C("1S 2S 3S 4S 5S 6S"))
    assert e.value.rule_id == "R-CHIEN-1"
    play_out(d)
    assert d.attack_pile == sorted(C(UA_CHIEN)) and d.ecart == []


def test_R_CHIEN_4_garde_contre_the_chien_counts_for_the_defence():
    d = universe_a("garde_contre")
    assert d.attack_pile == [] and set(C(UA_CHIEN)) <= set(d.defence_pile)
    assert d.result["attack_half_points"] == 0


# ================================================================ §6 play


def test_R_PLAY_1_leaders_dealers_right_then_the_winner_or_the_announcing_taker():
    d = universe_a()
    assert d.tricks[0].leader == 0
    assert all(t.leader == prev.winner for prev, t in zip(d.tricks, d.tricks[1:]))
    d = make_deal(R4, 3, {}, forced=(2, "garde_sans"))
    d.announce_chelem(2, True)
    assert d.next_player() == 2


def test_R_PLAY_2_one_card_each_in_playing_order():
    d = universe_a()
    for t in d.tricks:
        seats = [s for s, _ in t.plays]
        assert seats == [(t.leader + k) % 4 for k in range(4)]
    d = universe_a(play=False)
    with pytest.raises(RuleViolation, match="out of turn") as e:
        d.play(1, "T1")
    assert e.value.rule_id == "R-PLAY-2"
    with pytest.raises(RuleViolation, match="does not hold"):
        d.play(0, "KS")


def test_R_PLAY_3_after_an_excuse_lead_the_second_card_sets_the_suit():
    d = universe_a(play=False)
    d.play(0, "EX")
    assert S(d.legal_cards(1)) == S(C(UA_HANDS[1]))     # free
    d.play(1, "T5")
    assert S(d.legal_cards(2)) == "T19 T20 T21"         # trumps led: must overtrump T5


def test_R_PLAY_4e_must_overtrump_a_partner_at_table_5():
    """Seat 1 leads 2S, the taker (seat 2) trumps T10; his partner (seat 0, void) must overtrump it."""
    hands = {
        0: C("KH T11 T12 T13 1H 2H 3H 4H 5H 6H 7H 8H 9H 10H JH"),
        1: C("2S EX T1 T2 T3 T4 T5 T6 T7 T8 T9 T16 T17 T18 T19"),
        2: C("T10 T14 T15 1D 2D 3D 4D 5D 6D 7D 8D 9D 10D JD ND"),
        3: C("1S 3S 4S 5S 6S 7S 8S 9S 10S JS NS QS KS T20 T21"),
    }
    d = make_deal(R5, 0, hands, forced=(2, "garde_sans"))   # dealer 0: seat 1 leads
    d.call(2, "KH")
    assert d.partner == 0
    d.announce_chelem(2, False)
    for seat, card in ((1, "2S"), (2, "T10"), (3, "KS"), (4, "1C")):
        d.play(seat, card)
    assert S(d.legal_cards(0)) == "T11 T12 T13"
    with pytest.raises(RuleViolation) as e:
        d.play(0, "1H")
    assert str(e.value) == "must overtrump: holds T11 above T10 (R-PLAY-4b)"


def test_R_PLAY_5_trick_winner_highest_trump():
    d = universe_a()
    assert S(d.tricks[0].cards) == "1S T1 JS 5D" and d.tricks[0].winner == 1
    assert S(d.tricks[1].cards) == "T2 T19 6D 2S" and d.tricks[1].winner == 2


def test_R_PLAY_6_an_illegal_card_is_refused_and_nothing_changes():
    d = universe_a(play=False)
    d.play(0, "1S")
    d.play(1, "T1")
    hands, trick = [list(h) for h in d.hands], list(d.trick)
    with pytest.raises(RuleViolation) as e:
        d.play(2, "T19")                            # holds spades: must follow
    assert str(e.value) == "must follow spades: holds JS (R-PLAY-4a)"
    assert e.value.rule_id == "R-PLAY-4a"
    assert d.hands == hands and d.trick == trick and d.next_player() == 2
    d.play(2, "JS")


# ================================================================ §7 the Excuse


def test_R_EXC_2_excuse_outside_the_last_trick_stays_with_its_side_against_a_low_card():
    d = universe_a(script={(1, 0): "EX"})
    assert d.tricks[0].winner == 2 and Card.parse("EX") in d.attack_pile
    assert (d.attack_half_points, d.defence_half_points) == (34, 148)   # 4 points for the side that never won


def test_R_EXC_2_nothing_is_exchanged_when_the_own_side_wins():
    hands = {**UA_HANDS, 0: UA_HANDS[0].replace("EX", "8C")}     # the Excuse goes to seat 3
    d = universe_a(hands=hands, script={(1, 3): "EX"})
    assert d.tricks[0].winner == 1
    assert (d.attack_half_points, d.defence_half_points) == (26, 156)


def test_R_EXC_3_excuse_in_the_last_trick_goes_to_the_winner():
    d = universe_a()
    assert S(d.tricks[-1].cards) == "T18 4D 8C EX" and d.tricks[-1].winner == 1
    assert Card.parse("EX") in d.defence_pile and d.result["oudlers"] == 0


def test_R_EXC_3_excuse_led_to_the_last_trick_without_a_clean_sheet_changes_side():
    d = rng_deal(R4, 11, 3719)                      # taker seat 1
    last = d.tricks[-1]
    assert S(last.cards) == "EX 5C 2S 8C" and last.leader == 2 and last.winner == 1
    assert not last.excuse_won and Card.parse("EX") in d.attack_pile


def test_R_EXC_4_excuse_led_to_the_last_trick_of_a_slam_wins_it_either_side():
    attack = replay(example(1))                     # taker leads EX after 17 tricks
    assert attack.deal.tricks[-1].excuse_won and attack.deal.tricks[-1].winner == 3
    assert attack.result["attack_half_points"] == 182
    defence = replay(example(3))                    # garde contre: a defender leads EX
    assert defence.deal.tricks[-1].excuse_won and defence.deal.tricks[-1].winner == 1
    assert defence.result["chelem"] == "defence"


def test_R_EXC_5_excuse_is_an_oudler_for_the_side_holding_it():
    kept = universe_a(script={(1, 0): "EX"})
    lost = universe_a()
    assert kept.result["oudlers"] == 1 and lost.result["oudlers"] == 0


# ================================================================ §8 counting


def test_R_COUNT_1_attack_pile_is_tricks_plus_ecart_or_chien():
    assert universe_a("garde_sans").attack_pile == sorted(C(UA_CHIEN))
    assert universe_a("prise").attack_pile == sorted(C("1S 2S 3S 4S 5S 6S"))
    assert universe_a("garde_contre").attack_pile == []


def test_R_COUNT_2_points_and_oudlers_of_the_attack():
    d = universe_a(script={(1, 0): "EX"})
    assert (d.result["attack_half_points"], d.result["oudlers"]) == (34, 1)


def test_R_COUNT_3_target_by_oudlers():
    assert universe_a().breakdown.target == 56
    assert universe_a(script={(1, 0): "EX"}).breakdown.target == 51


def test_R_COUNT_4_half_point_goes_to_the_winner():
    d = rng_deal(R3, 11, 143)                       # 38.5 points with 2 oudlers: failed by 3
    assert (d.attack_half_points, d.facts().oudlers) == (77, 2)
    assert d.result["made"] is False and d.result["difference"] == -3


def test_R_COUNT_5_whole_points_at_4_and_5d():
    for rules in (R4, R5D):
        for i in range(20):
            rec = play_deal(rules, 9, i)
            if rec["result"]:
                assert rec["result"]["attack_half_points"] % 2 == 0


# ================================================================ §9 petit au bout


def test_R_PAB_1_petit_in_the_last_trick_to_the_side_winning_it():
    d = rng_deal(R4, 11, 1551)                      # garde contre, the taker (seat 2) plays T1
    assert S(d.tricks[-1].cards) == "T2 KC T1 6H" and d.tricks[-1].winner == 0
    assert d.result["petit_au_bout"] == "defence" and d.breakdown.petit_au_bout_term == -60
    assert replay(example(0)).result["petit_au_bout"] == "attack"      # EX-4: T1 wins the last trick


def test_R_PAB_2_petit_in_the_penultimate_trick_of_an_excuse_slam():
    rec = example(1)
    assert "T1" in rec["tricks"][16]["cards"] and rec["tricks"][17]["cards"][0] == "EX"
    assert replay(rec).result["petit_au_bout"] == "attack"


def test_R_PAB_3_sign_and_multiplier():
    assert replay(example(1)).deal.breakdown.petit_au_bout_term == 40     # attack, garde sans: +10 × 4
    assert replay(example(3)).deal.breakdown.petit_au_bout_term == -60


# ================================================================ §10 poignée

TRUMPS10 = "T2 T3 T4 T5 T6 T7 T8 T9 T10 T11"


def test_R_POIG_1_sizes_per_table():
    for rules, sizes in ((R3, (13, 15, 18)), (R4, (10, 13, 15)), (R5D, (10, 13, 15)), (R5, (8, 10, 13))):
        assert rules.poignee_sizes == sizes
    d = universe_a(play=False)
    d.play(0, "1S")
    assert d.poignee_levels(1) == ["simple", "double", "triple"]        # 18 trumps
    d = make_deal(R4, 3, {0: C(TRUMPS10 + " 1S 2S 3S 4S 5S 6S 7S 8S")}, forced=(0, "garde_sans"))
    d.announce_chelem(0, False)
    assert d.poignee_levels(0) == ["simple"]


def test_R_POIG_2_once_at_the_first_turn_with_the_exact_size():
    d = make_deal(R4, 3, {0: C(TRUMPS10 + " T12 T13")}, forced=(0, "garde_sans"))
    d.announce_chelem(0, False)
    with pytest.raises(RuleViolation, match="10 cards, not 11") as e:
        d.declare_poignee(0, "simple", C(TRUMPS10 + " T12"))
    assert e.value.rule_id == "R-POIG-2"
    with pytest.raises(RuleViolation, match="out of turn"):
        d.declare_poignee(1, "simple", C(TRUMPS10))
    d.declare_poignee(0, "simple", C(TRUMPS10))
    with pytest.raises(RuleViolation, match="at most one"):
        d.declare_poignee(0, "simple", C(TRUMPS10))
    d.play(0, "T2")
    d.play(1, d.legal_cards(1)[0])
    assert d.poignee_levels(0) == []


def test_R_POIG_3_trumps_only_and_the_excuse_only_with_every_trump():
    d = make_deal(R4, 3, {0: C("EX T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 1S 2S 3S 4S 5S 6S 7S")},
                  forced=(0, "garde_sans"))
    d.announce_chelem(0, False)
    with pytest.raises(RuleViolation, match="trumps, not 1S") as e:
        d.check_poignee(0, "simple", C("1S T2 T3 T4 T5 T6 T7 T8 T9 T10"))
    assert e.value.rule_id == "R-POIG-3"
    with pytest.raises(RuleViolation, match="T11 is not shown") as e:
        d.check_poignee(0, "simple", C("EX T2 T3 T4 T5 T6 T7 T8 T9 T10"))
    assert e.value.rule_id == "R-POIG-3"
    d2 = make_deal(R4, 3, {0: C("EX T2 T3 T4 T5 T6 T7 T8 T9 T10 1S 2S 3S 4S 5S 6S 7S 8S")},
                   forced=(0, "garde_sans"))
    d2.announce_chelem(0, False)
    assert d2.poignee_levels(0) == ["simple"]
    assert S(d2.default_poignee_cards(0, "simple")) == "EX T2 T3 T4 T5 T6 T7 T8 T9 T10"
    d2.declare_poignee(0, "simple")
    assert d2.declarations[-1]["cards"][0] == "EX"


def test_R_POIG_3_taker_may_show_trumps_of_the_ecart():
    d = make_deal(R4, 3, {0: C(FORCED_TRUMPS[0])}, C(FORCED_CHIEN), forced=(0, "prise"))
    d.discard(0, C("1S 2S T2 T3 T4 T5"))
    d.announce_chelem(0, False)
    assert len(d.poignee_trumps(0)) == 18
    d.check_poignee(0, "simple", C("T2 T3 T4 T5 T6 T7 T8 T9 T10 T11"))


def test_R_POIG_4_bonus_to_the_side_that_wins_the_deal():
    d = universe_a(play=False)
    d.play(0, "1S")
    d.declare_poignee(1, "simple")
    play_out(d)
    assert d.facts().poignees == (("simple", "defence"),)
    assert d.result["value"] == -472 - 20 and d.breakdown.poignee_term == -20


def test_R_POIG_5_a_refused_display_costs_nothing():
    d = universe_a(play=False)
    d.play(0, "1S")
    with pytest.raises(RuleViolation):
        d.declare_poignee(1, "simple", C("T1 T2 T3 T4 T5 T6 T7 T8 T9 T19"))
    assert d.declarations == [] and d.next_player() == 1
    play_out(d)
    assert d.result["value"] == -472                 # no penalty


# ================================================================ §11 chelem


def test_R_SLAM_1_only_the_taker_before_the_first_card_and_he_leads():
    d = make_deal(R5, 4, {0: C("2H 3S")}, forced=(0, "garde_sans"))
    with pytest.raises(RuleViolation) as e:
        d.announce_chelem(0, True)                   # before the call
    assert e.value.rule_id == "R-SLAM-1"
    d.call(0, "KH")
    with pytest.raises(RuleViolation, match="only the taker"):
        d.announce_chelem(1, True)
    d.announce_chelem(0, True)
    assert d.next_player() == 0 and d.declarations == [{"seat": 0, "kind": "chelem"}]
    with pytest.raises(RuleViolation) as e:
        d.play(0, "2H")                              # R-CALL-4 still binds his lead
    assert e.value.rule_id == "R-CALL-4"
    with pytest.raises(RuleViolation):
        d.announce_chelem(0, True)


def test_R_SLAM_2_every_trick_a_defender_excuse_does_not_prevent_it():
    out = replay(example(0))
    assert out.result["chelem"] == "made" and out.result["attack_half_points"] == 174


def test_R_SLAM_3_slam_terms():
    assert replay(example(0)).deal.breakdown.chelem_term == 200      # made, not announced
    assert replay(example(1)).deal.breakdown.chelem_term == 400      # announced and made
    assert universe_a().breakdown.chelem_term == -200                # defence wins every trick
    d = universe_a(chelem=True)
    assert d.result["chelem"] == "announced_defence" and d.breakdown.chelem_term == -400
    d = rng_deal(R4, 11, 1551)
    assert d.result["chelem"] == "announced_failed" and d.breakdown.chelem_term == -200


def test_R_SLAM_4_the_excuse_may_be_played_early():
    d = universe_a(chelem=True, play=False)
    assert Card.parse("EX") in d.legal_cards(0)


# ================================================================ §12 misère


def test_R_MIS_1_eligibility_on_the_current_hand():
    on = Rules(misere=True)
    d = universe_a(rules=on, play=False)             # seat 0: EX, no trump, no face card
    assert d.misere_kinds(0) == ["tete"]
    assert d.decision() == Decision("poignee", 0)
    d.declare_poignee(0, None)
    assert d.decision() == Decision("misere_tete", 0)
    with pytest.raises(RuleViolation, match="holds a trump or the Excuse") as e:
        d.declare_misere(0, "atout")
    assert e.value.rule_id == "R-MIS-1"
    d.declare_misere(0, "tete")
    assert d.decision() == Decision("card", 0)
    with pytest.raises(RuleViolation, match="needs option misere"):
        universe_a(play=False).declare_misere(0, "tete")


def test_R_MIS_2_each_misere_earns_from_every_other_player():
    d = universe_a(rules=Rules(misere=True), play=False)
    d.declare_misere(0, "tete")
    play_out(d)
    assert d.scores == [-1416 + 30, 472 - 10, 472 - 10, 472 - 10]
