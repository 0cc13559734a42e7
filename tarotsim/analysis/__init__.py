"""The analysis of played deals: the exact solver, the cost of each card, the replay page, record statistics.

- :mod:`tarotsim.analysis.solver`: the exact open-card solver (``Position``, ``Solver``);
- :mod:`tarotsim.analysis.costs`: what each card of a deal cost against best play (``analyse``,
  ``tarotsim analyse``), whose names this package also gives (``tarotsim.analysis.analyse``);
- :mod:`tarotsim.analysis.replay_page`: the self-contained page that steps through deals
  (``show --html``, ``analyse --html``);
- :mod:`tarotsim.analysis.record_stats`: statistics of deal-record files (``tarotsim stats``).

Nothing here plays deals in batches: the analysis reads records and positions, and the runs
(:mod:`tarotsim.runs`) never import it.
"""

from __future__ import annotations

import importlib as _importlib
from typing import TYPE_CHECKING

from .. import submodule

#: what :mod:`tarotsim.analysis.costs` gives under this package's name, imported on first use
#: (the solver's kernels load only when asked for)
_COSTS = ("DEFAULT_BUDGET", "Analysis", "AnalysisError", "CardVerdict", "analyse", "best_cards", "card_costs",
          "check_analysable", "format_analysis", "nodes_text")
__all__ = ["DEFAULT_BUDGET", "Analysis", "AnalysisError", "CardVerdict", "analyse", "best_cards", "card_costs",
           "check_analysable", "format_analysis", "nodes_text"]

if TYPE_CHECKING:
    from .costs import (DEFAULT_BUDGET, Analysis, AnalysisError, CardVerdict, analyse, best_cards, card_costs,
                        check_analysable, format_analysis, nodes_text)


def __getattr__(name: str):
    """A name of :mod:`tarotsim.analysis.costs` or a module of the package, imported on first use."""
    value = getattr(_importlib.import_module(".costs", __name__), name) if name in _COSTS else submodule(__name__, name)
    globals()[name] = value
    return value
