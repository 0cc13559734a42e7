"""A table in the browser: ``tarotsim serve`` (the server is :mod:`tarotsim.web`) and ``tarotsim evenings``."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .. import echo
from ..analysis import DEFAULT_BUDGET as REVIEW_BUDGET
from ..analysis.solver import MAX_BUDGET
from ..outputs import Terminated
from .app import cli
from .common import BadInput, note

#: What the command says when the extra ``web`` is not installed.
WEB_HINT = "tarotsim serve needs the web extra (Starlette, uvicorn): pip install 'tarotsim[web]'"


def db_option(f):
    return click.option("--db", "db_path", metavar="FILE",
                        help="The evenings database (SQLite; default: evenings.sqlite3 in the user's data folder, "
                             "$XDG_DATA_HOME/tarotsim).")(f)


def _store(db_path: str | None, create: bool):
    """The evenings database of ``--db`` (default: the user's), or one line, exit code 2."""
    from ..web.store import Store, StoreError, default_path

    path = Path(db_path) if db_path is not None else default_path()
    if db_path is None and create:
        path.parent.mkdir(parents=True, exist_ok=True)
    try:
        return Store(path, create=create)
    except StoreError as e:
        raise BadInput(f"--db: {e}") from None


@cli.command()
@db_option
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on: this machine only by default. Another address lets anyone who "
                   "reaches it play and read the evenings (a warning says so).")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True,
              help="The port to listen on (0: a free one, said in the URL).")
@click.option("--bots", default="heuristic", show_default=True, metavar="BOT[,BOT...]",
              help="The bots the page proposes for the other seats (any --bots text: pimc:infer=1, one per "
                   "other seat ...); a bot of your own (module:NAME) is offered only when named here.")
@click.option("--pace", type=click.FloatRange(0, 10), default=0.4, show_default=True, metavar="SECONDS",
              help="Seconds between two bots' decisions, so that each card is seen.")
@click.option("--budget", type=click.IntRange(1, MAX_BUDGET), default=REVIEW_BUDGET, show_default=True,
              metavar="NODES", help="The solver's nodes per question of a deal's review (as analyse --budget).")
def serve(db_path, host, port, bots, pace, budget):
    """Play in the browser: a table against the bots, each deal reviewed, the evening kept.

    Starts a local server and prints its URL on the first line; open it in a browser.
    There you choose the table (3, 4, 5, 5d), your seat, the bots, the seed and the
    options, and play: the auction, the call, the chien, the écart card by card,
    declarations and every card, the bots' cards one by one; a choice the rules forbid
    is refused with the rule's id. `hint` gives the strongest bot's advice (pimc:infer=1).
    After each deal: the count, the score breakdown and the review, each card's cost
    against best play (as `tarotsim analyse --html`). Deals follow one another with the
    next dealer; the score sheet exports as the CSV `tarotsim sheet` reads.

    Every finished deal is kept in the database (--db) as its record (docs/records.md),
    and the deal in progress after every decision: a server stopped in any way and
    started again on the same database resumes the evening where it was. `tarotsim
    evenings` lists and exports them; `tarotsim replay`, `stats` and `show` read them
    with --db FILE --evening ID. The page's protocol: docs/how-to/play-in-the-browser.md.

    \b
    Example:
      tarotsim serve --db evenings.sqlite3 --bots pimc:infer=1
    """
    try:
        from ..web import server
    except ImportError:
        raise BadInput(WEB_HINT) from None
    from ..runs.players import bot_texts, parse_players
    from ..rules import Rules

    try:
        for seg in bot_texts(bots):
            parse_players(seg, Rules("4"))
    except ValueError as e:
        raise BadInput(str(e)) from None
    store = _store(db_path, create=True)
    store.close()  # the server opens its own
    try:
        sock = server.listen(host, port)
    except OSError as e:
        raise BadInput(f"--host {host} --port {port}: cannot listen there ({e.strerror or e})") from None
    url = server.url_of(sock)
    click.echo(url)
    sys.stdout.flush()
    if host not in (server.LOCAL_HOST, "localhost", "::1"):
        note(f"warning: listening on {host}: anyone who reaches this address can play and read the evenings")
    settings = server.Settings(db=store.path, bots=bots, pace=pace, budget=budget)
    try:
        server.serve(settings, sock)
    except (Terminated, KeyboardInterrupt) as e:  # main() says it stopped, and what it kept
        e.add_note(f"the evenings are kept in {store.path}")
        raise


@cli.command()
@db_option
@click.option("--evening", type=click.IntRange(min=1), metavar="ID", help="The evening to export.")
@click.option("--records", "records_path", metavar="FILE.jsonl",
              help="Write the evening's deal records (docs/records.md; - for standard output).")
@click.option("--sheet", "sheet_path", metavar="FILE.csv",
              help="Write the evening's score sheet, as `tarotsim sheet` reads it (- for standard output).")
def evenings(db_path, evening, records_path, sheet_path):
    """The evenings played in the browser (`tarotsim serve`): list them, export one.

    Without --evening, one line per evening of the database: its id, when it began, the
    table, the seat, the bots, the seed, the deals finished and the totals. With
    --evening ID, --records writes its deal records (JSON Lines) and --sheet its score
    sheet; `tarotsim replay`, `stats` and `show` also read them straight from the
    database (--db FILE --evening ID).

    \b
    Examples:
      tarotsim evenings --db evenings.sqlite3
      tarotsim evenings --db evenings.sqlite3 --evening 2 --records evening-2.jsonl \\
                        --sheet evening-2.csv
    """
    from ..outputs import open_outputs
    from ..web.store import StoreError

    if evening is None and (records_path or sheet_path):
        raise BadInput("--records and --sheet export one evening: give --evening ID")
    if evening is not None and not (records_path or sheet_path):
        raise BadInput("--evening ID: give --records FILE.jsonl or --sheet FILE.csv to export it")
    with open_outputs({"--records": records_path, "--sheet": sheet_path}) as outs:
        store = _store(db_path, create=False)
        try:
            if evening is None:
                _list_evenings(store)
                return
            try:
                store.evening(evening)
            except StoreError as e:
                raise BadInput(f"--evening: {e}") from None
            if records_path:
                from ..record import dumps
                for rec in store.records(evening):
                    outs["--records"].fh.write(dumps(rec) + "\n")
            if sheet_path:
                from ..web.server import sheet_csv
                outs["--sheet"].fh.write(sheet_csv(store, evening))
        finally:
            store.close()
    for flag, path in (("deal records", records_path), ("score sheet", sheet_path)):
        if path and path != "-":
            click.echo(f"{flag} of evening {evening} written to {path}", err=True)


def _list_evenings(store) -> None:
    rows = store.evenings()
    if not rows:
        click.echo(f"{store.path} holds no evening")
        return
    for e in rows:
        totals = ", ".join(f"{n} {t:+d}" for n, t in zip(e.names, e.totals))
        state = "ended" if e.ended else "in progress"
        click.echo(f"evening {e.id}  {e.created}  table {e.table}  seat {e.seat}  bots {echo.cut(e.bots)}  "
                   f"seed {e.seed}  {e.deals} deal(s), {state}" + (f"  {totals}" if e.deals else ""))
