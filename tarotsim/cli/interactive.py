"""A person at the table: one seat answered at the terminal, bots at the others (``tarotsim play``).

The deals are played through the step-by-step :class:`~tarotsim.engine.Game`, so a person plays
by exactly the rules the bots play by: an answer the rules forbid is refused with the rule's id
(``"must overtrump: you hold T17 above T12 (R-PLAY-4b)"``) and asked again, nothing else changes.

:class:`Session` is the game loop; its input and output are two functions (``ask(prompt) -> str``,
``say(text)``), the terminal's by default, so tests can script it. Deals follow one another as at
a real table, the bots take their turns and the hint is given as :mod:`tarotsim.runs.evening` says,
which the browser's table (:mod:`tarotsim.web`) shares.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field

import click

from .. import echo
from ..cards import SUIT_SYMBOLS, Card, CardError, parse_cards
from ..display import piles_line
from ..engine import Decision, EcartChoice, Game, IllegalPlayError
from ..rng import STREAM_BOTS, Rng, dealing_order, stream_state
from ..rules import CONTRACTS, POIGNEE_LEVELS, Rules
# the evening's pieces, also under this module's names (``interactive.bots_for``) as before
from ..runs.evening import (HINT_BOT, HINT_FALLBACK, STREAM_HINTS, advice, bot_turn, bots_for,  # noqa: F401
                            check_seat, count, deal_label, first_index, hint_bot, hint_bot_name, narration, next_index,
                            partner_text, personal, seat_names, taking)

__all__ = ["Quit", "Session", "SessionResult", "answer_for"]

RED_SUITS = (1, 2)  # hearts, diamonds


def _decision(game: Game) -> Decision:
    """The decision the game waits for (the loop asks only while the deal is not over)."""
    d = game.decision
    assert d is not None, "the deal is over"
    return d


def _poignee_sizes(rules: Rules) -> tuple[int, int, int]:
    """The poignée sizes of the table (R-POIG-2); every table ``play`` seats has them."""
    sizes = rules.poignee_sizes
    assert sizes is not None, "no poignée at this table"
    return sizes


class Quit(Exception):
    """The person asked to stop (``quit``)."""


class BadAnswer(ValueError):
    """An answer that is not even a choice of the decision asked (not a card, not a bid …)."""


# ---------------------------------------------------------------------------------------------
# Reading answers


_YES = {"y", "yes", "o", "oui", "true", "1"}
_NO = {"n", "no", "non", "false", "0", "pass", "none", "-"}
_BID_ALIASES = {"pass": "pass", "passe": "pass", "p": "pass", "prise": "prise", "petite": "prise",
                "garde": "garde", "g": "garde", "garde_sans": "garde_sans", "gs": "garde_sans",
                "sans": "garde_sans", "garde_sans_le_chien": "garde_sans", "garde_contre": "garde_contre",
                "gc": "garde_contre", "contre": "garde_contre", "garde_contre_le_chien": "garde_contre"}


def _card(text: str) -> Card:
    """A card in the notation of the records (``KH``, ``10S``, ``T21``, ``EX``), suit symbols too."""
    return Card.parse(text, pretty=True)


def _cards(text: str) -> list[Card]:
    return [_card(t) for t in text.replace(",", " ").split()]


def _numbered(text: str, choices: list, what: str):
    """The choice numbered ``text`` (1-based) among ``choices``, or None when ``text`` is no number."""
    if not text.isdigit():
        return None
    k = int(text)
    if not 1 <= k <= len(choices):
        raise BadAnswer(f"{what} {k}: choose a number from 1 to {len(choices)}")
    return choices[k - 1]


def _yes_no(text: str) -> bool:
    t = text.lower()
    if t in _YES - {"1"}:
        return True
    if t in _NO - {"0"}:
        return False
    if t in ("1", "2"):  # the listed choices: 1 no, 2 yes
        return t == "2"
    raise BadAnswer(f"{echo.shown(text)}: answer yes or no (or 1 for no, 2 for yes)")


def answer_for(game: Game, text: str):
    """The action ``text`` answers to the game's current decision, for :meth:`Game.apply`.

    Raises :class:`BadAnswer` for a text that is not a choice of that kind (not a card, not a
    bid …); a choice the rules forbid is left to the game, which refuses it naming the rule.
    """
    d = _decision(game)
    legal = game.legal_actions()
    kind = d.kind
    if kind == "bid":
        k = _numbered(text, legal, "bid")
        if k is not None:
            return k
        key = re.sub(r"[\s\-]+", "_", text.lower())
        if key not in _BID_ALIASES:
            raise BadAnswer(f"{echo.shown(text)} is not a bid: pass, {', '.join(CONTRACTS)} (R-BID-1), or a number")
        return _BID_ALIASES[key]
    if kind in ("call", "card"):
        k = _numbered(text, legal, "choice")
        if k is not None:
            return k
        try:
            return _card(text)
        except CardError as e:
            raise BadAnswer(str(e)) from None
    if kind == "ecart":
        listed = _ecart_listing(legal)
        out = []
        for tok in text.replace(",", " ").split():
            k = _numbered(tok, listed, "card")
            try:
                out.append(k if k is not None else _card(tok))
            except CardError as e:
                raise BadAnswer(str(e)) from None
        return out
    if kind == "chelem" or kind.startswith("misere"):
        return _yes_no(text)
    if kind == "poignee":
        return _poignee_answer(game, text, legal)
    raise AssertionError(f"unknown decision {kind}")


def _poignee_answer(game: Game, text: str, legal: list):
    """Parse the person's answer to a poignée question.

    ``no``; a level (the lowest trumps shown); a level and the cards; the cards alone (the
    level of that size); or a listed number."""
    k = _numbered(text, legal, "choice")
    if k is not None or text.isdigit():
        return k
    words = text.lower().replace(",", " ").split()
    if len(words) == 1 and words[0] in _NO - {"0"}:
        return None
    level = None
    if words and words[0] in POIGNEE_LEVELS:
        level = words.pop(0)
    try:
        cards = [_card(w) for w in words]
    except CardError as e:
        raise BadAnswer(f"{e}; or answer no, a level ({', '.join(POIGNEE_LEVELS)}), or a level and its trumps") \
            from None
    if not cards:
        if level is None:
            raise BadAnswer(f"{echo.shown(text)}: answer no, a level ({', '.join(POIGNEE_LEVELS)}) or the trumps to show")
        return level
    if level is None:
        sizes = _poignee_sizes(game.rules)
        if len(cards) not in sizes:
            raise IllegalPlayError("R-POIG-1", f"{len(cards)} cards is no poignée at table {game.rules.table}: "
                                               f"{', '.join(f'{lv} {s}' for lv, s in zip(POIGNEE_LEVELS, sizes))}")
        level = POIGNEE_LEVELS[sizes.index(len(cards))]
    return (level, cards)


def _ecart_listing(choice: EcartChoice) -> list[Card]:
    """The cards an écart may hold, in the order they are numbered for the person.

    The cards an écart may hold, numbered for the person: the eligible cards, then the trumps
    when some must go (R-CHIEN-2)."""
    return list(choice.normal) + (list(choice.trumps) if choice.trumps_needed else [])


# ---------------------------------------------------------------------------------------------
# The session


@dataclass
class SessionResult:
    """What a game came to: the deals' records, the totals and why it stopped.

    What a game came to: the finished deals' records and the players' totals; ``stopped``
    is None for a game played to its end, else ``"eof"``, ``"interrupt"`` or ``"quit"``."""

    names: list[str]
    records: list[dict] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    stopped: str | None = None
    reached: bool = False  # a game to --until points: someone reached the target

    @property
    def deals(self) -> int:
        return len(self.records)


def read_line() -> str:
    """One line of the person's input (``input``: line editing on a terminal); EOFError at the end."""
    return input()


