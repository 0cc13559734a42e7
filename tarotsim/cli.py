"""The ``tarotsim`` command line: score a deal, score an evening, simulate and show deals.

Every bad input ends with one line on stderr and exit code 2, never a traceback
(:func:`main` turns click's and the library's errors into that line).
"""

from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path

import click

from .audit import audit_sheet, format_audit
from .cards import CardError
from .outputs import OutputError, Terminated, WriteFailed
from .players import Player, kernel_path, parse_players
from .runner import Runner
from .reference.errors import RuleViolation
from .rng import MAX_CLI_SEED, MAX_INDEX, check_run
from .rules import CONTRACTS, KERNEL_TABLES, N_TRICKS, OPTION_SPECS, TABLES, Rules, RulesError
from .scoring import (CHELEM_OUTCOMES, DealFacts, ScoringError, check_names, format_breakdown, parse_misere,
                      parse_points, parse_poignee, score, seat_of)
from .sheet import SheetError, players_in_header, read_sheet, read_sheet_bytes, score_sheet, table_of

CHELEM_CHOICES = [k for k in CHELEM_OUTCOMES if k]


class BadInput(click.UsageError):
    """Bad input from the user: one line, exit code 2."""


def _rules(table: str, options: tuple[str, ...], extra: dict | None = None) -> Rules:
    opts = dict(extra or {})
    for text in options:
        name, value = Rules.parse_option(text)
        opts[name] = value
    return Rules.from_options(table, opts)


def _names(text: str | None, rules: Rules, flag: str) -> list[str]:
    if not text:
        return [f"P{i + 1}" for i in range(rules.n_seats)]
    names = [n.strip() for n in text.split(",")]
    if any(not n for n in names):
        raise BadInput(f"{flag}: empty player name in {text!r}")
    if len(names) != rules.n_seats:
        raise BadInput(f"{flag}: table {rules.table} seats {rules.n_seats} players, got {len(names)}")
    try:  # also refuses names that differ only in case, which --taker etc. could not tell apart
        return check_names(names)
    except ScoringError as e:
        raise BadInput(f"{flag}: {e}") from None


def _seat(name: str, names: list[str], what: str) -> int:
    try:
        return seat_of(name, names, what)
    except ScoringError as e:
        raise BadInput(str(e)) from None


def _points(points, defence_points) -> int:
    if (points is None) == (defence_points is None):
        raise BadInput("give the attack's points or the defence's points, exactly one of them")
    if points is not None:
        return parse_points(points)
    return 182 - parse_points(defence_points)


# ---------------------------------------------------------------------------------------------


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(package_name="tarotsim")
def cli():
    """French Tarot simulator with automatic counting.

    \b
    Score one deal:        tarotsim score --contract garde --oudlers 2 --points 45
    Score an evening:      tarotsim sheet evening.csv --players Emma,Nico,Pat,Lea
    Play many deals:       tarotsim simulate --deals 1000000 --seed 1
    Compare bots:          tarotsim tournament --bots heuristic,greedy,greedy,greedy
    Play yourself:         tarotsim play --table 4 --bots pimc
    Check a score sheet:   tarotsim sheet written.csv --check

    Rules follow the FFT rulebook; their ids (such as R-COUNT-4) are quoted in the output and
    explained in docs/rules.md (RULES §14: the variants, set with --option NAME=VALUE, see
    `tarotsim options`). Deal records (DESIGN §6) and the facts table: docs/records.md.
    """


@cli.command()
def options():
    """List the variant options (RULES §14, docs/rules.md) with their default and allowed values."""
    rows = [("option", "default", "values", "what it sets")]
    for name, (default, allowed, text) in OPTION_SPECS.items():
        if allowed is int:
            values = "a whole number"
        elif allowed == "game_end":
            values = "deals, or a points target N"
        else:
            values = " | ".join(str(a).lower() for a in allowed)
        rows.append((name, str(default).lower(), values, text))
    widths = [max(len(r[i]) for r in rows) for i in range(3)]  # columns as wide as their widest cell
    for r in rows:
        click.echo("  ".join(cell.ljust(w) for cell, w in zip(r, widths)) + "  " + r[3])


@cli.command(name="score")
@click.option("--table", type=click.Choice(TABLES), default="4", show_default=True, help="Table type.")
@click.option("--contract", required=True, type=click.Choice(CONTRACTS), help="The taker's contract.")
@click.option("--oudlers", required=True, type=click.IntRange(0, 3), help="Oudlers in the attack's pile.")
@click.option("--points", "points", metavar="P", help="Card points of the attack (0..91, halves allowed).")
@click.option("--defence-points", "defence_points", metavar="Q",
              help="Card points of the defence instead (P = 91 - Q).")
@click.option("--petit-au-bout", type=click.Choice(["attack", "defence"]), help="Side that won the Petit au bout.")
@click.option("--poignee", "poignees", multiple=True, metavar="LEVEL:SIDE",
              help="A poignée shown (simple|double|triple : attack|defence); repeatable.")
@click.option("--chelem", type=click.Choice(CHELEM_CHOICES), help="Slam outcome (R-SLAM-3).")
@click.option("--alone", is_flag=True, help="Table 5: the taker played alone (called himself or the chien).")
@click.option("--misere", "miseres", multiple=True, metavar="PLAYER:KIND",
              help="A misère (atout|tete); needs --option misere=on; repeatable.")
@click.option("--option", "options_", multiple=True, metavar="NAME=VALUE", help="A variant option; repeatable.")
@click.option("--names", metavar="A,B,C,D", help="Player names in playing order (default P1..Pn).")
@click.option("--taker", metavar="NAME", help="The taker (default the first name).")
@click.option("--partner", metavar="NAME", help="Table 5: the called partner (default the second name).")
@click.option("--dummy", metavar="NAME", help="Table 5d: the dealer sitting out (default the last name).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the table.")
def score_cmd(table, contract, oudlers, points, defence_points, petit_au_bout, poignees, chelem, alone,
              miseres, options_, names, taker, partner, dummy, as_json):
    """Score one deal from its facts and show every step of the count.

    \b
    Example (RULES EX-2, docs/rules.md): a failed garde sans at 4 players, petit au bout and
    a poignée for the defence:
      tarotsim score --contract garde_sans --oudlers 2 --points 37 \\
                     --petit-au-bout defence --poignee simple:defence
    """
    rules = _rules(table, options_)
    names_ = _names(names, rules, "--names")
    taker_seat = _seat(taker, names_, "taker") if taker else 0
    partner_seat = None
    if partner and table != "5":
        raise BadInput(f"--partner: a partner is called only at table 5, not at table {table} (R-CALL-1)")
    if alone and table != "5":
        raise BadInput("--alone applies to table 5 only")
    if alone and partner:
        raise BadInput(f"--partner {partner} and --alone contradict each other: a taker alone has no partner "
                       f"(R-CALL-2)")
    if table == "5" and not alone:
        partner_seat = _seat(partner, names_, "partner") if partner else (1 if taker_seat != 1 else 0)
        if partner_seat == taker_seat:
            raise BadInput("the partner cannot be the taker (use --alone when he called himself)")
    dummy_seat = None
    if table == "5d":
        dummy_seat = _seat(dummy, names_, "dummy") if dummy else rules.n_seats - 1
        if dummy_seat == taker_seat:
            raise BadInput("the dummy sits out: he cannot be the taker (R-DEAL-6)")
    elif dummy:
        raise BadInput(f"--dummy applies to table 5d only, not table {table}")
    poig = tuple(parse_poignee(p) for p in poignees)
    mis = tuple(parse_misere(m, names_) for m in miseres)
    facts = DealFacts(rules=rules, contract=contract, attack_half_points=_points(points, defence_points),
                      oudlers=oudlers, taker=taker_seat, partner=partner_seat, dummy=dummy_seat,
                      petit_au_bout=petit_au_bout, poignees=poig, chelem=chelem, miseres=mis)
    breakdown = score(facts)
    for w in breakdown.warnings:
        click.echo(w, err=True)
    if as_json:
        click.echo(json.dumps(breakdown.to_dict(names_)))
    else:
        click.echo(format_breakdown(breakdown, names_))


