"""The evenings in SQLite: every finished deal's record, and the deal in progress, kept at every step.

One file (``tarotsim serve --db FILE``; by default :func:`default_path`, in the user's data
folder) holds the evenings played in the browser. An evening is a table, the person's seat, the
bots at the other seats, a seed and the players' names; its deals are the deal records of
docs/records.md (with the players' names, ``players``), numbered from 1 in the order they were
played, each with its review (the cards' costs) once the solver has made it.

The deal in progress is kept too, after every decision: the events the game logged so far
(:attr:`tarotsim.engine.Game.events`), the écart cards picked so far and the state of the bots'
and the hints' random streams. Each change is one transaction, so a server stopped in any way
(SIGTERM, Ctrl-C, ``kill -9``) and started again on the same file resumes the evening at the
very decision it had reached (:meth:`Store.progress`, :func:`events_of`).

The schema is versioned (``PRAGMA user_version``, :data:`SCHEMA_VERSION`) and the file marked as
tarotsim's (``PRAGMA application_id``): a file of another program, or of a later schema, is
refused with one line (:class:`StoreError`), never written.
"""

from __future__ import annotations

import contextlib
import datetime
import json
import os
import sqlite3
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import echo
from ..cards import Card
from ..engine import Event

__all__ = ["SCHEMA_VERSION", "Evening", "Progress", "Store", "StoreError", "default_path", "event_json", "events_of"]

#: The schema this module writes and reads; a file of another version is refused.
SCHEMA_VERSION = 1
#: ``PRAGMA application_id`` of a tarotsim evenings file ("taro" in ASCII).
APPLICATION_ID = 0x7461726F

_SCHEMA = """
CREATE TABLE evenings (
    id INTEGER PRIMARY KEY,
    created TEXT NOT NULL,        -- when it began, ISO 8601 in UTC
    tbl TEXT NOT NULL,            -- the table: 3, 4, 5, 5d
    options TEXT NOT NULL,        -- the variant options that differ from the rules, JSON {name: value}
    seat INTEGER NOT NULL,        -- the person's seat
    bots TEXT NOT NULL,           -- the bots at the other seats, as --bots names them
    seed INTEGER NOT NULL,        -- deal (seed, index) for every deal of the evening
    names TEXT NOT NULL,          -- the players' names in seat order, JSON
    ended INTEGER NOT NULL DEFAULT 0  -- 1 once the person ended it: no more deals
);
CREATE TABLE deals (
    evening INTEGER NOT NULL REFERENCES evenings(id),
    number INTEGER NOT NULL,      -- 1, 2 ... in the order played
    record TEXT NOT NULL,         -- the deal record (docs/records.md), JSON
    review TEXT,                  -- the cards' costs (card_costs, best_cards ...), JSON, once analysed
    PRIMARY KEY (evening, number)
);
CREATE TABLE progress (
    evening INTEGER PRIMARY KEY REFERENCES evenings(id),
    number INTEGER NOT NULL,      -- the number the deal in progress will have
    deal_index INTEGER NOT NULL,  -- its index: the deal is (seed, index)
    events TEXT NOT NULL,         -- the events logged so far, JSON (event_json)
    picks TEXT NOT NULL,          -- the écart cards picked so far, JSON
    bots_state TEXT NOT NULL,     -- the bots' random stream (a 64-bit state, in decimal)
    hints_state TEXT NOT NULL     -- the hints' random stream
);
"""


class StoreError(ValueError):
    """A database that cannot be used (not tarotsim's, another schema, unreadable), or an evening it lacks."""


@dataclass(frozen=True)
class Evening:
    """An evening of the database: its table and players, and how far it went.

    ``deals`` counts the finished deals, ``totals`` are the players' running totals after them;
    ``ended``: the person ended it (no deal is in progress)."""

    id: int
    created: str
    table: str
    options: dict
    seat: int
    bots: str
    seed: int
    names: list[str]
    ended: bool
    deals: int
    totals: list[int]


@dataclass(frozen=True)
class Progress:
    """The deal in progress of an evening: enough to set it up again exactly where it was."""

    evening: int
    number: int
    index: int
    events: list[Event]
    picks: list[Card]
    bots_state: int
    hints_state: int


def default_path() -> Path:
    """Where the evenings are kept by default: ``$XDG_DATA_HOME/tarotsim/evenings.sqlite3``.

    (``~/.local/share`` when ``XDG_DATA_HOME`` is not set.)"""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "tarotsim" / "evenings.sqlite3"


