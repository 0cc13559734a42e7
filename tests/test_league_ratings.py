"""The ratings of a league: the joint least-squares fit recovers planted strengths on synthetic scores,
gives one game alone the tournament's own paired difference, is the same whatever the order of the
games and deals, and its bootstrap intervals are seeded and cover what they should."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from tarotsim.league import ratings, schedule
from tarotsim.league.ratings import GameScores
from tarotsim.rules import Rules

PLANTED = {"a": 12.0, "b": 0.0, "c": -6.0, "d": -25.0, "F": 4.0}


@pytest.fixture
def synthetic():
    """``make(rules, games, deals, seed=0, sd=60)``: games whose seat-plays score the planted strength
    minus the mean of the table's, plus normal noise, made to add up to zero at each table (R-SCORE-3),
    rounded to whole points; at 5d the dealer's seat sits out (R-DEAL-6)."""

    def make(rules: Rules, games, deals: int, seed: int = 0, sd: float = 60.0, strengths=PLANTED):
        rng = np.random.default_rng(seed)
        n = rules.n_seats
        out = []
        for game in games:
            dealer = np.arange(deals) % n
            active = np.ones((deals, n), bool)
            if rules.table == "5d":
                active[np.arange(deals), dealer] = False
            scores = np.zeros((deals, n, n), dtype=np.int64)
            for r, row in enumerate(schedule.seat_bots(game)):
                y = np.where(active, np.array([strengths[b] for b in row]) + rng.normal(0, sd, (deals, n)), 0.0)
                y -= active * (y.sum(axis=1) / active.sum(axis=1))[:, None]
                whole = np.rint(y).astype(np.int64)
                whole[np.arange(deals), np.argmax(active, axis=1)] -= whole.sum(axis=1)  # zero-sum in integers
                scores[:, r] = whole
            out.append(GameScores(tuple(game), np.arange(deals), dealer, scores))
        return out

    return make


def filler_games(rules: Rules, bots="abcd", filler="F"):
    return [(x, y) + (filler,) * (rules.n_seats - 2) for x, y in combinations(sorted(bots), 2)]


@pytest.mark.parametrize("table", ["3", "4", "5", "5d"])
def test_the_fit_recovers_planted_strengths_within_its_intervals(synthetic, table):
    rules = Rules(table)
    fit = ratings.fit(rules, synthetic(rules, filler_games(rules), 3000, seed=int(table[0])), "b", seed=7)
    for bot, truth in PLANTED.items():  # within twice the half-width (about 4 standard errors)
        assert abs(fit.rating[bot] - truth) <= fit.high[bot] - fit.low[bot] < 6, (bot, fit.rating[bot])
        assert fit.low[bot] <= fit.rating[bot] <= fit.high[bot]
    assert (fit.rating["b"], fit.low["b"], fit.high["b"]) == (0.0, 0.0, 0.0)   # the anchor
    assert fit.deals == 3000 and fit.replicates == ratings.REPLICATES and fit.singular == 0


def test_the_fit_recovers_strengths_when_the_entrants_fill_every_table(synthetic):
    rules = Rules("4")
    games = list(combinations("abcdF", 4))
    fit = ratings.fit(rules, synthetic(rules, games, 3000, seed=5), "b", seed=7)
    for bot, truth in PLANTED.items():
        assert abs(fit.rating[bot] - truth) <= fit.high[bot] - fit.low[bot] < 6, (bot, fit.rating[bot])
    a, lo, hi = fit.differences[("a", "c")]
    assert abs(a - (PLANTED["a"] - PLANTED["c"])) <= hi - lo and a == pytest.approx(fit.rating["a"] - fit.rating["c"])


@pytest.mark.slow
def test_the_95_percent_intervals_cover_the_planted_strengths_95_times_in_100(synthetic):
    rules = Rules("4")
    covered = [fit.low[b] <= truth <= fit.high[b]
               for seed in range(40)
               for fit in [ratings.fit(rules, synthetic(rules, filler_games(rules), 1000, seed=100 + seed), "b",
                                       seed=seed, replicates=400)]
               for b, truth in PLANTED.items() if b != "b"]
    assert 0.88 <= np.mean(covered) <= 0.99


@pytest.mark.parametrize("table", ["3", "4", "5"])
def test_one_game_alone_gives_exactly_the_tournaments_paired_difference(synthetic, table):
    """The fit is then saturated: each pair's rating difference is the mean over deals of x_a(d) - x_b(d)."""
    rules = Rules(table)
    game = synthetic(rules, filler_games(rules, "ab"), 400, seed=3)
    fit = ratings.fit(rules, game, "a", seed=1)
    alone = ratings.direct(rules, game, "b", "a")
    assert fit.rating["b"] == pytest.approx(alone["mean"], abs=1e-9)
    # the bootstrap interval over deals is about the Student t interval over the same deals
    assert fit.high["b"] - fit.low["b"] == pytest.approx(alone["ci_high"] - alone["ci_low"], rel=0.15)


