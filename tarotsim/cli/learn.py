"""``tarotsim learn``: training data from the kernels, and the models trained on it.

A bad input is one line on stderr and exit code 2 (``click.UsageError``, which
``tarotsim.cli.main`` prints as one line); the work is :mod:`tarotsim.learn`.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from ..rng import MAX_CLI_SEED, MAX_INDEX
from ..rules import ENV_TABLES
from .app import cli
from .common import progress


class _LazyBar:
    """A progress bar whose length is known only once the work starts (``update(n, total)``), with lines above it."""

    def __init__(self, label: str):
        self.label = label
        self.bar: Any = None

    def update(self, n: int, total: int) -> None:
        if self.bar is None:
            self.bar = progress(total, self.label)
            self.bar.__enter__()
        self.bar.update(n)

    def line(self, text: str) -> None:
        click.echo(("\r\x1b[K" if self.bar is not None and sys.stderr.isatty() else "") + text, err=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)


def _one_line(e: BaseException) -> click.UsageError:
    return click.UsageError(" ".join(str(e).split()))


def _check_curve(curve: str | None) -> None:
    """A learning curve's file: a PNG, with matplotlib there to draw it (the plot extra)."""
    if curve is None:
        return
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise click.UsageError("--curve needs matplotlib: pip install 'tarotsim[plot]'") from None
    if not curve.lower().endswith(".png"):
        raise click.UsageError(f"--curve: a .png file, not {curve!r}")


def _seats(text: str | None) -> list[int] | None:
    if text is None:
        return None
    try:
        return [int(t) for t in text.split(",")]
    except ValueError:
        raise click.UsageError(f"--seats takes seat numbers separated by commas, not {text!r}") from None


@cli.group(name="learn")
def learn():
    """Models learned from the engine's own deals (docs/learn.md).

    \b
    tarotsim learn data          every decision of chosen seats, its features and labels
    tarotsim learn train         a card-location or policy model trained on them (torch)
    tarotsim learn calibration   how well a card-location model places the hidden cards
    tarotsim learn selfplay      a policy improved past imitation by playing
    """


@learn.command(name="data")
@click.option("--table", type=click.Choice(ENV_TABLES), default="4", show_default=True, help="Table type.")
@click.option("--bots", default="heuristic", show_default=True, metavar="BOT[,BOT...]",
              help="The players: one bot for every seat, or one per seat separated by commas (`tarotsim bots`).")
@click.option("--option", "options_", multiple=True, metavar="NAME=VALUE",
              help="A variant option (see `tarotsim options`); repeatable.")
@click.option("--seed", type=click.IntRange(0, MAX_CLI_SEED), default=1, show_default=True, help="The deals' seed.")
@click.option("--deals", type=click.IntRange(min=1), default=10_000, show_default=True, help="Number of deals.")
@click.option("--start", type=click.IntRange(0, MAX_INDEX), default=0, show_default=True,
              help="Index of the first deal.")
@click.option("--seats", metavar="S,S,...", help="The seats whose decisions are written (default: every seat).")
@click.option("--shard-deals", type=click.IntRange(min=1), default=None, help="Deals per shard [default: 1000].")
@click.option("--threads", type=click.IntRange(min=1), default=1, show_default=True,
              help="Shards written at once; the data does not depend on it.")
@click.option("--out", "out", required=True, metavar="DIR",
              help="The data folder: data.json and one .npz per shard. The same command run again "
                   "writes only the shards missing; with more --deals it grows the folder.")
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
    from ..learn.data import SHARD_DEALS, shard_files, write_data

    try:
        rules = Rules.from_options(table, dict(Rules.parse_option(o) for o in options_))
    except RulesError as e:
        raise _one_line(e) from None
    shard_deals = shard_deals or SHARD_DEALS
    with progress(deals, "writing decisions") as bar:
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
    click.echo(f"{rows} decisions of {deals} deals written to {out} ({len(files)} shard{'s' if len(files) > 1 else ''})")


def _hidden(text: str | None):
    if text is None:
        return None
    try:
        return tuple(int(t) for t in text.split(","))
    except ValueError:
        raise click.UsageError(f"--hidden takes two layer sizes separated by a comma, not {text!r}") from None


@learn.command(name="train")
@click.option("--data", "folders", required=True, multiple=True, metavar="DIR",
              help="A data folder (`tarotsim learn data`); repeat it to train on several together (e.g. one "
                   "per table).")
