"""Score sheets: an evening of deals typed into a spreadsheet, saved as CSV, scored deal by deal.

:func:`read_sheet` reads the file as the spreadsheet programs write it (UTF-8 with or without
a BOM, else Windows-1252 as French spreadsheets save it, else Latin-1; UTF-16 with a BOM; the
separator ``,``, ``;`` or a tab, read from the header line) and turns each row into
:class:`~tarotsim.scoring.DealFacts`, checked like ``tarotsim score`` checks its options.
:func:`score_sheet` scores the rows in order with running totals and, for a game to N points
(``until``), stops at the first deal where someone reaches N.

A sheet may also carry the scores the players wrote down: a column named after a player holds
his score for the deal, a column ``NAME total`` his running total. They are read into
:attr:`SheetRow.written` and :attr:`SheetRow.written_totals` and checked by
:mod:`tarotsim.audit` (``tarotsim sheet --check``); scoring ignores them.

Every problem is a :class:`SheetError`, one line naming the file, the row as a spreadsheet
numbers it (the header is row 1) and the column.
"""

from __future__ import annotations

import csv
import io
import os
import re
import sys
from dataclasses import dataclass
from fractions import Fraction

from . import echo
from .cards import DECK_HALF_POINTS, format_points
from .rules import CONTRACTS, Rules
from .scoring import (CHELEM_OUTCOMES, DealFacts, ScoringError, check_facts, check_names, parse_misere,
                      parse_points, parse_poignee, score, seat_of)

#: The columns a sheet may have; ``taker`` and ``contract`` are required.
SHEET_COLUMNS = ("taker", "contract", "oudlers", "points", "defence_points", "partner", "dummy",
                 "petit_au_bout", "poignees", "chelem", "miseres")
REQUIRED_COLUMNS = ("taker", "contract")
#: Separators a sheet may use, read from its header line (French spreadsheets write ``;``).
DELIMITERS = (",", ";", "\t")
#: Text encodings tried in turn: any UTF-8 file decodes as UTF-8; Windows-1252 is what French
#: spreadsheet programs save; Latin-1 decodes every byte.
ENCODINGS = ("utf-8-sig", "cp1252", "latin-1")
#: DealFacts fields -> the sheet column that gives them (points: see _POINTS_COLUMNS).
_FIELD_COLUMNS = {"contract": "contract", "oudlers": "oudlers", "taker": "taker", "partner": "partner",
                  "dummy": "dummy", "petit_au_bout": "petit_au_bout", "poignees": "poignees",
                  "chelem": "chelem", "miseres": "miseres"}
_LIST_SEPARATORS = re.compile(r"[;,]")
_CHELEM_CHOICES = ", ".join(k for k in CHELEM_OUTCOMES if k)
#: A player's running-total column is his name and this suffix (``Emma total``).
TOTAL_SUFFIX = " total"
#: A score written down: a whole number, or a half (``76,5``) as some scorers keep; one decimal
#: at most, so that ``1,000`` is refused rather than read as 1.
_WRITTEN_NUMBER = re.compile(r"[+-]?[0-9]{1,12}(?:[.,][05])?")


class SheetError(ValueError):
    """A score sheet that cannot be read or scored; the message names the file, row and column."""


@dataclass(frozen=True)
class SheetRow:
    """One deal of the sheet: its row number (the header is row 1) and its facts (None: a pass).

    ``written`` and ``written_totals`` are the scores and running totals written on the row, in
    seat order (int, or a Fraction for a half point), None where the sheet has no such columns or
    the row leaves them empty.
    """

    row: int
    facts: DealFacts | None
    written: tuple | None = None
    written_totals: tuple | None = None


@dataclass(frozen=True)
class SheetDeal:
    """A scored row: its label, every player's score and the running totals (in seat order)."""

    row: int
    label: str
    scores: tuple[int, ...]
    totals: tuple[int, ...]
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True)
class SheetResult:
    """An evening scored: the deals counted, and who won or leads.

    ``winners`` is empty for a game to ``until`` points that nobody reached; ``leader`` names
    the best totals either way.
    """

    rules: Rules
    names: tuple[str, ...]
    deals: tuple[SheetDeal, ...]
    rows: int                  # deal rows in the sheet, counted or not
    until: int | None
    finished_at: int | None    # the deal (1-based) at which someone reached ``until``

    @property
    def totals(self) -> tuple[int, ...]:
        return self.deals[-1].totals if self.deals else tuple(0 for _ in self.names)

    @property
    def best(self) -> int:
        return max(self.totals)

    @property
    def leader(self) -> list[str]:
        return [n for n, t in zip(self.names, self.totals) if t == self.best]

    @property
    def winners(self) -> list[str]:
        if self.until is not None and self.finished_at is None:
            return []
        return self.leader

    def to_dict(self) -> dict:
        names = list(self.names)
        return {"table": self.rules.table, "players": names,
                "deals": [{"row": d.row, "scores": dict(zip(names, d.scores)), "totals": dict(zip(names, d.totals))}
                          for d in self.deals],
                "totals": dict(zip(names, self.totals)), "winner": self.winners, "leader": self.leader,
                "until": self.until, "finished_at_deal": self.finished_at,
                "deals_not_played": self.rows - len(self.deals)}


