"""Statistics of deal records: per seat (or player, or bot) and per contract (``tarotsim stats``).

:class:`RecordStats` reads records one at a time (:meth:`RecordStats.add`), keeping only integer
sums, so a file of any size takes constant memory; :func:`stats_of_file` does it for a file
(JSON Lines, gzip, ``-``). Per group of seats (``by``: ``seat``, ``player`` from the records'
``players`` field as ``tarotsim play`` writes it, or ``bot`` from their ``bots`` field):

- ``deals`` the deals it sat in (the 5d dummy sits out), ``auctions`` those with an auction (a
  petit-sec deal is annulled before it, R-DEAL-4); ``taken`` and the take rate ``taken /
  auctions``; ``made`` and the made rate ``made / taken`` (R-COUNT-4);
- the mean score per deal, and the mean score as taker, as partner (table 5) and as defender,
  each with its 95 % Student t interval (:func:`tarotsim.stats.mean_ci`, R-SCORE-2);
- the petit au bout won and lost: the Petit played by this seat to the last trick (or the one
  before under R-PAB-2), earned by its side or by the other (R-PAB-1);
- poignées shown by level (R-POIG-1), chelems of the deals it took by outcome (R-SLAM-3), and
  the Excuse lost at the last trick: played to it and gone to the other side (R-EXC-3).

Per contract: deals taken, share (taken / deals, as `tarotsim simulate` says it), made rate, the
taker's mean score and the attack's mean points with intervals, the petit au bout by side,
chelems by outcome, deals with a poignée.

Records are trusted as recorded (``tarotsim replay --verify`` checks them); one that leaves out
its result, scores or (table 5) partner is completed by replaying it (:func:`tarotsim.record.complete`).
A group of ``bot`` at several seats of one deal counts each seat: its ``deals`` are seat-deals.
What cannot be right is warned about (:meth:`RecordStats.warnings`): scores that do not add up to
zero (R-SCORE-3) or beyond any deal's (:func:`tarotsim.scoring.score_limit`), and records of
several tables, whose figures mix.
"""

from __future__ import annotations

import csv
import json
import math
from collections import Counter
from dataclasses import dataclass, field


from ..display import trick_seats
from ..echo import paragraph
from ..rules import CONTRACTS, POIGNEE_LEVELS
from ..stats import mean_ci

GROUPINGS = ("seat", "player", "bot")
CHELEM_KINDS = ("announced_made", "made", "announced_failed", "defence", "announced_defence")


class StatsError(ValueError):
    """Records that cannot be grouped as asked (no player names, no bots): one line for the user."""


@dataclass
class Mean:
    """Running sums of whole numbers for a mean and its 95 % interval."""

    n: int = 0
    total: int = 0
    squares: int = 0

    def add(self, x: int) -> None:
        self.n += 1
        self.total += x
        self.squares += x * x

    def interval(self, scale: float = 1.0) -> tuple[float, float, float]:
        """``(mean, low, high)`` (nan where undefined), each multiplied by ``scale``."""
        m, lo, hi = mean_ci(self.n, self.total, self.squares)
        return m * scale, lo * scale, hi * scale

    def to_dict(self, scale: float = 1.0) -> dict:
        m, lo, hi = self.interval(scale)
        return {"n": self.n, "mean": _num(m), "low": _num(lo), "high": _num(hi)}


def _num(x: float) -> float | None:
    """A float for JSON: nan (no value) as null."""
    return None if math.isnan(x) else round(x, 6)


def _rate(k: int, n: int) -> float | None:
    return k / n if n else None


