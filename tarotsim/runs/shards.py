"""Runs split in any way, summed exactly: saved runs, ``merge``, and checkpoints.

Every deal derives from ``(seed, index)`` alone and every summary of ``simulate``, ``tournament``
and ``study bidding`` is computed from integer totals, so the totals of disjoint deal ranges add
up to the totals of their union and any split of a run gives the very same report.

- :class:`Job`: what a run is (command, table, options, bots, seed, its whole deal range), as
  plain values that a worker process can rebuild everything from; :meth:`Job.compute` gives the
  integer totals of one deal range.
- :class:`Saved`: a run's raw totals with its whole configuration and the deal ranges done; the
  file written by ``--save`` and ``--checkpoint`` (:data:`FORMAT`, :func:`dump`, :func:`load`:
  a checksum refuses an edited file, a truncated one does not parse).
- :func:`merge`: saved parts -> one :class:`Saved`, after checking that their configurations
  agree, that no deal is in two parts and that no deal is missing.
- :func:`execute`: run the ranges not yet done, locally or through an executor (Dask,
  :mod:`tarotsim.runs.distributed`), recording each finished range in a checkpoint file as it arrives.
- :func:`report`: the object a single run prints (a simulate ``Summary``, a ``TournamentResult``
  or the study's report dict), from a :class:`Saved`.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import dataclass, field

import numpy as np

from .. import __version__, echo, json_input
from ..rules import CONTRACTS, Rules

#: The saved-run file format (``--save``, ``--checkpoint``); its version changes with its layout.
FORMAT = "tarotsim-run/1"
COMMANDS = ("simulate", "tournament", "study bidding")
#: Deals per piece of work (a Dask task, or a checkpointed piece of a local run): a second or more
#: of work on one core for the bots named, so the per-task cost stays small beside it.
TASK_DEALS = {"simulate": 1_000_000, "tournament": 100_000, "study bidding": 100_000}
SLOW_TASK_DEALS = 2_000      # a Python bot (slow path) or a searching bot plays
#: A checkpoint is rewritten at most this often (seconds) while pieces arrive, and always at the end.
CHECKPOINT_EVERY = 2.0


class ShardError(ValueError):
    """A saved run, a merge or a checkpoint that cannot be used: one line for the user."""


def split_shard(text: str, start: int, deals: int) -> tuple[int, int]:
    """The deal range of one shard of a run.

    ``--shard K/N`` -> the deal range ``(a, b)`` of shard K (1..N) of ``deals`` deals from
    ``start``: the N shards are consecutive, differ in size by one deal at most, and cover the
    run exactly."""
    try:
        k, n = (int(x) for x in str(text).split("/"))
    except ValueError:
        raise ShardError(f"--shard: {echo.shown(text)} is not K/N (shard K of N, 1 <= K <= N)") from None
    if not 1 <= k <= n:
        raise ShardError(f"--shard: {echo.shown(text)}: K must be 1..N")
    if n > deals:
        raise ShardError(f"--shard: {n} shards of {deals:,} deals leave some empty")
    return start + (k - 1) * deals // n, start + k * deals // n


def pieces(ranges, size: int) -> list[tuple[int, int]]:
    """Cut deal ranges into aligned pieces.

    ``ranges`` cut into consecutive pieces of at most ``size`` deals, aligned on multiples of
    ``size`` (so a resumed run cuts the same pieces, with the same task keys)."""
    size = max(1, int(size))
    out = []
    for a, b in ranges:
        while a < b:
            c = min(b, (a // size + 1) * size)
            out.append((a, c))
            a = c
    return out


def _coalesce(ranges) -> list[tuple[int, int]]:
    out: list[list[int]] = []
    for a, b in sorted(ranges):
        if out and a <= out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return [(a, b) for a, b in out]


def missing(run: tuple[int, int], done) -> list[tuple[int, int]]:
    """The ranges of ``run`` not covered by the ranges ``done``."""
    out, at = [], run[0]
    for a, b in _coalesce(done):
        if a > at:
            out.append((at, min(a, run[1])))
        at = max(at, b)
    if at < run[1]:
        out.append((at, run[1]))
    return [(a, b) for a, b in out if a < b]


def range_text(ranges) -> str:
    """Deal ranges as the reports show them: ``index 0..999, 2,000..2,999``."""
    return "index " + ", ".join(f"{a:,}..{b - 1:,}" for a, b in ranges)


# ---------------------------------------------------------------------------------------------
# the job: what a run is, and the totals of one of its ranges

_PLAYERS: dict = {}   # per process: (table, options, bots, check_bots) -> players (a user's module is imported once)


@dataclass
class Job:
    """One run of a command over a range of deals, in plain values.

    One run of ``command`` over deals ``start .. stop - 1``, in plain values (picklable: a
    Dask worker rebuilds the rules and the bots from them).

    ``settings``: the command's own: ``duplicate`` (tournament); ``contracts``, ``bucket``,
    ``min_deals`` (study bidding)."""

    command: str
    table: str
    options: dict
    bots: str
    seed: int
    start: int
    stop: int
    settings: dict = field(default_factory=dict)
    #: the whole run this job is a part of (``--shard K/N``), default its own range
    whole: tuple | None = None
    #: the policy sets compiled with bounds checking (``--check-bots``): the same totals, so not
    #: part of the configuration
    check_bots: bool = False

    def __post_init__(self):
        if self.command not in COMMANDS:
            raise ShardError(f"unknown command {echo.shown(self.command)}: one of {', '.join(COMMANDS)}")

    @classmethod
    def of(cls, command: str, rules: Rules, seed: int, start: int, stop: int, bots: str, *, whole=None,
           check_bots: bool = False, players=None, **settings) -> Job:
        """The job of a command's arguments, checked.

        The job of a command's arguments, checked (bad bots raise ``ValueError``). ``players``:
        the seats already parsed from ``bots`` (``tarotsim.runs.players.parse_players``, with
        ``check_bots``), kept for this process: the text is parsed once per process (a Dask worker
        parses it again)."""
        job = cls(command, rules.table, rules.non_default_options(), str(bots), int(seed), int(start), int(stop),
                  settings, tuple(whole) if whole is not None else None, bool(check_bots))
        if players is not None:
            _PLAYERS[job._players_key()] = list(players)
        job.config()  # parses the bots: one error line now rather than on a worker
        return job

    def rules(self) -> Rules:
        return Rules.from_options(self.table, self.options)

    def _players_key(self) -> tuple:
        return (self.table, json.dumps(self.options, sort_keys=True), self.bots, self.check_bots)

    def players(self):
        """The seats' players (``tarotsim.runs.players.Player``), parsed once per process."""
        from .players import parse_players

        key = self._players_key()
        if key not in _PLAYERS:
            _PLAYERS[key] = parse_players(self.bots, self.rules(), self.check_bots)
        return _PLAYERS[key]

    def config(self) -> dict:
        """Everything that decides this run's totals and report.

        Everything that decides this run's totals and how its report reads (but not its deal
        range): two parts of one run have equal configurations."""
        from .players import players_label

        players = self.players()
        cfg = {"command": self.command, "tarotsim": __version__, "table": self.table, "options": self.options,
               "seed": self.seed, "bots": players_label(players),
               "seats": [{"label": p.label, "bot": p.name, "params": list(p.params)} for p in players]}
        if self.command == "tournament":
            cfg["duplicate"] = bool(self.settings.get("duplicate", True))
        if self.command == "study bidding":
            from . import study

            plan = study.plan(self.rules(), self.seed, 1, bots=self.players(),
                              contracts=self.settings.get("contracts"))
            cfg.update(contracts=list(plan.contracts), bucket=int(self.settings.get("bucket", study.DEFAULT_BUCKET)),
                       min_deals=int(self.settings.get("min_deals", study.DEFAULT_MIN_DEALS)),
                       label=plan.bots, current=plan.current, current_source=plan.current_source, shift=plan.shift)
        return cfg

    def key(self) -> str:
        """A short hash of the configuration: the prefix of this job's Dask task keys."""
        return hashlib.sha256(_canonical(self.config()).encode()).hexdigest()[:16]

    def task_deals(self) -> int:
        """Deals per piece of work (:data:`TASK_DEALS`; fewer when a slow bot plays)."""
        return SLOW_TASK_DEALS if slow(self.rules(), self.players()) else TASK_DEALS[self.command]

    def compute(self, a: int, b: int, threads: int = 1, progress=None):
        """The integer totals of deals ``a .. b - 1`` (the command's own type, see :func:`add`)."""
        rules, players = self.rules(), self.players()
        if self.command == "simulate":
            from .runner import Runner
            return Runner(rules, self.seed, players, threads).totals(a, b, progress)
        if self.command == "tournament":
            from . import tournament as tour
            return tour.accumulate(rules, self.seed, a, b, players, duplicate=self.settings.get("duplicate", True),
                                   threads=threads, progress=progress)
        from . import study
        t = study.run(rules, self.seed, b - a, start=a, bots=self.players(),
                      contracts=self.settings.get("contracts"), threads=threads, progress=progress)
        return (t.bins, t.oudlers, t.misc)

    def warm_up(self) -> None:
        """Load or compile the kernels this job runs.

        Load (or compile) the kernels this job runs, on one deal: done once per process
        before the timed work."""
        self.compute(self.start, self.start + 1)

    def compile_seconds(self) -> int | None:
        """About how long compiling this job's kernels takes, or None.

        About how many seconds numba takes to compile the kernels this job runs when its cache
        lacks them (a first run, or sources changed), else None (loaded; also for Python bots,
        whose deals the kernels do not play whole)."""
        from .._builds.runs import first_kernel

        from . import simulate as sim
        from .._kernels._cache import is_cached

        players = self.players()
        if not all(p.fast for p in players):
            return None
        rules = self.rules()
        kinds, params = sim.bot_arrays(rules, [p.engine_bot for p in players])
        kernel, seconds = first_kernel(kinds, params, {"simulate": "aggregate", "tournament": "facts"}.get(self.command,
                                                                                                  "study"),
                                       rules.to_vector())
        return None if is_cached([kernel]) else seconds


