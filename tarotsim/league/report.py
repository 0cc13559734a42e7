"""The report of a league, from its database alone: a leaderboard as text, JSON, CSV and an HTML page.

:func:`build` reads the league's current pool and its stored games (:mod:`tarotsim.league.store`),
fits the ratings (:mod:`tarotsim.league.ratings`) and gives a :class:`LeagueReport`: per entrant
its rating in points a deal with its 95% interval, the games and seat-plays it holds and its time
per decision; per pair of entrants the fit's difference beside the pair's own duplicate
comparison, and whether their intervals overlap. The filler, when it is no entrant, is rated too
(a row marked ``filler``). The HTML page is one self-contained file (inline style and SVG, no
script, nothing fetched) with the tables and a plot of rating against time per decision.
"""

from __future__ import annotations

import csv
import html
import io
import math
from dataclasses import dataclass

import numpy as np

from ..echo import paragraph
from ..outputs import json_safe
from ..svg import coord
from . import schedule
from .pool import Pool
from .ratings import CONFIDENCE, REPLICATES, GameScores, Ratings, direct, fit
from .store import Store

#: The decimals of the fit's points a deal in the report: their last digits depend on the
#: machine's linear algebra, so the same database gives the same report everywhere only rounded.
DECIMALS = 4
#: The CSV's columns, one row per entrant (and the filler), in rank order.
CSV_COLUMNS = ("rank", "name", "bot", "filler", "rating", "ci_low", "ci_high", "games", "seat_plays",
               "ms_per_decision")


@dataclass
class LeagueReport:
    """A league's report: its pool, how much of it is stored, the fit, each pair, the timings."""

    pool: Pool
    games: int                  # the pool's games
    complete: int               # those holding every deal
    stored: int                 # their deals stored (of games x deals)
    ratings: Ratings
    rows: list                  # per bot, in rank order (see CSV_COLUMNS)
    pairs: list                 # per pair of entrants: fit and direct differences

    @property
    def deals(self) -> int:
        return self.games * self.pool.deals

    def to_dict(self) -> dict:
        """The report as a JSON-ready dict (no NaN: null)."""
        p = self.pool
        return json_safe({
            "table": p.table, "options": p.options, "seed": p.seed, "deals_per_game": p.deals,
            "filler": p.filler, "tables": "filler" if p.filler else "combinations", "anchor": p.anchor,
            "games": self.games, "games_complete": self.complete, "deals": self.deals, "deals_stored": self.stored,
            "rotations": p.rules().n_seats, "interval": interval_text(self.ratings),
            "bootstrap": self.ratings.replicates, "bootstrap_left_out": self.ratings.singular,
            "entrants": self.rows, "pairs": self.pairs})

    def text(self) -> str:
        """The leaderboard and the pairs as readable tables."""
        p = self.pool
        who = f"filler {p.name_of(p.filler)}" if p.filler else "the entrants fill every table"
        out = [*paragraph(f"league · table {p.table} · seed {p.seed} · {len(p.entrants)} entrants, {who} · "
                          f"{self.complete} of {self.games} games complete ({self.stored:,} of {self.deals:,} "
                          f"deals, each in {p.rules().n_seats} seat rotations)"),
               *paragraph(f"ratings: points a deal above {p.anchor} at the same table; "
                          f"{interval_text(self.ratings)}"), ""]
        w = max(8, *(len(r["name"]) for r in self.rows))
        out.append(f"{'rank':>4}  {'entrant'.ljust(w)}  {'rating':>8}  {'95% CI':>18}  {'games':>5}  "
                   f"{'seat-plays':>10}  {'time/decision':>13}  bot")
        for r in self.rows:
            rank = "" if r["rank"] is None else str(r["rank"])
            bot = r["bot"] + ("  (filler)" if r["filler"] else "")
            out.append(f"{rank:>4}  {r['name'].ljust(w)}  {_num(r['rating']):>8}  {_ci(r):>18}  {r['games']:>5}  "
                       f"{r['seat_plays']:>10,}  {_ms(r['ms_per_decision']):>13}  {bot}")
        out += paragraph("time/decision: one thread, the bot in every seat, over the league's first deals "
                         "(this machine, when timed)")
        if self.pairs:
            alone = "its game" if p.filler else "the games it plays together"
            out += ["", *paragraph(f"pairs: the fit's difference, and the pair alone ({alone}: the paired "
                                   f"difference per deal, Student t)")]
            wp = max(len(f"{q['a']} - {q['b']}") for q in self.pairs)
            for q in self.pairs:
                f, d = q["fit"], q["alone"]
                agree = {True: "intervals overlap", False: "intervals apart", None: ""}[q["agree"]]
                out.append(f"  {(q['a'] + ' - ' + q['b']).ljust(wp)}  fit {_num(f['mean']):>8} {_ci(f):>18}   "
                           f"alone {_num(d['mean']):>8} {_ci(d):>18}  {d['verdict']}; {agree}")
        return "\n".join(out)

    def csv(self) -> str:
        """The leaderboard as CSV (:data:`CSV_COLUMNS`)."""
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(CSV_COLUMNS)
        for r in self.rows:
            w.writerow(["" if r[c] is None else r[c] for c in CSV_COLUMNS])
        return buf.getvalue()

    def html(self) -> str:
        """The report as one self-contained HTML page."""
        return _page(self)