def _terminal_ask(prompt: str) -> str:
    click.echo(prompt, nl=False)
    line = read_line()
    if not sys.stdin.isatty():  # scripted input: show the answer, so the transcript reads as a session
        click.echo(line)
    return line


class Session:
    """An interactive game: one person against bots at the terminal.

    One person at ``seat`` against ``bots`` (one Python-protocol bot per seat; the person's
    entry is ignored), for ``deals`` deals or until someone's total reaches ``until``.

    Parameters
    ----------
    rules : Rules
    seat : int
        The person's seat (0-based, in playing order, R-GEN-2).
    bots : list
        One object with ``choose(view, legal, rng)`` per seat (``Player.python_bot()``).
    seed : int
        Every deal is ``(seed, index)``; see :func:`first_index`.
    deals, until : int or None
        Play ``deals`` deals, or deals until a total reaches ``until`` (then ``deals`` is a cap).
    records : file or None
        Each finished deal's record (docs/records.md) is appended and flushed there at once.
    ask, say : callables
        ``ask(prompt) -> str`` (EOFError ends the game), ``say(text)``; the terminal by default.
    color : bool or None
        Passed to ``click.echo`` by the default ``say``: None colours only a terminal.
    analyse : bool
        After each finished deal, the exact solver's post-mortem (``tarotsim.analysis``).
    """

    def __init__(self, rules: Rules, seat: int, bots, seed: int, deals: int | None = 1, until: int | None = None,
                 records=None, ask=None, say=None, color: bool | None = None, hint_bot=None, analyse: bool = False):
        check_seat(rules, seat)
        self.rules, self.seat, self.bots, self.seed = rules, seat, bots, seed
        self.deals, self.until, self.records_fh = deals, until, records
        self.appended = 0  # the finished deals written to ``records``, kept whatever stops the game
        self.ask = ask or _terminal_ask
        self.say = say or (lambda text: click.echo(text, color=color))
        self.names = seat_names(rules, seat)
        self._hint_bot = hint_bot
        self._hint_name: str | None = None  # the hint bot's --bots text, when the session chose it
        self.color = color
        self.game: Game | None = None
        self._tops: tuple = ()  # table 2: the face-up pile tops last told (R-VAR-TWO)
        self.analyse = analyse

    # -- output helpers --------------------------------------------------------------------------
    def style(self, text: str, **kw) -> str:
        """``text`` in colour or bold, unless colour is off (``say`` strips it off a non-terminal)."""
        return text if self.color is False else click.style(text, **kw)

    def card(self, c: Card) -> str:
        text = c.pretty()
        return self.style(text, fg="red") if c.suit in RED_SUITS else text

    def cards(self, cards) -> str:
        return " ".join(self.card(c) for c in cards) if cards else "-"

    def hand(self, cards) -> str:
        """Trumps high to low and the Excuse, then each suit high to low."""
        cards = sorted(cards, reverse=True)
        parts = []
        trumps = [c for c in cards if c.is_trump] + [c for c in cards if c.is_excuse]
        if trumps:
            parts.append(" ".join(str(c) for c in trumps))
        for s in range(4):
            suit = [c for c in cards if c.suit == s]
            if suit:
                sym = SUIT_SYMBOLS[s]
                text = sym + " " + " ".join(c.pretty()[:-1] for c in suit)
                parts.append(self.style(text, fg="red") if s in RED_SUITS else text)
        return "  |  ".join(parts) if parts else "-"

    def who(self, seat: int) -> str:
        return self.names[seat]

    def whose(self, seat: int) -> str:
        return "your" if seat == self.seat else f"{self.who(seat)}'s"

    def pile_rows(self, v) -> list[tuple[str, str]]:
        """Table 2: the rows that draw both players' piles.

        Table 2 (R-VAR-TWO): both players' piles as ``v`` shows them, the person's first; drawn
        as `show` draws them (:func:`tarotsim.display.piles_line`), a face-down card as ``#``."""
        if not v.pile_tops:
            return []
        rows = []
        for s in sorted(range(self.rules.n_seats), key=lambda s: s != self.seat):
            drawn = [[None] * (n - 1) + [top] if top is not None else [None] * n
                     for top, n in zip(v.pile_tops[s], v.pile_sizes[s])]
            rows.append((f"{self.whose(s)} piles", piles_line(drawn, self.card)))
        return rows

    # -- the game --------------------------------------------------------------------------------
    def run(self) -> SessionResult:
        """Play the game until its end or until the person stops it.

        Play the game; end of input, Ctrl-C or ``quit`` stop it cleanly (the deal under way
        is not scored, the finished ones are kept)."""
        res = SessionResult(self.names, totals=[0] * self.rules.n_seats)
        index = first_index(self.rules, self.seed)
        try:
            while self.deals is None or res.deals < self.deals:
                rec = self.play_deal(index, res.deals + 1)
                res.records.append(rec)
                res.totals = [t + s for t, s in zip(res.totals, rec["scores"])]
                if self.records_fh is not None:  # with the players' names (``tarotsim stats --by player``)
                    from ..record import dumps, with_seat_labels
                    self.records_fh.write(dumps(with_seat_labels(rec, players=self.names)) + "\n")
                    self.records_fh.flush()
                    self.appended += 1
                self.say(self.format_sheet(res))
                if self.until is not None and max(res.totals) >= self.until:
                    res.reached = True
                    break
                index = next_index(self.rules, index, rec["outcome"])
        except EOFError:
            res.stopped = "eof"
        except KeyboardInterrupt:
            res.stopped = "interrupt"
        except Quit:
            res.stopped = "quit"
        self.say(self.format_end(res))
        return res

    def play_deal(self, index: int, number: int) -> dict:
        game = self.game = Game(self.rules, self.seed, index)
        rng = Rng.for_deal(self.seed, index, STREAM_BOTS)  # all bots draw from the deal's bots stream
        self._hint_rng = Rng(stream_state(self.seed, index, STREAM_HINTS))
        view = game.view(self.seat)
        total = f" of {self.deals}" if self.deals is not None and self.until is None else ""
        self.say("")
        self.say(self.style(f"── deal {number}{total} · table {self.rules.table} · seed {self.seed}, index {index} · "
                            f"dealer {self.who(view.dealer)} ──", bold=True))
        if self.rules.table == "5d" and view.dealer == self.seat:
            self.say("you deal and sit out this deal (the dummy, R-DEAL-6)")
        else:
            self.say(f"your hand: {self.hand(view.hand)}")
        for label, text in self.pile_rows(view):
            self.say(f"{label}: {text}")
        self._told = {"taker": False, "chien": False, "events": 0}
        self._tops = view.pile_tops
        while (d := game.decision) is not None:
            if d.seat == self.seat and d.kind == "poignee" and game.legal_actions() == [None]:
                game.declare_poignee(None)  # too few trumps for any poignée: nothing to ask (R-POIG-1)
            elif d.seat == self.seat:
                self.person_turn(game)
            else:
                self.bot_turn(game, d, rng)
            self.tell(game)
        rec = game.record()
        self.say(self.format_count(game, rec))
        if self.analyse and rec["outcome"] == "played":
            self.say(self.post_mortem(rec))
        return rec

    def post_mortem(self, rec: dict) -> str:
        """``--analyse``: what each card of the deal cost against best play (``tarotsim.analysis``).

        The first one of a process may compile the solver: a person at a terminal is told so
        first (a transcript written to a file reads the same on every machine)."""
        from ..analysis import AnalysisError, analyse, format_analysis, solver

        solver.warm_up(self.say if sys.stdout.isatty() else None)
        try:
            return "\n" + format_analysis(analyse(rec), self.names, you=self.seat)
        except AnalysisError as e:
            return f"\nno analysis: {e}"

    def bot_turn(self, game: Game, d, rng: Rng):
        """A bot's decision, applied (:func:`tarotsim.runs.evening.bot_turn`)."""
        bot_turn(game, self.bots[d.seat], rng)

    def tell(self, game: Game):
        """Tell the person what the table has just seen.

        Say what the table has just seen: each new event, the contract once the auction is
        over, the chien when it is shown, each trick as it is won."""
        told = self._told
        for ev in game.events[told["events"]:]:
            self.narrate(game, ev)
            if ev.kind == "bid":
                self._after_bid(game)
        told["events"] = len(game.events)
        v = game.view(self.seat)
        self._tell_turned_up(v)
        if v.chien is not None and not told["chien"]:
            told["chien"] = True
            self.say(f"the chien is shown (R-CHIEN-1): {self.cards(v.chien)}")

    def _tell_turned_up(self, v):
        """Table 2: tell the cards turned up on the piles since the last telling.

        Table 2: the cards turned up since the last telling, i.e. after the trick just won, under
        each pile whose top was played in it (R-VAR-TWO)."""
        turned = [f"{self.whose(s)} pile {k + 1} {self.card(top)}"
                  for s, (old, new) in enumerate(zip(self._tops, v.pile_tops))
                  for k, (was, top) in enumerate(zip(old, new)) if top is not None and top != was]
        if turned:
            self.say("  turned up (R-VAR-TWO): " + " · ".join(turned))
        self._tops = v.pile_tops

    def _after_bid(self, game: Game):
        v = game.view(self.seat)
        if v.taker is None or self._told["taker"]:
            return
        self._told["taker"] = True
        assert v.contract is not None  # a taker has a contract
        self.say(taking(self.names, self.seat, v.taker, v.contract))

    def narrate(self, game: Game, ev):
        """One line for what a seat just did, as the table sees it (:func:`tarotsim.runs.evening.narration`)."""
        trick = pile = None
        if ev.kind == "trick":
            tricks = game.view(self.seat).tricks
            trick = (len(tricks), tricks[-1][1])
        elif ev.kind == "card":
            tops = self._tops[ev.seat] if self._tops else ()
            pile = tops.index(ev.value) + 1 if ev.value in tops else None  # a face-up top (R-VAR-TWO)
        line = narration(ev, self.names, self.seat, card=self.card, trick=trick, pile=pile)
        if line is not None:
            self.say(f"  {line}" if ev.kind == "trick" else line)

    # -- the person's turn -----------------------------------------------------------------------
    def person_turn(self, game: Game):
        self.say(self.format_view(game))
        self.say(self.format_choices(game))
        while True:
            text = self.ask(self.prompt(game)).strip()
            low = text.lower()
            if not text:
                continue
            if low in ("?", "help"):
                self.say(self.explain(game))
                self.say(self.format_choices(game))
                self.say("  (also: hint, quit)")
                continue
            if low == "hint":
                self.say(self.hint(game))
                continue
            if low in ("quit", "exit"):
                raise Quit()
            try:
                game.apply(answer_for(game, text))
            except BadAnswer as e:
                self.say(self.style(f"not understood: {e}", fg="yellow"))
                continue
            except IllegalPlayError as e:
                self.say(self.style(f"refused: {personal(str(e), self.seat)}", fg="yellow"))
                continue
            return

    def prompt(self, game: Game) -> str:
        kind = _decision(game).kind
        return {"bid": "your bid? ", "call": "card to call? ", "ecart": "your écart? ", "chelem": "announce a chelem? ",
                "poignee": "show a poignée? ", "misere_atout": "declare misère d’atout? ",
                "misere_tete": "declare misère de tête? ", "card": "your card? "}[kind]

    def format_choices(self, game: Game) -> str:
        """The decision's legal choices, numbered."""
        kind = _decision(game).kind
        legal = game.legal_actions()
        if kind == "bid":
            return "  choices: " + "  ".join(f"{k}) {b.replace('_', ' ')}" for k, b in enumerate(legal, 1))
        if kind == "call":
            return "  choices: " + "  ".join(f"{k}) {self.card(c)}" for k, c in enumerate(legal, 1))
        if kind == "card":
            tops = self._own_tops(game)  # marked as `show` marks a card from a pile
            text = "  choices: " + "  ".join(f"{k}) {self.card(c)}{'^' if c in tops else ''}"
                                             for k, c in enumerate(legal, 1))
            return text + ("\n  (^ = the face-up top of one of your piles, R-VAR-TWO)" if tops & set(legal) else "")
        if kind == "ecart":
            listed = _ecart_listing(legal)
            text = (f"  lay aside {legal.size} cards (names, or numbers): "
                    + "  ".join(f"{k}) {self.card(c)}" for k, c in enumerate(listed, 1)))
            if legal.trumps_needed:
                text += f"\n  (exactly {legal.trumps_needed} trump(s) among them, shown to all: R-CHIEN-2)"
            return text
        if kind == "poignee":
            sizes = dict(zip(POIGNEE_LEVELS, _poignee_sizes(self.rules)))
            opts = ["1) no"] + [f"{k}) {lv} ({sizes[lv]} trumps: {self.cards(self._default_poignee(game, lv))})"
                                for k, lv in enumerate(legal[1:], 2)]
            return "  choices: " + "  ".join(opts) + "\n  (or a level and the trumps you show: simple T3 T5 …)"
        return "  choices: 1) no  2) yes"

    def _own_tops(self, game: Game) -> set[Card]:
        """The face-up tops of the person's piles (table 2, R-VAR-TWO): cards he may play."""
        tops = game.view(self.seat).pile_tops
        return {c for c in tops[self.seat] if c is not None} if tops else set()

    def _default_poignee(self, game: Game, level: str) -> list[Card]:
        """The trumps a poignée of ``level`` shows when the person names none.

        The trumps shown for ``level`` when none are named: the lowest ones (with the Excuse
        when one trump short), as :meth:`Game.declare_poignee` shows them."""
        v = game.view(self.seat)
        size = _poignee_sizes(self.rules)[POIGNEE_LEVELS.index(level)]
        trumps = [c for c in v.hand if c.is_trump]
        if v.taker == self.seat and self.rules.poignee_ecart_trumps and v.ecart:  # R-POIG-3
            trumps += [c for c in v.ecart if c.is_trump]
        trumps.sort()
        return trumps[:size] if len(trumps) >= size else trumps + [Card.parse("EX")]

    def explain(self, game: Game) -> str:
        """``?``: what the decision is and why the choices are what they are."""
        d = _decision(game)
        kind = d.kind
        if kind == "bid":
            best = [b for _, b in game.view(self.seat).bids if b != "pass"]
            floor = f"higher than {best[-1].replace('_', ' ')}, the bid so far" if best else "any contract"
            two = (" At table 2 the non-dealer speaks first, and your face-up pile tops are cards you will "
                   "play too (R-VAR-TWO)." if self.rules.table == "2" else "")
            return (f"  the auction (R-BID-2): each player speaks once; pass, or bid {floor}. Contracts low to high "
                    "(R-BID-1): prise x1, garde x2 (both take the chien and lay an écart), garde sans x4 (the chien "
                    "unseen, for you), garde contre x6 (the chien for the defence)." + two)
        if kind == "call":
            return ("  call a king (R-CALL-1); its holder is your hidden partner; a queen only with all four kings, "
                    "a knight only with all kings and queens. Calling your own king, or one in the chien, "
                    "you play alone (R-CALL-2).")
        if kind == "ecart":
            legal = game.legal_actions()
            return (f"  lay aside {legal.size} cards, as many as the chien held (R-CHIEN-1): never a king nor an "
                    f"oudler; a trump only when short of other cards, then shown to all (R-CHIEN-2)."
                    + (" From your hand only, never a pile card (R-VAR-TWO)." if self.rules.table == "2" else "")
                    + f" Type them at once, e.g. `{' '.join(str(c) for c in _ecart_listing(legal)[:legal.size])}`.")
        if kind == "chelem":
            return ("  a chelem is the promise to win every trick; announcing it, you lead trick 1 (R-SLAM-1). "
                    "Announced: +400 if made, -200 if not; not announced: +200 if you win every trick anyway "
                    "(R-SLAM-3).")
        if kind == "poignee":
            sizes = ", ".join(f"{lv} {s}" for lv, s in zip(POIGNEE_LEVELS, _poignee_sizes(self.rules)))
            return (f"  a poignée shows trumps before your first card (R-POIG-2): {sizes} trumps at table "
                    f"{self.rules.table}; worth 20, 30, 40 to the side that wins the deal (R-POIG-4). The Excuse "
                    "counts only when you show every trump you hold (R-POIG-3).")
        if kind.startswith("misere"):
            what = "no trump" if kind == "misere_atout" else "no king, queen, knight or jack"
            return (f"  misère (R-MIS-1): you hold {what}; declaring it earns {self.rules.misere_value} from every "
                    "other player whatever the result (R-MIS-2).")
        legal = game.legal_cards()
        tops = self._own_tops(game)
        playable = game.hand(self.seat) + sorted(tops)  # table 2: the duties count the pile tops (R-VAR-TWO)
        barred = [c for c in playable if c not in legal]
        if not barred:
            trick = game.view(self.seat).trick
            return ("  any card of your hand" + (" or a face-up top of your piles (R-VAR-TWO)" if tops else "")
                    + (" (you lead this trick, R-PLAY-1)" if not trick else " (R-PLAY-3, R-PLAY-4d)"))
        try:
            game.verify_play(barred[0])
        except IllegalPlayError as e:
            why = personal(str(e), self.seat)
        else:  # cannot happen: a barred card is refused
            why = "restricted"
        excuse = any(c.is_excuse for c in playable)  # only to a player who holds it
        return f"  {why}" + ("; the Excuse may always be played instead (R-EXC-1)" if excuse else "")

    def hint(self, game: Game) -> str:
        """What the strongest bot would do here (its own random stream: no change to the deal)."""
        if self._hint_bot is None:
            self._hint_name, self._hint_bot = hint_bot(self.rules)
            self.say(self._thinking(self._hint_name))
        bot = self._hint_bot
        name: str = self._hint_name or str(getattr(bot, "name", "bot"))
        answer = bot.choose(game.view(self.seat), game.legal_actions(), self._hint_rng)
        kind = _decision(game).kind
        what = advice(kind, answer, self.card)
        extra = " (its card searched over sampled deals)" if kind == "card" and name.startswith("pimc") else ""
        return f"  hint: {name} would {what}{extra}"

    @staticmethod
    def _thinking(name: str) -> str:
        """The note shown while the first hint's bot thinks.

        What the first hint says before its bot answers: it is thinking, and, to a person at a
        terminal when numba's cache lacks the bot's kernels, that they are compiled first (once) and
        for about how long (a transcript written to a file reads the same on every machine)."""
        from ..runs.players import step_compile_seconds

        about = step_compile_seconds(name) if sys.stdout.isatty() else None
        search = " (it plays each card out on sampled deals)" if name.startswith("pimc") else ""
        if about is None:
            return f"  hint: {name} is thinking{search}..."
        return f"  hint: {name} is thinking{search}; its kernels are compiled first, once: about {about} s..."

    # -- what the person sees --------------------------------------------------------------------
    def format_view(self, game: Game) -> str:
        """What the person's seat may see now (:meth:`Game.view`)."""
        v = game.view(self.seat)
        rows = []
        if v.bids:
            rows.append(("bids", " · ".join(f"{self.who(s)} {b.replace('_', ' ')}" for s, b in v.bids)))
        if v.taker is not None:
            assert v.contract is not None  # a taker has a contract
            text = f"{self.who(v.taker)} {v.contract.replace('_', ' ')}"
            if v.called is not None:
                text += f"; called {self.card(v.called)}, partner {partner_text(v, self.names)}"
            rows.append(("contract", text))
        if v.chien is not None:
            rows.append(("chien", self.cards(v.chien)))
        if v.ecart is not None:
            rows.append(("your écart", self.cards(v.ecart)))
        elif v.ecart_trumps:
            rows.append(("écart trumps", self.cards(v.ecart_trumps)))
        for dcl in v.declarations:
            who = self.who(dcl["seat"])
            if dcl["kind"] == "poignee":
                rows.append(("shown", f"{who}: {dcl['level']} poignée {self.cards(parse_cards(dcl['cards']))}"))
            elif dcl["kind"] == "chelem":
                rows.append(("shown", f"{who}: chelem announced"))
            else:
                rows.append(("shown", f"{who}: {dcl['kind'].replace('_', ' ')}"))
        if v.tricks:
            won = [0] * self.rules.n_seats
            for _, _, w in v.tricks:
                won[w] += 1
            active = dealing_order(self.rules, v.dealer)
            rows.append(("tricks won", " · ".join(f"{self.who(s)} {won[s]}" for s in active)))
            _, plays, w = v.tricks[-1]
            rows.append(("last trick", "  ".join(f"{self.who(s)} {self.card(c)}{'*' if s == w else ''}"
                                                 for s, c in plays)))
        if v.decision is not None and v.decision.kind in ("card", "poignee", "misere_atout", "misere_tete"):
            trick = "  ".join(f"{self.who(s)} {self.card(c)}" for s, c in v.trick) if v.trick else "you lead"
            rows.append((f"trick {len(v.tricks) + 1}", trick))
        rows.append(("your hand", self.hand(v.hand)))
        rows += self.pile_rows(v)
        w = max(len(k) for k, _ in rows)
        return "\n".join(f"  {k.ljust(w)}  {t}" for k, t in rows)

    def format_count(self, game: Game, rec: dict) -> str:
        """After a deal: the count (points, oudlers, target, difference) and the score breakdown."""
        text = count(game, rec, self.names, self.seat, self.card)
        if rec["outcome"] != "played":
            return text
        return "\n".join(["", self.style("count", bold=True), text])

    def format_sheet(self, res: SessionResult) -> str:
        """The running score sheet of the game: every deal, every player's total."""
        w = max(6, *(len(n) for n in self.names))
        labels = [deal_label(r, self.names) for r in res.records]
        lw = max(len(x) for x in labels)
        out = ["", self.style("score sheet", bold=True),
               f"{'#':>3}  {'deal'.ljust(lw)}  " + "  ".join(n.rjust(w) for n in self.names)]
        totals = [0] * len(self.names)
        for i, (rec, label) in enumerate(zip(res.records, labels), 1):
            totals = [t + s for t, s in zip(totals, rec["scores"])]
            out.append(f"{i:>3}  {label.ljust(lw)}  " + "  ".join(f"{s:+{w}d}" for s in rec["scores"]))
        out.append(f"{'':>3}  {'total'.rjust(lw)}  " + "  ".join(f"{t:{w}d}" for t in totals))
        return "\n".join(out)

    def format_end(self, res: SessionResult) -> str:
        names, totals = self.names, res.totals
        stop = {"eof": "end of input", "interrupt": "interrupted", "quit": "you quit"}.get(res.stopped or "")
        lines = [""]
        if stop:
            lines.append(f"game stopped ({stop}): the deal under way is not scored; "
                         f"{res.deals} finished deal(s) kept")
        if not res.records:
            return "\n".join(lines + ["no deal finished"])
        best = max(totals)
        leaders = " and ".join(n for n, t in zip(names, totals) if t == best)
        what = "winner" if not stop else "leader"
        if self.until is not None and not res.reached:
            what = "leader"
            lines.append(f"nobody reached {self.until}")
        elif self.until is not None:
            lines.append(f"game over at deal {res.deals}: {leaders} reached {self.until}")
        lines.append(f"{what}: {leaders} with {best} after {res.deals} deal(s) · "
                     + ", ".join(f"{n} {t:+d}" for n, t in zip(names, totals)))
        return "\n".join(lines)
