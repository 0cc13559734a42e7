"""One deal or a file of them: ``tarotsim show``, ``replay``, ``stats`` and ``analyse``."""

from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path

import click

from ..analysis import DEFAULT_BUDGET as ANALYSE_BUDGET
from ..analysis.record_stats import GROUPINGS as STATS_GROUPINGS
from ..analysis.solver import MAX_BUDGET as MAX_SOLVER_BUDGET
from ..analysis.solver import MODES as SOLVER_MODES
from ..rules import N_TRICKS, SOLVER_TABLES, TABLES, Rules
from ..runs.runner import Runner
from .app import cli
from .common import (BadInput, check_bots_option, evening_options, file_label, note, players_of, reading,
                     records_of, rules_of, run_options, seat_names, why, worker_count)


@cli.command()
@click.argument("file", required=False, type=click.Path(dir_okay=False, allow_dash=True))
@run_options(seed_help="Seed of the deal (needed without FILE).",
             json_help="Print the deal record (docs/records.md) instead.")
@click.option("--index", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True, help="Index of the deal.")
@click.option("--line", "lines", type=click.IntRange(min=1), metavar="N", multiple=True,
              help="With FILE: the line of the record to show (default: the first record); "
                   "with --html, repeatable (default: every record of FILE).")
@click.option("--names", metavar="A,B,C,D", help="Player names in seat order (default seat 0..n-1).")
@click.option("--html", "html_path", metavar="FILE.html",
              help="Write a replay page instead: one HTML file, needing nothing else, to step through "
                   "the deal(s) card by card (docs/pictures.md).")
@check_bots_option
@evening_options
@click.pass_context
def show(ctx, file, table, bots, options_, seed, index, lines, names, as_json, html_path, check_bots, db_path, evening):
    """Show one deal, readable, from its seed or from a file.

    Hands by suit, bids, chien, écart, declarations, every trick with its leader and winner, the
    count and the scores.

    The deal is played again from its seed and index by the bots, or read from FILE, a
    deal-records file (JSON Lines, docs/records.md; gzip-compressed or - for standard input):
    the record of line N, checked against the rules first. With --html FILE.html the
    deal is written as a page to open in a browser: the table at every step (buttons
    and arrow keys), the count and the score breakdown at the end; several --line (or
    none) give one page with a deal picker. --db FILE --evening ID reads the deals of an
    evening played in the browser (`tarotsim serve`), --line N being its deal N.

    \b
    Examples:
      tarotsim show --table 5 --seed 7 --index 12
      tarotsim show deals.jsonl.gz --line 3
      tarotsim show deals.jsonl.gz --line 3 --line 8 --html deals.html
    """
    from ..display import format_record

    if html_path is not None:
        if as_json:
            raise BadInput("--json and --html: give one of them")
        from ..outputs import plan_all
        plan_all({"--html": html_path})  # a bad path: one line before any work
    elif len(lines) > 1:
        raise BadInput("several --line: a page shows several deals, give --html FILE.html")
    line = lines[0] if lines else None
    file = records_of(file, db_path, evening, required=False)
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
    names_ = seat_names(names, rules, "--names") if names else None
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
    rules = rules_of(table, options_)
    players = players_of(bots, rules, check_bots)
    return Runner(rules, seed, players).block(index, index + 1, with_records=True)[1][0]


