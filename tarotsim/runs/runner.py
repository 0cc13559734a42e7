"""Blocks of deals played by the seats' players, on the path the runner chooses.

Blocks of deals played by the seats' players (``tarotsim.runs.players``): the one place where a
run's path is chosen, the kernels (fast path) or step by step (slow path), and the loop of a run
whose every deal is written (facts, records).
"""

from __future__ import annotations

import numpy as np

from .players import Player, kernel_path
from ..rules import Rules

#: Deals per block of a run whose every deal is written (facts, records): the memory it holds.
FAST_BLOCK = 20_000
#: Deals per block when a seat is played step by step (a Python bot): a block takes seconds, so
#: progress and an interrupt come between blocks often enough.
SLOW_BLOCK = 500


class Runner:
    """Plays blocks of deals with the chosen players, on the fast or the slow path.

    Plays blocks of deals with the chosen players: the kernels when every seat plays a
    registered bot or a policy set (fast path); with Python bots, the batched engine calling them
    at their decisions (:mod:`tarotsim.runs.pybatch`: kernel tables, the other seats random, greedy or
    heuristic, no forced contract), else the ``Game`` deal by deal (slow path). All three play the
    same deals for the same bots. An illegal answer of a bot raises ``IllegalPlayError``.

    The one place where a run's path is chosen: :meth:`block` (facts and records of a block),
    :meth:`totals` (a run's totals) and :meth:`write` (a run whose every deal is written) all go
    through it."""

    def __init__(self, rules: Rules, seed: int, players: list[Player], threads: int = 1, forced=None):
        self.rules, self.seed, self.players, self.threads, self.forced = rules, seed, players, threads, forced
        self.fast = kernel_path(rules, players)
        self.bots = list(players) if self.fast else [p.python_bot() for p in players]
        self.batched = False  # Python bots deciding inside the batched engine (tarotsim.runs.pybatch)
        if not self.fast and all(p.policy is None for p in players):
            from .pybatch import batchable
            self.seats = [p.obj if p.obj is not None else (p.name, p.params) for p in players]
            self.batched = batchable(rules, self.seats, forced)

    def block(self, a: int, b: int, with_records: bool = False):
        """``(facts of deals a..b-1, their records or None)``."""
        from . import simulate as sim
        from . import slowpath

        if self.fast:  # the block shared out between the threads (one chunk each)
            f = sim.facts(self.rules, self.seed, a, b, bots=self.bots, threads=self.threads, forced=self.forced,
                          chunk_size=max(1, -(-(b - a) // max(1, self.threads))))
            recs = sim.records(self.rules, self.seed, range(a, b), bots=self.bots, forced=self.forced) \
                if with_records else None
            return f, recs
        f = np.zeros(b - a, dtype=sim.FACTS_DTYPE)
        if self.batched:
            from .pybatch import play_records
            recs = play_records(self.rules, self.seed, range(a, b), self.seats, self.bots)
            for i, rec in enumerate(recs):
                slowpath.facts_row(self.rules, rec, f, i)
            return f, (recs if with_records else None)
        recs = []
        for i, index in enumerate(range(a, b)):
            rec = slowpath.play_record(self.rules, self.seed, index, self.bots, self.forced)
            slowpath.facts_row(self.rules, rec, f, i)
            if with_records:
                recs.append(rec)
        return f, (recs if with_records else None)

    @property
    def block_size(self) -> int:
        """Deals per block when every deal is kept (:data:`FAST_BLOCK`, :data:`SLOW_BLOCK`)."""
        return FAST_BLOCK if self.fast else SLOW_BLOCK

    def totals(self, a: int, b: int, progress=None) -> np.ndarray:
        """The integer totals of deals ``a .. b - 1``.

        The integer totals (int64[ACC_LEN], ``layout.ACC_*``) of deals ``a .. b - 1``: the
        kernels' streaming aggregate on the fast path (``simulate.totals``), else block by block.
        ``progress(n)`` is called with the deals just finished."""
        from . import simulate as sim

        if self.fast:
            return sim.totals(self.rules, self.seed, a, b, bots=self.bots, threads=self.threads,
                              forced=self.forced, progress=progress)[0]
        return self.write(a, b, progress=progress)

    def write(self, a: int, b: int, *, facts=None, records=None, progress=None) -> np.ndarray:
        """Play a range of deals block by block and write each block.

        Play deals ``a .. b - 1`` block by block (:attr:`block_size`: bounded memory) and write
        each block as it comes: its facts to ``facts`` (``facts.write(f)``: a
        ``simulate.CsvFacts`` or ``simulate.ParquetFacts``), its records to the text stream
        ``records`` (one JSON line per deal, each naming its seats' bots: docs/records.md, field
        ``bots``). Returns the totals of the deals (int64[ACC_LEN], ``simulate.accumulate``);
        ``progress(n)`` is called after every block."""
        from . import simulate as sim
        from .._kernels.layout import ACC_LEN
        from ..record import dumps, with_seat_labels

        labels = [p.label for p in self.players]
        acc = np.zeros(ACC_LEN, dtype=np.int64)
        for x in range(a, b, self.block_size):
            y = min(b, x + self.block_size)
            f, recs = self.block(x, y, with_records=records is not None)
            acc += sim.accumulate(f, self.rules)
            if facts is not None:
                facts.write(f)
            if records is not None:
                records.write("".join(dumps(with_seat_labels(rec, bots=labels)) + "\n" for rec in recs))
            if progress is not None:
                progress(y - x)
        return acc
