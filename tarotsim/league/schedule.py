"""The games of a league, played on the tournament's machinery and stored as they are played.

**Which games.** With a filler (``filler = "heuristic"``) every pair of entrants plays one game:
the pair in the first two seats, the filler in every other (``a, b, F, F`` at table 4). Each
game is then that pair's duplicate tournament (``tarotsim tournament --bots a,b,F,F`` on the
league's seed and deals, the same deals), a new entrant plays one game per entrant already in,
and everyone is measured in the company of one known bot. Without a filler the entrants fill
every table themselves: one game per combination of as many entrants as the table seats, so each
is measured against the pool itself, at the cost of far more games as the pool grows (a new
entrant plays every combination it is in). The seats of a game are its bots in the order of
their texts, so a game does not depend on the pool's order or names.

**How.** Every deal of a game is played in every seat rotation (``tarotsim.runs.tournament``:
in rotation ``r`` seat ``s`` is held by the game's seat ``(s + r) % n``), by the runner the
tournament uses (the kernels when they can, threads sharing each block), in chunks
(:data:`CHUNK`) each stored in one transaction (:mod:`tarotsim.league.store`). The league's work
is one :class:`LeagueJob`, which Dask runs as it runs a tournament
(:func:`tarotsim.runs.distributed.executor`). The deals depend on ``(seed, index)`` alone, so the
stored scores are the same for any threads, workers or order of play.

**Time per decision.** Each bot is timed once, alone at the table (every seat), on one thread,
over the league's first :data:`TIMING_DEALS` deals: the seconds of those deals over the
decisions their records hold (:func:`decisions`). A measure of this machine at that moment,
kept in the database and reported, never used by the ratings.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass, field
from functools import cached_property
from itertools import combinations

import numpy as np

from ..rules import Rules
from ..runs import shards
from ..runs import tournament as tour
from ..runs.players import Player, parse_players
from ..runs.runner import FAST_BLOCK, SLOW_BLOCK, Runner
from .pool import Pool
from .ratings import seat_bots
from .store import Store

#: Deals of a game per chunk stored in one transaction, when every seat is quick and when one is
#: slow (a search, a Python bot: ``tarotsim.runs.shards.slow``): a chunk takes about a second or
#: a few, so a stopped run loses little and the progress moves often.
CHUNK = {False: FAST_BLOCK // 2, True: SLOW_BLOCK}
#: Deals over which each bot's time per decision is measured (the league's first ones).
TIMING_DEALS = 100


def games(pool: Pool) -> list[tuple[str, ...]]:
    """The games of a pool: the seats' bots of each, in seat order (see the module docstring)."""
    n = pool.rules().n_seats
    bots = sorted(pool.bots)
    if pool.filler is not None:
        return [(a, b) + (pool.filler,) * (n - 2) for a, b in combinations(bots, 2)]
    return list(combinations(bots, n))


_PLAYERS: dict = {}  # per process: (table, options, bot) -> its Player (a user's module imported once)


def player(rules: Rules, bot: str) -> Player:
    """The player of one bot's text at these rules, parsed once per process."""
    key = (rules.table, json.dumps(rules.non_default_options(), sort_keys=True), bot)
    if key not in _PLAYERS:
        _PLAYERS[key] = parse_players(bot, rules)[0]
    return _PLAYERS[key]


def play(rules: Rules, seed: int, seats: list[Player], a: int, b: int, threads: int = 1, progress=None):
    """The scores of deals ``a .. b - 1`` played in every seat rotation of ``seats``.

    ``(scores int32[deals, rotations, seats], dealer int8[deals])``: what the league stores."""
    n = rules.n_seats
    scores = np.zeros((b - a, n, n), dtype=np.int32)
    dealer = np.zeros(b - a, dtype=np.int8)
    for r, rotation in enumerate(tour.rotations(seats, True)):
        f = tour.play_chunk(rules, seed, a, b, rotation, threads)
        scores[:, r, :] = f["scores"][:, :n]
        dealer[:] = f["dealer"]
    if progress is not None:
        progress(b - a)
    return scores, dealer


