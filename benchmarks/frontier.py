"""The frontier of the bots' settings: strength against the time a decision costs, as JSON.

    python -m benchmarks.frontier --quick
    python -m benchmarks.frontier --table 4 --seed 5 --deals 2000 --out frontier.json \\
        --settings "pimc:worlds=8,pimc:worlds=128,pimc:worlds=1024@500,pimc:infer=1,pimc:bid_search=1,learned"

For every setting (a bot of the ``--bots`` grammar, ``pimc:worlds=256,bid_search=1`` included, or
``strong``), one thread:

- its time per card decision, ``ms_per_decision``: for a ``pimc`` setting the card search's
  measure (``benchmarks.search.card_speed``: the whole run's time per card decision searched),
  for a bot that does not search (``heuristic``, ``learned``) the whole run's time per card it
  played; the setting at the first seat and the heuristic at the others, ``--speed-deals`` deals;
- its time per bid, ``ms_per_bid``, where it searches its bids (``bid_search=1``:
  ``benchmarks.search.decision_speed``, every bid of ``--speed-deals`` deals' auctions), else null.

The times are the process's CPU time (its one thread: ``cpu_s``), so that a machine busy with
other work slows them less than it slows the clock on the wall;
- its strength against the heuristic: a duplicate tournament (``tarotsim.runs.tournament.run``,
  every seat rotation) of the setting at one seat and the heuristic at the others, deals
  ``0 ..`` of the same seed for every setting: ``mean`` the paired difference setting −
  heuristic in points a deal, ``ci`` its 95% interval. ``heuristic`` itself is the zero (a
  tournament of the heuristic against itself, its seat named apart).

A setting's deals: ``--deals``, or its own after ``@`` (``pimc:worlds=1024@500``). Budgets stay
counts (worlds, candidates): the frontier says what each count costs. The JSON (``--out``, all or
nothing; ``-``: stdout) holds one entry per setting, and the run's seed, table, machine, load
(``os.getloadavg()`` before and after) and date and the command. Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import json
import os
import shlex
import sys
import time

from benchmarks.search import BenchError, card_speed, decision_speed

FORMAT = "tarotsim-frontier/1"
#: The settings measured by default: the search at a few budgets, the learned bot, the zero.
DEFAULT_SETTINGS = "pimc:worlds=8,pimc:worlds=32,pimc:worlds=128,learned,heuristic"
#: ``--quick``: deals per setting for the strength, and for the times.
QUICK_DEALS, QUICK_SPEED_DEALS = 100, 50
#: The bot at every other seat, and the zero of the strength.
BASELINE = "heuristic"


@dataclasses.dataclass(frozen=True)
class Setting:
    """One setting of the frontier: its bot's ``--bots`` text and its deals (None: ``--deals``)."""

    bots: str
    deals: int | None = None


def parse_settings(text: str) -> list[Setting]:
    """The ``--settings`` text as settings: bots of the ``--bots`` grammar, each with ``@DEALS`` or not.

    ``"pimc:worlds=8,pimc:worlds=256,bid_search=1@500"`` is two settings, the second one of 500
    deals (``bots.split_bots`` splits the bots). Raises :class:`BenchError` (one line) for bad
    deals or a setting given twice."""
    from bots import BotError, split_bots

    try:
        texts = split_bots(text)
    except BotError as e:
        raise BenchError(f"--settings: {e}") from None
    out: list[Setting] = []
    for t in texts:
        bots, at, deals = t.rpartition("@") if "@" in t else (t, "", "")
        if at and not (deals.isdigit() and int(deals) >= 1):
            raise BenchError(f"--settings: {t!r}: the deals after @ must be a whole number of at least 1")
        if any(s.bots == bots for s in out):
            raise BenchError(f"--settings: {bots!r} given twice")
        out.append(Setting(bots, int(deals) if at else None))
    return out


def _seats(rules, setting: str) -> str:
    """The ``--bots`` text of a measurement: the setting at the first seat, the heuristic at the others."""
    return ",".join([setting] + [BASELINE] * (rules.n_seats - 1))


def _is_search(setting: str, table: str) -> tuple[bool, bool]:
    """Whether a setting searches its cards (a ``pimc`` bot) and its bids (``bid_search=1``)."""
    from bots import REGISTRY, parse_bot

    name, vec = parse_bot(setting, table)
    if name != "pimc":
        return False, False
    return True, bool(REGISTRY["pimc"].values(vec)["bid_search"])


