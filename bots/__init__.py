"""The bots of tarotsim: a registry of named bots with typed parameters.

Every registered bot plays on the fast path (numba kernels; its policies are the njit functions
of ``bots/<name>.py``, dispatched on its ``CODE`` by ``bots/dispatch.py``, which the deal
kernel's factory receives in ``tarotsim/_builds/deal.py``: the kernels never import this package) and on the
slow path through ``tarotsim.adapters.FastBotAdapter`` (same decisions):

```python
from bots import REGISTRY, parse_bots
REGISTRY["heuristic"].vector(garde=60)  # float64[N_BOT_PARAMS]
parse_bots("heuristic:garde=56,prise=40,random,random,random", 4)
# -> [("heuristic", vec), ("random", vec), ("random", vec), ("random", vec)]
```

Bots (``REGISTRY``): ``random`` (uniform over the legal choices), ``greedy`` (simple rules),
``heuristic`` (a club player's rules of thumb), ``pimc`` (the heuristic's bidding; its cards by a
search over sampled deals of the unseen cards, ``bots/pimc.py``), ``learned`` (a policy network's best
legal action, ``bots/learned.py``). A bot sees only its own hand, the legal choices and the public
view of the deal.

``heuristic:thresholds=FILE`` sets its four bidding thresholds (``prise``, ``garde``,
``garde_sans``, ``garde_contre``) from a calibration file written by ``tarotsim study bidding
--calibrate FILE`` (:func:`load_thresholds`); parameters given by name besides win over the file.
A file measured at table 2 sets the table-2 thresholds (``prise2``, ``garde2``, ``garde_sans2``,
``garde_contre2``) instead.

Aliases (``ALIASES``): ``strong`` stands for the strongest setting of ``pimc`` measured at 10 ms a
card decision or less (``benchmarks.frontier``), less its parameters that do nothing at the table
played (:meth:`Alias.setting_at`); it plays wherever bots are named, and takes no parameters
(give them to the setting it stands for).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

import tarotsim.echo as echo
from tarotsim._kernels.layout import N_BOT_PARAMS
from tarotsim.rules import TABLES

from . import greedy, heuristic, learned, pimc, policy, random

__all__ = ["ALIASES", "Alias", "BOTS", "BOT_KINDS", "BOT_USER", "BotError", "BotSpec", "FILE_PARAMS", "N_BOT_PARAMS",
           "Param", "REGISTRY", "load_thresholds", "parse_bot", "parse_bots", "split_bots"]

#: The registered bots, one row each: a module ``bots/<name>.py`` with its ``NAME``, its ``CODE``
#: (its kind in the kernels' ``kinds`` arrays), its ``DESCRIPTION``, its ``PARAMS`` and the bot
#: whose policies make its decisions in the dispatch (``DECIDES_AS``, ``bots/dispatch.py``).
BOTS = (random, greedy, heuristic, pimc, learned)
#: Each registered bot's kind, by name: the codes the kernels' ``kinds`` arrays hold.
BOT_KINDS = {bot.NAME: bot.CODE for bot in BOTS}
#: The kinds whose decisions the dispatch makes by the heuristic's policies (``DECIDES_AS``): they count
#: their hands and bid as it does, from their own thresholds (their first parameters).
HEURISTIC_KINDS = tuple(bot.CODE for bot in BOTS if bot.DECIDES_AS == "heuristic")
#: The kind of a user's policy set (``bots.policy.PolicySet``): not a registered bot.
BOT_USER = policy.CODE
if len(set(BOT_KINDS.values()) | {BOT_USER}) != len(BOTS) + 1:  # pragma: no cover - a programming error
    raise ImportError(f"two bots share a code: {BOT_KINDS}, a policy set {BOT_USER}")


class BotError(ValueError):
    """An unknown bot or parameter, a value of the wrong type, or a wrong number of bots."""


_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


@dataclass(frozen=True)
class Param:
    """One parameter of a bot: its name, default, type (int, float or bool) and a help line."""

    name: str
    default: float
    kind: type
    help: str
    lo: float | None = None  # the smallest value allowed, None: no bound
    hi: float | None = None  # the largest
    needs: tuple[str, float] | None = None  # (parameter, value) without which it does nothing
    tables: tuple[str, ...] | None = None  # the tables where it acts, None: every table
    at_least: str | None = None  # a parameter below which it does nothing (it acts as that one)

    def condition(self) -> str:
        """When it acts, in words (empty: always), as `tarotsim bots` says it."""
        parts = []
        if self.needs is not None:
            parts.append(f"only with {self.needs[0]}={self.needs[1]:g}")
        if self.tables is not None:
            others = [t for t in TABLES if t not in self.tables]
            parts.append(f"not at table {', '.join(others)}" if len(others) == 1
                         else f"only at table {', '.join(self.tables)}")
        if self.at_least is not None:
            parts.append(f"at least {self.at_least}")
        return "; ".join(parts)

    def coerce(self, value, bot: str = "") -> float:
        """Check a value of this parameter and convert it to a float.

        ``value`` (a Python value or a command-line string) as the float stored in the vector;
        raises :class:`BotError` when it is not of the parameter's type."""
        where = f"bot {bot} parameter {self.name}" if bot else f"parameter {self.name}"
        text = value.strip() if isinstance(value, str) else value
        if self.kind is bool:
            if isinstance(text, bool):
                return float(text)
            if isinstance(text, (int, np.integer)) and text in (0, 1):
                return float(text)
            if isinstance(text, str) and text.lower() in _TRUE | _FALSE:
                return 1.0 if text.lower() in _TRUE else 0.0
            raise BotError(f"{where} takes true or false, not {echo.shown(value)}")
        if isinstance(text, (bool, np.bool_)):
            raise BotError(f"{where} takes a {'whole ' if self.kind is int else ''}number, not {echo.shown(value)}")
        if self.kind is int:
            if isinstance(text, (int, np.integer)):
                return self._in_range(float(text), where, value)
            if isinstance(text, (float, np.floating)) and math.isfinite(text) and float(text).is_integer():
                return self._in_range(float(text), where, value)
            if isinstance(text, str):
                try:
                    whole = int(text)
                except ValueError:
                    whole = None
                if whole is not None:  # the range is checked outside: BotError is a ValueError too
                    return self._in_range(float(whole), where, value)
            raise BotError(f"{where} takes a whole number, not {echo.shown(value)}")
        try:
            v = float(text)
        except (TypeError, ValueError):
            raise BotError(f"{where} takes a number, not {echo.shown(value)}") from None
        if not math.isfinite(v):
            raise BotError(f"{where} takes a finite number, not {echo.shown(value)}")
        return self._in_range(v, where, value)

    def _in_range(self, v: float, where: str, value) -> float:
        if (self.lo is not None and v < self.lo) or (self.hi is not None and v > self.hi):
            raise BotError(f"{where} takes a value {self._bounds()}, not {echo.shown(value)}")
        return v

    def _bounds(self) -> str:
        """The allowed range in words; a bound may be None (no bound on that side)."""
        lo, hi = self.lo, self.hi
        if lo is not None and hi is not None:
            return f"in {self.decode(lo)}..{self.decode(hi)}"
        if lo is not None:
            return f"of at least {self.decode(lo)}"
        if hi is not None:
            return f"of at most {self.decode(hi)}"
        return "of any size"

    def decode(self, x: float):
        """The vector entry back as a value of the parameter's type."""
        return bool(x) if self.kind is bool else int(x) if self.kind is int else float(x)


