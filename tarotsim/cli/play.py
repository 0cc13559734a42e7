"""A person at the table: ``tarotsim play`` (the game loop is :mod:`tarotsim.cli.interactive`)."""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path

import click

from ..outputs import OutputError, Terminated
from ..rules import Rules
from .app import cli
from .common import PLAY_TABLES, BadInput, rules_of, run_options, run_seed


@cli.command()
@run_options(tables=PLAY_TABLES, bots_help="One bot for every other seat, or one per other seat in seat order.",
             json_help=None)
@click.option("--seat", type=click.IntRange(min=0), default=0, show_default=True,
              help="Your seat, 0..n-1 in playing order (R-GEN-2).")
@click.option("--deals", type=click.IntRange(min=1), help="Number of deals (default: one round, a deal per seat).")
@click.option("--until", type=click.IntRange(min=1), metavar="POINTS",
              help="Play until someone's total reaches POINTS, instead of --deals.")
@click.option("--records", "records_path", metavar="FILE.jsonl",
              help="Append every finished deal's record (docs/records.md), for `tarotsim show` and `replay`.")
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

    rules = rules_of(table, options_)
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
    seed = run_seed(seed)
    records = session = None
    try:  # from the records file's opening on: a stopped game says what the file kept
        if records_path is not None:
            records = _open_play_records(records_path)
        session = interactive.Session(rules, seat, bot_list, seed, deals=deals, until=until, records=records,
                                      color=False if no_color else None, analyse=analyse)
        result = session.run()
    except Terminated as e:  # SIGTERM, SIGHUP: main() says what was kept, the deals appended before
        if records is not None:
            e.add_note(f"{session.appended if session else 0} deal(s) appended to {records_path}")
        raise
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


def _open_play_records(records_path: str):
    """``play --records``: the file opened to append to, plain JSON Lines (never another kind of file)."""
    from ..outputs import name_format
    from ..record import RecordError, check_appendable

    named = not Path(records_path).exists() or Path(records_path).is_file()  # a device has no name to go by
    try:
        plain = not name_format("--records", records_path, named)[1]
    except OutputError:  # FILE.txt
        plain = False
    if records_path == "-" or not plain:
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
    return records


def _play_bots(text: str, rules: Rules, seat: int) -> list:
    from .interactive import bots_for

    try:
        return bots_for(text, rules, seat)
    except ValueError as e:  # PlayersError, BotError, BotLoadError
        raise BadInput(str(e)) from None
