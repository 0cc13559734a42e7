"""The rule tables of ``tarotsim.rules`` and their one helper per fact: the contract table
(R-BID-1, R-CHIEN-1 to R-CHIEN-4) with its kernel arrays, and what a play shows (R-PLAY-4a to
R-PLAY-4d, R-EXC-1), the Python function against the kernels' compiled step and against a plain
reading of the rules on cards."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from numba import njit

from tarotsim._kernels.steps import after_card_played, shown_by_play
from tarotsim.cards import DECK, Card
from tarotsim.rules import (CONTRACT_OF, CONTRACT_TABLE, CONTRACTS, KERNEL_CHIEN_SHOWN, KERNEL_CHIEN_TO_ATTACK,
                            KERNEL_ECART_MADE, KERNEL_MULTIPLIER, LED_NONE, LED_TRUMPS, MULTIPLIERS, NO_CEILING,
                            VOID_TRUMPS, after_play, play_shows)


# --- the contract table ------------------------------------------------------------------------

def test_R_BID_1_contracts_low_to_high_and_their_multipliers():
    assert CONTRACTS == ("prise", "garde", "garde_sans", "garde_contre")
    assert MULTIPLIERS == (1, 2, 4, 6)
    assert [CONTRACT_OF[name].multiplier for name in CONTRACTS] == [1, 2, 4, 6]


@pytest.mark.parametrize("name", ["prise", "garde"])
def test_R_CHIEN_1_prise_and_garde_show_the_chien_and_make_an_ecart(name):
    c = CONTRACT_OF[name]
    assert c.chien_shown and c.ecart_made and c.chien_to == "attack"


def test_R_CHIEN_3_garde_sans_the_unseen_chien_is_the_attacks():
    c = CONTRACT_OF["garde_sans"]
    assert not c.chien_shown and not c.ecart_made and c.chien_to == "attack"


def test_R_CHIEN_4_garde_contre_the_unseen_chien_is_the_defences():
    c = CONTRACT_OF["garde_contre"]
    assert not c.chien_shown and not c.ecart_made and c.chien_to == "defence"


def test_the_kernel_arrays_are_the_contract_table_by_contract_code():
    for code, c in enumerate(CONTRACT_TABLE):
        assert CONTRACTS[code] == c.name
        assert KERNEL_MULTIPLIER[code] == c.multiplier
        assert KERNEL_CHIEN_SHOWN[code] == c.chien_shown
        assert KERNEL_ECART_MADE[code] == c.ecart_made
        assert KERNEL_CHIEN_TO_ATTACK[code] == (c.chien_to == "attack")
    for arr in (KERNEL_MULTIPLIER, KERNEL_CHIEN_SHOWN, KERNEL_ECART_MADE, KERNEL_CHIEN_TO_ATTACK):
        assert arr.dtype == np.int64 and arr.shape == (len(CONTRACT_TABLE),)


# --- what a play shows -------------------------------------------------------------------------

def _signs_from_the_rules(trick_before: list[Card], card: Card, voids: set, ceiling: int) -> tuple[set, int]:
    """What ``card`` shows, read off RULES §6 on cards: the twin of ``play_shows``. ``voids`` holds
    suits 0..3 and ``"trumps"``."""
    led = next((c for c in trick_before if not c.is_excuse), None)
    if card.is_excuse or led is None:  # R-EXC-1; R-PLAY-3: the player who fixes the suit is free
        return voids, ceiling
    voids = set(voids)
    followed = (card.is_trump and led.is_trump) or (not led.is_trump and card.suit == led.suit)
    if followed and not card.is_trump:
        return voids, ceiling
    if not led.is_trump and card.suit != led.suit:
        voids.add(led.suit)  # R-PLAY-4a: he had to follow
    if not card.is_trump:
        return voids | {"trumps"}, 0  # R-PLAY-4b, R-PLAY-4c: he had to trump; R-PLAY-4d: he holds none
    best = max((c.rank for c in trick_before if c.is_trump), default=0)
    if card.rank < best:  # R-PLAY-4b, R-PLAY-4c: he had to overtrump when he could
        ceiling = min(ceiling, best)
    return voids, ceiling


def _as_bits(voids: set) -> int:
    return sum(1 << s for s in voids if s != "trumps") | (VOID_TRUMPS if "trumps" in voids else 0)


def _state(trick: list[Card]) -> tuple[int, int]:
    led, top = LED_NONE, 0
    for c in trick:
        led, top = after_play(c.id, led, top)
    return led, top


#: tricks so far of one to three cards: every lead kind, an Excuse lead, trumps in the trick
_TRICKS = [[Card.parse(x) for x in t.split()] for t in (
    "", "KH", "3C", "T5", "EX", "EX 7D", "KH T12", "T12 T3", "5S EX", "QD 2D T21", "T9 EX T17", "1H T2 T20")]


@pytest.mark.parametrize("trick", _TRICKS, ids=[" ".join(map(str, t)) or "empty" for t in _TRICKS])
def test_play_shows_reads_the_rules_for_every_card(trick):
    """R-PLAY-4a, R-PLAY-4b, R-PLAY-4c, R-PLAY-4d, R-EXC-1: every card after every kind of trick
    start, against the plain reading on cards."""
    led, top = _state(trick)
    for card in DECK:
        if card in trick:
            continue
        for voids, ceiling in ((set(), NO_CEILING), ({1}, 15), ({0, 3, "trumps"}, 0)):
            want_v, want_c = _signs_from_the_rules(trick, card, voids, ceiling)
            got_v, got_c = play_shows(card.id, led, top, _as_bits(voids), ceiling)
            assert (got_v, got_c) == (_as_bits(want_v), want_c), (card, voids, ceiling)


def test_R_PLAY_4a_not_following_shows_a_void_in_the_led_suit():
    led, top = _state([Card.parse("KH")])
    voids, ceiling = play_shows(Card.parse("T4").id, led, top, 0, NO_CEILING)
    assert voids == 1 << 1 and ceiling == NO_CEILING


def test_R_PLAY_4b_a_plain_card_on_a_plain_lead_shows_no_trump():
    led, top = _state([Card.parse("KH")])
    assert play_shows(Card.parse("2C").id, led, top, 0, NO_CEILING) == ((1 << 1) | VOID_TRUMPS, 0)


def test_R_PLAY_4c_an_undertrump_shows_no_trump_above_the_best_one():
    led, top = _state([Card.parse("T12")])
    assert play_shows(Card.parse("T3").id, led, top, 0, NO_CEILING) == (0, 12)
    assert play_shows(Card.parse("T15").id, led, top, 0, NO_CEILING) == (0, NO_CEILING)


def test_R_PLAY_4d_no_trump_on_a_trump_lead_shows_no_trump():
    led, top = _state([Card.parse("T12")])
    assert play_shows(Card.parse("KS").id, led, top, 0, NO_CEILING) == (VOID_TRUMPS, 0)


def test_R_EXC_1_the_excuse_and_the_free_player_show_nothing():
    led, top = _state([Card.parse("KH")])
    assert play_shows(0, led, top, 5, 9) == (5, 9)
    led, top = _state([Card.parse("EX")])
    assert led == LED_NONE
    assert play_shows(Card.parse("3D").id, led, top, 0, NO_CEILING) == (0, NO_CEILING)  # R-PLAY-3


def test_after_play_fixes_the_led_suit_at_the_first_card_but_the_excuse():
    assert _state([Card.parse("EX"), Card.parse("7D")]) == (2, 0)
    assert _state([Card.parse("T9"), Card.parse("EX"), Card.parse("T17")]) == (LED_TRUMPS, 17)


@njit(cache=True)
def _kernel_grid(voids, ceiling, out):
    """``steps.shown_by_play`` and ``steps.after_card_played`` on every card, led suit and top."""
    k = 0
    for c in range(78):
        for led in range(-1, 5):
            for top in range(22):
                v, cl = shown_by_play(np.int64(c), np.int64(led), np.int64(top), voids, ceiling)
                ld, tp = after_card_played(np.int64(c), np.int64(led), np.int64(top))
                out[k, 0] = v
                out[k, 1] = cl
                out[k, 2] = ld
                out[k, 3] = tp
                k += 1


def test_the_kernels_compile_the_very_play_shows():
    """The kernels' steps give what the Python functions give, on every card, led suit and top trump."""
    for voids, ceiling in ((0, NO_CEILING), (0b01010, 13), (31, 0)):
        out = np.zeros((78 * 6 * 22, 4), dtype=np.int64)
        _kernel_grid(np.int64(voids), np.int64(ceiling), out)
        want = [play_shows(c, led, top, voids, ceiling) + after_play(c, led, top)
                for c, led, top in itertools.product(range(78), range(-1, 5), range(22))]
        assert out.tolist() == [list(w) for w in want]