def slow(rules: Rules, players) -> bool:
    """Whether these seats play slowly: a Python bot (the slow path), a search (``pimc``) or table 2.

    Their pieces of work are cut shorter (:data:`SLOW_TASK_DEALS`), so that a piece still takes
    seconds, not minutes."""
    return any(not p.fast or p.name == "pimc" for p in players) or rules.table == "2"


def add(command: str, x, y):
    """The totals of two disjoint ranges of one run, added (a new value)."""
    if x is None:
        return y
    if command == "simulate":
        return x + y
    if command == "study bidding":
        return tuple(p + q for p, q in zip(x, y))
    from .tournament import TournamentTotals
    out = TournamentTotals.from_json(x.to_json())
    out.add(y)
    return out


def _totals_json(command: str, t):
    if command == "simulate":
        return [int(v) for v in t]
    if command == "study bidding":
        return [np.asarray(p).tolist() for p in t]
    return t.to_json()


def _totals_from_json(command: str, d):
    """Totals from a file, checked for their shape and type (``ValueError``, ``KeyError``, ``TypeError``)."""
    def ints(x, shape):
        a = np.asarray(x)
        if a.shape != shape or (a.size and a.dtype.kind != "i"):
            raise ValueError(f"totals of shape {shape} expected")
        return a.astype(np.int64)

    if command == "simulate":
        from .._kernels import layout as L
        return ints(d, (L.ACC_LEN,))
    if command == "study bidding":
        from .._kernels import study as K
        bins, oud, misc = d
        return (ints(bins, (K.N_CONTRACTS, K.N_BINS, K.N_FIELDS)), ints(oud, (K.N_CONTRACTS, 4, K.N_FIELDS)),
                ints(misc, (K.M_LEN,)))
    from .tournament import TournamentTotals
    return TournamentTotals.from_json(d)


