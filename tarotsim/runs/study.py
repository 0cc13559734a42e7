"""The bidding study: which hands should take which contract, measured on identical cards.

For every deal ``(seed, index)`` one seat is studied: the first to speak (the seat after the
dealer, which is never the 5d dummy). Its dealt hand gets the ``heuristic`` bot's point count
(``bots.heuristic.evaluate``: the seat's own parameters when it plays ``heuristic``, else the
heuristic defaults), and the very same deal is played once per studied contract with that seat
forced as taker while the bots play everything else (``tarotsim._kernels.study``, ``tarotsim/_builds/study.py``). So the
contracts are compared on the same cards: the difference of two contracts' scores is paired.

The *count* of a contract is the number the bot compares with its threshold: the hand points
for prise and garde, the hand points plus three times the void points for garde sans and garde
contre (``heuristic_bid``). Plays are binned on integer counts (``N_BINS`` bins of one point,
clipped), then merged into buckets of ``bucket`` points, sparse buckets joined to their
neighbours so that each one shown holds ``min_deals`` deals (:func:`merge_buckets`).

Statistics (95%):

* made rate: Wilson score interval;
* mean score of the taker, and the mean paired difference with the next lower studied contract
  (for the lowest, with passing, which is taken to score 0: had the seat passed, the deal is
  counted as thrown in, though another seat might have taken): Student t interval, mean ± t sd/√n
  with n - 1 degrees of freedom (``tarotsim.stats``, shared with the tournament);
* thresholds (:func:`crossing`): the count at which a contract's mean score overtakes passing
  (0), and at which its mean paired difference with the next lower contract turns positive. A
  step fit on the buckets finds the zero crossing ``x0``; a weighted least-squares line
  ``a + b (x - x0)`` through the one-point bins within one bucket (at least 3 points) of it
  (weights n / variance; re-centred until it settles) gives the crossing ``x0 - a / b``, and its
  standard error comes from the delta method on the line's covariance (inflated by the reduced
  chi-square when above 1). The threshold of a contract is the larger of its two crossings (it
  must beat both passing and the contract below); its uncertainty is ± 1.96 standard errors of
  the crossing that binds.

Deals annulled before any bid (petit sec, R-DEAL-4) are counted apart and excluded. Totals are
integer sums over fixed-size arrays: memory does not grow with the number of deals, and the
results are the same for any number of threads or chunk size.
"""

from __future__ import annotations

import csv
import json
import math
import os
import time
from dataclasses import dataclass

import numpy as np

from .. import echo
from . import simulate as sim
from ..parallel import run_chunks
from .players import baseline_note
from .._kernels import layout as L
from .._kernels import study as K
from ..rng import check_run, check_seed
from ..rules import CONTRACTS, Rules
from ..stats import mean_ci, t_critical

Z95 = 1.959963984540054
#: deals per kernel call (progress is reported per chunk)
DEFAULT_CHUNK = 1 << 14
DEFAULT_BUCKET = 5
DEFAULT_MIN_DEALS = 100
#: one-point bins with fewer plays are left out of the threshold fits
MIN_FIT = 20
CALIBRATION_FORMAT = "tarotsim-thresholds/1"
#: A calibration resting on fewer studied deals, or with a threshold less precise than this
#: (points, 95%) or not measured at all (no crossing within the data), gets a warning.
CALIBRATION_MIN_DEALS = 20_000
CALIBRATION_MAX_UNCERTAINTY = 2.0
FEATURES = K.FEATURES
METHOD = ("thresholds: zero crossing of the mean score (vs pass) or of the mean paired difference (vs the "
          "contract below), from a weighted local linear fit on one-point bins within ±1 bucket of a step "
          "fit's crossing; ± is 1.96 delta-method standard errors (inflated by the reduced chi-square)")
CSV_COLUMNS = ("contract", "points_from", "points_to", "deals", "mean_points", "made", "made_rate",
               "made_ci_low", "made_ci_high", "mean_score", "score_ci_low", "score_ci_high", "versus",
               "mean_difference", "difference_ci_low", "difference_ci_high") + tuple(f"mean_{f}" for f in FEATURES)


# ---------------------------------------------------------------------------------------------
# arguments and the run

def parse_contracts(contracts) -> tuple[str, ...]:
    """``"prise,garde"`` or a sequence of names -> the studied contracts in contract order."""
    if contracts is None:
        return CONTRACTS
    names = [c.strip().lower() for c in contracts.split(",")] if isinstance(contracts, str) else \
        [str(c).strip().lower() for c in contracts]
    for c in names:
        if c not in CONTRACTS:
            raise ValueError(f"unknown contract {echo.shown(c)}: one or more of {', '.join(CONTRACTS)}")
    if not names:
        raise ValueError(f"no contract given: one or more of {', '.join(CONTRACTS)}")
    if len(set(names)) != len(names):
        raise ValueError(f"a contract is given twice in {','.join(names)}")
    return tuple(c for c in CONTRACTS if c in names)


@dataclass
class StudyPlan:
    """What every study's checked arguments hold: the deals, the bots and the contracts studied."""

    rules: Rules
    seed: int
    start: int
    deals: int
    bots: str
    contracts: tuple
    kinds: np.ndarray
    params: np.ndarray
    pol: tuple | None       # the policy tuple, None when no seat plays a policy set