# ---------------------------------------------------------------------------------------------
# Reading


def _source_name(source) -> str:
    if isinstance(source, (str, os.PathLike)):
        name = "<stdin>" if str(source) == "-" else os.fspath(source)
    else:
        name = getattr(source, "name", None)
        name = name if isinstance(name, str) else "<sheet>"
    return name if name.isprintable() else repr(name)


def _read_bytes(source, name: str):
    if isinstance(source, bytes):
        return source
    if isinstance(source, (str, os.PathLike)):
        if str(source) == "-":
            stdin = sys.stdin
            return stdin.buffer.read() if hasattr(stdin, "buffer") else stdin.read()
        try:
            with open(source, "rb") as fh:
                return fh.read()
        except OSError as e:
            raise SheetError(f"cannot read {name}: {e.strerror}") from None
    return source.read()  # an open file, binary or text


def decode_sheet(data: bytes, name: str = "<sheet>") -> str:
    """Decode the text of a sheet file.

    The text of a sheet file: UTF-16 if it starts with its BOM, else the first of
    :data:`ENCODINGS` that decodes it. A NUL character is refused (not a text file)."""
    if isinstance(data, str):
        text = data
    elif data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError:
            raise SheetError(f"{name}: not valid UTF-16 text") from None
    else:
        for encoding in ENCODINGS:
            try:
                text = data.decode(encoding)
                break
            except UnicodeDecodeError:
                continue
    if "\0" in text:
        row = text.count("\n", 0, text.index("\0")) + 1
        raise SheetError(f"{name}: row {row}: a NUL byte: not a text CSV file (save the sheet as CSV)")
    return text.removeprefix("\ufeff")


def _delimiter(text: str) -> str:
    """The separator of the header line: the one it uses most."""
    first = text.split("\n", 1)[0]
    return max(DELIMITERS, key=first.count)


def _records(text: str, name: str):
    """``(row number, cells)`` for each CSV record; csv errors name the row."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(text), strict=True)
    row = 0
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as e:
            limit = csv.field_size_limit()
            msg = (f"a cell longer than {limit:,} characters (the csv module's limit)" if "field limit" in str(e)
                   else f"not CSV as a spreadsheet writes it: {e}")
            raise SheetError(f"{name}: row {row + 1}: {msg}") from None
        row += 1
        yield row, cells


def read_sheet_bytes(source) -> tuple[bytes, str]:
    """Read a sheet's bytes and its name for messages.

    A sheet's bytes and its name for messages, read once (a path, ``-`` for standard input, or
    an open file), so that :func:`players_in_header` and :func:`read_sheet` can both read them."""
    name = _source_name(source)
    return _read_bytes(source, name), name


def players_in_header(source, *, name: str | None = None) -> list[str] | None:
    """The players a sheet's header names, or None.

    The players a sheet names by its written-score columns (``Emma``, ``Emma total``), in the
    order of the header and as spelled there, or None when every column is a fact column.

    So a sheet that carries the players' scores needs no ``--players``: its header already names
    them in playing order. ``source`` as for :func:`read_sheet` (pass the bytes when it is a
    stream that cannot be read twice).
    """
    name = name or _source_name(source)
    text = decode_sheet(_read_bytes(source, name), name)
    try:
        _, header_cells = next(_records(text, name))
    except StopIteration:
        return None
    found: list[str] = []
    for cell in header_cells:
        h = cell.strip()
        if h.lower().endswith(TOTAL_SUFFIX):
            h = h[:-len(TOTAL_SUFFIX)].strip()
        if h and h.lower() not in SHEET_COLUMNS and h.lower() not in (f.lower() for f in found):
            found.append(h)
    return found or None


def table_of(names: list[str] | None, found_in_header: bool = False) -> str:
    """The table of a sheet scored without one given.

    The table a sheet is scored at when none is given: 3, 4 or 5 from its players (default
    4). Two players are refused (:class:`SheetError`): table 2 is a variant (R-VAR-TWO), and two
    players found in the header are more likely a sheet that writes two players' scores only."""
    n = len(names) if names else 4
    if n == 2:
        where = "the header names 2 players" if found_in_header else "2 players"
        raise SheetError(f"{where} ({', '.join(names or [])}): give --table 2 to score the two-player variant "
                         f"(R-VAR-TWO), or --players with every player of the table")
    if n not in (3, 4, 5):
        raise SheetError(f"{n} players ({', '.join(names or [])}): a table seats 3, 4 or 5 (R-GEN-1); "
                         f"give --players and --table")
    return str(n)