def card_time(rules, setting: str, deals: int, seed: int) -> float | None:
    """Milliseconds per card decision of ``setting`` (see the module docstring), one thread."""
    from tarotsim._kernels import layout as L
    from tarotsim.rules import N_TRICKS
    from tarotsim.runs import simulate

    if _is_search(setting, rules.table)[0]:
        out = card_speed(rules.table, _seats(rules, setting), deals, seed)
        return round(1000 * out["cpu_s"] / out["decisions"], 4) if out["decisions"] else None
    bots = _seats(rules, setting)
    simulate.totals(rules, seed, 0, 4, bots=bots, threads=1)  # numba compiles, or loads its cache
    c0 = time.process_time()
    acc, _, _ = simulate.totals(rules, seed, 1_000_000, 1_000_000 + deals, bots=bots, threads=1)
    cpu = time.process_time() - c0
    cards = int(acc[L.ACC_PLAYED]) * N_TRICKS[rules.table]
    return round(1000 * cpu / cards, 4) if cards else None


def bid_time(rules, setting: str, deals: int, seed: int) -> float | None:
    """Milliseconds per bid of ``setting`` where it searches its bids (``bid_search=1``), else None."""
    if not _is_search(setting, rules.table)[1]:
        return None
    out = decision_speed(rules.table, _seats(rules, setting), "bid", deals, seed)
    return round(1000 * out["cpu_s"] / out["positions"], 4) if out["positions"] else None


def strength(rules, setting: str, deals: int, seed: int, progress=None) -> dict:
    """The setting against the heuristic: the paired difference of a duplicate tournament, one thread.

    ``{"mean", "ci", "deals", "seconds"}``: ``mean`` points a deal of the setting's seat less the
    heuristic's (every seat rotation of deals ``0 .. deals - 1`` of ``seed``), ``ci`` its 95%
    interval (Student t over deals); ``progress`` gets the deals done after every block."""
    from tarotsim.runs import tournament
    from tarotsim.runs.players import parse_players

    entries = parse_players(_seats(rules, setting), rules)
    if entries[0].label == entries[1].label:  # the heuristic against itself: its seat named apart
        entries[0] = dataclasses.replace(entries[0], label=f"{setting} (measured)")
    res = tournament.run(rules, seed, deals, entries, threads=1, progress=progress, chunk=min(deals, 100))
    pair = next(p for p in res.pairs if p["a"] == entries[0].label)
    return {"mean": round(pair["mean"], 3), "ci": [round(pair["ci_low"], 3), round(pair["ci_high"], 3)],
            "deals": pair["deals"], "seconds": round(res.elapsed_s, 1)}


def _progress(log, head: str, deals: int):
    """A tournament's progress callback: a line ``HEAD: strength, DONE/DEALS deals`` after every block."""
    done = [0]

    def progress(m: int) -> None:
        done[0] += m
        log(f"{head}: strength, {done[0]:,}/{deals:,} deals")
    return progress


def measure(table: str, settings: list[Setting], deals: int, speed_deals: int, seed: int, log=None) -> dict:
    """The frontier of ``settings`` at ``table``: one entry per setting (the module docstring).

    ``log``: called with a line of progress. Raises a ``ValueError`` (``bots.BotError``,
    :class:`BenchError` ...) for a setting that does not play at ``table``."""
    from benchmarks.throughput import machine
    from tarotsim.rules import Rules

    rules = Rules(table=table)
    log = log or (lambda line: None)
    for s in settings:  # every setting checked before the first is measured
        from tarotsim.runs.players import parse_players

        parse_players(_seats(rules, s.bots), rules)
    load_before = os.getloadavg()
    entries = []
    for i, s in enumerate(settings, 1):
        n = s.deals or deals
        log(f"[{i}/{len(settings)}] {s.bots}: time per decision ({speed_deals:,} deals)")
        ms = card_time(rules, s.bots, speed_deals, seed)
        ms_bid = bid_time(rules, s.bots, speed_deals, seed)
        st = strength(rules, s.bots, n, seed, _progress(log, f"[{i}/{len(settings)}] {s.bots}", n))
        log(f"[{i}/{len(settings)}] {s.bots}: {ms} ms a decision, {st['mean']:+.2f} "
            f"[{st['ci'][0]:+.2f}, {st['ci'][1]:+.2f}] points a deal over {n:,} deals")
        entries.append({"bots": s.bots, "ms_per_decision": ms, "ms_per_bid": ms_bid, **st})
    return {"format": FORMAT, "table": table, "seed": seed, "baseline": BASELINE, "threads": 1,
            "speed_deals": speed_deals, "settings": entries,
            "load": {"before": [round(x, 2) for x in load_before], "after": [round(x, 2) for x in os.getloadavg()]},
            "machine": machine(), "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")}


def _family(setting: str) -> str:
    """The series of the figure a setting's point belongs to."""
    if "locations=1" in setting:
        return "pimc:locations=1"
    if "infer=1" in setting:
        return "pimc:infer=1"
    if "bid_search=1" in setting:
        return "pimc:bid_search=1"
    return "pimc, by worlds" if setting.startswith("pimc") else "other bots"