# --- the écart, card by card -------------------------------------------------------------------

def _at_the_ecart(table: str, index: int):
    """A game at its écart (a garde forced on the first seat to speak), or None when the deal is
    annulled first (petit sec)."""
    from tarotsim.engine import Game
    from tarotsim.rules import Rules

    rules = Rules(table)
    first = (index % rules.n_seats + 1) % rules.n_seats
    if table == "5d" and first == index % 5:
        first = (first + 1) % 5
    game = Game(rules, seed=25, index=index, forced=(first, "garde"))
    while game.decision is not None and game.decision.kind != "ecart":
        game.apply(game.legal_actions()[0])
    return game if game.decision is not None else None


def test_R_CHIEN_2_trumps_only_when_short():
    from tarotsim.rules import ecart_trumps_needed
    assert [ecart_trumps_needed(6, n) for n in (9, 6, 5, 0)] == [0, 0, 1, 6]
    assert ecart_trumps_needed(3, 2) == 1


def _short_of_plain_cards():
    """A table-4 game at the écart whose taker (seat 1, a garde) holds one eligible non-trump: the
    écart must take five trumps (R-CHIEN-2)."""
    from tarotsim.engine import Game
    from tarotsim.rules import Rules

    taker = [f"T{t}" for t in range(2, 16)] + ["KS", "KH", "KD", "KC"]
    chien = ["T16", "T17", "T18", "T19", "T20", "1S"]
    rest = [str(c) for c in DECK if str(c) not in taker + chien]
    hands = [rest[0:18], taker, rest[18:36], rest[36:54]]
    game = Game(Rules("4"), hands=hands, chien=chien, dealer=0, forced=(1, "garde"))
    assert game.decision.kind == "ecart" and game._deal.ecart_trumps_needed() == 5
    return game