def _deals_counted(command: str, t) -> int | None:
    """How many deals the totals say they hold (None when they do not say: the tournament)."""
    if command == "simulate":
        from .._kernels import layout as L
        return int(t[L.ACC_DEALS])
    if command == "study bidding":
        from .._kernels import study as K
        return int(t[2][K.M_DEALS])
    return None


# ---------------------------------------------------------------------------------------------
# saved runs

@dataclass
class Saved:
    """A run's totals so far, with its configuration.

    A run's totals over the deal ranges ``done`` of its whole range ``run``, with its
    configuration (:meth:`Job.config`), the seconds spent and the threads (or Dask worker
    threads) it ran on."""

    config: dict
    run: tuple
    done: list
    totals: object
    elapsed_s: float = 0.0
    threads: int = 1
    compile_s: float = 0.0   # numba compiling the kernels before the timed work (a cold cache)

    @property
    def command(self) -> str:
        return self.config["command"]

    @classmethod
    def empty(cls, job: Job) -> Saved:
        return cls(job.config(), job.whole or (job.start, job.stop), [], None)

    def add(self, a: int, b: int, totals) -> None:
        """Count the totals of deals ``a .. b - 1`` (not counted yet) in."""
        self.done = _coalesce(self.done + [(a, b)])
        self.totals = add(self.command, self.totals, totals)

    @property
    def deals(self) -> int:
        return sum(b - a for a, b in self.done)

    def to_json(self) -> dict:
        d = {"format": FORMAT, "config": self.config, "run": list(self.run), "done": [list(r) for r in self.done],
             "totals": None if self.totals is None else _totals_json(self.command, self.totals),
             "elapsed_s": float(self.elapsed_s), "threads": int(self.threads), "compile_s": float(self.compile_s)}
        d["checksum"] = _checksum(d)
        return d