def read_sheet(source, rules: Rules, names, *, name: str | None = None) -> list[SheetRow]:
    """Read a score sheet into rows of facts, every row checked.

    Parameters
    ----------
    source : str, os.PathLike, bytes or file
        A path (``-`` for standard input), the file's bytes, or an open file.
    rules : Rules
        The table and its options.
    names : sequence of str
        The players in seat order (checked by :func:`~tarotsim.scoring.check_names`).
    name : str, optional
        The file's name for messages (default: the path).

    Raises
    ------
    SheetError
        One line naming the file, the row and the column.
    """
    name = name or _source_name(source)
    names = _checked_names(names, rules)
    text = decode_sheet(_read_bytes(source, name), name)
    records = _records(text, name)
    try:
        _, header_cells = next(records)
    except StopIteration:
        raise SheetError(f"{name}: the sheet is empty (a header line is required)") from None
    header = [h.strip().lower() for h in header_cells]
    named = [h for h in header if h]
    written_columns = _written_columns(named, names, name)
    missing = [c for c in REQUIRED_COLUMNS if c not in named]
    if missing:
        raise SheetError(f"{name}: the header lacks column(s) {', '.join(missing)}")
    if rules.table == "5" and "partner" not in named:  # every deal would be scored as the taker alone
        raise SheetError(f"{name}: table 5 needs a partner column: each deal's called partner, left empty when the "
                         f"taker played alone (R-CALL-2)")
    written_names = {c for columns in written_columns.values() for c in columns}
    unknown = [h for h in named if h not in SHEET_COLUMNS and h not in written_names]
    if unknown:
        raise SheetError(f"{name}: unknown column(s) {', '.join(map(echo.shown, unknown))} (known: "
                         f"{', '.join(SHEET_COLUMNS)}; "
                         f"written scores: a player's name, or 'NAME{TOTAL_SUFFIX}' for his running total, "
                         f"players {', '.join(names)})")
    twice = sorted({h for h in named if named.count(h) > 1})
    if twice:
        raise SheetError(f"{name}: column(s) {', '.join(map(echo.shown, twice))} appear twice in the header")
    rows = []
    for num, cells in records:
        cells = [c.strip() for c in cells]
        if not any(cells):
            continue  # a blank line, or a row a spreadsheet left empty
        extra = [c for i, c in enumerate(cells) if c and (i >= len(header) or not header[i])]
        if extra:
            raise SheetError(f"{name}: row {num}: {echo.shown(extra[0])} is in no named column of the header")
        row = {h: c for h, c in zip(header, cells) if h}
        facts = parse_row(row, num, rules, names, name=name)
        written = {kind: _written(row, num, columns, name) for kind, columns in written_columns.items()}
        rows.append(SheetRow(num, facts, written.get("score"), written.get("total")))
    if not rows:
        raise SheetError(f"{name}: no deal in the sheet")
    return rows


def _checked_names(names, rules: Rules) -> list[str]:
    try:
        return check_names(names, rules.n_seats)
    except ScoringError as e:
        raise SheetError(f"players: {e}") from None


