"""Deal records as JSON Lines (docs/records.md): dump, load, replay, verify.

One JSON object per line, one deal per object. :func:`load` checks the shape of every record
(fields, types, card names, duplicate cards); :func:`replay` plays every decision of a record
again through the reference engine (:mod:`tarotsim.reference`) and recomputes its result and
scores; :func:`verify` does the same and also compares them with the recorded ones. Every
failure is a :class:`RecordError` naming the line, the action (``"trick 7, seat 2 plays T5"``)
and the rule it breaks, and it is always the *first* bad thing of the record.

Records written by other programs are welcome: extra fields are ignored, ``options`` may be
``{}`` or absent, ``seed``/``index`` may be null, ``called``/``partner`` may be absent away
from table 5, hands may be in any order, and the passes after a garde contre may be left out.
"""

from __future__ import annotations

import collections
import contextlib
import gzip
import io
import itertools
import json
import os
import sys
import zlib
from dataclasses import dataclass
from collections.abc import Iterable, Iterator
from typing import NoReturn

from . import echo, json_input
from .cards import DECK, Card, CardError
from .outputs import open_outputs
from .rules import CONTRACT_OF, CONTRACTS, POIGNEE_LEVELS, TABLES, Rules, RulesError
from .reference.deal import ReferenceDeal
from .reference.errors import RuleViolation
from .reference.play import RECORD_FORMAT

OUTCOMES = ("played", "all_passed", "petit_sec")
DECLARATION_KINDS = ("poignee", "chelem", "misere_atout", "misere_tete")
RESULT_FIELDS = {  # field -> (types, rule that fixes its value)
    "attack_half_points": ((int,), "R-COUNT-1"),
    "oudlers": ((int,), "R-COUNT-2"),
    "made": ((bool,), "R-COUNT-4"),
    "difference": ((int,), "R-COUNT-4"),
    "petit_au_bout": ((str, type(None)), "R-PAB-1"),
    "chelem": ((str, type(None)), "R-SLAM-3"),
    "value": ((int,), "R-SCORE-1"),
}


class RecordError(ValueError):
    """A record that is malformed or breaks a rule.

    ``line`` (1-based line of the file, or None), ``action`` (what was being done or which
    field, e.g. ``"trick 7, seat 2 plays T5"``), ``rule_id`` (``"R-PLAY-4a"``, or None for
    a format error) and ``message``.
    """

    def __init__(self, line: int | None, action: str | None, rule_id: str | None, message: str):
        self.line = line
        self.action = action
        self.rule_id = rule_id
        self.message = message
        parts = []
        if line is not None:
            parts.append(f"line {line}")
        if action:
            parts.append(action)
        text = ": ".join(parts + [message])
        super().__init__(text + (f" ({rule_id})" if rule_id else ""))

    def __reduce__(self):  # travels between processes (replay with several workers)
        return (type(self), (self.line, self.action, self.rule_id, self.message))


class Record(dict):
    """A deal record as :func:`load` reads it.

    A deal record as :func:`load` reads it: the plain dict of docs/records.md (compared, copied and
    written as one), which a notebook also shows as a picture of the table at the start of play
    (``_repr_svg_``, ``_repr_html_``: :func:`record_svg`)."""

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return record_svg(self)

    def _repr_html_(self) -> str:
        from .svg import html_figure
        return html_figure(self._repr_svg_())


@dataclass(frozen=True)
class VerifyResult:
    """What replaying a record gives: the outcome, the recomputed result and scores, the deal."""

    outcome: str
    result: dict | None
    scores: list[int]
    deal: ReferenceDeal

    @property
    def winners(self) -> list[int]:
        return [t.winner for t in self.deal.tricks]


# --------------------------------------------------------------------------------------------
# dump / load


def _json_default(x):
    # numpy scalars from the kernels: keep records plain JSON
    if hasattr(x, "item"):
        return x.item()
    raise TypeError(f"{type(x).__name__} is not JSON serialisable")


def dumps(record: dict) -> str:
    """One record as one line of JSON (no newline)."""
    return json.dumps(record, ensure_ascii=False, default=_json_default)


def dump(records: Iterable[dict], path_or_file) -> int:
    """Write records as JSON Lines; return how many.

    To a path: all or nothing, through :func:`tarotsim.outputs.open_outputs` (a temporary file
    renamed over the target, a link written through, a pipe or device written into, ``.gz``
    compressed, ``-`` standard output). To an open text file: written as is (the caller owns
    atomicity).
    """
    if isinstance(records, dict):
        records = [records]
    if hasattr(path_or_file, "write"):
        return _write_lines(records, path_or_file)
    with open_outputs({"records": os.fspath(path_or_file)}) as outs:
        return _write_lines(records, outs["records"].fh)


def _write_lines(records, f) -> int:
    n = 0
    for r in records:
        f.write(dumps(r) + "\n")
        n += 1
    return n


def load(path_or_file) -> Iterator[tuple[int, dict]]:
    """Yield ``(line number, record)`` for each non-blank line, checking each record's shape.

    ``path_or_file`` is a path, ``"-"`` for standard input, or an open file (binary or text).
    Gzip data is decompressed on the fly, recognised by its magic bytes (1f 8b) whatever the
    file's name. Raises RecordError naming the line for a line that is not UTF-8, longer than
    :data:`MAX_LINE_BYTES` or not JSON, for missing fields, wrong types, unknown card names and
    duplicate cards (see :func:`check_record`), and for truncated or corrupt gzip data.
    """
    with open_records(path_or_file) as f:
        for lineno, raw in read_lines(f):
            record = parse_line(raw, lineno)
            if record is not None:
                yield lineno, record


