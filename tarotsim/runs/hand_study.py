"""Should I take with this hand? The bidding study of one given hand.

For one seat's hand (``tarotsim study bidding --hand "T21 T20 ... KH ..." --seat S``), deal
``index`` of a run is a deal of the other cards (the other hands and the chien) drawn uniformly
among those that agree with the hand (the exact sampler of ``tarotsim.worlds``, from the cards
stream of ``(seed, index)``), played once per studied contract with the seat forced as taker
while the bots play the rest (``tarotsim/_builds/hand.py``), as :mod:`tarotsim.runs.study` does
with dealt hands. So every contract is played on the same deals, and the difference of two
contracts' scores is paired.

Reported per contract (95%): the mean score of the taker with its Student t interval, the made
rate with its Wilson interval, and the mean paired difference with the next lower studied
contract (for the lowest, with passing, which scores 0: had the seat passed, the deal is counted
as thrown in, though another seat might have taken); the contract with the best mean score
(passing when none is above 0), whether it beats the next best for sure (its paired interval
above 0); the hand's heuristic count and the contract the heuristic bot would bid from it.

The dealer is by default the seat before the studied one, which then speaks first (as the
study's studied seat does). Totals are integer sums: the same for any number of threads or
chunk size. A policy set that chooses what the rules forbid stops the study: its deal is played
again on the slow path, whose error names the bot, the seat, the deal and the rule.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np

from . import simulate as sim
from ..echo import paragraph
from ..cards import Card, masks_of, parse_cards
from ..parallel import run_chunks
from ..rng import check_run, check_seed
from ..rules import CONTRACTS, HAND_SIZE, KERNEL_ECART_MADE, N_CONTRACTS, Rules
from ..stats import mean_ci
from .study import StudyPlan, json_ready, parse_contracts, table_thresholds, wilson

#: deals per kernel call (progress is reported per chunk)
DEFAULT_CHUNK = 256


def parse_hand(rules: Rules, text) -> tuple[Card, ...]:
    """Read a hand given as card names.

    The hand of ``text`` (card names, ``"T21 T20 EX KH 10S ..."`` or as tarotsim prints them,
    ``"K♥ 10♠"``, or Cards), checked: as many distinct cards as a hand holds at this table
    (R-DEAL-1). ``ValueError`` with a one-line message otherwise."""
    try:
        cards = tuple(parse_cards(text, pretty=True)) if isinstance(text, str) else \
            tuple(Card.parse(str(c), pretty=True) for c in text)
    except ValueError as e:
        raise ValueError(f"--hand: {' '.join(str(e).split())}") from None
    size = HAND_SIZE[rules.table]
    if len(set(cards)) != len(cards):
        twice = sorted({str(c) for c in cards if cards.count(c) > 1})
        raise ValueError(f"--hand: {', '.join(twice)} given twice")
    if len(cards) != size:
        raise ValueError(f"--hand: a hand holds {size} cards at table {rules.table} (R-DEAL-1), not {len(cards)}")
    return cards


@dataclass
class HandPlan(StudyPlan):
    """The checked arguments of a hand study (:func:`plan`): a study's, with the hand and its seat."""

    hand: tuple
    seat: int
    dealer: int
    threshold_row: np.ndarray = field(repr=False)


