"""What the commands share: the options of the runs, the parsing of tables, names and bots, progress."""

from __future__ import annotations

import contextlib
import sys

import click

from .. import echo
from ..rng import MAX_CLI_SEED, check_run
from ..rules import KERNEL_TABLES, TABLES, Rules
from ..runs.players import Player, parse_players
from ..scoring import ScoringError, check_names, seat_of


class BadInput(click.UsageError):
    """Bad input from the user: one line, exit code 2."""


def rules_of(table: str, options: tuple[str, ...], extra: dict | None = None) -> Rules:
    opts = dict(extra or {})
    for text in options:
        name, value = Rules.parse_option(text)
        opts[name] = value
    return Rules.from_options(table, opts)


def seat_names(text: str | None, rules: Rules, flag: str) -> list[str]:
    if not text:
        return [f"P{i + 1}" for i in range(rules.n_seats)]
    names = [n.strip() for n in text.split(",")]
    if any(not n for n in names):
        raise BadInput(f"{flag}: empty player name in {echo.shown(text)}")
    if len(names) != rules.n_seats:
        raise BadInput(f"{flag}: table {rules.table} seats {rules.n_seats} players, got {len(names)}")
    try:  # also refuses names that differ only in case, which --taker etc. could not tell apart
        return check_names(names)
    except ScoringError as e:
        raise BadInput(f"{flag}: {e}") from None


def seat_named(name: str, names: list[str], what: str) -> int:
    try:
        return seat_of(name, names, what)
    except ScoringError as e:
        raise BadInput(str(e)) from None


SIM_TABLES = KERNEL_TABLES  # the tables the kernels play


#: `play` seats a person at every table (table 2: both players' piles drawn at the prompt, R-VAR-TWO)
PLAY_TABLES = TABLES


def players_of(text: str, rules: Rules, check_bots: bool = False) -> list[Player]:
    """``--bots`` -> one Player per seat (:func:`tarotsim.runs.players.parse_players`), bad text as one line."""
    try:
        return parse_players(text, rules, check_bots)
    except ValueError as e:  # PlayersError, BotError, BotLoadError
        raise BadInput(str(e)) from None


def note(line: str) -> None:
    """A line for the user on stderr (stdout holds the report)."""
    click.echo(f"tarotsim: {line}", err=True)


def over_the_bar(line: str) -> None:
    """Write a line to stderr above the progress bar.

    A line for the user on a terminal whose progress bar may be drawn already: the bar's line
    is cleared first, and the bar is drawn again below at its next step."""
    click.echo(f"\r\x1b[Ktarotsim: {line}", err=True)


def worker_count(requested: int | None, flag: str, work: int | None = None, unit: str = "deal(s)",
            quiet: bool = False) -> int:
    """The number of workers to use, bounded by the machine and the work.

    ``--threads`` and the like: at most what the machine and the work can use (one line on
    stderr when a request is lowered, unless ``quiet``), an absurd request as one line, exit 2
    (:func:`tarotsim.parallel.bounded_workers`)."""
    from ..parallel import WorkersError, bounded_workers

    try:
        return bounded_workers(requested, flag, work=work, unit=unit, log=None if quiet else note)
    except WorkersError as e:
        raise BadInput(str(e)) from None


def run_seed(seed: int | None) -> int:
    """The seed to use: the one given, checked, or one drawn at random.

    The seed given (checked by the library's rule, :func:`tarotsim.rng.check_seed`), or one
    drawn at random (and reported by the command)."""
    from ..rng import check_seed

    if seed is None:
        import secrets
        return secrets.randbelow(2**32)
    return check_seed(seed)


#: What --bots takes, the same for every command (the grammar: ``bots.split_bots``).
BOTS_HELP = ("One bot for every seat, or one per seat separated by commas: a registered bot with its parameters "
             "(heuristic:garde=56; `tarotsim bots` lists them), a policy set or a Python bot (module:NAME). "
             "random, uniform over the legal choices, is a baseline to compare with.")