#: The longest line read (a real record is about 2.2 KB): a longer one is refused, not read whole.
MAX_LINE_BYTES = 1 << 20
GZIP_MAGIC = b"\x1f\x8b"


@contextlib.contextmanager
def open_records(path_or_file):
    """A stream of the lines of ``path_or_file``, gzip data decompressed (see :func:`load`).

    A path is opened (and closed again) here; an open file (or standard input for ``"-"``) is
    left open. The stream is binary, or text if a text file was given.
    """
    if isinstance(path_or_file, str) and path_or_file == "-":
        path_or_file = sys.stdin.buffer
    if hasattr(path_or_file, "read"):
        with _decompressed(path_or_file) as f:
            yield f
        return
    with open(path_or_file, "rb") as raw, _decompressed(raw) as f:
        yield f


@contextlib.contextmanager
def _decompressed(f):
    if isinstance(f.read(0), str):  # a text file: already decoded, nothing to detect
        yield f
        return
    wrapper = None
    if hasattr(f, "peek"):
        head = f.peek(len(GZIP_MAGIC))[:len(GZIP_MAGIC)]
    elif f.seekable():
        start = f.tell()
        head = f.read(len(GZIP_MAGIC))
        f.seek(start)
    else:  # a bare binary stream: buffer it to look ahead without losing bytes
        f = wrapper = io.BufferedReader(f)
        head = f.peek(len(GZIP_MAGIC))[:len(GZIP_MAGIC)]
    try:
        if head == GZIP_MAGIC:
            with gzip.GzipFile(fileobj=f, mode="rb") as gz:  # leaves ``f`` open
                yield gz
        else:
            yield f
    finally:
        if wrapper is not None:
            wrapper.detach()  # the caller's stream stays open


def read_lines(f) -> Iterator[tuple[int, bytes | str]]:
    """Yield ``(line number, raw line)`` from a stream of :func:`open_records`, blank ones too.

    Raises RecordError naming the line for a line longer than :data:`MAX_LINE_BYTES` and for
    gzip data that ends early or is corrupt (the lines before are yielded first).
    """
    lineno = 0
    while True:
        lineno += 1
        try:
            raw = f.readline(MAX_LINE_BYTES + 1)
        except EOFError:
            raise RecordError(lineno, None, None, "the gzip data ends early: the file is truncated") from None
        except (gzip.BadGzipFile, zlib.error) as e:
            raise RecordError(lineno, None, None, f"corrupt gzip data ({e})") from None
        except UnicodeDecodeError as e:  # a text stream whose decoder met a bad byte
            raise RecordError(lineno, None, None,
                              f"not {e.encoding} text (byte 0x{e.object[e.start]:02x})") from None
        if not raw:
            return
        if len(raw) > MAX_LINE_BYTES and raw[-1:] not in (b"\n", "\n"):
            raise RecordError(lineno, None, None, f"longer than {MAX_LINE_BYTES // (1 << 20)} MiB: not a deal "
                                                  "record (one is about 2 KB)")
        yield lineno, raw


def parse_line(raw: bytes | str, lineno: int | None = None) -> dict | None:
    """One line of a records file as a checked record (:func:`check_record`), None if blank."""
    if isinstance(raw, bytes):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise RecordError(lineno, None, None,
                              f"not UTF-8 text (byte 0x{raw[e.start]:02x} at column {e.start + 1})") from None
    else:
        text = raw
    if lineno == 1 and text.startswith("\ufeff"):  # a byte-order mark some editors write
        text = text[1:]
    if not text.strip():
        return None
    try:  # an error at the end of the line is in its last column
        record = json_input.loads(text.rstrip("\r\n"), "a deal record")
    except json_input.JSONInputError as e:
        raise RecordError(lineno, None, None, str(e)) from None
    check_record(record, lineno)
    return Record(record)


def record_at(path_or_file, line: int | None = None) -> tuple[int, dict]:
    """Read the record on one line of a records file.

    ``(line number, record)`` of the record on line ``line`` of a records file (1-based; None:
    the first record), its shape checked. The lines before it are not parsed.

    Raises RecordError when that line is blank, is not there or holds no valid record, and when
    the file (None) holds no record at all. Read as by :func:`load` (gzip, ``"-"``).
    """
    if line is not None and line < 1:
        raise ValueError(f"lines are numbered from 1, not {line}")
    n_lines = 0
    with open_records(path_or_file) as f:
        for lineno, raw in read_lines(f):
            n_lines = lineno
            if line is not None and lineno != line:
                continue
            record = parse_line(raw, lineno)
            if record is not None:
                return lineno, record
            if line is not None:
                raise RecordError(lineno, None, None, "a blank line: no deal record there")
    if line is None:
        raise RecordError(None, None, None, "no deal record in the file")
    raise RecordError(line, None, None, f"no such line: the file has {n_lines} line(s)")


