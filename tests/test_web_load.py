"""`tarotsim serve` under load: 20 pages at once on 127.0.0.1, each playing its own seeded deal to
the end through the protocol, within a bounded time; every deal is stored, once, and replays."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from tarotsim.record import verify
from tarotsim.web.store import Store

from helpers_web import Page, running_server

pytestmark = pytest.mark.slow

GAMES = 20
#: The whole evening of 20 games, on two shared cores.
SECONDS = 240


def test_twenty_games_at_once_are_each_stored_and_verified(tmp_path):
    db = tmp_path / "evenings.sqlite3"

    def play(seed: int) -> tuple[int, list[int]]:
        page = Page(url)
        try:
            page.send(type="new", table="4", seat=seed % 4, seed=seed, bots="heuristic")
            end = page.play_deal(timeout=SECONDS)
            return end["evening"], end["result"]["scores"]
        finally:
            page.close()

    with running_server(db, budget=1) as url:  # the reviews, not asked for here, give up at once
        t0 = time.monotonic()
        with ThreadPoolExecutor(GAMES) as pool:
            ended = list(pool.map(play, range(100, 100 + GAMES)))
        took = time.monotonic() - t0
    assert took < SECONDS
    store = Store(db, create=False)
    assert len({e for e, _ in ended}) == GAMES and len(store.evenings()) == GAMES
    for (evening, scores), seed in zip(ended, range(100, 100 + GAMES)):
        (rec,) = store.records(evening)
        assert rec["seed"] == seed and rec["scores"] == scores == verify(rec).scores