def _show_html(file, lines, rec, names, html_path: str) -> None:
    """``show --html``: the replay page of the given ``lines`` of FILE (none: every record), or of ``rec``.

    Written whole (:mod:`tarotsim.analysis.replay_page`); bad input is one line."""
    import os

    from .. import svg
    from ..analysis.replay_page import MAX_PAGE_DEALS, PageError, deal_data, write_page
    from ..record import RecordError, records_at

    def names_for(record: dict):
        return seat_names(names, Rules.from_options(record["table"], record.get("options") or {}), "--names")

    label = file_label(file)
    try:
        found = [(None, rec)] if file is None else list(records_at(file, lines or None))
    except RecordError as e:
        raise BadInput(f"{label}: {e}") from None
    except OSError as e:
        raise BadInput(f"cannot read {label}: {e.strerror or e}") from None
    if not found:
        raise BadInput(f"{label} holds no deal record")
    first = found[0][1]
    title = os.path.basename(label) if file is not None else f"seed {first['seed']}, index {first['index']}"
    if len(found) > MAX_PAGE_DEALS:
        raise BadInput(f"{title}: {len(found)} deals; a page holds at most {MAX_PAGE_DEALS}: choose them with --line")
    deals = []
    for lineno, record in found:
        try:
            deals.append(deal_data(record, lineno, names_for(record) if names else None))
        except (RecordError, PageError, svg.PictureError) as e:
            raise BadInput(f"{title}: {e}") from None
    write_page(html_path, deals, f"tarotsim replay · {title}")
    if html_path != "-":
        click.echo(f"replay page of {len(deals)} deal(s) written to {html_path}", err=True)


def _recorded_deal(file: str, line: int | None) -> tuple[dict, dict]:
    """The record of ``line`` of ``file`` as read, and completed for display (result, scores).

    A line that holds no record of the right shape is one line, exit 2. A record that `replay`
    flags (an illegal card, a wrong score, an edited identity) is shown as recorded, after a
    warning naming what is wrong with it: looking at it is how one finds out why."""
    from ..record import RecordError, complete, record_at

    try:
        lineno, rec = record_at(file, line)
    except RecordError as e:
        raise BadInput(f"{file_label(file)}: {e}") from None
    except OSError as e:
        raise BadInput(f"cannot read {file_label(file)}: {e.strerror or e}") from None
    try:
        return rec, complete(rec, lineno)
    except RecordError as e:
        note(f"warning: {file_label(file)}: {e}; shown as recorded")
        return rec, rec


@cli.command()
@click.argument("file", required=False, type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--verify", is_flag=True,
              help="Also check the recorded result and scores against the ones recomputed.")
@click.option("--workers", type=click.IntRange(min=1), default=None, metavar="N",
              help="Worker processes (default: every core; at most one per core and per 256 records); the output "
                   "is the same for any number.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object per record, then a summary.")
@evening_options
def replay(file, verify, workers, as_json, db_path, evening):
    """Re-play every deal record of a JSON Lines file through the rules engine.

    Every decision (bid, call, écart, declarations, each card) is checked for legality;
    with --verify the recorded result and scores must also match. A bad record is named
    by its line, its action and the rule it breaks; the exit code is then 1. FILE may be
    gzip-compressed, or - for standard input; --db FILE --evening ID reads the deals of an
    evening played in the browser (`tarotsim serve`).
    """
    from ..record import check_file

    file = records_of(file, db_path, evening)
    # an absurd request is one line before any reading; check_file says why a request is lowered,
    # once it has read far enough to know
    worker_count(workers, "--workers", quiet=True)
    n = bad = 0
    first_bad = None
    with contextlib.closing(check_file(file, verify=verify, workers=workers, log=note)) as reports:
        for report in reading(reports, file):
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
                click.echo(json.dumps({"line": e.line, "ok": False, "error": why(e), "action": e.action,
                                       "rule": e.rule_id}))
            else:
                click.echo(f"line {e.line}: BAD  {why(e)}")
    if n == 0:
        raise BadInput(f"{file_label(file)} holds no deal record")
    what = "verified" if verify else "replayed"
    if as_json:
        click.echo(json.dumps({"records": n, "bad": bad, "first_bad": first_bad, "verified": verify}))
    else:
        click.echo(f"{n} record(s) {what}, {bad} bad" + (f"; first: {first_bad}" if bad else ""))
    if bad:
        sys.exit(1)


def _replay_line(report) -> str:
    if report.outcome != "played":
        return f"table {report.table}: {report.outcome.replace('_', ' ')}, scores 0"
    r = report.result
    return (f"table {report.table}: seat {report.taker} {report.contract} "
            f"{'made' if r['made'] else 'failed'} {r['difference']:+d}, scores {report.scores}")