def records_at(path_or_file, lines=None) -> list[tuple[int, dict]]:
    """Read the records on some lines of a records file.

    ``(line number, record)`` of the records on ``lines`` of a records file (1-based, in file
    order; None: every record), their shape checked; the other lines are not parsed.

    Raises RecordError when a line asked for is blank, is not there or holds no valid record.
    Read as by :func:`load` (gzip, ``"-"``).
    """
    wanted = None if lines is None else set(lines)
    if wanted is not None and any(n < 1 for n in wanted):
        raise ValueError(f"lines are numbered from 1, not {min(wanted)}")
    out: list[tuple[int, dict]] = []
    n_lines = 0
    with open_records(path_or_file) as f:
        for lineno, raw in read_lines(f):
            n_lines = lineno
            if wanted is not None and lineno not in wanted:
                continue
            record = parse_line(raw, lineno)
            if record is not None:
                out.append((lineno, record))
            elif wanted is not None:
                raise RecordError(lineno, None, None, "a blank line: no deal record there")
    if wanted is not None and max(wanted, default=0) > n_lines:
        raise RecordError(max(wanted), None, None, f"no such line: the file has {n_lines} line(s)")
    return out


#: Extra fields (docs/records.md allows them) naming who held each seat, one text per seat: ``players``
#: the players' names (``tarotsim play`` writes them), ``bots`` the bot of each seat as ``--bots``
#: names it (``simulate --records``); ``tarotsim stats`` reports by either. Like every extra field
#: they are not checked on loading: a record of another program may use the names otherwise.
SEAT_LABEL_FIELDS = ("players", "bots")


def seat_labels(record: dict, field: str) -> list[str] | None:
    """The record's seat labels, or None.

    The record's ``players`` or ``bots`` (:data:`SEAT_LABEL_FIELDS`) when it is one text per
    seat, else None; a character that would break a table or a line (a newline, an escape) is
    shown escaped (:func:`tarotsim.echo.printable`): the file is someone else's to correct."""
    v = record.get(field)
    if isinstance(v, list) and len(v) == len(record["hands"]) and all(isinstance(x, str) for x in v):
        return [echo.printable(x) for x in v]
    return None


def with_seat_labels(record: dict, players=None, bots=None) -> dict:
    """The record with its seat labels added.

    ``record`` with the fields ``players`` and/or ``bots`` (one text per seat) added after
    ``scores`` (a new dict; the fields of docs/records.md keep their meaning)."""
    out = dict(record)
    for name, labels in (("players", players), ("bots", bots)):
        if labels is not None:
            labels = [str(x) for x in labels]
            if len(labels) != len(record["hands"]):
                raise ValueError(f"{name}: one per seat ({len(record['hands'])}), not {len(labels)}")
            out[name] = labels
    return out


# --------------------------------------------------------------------------------------------
# shape of a record


def check_appendable(path: str) -> bool:
    """Check that records may be appended to a plain file.

    Check that records may be appended to the plain file ``path`` (``tarotsim play
    --records``): missing or empty, or a records file whose first record reads (its shape, not
    its replay). Returns whether a newline must be written first (the last line is not ended).
    A file that is not a records file raises :class:`RecordError` (its line and why), so new
    JSON is never glued onto something else; an unreadable one ``OSError``."""
    try:
        size = os.path.getsize(path)
    except FileNotFoundError:
        return False
    if size == 0:
        return False
    with open(path, "rb") as f:
        for lineno, raw in read_lines(f):
            if parse_line(raw, lineno) is not None:  # raises for what is not a deal record
                break
        f.seek(size - 1)
        return f.read(1) != b"\n"


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _type_name(x) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "true/false",
            int: "a number", float: "a number", type(None): "null"}.get(type(x), type(x).__name__)


_CARD_BY_NAME = {str(c): c for c in DECK}
def check_record(record, line: int | None = None) -> None:
    """Check the shape of a record (docs/records.md): fields, types, card names, duplicate cards.

    Rules of the game are :func:`replay`'s business; this only makes sure they can be asked.
    The checks run in the record's field order and stop at the first problem (a
    :class:`RecordError` naming the field).
    """
    if not isinstance(record, dict):
        raise RecordError(line, None, None, f"a record is a JSON object, not {_type_name(record)}")
    shape = _Shape(record, line)
    _check_identity(shape)
    _check_dealt(shape)
    _check_auction(shape)
    _check_declarations(shape)
    _check_tricks(shape)
    _check_result(shape)


class _Shape:
    """The checks of one record's shape (:func:`check_record`): each raises the first problem."""

    def __init__(self, record: dict, line: int | None):
        self.record, self.line = record, line

    def fail(self, field, message, rule_id=None) -> NoReturn:
        raise RecordError(self.line, f"field {field}" if field else None, rule_id, message)

    def need(self, field, ok, what):
        """The field is present and ``ok`` of its value (else "must be ``what``")."""
        if field not in self.record:
            self.fail(field, "missing field")
        if not ok(self.record[field]):
            self.fail(field, f"must be {what}, not {_type_name(self.record[field])}")

    def optional_int(self, field, what):
        """The field, when present, is a whole number or null."""
        value = self.record.get(field)
        if field in self.record and not (value is None or _is_int(value)):
            self.fail(field, f"must be {what} or null, not {_type_name(value)}")

    def card(self, field, name) -> Card:
        if not isinstance(name, str):
            self.fail(field, f"a card is a name such as KH or T21, not {_type_name(name)}")
        if name in _CARD_BY_NAME:  # the canonical name, as written by tarotsim
            return _CARD_BY_NAME[name]
        try:
            return Card.parse(name)
        except CardError:
            self.fail(field, f"unknown card {echo.shown(name)}", "R-CARD-1")

    def card_list(self, field, value, distinct=True) -> list[Card]:
        if not isinstance(value, list):
            self.fail(field, f"must be a list of cards, not {_type_name(value)}")
        cards = [self.card(field, n) for n in value]
        if distinct:
            seen = set()
            for c in cards:
                if c in seen:
                    self.fail(field, f"{c} appears twice", "R-CARD-1")
                seen.add(c)
        return cards


