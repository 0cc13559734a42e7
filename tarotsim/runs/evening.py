"""A person's evening at one table: the deal sequence, the bots at the other seats, the hint.

What every front end that seats a person among bots shares, the terminal (``tarotsim play``,
:mod:`tarotsim.cli.interactive`) and the browser (``tarotsim serve``, :mod:`tarotsim.web`):

- the deal sequence: deal ``(seed, index)`` is dealt by seat ``index % n``
  (:func:`tarotsim.rng.deal`); the first index is drawn from the seed (a random first dealer,
  R-DEAL-3), each next deal is dealt by the next seat (R-DEAL-3), except that at 5d a thrown-in
  deal is dealt again by the same dummy (R-DEAL-6, option ``dummy_redeal_same``):
  :func:`first_index`, :func:`next_index`;
- the bots at the other seats (:func:`bots_for`, from a ``--bots`` text) and a bot's turn
  (:func:`bot_turn`), its forbidden answer naming bot, seat, deal and rule;
- the hint: the strongest bot's advice (:func:`hint_bot`, :data:`HINT_BOT`), drawn from a
  random stream of its own (:data:`STREAM_HINTS`) so that asking for it never changes a deal,
  and said in words by :func:`advice`;
- what the table sees, said to the person: each event (:func:`narration`), the contract taken
  (:func:`taking`), the partner as the seat knows him (:func:`partner_text`), an engine's refusal
  in the person's words (:func:`personal`), the count of a finished deal (:func:`count`); the
  score sheet's label of a deal (:func:`deal_label`).
"""

from __future__ import annotations

import re
from typing import Any

from .. import echo
from ..cards import Card, format_points, parse_cards
from ..engine import Event, Game, IllegalPlayError, SeatView
from ..rng import Rng
from ..rules import CONTRACT_OF, Rules
from ..scoring import format_breakdown

__all__ = ["HINT_BOT", "HINT_FALLBACK", "STREAM_HINTS", "advice", "bot_turn", "bots_for", "check_seat", "count",
           "deal_label", "first_index", "hint_bot", "hint_bot_name", "narration", "next_index", "partner_text",
           "personal", "seat_names", "taking"]

#: The hints' own random stream: asking for a hint never changes the bots' draws.
STREAM_HINTS = 7
#: The hint's bot (``--bots`` grammar): the strongest measured (docs/explanation/strength.md).
HINT_BOT = "pimc:infer=1"
#: The hint's bot at a table where ``HINT_BOT``'s reading of the table does nothing (table 2,
#: R-VAR-TWO: ``infer`` is refused there): the search without it.
HINT_FALLBACK = "pimc"


def first_index(rules: Rules, seed: int) -> int:
    """The index of an evening's first deal, whose dealer the seed draws.

    ``seed mod n``, so its dealer (``index mod n``) is drawn from the seed, as the first dealer
    is drawn at random (R-DEAL-3)."""
    return seed % rules.n_seats


def next_index(rules: Rules, index: int, outcome: str) -> int:
    """The index of the next deal.

    Index of the deal after deal ``index``: dealt by the next seat (R-DEAL-3), or at 5d after
    an all-pass by the same dummy when ``dummy_redeal_same`` is on (R-DEAL-6), with a new index
    whose dealer is that seat, so every deal keeps its own ``(seed, index)``."""
    n = rules.n_seats
    if rules.table == "5d" and outcome == "all_passed" and rules.dummy_redeal_same:
        return index + n
    return index + 1


def seat_names(rules: Rules, seat: int) -> list[str]:
    """``you`` at the person's seat, ``bot1`` … at the others (numbered by seat)."""
    return ["you" if s == seat else f"bot{s}" for s in range(rules.n_seats)]


