"""One person's evening at one table of the browser, decision by decision.

A :class:`Table` seats the person at one seat of a :class:`tarotsim.engine.Game` and bots at the
others (:func:`tarotsim.runs.evening.bots_for`), deal after deal with the next dealer each time
(:func:`tarotsim.runs.evening.next_index`), as ``tarotsim play`` does: the same deals, the same
refusals with the rule's id, the same hint. The person's choices are action id texts
(:mod:`tarotsim.actions`: ``pass``, ``garde``, ``KH``, ``T21``, ``EX``, ``chelem_no``,
``poignee_simple`` …), the écart picked card by card (R-CHIEN-2 applied to the picks so far).

Every change is kept in the evenings file (:class:`tarotsim.web.store.Store`) at once, so a table
opened again (:meth:`Table.resume`) is exactly where it was. :meth:`Table.state` is what the page
draws: the table as the person's seat sees it (:mod:`tarotsim.svg`, the other hands as backs that
name no card), the choices with the refusal of each illegal one, the log and the score sheet.

The table does one thing at a time and is driven by one caller (the server's connection): a bot's
move and a hint may take long (:meth:`Table.bot_move` and :meth:`Table.hint` are run off the event
loop), and the caller sends nothing else to the table meanwhile.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .. import echo, svg
from ..actions import action_id
from ..cards import Card
from ..display import display_order
from ..engine import Game, IllegalPlayError
from ..record import with_seat_labels
from ..rng import STREAM_BOTS, Rng, stream_state
from ..rules import CONTRACTS, POIGNEE_LEVELS, Rules
from ..runs import evening as ev
from .store import Evening, Progress, Store

__all__ = ["WEB_TABLES", "Table", "TableError", "review_data", "review_page", "rules_of"]

#: The tables the page seats a person at (table 2's piles are not offered: R-VAR-TWO).
WEB_TABLES = ("3", "4", "5", "5d")


class TableError(ValueError):
    """What the page asked that is no choice at this table now (an unknown action, out of turn …): one line."""


def rules_of(table: str, options) -> Rules:
    """The rules of a table the page chose: one of :data:`WEB_TABLES`, ``options`` as ``NAME=VALUE`` texts.

    Raises :class:`TableError` (or :class:`tarotsim.rules.RulesError`, for an option) in one line."""
    if table not in WEB_TABLES:
        raise TableError(f"table {echo.shown(table)}: the page seats a person at table {', '.join(WEB_TABLES)}")
    values = dict(Rules.parse_option(str(text)) for text in options)
    return Rules.from_options(table, values)


def _bots_allowed(text: str, allowed: tuple[str, ...]) -> None:
    """Refuse a user's bot (``module:NAME``, code to import) that the server was not started with."""
    from ..runs.players import bot_texts
    from ..runs.slowpath import is_python_bot

    for seg in bot_texts(text):
        if is_python_bot(seg) and seg not in allowed:
            raise TableError(f"bot {echo.shown(seg)}: a bot of your own (module:NAME) is offered only when the "
                             "server is started with it (tarotsim serve --bots)")