def plan(rules, hand, seat: int, seed, deals, *, start=0, bots="heuristic", contracts=None,
         dealer=None) -> HandPlan:
    """Check a hand study's arguments (``ValueError`` with a one-line message)."""
    r = sim._rules(rules)
    if r.table == "2":
        raise ValueError("--hand: table 2 deals piles besides the hand (R-VAR-TWO); study a hand at 3, 4, 5 or 5d")
    cards = parse_hand(r, hand)
    n = r.n_seats
    if not isinstance(seat, (int, np.integer)) or isinstance(seat, bool) or not 0 <= seat < n:
        raise ValueError(f"--seat: a seat 0..{n - 1} at table {r.table}, not {seat!r}")
    dealer = (seat - 1) % n if dealer is None else dealer
    if not isinstance(dealer, (int, np.integer)) or isinstance(dealer, bool) or not 0 <= dealer < n:
        raise ValueError(f"--dealer: a seat 0..{n - 1} at table {r.table}, not {dealer!r}")
    if r.table == "5d" and dealer == seat:
        raise ValueError("--dealer: at table 5d the dealer sits out (R-DEAL-6): the studied seat cannot deal")
    trumps = [c for c in cards if c.is_trump]
    if r.petit_sec != "off" and [str(c) for c in trumps] == ["T1"] and not any(c.is_excuse for c in cards):
        raise ValueError("--hand: a petit sec (R-DEAL-4): the deal is annulled before any bid")
    seed = check_seed(seed)
    start, stop = check_run(start, deals, "the number of deals", minimum=1)
    kinds, params, pol = sim.bot_setup(r, bots)
    from bots import HEURISTIC_KINDS, REGISTRY
    # the heuristic count and thresholds of the seat's own bot when it counts as the heuristic
    row = params[seat] if kinds[seat] in HEURISTIC_KINDS else REGISTRY["heuristic"].vector()
    return HandPlan(r, seed, start, stop - start, sim._bots_label(bots), parse_contracts(contracts), kinds, params,
                    pol, hand=cards, seat=int(seat), dealer=int(dealer), threshold_row=row)


@dataclass
class HandTotals:
    """The integer totals of a hand study (:func:`run`) and how it ran."""

    plan: HandPlan
    acc: np.ndarray     # int64[N_CONTRACTS, H_LEN]
    deals_done: int
    threads: int = 1
    elapsed_s: float = 0.0
    compile_s: float = 0.0  # numba compiling the kernel first (a cold cache), not in elapsed_s


def _kernel(p: HandPlan):
    """The loop that plays the plan's seats, and about how long compiling it takes (a cold cache)."""
    from bots import BOT_KINDS
    from bots.search import needs_full_build

    from .._builds import hand as K
    from .._kernels._cache import COMPILE_SECONDS

    if BOT_KINDS["pimc"] not in p.kinds:
        return K.run_hand_bots, COMPILE_SECONDS["hand"]
    if needs_full_build(p.kinds, p.params):
        return K.run_hand_search_full, COMPILE_SECONDS["hand_bid_search_full"]
    return K.run_hand_search, COMPILE_SECONDS["hand_bid_search"]


def run(rules, hand, seat: int, seed, deals, *, start=0, bots="heuristic", contracts=None, dealer=None, threads=1,
        chunk_size=DEFAULT_CHUNK, progress=None, notice=None) -> HandTotals:
    """Run the hand-level bidding study.

    Study the hand over deals ``start .. start + deals - 1`` (see the module docstring) on
    ``threads`` threads; ``progress`` is called with the number of deals of every finished chunk,
    ``notice(line)`` once before numba compiles the kernel (a cold cache). A policy set that
    chooses what the rules forbid raises :class:`~tarotsim.engine.IllegalPlayError` naming the bot,
    the seat, the deal and the rule."""
    from .._builds import hand as K
    from .._kernels._cache import compile_notice, is_cached

    p = plan(rules, hand, seat, seed, deals, start=start, bots=bots, contracts=contracts, dealer=dealer)
    rv = p.rules.to_vector()
    s = sim._seed(p.seed)
    ht, hs = masks_of(p.hand)
    mask = np.array([c in p.contracts for c in CONTRACTS], dtype=np.int64)
    kernel, about = _kernel(p)
    args = (np.int64(p.seat), np.int64(p.dealer), np.int64(ht), np.int64(hs), p.kinds, p.params, p.pol, mask)

    def new_acc():
        return np.zeros((N_CONTRACTS, K.H_LEN), np.int64), np.zeros(K.M_LEN, np.int64)

    def work(a, b, acc):
        kernel(rv, s, a, b - a, *args, *acc)
        return acc[1][K.M_ERROR] == 0

    cold = not is_cached([kernel])
    if cold and notice is not None:
        notice(compile_notice(f"the hand study of {p.bots}", about))
    t0 = time.perf_counter()
    work(p.start, p.start, new_acc())  # load (or compile) the kernel before the clock starts
    compile_s = time.perf_counter() - t0 if cold else 0.0
    t0 = time.perf_counter()
    parts = run_chunks(p.start, p.start + p.deals, chunk_size, max(1, int(threads)), new_acc, work, progress)
    elapsed = time.perf_counter() - t0
    errors = [int(q[1][K.M_ERROR]) for q in parts if q[1][K.M_ERROR]]
    if errors:
        raise _bot_error(p, bots, min(errors) - 1)
    acc = np.sum([q[0] for q in parts], axis=0)
    return HandTotals(p, acc, int(sum(q[1][K.M_DEALS] for q in parts)), max(1, int(threads)), elapsed, compile_s)