def interval_text(r: Ratings) -> str:
    if not r.replicates:
        return "no intervals (no bootstrap)"
    return (f"{r.confidence:.0%} intervals: {r.replicates:,} bootstrap fits over the {r.deals:,} deals, seeded by "
            f"the league's seed")


def _rounded(x: float | None) -> float | None:
    """``x`` to :data:`DECIMALS` decimals (None and NaN as they are)."""
    return x if x is None or math.isnan(x) else round(float(x), DECIMALS)


def _num(x, fmt: str = "+.2f") -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else format(x, fmt)


def _ms(ms: float | None) -> str:
    return "-" if ms is None else f"{ms:.4f} ms"


def _ci(d: dict, low: str = "ci_low", high: str = "ci_high") -> str:
    if d.get(low) is None or (isinstance(d[low], float) and math.isnan(d[low])):
        return "-"
    return f"[{_num(d[low])}, {_num(d[high])}]"


def _overlap(a: dict, b: dict) -> bool | None:
    values = (a["ci_low"], a["ci_high"], b["ci_low"], b["ci_high"])
    if any(v is None or math.isnan(v) for v in values):
        return None
    return a["ci_low"] <= b["ci_high"] and b["ci_low"] <= a["ci_high"]


def load_games(store: Store, pool: Pool) -> tuple[list[GameScores], int]:
    """The pool's games as stored (deals below the pool's), and how many of them hold every deal."""
    n = pool.rules().n_seats
    games = schedule.games(pool)
    out, complete = [], 0
    for seats, gid in zip(games, store.find_games(games)):
        if gid is None:
            out.append(GameScores(seats, *(_empty(n))))
            continue
        deal, dealer, scores = store.scores(gid, pool.deals, (n, n))
        out.append(GameScores(seats, deal, dealer, scores))
        complete += len(deal) == pool.deals
    return out, complete


def _empty(n: int):
    return np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros((0, n, n), np.int64)


def build(store: Store, replicates: int = REPLICATES) -> LeagueReport:
    """The report of the league in ``store``, from the database alone (its current pool)."""
    pool = store.pool()
    rules = pool.rules()
    games, complete = load_games(store, pool)
    bots = sorted(set(pool.bots) | ({pool.filler} if pool.filler else set()))
    assert pool.seed is not None  # a stored pool has its seed
    ratings = fit(rules, games, pool.anchor_bot, seed=pool.seed, replicates=replicates, bots=bots)
    timings = store.timings()

    def order(bot):
        r = ratings.rating[bot]
        return (r is None, -(r or 0.0), pool.name_of(bot))

    rows = []
    ranked = sorted(bots, key=order)
    for rank, bot in enumerate(ranked, 1):
        t = timings.get(bot)
        rows.append({"rank": rank if ratings.rating[bot] is not None else None, "name": pool.name_of(bot),
                     "bot": bot, "filler": bot not in pool.bots, "rating": _rounded(ratings.rating[bot]),
                     "ci_low": _rounded(ratings.low[bot]), "ci_high": _rounded(ratings.high[bot]),
                     "games": ratings.games[bot],
                     "seat_plays": ratings.seat_plays[bot],
                     "ms_per_decision": 1000 * t[2] / t[1] if t and t[1] else None,
                     "timed": {"deals": t[0], "decisions": t[1], "seconds": t[2]} if t else None})
    pairs = []
    entrants = [b for b in ranked if b in pool.bots]
    for i, a in enumerate(entrants):
        for b in entrants[i + 1:]:
            if (a, b) in ratings.differences:
                mean, lo, hi = ratings.differences[(a, b)]
            elif (b, a) in ratings.differences:
                m, low, high = ratings.differences[(b, a)]
                mean, lo, hi = -m, -high, -low
            else:
                mean = lo = hi = math.nan
            together = [g for g in games if g.seats[:2] == tuple(sorted((a, b)))] if pool.filler else games
            alone = direct(rules, together, a, b)
            f = {"mean": _rounded(mean), "ci_low": _rounded(lo), "ci_high": _rounded(hi)}
            pairs.append({"a": pool.name_of(a), "b": pool.name_of(b), "fit": f,
                          "alone": {k: alone[k] for k in ("mean", "ci_low", "ci_high", "units", "verdict")},
                          "agree": _overlap(f, alone)})
    stored = sum(len(g.deal) for g in games)
    return LeagueReport(pool, len(games), complete, stored, ratings, rows, pairs)


