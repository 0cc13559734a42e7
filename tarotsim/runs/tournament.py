"""Bot-vs-bot tournaments on duplicate seat rotations.

Bot-vs-bot tournaments: duplicate seat rotations, per-bot means with confidence intervals,
and paired differences between bots.

With ``duplicate`` (the default) every deal ``(seed, index)`` is played once per seat rotation:
in rotation ``r`` seat ``s`` is held by entry ``(s + r) % n``. Every entry plays every seat on
the same cards, so the luck of the deal cancels out of the comparisons. Without it each deal is
played once, in rotation ``index % n``.

The unit of the statistics is the deal (deals are independent; the rotations of one deal are
not): for each bot, ``x(d)`` is its mean score over its seat-plays of deal ``d``; means and 95%
confidence intervals (Student's t, n - 1 degrees of freedom, :mod:`tarotsim.stats`) are taken
over deals, and the difference between two bots is the mean of ``x_a(d) - x_b(d)``, a paired
comparison on identical cards. A difference gets a verdict (significant or not) only from
:data:`MIN_VERDICT_DEALS` deals on: below that the interval is shown but no verdict. Totals are
kept as running sums per chunk of deals, so memory does not depend on the number of deals.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from itertools import combinations

import numpy as np

from .. import echo
from ..outputs import json_safe
from . import simulate as sim
from ..rng import check_run, check_seed
from .players import Player, baseline_note, kernel_path
from .runner import FAST_BLOCK, SLOW_BLOCK, Runner
from ..rules import CONTRACTS, Rules
from ..stats import mean_ci, mean_sd

#: Fewer deals than this in a paired comparison: its interval is shown, without a verdict.
MIN_VERDICT_DEALS = 30
CONFIDENCE = 0.95


#: One seat's bot (a registered bot, a policy set or a Python bot): the library's one seat value.
#: ``label`` names it in the report; seats with the same label are one bot.
Entry = Player


@dataclass
class _Acc:
    """Running integer sums for one bot (so that totals of any split of the deals add up exactly)."""

    plays: int = 0              # seat-plays (deals played, one per rotation and seat)
    takes: int = 0
    made: int = 0
    taker_score: int = 0
    defender_plays: int = 0
    defender_score: int = 0
    partner_plays: int = 0
    partner_score: int = 0
    takes_by_contract: list = field(default_factory=lambda: [0, 0, 0, 0])
    made_by_contract: list = field(default_factory=lambda: [0, 0, 0, 0])
    # x(d) = t / c: its score total t over its c seat-plays of deal d. Per c: [sum t, sum t^2, deals],
    # whole numbers, so the sums of x and x^2 are exact fractions whatever the split of the deals.
    by_count: dict = field(default_factory=dict)

    @property
    def units(self) -> int:
        """Deals in which it played (the statistical units)."""
        return sum(v[2] for v in self.by_count.values())


def _exact_sums(groups: dict) -> tuple[int, float, float]:
    """The count, sum and sum of squares of grouped fractions, exactly.

    ``(n, sum, sum of squares)`` of the values ``num / den`` grouped as ``{den: [sum num,
    sum num^2, n]}``: added as exact fractions, rounded once, so any split gives the same floats."""
    n, s, s2 = 0, Fraction(0), Fraction(0)
    for den, (a, b, k) in groups.items():
        n += k
        s += Fraction(a, den)
        s2 += Fraction(b, den * den)
    return n, float(s), float(s2)


def _add_group(groups: dict, key, num: np.ndarray) -> None:
    g = groups.setdefault(key, [0, 0, 0])
    g[0] += int(num.sum())
    g[1] += int((num * num).sum())
    g[2] += int(num.size)


@dataclass
class TournamentTotals:
    """The integer totals of a tournament over some deals.

    The integer totals of a tournament over some deals (:func:`accumulate`): totals of
    disjoint ranges of deals add up (:meth:`add`) to the totals of their union, exactly."""

    labels: list                # the distinct bots, in seat order of first appearance
    accs: list                  # one _Acc per label
    pairs: dict                 # (i, j) -> {(c_i, c_j): [sum num, sum num^2, deals]}, num / (c_i c_j) = x_i - x_j

    @classmethod
    def empty(cls, labels) -> TournamentTotals:
        labels = list(labels)
        return cls(labels, [_Acc() for _ in labels], {p: {} for p in combinations(range(len(labels)), 2)})

    def add(self, other: TournamentTotals) -> None:
        """Add the totals of other deals (the same bots) into these."""
        if other.labels != self.labels:
            raise ValueError(f"totals of bots {other.labels} cannot be added to totals of {self.labels}")
        for a, b in zip(self.accs, other.accs):
            for name in ("plays", "takes", "made", "taker_score", "defender_plays", "defender_score",
                         "partner_plays", "partner_score"):
                setattr(a, name, getattr(a, name) + getattr(b, name))
            a.takes_by_contract = [x + y for x, y in zip(a.takes_by_contract, b.takes_by_contract)]
            a.made_by_contract = [x + y for x, y in zip(a.made_by_contract, b.made_by_contract)]
            _merge_groups(a.by_count, b.by_count)
        for key, groups in other.pairs.items():
            _merge_groups(self.pairs[key], groups)

    def to_json(self) -> dict:
        """Plain JSON values (group keys as ``"c"`` / ``"ci,cj"`` strings)."""
        def acc(a):
            d = {k: v for k, v in asdict(a).items() if k != "by_count"}
            d["by_count"] = {str(c): v for c, v in sorted(a.by_count.items())}
            return d
        return {"labels": self.labels, "bots": [acc(a) for a in self.accs],
                "pairs": {f"{i},{j}": {f"{a},{b}": v for (a, b), v in sorted(g.items())}
                          for (i, j), g in self.pairs.items()}}

    @classmethod
    def from_json(cls, d: dict) -> TournamentTotals:
        """The inverse of :meth:`to_json` (``ValueError``/``KeyError``/``TypeError`` on a malformed dict)."""
        t = cls.empty(d["labels"])
        for a, src in zip(t.accs, d["bots"], strict=True):
            for name in ("plays", "takes", "made", "taker_score", "defender_plays", "defender_score",
                         "partner_plays", "partner_score"):
                setattr(a, name, _whole(src[name]))
            a.takes_by_contract = [_whole(x) for x in src["takes_by_contract"]]
            a.made_by_contract = [_whole(x) for x in src["made_by_contract"]]
            if len(a.takes_by_contract) != len(CONTRACTS) or len(a.made_by_contract) != len(CONTRACTS):
                raise ValueError("one count per contract expected")
            a.by_count = {_whole(c, 1): _triple(v) for c, v in src["by_count"].items()}
        if set(d["pairs"]) != {f"{i},{j}" for i, j in t.pairs}:
            raise ValueError("the pairs do not match the bots")
        for key, groups in d["pairs"].items():
            i, j = (int(x) for x in key.split(","))
            t.pairs[(i, j)] = {tuple(_whole(x, 1) for x in k.split(",")): _triple(v) for k, v in groups.items()}
        return t


def _whole(x, minimum=None) -> int:
    if isinstance(x, str):
        x = int(x)
    if not isinstance(x, int) or isinstance(x, bool) or (minimum is not None and x < minimum):
        raise ValueError(f"not a whole number{f' >= {minimum}' if minimum is not None else ''}: {echo.shown(x)}")
    return x


def _triple(v) -> list:
    v = [_whole(x) for x in v]
    if len(v) != 3 or v[1] < 0 or v[2] < 0:
        raise ValueError(f"[sum, sum of squares, deals] expected, not {v}")
    return v


def _merge_groups(into: dict, other: dict) -> None:
    for key, (a, b, k) in other.items():
        g = into.setdefault(key, [0, 0, 0])
        g[0] += a
        g[1] += b
        g[2] += k


def _ci(n: int, s: float, s2: float) -> tuple[float, float, float, float]:
    """(mean, ci_low, ci_high, sd) of n values given their sum and sum of squares (Student t)."""
    mean, low, high = mean_ci(n, s, s2, CONFIDENCE)
    return mean, low, high, mean_sd(n, s, s2)[1]


def verdict(units: int, low: float, high: float) -> str:
    """The verdict of a paired difference.

    What a paired difference over ``units`` deals says: ``significant`` (its interval leaves
    out 0), ``not significant``, or ``too few deals`` (below :data:`MIN_VERDICT_DEALS`)."""
    if units < MIN_VERDICT_DEALS or math.isnan(low) or math.isnan(high):
        return "too few deals"
    return "significant" if low > 0 or high < 0 else "not significant"


@dataclass
class TournamentResult:
    table: str
    seed: int
    start: int
    deals: int
    duplicate: bool
    rotations: int
    entries: list
    bots: list            # dicts, one per distinct bot
    pairs: list           # dicts, one per pair of distinct bots
    elapsed_s: float = 0.0
    options: dict = field(default_factory=dict)
    compile_s: float = 0.0   # numba compiling the kernels first (a cold cache), not in elapsed_s

    def to_dict(self) -> dict:
        """The result as a JSON-ready dict.

        JSON-ready (NaN as null). Per bot, ``deals`` counts the deals it played in (the
        statistical units, also ``units``) and ``plays`` its seat-plays (a deal counts once per
        rotation in which it held a seat)."""
        return json_safe({
            "table": self.table, "seed": self.seed, "start": self.start, "deals": self.deals,
            "duplicate": self.duplicate, "rotations": self.rotations,
            "seats": [e.label for e in self.entries], "options": self.options,
            "bots": self.bots, "pairs": self.pairs, "elapsed_s": self.elapsed_s, "compile_s": self.compile_s,
            "interval": f"{CONFIDENCE:.0%} Student t over deals (n - 1 degrees of freedom)",
            "min_deals_for_verdict": MIN_VERDICT_DEALS})


def rotations(entries: list[Entry], duplicate: bool) -> list[list[Entry]]:
    """The seat assignments played for every deal (duplicate) or to choose from (index % n)."""
    n = len(entries)
    return [[entries[(s + r) % n] for s in range(n)] for r in range(n)]


def play_chunk(rules: Rules, seed: int, a: int, b: int, seats: list[Player], threads: int) -> np.ndarray:
    """Play a chunk of deals and return their facts.

    Facts of deals ``a .. b-1`` with ``seats`` (one Player per seat): on the kernels when every
    seat can, else step by step (:class:`tarotsim.runs.runner.Runner`)."""
    return Runner(rules, seed, seats, threads).block(a, b)[0]


def run(rules: Rules, seed: int, deals: int, entries: list[Entry], *, duplicate: bool = True,
        start: int = 0, threads: int | None = None, progress=None, chunk: int | None = None,
        play=play_chunk) -> TournamentResult:
    """Play the tournament and compute its statistics (see the module docstring).

    ``seed``: a whole number in 0..2**64-1; ``start``: the first deal index, with
    ``start + deals <= 2**63`` (``rng.DealIdError``, a ``ValueError``, otherwise); ``threads``:
    default every core (:func:`tarotsim.runs.simulate.default_threads`); ``chunk``: deals per block,
    default ``runner.FAST_BLOCK`` on the fast path and ``runner.SLOW_BLOCK`` when a Python bot
    plays (so progress is reported often)."""
    import time

    seed = check_seed(seed)
    start, stop = check_run(start, deals, minimum=1)
    t0 = time.perf_counter()
    totals = accumulate(rules, seed, start, stop, entries, duplicate=duplicate, threads=threads, progress=progress,
                        chunk=chunk, play=play)
    return result(rules, seed, start, stop - start, entries, duplicate, totals, time.perf_counter() - t0)


def accumulate(rules: Rules, seed: int, start: int, stop: int, entries: list[Entry], *, duplicate: bool = True,
               threads: int | None = None, progress=None, chunk: int | None = None,
               play=play_chunk) -> TournamentTotals:
    """The integer totals of a range of deals.

    The integer totals of deals ``start .. stop - 1`` (arguments as :func:`run`); the totals of
    disjoint ranges add up (:meth:`TournamentTotals.add`) to those of their union."""
    seed = check_seed(seed)
    start, stop = check_run(start, stop - start)
    threads = sim.default_threads() if threads is None else max(1, int(threads))
    if chunk is None:
        chunk = FAST_BLOCK if kernel_path(rules, entries) else SLOW_BLOCK
    chunk = max(1, int(chunk))
    n = rules.n_seats
    if len(entries) != n:
        raise ValueError(f"table {rules.table} seats {n} players: give {n} bots, not {len(entries)}")
    totals = TournamentTotals.empty(dict.fromkeys(e.label for e in entries))
    idx = {lab: i for i, lab in enumerate(totals.labels)}
    k = len(totals.labels)
    accs = totals.accs
    rots = rotations(entries, duplicate)
    for a in range(start, stop, chunk):
        b = min(stop, a + chunk)
        m = b - a
        tot = np.zeros((k, m), np.int64)          # per bot, per deal: sum of its scores
        cnt = np.zeros((k, m), np.int64)          # per bot, per deal: its seat-plays
        index = np.arange(a, b)
        for r, seats in enumerate(rots):
            use = np.ones(m, bool) if duplicate else (index % n == r)
            if not use.any():
                continue
            f = play(rules, seed, a, b, seats, threads)
            played = f["outcome"] == 0
            dealer = f["dealer"].astype(np.int64)
            for s, e in enumerate(seats):
                i = idx[e.label]
                active = use & ~((dealer == s) if rules.table == "5d" else np.zeros(m, bool))
                sc = f["scores"][:, s].astype(np.int64)
                tot[i] += np.where(active, sc, 0)
                cnt[i] += active
                acc = accs[i]
                acc.plays += int(active.sum())
                taking = active & played & (f["taker"] == s)
                acc.takes += int(taking.sum())
                acc.made += int((taking & (f["made"] == 1)).sum())
                acc.taker_score += int(sc[taking].sum())
                for c in range(len(CONTRACTS)):
                    tc = taking & (f["contract"] == c)
                    acc.takes_by_contract[c] += int(tc.sum())
                    acc.made_by_contract[c] += int((tc & (f["made"] == 1)).sum())
                partner = active & played & (f["partner"] == s)
                acc.partner_plays += int(partner.sum())
                acc.partner_score += int(sc[partner].sum())
                defending = active & played & (f["taker"] != s) & (f["partner"] != s)
                acc.defender_plays += int(defending.sum())
                acc.defender_score += int(sc[defending].sum())
        add_scores(totals, tot, cnt)
        if progress is not None:
            progress(m)
    return totals


def add_scores(totals: TournamentTotals, tot: np.ndarray, cnt: np.ndarray) -> None:
    """Count some deals' score totals per bot into the tournament's totals.

    ``tot[i, d]`` and ``cnt[i, d]``: the score total and the seat-plays of bot ``totals.labels[i]``
    in deal ``d`` of some deals (0 seat-plays: it did not play that deal), so that its value of
    the deal is ``x_i(d) = tot / cnt`` (the module docstring). What :func:`accumulate` counts of
    each chunk of deals, and the league of its stored scores (:mod:`tarotsim.league.report`)."""
    for i, acc in enumerate(totals.accs):
        for c in np.unique(cnt[i][cnt[i] > 0]):
            _add_group(acc.by_count, int(c), tot[i][cnt[i] == c])
    for (i, j), groups in totals.pairs.items():
        both = (cnt[i] > 0) & (cnt[j] > 0)
        ci, cj = cnt[i][both], cnt[j][both]
        num = tot[i][both] * cj - tot[j][both] * ci   # (x_i - x_j) * ci * cj
        base = int(max(ci.max(initial=0), cj.max(initial=0))) + 1
        key = ci * base + cj                           # the pair of seat-plays, as one number
        for kk in np.unique(key):
            _add_group(groups, (int(kk) // base, int(kk) % base), num[key == kk])


def pair_differences(totals: TournamentTotals) -> list[dict]:
    """The paired difference of every pair of bots of the totals, with its interval and verdict.

    One dict per pair ``(a, b)`` of ``totals.labels`` in their order: ``mean`` of ``x_a(d) -
    x_b(d)`` over the deals both played, its 95% interval ``ci_low``, ``ci_high`` (Student t
    over deals), ``units`` (= ``deals``), ``sd`` and :func:`verdict`."""
    pairs = []
    for (i, j), groups in totals.pairs.items():
        by_den: dict = {}  # the difference num / (ci cj): grouped by its denominator
        for (ci, cj), v in groups.items():
            _merge_groups(by_den, {ci * cj: v})
        units, sd_, sd2 = _exact_sums(by_den)
        mean, lo, hi, sd = _ci(units, sd_, sd2)
        pairs.append({"a": totals.labels[i], "b": totals.labels[j], "mean": mean, "ci_low": lo, "ci_high": hi,
                      "units": units, "deals": units, "sd": sd, "verdict": verdict(units, lo, hi)})
    return pairs


def result(rules: Rules, seed: int, start: int, deals: int, entries: list[Entry], duplicate: bool,
           totals: TournamentTotals, elapsed: float = 0.0) -> TournamentResult:
    """The statistics of :func:`run` from the totals of deals ``start .. start + deals - 1``."""
    bots = []
    for lab, acc in zip(totals.labels, totals.accs):
        units, sx, sx2 = _exact_sums(acc.by_count)
        mean, lo, hi, sd = _ci(units, sx, sx2)
        bots.append({
            "name": lab, "mean": mean, "ci_low": lo, "ci_high": hi, "sd": sd,
            "deals": units, "units": units, "plays": acc.plays,
            "take_rate": acc.takes / acc.plays if acc.plays else None,
            "made_rate": acc.made / acc.takes if acc.takes else None,
            "mean_as_taker": acc.taker_score / acc.takes if acc.takes else None,
            "mean_as_defender": acc.defender_score / acc.defender_plays if acc.defender_plays else None,
            "mean_as_partner": acc.partner_score / acc.partner_plays if acc.partner_plays else None,
            "takes_by_contract": dict(zip(CONTRACTS, acc.takes_by_contract)),
            "made_rate_by_contract": {c: (mk / tk if tk else None) for c, tk, mk in
                                      zip(CONTRACTS, acc.takes_by_contract, acc.made_by_contract)},
        })
    pairs = pair_differences(totals)
    n = rules.n_seats
    return TournamentResult(table=rules.table, seed=seed, start=start, deals=deals, duplicate=duplicate,
                            rotations=n if duplicate else 1, entries=list(entries), bots=bots, pairs=pairs,
                            elapsed_s=elapsed, options=rules.non_default_options())


def _num(x, fmt="+.2f") -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else format(x, fmt)


def format_result(res: TournamentResult) -> str:
    """The tournament as readable tables."""
    mode = f"duplicate, {res.rotations} seat rotations" if res.duplicate else "no duplicate"
    out = [f"tournament · table {res.table} · {res.deals:,} deals ({mode}) · seed {res.seed} · "
           f"{res.elapsed_s:.1f} s{sim.compile_text(res.compile_s)}",
           "seats: " + ", ".join(e.label for e in res.entries) + baseline_note([e.label for e in res.entries]), ""]
    w = max(10, *(len(b["name"]) for b in res.bots))
    out.append(f"{'bot'.ljust(w)}  {'deals':>10}  {'seat-plays':>10}  {'mean/deal':>9}  {'95% CI':>19}  "
               f"{'take':>6}  {'made':>6}  {'as taker':>9}  {'as defender':>11}")
    for b in sorted(res.bots, key=lambda b: -b["mean"] if not _nan(b["mean"]) else 0):
        ci = f"[{_num(b['ci_low'])}, {_num(b['ci_high'])}]"
        take = "-" if b["take_rate"] is None else f"{100 * b['take_rate']:.1f}%"
        made = "-" if b["made_rate"] is None else f"{100 * b['made_rate']:.1f}%"
        out.append(f"{b['name'].ljust(w)}  {b['deals']:>10,}  {b['plays']:>10,}  {_num(b['mean']):>9}  {ci:>19}  "
                   f"{take:>6}  {made:>6}  {_num(b['mean_as_taker'], '+.1f'):>9}  "
                   f"{_num(b['mean_as_defender'], '+.1f'):>11}")
    out.append("deals: the deals a bot played in (the units of the statistics); seat-plays: a deal counts once")
    out.append("per rotation in which it held a seat; take and made are per seat-play and per take.")
    if res.pairs:
        out.append("")
        out.append(f"paired differences per deal (same cards), {CONFIDENCE:.0%} CI (Student t over deals):")
        for p in res.pairs:
            a, b, mean = p["a"], p["b"], p["mean"]
            if not _nan(mean) and mean < 0:
                a, b, mean, lo, hi = b, a, -mean, -p["ci_high"], -p["ci_low"]
            else:
                lo, hi = p["ci_low"], p["ci_high"]
            v = p.get("verdict") or verdict(p["units"], lo, hi)
            if v == "too few deals":
                v = f"too few deals for a verdict: {p['units']} < {MIN_VERDICT_DEALS}"
            out.append(f"  {a} - {b}: {_num(mean)} [{_num(lo)}, {_num(hi)}]  ({v})")
    return "\n".join(out)


def _nan(x) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))