def _bot_error(p: HandPlan, bots, index: int) -> Exception:
    """The error of the deal of a hand study in which a policy set chose what the rules forbid.

    Deal ``index`` of the study (the world the kernels drew for it) played again on the slow path
    once per studied contract in the kernels' order, every seat's bot through its adapter from the
    deal's bots stream: the :class:`~tarotsim.engine.IllegalPlayError` it stops with, naming the
    bot, the seat, the deal, the contract forced and the rule (R-PLAY-6 when none is found)."""
    from .._builds import hand as K
    from .._kernels.worlds import LOC_PILE
    from ..adapters import FastBotAdapter, PolicyAdapter
    from ..cards import DECK
    from ..engine import Game, IllegalPlayError
    from ..rng import STREAM_BOTS, Rng

    ht, hs = masks_of(p.hand)
    row = np.zeros((1, 78), dtype=np.int8)
    K.hand_worlds(p.rules.to_vector(), sim._seed(p.seed), np.array([index], dtype=np.int64), np.int64(p.seat),
                  np.int64(p.dealer), np.int64(ht), np.int64(hs), row)
    hands = [[DECK[c] for c in range(78) if row[0, c] == s] for s in range(p.rules.n_seats)]
    chien = [DECK[c] for c in range(78) if row[0, c] == LOC_PILE]
    kinds, params, policies = sim._seats(p.rules, bots)
    names = {code: name for name, code in sim.BOT_KINDS.items()}
    players = [PolicyAdapter(policies[s]) if policies[s] is not None
               else FastBotAdapter(names[int(kinds[s])], params[s], seats=(kinds, params)) for s in range(len(kinds))]
    where = f"deal {index} of the hand study (seed {p.seed})"
    for contract in p.contracts:
        game = Game(p.rules, hands=hands, chien=chien, dealer=p.dealer, forced=(p.seat, contract))
        stream = Rng.for_deal(p.seed, index, STREAM_BOTS)
        while (d := game.decision) is not None:
            try:
                game.apply(players[d.seat].choose(game.view(d.seat), game.legal_actions(), stream))
            except IllegalPlayError as e:
                return IllegalPlayError(e.rule_id, f"bot {players[d.seat].name} at seat {d.seat}, {where}, "
                                                   f"{contract.replace('_', ' ')} forced: {e.message}")
    return IllegalPlayError("R-PLAY-6", f"a policy set chose what the rules forbid in {where}")


def report(t: HandTotals) -> dict:
    """Everything the hand study shows, as one JSON-ready dict."""
    from bots.heuristic import bid_counts, evaluate

    from .._builds import hand as K
    p = t.plan
    ht, hs = masks_of(p.hand)
    row = np.array([p.threshold_row])
    pts, voids = evaluate(row, 0, np.int64(ht), np.int64(hs))
    counts = bid_counts(pts, voids)
    thresholds = table_thresholds(p.rules.table, p.threshold_row)
    heuristic_bid = None
    for c in CONTRACTS:
        if counts[0 if KERNEL_ECART_MADE[CONTRACTS.index(c)] else 1] >= thresholds[c]:
            heuristic_bid = c
    rows = []
    prev = "pass"
    for c in p.contracts:
        a = [int(x) for x in t.acc[CONTRACTS.index(c)]]
        n = a[K.H_N]
        m, mlo, mhi = mean_ci(n, a[K.H_S], a[K.H_S2])
        d, dlo, dhi = mean_ci(n, a[K.H_D], a[K.H_D2])
        lo, hi = wilson(a[K.H_MADE], n)
        rows.append({"contract": c, "deals": n, "made": a[K.H_MADE], "made_rate": a[K.H_MADE] / n if n else math.nan,
                     "made_ci": [lo, hi], "mean_score": m, "score_ci": [mlo, mhi], "versus": prev,
                     "mean_difference": d, "difference_ci": [dlo, dhi]})
        prev = c
    best = max(rows, key=lambda r: (r["mean_score"], -CONTRACTS.index(r["contract"])), default=None)
    best_name = best["contract"] if best is not None and best["mean_score"] > 0 else "pass"
    return {"study": "bidding-hand", "table": p.rules.table, "options": p.rules.non_default_options(),
            "hand": [str(c) for c in p.hand], "seat": p.seat, "dealer": p.dealer, "seed": p.seed,
            "start": p.start, "deals": p.deals, "bots": p.bots, "threads": t.threads, "elapsed_s": t.elapsed_s,
            "compile_s": t.compile_s,
            "plays_per_s": t.deals_done * len(p.contracts) / t.elapsed_s if t.elapsed_s > 0 else None,
            "hand_points": float(pts), "void_points": float(voids), "heuristic_bid": heuristic_bid or "pass",
            "passing_scores": 0, "contracts": rows, "best": best_name,
            "best_is_sure": _sure(rows, best_name)}


