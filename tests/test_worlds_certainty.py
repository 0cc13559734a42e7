"""What the call and the declarations make certain, and the replay checker over many positions.

* One test per certainty, named after its rule id: a call below the kings shows the cards the
  taker was dealt (R-CALL-1), wherever they may be since (his hand, or the écart for a plain
  card); a king call shows nothing; the called card itself may be the taker's own; a seat the
  deal asks about a misère is eligible for it (R-MIS-1).
* Uniformity after such calls: on small late table-5 positions, each card's location
  frequencies (and the worlds' frequencies, when they are few) match the exact law, found by
  enumerating every placement and keeping those the checkers accept.
* The independent checker, :func:`helpers_worlds.replay_consistent`, written from RULES.md
  through the reference engine (not from the sampler's constraint code), on every world
  sampled at many positions: random and heuristic deals at tables 3, 4, 5, 5d and 2 with
  options, every stage, and table-5 deals whose taker holds all the kings (and queens,
  knights) so that queens, knights and jacks are called. The default run is modest (3 worlds
  per seat, about 7,800 worlds); ``TAROTSIM_WORLDS_AUDIT=<worlds per seat>`` and
  ``TAROTSIM_WORLDS_AUDIT_DEALS=<times as many deals>`` make it as large as wanted (20 and 8:
  4,908 positions, 422,620 worlds).
"""

from __future__ import annotations

import collections
import os
import random

import numpy as np
import pytest

from helpers_worlds import FastChecker, free_placements, replay_consistent, true_row
from helpers_worlds import (frequencies_match, world_frequencies_match, built_game, held, play,
                         worlds_of)
from tarotsim.adapters import FastBotAdapter
from tarotsim.cards import DECK, JACK, KING, KNIGHT, QUEEN, Card
from tarotsim.engine import Game
from tarotsim.reference.bot import RandomBot
from tarotsim.rng import STREAM_BOTS, Rng, dealing_order
from tarotsim.rules import Rules
from tarotsim.worlds import PILE, constraints, knowledge, sample
from tarotsim._kernels import worlds as W

SEED = 20261207


def of_ranks(*ranks):
    """Every suit card of those ranks."""
    return [c for c in DECK if c.suit is not None and c.rank in ranks]


def names_of(cards):
    return [str(c) for c in cards]


def honours_game(contract, ranks, called, extra=(), dealer=4, taker=0):
    """Table 5: ``taker`` dealt every card of ``ranks`` (and ``extra``) takes ``contract`` and
    calls ``called``; an écart of his lowest legal cards, no slam."""
    wish = names_of(of_ranks(*ranks)) + list(extra)
    game = built_game("5", dealer, {taker: wish}, {taker: lambda c: c == Card.parse(called)} if called not in wish
                      else None, forced=(taker, contract))
    game.call(called)
    if game.decision.kind == "ecart":
        choice = game.ecart_choice()
        normal = sorted(choice.normal, key=lambda c: (c.rank, c.id))
        cards = normal[:choice.size] if len(normal) >= choice.size else normal + list(choice.trumps)[:choice.trumps_needed]
        game.discard(cards)
    if game.decision.kind == "chelem":
        game.announce_chelem(False)
    return game


@pytest.mark.parametrize("contract", ["prise", "garde", "garde_sans", "garde_contre"])
def test_R_CALL_1_queen_call_keeps_kings_with_taker(contract):
    """A queen is called only by a taker dealt the four kings; kings never go to the écart
    (R-CHIEN-2): every unplayed king is in his hand, whatever the contract."""
    game = honours_game(contract, [KING], "QH")
    play(game, "?", "?", "?")
    kings = of_ranks(KING)
    for seat in (1, 2, 3, 4):
        c = constraints(game, seat)
        assert c.dealt_to_taker == frozenset(kings)
        for k in kings:
            assert k in c.played or c.known.get(k) == 0, (seat, k)
        locs = worlds_of(game, seat)
        live = [k.id for k in kings if k not in c.played]
        assert (locs[:, live] == 0).all()
        # the queens are not certain: the called one may lie in any hand but the seat's own
        qh = Card.parse("QH")
        if qh not in c.played and qh not in game.hand(seat):
            assert len(c.allowed[qh]) >= 3


