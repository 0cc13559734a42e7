"""The runs: many deals played by the kernels (or step by step), summed into reports.

Who plays each seat (:mod:`~tarotsim.runs.players`) and which engine plays them
(:mod:`~tarotsim.runs.runner`: the kernels, the batched engine of a Python bot
:mod:`~tarotsim.runs.pybatch`, or the step-by-step :mod:`~tarotsim.runs.slowpath`); the batch runs
(:mod:`~tarotsim.runs.simulate`), duplicate tournaments (:mod:`~tarotsim.runs.tournament`), the
bidding study (:mod:`~tarotsim.runs.study`, :mod:`~tarotsim.runs.hand_study`); runs split in any way
(:mod:`~tarotsim.runs.shards`), on threads (:mod:`tarotsim.parallel`) or on Dask
(:mod:`~tarotsim.runs.distributed`); the environments for learning agents
(:mod:`~tarotsim.runs.env`, :mod:`~tarotsim.runs.rl`, :mod:`~tarotsim.runs.openspiel_game`); and a
person's evening among bots (:mod:`~tarotsim.runs.evening`: the deal sequence, the bots' turns, the hint).

The runs sum integer totals block by block, which is why a run split in any way gives the same
report. They never import the analysis (:mod:`tarotsim.analysis`) nor the command line.
"""

from .. import submodule


def __getattr__(name: str):
    """A module of the package, imported the first time it is asked for (``tarotsim.runs.simulate``)."""
    value = submodule(__name__, name)
    globals()[name] = value
    return value