def check_seat(rules: Rules, seat: int) -> int:
    """The person's seat: a whole number in 0..n-1 (R-GEN-2)."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < rules.n_seats:
        raise ValueError(f"seat {echo.shown(seat)} is not a seat of table {rules.table}: "
                         f"seats 0..{rules.n_seats - 1} (R-GEN-2)")
    return seat


def bots_for(text: str, rules: Rules, seat: int) -> list:
    """The slow-path bots for the other seats, from ``--bots``.

    ``--bots`` for the other seats: one bot for all of them, or one per other seat in seat
    order (n - 1 names). Returns one slow-path bot per seat, None at the person's seat; raises
    ``ValueError`` (one line) for a text that names no playable bots."""
    from .players import bot_texts, parse_players
    from .slowpath import _Guarded

    segs = bot_texts(text)
    others = rules.n_seats - 1
    if len(segs) not in (1, others):
        raise ValueError(f"--bots: you hold seat {seat}; give one bot for the {others} other seats or {others} "
                         f"separated by commas (in seat order), not {len(segs)}")
    if len(segs) == others:
        segs = segs[:seat] + ["random"] + segs[seat:]  # a placeholder for the person's own seat
    players = parse_players(",".join(segs), rules)
    return [None if s == seat else _Guarded(p.python_bot(), None, None) for s, p in enumerate(players)]


def bot_turn(game: Game, bot, rng: Rng):
    """Ask ``bot`` for the game's current decision and apply its answer; the event logged.

    A bot's forbidden answer stops the game naming bot, seat, deal and rule (as on the slow path
    of ``simulate``): :class:`~tarotsim.engine.IllegalPlayError`."""
    from ..adapters import DECISION_RULES

    d = game.decision
    assert d is not None, "the deal is over"
    bot.seed, bot.index = game.seed, game.index
    answer = bot.choose(game.view(d.seat), game.legal_actions(), rng)
    try:
        return game.apply(answer)
    except IllegalPlayError as e:
        raise IllegalPlayError(e.rule_id, f"bot {bot.name} at seat {d.seat}, deal ({game.seed}, {game.index}): "
                                          f"{e.message}") from None
    except (TypeError, ValueError) as e:  # not even a choice of that kind
        rule = DECISION_RULES["misere" if d.kind.startswith("misere") else d.kind]
        raise IllegalPlayError(rule, f"bot {bot.name} at seat {d.seat}, deal ({game.seed}, {game.index}): "
                                     f"answered {echo.shown(answer)}, not a {d.kind.replace('_', ' ')} choice "
                                     f"({echo.cut(e, echo.MESSAGE)})") from None


def hint_bot_name(rules: Rules) -> str:
    """The name of the bot that gives the hints at this table.

    The bot whose advice ``hint`` gives: ``HINT_BOT``, or ``HINT_FALLBACK`` at a table where its
    parameters do nothing (the players' own check decides, so the hint follows what the bots can
    do)."""
    from .players import parse_players

    try:
        parse_players(HINT_BOT, rules)
    except ValueError:
        return HINT_FALLBACK
    return HINT_BOT


def hint_bot(rules: Rules):
    """``(name, bot)``: the hint's bot at this table (:func:`hint_bot_name`), ready to ``choose``."""
    from bots import parse_bot

    from ..adapters import FastBotAdapter

    name = hint_bot_name(rules)
    return name, FastBotAdapter(*parse_bot(name))


def advice(kind: str, answer, card=Card.pretty) -> str:
    """A bot's answer to a decision of ``kind``, in words: ``bid garde``, ``play K♥`` ….

    ``card(c)`` writes a card (the terminal colours it)."""
    if kind == "bid":
        return f"bid {answer.replace('_', ' ')}"
    if kind == "call":
        return f"call {card(answer)}"
    if kind == "ecart":
        return f"lay aside {' '.join(str(c) for c in sorted(answer))}"
    if kind == "poignee":
        return "show no poignée" if answer is None else f"show a {answer} poignée"
    if kind == "chelem":
        return "announce a chelem" if answer else "not announce a chelem"
    if kind.startswith("misere"):
        return ("" if answer else "not ") + "declare the misère"
    return f"play {card(answer)}"


def deal_label(rec: dict, names: list[str]) -> str:
    """A deal as a score sheet's row names it: ``you garde made +15``, ``all passed``, ``petit sec``."""
    if rec["outcome"] == "petit_sec":
        return "petit sec"
    if rec["outcome"] == "all_passed":
        return "all passed"
    r = rec["result"]
    return (f"{names[rec['taker']]} {rec['contract'].replace('_', ' ')} "
            f"{'made' if r['made'] else 'failed'} {r['difference']:+d}")


def _cards(cards, card) -> str:
    return " ".join(card(c) for c in cards) if cards else "-"


def narration(ev: Event, names: list[str], seat: int, *, card=Card.pretty, trick=None, pile: int | None = None,
              ) -> str | None:
    """One line for what a seat just did, as the table sees it, or None when it says nothing.

    ``ev`` is an event of :attr:`tarotsim.engine.Game.events`; ``names`` name the seats and
    ``seat`` is the person's (``you bid``, the person's whole écart; another's écart shows its
    trumps only, R-CHIEN-2). A ``trick`` event needs ``trick``, ``(number, plays)`` with the plays
    ``(seat, card)`` from the leader; a ``card`` played from a face-up pile top at table 2 gives
    its ``pile`` (1..6, R-VAR-TWO). ``card(c)`` writes a card (the terminal colours it)."""
    who = names[ev.seat] if ev.seat is not None else ""

    def verb(third: str, second: str) -> str:
        return second if ev.seat == seat else third

    v: Any = ev.value  # its type follows ``kind`` (tarotsim.engine.Event)
    if ev.kind == "bid":
        return f"{who} {verb('bids', 'bid')} {v.replace('_', ' ')}"
    if ev.kind == "call":
        return f"{who} {verb('calls', 'call')} {card(v)} (R-CALL-1)"
    if ev.kind == "ecart":
        if ev.seat == seat:
            return f"you lay aside {_cards(v, card)}"
        shown = [c for c in v if c.is_trump]
        return f"{who} lays the écart aside" + (f", showing the trumps {_cards(shown, card)} (R-CHIEN-2)"
                                                 if shown else "")
    if ev.kind == "chelem":
        return f"{who} {verb('announces', 'announce')} a chelem and {verb('leads', 'lead')} (R-SLAM-1)" if v else None
    if ev.kind == "poignee":
        return f"{who} {verb('shows', 'show')} a {v[0]} poignée: {_cards(v[1], card)}" if v else None
    if ev.kind == "misere":
        kind, yes = v
        what = "d’atout" if kind == "atout" else "de tête"
        return f"{who} {verb('declares', 'declare')} misère {what} (R-MIS-1)" if yes else None
    if ev.kind == "card":
        where = f" from {'your' if ev.seat == seat else 'his'} pile {pile}" if pile is not None else ""
        return f"{who} {verb('plays', 'play')} {card(v)}{where}"
    if ev.kind == "trick":
        number, plays = trick
        cells = [f"{names[s]} {card(c)}{'*' if s == ev.seat else ''}" for s, c in plays]
        return f"trick {number} to {who}: " + "  ".join(cells)
    raise AssertionError(f"unknown event kind {ev.kind}")