# ---------------------------------------------------------------------------------------------
# The score sheet (reading and scoring: tarotsim.sheet)


@cli.command()
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--players", metavar="A,B,C,D", help="Player names in playing order (default P1..Pn).")
@click.option("--table", type=click.Choice(TABLES), default=None,
              help="Table type (default: from the number of players, else 4).")
@click.option("--option", "options_", multiple=True, metavar="NAME=VALUE", help="A variant option; repeatable.")
@click.option("--until", type=click.IntRange(min=1), metavar="N",
              help="Game to N points: stop at the first deal where someone reaches N.")
@click.option("--check", is_flag=True,
              help="Check the scores written on the sheet (a column per player, or 'NAME total' per player) "
                   "and name the likely cause of each wrong deal; exit code 1 if one is wrong.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the table.")
def sheet(file, players, table, options_, until, check, as_json):
    """Score an evening: a CSV score sheet, one deal per row, with running totals.

    \b
    Columns (header required): taker,contract,oudlers,points and optionally
    defence_points, partner (table 5; empty = alone), dummy (5d), petit_au_bout,
    poignees (e.g. simple:defence;double:attack), chelem, miseres (e.g. Nico:atout).
    A row whose contract is `pass` scores zero for everybody. Cells are separated
    by , or ; or a tab; the file may be UTF-8, or Windows-1252 / Latin-1 as French
    spreadsheets save it; points may have a decimal comma (41,5).

    \b
    --check: the scores the players wrote, a column per player (Emma) or a running
    total per player (Emma total), are compared deal by deal with the rules; each
    wrong deal is shown with the variants or common mistakes (docs/audit.md) that
    give exactly what was written.
    """
    _rules(table or "4", options_, {"game_end": until} if until else None)  # bad options: before any reading
    source, source_name = read_sheet_bytes(file)
    # without --players, the players' own columns (Emma, Emma total) name them in playing order
    found = None if players else players_in_header(source, name=source_name)
    players = players or (",".join(found) if found else None)
    if table is None:  # from the number of players (tarotsim.sheet.table_of: never table 2 by a guess)
        table = table_of([n.strip() for n in players.split(",")] if players else None, found_in_header=bool(found))
    rules = _rules(table, options_, {"game_end": until} if until else None)
    names = _names(players, rules, "--players")
    try:
        rows = read_sheet(source, rules, names, name=source_name)
        result = score_sheet(rows, rules, names)
        audit = audit_sheet(rows, rules, names, name=file) if check else None
    except SheetError as e:
        msg = str(e)
        if not players and ("is not one of the players" in msg or "unknown column" in msg):
            msg += " (name the players with --players)"
        raise SheetError(msg) from None
    for d in result.deals:
        for w in d.warnings:
            click.echo(f"row {d.row}: {w}", err=True)
    if audit is not None:
        click.echo(json.dumps(audit.to_dict()) if as_json else format_audit(audit))
        if audit.wrong:
            sys.exit(1)
        return
    if as_json:
        click.echo(json.dumps(result.to_dict()))
        return
    deals, target, finished_at = result.deals, result.until, result.finished_at
    w = max(6, *(len(n) for n in names))
    lw = max(len(d.label) for d in deals)
    click.echo(f"{'#':>3}  {'deal'.ljust(lw)}  " + "  ".join(n.rjust(w) for n in names))
    for i, d in enumerate(deals, 1):
        click.echo(f"{i:>3}  {d.label.ljust(lw)}  " + "  ".join(f"{s:+{w}d}" for s in d.scores))
        click.echo(f"{'':>3}  {'total'.rjust(lw)}  " + "  ".join(f"{t:{w}d}" for t in d.totals))
    click.echo("every deal sums to zero (R-SCORE-3)")
    if finished_at is not None:
        rest = result.rows - finished_at
        click.echo(f"game over at deal {finished_at}: {', '.join(result.winners)} reached {target}"
                   + (f" ({rest} later row(s) not counted)" if rest else ""))
    if target is not None and finished_at is None:
        click.echo(f"nobody reached {target}: leader {' and '.join(result.leader)} with {result.best} "
                   f"after {len(deals)} deal(s)")
    else:
        click.echo(f"winner: {' and '.join(result.winners)} with {result.best}")


# ---------------------------------------------------------------------------------------------
# Simulation: simulate, show, replay

SIM_TABLES = KERNEL_TABLES  # the tables the kernels play
#: `play` seats a person at every table (table 2: both players' piles drawn at the prompt, R-VAR-TWO)
PLAY_TABLES = TABLES


def _players(text: str, rules: Rules, check_bots: bool = False) -> list[Player]:
    """``--bots`` -> one Player per seat (:func:`tarotsim.players.parse_players`), bad text as one line."""
    try:
        return parse_players(text, rules, check_bots)
    except ValueError as e:  # PlayersError, BotError, BotLoadError
        raise BadInput(str(e)) from None


def _note(line: str) -> None:
    """A line for the user on stderr (stdout holds the report)."""
    click.echo(f"tarotsim: {line}", err=True)


def _over_the_bar(line: str) -> None:
    """Write a line to stderr above the progress bar.

    A line for the user on a terminal whose progress bar may be drawn already: the bar's line
    is cleared first, and the bar is drawn again below at its next step."""
    click.echo(f"\r\x1b[Ktarotsim: {line}", err=True)


def _workers(requested: int | None, flag: str, work: int | None = None, unit: str = "deal(s)",
             quiet: bool = False) -> int:
    """The number of workers to use, bounded by the machine and the work.

    ``--threads`` and the like: at most what the machine and the work can use (one line on
    stderr when a request is lowered, unless ``quiet``), an absurd request as one line, exit 2
    (:func:`tarotsim.parallel.bounded_workers`)."""
    from .parallel import WorkersError, bounded_workers

    try:
        return bounded_workers(requested, flag, work=work, unit=unit, log=None if quiet else _note)
    except WorkersError as e:
        raise BadInput(str(e)) from None


def _seed(seed: int | None) -> int:
    """The seed to use: the one given, checked, or one drawn at random.

    The seed given (checked by the library's rule, :func:`tarotsim.rng.check_seed`), or one
    drawn at random (and reported by the command)."""
    from .rng import check_seed

    if seed is None:
        import secrets
        return secrets.randbelow(2**32)
    return check_seed(seed)


#: What --bots takes, the same for every command (the grammar: ``bots.split_bots``).
BOTS_HELP = ("One bot for every seat, or one per seat separated by commas: a registered bot with its parameters "
             "(heuristic:garde=56; `tarotsim bots` lists them), a policy set or a Python bot (module:NAME). "
             "random, uniform over the legal choices, is a baseline to compare with.")


