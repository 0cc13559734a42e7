"""Studies: ``tarotsim study bidding`` (the work is :mod:`tarotsim.runs.study` and ``hand_study``)."""

from __future__ import annotations

import json
import sys

import click

from ..rules import CONTRACTS
from .app import cli
from .common import (BadInput, check_bots_option, check_run_outputs, deal_range, echo_written, execute, over_the_bar,
                     players_of, progress, rules_of, run_options, run_seed, scale_options, worker_count)


@cli.group(name="study")
def study_group():
    """Statistical studies run on the bots' deals.

    \b
    tarotsim study bidding   which hands should take which contract
    """


@study_group.command(name="bidding")
@run_options(bots_help="One bot for every seat, or one per seat: registered bots (with parameters) or policy sets.",
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
              help='Study this one hand instead ("T21 T20 EX KH 10S ...", or K♥ 10♠ as tarotsim prints them): '
                   "each contract's mean score over --deals deals of the other cards.")
@click.option("--seat", type=click.IntRange(min=0), default=0, show_default=True,
              help="With --hand: the seat holding it (0..n-1 in playing order).")
@click.option("--dealer", type=click.IntRange(min=0), default=None,
              help="With --hand: the dealer (default: the seat before --seat, which then speaks first).")
@check_bots_option
@scale_options
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
      tarotsim study bidding --hand "T21 T19 T15 T12 T9 T6 T3 EX KH QH 5H KS 8S 4S 9D 2D 7C 1C" \\
                             --deals 5000
    """
    if hand is not None:
        _study_hand(table, deals, seed, start, bots, contracts, threads, options_, as_json, csv_path, plot_path,
                    calibrate_path, hand, seat, dealer, check_bots, shard, save_path, checkpoint_path, scheduler,
                    dask_local)
        return
    from ..outputs import open_outputs
    from ..runs import shards, study

    rules = rules_of(table, options_)
    seed = run_seed(seed)
    start, stop, whole = deal_range(start, deals, shard, "the number of deals")
    deals = stop - start
    threads = worker_count(threads, "--threads", work=deals)
    plot_fmt = None
    if plot_path:
        try:
            study.require_matplotlib()
            plot_fmt = study.plot_format(plot_path)
        except (ImportError, ValueError) as e:
            raise BadInput(str(e)) from None
    players = players_of(bots, rules, check_bots)
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
    check_run_outputs(outputs, checkpoint_path)
    with open_outputs(outputs) as outs:  # every path checked and opened before the first deal
        with progress(deals, "studying", deals >= 50_000) as bar:
            saved = execute(job, threads=threads, bar=bar, checkpoint_path=checkpoint_path, scheduler=scheduler,
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
    print_study(rep, as_json, to_stderr)
    if not as_json:
        for flag, path in (("csv", csv_path), ("plot", plot_path), ("thresholds", calibrate_path)):
            if path and path != "-":
                click.echo(f"{flag} written to {path}", err=to_stderr)
    echo_written(("saved run", save_path), ("checkpoint", checkpoint_path))


def _study_hand(table, deals, seed, start, bots, contracts, threads, options_, as_json, csv_path, plot_path,
                calibrate_path, hand, seat, dealer, check_bots, shard, save_path, checkpoint_path, scheduler,
                dask_local):
    """`study bidding --hand`: the study of one hand (tarotsim.runs.hand_study), run here and printed."""
    from ..outputs import signals_raise
    from ..runs import hand_study

    others = {"--csv": csv_path, "--plot": plot_path, "--calibrate": calibrate_path, "--shard": shard,
              "--save": save_path, "--checkpoint": checkpoint_path, "--scheduler": scheduler,
              "--dask-local": dask_local}
    given = [k for k, v in others.items() if v]
    if given:
        raise BadInput(f"--hand studies one hand here: leave out {', '.join(given)}")
    rules = rules_of(table, options_)
    seed = run_seed(seed)
    players = players_of(bots, rules, check_bots)
    if not all(p.fast for p in players):
        raise BadInput("--bots: the study plays on the fast path: registered bots or policy sets "
                       "(module:POLICY), not a Python bot (module:Class)")
    engine_bots = [p.engine_bot for p in players] if any(p.policy is not None for p in players) else bots
    threads = worker_count(threads, "--threads", work=deals)
    try:
        hand_study.plan(rules, hand, seat, seed, deals, start=start, bots=engine_bots, contracts=contracts,
                        dealer=dealer)
        # SIGTERM stops it as Ctrl-C does; the compile notice, like the progress bar, is for a
        # terminal: the report's last line says the seconds spent compiling either way
        with signals_raise(), progress(deals, "studying the hand", deals >= 2_000) as bar:
            totals = hand_study.run(rules, hand, seat, seed, deals, start=start, bots=engine_bots,
                                    contracts=contracts, dealer=dealer, threads=threads, progress=bar.update,
                                    notice=over_the_bar if sys.stderr.isatty() else None)
    except ValueError as e:  # a bad hand, seat, bots or contracts (BotError is a ValueError), a rule broken
        raise BadInput(" ".join(str(e).split())) from None
    rep = hand_study.report(totals)
    click.echo(hand_study.to_json(rep) if as_json else hand_study.format_report(rep))


def print_study(rep: dict, as_json: bool, to_stderr: bool = False) -> None:
    """The report of a bidding study: what `study bidding` prints, and `merge` of its saved parts."""
    from ..runs import study

    if as_json:
        click.echo(study.to_json(rep), err=to_stderr)
    else:
        click.echo(study.format_report(rep), err=to_stderr)