def parse_row(row: dict, num: int, rules: Rules, names, *, name: str = "<sheet>") -> DealFacts | None:
    """One row ``{column: cell}`` -> DealFacts, or None for a row of ``pass``."""
    def bad(columns, msg):
        columns = [columns] if isinstance(columns, str) else list(dict.fromkeys(columns))
        where = f"column {columns[0]}" if len(columns) == 1 else f"columns {', '.join(columns)}"
        raise SheetError(f"{name}: row {num}, {where}: {msg}")

    def cell(col):
        return row.get(col, "")

    contract = cell("contract").lower()
    if contract == "pass" or cell("taker").lower() == "pass":
        return None
    if contract not in CONTRACTS:
        bad("contract", f"unknown contract {echo.shown(cell('contract'))} (prise, garde, garde_sans, garde_contre or pass)")
    if not cell("taker"):
        bad("taker", "empty")

    def seat(col, what):
        try:
            return seat_of(cell(col), names, what)
        except ScoringError as e:
            bad(col, str(e))

    taker = seat("taker", "taker")
    try:
        oudlers = int(cell("oudlers"))
        if not 0 <= oudlers <= 3:
            raise ValueError
    except ValueError:
        bad("oudlers", f"must be 0, 1, 2 or 3, not {echo.shown(cell('oudlers'))}")
    pts, dpts = cell("points") or None, cell("defence_points") or None
    if (pts is None) == (dpts is None):
        bad("points", "give points or defence_points, exactly one of them")
    points_col = "points" if pts is not None else "defence_points"
    given = pts if pts is not None else dpts
    assert given is not None  # bad() refused a row with neither
    try:  # a decimal comma, as French spreadsheets write 41,5
        hp = parse_points(_decimal(given))
    except ScoringError as e:
        bad(points_col, str(e))
    if pts is None:  # P = 91 - the defence's points (R-SCORE-5)
        hp = DECK_HALF_POINTS - hp
    partner = None
    if cell("partner"):
        if rules.table != "5":
            bad("partner", f"a partner is called only at table 5, not at table {rules.table} (R-CALL-1)")
        partner = seat("partner", "partner")
        if partner == taker:
            bad("partner", "the partner cannot be the taker (leave it empty when he played alone, R-CALL-2)")
    dummy = None
    if rules.table == "5d":
        if not cell("dummy"):
            bad("dummy", "table 5d needs the dealer who sat out (R-DEAL-6)")
        dummy = seat("dummy", "dummy")
        if dummy == taker:
            bad("dummy", "the dummy cannot be the taker (R-DEAL-6)")
    elif cell("dummy"):
        bad("dummy", f"only table 5d has a dummy, not table {rules.table}")
    pab = cell("petit_au_bout").lower() or None
    if pab not in (None, "attack", "defence"):
        bad("petit_au_bout", f"attack or defence, not {echo.shown(pab)}")
    chelem = cell("chelem").lower() or None
    if chelem is not None and chelem not in CHELEM_OUTCOMES:  # None (no chelem) is one of them
        bad("chelem", f"one of {_CHELEM_CHOICES}, not {echo.shown(chelem)}")
    try:
        poignees = tuple(parse_poignee(p) for p in _items(cell("poignees")))
    except ScoringError as e:
        bad("poignees", str(e))
    try:
        miseres = tuple(parse_misere(m, names) for m in _items(cell("miseres")))
    except ScoringError as e:
        bad("miseres", str(e))
    facts = DealFacts(rules=rules, contract=contract, attack_half_points=hp, oudlers=oudlers, taker=taker,
                      partner=partner, dummy=dummy, petit_au_bout=pab, poignees=poignees, chelem=chelem,
                      miseres=miseres)
    try:
        check_facts(facts)
    except ScoringError as e:
        columns = [points_col if f == "attack_half_points" else _FIELD_COLUMNS.get(f, f) for f in e.fields]
        bad(columns or ["points"], str(e))
    return facts


def _written_columns(header, names, name: str) -> dict[str, list[str]]:
    """The header's written-score columns: ``{"score" or "total": the column of each seat}``.

    A player's column is his name, his running total's his name + ``TOTAL_SUFFIX`` (case
    ignored, as names are everywhere); a fact column keeps its meaning. A kind written for some
    players must be written for all of them.
    """
    found = {}
    for kind, suffix in (("score", ""), ("total", TOTAL_SUFFIX)):
        columns = [next((h for h in header if h not in SHEET_COLUMNS and h.casefold() == (p + suffix).casefold()),
                        None) for p in names]
        if any(columns):
            lacking = [p + suffix for p, c in zip(names, columns) if c is None]
            if lacking:
                raise SheetError(f"{name}: the header has written {'running totals' if suffix else 'scores'} "
                                 f"for some players but no column {', '.join(map(repr, lacking))}")
            found[kind] = [c for c in columns if c is not None]
    return found


def _written(row: dict, num: int, columns: list[str], name: str) -> tuple | None:
    """The scores written in a row's columns, or None.

    The numbers written in ``columns`` (one per seat), or None when the row leaves them all
    empty; an empty cell among filled ones is refused (a deal's check needs every score)."""
    cells = [row.get(col, "") for col in columns]
    if not any(cells):
        return None
    values = []
    for col, text in zip(columns, cells):
        if not text:
            raise SheetError(f"{name}: row {num}, column {col}: empty while other players' are written "
                             f"(write every player's, 0 included)")
        value = Fraction(_decimal(text)) if _WRITTEN_NUMBER.fullmatch(text) else None
        if value is None or value.denominator not in (1, 2):
            raise SheetError(f"{name}: row {num}, column {col}: a written score is a whole number "
                             f"(or a half, 76,5), not {echo.shown(text)}")
        values.append(int(value) if value.denominator == 1 else value)
    return tuple(values)


