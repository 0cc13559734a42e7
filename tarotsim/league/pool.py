"""The pool of a league: who plays, at which table, on which deals, from a TOML file or the command line.

A pool file names the table, its variant options, the seed, the deals of every game, the filler
and the anchor, and the entrants as ``name = "BOT"`` lines of an ``[entrants]`` table, each
``BOT`` one bot of the ``--bots`` grammar (:data:`EXAMPLE`). Every key but ``[entrants]`` may be
left out (:data:`DEFAULTS`); the command line gives the same values (``--table``, ``--bots``
with ``--names`` ...), and overrides the file's.

An entrant is its bot's text (``pimc:worlds=8``, as a tournament labels it): its name is only
how the reports call it, so a renamed entrant keeps its games and an entrant whose text changed
is a new one. Every error is one :class:`PoolError` line that names the line of the file (or
the option of the command line) it is about.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field

from .. import echo, json_input
from ..rng import DealIdError, check_run, check_seed
from ..rules import KERNEL_TABLES, Rules, RulesError

#: A pool file: the one example of the format, shown by ``tarotsim league --help`` and the manual.
EXAMPLE = """\
table = "4"            # 3, 4, 5, 5d or 2
seed = 1               # the deals are (seed, 0) .. (seed, deals - 1)
deals = 500            # per game, each played in every seat rotation
filler = "heuristic"   # the other seats of each pair's game; no filler:
                       # every combination of entrants fills the table
anchor = "heuristic"   # the entrant rated 0
[options]              # variant options, as tarotsim options lists them
# misere = true
[entrants]             # name = one bot of the --bots grammar
heuristic = "heuristic"
greedy = "greedy"
random = "random"
pimc = "pimc:worlds=8"
"""

#: Deals per game when the pool gives none.
DEFAULT_DEALS = 1000
#: The values of the keys a pool leaves out: no filler (the entrants fill every table), the first
#: entrant as the anchor, a seed drawn at the league's first run (and kept in its database).
DEFAULTS: dict[str, object] = {"table": "4", "seed": None, "deals": DEFAULT_DEALS, "filler": None, "anchor": None, "options": {}}
KEYS = (*DEFAULTS, "entrants")


class PoolError(ValueError):
    """A pool that cannot be played: one line for the user, naming the line of the pool file."""


@dataclass(frozen=True)
class Entrant:
    """One entrant: the name the reports give it and its bot (one bot of the ``--bots`` grammar)."""

    name: str
    bot: str


@dataclass(frozen=True)
class Pool:
    """A league's pool, checked: every bot parsed at its table.

    ``entrants`` in the pool's order (at least two; with no ``filler``, at least a table's worth);
    ``options``: the variant options that differ from the rules (``Rules.non_default_options``);
    ``seed``: None until the league's first run draws one; ``filler``: the bot of every seat but
    the pair's, or None (the entrants fill every table: :func:`tarotsim.league.schedule.games`);
    ``anchor``: the name of the entrant rated 0."""

    entrants: tuple[Entrant, ...]
    anchor: str
    table: str = "4"
    options: dict = field(default_factory=dict)
    seed: int | None = None
    deals: int = DEFAULT_DEALS
    filler: str | None = None

    def rules(self) -> Rules:
        return Rules.from_options(self.table, self.options)

    @property
    def bots(self) -> list[str]:
        """The entrants' bots, in the pool's order."""
        return [e.bot for e in self.entrants]

    def name_of(self, bot: str) -> str:
        """The name of an entrant's bot; the filler (when it is no entrant) is named by its bot."""
        return next((e.name for e in self.entrants if e.bot == bot), bot)

    @property
    def anchor_bot(self) -> str:
        return next(e.bot for e in self.entrants if e.name == self.anchor)


def bot_label(text: str, rules: Rules) -> str:
    """The bot of one entrant's text, parsed at the table: the label that names it (``ValueError`` if bad).

    One bot of the ``--bots`` grammar, checked as a tournament checks its seats
    (``tarotsim.runs.players.parse_players``); its label (``heuristic``, ``pimc:worlds=8``) is
    who the entrant is."""
    from ..runs.players import bot_texts, parse_players

    texts = bot_texts(text)
    if len(texts) != 1:
        raise PoolError(f"one bot, not {len(texts)} ({echo.shown(text)})")
    return parse_players(text, rules)[0].label


# ---------------------------------------------------------------------------------------------
# the checks, for a file and the command line alike

#: Where a value comes from, for its messages: ``pool.toml line 7`` or ``--deals``.
Where = Callable[[tuple], str]


