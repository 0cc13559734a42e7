"""numba kernels (private): whole deals of French Tarot on bitmasks, batch loops, random bot.

Public entry points are in ``tarotsim.simulate``. Layout constants: ``layout``. Kernels are
compiled with ``cache=True``; numba's cache only watches each kernel's own source file, so at
import we compare a hash of every source a kernel inlines (these modules, ``scoring.py``,
``rules.py``, ``rng.py``, ``cards.py``, and the bots' policies ``bots/*.py``) and the
bit-selection path with the one stored beside the cache, and flush the stale entries when it
changed.
"""

from __future__ import annotations

import hashlib
import os
import sys
import warnings
from pathlib import Path

from numba.core.errors import NumbaExperimentalFeatureWarning

# A user's policy set reaches the kernels as first-class functions (DESIGN §4), a numba feature
# still labelled experimental: its warning would print on every run that uses one.
warnings.filterwarnings("ignore", message="First-class function type", category=NumbaExperimentalFeatureWarning)

from . import _bits, _rng, bots, layout, pimc, play, study, worlds  # noqa: F401
from ._bits import HAS_PDEP
from .play import new_buffer, play_deal, run_aggregate, run_facts, run_logs, score_kernel

_CACHED = (_bits.bits_py, play.play_deal, play.run_facts_random, play.run_facts_bots, play.run_aggregate_random,
           play.run_aggregate_bots, play.run_logs_random, play.run_logs_bots, play.new_buffer,
           play.score_kernel, _rng.shuffle_into, _rng.stream_state_py, _rng.draws_py,
           bots.decide_bid, bots.decide_call, bots.decide_ecart, bots.decide_chelem, bots.decide_poignee,
           bots.decide_misere, bots.decide_card, study.run_study, study.run_study_pimc, worlds.derive, worlds._prepare,
           worlds.sample_worlds, worlds.count_worlds, worlds.new_workspace, worlds.world_masks,
           pimc.new_pimc_buffer, pimc.run_facts_pimc, pimc.run_aggregate_pimc, pimc.run_logs_pimc,
           pimc.run_stats_pimc, pimc.decide_pimc_card)


def _sources_digest() -> str:
    here = Path(__file__).resolve().parent
    files = sorted(here.glob("*.py")) + [here.parent / n for n in ("scoring.py", "rules.py", "rng.py", "cards.py")]
    # the policies the kernels call (the top-level ``bots`` package, wherever it is installed)
    files += sorted(Path(sys.modules["bots.heuristic"].__file__).resolve().parent.glob("*.py"))
    h = hashlib.sha256()
    for f in files:
        h.update(f.name.encode())
        h.update(f.read_bytes())
    h.update(b"pdep" if HAS_PDEP else b"loop")
    return h.hexdigest()


def _guard_cache() -> None:
    try:
        digest = _sources_digest()
        dirs = {}
        for disp in _CACHED:
            cache = getattr(disp, "_cache", None)
            path = getattr(cache, "_cache_path", None)
            if path:
                dirs.setdefault(path, []).append(cache)
        for path, caches in dirs.items():
            stamp = os.path.join(path, "tarotsim-kernels.sha256")
            try:
                old = Path(stamp).read_text()
            except OSError:
                old = ""
            if old != digest:
                for cache in caches:
                    cache.flush()
                os.makedirs(path, exist_ok=True)
                Path(stamp).write_text(digest)
    except Exception:  # never let the guard break an import (read-only trees, odd numba versions)
        pass


_guard_cache()

__all__ = ["HAS_PDEP", "layout", "new_buffer", "play_deal", "run_aggregate", "run_facts", "run_logs",
           "score_kernel"]
