"""Full random deals of the tarotsim deal kernel beside a hand-written C kernel, timed in one run.

    python -m benchmarks.cbaseline --deals 2000000 --repeat 3 --json

``benchmarks/cbaseline.c`` is compiled at run time with the system's ``gcc -O3 -march=native``
into a temporary folder (nothing compiled is kept), loaded with ctypes, and timed against the
tarotsim kernel as ``benchmarks.throughput --table 4 --bots random --threads 1`` times it (the
kernel loaded from numba's cache, filled by a child process first; ``tarotsim.runs.simulate.totals``,
chunks of ``simulate.DEFAULT_CHUNK`` deals). ``--repeat N`` times each N times, in turn (the
first of each round alternates), and keeps the best of each; ``ratio`` is tarotsim's deals per
second over the C kernel's (above 1: tarotsim is faster), ``round_ratios`` the ratio of each round.

The same work: both play the deals ``0 .. deals - 1`` of the seed at table 4 under the official
rules, whole, with the random player: the same splitmix64 streams and Fisher-Yates shuffle, the
hands and the chien (R-DEAL-1, R-DEAL-2), the petit sec (R-DEAL-4), the random bids (R-BID-1 to
R-BID-3), the écart (R-CHIEN-1 to R-CHIEN-4), the chelem draw (R-SLAM-1), the poignée draw of every
seat at its first turn and the poignée shown (R-POIG-1 to R-POIG-3), the 18 tricks with the legal
cards of R-PLAY-3, R-PLAY-4a to R-PLAY-4e and R-EXC-1 and their winners (R-PLAY-5), the Excuse
(R-EXC-2 to R-EXC-5), the petit au bout (R-PAB-1, R-PAB-2), the count (R-COUNT-1 to R-COUNT-4) and
the score (R-SCORE-1, R-SCORE-2, the terms of ``tarotsim.scoring.score_core``); each writes a record
of the deal (hands, chien, bids, écart, declarations, leaders, cards and winners of the tricks,
count, score terms, scores) and adds it to the run's totals. Each draw is the one of
docs/engine-contract.md, in its order, so both play the very same deals: every round checks that
their totals are equal (``same_totals``; a difference stops the run), and the tests compare deals
card by card. The options of docs/rules.md §14 that a table-4 deal reads are read by both at run
time (the misère's draws included, off by default).

What is not the same:

* the C kernel is written for table 4 alone: the seats, the sizes of the hand, the chien and the
  deal are constants of the C code, and it has no call of a partner (table 5), no dummy (5d) and
  no piles (table 2). The tarotsim kernel plays tables 3, 4, 5 and 5d in one build and reads the
  table from the rules vector (sizes, seating, the R-CALL-4 test of trick 1 that nothing bans at
  table 4);
* the C kernel keeps no public view for bots; tarotsim's random build writes the parts of it that
  the deal's steps share with the bots' builds (the trick's cards, the cards played, the leader);
* the C record holds small integers, tarotsim's log int64 (``layout.L_*``), emptied field by field
  at every deal;
* the C kernel plays all the deals in one call; tarotsim is called once per chunk from Python;
* gcc compiles the C code, numba's LLVM the kernel (both for the host CPU, BMI2's ``pdep`` in both
  when the CPU has it).
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from benchmarks import throughput

SOURCE = Path(__file__).with_name("cbaseline.c")
#: How the C kernel is compiled (``-march=native``: for the CPU it runs on, as numba compiles).
CFLAGS = ("-O3", "-march=native", "-shared", "-fPIC")
#: The options the C kernel reads, in its order (``O_*`` of cbaseline.c): ``Rules.to_vector()``'s names.
OPTIONS = ("RV_PETIT_SEC", "RV_EXCUSE_SLAM_EITHER_SIDE", "RV_PAB_SLAM_PENULTIMATE", "RV_PAB_MULTIPLIED",
           "RV_POIGNEE_TO_WINNER", "RV_POIGNEE_ECART_TRUMPS", "RV_DEFENCE_SLAM_BONUS", "RV_MISERE", "RV_MISERE_VALUE",
           "RV_MISERE_EXCUSE_IS_TRUMP")
#: The C kernel's totals, in its order (``T_*`` of cbaseline.c), with their slots in tarotsim's
#: aggregate (``layout.ACC_*`` and the slots after it)
TOTALS = (("deals", "ACC_DEALS", 1), ("played", "ACC_PLAYED", 1), ("all_passed", "ACC_ALL_PASSED", 1),
          ("petit_sec", "ACC_PETIT_SEC", 1), ("taken", "ACC_TAKEN", 4), ("made", "ACC_MADE", 4),
          ("attack_hp", "ACC_ATTACK_HP", 4), ("score_sum", "ACC_SCORE_SUM", 4),
          ("taker_score_sum", "ACC_TAKER_SCORE_SUM", 1), ("pab_attack", "ACC_PAB_ATTACK", 1),
          ("pab_defence", "ACC_PAB_DEFENCE", 1), ("chelem", "ACC_CHELEM", 6), ("poignees", "ACC_POIGNEES", 1),
          ("miseres", "ACC_MISERES", 1))
#: Slots of a deal from ``cb_deal``: outcome, taker, contract, attack half-points, oudlers, petit au
#: bout, chelem code, value, the four scores, the 72 cards in playing order (-1 when not played)
DEAL_LEN = 8 + 4 + 72
TABLE = "4"


class CBaselineError(RuntimeError):
    """The C kernel could not be compiled, or its deals are not tarotsim's."""