class Table:
    """One evening of the evenings file at the browser: its deal in progress, its bots, its hint.

    Build it with :meth:`new` (a new evening) or :meth:`resume` (an evening of the file)."""

    def __init__(self, store: Store, evening: Evening, progress: Progress):
        self.store, self.id = store, evening.id
        self.rules = Rules.from_options(evening.table, evening.options)
        self.seat, self.seed, self.names, self.bots_text = evening.seat, evening.seed, evening.names, evening.bots
        self.bots = ev.bots_for(evening.bots, self.rules, self.seat)
        self.records = store.records(evening.id)
        self.turn = 0  # counts the states shown: an action names the one it answers
        self._hint: tuple[str, Any] | None = None  # (name, bot), made at the first hint
        self._start(progress)

    @classmethod
    def new(cls, store: Store, table: str, options, seat: int, bots: str, seed: int,
            allowed: tuple[str, ...] = ()) -> Table:
        """A new evening of ``store``, its first deal dealt.

        ``table`` and ``options`` (:func:`rules_of`), the person at ``seat``, ``bots`` (a
        ``--bots`` text for the other seats), deals ``(seed, index)`` from ``seed``.
        ``allowed``: the user's bots (``module:NAME``) the page may name. Raises ``ValueError``
        (one line: :class:`TableError`, a bots or rules error, a deal identity out of range)."""
        from ..rng import MAX_CLI_SEED

        rules = rules_of(table, options)
        ev.check_seat(rules, seat)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_CLI_SEED:
            raise TableError(f"seed {echo.shown(seed)}: a whole number in 0..2**63-1")
        _bots_allowed(bots, allowed)
        ev.bots_for(bots, rules, seat)  # refused before anything is stored
        index = ev.first_index(rules, seed)
        evening = store.new_evening(rules.table, rules.non_default_options(), seat, bots, seed,
                                    ev.seat_names(rules, seat), index, *_streams(seed, index))
        return cls.resume(store, evening)

    @classmethod
    def resume(cls, store: Store, evening: int) -> Table:
        """An evening of the file, at the decision its deal in progress had reached.

        Raises :class:`tarotsim.web.store.StoreError` for an evening the file lacks, and
        :class:`TableError` for one that was ended or whose deal in progress does not replay."""
        e = store.evening(evening)
        progress = store.progress(evening)
        if e.ended or progress is None:
            raise TableError(f"evening {evening} was ended after {e.deals} deal(s): start a new one")
        return cls(store, e, progress)

    # -- the deal in progress ------------------------------------------------------------------------
    def _start(self, p: Progress) -> None:
        self.number, self.index = p.number, p.index
        self.game = Game(self.rules, self.seed, self.index)
        self.picks: list[Card] = []
        self.log: list[str] = []
        self._told = {"events": 0, "tricks": 0, "taker": False, "chien": False}
        try:
            for e in p.events:  # one by one, told as they were when they happened
                self.game.apply_event(e)
                self._tell()
            for c in p.picks:
                self._picked().verify_pick(c)
                self.picks.append(c)
        except (IllegalPlayError, ValueError) as e:
            raise TableError(f"evening {self.id}: its deal in progress does not replay ({echo.cut(e, echo.MESSAGE)})") \
                from None
        self.rng, self.hint_rng = Rng(p.bots_state), Rng(p.hints_state)
        self.finished: dict | None = None  # the deal just finished, shown until the next one
        self.turn += 1

    def _picked(self) -> Game:
        """The game with the person's écart picks so far applied (a copy)."""
        g = self.game.clone()
        for c in self.picks:
            g.pick(c)
        return g

    @property
    def yours(self) -> bool:
        """The person is to decide now."""
        d = self.game.decision
        return self.finished is None and d is not None and d.seat == self.seat

    @property
    def bots_to_move(self) -> bool:
        """A bot is to decide now (the caller runs :meth:`bot_move`)."""
        d = self.game.decision
        return self.finished is None and d is not None and d.seat != self.seat

    def bot_move(self) -> None:
        """The bot whose turn it is decides, and its decision is applied and kept (may take long)."""
        d = self.game.decision
        assert d is not None and d.seat != self.seat, "no bot to move"
        ev.bot_turn(self.game, self.bots[d.seat], self.rng)
        self._changed()

    def act(self, text) -> None:
        """The person's choice, an action id text (``garde``, ``KH``, ``poignee_none`` …).

        Raises :class:`TableError` for a text that is no action or comes out of turn, and
        :class:`tarotsim.engine.IllegalPlayError` (naming the rule) for a choice the rules forbid;
        either way the table is unchanged."""
        d = self._person_decision()
        try:
            aid = action_id(text) if isinstance(text, str) else None
        except ValueError:
            aid = None
        if aid is None:
            raise TableError(f"{echo.shown(text)} is no action: a bid (pass, {', '.join(CONTRACTS)}), a card (KH, "
                             "T21, EX), chelem_yes/no, poignee_none/simple/double/triple or misere_yes/no")
        if d.kind == "ecart":
            self._picked().verify_action(aid)
            card = Card(aid)
            if len(self.picks) + 1 < self.game.legal_actions().size:
                self.picks.append(card)
                self._keep()
                self.turn += 1
                return
            self.game.discard(self.picks + [card])
            self.picks = []
        else:
            self.game.apply_action(aid)
        self._changed()

    def unpick(self, text) -> None:
        """Take a card back out of the écart being picked."""
        d = self._person_decision()
        card = _card_or_none(text)
        if d.kind != "ecart" or card not in self.picks:
            raise TableError(f"{echo.shown(text)} is not a card of your écart being picked")
        self.picks.remove(card)
        self._keep()
        self.turn += 1

    def _person_decision(self):
        d = self.game.decision
        if self.finished is not None or d is None:
            raise TableError("the deal is over: start the next deal")
        if d.seat != self.seat:
            raise TableError(f"not your turn: {self.names[d.seat]} is to decide ({d.kind.replace('_', ' ')})")
        return d

    def hint(self) -> dict:
        """What the strongest bot would do here: ``{"text", "actions"}`` (may take long).

        From the hints' own random stream (:data:`tarotsim.runs.evening.STREAM_HINTS`): asking
        never changes the deal."""
        d = self._person_decision()
        if self._hint is None:
            self._hint = ev.hint_bot(self.rules)
        name, bot = self._hint
        answer = bot.choose(self.game.view(self.seat), self.game.legal_actions(), self.hint_rng)
        self._keep()
        extra = " (its card searched over sampled deals)" if d.kind == "card" and name.startswith("pimc") else ""
        return {"text": f"{name} would {ev.advice(d.kind, answer)}{extra}", "actions": _answer_actions(d.kind, answer)}

    def next_deal(self) -> None:
        """After a finished deal, the next one (dealt by the next seat, R-DEAL-3)."""
        if self.finished is None:
            raise TableError("the deal is not over yet")
        progress = self.store.progress(self.id)
        assert progress is not None  # finishing a deal sets the next one in progress
        self._start(progress)

    def end(self) -> None:
        """End the evening: the deal in progress is not scored, the finished deals are kept."""
        self.store.end_evening(self.id)

    def _changed(self) -> None:
        """After a decision: nothing asked (a poignée too small to show), told, kept or finished."""
        d = self.game.decision
        if d is not None and d.seat == self.seat and d.kind == "poignee" and self.game.legal_actions() == [None]:
            self.game.declare_poignee(None)  # too few trumps for any poignée: nothing to ask (R-POIG-1)
        self._tell()
        if self.game.done:
            self._finish()
        else:
            self._keep()
        self.turn += 1

    def _keep(self) -> None:
        self.store.save_progress(self.id, self.game.events, self.picks, self.rng.state, self.hint_rng.state)

    def _finish(self) -> None:
        rec = with_seat_labels(self.game.record(), players=self.names)
        following = ev.next_index(self.rules, self.index, rec["outcome"])
        number = self.store.finish_deal(self.id, rec, following, *_streams(self.seed, following))
        self.records.append(rec)
        self.finished = {"number": number, "record": rec,
                         "count": ev.count(self.game, rec, self.names, self.seat)}

    def _tell(self) -> None:
        """The log: each new event in words, the contract once taken, the chien once shown."""
        told = self._told
        for e in self.game.events[told["events"]:]:
            trick = None
            if e.kind == "trick":
                told["tricks"] += 1
                trick = (told["tricks"], self.game.view(self.seat).tricks[told["tricks"] - 1][1])
            line = ev.narration(e, self.names, self.seat, trick=trick)
            if line is not None:
                self.log.append(line)
        told["events"] = len(self.game.events)
        v = self.game.view(self.seat)
        if v.taker is not None and not told["taker"]:
            told["taker"] = True
            assert v.contract is not None  # a taker has a contract
            self.log.append(ev.taking(self.names, self.seat, v.taker, v.contract))
        if v.chien is not None and not told["chien"]:
            told["chien"] = True
            self.log.append(f"the chien is shown (R-CHIEN-1): {' '.join(c.pretty() for c in v.chien)}")

    # -- what the page draws -----------------------------------------------------------------------------
    def choices(self) -> list[dict]:
        """The person's choices now, each ``{"action", "legal"}`` and, when illegal, why (``why``, ``rule``)."""
        if not self.yours:
            return []
        d = self.game.decision
        assert d is not None
        game = self._picked() if d.kind == "ecart" else self.game
        if d.kind == "bid":
            texts = ["pass", *CONTRACTS]
        elif d.kind == "call":
            kings = [Card.parse(f"K{s}") for s in "SHDC"]
            texts = [str(c) for c in sorted(set(kings) | set(game.legal_calls()))]
        elif d.kind in ("ecart", "card"):
            texts = [str(c) for c in display_order(game.hand(self.seat)) if c not in self.picks]
        elif d.kind == "chelem":
            texts = ["chelem_no", "chelem_yes"]
        elif d.kind == "poignee":
            texts = ["poignee_none"] + [f"poignee_{lv}" for lv in POIGNEE_LEVELS]
        else:
            texts = ["misere_no", "misere_yes"]
        legal = set(game.legal_action_ids())
        out = []
        for text in texts:
            aid = action_id(text)
            if aid in legal:
                out.append({"action": text, "legal": True})
                continue
            try:
                game.verify_action(aid)
                why, rule = "not a choice now", None  # cannot happen: what the mask leaves out is refused
            except IllegalPlayError as e:
                why, rule = ev.personal(str(e), self.seat), e.rule_id
            out.append({"action": text, "legal": False, "why": why, "rule": rule})
        return out

    def picture(self) -> str:
        """The table as the person's seat sees it (SVG): the other hands and the unseen chien as backs."""
        game = self.game
        pos = svg.position_of_game(game)
        v = game.view(self.seat)
        unseen: set = set()
        if not game.done:
            seen = set(v.hand) | set(v.ecart or ()) | set(v.ecart_trumps) | {c for _, c in v.trick}
            seen |= {c for _, plays, _ in v.tricks for _, c in plays}
            seen |= {Card.parse(c) for d in v.declarations for c in d.get("cards", ())}
            if pos.marked and v.chien is not None:  # the shown chien, in the taker's hand until the écart
                seen |= set(v.chien)
            unseen = set(pos.shown()) - seen
        hands = tuple(() if s == self.seat else h for s, h in enumerate(pos.hands))  # the person's: the page's own
        pos = replace(pos, hands=hands, partner=v.partner, called=v.called if v.partner is not None else None)
        return svg.render(svg.layout(pos, self.names, you=self.seat), frozenset(unseen))

    def state(self) -> dict:
        """The table now, as the protocol's ``state`` message gives it (docs/how-to/play-in-the-browser.md)."""
        g = self.game
        v = g.view(self.seat)
        d = g.decision
        ecart = g.legal_actions() if d is not None and d.kind == "ecart" and d.seat == self.seat else None
        totals = [0] * len(self.names)
        sheet = []
        for k, rec in enumerate(self.records, 1):
            totals = [t + s for t, s in zip(totals, rec["scores"])]
            sheet.append({"deal": k, "label": ev.deal_label(rec, self.names), "scores": rec["scores"],
                          "totals": totals})
        won = [0] * len(self.names)
        for _, _, w in v.tricks:
            won[w] += 1
        state = {
            "type": "state", "evening": self.id, "deal": self.number, "turn": self.turn,
            "table": self.rules.table, "options": self.rules.non_default_options(), "seed": self.seed,
            "index": self.index, "seat": self.seat, "names": self.names, "dealer": v.dealer,
            "decision": None if d is None else {"kind": d.kind, "seat": d.seat},
            "yours": self.yours, "choices": self.choices(),
            "hand": [str(c) for c in display_order(v.hand)],
            "marked": [str(c) for c in v.chien or () if c in v.hand and ecart is not None],
            "picks": [str(c) for c in self.picks], "ecart_size": ecart.size if ecart else None,
            "ecart_trumps_needed": ecart.trumps_needed if ecart else None,
            "bids": [list(b) for b in v.bids], "taker": v.taker, "contract": v.contract,
            "called": None if v.called is None else str(v.called),
            "partner": None if v.called is None else ev.partner_text(v, self.names),
            "chien": None if v.chien is None else [str(c) for c in v.chien],
            "ecart": None if v.ecart is None else [str(c) for c in v.ecart],
            "declarations": [dict(x) for x in v.declarations],
            "trick": [[s, str(c)] for s, c in v.trick], "tricks_won": won,
            "last_trick": None if not v.tricks else {"plays": [[s, str(c)] for s, c in v.tricks[-1][1]],
                                                     "winner": v.tricks[-1][2]},
            "log": self.log, "picture": self.picture(),
            "over": self.finished is not None, "sheet": {"names": self.names, "rows": sheet, "totals": totals},
        }
        if self.finished is not None:
            rec = self.finished["record"]
            state["result"] = {"number": self.finished["number"], "outcome": rec["outcome"], "scores": rec["scores"],
                               "count": self.finished["count"]}
        return state