@cli.command(name="stats")
@click.argument("file", required=False, type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--by", "by", type=click.Choice(STATS_GROUPINGS), default="seat", show_default=True,
              help="Group the seats: by seat number, by player name (records of `tarotsim play`), or by "
                   "bot (records of `simulate --records`).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the tables.")
@click.option("--csv", "csv_path", metavar="FILE.csv",
              help="Also write one CSV row per group and per contract (- for standard output).")
@evening_options
def stats(file, by, as_json, csv_path, db_path, evening):
    """Statistics of a deal-records file: per seat (or player, or bot) and per contract.

    For each seat: deals, take rate, made rate, mean score per deal and as taker,
    partner (table 5) and defender with 95% intervals, petit au bout won and lost,
    poignées, chelems, the Excuse lost at the last trick. For each contract: deals,
    share (taken / deals, as simulate says it), made rate, the taker's mean score, the
    attack's mean points, petit au bout and chelems. FILE is JSON Lines (docs/records.md),
    gzip-compressed or - for standard input; the records are counted as recorded
    (`tarotsim replay --verify` checks them): scores that cannot be right (not adding up
    to zero, or beyond any deal's) and records of several tables are warned about on
    stderr. --db FILE --evening ID reads the deals of an evening played in the browser
    (`tarotsim serve`).

    \b
    Examples:
      tarotsim simulate --deals 100000 --seed 1 --bots heuristic,random,random,random \\
                        --records d.jsonl.gz
      tarotsim stats d.jsonl.gz --by bot
      tarotsim stats game.jsonl --by player --csv game-stats.csv
    """
    from ..analysis.record_stats import StatsError, format_stats, stats_of_file, write_csv
    from ..outputs import open_outputs
    from ..record import RecordError

    file = records_of(file, db_path, evening)
    label = file_label(file)
    with open_outputs({"--csv": csv_path}) as outs:  # a bad path: refused before reading
        try:
            st = stats_of_file(file, by)
        except (RecordError, StatsError) as e:
            raise click.UsageError(f"{label}: {e}") from None
        except OSError as e:
            raise click.UsageError(f"cannot read {label}: {e.strerror or e}") from None
        if not st.deals:
            raise click.UsageError(f"{label} holds no deal record")
        d = st.to_dict()
        if csv_path:
            write_csv(d, outs["--csv"].fh)
    for line in d["warnings"]:
        click.echo(f"tarotsim: warning: {label}: {line}", err=True)
    to_stderr = csv_path == "-"
    click.echo(json.dumps(d) if as_json else format_stats(d), err=to_stderr)
    if csv_path and csv_path != "-":
        click.echo(f"csv written to {csv_path}", err=True)


@cli.command(name="analyse")
@click.argument("file", required=False, type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--line", "lines", type=click.IntRange(min=1), metavar="N", multiple=True,
              help="With FILE: the line of the record to analyse (default: the first record); repeatable, "
                   "each deal analysed in turn (with --html, one page of them all).")
@run_options(tables=TABLES, seed_help="Seed of the deal to play and analyse (needed without FILE).",
             json_help="Print one JSON object per deal instead.")
@click.option("--index", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True, help="Index of the deal.")
@click.option("--from-trick", type=click.IntRange(min=1), metavar="K",
              help="Analyse from trick K on (default: the first trick the solver values within --budget nodes).")
@click.option("--budget", type=click.IntRange(1, MAX_SOLVER_BUDGET), default=ANALYSE_BUDGET, show_default=True,
              metavar="NODES",
              help="Most nodes (cards tried by the search) per question: a count, so the output is reproducible.")
@click.option("--mode", type=click.Choice(SOLVER_MODES), default="points", show_default=True,
              help="points: the attack's card points; score: the taker's score (petit au bout, slam ...).")
