"""Who plays each seat, and which engine plays them: the one seat/bot value of the library.

``--bots`` (and the library's ``bots=`` text) names one bot for every seat or one per seat:
a registered bot with its parameters (``heuristic:garde=56``), a user's policy set
(``module:ATTR``: numba functions, played inside the kernels) or a user's Python bot
(``module:Class``: ``choose(view, legal, rng)``, played step by step through the ``Game``).
:func:`parse_players` turns that text into one :class:`Player` per seat, and :class:`Runner`
plays blocks of deals with them: on the kernels (fast path) when every seat can, else deal by
deal (slow path; the same deals for the same bots).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .rules import KERNEL_TABLES, Rules


class PlayersError(ValueError):
    """A ``--bots`` text that names no playable set of bots: one line for the user."""


@dataclass(frozen=True)
class Player:
    """One seat's bot: a registered bot (fast path: ``name`` + ``params``), a user's policy set
    (fast path: ``policy``) or a user's Python bot (slow path: ``obj``). ``label`` names it in
    reports; seats with the same label are one bot (tournaments)."""

    label: str
    name: str
    params: tuple = ()
    obj: object = None
    policy: object = None

    @property
    def fast(self) -> bool:
        return self.obj is None

    @property
    def engine_bot(self):
        """What the kernels take for this seat: the policy set, or ``(name, params)``."""
        return self.policy if self.policy is not None else (self.name, self.params)

    def python_bot(self):
        """This seat's bot on the slow path (a fast bot runs there through its adapter)."""
        if self.obj is not None:
            return self.obj
        from .adapters import FastBotAdapter, PolicyAdapter
        if self.policy is not None:
            return PolicyAdapter(self.policy)
        return FastBotAdapter(self.name, np.asarray(self.params, dtype=np.float64))


def _segments(text: str) -> list[str]:
    """One text per bot: a comma-token with ``=`` and no ``:`` continues the parameters of the
    bot before it (``heuristic:garde=56,prise=40,random``)."""
    out: list[str] = []
    for tok in (t.strip() for t in text.split(",")):
        if not tok:
            raise PlayersError(f"--bots: empty bot name in {text!r}")
        if "=" in tok and ":" not in tok and out:
            out[-1] += "," + tok
        else:
            out.append(tok)
    return out


def parse_players(text: str, rules: Rules, check_bots: bool = False) -> list[Player]:
    """``--bots`` text -> one :class:`Player` per seat (one bot for every seat, or one per seat).

    ``check_bots``: the policy sets' functions compiled with numba's bounds checking
    (``bots.policy.PolicySet.checked``, ``--check-bots``). Raises :class:`PlayersError`,
    ``bots.BotError`` or ``slowpath.BotLoadError`` (all ``ValueError``, one line each) for a text
    that names no playable bots.
    """
    from bots import parse_bots

    from .slowpath import is_python_bot, load_user_bot

    players = []
    for seg in _segments(text):
        if is_python_bot(seg):
            bot = load_user_bot(seg)
            if hasattr(bot, "functions"):  # a policy set: fast path
                players.append(Player(seg, bot.name, bot.params, policy=bot.checked() if check_bots else bot))
            else:
                players.append(Player(seg, seg, (), bot))
            continue
        name, vec = parse_bots(seg, 1)[0]
        players.append(Player(seg.lower() if ":" not in seg else seg, name, tuple(float(x) for x in vec)))
    if len(players) == 1:
        players = players * rules.n_seats
    if len(players) != rules.n_seats:
        raise PlayersError(f"--bots: table {rules.table} seats {rules.n_seats} players; give one bot for all "
                           f"or {rules.n_seats} separated by commas, not {len(players)}")
    return players


def kernel_path(rules: Rules, players: list[Player]) -> bool:
    """Whether the kernels play these seats at this table: every seat a registered bot or a policy
    set, at a table the kernels play (every table, table 2 included: R-VAR-TWO)."""
    return rules.table in KERNEL_TABLES and all(p.fast for p in players)


def baseline_note(labels) -> str:
    """What a report adds where it names its bots (``labels``): ``random`` is said to be a
    baseline, not a player whose results mean much."""
    return " (random: a baseline, uniform over the legal choices)" if "random" in labels else ""


def players_label(players: list[Player]) -> str:
    """How a run names its bots: the one label, or the labels of the seats."""
    labels = [p.label for p in players]
    return labels[0] if len(set(labels)) == 1 else ",".join(labels)


class Runner:
    """Plays blocks of deals with the chosen players: the kernels when every seat plays a
    registered bot or a policy set (fast path); with Python bots, the batched engine calling them
    at their decisions (:mod:`tarotsim.pybatch`: kernel tables, the other seats random, greedy or
    heuristic, no forced contract), else the ``Game`` deal by deal (slow path). All three play the
    same deals for the same bots. An illegal answer of a bot raises ``IllegalPlayError``."""

    def __init__(self, rules: Rules, seed: int, players: list[Player], threads: int = 1, forced=None):
        self.rules, self.seed, self.players, self.threads, self.forced = rules, seed, players, threads, forced
        self.fast = kernel_path(rules, players)
        self.bots = [p.engine_bot for p in players] if self.fast else [p.python_bot() for p in players]
        self.batched = False  # Python bots deciding inside the batched engine (tarotsim.pybatch)
        if not self.fast and all(p.policy is None for p in players):
            from .pybatch import batchable
            self.seats = [p.obj if p.obj is not None else (p.name, p.params) for p in players]
            self.batched = batchable(rules, self.seats, forced)

    def block(self, a: int, b: int, with_records: bool = False):
        """``(facts of deals a..b-1, their records or None)``."""
        from . import simulate as sim
        from . import slowpath

        if self.fast:  # the block shared out between the threads (one chunk each)
            f = sim.facts(self.rules, self.seed, a, b, bots=self.bots, threads=self.threads, forced=self.forced,
                          chunk_size=max(1, -(-(b - a) // max(1, self.threads))))
            recs = sim.records(self.rules, self.seed, range(a, b), bots=self.bots, forced=self.forced) \
                if with_records else None
            return f, recs
        f = np.zeros(b - a, dtype=sim.FACTS_DTYPE)
        if self.batched:
            from .pybatch import play_records
            recs = play_records(self.rules, self.seed, range(a, b), self.seats, self.bots)
            for i, rec in enumerate(recs):
                slowpath.facts_row(self.rules, rec, f, i)
            return f, (recs if with_records else None)
        recs = []
        for i, index in enumerate(range(a, b)):
            rec = slowpath.play_record(self.rules, self.seed, index, self.bots, self.forced)
            slowpath.facts_row(self.rules, rec, f, i)
            if with_records:
                recs.append(rec)
        return f, (recs if with_records else None)