def _streams(seed: int, index: int) -> tuple[int, int]:
    """The bots' and the hints' random streams of deal ``(seed, index)`` at its start."""
    return Rng.for_deal(seed, index, STREAM_BOTS).state, stream_state(seed, index, ev.STREAM_HINTS)


def _card_or_none(text) -> Card | None:
    try:
        return Card.parse(text) if isinstance(text, str) else None
    except ValueError:
        return None


def _answer_actions(kind: str, answer) -> list[str]:
    """A bot's answer as the action id texts the page shows (an écart: each of its cards)."""
    if kind == "ecart":
        return [str(c) for c in answer]
    if kind == "poignee":
        return ["poignee_none" if answer is None else f"poignee_{answer}"]
    if kind == "chelem":
        return ["chelem_yes" if answer else "chelem_no"]
    if kind.startswith("misere"):
        return ["misere_yes" if answer else "misere_no"]
    return [str(answer)]  # a bid, or a card by its name


# -- the review of a finished deal ---------------------------------------------------------------------


def review_data(record: dict, names: list[str], seat: int, budget: int) -> dict:
    """The review of a finished deal: what each card cost against best play (``tarotsim analyse``).

    ``{"card_costs", "best_cards", "text"}`` (the record fields of the replay page and the
    analysis as ``analyse`` prints it), or ``{"text"}`` alone for a deal the solver does not
    analyse (not played). ``budget``: nodes per question (``analyse --budget``)."""
    from ..analysis import AnalysisError, analyse, best_cards, card_costs, check_analysable, format_analysis
    from ..analysis.solver import warm_up

    try:
        check_analysable(record)
        warm_up(notice=None)  # the page says the review is under way; the server's log stays its own
        a = analyse(record, budget=budget)
    except AnalysisError as e:
        return {"text": f"no analysis: {e}"}
    return {"card_costs": card_costs(a, record), "best_cards": best_cards(a, record),
            "text": format_analysis(a, names, you=seat)}


def review_page(record: dict, names: list[str], review: dict | None, title: str) -> str:
    """A finished deal's replay page with each analysed card's cost on it (as ``analyse --html`` writes it)."""
    from ..analysis.replay_page import deal_data, page

    review = review or {}
    return page([deal_data(record, None, names, review.get("card_costs"), review.get("best_cards"))], title)