def _check_identity(shape: _Shape) -> None:
    """The format, the table (R-GEN-1), the options and the deal's identity (seed, index)."""
    record = shape.record
    shape.need("format", lambda v: isinstance(v, str), "a string")
    if record["format"] != RECORD_FORMAT:
        shape.fail("format", f"unknown format {echo.shown(record['format'])}: expected {RECORD_FORMAT!r}")
    shape.need("table", lambda v: isinstance(v, str), "a string")
    if record["table"] not in TABLES:
        shape.fail("table", f"unknown table {echo.shown(record['table'])}: one of {', '.join(TABLES)}", "R-GEN-1")
    if "options" in record and not isinstance(record["options"], dict):
        shape.fail("options", f"must be an object, not {_type_name(record['options'])}")
    for f in ("seed", "index"):
        shape.optional_int(f, "a whole number")


def _check_dealt(shape: _Shape) -> None:
    """Check the record's dealer, hands, piles and chien.

    The dealer, the hands, the piles at table 2 (R-VAR-TWO) and the chien: card names, and no
    card dealt twice (R-DEAL-1)."""
    record = shape.record
    shape.need("dealer", _is_int, "a seat number")
    shape.need("hands", lambda v: isinstance(v, list), "a list of hands")
    shape.need("chien", lambda v: isinstance(v, list), "a list of cards")
    dealt = []
    for i, h in enumerate(record["hands"]):
        dealt += shape.card_list(f"hands[{i}]", h, distinct=False)
    if record["table"] == "2" and "piles" not in record:  # the piles laid before each player
        shape.fail("piles", "missing field: at table 2 each player has 6 piles of 3 cards", "R-VAR-TWO")
    if record.get("piles") is not None:
        if not isinstance(record["piles"], list):
            shape.fail("piles", f"must be a list of piles per seat, not {_type_name(record['piles'])}")
        for i, ps in enumerate(record["piles"]):
            if not isinstance(ps, list):
                shape.fail(f"piles[{i}]", f"must be a list of piles, not {_type_name(ps)}")
            for pile_no, p in enumerate(ps):
                dealt += shape.card_list(f"piles[{i}][{pile_no}]", p, distinct=False)
    dealt += shape.card_list("chien", record["chien"], distinct=False)
    seen = set()
    for c in dealt:
        if c in seen:
            shape.fail("hands", f"{c} is dealt twice", "R-DEAL-1")
        seen.add(c)


def _check_auction(shape: _Shape) -> None:
    """Check the record's auction, taker, contract, call and écart.

    The bids, the outcome, the taker, partner and contract (R-BID-1), what a played deal must
    name, the called card and the écart."""
    record = shape.record
    shape.need("bids", lambda v: isinstance(v, list), "a list of [seat, bid]")
    for i, b in enumerate(record["bids"]):
        if not (isinstance(b, list) and len(b) == 2 and _is_int(b[0]) and isinstance(b[1], str)):
            shape.fail(f"bids[{i}]", "a bid is [seat, \"pass\"|contract]")
    shape.need("outcome", lambda v: isinstance(v, str), "a string")
    if record["outcome"] not in OUTCOMES:
        shape.fail("outcome", f"unknown outcome {echo.shown(record['outcome'])}: one of {', '.join(OUTCOMES)}")
    for f in ("taker", "partner"):
        shape.optional_int(f, "a seat number")
    if "contract" in record and record["contract"] is not None and record["contract"] not in CONTRACTS:
        shape.fail("contract", f"unknown contract {echo.shown(record['contract'])}", "R-BID-1")
    if record["outcome"] == "played":
        for f in ("taker", "contract", "tricks"):
            if record.get(f) is None:
                shape.fail(f, "missing field (the deal was played)")
    if record.get("called") is not None:
        shape.card("called", record["called"])
    if "ecart" in record:
        shape.card_list("ecart", record["ecart"])


def _check_declarations(shape: _Shape) -> None:
    """Each declaration: its seat, its kind, and a poignée's level and cards (R-POIG-1)."""
    record = shape.record
    if "declarations" not in record:
        return
    if not isinstance(record["declarations"], list):
        shape.fail("declarations", f"must be a list, not {_type_name(record['declarations'])}")
    for i, d in enumerate(record["declarations"]):
        f = f"declarations[{i}]"
        if not isinstance(d, dict):
            shape.fail(f, f"must be an object, not {_type_name(d)}")
        if not _is_int(d.get("seat")):
            shape.fail(f + ".seat", "missing or not a seat number")
        if d.get("kind") not in DECLARATION_KINDS:
            shape.fail(f + ".kind",
                       f"unknown declaration {echo.shown(d.get('kind'))}: one of {', '.join(DECLARATION_KINDS)}")
        if d["kind"] == "poignee":
            if d.get("level") not in POIGNEE_LEVELS:
                shape.fail(f + ".level", f"poignée level is simple, double or triple, not {echo.shown(d.get('level'))}",
                           "R-POIG-1")
            if "cards" not in d:
                shape.fail(f + ".cards", "missing field")
            shape.card_list(f + ".cards", d["cards"])


