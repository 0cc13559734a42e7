"""tarotsim: a French Tarot simulator with automatic counting (rules: docs/rules.md, ids R-…).

The main names are here, ``import tarotsim as ts; ts.Game(ts.Rules("4"), seed=7)``, and so is
every module (``ts.record.load``, ``ts.runs.simulate.aggregate``). Both are imported on first use,
so that ``tarotsim score`` starts without the engine, numpy's users or numba.

The modules of the runs, the analysis and the command line live in the folders of their parts
(``tarotsim.runs``, ``tarotsim.analysis``, ``tarotsim.cli``); their old names (``tarotsim.simulate``,
``tarotsim.solver`` ...) still import, with a ``DeprecationWarning``, through :data:`MOVED_MODULES`.
"""

from __future__ import annotations

import importlib as _importlib
import importlib.abc as _importlib_abc
import importlib.util as _importlib_util
import os as _os
import sys as _sys
import warnings as _warnings
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
    "VecEnv": "runs.env",
}
__all__ = ["Card", "DealFacts", "EcartChoice", "Game", "IllegalPlayError", "PyRandomBot", "Rng", "RuleViolation",
           "Rules", "ScoreBreakdown", "SeatView", "VecEnv", "format_breakdown", "parse_cards", "play_game", "score"]

if TYPE_CHECKING:  # what the lazy names are, for type checkers and editors
    from .cards import Card, parse_cards
    from .engine import EcartChoice, Game, IllegalPlayError, PyRandomBot, SeatView, play_game
    from .runs.env import VecEnv
    from .reference.errors import RuleViolation
    from .rng import Rng
    from .rules import Rules
    from .scoring import DealFacts, ScoreBreakdown, format_breakdown, score


#: The modules that moved into the folders of their parts: old name -> new name. Importing an
#: old name gives the new module itself, with a DeprecationWarning; the map is removed in
#: release 0.3 (CHANGELOG.md).
MOVED_MODULES = {
    **{f"tarotsim.{m}": f"tarotsim.runs.{m}" for m in (
        "simulate", "runner", "players", "slowpath", "pybatch", "tournament", "study", "hand_study",
        "shards", "distributed", "env", "rl", "openspiel_game")},
    **{f"tarotsim.{m}": f"tarotsim.analysis.{m}" for m in ("solver", "replay_page", "record_stats")},
    "tarotsim.interactive": "tarotsim.cli.interactive",
}


def _moved(old: str):
    new = MOVED_MODULES[old]
    _warnings.warn(f"{old} is now {new}: the old name goes in tarotsim 0.3", DeprecationWarning, stacklevel=3)
    return _importlib.import_module(new)


class _MovedModules(_importlib_abc.MetaPathFinder, _importlib_abc.Loader):
    """Finds an old module name of :data:`MOVED_MODULES` and loads it as its new module."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname in MOVED_MODULES:
            return _importlib_util.spec_from_loader(fullname, self)
        return None

    def create_module(self, spec):
        return None  # a plain module, replaced by the new one in exec_module

    def exec_module(self, module):
        # the import system returns what sys.modules holds under the name once this returns
        _sys.modules[module.__name__] = _moved(module.__name__)


# first, before the path finders: an old name must never find a stale file of an earlier install
_sys.meta_path.insert(0, _MovedModules())


def __getattr__(name: str):
    """A main name or a module of the package, imported the first time it is asked for."""
    if f"{__name__}.{name}" in MOVED_MODULES:
        return _moved(f"{__name__}.{name}")
    if name in _EXPORTS:
        value = getattr(_importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
    else:
        value = submodule(__name__, name)
    globals()[name] = value
    return value


def submodule(package: str, name: str):
    """The public submodule ``name`` of ``package``, imported: a package's ``__getattr__``.

    Raises AttributeError, as a missing attribute does, for a private or unknown name."""
    if not name.startswith("_"):
        try:
            return _importlib.import_module(f".{name}", package)
        except ModuleNotFoundError as e:
            if e.name != f"{package}.{name}":
                raise
    raise AttributeError(f"module {package!r} has no attribute {name!r}")


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