def _canonical(d) -> str:
    return json.dumps(d, sort_keys=True, separators=(",", ":"), allow_nan=False)


def _checksum(d: dict) -> str:
    return "sha256:" + hashlib.sha256(_canonical({k: v for k, v in d.items() if k != "checksum"}).encode()).hexdigest()


def dumps(saved: Saved) -> str:
    """The text of a saved-run file (one JSON object, :data:`FORMAT`)."""
    return json.dumps(saved.to_json(), sort_keys=True) + "\n"


def write(saved: Saved, path: str, flag: str = "--save") -> None:
    """Write a saved run to ``path`` whole or not at all (:func:`tarotsim.outputs.atomic_write_text`)."""
    from ..outputs import atomic_write_text
    atomic_write_text(path, [dumps(saved)], flag)


def loads(text: str, name: str = "saved run") -> Saved:
    """Read a saved run, checking its format, checksum, shape and consistency (:class:`ShardError`)."""
    try:
        d = json_input.loads(text, "a tarotsim saved run")
    except json_input.JSONInputError as e:
        if str(e).startswith("malformed JSON"):
            raise ShardError(f"{name}: not a complete tarotsim saved run (not JSON: truncated?)") from None
        raise ShardError(f"{name}: {e}") from None
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        got = d.get("format") if isinstance(d, dict) else None
        raise ShardError(f"{name}: not a tarotsim saved run (format {echo.shown(got)}, expected {echo.shown(FORMAT)})")
    if d.get("checksum") != _checksum(d):
        raise ShardError(f"{name}: its checksum does not match its content: the file was edited or damaged")
    try:
        cfg = d["config"]
        command = cfg["command"]
        if command not in COMMANDS:
            raise ValueError(command)
        run = tuple(int(x) for x in d["run"])
        done = [tuple(int(x) for x in r) for r in d["done"]]
        if len(run) != 2 or run[0] > run[1] or any(len(r) != 2 or not run[0] <= r[0] < r[1] <= run[1] for r in done):
            raise ValueError("ranges")
        if _coalesce(done) != done:
            raise ValueError("ranges")
        totals = None if d["totals"] is None else _totals_from_json(command, d["totals"])
        if (totals is None) != (not done):
            raise ValueError("totals")
        saved = Saved(cfg, run, done, totals, float(d["elapsed_s"]), int(d["threads"]), float(d.get("compile_s", 0.0)))
    except (KeyError, TypeError, ValueError, IndexError):
        raise ShardError(f"{name}: a damaged tarotsim saved run (its fields are not what {FORMAT} holds)") from None
    counted = _deals_counted(command, totals) if totals is not None else 0
    if counted is not None and counted != saved.deals:
        raise ShardError(f"{name}: its totals count {counted:,} deals but its ranges hold {saved.deals:,}")
    return saved


