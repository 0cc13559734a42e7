"""The ``tarotsim`` group and its entry point: every bad input one line on stderr and exit code 2.

Every bad input ends with one line on stderr and exit code 2, never a traceback (:func:`main` turns
click's and the library's errors into that line); an interrupt ends with the one line that says
what was kept. The commands are added to :data:`cli` by the modules of this package.
"""

from __future__ import annotations

import contextlib
import signal
import sys
from typing import NoReturn

import click

from .. import echo
from ..cards import CardError
from ..outputs import OutputError, Terminated, WriteFailed, stoppable
from ..reference.errors import RuleViolation
from ..rules import RulesError
from ..scoring import ScoringError
from ..sheet import SheetError


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
    explained in docs/rules.md (§14: the variants, set with --option NAME=VALUE, see
    `tarotsim options`). Deal records and the facts table: docs/records.md.
    """


def main(argv=None) -> None:
    """Entry point: run the CLI, turning every user error into one line and exit code 2.

    The whole command runs stoppable (:func:`tarotsim.outputs.stoppable`): SIGTERM and SIGHUP
    end it wherever it is with one line saying what it kept and exit code 128 + the signal;
    Ctrl-C the same with exit code 130. A group named without a command (``tarotsim``,
    ``tarotsim study``) prints its help as click does since 8.2: the whole multi-line help on
    stderr, exit code 2 (a usage error)."""
    from ..engine import BotRaisedError
    from ..rng import DealIdError

    written: list[str] = []  # the outputs the command wrote, for the line of a stopped command
    try:
        with stoppable(written):
            rv = cli.main(args=argv, prog_name="tarotsim", standalone_mode=False)
    except click.exceptions.Abort as e:
        if not isinstance(e.__cause__, KeyboardInterrupt):  # end of input at a prompt
            click.echo("tarotsim: aborted", err=True)
            sys.exit(1)
        _stopped("SIGINT", e.__cause__, written)  # Ctrl-C: click's Abort from the KeyboardInterrupt
        sys.exit(128 + signal.SIGINT)
    except KeyboardInterrupt as e:  # Ctrl-C outside click's own call of the command
        _stopped("SIGINT", e, written)
        sys.exit(128 + signal.SIGINT)
    except _NO_ARGS_IS_HELP as e:  # the help itself, not squashed into one line
        click.echo(e.format_message(), err=True)
        sys.exit(e.exit_code)
    except click.ClickException as e:  # click's own lines quote the values given, whole
        _error(e.format_message(), e.exit_code)
    except (ScoringError, SheetError, RulesError, CardError) as e:
        _error(e, 2)
    except RuleViolation as e:  # a user's policy set broke a rule on the fast path
        _error(e, 2)
    except (DealIdError, BotRaisedError) as e:  # a seed/index out of range; a Python bot that raised
        _error(e, 2)
    except WriteFailed as e:  # a full disk: nothing kept, old files as they were
        _error(e, 1)
    except OutputError as e:  # an output path refused before the run
        _error(e, 2)
    except Terminated as e:  # SIGTERM / SIGHUP: the outputs were cleaned up on the way out
        _stopped(e.name, e, written)
        sys.exit(e.code)
    except BrokenPipeError:
        sys.exit(1)
    sys.exit(rv or 0)


def _error(message, code: int) -> NoReturn:
    """End with the one line of an error (at most ``tarotsim.echo.LINE`` characters) and ``code``."""
    click.echo(f"tarotsim: error: {echo.cut(message, echo.LINE)}", err=True)
    sys.exit(code)


def _stopped(signal_name: str, e: BaseException, written: list[str]) -> None:
    """The line of a command stopped by a signal: what it kept, and that it wrote nothing else.

    What it kept: the notes of the exception (a checkpoint's, ``tarotsim.runs.shards.checkpoint_kept``;
    the deals `play` appended), then each output ``written`` that no note names already."""
    notes = list(getattr(e, "__notes__", None) or [])
    kept = notes + [f"{w} was written" for w in dict.fromkeys(written) if not any(w in n for n in notes)]
    rest = "no other output file was written" if kept else "no output file was written"
    with contextlib.suppress(OSError):  # a terminal hung up (SIGHUP) takes no more lines
        click.echo(f"tarotsim: stopped by {signal_name}; " + "; ".join(kept + [rest]), err=True)


#: click >= 8.2 raises this for a group named without a command (older click prints the help
#: and exits 0 by itself).
_NO_ARGS_IS_HELP = getattr(click.exceptions, "NoArgsIsHelpError", ())