@click.option("--names", metavar="A,B,C,D",
              help="Player names in seat order (default: the record's players, else seat 0..n-1).")
@click.option("--html", "html_path", metavar="FILE.html",
              help="Also write the deal's replay page (as `show --html`) with each analysed card's cost on it; "
                   "- writes it to standard output (the analysis then goes to stderr).")
@check_bots_option
@evening_options
@click.pass_context
def analyse_cmd(ctx, file, lines, seed, index, table, bots, options_, from_trick, budget, mode, names, as_json,
                html_path, check_bots, db_path, evening):
    """What each card of a deal cost against best play, with every card known.

    Replays the deal (line N of FILE, a deal-records file, or the deal --seed S --index I
    played by --bots) and, from trick K on, solves the position before every card exactly:
    the deal's value with best play by both sides, and for each card played what it lost
    against the best card for its side (0: a best card; forced: the only legal card), with
    the best card(s) where it differs; then each player's total. Points are the attack's
    card points (91 in a deal); --mode score weighs the taker's score instead. Tricks before
    K are not analysed: late in the deal the solver is exact and fast, early it may need more
    than --budget nodes. Table 2 is not solved (R-VAR-TWO). --db FILE --evening ID reads
    the deals of an evening played in the browser (`tarotsim serve`).

    \b
    Examples:
      tarotsim analyse deals.jsonl --line 3
      tarotsim analyse --seed 7 --index 2 --bots heuristic --from-trick 12 --json
      tarotsim analyse deals.jsonl --line 3 --line 8 --html deals.html
    """
    import time

    from ..analysis import AnalysisError, analyse, best_cards, card_costs, check_analysable
    from ..analysis.solver import TABLE_TWO
    from ..outputs import open_outputs
    from ..record import seat_labels

    if html_path is not None and mode != "points":
        raise BadInput(f"--html: the page shows the cards' costs in card points; leave out --mode {mode}")
    file = records_of(file, db_path, evening, required=False)
    if file is None:
        if lines:
            raise BadInput("--line N needs FILE, a deal-records file")
        if seed is None:
            raise BadInput("Missing option '--seed' (or give FILE, a deal-records file)")
        if table not in SOLVER_TABLES:
            raise BadInput(f"--table {table}: {TABLE_TWO}")
    else:
        _refuse_deal_options(ctx, "analysed")
    to_stderr = html_path == "-"  # the page alone on standard output
    with open_outputs({"--html": html_path}) as outs:  # the page's path checked and opened before any work
        compile_s = 0.0
        if file is not None:
            found = _analysed_records(file, lines)
        else:
            rec, compile_s = _played_deal_announced(table, options_, bots, seed, index, check_bots)
            found = [(None, rec)]
        seats_of = []  # every deal's seat names, and --from-trick, checked before the first search
        for lineno, rec in found:
            try:
                check_analysable(rec)  # a deal every seat passed says so before the solver compiles
            except AnalysisError as e:
                where = "" if lineno is None else f"{file_label(file)}: line {lineno}: "
                raise BadInput(f"{where}{e}") from None
            rules = Rules.from_options(rec["table"], rec.get("options") or {})
            n = N_TRICKS[rules.table]
            if from_trick is not None and from_trick > n:
                raise BadInput(f"--from-trick {from_trick}: the deal has {n} tricks at table {rules.table}")
            seats_of.append(seat_names(names, rules, "--names") if names else seat_labels(rec, "players"))
        compile_s += _solver_ready()
        reports, pages = [], []
        for (lineno, rec), seats in zip(found, seats_of):
            t0 = time.perf_counter()
            try:
                a = analyse(rec, mode, None if from_trick is None else from_trick - 1, budget)
            except AnalysisError as e:
                where = "" if lineno is None else f"{file_label(file)}: line {lineno}: "
                raise BadInput(f"{where}{e}") from None
            reports.append((lineno, rec, a, seats, time.perf_counter() - t0, compile_s))
            compile_s = 0.0  # said once, with the first deal
            if html_path is not None:
                from ..analysis.replay_page import deal_data
                pages.append(deal_data(rec, lineno, seats, card_costs(a, rec), best_cards(a, rec)))
        if html_path is not None:
            from ..analysis.replay_page import page

            where = (f"{file_label(file) if file == '-' or hasattr(file, 'read') else Path(file).name}, "
                     + ("line" if len(found) == 1 else "lines") + " " + ", ".join(str(n) for n, _ in found)
                     if file is not None else f"seed {seed}, index {index}")
            outs["--html"].fh.write(page(pages, f"tarotsim analysis · {where}"))
    for k, report in enumerate(reports):
        _print_analysis(*report, as_json, several=len(reports) > 1, first=k == 0, err=to_stderr)
    if html_path is not None and html_path != "-":
        click.echo(f"replay page with the cards' costs written to {html_path}", err=True)


