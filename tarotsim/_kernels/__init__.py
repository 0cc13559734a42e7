"""The numba kernels that play whole deals (private).

numba kernels (private): whole deals of French Tarot on bitmasks, batch loops, the random
player, the world sampler.

Public entry points are in ``tarotsim.runs.simulate``. Layout constants: ``layout``. This package never
imports the ``bots`` package: the bots' builds of the deal kernel (their dispatch handed to
``play.make_play``) are in ``tarotsim/_builds/``. Kernels
are compiled with ``cache=True``, under the guard of ``_cache.guard_cache`` (numba's cache only
watches each kernel's own source file).
"""

from __future__ import annotations

import warnings

from numba.core.errors import NumbaExperimentalFeatureWarning

# A user's policy set reaches the kernels as first-class functions (DESIGN §4), a numba feature
# still labelled experimental: its warning would print on every run that uses one.
warnings.filterwarnings("ignore", message="First-class function type", category=NumbaExperimentalFeatureWarning)

from . import _bits, _rng, layout, play, random_player, steps, study, workspace, worlds  # noqa: F401
from ._bits import HAS_PDEP
from ._cache import engine_sources, guard_cache
from .steps import score_kernel
from .workspace import new_buffer

guard_cache("tarotsim-kernels", (
    _bits.bits_py, play.run_facts_random, play.run_aggregate_random, play.run_logs_random, workspace.new_buffer,
    steps.score_kernel, _rng.shuffle_into, _rng.stream_state_py, _rng.draws_py, worlds.derive, worlds._prepare,
    worlds.sample_worlds, worlds.count_worlds, worlds.new_workspace, worlds.world_masks), engine_sources())

__all__ = ["HAS_PDEP", "layout", "new_buffer", "score_kernel"]