def compiler() -> str:
    """The first line of ``gcc --version``."""
    return subprocess.run(["gcc", "--version"], check=True, capture_output=True, text=True).stdout.splitlines()[0]


def build(folder: str) -> ctypes.CDLL:
    """``cbaseline.c`` compiled into ``folder`` (``CFLAGS``) and loaded."""
    out = os.path.join(folder, "cbaseline.so")
    done = subprocess.run(["gcc", *CFLAGS, "-o", out, str(SOURCE)], capture_output=True, text=True)
    if done.returncode != 0:
        raise CBaselineError(f"gcc failed on {SOURCE.name}: {done.stderr.strip()}")
    lib = ctypes.CDLL(out)
    i64p = ctypes.POINTER(ctypes.c_int64)
    lib.cb_run.argtypes = [ctypes.c_uint64, ctypes.c_int64, ctypes.c_int64, i64p, i64p]
    lib.cb_run.restype = None
    lib.cb_deal.argtypes = [ctypes.c_uint64, ctypes.c_int64, i64p, i64p]
    lib.cb_deal.restype = None
    if lib.cb_options_len() != len(OPTIONS) or lib.cb_totals_len() != sum(n for _, _, n in TOTALS):
        raise CBaselineError(f"{SOURCE.name} and {Path(__file__).name} disagree on the options or the totals")
    return lib


def options(rules) -> np.ndarray:
    """The C kernel's options (``OPTIONS``) from a table-4 :class:`tarotsim.rules.Rules`."""
    from tarotsim import rules as R

    v = rules.to_vector()
    return np.array([v[getattr(R, name)] for name in OPTIONS], dtype=np.int64)


def _ptr(a: np.ndarray):
    return a.ctypes.data_as(ctypes.POINTER(ctypes.c_int64))


def c_totals(lib: ctypes.CDLL, seed: int, start: int, count: int, opts: np.ndarray) -> np.ndarray:
    """The C kernel's totals (``TOTALS`` order) of the deals ``start .. start + count - 1``."""
    tot = np.zeros(sum(n for _, _, n in TOTALS), dtype=np.int64)
    lib.cb_run(seed, start, count, _ptr(opts), _ptr(tot))
    return tot


def c_deal(lib: ctypes.CDLL, seed: int, index: int, opts: np.ndarray) -> np.ndarray:
    """One deal of the C kernel (``DEAL_LEN`` slots, as ``DEAL_LEN`` says)."""
    out = np.zeros(DEAL_LEN, dtype=np.int64)
    lib.cb_deal(seed, index, _ptr(opts), _ptr(out))
    return out


