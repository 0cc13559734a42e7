"""Card notation (DESIGN §2), card values (RULES §1) and the Rules value (RULES §14)."""

import pytest

from tarotsim.cards import (DECK, DECK_HALF_POINTS, HALF_POINTS, Card, CardError, cards_of, format_points,
                            masks_of, parse_cards)
from tarotsim.rules import OPTION_SPECS, RV_LEN, Rules, RulesError


def test_notation_round_trip_all_78():
    assert len(DECK) == 78
    names = [str(c) for c in DECK]
    assert len(set(names)) == 78
    for c in DECK:
        assert Card.parse(str(c)) is c
        assert Card.parse(str(c).lower()) is c


def test_the_printed_name_reads_back_only_when_asked():
    """``Card.parse(c.pretty(), pretty=True) is c`` for all 78 (``K♥``, ``10♠``: what a person types
    or pastes from tarotsim's output); without ``pretty`` a suit symbol is no card (records keep
    the notation of DESIGN §2)."""
    for c in DECK:
        assert Card.parse(c.pretty(), pretty=True) is c and Card.parse(str(c), pretty=True) is c
    assert parse_cards("K♥, 10♠ t21 ex", pretty=True) == parse_cards("KH 10S T21 EX")
    with pytest.raises(CardError, match="unknown card 'K♥'"):
        Card.parse("K♥")
    with pytest.raises(CardError, match=r"\+ S, H, D, C or ♠ ♥ ♦ ♣\)"):
        Card.parse("Z♥", pretty=True)


@pytest.mark.parametrize("bad", ["11H", "T22", "T0", "KX", "", "E", "0S", "KHH"])
def test_bad_card_names_are_rejected(bad):
    with pytest.raises(CardError):
        Card.parse(bad)


def test_R_CARD_1_suits_and_trumps():
    assert sum(c.is_trump for c in DECK) == 21
    assert sum(c.suit == s for c in DECK for s in range(4)) == 56
    assert Card.parse("KH").rank == 14 and Card.parse("1H").rank == 1
    assert Card.parse("NS").rank == 12 and Card.parse("JS").rank == 11 and Card.parse("QS").rank == 13


def test_R_CARD_2_excuse_is_not_a_trump():
    ex = Card.parse("EX")
    assert ex.is_excuse and not ex.is_trump and ex.suit is None


def test_R_CARD_3_oudlers():
    assert {str(c) for c in DECK if c.is_oudler} == {"EX", "T1", "T21"}


def test_R_CARD_4_points_and_R_GEN_4_deck_is_182_half_points():
    assert int(HALF_POINTS.sum()) == DECK_HALF_POINTS == 182
    expect = {"EX": 9, "T1": 9, "T21": 9, "KS": 9, "QH": 7, "ND": 5, "JC": 3, "10S": 1, "T20": 1, "1H": 1}
    for name, hp in expect.items():
        assert Card.parse(name).half_points == hp


def test_R_CARD_5_low_cards():
    assert Card.parse("T2").is_low and Card.parse("10H").is_low
    assert not Card.parse("JH").is_low and not Card.parse("T1").is_low


def test_masks_round_trip():
    cards = parse_cards("EX T1 T21 KS 1S KC 10D")
    tw, sw = masks_of(cards)
    assert tw == 1 | 2 | (1 << 21)
    assert cards_of(tw, sw) == sorted(cards)


def test_format_points():
    assert format_points(83) == "41.5" and format_points(82) == "41" and format_points(0) == "0"


def test_rules_defaults_are_official():
    r = Rules()
    assert r.table == "4" and r.non_default_options() == {}
    for name, (default, _, _) in OPTION_SPECS.items():
        assert getattr(r, name) == default
    assert len(r.to_vector()) == RV_LEN


def test_rules_options_from_cli_strings():
    r = Rules.from_options("5", {"misere": "on", "pab_multiplied": "false", "defence_slam_bonus": "0",
                                 "chien_gap_limit": "unlimited", "game_end": "1000"})
    assert r.misere is True and r.pab_multiplied is False and r.defence_slam_bonus == 0
    assert r.chien_gap_limit == "unlimited" and r.game_end == 1000
    assert r.non_default_options() == {"misere": True, "pab_multiplied": False, "defence_slam_bonus": 0,
                                       "chien_gap_limit": "unlimited", "game_end": 1000}


@pytest.mark.parametrize("table,opts", [("6", {}), ("4", {"misere": "maybe"}), ("4", {"nope": 1}),
                                        ("4", {"defence_slam_bonus": "150"}), ("4", {"misere_value": "-3"}),
                                        ("4", {"two_player": True}), ("4", {"game_end": "0"})])
def test_rules_reject_bad_values(table, opts):
    with pytest.raises(RulesError):
        Rules.from_options(table, opts)


def test_R_GEN_1_tables_and_seats():
    assert [Rules(t).n_seats for t in ("3", "4", "5", "5d", "2")] == [3, 4, 5, 5, 2]
    assert [Rules(t).n_active for t in ("3", "4", "5", "5d", "2")] == [3, 4, 5, 4, 2]
    assert Rules("2").two_player
