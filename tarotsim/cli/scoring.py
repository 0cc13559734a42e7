"""Scoring: ``tarotsim options``, ``tarotsim score`` (one deal) and ``tarotsim sheet`` (an evening)."""

from __future__ import annotations

import json
import sys

import click

from ..audit import audit_sheet, format_audit
from ..rules import CONTRACTS, OPTION_SPECS, TABLES
from ..scoring import CHELEM_OUTCOMES, DealFacts, format_breakdown, parse_misere, parse_poignee, parse_points, score
from ..sheet import SheetError, players_in_header, read_sheet, read_sheet_bytes, score_sheet, table_of
from .app import cli
from .common import BadInput, rules_of, seat_named, seat_names

CHELEM_CHOICES = [k for k in CHELEM_OUTCOMES if k]


def _points(points, defence_points) -> int:
    if (points is None) == (defence_points is None):
        raise BadInput("give the attack's points or the defence's points, exactly one of them")
    if points is not None:
        return parse_points(points)
    return 182 - parse_points(defence_points)


@cli.command()
def options():
    """List the variant options (docs/rules.md §14) with their default and allowed values."""
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
    Example (EX-2 of docs/rules.md): a failed garde sans at 4 players, petit au bout and
    a poignée for the defence:
      tarotsim score --contract garde_sans --oudlers 2 --points 37 \\
                     --petit-au-bout defence --poignee simple:defence
    """
    rules = rules_of(table, options_)
    names_ = seat_names(names, rules, "--names")
    taker_seat = seat_named(taker, names_, "taker") if taker else 0
    partner_seat = None
    if partner and table != "5":
        raise BadInput(f"--partner: a partner is called only at table 5, not at table {table} (R-CALL-1)")
    if alone and table != "5":
        raise BadInput("--alone applies to table 5 only")
    if alone and partner:
        raise BadInput(f"--partner {partner} and --alone contradict each other: a taker alone has no partner "
                       f"(R-CALL-2)")
    if table == "5" and not alone:
        partner_seat = seat_named(partner, names_, "partner") if partner else (1 if taker_seat != 1 else 0)
        if partner_seat == taker_seat:
            raise BadInput("the partner cannot be the taker (use --alone when he called himself)")
    dummy_seat = None
    if table == "5d":
        dummy_seat = seat_named(dummy, names_, "dummy") if dummy else rules.n_seats - 1
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
    rules_of(table or "4", options_, {"game_end": until} if until else None)  # bad options: before any reading
    source, source_name = read_sheet_bytes(file)
    # without --players, the players' own columns (Emma, Emma total) name them in playing order
    found = None if players else players_in_header(source, name=source_name)
    players = players or (",".join(found) if found else None)
    if table is None:  # from the number of players (tarotsim.sheet.table_of: never table 2 by a guess)
        table = table_of([n.strip() for n in players.split(",")] if players else None, found_in_header=bool(found))
    rules = rules_of(table, options_, {"game_end": until} if until else None)
    names = seat_names(players, rules, "--players")
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
        click.echo(f"{'':>3}  {'total'.rjust(lw)}  " + "  ".join(f"{t:+{w}d}" for t in d.totals))
    click.echo("every deal sums to zero (R-SCORE-3)")
    if finished_at is not None:
        rest = result.rows - finished_at
        click.echo(f"game over at deal {finished_at}: {', '.join(result.winners)} reached {target}"
                   + (f" ({rest} later row(s) not counted)" if rest else ""))
    if target is not None and finished_at is None:
        click.echo(f"nobody reached {target}: leader {' and '.join(result.leader)} with {result.best:+d} "
                   f"after {len(deals)} deal(s)")
    else:
        click.echo(f"winner: {' and '.join(result.winners)} with {result.best:+d}")