# ---------------------------------------------------------------------------------------------
# the HTML page

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 70em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.1em; margin-top: 2em; }
table { border-collapse: collapse; } td, th { padding: 0.25em 0.8em; text-align: right; }
th { border-bottom: 1px solid #888; } td.name, th.name, td.bot { text-align: left; }
tr:nth-child(even) td { background: #f4f4f4; } .note { color: #555; font-size: 0.9em; }
.apart { color: #b00; }
"""


def _page(rep: LeagueReport) -> str:
    p = rep.pool
    e = html.escape
    head = (f"table {p.table} · seed {p.seed} · {len(p.entrants)} entrants · "
            f"{'filler ' + p.name_of(p.filler) if p.filler else 'the entrants fill every table'} · "
            f"{rep.complete} of {rep.games} games complete ({rep.stored:,} of {rep.deals:,} deals, each in "
            f"{p.rules().n_seats} seat rotations)")
    rows = []
    for r in rep.rows:
        rows.append(f"<tr><td>{r['rank'] or ''}</td><td class=\"name\">{e(r['name'])}</td><td>{_num(r['rating'])}</td>"
                    f"<td>{_ci(r)}</td><td>{r['games']}</td><td>{r['seat_plays']:,}</td>"
                    f"<td>{_num(r['ms_per_decision'], '.4f')}</td><td class=\"bot\">{e(r['bot'])}"
                    f"{' (filler)' if r['filler'] else ''}</td></tr>")
    pairs = []
    for q in rep.pairs:
        f, d = q["fit"], q["alone"]
        agree = {True: "overlap", False: "<span class=\"apart\">apart</span>", None: "-"}[q["agree"]]
        pairs.append(f"<tr><td class=\"name\">{e(q['a'])} - {e(q['b'])}</td><td>{_num(f['mean'])}</td><td>{_ci(f)}</td>"
                     f"<td>{_num(d['mean'])}</td><td>{_ci(d)}</td><td>{e(d['verdict'])}</td><td>{agree}</td></tr>")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>tarotsim league: {e(p.anchor)} = 0</title>
<style>{_STYLE}</style></head><body>
<h1>League ratings, in points a deal</h1>
<p>{e(head)}</p>
<p class="note">Points a deal above {e(p.anchor)} at the same table; {e(interval_text(rep.ratings))}.</p>
<table><thead><tr><th>rank</th><th class="name">entrant</th><th>rating</th><th>95% interval</th><th>games</th>
<th>seat-plays</th><th>ms/decision</th><th class="name">bot</th></tr></thead><tbody>
{chr(10).join(rows)}
</tbody></table>
<p class="note">ms/decision: one thread, the bot in every seat, over the league's first deals (this machine, when
timed).</p>
<h2>Rating against time per decision</h2>
{plot_svg(rep.rows)}
<h2>Each pair</h2>
<p class="note">The fit's difference, and the pair alone ({'its game' if p.filler else 'the games it plays together'}:
the paired difference per deal, Student t over deals); whether the two intervals overlap.</p>
<table><thead><tr><th class="name">pair</th><th>fit</th><th>interval</th><th>alone</th><th>interval</th>
<th>verdict</th><th>intervals</th></tr></thead><tbody>
{chr(10).join(pairs)}
</tbody></table>
</body></html>
"""


def plot_svg(rows: list, width: int = 640, height: int = 400) -> str:
    """Rating (with its interval) against time per decision (log scale), one labelled point per bot."""
    points = [r for r in rows if r["rating"] is not None and r["ms_per_decision"]]
    left, right, top, bottom = 60, 20, 20, 45
    body = [f'<rect x="0" y="0" width="{width}" height="{height}" fill="white"/>']
    if not points:
        body.append(f'<text x="{width // 2}" y="{height // 2}" text-anchor="middle" font-size="14">'
                    f'no bot both rated and timed yet</text>')
        return _svg(width, height, body)
    xs = [math.log10(r["ms_per_decision"]) for r in points]
    lows = [r["ci_low"] if r["ci_low"] is not None and not math.isnan(r["ci_low"]) else r["rating"] for r in points]
    highs = [r["ci_high"] if r["ci_high"] is not None and not math.isnan(r["ci_high"]) else r["rating"]
             for r in points]
    x0, x1 = math.floor(min(xs)), math.ceil(max(xs))
    x1 = max(x1, x0 + 1)
    y0, y1 = min(lows), max(highs)
    pad = max(1.0, (y1 - y0) * 0.08)
    y0, y1 = y0 - pad, y1 + pad

    def px(x):
        return left + (x - x0) / (x1 - x0) * (width - left - right)

    def py(y):
        return top + (y1 - y) / (y1 - y0) * (height - top - bottom)

    axis = 'stroke="#888" stroke-width="1"'
    body.append(f'<line x1="{left}" y1="{height - bottom}" x2="{width - right}" y2="{height - bottom}" {axis}/>')
    body.append(f'<line x1="{left}" y1="{top}" x2="{left}" y2="{height - bottom}" {axis}/>')
    for k in range(x0, x1 + 1):
        label = f"{10.0 ** k:g}"
        body.append(f'<line x1="{coord(px(k))}" y1="{height - bottom}" x2="{coord(px(k))}" y2="{height - bottom + 5}" '
                    f'{axis}/><text x="{coord(px(k))}" y="{height - bottom + 18}" font-size="11" '
                    f'text-anchor="middle">{label}</text>')
    body.append(f'<text x="{(left + width - right) // 2}" y="{height - 8}" font-size="12" text-anchor="middle">'
                f'ms per decision (log scale)</text>')
    for t in _ticks(y0, y1):
        body.append(f'<line x1="{left - 5}" y1="{coord(py(t))}" x2="{left}" y2="{coord(py(t))}" {axis}/>'
                    f'<text x="{left - 8}" y="{coord(py(t) + 4)}" font-size="11" text-anchor="end">{t:g}</text>')
    if y0 < 0 < y1:
        body.append(f'<line x1="{left}" y1="{coord(py(0))}" x2="{width - right}" y2="{coord(py(0))}" '
                    f'stroke="#ccc" stroke-dasharray="4 3"/>')
    body.append(f'<text x="14" y="{(top + height - bottom) // 2}" font-size="12" text-anchor="middle" '
                f'transform="rotate(-90 14 {(top + height - bottom) // 2})">points a deal</text>')
    for r, x, lo, hi in zip(points, xs, lows, highs):
        cx, cy = coord(px(x)), coord(py(r["rating"]))
        colour = "#888" if r["filler"] else "#c0392b"
        body.append(f'<line x1="{cx}" y1="{coord(py(lo))}" x2="{cx}" y2="{coord(py(hi))}" stroke="{colour}" '
                    f'stroke-width="2"/><circle cx="{cx}" cy="{cy}" r="4" fill="{colour}"/>'
                    f'<text x="{coord(px(x) + 7)}" y="{coord(py(r["rating"]) - 6)}" font-size="12">'
                    f'{html.escape(r["name"])}</text>')
    return _svg(width, height, body)


def _svg(width: int, height: int, body: list) -> str:
    return (f'<svg width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" '
            f'aria-label="rating against time per decision">{"".join(body)}</svg>')


def _ticks(lo: float, hi: float) -> list[float]:
    """About five round values between ``lo`` and ``hi``."""
    step = 10 ** math.floor(math.log10((hi - lo) / 5))
    for m in (1, 2, 5, 10):
        if (hi - lo) / (m * step) <= 6:
            step *= m
            break
    return [k * step for k in range(math.ceil(lo / step), math.floor(hi / step) + 1)]


__all__ = ["CONFIDENCE", "CSV_COLUMNS", "LeagueReport", "build", "interval_text", "load_games", "plot_svg"]