def build(settings: dict, entrants: list[tuple[str, object]], where: Where) -> Pool:
    """The pool of ``settings`` (by key of :data:`DEFAULTS`) and ``entrants`` (name, bot text), checked.

    ``where(path)`` says where the value at ``path`` comes from, for the messages: ``("deals",)``,
    ``("options", NAME)``, ``("entrants", NAME)``, ``("entrants",)``."""
    values = {**DEFAULTS, **settings}
    table = values["table"]
    if isinstance(table, int) and not isinstance(table, bool):
        table = str(table)
    if table not in KERNEL_TABLES:
        raise PoolError(f"{where(('table',))}: table {echo.shown(table)} is not one of {', '.join(KERNEL_TABLES)}")
    options = values["options"]
    if not isinstance(options, dict):
        raise PoolError(f"{where(('options',))}: options are a table of name = value lines, not {echo.shown(options)}")
    for name, value in options.items():
        try:
            Rules.from_options(table, {name: value})
        except (RulesError, TypeError, ValueError) as e:
            raise PoolError(f"{where(('options', name))}: {e}") from None
    try:
        rules = Rules.from_options(table, options)
    except (RulesError, TypeError, ValueError) as e:
        raise PoolError(f"{where(('options',))}: {e}") from None
    seed = values["seed"]
    if seed is not None:
        seed = _whole(seed, where(("seed",)), "seed")
        try:
            seed = check_seed(seed)
        except DealIdError as e:
            raise PoolError(f"{where(('seed',))}: {e}") from None
    deals = _whole(values["deals"], where(("deals",)), "deals")
    try:
        check_run(0, deals, "deals", minimum=2)
    except DealIdError as e:
        raise PoolError(f"{where(('deals',))}: {e} (a game's interval needs two deals)") from None
    filler = values["filler"]
    if filler is not None:
        if not isinstance(filler, str):
            raise PoolError(f"{where(('filler',))}: filler is one bot's text, not {echo.shown(filler)}")
        filler = _bot(filler, rules, where(("filler",)), "filler")
    checked: list[Entrant] = []
    for name, text in entrants:
        place = where(("entrants", name))
        if not isinstance(name, str) or not name.strip():
            raise PoolError(f"{place}: an entrant needs a name")
        name = name.strip()
        if (fault := echo.name_fault(name)) is not None:
            raise PoolError(f"{place}: the name {echo.shown(name)} holds {fault}")
        if not isinstance(text, str):
            raise PoolError(f"{place}: entrant {name} is one bot's text (\"heuristic\"), not {echo.shown(text)}")
        bot = _bot(text, rules, place, f"entrant {name}")
        for other in checked:
            if other.name.casefold() == name.casefold():
                raise PoolError(f"{place}: the name {name} is given twice (also at {where(('entrants', other.name))})")
            if other.bot == bot:
                raise PoolError(f"{place}: entrant {name} is {other.name} again ({bot}, at "
                                f"{where(('entrants', other.name))}): each entrant is a different bot")
        checked.append(Entrant(name, bot))
    if len(checked) < 2:
        raise PoolError(f"{where(('entrants',))}: a league needs at least two entrants, not {len(checked)}")
    if filler is None and len(checked) < rules.n_seats:
        raise PoolError(f"{where(('entrants',))}: {len(checked)} entrants without a filler cannot fill a table of "
                        f"{rules.n_seats} seats: name a filler (filler = \"heuristic\") or {rules.n_seats} entrants")
    anchor = values["anchor"]
    if anchor is None:
        anchor = checked[0].name
    if not isinstance(anchor, str) or not any(e.name == anchor for e in checked):
        raise PoolError(f"{where(('anchor',))}: the anchor {echo.shown(anchor)} is not the name of an entrant "
                        f"({', '.join(e.name for e in checked)})")
    return Pool(tuple(checked), anchor, table, rules.non_default_options(), seed, deals, filler)


