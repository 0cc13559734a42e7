"""A league of bots: ``tarotsim league``."""

from __future__ import annotations

import json
import os
import sys

import click

from ..league.pool import EXAMPLE
from ..league.ratings import REPLICATES
from ..rng import MAX_CLI_SEED
from ..rules import Rules, RulesError
from .app import cli
from .common import SIM_TABLES, BadInput, echo_written, note, one_line, over_the_bar, progress, worker_count

_HELP = """Rate a pool of bots in points a deal, in a database a stopped run resumes.

Every entrant meets every other in duplicate games: each deal of a game is played in every
seat rotation, so the luck of the cards cancels out. With a filler, each pair plays one game,
the filler in the other seats (the pair's duplicate tournament; a new entrant plays one game per
entrant); without one, every combination of entrants fills the table (each measured against the
pool itself, at the cost of many more games). The ratings are one least-squares fit of every
seat's score on the strengths of the bots at the table, anchored to one entrant (0), with 95%
bootstrap intervals over deals; the same for any --threads, workers or order of play. Each pair's
difference is shown beside the pair's own duplicate comparison, and each entrant's time per
decision (one thread, timed once).

Every game's per-deal scores go into --db (SQLite) as they are played: the same command run again
resumes where a run stopped (SIGTERM, Ctrl-C, kill -9), a new entrant plays only its own games,
and an entrant whose bot text changed is a new entrant. --report prints the report from the
database alone. The pool comes from POOL.toml, or from the options (--bots, --names, --filler
...), which also override the file's values.

\b
A pool file:
""" + "".join(f"  {line}\n" for line in EXAMPLE.splitlines()) + """
\b
Examples:
  tarotsim league pool.toml --db league.db
  tarotsim league --db league.db --bots heuristic,greedy,random --filler heuristic \\
                  --deals 500 --seed 1
  tarotsim league --db league.db --report --html league.html

The how-to page: docs/how-to/league.md.
"""


@cli.command(help=_HELP)
@click.argument("pool_file", metavar="[POOL.toml]", required=False, type=click.Path(dir_okay=False))
@click.option("--db", "db_path", required=True, metavar="FILE.db",
              help="The league's database (SQLite): created by the first run, resumed and extended by the next.")
@click.option("--report", "report_only", is_flag=True, help="Print the report of --db alone: play nothing.")
@click.option("--table", type=click.Choice(SIM_TABLES), default=None, help="Table type (default: the pool's, else 4).")
@click.option("--option", "options_", multiple=True, metavar="NAME=VALUE",
              help="A variant option (see `tarotsim options`); repeatable, added to the pool's.")
@click.option("--seed", type=click.IntRange(0, MAX_CLI_SEED), default=None,
              help="Seed (default: the pool's, else the database's, else drawn at random and kept).")
@click.option("--deals", type=click.IntRange(min=2), default=None,
              help="Deals per game, each played in every seat rotation (default: the pool's, else 1000).")
@click.option("--bots", default=None, metavar="BOT[,BOT...]",
              help="The entrants without a pool file: one bot each, of the --bots grammar (`tarotsim bots`).")
@click.option("--names", default=None, metavar="NAME[,NAME...]",
              help="The entrants' names, in the order of --bots (default: their bots' texts).")
@click.option("--filler", default=None, metavar="BOT",
              help="The bot of every seat but the pair's (default: the pool's, else none: every combination of "
                   "entrants fills the table).")
@click.option("--anchor", default=None, metavar="NAME", help="The entrant rated 0 (default: the first entrant).")
@click.option("--threads", type=click.IntRange(min=1), default=None,
              help="Worker threads (default: every core; the results do not depend on it).")
@click.option("--scheduler", metavar="tcp://HOST:PORT",
              help="Play the games on the Dask cluster of this scheduler (needs the dask extra).")
@click.option("--dask-local", type=click.IntRange(min=1), metavar="N",
              help="Play the games on a local Dask cluster of N worker processes (needs the dask extra).")
@click.option("--bootstrap", type=click.IntRange(0, 100_000), default=REPLICATES, show_default=True,
              help="Bootstrap fits of the intervals (0: no intervals).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as one JSON object.")
