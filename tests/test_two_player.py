"""Two-player tarot (R-VAR-TWO) in the reference engine, one test per clause, on built positions.

Table 2, dealer 0: seat 1 (the non-dealer) bids first and leads trick 1. Each seat holds 18
cards in hand and 6 piles of 3 laid before it (bottom to top, the top face up); chien 6.
"""

import pytest

from tarotsim.cards import DECK, Card, parse_cards
from tarotsim.reference import RuleViolation, play_deal
from tarotsim.reference.positions import complete_deal, make_deal, play_out
from tarotsim.rng import deal_with_piles, shuffled_deck
from tarotsim.rules import Rules

TWO = Rules("2")


def C(text):
    return parse_cards(text)


def piles_of(text):
    """``"1H 2H KH | ..."`` -> six piles, each from bottom to top."""
    return [C(p) for p in text.split("|")]


# Seat 0: no heart in hand, trumps T2..T10 only; its face-up tops are KH, T20 and four spades.
SEAT0_HAND = "T2 T3 T4 T5 T6 T7 T8 T9 T10 1S 2S 3S 4S 5S 6S 7S 8S 9S"
SEAT0_PILES = "1H 2H KH | 3H 4H T20 | 1D 2D 10S | 3D 4D JS | 5D 6D NS | 7D 8D QS"


def built(seat1_hand="5H T15 EX", forced=("1", "garde_sans"), rules=TWO):
    """A table-2 deal, dealer 0, where seat 1 has taken (garde sans: no écart), ready to play."""
    d = make_deal(rules, 0, {0: C(SEAT0_HAND), 1: C(seat1_hand)}, piles={0: piles_of(SEAT0_PILES)},
                  forced=(int(forced[0]), forced[1]) if forced else None)
    if forced and d.phase == "chelem":
        d.announce_chelem(int(forced[0]), False)
    return d


# ---------------------------------------------------------------- the deal


def test_R_VAR_TWO_deal_18_in_hand_6_piles_of_3_and_a_chien_of_6():
    for index in range(6):
        dealer, hands, chien, piles = deal_with_piles(TWO, 5, index)
        assert dealer == index % 2                                   # the dealer alternates
        assert [len(h) for h in hands] == [18, 18] and len(chien) == 6
        assert [[len(p) for p in ps] for ps in piles] == [[3] * 6, [3] * 6]
        cards = [c for h in hands for c in h] + [c for ps in piles for p in ps for c in p] + chien
        assert sorted(cards) == list(range(78))


def test_R_VAR_TWO_piles_follow_the_hands_in_the_shuffled_deck_bottom_to_top():
    a = shuffled_deck(9, 3)                       # dealer 1: seat 0 is dealt first
    dealer, hands, chien, piles = deal_with_piles(TWO, 9, 3)
    assert dealer == 1
    assert hands[0] == sorted(a[:18]) and hands[1] == sorted(a[18:36])
    assert piles[0] == [a[36 + 3 * p:39 + 3 * p] for p in range(6)]
    assert piles[1] == [a[54 + 3 * p:57 + 3 * p] for p in range(6)]
    assert chien == sorted(a[72:])


def test_R_VAR_TWO_record_has_the_piles_and_36_tricks_of_2_cards():
    rec = play_deal(TWO, 3, 0)
    assert rec["table"] == "2" and len(rec["piles"]) == 2
    _, _, _, piles = deal_with_piles(TWO, 3, 0)
    assert rec["piles"] == [[[str(DECK[c]) for c in p] for p in ps] for ps in piles]
    if rec["outcome"] == "played":
        assert len(rec["tricks"]) == 36 and all(len(t["cards"]) == 2 for t in rec["tricks"])


@pytest.mark.parametrize("piles, why", [
    ({0: piles_of("1H 2H | 3H 4H 5H")}, "seat 0 has 2 piles, not 6"),
])
def test_R_VAR_TWO_a_deal_without_6_piles_per_seat_is_refused(piles, why):
    hands, chien, laid = complete_deal(TWO, 0, {}, None)
    laid[0] = piles[0]
    with pytest.raises(RuleViolation, match=why) as e:
        from tarotsim.reference import ReferenceDeal
        ReferenceDeal(TWO, 0, hands, chien, piles=laid)
    assert e.value.rule_id == "R-VAR-TWO"


def test_R_VAR_TWO_a_pile_of_the_wrong_size_is_refused():
    from tarotsim.reference import ReferenceDeal
    hands, chien, laid = complete_deal(TWO, 0, {}, None)
    moved = laid[0][0].pop()                      # pile 1 of seat 0 now has 2 cards
    laid[0][1].append(moved)                      # pile 2 has 4
    with pytest.raises(RuleViolation, match="pile 1 of seat 0 has 2 cards, not 3") as e:
        ReferenceDeal(TWO, 0, hands, chien, piles=laid)
    assert e.value.rule_id == "R-VAR-TWO"
    with pytest.raises(RuleViolation, match="at table 2 only") as e:
        ReferenceDeal(Rules("4"), 0, *complete_deal(Rules("4"), 0, {})[:2], piles=laid)
    assert e.value.rule_id == "R-VAR-TWO"


# ---------------------------------------------------------------- auction and lead


def test_R_VAR_TWO_the_non_dealer_bids_first_and_leads_trick_1():
    for dealer in (0, 1):
        d = make_deal(TWO, dealer, {})
        assert d.decision().seat == 1 - dealer and d.decision().kind == "bid"
        d.bid(1 - dealer, "garde_sans")
        d.bid(dealer, "pass")
        d.announce_chelem(1 - dealer, False)
        assert d.next_player() == 1 - dealer


# ---------------------------------------------------------------- play from the piles