@dataclass
class GroupTally:
    """The sums of one group of seats (a seat, a player, a bot)."""

    deals: int = 0
    auctions: int = 0
    taken: int = 0
    made: int = 0
    score: Mean = field(default_factory=Mean)
    as_taker: Mean = field(default_factory=Mean)
    as_partner: Mean = field(default_factory=Mean)
    as_defender: Mean = field(default_factory=Mean)
    petit_au_bout_won: int = 0
    petit_au_bout_lost: int = 0
    poignees: Counter = field(default_factory=Counter)
    chelems: Counter = field(default_factory=Counter)
    excuse_lost_last_trick: int = 0

    def to_dict(self) -> dict:
        return {"deals": self.deals, "auctions": self.auctions, "taken": self.taken,
                "take_rate": _rate(self.taken, self.auctions), "made": self.made,
                "made_rate": _rate(self.made, self.taken), "score": self.score.to_dict(),
                "as_taker": self.as_taker.to_dict(), "as_partner": self.as_partner.to_dict(),
                "as_defender": self.as_defender.to_dict(), "petit_au_bout_won": self.petit_au_bout_won,
                "petit_au_bout_lost": self.petit_au_bout_lost,
                "poignees": {lv: self.poignees[lv] for lv in POIGNEE_LEVELS},
                "chelems": {k: self.chelems[k] for k in CHELEM_KINDS},
                "excuse_lost_last_trick": self.excuse_lost_last_trick}


@dataclass
class ContractTally:
    """The sums of the deals played at one contract."""

    taken: int = 0
    made: int = 0
    taker_score: Mean = field(default_factory=Mean)
    attack_half_points: Mean = field(default_factory=Mean)
    petit_au_bout: Counter = field(default_factory=Counter)
    chelems: Counter = field(default_factory=Counter)
    with_poignee: int = 0

    def to_dict(self, deals: int) -> dict:
        return {"taken": self.taken, "share": _rate(self.taken, deals), "made": self.made,
                "made_rate": _rate(self.made, self.taken), "taker_score": self.taker_score.to_dict(),
                "attack_points": self.attack_half_points.to_dict(0.5),
                "petit_au_bout": {s: self.petit_au_bout[s] for s in ("attack", "defence")},
                "chelems": {k: self.chelems[k] for k in CHELEM_KINDS}, "with_poignee": self.with_poignee}


def side_of(rec: dict, seat: int) -> str | None:
    """``attack`` (taker, partner), ``defence``, or None for the 5d dummy (R-GEN-3)."""
    if rec["table"] == "5d" and seat == rec["dealer"]:
        return None
    return "attack" if seat in (rec["taker"], rec.get("partner")) else "defence"


def _petit_au_bout_seat(rec: dict) -> int | None:
    """The seat whose Petit earned the petit au bout, or None.

    The seat whose Petit earned the petit au bout (R-PAB-1; R-PAB-2: played to the trick
    before the last when the last is won under R-EXC-4), or None."""
    if not rec["result"].get("petit_au_bout"):
        return None
    for t in reversed(rec["tricks"][-2:]):
        if "T1" in t["cards"]:
            return trick_seats(rec, t)[t["cards"].index("T1")]
    return None


def _excuse_lost_seat(rec: dict) -> int | None:
    """The seat whose Excuse in the last trick went to the other side, or None.

    The seat that played the Excuse to the last trick and saw it go to the other side
    (R-EXC-3; under R-EXC-4 the Excuse wins that trick), or None."""
    last = rec["tricks"][-1]
    if "EX" not in last["cards"]:
        return None
    seat = trick_seats(rec, last)[last["cards"].index("EX")]
    return seat if side_of(rec, seat) != side_of(rec, last["winner"]) else None