def _check_tricks(shape: _Shape) -> None:
    """Each trick: its leader, its winner and its cards (distinct)."""
    record = shape.record
    if "tricks" not in record:
        return
    if not isinstance(record["tricks"], list):
        shape.fail("tricks", f"must be a list, not {_type_name(record['tricks'])}")
    for i, t in enumerate(record["tricks"]):
        f = f"tricks[{i}]"
        if not isinstance(t, dict):
            shape.fail(f, f"must be an object, not {_type_name(t)}")
        for k in ("leader", "winner"):
            if not _is_int(t.get(k)):
                shape.fail(f"{f}.{k}", "missing or not a seat number")
        shape.card_list(f + ".cards", t.get("cards"))


def _check_result(shape: _Shape) -> None:
    """The result's fields (their types, ``RESULT_FIELDS``) and the scores (whole numbers)."""
    record = shape.record
    if record.get("result") is not None:
        res = record["result"]
        if not isinstance(res, dict):
            shape.fail("result", f"must be an object or null, not {_type_name(res)}")
        for k, (types, _) in RESULT_FIELDS.items():
            if k in res and not (isinstance(res[k], types) and (bool in types or not isinstance(res[k], bool))):
                shape.fail(f"result.{k}", f"wrong type: {_type_name(res[k])}")
    if "scores" in record:
        s = record["scores"]
        if not (isinstance(s, list) and all(_is_int(x) for x in s)):
            shape.fail("scores", "must be a list of whole numbers")


# --------------------------------------------------------------------------------------------
# replay / verify


def replay(record: dict, line: int | None = None, on_step=None) -> VerifyResult:
    """Replay every decision of a record through the reference engine.

    Replay every decision of ``record`` through the reference engine; return the outcome,
    result and scores it gives. Legality and trick winners are checked; the recorded result
    and scores are not needed (see :func:`verify`).

    ``on_step(action, deal)``, if given, is called once the cards are dealt (action
    ``"deal"``) and after each decision is applied, with the action as error messages name it
    (``"bid 2, seat 1 says garde"``, ``"trick 7, seat 2 plays T5"``) and the
    :class:`~tarotsim.reference.deal.ReferenceDeal` in its new state (pictures of every step).
    """
    return _Replayer(record, line, on_step=on_step).run()


def verify(record: dict, line: int | None = None) -> VerifyResult:
    """Replay a record and check everything, its scores included.

    Replay ``record`` and check everything: the deal (R-DEAL-1), every decision, every trick
    winner, then the recorded result and scores against the recomputed ones."""
    r = _Replayer(record, line)
    out = r.run()
    r.compare(out)
    return out


def complete(record: dict, line: int | None = None, on_step=None) -> dict:
    """Verify ``record`` as far as it goes; return a copy with what it leaves out recomputed.

    Like :func:`verify`, but a record without ``result`` or ``scores`` (typed by hand) is not
    refused for that: they are filled in from the replay, as are ``partner`` at table 5 and
    ``petit_sec_seat`` of an annulled deal. What the record does hold must match the replay.
    ``on_step`` is called at every step as by :func:`replay`.
    """
    r = _Replayer(record, line, on_step=on_step)
    out = r.run()
    d = out.deal
    full = dict(record)
    if out.outcome == "played" and full.get("result") is None:
        full["result"] = out.result
    full.setdefault("scores", out.scores)
    if d.table == "5" and out.outcome == "played":
        full.setdefault("partner", d.partner)
    if out.outcome == "petit_sec":
        full.setdefault("petit_sec_seat", d.petit_sec_seat)
    r.rec = full
    r.compare(out)
    return full


def positions(record: dict, line: int | None = None) -> tuple[dict, list]:
    """The positions of a deal record after every step.

    ``(record completed, position after every step)`` of a deal record, for its pictures
    (:class:`tarotsim.svg.Position`): dealt, each bid, the call, the écart, the chelem, each
    declaration and each card. :func:`complete` replays it, checking every rule."""
    from .svg import position_of

    seed, index = record.get("seed"), record.get("index")
    out = []

    def step(action, deal):
        out.append(position_of(deal, "the cards are dealt" if action == "deal" else action, seed, index))

    full = complete(record, line, on_step=step)
    return full, out


def record_svg(record: dict, at: int | None = None, names=None) -> str:
    """A deal record as an SVG picture of the table.

    A deal record as an SVG picture of the table (:mod:`tarotsim.svg`) at step ``at`` of
    :func:`positions` (None: the start of play, every hand full, the écart made, with the final
    scores below; negative: from the end, -1 being the last card). ``names`` name the seats, one
    per seat from seat 0 (default: the record's ``players``, else ``seat 0`` ...).

    Raises
    ------
    RecordError
        The record is malformed or breaks a rule.
    tarotsim.svg.PictureError
        No step ``at`` in the deal, or ``names`` not one name per seat.
    """
    from dataclasses import replace

    from . import svg

    full, steps = positions(record)
    if at is not None and (isinstance(at, bool) or not isinstance(at, int) or not -len(steps) <= at < len(steps)):
        raise svg.PictureError(f"no step {at!r}: the deal has {len(steps)} steps (0..{len(steps) - 1}, "
                               "or -1 for the last)")
    pos = steps[svg.start_of_play(steps) if at is None else at]
    if at is None and full.get("scores") is not None:  # the start of play, with how it ended
        pos = replace(pos, scores=steps[-1].scores, result=steps[-1].result)
    return svg.render(svg.layout(pos, names if names is not None else seat_labels(full, "players")))


def verify_file(path_or_file, workers: int = 1) -> int:
    """Verify every record of a JSON Lines file; return how many. Raises at the first bad one."""
    n = 0
    for report in check_file(path_or_file, verify=True, workers=workers):
        if report.error is not None:
            raise report.error
        n += 1
    return n


