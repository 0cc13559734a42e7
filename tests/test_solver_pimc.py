"""``pimc:exact_from=K``: in the last ``K`` tricks the search solves each sampled world exactly."""

from __future__ import annotations

import pytest
from test_solver_twin import game_until

from tarotsim.adapters import FastBotAdapter
from tarotsim.rng import Rng
from tarotsim.analysis.solver import Position, Solver
from tarotsim.worlds import sample

WORLDS = 6


@pytest.mark.parametrize("table,index,left,in_trick", [("4", 3, 3, 1), ("4", 8, 2, 0), ("3", 5, 3, 2)])
def test_exact_from_plays_the_best_card_over_the_worlds_it_samples(table, index, left, in_trick):
    """The card is the one with the best total score for the seat over the worlds it samples (the
    same draws as ``tarotsim.worlds.sample``), each world solved by ``tarotsim.analysis.solver`` for the
    taker's score: the taker's own score, and a defender's, minus it over the taker's factor
    (R-SCORE-2; no misère here); ties go to the lowest card."""
    game = game_until(table, 13, index, "garde", "heuristic", left, in_trick)
    seat = game.decision.seat
    view = game.view(seat)
    state = 987654321
    bot = FastBotAdapter("pimc", {"worlds": WORLDS, "exact_from": left})
    card = bot.choose(view, game.legal_actions(), Rng(state))
    worlds = sample(game, seat, WORLDS, seed=state)
    totals: dict = {}
    for w in range(WORLDS):
        pos = Position.from_world(game, worlds, w)
        sign = 1 if seat == pos.taker else -1
        for c, v in Solver("score", table_bits=12).solve(pos).card_values.items():
            totals[c] = totals.get(c, 0) + sign * v
    best = max(totals.values())
    candidates = [c for c in sorted(totals) if totals[c] == best]
    # the search tries one card of each class it cannot tell apart, the lowest: the lowest of the best
    assert card == candidates[0]


def test_exact_from_off_and_out_of_reach_change_nothing():
    """``exact_from=0`` (the default), or earlier than its tricks, is plain pimc: the same card."""
    game = game_until("4", 13, 3, "garde", "heuristic", 6, 0)
    view = game.view(game.decision.seat)
    plain = FastBotAdapter("pimc", {"worlds": 4}).choose(view, game.legal_actions(), Rng(5))
    late = FastBotAdapter("pimc", {"worlds": 4, "exact_from": 5}).choose(view, game.legal_actions(), Rng(5))
    assert plain == late