def _run_options(*, tables=SIM_TABLES, bots: str | None = "heuristic", bots_help: str = BOTS_HELP,
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


def _check_bots_option(f):
    return click.option("--check-bots", "check_bots", is_flag=True,
                        help="Compile your policy sets (module:POLICY) with numba's bounds checking: an index "
                             "out of an array's bounds stops the run with one line naming the bot, instead of "
                             "a crash or silently wrong deals. Slower; for finding bugs.")(f)


def _scale_options(f):
    """Decorator adding the options of a run that may be split.

    Deal range, saved runs, checkpoint and Dask: the options of a run that may be split
    (simulate, tournament, study bidding; the work is in tarotsim.shards and tarotsim.distributed)."""
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


def _deal_range(start: int, deals: int, shard: str | None, what: str = "--deals") -> tuple[int, int, tuple]:
    """``(a, b, whole)``: the deals to play (shard K/N of the run, or all of it) and the whole run."""
    from .shards import ShardError, split_shard

    whole = check_run(start, deals, what)  # start + deals past 2**63: one line before any deal
    if shard is None:
        return whole[0], whole[1], whole
    try:
        a, b = split_shard(shard, start, deals)
    except ShardError as e:
        raise BadInput(str(e)) from None
    return a, b, whole


@contextlib.contextmanager
def _one_line():
    """A saved run, a merge, a checkpoint or Dask that cannot be used: one line, exit code 2."""
    from .parallel import WorkersError
    from .shards import ShardError

    try:
        yield
    except (ShardError, WorkersError) as e:
        raise BadInput(str(e)) from None


def _execute(job, *, threads, bar, checkpoint_path, scheduler, dask_local):
    """Run ``job`` here or on Dask, with its checkpoint: the whole run's tarotsim.shards.Saved."""
    from . import shards

    executor = None
    if scheduler is not None and dask_local is not None:
        raise BadInput("--scheduler and --dask-local: give one of them")
    with _one_line():
        if scheduler is not None or dask_local is not None:
            from . import distributed
            executor = distributed.executor(scheduler, dask_local, progress=bar.update, log=distributed.stderr_log,
                                            progress_lines=not sys.stderr.isatty())
        # the compile notice, like the progress bar, is for a terminal (logs and pipes stay clean);
        # the report's header says the seconds spent compiling either way
        return shards.execute(job, threads=threads, progress=bar.update, checkpoint=checkpoint_path,
                              executor=executor, log=_note, notice=_over_the_bar if sys.stderr.isatty() else None)


def _check_run_outputs(outputs: dict, checkpoint_path: str | None) -> None:
    """Every output and the checkpoint checked together before the first deal (no two on one file)."""
    from .outputs import plan_all

    if checkpoint_path is not None:
        if checkpoint_path == "-":
            raise BadInput("--checkpoint: a file is needed, not standard output")
        plan_all({**outputs, "--checkpoint": checkpoint_path})


@cli.command()
@_run_options(json_help="Print the summary as one JSON object.")
@_scale_options
@click.option("--deals", type=click.IntRange(min=1), default=100_000, show_default=True, help="Number of deals.")
@click.option("--start", type=click.IntRange(0, MAX_INDEX), default=0, show_default=True,
              help="Index of the first deal: deal (seed, index) is the same whatever the run "
                   "(start + deals at most 2^63).")
@click.option("--threads", type=click.IntRange(min=1), default=None,
              help="Worker threads (default: every core; at most one per core and per deal, said on stderr "
                   "when lowered; the results do not depend on it).")
@click.option("--records", "records_path", metavar="FILE.jsonl",
              help="Write every deal's record (docs/records.md, DESIGN §6); FILE.jsonl.gz compresses, "
                   "- streams to standard output (the summary then goes to stderr).")
@click.option("--facts", "facts_path", metavar="FILE.csv",
              help="Write one CSV row of facts per deal, with names (columns: docs/records.md); "
                   ".gz compresses, - is standard output; FILE.parquet writes the same columns, typed, "
                   "as Parquet (needs the parquet extra).")
@_check_bots_option
def simulate(table, bots, options_, deals, seed, start, threads, records_path, facts_path, as_json, check_bots, shard,
             save_path, checkpoint_path, scheduler, dask_local):
    """Play many deals with bots and summarise them.

    Each deal is identified by (seed, index): its cards and every bot's choices derive
    from those two numbers, so any deal can be shown again alone (`tarotsim show`) and
    the results do not depend on --threads. Without --records/--facts, memory does not
    grow with --deals. Output files are checked before the first deal and written whole
    or not at all (an interrupted run leaves the old file as it was); a link is written
    through to its target, a pipe or a device is written into.

    \b
    Example:
      tarotsim simulate --table 4 --deals 1000000 --seed 7 --threads 2
      tarotsim simulate --deals 300000 --records deals.jsonl.gz --facts facts.csv
      tarotsim simulate --deals 10000000 --seed 7 --shard 2/4 --save part2.json   (then: tarotsim merge)
    """
    import time

    from . import shards
    from . import simulate as sim
    from .outputs import open_outputs

    rules = _rules(table, options_)
    players = _players(bots, rules, check_bots)
    seed = _seed(seed)
    start, stop, whole = _deal_range(start, deals, shard)
    deals = stop - start
    threads = _workers(threads, "--threads", work=deals)
    fast = kernel_path(rules, players)  # the runner's choice (tarotsim.runner.Runner): a slow run shows progress
    if (records_path or facts_path) and (checkpoint_path or scheduler or dask_local):
        raise BadInput("--records and --facts are written by a plain local run: leave out --checkpoint, "
                       "--scheduler and --dask-local")
    parquet = facts_path is not None and facts_path.endswith((".parquet", ".parquet.gz"))
    if parquet:
        if facts_path.endswith(".gz"):
            raise BadInput(f"--facts {facts_path}: a Parquet file is compressed inside; leave out .gz")
        try:
            sim._pyarrow()
        except ImportError as e:
            raise BadInput(f"--facts {facts_path}: {e}") from None
    job = shards.Job.of("simulate", rules, seed, start, stop, bots, whole=whole, check_bots=check_bots,
                        players=players)
    outputs = {"--records": records_path, "--facts": facts_path, "--save": save_path}
    _check_run_outputs(outputs, checkpoint_path)
    # the summary must not mix with a file streamed to standard output
    to_stderr = "-" in outputs.values()
    with open_outputs(outputs) as outs:  # every path checked and opened before the first deal
        if not (records_path or facts_path):
            with _progress(deals, "simulating", deals >= 200_000 or not fast) as bar:
                saved = _execute(job, threads=threads, bar=bar, checkpoint_path=checkpoint_path,
                                 scheduler=scheduler, dask_local=dask_local)
            sm = shards.report(saved)
        else:
            facts_out = None
            if parquet:
                facts_out = sim.ParquetFacts(outs["--facts"].binary, rules, seed)
            elif "--facts" in outs:
                facts_out = sim.CsvFacts(outs["--facts"].fh, rules, seed)
            records_fh = outs["--records"].fh if "--records" in outs else None
            t0 = time.perf_counter()
            with _progress(deals, "simulating") as bar, _abandon_on_error(facts_out):
                acc = Runner(rules, seed, players, threads).write(start, stop, facts=facts_out, records=records_fh,
                                                                  progress=bar.update)
            if facts_out is not None:
                facts_out.close()  # a Parquet file's footer, before the output is committed
            saved = shards.Saved(job.config(), whole, [(start, stop)], acc, time.perf_counter() - t0, threads)
            sm = shards.report(saved)
        if save_path:
            outs["--save"].fh.write(shards.dumps(saved))
    _print_simulate(sm, rules, as_json, to_stderr, records_path, facts_path)
    _echo_written(("saved run", save_path), ("checkpoint", checkpoint_path))


@contextlib.contextmanager
def _abandon_on_error(facts):
    """Close a facts writer quietly when the run fails.

    A facts writer (a Parquet file's) is closed quietly when the run fails: its output is
    dropped anyway."""
    try:
        yield
    except BaseException:
        if facts is not None:
            facts.abandon()
        raise


def _print_simulate(sm, rules: Rules, as_json: bool, to_stderr: bool = False, records_path=None,
                    facts_path=None) -> None:
    """The report of a simulation: what `simulate` prints, and `merge` of its saved parts."""
    from . import simulate as sim

    if as_json:
        d = sm.to_dict()
        d["options"] = rules.non_default_options()
        if records_path:
            d["records"] = records_path
        if facts_path:
            d["facts"] = facts_path
        click.echo(json.dumps(d), err=to_stderr)
    else:
        click.echo(sim.format_summary(sm, rules.n_seats), err=to_stderr)
        for what, path in (("records", records_path), ("facts", facts_path)):
            if path and path != "-":
                click.echo(f"{what} written to {path}", err=to_stderr)


def _echo_written(*what_path) -> None:
    """``saved run written to FILE`` lines, on stderr: stdout holds the report, the same as `merge`'s."""
    for what, path in what_path:
        if path and path != "-":
            click.echo(f"{what} written to {path}", err=True)


def _progress(length: int, label: str, show: bool = True):
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


@cli.command()
@click.argument("file", required=False, type=click.Path(dir_okay=False, allow_dash=True))
@_run_options(seed_help="Seed of the deal (needed without FILE).",
              json_help="Print the deal record (DESIGN §6) instead.")
@click.option("--index", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True, help="Index of the deal.")
@click.option("--line", "lines", type=click.IntRange(min=1), metavar="N", multiple=True,
              help="With FILE: the line of the record to show (default: the first record); "
                   "with --html, repeatable (default: every record of FILE).")
@click.option("--names", metavar="A,B,C,D", help="Player names in seat order (default seat 0..n-1).")
@click.option("--html", "html_path", metavar="FILE.html",
              help="Write a replay page instead: one HTML file, needing nothing else, to step through "
                   "the deal(s) card by card (docs/pictures.md).")
@_check_bots_option
@click.pass_context
def show(ctx, file, table, bots, options_, seed, index, lines, names, as_json, html_path, check_bots):
    """Show one deal, readable, from its seed or from a file.

    Hands by suit, bids, chien, écart, declarations, every trick with its leader and winner, the
    count and the scores.

    The deal is played again from its seed and index by the bots, or read from FILE, a
    deal-records file (JSON Lines, DESIGN §6; gzip-compressed or - for standard input):
    the record of line N, checked against the rules first. With --html FILE.html the
    deal is written as a page to open in a browser: the table at every step (buttons
    and arrow keys), the count and the score breakdown at the end; several --line (or
    none) give one page with a deal picker.

    \b
    Examples:
      tarotsim show --table 5 --seed 7 --index 12
      tarotsim show deals.jsonl.gz --line 3
      tarotsim show deals.jsonl.gz --line 3 --line 8 --html deals.html
    """
    from .display import format_record

    if html_path is not None:
        if as_json:
            raise BadInput("--json and --html: give one of them")
        from .outputs import plan_all
        plan_all({"--html": html_path})  # a bad path: one line before any work
    elif len(lines) > 1:
        raise BadInput("several --line: a page shows several deals, give --html FILE.html")
    line = lines[0] if lines else None
    if file is not None:
        _refuse_deal_options(ctx, "shown")
        if html_path is not None:
            return _show_html(file, lines, None, names, html_path)
        rec, shown = _recorded_deal(file, line)
    else:
        if lines:
            raise BadInput("--line N needs FILE, a deal-records file")
        if seed is None:
            raise BadInput("Missing option '--seed' (or give FILE, a deal-records file)")
        rec = shown = _played_deal(table, options_, bots, seed, index, check_bots)
        if html_path is not None:
            return _show_html(None, (), rec, names, html_path)
    rules = Rules.from_options(rec["table"], rec.get("options") or {})
    names_ = _names(names, rules, "--names") if names else None
    if as_json:
        click.echo(json.dumps(rec))
    else:
        click.echo(format_record(shown, names_))


def _refuse_deal_options(ctx, done: str) -> None:
    """Refuse the options that choose a deal to play when the deal is read from FILE (``show``, ``analyse``)."""
    given = [f"--{p.replace('options_', 'option')}" for p in ("seed", "index", "table", "bots", "options_")
             if ctx.get_parameter_source(p) is not click.core.ParameterSource.DEFAULT]
    if given:
        raise BadInput(f"{', '.join(given)}: a deal read from FILE is {done} as recorded; "
                       "give FILE --line N, or --seed S --index I")


def _played_deal(table, options_, bots, seed, index, check_bots: bool = False) -> dict:
    """The record of deal (seed, index) played by the bots of ``--bots``."""
    rules = _rules(table, options_)
    players = _players(bots, rules, check_bots)
    return Runner(rules, seed, players).block(index, index + 1, with_records=True)[1][0]


def _show_html(file, lines, rec, names, html_path: str) -> None:
    """``show --html``: the replay page (tarotsim.replay_page) of lines of FILE, or of ``rec``."""
    from .replay_page import write_cli_page

    def names_for(record: dict):
        return _names(names, Rules.from_options(record["table"], record.get("options") or {}), "--names")

    write_cli_page(html_path, file, lines, rec, names_for if names else None)


def _analysis_page(html_path: str, rec: dict, where: str, line: int | None, names, costs) -> None:
    """``analyse --html``: the replay page of ``rec`` with the cards' costs, written whole or not at all."""
    from .replay_page import deal_data, write_page

    write_page(html_path, [deal_data(rec, line, names, costs)], f"tarotsim analysis · {where}")
    if html_path != "-":
        click.echo(f"replay page with the cards' costs written to {html_path}", err=True)


def _recorded_deal(file: str, line: int | None) -> tuple[dict, dict]:
    """The record of ``line`` of ``file`` as read, and completed for display (result, scores).

    A line that holds no record of the right shape is one line, exit 2. A record that `replay`
    flags (an illegal card, a wrong score, an edited identity) is shown as recorded, after a
    warning naming what is wrong with it: looking at it is how one finds out why."""
    from .record import RecordError, complete, record_at

    try:
        lineno, rec = record_at(file, line)
    except RecordError as e:
        raise BadInput(f"{_file_label(file)}: {e}") from None
    except OSError as e:
        raise BadInput(f"cannot read {_file_label(file)}: {e.strerror or e}") from None
    try:
        return rec, complete(rec, lineno)
    except RecordError as e:
        _note(f"warning: {_file_label(file)}: {e}; shown as recorded")
        return rec, rec


@cli.command()
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--verify", is_flag=True,
              help="Also check the recorded result and scores against the ones recomputed.")