def event_json(ev: Event) -> list:
    """An event of :attr:`tarotsim.engine.Game.events` as JSON values: ``[kind, seat, value]``, cards by name."""
    v: Any = ev.value  # its type follows ``kind`` (tarotsim.engine.Event)
    value: object
    if isinstance(v, Card):
        value = str(v)
    elif ev.kind in ("ecart", "trick"):
        value = [str(c) for c in v]
    elif ev.kind == "poignee" and v is not None:
        value = [v[0], [str(c) for c in v[1]]]
    elif ev.kind == "misere":
        value = list(v)
    else:
        value = v
    return [ev.kind, ev.seat, value]


def events_of(rows) -> list[Event]:
    """The events :func:`event_json` wrote, for :meth:`tarotsim.engine.Game.replay`.

    Raises :class:`StoreError` for rows of another shape (a file edited by hand): the game's
    replay then judges each event by the rules."""
    out = []
    try:
        for kind, seat, value in rows:
            if kind in ("call", "card"):
                value = Card.parse(value)
            elif kind in ("ecart", "trick"):
                value = tuple(Card.parse(c) for c in value)
            elif kind == "poignee" and value is not None:
                value = (value[0], tuple(Card.parse(c) for c in value[1]))
            elif kind == "misere":
                value = (value[0], bool(value[1]))
            out.append(Event(kind, seat, value))
    except (TypeError, ValueError, IndexError) as e:
        raise StoreError(f"the deal in progress holds an event of no known shape ({echo.cut(e, echo.MESSAGE)})") \
            from None
    return out


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