def _analysed_records(file: str, lines: tuple[int, ...]) -> list[tuple[int, dict]]:
    """``(line, record)`` of the lines of ``file`` to analyse (none given: its first record).

    Each record is replayed and checked first (``tarotsim.record.complete``): a bad one, or a
    line without a record, is the one line of the error, exit 2 (an analysis of a record that
    breaks the rules, or whose result or identity was edited, would mean nothing)."""
    from ..record import RecordError, complete, record_at, records_at

    try:
        found = records_at(file, lines) if lines else [record_at(file, None)]
        for lineno, rec in found:
            complete(rec, lineno)
    except RecordError as e:
        raise BadInput(f"{file_label(file)}: {e}") from None
    except OSError as e:
        raise BadInput(f"cannot read {file_label(file)}: {e.strerror or e}") from None
    return found


def _played_deal_announced(table, options_, bots, seed, index, check_bots) -> tuple[dict, float]:
    """:func:`_played_deal`, its kernels' compile said first on a terminal when numba's cache lacks them.

    The record of the deal and the seconds spent compiling its kernels (0 when loaded)."""
    import time

    from .._builds.runs import first_kernel
    from .._kernels._cache import compile_notice, is_cached
    from ..runs import simulate as sim
    from ..runs.players import players_label

    rules = rules_of(table, options_)
    players = players_of(bots, rules, check_bots)
    cold = None
    if all(p.fast for p in players):
        kinds, params = sim.bot_arrays(rules, [p.engine_bot for p in players])
        kernel, about = first_kernel(kinds, params, "facts", rules.to_vector())
        cold = None if is_cached([kernel]) else about
    if cold is not None and sys.stderr.isatty():
        note(compile_notice(players_label(players), cold))
    t0 = time.perf_counter()
    rec = _played_deal(table, options_, bots, seed, index, check_bots)
    return rec, (time.perf_counter() - t0 if cold is not None else 0.0)


def _solver_ready() -> float:
    """Load the solver (its compile said first on a terminal): the seconds spent compiling."""
    from ..analysis import solver

    return solver.warm_up(note if sys.stderr.isatty() else None)


def _print_analysis(lineno, rec, a, names, elapsed: float, compile_s: float, as_json: bool, *, several: bool,
                    first: bool, err: bool) -> None:
    """One deal's analysis as `analyse` prints it: the text (``line N:`` first when several), or one JSON line."""
    from ..analysis import format_analysis, nodes_text
    from ..runs.simulate import compile_text

    if as_json:
        d = dict(a.to_json(), seed=rec.get("seed"), index=rec.get("index"), table=rec["table"])
        if lineno is not None:
            d["line"] = lineno
        click.echo(json.dumps(dict(d, elapsed_s=elapsed, compile_s=compile_s)), err=err)
        return
    text = format_analysis(a, names)
    if several:
        text = ("" if first else "\n") + f"line {lineno}: " + text
    click.echo(text, err=err)
    click.echo(f"{nodes_text(a.nodes)} searched in {elapsed:.1f} s{compile_text(compile_s)}", err=err)