@click.option("--workers", type=click.IntRange(min=1), default=None, metavar="N",
              help="Worker processes (default: every core; at most one per core and per 256 records); the output "
                   "is the same for any number.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object per record, then a summary.")
def replay(file, verify, workers, as_json):
    """Re-play every deal record of a JSON Lines file through the rules engine.

    Every decision (bid, call, écart, declarations, each card) is checked for legality;
    with --verify the recorded result and scores must also match. A bad record is named
    by its line, its action and the rule it breaks; the exit code is then 1. FILE may be
    gzip-compressed, or - for standard input.
    """
    from .record import check_file

    # an absurd request is one line before any reading; check_file says why a request is lowered,
    # once it has read far enough to know
    _workers(workers, "--workers", quiet=True)
    n = bad = 0
    first_bad = None
    with contextlib.closing(check_file(file, verify=verify, workers=workers, log=_note)) as reports:
        for report in _reading(reports, file):
            n += 1
            if report.ok:
                if as_json:
                    click.echo(json.dumps({"line": report.line, "ok": True, "outcome": report.outcome,
                                           "result": report.result, "scores": report.scores}))
                else:
                    click.echo(f"line {report.line}: ok   {_replay_line(report)}")
                continue
            e = report.error
            bad += 1
            first_bad = first_bad or str(e)
            if as_json:
                click.echo(json.dumps({"line": e.line, "ok": False, "error": _why(e), "action": e.action,
                                       "rule": e.rule_id}))
            else:
                click.echo(f"line {e.line}: BAD  {_why(e)}")
    if n == 0:
        raise BadInput(f"{_file_label(file)} holds no deal record")
    what = "verified" if verify else "replayed"
    if as_json:
        click.echo(json.dumps({"records": n, "bad": bad, "first_bad": first_bad, "verified": verify}))
    else:
        click.echo(f"{n} record(s) {what}, {bad} bad" + (f"; first: {first_bad}" if bad else ""))
    if bad:
        sys.exit(1)