@click.option("--model", "kind", type=click.Choice(["locations", "policy"]), required=True,
              help="locations: where each hidden card is; policy: the action of the data's bots.")
@click.option("--out", "out", required=True, metavar="FILE.npz", help="The model file to write.")
@click.option("--curve", "curve", metavar="FILE.png",
              help="Also draw the learning curve (the validation loss per epoch; needs the plot extra).")
@click.option("--epochs", type=click.IntRange(min=1), default=4, show_default=True, help="Passes over the rows.")
@click.option("--hidden", metavar="H0,H1", help="The two hidden layers' sizes [default: 256,128 for locations, "
                                               "128,128 for policy].")
@click.option("--batch-size", type=click.IntRange(min=1), default=512, show_default=True, help="Rows per step.")
@click.option("--lr", type=click.FloatRange(min=0, min_open=True, max=1, max_open=True), default=1e-3,
              show_default=True, help="Adam's first learning rate (then a cosine decay to 0).")
@click.option("--seed", type=click.IntRange(0, 2**32 - 1), default=1, show_default=True,
              help="Seed of the initial weights and of the order of the rows.")
@click.option("--max-rows", type=click.IntRange(min=1), default=None, help="Use only the first rows of the data.")
def train_command(folders, kind, out, curve, epochs, hidden, batch_size, lr, seed, max_rows):
    """Train a model on data folders, on the CPU, one thread (docs/learn.md).

    Every 20th deal of the data is held out: the validation loss (bits per hidden card, or
    per decision with a choice) is printed after each epoch. Needs the learn extra
    (pip install 'tarotsim[learn]'). The model file holds this command.

    \b
    Example:
      tarotsim learn train --data data/ --model locations --out locations.npz --curve locations.png
    """
    from ..learn.train import require_torch, train

    _check_curve(curve)
    try:
        require_torch()  # the learn extra, checked before any data is read
    except ImportError as e:
        raise click.UsageError(str(e)) from None
    from pathlib import Path

    from ..learn.data import shard_files

    for flag, path in (("--out", out), ("--curve", curve)):
        if path is not None and not Path(path).resolve().parent.is_dir():
            raise click.UsageError(f"{flag}: no folder {Path(path).parent} to write {path} in")

    try:
        manifests = [shard_files(folder)[0] for folder in folders]
    except ValueError as e:
        raise _one_line(e) from None
    data = " ".join(f"--data {folder}" for folder in folders)
    parts = [f"tarotsim learn train {data} --model {kind} --out {out}", f"--epochs {epochs}"]
    parts += [f"--hidden {hidden}"] if hidden else []
    parts += [f"--batch-size {batch_size}", f"--lr {lr}", f"--seed {seed}"]
    parts += [f"--max-rows {max_rows}"] if max_rows else []
    bar = _LazyBar("training")
    try:
        result = train(list(folders), kind, hidden=_hidden(hidden), epochs=epochs, batch_size=batch_size, lr=lr, seed=seed,
                       max_rows=max_rows, progress=bar.update, log=bar.line)
    except ValueError as e:  # DataError
        raise _one_line(e) from None
    finally:
        bar.close()
    result.meta["command"] = " ".join(parts)
    result.meta["data_command"] = " && ".join(_data_command(m, f) for m, f in zip(manifests, folders))
    try:
        result.save(out)
        if curve is not None:
            result.plot(curve)
    except OSError as e:
        raise click.UsageError(f"cannot write {e.filename or out}: {e.strerror or e}") from None
    click.echo(f"{kind} model written to {out}: validation {result.validation_bits[-1]:.4f} bits "
               f"(uniform {result.uniform_bits:.4f})" + (f", curve {curve}" if curve else ""))


def _data_command(manifest: dict, folder) -> str:
    """The command that wrote a data folder, from its manifest."""
    from ..rules import Rules

    opts = "".join(f" --option {k}={v}" for k, v in manifest["options"].items())
    every = list(range(Rules.from_options(manifest["table"], manifest["options"]).n_seats))
    seats = "" if manifest["seats"] == every else " --seats " + ",".join(map(str, manifest["seats"]))
    return (f"tarotsim learn data --table {manifest['table']}{opts} --bots {manifest['bots']} --seed "
            f"{manifest['seed']} --start {manifest['start']} --deals {manifest['stop'] - manifest['start']}{seats} "
            f"--shard-deals {manifest['shard_deals']} --out {folder}")


@learn.command(name="calibration")
@click.option("--model", "model_path", metavar="FILE.npz",
              help="A card-location model (`tarotsim learn train --model locations`) [default: the shipped one].")
