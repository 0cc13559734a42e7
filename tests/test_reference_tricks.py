"""The rules of one trick (RULES §1, §6, §7, R-CALL-4) on tiny hand-built positions.

Pure functions of tarotsim.reference.tricks: the hand, the cards already in the trick, and the
few facts that matter (called card, trick 1, option called_suit_after_excuse).
"""

import pytest

from tarotsim.cards import Card, parse_cards
from tarotsim.reference import legal_cards, play_duty, trick_winner


def C(text):
    return parse_cards(text)


def names(cards):
    return " ".join(str(c) for c in cards)


def legal(hand, trick, **kw):
    return names(legal_cards(C(hand), C(trick), **kw))


# ---------------------------------------------------------------- R-CARD


def test_R_CARD_1_suit_ranks_king_high_and_any_trump_beats_suit_cards():
    assert trick_winner(C("QH KH NH JH")) == 1
    assert trick_winner(C("10H JH 9H")) == 1
    assert trick_winner(C("1H KH T2")) == 2      # every trump beats every suit card
    assert trick_winner(C("T2 T21 T20")) == 1    # trumps by number


def test_R_CARD_1_suits_are_not_ranked_against_each_other():
    # an off-suit king loses to the led suit's 1
    assert trick_winner(C("1H KS KD KC")) == 0


def test_R_CARD_2_excuse_is_not_a_trump_for_following_or_trumping():
    # void in hearts with only the Excuse and a club: not forced to "trump" with the Excuse
    assert legal("EX 3C", "5H") == "EX 3C"
    # trumps led, holds only the Excuse and suit cards: any card (R-PLAY-4d)
    assert legal("EX 3C 4D", "T5") == "EX 4D 3C"


def test_R_CARD_2_excuse_never_wins_a_trick():
    assert trick_winner(C("5H EX 2H")) == 0
    assert trick_winner(C("EX 2H 5H")) == 2


# ---------------------------------------------------------------- R-PLAY-3


def test_R_PLAY_3_led_suit_is_the_first_card_that_is_not_the_excuse():
    # Excuse led, then 5H: hearts are led, 3rd player must follow hearts
    assert legal("2H KS T4", "EX 5H") == "2H"
    assert trick_winner(C("EX 5H KS 2H")) == 1


def test_R_PLAY_3_after_an_excuse_lead_the_second_player_is_free():
    assert legal("2H KS T4", "EX") == "T4 KS 2H"


# ---------------------------------------------------------------- R-PLAY-4


def test_R_PLAY_4a_follow_the_led_suit_at_any_rank():
    assert legal("T3 2H KH 4S", "9H") == "2H KH"
    allowed, rule, reason = play_duty(C("T3 2H KH 4S"), C("9H"))
    assert rule == "R-PLAY-4a" and reason == "must follow hearts: holds 2H"


def test_R_PLAY_4b_void_must_trump():
    assert legal("T3 T9 4S", "9H") == "T3 T9"
    assert play_duty(C("T3 T9 4S"), C("9H"))[1:] == ("R-PLAY-4b", "must trump: void in hearts, holds T3")


def test_R_PLAY_4b_must_overtrump_when_a_trump_is_in_the_trick():
    assert legal("T3 T17 4S", "9H T12") == "T17"
    assert play_duty(C("T3 T17 4S"), C("9H T12"))[1:] == ("R-PLAY-4b", "must overtrump: holds T17 above T12")


def test_R_PLAY_4b_must_undertrump_when_unable_to_overtrump():
    assert legal("T3 T5 4S", "9H T12") == "T3 T5"
    assert play_duty(C("T3 T5 4S"), C("9H T12"))[1] == "R-PLAY-4b"


def test_R_PLAY_4c_trump_led_must_overtrump_or_else_any_trump():
    assert legal("T3 T17 T20 4S", "T12") == "T17 T20"
    assert legal("T3 T5 4S", "T12") == "T3 T5"
    assert legal("T3 T17 4S", "T12 T18") == "T3 T17"   # highest in the trick is T18
    assert play_duty(C("T3 T17"), C("T12"))[1:] == ("R-PLAY-4c", "must overtrump: holds T17 above T12")


def test_R_PLAY_4d_neither_suit_nor_trump_any_card():
    assert legal("EX 4S KD", "9H") == "EX 4S KD"
    assert legal("4S KD", "T9") == "4S KD"


def test_R_PLAY_4e_overtrumping_is_due_whoever_wins_the_trick():
    # the duty does not depend on who holds the T12: a partner's trump must be overtrumped too
    assert legal("T3 T17", "9H T12 2H") == "T17"
    assert legal("T3 T17", "T12 T2") == "T17"


def test_R_EXC_1_excuse_is_always_allowed():
    assert legal("EX 2H KH", "9H") == "EX 2H KH"
    assert legal("EX T3 T17", "9H T12") == "EX T17"
    assert legal("EX T3 T17", "T12") == "EX T17"


# ---------------------------------------------------------------- R-PLAY-5


def test_R_PLAY_5_highest_trump_else_highest_of_led_suit():
    assert trick_winner(C("9H T2 KH T1")) == 1
    assert trick_winner(C("9H 2H KS 10H")) == 3
    assert trick_winner(C("EX 9H KH")) == 2


def test_R_PLAY_5_excuse_wins_only_under_R_EXC_4():
    assert trick_winner(C("EX 9H KH"), excuse_wins=True) == 0
    with pytest.raises(ValueError):
        trick_winner(C("9H EX KH"), excuse_wins=True)


# ---------------------------------------------------------------- R-CALL-4


def test_R_CALL_4_called_suit_barred_at_the_opening_lead():
    kh = Card.parse("KH")
    hand = "T4 2H 5H KH 3S"
    assert legal(hand, "", called=kh, first_trick=True) == "T4 3S KH"   # the called card itself is allowed
    allowed, rule, reason = play_duty(C(hand), [], called=kh, first_trick=True)
    assert rule == "R-CALL-4" and "called suit" in reason
    # only the opening lead of trick 1
    assert legal(hand, "", called=kh, first_trick=False) == "T4 3S 2H 5H KH"


def test_R_CALL_4_ban_lifted_when_he_has_no_other_card():
    kh = Card.parse("KH")
    assert legal("2H 5H", "", called=kh, first_trick=True) == "2H 5H"
    # the Excuse is "another card": he must lead it (or the called card)
    assert legal("EX 2H 5H", "", called=kh, first_trick=True) == "EX"


def test_R_CALL_4_restricts_the_led_card_only():
    kh = Card.parse("KH")
    # followers play hearts freely when hearts are led later
    assert legal("2H 5H T4", "KH", called=kh, first_trick=True) == "2H 5H"


def test_R_CALL_4_after_an_excuse_lead_free_by_default_restricted_by_option():
    kh = Card.parse("KH")
    hand = "T4 2H 5H 3S"
    assert legal(hand, "EX", called=kh, first_trick=True) == "T4 3S 2H 5H"
    assert legal(hand, "EX", called=kh, first_trick=True,
                 called_suit_after_excuse="restricted") == "T4 3S"
    # the third player is bound by R-PLAY-4 only
    assert legal(hand, "EX 9H", called=kh, first_trick=True,
                 called_suit_after_excuse="restricted") == "2H 5H"