@pytest.mark.parametrize("contract", ["prise", "garde"])
def test_R_CALL_1_knight_call_keeps_queens_with_taker_or_in_the_ecart(contract):
    """A knight call shows the kings and queens dealt to the taker: after the écart the kings
    are in his hand (R-CHIEN-2) and each queen in his hand or, for a seat that did not see the
    écart, in it."""
    game = honours_game(contract, [KING, QUEEN], "NH")
    queens = [q for q in of_ranks(QUEEN) if q not in game.view(1).hand]
    for seat in (1, 2, 3, 4):
        c = constraints(game, seat)
        assert c.dealt_to_taker == frozenset(of_ranks(KING, QUEEN))
        assert all(c.known[k] == 0 for k in of_ranks(KING))
        for q in queens:
            assert c.allowed[q] == frozenset({0, PILE})
        locs = worlds_of(game, seat)
        col = locs[:, [q.id for q in queens]]
        assert ((col == 0) | (col == PILE)).all()
        assert (col == 0).any() and (col == PILE).any()
    # the taker knows his écart: nothing of his is hidden from him
    assert not constraints(game, 0).allowed.keys() & set(of_ranks(KING, QUEEN))


@pytest.mark.parametrize("contract", ["garde_sans", "garde_contre"])
def test_R_CALL_1_jack_call_keeps_kings_queens_knights_in_the_takers_hand(contract):
    """At garde sans and contre the taker takes no chien (R-CHIEN-3, R-CHIEN-4): after a jack
    call every unplayed king, queen and knight is in his hand, none in the unseen chien."""
    game = honours_game(contract, [KING, QUEEN, KNIGHT], "JS")
    play(game, "?", "?")
    sure = of_ranks(KING, QUEEN, KNIGHT)
    for seat in (1, 2, 3, 4):
        c = constraints(game, seat)
        assert c.pile == "chien" and c.dealt_to_taker == frozenset(sure)
        assert all(k in c.played or c.known[k] == 0 for k in sure)
        locs = worlds_of(game, seat)
        assert not held(locs, PILE, lambda x: x in sure).any()
        assert held(locs, PILE, lambda x: x.rank == JACK).any()   # a jack may lie in the chien


def test_R_CALL_1_king_call_shows_nothing():
    """With all four kings the taker may still call one of them: a king call shows nothing,
    the other kings may be in any hand (not in the écart, R-CHIEN-2)."""
    game = honours_game("prise", [KING], "KH")
    c = constraints(game, 2)
    assert c.dealt_to_taker == frozenset()
    for k in of_ranks(KING):
        assert c.allowed[k] == frozenset({0, 1, 3, 4})
    locs = worlds_of(game, 2)
    assert held(locs, 1, lambda x: x.rank == KING).any()


@pytest.mark.parametrize("contract", ["prise", "garde_sans"])
def test_R_CALL_1_the_called_queen_may_be_the_takers_own(contract):
    """R-CALL-1 lets the taker holding the four kings call a queen he holds himself: for the
    other seats the called queen may be in his hand, another hand, or the hidden pile."""
    game = honours_game(contract, [KING], "QD", extra=["QD"])
    c = constraints(game, 3)
    assert c.allowed[Card.parse("QD")] == frozenset({0, 1, 2, 4, PILE})
    col = worlds_of(game, 3)[:, Card.parse("QD").id]
    assert (col == 0).any() and (col == 1).any() and (col == PILE).any()