def kernel_totals(acc: np.ndarray) -> np.ndarray:
    """tarotsim's aggregate (``layout.ACC_*``) as the C kernel's totals (``TOTALS`` order)."""
    from tarotsim._kernels import layout as L

    return np.concatenate([acc[getattr(L, slot):getattr(L, slot) + n] for _, slot, n in TOTALS])


def measure(deals: int, repeat: int, seed: int) -> dict:
    """Time both kernels ``repeat`` times in turn on the same deals; their totals must be equal."""
    from tarotsim.rules import Rules
    from tarotsim.runs import simulate

    throughput.fill_cache(TABLE, "random")
    rules = Rules(table=TABLE)
    opts = options(rules)
    kernel_s: list[float] = []
    c_s: list[float] = []
    with tempfile.TemporaryDirectory(prefix="tarotsim-cbaseline-") as folder:
        lib = build(folder)
        c_totals(lib, seed, 0, 64, opts)  # the first call loads the library's pages
        simulate.totals(rules, seed, 0, 64)  # the kernel loaded from numba's cache
        for k in range(max(1, repeat)):
            for which in ("kernel", "c") if k % 2 == 0 else ("c", "kernel"):
                if which == "kernel":
                    acc, elapsed, _ = simulate.totals(rules, seed, 0, deals, threads=1)
                    kernel_s.append(elapsed)
                    ours = kernel_totals(acc)
                else:
                    t0 = time.perf_counter()
                    theirs = c_totals(lib, seed, 0, deals, opts)
                    c_s.append(time.perf_counter() - t0)
            if not np.array_equal(ours, theirs):
                raise CBaselineError("the C kernel's totals differ from tarotsim's: "
                                     f"{dict(zip(_names(), theirs.tolist()))} against {dict(zip(_names(), ours.tolist()))}")
    best_kernel, best_c = min(kernel_s), min(c_s)
    return {
        "benchmark": "cbaseline",
        "table": TABLE,
        "bots": "random",
        "threads": 1,
        "deals": deals,
        "repeat": max(1, repeat),
        "seed": seed,
        "kernel_deals_per_s": round(deals / best_kernel, 1),
        "c_deals_per_s": round(deals / best_c, 1),
        "ratio": round(best_c / best_kernel, 3),
        "round_ratios": [round(c / k, 3) for k, c in zip(kernel_s, c_s)],
        "median_ratio": round(statistics.median(c / k for k, c in zip(kernel_s, c_s)), 3),
        "same_totals": True,
        "compiler": compiler() + " " + " ".join(CFLAGS[:2]),
        "machine": throughput.machine(),
    }


def _names() -> list[str]:
    return [name if n == 1 else f"{name}[{i}]" for name, _, n in TOTALS for i in range(n)]


def text(res: dict) -> str:
    """The result as a few lines for a terminal."""
    return "\n".join([
        f"table {res['table']}, random bots, {res['deals']:,} deals, one thread, seed {res['seed']}: "
        f"the same totals in every round",
        f"tarotsim kernel  {res['kernel_deals_per_s']:>12,.0f} deals/s (best of {res['repeat']})",
        f"C kernel         {res['c_deals_per_s']:>12,.0f} deals/s (best of {res['repeat']}; {res['compiler']})",
        f"tarotsim / C     {res['ratio']:.3f}x (rounds: {', '.join(f'{r:.3f}x' for r in res['round_ratios'])})",
    ])


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.cbaseline", description=__doc__.split("\n\n")[0])
    p.add_argument("--deals", type=int, default=2_000_000)
    p.add_argument("--repeat", type=int, default=3, help="timed runs of each kernel, in turn; the best is kept")
    p.add_argument("--seed", type=int, default=20240601)
    p.add_argument("--json", action="store_true", help="print JSON on one line")
    a = p.parse_args(argv)
    if a.deals < 1 or a.repeat < 1:
        p.error("--deals and --repeat must be >= 1")
    try:
        res = measure(a.deals, a.repeat, a.seed)
    except CBaselineError as e:
        print(f"benchmarks.cbaseline: {e}", file=sys.stderr)
        return 1
    print(json.dumps(res) if a.json else text(res))
    return 0


if __name__ == "__main__":
    sys.exit(main())