def _file_label(file: str) -> str:
    return "standard input" if file == "-" else file


def _reading(items, file: str):
    """``items`` as they come; a failure to open or read ``file`` becomes one line (BadInput)."""
    while True:
        try:
            item = next(items)
        except StopIteration:
            return
        except OSError as e:
            raise BadInput(f"cannot read {_file_label(file)}: {e.strerror or e}") from None
        yield item


def _why(e) -> str:
    """A RecordError without its line number (the replay output puts the line first)."""
    text = ": ".join(x for x in (e.action, e.message) if x)
    return text + (f" ({e.rule_id})" if e.rule_id else "")


def _replay_line(report) -> str:
    if report.outcome != "played":
        return f"table {report.table}: {report.outcome.replace('_', ' ')}, scores 0"
    r = report.result
    return (f"table {report.table}: seat {report.taker} {report.contract} "
            f"{'made' if r['made'] else 'failed'} {r['difference']:+d}, scores {report.scores}")


# ---------------------------------------------------------------------------------------------
# Bots and tournaments


@cli.command(name="bots")
@click.option("--json", "as_json", is_flag=True, help="Print the registry as JSON.")
def bots_cmd(as_json):
    """List the registered bots, what they do, and their parameters.

    \b
    Set parameters where bots are named: --bots heuristic:garde=56,prise=40
    Thresholds measured by `tarotsim study bidding --calibrate FILE`: --bots heuristic:thresholds=FILE
    A bot of your own, fast path: --bots mypackage.mybots:POLICY (a bots.policy.PolicySet of
    njit functions, played inside the kernels; see examples/my_policy.py).
    A bot of your own, slow path: --bots mypackage.mybots:MyBot (a class with
    choose(view, legal, rng), played step by step; see examples/my_bot.py).
    """
    from bots import FILE_PARAMS, REGISTRY

    if as_json:
        click.echo(json.dumps([{"name": b.name, "description": b.description,
                                "params": [{"name": p.name, "default": p.default, "type": p.kind.__name__,
                                            "help": p.help} for p in b.params],
                                "file_params": [{"name": k, "help": h}
                                                for k, h in FILE_PARAMS.get(b.name, {}).items()]}
                               for b in REGISTRY.values()]))
        return
    for b in REGISTRY.values():
        click.echo(f"{b.name:<10} {b.description}")
        for p in b.params:
            default = p.kind(p.default) if p.kind is not bool else bool(p.default)
            click.echo(f"    {p.name:<16} {p.kind.__name__:<5} default {str(default):<8} {p.help}")
        for key, text in FILE_PARAMS.get(b.name, {}).items():
            click.echo(f"    {key:<16} {'file':<5} {'':<16} {text}")


@cli.command()
@_run_options(bots=None, bots_help="One bot per seat, e.g. heuristic,random,random,random (parameters: "
                                   "heuristic:garde=56).")
@click.option("--deals", type=click.IntRange(min=2), default=10_000, show_default=True,
              help="Number of deals (each played once per seat rotation with --duplicate).")
@click.option("--start", type=click.IntRange(0, MAX_INDEX), default=0, show_default=True,
              help="Index of the first deal (start + deals at most 2^63).")
@click.option("--duplicate/--no-duplicate", default=True, show_default=True,
              help="Play every deal once per seat rotation, so each bot holds every seat on the same cards.")
@click.option("--threads", type=click.IntRange(min=1), default=None,
              help="Worker threads (default: every core; at most one per core and per deal, said on stderr "
                   "when lowered; the results do not depend on it).")
@_check_bots_option
@_scale_options
def tournament(table, bots, deals, seed, start, duplicate, threads, options_, as_json, check_bots, shard, save_path,
               checkpoint_path, scheduler, dask_local):
    """Pit bots against each other, fairly.

    With --duplicate (the default) every deal is played once per seat rotation: each bot
    plays every seat on the same cards and the luck of the deal cancels out. Reported per
    bot: the deals it played in and its seat-plays, mean score per deal with a 95%
    confidence interval (Student t, over deals), take rate, made rate when taking, mean
    score as taker and as defender; and the paired difference between each pair of bots,
    with its interval and a verdict (significant or not) from 30 deals on.

    \b
    Example:
      tarotsim tournament --table 4 --bots heuristic,random,random,random --deals 20000 --seed 1
    """
    from . import shards
    from .outputs import open_outputs

    rules = _rules(table, options_)
    players = _players(bots, rules, check_bots)
    if len(set(p.label for p in players)) < 2:
        raise BadInput("--bots: a tournament needs at least two different bots")
    start, stop, whole = _deal_range(start, deals, shard)
    seed = _seed(seed)
    threads = _workers(threads, "--threads", work=stop - start)
    job = shards.Job.of("tournament", rules, seed, start, stop, bots, whole=whole, check_bots=check_bots,
                        players=players, duplicate=duplicate)
    _check_run_outputs({"--save": save_path}, checkpoint_path)
    with open_outputs({"--save": save_path}) as outs:  # checked before the first deal
        with _progress(stop - start, "tournament") as bar:
            saved = _execute(job, threads=threads, bar=bar, checkpoint_path=checkpoint_path, scheduler=scheduler,
                             dask_local=dask_local)
        if save_path:
            outs["--save"].fh.write(shards.dumps(saved))
    _print_tournament(shards.report(saved), as_json)
    _echo_written(("saved run", save_path), ("checkpoint", checkpoint_path))


def _print_tournament(res, as_json: bool) -> None:
    """The report of a tournament: what `tournament` prints, and `merge` of its saved parts."""
    from . import tournament as tour

    if as_json:
        click.echo(json.dumps(res.to_dict()))
    else:
        click.echo(tour.format_result(res))