@dataclass
class Plan(StudyPlan):
    """The checked arguments of a study (:func:`plan`)."""

    eval_params: np.ndarray
    current: dict           # contract -> the threshold the bot compares now (count scale)
    current_source: str     # whose thresholds ``current`` are (the studied heuristic, or its defaults)
    shift: float            # the default heuristic's threshold shift at this table


def _heuristic_defaults() -> np.ndarray:
    from bots import REGISTRY
    return REGISTRY["heuristic"].vector()


def _n_heuristic_params() -> int:
    from bots import REGISTRY
    return len(REGISTRY["heuristic"].params)


def table_shift(table: str, row=None) -> float:
    """The shift ``heuristic_bid`` adds to every threshold at this table.

    What ``heuristic_bid`` adds to every threshold at this table (``row``: a heuristic
    parameter vector, default the heuristic defaults); 0 at table 2, which has thresholds of its
    own (:func:`table_thresholds`)."""
    from bots.heuristic import H_SHIFT3, H_SHIFT5
    row = _heuristic_defaults() if row is None else row
    shift = {"5": H_SHIFT5, "3": H_SHIFT3}.get(table)
    return 0.0 if shift is None else float(row[shift])


def table_thresholds(table: str, row=None) -> dict:
    """The bidding thresholds as ``heuristic_bid`` compares them at this table.

    ``{contract: threshold}`` as ``heuristic_bid`` compares them at this table (``row``: a
    heuristic parameter vector, default the heuristic defaults): ``prise2`` .. ``garde_contre2``
    at table 2, elsewhere ``prise`` .. ``garde_contre`` plus the table shift."""
    from bots.heuristic import H_PRISE, H_PRISE2
    row = _heuristic_defaults() if row is None else row
    first = H_PRISE2 if table == "2" else H_PRISE
    shift = table_shift(table, row)
    return {c: float(row[first + i]) + shift for i, c in enumerate(CONTRACTS)}


def plan(rules, seed, deals, *, start=0, bots="heuristic", contracts=None) -> Plan:
    """Check a study's arguments (``ValueError`` with a one-line message) and prepare the kernel's."""
    r = sim._rules(rules)
    seed = check_seed(seed)
    start, stop = check_run(start, deals, "the number of deals", minimum=1)  # stop <= 2**63
    deals = stop - start
    names = parse_contracts(contracts)
    kinds, params, pol = sim.bot_setup(r, bots)
    from bots import BOT_KINDS, HEURISTIC_KINDS
    from bots.bid_search import needs_bid_search
    if needs_bid_search(kinds, params, r.to_vector()):
        raise ValueError("the bidding study forces each contract on the studied seat and plays it with the pimc "
                         "build: pimc:bid_search=1 is not studied here (study one hand with --hand, or use pimc)")
    if BOT_KINDS["learned"] in kinds:  # its deals are played by a build of their own, which forces no contract
        raise ValueError("the bidding study forces each contract on the studied seat: learned is not studied here")
    default = _heuristic_defaults()
    # pimc counts and bids as the heuristic does, with its own thresholds (its first parameters)
    counts = HEURISTIC_KINDS
    n_count = _n_heuristic_params()
    eval_params = np.array([np.where(np.arange(default.size) < n_count, params[s], 0.0) if kinds[s] in counts
                            else default for s in range(r.n_seats)], dtype=np.float64)
    if len({row.tobytes() for row in eval_params}) == 1 and any(k in counts for k in kinds):
        studied = "pimc" if BOT_KINDS["pimc"] in kinds else "heuristic"
        row, source = eval_params[0], f"the {studied} bot studied"
    else:  # the seats are not all one heuristic (or pimc) bot
        row, source = default, "the heuristic defaults"
    current = table_thresholds(r.table, row)
    return Plan(r, seed, start, deals, sim._bots_label(bots), names, kinds, params, pol, eval_params,
                current, source, table_shift(r.table))


@dataclass
class StudyTotals:
    """The integer totals of a study (:func:`run`) and how it ran."""

    table: str
    seed: int
    start: int
    deals: int
    bots: str
    options: dict
    contracts: tuple
    bins: np.ndarray        # int64[N_CONTRACTS, N_BINS, N_FIELDS]
    oudlers: np.ndarray     # int64[N_CONTRACTS, 4, N_FIELDS]
    misc: np.ndarray        # int64[M_LEN]
    current: dict
    current_source: str
    shift: float
    threads: int = 1
    chunk_size: int = DEFAULT_CHUNK
    elapsed_s: float = 0.0
    compile_s: float = 0.0  # numba compiling the kernels first (a cold cache), not in elapsed_s

    @property
    def annulled(self) -> int:
        return int(self.misc[K.M_ANNULLED])

    @property
    def played(self) -> int:
        return int(self.misc[K.M_PLAYED])


