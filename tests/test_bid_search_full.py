"""The bid search on the full card search (the ``bid_search_full`` build).

A seat with ``bid_search=1`` and ``infer`` or ``exact_from`` plays on the bid search's full build
(the card search with the weighing and the exact solver compiled in): its batch kernel agrees
with the slow path record for record and is the same for any thread count. A file of its own:
the build is compiled by no other test, so another worker compiles the rest meanwhile.
"""

from __future__ import annotations

import numpy as np
import pytest

from test_bid_search import _adapters
from tarotsim.runs import simulate
from tarotsim._builds import runs
from tarotsim.engine import Game, play_game
from tarotsim.rules import Rules

#: the bid search with the weighing and the solver, on small budgets
FULL = "pimc:worlds=2,bid_search=1,bid_worlds=3,ecart_worlds=3,ecart_candidates=4,infer=1,candidates=6,exact_from=2"

pytestmark = pytest.mark.slow  # compiles a whole build for these tests alone


def test_the_full_bid_search_plays_as_the_slow_path_for_any_thread_count():
    r = Rules(table="4")
    bots = [FULL, "heuristic", "pimc:worlds=2", "greedy"]
    kinds, params, _ = simulate.bot_setup(r, bots)
    assert runs.build(kinds, params) == "bid_search_full"
    fast = simulate.records(r, 21, range(4), bots=bots)
    for i, rec in zip(range(4), fast):
        assert play_game(Game(r, 21, i), _adapters(r, bots)).record() == rec, i
    a = simulate.facts(r, 21, 0, 10, bots=bots, threads=1)
    b = simulate.facts(r, 21, 0, 10, bots=bots, threads=2, chunk_size=3)
    assert np.array_equal(a, b)
    assert [rec["scores"] for rec in fast] == a["scores"][:4, :r.n_seats].tolist()