@dataclass(frozen=True)
class LineReport:
    """What replaying one record of a file gave (:func:`check_file`).

    ``error`` is the record's first bad thing, or None; with ``stop`` the file itself is broken
    there (unreadable, not JSON, a field missing or of the wrong type) and nothing after that
    line is read. A good record gives its ``table``, ``taker``, ``contract`` as recorded and the
    ``outcome``, ``result`` and ``scores`` recomputed.
    """

    line: int | None
    error: RecordError | None = None
    stop: bool = False
    table: str | None = None
    taker: int | None = None
    contract: str | None = None
    outcome: str | None = None
    result: dict | None = None
    scores: list[int] | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


#: Lines handed to a worker at a time: big enough to pay for the trip between processes.
CHUNK_LINES = 256


def check_file(path_or_file, verify: bool = False, workers: int | None = 1, log=None) -> Iterator[LineReport]:
    """Replay (or with ``verify``, verify) every record of a JSON Lines file, in line order.

    Yields one :class:`LineReport` per record (blank lines are skipped), the bad ones included;
    after a report with ``stop`` set (the file is broken there) nothing more is read. With
    ``workers`` > 1 the records are checked in that many processes, in chunks of
    :data:`CHUNK_LINES` lines (None: one per core); the reports are the same, in the same
    order, whatever the number. The processes are at most one per core and per chunk
    (:func:`tarotsim.parallel.bounded_workers`: ``log`` gets a line when ``workers`` is
    lowered; more than ``MAX_WORKERS`` is a ``ValueError``). ``path_or_file`` is read as by
    :func:`load` (gzip, ``"-"``).
    """
    from .parallel import bounded_workers

    n = bounded_workers(workers, "--workers")  # an absurd request: refused before the file is opened
    with open_records(path_or_file) as f:
        chunks = _chunks(f)
        ahead = list(itertools.islice(chunks, n))  # a process per chunk at most, however many were asked for
        if not ahead:
            return
        n = bounded_workers(workers, "--workers", work=len(ahead) if len(ahead) < n else None,
                            unit=f"chunk(s) of {CHUNK_LINES} records", log=log)
        if n == 1 or len(ahead) == 1:  # one worker, or one chunk (not worth starting processes)
            for chunk in itertools.chain(ahead, chunks):
                reports = _check_chunk(chunk, verify)
                yield from reports
                if reports and reports[-1].stop:
                    return
            return
        yield from _check_in_pool(itertools.chain(ahead, chunks), verify, n)


def _chunks(f) -> Iterator[list | RecordError]:
    """Lists of ``(line, raw line)``; a reading error comes last, as itself."""
    chunk = []
    try:
        for item in read_lines(f):
            chunk.append(item)
            if len(chunk) == CHUNK_LINES:
                yield chunk
                chunk = []
    except RecordError as e:
        if chunk:
            yield chunk
        yield e
        return
    if chunk:
        yield chunk


def _check_chunk(chunk: list | RecordError, verify: bool) -> list[LineReport]:
    """Reports for one chunk of :func:`_chunks`, up to and including its first ``stop``."""
    if isinstance(chunk, RecordError):
        return [LineReport(chunk.line, chunk, stop=True)]
    out = []
    for lineno, raw in chunk:
        try:
            record = parse_line(raw, lineno)
        except RecordError as e:
            out.append(LineReport(lineno, e, stop=True))
            break
        if record is None:
            continue
        try:
            r = _Replayer(record, lineno, checked=True)
            res = r.run()
            if verify:
                r.compare(res)
        except RecordError as e:
            out.append(LineReport(lineno, e))
            continue
        out.append(LineReport(lineno, None, False, record["table"], record.get("taker"), record.get("contract"),
                              res.outcome, res.result, res.scores))
    return out


def _check_in_pool(chunks, verify: bool, workers: int) -> Iterator[LineReport]:
    import concurrent.futures

    pool = concurrent.futures.ProcessPoolExecutor(workers, _pool_context(), initializer=_worker_init)
    pending: collections.deque = collections.deque()
    try:
        for chunk in chunks:
            if isinstance(chunk, RecordError):  # read here, no work to hand out
                fut: concurrent.futures.Future = concurrent.futures.Future()
                fut.set_result(_check_chunk(chunk, verify))
            else:
                fut = pool.submit(_check_chunk, chunk, verify)
            pending.append(fut)
            if len(pending) > 2 * workers:  # bounded read-ahead: the memory stays small
                reports = pending.popleft().result()
                yield from reports
                if reports and reports[-1].stop:
                    return
        while pending:
            reports = pending.popleft().result()
            yield from reports
            if reports and reports[-1].stop:
                return
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _pool_context():
    import multiprocessing
    import threading

    # fork starts a worker in milliseconds (a fresh interpreter takes most of a second) and the
    # worker runs only code already imported; but a fork of a process running other threads can
    # deadlock on a lock one of them held: then start the workers clean
    if sys.platform.startswith("linux") and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def _worker_init():
    # Ctrl-C is the parent's to handle: it stops the pool; a worker must not print a traceback.
    # SIGTERM and SIGHUP stop a worker at once (a forked one inherits the parent's handlers, which
    # raise tarotsim.outputs.Terminated): it holds no output of its own
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for s in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, signal.SIG_DFL)