def load(path: str) -> Saved:
    """Load a saved run from a file.

    :func:`loads` of the file ``path`` (an unreadable file, one too large to be a saved run or
    not UTF-8 is a :class:`ShardError`)."""
    try:
        text = json_input.read_text(path, "a tarotsim saved run")
    except OSError as e:
        raise ShardError(f"cannot read {path}: {e.strerror or e}") from None
    except json_input.JSONInputError as e:
        raise ShardError(f"{path}: {e}") from None
    return loads(text, path)


def _difference(a: dict, b: dict) -> str:
    """The first setting in which two configurations differ, as ``name X vs Y``."""
    for k in list(a) + [k for k in b if k not in a]:
        if a.get(k) != b.get(k):
            return f"{k} {_setting(a.get(k))} vs {_setting(b.get(k))}"
    return ""


def _setting(v) -> str:
    """A setting of a saved run's configuration as a message shows it: its JSON text, cut short."""
    return echo.cut(json.dumps(v) if not isinstance(v, str) else v)


def merge(parts: list[tuple[str, Saved]]) -> Saved:
    """One saved run from the parts ``[(name, saved), ...]`` of one run.

    Refused (:class:`ShardError`, one line): configurations that disagree (the first differing
    setting is named), a deal in two parts (both parts and the range are named), and deals
    missing between the first and the last deal of the runs the parts belong to (named)."""
    if not parts:
        raise ShardError("no saved run to merge")
    name0, first = parts[0]
    for name, p in parts[1:]:
        if p.config != first.config:
            raise ShardError(f"{name} and {name0} are not parts of one run: {_difference(first.config, p.config)}")
    held = sorted((a, b, name) for name, p in parts for a, b in p.done)
    for (_, b1, n1), (a2, b2, n2) in zip(held, held[1:]):
        if a2 < b1:
            if n1 == n2:
                raise ShardError(f"{n1} is given twice: each deal must be in one part only")
            raise ShardError(f"{n1} and {n2} both hold deals {range_text([(a2, min(b1, b2))])}: each deal must be "
                             f"in one part only")
    run = (min(p.run[0] for _, p in parts), max(p.run[1] for _, p in parts))
    gaps = missing(run, [(a, b) for a, b, _ in held])
    if gaps:
        n = sum(b - a for a, b in gaps)
        raise ShardError(f"{n:,} deal(s) of the run ({range_text([run])}) are in no part: missing "
                         f"{range_text(gaps)}")
    out = Saved(first.config, run, [], None, 0.0, 1)
    for _, p in parts:
        for a, b in p.done:
            out.done.append((a, b))
        out.totals = add(out.command, out.totals, p.totals) if p.totals is not None else out.totals
        out.elapsed_s += p.elapsed_s
        out.compile_s += p.compile_s
        out.threads = max(out.threads, p.threads)
    out.done = _coalesce(out.done)
    return out


# ---------------------------------------------------------------------------------------------
# running, with a checkpoint