class Store:
    """The evenings file, opened (and created, with ``create``) for reading and writing.

    One connection, shared by the server's threads under a lock; every change is one
    transaction. Raises :class:`StoreError` for a file that cannot be used.
    """

    def __init__(self, path, create: bool = True):
        self.path = Path(path)
        if not create and not self.path.is_file():
            raise StoreError(f"{self.path}: no such database")
        if create and not self.path.parent.is_dir():
            raise StoreError(f"{self.path}: no folder {self.path.parent}")
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=10)
        except sqlite3.Error as e:
            raise StoreError(f"{self.path}: cannot open it ({e})") from None
        try:
            self._set_up()
        except sqlite3.DatabaseError as e:  # not an SQLite file at all
            self._db.close()
            raise StoreError(f"{self.path} is not a tarotsim evenings database ({e})") from None
        except StoreError:
            self._db.close()
            raise

    def _set_up(self) -> None:
        db = self._db
        app = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if app == 0 and version == 0 and tables == 0:  # a new file (or an empty one)
            with self._transaction():  # the tables and the marks at once: a file half made is never left
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        elif app != APPLICATION_ID:
            raise StoreError(f"{self.path} is not a tarotsim evenings database: it is another program's")
        elif version != SCHEMA_VERSION:
            raise StoreError(f"{self.path}: evenings of schema {version}, this tarotsim reads schema {SCHEMA_VERSION}")
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = FULL")
        db.execute("PRAGMA foreign_keys = ON")

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def _read(self, sql: str, args=()) -> list[tuple]:
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # -- evenings ----------------------------------------------------------------------------------
    def new_evening(self, table: str, options: dict, seat: int, bots: str, seed: int, names: list[str],
                    index: int, bots_state: int, hints_state: int) -> int:
        """Begin an evening, its first deal (``index``) in progress with the streams' states; its id."""
        with self._transaction() as db:
            cur = db.execute("INSERT INTO evenings (created, tbl, options, seat, bots, seed, names) "
                             "VALUES (?, ?, ?, ?, ?, ?, ?)",
                             (_now(), table, json.dumps(options), seat, bots, seed, json.dumps(names)))
            evening = cur.lastrowid
            assert evening is not None
            db.execute("INSERT INTO progress VALUES (?, 1, ?, '[]', '[]', ?, ?)",
                       (evening, index, str(bots_state), str(hints_state)))
        return evening

    def evening(self, evening: int) -> Evening:
        """One evening, or :class:`StoreError` when the file has none of that id."""
        found = self._evenings("WHERE id = ?", (evening,))
        if not found:
            raise StoreError(f"{self.path} holds no evening {echo.shown(evening)}")
        return found[0]

    def evenings(self) -> list[Evening]:
        """Every evening of the file, the latest first."""
        return self._evenings("ORDER BY id DESC", ())

    def _evenings(self, where: str, args) -> list[Evening]:
        rows = self._read(f"SELECT id, created, tbl, options, seat, bots, seed, names, ended FROM evenings {where}",
                          args)
        out = []
        for eid, created, table, options, seat, bots, seed, names, ended in rows:
            names = json.loads(names)
            totals = [0] * len(names)
            records = self.records(eid)
            for rec in records:
                totals = [t + s for t, s in zip(totals, rec["scores"])]
            out.append(Evening(eid, created, table, json.loads(options), seat, bots, seed, names, bool(ended),
                               len(records), totals))
        return out

    def end_evening(self, evening: int) -> None:
        """The person ended the evening: the deal in progress is dropped, no deal follows."""
        with self._transaction() as db:
            db.execute("DELETE FROM progress WHERE evening = ?", (evening,))
            db.execute("UPDATE evenings SET ended = 1 WHERE id = ?", (evening,))

    # -- the deal in progress ------------------------------------------------------------------------
    def save_progress(self, evening: int, events: list[Event], picks: list[Card], bots_state: int,
                      hints_state: int) -> None:
        """Keep the deal in progress as it is now (after every decision)."""
        with self._transaction() as db:
            db.execute("UPDATE progress SET events = ?, picks = ?, bots_state = ?, hints_state = ? WHERE evening = ?",
                       (json.dumps([event_json(e) for e in events]), json.dumps([str(c) for c in picks]),
                        str(bots_state), str(hints_state), evening))

    def progress(self, evening: int) -> Progress | None:
        """The deal in progress of an evening, None once it ended."""
        rows = self._read("SELECT number, deal_index, events, picks, bots_state, hints_state FROM progress "
                          "WHERE evening = ?", (evening,))
        if not rows:
            return None
        number, index, events, picks, bots_state, hints_state = rows[0]
        try:
            return Progress(evening, number, index, events_of(json.loads(events)),
                            [Card.parse(c) for c in json.loads(picks)], int(bots_state), int(hints_state))
        except (ValueError, TypeError) as e:
            raise StoreError(f"{self.path}: evening {evening}: the deal in progress cannot be read "
                             f"({echo.cut(e, echo.MESSAGE)})") from None

    def finish_deal(self, evening: int, record: dict, next_index: int, bots_state: int, hints_state: int) -> int:
        """Store a finished deal's record and set the next deal in progress, at once; the deal's number."""
        with self._transaction() as db:
            (number,) = db.execute("SELECT number FROM progress WHERE evening = ?", (evening,)).fetchone()
            db.execute("INSERT INTO deals (evening, number, record) VALUES (?, ?, ?)",
                       (evening, number, json.dumps(record)))
            db.execute("UPDATE progress SET number = ?, deal_index = ?, events = '[]', picks = '[]', bots_state = ?, "
                       "hints_state = ? WHERE evening = ?",
                       (number + 1, next_index, str(bots_state), str(hints_state), evening))
        return number

    # -- finished deals ---------------------------------------------------------------------------------
    def records(self, evening: int) -> list[dict]:
        """The records of an evening's finished deals, in order."""
        return [json.loads(r) for (r,) in self._read("SELECT record FROM deals WHERE evening = ? ORDER BY number",
                                                     (evening,))]

    def jsonl(self, evening: int) -> bytes:
        """An evening's records as a JSON Lines file (docs/records.md), one deal per line in order.

        Raises :class:`StoreError` for an evening the file does not hold."""
        from ..record import dumps

        self.evening(evening)
        return "".join(dumps(r) + "\n" for r in self.records(evening)).encode()

    def set_review(self, evening: int, number: int, review: dict) -> None:
        with self._transaction() as db:
            db.execute("UPDATE deals SET review = ? WHERE evening = ? AND number = ?",
                       (json.dumps(review), evening, number))

    def review(self, evening: int, number: int) -> dict | None:
        """A finished deal's review, None while it is not made (or the deal is not there)."""
        rows = self._read("SELECT review FROM deals WHERE evening = ? AND number = ?", (evening, number))
        return json.loads(rows[0][0]) if rows and rows[0][0] is not None else None

    def record(self, evening: int, number: int) -> dict | None:
        rows = self._read("SELECT record FROM deals WHERE evening = ? AND number = ?", (evening, number))
        return json.loads(rows[0][0]) if rows else None