@click.option("--csv", "csv_path", metavar="FILE.csv", help="Also write the leaderboard as CSV (- : standard output).")
@click.option("--html", "html_path", metavar="FILE.html",
              help="Also write the report as one self-contained HTML page, with a plot of rating against time "
                   "per decision.")
def league(pool_file, db_path, report_only, table, options_, seed, deals, bots, names, filler, anchor, threads,
           scheduler, dask_local, bootstrap, as_json, csv_path, html_path):
    from ..league import report
    from ..league.pool import PoolError
    from ..league.store import Store, StoreError
    from ..outputs import open_outputs, plan_all

    given = {"--table": table, "--option": options_ or None, "--seed": seed, "--deals": deals, "--bots": bots,
             "--names": names, "--filler": filler, "--anchor": anchor, "--threads": threads,
             "--scheduler": scheduler, "--dask-local": dask_local}
    if db_path == "-":
        raise BadInput("--db: a file is needed, not standard output")
    if report_only:
        extra = ([pool_file] if pool_file else []) + [flag for flag, v in given.items() if v is not None]
        if extra:
            raise BadInput(f"--report reads the database alone: leave out {', '.join(extra)}")
    elif pool_file and (bots or names):
        raise BadInput(f"--bots and --names give the entrants without a pool file: name them in {pool_file}'s "
                       f"[entrants]")
    if scheduler is not None and dask_local is not None:
        raise BadInput("--scheduler and --dask-local: give one of them")
    outputs = {"--csv": csv_path, "--html": html_path}
    if report_only:  # the database is read, maybe read-only: no output on it
        for t in plan_all(outputs):
            if t.kind == "file" and os.path.realpath(db_path) == t.path:
                raise BadInput(f"--db and {t.flag} name the same file {db_path}")
    else:
        plan_all({"--db": db_path, **outputs})
    to_stderr = "-" in outputs.values()  # the report must not mix with a file on standard output
    try:
        if report_only:
            with Store.open(db_path) as store:
                rep = report.build(store, bootstrap)
        else:
            rep = _play(pool_file, db_path, given, bootstrap)
    except (PoolError, StoreError) as e:
        raise BadInput(str(e)) from None
    with open_outputs(outputs) as outs:
        if "--csv" in outs:
            outs["--csv"].fh.write(rep.csv())
        if "--html" in outs:
            outs["--html"].fh.write(rep.html())
    click.echo(json.dumps(rep.to_dict()) if as_json else rep.text(), err=to_stderr)
    echo_written(("leaderboard", csv_path), ("report page", html_path))


#: The pool's values the options give, by option.
_OVERRIDES = {"--table": "table", "--seed": "seed", "--deals": "deals", "--filler": "filler", "--anchor": "anchor"}


def _play(pool_file: str | None, db_path: str, given: dict, bootstrap: int):
    """Check the pool, play what the database lacks of its games, and give the report."""
    from ..league import pool as pools
    from ..league import report, schedule
    from ..league.store import Store

    overrides = {key: (given[flag], flag) for flag, key in _OVERRIDES.items() if given[flag] is not None}
    if given["--option"]:
        try:
            overrides["options"] = (dict(Rules.parse_option(t) for t in given["--option"]), "--option")
        except RulesError as e:
            raise BadInput(f"--option: {e}") from None
    if pool_file:
        pool = pools.load(pool_file, overrides)
    else:
        pool = pools.from_command_line(overrides, given["--bots"], given["--names"])
    threads = worker_count(given["--threads"], "--threads")
    scheduler, dask_local = given["--scheduler"], given["--dask-local"]
    with Store.open(db_path, create=True) as store:
        work = schedule.plan(store, pool)
        note(work.summary())
        try:
            with progress(work.to_play, "league") as bar, one_line():
                executor = None
                if scheduler is not None or dask_local is not None:
                    from ..runs import distributed
                    executor = distributed.executor(scheduler, dask_local, progress=bar.update,
                                                    log=distributed.stderr_log, progress_lines=not sys.stderr.isatty())
                schedule.run(store, work, threads=threads, executor=executor, progress=bar.update,
                             notice=over_the_bar if sys.stderr.isatty() else None)
            return report.build(store, bootstrap)
        except (KeyboardInterrupt, SystemExit) as e:  # Ctrl-C, SIGTERM: the line says what the database holds
            if not getattr(e, "__notes__", None):
                e.add_note(schedule.kept(store, work))
            raise