class RecordStats:
    """Statistics of deal records, added one at a time (see the module's docstring)."""

    def __init__(self, by: str = "seat"):
        if by not in GROUPINGS:
            raise StatsError(f"--by {by}: one of {', '.join(GROUPINGS)}")
        self.by = by
        self.groups: dict[str, GroupTally] = {}
        self.contracts = {c: ContractTally() for c in CONTRACTS}
        self.deals = self.played = self.thrown_in = self.annulled = 0
        self.tables: Counter = Counter()
        # the records whose scores cannot be right: how many, and the first (its line, table, limit)
        self.not_zero_sum: list = [0, None]
        self.out_of_range: list = [0, None]
        self._limits: dict = {}  # score_limit by table and options

    def labels(self, rec: dict, line: int | None = None) -> list[str]:
        """The group of each seat of ``rec``."""
        n = len(rec["hands"])
        if self.by == "seat":
            return [f"seat {s}" for s in range(n)]
        from ..record import seat_labels

        names = seat_labels(rec, "players" if self.by == "player" else "bots")
        if names is None:
            where = f"line {line}: " if line is not None else ""
            what = "player names (field players, written by tarotsim play)" if self.by == "player" else \
                "which bot held each seat (field bots, written by tarotsim simulate --records)"
            raise StatsError(f"{where}--by {self.by}: the record does not say {what}, one text per seat")
        return names

    def add(self, rec: dict, line: int | None = None) -> None:
        """Count one record (shape-checked, :func:`tarotsim.record.load`)."""
        rec = _completed(rec, line)
        labels = self.labels(rec, line)
        self.deals += 1
        self.tables[rec["table"]] += 1
        self._check_scores(rec, self.deals if line is None else line)
        outcome = rec["outcome"]
        self.played += outcome == "played"
        self.thrown_in += outcome == "all_passed"
        self.annulled += outcome == "petit_sec"
        for seat, label in enumerate(labels):
            if rec["table"] == "5d" and seat == rec["dealer"]:
                continue  # the dummy sits out (R-DEAL-6)
            g = self.groups.setdefault(label, GroupTally())
            g.deals += 1
            g.auctions += outcome != "petit_sec"
            g.score.add(rec["scores"][seat])
        for d in rec.get("declarations") or []:
            if d["kind"] == "poignee":
                self.groups[labels[d["seat"]]].poignees[d["level"]] += 1
        if outcome == "played":
            self._add_played(rec, labels)

    def _check_scores(self, rec: dict, line: int) -> None:
        """Count ``rec`` among the records whose scores cannot be right (R-SCORE-3, the score limit)."""
        scores = rec["scores"]
        if sum(scores) != 0:
            self.not_zero_sum[0] += 1
            self.not_zero_sum[1] = self.not_zero_sum[1] or line
        options = rec.get("options") or {}
        key = (rec["table"], json.dumps(options, sort_keys=True))
        if key not in self._limits:
            from ..rules import Rules
            from ..scoring import score_limit
            self._limits[key] = score_limit(Rules.from_options(rec["table"], options))
        limit = self._limits[key]
        if max(abs(x) for x in scores) > limit:
            self.out_of_range[0] += 1
            self.out_of_range[1] = self.out_of_range[1] or (line, rec["table"], limit)

    def warnings(self) -> list[str]:
        """What cannot be right in the records counted, one line each (none: nothing seen)."""
        out = []
        check = "`tarotsim replay --verify` names what is wrong with each"
        n, first = self.not_zero_sum
        if n:
            out.append(f"{n:,} record(s) whose scores do not add up to zero (R-SCORE-3), the first at line {first}; "
                       f"{check}")
        n, first = self.out_of_range
        if n:
            line, table, limit = first
            out.append(f"{n:,} record(s) with a score no deal can reach (beyond ±{limit:,} at table {table}), the "
                       f"first at line {line}; {check}")
        if len(self.tables) > 1:
            mix = ", ".join(f"{t}: {k:,}" for t, k in sorted(self.tables.items()))
            out.append(f"the records are of several tables (deals by table {mix}): every figure mixes them")
        return out

    def _add_played(self, rec: dict, labels: list[str]) -> None:
        res, taker = rec["result"], rec["taker"]
        scores = rec["scores"]
        g = self.groups[labels[taker]]
        g.taken += 1
        g.made += res["made"]
        g.as_taker.add(scores[taker])
        if res.get("chelem"):
            g.chelems[res["chelem"]] += 1
        for seat, label in enumerate(labels):
            side = side_of(rec, seat)
            if seat == taker or side is None:
                continue
            (self.groups[label].as_partner if side == "attack" else self.groups[label].as_defender).add(scores[seat])
        pab = _petit_au_bout_seat(rec)
        if pab is not None:
            won = side_of(rec, pab) == res["petit_au_bout"]
            if won:
                self.groups[labels[pab]].petit_au_bout_won += 1
            else:
                self.groups[labels[pab]].petit_au_bout_lost += 1
        lost = _excuse_lost_seat(rec)
        if lost is not None:
            self.groups[labels[lost]].excuse_lost_last_trick += 1
        c = self.contracts[rec["contract"]]
        c.taken += 1
        c.made += res["made"]
        c.taker_score.add(scores[taker])
        c.attack_half_points.add(res["attack_half_points"])
        if res.get("petit_au_bout"):
            c.petit_au_bout[res["petit_au_bout"]] += 1
        if res.get("chelem"):
            c.chelems[res["chelem"]] += 1
        c.with_poignee += any(d["kind"] == "poignee" for d in rec.get("declarations") or [])

    def to_dict(self) -> dict:
        """Every figure, JSON-ready (rates as fractions, means with ``low``/``high`` bounds)."""
        return {"deals": self.deals, "played": self.played, "thrown_in": self.thrown_in, "annulled": self.annulled,
                "tables": dict(sorted(self.tables.items())), "by": self.by,
                "groups": {k: g.to_dict() for k, g in self._sorted_groups()},
                "contracts": {c: t.to_dict(self.deals) for c, t in self.contracts.items()},
                "warnings": self.warnings()}

    def _sorted_groups(self):
        if self.by == "seat":
            return sorted(self.groups.items(), key=lambda kv: int(kv[0].split()[1]))
        return sorted(self.groups.items())