@dataclass(frozen=True)
class BotSpec:
    """A registered bot: its name, kernel code, description and parameters.

    A registered bot: ``name``, kernel ``code`` (:data:`BOT_KINDS`), one-line ``description``
    and its ``params`` in parameter-vector order."""

    name: str
    code: int
    description: str
    params: tuple[Param, ...] = ()

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        known = ", ".join(p.name for p in self.params) or "none"
        raise BotError(f"bot {self.name} has no parameter {echo.shown(name)} (known: {known})")

    def vector(self, **overrides) -> np.ndarray:
        """The bot's parameter vector, with overrides checked.

        The float64[N_BOT_PARAMS] parameter vector: the defaults, with ``overrides`` (values or
        strings) checked against each parameter's type."""
        v = np.zeros(N_BOT_PARAMS, dtype=np.float64)
        for i, p in enumerate(self.params):
            v[i] = float(p.default)
        index = {p.name: i for i, p in enumerate(self.params)}
        for name, value in overrides.items():
            p = self.param(name)
            v[index[name]] = p.coerce(value, self.name)
        return v

    def row(self, params=None, where: str = "", table: str | None = None) -> np.ndarray:
        """A seat's parameter row from what a caller gives.

        The parameter row of a seat from what a caller gives: None (the defaults), a
        ``{name: value}`` mapping (checked, as :meth:`vector`, and none idle at ``table``:
        :meth:`refuse_idle`) or a vector whose first values replace the defaults (at most
        ``N_BOT_PARAMS``; ``where`` names the seat in the error)."""
        if isinstance(params, dict):
            vec = self.vector(**params)
            self.refuse_idle(params, vec, table)
            return vec
        vec = self.vector()
        if params is not None:
            p = np.asarray(params, dtype=np.float64).ravel()
            if p.size > N_BOT_PARAMS:
                raise BotError(f"bot {self.name!r}{where}: at most {N_BOT_PARAMS} parameters")
            vec[:p.size] = p
        return vec

    def values(self, vector) -> dict:
        """``{name: value}`` of a parameter vector (typed)."""
        vector = np.asarray(vector, dtype=np.float64)
        return {p.name: p.decode(vector[i]) for i, p in enumerate(self.params)}

    def overrides(self, vector) -> dict:
        """The parameters of ``vector`` that differ from the defaults (typed)."""
        return {k: v for k, v in self.values(vector).items() if v != self.param(k).decode(float(self.param(k).default))}

    def refuse_idle(self, given, vector, table: str | None = None, sources: dict | None = None) -> None:
        """Refuse a parameter given that would do nothing here (:attr:`Param.condition`).

        ``given``: the names of the parameters set (by name or from a file); ``vector``: the
        bot's whole parameter vector; ``table``: where it plays (None: unknown, the tables are
        not checked); ``sources``: what set a parameter besides its name (``thresholds=FILE``).
        Raises :class:`BotError` (one line) for the first parameter given that acts only at other
        tables, only with another parameter set (``candidates`` without ``infer=1``), or below
        the parameter it acts as (``candidates`` below ``worlds``)."""
        values = self.values(vector)
        sources = sources or {}

        def what(name: str) -> str:
            return f"{sources[name]} sets {name}, which" if name in sources else name

        params = [self.param(name) for name in given]
        for p in params:
            if table is not None and p.tables is not None and table not in p.tables:
                only = f" (only at table {p.tables[0]})" if len(p.tables) == 1 else ""
                raise BotError(f"bot {self.name}: {what(p.name)} does nothing at table {table}{only}: leave it out")
        for p in params:
            if p.needs is not None and values[p.needs[0]] != self.param(p.needs[0]).decode(p.needs[1]):
                need = f"{p.needs[0]}={p.needs[1]:g}"
                raise BotError(f"bot {self.name}: {what(p.name)} does nothing without {need}: leave it out or set "
                               f"{need}")
        for p in params:
            floor = values.get(p.at_least) if p.at_least is not None else None
            if floor is not None and values[p.name] < floor:
                raise BotError(f"bot {self.name}: {p.name}={values[p.name]} is below {p.at_least}={floor}, so it acts "
                               f"as {floor}: give {p.name} of at least {floor}, or fewer {p.at_least}")