def label(setting: str) -> str:
    """A setting's label in the figure: its text without the bot's name and ``worlds=``, ``pimc`` alone as is.

    The location model alone (:data:`LOCATIONS_ALONE`) reads ``locations=1``."""
    short = setting.removeprefix("pimc:").replace("worlds=", "").replace(LOCATIONS_ALONE, "locations=1")
    return short if short else setting


#: Where a series' labels go beside its points (points to the right and up), so that they overlap less.
_LABEL_OFFSETS = {"pimc, by worlds": (5, -11), "pimc:infer=1": (-6, 6), "pimc:bid_search=1": (6, 4),
                  "pimc:locations=1": (-6, 8), "other bots": (5, -11)}
#: The parameters of the search on the location model's worlds alone (no model of the other seats).
LOCATIONS_ALONE = "infer=1,epsilon=1,card_epsilon=1,locations=1"


def figure(result: dict, limit_ms: float | None = None, marked: dict | None = None):
    """The frontier as a figure: points a deal over the heuristic against milliseconds a decision.

    Parameters
    ----------
    result : dict
        A frontier run's JSON (:func:`measure`).
    limit_ms : float, optional
        A time per decision drawn as a dashed line (the budget of ``strong``).
    marked : dict, optional
        ``{setting: name}``: settings whose label also gives a name (``strong``).

    Returns
    -------
    matplotlib.figure.Figure
        One point per setting with its 95% interval, the time on a log scale (the ``plot`` extra).
    """
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7, 4.8), layout="constrained")
    ax = fig.subplots()
    families: dict[str, list[dict]] = {}
    for e in result["settings"]:
        if e["ms_per_decision"]:
            families.setdefault(_family(e["bots"]), []).append(e)
    for (family, entries), marker in zip(families.items(), "osD^v"):
        entries.sort(key=lambda e: e["ms_per_decision"])
        xs = [e["ms_per_decision"] for e in entries]
        ys = [e["mean"] for e in entries]
        err = [[e["mean"] - e["ci"][0] for e in entries], [e["ci"][1] - e["mean"] for e in entries]]
        ax.errorbar(xs, ys, yerr=err, marker=marker, capsize=3, label=family + (" (labels: worlds)" if family
                                                                                  == "pimc, by worlds" else ""),
                    ls="-" if family == "pimc, by worlds" else "none")
        dx, dy = _LABEL_OFFSETS[family]
        for e in entries:
            name = (marked or {}).get(e["bots"])
            ax.annotate(label(e["bots"]) + (f" ({name})" if name else ""), (e["ms_per_decision"], e["mean"]),
                        fontsize=7, xytext=(dx, dy), textcoords="offset points", ha="right" if dx < 0 else "left",
                        weight="bold" if name else "normal")
    if limit_ms is not None:
        ax.axvline(limit_ms, color="grey", ls="--", label=f"{limit_ms:g} ms a decision")
    ax.set_xscale("log")
    ax.set_xlabel("milliseconds a card decision (one core, log scale)")
    ax.set_ylabel(f"points a deal over the {result['baseline']} (95% CI)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.suptitle(f"table {result['table']}, seed {result['seed']}: each setting at one seat, "
                 f"the {result['baseline']} at the others", fontsize=10)
    return fig


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.frontier", description=__doc__.split("\n\n")[0])
    p.add_argument("--table", default="4", choices=["3", "4", "5", "5d", "2"])
    p.add_argument("--settings", default=DEFAULT_SETTINGS,
                   help="bots of the --bots grammar, each measured at one seat (SETTING@DEALS: its own deals)")
    p.add_argument("--deals", type=int, default=500, help="deals of the strength of a setting without @DEALS")
    p.add_argument("--speed-deals", type=int, default=200, help="deals of the times per decision")
    p.add_argument("--seed", type=int, default=20240601)
    p.add_argument("--quick", action="store_true",
                   help=f"{QUICK_DEALS} deals a setting, {QUICK_SPEED_DEALS} for the times: a minute or two")
    p.add_argument("--out", default="-", help="the JSON file (default -: stdout)")
    a = p.parse_args(argv)
    if a.quick:
        a.deals, a.speed_deals = QUICK_DEALS, QUICK_SPEED_DEALS
    if a.deals < 1 or a.speed_deals < 1:
        p.error("--deals and --speed-deals must be >= 1")
    command = shlex.join(["python", "-m", "benchmarks.frontier", *(sys.argv[1:] if argv is None else argv)])
    try:
        settings = parse_settings(a.settings)
        res = measure(a.table, settings, a.deals, a.speed_deals, a.seed,
                      log=lambda line: print(line, file=sys.stderr, flush=True))
    except ValueError as e:  # BotError, PlayersError, BenchError: one line
        p.error(str(e))
    res["command"] = command
    text = json.dumps(res, indent=1) + "\n"
    if a.out == "-":
        sys.stdout.write(text)
    else:
        from tarotsim.outputs import atomic_write_text

        atomic_write_text(a.out, [text], "--out")
        print(f"frontier written to {a.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