def test_R_MIS_1_a_seat_asked_about_a_misere_is_eligible_for_it():
    """The deal asks a seat about misère d'atout only when it holds no trump (nor the Excuse):
    while it decides, every other seat knows it (R-MIS-1); likewise misère de tête."""
    faces = of_ranks(KING, QUEEN, KNIGHT, JACK)
    game = built_game("4", 3, {0: ["1S"]}, {0: lambda c: c.id < 22, 1: lambda c: c in faces},
                      forced=(3, "garde_sans"), options={"misere": True})
    game.declare_poignee(None)
    assert game.decision.kind == "misere_atout" and game.decision.seat == 0
    c = constraints(game, 2)
    assert c.trump_ceiling[0] == 0 and c.no_excuse[0]
    locs = worlds_of(game, 2)
    assert not held(locs, 0, lambda x: x.id < 22).any()
    assert not constraints(game, 0).no_excuse[0]   # its own hand is known to it anyway
    game.declare_misere(False)
    play(game, "1S")
    game.declare_poignee(None)
    assert game.decision.kind == "misere_tete" and game.decision.seat == 1
    assert constraints(game, 3).no_honours[1]
    assert not held(worlds_of(game, 3), 1, lambda x: x in faces).any()
    assert not constraints(game, 3).no_honours[0]   # seat 0 declined: nothing shown


# ---------------------------------------------------------------------------------------------
# uniformity on late positions after a call below the kings

def late_after_call(index, contract, ranks, called, left):
    """A table-5 deal whose taker was dealt every card of ``ranks`` and called ``called``,
    played on at random until ``left`` cards are left in the hands; the taker keeps the cards
    his call showed as long as he may, so that some are still hidden at the end."""
    game = honours_game(contract, ranks, called, dealer=index % 5, taker=(index + 1) % 5)
    sure = set(of_ranks(*ranks))
    rng = Rng.for_deal(SEED, index, STREAM_BOTS)
    bot = RandomBot(rng)
    d = game._deal
    while not game.done and sum(len(h) for h in d.hands) > left:
        decision = d.decision()
        legal = d.legal_cards(decision.seat) if decision.kind == "card" else []
        keep = [c for c in legal if c not in sure]
        if decision.seat == d.taker and keep:
            d.play(decision.seat, keep[rng.below(len(keep))])
        else:
            bot.act(d, decision)
    return game


LATE_CALLS = [(1, "prise", [KING], "QS", 7), (2, "garde_sans", [KING], "QC", 6),
              (3, "garde", [KING, QUEEN], "ND", 7), (4, "garde_contre", [KING, QUEEN, KNIGHT], "JH", 6)]


@pytest.mark.slow
@pytest.mark.parametrize("index, contract, ranks, called, left", LATE_CALLS)
def test_R_CALL_1_late_positions_after_a_call_match_the_exact_law(index, contract, ranks, called, left):
    """Every seat but the taker: the exact law is every placement of the unseen cards (no rule
    but the counts) that the fast checker accepts (the replay checker agrees on a sample);
    some cards the call shows are still hidden; the sampler counts those worlds exactly; each
    card's location frequency over 40,000 draws lies within the family-wise bound of its exact
    probability, and the worlds' frequencies pass a chi-square test when they are few."""
    game = late_after_call(index, contract, ranks, called, left)
    assert not game.done
    taker = game.view(0).taker
    sure = set(of_ranks(*ranks))
    for seat in range(5):
        if seat == taker:
            continue
        view = game.view(seat)
        rows = free_placements(game, seat)
        assert len(rows) <= 300_000
        ok = FastChecker(game.rules, view).check(rows)
        rnd = random.Random(seat)
        for i in rnd.sample(range(len(rows)), 40):
            assert bool(ok[i]) == replay_consistent(game.rules, view, rows[i])
        for i in rnd.sample(list(np.flatnonzero(ok)), min(10, int(ok.sum()))):
            assert replay_consistent(game.rules, view, rows[i])
        exact = rows[ok]
        assert sure - constraints(game, seat).played, "every card the call showed is played"
        cons = np.zeros(W.C_LEN, dtype=np.int64)
        W.derive(game.rules.to_vector(), knowledge(view, game.rules), cons)
        status, count = W.count_worlds(cons, *W.new_workspace())
        assert status == W.OK and not cons[W.C_PSEC_ON:W.C_PSEC_ON + 5].any()
        assert round(count) == len(exact)
        worlds = sample(game, seat, 40_000, seed=index * 10 + seat).locations
        frequencies_match(worlds, exact)
        if len(exact) <= 2000:
            assert world_frequencies_match(worlds, exact) > 1e-4