def resume(job: Job, path: str) -> Saved:
    """The run recorded in a checkpoint.

    The run recorded in checkpoint ``path`` (an empty :class:`Saved` when the file does not
    exist or is empty); refused when the file holds another run or is no saved run."""
    if not os.path.exists(path) or (os.path.isfile(path) and os.path.getsize(path) == 0):
        return Saved.empty(job)
    saved = load(path)
    cfg = job.config()
    run = job.whole or (job.start, job.stop)
    if saved.config != cfg or tuple(saved.run) != run or any(a < job.start or b > job.stop for a, b in saved.done):
        why = _difference(saved.config, cfg) or f"deals {range_text(saved.done or [saved.run])} vs " \
                                                 f"{range_text([(job.start, job.stop)])}"
        raise ShardError(f"--checkpoint {path} records another run ({why}): name another file, or remove it "
                         f"to start again")
    return saved


def execute(job: Job, *, threads: int = 1, progress=None, checkpoint: str | None = None, executor=None,
            log=None, notice=None) -> Saved:
    """Run the deals of ``job`` not yet done and return the whole run's :class:`Saved`.

    ``checkpoint``: a file that records every finished piece as it arrives (at most every
    :data:`CHECKPOINT_EVERY` seconds, and when the run ends or is interrupted); the run resumes
    from it, so no deal is counted twice or lost. ``executor(job, ranges, on_done, on_start)``:
    runs the ranges elsewhere (Dask, :func:`tarotsim.runs.distributed.executor`), calling
    ``on_start()`` when the timed work starts (the workers ready) and ``on_done(a, b, totals)``
    for each finished range, and returns the threads it ran on; without it the ranges
    run here on ``threads`` threads. ``progress(n)`` is called with every ``n`` deals finished;
    ``log(line)`` gets a line when a checkpoint is resumed, ``notice(line)`` one before numba
    compiles the kernels (a cold cache, :func:`warm_up`)."""
    saved = resume(job, checkpoint) if checkpoint else Saved.empty(job)
    todo = missing((job.start, job.stop), saved.done)
    if checkpoint and saved.done and log is not None:
        log(f"--checkpoint {checkpoint}: resuming, {saved.deals:,} deal(s) done, "
            f"{sum(b - a for a, b in todo):,} to go")
    last_write = [time.monotonic()]

    def flush(force=False):
        if checkpoint and (force or time.monotonic() - last_write[0] >= CHECKPOINT_EVERY):
            write(saved, checkpoint, "--checkpoint")
            last_write[0] = time.monotonic()

    base = saved.elapsed_s
    t0 = [time.perf_counter()]

    def on_start():
        t0[0] = time.perf_counter()

    def on_done(a, b, totals):
        # only ranges of this run not counted yet: a range would never be counted twice
        if missing((a, b), saved.done) != [(a, b)] or not job.start <= a < b <= job.stop:
            raise ShardError(f"deals {range_text([(a, b)])} came back twice or from another run")
        saved.add(a, b, totals)
        saved.elapsed_s = base + time.perf_counter() - t0[0]
        flush()

    try:
        if executor is not None:
            saved.threads = executor(job, todo, on_done, on_start) or 1
        else:
            if todo:  # the kernels loaded (or compiled, and told) before the clock starts
                saved.compile_s += warm_up(job, notice)
            on_start()
            saved.threads = max(1, int(threads))
            work = pieces(todo, job.task_deals()) if checkpoint else todo
            for a, b in work:
                on_done(a, b, job.compute(a, b, threads=threads, progress=progress))
        saved.elapsed_s = base + time.perf_counter() - t0[0]
    except (KeyboardInterrupt, SystemExit) as e:  # Ctrl-C, SIGTERM (outputs.Terminated): say what was kept
        if checkpoint:
            e.add_note(checkpoint_kept(checkpoint, saved))
        raise
    finally:
        if checkpoint and (saved.done or os.path.exists(checkpoint)):
            flush(force=True)
    return saved