def _spec(module) -> BotSpec:
    ranges, needs = getattr(module, "RANGES", {}), getattr(module, "NEEDS", {})
    tables, at_least = getattr(module, "AT_TABLES", {}), getattr(module, "AT_LEAST", {})
    params = []
    for n, d, k, h in module.PARAMS:
        lo, hi = ranges.get(n, (None, None))
        params.append(Param(n, d, k, h, lo, hi, needs.get(n), tables.get(n), at_least.get(n)))
    assert len(params) <= N_BOT_PARAMS, module.NAME
    return BotSpec(module.NAME, module.CODE, module.DESCRIPTION, tuple(params))


#: Every bot the kernels know, by name (:data:`BOTS`, in its order).
REGISTRY: dict[str, BotSpec] = {bot.NAME: _spec(bot) for bot in BOTS}


@dataclass(frozen=True)
class Alias:
    """A name that stands for one setting of a registered bot, usable wherever bots are named.

    ``setting``: the bot it stands for (``--bots`` grammar), the strongest of the frontier run of
    ``command`` (``benchmarks.frontier``) at ``budget_ms`` a card decision or less;
    ``ms_per_decision``: that setting's time per card decision on one core in that run (never
    measured when the alias is used)."""

    name: str
    setting: str
    description: str
    budget_ms: float
    ms_per_decision: float
    command: str

    def setting_at(self, table: str | None = None) -> str:
        """The setting at ``table``: without its parameters that do nothing there.

        A parameter that acts only at other tables (``infer`` at table 2, R-VAR-TWO) is left out,
        and so is one that needs a parameter left out, so that the alias plays at every table;
        ``table`` None: the setting as measured."""
        name, _, rest = self.setting.partition(":")
        spec = get_spec(name)
        given = [(a, spec.param(a.partition("=")[0].strip())) for a in rest.split(",")] if rest else []
        out = {p.name for _, p in given if table is not None and p.tables is not None and table not in p.tables}
        out |= {p.name for _, p in given if p.needs is not None and p.needs[0] in out}
        kept = [a for a, p in given if p.name not in out]
        return spec.name + (":" + ",".join(kept) if kept else "")