def _sure(rows, best: str) -> bool:
    """Whether the best contract beats every other studied choice.

    The best contract beats every other studied choice, passing included, with 95% intervals
    above 0 (the paired difference with the contract below, and each contract's own)."""
    if best == "pass":
        return all(r["score_ci"][1] < 0 for r in rows)
    i = [r["contract"] for r in rows].index(best)
    above = rows[i + 1] if i + 1 < len(rows) else None
    return (rows[i]["score_ci"][0] > 0 and rows[i]["difference_ci"][0] > 0
            and (above is None or above["difference_ci"][1] < 0))


def _num(x, fmt="+.1f") -> str:
    return "-" if x is None or not math.isfinite(x) else format(x, fmt)


def format_report(d: dict) -> str:
    """The hand study as a readable table (what ``tarotsim study bidding --hand`` prints)."""
    last = d["start"] + d["deals"] - 1
    out = [*paragraph(f"bidding study of one hand · table {d['table']} · seat {d['seat']} (dealer {d['dealer']}) · "
                      f"{d['deals']:,} deals of the other cards (index {d['start']:,}..{last:,}) · seed {d['seed']} · "
                      f"bots {d['bots']}"
                      + (" · options " + ", ".join(f"{k}={v}" for k, v in d["options"].items())
                         if d["options"] else "")),
           f"hand: {' '.join(d['hand'])}",
           f"heuristic count {d['hand_points']:.1f} (voids {d['void_points']:.1f}): the heuristic bot would bid "
           f"{d['heuristic_bid']}",
           "each deal played once per contract with the seat forced as taker; passing scores 0",
           "",
           f"{'contract':<13} {'deals':>8} {'made %':>7} {'95% CI':>13} {'mean score':>11} {'95% CI':>17} "
           f"{'vs':>13} {'difference':>11} {'95% CI':>17}"]
    for r in d["contracts"]:
        lo, hi = r["made_ci"]
        out.append(f"{r['contract']:<13} {r['deals']:>8,} {_num(100 * r['made_rate'], '.1f'):>7} "
                   f"{'[' + _num(100 * lo, '.1f') + ', ' + _num(100 * hi, '.1f') + ']':>13} "
                   f"{_num(r['mean_score']):>11} "
                   f"{'[' + _num(r['score_ci'][0]) + ', ' + _num(r['score_ci'][1]) + ']':>17} "
                   f"{r['versus']:>13} {_num(r['mean_difference']):>11} "
                   f"{'[' + _num(r['difference_ci'][0]) + ', ' + _num(r['difference_ci'][1]) + ']':>17}")
    verdict = "for sure at 95%" if d["best_is_sure"] else "not for sure: the intervals overlap, study more deals"
    out += ["", f"best: {d['best']} ({verdict})",
            f"{d['threads']} thread(s) · {d['elapsed_s']:.1f} s · {_num(d['plays_per_s'], ',.0f')} plays/s"
            f"{sim.compile_text(d['compile_s'])}"]
    return "\n".join(out)


def to_json(d: dict) -> str:
    import json
    return json.dumps(json_ready(d))


__all__ = ["HandPlan", "HandTotals", "format_report", "parse_hand", "plan", "report", "run", "to_json"]