def run_options(*, tables=SIM_TABLES, bots: str | None = "heuristic", bots_help: str = BOTS_HELP,
                seed_help: str = "Seed (default: drawn at random, and reported).",
                json_help: str | None = "Print one JSON object."):
    """Decorator adding the options shared by every command that plays deals.

    The options of every command that plays deals, the same everywhere (a decorator):
    ``--table`` (one of ``tables``, default 4), ``--bots`` (default ``bots``, None: required),
    ``--option`` (repeatable), ``--seed`` (0..2^63-1, drawn and reported when not given) and
    ``--json`` (``json_help``; None: the command has none)."""
    def add(f):
        if json_help is not None:
            f = click.option("--json", "as_json", is_flag=True, help=json_help)(f)
        f = click.option("--seed", type=click.IntRange(0, MAX_CLI_SEED), help=seed_help)(f)
        f = click.option("--option", "options_", multiple=True, metavar="NAME=VALUE",
                         help="A variant option (see `tarotsim options`); repeatable.")(f)
        f = click.option("--bots", default=bots, required=bots is None, show_default=bots is not None,
                         metavar="BOT[,BOT...]", help=bots_help)(f)
        return click.option("--table", type=click.Choice(tables), default="4", show_default=True,
                            help="Table type.")(f)
    return add


def check_bots_option(f):
    return click.option("--check-bots", "check_bots", is_flag=True,
                        help="Compile your policy sets (module:POLICY) with numba's bounds checking: an index "
                             "out of an array's bounds stops the run with one line naming the bot, instead of "
                             "a crash or silently wrong deals. Slower; for finding bugs.")(f)


def scale_options(f):
    """Decorator adding the options of a run that may be split.

    Deal range, saved runs, checkpoint and Dask: the options of a run that may be split
    (simulate, tournament, study bidding; the work is in tarotsim.runs.shards and tarotsim.runs.distributed)."""
    f = click.option("--dask-local", type=click.IntRange(min=1), metavar="N",
                     help="Run on a local Dask cluster of N worker processes, at most one per core and per task "
                          "(needs the dask extra).")(f)
    f = click.option("--scheduler", metavar="tcp://HOST:PORT",
                     help="Run on the Dask cluster of this scheduler (needs the dask extra).")(f)
    f = click.option("--checkpoint", "checkpoint_path", metavar="FILE",
                     help="Record the finished deal ranges in FILE as they arrive; the same command run "
                          "again resumes from it, counting each deal once.")(f)
    f = click.option("--save", "save_path", metavar="FILE.json",
                     help="Also write the run's integer totals with its configuration, for `tarotsim merge`.")(f)
    f = click.option("--shard", metavar="K/N",
                     help="Play only shard K of N (1..N) of the deals given by --start and --deals.")(f)
    return f


def deal_range(start: int, deals: int, shard: str | None, what: str = "--deals") -> tuple[int, int, tuple]:
    """``(a, b, whole)``: the deals to play (shard K/N of the run, or all of it) and the whole run."""
    from ..runs.shards import ShardError, split_shard

    whole = check_run(start, deals, what)  # start + deals past 2**63: one line before any deal
    if shard is None:
        return whole[0], whole[1], whole
    try:
        a, b = split_shard(shard, start, deals)
    except ShardError as e:
        raise BadInput(str(e)) from None
    return a, b, whole


@contextlib.contextmanager
def one_line():
    """A saved run, a merge, a checkpoint or Dask that cannot be used: one line, exit code 2."""
    from ..parallel import WorkersError
    from ..runs.shards import ShardError

    try:
        yield
    except (ShardError, WorkersError) as e:
        raise BadInput(str(e)) from None