# ---------------------------------------------------------------------------------------------
# A person at the table: tarotsim play (the game loop: tarotsim.interactive)


@cli.command()
@_run_options(tables=PLAY_TABLES, bots_help="One bot for every other seat, or one per other seat in seat order.",
              json_help=None)
@click.option("--seat", type=click.IntRange(min=0), default=0, show_default=True,
              help="Your seat, 0..n-1 in playing order (R-GEN-2).")
@click.option("--deals", type=click.IntRange(min=1), help="Number of deals (default: one round, a deal per seat).")
@click.option("--until", type=click.IntRange(min=1), metavar="POINTS",
              help="Play until someone's total reaches POINTS, instead of --deals.")
@click.option("--records", "records_path", metavar="FILE.jsonl",
              help="Append every finished deal's record (DESIGN §6), for `tarotsim show` and `replay`.")
@click.option("--no-color", "no_color", is_flag=True, help="No colours (output to a pipe never has any).")
@click.option("--analyse", is_flag=True, help="After each deal, what each card cost against best play (as "
                                              "`tarotsim analyse` shows it).")
def play(table, seat, bots, seed, deals, until, options_, records_path, no_color, analyse):
    """Play deals yourself, at one seat, against bots at the others.

    Each turn shows what your seat may see (your hand by suit, the bids, the chien when
    shown, the declarations, the trick with who played what, the tricks won) and the
    legal choices. Answer with a card (KH, 10S, T21, EX), a bid (pass, prise, garde,
    garde_sans, garde_contre), yes/no, or the number of a listed choice; the écart as
    several cards at once. `?` explains the choices, `hint` says what the strongest bot
    (pimc:infer=1) would do, `quit` ends the game. An answer the rules forbid is refused with the rule's id and
    asked again. End of input or Ctrl-C ends the game with its summary; finished deals
    are kept. At table 2 both players' piles are drawn (# a face-down card, [K♥] a
    face-up top); a face-up top of your piles is played by its name like a card in hand,
    and each card turned up after a trick is announced (R-VAR-TWO).

    \b
    Example:
      tarotsim play --table 4 --seat 0 --seed 7 --records game.jsonl
      tarotsim show game.jsonl --line 1; tarotsim replay game.jsonl --verify
    """
    from . import interactive

    rules = _rules(table, options_)
    try:
        interactive.check_seat(rules, seat)
    except ValueError as e:
        raise BadInput(f"--seat: {e}") from None
    bot_list = _play_bots(bots, rules, seat)
    if deals is not None and until is not None:
        raise BadInput("give --deals N or --until POINTS, not both")
    if until is None and isinstance(rules.game_end, int):
        until = rules.game_end
    if deals is None and until is None:
        deals = rules.n_seats
    seed = _seed(seed)
    records = None
    if records_path is not None:
        from .record import RecordError, check_appendable

        if records_path == "-" or records_path.endswith(".gz"):
            raise BadInput(f"--records {records_path}: play appends plain JSON Lines to a file (FILE.jsonl)")
        try:
            unended = check_appendable(records_path)  # never JSON glued onto another kind of file
            records = open(records_path, "a", encoding="utf-8")
            if unended:
                records.write("\n")
        except RecordError as e:
            raise BadInput(f"--records {records_path} is not a deal-records file ({e}): name another file") from None
        except OSError as e:
            raise BadInput(f"--records: cannot open {records_path}: {e.strerror or e}") from None
    try:
        session = interactive.Session(rules, seat, bot_list, seed, deals=deals, until=until, records=records,
                                      color=False if no_color else None, analyse=analyse)
        result = session.run()
    except BrokenPipeError:  # the reader of stdout left (`| head`): main() ends quietly, as for every command
        raise
    except OSError as e:  # the records file could not be written (a full disk …): the deals before are kept
        raise click.ClickException(f"--records: cannot append to {records_path}: {e.strerror or e}") from None
    finally:
        if records is not None:
            with contextlib.suppress(OSError):  # a failed write is reported above, once
                records.close()
    if records_path is not None:
        click.echo(f"{result.deals} deal(s) appended to {records_path}")
    if result.stopped == "interrupt":
        sys.exit(130)


def _play_bots(text: str, rules: Rules, seat: int) -> list:
    from .interactive import bots_for

    try:
        return bots_for(text, rules, seat)
    except ValueError as e:  # PlayersError, BotError, BotLoadError
        raise BadInput(str(e)) from None


# ---------------------------------------------------------------------------------------------
# Studies: tarotsim study bidding (the heavy part is tarotsim.study)


@cli.group(name="study")
def study_group():
    """Statistical studies run on the bots' deals.

    \b
    tarotsim study bidding   which hands should take which contract
    """


@study_group.command(name="bidding")
@_run_options(bots_help="One bot for every seat, or one per seat: registered bots (with parameters) or policy sets.",
              json_help="Print one JSON object instead of the tables.")
@click.option("--deals", type=click.IntRange(min=1), default=100_000, show_default=True,
              help="Number of deals (each played once per contract).")
@click.option("--start", type=click.IntRange(min=0), default=0, show_default=True, help="Index of the first deal.")
@click.option("--contracts", default=",".join(CONTRACTS), show_default=True, metavar="C,C,...",
              help="The contracts to play (each compared with the next lower one given).")
@click.option("--threads", type=click.IntRange(min=1), default=None,
              help="Worker threads (default: every core; at most one per core and per deal, said on stderr "
                   "when lowered; the results do not depend on it).")
@click.option("--bucket", type=click.IntRange(min=1), default=5, show_default=True,
              help="Width of the hand-points buckets.")
@click.option("--min-deals", type=click.IntRange(min=1), default=100, show_default=True,
              help="Sparse buckets are merged until each holds this many deals.")
@click.option("--csv", "csv_path", metavar="FILE", help="Write one CSV row per bucket and contract.")
@click.option("--plot", "plot_path", metavar="FILE.png",
              help="Draw made rate and mean score against hand points (needs the plot extra).")
@click.option("--calibrate", "calibrate_path", metavar="FILE",
              help="Write the measured thresholds for --bots heuristic:thresholds=FILE.")
@click.option("--hand", metavar="CARDS",
              help='Study this one hand instead ("T21 T20 EX KH 10S ..."): each contract\'s mean score over '
                   "--deals deals of the other cards.")
@click.option("--seat", type=click.IntRange(min=0), default=0, show_default=True,
              help="With --hand: the seat holding it (0..n-1 in playing order).")
@click.option("--dealer", type=click.IntRange(min=0), default=None,
              help="With --hand: the dealer (default: the seat before --seat, which then speaks first).")