def warm_up(job: Job, log=None) -> float:
    """Load or compile the kernels a job runs, and return the seconds spent.

    Load the kernels ``job`` runs from numba's cache, or compile them: then ``log`` is told
    first, with about how long it takes (``tarotsim._builds.runs.COMPILE_SECONDS``), and the seconds spent
    are returned (0 when loaded: the time of a report is the deals' alone)."""
    about = job.compile_seconds()
    if about is None:
        job.warm_up()
        return 0.0
    if log is not None:
        what = "the bidding study of " if job.command == "study bidding" else ""
        from .._kernels._cache import compile_notice
        from .players import players_label
        log(compile_notice(what + players_label(job.players()), about))
    t0 = time.perf_counter()
    job.warm_up()
    return time.perf_counter() - t0


def checkpoint_kept(path: str, saved: Saved) -> str:
    """What an interrupted run with a checkpoint kept, in one clause for the user."""
    total = saved.run[1] - saved.run[0]
    if not saved.done:
        return f"--checkpoint {path} holds no finished deal yet: the same command starts the run again"
    return (f"--checkpoint {path} holds {saved.deals:,} of the run's {total:,} deals: the same command resumes "
            f"from there")


# ---------------------------------------------------------------------------------------------
# reports

def report(saved: Saved):
    """The report of a single run over the saved deals.

    What a single run over ``saved``'s deals prints, built by the same functions: a
    :class:`tarotsim.runs.simulate.Summary` (simulate), a :class:`tarotsim.runs.tournament.TournamentResult`
    (tournament) or the :func:`tarotsim.runs.study.report` dict (study bidding). The deals must be one
    range (:func:`merge` checks it)."""
    if len(saved.done) != 1:
        gaps = missing(saved.run, saved.done)
        raise ShardError(f"the run is not complete: missing {range_text(gaps)}")
    (start, stop), = saved.done
    cfg = saved.config
    rules = Rules.from_options(cfg["table"], cfg["options"])
    if saved.command == "simulate":
        from . import simulate as sim
        assert isinstance(saved.totals, np.ndarray)  # load() and execute() give simulate's accumulator
        sm = sim.summary_from_totals(saved.totals, rules, cfg["seed"], start, stop)
        sm.bots = cfg["bots"]
        sm.threads, sm.elapsed_s, sm.compile_s = saved.threads, saved.elapsed_s, saved.compile_s
        sm.deals_per_s = (stop - start) / saved.elapsed_s if saved.elapsed_s > 0 else 0.0
        return sm
    if saved.command == "tournament":
        from . import tournament as tour
        from .players import Player
        seats = [Player(s["label"], s["bot"], tuple(s["params"])) for s in cfg["seats"]]
        assert isinstance(saved.totals, tour.TournamentTotals)
        res = tour.result(rules, cfg["seed"], start, stop - start, seats, cfg["duplicate"], saved.totals,
                          saved.elapsed_s)
        res.compile_s = saved.compile_s
        return res
    from . import study
    assert isinstance(saved.totals, tuple)  # the study's three accumulators
    bins, oud, misc = saved.totals
    t = study.StudyTotals(rules.table, cfg["seed"], start, stop - start, cfg["label"], rules.non_default_options(),
                          tuple(c for c in CONTRACTS if c in cfg["contracts"]), bins, oud, misc, cfg["current"],
                          cfg["current_source"], cfg["shift"], saved.threads, study.DEFAULT_CHUNK, saved.elapsed_s,
                          saved.compile_s)
    return study.report(t, bucket=cfg["bucket"], min_deals=cfg["min_deals"])


__all__ = ["CHECKPOINT_EVERY", "COMMANDS", "FORMAT", "Job", "Saved", "ShardError", "TASK_DEALS", "add", "dumps",
           "execute", "load", "loads", "merge", "missing", "pieces", "range_text", "report", "resume",
           "slow", "split_shard", "write"]