def execute(job, *, threads, bar, checkpoint_path, scheduler, dask_local):
    """Run ``job`` here or on Dask, with its checkpoint: the whole run's tarotsim.runs.shards.Saved."""
    from ..runs import shards

    executor = None
    if scheduler is not None and dask_local is not None:
        raise BadInput("--scheduler and --dask-local: give one of them")
    with one_line():
        if scheduler is not None or dask_local is not None:
            from ..runs import distributed
            executor = distributed.executor(scheduler, dask_local, progress=bar.update, log=distributed.stderr_log,
                                            progress_lines=not sys.stderr.isatty())
        # the compile notice, like the progress bar, is for a terminal (logs and pipes stay clean);
        # the report's header says the seconds spent compiling either way
        return shards.execute(job, threads=threads, progress=bar.update, checkpoint=checkpoint_path,
                              executor=executor, log=note, notice=over_the_bar if sys.stderr.isatty() else None)


def check_run_outputs(outputs: dict, checkpoint_path: str | None) -> None:
    """Every output and the checkpoint checked together before the first deal (no two on one file)."""
    from ..outputs import plan_all

    if checkpoint_path is not None:
        if checkpoint_path == "-":
            raise BadInput("--checkpoint: a file is needed, not standard output")
        plan_all({**outputs, "--checkpoint": checkpoint_path})


def echo_written(*what_path) -> None:
    """``saved run written to FILE`` lines, on stderr: stdout holds the report, the same as `merge`'s."""
    for what, path in what_path:
        if path and path != "-":
            click.echo(f"{what} written to {path}", err=True)


def progress(length: int, label: str, show: bool = True):
    """A progress bar on stderr, only when stderr is a terminal (logs and pipes stay clean)."""
    if show and sys.stderr.isatty():
        return click.progressbar(length=length, label=label, file=sys.stderr, show_eta=True)
    return _NoBar()


class _NoBar:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def update(self, n):
        pass


def file_label(file) -> str:
    """How messages name a records file: its path, ``standard input``, or an evening (:func:`records_of`)."""
    return "standard input" if file == "-" else str(getattr(file, "name", file))


def evening_options(f):
    """Decorator adding ``--db FILE --evening ID``: the records of an evening played in the browser."""
    f = click.option("--evening", type=click.IntRange(min=1), metavar="ID",
                     help="Read the records of this evening of the database instead of FILE (`tarotsim serve`; "
                          "`tarotsim evenings` lists them).")(f)
    return click.option("--db", "db_path", metavar="FILE",
                        help="The evenings database of --evening (default: the user's, as `tarotsim serve`).")(f)


def records_of(file: str | None, db_path: str | None, evening: int | None, required: bool = True):
    """The records to read: FILE, or the evening of ``--db --evening`` as a JSON Lines stream named after it.

    One line (:class:`BadInput`) for FILE and an evening both, neither (when ``required``), or an
    evening the database does not hold."""
    import io
    from pathlib import Path

    if evening is None:
        if db_path is not None:
            raise BadInput("--db FILE: give --evening ID too (`tarotsim evenings --db FILE` lists them)")
        if file is None and required:
            raise BadInput("Missing argument 'FILE' (or --evening ID, an evening of `tarotsim serve`)")
        return file
    if file is not None:
        raise BadInput(f"FILE and --evening: give one of them, not both ({file})")
    from ..web.store import Store, StoreError, default_path

    path = Path(db_path) if db_path is not None else default_path()
    try:
        store = Store(path, create=False)
    except StoreError as e:
        raise BadInput(f"--db: {e}") from None
    try:
        data = store.jsonl(evening)
    except StoreError as e:
        raise BadInput(f"--evening: {e}") from None
    finally:
        store.close()
    stream = io.BytesIO(data)
    stream.name = f"{path.name}, evening {evening}"  # type: ignore[misc]
    return stream


def reading(items, file: str):
    """``items`` as they come; a failure to open or read ``file`` becomes one line (BadInput)."""
    while True:
        try:
            item = next(items)
        except StopIteration:
            return
        except OSError as e:
            raise BadInput(f"cannot read {file_label(file)}: {e.strerror or e}") from None
        yield item


def why(e) -> str:
    """A RecordError without its line number (the replay output puts the line first)."""
    text = ": ".join(x for x in (e.action, e.message) if x)
    return text + (f" ({e.rule_id})" if e.rule_id else "")