@pytest.mark.parametrize("table", ["3", "4", "5", "5d", "2", "4-short"])
def test_R_CHIEN_2_every_order_of_picks_the_rule_allows_is_a_legal_ecart(table):
    """The single picks ``ecart_pick_choices`` allows, in any order drawn, always make an écart the
    reference engine accepts; and every card of a legal écart is allowed at its turn, whatever the
    order (so the rule picks neither more nor fewer écarts than R-CHIEN-2 allows)."""
    import random

    from tarotsim.cards import cards_of, masks_of
    from tarotsim.rules import ecart_pick_choices

    rnd = random.Random(table)
    checked = 0
    for index in range(1 if table == "4-short" else 12):
        game = _short_of_plain_cards() if table == "4-short" else _at_the_ecart(table, index)
        if game is None:
            continue
        d = game._deal
        seat = game.decision.seat
        normal, trumps = masks_of(d.ecart_normal())[1], masks_of(d.ecart_trump_choices())[0]
        needed = d.ecart_trumps_needed()

        def allowed(picks, normal=normal, trumps=trumps, needed=needed):
            pt, ps = masks_of(picks)
            return cards_of(*ecart_pick_choices(normal, trumps, needed, pt, ps, sum(c.is_trump for c in picks)))

        for _ in range(20):
            picks = []
            while len(picks) < d.ecart_size:
                picks.append(rnd.choice(allowed(picks)))
            assert d.is_legal_ecart(seat, picks), picks
            order = picks[:]
            rnd.shuffle(order)
            assert all(c in allowed(order[:k]) for k, c in enumerate(order)), order
            checked += 1
        # the env kernel's mask and the facade's ids are the same rule
        assert game.legal_action_ids() == [c.id for c in allowed([])]
    assert checked >= (20 if table == "4-short" else 100)
