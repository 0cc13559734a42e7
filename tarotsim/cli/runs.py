"""Runs of many deals: ``tarotsim simulate``, ``tournament``, ``merge`` and ``bots``."""

from __future__ import annotations

import contextlib
import json

import click

from ..echo import paragraph
from ..rng import MAX_INDEX
from ..rules import Rules
from ..runs.players import kernel_path
from ..runs.runner import Runner
from .app import cli
from .common import (BadInput, check_bots_option, check_run_outputs, deal_range, echo_written, execute, one_line,
                     players_of, progress, rules_of, run_options, run_seed, scale_options, worker_count)
from .study import print_study


@cli.command()
@run_options(json_help="Print the summary as one JSON object.")
@scale_options
@click.option("--deals", type=click.IntRange(min=1), default=100_000, show_default=True, help="Number of deals.")
@click.option("--start", type=click.IntRange(0, MAX_INDEX), default=0, show_default=True,
              help="Index of the first deal: deal (seed, index) is the same whatever the run "
                   "(start + deals at most 2^63).")
@click.option("--threads", type=click.IntRange(min=1), default=None,
              help="Worker threads (default: every core; at most one per core and per deal, said on stderr "
                   "when lowered; the results do not depend on it).")
@click.option("--records", "records_path", metavar="FILE.jsonl",
              help="Write every deal's record (docs/records.md); FILE.jsonl.gz compresses, "
                   "- streams to standard output (the summary then goes to stderr).")
@click.option("--facts", "facts_path", metavar="FILE.csv",
              help="Write one CSV row of facts per deal, with names (columns: docs/records.md); "
                   ".gz compresses, - is standard output; FILE.parquet writes the same columns, typed, "
                   "as Parquet (needs the parquet extra).")
@check_bots_option
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
      tarotsim simulate --deals 10000000 --seed 7 --shard 2/4 --save part2.json
      (then: tarotsim merge)
    """
    import time

    from ..outputs import open_outputs, plan
    from ..runs import shards
    from ..runs import simulate as sim

    rules = rules_of(table, options_)
    players = players_of(bots, rules, check_bots)
    seed = run_seed(seed)
    start, stop, whole = deal_range(start, deals, shard)
    deals = stop - start
    threads = worker_count(threads, "--threads", work=deals)
    fast = kernel_path(rules, players)  # the runner's choice (tarotsim.runs.runner.Runner): a slow run shows progress
    written = [flag for flag, path in (("--records", records_path), ("--facts", facts_path)) if path]
    elsewhere = [flag for flag, v in (("--checkpoint", checkpoint_path), ("--scheduler", scheduler),
                                      ("--dask-local", dask_local)) if v is not None]
    if written and elsewhere:
        raise BadInput(f"{' and '.join(written)} {'is' if len(written) == 1 else 'are'} written by a plain local "
                       f"run: leave out {' and '.join(elsewhere)}")
    parquet = facts_path is not None and plan("--facts", facts_path).format == "Parquet"
    if parquet:
        try:
            sim._pyarrow()
        except ImportError as e:
            raise BadInput(f"--facts {facts_path}: {e}") from None
    job = shards.Job.of("simulate", rules, seed, start, stop, bots, whole=whole, check_bots=check_bots,
                        players=players)
    outputs = {"--records": records_path, "--facts": facts_path, "--save": save_path}
    check_run_outputs(outputs, checkpoint_path)
    # the summary must not mix with a file streamed to standard output
    to_stderr = "-" in outputs.values()
    with open_outputs(outputs) as outs:  # every path checked and opened before the first deal
        if not (records_path or facts_path):
            with progress(deals, "simulating", deals >= 200_000 or not fast) as bar:
                saved = execute(job, threads=threads, bar=bar, checkpoint_path=checkpoint_path,
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
            with progress(deals, "simulating") as bar, _abandon_on_error(facts_out):
                acc = Runner(rules, seed, players, threads).write(start, stop, facts=facts_out, records=records_fh,
                                                                  progress=bar.update)
            if facts_out is not None:
                facts_out.close()  # a Parquet file's footer, before the output is committed
            saved = shards.Saved(job.config(), whole, [(start, stop)], acc, time.perf_counter() - t0, threads)
            sm = shards.report(saved)
        if save_path:
            outs["--save"].fh.write(shards.dumps(saved))
    _print_simulate(sm, rules, as_json, to_stderr, records_path, facts_path)
    echo_written(("saved run", save_path), ("checkpoint", checkpoint_path))


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
    from ..runs import simulate as sim

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
    A parameter shown [only with infer=1], [only at table 3] ... does nothing elsewhere: given
    there, it is refused.
    """
    from bots import FILE_PARAMS, REGISTRY

    if as_json:
        click.echo(json.dumps([{"name": b.name, "description": b.description,
                                "params": [{"name": p.name, "default": p.default, "type": p.kind.__name__,
                                            "help": p.help, "condition": p.condition(),
                                            "needs": dict([p.needs]) if p.needs else None,
                                            "tables": list(p.tables) if p.tables else None,
                                            "at_least": p.at_least} for p in b.params],
                                "file_params": [{"name": k, "help": h}
                                                for k, h in FILE_PARAMS.get(b.name, {}).items()]}
                               for b in REGISTRY.values()]))
        return
    def echo(head: str, text: str) -> None:  # the text wrapped, its lines beside the head
        click.echo("\n".join(paragraph(head + text, indent=" " * len(head))))

    for b in REGISTRY.values():
        echo(f"{b.name:<10} ", b.description)
        for p in b.params:
            default = p.kind(p.default) if p.kind is not bool else bool(p.default)
            when = f"[{p.condition()}] " if p.condition() else ""  # given elsewhere, it is refused
            echo(f"    {p.name:<16} {p.kind.__name__:<5} default {str(default):<8} ", when + p.help)
        for key, text in FILE_PARAMS.get(b.name, {}).items():
            echo(f"    {key:<16} {'file':<5} {'':<16} ", text)