def test_at_5d_a_pairs_game_measures_15_16_of_the_difference_the_dummy_leaves_out(synthetic):
    """R-DEAL-6: each seat of a game deals (and sits out) in one rotation of five, so in one of its four
    seat-plays a bot faces a table without the other of its pair: the game's paired difference is
    15/16 of the strengths' difference, which the fit gives whole."""
    rules = Rules("5d")
    game = synthetic(rules, filler_games(rules, "ab"), 400, seed=3)
    fit = ratings.fit(rules, game, "a", seed=1)
    assert ratings.direct(rules, game, "b", "a")["mean"] == pytest.approx(15 / 16 * fit.rating["b"], abs=1e-9)


def test_the_fit_is_the_same_for_any_order_of_the_games_and_deals(synthetic):
    rules = Rules("4")
    games = synthetic(rules, filler_games(rules), 500, seed=2)
    fit = ratings.fit(rules, games, "b", seed=11, replicates=300)
    rng = np.random.default_rng(0)
    shuffled = []
    for g in reversed(games):
        order = rng.permutation(len(g.deal))
        shuffled.append(GameScores(g.seats, g.deal[order], g.dealer[order], g.scores[order]))
    again = ratings.fit(rules, shuffled, "b", seed=11, replicates=300)
    assert (again.rating, again.low, again.high, again.differences) == \
           (fit.rating, fit.low, fit.high, fit.differences)


def test_the_bootstrap_is_seeded_and_another_anchor_shifts_every_rating(synthetic):
    rules = Rules("4")
    games = synthetic(rules, filler_games(rules), 500, seed=2)
    fit = ratings.fit(rules, games, "b", seed=11, replicates=200)
    assert ratings.fit(rules, games, "b", seed=11, replicates=200).low == fit.low
    assert ratings.fit(rules, games, "b", seed=12, replicates=200).low != fit.low
    other = ratings.fit(rules, games, "d", seed=11, replicates=200)
    shift = other.rating["b"]
    assert {b: other.rating[b] - shift for b in fit.bots} == pytest.approx(fit.rating, abs=1e-9)
    assert other.differences[("a", "c")][0] == pytest.approx(fit.differences[("a", "c")][0], abs=1e-9)


def test_no_bootstrap_gives_ratings_without_intervals(synthetic):
    rules = Rules("4")
    fit = ratings.fit(rules, synthetic(rules, filler_games(rules), 200), "b", seed=1, replicates=0)
    assert fit.rating["a"] is not None and all(np.isnan(fit.low[b]) for b in fit.bots)


def test_a_bot_no_stored_game_links_to_the_anchor_is_not_rated(synthetic):
    rules = Rules("4")
    games = synthetic(rules, filler_games(rules), 200, seed=4)
    empty = [GameScores(g.seats, g.deal[:0], g.dealer[:0], g.scores[:0]) if "d" in g.seats else g for g in games]
    fit = ratings.fit(rules, empty, "b", seed=1, replicates=100)
    assert fit.rating["d"] is None and fit.low["d"] is None and fit.rating["a"] is not None
    assert ("a", "d") not in fit.differences and fit.games["d"] == 0 and fit.seat_plays["d"] == 0
    nothing = ratings.fit(rules, [GameScores(g.seats, g.deal[:0], g.dealer[:0], g.scores[:0]) for g in games], "b",
                          seed=1, replicates=100)
    assert {b: r for b, r in nothing.rating.items() if r is not None} == {"b": 0.0}


def test_replicates_whose_deals_leave_a_bot_unlinked_are_left_out(synthetic):
    """A game holding a single deal (a stopped run) is missing from most replicates."""
    rules = Rules("4")
    games = synthetic(rules, filler_games(rules), 200, seed=4)
    games = [GameScores(g.seats, g.deal[:1], g.dealer[:1], g.scores[:1]) if "d" in g.seats else g for g in games]
    fit = ratings.fit(rules, games, "b", seed=1, replicates=100)
    assert 0 < fit.singular < 100 and fit.rating["d"] is not None and not np.isnan(fit.low["d"])


def test_seat_plays_count_every_rotation_and_not_the_dummy_at_5d(synthetic):
    for table, per_deal in (("4", 4 * 2), ("5d", 4 * 3)):
        rules = Rules(table)
        fit = ratings.fit(rules, synthetic(rules, filler_games(rules, "ab"), 10), "a", seed=1, replicates=0)
        assert fit.seat_plays["a"] == fit.seat_plays["b"] == 10 * (rules.n_seats - (table == "5d"))
        assert fit.seat_plays["F"] == 10 * per_deal


def test_the_integers_of_the_fit_are_exact():
    """Every row is whole: n x e_b minus the bots of the table, so x sums to zero over a table."""
    rules = Rules("4")
    game = GameScores(("a", "b", "F", "F"), np.arange(3), np.zeros(3, np.int64),
                      np.arange(3 * 16, dtype=np.int64).reshape(3, 4, 4))
    units, V, groups = ratings.design(rules, [game], ["F", "a", "b"])
    (M, positions), = groups
    assert list(units) == [0, 1, 2] and list(positions) == [0, 1, 2]
    assert M.dtype == np.int64 and V.dtype == np.int64 and (M == M.T).all() and (M.sum(axis=0) == 0).all()
    # seat a: 4 e_a - (2 e_F + e_a + e_b) = (-2, 3, -1); four rotations, one seat each for a and b, two for F
    assert M.tolist() == [[64, -32, -32], [-32, 48, -16], [-32, -16, 48]]
