"""The slow path: Python bots playing through the :class:`~tarotsim.engine.Game` facade.

The slow path: Python bots (``module:Class``) playing through the :class:`~tarotsim.engine.Game`
facade, one decision at a time, with the same facts rows and records as the fast path.

A user's bot is any class with ``choose(view, legal, rng)`` (see :mod:`tarotsim.engine`); it is
named on the command line as ``package.module:ClassName`` and built without arguments. Deals keep
their identity: the cards come from ``(seed, index)`` and every bot draws from the deal's bots
stream, so a deal played here with random bots is the deal the kernels play.
"""

from __future__ import annotations

import importlib
import os
import re
import sys

import numpy as np

from .. import echo
from ..engine import BotRaisedError, Game, IllegalPlayError, play_game  # noqa: F401  (BotRaisedError: its home is engine)
from ..rules import CONTRACTS, POIGNEE_BONUS, POIGNEE_LEVELS, Rules
from .._kernels.layout import CHELEM_NAMES, FACTS_DTYPE

PYTHON_BOT = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$")
OUTCOME_CODES = {"played": 0, "all_passed": 1, "petit_sec": 2}


class BotLoadError(ValueError):
    """A ``module:Class`` that cannot be imported or built (one-line message)."""


def bot_label(bot) -> str:
    """How a Python bot is named in messages.

    How a Python bot is named in messages: its ``name`` and, when that differs, its class (not
    for the library's adapters of the fast bots: a policy set is named by its name alone)."""
    cls = type(bot)
    where = f"{cls.__module__}:{cls.__qualname__}"
    name = getattr(bot, "name", None)
    if not isinstance(name, str) or not name:
        return where
    name = echo.printable(echo.cut(name, echo.LIMIT)) if name != where else name  # a user's, on one line
    return name if name == where or cls.__module__ == "tarotsim.adapters" else f"{name} ({where})"


class _Guarded:
    """A seat's bot whose exceptions become :class:`BotRaisedError`.

    A seat's bot whose exceptions in ``choose`` become :class:`BotRaisedError` (an illegal
    answer still reaches the :class:`~tarotsim.engine.Game`, which names the rule)."""

    __slots__ = ("bot", "name", "seed", "index", "answer")

    def __init__(self, bot, seed, index):
        self.bot, self.seed, self.index, self.answer = bot, seed, index, None
        self.name = getattr(bot, "name", None) or type(bot).__name__  # as the engine names it

    def choose(self, view, legal, rng):
        try:
            self.answer = self.bot.choose(view, legal, rng)
            return self.answer
        except IllegalPlayError:  # an adapter's forbidden answer: the engine's message names the rule
            raise
        except Exception as e:  # the user's code failed: say where, in one line
            kind = view.decision.kind if view.decision is not None else "unknown"
            raise BotRaisedError(bot_label(self.bot), e, view.seat, self.seed, self.index, kind) from e


def is_python_bot(text: str) -> bool:
    """Whether a ``--bots`` text names a user's Python bot.

    ``pkg.module:Class`` names a user's Python bot (a registered bot with parameters is
    ``name:param=value``, which has an ``=``)."""
    return bool(PYTHON_BOT.match(text.strip()))