@click.option("--table", type=click.Choice(ENV_TABLES), default="4", show_default=True, help="Table type.")
@click.option("--bots", default="heuristic", show_default=True, metavar="BOT[,BOT...]",
              help="The players whose deals are measured (`tarotsim bots`).")
@click.option("--seed", type=click.IntRange(0, MAX_CLI_SEED), default=7, show_default=True, help="The deals' seed.")
@click.option("--start", type=click.IntRange(0, MAX_INDEX), default=0, show_default=True,
              help="Index of the first deal.")
@click.option("--deals", type=click.IntRange(min=1), default=1000, show_default=True, help="Number of deals.")
@click.option("--tricks", default="2-12", show_default=True, metavar="FIRST-LAST",
              help="The tricks whose card decisions are measured.")
@click.option("--worlds", type=click.IntRange(1, 4096), default=200, show_default=True,
              help="Uniform worlds drawn per position for the exact sampler's law.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the table.")
def calibration_command(model_path, table, bots, seed, start, deals, tricks, worlds, as_json):
    """How well a card-location model says where the hidden cards are (docs/learn.md).

    At every card decision of the tricks given, for each card the seat cannot place: the
    log-loss (bits) of the true location under the uniform law over the allowed locations, under
    the exact sampler's law (uniform worlds, docs/worlds.md) and under the model, paired by
    position; gain = worlds - model, per trick and for all.
    """
    import json

    from ..rules import N_TRICKS, Rules
    from ..learn.evaluate import calibration, format_calibration
    from ..learn.models import load_model, shipped

    try:
        first, last = (int(t) for t in tricks.split("-"))
    except ValueError:
        raise click.UsageError(f"--tricks takes FIRST-LAST, such as 2-12, not {tricks!r}") from None
    rules = Rules(table)
    if not 1 <= first <= last <= N_TRICKS[table]:
        raise click.UsageError(f"--tricks: {tricks} is not a range of the {N_TRICKS[table]} tricks of table {table}")
    try:
        model = load_model(model_path or shipped("locations"), "locations")
        d = calibration(model, rules, seed, start, deals, bots, first=first, last=last, worlds=worlds)
    except ValueError as e:  # ModelError, BotError, DealIdError
        raise _one_line(e) from None
    click.echo(json.dumps(d) if as_json else format_calibration(d))


@learn.command(name="selfplay")
@click.option("--model", "model_path", metavar="FILE.npz",
              help="The policy to start from (`tarotsim learn train --model policy`) [default: the shipped one].")
@click.option("--table", "tables", type=click.Choice(ENV_TABLES), multiple=True, default=("4",), show_default=True,
              help="Table type; repeatable: the tables' deals in turn (--deals at each), measured at the first.")
@click.option("--against", default="heuristic", show_default=True, metavar="BOT|self",
              help="The other seats while it learns: random, greedy or heuristic, one for all of them or one "
                   "per other seat separated by commas; or self (the policy being trained at every seat).")
@click.option("--deals", type=click.IntRange(min=1), default=100_000, show_default=True,
              help="Deals played at each table.")
@click.option("--seed", type=click.IntRange(0, MAX_CLI_SEED), default=1, show_default=True,
              help="The deals' seed, and the explorations'.")
@click.option("--epsilon", type=click.FloatRange(0, 1), default=0.05, show_default=True,
              help="The share of decisions taken at random among the legal actions (they teach it).")
@click.option("--lr", type=click.FloatRange(min=0, min_open=True, max=1, max_open=True), default=2e-5,
              show_default=True, help="Adam's first learning rate (it decays to 0 along a cosine over the deals).")
@click.option("--advantage-scale", type=click.FloatRange(min=0, min_open=True), default=1.0, show_default=True,
              help="What a gap of one between two of the policy's outputs is worth, in hundreds of points.")
@click.option("--batch-size", type=click.IntRange(min=1), default=2048, show_default=True,
              help="Decisions of finished deals per update.")
@click.option("--num-envs", type=click.IntRange(1, 65536), default=256, show_default=True,
              help="Deals in play at once.")
@click.option("--out", "out", required=True, metavar="FILE.npz", help="The policy file to write.")
@click.option("--curve", "curve", metavar="FILE.png",
              help="Also draw the learning curve: points a deal over the heuristic as the deals go (plot extra).")
@click.option("--measure-every", type=click.IntRange(min=0), default=None,
              help="Measure the policy every this many deals [default: a quarter of --deals with --curve, else never].")