@_check_bots_option
@_scale_options
def study_bidding(table, deals, seed, start, bots, contracts, threads, bucket, min_deals, options_, as_json,
                  csv_path, plot_path, calibrate_path, hand, seat, dealer, check_bots, shard, save_path,
                  checkpoint_path, scheduler, dask_local):
    """Measure the hand strength each contract needs.

    For every deal the first player to speak is studied: his hand gets the heuristic
    bot's point count (and its raw features: oudlers, trumps, trumps 16-21, kings,
    longest suit, voids), then the very same deal is played once per contract with
    him forced as taker and the bots playing the rest, so the contracts are compared
    on identical cards. Reported per bucket of points and contract: deals, made rate
    and mean score of the taker with 95% intervals, the paired difference with the
    contract below; the same by number of oudlers; and the thresholds where each
    contract's mean score overtakes passing and the contract below, beside the ones
    the heuristic bot uses now. Memory does not grow with --deals.

    With --hand, one given hand is studied instead ("should I take with this
    hand?"): each deal is a deal of the other cards drawn at random among those
    that agree with it, played once per contract with --seat forced as taker;
    reported per contract: mean score and made rate with 95% intervals, the paired
    difference with the contract below, and the best contract.

    \b
    Example:
      tarotsim study bidding --table 4 --deals 1000000 --seed 1 --calibrate cal.json
      tarotsim tournament --bots heuristic:thresholds=cal.json,heuristic,heuristic,heuristic
      tarotsim study bidding --hand "T21 T19 T15 T12 T9 T6 T3 EX KH QH 5H KS 8S 4S 9D 2D 7C 1C" --deals 5000
    """
    if hand is not None:
        _study_hand(table, deals, seed, start, bots, contracts, threads, options_, as_json, csv_path, plot_path,
                    calibrate_path, hand, seat, dealer, check_bots, shard, save_path, checkpoint_path, scheduler,
                    dask_local)
        return
    from . import shards
    from . import study
    from .outputs import open_outputs

    rules = _rules(table, options_)
    seed = _seed(seed)
    start, stop, whole = _deal_range(start, deals, shard, "the number of deals")
    deals = stop - start
    threads = _workers(threads, "--threads", work=deals)
    plot_fmt = None
    if plot_path:
        try:
            study.require_matplotlib()
            plot_fmt = study.plot_format(plot_path)
        except (ImportError, ValueError) as e:
            raise BadInput(str(e)) from None
    players = _players(bots, rules, check_bots)
    if not all(p.fast for p in players):
        raise BadInput("--bots: the study plays on the fast path: registered bots or policy sets "
                       "(module:POLICY), not a Python bot (module:Class)")
    try:
        plan = study.plan(rules, seed, deals, start=start, bots=players, contracts=contracts)
        if calibrate_path and plan.contracts != CONTRACTS:
            raise ValueError("--calibrate needs every contract studied (leave out --contracts)")
    except ValueError as e:  # bad bots, contracts (BotError is a ValueError)
        raise BadInput(" ".join(str(e).split())) from None
    job = shards.Job.of("study bidding", rules, seed, start, stop, bots, whole=whole, check_bots=check_bots,
                        players=players,
                        contracts=list(plan.contracts), bucket=bucket, min_deals=min_deals)
    outputs = {"--csv": csv_path, "--plot": plot_path, "--calibrate": calibrate_path, "--save": save_path}
    _check_run_outputs(outputs, checkpoint_path)
    with open_outputs(outputs) as outs:  # every path checked and opened before the first deal
        with _progress(deals, "studying", deals >= 50_000) as bar:
            saved = _execute(job, threads=threads, bar=bar, checkpoint_path=checkpoint_path, scheduler=scheduler,
                             dask_local=dask_local)
        rep = shards.report(saved)
        if save_path:
            outs["--save"].fh.write(shards.dumps(saved))
        if csv_path:
            study.write_csv(rep, outs["--csv"].fh)
        if calibrate_path:
            try:
                cal = study.calibration(rep, plan.shift)
            except ValueError as e:
                raise BadInput(str(e)) from None
            outs["--calibrate"].fh.write(json.dumps(study.json_ready(cal), indent=2) + "\n")
        if plot_path:
            study.plot(rep, outs["--plot"].binary, plot_fmt)
    to_stderr = "-" in outputs.values()
    warning = study.calibration_warning(rep) if calibrate_path else None
    if warning:  # the file is still written: a rough calibration may be what the user wants
        click.echo(f"tarotsim: warning: {warning} (written to {calibrate_path} anyway)", err=True)
    _print_study(rep, as_json, to_stderr)
    if not as_json:
        for flag, path in (("csv", csv_path), ("plot", plot_path), ("thresholds", calibrate_path)):
            if path and path != "-":
                click.echo(f"{flag} written to {path}", err=to_stderr)
    _echo_written(("saved run", save_path), ("checkpoint", checkpoint_path))


def _study_hand(table, deals, seed, start, bots, contracts, threads, options_, as_json, csv_path, plot_path,
                calibrate_path, hand, seat, dealer, check_bots, shard, save_path, checkpoint_path, scheduler,
                dask_local):
    """`study bidding --hand`: the study of one hand (tarotsim.hand_study), run here and printed."""
    from . import hand_study

    others = {"--csv": csv_path, "--plot": plot_path, "--calibrate": calibrate_path, "--shard": shard,
              "--save": save_path, "--checkpoint": checkpoint_path, "--scheduler": scheduler,
              "--dask-local": dask_local}
    given = [k for k, v in others.items() if v]
    if given:
        raise BadInput(f"--hand studies one hand here: leave out {', '.join(given)}")
    rules = _rules(table, options_)
    seed = _seed(seed)
    players = _players(bots, rules, check_bots)
    if not all(p.fast for p in players):
        raise BadInput("--bots: the study plays on the fast path: registered bots or policy sets "
                       "(module:POLICY), not a Python bot (module:Class)")
    engine_bots = [p.engine_bot for p in players] if any(p.policy is not None for p in players) else bots
    threads = _workers(threads, "--threads", work=deals)
    try:
        hand_study.plan(rules, hand, seat, seed, deals, start=start, bots=engine_bots, contracts=contracts,
                        dealer=dealer)
        with _progress(deals, "studying the hand", deals >= 2_000) as bar:
            totals = hand_study.run(rules, hand, seat, seed, deals, start=start, bots=engine_bots,
                                    contracts=contracts, dealer=dealer, threads=threads, progress=bar.update)
    except ValueError as e:  # a bad hand, seat, bots or contracts (BotError is a ValueError)
        raise BadInput(" ".join(str(e).split())) from None
    rep = hand_study.report(totals)
    click.echo(hand_study.to_json(rep) if as_json else hand_study.format_report(rep))


def _print_study(rep: dict, as_json: bool, to_stderr: bool = False) -> None:
    """The report of a bidding study: what `study bidding` prints, and `merge` of its saved parts."""
    from . import study

    if as_json:
        click.echo(study.to_json(rep), err=to_stderr)
    else:
        click.echo(study.format_report(rep), err=to_stderr)


# ---------------------------------------------------------------------------------------------
# Runs split in shards: tarotsim merge (the work is in tarotsim.shards)


@cli.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object, as the command run would.")
def merge(files, as_json):
    """Sum the saved parts of one run (--save, --checkpoint) and print its report.

    The parts must share their whole configuration (command, table, options, bots and
    their parameters, seed, tarotsim version), hold no deal twice and leave no deal of the
    run out (the missing ranges are named). The report is exactly the one a single run over
    all the deals prints; its time is the sum of the parts' times.

    \b
    Example (4 shards, anywhere, then one merge):
      tarotsim simulate --deals 100000000 --seed 7 --shard 1/4 --save part1.json
      ...
      tarotsim merge part1.json part2.json part3.json part4.json
    """
    from . import shards

    with _one_line():
        saved = shards.merge([(f, shards.load(f)) for f in files])
        rep = shards.report(saved)
    cfg = saved.config
    if saved.command == "simulate":
        _print_simulate(rep, Rules.from_options(cfg["table"], cfg["options"]), as_json)
    elif saved.command == "tournament":
        _print_tournament(rep, as_json)
    else:
        _print_study(rep, as_json)