def _decimal(text: str) -> str:
    return text.replace(",", ".", 1) if text.count(",") == 1 and "." not in text else text


def _items(text: str) -> list[str]:
    """The items of a list cell: ``simple:defence;double:attack`` (``,`` also separates)."""
    return [p.strip() for p in _LIST_SEPARATORS.split(text) if p.strip()]


# ---------------------------------------------------------------------------------------------
# Scoring


def score_sheet(rows, rules: Rules, names, until: int | None = None) -> SheetResult:
    """Score the rows in order with running totals (R-SCORE-1, R-SCORE-2, R-SCORE-3, R-MIS-2).

    ``until`` (default: the ``game_end`` option when it is a points target) ends the game at the
    first deal where a player's total reaches it; the later rows are not counted.
    """
    names = tuple(_checked_names(names, rules))
    if until is None and isinstance(rules.game_end, int):
        until = rules.game_end
    if until is not None and (isinstance(until, bool) or not isinstance(until, int) or until < 1):
        raise SheetError(f"the points target must be a whole number of at least 1, not {echo.shown(until)}")
    deals, totals, finished_at = [], (0,) * len(names), None
    warnings: tuple[str, ...]
    for r in rows:
        if r.facts is None:
            scores, label, warnings = (0,) * len(names), "pass", ()
        else:
            b = score(r.facts)
            scores, warnings = b.scores, b.warnings
            label = (f"{names[r.facts.taker]} {r.facts.contract} "
                     f"{'made' if b.made else 'failed'} {b.difference:+d}")
        if sum(scores) != 0:  # R-SCORE-3: cannot happen; a loud failure beats a wrong sheet
            raise AssertionError(f"row {r.row}: scores do not sum to zero (R-SCORE-3)")
        totals = tuple(t + s for t, s in zip(totals, scores))
        deals.append(SheetDeal(r.row, label, tuple(scores), totals, tuple(warnings)))
        if until is not None and max(totals) >= until:
            finished_at = len(deals)
            break
    return SheetResult(rules=rules, names=names, deals=tuple(deals), rows=len(rows), until=until,
                       finished_at=finished_at)


# ---------------------------------------------------------------------------------------------
# Writing a sheet


def sheet_row(facts: DealFacts | None, names) -> dict[str, str]:
    """One deal as the cells of a sheet's row, as :func:`read_sheet` reads them back.

    ``facts`` of a played deal (``ScoreBreakdown.facts``), or None for a deal that scores
    nothing (thrown in, R-BID-3, or annulled, R-DEAL-4): a row of ``pass``. ``names`` name the
    seats."""
    if facts is None:
        return {"contract": "pass"}
    row = {"taker": names[facts.taker], "contract": facts.contract, "oudlers": str(facts.oudlers),
           "points": format_points(facts.attack_half_points)}
    if facts.partner is not None:
        row["partner"] = names[facts.partner]
    if facts.dummy is not None:
        row["dummy"] = names[facts.dummy]
    row["petit_au_bout"] = facts.petit_au_bout or ""
    row["poignees"] = ";".join(f"{level}:{side}" for level, side in facts.poignees)
    row["chelem"] = facts.chelem or ""
    row["miseres"] = ";".join(f"{names[seat]}:{kind}" for seat, kind in facts.miseres)
    return row


def write_sheet(deals, rules: Rules, names, fh) -> None:
    """Write an evening as a score sheet that ``tarotsim sheet`` reads and checks.

    ``deals``: per deal in order, ``(facts or None, scores)`` (:func:`sheet_row`); the players'
    scores are written in their own columns, so ``tarotsim sheet FILE --check`` finds every deal
    scored by the rules. ``fh``: a text file opened with ``newline=""``."""
    names = _checked_names(names, rules)
    columns = [c for c in SHEET_COLUMNS if c != "defence_points" and (c != "partner" or rules.table == "5")
               and (c != "dummy" or rules.table == "5d") and (c != "miseres" or rules.misere)]
    w = csv.writer(fh, lineterminator="\n")
    w.writerow(columns + list(names))
    for facts, scores in deals:
        row = sheet_row(facts, names)
        w.writerow([row.get(c, "") for c in columns] + [str(s) for s in scores])