def run(rules, seed, deals, *, start=0, bots="heuristic", contracts=None, threads=1, chunk_size=DEFAULT_CHUNK,
        progress=None) -> StudyTotals:
    """Run the bidding study over a range of deals.

    Study deals ``start .. start + deals - 1`` (see the module docstring) on ``threads``
    threads; ``progress`` is called with the number of deals of every finished chunk."""
    p = plan(rules, seed, deals, start=start, bots=bots, contracts=contracts)
    threads = max(1, int(threads))
    chunk_size = max(1, int(chunk_size))
    rv = p.rules.to_vector()
    s = sim._seed(p.seed)
    mask = np.array([c in p.contracts for c in CONTRACTS], dtype=np.int64)
    stop = p.start + p.deals

    def new_acc():  # the three totals, then the chunk's first bot error (``K.new_bad``)
        return (np.zeros((K.N_CONTRACTS, K.N_BINS, K.N_FIELDS), np.int64),
                np.zeros((K.N_CONTRACTS, 4, K.N_FIELDS), np.int64), np.zeros(K.M_LEN, np.int64), K.new_bad())

    from .._builds import study as B  # the study's loops play the bots: they live with the builds

    from .._builds.runs import build

    kernel = B.STUDY_KERNELS[build(p.kinds, p.params)]

    def play(a, b, acc=None):
        kernel(rv, s, a, b - a, p.kinds, p.params, p.pol, p.eval_params, mask, *(acc or new_acc()))

    raised: list[tuple[int, int]] = []  # chunks in which a user's policy set raised

    def work(a, b, acc):
        try:
            play(a, b, acc)
        except Exception:
            if p.pol is None:  # the engine's own bots: a bug, not the user's
                raise
            raised.append((a, b))
            return False
        return False if acc[3][K.BAD_INDEX] >= 0 else None  # a bot broke a rule: the study stops

    play(p.start, p.start)  # load (or compile) the kernel before the clock starts
    t0 = time.perf_counter()
    parts = run_chunks(p.start, stop, chunk_size, threads, new_acc, work, progress)
    elapsed = time.perf_counter() - t0
    _raise_bot_error(p, bots, [q[3] for q in parts], sim._first_raising(*min(raised), play) if raised else None)
    bins, oud, misc = (np.sum([q[i] for q in parts], axis=0) for i in range(3))
    return StudyTotals(p.rules.table, p.seed, p.start, p.deals, p.bots, p.rules.non_default_options(), p.contracts,
                       bins, oud, misc, p.current, p.current_source, p.shift, threads, chunk_size, elapsed)


def studied_seat(rules: Rules, index: int) -> int:
    """The seat studied in deal ``index``: the first to speak, as the kernels' ``_studied_seat``."""
    return (index % rules.n_seats + 1) % rules.n_seats


def _raise_bot_error(p: Plan, bots, bads: list[np.ndarray], raising) -> None:
    """Stop the study at its first deal in which a policy set broke a rule or raised.

    Stop the study at its first deal in which a policy set chose what the rules forbid (the
    workers' ``bad`` arrays) or raised (``raising``: the first such deal and its exception, or
    None). The deal is played again on the slow path with each studied contract forced, whose
    error names the bot, the seat, the deal, the decision and the rule, as ``simulate`` and
    ``tournament`` do. Such a deal is never counted as annulled: only a real petit sec is
    (R-DEAL-4)."""
    found = [(int(b[K.BAD_INDEX]), int(b[K.BAD_CONTRACT]), None) for b in bads if b[K.BAD_INDEX] >= 0]
    if raising is not None:
        found.append((raising[0], -1, raising[1]))
    if not found:
        return
    index, c, error = min(found, key=lambda x: x[0])
    contracts = [CONTRACTS[c]] if c >= 0 else list(p.contracts)  # the kernels play them in this order
    seat = studied_seat(p.rules, index)
    for contract in contracts:
        e = sim.slow_path_error(p.rules, p.seed, index, bots, forced=(seat, contract))
        if e is not None:
            raise e
    raise sim.bot_error(p.rules, p.seed, index, bots, forced=(seat, contracts[0]), raised=error)


def _slow_players(rules: Rules, bots) -> list:
    """The seats' bots on the slow path.

    The seats' bots on the slow path: each registered bot through its adapter, a policy set
    through its own (the same decisions as in the kernels)."""
    from ..adapters import FastBotAdapter, PolicyAdapter

    kinds, params, policies = sim._seats(rules, bots)
    names = {code: name for name, code in sim.BOT_KINDS.items()}
    return [PolicyAdapter(policies[s]) if policies[s] is not None else FastBotAdapter(names[int(kinds[s])], params[s])
            for s in range(rules.n_seats)]


def _study_slow(p: Plan, players: list, a: int, b: int, mask: np.ndarray, acc) -> None:
    """Study a range of deals on the reference engine.

    Deals ``a .. b - 1`` as ``tarotsim._builds.study.run_study`` studies them, played by the reference
    engine (the kernels' twin at table 2, R-VAR-TWO, that the tests compare them with): the first
    to speak forced as taker at each studied contract. His counted hand is the cards he sees as his
    when he bids: his hand and his face-up pile tops."""
    from .._builds.study import add_played_deal

    from ..cards import masks_of
    from ..rng import deal_with_piles
    from .slowpath import play_record

    log = np.zeros(L.L_LEN, dtype=np.int64)
    score = np.zeros(K.N_CONTRACTS, dtype=np.int64)
    made = np.zeros(K.N_CONTRACTS, dtype=np.int64)
    for index in range(a, b):
        seat = studied_seat(p.rules, index)
        ok = True
        for c in range(K.N_CONTRACTS):
            if mask[c]:
                rec = play_record(p.rules, p.seed, index, players, forced=(seat, CONTRACTS[c]))
                if rec["outcome"] != "played":
                    ok = False
                    break
                score[c] = rec["scores"][seat]
                made[c] = int(rec["result"]["made"])
        _, hands, _, piles = deal_with_piles(p.rules, p.seed, index)
        ht, hs = masks_of(hands[seat] + [pile[-1] for pile in piles[seat]])
        log[L.L_HAND_T + seat], log[L.L_HAND_S + seat] = ht, hs
        add_played_deal(ok, p.eval_params, np.int64(seat), log, mask, score, made, *acc)