#: The aliases, by name: each stands for a setting and takes no parameters of its own (the
#: setting, with parameters, is named by its own text).
ALIASES = {a.name: a for a in (
    Alias("strong", "pimc:worlds=128,infer=1", "the strongest bot at 10 ms a card decision or less (the frontier "
          "of the search's settings: docs/explanation/strength.md)", 10.0, 2.9215,
          "python -m benchmarks.frontier --table 4 --seed 4 --deals 2000 --speed-deals 200 --out "
          "benchmarks/frontier-4.json --settings pimc:worlds=8,pimc:worlds=16,pimc:worlds=32,pimc:worlds=64,"
          "pimc:worlds=128,pimc:worlds=256@1000,pimc:worlds=512@600,pimc:worlds=1024@300,pimc:infer=1@1000,"
          "pimc:worlds=128,infer=1@600,pimc:bid_search=1,pimc:worlds=256,bid_search=1@600,learned,heuristic"),
)}


#: Parameters read from a file, per bot: ``{bot: {key: help}}`` (``heuristic:thresholds=FILE``).
FILE_PARAMS = {"heuristic": {"thresholds": "FILE from `tarotsim study bidding --calibrate FILE`: sets prise, "
                                           "garde, garde_sans and garde_contre (prise2 .. garde_contre2 "
                                           "from a table-2 study)"}}
# pimc bids as the heuristic does: a file sets its thresholds too
FILE_PARAMS["pimc"] = {**FILE_PARAMS["heuristic"],
                       "location_model": "FILE from `tarotsim learn train --model locations`: the card-location "
                                         "model that weighs its worlds (sets locations=1 and location_model_id)",
                       "opponent_model": "FILE from `tarotsim learn train --model policy`: the policy that models "
                                         "the other seats' cards (sets learned_opponent=1 and opponent_model_id)"}
FILE_PARAMS["learned"] = {"model": "FILE from `tarotsim learn train --model policy`: the policy model it plays "
                                   "(sets model_id)"}
THRESHOLD_PARAMS = ("prise", "garde", "garde_sans", "garde_contre")
THRESHOLDS_FORMAT = "tarotsim-thresholds/1"


def load_thresholds(path: str) -> dict:
    """Read the bidding thresholds of a calibration file.

    ``{"prise": x, "garde": x, "garde_sans": x, "garde_contre": x}`` from a calibration file
    (JSON with a ``"thresholds"`` object, as ``tarotsim.runs.study.calibration`` writes it); from a
    file whose ``"table"`` is ``"2"``, the same as the table-2 thresholds (``"prise2"`` ..);
    any problem is a one-line :class:`BotError`."""
    from tarotsim.json_input import JSONInputError, load_file

    try:
        data = load_file(path, "a thresholds file")
    except OSError as e:
        raise BotError(f"cannot read thresholds file {path}: {e.strerror or e}") from None
    except JSONInputError as e:  # bad JSON, nested too deeply, bad UTF-8, too large ...
        raise BotError(f"thresholds file {path}: {e}") from None
    fmt = data.get("format", THRESHOLDS_FORMAT) if isinstance(data, dict) else None
    th = data.get("thresholds") if isinstance(data, dict) else None
    if fmt != THRESHOLDS_FORMAT or not isinstance(th, dict):
        raise BotError(f"{path} is not a thresholds file (tarotsim study bidding --calibrate writes one)")
    out = {}
    for name in THRESHOLD_PARAMS:
        v = th.get(name)
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise BotError(f"thresholds file {path}: {name} must be a finite number, not {echo.shown(v)}")
        out[name] = float(v)
    if data.get("table") == "2":  # R-VAR-TWO: the heuristic has thresholds of its own at table 2
        out = {f"{name}2": v for name, v in out.items()}
    return out


def get_spec(name: str) -> BotSpec:
    """The registered bot ``name`` (case-insensitive), or :class:`BotError`."""
    spec = REGISTRY.get(str(name).strip().lower())
    if spec is None:
        raise BotError(f"unknown bot {echo.shown(name)} (known: {', '.join([*REGISTRY, *ALIASES])})")
    return spec