def load_user_bot(text: str):
    """Load a user's bot from ``module:NAME``.

    ``module:NAME``: a policy set (``bots.policy.PolicySet``, fast path) as it is, or a class
    built without arguments into a Python bot (slow path), which must have a ``choose`` method."""
    module_name, _, class_name = text.strip().partition(":")
    if os.getcwd() not in sys.path and "" not in sys.path:  # a user's module in the current folder
        sys.path.insert(0, os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except Exception as e:  # any import failure is the user's module: say it in one line
        raise BotLoadError(f"cannot import bot module {echo.shown(module_name)}: {type(e).__name__}: "
                           f"{echo.cut(e, echo.MESSAGE)}") from None
    cls = getattr(module, class_name, None)
    if cls is None:
        raise BotLoadError(f"module {echo.shown(module_name)} has no {echo.shown(class_name)}")
    if hasattr(cls, "functions") and hasattr(cls, "vector"):  # a bots.policy.PolicySet
        return cls
    try:
        bot = cls()
    except Exception as e:
        raise BotLoadError(f"cannot build bot {text}: {type(e).__name__}: {echo.cut(e, echo.MESSAGE)}") from None
    if not callable(getattr(bot, "choose", None)):
        raise BotLoadError(f"bot {text} has no choose(view, legal, rng) method")
    if not getattr(bot, "name", None):
        try:
            bot.name = text
        except Exception:
            pass
    return bot


load_python_bot = load_user_bot


def facts_row(rules: Rules, rec: dict, out: np.ndarray, i: int) -> None:
    """Fill row ``i`` of a FACTS_DTYPE array from a deal record (the kernels' facts, field for field)."""
    row = out[i]
    row["index"] = rec["index"] if rec.get("index") is not None else -1
    row["dealer"] = rec["dealer"]
    row["outcome"] = OUTCOME_CODES[rec["outcome"]]
    row["petit_sec_seat"] = rec.get("petit_sec_seat", -1) if rec["outcome"] == "petit_sec" else -1
    for f in ("taker", "contract", "partner", "called"):
        row[f] = -1
    row["scores"][:] = 0
    row["scores"][:len(rec["scores"])] = rec["scores"]
    res = rec.get("result")
    if rec["outcome"] != "played" or res is None:
        return
    taker, partner = rec["taker"], rec.get("partner")
    attack = {taker} | ({partner} if partner is not None else set())
    row["taker"] = taker
    row["contract"] = CONTRACTS.index(rec["contract"])
    row["partner"] = -1 if partner is None else partner
    if rec.get("called"):
        from ..cards import Card
        row["called"] = Card.parse(rec["called"]).id
    row["attack_half_points"] = res["attack_half_points"]
    row["oudlers"] = res["oudlers"]
    row["made"] = int(res["made"])
    row["difference"] = res["difference"]
    row["petit_au_bout"] = {"attack": 1, "defence": -1, None: 0}[res["petit_au_bout"]]
    row["chelem"] = CHELEM_NAMES.index(res["chelem"])
    decl = rec.get("declarations", [])
    row["slam_announced"] = int(any(d["kind"] == "chelem" for d in decl))
    for side, field in ((True, "poignee_attack"), (False, "poignee_defence")):
        row[field] = sum(POIGNEE_BONUS[POIGNEE_LEVELS.index(d["level"])] for d in decl
                         if d["kind"] == "poignee" and (d["seat"] in attack) == side)
    row["miseres"] = sum(1 for d in decl if d["kind"].startswith("misere"))
    row["attack_tricks"] = sum(1 for t in rec["tricks"] if t["winner"] in attack)
    row["value"] = res["value"]


def play_record(rules: Rules, seed: int, index: int, players, forced=None) -> dict:
    """Play deal ``(seed, index)`` with Python bots (one per seat) and return its record.

    A bot whose ``choose`` raises stops the deal with :class:`BotRaisedError`; an illegal answer
    with :class:`~tarotsim.engine.IllegalPlayError` (both name the bot, seat and deal)."""
    from ..adapters import DECISION_RULES

    game = Game(rules, seed, index, forced=forced)
    guarded = [_Guarded(p, game.seed, game.index) for p in players]
    try:
        play_game(game, guarded)
    except (IllegalPlayError, BotRaisedError):
        raise
    except (TypeError, ValueError) as e:  # an answer the engine could not even read as a choice
        d = game.decision  # the refused action left the deal unchanged: still this decision
        if d is None:
            raise
        g = guarded[d.seat]
        rule = DECISION_RULES["misere" if d.kind.startswith("misere") else d.kind]
        raise IllegalPlayError(rule, f"bot {g.name} at seat {d.seat}, deal ({game.seed}, {game.index}): "
                                     f"{d.kind.replace('_', ' ')}: answered {echo.shown(g.answer)}, which is not a "
                                     f"choice ({echo.cut(e, echo.MESSAGE)})") from None
    return game.record()


def facts(rules: Rules, seed: int, start: int, stop: int, players, forced=None) -> np.ndarray:
    """Facts of deals ``start .. stop-1`` played by Python bots (``players``: one per seat)."""
    out = np.zeros(stop - start, dtype=FACTS_DTYPE)
    for i, index in enumerate(range(start, stop)):
        facts_row(rules, play_record(rules, seed, index, players, forced), out, i)
    return out
