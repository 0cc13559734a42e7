"""tarotsim: a French Tarot simulator with automatic counting (rules: docs/rules.md, ids R-…).

The main names are here, ``import tarotsim as ts; ts.Game(ts.Rules("4"), seed=7)``, and so is
every module (``ts.simulate.aggregate``, ``ts.record.load``). Both are imported on first use, so
that ``tarotsim score`` starts without the engine, numpy's users or numba.
"""

from __future__ import annotations

import importlib as _importlib
import os as _os
from typing import TYPE_CHECKING

__version__ = "0.1.0"

#: the main names of the library -> the module that holds each
_EXPORTS = {
    "Card": "cards", "parse_cards": "cards",
    "Rules": "rules",
    "DealFacts": "scoring", "ScoreBreakdown": "scoring", "score": "scoring", "format_breakdown": "scoring",
    "Game": "engine", "SeatView": "engine", "EcartChoice": "engine", "IllegalPlayError": "engine",
    "PyRandomBot": "engine", "play_game": "engine",
    "RuleViolation": "reference.errors",
    "Rng": "rng",
    "VecEnv": "env",
}
__all__ = ["Card", "DealFacts", "EcartChoice", "Game", "IllegalPlayError", "PyRandomBot", "Rng", "RuleViolation",
           "Rules", "ScoreBreakdown", "SeatView", "VecEnv", "format_breakdown", "parse_cards", "play_game", "score"]

if TYPE_CHECKING:  # what the lazy names are, for type checkers and editors
    from .cards import Card, parse_cards
    from .engine import EcartChoice, Game, IllegalPlayError, PyRandomBot, SeatView, play_game
    from .env import VecEnv
    from .reference.errors import RuleViolation
    from .rng import Rng
    from .rules import Rules
    from .scoring import DealFacts, ScoreBreakdown, format_breakdown, score


def __getattr__(name: str):
    """A main name or a module of the package, imported the first time it is asked for."""
    if name in _EXPORTS:
        value = getattr(_importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
    elif not name.startswith("_"):
        try:
            value = _importlib.import_module(f".{name}", __name__)
        except ModuleNotFoundError as e:
            if e.name != f"{__name__}.{name}":
                raise
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))


def _numba_cache_dir() -> str:
    """The folder where numba caches the compiled kernels.

    Where numba keeps the compiled kernels: ``NUMBA_CACHE_DIR`` when the user set it, else a
    per-user cache folder, never inside the installed package. Cache files left in
    ``site-packages/tarotsim`` or ``site-packages/bots`` outlive ``pip uninstall`` and turn those
    folders into namespace packages that shadow a later editable install."""
    given = _os.environ.get("NUMBA_CACHE_DIR")
    if given:
        return given
    base = _os.environ.get("XDG_CACHE_HOME") or _os.path.join(_os.path.expanduser("~"), ".cache")
    return _os.path.join(base, "tarotsim", "numba")


def _use_numba_cache_dir() -> None:
    # Before any kernel module is imported: numba picks a dispatcher's cache folder when the
    # @njit(cache=True) decorator runs. Setting the variable also reaches numba when it is
    # imported later; numba.config is set directly when it was imported already.
    path = _numba_cache_dir()
    _os.environ["NUMBA_CACHE_DIR"] = path
    import sys

    config = getattr(sys.modules.get("numba"), "config", None)
    if config is not None:
        config.CACHE_DIR = path


_use_numba_cache_dir()
