"""A league's database: every game's per-deal scores, kept in SQLite as they are played.

The file is a SQLite database (the standard library's :mod:`sqlite3`) in write-ahead-log mode,
marked as a league's by its ``application_id`` (:data:`APPLICATION_ID`) and its ``schema`` table
(:data:`FORMAT`, :data:`VERSION`). Its tables:

| table | one row per | columns |
| --- | --- | --- |
| ``schema`` | database | ``format``, ``version`` |
| ``league`` | setting | ``key``, ``value`` (JSON): ``table``, ``options``, ``seed``, ``tarotsim``; the pool's ``deals``, ``filler``, ``anchor`` |
| ``entrants`` | bot ever entered | ``bot`` (its text), ``name``, ``place`` (in the current pool, NULL when out of it) |
| ``timings`` | bot timed | ``bot``, ``deals``, ``decisions``, ``seconds`` (one thread, the bot in every seat) |
| ``games`` | game | ``id``, ``seats`` (JSON list of the seats' bots, in seat order) |
| ``deals`` | deal of a game | ``game``, ``deal`` (its index), ``dealer``, ``scores`` |

``scores`` is ``rotations x seats`` little-endian int32 (rotation-major): in rotation ``r`` seat
``s`` is held by the game's seat ``(s + r) % n`` (``tarotsim.runs.tournament.rotations``). Each
stored chunk of a game's deals is one transaction, so a run stopped in any way (SIGTERM, Ctrl-C,
``kill -9``) leaves every chunk either whole or absent, and the next run plays what is absent.

The table, the options, the seed and the tarotsim version are fixed at the league's first run;
the pool (its deals, filler, anchor and entrants) is the one of the latest run, which is what
``tarotsim league --report`` reports. A file that is no SQLite database, another program's
database, a newer schema or a damaged file is one :class:`StoreError` line.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import sqlite3
from dataclasses import replace

import numpy as np

from .. import __version__, echo
from .pool import Entrant, Pool

FORMAT = "tarotsim-league"
#: The schema's version: a database of another version is refused (one line), never changed.
VERSION = 1
#: SQLite's ``PRAGMA application_id`` of a league's database (the bytes ``TSLG``).
APPLICATION_ID = int.from_bytes(b"TSLG", "big")

SCHEMA = """
CREATE TABLE schema (format TEXT NOT NULL, version INTEGER NOT NULL);
CREATE TABLE league (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE entrants (bot TEXT PRIMARY KEY, name TEXT NOT NULL, place INTEGER);
CREATE TABLE timings (bot TEXT PRIMARY KEY, deals INTEGER NOT NULL, decisions INTEGER NOT NULL,
                      seconds REAL NOT NULL);
CREATE TABLE games (id INTEGER PRIMARY KEY, seats TEXT NOT NULL UNIQUE);
CREATE TABLE deals (game INTEGER NOT NULL REFERENCES games (id), deal INTEGER NOT NULL,
                    dealer INTEGER NOT NULL, scores BLOB NOT NULL, PRIMARY KEY (game, deal)) WITHOUT ROWID;
"""
#: The settings fixed at a league's first run: a pool that differs in one is another league.
FIXED = ("table", "options", "seed", "tarotsim")


class StoreError(ValueError):
    """A league database that cannot be used (not one, damaged, another league's): one line for the user."""


class Store:
    """An open league database (:meth:`open`); close it, or use it as a context manager."""

    def __init__(self, path: str, conn: sqlite3.Connection):
        self.path = path
        self.conn = conn

    # -- opening ---------------------------------------------------------------------------------
    @classmethod
    def open(cls, path: str, create: bool = False) -> Store:
        """Open the league database ``path``; ``create``: a missing or empty file becomes a new one.

        Without ``create`` (the report), the file must hold a league, and nothing is written to it."""
        if os.path.isdir(path):
            raise StoreError(f"{path}: a folder, not a league database")
        exists = os.path.exists(path)
        if not exists and not create:
            raise StoreError(f"{path}: no such league database")
        try:
            conn = sqlite3.connect(path, timeout=30, isolation_level=None)
        except sqlite3.Error as e:
            raise StoreError(f"{path}: cannot open it ({e})") from None
        store = cls(path, conn)
        try:
            store._check(create)
        except BaseException:
            conn.close()
            raise
        return store

    def _check(self, create: bool) -> None:
        with self._errors():
            try:
                app = self.conn.execute("PRAGMA application_id").fetchone()[0]
                tables = {r[0] for r in self.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            except sqlite3.DatabaseError as e:
                what = "a damaged league database" if "malformed" in str(e) else "not a league database"
                raise StoreError(f"{self.path}: {what} (SQLite says: {e})") from None
            if not tables and app == 0:
                if not create:
                    raise StoreError(f"{self.path}: an empty database, holding no league")
                with self.transaction():
                    self.conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                    for statement in SCHEMA.split(";"):
                        if statement.strip():
                            self.conn.execute(statement)
                    self.conn.execute("INSERT INTO schema VALUES (?, ?)", (FORMAT, VERSION))
            elif app != APPLICATION_ID or "schema" not in tables:
                raise StoreError(f"{self.path}: not a league database (a SQLite database of other tables): "
                                 f"name another file")
            rows = self.conn.execute("SELECT format, version FROM schema").fetchall()
            if len(rows) != 1 or rows[0][0] != FORMAT:
                raise StoreError(f"{self.path}: a damaged league database (its schema table holds {echo.shown(rows)})")
            if rows[0][1] != VERSION:
                raise StoreError(f"{self.path}: a league database of schema version {echo.shown(rows[0][1])}; this "
                                 f"tarotsim reads version {VERSION}")
            problems = [r[0] for r in self.conn.execute("PRAGMA quick_check")]
            if problems != ["ok"]:
                raise StoreError(f"{self.path}: a damaged league database (SQLite's check: {echo.cut(problems[0])})")
            if create:
                self.conn.execute("PRAGMA journal_mode = WAL")
                self.conn.execute("PRAGMA synchronous = NORMAL")  # WAL: a process killed loses no commit

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self.conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @contextlib.contextmanager
    def _errors(self):
        """SQLite's errors as one :class:`StoreError` line naming the file."""
        try:
            yield
        except sqlite3.IntegrityError as e:
            raise StoreError(f"{self.path}: {e}: is another league running on this database?") from None
        except sqlite3.Error as e:
            what = "a damaged league database" if isinstance(e, sqlite3.DatabaseError) and \
                "malformed" in str(e) else "cannot use it"
            raise StoreError(f"{self.path}: {what} (SQLite says: {e})") from None

    @contextlib.contextmanager
    def transaction(self):
        """One transaction: committed whole at the end of the block, rolled back on any exception."""
        with self._errors():
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    self.conn.execute("ROLLBACK")
                raise
            self.conn.execute("COMMIT")

    # -- the league and its pool -------------------------------------------------------------------
    def settings(self) -> dict:
        """The league's settings (:data:`FIXED` and the current pool's), ``{}`` for a new database."""
        with self._errors():
            rows = self.conn.execute("SELECT key, value FROM league").fetchall()
        try:
            return {k: json.loads(v) for k, v in rows}
        except ValueError:
            raise StoreError(f"{self.path}: a damaged league database (a setting is not JSON)") from None

    def start(self, pool: Pool) -> Pool:
        """Make ``pool`` the league's current pool and return it with its seed.

        A new database takes the pool's table, options and seed (one drawn when the pool gives
        none) and this tarotsim's version; an existing one must hold the same (else a
        :class:`StoreError` naming the difference). The pool's deals, filler, anchor and entrants
        replace the previous pool's; the games already stored stay."""
        with self.transaction():
            held = self.settings()
            seed = pool.seed if pool.seed is not None else held.get("seed", secrets.randbelow(2**32))
            fixed = {"table": pool.table, "options": pool.options, "seed": seed, "tarotsim": __version__}
            if held:
                for key in FIXED:
                    if held.get(key) != fixed[key]:
                        raise StoreError(f"{self.path}: holds the league of {key} {_text(held.get(key))}, not "
                                         f"{_text(fixed[key])}: name another --db for another league")
            settings = {**fixed, "deals": pool.deals, "filler": pool.filler, "anchor": pool.anchor}
            self.conn.executemany("INSERT OR REPLACE INTO league VALUES (?, ?)",
                                  [(k, json.dumps(v)) for k, v in settings.items()])
            self.conn.execute("UPDATE entrants SET place = NULL")
            self.conn.executemany("INSERT INTO entrants VALUES (?, ?, ?) ON CONFLICT (bot) DO UPDATE "
                                  "SET name = excluded.name, place = excluded.place",
                                  [(e.bot, e.name, i) for i, e in enumerate(pool.entrants)])
        return replace(pool, seed=seed)

    def pool(self) -> Pool:
        """The league's current pool (that of its latest run), as the report reads it."""
        s = self.settings()
        if not s:
            raise StoreError(f"{self.path}: holds no league yet")
        with self._errors():
            rows = self.conn.execute("SELECT name, bot FROM entrants WHERE place IS NOT NULL ORDER BY place").fetchall()
        try:
            return Pool(tuple(Entrant(str(n), str(b)) for n, b in rows), str(s["anchor"]), str(s["table"]),
                        dict(s["options"]), int(s["seed"]), int(s["deals"]),
                        None if s["filler"] is None else str(s["filler"]))
        except (KeyError, TypeError, ValueError):
            raise StoreError(f"{self.path}: a damaged league database (its settings are not a league's)") from None

    # -- games and their deals -----------------------------------------------------------------------
    def game_ids(self, games: list[tuple[str, ...]]) -> list[int]:
        """The id of each game (its seats' bots in seat order), a new game added."""
        with self.transaction():
            self.conn.executemany("INSERT OR IGNORE INTO games (seats) VALUES (?)", [(json.dumps(g),) for g in games])
            ids = dict(self.conn.execute("SELECT seats, id FROM games").fetchall())
        return [ids[json.dumps(g)] for g in games]

    def find_games(self, games: list[tuple[str, ...]]) -> list[int | None]:
        """The id of each game, None for a game not stored (nothing is written)."""
        with self._errors():
            ids = dict(self.conn.execute("SELECT seats, id FROM games").fetchall())
        return [ids.get(json.dumps(g)) for g in games]

    def stored(self, game: int) -> list[tuple[int, int]]:
        """The deals of a game stored, as ranges ``(a, b)`` of their indices, in order."""
        with self._errors():
            deals = [r[0] for r in self.conn.execute("SELECT deal FROM deals WHERE game = ? ORDER BY deal", (game,))]
        out: list[list[int]] = []
        for d in deals:
            if out and out[-1][1] == d:
                out[-1][1] = d + 1
            else:
                out.append([d, d + 1])
        return [(a, b) for a, b in out]

    def add(self, game: int, first: int, scores: np.ndarray, dealer: np.ndarray) -> None:
        """Store the scores of a game's deals ``first ..`` in one transaction.

        ``scores``: ``int[deals, rotations, seats]``, ``dealer``: ``int[deals]``."""
        rows = [(game, first + i, int(dealer[i]), np.ascontiguousarray(scores[i], dtype="<i4").tobytes())
                for i in range(len(dealer))]
        with self.transaction():
            self.conn.executemany("INSERT INTO deals VALUES (?, ?, ?, ?)", rows)

    def scores(self, game: int, below: int, shape: tuple[int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(deal, dealer, scores)`` of a game's stored deals of index below ``below``, by index.

        ``scores``: ``int64[deals, rotations, seats]`` of ``shape`` ``(rotations, seats)``."""
        with self._errors():
            rows = self.conn.execute("SELECT deal, dealer, scores FROM deals WHERE game = ? AND deal < ? "
                                     "ORDER BY deal", (game, below)).fetchall()
        size = 4 * shape[0] * shape[1]
        if any(not isinstance(r[2], bytes) or len(r[2]) != size or not isinstance(r[1], int) or
               not 0 <= r[1] < shape[1] for r in rows):
            raise StoreError(f"{self.path}: a damaged league database (a deal's scores are not {shape[0]} "
                             f"rotations of {shape[1]} seats)")
        deal = np.array([r[0] for r in rows], dtype=np.int64)
        dealer = np.array([r[1] for r in rows], dtype=np.int64)
        scores = np.frombuffer(b"".join(r[2] for r in rows), dtype="<i4").astype(np.int64).reshape(len(rows), *shape)
        return deal, dealer, scores

    def count(self, games: list[int], below: int) -> int:
        """How many deals of index below ``below`` these games hold."""
        if not games:
            return 0
        with self._errors():
            marks = ",".join("?" * len(games))
            return int(self.conn.execute(f"SELECT COUNT(*) FROM deals WHERE game IN ({marks}) AND deal < ?",
                                         (*games, below)).fetchone()[0])

    # -- time per decision ---------------------------------------------------------------------------
    def timings(self) -> dict[str, tuple[int, int, float]]:
        """``{bot: (deals, decisions, seconds)}`` of every bot timed."""
        with self._errors():
            return {b: (int(d), int(n), float(s)) for b, d, n, s in self.conn.execute("SELECT * FROM timings")}

    def add_timing(self, bot: str, deals: int, decisions: int, seconds: float) -> None:
        with self.transaction():
            self.conn.execute("INSERT OR REPLACE INTO timings VALUES (?, ?, ?, ?)", (bot, deals, decisions, seconds))


def _text(value) -> str:
    return echo.cut(json.dumps(value) if not isinstance(value, str) else value)


__all__ = ["APPLICATION_ID", "FIXED", "FORMAT", "SCHEMA", "Store", "StoreError", "VERSION"]