@click.option("--measure-deals", type=click.IntRange(min=1), default=2000, show_default=True,
              help="Duplicate deals of each measure (the policy at one seat, the heuristic at the others).")
@click.option("--measure-seed", type=click.IntRange(0, MAX_CLI_SEED), default=3, show_default=True,
              help="The measures' seed (the same deals at every measure).")
def selfplay_command(model_path, tables, against, deals, seed, epsilon, lr, advantage_scale,
                     batch_size, num_envs, out, curve, measure_every, measure_deals, measure_seed):
    """Improve a policy past imitation by playing (deep Monte-Carlo; docs/learn.md).

    Each decision's target is the deciding seat's final score; the policy's best legal
    action is played (with probability EPSILON a random legal one), and the returns of the
    actions explored move the policy by how much better or worse than expected they did.
    Needs the learn extra (pip install 'tarotsim[learn]'). The policy file holds this command;
    play it with --bots learned:model=FILE.

    \b
    Example:
      tarotsim learn selfplay --deals 100000 --out policy-sp.npz --curve policy-sp.png
    """
    import tempfile
    from pathlib import Path

    from ..learn.selfplay import curve_figure, selfplay, strength
    from ..learn.train import require_torch

    _check_curve(curve)
    for flag, path in (("--out", out), ("--curve", curve)):
        if path is not None and not Path(path).resolve().parent.is_dir():
            raise click.UsageError(f"{flag}: no folder {Path(path).parent} to write {path} in")
    try:
        require_torch()
    except ImportError as e:
        raise click.UsageError(str(e)) from None
    every = measure_every if measure_every is not None else (max(1, deals * len(tables) // 4) if curve else 0)
    opponents = None if against == "self" else against
    start = model_path
    points: list[dict] = []
    bar = _LazyBar("self-play")

    def measure(at: int, path) -> None:
        p = strength(path, tables[0], measure_deals, measure_seed)
        p["at"] = at
        points.append(p)
        bar.line(f"{at} deals: {p['mean']:+.2f} [{p['ci_low']:+.2f}, {p['ci_high']:+.2f}] points a deal over the "
                 f"heuristic at table {tables[0]}, takes {100 * p['take_rate']:.1f}%")

    try:
        with tempfile.TemporaryDirectory(prefix="tarotsim-selfplay-") as tmp:
            from ..learn.models import save_model, shipped

            def checkpoint(done: int, arrays) -> None:
                path = Path(tmp) / f"at-{done}.npz"
                save_model(path, "policy", arrays, {"deals": done})
                measure(done, path)

            if every:
                measure(0, start or shipped("policy"))
            result = selfplay(start, table=list(tables), deals=deals, num_envs=num_envs, epsilon=epsilon, lr=lr,
                              batch_size=batch_size, seed=seed, opponents=opponents,
                              advantage_scale=advantage_scale,
                              progress=bar.update, checkpoint=checkpoint if every else None, checkpoint_every=every)
    except ValueError as e:  # ModelError, DataError, BotError, PlayersError
        raise _one_line(e) from None
    finally:
        bar.close()
    parts = ["tarotsim learn selfplay"] + [f"--table {t}" for t in tables]
    parts += [f"--model {model_path}"] if model_path else []
    parts += [f"--against {against}", f"--deals {deals}", f"--seed {seed}", f"--epsilon {epsilon}", f"--lr {lr}",
              f"--advantage-scale {advantage_scale}",
              f"--batch-size {batch_size}", f"--num-envs {num_envs}", f"--out {out}"]
    parts += [f"--curve {curve}"] if curve else []
    parts += [f"--measure-every {measure_every}"] if measure_every is not None else []
    parts += [f"--measure-deals {measure_deals}", f"--measure-seed {measure_seed}"] if every else []
    result.meta["command"] = " ".join(parts)
    result.meta["curve"] = points
    try:
        result.save(out)
        if curve is not None:
            tmp_curve = Path(curve).with_name(f".{Path(curve).name}.tmp")
            try:
                curve_figure(result.meta).savefig(tmp_curve, format="png")
                tmp_curve.replace(curve)
            except BaseException:
                tmp_curve.unlink(missing_ok=True)
                raise
    except OSError as e:
        raise click.UsageError(f"cannot write {e.filename or out}: {e.strerror or e}") from None
    last = f": {points[-1]['mean']:+.2f} points a deal over the heuristic at table {tables[0]}" if points else ""
    click.echo(f"policy written to {out}{last}" + (f", curve {curve}" if curve else ""))