@cli.command()
@run_options(bots=None, bots_help="One bot per seat, e.g. heuristic,random,random,random (parameters: "
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
@check_bots_option
@scale_options
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
    from ..outputs import open_outputs
    from ..runs import shards

    rules = rules_of(table, options_)
    players = players_of(bots, rules, check_bots)
    if len(set(p.label for p in players)) < 2:
        raise BadInput("--bots: a tournament needs at least two different bots")
    start, stop, whole = deal_range(start, deals, shard)
    seed = run_seed(seed)
    threads = worker_count(threads, "--threads", work=stop - start)
    job = shards.Job.of("tournament", rules, seed, start, stop, bots, whole=whole, check_bots=check_bots,
                        players=players, duplicate=duplicate)
    check_run_outputs({"--save": save_path}, checkpoint_path)
    with open_outputs({"--save": save_path}) as outs:  # checked before the first deal
        with progress(stop - start, "tournament") as bar:
            saved = execute(job, threads=threads, bar=bar, checkpoint_path=checkpoint_path, scheduler=scheduler,
                            dask_local=dask_local)
        if save_path:
            outs["--save"].fh.write(shards.dumps(saved))
    _print_tournament(shards.report(saved), as_json)
    echo_written(("saved run", save_path), ("checkpoint", checkpoint_path))


def _print_tournament(res, as_json: bool) -> None:
    """The report of a tournament: what `tournament` prints, and `merge` of its saved parts."""
    from ..runs import tournament as tour

    if as_json:
        click.echo(json.dumps(res.to_dict()))
    else:
        click.echo(tour.format_result(res))


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
    from ..runs import shards

    with one_line():
        saved = shards.merge([(f, shards.load(f)) for f in files])
        rep = shards.report(saved)
    cfg = saved.config
    if saved.command == "simulate":
        _print_simulate(rep, Rules.from_options(cfg["table"], cfg["options"]), as_json)
    elif saved.command == "tournament":
        _print_tournament(rep, as_json)
    else:
        print_study(rep, as_json)
