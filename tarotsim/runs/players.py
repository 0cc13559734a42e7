"""Who plays each seat, and which engine plays them: the one seat/bot value of the library.

``--bots`` (and the library's ``bots=`` text) names one bot for every seat or one per seat:
a registered bot with its parameters (``heuristic:garde=56``), a user's policy set
(``module:ATTR``: numba functions, played inside the kernels) or a user's Python bot
(``module:Class``: ``choose(view, legal, rng)``, played step by step through the ``Game``).
:func:`parse_players` turns that text into one :class:`Player` per seat (the one grammar is
``bots.split_bots``), :func:`seats` any ``bots=`` value of the library, and
:class:`tarotsim.runs.runner.Runner` plays blocks of deals with them: on the kernels (fast path) when
every seat can, else deal by deal (slow path; the same deals for the same bots).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

import numpy as np

from ..rules import KERNEL_TABLES, Rules


class PlayersError(ValueError):
    """A ``--bots`` text that names no playable set of bots: one line for the user."""


@dataclass(frozen=True)
class Player:
    """One seat's bot.

    One seat's bot: a registered bot (fast path: ``name`` + ``params``), a user's policy set
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
    def code(self) -> int | None:
        """The kernels' bot code, None for a Python bot.

        The kernels' bot code (``bots.BOT_KINDS``; ``bots.BOT_USER`` for a policy set), None for a
        Python bot."""
        from bots import BOT_KINDS, BOT_USER

        if self.obj is not None:
            return None
        return BOT_USER if self.policy is not None else BOT_KINDS[self.name]

    def row(self) -> np.ndarray:
        """The seat's parameter row as the kernels take it.

        The seat's parameter row as the kernels take it (float64[N_BOT_PARAMS]): a registered
        bot's ``params`` completed with its defaults (``bots.BotSpec.row``), a policy set's own."""
        if self.policy is not None:  # its params are the policy set's (``PolicySet.vector``)
            from .._kernels.layout import N_BOT_PARAMS

            v = np.zeros(N_BOT_PARAMS, dtype=np.float64)
            v[:len(self.params)] = self.params
            return v
        from bots import get_spec

        return get_spec(self.name).row(self.params)

    @property
    def engine_bot(self):
        """What the kernels take for this seat: the policy set, or ``(name, params)``."""
        return self.policy if self.policy is not None else (self.name, self.params)

    def python_bot(self):
        """This seat's bot on the slow path (a fast bot runs there through its adapter)."""
        if self.obj is not None:
            return self.obj
        from ..adapters import FastBotAdapter, PolicyAdapter
        if self.policy is not None:
            return PolicyAdapter(self.policy)
        return FastBotAdapter(self.name, np.asarray(self.params, dtype=np.float64))


def _player(seg: str, check_bots: bool = False, table: str | None = None) -> Player:
    """One bot of the ``--bots`` grammar as a player.

    One bot of the ``--bots`` grammar (``bots.split_bots``): a user's ``module:NAME`` (a policy
    set, bounds-checked when ``check_bots``, or a Python bot), else a registered bot with its
    parameters, none of them idle at ``table`` (``bots.BotSpec.refuse_idle``)."""
    from bots import parse_bot

    from .slowpath import is_python_bot, load_user_bot

    if is_python_bot(seg):
        bot = load_user_bot(seg)
        if hasattr(bot, "functions"):  # a policy set: fast path
            return Player(seg, bot.name, bot.params, policy=bot.checked() if check_bots else bot)
        return Player(seg, seg, (), bot)
    name, vec = parse_bot(seg, table)
    return Player(seg.lower() if ":" not in seg else seg, name, tuple(float(x) for x in vec))


def bot_texts(text: str) -> list[str]:
    """Split a ``--bots`` text into one text per bot.

    ``--bots`` text -> one text per bot, by the one ``--bots`` grammar (``bots.split_bots``);
    a text that breaks it is one :class:`PlayersError` line."""
    from bots import BotError, split_bots

    try:
        return split_bots(text)
    except BotError as e:
        raise PlayersError(f"--bots: {e}") from None


def parse_players(text: str, rules: Rules, check_bots: bool = False) -> list[Player]:
    """``--bots`` text -> one :class:`Player` per seat (one bot for every seat, or one per seat).

    ``check_bots``: the policy sets' functions compiled with numba's bounds checking
    (``bots.policy.PolicySet.checked``, ``--check-bots``). The text is split by the one
    ``--bots`` grammar (:func:`bot_texts`). Raises :class:`PlayersError`, ``bots.BotError`` or
    ``slowpath.BotLoadError`` (all ``ValueError``, one line each) for a text that names no
    playable bots.
    """
    players = [_player(seg, check_bots, rules.table) for seg in bot_texts(text)]
    if len(players) == 1:
        players = players * rules.n_seats
    if len(players) != rules.n_seats:
        raise PlayersError(f"--bots: table {rules.table} seats {rules.n_seats} players; give one bot for all "
                           f"or {rules.n_seats} separated by commas, not {len(players)}")
    return _together(rules, players)


