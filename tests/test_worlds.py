"""The world sampler (``tarotsim.worlds``, ``tarotsim._kernels.worlds``).

* Every sampled world is consistent: checked by :class:`helpers_worlds.FastChecker` (all of them,
  more than a million over the module) and by the reference engine's replay (a few per position),
  over random deals and histories at tables 3, 4, 5 and 5d; the true world always passes; the two
  checkers agree on worlds the sampler did not make.
* One test per kind of constraint, named after its rule id, on positions built for it.
* The law is uniform: on small late positions the number of worlds equals exact enumeration, and
  each card's location frequencies (and the worlds' frequencies) match the exact law.
* Samples depend only on what the seat sees: two deals with the same view give the same samples.
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from hypothesis import assume, given, settings
from numba import njit
from hypothesis import strategies as st

from helpers_worlds import (CHECKED, SEED, FastChecker, built_game, check_worlds, frequencies_match, held,
                            near_misses, placements, play, random_position, replay_consistent, suit_of, true_row,
                            world_frequencies_match, worlds_of)
from tarotsim.cards import DECK, Card, parse_cards
from tarotsim.adapters import FastBotAdapter
from tarotsim.engine import Game
from tarotsim.reference.bot import RandomBot
from tarotsim.rng import STREAM_BOTS, Rng, dealing_order
from tarotsim.rules import Rules
from tarotsim.worlds import PILE, WorldsError, constraints, knowledge, sample
from tarotsim._kernels import worlds as W

TABLES_CHECKED = set()


@pytest.fixture(scope="module", autouse=True)
def _worlds_checked():
    """When the random-deal test ran at every table, the module checked a million worlds."""
    yield
    print(f"\nworlds checked: {CHECKED['fast']} by the fast checker, {CHECKED['replay']} by replay")
    if TABLES_CHECKED == {"3", "4", "5", "5d"}:
        assert CHECKED["fast"] >= 1_000_000


CONTRACT_OR_AUCTION = st.sampled_from([None, "prise", "garde", "garde_sans", "garde_contre"])


@pytest.mark.parametrize("table", ["3", "4", "5", "5d"])
@settings(max_examples=40)
@given(index=st.integers(0, 10 ** 6), frac=st.floats(0.0, 0.97), contract=CONTRACT_OR_AUCTION,
       taker=st.integers(0, 4), seat=st.integers(0, 4), misere=st.booleans())
def test_every_sampled_world_is_consistent(table, index, frac, contract, taker, seat, misere):
    """Random deals and histories (random bot), every decision stage: all worlds pass both
    checkers, the true world too, and the two checkers agree on near misses."""
    options = {"misere": True} if misere else {}
    game = random_position(table, index, frac, None if contract is None else (taker, contract), options)
    assume(not game.done)
    seat = seat % game.rules.n_seats
    worlds, checker = check_worlds(game, seat, 6000, seed=index)
    rnd = random.Random(index)
    view = game.view(seat)
    for row in near_misses(worlds.locations, rnd, 6):
        assert bool(checker.check(row[None, :])[0]) == replay_consistent(game.rules, view, row)
    CHECKED["replay"] += 6
    TABLES_CHECKED.add(table)


@pytest.mark.parametrize("table, index", [("4", 2), ("4", 4), ("5", 1)])
def test_worlds_of_heuristic_deals(table, index):
    """Deals played by the heuristic bot (its bids, écarts, poignées): every seat, every sixth
    decision."""
    rules = Rules(table=table)
    game = Game(rules, seed=SEED, index=index)
    bot = FastBotAdapter("heuristic")
    rng = Rng.for_deal(SEED, index, STREAM_BOTS)
    k = 0
    while not game.done:
        if k % 6 == 0:
            for seat in range(rules.n_seats):
                check_worlds(game, seat, 3000, seed=k, replays=1)
        d = game.decision
        game.apply(bot.choose(game.view(d.seat), game.legal_actions(), rng))
        k += 1


# ---------------------------------------------------------------------------------------------
# the law: exact counts and uniform draws

def _synthetic(rnd, n_cards, n_locs):
    """Constraints made up directly (no deal): a true world, then allowed sets that contain it."""
    cons = np.zeros(W.C_LEN, dtype=np.int64)
    for s in range(5):
        cons[W.C_CEILING + s] = 21
    cards = rnd.sample(range(78), n_cards)
    locs = rnd.sample(range(W.N_LOC), n_locs)
    for c in cards:
        true = rnd.choice(locs)
        mask = 1 << true
        for l in locs:
            if rnd.random() < 0.55:
                mask |= 1 << l
        cons[W.C_ALLOWED + c] = mask
        cons[W.C_COUNTS + true] += 1
    return cons, sorted(cards)


def _enumerate(cons, cards):
    """Every world the location sets of ``cons`` allow, by brute force: int8[n_worlds, 78]."""
    counts = [int(cons[W.C_COUNTS + l]) for l in range(W.N_LOC)]
    choices = [[l for l in range(W.N_LOC) if cons[W.C_ALLOWED + c] >> l & 1] for c in cards]
    rows = []
    for combo in itertools.product(*choices):
        if all(combo.count(l) == counts[l] for l in range(W.N_LOC)):
            row = np.full(78, -1, dtype=np.int8)
            row[cards] = combo
            rows.append(row)
    return np.array(rows, dtype=np.int8)


def _draw(cons, n, seed):
    wf, wi = W.new_workspace()
    out = np.empty((n, 78), dtype=np.int8)
    status, _ = W.sample_worlds(cons, np.uint64(seed), out, wf, wi)
    assert status == W.OK
    return out


@pytest.mark.slow
@settings(max_examples=60)
@given(seed=st.integers(0, 2 ** 32), n_cards=st.integers(1, 8), n_locs=st.integers(1, 5))
def test_count_and_law_equal_brute_force_on_made_up_constraints(seed, n_cards, n_locs):
    """Any location sets (any classes, any order of the count tables, the nested tail): the
    count equals brute-force enumeration, and when the worlds are few their frequencies pass a
    chi-square test against the uniform law."""
    rnd = random.Random(seed)
    cons, cards = _synthetic(rnd, n_cards, n_locs)
    exact = _enumerate(cons, cards)
    wf, wi = W.new_workspace()
    status, count = W.count_worlds(cons, wf, wi)
    assert status == W.OK
    assert round(count) == len(exact)
    if len(exact) <= 300:
        worlds = _draw(cons, 40 * len(exact), seed)
        assert world_frequencies_match(worlds, exact) > 1e-4


def test_no_world_is_an_error():
    """Location sets that no world satisfies give ERR_NO_WORLD, not a wrong world."""
    cons = np.zeros(W.C_LEN, dtype=np.int64)
    cons[W.C_ALLOWED + 5] = 0b11
    cons[W.C_ALLOWED + 6] = 0b11
    cons[W.C_COUNTS + 0] = 1
    cons[W.C_COUNTS + 2] = 1   # a place no card may go to
    wf, wi = W.new_workspace()
    assert W.count_worlds(cons, wf, wi)[0] == W.ERR_NO_WORLD
    out = np.empty((3, 78), dtype=np.int8)
    assert W.sample_worlds(cons, np.uint64(1), out, wf, wi)[0] == W.ERR_NO_WORLD


def _all_rows(game, seat):
    """Every placement of the cards ``seat`` cannot place (hand sizes respected): int8[n, 78]."""
    cons = constraints(game, seat)
    locs = list(range(len(cons.counts) - 1)) + [PILE]
    return placements(cons, locs, list(cons.counts))


def late_position(table, index, left, forced):
    """Deal ``(SEED, index)`` played by the random bot until ``left`` cards are left in the hands."""
    rules = Rules(table=table)
    order = dealing_order(rules, index % rules.n_seats)
    game = Game(rules, seed=SEED, index=index, forced=(order[forced[0]], forced[1]))
    bot = RandomBot(Rng.for_deal(SEED, index, STREAM_BOTS))
    while not game.done and sum(len(h) for h in game._deal.hands) > left:
        bot.act(game._deal, game._deal.decision())
    return game


LATE = [("3", 5, 8, (0, "garde")), ("4", 11, 6, (1, "garde_sans")), ("4", 2, 8, (2, "prise")),
        ("5", 4, 7, (3, "garde_contre")), ("5", 9, 10, (0, "garde")), ("5d", 7, 6, (1, "garde"))]


@pytest.mark.slow
@pytest.mark.parametrize("table, index, left, forced", LATE)
def test_late_positions_match_exact_enumeration(table, index, left, forced):
    """Small late positions, every seat: the worlds the replay oracle accepts are exactly those
    the fast checker accepts (on every placement); the sampler's count equals theirs (before
    the petit-sec rejection); each card's location frequency over 40,000 draws lies within
    the family-wise bound of its exact probability (see below); the worlds' frequencies pass a
    chi-square test when they are few."""
    game = late_position(table, index, left, forced)
    assert not game.done
    for seat in range(game.rules.n_seats):
        view = game.view(seat)
        rows = _all_rows(game, seat)
        assert len(rows) <= 200_000
        checker = FastChecker(game.rules, view)
        ok = checker.check(rows)
        rnd = random.Random(seat)
        for i in rnd.sample(range(len(rows)), min(25, len(rows))):
            assert bool(ok[i]) == replay_consistent(game.rules, view, rows[i])
        CHECKED["replay"] += min(25, len(rows))
        exact = rows[ok]
        assert len(exact) >= 1
        know = knowledge(view, game.rules)
        cons = np.zeros(W.C_LEN, dtype=np.int64)
        W.derive(game.rules.to_vector(), know, cons)
        wf, wi = W.new_workspace()
        _, count = W.count_worlds(cons, wf, wi)
        if not any(cons[W.C_PSEC_ON:W.C_PSEC_ON + 5]):
            assert round(count) == len(exact)
        else:
            assert round(count) >= len(exact)
        n = 40_000
        worlds = sample(game, seat, n, seed=index * 10 + seat).locations
        CHECKED["fast"] += n
        assert checker.check(worlds).all()
        frequencies_match(worlds, exact)
        if len(exact) <= 2000:
            assert world_frequencies_match(worlds, exact) > 1e-4


# ---------------------------------------------------------------------------------------------
# one test per kind of constraint, on positions built for it


def trump_above(t):
    return lambda c: c.is_trump and c.rank > t


def is_trump_or_excuse(c):
    return c.id < 22


def both(*preds):
    return lambda c: any(p(c) for p in preds)


# table 4, dealer 3: seat 0 leads trick 1; garde sans by seat 3 (no écart) unless said otherwise
GS = (3, "garde_sans")


def test_R_PLAY_4a_a_seat_that_does_not_follow_is_void():
    game = built_game("4", 3, {0: ["1S"]}, {1: suit_of("S")}, forced=GS)
    play(game, "1S", "?")
    assert constraints(game, 2).voids[1] == frozenset("S")
    locs = worlds_of(game, 2)
    assert not held(locs, 1, suit_of("S")).any()
    assert held(locs, 3, suit_of("S")).any() and held(locs, 0, suit_of("S")).any()


def test_R_PLAY_4b_R_PLAY_4d_neither_following_nor_trumping_shows_no_trump():
    game = built_game("4", 3, {0: ["1S"]}, {1: both(suit_of("S"), is_trump_or_excuse)}, forced=GS)
    play(game, "1S", "?")
    c = constraints(game, 0)
    assert c.trump_ceiling[1] == 0 and 1 in c.no_trump and c.voids[1] == frozenset("S")
    locs = worlds_of(game, 0)
    assert not held(locs, 1, lambda k: k.is_trump).any()
    assert held(locs, 1, lambda k: k.is_excuse).any()   # the Excuse is no trump (R-CARD-2)


def test_R_PLAY_4b_R_PLAY_4c_trumping_under_shows_a_trump_ceiling():
    game = built_game("4", 3, {0: ["1S"], 1: ["T15"], 2: ["T5"], 3: ["T11", "T12", "T13", "T14"]},
                      {1: suit_of("S"), 2: both(suit_of("S"), trump_above(10))}, forced=GS)
    play(game, "1S", "T15", "T5")
    c = constraints(game, 0)
    assert c.voids[2] == frozenset("S") and c.trump_ceiling[2] == 15
    assert c.voids[1] == frozenset("S") and c.trump_ceiling[1] is None   # the first trump was free
    locs = worlds_of(game, 0)
    assert not held(locs, 2, trump_above(15)).any()
    assert held(locs, 2, lambda k: k.is_trump and 10 < k.rank < 15).any()   # not seen: allowed


def test_R_PLAY_4c_a_lower_trump_on_a_trump_lead_shows_a_trump_ceiling():
    game = built_game("4", 3, {0: ["T18"], 1: ["T3"]}, {1: trump_above(17)}, forced=GS)
    play(game, "T18", "T3")
    assert constraints(game, 2).trump_ceiling[1] == 18
    locs = worlds_of(game, 2)
    assert not held(locs, 1, trump_above(18)).any()
    assert held(locs, 3, trump_above(18)).any()


def test_R_PLAY_4d_no_trump_on_a_trump_lead_shows_no_trump():
    game = built_game("4", 3, {0: ["T18"]}, {1: is_trump_or_excuse}, forced=GS)
    play(game, "T18", "?")
    assert constraints(game, 3).trump_ceiling[1] == 0
    assert not held(worlds_of(game, 3), 1, is_trump_or_excuse).any()


def test_R_EXC_1_the_excuse_shows_nothing():
    game = built_game("4", 3, {0: ["1S"], 1: ["EX", "2S"]}, forced=GS)
    play(game, "1S", "EX")
    c = constraints(game, 0)
    assert c.voids[1] == frozenset() and c.trump_ceiling[1] is None
    locs = worlds_of(game, 0)
    assert held(locs, 1, suit_of("S")).any() and held(locs, 1, lambda k: k.is_trump).any()


def test_R_PLAY_3_the_card_after_an_excuse_lead_is_free():
    game = built_game("4", 3, {0: ["EX"], 1: ["2H", "2S"]}, {2: suit_of("H")}, forced=GS)
    play(game, "EX", "2H", "?")
    c = constraints(game, 3)
    assert c.voids[1] == frozenset() and c.trump_ceiling[1] is None   # 2H was free
    assert c.voids[2] == frozenset("H")                                # then hearts were led
    locs = worlds_of(game, 3)
    assert held(locs, 1, suit_of("S")).any() and not held(locs, 2, suit_of("H")).any()


PRISE_CHIEN = ["KH", "T7", "3C", "4C", "5C", "6C"]


def _prise_game():
    """Prise by seat 3 with a known chien; the écart takes 3C, 4C and four plain cards of his."""
    game = built_game("4", 3, {"chien": PRISE_CHIEN}, {3: both(is_trump_or_excuse, lambda c: c.rank == 14)},
                      forced=(3, "prise"))
    own = [c for c in game.hand(3) if c.suit is not None and c.rank != 14 and c not in parse_cards(PRISE_CHIEN)]
    game.discard(parse_cards("3C 4C") + own[:4])
    game.announce_chelem(False)
    return game


def test_R_CHIEN_1_the_shown_chien_is_with_the_taker_or_in_the_ecart():
    game = _prise_game()
    c = constraints(game, 0)
    assert c.pile == "ecart"
    assert c.known[Card.parse("KH")] == 3 and c.known[Card.parse("T7")] == 3
    for name in ("3C", "4C", "5C", "6C"):
        assert c.allowed[Card.parse(name)] == frozenset({3, PILE})
    locs = worlds_of(game, 0)
    five = locs[:, Card.parse("5C").id]
    assert (five == 3).any() and (five == PILE).any()
    # the taker knows his écart: no hidden pile for him
    assert constraints(game, 3).pile == "ecart" and not any(PILE in a for a in constraints(game, 3).allowed.values())


def test_R_CHIEN_2_the_ecart_holds_no_king_no_oudler_and_no_trump_unless_shown():
    game = _prise_game()
    locs = worlds_of(game, 1)
    assert not held(locs, PILE, lambda k: k.id < 22 or k.rank == 14).any()
    assert held(locs, PILE, lambda k: k.suit is not None and k.rank < 14 and k.suit != 3).any()


def test_R_CHIEN_2_trumps_in_the_ecart_mean_the_taker_kept_no_plain_card():
    kings_trumps = ["KS", "KH", "KD", "KC"] + [f"T{t}" for t in range(5, 17)] + ["2D", "3D"]
    game = built_game("4", 3, {3: kings_trumps, "chien": ["4D", "5D", "6D", "T2", "T3", "T4"]},
                      forced=(3, "garde"))
    assert game.ecart_choice().trumps_needed == 1
    game.discard(parse_cards("2D 3D 4D 5D 6D T2"))
    game.announce_chelem(False)
    c = constraints(game, 0)
    assert c.no_plain[3] and c.known[Card.parse("T2")] == PILE
    locs = worlds_of(game, 0)
    assert not held(locs, 3, lambda k: k.suit is not None and k.rank < 14).any()
    assert (locs[:, Card.parse("4D").id] == PILE).all()


@pytest.mark.parametrize("contract, rule", [("garde_sans", "R-CHIEN-3"), ("garde_contre", "R-CHIEN-4")])
def test_R_CHIEN_3_R_CHIEN_4_an_unseen_chien_is_one_more_hidden_pile(contract, rule):
    game = built_game("4", 3, {}, forced=(1, contract))
    play(game, "?", "?")
    for seat in (1, 2):   # the taker does not see it either
        c = constraints(game, seat)
        assert c.pile == "chien" and c.counts[-1] == 6
        locs = worlds_of(game, seat)
        assert held(locs, PILE, lambda k: k.rank == 14).any()        # kings, trumps: anything
        assert held(locs, PILE, lambda k: k.is_trump).any()


def _poignee_game(cards, holder_trumps):
    game = built_game("4", 3, {0: holder_trumps}, {0: lambda c: c.id < 22 and str(c) not in holder_trumps},
                      forced=GS)
    game.declare_poignee("simple", parse_cards(cards))
    return game


def test_R_POIG_2_the_shown_trumps_stay_with_their_holder():
    trumps = [f"T{t}" for t in range(2, 14)]   # 12 trumps, 10 shown
    shown = trumps[:10]
    game = _poignee_game(shown, trumps)
    play(game, "T2")
    c = constraints(game, 1)
    for name in shown[1:]:
        assert c.known[Card.parse(name)] == 0
    assert Card.parse("T12") in c.allowed and not c.poignee_excuse[0]
    worlds_of(game, 1)


def test_R_POIG_3_a_poignee_shown_with_the_excuse_means_no_other_trump():
    trumps = [f"T{t}" for t in range(2, 11)]   # 9 trumps and the Excuse
    game = _poignee_game(trumps + ["EX"], trumps + ["EX"])
    play(game, "T2")
    c = constraints(game, 2)
    assert c.poignee_excuse[0]
    locs = worlds_of(game, 2)
    shown = [Card.parse(t).id for t in trumps[1:]]
    others = [k.id for k in DECK if k.is_trump and k.id not in shown and k.id != 2]
    assert (locs[:, shown] == 0).all() and not (locs[:, others] == 0).any()


def test_R_MIS_1_misere_d_atout_and_de_tete_constrain_the_declarers_hand():
    faces = lambda c: c.suit is not None and c.rank >= 11   # noqa: E731
    game = built_game("4", 3, {0: ["1S"]}, {0: is_trump_or_excuse, 1: faces}, forced=GS,
                      options={"misere": True})
    game.declare_poignee(None)
    game.declare_misere(True)            # seat 0: misère d'atout
    play(game, "1S")
    game.declare_poignee(None)
    while game.decision.kind.startswith("misere"):
        game.declare_misere(game.decision.kind == "misere_tete")   # seat 1: misère de tête
    c = constraints(game, 2)
    assert c.trump_ceiling[0] == 0 and c.no_excuse[0] and c.no_honours[1]
    locs = worlds_of(game, 2)
    assert not held(locs, 0, is_trump_or_excuse).any()
    assert not held(locs, 1, faces).any()
    # the option: the Excuse does not bar misère d'atout, so it may be held
    game2 = built_game("4", 3, {0: ["1S", "EX"]}, {0: lambda c: c.is_trump}, forced=GS,
                       options={"misere": True, "misere_excuse_is_trump": False})
    game2.declare_poignee(None)
    game2.declare_misere(True)
    play(game2, "1S")
    assert not constraints(game2, 2).no_excuse[0]
    assert held(worlds_of(game2, 2), 0, lambda k: k.is_excuse).any()


def test_R_CALL_3_the_called_card_stays_hidden_until_played():
    # table 5, dealer 4: seat 0 takes a garde sans and calls KH, which lies in the chien
    game = built_game("5", 4, {"chien": ["KH"]}, {0: lambda c: c.rank == 14 and c.suit is not None},
                      forced=(0, "garde_sans"))
    game.call("KH")
    game.announce_chelem(False)
    play(game, "?")
    for seat in (0, 2):   # the taker does not know he is alone
        c = constraints(game, seat)
        kh = c.allowed[Card.parse("KH")]
        assert PILE in kh and len(kh) >= 3
        locs = worlds_of(game, seat)
        col = locs[:, Card.parse("KH").id]
        assert (col == PILE).any() and ((col >= 0) & (col < 5)).any()
    # the partner knows: here at the same table with the king in seat 2's hand
    game = built_game("5", 4, {2: ["KH"]}, {0: lambda c: c.rank == 14 and c.suit is not None},
                      forced=(0, "garde"))
    game.call("KH")
    assert constraints(game, 2).known[Card.parse("KH")] == 2
    # for a defender it may be anywhere but the écart (no king there, R-CHIEN-2), the taker's
    # hand included (R-CALL-1 lets him call his own king)
    assert constraints(game, 3).allowed[Card.parse("KH")] == frozenset({0, 1, 2, 4})


def test_R_DEAL_6_the_dummy_holds_nothing():
    game = random_position("5d", 12, 0.5, (0, "garde"))
    dummy = game.view(0).dealer
    for seat in range(5):
        if seat == dummy:
            continue
        assert constraints(game, seat).counts[dummy] == 0
        assert not (worlds_of(game, seat, 1000) == dummy).any()


def test_R_DEAL_1_every_location_keeps_its_count():
    game = built_game("4", 3, {}, forced=(2, "garde"))
    c = constraints(game, 0)   # the écart being made: the chien is in the taker's hand
    assert c.counts == (18, 18, 24, 18, 0) and c.pile is None
    locs = worlds_of(game, 0)
    assert ((locs == 2).sum(axis=1) == 24).all()


def test_R_DEAL_4_no_seat_was_dealt_a_petit_sec():
    # seat 1 holds T1 and the Excuse as its only trumps: it plays T1 on a trump lead, then shows
    # no trump; so it must still hold the Excuse, or it was dealt a petit sec
    game = built_game("4", 3, {0: ["T20", "T21"], 1: ["T1", "EX", "2H"]},
                      {1: lambda c: c.is_trump and c.rank > 1}, forced=GS)
    play(game, "T20", "T1", "?", "?")
    assert game.view(0).tricks[0][2] == 0
    play(game, "T21", "2H")
    c = constraints(game, 0)
    assert c.trump_ceiling[1] == 0 and 1 in c.petit_sec_checked
    assert Card.parse("EX") in c.allowed and 1 in c.allowed[Card.parse("EX")]
    locs = worlds_of(game, 0)
    assert (locs[:, 0] == 1).all()


# ---------------------------------------------------------------------------------------------
# what the samples depend on, where the kernels can be called from, arguments

@pytest.mark.parametrize("table, index, frac, forced", [
    ("4", 21, 0.5, (0, "prise")), ("5", 22, 0.4, (1, "garde_sans")), ("3", 23, 0.6, None),
    ("5d", 24, 0.3, (2, "garde")), ("5", 25, 0.1, (3, "garde"))])
def test_samples_depend_only_on_what_the_seat_sees(table, index, frac, forced):
    """A deal rebuilt from another world of the seat (the hidden cards placed otherwise, every
    public action the same) gives the seat the same view and the very same samples."""
    from helpers_worlds import rebuild
    game = random_position(table, index, frac, forced)
    assert not game.done
    for seat in range(game.rules.n_seats):
        view = game.view(seat)
        other = sample(game, seat, 50, seed=99).locations
        truth = true_row(game)
        row = next((r for r in other if not np.array_equal(r, truth)), None)
        if row is None:
            continue
        twin = Game(game.rules, hands=[[] if h is None else h for h in game._deal.initial_hands],
                    chien=game._deal.chien, dealer=game._deal.dealer)
        twin._deal = rebuild(game.rules, view, row)
        assert not np.array_equal(true_row(twin), truth)
        assert twin.view(seat) == view
        a = sample(game, seat, 500, seed=7)
        b = sample(twin, seat, 500, seed=7)
        assert np.array_equal(a.locations, b.locations) and a.state == b.state


@njit(_nrt=False, cache=True)
def _inside_a_kernel(rv, know, cons, st, out, wf, wi):
    W.derive(rv, know, cons)
    return W.sample_worlds(cons, st, out, wf, wi)


def test_the_kernels_run_inside_a_kernel_without_nrt():
    """A bot inside the deal kernel (compiled without NRT, allocating nothing) can derive the
    constraints and draw worlds: same worlds as from Python."""
    inside = _inside_a_kernel
    game = random_position("4", 31, 0.5, (1, "garde"))
    know = knowledge(game.view(2), game.rules)
    cons = np.zeros(W.C_LEN, dtype=np.int64)
    wf, wi = W.new_workspace()
    out = np.empty((100, 78), dtype=np.int8)
    status, st = inside(game.rules.to_vector(), know, cons, np.uint64(5), out, wf, wi)
    assert status == W.OK
    ref = sample(game, 2, 100, seed=5)
    assert np.array_equal(out, ref.locations) and int(st) == ref.state


def test_worlds_object_lists_the_hands():
    game = random_position("4", 41, 0.4, (3, "garde_contre"))
    worlds = sample(game, 1, 3, seed=2)
    assert len(worlds) == 3 and worlds.pile_kind == "chien"
    hands = worlds.hands(0)
    assert hands[1] == game.hand(1)
    assert sum(len(h) for h in hands) + len(worlds.pile(0)) + len(game.view(1).tricks) * 4 \
        + len(game.view(1).trick) == 78


@pytest.mark.parametrize("kwargs, message", [
    ({"seat": 4}, "seat"), ({"seat": -1}, "seat"), ({"seat": True}, "seat"),
    ({"n": 0}, "n must"), ({"n": 2.5}, "n must"), ({"n": True}, "n must"),
    ({"seed": -1}, "seed"), ({"seed": 2 ** 64}, "seed"), ({"seed": "7"}, "seed")])
def test_bad_arguments_are_refused(kwargs, message):
    game = random_position("4", 51, 0.3)
    args = dict(seat=0, n=5, seed=1) | kwargs
    with pytest.raises(WorldsError, match=message):
        sample(game, **args)
    if "seat" in kwargs:
        with pytest.raises(WorldsError, match=message):
            constraints(game, kwargs["seat"])


def test_a_finished_deal_has_no_hidden_card():
    game = random_position("4", 52, 1.0, (0, "garde"))
    assert game.done
    with pytest.raises(WorldsError, match="over"):
        sample(game, 0, 5, 1)
