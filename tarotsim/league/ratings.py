"""The ratings of a league: every bot's strength in points a deal, from one least-squares fit of every seat's score.

**The model.** Every seat-play (a seat of a deal, in one rotation of a game) scores
``y = θ_b - mean(θ over the seats that play the deal)`` plus noise, ``b`` the bot in that seat:
a bot gains what it is stronger than its table. Scores add up to zero at a table (R-SCORE-3), so
the strengths are known up to a constant: the anchor's is 0 and every rating reads "points a deal
more than the anchor at the same table". At table 5d the dealer's seat sits out (R-DEAL-6) and
is no seat-play. With one game alone the fit gives each pair exactly the tournament's paired
difference; with many, every game informs every rating.

**Exactly the same for any run.** The fit is computed from the stored scores in a canonical order
(games by their seats, deals by index), in integers: each seat-play's row is the integer vector
``n x e_b - (the bots at the table)``, ``n`` the seats that play, so the normal equations are
sums of integers, held exactly in float64 (below 2**53) whatever the order of the sums. Threads,
Dask workers and the order of play change nothing.

**Intervals.** 95% bootstrap percentile intervals over deals: each of the ``replicates`` fits
draws the league's deal indices with replacement (a deal with all its games and rotations: the
unit every game shares), from a generator seeded by the league's seed, so the intervals too are
the same for every run of the report.

**Each pair alone.** :func:`direct` is a pair's own duplicate comparison: the tournament's paired
difference (``tarotsim.runs.tournament.pair_differences``: Student t over deals) of the games
the pair plays together; with a filler, exactly ``tarotsim tournament --bots a,b,F,F`` on the
league's deals.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..rules import Rules

def seat_bots(game: tuple[str, ...]) -> list[list[str]]:
    """``[r][s]``: the bot at seat ``s`` in rotation ``r`` of a game (``tarotsim.runs.tournament.rotations``)."""
    return [[game[(s + r) % len(game)] for s in range(len(game))] for r in range(len(game))]


#: Bootstrap fits of the intervals, by default.
REPLICATES = 1000
CONFIDENCE = 0.95
#: Sums of integers at most this large are exact in float64.
EXACT = 2 ** 53


@dataclass
class GameScores:
    """One game's stored deals: its seats' bots and, per deal, its index, dealer and scores.

    ``scores[d, r, s]``: the score of seat ``s`` in rotation ``r`` of deal ``deal[d]``, the seat
    held by bot ``seats[(s + r) % n]`` (:func:`seat_bots`)."""

    seats: tuple
    deal: np.ndarray
    dealer: np.ndarray
    scores: np.ndarray


@dataclass
class Ratings:
    """The fit of a league (:func:`fit`).

    ``rating``, ``low``, ``high``: per bot, its points a deal above the anchor and its interval,
    None for a bot no stored game links to the anchor; ``differences[(a, b)]``: ``(mean, low,
    high)`` of ``rating[a] - rating[b]`` for every pair of rated bots (in the order of ``bots``);
    ``deals``: the deal indices resampled; ``singular``: replicates left out because the deals
    they drew did not link every bot (only when games hold different deals)."""

    bots: list
    anchor: str
    rating: dict
    low: dict
    high: dict
    differences: dict
    seat_plays: dict
    deals: int
    replicates: int
    confidence: float = CONFIDENCE
    singular: int = 0
    games: dict = field(default_factory=dict)   # bot -> games holding deals it played


def _linked(bots: list, games: list[GameScores], anchor: str) -> set:
    """The bots that games holding deals link to the anchor."""
    parent = {b: b for b in bots}

    def root(b):
        while parent[b] != b:
            parent[b] = parent[parent[b]]
            b = parent[b]
        return b

    for g in games:
        if len(g.deal):
            for b in g.seats[1:]:
                parent[root(b)] = root(g.seats[0])
    return {b for b in bots if anchor in parent and root(b) == root(anchor)}


def design(rules: Rules, games: list[GameScores], bots: list):
    """The integer normal equations of the fit, per deal and per group of identical tables.

    ``(units, V, groups)``: ``units`` the deal indices (sorted), ``V[u]`` the integer vector
    ``sum x y`` of deal ``units[u]`` over its games, rotations and seats (``x`` the seat-play's
    integer row, see the module docstring), and ``groups``: ``(M, positions)`` pairs, ``M`` the
    integer ``sum x x^T`` of one deal of one game with one dealer, and ``positions`` the units
    whose deal it is."""
    index = {b: i for i, b in enumerate(bots)}
    k, n, c = len(bots), rules.n_seats, rules.n_active
    units = np.unique(np.concatenate([g.deal for g in games] + [np.zeros(0, np.int64)]))
    V = np.zeros((len(units), k), dtype=np.int64)
    groups = []
    for g in games:
        if not len(g.deal):
            continue
        at = np.array([[index[b] for b in row] for row in seat_bots(g.seats)])   # [r, s] -> bot
        pos = np.searchsorted(units, g.deal)
        dealers = np.unique(g.dealer) if rules.table == "5d" else [None]
        for q in dealers:
            active = np.ones((n, n), bool)
            if q is not None:
                active[:, q] = False                                                # R-DEAL-6: the dummy sits out
            X = np.zeros((n, n, k), dtype=np.int64)
            for r in range(n):
                table = np.bincount(at[r][active[r]], minlength=k)
                for s in np.flatnonzero(active[r]):
                    X[r, s] = -table
                    X[r, s, at[r, s]] += c
            sel = np.ones(len(g.deal), bool) if q is None else g.dealer == q
            V[pos[sel]] += np.einsum("drs,rsk->dk", g.scores[sel], X)
            groups.append((np.einsum("rsk,rsl->kl", X, X), pos[sel]))
    return units, V, groups


def fit(rules: Rules, games: list[GameScores], anchor: str, *, seed: int, replicates: int = REPLICATES,
        bots: list | None = None, confidence: float = CONFIDENCE) -> Ratings:
    """Fit the strengths of the bots of ``games`` (``bots``: these, in this order), ``anchor`` = 0.

    ``seed``: the bootstrap's (the league's seed); ``replicates``: its fits (0: no intervals)."""
    games = sorted(games, key=lambda g: g.seats)   # the canonical order: the same sums for every run
    bots = list(bots) if bots is not None else sorted({b for g in games for b in g.seats})
    if anchor not in bots:
        raise ValueError(f"the anchor {anchor} plays in no game")
    units, V, groups = design(rules, games, bots)
    rated = _linked(bots, games, anchor)
    free = [i for i, b in enumerate(bots) if b in rated and b != anchor]
    c = rules.n_active
    Ms = np.array([m for m, _ in groups], dtype=np.int64).reshape(len(groups), len(bots), len(bots))
    if len(units) and (len(units) * int(np.abs(V).max(initial=0)) >= EXACT
                       or len(units) * int(np.abs(Ms).sum()) >= EXACT):
        raise OverflowError("too many deals for the fit's exact sums")
    sub = np.ix_(free, free)
    weights = np.array([len(p) for _, p in groups], dtype=np.float64)
    theta = np.zeros(len(bots))
    if free:
        M = np.einsum("j,jkl->kl", weights, Ms.astype(np.float64))
        theta[free] = c * np.linalg.solve(M[sub], V[:, free].sum(axis=0).astype(np.float64))
    draws, singular = _bootstrap(units, V, groups, Ms, free, c, seed, replicates)
    alpha = (1 - confidence) / 2
    rating: dict[str, float | None] = {}
    low: dict[str, float | None] = {}
    high: dict[str, float | None] = {}
    for i, b in enumerate(bots):
        rating[b] = float(theta[i]) if b in rated else None
        lo, hi = _interval(draws[:, i], alpha) if b in rated and len(draws) else (math.nan, math.nan)
        low[b], high[b] = (lo, hi) if b in rated else (None, None)
    differences = {}
    for i, a in enumerate(bots):
        for j in range(i + 1, len(bots)):
            b = bots[j]
            if a in rated and b in rated:
                lo, hi = _interval(draws[:, i] - draws[:, j], alpha) if len(draws) else (math.nan, math.nan)
                differences[(a, b)] = (float(theta[i] - theta[j]), lo, hi)
    seat_plays = {b: 0 for b in bots}
    in_games = {b: 0 for b in bots}
    # per deal, a bot plays each of its seats in every rotation, but the one where that seat deals at 5d
    rotations = rules.n_seats - (rules.table == "5d")
    for g in games:
        for b in set(g.seats):
            seat_plays[b] += rotations * g.seats.count(b) * len(g.deal)
            in_games[b] += bool(len(g.deal))
    return Ratings(bots, anchor, rating, low, high, differences, seat_plays, len(units), replicates, confidence,
                   singular, in_games)


def _interval(values: np.ndarray, alpha: float) -> tuple[float, float]:
    lo, hi = np.nanquantile(values, [alpha, 1 - alpha])
    return float(lo), float(hi)


def _bootstrap(units, V, groups, Ms, free, c, seed, replicates, block: int = 50):
    """``(draws[replicates, bots], singular)``: the strengths fitted on deals drawn with replacement."""
    k = V.shape[1]
    if replicates <= 0 or not len(units):
        return np.zeros((0, k)), 0
    draws = np.zeros((replicates, k))
    if not free:  # the anchor alone: 0 in every replicate
        return draws, 0
    rng = np.random.Generator(np.random.PCG64(seed))
    u = len(units)
    sub_M = Ms[:, free][:, :, free].astype(np.float64)
    sub_V = V[:, free].astype(np.float64)
    positions = [p for _, p in groups]
    singular = 0
    for start in range(0, replicates, block):
        b = min(block, replicates - start)
        w = rng.multinomial(u, np.full(u, 1 / u), size=b).astype(np.float64)   # each deal drawn w times
        counts = np.stack([w[:, p].sum(axis=1) for p in positions], axis=1)
        M = np.einsum("bj,jkl->bkl", counts, sub_M)
        v = w @ sub_V
        try:
            x = np.linalg.solve(M, v[..., None])[..., 0]
        except np.linalg.LinAlgError:   # deals that leave a bot unlinked: that replicate is left out
            x = np.full((b, len(free)), np.nan)
            for i in range(b):
                try:
                    x[i] = np.linalg.solve(M[i], v[i])
                except np.linalg.LinAlgError:
                    singular += 1
        draws[start:start + b, free] = c * x
    return draws, singular


def direct(rules: Rules, games: list[GameScores], a: str, b: str) -> dict:
    """The pair ``a``, ``b`` alone: the tournament's paired difference of the games both play in.

    The per-deal values ``x_a(d) - x_b(d)`` (each bot's mean over its seat-plays of deal ``d`` in
    those games) summed as a tournament sums them (``tarotsim.runs.tournament.add_scores``), and
    the tournament's statistics of them (``pair_differences``): ``mean``, ``ci_low``,
    ``ci_high``, ``units``, ``verdict``."""
    together = [g for g in games if a in g.seats and b in g.seats and len(g.deal)]
    from ..runs import tournament as tour  # the kernels load only when a pair's games are counted

    totals = tour.TournamentTotals.empty([a, b])
    units = np.unique(np.concatenate([g.deal for g in together] + [np.zeros(0, np.int64)]))
    tot = np.zeros((2, len(units)), dtype=np.int64)
    cnt = np.zeros((2, len(units)), dtype=np.int64)
    n = rules.n_seats
    for g in together:
        pos = np.searchsorted(units, g.deal)
        at = seat_bots(g.seats)
        for r in range(n):
            for s in range(n):
                i = (a, b).index(at[r][s]) if at[r][s] in (a, b) else None
                if i is None:
                    continue
                active = g.dealer != s if rules.table == "5d" else np.ones(len(g.deal), bool)
                np.add.at(tot[i], pos, np.where(active, g.scores[:, r, s], 0))
                np.add.at(cnt[i], pos, active.astype(np.int64))
    tour.add_scores(totals, tot, cnt)
    return tour.pair_differences(totals)[0]


__all__ = ["CONFIDENCE", "EXACT", "GameScores", "REPLICATES", "Ratings", "design", "direct", "fit", "seat_bots"]