def _completed(rec: dict, line: int | None) -> dict:
    """``rec`` with its result, scores and (table 5) partner, replayed when it leaves them out."""
    played = rec["outcome"] == "played"
    if "scores" in rec and (not played or (rec.get("result") is not None
                                            and (rec["table"] != "5" or "partner" in rec))):
        return rec
    from ..record import complete
    return complete(rec, line)


def stats_of_file(path_or_file, by: str = "seat") -> RecordStats:
    """The :class:`RecordStats` of every record of a file (read as :func:`tarotsim.record.load` does)."""
    from ..record import load

    st = RecordStats(by)
    for line, rec in load(path_or_file):
        st.add(rec, line)
    return st


# ---------------------------------------------------------------------------------------------
# reports


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _mean_text(m: dict, digits: int = 1, signed: bool = True) -> str:
    if m["mean"] is None:
        return "-"
    f = f"{'+' if signed else ''}.{digits}f"
    if m["low"] is None:
        return format(m["mean"], f)
    return f"{format(m['mean'], f)} [{format(m['low'], f)}, {format(m['high'], f)}]"


def _made(chelems: dict) -> int:
    """Slams made by the attack, announced or not (R-SLAM-3)."""
    return chelems["announced_made"] + chelems["made"]


def _slams(chelems: dict) -> str:
    return f"{_made(chelems)}/{chelems['announced_failed']}"


def _columns(head: list[str], rows: list[list[str]]) -> list[str]:
    """Rows of cells as aligned lines: the first column to the left, the others to the right."""
    widths = [max(len(r[i]) for r in [head] + rows) for i in range(len(head))]
    return ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))).rstrip()
            for r in [head] + rows]


def format_stats(d: dict) -> str:
    """The report of :meth:`RecordStats.to_dict` as readable tables."""
    tables = ", ".join(f"{k}: {v:,}" for k, v in d["tables"].items()) or "none"
    out = [f"{d['deals']:,} deals (tables {tables}) · {d['played']:,} played, {d['thrown_in']:,} thrown in, "
           f"{d['annulled']:,} annulled · by {d['by']}", ""]
    groups = d["groups"]
    partner = any(g["as_partner"]["n"] for g in groups.values())
    head = ([d["by"], "deals", "take", "made", "score/deal [95% CI]", "as taker [95% CI]"]
            + (["as partner [95% CI]"] if partner else [])
            + ["as defender [95% CI]", "PAB won/lost", "poignées", "slams made/failed", "EX lost"])
    rows = []
    for k, g in groups.items():
        rows.append([k, f"{g['deals']:,}", _pct(g["take_rate"]), _pct(g["made_rate"]), _mean_text(g["score"], 2),
                     _mean_text(g["as_taker"])] + ([_mean_text(g["as_partner"])] if partner else [])
                    + [_mean_text(g["as_defender"]), f"{g['petit_au_bout_won']}/{g['petit_au_bout_lost']}",
                       str(sum(g["poignees"].values())), _slams(g["chelems"]), str(g["excuse_lost_last_trick"])])
    out += _columns(head, rows) + [""]
    head = ["contract", "taken", "share", "made", "taker score [95% CI]", "attack points [95% CI]", "PAB att/def",
            "slams made/failed", "poignée"]
    rows = [[c, f"{t['taken']:,}", _pct(t["share"]), _pct(t["made_rate"]), _mean_text(t["taker_score"]),
             _mean_text(t["attack_points"], signed=False),
             f"{t['petit_au_bout']['attack']}/{t['petit_au_bout']['defence']}", _slams(t["chelems"]),
             str(t["with_poignee"])] for c, t in d["contracts"].items()]
    out += _columns(head, rows)
    out += ["", *paragraph("take = taken / deals with an auction; share = taken / deals; made = made / taken; "
                           "means with their 95% Student t interval; PAB: the Petit played to the last trick, won "
                           "or lost by its side; slams of the deals taken: made (announced or not) / announced "
                           "and failed")]
    return "\n".join(out)