def _together(rules: Rules, players: list[Player]) -> list[Player]:
    """``players``, checked to play together: a ``learned`` seat plays beside some bots only (``tarotsim.learn``)."""
    from ..learn.models import learned_seats_error

    names = [p.name if p.obj is None and p.policy is None else None for p in players]
    why = learned_seats_error(rules.table, names, [p.params[0] if p.params else 0 for p in players])
    if why is not None:
        raise PlayersError(f"--bots: {why}")
    return players


def _is_policy_set(b) -> bool:
    """Whether ``b`` is a policy set.

    ``b`` is a ``bots.policy.PolicySet``. Asked without importing ``bots.policy``: no policy set
    exists before it is loaded, and loading it compiles the policy defaults (a part of a
    cold start that the registered bots do not need)."""
    mod = sys.modules.get("bots.policy")
    return mod is not None and isinstance(b, mod.PolicySet)


def _entry(b, seat: int, table: str) -> Player:
    """One seat of a list of bots (:func:`seats`) at ``table``."""
    from bots import get_spec

    if isinstance(b, Player):
        return b
    if _is_policy_set(b):
        return Player(b.name, b.name, b.params, policy=b)
    if isinstance(b, str):
        return _player(b, table=table)
    name, params = b
    spec = get_spec(name)
    return Player(str(name), spec.name, tuple(float(x) for x in spec.row(params, f" at seat {seat}", table)))


def seats(rules: Rules, bots) -> list[Player]:
    """The seats' players from any ``bots`` value the library takes.

    The seats' players from any ``bots`` the library takes: the one seat value, from the
    command line to the kernels.

    ``bots``: a ``--bots`` text (:func:`parse_players`); or one entry per seat, or one entry for
    every seat: a :class:`Player` (as it is), a bot of the ``--bots`` grammar (``"heuristic"``,
    ``"heuristic:garde=60"``, ``"module:NAME"``), ``(name, params)`` with ``params`` a vector (a
    shorter one is completed with the defaults) or a ``{name: value}`` mapping, or a user's
    policy set (``bots.policy.PolicySet``). Raises ``ValueError`` (one line: ``bots.BotError``,
    :class:`PlayersError`, ``slowpath.BotLoadError``) for bots that do not fill the table.
    """
    from bots import BotError

    n = rules.n_seats
    if isinstance(bots, str):
        return parse_players(bots, rules)
    one = isinstance(bots, tuple) and len(bots) == 2 and isinstance(bots[0], str) and not isinstance(bots[1], str)
    if one or isinstance(bots, Player) or _is_policy_set(bots):
        bots = [bots] * n
    bots = list(bots)
    if len(bots) != n:
        raise BotError(f"{len(bots)} bots for a table of {n} seats: give one bot for every seat or {n}")
    return _together(rules, [_entry(b, seat, rules.table) for seat, b in enumerate(bots)])


def kernel_path(rules: Rules, players: list[Player]) -> bool:
    """Whether the kernels play these seats at this table.

    Whether the kernels play these seats at this table: every seat a registered bot or a policy
    set, at a table the kernels play (every table, table 2 included: R-VAR-TWO)."""
    return rules.table in KERNEL_TABLES and all(p.fast for p in players)


def baseline_note(labels) -> str:
    """The note a report adds where it names its bots.

    What a report adds where it names its bots (``labels``): ``random`` is said to be a
    baseline, not a player whose results mean much."""
    return " (random: a baseline, uniform over the legal choices)" if "random" in labels else ""


def players_label(players: list[Player]) -> str:
    """How a run names its bots: the one label, or the labels of the seats."""
    labels = [p.label for p in players]
    return labels[0] if len(set(labels)) == 1 else ",".join(labels)


def step_compile_seconds(text: str) -> int | None:
    """About how long compiling a registered bot's step-by-step decisions takes; None when cached.

    The bot ``text`` (``--bots`` grammar: ``pimc``, ``pimc:infer=1``) decides one decision at a
    time (at a seat of a ``Game``, ``tarotsim.adapters.FastBotAdapter``; ``tarotsim play``'s hint)
    by compiled kernels: its decisions, its card search's build and the bid search's kernel when it
    searches its bids. Their first call compiles them, once, when numba's cache lacks them: this
    says for about how many seconds, or None when the cache holds every one of them."""
    from .._builds.runs import hint_kernels
    from .._kernels._cache import is_cached

    kernels, about = hint_kernels(text)
    return None if is_cached(kernels) else about