def split_bots(text: str) -> list[str]:
    """The ``--bots`` grammar: one text per bot, in seat order.

    Bots are separated by commas: ``heuristic`` (every seat), ``heuristic,random,random,random``
    (one per seat). A bot's parameters follow a colon, ``heuristic:garde=56``; a comma-token that
    holds ``=`` and no ``:`` continues the parameters of the bot before it
    (``heuristic:garde=56,prise=40,random`` is two bots). A user's bot is ``module:NAME``
    (``tarotsim.runs.players.parse_players`` loads it). Raises :class:`BotError` (one line) for an
    empty text, an empty name or a parameter before any bot.
    """
    if not isinstance(text, str) or not text.strip():
        raise BotError("no bot given: name one bot for every seat, or one per seat separated by commas")
    out: list[str] = []
    for tok in (t.strip() for t in text.split(",")):
        if not tok:
            raise BotError(f"empty bot name in {echo.shown(text)}")
        if "=" in tok and ":" not in tok:
            if not out:
                raise BotError(f"parameter {echo.shown(tok)} comes before any bot name in {echo.shown(text)}")
            out[-1] += "," + tok
        else:
            out.append(tok)
    return out


def parse_bot(text: str, table: str | None = None) -> tuple[str, np.ndarray]:
    """Parse one registered bot of the ``--bots`` grammar.

    One registered bot of the ``--bots`` grammar (:func:`split_bots`), ``heuristic`` or
    ``heuristic:garde=56,prise=40``: its name and its parameter vector (the defaults, the
    ``thresholds`` file's values, then the parameters given by name). A parameter given that
    would do nothing (at ``table``, when given, or without the parameter it needs) is a
    :class:`BotError` (:meth:`BotSpec.refuse_idle`). An alias (:data:`ALIASES`, ``strong``) is
    the setting it stands for, and takes no parameters (a one-line :class:`BotError`)."""
    name, colon, rest = text.strip().partition(":")
    alias = ALIASES.get(name.strip().lower())
    if alias is not None:
        if colon:  # the alias is the setting measured: parameters on top would be another, unmeasured
            setting = alias.setting_at(table)
            raise BotError(f"bot {alias.name} takes no parameters: it stands for {setting}, which takes "
                           f"them ({setting},NAME=VALUE)")
        return parse_bot(alias.setting_at(table), table)
    if colon and not rest.split(",")[0].strip():
        raise BotError(f"nothing after ':' in {name.strip() + ':'!r}: give NAME=VALUE")
    spec = get_spec(name)
    overrides, from_file, files, sources = {}, None, {}, {}
    for a in (x.strip() for x in rest.split(",")) if colon else ():
        key, eq, value = (x.strip() for x in a.partition("="))
        if not eq or not key:
            raise BotError(f"bot {spec.name}: {echo.shown(a)} is not NAME=VALUE")
        if key in FILE_PARAMS.get(spec.name, ()):
            if key in files:
                raise BotError(f"bot {spec.name}: {key} given twice")
            try:
                read = (learned.model_file(value) if key == "model" else
                        pimc.location_model_file(value) if key == "location_model" else
                        pimc.opponent_model_file(value) if key == "opponent_model" else load_thresholds(value))
            except ValueError as e:  # ModelError
                raise BotError(str(e) if isinstance(e, BotError) else f"bot {spec.name}: {e}") from None
            files[key] = value
            from_file = {**(from_file or {}), **read}
            sources.update({k: f"{key}={value}" for k in read})
            continue
        spec.param(key)
        if key in overrides:
            raise BotError(f"bot {spec.name}: parameter {key} given twice")
        overrides[key] = value
    given = {**(from_file or {}), **overrides}
    vec = spec.vector(**given)
    spec.refuse_idle(given, vec, table, {k: sources[k] for k in from_file or {} if k not in overrides})
    values = spec.values(vec)
    for a, b in getattr(next(m for m in BOTS if m.NAME == spec.name), "EXCLUSIVE", ()):
        if values[a] and values[b]:
            raise BotError(f"bot {spec.name}: {a} and {b} do not play together: leave one out")
    return spec.name, vec


def parse_bots(text: str, n_seats: int, table: str | None = None) -> list[tuple[str, np.ndarray]]:
    """Parse a ``--bots`` text into one ``(name, vector)`` per seat.

    ``"heuristic"`` (every seat), ``"heuristic,random,random,random"`` (one per seat) or with
    parameters ``"heuristic:garde=56,prise=40,random,random,random"`` -> one ``(name, vector)``
    per seat (:func:`split_bots`, :func:`parse_bot`): registered bots only. With ``table``, a
    parameter that acts only at other tables is refused too."""
    out = [parse_bot(seg, table) for seg in split_bots(text)]
    if len(out) == 1:
        out = [(out[0][0], out[0][1].copy()) for _ in range(n_seats)]
    if len(out) != n_seats:
        raise BotError(f"{len(out)} bots for a table of {n_seats} seats: give one bot for every seat "
                       f"or {n_seats} separated by commas")
    return out
