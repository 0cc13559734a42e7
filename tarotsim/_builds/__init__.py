"""The engine's kernels built with the bots' decisions (private).

The engine's kernels built with the bots (private): where the engine's factories receive the
bots' decisions, and the batch loops over those builds.

The kernels (``tarotsim._kernels``) never import the bots: their factories
(``tarotsim._kernels.play.make_play``, ``tarotsim._kernels.env.make_env_step``) take the bots'
dispatch (``bots.dispatch.DISPATCH``) as an argument, and this package hands it to them:

* ``loops.py``: the batch loops over a chunk of deals, built for each build's deal kernel;
* ``deal.py``: the bots build of the deal kernel, its traced twin and their batch kernels;
* ``pimc.py``: the pimc builds (the search as their card dispatch; the full one with the exact
  solver and the weighing of worlds) and their batch kernels;
* ``bid_search.py``: the bid-search builds (the card search, and the bid search's bid, call,
  écart, chelem and poignée: ``bots.bid_search.make_bid_search``), compiled only for a seat that
  sets ``bid_search``, their batch kernels and the searches as one compiled call;
* ``study.py``: the bidding study's loops over those builds; ``hand.py``: the hand-level study's;
* ``env.py``: the environment's step with kernel bots as the opponents;
* ``runs.py``: the build picked from the seats' kinds, what ``tarotsim.runs.simulate`` calls.

Nothing is imported here: a module is loaded (and its builds made) when a caller needs it.
"""

from __future__ import annotations

from pathlib import Path


def sources() -> list[Path]:
    """The source files a build inlines, for its cache guard.

    The sources a build inlines, for its cache guard (``tarotsim._kernels._cache``): the
    engine's, the bots', this package's and the models' forward passes (the search reads a
    card-location model) with what they read."""
    import bots

    from .._kernels._cache import engine_sources

    here = Path(__file__).resolve().parent
    learn = [here.parent / "learn" / n for n in ("features.py", "forward.py")]
    return (engine_sources() + sorted(Path(bots.__file__).resolve().parent.glob("*.py")) + sorted(here.glob("*.py"))
            + learn + [here.parent / n for n in ("actions.py", "observations.py")])