# ---------------------------------------------------------------------------------------------
# statistics

def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion ``k / n`` (``(nan, nan)`` when n == 0)."""
    if n <= 0:
        return math.nan, math.nan
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z / d * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    # exactly 0 (1) when none (all) made: the formula leaves a rounding error there
    return (0.0 if k == 0 else max(0.0, centre - half)), (1.0 if k == n else min(1.0, centre + half))


def _se(n: int, mean: float, high: float) -> float:
    """The standard error behind a Student t 95% interval.

    The standard error behind a Student t 95% interval ``[., high]`` of ``n`` values (nan when
    there is no interval)."""
    if n < 2 or not math.isfinite(high):
        return math.nan
    return (high - mean) / t_critical(n)


def merge_buckets(counts, width: int, min_n: int) -> list[tuple[int, int]]:
    """Buckets ``[lo, hi)`` of bin indices over ``counts`` (deals per one-point bin).

    Bins are grouped ``width`` at a time from 0; empty groups at either end are dropped; a group
    at either end with fewer than ``min_n`` deals joins its neighbour inwards, then any group
    still below ``min_n`` joins the next one. Every shown bucket so holds ``min_n`` deals or
    more (unless all of them hold fewer together); the buckets are contiguous and keep every deal.
    """
    counts = np.asarray(counts, dtype=np.int64)
    width, min_n = max(1, int(width)), max(1, int(min_n))
    groups = [[a, min(a + width, len(counts)), int(counts[a:a + width].sum())]
              for a in range(0, len(counts), width)]
    while groups and groups[0][2] == 0:
        groups.pop(0)
    while groups and groups[-1][2] == 0:
        groups.pop()

    def join(i):  # groups i and i + 1 become one
        groups[i:i + 2] = [[groups[i][0], groups[i + 1][1], groups[i][2] + groups[i + 1][2]]]

    while len(groups) > 1 and groups[0][2] < min_n:
        join(0)
    while len(groups) > 1 and groups[-1][2] < min_n:
        join(len(groups) - 2)
    i = 0
    while i < len(groups) - 1:
        if groups[i][2] < min_n:
            join(i)
        else:
            i += 1
    return [(a, b) for a, b, _ in groups]


def _row_stats(acc) -> dict:
    """Statistics of one accumulator row (int64[N_FIELDS]) or a sum of rows."""
    acc = [int(x) for x in acc]
    n = acc[K.F_N]
    lo, hi = wilson(acc[K.F_MADE], n)
    m, mlo, mhi = mean_ci(n, acc[K.F_S], acc[K.F_S2])
    d, dlo, dhi = mean_ci(n, acc[K.F_D], acc[K.F_D2])
    out = {"deals": n, "mean_points": acc[K.F_X100] / 100 / n if n else math.nan,
           "made": acc[K.F_MADE], "made_rate": acc[K.F_MADE] / n if n else math.nan, "made_ci": [lo, hi],
           "mean_score": m, "score_ci": [mlo, mhi], "mean_difference": d, "difference_ci": [dlo, dhi]}
    out["features"] = {f: acc[K.F_OUDLERS + i] / n if n else math.nan for i, f in enumerate(FEATURES)}
    return out


def crossing(x, n, s, s2, coarse, halfwidth) -> dict:
    """Where the mean of a quantity (score, or paired difference) turns positive along the count.

    ``x``, ``n``, ``s``, ``s2``: per one-point bin, the mean count, plays, sum and sum of squares;
    ``coarse``: ``(mean count, mean, standard error)`` per merged bucket, for the step fit.
    Returns ``{"status", "x", "se"}``: ``crossing`` (``x`` ± ``se``), ``below`` (positive all
    along: ``x`` the lowest one-point bin seen), ``above`` (never positive: ``x`` the end of the
    highest bin seen), or ``none`` (no data).
    """
    coarse = [c for c in coarse if c[2] > 0 and math.isfinite(c[1])]
    if not coarse:
        return {"status": "none", "x": None, "se": None}
    cx = np.array([c[0] for c in coarse])
    cm = np.array([c[1] for c in coarse])
    cz = np.abs(cm) / np.array([c[2] for c in coarse])
    seen = np.nonzero(np.asarray(n) > 0)[0]
    if np.all(cm > 0):  # already positive at the lowest count seen
        return {"status": "below", "x": float(seen[0]), "se": None}
    if np.all(cm <= 0):  # never positive: past the highest count seen
        return {"status": "above", "x": float(seen[-1] + 1), "se": None}
    # step fit: the split j (negative below, positive from j on) that disagrees least, weighted by |z|
    cost = [float(np.sum(cz[:j] * (cm[:j] > 0)) + np.sum(cz[j:] * (cm[j:] <= 0))) for j in range(1, len(cm))]
    j = 1 + int(np.argmin(cost))
    x0 = float(cx[j - 1] + (cx[j] - cx[j - 1]) * (-cm[j - 1]) / (cm[j] - cm[j - 1])) \
        if cm[j - 1] < 0 < cm[j] else float((cx[j - 1] + cx[j]) / 2)
    # local weighted line on the fine bins, re-centred on its crossing
    n = np.asarray(n, dtype=np.float64)
    ok = n >= MIN_FIT
    xs = np.asarray(x, dtype=np.float64)[ok]
    nn = n[ok]
    mean = np.asarray(s, dtype=np.float64)[ok] / nn
    var = np.maximum((np.asarray(s2, dtype=np.float64)[ok] - nn * mean * mean) / (nn - 1), 1.0)
    w = nn / var
    est, se = x0, None
    for _ in range(8):
        sel = np.abs(xs - x0) <= halfwidth
        if sel.sum() < 3:
            break
        X = np.column_stack([np.ones(sel.sum()), xs[sel] - x0])
        W = w[sel]
        A = X.T @ (X * W[:, None])
        try:
            cov = np.linalg.inv(A)
        except np.linalg.LinAlgError:
            break
        a, b = cov @ (X.T @ (W * mean[sel]))
        if b <= 0:
            break
        chi2 = float(np.sum(W * (mean[sel] - X @ np.array([a, b])) ** 2))
        cov = cov * max(1.0, chi2 / max(1, sel.sum() - 2))
        r = a / b
        var_x = (cov[0, 0] - 2 * r * cov[0, 1] + r * r * cov[1, 1]) / (b * b)
        new = x0 - r
        est, se = new, math.sqrt(max(var_x, 0.0))
        if abs(new - x0) < 1e-3:
            break
        x0 = new
    return {"status": "crossing", "x": float(est), "se": se}


def _range_label(lo: int, hi: int) -> tuple:
    """Points ``[lo, hi)`` of a bucket as shown (``None`` for an open end: bins are clipped)."""
    return (lo if lo > 0 else None), (hi if hi < K.N_BINS else None)


def report(t: StudyTotals, bucket: int = DEFAULT_BUCKET, min_deals: int = DEFAULT_MIN_DEALS) -> dict:
    """Everything the study shows, as one JSON-ready dict (buckets, oudlers, thresholds)."""
    bucket, min_deals = int(bucket), int(min_deals)
    if bucket < 1:
        raise ValueError(f"the bucket width must be at least 1 point, not {bucket}")
    if min_deals < 1:
        raise ValueError(f"the minimum of deals per bucket must be at least 1, not {min_deals}")
    studied = [CONTRACTS.index(c) for c in t.contracts]
    out: dict = {"study": "bidding", "table": t.table, "seed": t.seed, "start": t.start, "deals": t.deals,
           "bots": t.bots, "options": t.options, "studied_seat": "first to speak (the seat after the dealer)",
           "contracts": list(t.contracts), "played": t.played, "annulled": t.annulled,
           "plays": t.played * len(studied), "threads": t.threads, "elapsed_s": t.elapsed_s,
           "compile_s": t.compile_s,
           "plays_per_s": t.played * len(studied) / t.elapsed_s if t.elapsed_s > 0 else None,
           "bucket": bucket, "min_deals": min_deals,
           "count": "heuristic hand points (18-card scale); garde sans and garde contre add 3 x the void points",
           "passing_scores": 0, "current_source": t.current_source,
           "by_points": {}, "by_oudlers": {}, "thresholds": {}, "method": METHOD}
    lower: dict[int, int | None] = {}  # contract -> the next lower one studied, None for the lowest
    prev = None
    for c in studied:
        lower[c] = prev
        prev = c
    for c in studied:
        name = CONTRACTS[c]
        acc = t.bins[c]
        vs = "pass" if (low := lower[c]) is None else CONTRACTS[low]
        rows = []
        for lo, hi in merge_buckets(acc[:, K.F_N], bucket, min_deals):
            st = _row_stats(acc[lo:hi].sum(axis=0))
            a, b = _range_label(lo, hi)
            rows.append({"points_from": a, "points_to": b, "versus": vs, **st})
        out["by_points"][name] = rows
        out["by_oudlers"][name] = [{"oudlers": k, **_row_stats(t.oudlers[c, k])} for k in range(4)]
    # thresholds
    for c in studied:
        name = CONTRACTS[c]
        acc = t.bins[c]
        n = acc[:, K.F_N]
        x = np.divide(acc[:, K.F_X100] / 100, n, out=np.zeros(K.N_BINS), where=n > 0)
        res = {"current": t.current[name], "vs_pass": None, "vs_lower": None, "lower": None}
        rows = out["by_points"][name]
        coarse_s = [(r["mean_points"], r["mean_score"], _se(r["deals"], r["mean_score"], r["score_ci"][1]))
                    for r in rows if r["deals"] >= min(min_deals, 2)]
        res["vs_pass"] = crossing(x, n, acc[:, K.F_S], acc[:, K.F_S2], coarse_s, max(bucket, 3))
        cands = [("pass", res["vs_pass"])]
        if (low := lower[c]) is not None:
            coarse_d = [(r["mean_points"], r["mean_difference"],
                         _se(r["deals"], r["mean_difference"], r["difference_ci"][1]))
                        for r in rows if r["deals"] >= min(min_deals, 2)]
            res["lower"] = CONTRACTS[low]
            res["vs_lower"] = crossing(x, n, acc[:, K.F_D], acc[:, K.F_D2], coarse_d, max(bucket, 3))
            cands.append((res["lower"], res["vs_lower"]))
        res.update(_combine(cands))
        out["thresholds"][name] = res
    return out


def _combine(cands) -> dict:
    """The threshold of a contract: the largest of its crossings (it must beat every one)."""
    key = {"below": -math.inf, "above": math.inf, "none": math.nan}
    best = None
    for versus, cr in cands:
        v = cr["x"] if cr["status"] == "crossing" else key[cr["status"]]
        if math.isnan(v):
            return {"status": "none", "threshold": None, "uncertainty": None, "binding": None}
        if best is None or v > best[0]:
            best = (v, versus, cr)
    assert best is not None  # cands holds at least the crossing versus pass
    v, versus, cr = best
    if cr["status"] == "crossing":
        unc = Z95 * cr["se"] if cr["se"] is not None else None
        return {"status": "crossing", "threshold": v, "uncertainty": unc, "binding": versus}
    # below: positive over the whole range (the lowest count seen); above: never positive (the highest)
    return {"status": cr["status"], "threshold": cr["x"], "uncertainty": None, "binding": versus}


# ---------------------------------------------------------------------------------------------
# outputs

def _pct(x) -> str:
    return "-" if x is None or not math.isfinite(x) else f"{100 * x:.1f}"


def _num(x, fmt=".1f") -> str:
    return "-" if x is None or not math.isfinite(x) else format(x, fmt)


def _pct_ci(ci) -> str:
    return f"[{_pct(ci[0])}, {_pct(ci[1])}]"


def _num_ci(ci) -> str:
    return f"[{_num(ci[0], '+.1f')}, {_num(ci[1], '+.1f')}]"


def _points(r) -> str:
    a, b = r["points_from"], r["points_to"]
    if a is None and b is None:
        return "all"
    if a is None:
        return f"< {b}"
    if b is None:
        return f">= {a}"
    return f"{a}-{b - 1}" if b - a > 1 else f"{a}"


def format_report(d: dict) -> str:
    """The study as readable tables (what ``tarotsim study bidding`` prints)."""
    last = d["start"] + d["deals"] - 1
    out = [*echo.paragraph(f"bidding study · table {d['table']} · {d['deals']:,} deals (index {d['start']:,}..{last:,}) · "
                      f"seed {d['seed']} · bots {d['bots']}{baseline_note(d['bots'].split(','))}"
                      + (" · options " + ", ".join(f"{k}={v}" for k, v in d["options"].items())
                         if d["options"] else "")),
           f"{d['plays']:,} plays ({len(d['contracts'])} per deal) · {d['threads']} thread(s) · "
           f"{d['elapsed_s']:.1f} s · {_num(d['plays_per_s'], ',.0f')} plays/s{sim.compile_text(d['compile_s'])}",
           "studied seat: the first to speak, forced to take each contract on the same cards",
           f"annulled (petit sec, R-DEAL-4): {d['annulled']:,} deal(s), left out",
           "points: the heuristic bot's hand count (18-card scale; garde sans and garde contre add 3 x the",
           f"        void points, as the bot does), in buckets of {d['bucket']} (sparse ones merged, "
           f">= {d['min_deals']} deals each)",
           "made and mean score of the taker with 95% intervals (Wilson; Student t); vs: the mean paired",
           "difference of the scores with the contract below (passing scores 0)"]
    for name, rows in d["by_points"].items():
        vs = rows[0]["versus"] if rows else "pass"
        out += ["", f"{name}  (vs {vs})",
                f"{'points':>9} {'deals':>10} {'made %':>7} {'95% CI':>13} {'mean score':>11} {'95% CI':>17}"
                + (f" {'vs ' + vs:>15} {'95% CI':>17}" if vs != "pass" else "")]
        for r in rows:
            line = (f"{_points(r):>9} {r['deals']:>10,} {_pct(r['made_rate']):>7} {_pct_ci(r['made_ci']):>13} "
                    f"{_num(r['mean_score'], '+.1f'):>11} {_num_ci(r['score_ci']):>17}")
            if vs != "pass":
                line += f" {_num(r['mean_difference'], '+.1f'):>15} {_num_ci(r['difference_ci']):>17}"
            out.append(line)
    if d["by_points"]:
        name, rows = next(iter(d["by_points"].items()))
        out += ["", f"hand features by points ({name} buckets; means per dealt hand; trumps without the Excuse)",
                f"{'points':>9} {'deals':>10} {'oudlers':>8} {'trumps':>7} {'trumps 16+':>10} {'kings':>6} "
                f"{'longest suit':>12} {'voids':>6}"]
        for r in rows:
            f = r["features"]
            out.append(f"{_points(r):>9} {r['deals']:>10,} {f['oudlers']:>8.2f} {f['trumps']:>7.2f} "
                       f"{f['trumps_16_21']:>10.2f} {f['kings']:>6.2f} {f['longest_suit']:>12.2f} {f['voids']:>6.2f}")
    out += ["", "by oudlers in the hand",
            f"{'contract':<13} {'oudlers':>7} {'deals':>10} {'points':>7} {'made %':>7} {'95% CI':>13} "
            f"{'mean score':>11} {'95% CI':>17}"]
    for name, rows in d["by_oudlers"].items():
        for r in rows:
            out.append(f"{name:<13} {r['oudlers']:>7} {r['deals']:>10,} {_num(r['mean_points']):>7} "
                       f"{_pct(r['made_rate']):>7} {_pct_ci(r['made_ci']):>13} "
                       f"{_num(r['mean_score'], '+.1f'):>11} {_num_ci(r['score_ci']):>17}")
    out += ["", "thresholds: the points from which the contract's mean score beats passing and the contract below",
            f"{'contract':<13} {'vs pass':>16} {'vs contract below':>28} {'threshold':>16} {'bot now':>8}"]
    for name, t in d["thresholds"].items():
        below = "-" if t["vs_lower"] is None else f"{_crossing_text(t['vs_lower'])} ({t['lower']})"
        thr = _threshold_text(t)
        out.append(f"{name:<13} {_crossing_text(t['vs_pass']):>16} {below:>28} {thr:>16} {t['current']:>8.1f}")
    out += ["± : 95% interval (1.96 delta-method standard errors of a weighted local linear fit, one bucket",
            "    either side of the zero crossing of the mean score, or of the mean paired difference);",
            "below N: positive in every bucket (N: the lowest points seen); above N: positive in no bucket",
            "(N: just past the highest points seen).",
            f"bot now: the thresholds of {d['current_source']}, as it compares them "
            + ("(its own at table 2)." if d["table"] == "2" else "(table shift included).")]
    return "\n".join(out)


def _crossing_text(cr) -> str:
    if cr is None:
        return "-"
    if cr["status"] == "crossing":
        return f"{cr['x']:.1f}" + (f" ± {Z95 * cr['se']:.1f}" if cr["se"] is not None else " ± ?")
    if cr["status"] == "below":
        return f"below {cr['x']:.0f}"
    if cr["status"] == "above":
        return f"above {cr['x']:.0f}"
    return "-"


def _threshold_text(t) -> str:
    if t["status"] == "crossing":
        return f"{t['threshold']:.1f}" + (f" ± {t['uncertainty']:.1f}" if t["uncertainty"] is not None else " ± ?")
    if t["status"] in ("below", "above"):
        return f"{t['status']} {t['threshold']:.0f}"
    return "-"


def csv_rows(d: dict):
    """One row per bucket and contract (:data:`CSV_COLUMNS`)."""
    def v(x):
        return "" if x is None or (isinstance(x, float) and not math.isfinite(x)) else x

    for name, rows in d["by_points"].items():
        for r in rows:
            yield [name, v(r["points_from"]), v(r["points_to"]), r["deals"], v(r["mean_points"]), r["made"],
                   v(r["made_rate"]), v(r["made_ci"][0]), v(r["made_ci"][1]), v(r["mean_score"]),
                   v(r["score_ci"][0]), v(r["score_ci"][1]), r["versus"], v(r["mean_difference"]),
                   v(r["difference_ci"][0]), v(r["difference_ci"][1])] + [v(r["features"][f]) for f in FEATURES]


def write_csv(d: dict, fh) -> None:
    w = csv.writer(fh)
    w.writerow(CSV_COLUMNS)
    for row in csv_rows(d):
        w.writerow(row)


def json_ready(x):
    """NaN and infinities as null (JSON has neither)."""
    if isinstance(x, float):
        return x if math.isfinite(x) else None
    if isinstance(x, dict):
        return {k: json_ready(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [json_ready(v) for v in x]
    if isinstance(x, np.integer):
        return int(x)
    if isinstance(x, np.floating):
        return json_ready(float(x))
    return x


def to_json(d: dict) -> str:
    return json.dumps(json_ready(d))


def calibration(d: dict, shift: float) -> dict:
    """The calibration file's content.

    The calibration file's content: the four thresholds as the heuristic bot's base parameters
    (the measured threshold minus the default table shift ``shift``), with their uncertainty.
    A table-2 file holds the table-2 thresholds (``shift`` 0), which its ``table`` makes
    ``bots.load_thresholds`` set (``prise2`` .. ``garde_contre2``)."""
    missing = [c for c in CONTRACTS if c not in d["thresholds"]]
    if missing:
        raise ValueError(f"calibration needs every contract studied (missing {', '.join(missing)})")
    th, unc, status = {}, {}, {}
    for c in CONTRACTS:
        t = d["thresholds"][c]
        if t["threshold"] is None:
            raise ValueError(f"no threshold measured for {c}: too few deals to calibrate")
        th[c] = round(t["threshold"] - shift, 2)
        unc[c] = None if t["uncertainty"] is None else round(t["uncertainty"], 2)
        status[c] = t["status"]
    return {"format": CALIBRATION_FORMAT, "table": d["table"], "bots": d["bots"], "seed": d["seed"],
            "start": d["start"], "deals": d["deals"], "options": d["options"], "shift": shift,
            "thresholds": th, "uncertainty_95": unc, "status": status, "method": METHOD}


def calibration_warning(d: dict) -> str | None:
    """Why the thresholds of report ``d`` rest on too little data (one line), or None.

    Flagged: fewer than :data:`CALIBRATION_MIN_DEALS` deals studied; a threshold whose 95%
    uncertainty exceeds :data:`CALIBRATION_MAX_UNCERTAINTY` points or is unknown; a threshold
    that is no measured crossing, only the edge of the points seen (``below``/``above``)."""
    why = []
    if d["played"] < CALIBRATION_MIN_DEALS:
        why.append(f"{d['played']:,} deals studied (fewer than {CALIBRATION_MIN_DEALS:,})")
    loose, edge = [], []
    for c in CONTRACTS:
        t = d["thresholds"].get(c)
        if t is None or t["status"] == "none":
            continue
        if t["status"] != "crossing":
            edge.append(f"{c} {t['status']} {t['threshold']:.0f}")
        elif t["uncertainty"] is None:
            loose.append(f"{c} ± ?")
        elif t["uncertainty"] > CALIBRATION_MAX_UNCERTAINTY:
            loose.append(f"{c} ± {t['uncertainty']:.1f}")
    if loose:
        why.append(f"wider than ± {CALIBRATION_MAX_UNCERTAINTY:g} points: {', '.join(loose)}")
    if edge:
        why.append(f"no crossing measured, only the edge of the points seen: {', '.join(edge)}")
    return "the thresholds rest on too little data: " + "; ".join(why) if why else None


# ---------------------------------------------------------------------------------------------
# plot (matplotlib, optional: ``pip install 'tarotsim[plot]'``)

PLOT_HINT = "--plot needs matplotlib: pip install 'tarotsim[plot]'"


def require_matplotlib():
    """Import matplotlib (``ImportError`` with the install hint when it is missing)."""
    try:
        import matplotlib  # noqa: F401
        from matplotlib.figure import Figure  # noqa: F401
    except ImportError:
        raise ImportError(PLOT_HINT) from None
    return matplotlib


def plot_format(path: str) -> str:
    """The image format of ``path`` from its extension (``ValueError`` when matplotlib cannot write it)."""
    from matplotlib.backend_bases import FigureCanvasBase
    ext = os.path.splitext(path)[1].lstrip(".").lower()
    known = FigureCanvasBase.get_supported_filetypes()
    if ext not in known:
        raise ValueError(f"--plot: cannot write a {ext or 'file without extension'!r} image "
                         f"(one of {', '.join(sorted(known))})")
    return ext


def plot(d: dict, fh, fmt: str = "png") -> None:
    """Plot the made rate and mean score against the hand points.

    Made rate and mean score against the hand points, one line per contract, with their 95%
    bands, written to the binary file ``fh``."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(9, 7.5), layout="constrained")
    ax1, ax2 = fig.subplots(2, 1, sharex=True)
    for name, rows in d["by_points"].items():
        rows = [r for r in rows if r["deals"] > 0]
        x = [r["mean_points"] for r in rows]
        style = {"ls": "--", "zorder": 3} if name == "prise" else {}  # prise and garde are made alike
        line, = ax1.plot(x, [100 * r["made_rate"] for r in rows], marker="o", ms=3, label=name, **style)
        ax1.fill_between(x, [100 * r["made_ci"][0] for r in rows], [100 * r["made_ci"][1] for r in rows],
                         color=line.get_color(), alpha=0.2, lw=0)
        ax2.plot(x, [r["mean_score"] for r in rows], marker="o", ms=3, color=line.get_color(), label=name, **style)
        ax2.fill_between(x, [r["score_ci"][0] for r in rows], [r["score_ci"][1] for r in rows],
                         color=line.get_color(), alpha=0.2, lw=0)
        t = d["thresholds"].get(name)
        if t and t["status"] == "crossing":
            ax2.axvline(t["threshold"], color=line.get_color(), ls=":", lw=1)
    ax2.axhline(0, color="grey", lw=0.8)
    ax1.set_ylabel("made (%)")
    ax2.set_ylabel("mean score of the taker")
    ax2.set_xlabel("hand points (heuristic count; garde sans / contre: + 3 x voids)")
    ax1.set_ylim(0, 100)
    for ax in (ax1, ax2):
        ax.grid(alpha=0.3)
        ax.legend(loc="upper left")
    fig.suptitle(f"bidding study: table {d['table']}, {d['deals']:,} deals, seed {d['seed']}, bots {d['bots']} "
                 "(95% bands; dotted: thresholds)", fontsize=10)
    fig.savefig(fh, format=fmt)


__all__ = ["CALIBRATION_FORMAT", "CSV_COLUMNS", "Plan", "StudyPlan", "StudyTotals", "calibration", "calibration_warning",
           "crossing", "csv_rows", "format_report", "json_ready", "mean_ci", "merge_buckets", "plan", "plot", "plot_format", "report",
           "require_matplotlib", "run", "table_shift", "table_thresholds", "to_json", "wilson", "write_csv"]
