"""Audit a score sheet against the rules, and explain the deals scored wrong.

Audit a score sheet: the scores the players wrote down, deal by deal, against the rules, and
the known causes that explain each deal scored wrong (``tarotsim sheet FILE --check``).

Each deal is scored from its facts (:func:`tarotsim.sheet.score_sheet`, the rules and the
``--option`` given). A deal whose written scores differ is re-scored under every entry of
:data:`CAUSES`: the options of docs/rules.md §14 that change a score, and the common mistakes of scorers;
the entries that give exactly the written scores are its causes. docs/audit.md lists them.

A sheet of running totals is checked by differences: the total written on a row minus the total
written on the row before is the deal's written score, so one wrong deal is reported alone and
does not make every later total look wrong.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from collections.abc import Callable

import numpy as np

from .echo import paragraph
from .rules import OPTION_RANGES, TARGETS, Rules
from .scoring import ST_LEN, ST_VALUE, DealFacts, ScoreBreakdown, score, score_core
from .sheet import TOTAL_SUFFIX, SheetError, SheetRow, _source_name, score_sheet


@dataclass(frozen=True)
class Deal:
    """A deal as a cause re-scores it.

    A deal as a cause re-scores it: the facts, their official breakdown, each seat's multiple
    of V (R-SCORE-2) and the scores written down."""

    facts: DealFacts
    official: ScoreBreakdown
    shares: tuple[int, ...]
    written: tuple


@dataclass(frozen=True)
class Cause:
    """A known way to score a deal otherwise than the rules do.

    ``rescore`` gives every seat's score under this cause, or None when the cause cannot apply
    to the deal; ``text`` says what was done, in one line (a function of the deal when the line
    names a value found in it); ``rules`` the ids of the rules it departs from.
    """

    name: str
    kind: str                      # "variant" (an option of docs/rules.md §14) or "mistake"
    text: str | Callable[[Deal], str]
    rules: tuple[str, ...]
    rescore: Callable[[Deal], tuple | None]

    def describe(self, deal: Deal) -> str:
        return self.text if isinstance(self.text, str) else self.text(deal)


@dataclass(frozen=True)
class Match:
    """A cause that reproduces a row's written scores exactly."""

    name: str
    kind: str
    text: str
    rules: tuple[str, ...]

    def to_dict(self) -> dict:
        return {"name": self.name, "kind": self.kind, "text": self.text, "rules": list(self.rules)}


# ---------------------------------------------------------------------------------------------
# Re-scoring


