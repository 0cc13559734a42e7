"""``tarotsim learn``: training data from the kernels, and the models trained on it.

Registered on the ``tarotsim`` group by ``tarotsim/cli.py``; a bad input is one line on
stderr and exit code 2 (``click.UsageError``, which ``tarotsim.cli.main`` prints as one line).
"""

from __future__ import annotations

import sys

import click

from ..rules import ENV_TABLES


def _progress(length: int, label: str):
    """A progress bar on stderr when it is a terminal, else nothing (logs and pipes stay clean)."""
    if sys.stderr.isatty():
        return click.progressbar(length=length, label=label, file=sys.stderr, show_eta=True)
    return _NoBar()


class _NoBar:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def update(self, n):
        pass


def _one_line(e: BaseException) -> click.UsageError:
    return click.UsageError(" ".join(str(e).split()))


def _seats(text: str | None) -> list[int] | None:
    if text is None:
        return None
    try:
        return [int(t) for t in text.split(",")]
    except ValueError:
        raise click.UsageError(f"--seats takes seat numbers separated by commas, not {text!r}") from None


@click.group(name="learn")
def learn():
    """Models learned from the engine's own deals (docs/learn.md).

    \b
    tarotsim learn data    every decision of chosen seats, its features and labels
    """


@learn.command(name="data")
@click.option("--table", type=click.Choice(ENV_TABLES), default="4", show_default=True, help="Table type.")
@click.option("--bots", default="heuristic", show_default=True, metavar="BOT[,BOT...]",
              help="The players: one bot for every seat, or one per seat separated by commas (`tarotsim bots`).")
@click.option("--option", "options_", multiple=True, metavar="NAME=VALUE",
              help="A variant option (see `tarotsim options`); repeatable.")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=1, show_default=True, help="The deals' seed.")
@click.option("--deals", type=click.IntRange(min=1), default=10_000, show_default=True, help="Number of deals.")
@click.option("--start", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True,
              help="Index of the first deal.")
@click.option("--seats", metavar="S,S,...", help="The seats whose decisions are written (default: every seat).")
@click.option("--shard-deals", type=click.IntRange(min=1), default=None, help="Deals per shard [default: 1000].")
@click.option("--threads", type=click.IntRange(min=1), default=1, show_default=True,
              help="Shards written at once; the data does not depend on it.")
@click.option("--out", "out", required=True, metavar="DIR",
              help="The data folder: data.json and one .npz per shard. The same command run again "
                   "writes only the shards missing.")
def data_command(table, bots, options_, seed, deals, start, seats, shard_deals, threads, out):
    """Write every decision of chosen seats of deals played by BOTS (docs/learn.md).

    One row per decision: the seat's observation (docs/observations.md), its legal actions, the
    action taken, where every card truly is and where the seat's knowledge allows it to be
    (docs/worlds.md), and the seat's final score. Deal (seed, index) is the simulator's.

    \b
    Example:
      tarotsim learn data --bots heuristic --deals 10000 --seed 1 --out data/
    """
    from ..rules import Rules, RulesError
    from .data import SHARD_DEALS, shard_files, write_data

    try:
        rules = Rules.from_options(table, dict(Rules.parse_option(o) for o in options_))
    except RulesError as e:
        raise _one_line(e) from None
    shard_deals = shard_deals or SHARD_DEALS
    with _progress(deals, "writing decisions") as bar:
        try:
            write_data(out, rules, seed, deals, bots, start=start, seats=_seats(seats), shard_deals=shard_deals,
                       threads=threads, progress=bar.update)
        except ValueError as e:  # DataError, BotError, DealIdError
            raise _one_line(e) from None
    _, files = shard_files(out)
    import numpy as np

    rows = 0
    for f in files:
        with np.load(f) as z:
            rows += len(z["index"])
    click.echo(f"{rows} decisions of {deals} deals written to {out} ({len(files)} shards)")