def test_R_VAR_TWO_a_face_up_pile_top_may_be_played():
    d = built()
    d.play(1, "T15")                                      # trump led
    assert Card.parse("T20") in d.legal_cards(0)           # the face-up top of pile 2
    d.play(0, "T20")
    assert d.tricks[-1].winner == 0
    assert d.piles[0][1] == C("3H 4H")                     # the top left the pile


def test_R_VAR_TWO_a_card_under_a_pile_may_not_be_played():
    d = built()
    d.play(1, "T15")
    with pytest.raises(RuleViolation, match="4H lies face down in pile 2 of seat 0") as e:
        d.play(0, "4H")
    assert e.value.rule_id == "R-VAR-TWO"


def test_R_VAR_TWO_a_player_does_not_play_from_the_other_players_piles():
    d = built()
    with pytest.raises(RuleViolation, match="seat 1 does not hold KH") as e:
        d.play(1, "KH")                                   # seat 0's face-up top
    assert e.value.rule_id == "R-PLAY-2"


def test_R_VAR_TWO_R_PLAY_4a_must_follow_with_a_face_up_pile_card():
    d = built()
    d.play(1, "5H")                                       # hearts led; seat 0 holds none in hand
    assert [str(c) for c in d.legal_cards(0)] == ["KH"]   # but KH is face up: must follow with it
    with pytest.raises(RuleViolation, match="must follow hearts: holds KH") as e:
        d.play(0, "T2")
    assert e.value.rule_id == "R-PLAY-4a"
    d.play(0, "KH")
    assert d.tricks[-1].winner == 0


def test_R_VAR_TWO_R_PLAY_4c_must_overtrump_with_a_face_up_pile_card():
    d = built()
    d.play(1, "T15")                                      # hand trumps T2..T10 are all below T15
    assert [str(c) for c in d.legal_cards(0)] == ["T20"]
    with pytest.raises(RuleViolation, match="must overtrump: holds T20 above T15") as e:
        d.play(0, "T10")
    assert e.value.rule_id == "R-PLAY-4c"


def test_R_VAR_TWO_the_next_card_of_a_pile_turns_up_after_the_trick():
    d = built()
    d.play(1, "5H")
    d.play(0, "KH")                                       # seat 0 wins and leads trick 2
    assert Card.parse("2H") in d.face_up_tops(0)          # turned up once the trick was over
    assert Card.parse("2H") in d.legal_cards(0)
    # a top played in the middle of a trick: the card under it stays face down till the trick ends
    d.play(0, "T20")
    assert Card.parse("4H") not in d.face_up_tops(0)
    d.play(1, d.legal_cards(1)[-1])
    assert Card.parse("4H") in d.face_up_tops(0)


# ---------------------------------------------------------------- chien and écart


def test_R_VAR_TWO_chien_joins_the_hand_and_the_ecart_comes_from_the_hand_only():
    d = built(forced=("1", "garde"))
    assert d.phase == "ecart" and len(d.hands[1]) == 24   # 18 in hand + the chien of 6
    assert all(c not in d.ecart_normal() for p in d.piles[1] for c in p)
    pile_card = d.piles[0][0][-1]                         # KH, seat 0's face-up top
    own_pile_card = d.piles[1][0][-1]
    for card in (pile_card, own_pile_card):
        bad = d.ecart_normal()[:5] + [card]
        with pytest.raises(RuleViolation, match="from the hand only") as e:
            d.discard(1, bad)
        assert e.value.rule_id == "R-VAR-TWO"
    d.discard(1, d.ecart_normal()[:6])
    assert len(d.hands[1]) == 18


# ---------------------------------------------------------------- no petit sec, poignée, misère


def test_R_VAR_TWO_no_petit_sec():
    # seat 1 holds T1 as its only trump, without the Excuse: at 2 the deal is still bid
    d = make_deal(TWO, 0, {1: C("T1 1H 2H 3H 4H 5H 6H 7H 8H 9H 10H JH NH QH KH 1D 2D 3D")})
    assert d.outcome is None and d.decision().kind == "bid"


def test_R_VAR_TWO_no_poignee_and_no_misere():
    d = built(seat1_hand="T11 T12 T13 T14 T15 T16 T17 T18 T19 T21 T1 EX 5H",
              rules=Rules("2", misere=True))
    assert d.decision().kind == "card"                    # not asked for a poignée or a misère
    with pytest.raises(RuleViolation) as e:
        d.declare_poignee(1, "simple")
    assert e.value.rule_id == "R-VAR-TWO"
    with pytest.raises(RuleViolation) as e:
        d.declare_misere(1, "tete", True)
    assert e.value.rule_id == "R-VAR-TWO"


# ---------------------------------------------------------------- the whole deal and its score


def test_R_VAR_TWO_36_tricks_then_R_SCORE_2_row_2_taker_V_defender_minus_V():
    d = play_out(built())
    assert d.outcome == "played" and len(d.tricks) == 36
    assert all(not p for ps in d.piles for p in ps) and not any(d.hands)
    value = d.result["value"]
    assert d.scores == [-value, value]                    # seat 1 took
    assert d.attack_half_points + d.defence_half_points == 182


def test_R_VAR_TWO_excuse_and_petit_au_bout_as_at_every_table():
    # the Excuse kept by its owner outside the last trick (R-EXC-2) and the Petit au bout (R-PAB-1)
    for index in range(40):
        rec = play_deal(TWO, 11, index)
        if rec["outcome"] != "played":
            continue
        last = rec["tricks"][-1]
        if "T1" in last["cards"]:
            side = "attack" if last["winner"] == rec["taker"] else "defence"
            assert rec["result"]["petit_au_bout"] == side
        else:
            assert rec["result"]["petit_au_bout"] is None
        assert sum(rec["scores"]) == 0