def shares_of(facts: DealFacts) -> tuple[int, ...]:
    """Each seat's multiple of V (R-SCORE-2).

    Each seat's multiple of V (R-SCORE-2: taker 3, defenders -1 at table 4 ...), read off
    :func:`~tarotsim.scoring.score_core` itself for a prise made by 0 with these seats, so that
    the distribution keeps its one home."""
    n = facts.rules.n_seats
    steps, scores = np.zeros(ST_LEN, dtype=np.int64), np.zeros(n, dtype=np.int64)
    partner = -1 if facts.partner is None else facts.partner
    dummy = -1 if facts.dummy is None else facts.dummy
    score_core(facts.rules.to_vector(), 0, 2 * TARGETS[0], 0, 0, 0, 0, 0, 0, facts.taker, partner, dummy,
               np.zeros(n, dtype=np.int64), steps, scores)
    return tuple(int(s) // int(steps[ST_VALUE]) for s in scores)


def _number(x):
    """An int when whole, else the Fraction (a half point kept)."""
    x = Fraction(x)
    return int(x) if x.denominator == 1 else x


def _revalued(deal: Deal, *, shares=None, **terms) -> tuple:
    """The scores with some terms or shares of V replaced.

    The scores when some terms of V (R-SCORE-1: ``contract``, ``pab``, ``poignee``, ``slam``)
    or the shares of V (R-SCORE-2) are replaced; the misères stay as the rules pay them."""
    b = deal.official
    parts = {"contract": b.contract_term, "pab": b.petit_au_bout_term, "poignee": b.poignee_term,
             "slam": b.chelem_term}
    unknown = set(terms) - set(parts)
    if unknown:
        raise TypeError(f"unknown terms of V: {', '.join(sorted(unknown))}")
    parts.update(terms)
    value = sum(parts.values())
    return tuple(_number(value * share + misere)
                 for share, misere in zip(shares or deal.shares, b.misere_terms))


def _sign(b: ScoreBreakdown) -> int:
    return 1 if b.made else -1


def _with_option(option: str, value):
    def rescore(deal: Deal):
        f = deal.facts
        if getattr(f.rules, option) == value:
            return None
        return score(replace(f, rules=f.rules.with_options(**{option: value}))).scores
    return rescore


def _misere_value_fitting(deal: Deal) -> int | None:
    """The misère value that gives the written scores, if one does.

    The misère value (option misere_value, R-MIS-2) that gives the written scores, if one does:
    the misère part of a score is linear in that value."""
    f = deal.facts
    if not f.miseres:
        return None
    unit = score(replace(f, rules=f.rules.with_options(misere_value=1))).misere_terms
    seat = next((i for i, u in enumerate(unit) if u), None)
    if seat is None:  # the misères cancel out for every seat: no value shows
        return None
    b = deal.official
    value = Fraction(deal.written[seat] - (b.scores[seat] - b.misere_terms[seat]), unit[seat])
    low, high = OPTION_RANGES["misere_value"]
    if value.denominator != 1 or not low <= value <= high or value == f.rules.misere_value:
        return None
    return int(value)


def _misere_value(deal: Deal):
    value = _misere_value_fitting(deal)
    if value is None:
        return None
    f = deal.facts
    return score(replace(f, rules=f.rules.with_options(misere_value=value))).scores


def _misere_value_text(deal: Deal) -> str:
    value = _misere_value_fitting(deal)
    return f"each misère paid {value} instead of {deal.facts.rules.misere_value}, as option misere_value={value} does"


def _difference_rounded_down(deal: Deal):
    b = deal.official
    if deal.facts.attack_half_points % 2 == 0:
        return None
    return _revalued(deal, contract=_sign(b) * (b.base - 1) * b.multiplier)


def _half_point_kept(deal: Deal):
    b = deal.official
    if deal.facts.attack_half_points % 2 == 0:
        return None
    return _revalued(deal, contract=_sign(b) * (b.base - Fraction(1, 2)) * b.multiplier)


def _pab_to_contract_winner(deal: Deal):
    b = deal.official
    if b.petit_au_bout_term == 0 or (b.petit_au_bout_term > 0) == b.made:
        return None
    return _revalued(deal, pab=-b.petit_au_bout_term)


def _poignee_multiplied(deal: Deal):
    b = deal.official
    if b.poignee_term == 0 or b.multiplier == 1:
        return None
    return _revalued(deal, poignee=b.poignee_term * b.multiplier)


def _slam_multiplied(deal: Deal):
    b = deal.official
    if b.chelem_term == 0 or b.multiplier == 1:
        return None
    return _revalued(deal, slam=b.chelem_term * b.multiplier)


def _with_shares(deal: Deal, **seats):
    """The scores with the taker's and the partner's shares of V replaced."""
    f = deal.facts
    shares = list(deal.shares)
    for role, share in seats.items():
        shares[getattr(f, role)] = share
    return _revalued(deal, shares=shares)


def _taker_paid_once(deal: Deal):
    if deal.shares[deal.facts.taker] == 1:
        return None
    return _with_shares(deal, taker=1)


def _five_split_equally(deal: Deal):
    if deal.facts.partner is None:
        return None
    return _with_shares(deal, taker=Fraction(3, 2), partner=Fraction(3, 2))


def _five_partner_unpaid(deal: Deal):
    if deal.facts.partner is None:
        return None
    return _with_shares(deal, taker=3, partner=0)


def _signs_swapped(deal: Deal):
    return tuple(-s for s in deal.official.scores)


#: The options of docs/rules.md §14 that change a deal's score: each value, what scoring with it means, and
#: the rule it sets. Every value is a cause when the sheet is checked under another one.
VARIANT_OPTIONS = (
    ("pab_multiplied", False, "the petit au bout not multiplied: a flat 10", ("R-PAB-3",)),
    ("pab_multiplied", True, "the petit au bout multiplied by the contract", ("R-PAB-3",)),
    ("poignee_to", "declarer_side", "the poignée paid to the declarer's side whatever the result", ("R-POIG-4",)),
    ("poignee_to", "winner", "the poignée paid to the side that won the deal", ("R-POIG-4",)),
    ("defence_slam_bonus", 0, "no bonus for the defence's chelem", ("R-SLAM-3",)),
    ("defence_slam_bonus", 200, "200 to each defender for the defence's chelem", ("R-SLAM-3",)),
)


def _variants():
    """The causes of the variant options and of the misère value.

    One cause per entry of :data:`VARIANT_OPTIONS`, and the misère value (a whole number,
    option misere_value) found in the deal."""
    causes = []
    for option, value, text, rules in VARIANT_OPTIONS:
        shown = str(value).lower()
        causes.append(Cause(f"{option}={shown}", "variant", f"{text}, as option {option}={shown} does", rules,
                            _with_option(option, value)))
    causes.append(Cause("misere_value", "variant", _misere_value_text, ("R-MIS-2",), _misere_value))
    return causes


#: Every known cause, in the order a report lists them: the variants of docs/rules.md §14 that change a
#: score, then the common mistakes (docs/audit.md describes each with an example).
CAUSES: tuple[Cause, ...] = (
    *_variants(),
    Cause("difference_rounded_down", "mistake",
          "the difference rounded down: the half point given to the losing side", ("R-COUNT-4",),
          _difference_rounded_down),
    Cause("half_point_kept", "mistake",
          "the difference not rounded: the half point kept in the scores", ("R-COUNT-4", "R-SCORE-4"),
          _half_point_kept),
    Cause("pab_to_contract_winner", "mistake",
          "the petit au bout paid to the side that won the deal, not to the side that won the last trick",
          ("R-PAB-1",), _pab_to_contract_winner),
    Cause("poignee_multiplied", "mistake", "the poignée multiplied by the contract", ("R-POIG-1", "R-SCORE-1"),
          _poignee_multiplied),
    Cause("slam_multiplied", "mistake", "the chelem bonus multiplied by the contract", ("R-SLAM-3", "R-SCORE-1"),
          _slam_multiplied),
    Cause("taker_paid_once", "mistake",
          "the taker paid once instead of by each defender", ("R-SCORE-2",), _taker_paid_once),
    Cause("five_split_equally", "mistake",
          "table 5: the attack's gain split equally between taker and partner (2V and V by the rules)",
          ("R-SCORE-2",), _five_split_equally),
    Cause("five_partner_unpaid", "mistake",
          "table 5: the taker took the attack's whole gain, the partner nothing", ("R-SCORE-2",),
          _five_partner_unpaid),
    Cause("signs_swapped", "mistake",
          "every score of the deal written with the wrong sign", ("R-SCORE-1",), _signs_swapped),
)

CAUSE_NAMES = tuple(c.name for c in CAUSES)


def explain(facts: DealFacts, written) -> tuple[Match, ...]:
    """The known causes that explain a deal's written scores.

    The causes of :data:`CAUSES` that turn ``facts`` into exactly the ``written`` scores (in
    seat order), when these differ from the rules' (else none: nothing to explain)."""
    official = score(facts)
    written = tuple(written)
    if len(written) != len(official.scores):
        raise ValueError(f"{len(written)} written scores for a table of {len(official.scores)}")
    if written == official.scores:
        return ()
    deal = Deal(facts, official, shares_of(facts), written)
    return tuple(Match(c.name, c.kind, c.describe(deal), c.rules) for c in CAUSES
                 if c.rescore(deal) == written)


# ---------------------------------------------------------------------------------------------
# The sheet


@dataclass(frozen=True)
class RowCheck:
    """A deal of the sheet checked.

    A deal of the sheet checked: what was written (the deal's scores; from the totals'
    difference on a sheet of running totals), what the rules give, and why they differ."""

    row: int
    label: str
    written: tuple
    expected: tuple[int, ...]
    written_totals: tuple | None
    causes: tuple[Match, ...]
    notes: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return self.written == self.expected and not self.notes

    @property
    def written_sum(self):
        return _number(sum(self.written))


@dataclass(frozen=True)
class Audit:
    """A sheet checked.

    A sheet checked: one :class:`RowCheck` per deal counted; ``unchecked`` the rows of a
    sheet of deal scores that leave them empty; ``not_counted`` the rows after a game's end."""

    rules: Rules
    names: tuple[str, ...]
    checks: tuple[RowCheck, ...]
    unchecked: tuple[int, ...]
    not_counted: int

    @property
    def wrong(self) -> list[RowCheck]:
        return [c for c in self.checks if not c.ok]

    def to_dict(self) -> dict:
        names = list(self.names)

        def by_name(values):
            return None if values is None else dict(zip(names, map(_json_number, values)))

        return {"table": self.rules.table, "options": self.rules.non_default_options(), "players": names,
                "checked": len(self.checks), "wrong": len(self.wrong), "wrong_rows": [c.row for c in self.wrong],
                "unchecked_rows": list(self.unchecked), "rows_not_counted": self.not_counted,
                "rows": [{"row": c.row, "deal": c.label, "ok": c.ok, "written": by_name(c.written),
                          "written_totals": by_name(c.written_totals), "expected": by_name(c.expected),
                          "written_sum": _json_number(c.written_sum), "causes": [m.to_dict() for m in c.causes],
                          "notes": list(c.notes)} for c in self.checks]}


def _json_number(x):
    return float(x) if isinstance(x, Fraction) else x


def _signed(x, sign: str = "+") -> str:
    """A score as written: ``+76``, ``-76.5``, ``0`` (``sign=""``: no + either)."""
    if isinstance(x, Fraction):
        return f"{float(x):{sign}.1f}"
    return f"{x:{sign}d}" if x else "0"


def audit_sheet(rows: list[SheetRow], rules: Rules, names, until: int | None = None, *,
                name: str = "<sheet>") -> Audit:
    """Check the scores written on a sheet read by :func:`~tarotsim.sheet.read_sheet`.

    Each deal counted by :func:`~tarotsim.sheet.score_sheet` (``until`` as there) is compared
    with what was written; the causes of :data:`CAUSES` that reproduce a differing deal are named
    (:func:`explain`). On a sheet of running totals the deal's written score is the difference of
    two consecutive totals (the first from 0). Written scores that do not sum to zero are noted
    (R-SCORE-3), and so are totals that do not add up the deal scores written beside them.

    ``name`` is the sheet's file as :func:`~tarotsim.sheet.read_sheet` names it in messages
    (a path, ``-`` for standard input).

    Raises
    ------
    SheetError
        A sheet without written scores, or running totals missing on a row (one line naming the
        row and the columns).
    """
    name = _source_name(name)
    result = score_sheet(rows, rules, names, until)
    names = result.names
    if not any(r.written is not None or r.written_totals is not None for r in rows):
        raise SheetError(f"{name}: nothing to check: no written scores (a column per player: "
                         f"{', '.join(names)}; or a running total per player: "
                         f"{', '.join(n + TOTAL_SUFFIX for n in names)})")
    with_totals = any(r.written_totals is not None for r in rows)
    by_row = {r.row: r for r in rows}
    checks, unchecked, previous = [], [], (0,) * len(names)
    for deal in result.deals:
        r = by_row[deal.row]
        notes = []
        if with_totals:
            if r.written_totals is None:
                raise SheetError(f"{name}: row {r.row}, columns {', '.join(n + TOTAL_SUFFIX for n in names)}: "
                                 f"no running totals written (a sheet of running totals needs them on every row)")
            from_totals = tuple(_number(t - p) for t, p in zip(r.written_totals, previous))
            previous = r.written_totals
            if r.written is not None and r.written != from_totals:
                notes.append("the running totals do not add up the scores written on the row: "
                             f"they moved by {' '.join(map(_signed, from_totals))}")
            written = r.written if r.written is not None else from_totals
        elif r.written is None:
            unchecked.append(r.row)
            continue
        else:
            written = r.written
        total = sum(written)
        if total != 0:
            notes.append(f"the written scores sum to {_signed(_number(total))}, not 0 (R-SCORE-3)")
        causes = () if r.facts is None else explain(r.facts, written)
        off = [(n, w - e) for n, w, e in zip(names, written, deal.scores) if w != e]
        if not causes and len(off) == 1:
            (who, by), = off
            what = "running total" if r.written is None else "score"
            notes.append(f"only {who}'s {what} differs, by {_signed(_number(by))}: a slip of the pen or of addition")
        checks.append(RowCheck(r.row, deal.label, written, deal.scores, r.written_totals, causes, tuple(notes)))
    return Audit(rules=rules, names=names, checks=tuple(checks), unchecked=tuple(unchecked),
                 not_counted=result.rows - len(result.deals))


def format_audit(audit: Audit) -> str:
    """Format an audit for the terminal.

    The report for the terminal: each deal that differs, what was written, what the rules
    give, and its causes (or that no single known cause explains it); then a summary line."""
    names = audit.names
    width = max(6, *(len(n) for n in names))
    out = [f"{'':11}" + "  ".join(n.rjust(width) for n in names)]
    for c in audit.wrong:
        out.append(f"row {c.row}: {c.label}")
        if c.written_totals is not None:
            out.append(f"  {'totals':<9}" + "  ".join(_signed(x, "").rjust(width) for x in c.written_totals))
        if c.written != c.expected:
            out.append(f"  {'written':<9}" + "  ".join(_signed(x).rjust(width) for x in c.written))
            out.append(f"  {'rules':<9}" + "  ".join(_signed(x).rjust(width) for x in c.expected))
        out.extend(line for n in c.notes for line in paragraph(f"  note: {n}", indent="        "))
        if c.written == c.expected:
            continue
        for m in c.causes:
            out += paragraph(f"  cause: {m.text} ({', '.join(m.rules)})", indent="         ")
        if not c.causes:
            why = "a pass scores 0 for everybody" if c.label == "pass" else "docs/audit.md lists the causes tried"
            out.append(f"  no single known cause explains it ({why})")
    wrong = audit.wrong
    line = f"{len(audit.checks)} deal(s) checked: "
    line += (f"{len(wrong)} differ from the rules (row(s) {', '.join(str(c.row) for c in wrong)})" if wrong
             else "every one scored as the rules say")
    if audit.unchecked:
        line += f"; row(s) {', '.join(map(str, audit.unchecked))} have no written scores"
    if audit.not_counted:
        line += f"; {audit.not_counted} row(s) after the game's end not checked"
    if len(out) == 1:
        out = []
    out.append(line)
    return "\n".join(out)