# ---------------------------------------------------------------------------------------------
# Statistics of records: tarotsim stats (tarotsim.record_stats)

from .record_stats import stats_command  # noqa: E402  (registered here, written there)

cli.add_command(stats_command)


# ---------------------------------------------------------------------------------------------
# tarotsim learn: models learned from the engine's deals (tarotsim.learn)

from .learn.cli import learn as learn_group  # noqa: E402  (registered here, written there)

cli.add_command(learn_group)


# ---------------------------------------------------------------------------------------------
# tarotsim analyse: the exact solver's post-mortem (tarotsim.analysis)

from .analysis import DEFAULT_BUDGET as ANALYSE_BUDGET  # noqa: E402
from .solver import MODES as SOLVER_MODES  # noqa: E402


@cli.command(name="analyse")
@click.argument("file", required=False, type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--line", type=click.IntRange(min=1), metavar="N",
              help="With FILE: the line of the record to analyse (default: the first record).")
@_run_options(tables=("3", "4", "5", "5d"), seed_help="Seed of the deal to play and analyse (needed without FILE).",
              json_help="Print one JSON object instead.")
@click.option("--index", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True, help="Index of the deal.")
@click.option("--from-trick", type=click.IntRange(min=1), metavar="K",
              help="Analyse from trick K on (default: the first trick the solver values within --budget nodes).")
@click.option("--budget", type=click.IntRange(min=1), default=ANALYSE_BUDGET, show_default=True, metavar="NODES",
              help="Most nodes (cards tried by the search) per question: a count, so the output is reproducible.")
@click.option("--mode", type=click.Choice(SOLVER_MODES), default="points", show_default=True,
              help="points: the attack's card points; score: the taker's score (petit au bout, slam ...).")
@click.option("--names", metavar="A,B,C,D", help="Player names in seat order (default seat 0..n-1).")
@click.option("--html", "html_path", metavar="FILE.html",
              help="Also write the deal's replay page (as `show --html`) with each analysed card's cost on it.")
@_check_bots_option
@click.pass_context
def analyse_cmd(ctx, file, line, seed, index, table, bots, options_, from_trick, budget, mode, names, as_json,
                html_path, check_bots):
    """What each card of a deal cost against best play, with every card known.

    Replays the deal (line N of FILE, a deal-records file, or the deal --seed S --index I
    played by --bots) and, from trick K on, solves the position before every card exactly:
    the deal's value with best play by both sides, and for each card played what it lost
    against the best card for its side (0: a best card), with the best card(s) where it
    differs; then each player's total. Points are the attack's card points (91 in a deal);
    --mode score weighs the taker's score instead. Tricks before K are not analysed: late in
    the deal the solver is exact and fast, early it may need more than --budget nodes.

    \b
    Examples:
      tarotsim analyse deals.jsonl --line 3
      tarotsim analyse --seed 7 --index 2 --bots heuristic --from-trick 12 --json
      tarotsim analyse deals.jsonl --line 3 --html deal.html
    """
    from .analysis import AnalysisError, analyse, card_costs, format_analysis

    if file is not None:
        _refuse_deal_options(ctx, "analysed")
        rec, _ = _recorded_deal(file, line)
        rules = Rules.from_options(rec["table"], rec.get("options") or {})
    else:
        if line is not None:
            raise BadInput("--line N needs FILE, a deal-records file")
        if seed is None:
            raise BadInput("Missing option '--seed' (or give FILE, a deal-records file)")
        rec = _played_deal(table, options_, bots, seed, index, check_bots)
        rules = Rules.from_options(rec["table"], rec.get("options") or {})
    names_ = _names(names, rules, "--names") if names else None
    n = N_TRICKS[rules.table]
    if from_trick is not None and from_trick > n:
        raise BadInput(f"--from-trick {from_trick}: the deal has {n} tricks at table {rules.table}")
    if html_path is not None and mode != "points":
        raise BadInput(f"--html: the page shows the cards' costs in card points; leave out --mode {mode}")
    try:
        a = analyse(rec, mode, None if from_trick is None else from_trick - 1, budget)
    except AnalysisError as e:
        raise BadInput(str(e)) from None
    if html_path is not None:
        where = (f"{'standard input' if file == '-' else Path(file).name}, line {line or 1}" if file is not None
                 else f"seed {seed}, index {index}")
        _analysis_page(html_path, rec, where, line if file is not None else None, names_, card_costs(a, rec))
    if as_json:
        click.echo(json.dumps(dict(a.to_json(), seed=rec.get("seed"), index=rec.get("index"), table=rec["table"])))
    else:
        click.echo(format_analysis(a, names_))


# ---------------------------------------------------------------------------------------------


def main(argv=None) -> None:
    """Entry point: run the CLI, turning every user error into one line and exit code 2.

    A group named without a command (``tarotsim``, ``tarotsim study``) prints its help as click
    does since 8.2: the whole multi-line help on stderr, exit code 2 (a usage error)."""
    from .rng import DealIdError
    from .engine import BotRaisedError

    try:
        rv = cli.main(args=argv, prog_name="tarotsim", standalone_mode=False)
    except click.exceptions.Abort as e:  # Ctrl-C (click's Abort from the KeyboardInterrupt)
        kept = _kept(e.__cause__)
        click.echo("tarotsim: aborted" + (f"; {kept}; no other output file was written" if kept else ""), err=True)
        sys.exit(1)
    except _NO_ARGS_IS_HELP as e:  # the help itself, not squashed into one line
        click.echo(e.format_message(), err=True)
        sys.exit(e.exit_code)
    except click.ClickException as e:
        msg = " ".join(e.format_message().split())
        click.echo(f"tarotsim: error: {msg}", err=True)
        sys.exit(e.exit_code)
    except (ScoringError, SheetError, RulesError, CardError) as e:
        click.echo(f"tarotsim: error: {e}", err=True)
        sys.exit(2)
    except RuleViolation as e:  # a user's policy set broke a rule on the fast path
        click.echo(f"tarotsim: error: {e}", err=True)
        sys.exit(2)
    except (DealIdError, BotRaisedError) as e:  # a seed/index out of range; a Python bot that raised
        click.echo(f"tarotsim: error: {e}", err=True)
        sys.exit(2)
    except WriteFailed as e:  # a full disk: nothing kept, old files as they were
        click.echo(f"tarotsim: error: {e}", err=True)
        sys.exit(1)
    except OutputError as e:  # an output path refused before the run
        click.echo(f"tarotsim: error: {e}", err=True)
        sys.exit(2)
    except Terminated as e:  # SIGTERM / SIGHUP: the outputs were cleaned up on the way out
        kept = _kept(e)
        click.echo(f"tarotsim: stopped by {e.name}; " + (f"{kept}; no other output file was written" if kept
                                                         else "no output file was written"), err=True)
        sys.exit(e.code)
    except BrokenPipeError:
        sys.exit(1)
    sys.exit(rv or 0)


def _kept(e: BaseException | None) -> str | None:
    """What an interrupted run kept (a checkpoint: ``tarotsim.shards.checkpoint_kept``), or None."""
    notes = getattr(e, "__notes__", None) or []
    return "; ".join(notes) or None


#: click >= 8.2 raises this for a group named without a command (older click prints the help
#: and exits 0 by itself).
_NO_ARGS_IS_HELP = getattr(click.exceptions, "NoArgsIsHelpError", ())


if __name__ == "__main__":
    main()