CSV_COLUMNS = ("kind", "name", "deals", "auctions", "taken", "take_rate", "made", "made_rate",
               "score_n", "score_mean", "score_low", "score_high", "taker_n", "taker_mean", "taker_low",
               "taker_high", "partner_n", "partner_mean", "partner_low", "partner_high", "defender_n",
               "defender_mean", "defender_low", "defender_high", "attack_points_mean", "attack_points_low",
               "attack_points_high", "petit_au_bout_won", "petit_au_bout_lost", "petit_au_bout_attack",
               "petit_au_bout_defence", "poignees", "chelems_made", "chelems_failed", "excuse_lost_last_trick")


def csv_rows(d: dict) -> list[dict]:
    """One row per group (kind ``seat``/``player``/``bot``) and per contract (kind ``contract``)."""

    def mean(prefix, m):
        return {f"{prefix}_n": m["n"], f"{prefix}_mean": m["mean"], f"{prefix}_low": m["low"],
                f"{prefix}_high": m["high"]}

    rows = []
    for k, g in d["groups"].items():
        rows.append({"kind": d["by"], "name": k, "deals": g["deals"], "auctions": g["auctions"], "taken": g["taken"],
                     "take_rate": g["take_rate"], "made": g["made"], "made_rate": g["made_rate"],
                     **mean("score", g["score"]), **mean("taker", g["as_taker"]), **mean("partner", g["as_partner"]),
                     **mean("defender", g["as_defender"]), "petit_au_bout_won": g["petit_au_bout_won"],
                     "petit_au_bout_lost": g["petit_au_bout_lost"], "poignees": sum(g["poignees"].values()),
                     "chelems_made": _made(g["chelems"]), "chelems_failed": g["chelems"]["announced_failed"],
                     "excuse_lost_last_trick": g["excuse_lost_last_trick"]})
    for c, t in d["contracts"].items():
        ap = t["attack_points"]
        rows.append({"kind": "contract", "name": c, "taken": t["taken"], "made": t["made"], "made_rate": t["made_rate"],
                     **mean("taker", t["taker_score"]), "attack_points_mean": ap["mean"],
                     "attack_points_low": ap["low"], "attack_points_high": ap["high"],
                     "petit_au_bout_attack": t["petit_au_bout"]["attack"],
                     "petit_au_bout_defence": t["petit_au_bout"]["defence"],
                     "poignees": t["with_poignee"], "chelems_made": _made(t["chelems"]),
                     "chelems_failed": t["chelems"]["announced_failed"]})
    return rows


def write_csv(d: dict, fh) -> None:
    w = csv.DictWriter(fh, CSV_COLUMNS, restval="")
    w.writeheader()
    for row in csv_rows(d):
        w.writerow({k: "" if v is None else v for k, v in row.items()})


__all__ = ["CSV_COLUMNS", "GROUPINGS", "RecordStats", "StatsError", "csv_rows", "format_stats", "side_of",
           "stats_of_file", "write_csv"]