def taking(names: list[str], seat: int, taker: int, contract: str) -> str:
    """The line that says who takes and at what contract, and where an unseen chien goes (R-CHIEN-3, R-CHIEN-4)."""
    c = CONTRACT_OF[contract]
    text = f"{names[taker]} {'take' if taker == seat else 'takes'}: {contract.replace('_', ' ')} (x{c.multiplier})"
    if not c.chien_shown:
        text += f"; the chien stays unseen and counts for the {c.chien_to} (R-CHIEN-3, R-CHIEN-4)"
    return text


def personal(message: str, seat: int) -> str:
    """An engine message reworded for the person it speaks of.

    An engine message said to the person: ``holds`` becomes ``you hold``, ``pile 2 of seat 0``
    becomes ``your pile 2``."""
    for a, b in ((f"seat {seat} does not hold", "you do not hold"), (f"seat {seat} holds", "you hold"),
                 (f"seat {seat} has already", "you have already"), (f"seat {seat} has passed", "you have passed"),
                 (": holds ", ": you hold ")):
        message = message.replace(a, b)
    return re.sub(rf"\bpile (\d+) of seat {seat}\b", r"your pile \1", message)


def count(game: Game, rec: dict, names: list[str], seat: int, card=Card.pretty) -> str:
    """After a deal: the count (points, oudlers, target, difference) and the score breakdown.

    ``rec`` is the finished game's record; a deal not played says why it scores 0 (R-DEAL-4,
    R-BID-3). The taker's écart is told to the others."""
    if rec["outcome"] == "petit_sec":
        return (f"petit sec: {names[rec['petit_sec_seat']]} holds the Petit as the only trump; "
                "the deal is annulled, scores 0 (R-DEAL-4)")
    if rec["outcome"] == "all_passed":
        return "everybody passed: the deal is thrown in, scores 0 (R-BID-3)"
    attack = {rec["taker"], rec["partner"]} - {None}
    n_att = sum(1 for t in rec["tricks"] if t["winner"] in attack)
    hp = rec["result"]["attack_half_points"]
    lines = [f"attack {format_points(hp)} points, defence {format_points(182 - hp)} (R-COUNT-1); "
             f"tricks: attack {n_att}, defence {len(rec['tricks']) - n_att}"]
    if rec["called"] is not None:
        partner = names[rec["partner"]] if rec["partner"] is not None else "nobody (the taker alone)"
        lines.append(f"called {card(Card.parse(rec['called']))}: partner {partner} (R-CALL-2)")
    if rec["ecart"] and rec["taker"] != seat:
        lines.append(f"écart of {names[rec['taker']]}: {_cards(parse_cards(rec['ecart']), card)}")
    lines.append(format_breakdown(game.breakdown, names))
    return "\n".join(lines)


def partner_text(v: SeatView, names: list[str]) -> str:
    """The partner (table 5) as the seat of view ``v`` knows him.

    Named once the called card is played and to the partner himself (R-CALL-3: the view says
    so); known at once to the taker whose own hand or écart holds it, and to all when the shown
    chien held it (R-CALL-2)."""
    if v.partner is not None:
        return names[v.partner]
    if v.taker == v.seat and v.called in v.hand:
        return "nobody: you hold the card you called, you play alone (R-CALL-2)"
    if v.taker == v.seat and v.ecart and v.called in v.ecart:
        return "nobody: the called card is in your écart, you play alone (R-CALL-2)"
    if v.chien and v.called in v.chien:
        return "nobody: the called card was in the chien, the taker plays alone (R-CALL-2)"
    played = [c for _, plays, _ in v.tricks for _, c in plays] + [c for _, c in v.trick]
    if v.called in played:
        return "nobody: the taker plays alone"
    return "not known yet"