def _whole(value, place: str, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise PoolError(f"{place}: {what} is a whole number, not {echo.shown(value)}")
    return value


def _bot(text: str, rules: Rules, place: str, what: str) -> str:
    try:
        return bot_label(text, rules)
    except ValueError as e:  # PoolError, PlayersError, BotError, BotLoadError: one line each
        raise PoolError(f"{place}: {what}: {e}") from None


# ---------------------------------------------------------------------------------------------
# the pool file

def load(path: str, overrides: dict | None = None) -> Pool:
    """The pool of the file ``path`` (:func:`loads`); an unreadable file is a :class:`PoolError`."""
    try:
        text = json_input.read_text(path, "a pool file")
    except OSError as e:
        raise PoolError(f"cannot read {path}: {e.strerror or e}") from None
    except json_input.JSONInputError as e:
        raise PoolError(f"{path}: {e}") from None
    return loads(text, path, overrides)


def loads(text: str, name: str = "pool", overrides: dict | None = None) -> Pool:
    """The pool of a pool file's text (:data:`EXAMPLE`), checked; ``name`` names the file in messages.

    ``overrides``: ``{key: (value, flag)}`` of the command line, which replace the file's values
    (``{"deals": (2000, "--deals")}``); their messages name the flag."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        message = str(e)
        m = re.search(r"\s*\(at line (\d+), column (\d+)\)$", message)
        if m is None:
            raise PoolError(f"{name}: not a pool file: {message}") from None
        raise PoolError(f"{name} line {m[1]}, column {m[2]}: {message[:m.start()]}") from None
    lines = key_lines(text)

    def where(path: tuple) -> str:
        given = (overrides or {}).get(path[0])
        if given is not None and (path[0] != "options" or len(path) == 1 or path[1] in given[0]):
            return given[1]
        for k in range(len(path), 0, -1):  # the key's line, else its table's
            if path[:k] in lines:
                return f"{name} line {lines[path[:k]]}"
        return name

    for key in doc:
        if key not in KEYS:
            raise PoolError(f"{where((key,))}: unknown key {echo.shown(key)}: a pool file's keys are "
                            f"{', '.join(KEYS)}")
    entrants = doc.get("entrants")
    if entrants is None:
        raise PoolError(f"{name}: no entrants: add an [entrants] table of name = \"bot\" lines")
    if not isinstance(entrants, dict):
        raise PoolError(f"{where(('entrants',))}: entrants are a table of name = \"bot\" lines, not "
                        f"{echo.shown(entrants)}")
    settings = {k: v for k, v in doc.items() if k != "entrants"}
    for key, (value, _) in (overrides or {}).items():
        held = settings.get(key)
        if key == "options" and isinstance(held, dict):  # --option adds to the file's options
            value = {**held, **value}
        elif key == "options" and held is not None:
            continue  # the file's options are refused as they are
        settings[key] = value
    return build(settings, list(entrants.items()), where)


def from_command_line(settings: dict, bots: str | None, names: str | None) -> Pool:
    """The pool given by options alone: ``settings`` ``{key: (value, flag)}``, ``--bots`` and ``--names``.

    ``bots``: the entrants as one ``--bots`` text (``heuristic,greedy,pimc:worlds=8``), named by
    ``names`` (``h,g,p``), by default their texts."""
    from ..runs.players import bot_texts

    if not bots:
        raise PoolError("no entrants: give a pool file, or --bots with two bots or more")
    try:
        texts = bot_texts(bots)
    except ValueError as e:
        raise PoolError(str(e)) from None
    labels = [n.strip() for n in names.split(",")] if names else texts
    if len(labels) != len(texts):
        raise PoolError(f"--names: {len(labels)} names for {len(texts)} bots of --bots")
    flags = {k: flag for k, (_, flag) in settings.items()}

    def where(path: tuple) -> str:
        return flags.get(path[0], "--bots")

    return build({k: v for k, (v, _) in settings.items()}, list(zip(labels, texts)), where)


# ---------------------------------------------------------------------------------------------
# where each key of a TOML text is

_BARE = r"[A-Za-z0-9_-]+"
_QUOTED = r"\"(?:[^\"\\]|\\.)*\"|'[^']*'"
_PART = rf"(?:{_BARE}|{_QUOTED})"
_KEY = re.compile(rf"^\s*({_PART}(?:\s*\.\s*{_PART})*)\s*=")
_HEADER = re.compile(rf"^\s*\[\s*({_PART}(?:\s*\.\s*{_PART})*)\s*\]")


def key_lines(text: str) -> dict[tuple, int]:
    """The line (from 1) of each key and table header of a TOML text, by its path of keys.

    ``("deals",)``, ``("entrants",)`` (its header), ``("entrants", "pimc")``: what a message
    about a value names. A line within a multi-line string is no key; the first line of a key
    given twice is kept (tomllib refuses the second)."""
    out: dict[tuple, int] = {}
    table: tuple = ()
    in_string = None
    for number, line in enumerate(text.splitlines(), 1):
        if in_string is not None:
            if line.count(in_string) % 2:
                in_string = None
            continue
        header = _HEADER.match(line) if not line.lstrip().startswith("[[") else None
        if header:
            table = _path(header[1])
            out.setdefault(table, number)
            continue
        key = _KEY.match(line)
        if key:
            out.setdefault(table + _path(key[1]), number)
            rest = line[key.end():]
            for quotes in ('"""', "'''"):
                if rest.count(quotes) % 2:
                    in_string = quotes
    return out


def _path(key: str) -> tuple:
    """The parts of a TOML key (``a."b c"`` -> ``("a", "b c")``), as tomllib reads them."""
    try:
        d = tomllib.loads(f"{key} = 0")
    except tomllib.TOMLDecodeError:
        return (key,)
    parts = []
    while isinstance(d, dict) and len(d) == 1:
        (k, d), = d.items()
        parts.append(k)
    return tuple(parts)


__all__ = ["DEFAULTS", "DEFAULT_DEALS", "EXAMPLE", "KEYS", "Entrant", "Pool", "PoolError", "bot_label", "build",
           "from_command_line", "key_lines", "load", "loads"]