# ---------------------------------------------------------------------------------------------
# the independent checker over many positions

AUDIT_WORLDS = int(os.environ.get("TAROTSIM_WORLDS_AUDIT", "3"))
AUDIT_DEALS = int(os.environ.get("TAROTSIM_WORLDS_AUDIT_DEALS", "1"))
OPTIONS = [{}, {"misere": True}, {"misere": True, "misere_excuse_is_trump": False},
           {"poignee_ecart_trumps": False, "called_suit_after_excuse": "restricted"}, {"petit_sec": "off"}]
CONTRACTS = ["prise", "garde", "garde_sans", "garde_contre"]


def _positions_of(game, act, every):
    """Every ``every``-th decision of ``game`` played by ``act(game, decision)``, as clones."""
    k = 0
    while not game.done:
        if k % every == every // 2:
            yield game.clone()
        act(game, game.decision)
        k += 1


def _random_actor(rng):
    bot = RandomBot(rng)
    return lambda game, d: bot.act(game._deal, game._deal.decision())


def _heuristic_actor(rng):
    bot = FastBotAdapter("heuristic")
    return lambda game, d: game.apply(bot.choose(game.view(d.seat), game.legal_actions(), rng))


def audit_positions(table, deals):
    """Positions of ``deals`` random-bot and heuristic deals at ``table`` (options and forced
    contracts varied), every stage; at table 5 also deals whose taker holds the kings (and
    queens, knights) and calls below them."""
    for i in range(deals):
        options = OPTIONS[i % len(OPTIONS)] if table != "2" else {}
        rules = Rules.from_options(table, options)
        forced = None
        if i % 2:
            order = dealing_order(rules, i % rules.n_seats)
            forced = (order[(i // 2) % len(order)], CONTRACTS[(i // 2) % 4])
        for actor in (_random_actor, _heuristic_actor):
            rng = Rng.for_deal(SEED, i, STREAM_BOTS)
            yield from _positions_of(Game(rules, seed=SEED, index=i, forced=forced), actor(rng), 5)
        if table == "5":
            depth = 1 + i % 3
            ranks = [KING, QUEEN, KNIGHT][:depth]
            called = random.Random(i).choice(of_ranks([QUEEN, KNIGHT, JACK][depth - 1]) + of_ranks(KING))
            game = honours_game(CONTRACTS[i % 4], ranks, str(called), dealer=i % 5, taker=(i + 2) % 5)
            yield from _positions_of(game, _random_actor(Rng.for_deal(SEED, 1000 + i, STREAM_BOTS)), 3)


def audit(table, deals, n_worlds):
    """Sample ``n_worlds`` worlds of every seat at every position of :func:`audit_positions`
    and replay each one: counts of positions, worlds, inconsistent worlds (and by the first
    rule a world breaks); the true world must pass at every position."""
    checked = collections.Counter()
    for game in audit_positions(table, deals):
        for seat in range(game.rules.n_seats):
            if table == "5d" and seat == game.view(0).dealer:
                continue
            view = game.view(seat)
            assert replay_consistent(game.rules, view, true_row(game), game._deal)
            worlds = sample(game, seat, n_worlds, seed=checked["worlds"] + seat)
            for row in worlds.locations:
                if not replay_consistent(game.rules, view, row, game._deal):
                    checked["inconsistent"] += 1
            checked["worlds"] += len(worlds)
        checked["positions"] += 1
    return checked


@pytest.mark.parametrize("table, deals", [("3", 2), ("4", 3), ("5", 6), ("5d", 2), ("2", 2)])
def test_every_sampled_world_replays_as_the_seat_saw_it(table, deals):
    """Every seat at every position: each sampled world replays on the reference engine and
    shows the seat exactly what it saw (``replay_consistent``), the true world too."""
    checked = audit(table, deals * AUDIT_DEALS, AUDIT_WORLDS)
    print(f"\ntable {table}: {checked['positions']} positions, {checked['worlds']} worlds, "
          f"{checked['inconsistent']} inconsistent")
    assert checked["positions"] >= 10 * deals * AUDIT_DEALS
    assert checked["inconsistent"] == 0