class _Replayer:
    """Walks a record in the order of the deal and stops at its first bad thing."""

    def __init__(self, record: dict, line: int | None, checked: bool = False, on_step=None):
        if not checked:  # ``checked``: :func:`parse_line` has just done it
            check_record(record, line)
        self.rec = record
        self.line = line
        self.on_step = on_step

    def fail(self, action, rule_id, message):
        raise RecordError(self.line, action, rule_id, message)

    def do(self, action, fn, *args):
        """Apply one decision; a refusal of the engine becomes a RecordError on ``action``."""
        try:
            out = fn(*args)
        except RuleViolation as e:
            self.fail(action, e.rule_id, e.message)
        except (CardError, ValueError) as e:
            self.fail(action, None, str(e))
        if self.on_step is not None:
            self.on_step(action, self.d if action != "deal" else out)
        return out

    # -- the deal, step by step --------------------------------------------------------------
    def run(self) -> VerifyResult:
        rec = self.rec
        try:
            rules = Rules.from_options(rec["table"], rec.get("options") or {})
        except RulesError as e:
            self.fail("field options", None, str(e))
        d = self.do("deal", ReferenceDeal, rules, rec["dealer"], rec["hands"], rec["chien"], None, rec.get("piles"))
        self.d = d
        outcome = rec["outcome"]

        if d.outcome == "petit_sec":                                       # R-DEAL-4
            if outcome != "petit_sec":
                self.fail("field outcome", "R-DEAL-4",
                          f"seat {d.petit_sec_seat} holds the Petit sec: the deal is annulled, not {outcome}")
            if rec["bids"]:
                self.fail("field bids", "R-DEAL-4", "a petit-sec deal is annulled before the auction: no bids")
            return self._not_played()
        if outcome == "petit_sec":
            why = ("option petit_sec is off" if rules.petit_sec == "off"
                   else "no active player holds the Petit as his only trump without the Excuse")
            self.fail("field outcome", "R-DEAL-4", f"not a petit-sec deal: {why}")

        self._auction()
        if d.outcome == "all_passed":                                      # R-BID-3
            if outcome != "all_passed":
                self.fail("field outcome", "R-BID-3", f"every player passed: the deal is thrown in, not {outcome}")
            return self._not_played()
        if outcome != "played":
            self.fail("field outcome", "R-BID-3", f"seat {d.taker} took at {d.contract}: the deal is played, not {outcome}")
        if rec["taker"] != d.taker:
            self.fail("field taker", "R-BID-3", f"the auction makes seat {d.taker} the taker, not seat {rec['taker']}")
        if rec["contract"] != d.contract:
            self.fail("field contract", "R-BID-3", f"the auction ends at {d.contract}, not {rec['contract']}")
        self._call()
        self._ecart()
        self._chelem()
        self._tricks()
        return VerifyResult(d.outcome, d.result, list(d.scores), d)

    def _identity(self):
        """Check that the record holds the deal its seed and index deal.

        A record that gives its ``seed`` and ``index`` holds the very deal ``(seed, index)``
        deals (dealer, hands, chien, piles; docs/engine-contract.md): an edited seed or index would give the
        record, and ``show``, a false identity."""
        rec = self.rec
        seed, index = rec.get("seed"), rec.get("index")
        if seed is None or index is None:  # a hand-entered deal: no identity to check
            return
        from .rng import DealIdError, deal_with_piles

        try:
            dealer, hands, chien, piles = deal_with_piles(self.d.rules, seed, index)
        except DealIdError as e:
            self.fail("field seed" if "seed" in str(e) else "field index", None, str(e))
        ident = f"deal ({seed}, {index})"
        edited = "the record's seed or index was edited, or its cards (docs/engine-contract.md)"
        if rec["dealer"] != dealer:
            self.fail("field dealer", None, f"{ident} is dealt by seat {dealer}, not seat {rec['dealer']}: {edited}")
        for seat, hand in enumerate(rec["hands"]):
            if sorted(Card.parse(c).id for c in hand) != hands[seat]:
                self.fail(f"field hands[{seat}]", None, f"{ident} deals seat {seat} other cards: {edited}")
        if sorted(Card.parse(c).id for c in rec["chien"]) != chien:
            self.fail("field chien", None, f"{ident} puts other cards in the chien: {edited}")
        if rec.get("piles") and [[[Card.parse(c).id for c in p] for p in ps] for ps in rec["piles"]] != \
                [[list(p) for p in ps] for ps in piles]:
            self.fail("field piles", None, f"{ident} lays other piles: {edited}")

    def _not_played(self) -> VerifyResult:
        rec, d = self.rec, self.d
        for f in ("taker", "contract", "called", "partner"):
            if rec.get(f) is not None:
                self.fail(f"field {f}", "R-GEN-5", f"a {d.outcome} deal has no {f}")
        for f in ("ecart", "declarations", "tricks"):
            if rec.get(f):
                self.fail(f"field {f}", "R-GEN-5", f"a {d.outcome} deal has no {f}")
        return VerifyResult(d.outcome, None, list(d.scores), d)

    def _auction(self):
        d = self.d
        for i, (seat, bid) in enumerate(self.rec["bids"]):
            action = f"bid {i + 1}, seat {seat} says {bid}"
            if d.phase != "bid":
                self.fail(action, "R-BID-2", "the auction is over: each active player speaks once")
            self.do(action, d.bid, seat, bid)
        if d.phase == "bid":
            if d._highest_bid() != "garde_contre":
                self.fail("field bids", "R-BID-2", f"the auction is not over: seat {d._next_bidder()} has not spoken")
            while d.phase == "bid":  # docs/records.md: the passes after a garde contre may be left out
                d.bid(d._next_bidder(), "pass")

    def _call(self):
        rec, d = self.rec, self.d
        called = rec.get("called")
        if d.table != "5":
            if called is not None:
                self.fail("field called", "R-CALL-1", f"a card is called only at table 5, not {d.table}")
            if rec.get("partner") is not None:
                self.fail("field partner", "R-GEN-3", f"there is a partner only at table 5, not {d.table}")
            return
        if called is None:
            self.fail("field called", "R-CALL-1", "at table 5 the taker calls a card")
        self.do(f"call, seat {d.taker} calls {called}", d.call, d.taker, called)
        if "partner" in rec and rec["partner"] != d.partner:
            who = f"seat {d.partner}" if d.partner is not None else "nobody (the taker is alone)"
            self.fail("field partner", "R-CALL-2", f"the partner is {who}, not {rec['partner']}")

    def _ecart(self):
        rec, d = self.rec, self.d
        ecart = rec.get("ecart") or []
        if d.phase == "ecart":
            self.do(f"ecart, seat {d.taker} discards {' '.join(ecart) or 'nothing'}", d.discard, d.taker, ecart)
        elif ecart:
            rule = "R-CHIEN-3" if CONTRACT_OF[d.contract].chien_to == "attack" else "R-CHIEN-4"
            self.fail("field ecart", rule, f"no écart at {d.contract}")

    def _chelem(self) -> None:
        d = self.d
        decls = self.rec.get("declarations") or []
        chelems = [x for x in decls if x["kind"] == "chelem"]
        if len(chelems) > 1:
            self.fail("field declarations", "R-SLAM-1", "a slam is announced once")
        if chelems:
            seat = chelems[0]["seat"]
            self.do(f"chelem, seat {seat} announces a slam", d.announce_chelem, seat, True)
        else:
            d.announce_chelem(d.taker, False)
        # poignées and misères are made at their seat's first turn to play (R-POIG-2, R-MIS-1)
        self.first_turn: dict[int, list[dict]] = {}
        for x in decls:
            if x["kind"] == "chelem":
                continue
            seat = x["seat"]
            if seat not in d.order:
                rule = "R-DEAL-6" if seat == d.dummy else "R-GEN-2"
                self.fail(f"declaration, seat {seat} {x['kind']}", rule, f"seat {seat} is not an active player")
            self.first_turn.setdefault(seat, []).append(x)

    def _declare(self, seat: int, x: dict):
        d = self.d
        if x["kind"] == "poignee":
            self.do(f"trick 1, seat {seat} shows a {x['level']} poignee {' '.join(x['cards'])}",
                    d.declare_poignee, seat, x["level"], x["cards"])
        else:
            kind = x["kind"].split("_", 1)[1]
            self.do(f"trick 1, seat {seat} declares {x['kind']}", d.declare_misere, seat, kind, True)

    def _tricks(self):
        d = self.d
        tricks = self.rec["tricks"]
        for k, t in enumerate(tricks):
            n = k + 1
            if d.phase != "play":
                self.fail(f"trick {n}", "R-DEAL-1", f"the deal has {d.n_tricks} tricks at table {d.table}")
            if t["leader"] != d.leader:
                why = ("the player to the dealer's right leads trick 1" if n == 1 and not d.chelem_announced
                       else "the taker leads trick 1 after announcing a slam" if n == 1
                       else f"the winner of trick {n - 1} leads")
                self.fail(f"trick {n}", "R-PLAY-1", f"seat {d.leader} leads, not seat {t['leader']}: {why}")
            if len(t["cards"]) != d.n_active:
                self.fail(f"trick {n}", "R-PLAY-2",
                          f"{len(t['cards'])} cards: each of the {d.n_active} active players plays one")
            for name in t["cards"]:
                seat = d.next_player()
                if n == 1:
                    for x in self.first_turn.pop(seat, []):
                        self._declare(seat, x)
                self.do(f"trick {n}, seat {seat} plays {name}", d.play, seat, name)
            done = d.tricks[-1]
            if t["winner"] != done.winner:
                rule = "R-EXC-4" if done.excuse_won else "R-PLAY-5"
                self.fail(f"trick {n}", rule, f"won by seat {done.winner}, not seat {t['winner']}")
        if d.phase != "done":
            self.fail("field tricks", "R-DEAL-1", f"{len(tricks)} tricks: the deal has {d.n_tricks} at table {d.table}")

    # -- the recorded identity, result and scores --------------------------------------------
    def compare(self, out: VerifyResult):
        rec = self.rec
        self._identity()
        if out.outcome == "played":
            assert out.result is not None  # replay computes the result of a played deal
            if rec.get("result") is None:
                self.fail("field result", None, "missing field (verify compares it; replay recomputes it)")
            got = rec["result"]
            for key, (_, rule) in RESULT_FIELDS.items():
                if key not in got:
                    self.fail(f"field result.{key}", None, "missing field")
                if got[key] != out.result[key]:
                    self.fail(f"field result.{key}", rule, f"recomputed {json.dumps(out.result[key])}, "
                                                           f"recorded {json.dumps(got[key])}")
        elif rec.get("result") is not None:
            self.fail("field result", "R-GEN-5", f"a {out.outcome} deal has no result")
        if "scores" not in rec:
            self.fail("field scores", None, "missing field (verify compares it; replay recomputes it)")
        if rec["scores"] != out.scores:
            rule = "R-SCORE-2" if out.outcome == "played" else "R-GEN-5"
            self.fail("field scores", rule, f"recomputed {out.scores}, recorded {rec['scores']}")