@dataclass
class LeagueJob:
    """The games of a league as one range of work, in plain values (Dask's workers rebuild the bots).

    Deal ``d`` of game ``g`` is index ``g * stride + d`` of the range, ``stride`` a whole number of
    chunks above the deals, so that a piece of work (``tarotsim.runs.shards.pieces``, aligned on
    :attr:`chunk`) never spans two games and is one chunk of one game. :meth:`compute` gives the
    scores of a piece (:func:`play`)."""

    table: str
    options: dict
    seed: int
    games: list
    deals: int
    command: str = field(default="league", init=False)

    def rules(self) -> Rules:
        return Rules.from_options(self.table, self.options)

    def seats(self, g: int) -> list[Player]:
        rules = self.rules()
        return [player(rules, bot) for bot in self.games[g]]

    @cached_property
    def chunk(self) -> int:
        """Deals per piece of work: :data:`CHUNK` of the slowest game."""
        rules = self.rules()
        return CHUNK[any(shards.slow(rules, self.seats(g)) for g in range(len(self.games)))]

    def task_deals(self) -> int:
        return self.chunk

    @property
    def stride(self) -> int:
        return (self.deals // self.chunk + 1) * self.chunk

    def span(self, g: int, a: int, b: int) -> tuple[int, int]:
        """The range of work of deals ``a .. b - 1`` of game ``g``."""
        return g * self.stride + a, g * self.stride + b

    def locate(self, a: int, b: int) -> tuple[int, int, int]:
        """``(game, first deal, stop)`` of the range of work ``a .. b - 1``."""
        g, first = divmod(a, self.stride)
        if b - g * self.stride > self.deals or b <= a:
            raise ValueError(f"range {a}..{b - 1} of the league's work spans two games")
        return g, first, b - g * self.stride

    def key(self) -> str:
        text = json.dumps([self.table, self.options, self.seed, self.games, self.deals], sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def compute(self, a: int, b: int, threads: int = 1, progress=None):
        g, first, stop = self.locate(a, b)
        return play(self.rules(), self.seed, self.seats(g), first, stop, threads, progress)

    def tournament(self, g: int) -> shards.Job:
        """Game ``g`` as the tournament it is (on its first deal), for its kernels' compile notice."""
        return shards.Job.of("tournament", self.rules(), self.seed, 0, 1, ",".join(self.games[g]),
                             players=self.seats(g))

    def warm_up(self) -> None:
        for g in range(len(self.games)):
            self.compute(*self.span(g, 0, 1))

    def compile_seconds(self) -> int | None:
        seconds = [s for g in range(len(self.games)) if (s := self.tournament(g).compile_seconds()) is not None]
        return max(seconds) if seconds else None


def decisions(record: dict) -> int:
    """The decisions a deal's record holds: its bids, its call, its écart, its declarations and its cards."""
    return (len(record.get("bids") or []) + (record.get("called") is not None) + bool(record.get("ecart"))
            + len(record.get("declarations") or []) + sum(len(t["cards"]) for t in record.get("tricks") or []))


def timing(rules: Rules, seed: int, bot: Player, deals: int = TIMING_DEALS, notice=None) -> tuple[int, int, float]:
    """``(deals, decisions, seconds)`` of ``bot`` in every seat on one thread (the module docstring).

    The deals are played with their records (the kernels' when they can play the bot, else step
    by step), whose decisions are counted; the kernels are loaded (or compiled, ``notice`` told
    first) on one deal before the clock starts."""
    from .._builds.runs import first_kernel
    from .._kernels._cache import compile_notice, is_cached
    from ..runs import simulate as sim

    seats = [bot] * rules.n_seats
    runner = Runner(rules, seed, seats, 1)

    def records(n: int) -> list:
        if runner.fast:
            return sim.records(rules, seed, range(n), bots=runner.bots)
        return runner.block(0, n, with_records=True)[1]

    if runner.fast and notice is not None:
        kinds, params = sim.bot_arrays(rules, [p.engine_bot for p in seats])
        kernel, about = first_kernel(kinds, params, "logs", rules.to_vector())
        if not is_cached([kernel]):
            notice(compile_notice(f"the timing of {bot.label}", about))
    records(1)
    t0 = time.perf_counter()
    played = records(deals)
    seconds = time.perf_counter() - t0
    return deals, sum(decisions(r) for r in played), seconds


@dataclass
class Plan:
    """What a run of a league has to do: its games, their ids, and the deals of each left to play."""

    pool: Pool
    games: list
    ids: list
    todo: dict        # game index -> [(a, b), ...] of deals not stored

    @property
    def deals(self) -> int:
        """The deals of the league's games (each played in every rotation)."""
        return len(self.games) * self.pool.deals

    @property
    def to_play(self) -> int:
        return sum(b - a for ranges in self.todo.values() for a, b in ranges)

    def summary(self) -> str:
        """One line: the games, how many are stored, and what is left to play."""
        rules = self.pool.rules()
        stored = len(self.games) - len(self.todo)
        return (f"league: {len(self.games)} game(s) of {self.pool.deals:,} deals, each in {rules.n_seats} seat "
                f"rotations: {stored} stored, {len(self.todo)} to play ({self.to_play:,} deals)")


def plan(store: Store, pool: Pool) -> Plan:
    """Make ``pool`` the league's current one in ``store`` (:meth:`Store.start`) and plan what is left to play."""
    pool = store.start(pool)
    gs = games(pool)
    ids = store.game_ids(gs)
    todo = {}
    for g, gid in enumerate(ids):
        left = shards.missing((0, pool.deals), store.stored(gid))
        if left:
            todo[g] = left
    return Plan(pool, gs, ids, todo)


def run(store: Store, work: Plan, *, threads: int = 1, executor=None, progress=None, notice=None) -> None:
    """Play what ``work`` has left (:func:`plan`), storing every chunk as it comes.

    First every bot of the pool not yet timed is timed (:func:`timing`). ``executor``: runs the
    ranges elsewhere (Dask, :func:`tarotsim.runs.distributed.executor`), else they run here on
    ``threads`` threads; ``progress(n)`` gets the deals of every chunk, ``notice(line)`` a line
    before numba compiles kernels. Interrupted (Ctrl-C, SIGTERM), the exception's note says
    what the database holds."""
    pool = work.pool
    rules = pool.rules()
    assert pool.seed is not None  # Store.start gives the pool its seed
    job = LeagueJob(rules.table, pool.options, pool.seed, work.games, pool.deals)

    def on_done(a, b, played):
        g, first, _ = job.locate(a, b)
        store.add(work.ids[g], first, *played)

    try:
        timed = store.timings()
        for bot in dict.fromkeys(pool.bots + ([pool.filler] if pool.filler else [])):
            if bot not in timed:
                store.add_timing(bot, *timing(rules, pool.seed, player(rules, bot), min(TIMING_DEALS, pool.deals),
                                              notice))
        ranges = [job.span(g, a, b) for g, left in sorted(work.todo.items()) for a, b in left]
        if executor is not None:
            executor(job, ranges, on_done)
            return
        warm = set()
        for a, b in shards.pieces(ranges, job.chunk):
            g = job.locate(a, b)[0]
            if g not in warm:  # its kernels loaded, or compiled with a notice, before its deals
                shards.warm_up(job.tournament(g), notice)
                warm.add(g)
            on_done(a, b, job.compute(a, b, threads, progress))
    except (KeyboardInterrupt, SystemExit) as e:  # Ctrl-C, SIGTERM (outputs.Terminated): say what is kept
        e.add_note(kept(store, work))
        raise


def kept(store: Store, work: Plan) -> str:
    """What the database of a stopped league holds, in one clause for the user."""
    held = store.count(work.ids, work.pool.deals)
    return (f"--db {store.path} holds {held:,} of the league's {work.deals:,} deals: the same command resumes "
            f"from there")


__all__ = ["CHUNK", "LeagueJob", "Plan", "TIMING_DEALS", "decisions", "games", "kept", "plan", "play", "player",
           "run", "seat_bots", "timing"]
