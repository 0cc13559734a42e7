"""The guard of numba's on-disk cache (private), for the engine's kernels and the bots' alike.

numba's cache only watches each kernel's own source file, but a kernel inlines code from many
(the deal's steps, the scorer, the rule tables, the bots' policies). So every module that defines
cached kernels calls :func:`guard_cache` once at import with its kernels and every source they
may inline: a hash of those files and of the bit-selection path is kept beside the cache, one
stamp per module (``tag``), and the module's stale entries are flushed when it changed.

A kernel the cache lacks is compiled at its first call, which then takes seconds to minutes:
:func:`is_cached` tells beforehand, and every command and the library tell the user in the words
of :func:`compile_notice`, with the figures of :data:`COMPILE_SECONDS`.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from pathlib import Path

from ._bits import HAS_PDEP

_TAROTSIM = Path(__file__).resolve().parent.parent

#: About how long numba takes to compile each build's batch kernels, once (seconds, one core of
#: the 2-core machine of BENCHMARKS.md), for the notice of a cold cache: the random build, the
#: bots build (greedy, heuristic, policy sets), the pimc builds, the bidding study's loops, the
#: hand study's loops (``tarotsim/_builds/hand.py``) and the exact solver (``tarotsim.analysis.solver``).
COMPILE_SECONDS = {"random": 5, "bots": 14, "learned": 20, "pimc": 30, "pimc_full": 60, "bid_search": 90,
                   "bid_search_full": 120, "study": 20, "study_pimc": 40, "study_pimc_full": 70, "hand": 30,
                   "hand_bid_search": 100, "hand_bid_search_full": 130, "solver": 20}


def engine_sources() -> list[Path]:
    """The sources the engine's kernels inline: ``tarotsim/_kernels/*.py`` and the rule modules."""
    here = _TAROTSIM / "_kernels"
    return sorted(here.glob("*.py")) + [_TAROTSIM / n for n in ("scoring.py", "rules.py", "rng.py", "cards.py")]


def sources_digest(files: Iterable[Path]) -> str:
    h = hashlib.sha256()
    for f in files:
        h.update(f.name.encode())
        h.update(f.read_bytes())
    h.update(b"pdep" if HAS_PDEP else b"loop")
    return h.hexdigest()


def guard_cache(tag: str, dispatchers, files: Iterable[Path]) -> None:
    """Flush the cached kernels whose source files changed.

    Flush the cache entries of ``dispatchers`` (cached njit functions) when ``files`` changed
    since the stamp ``<cache folder>/<tag>.sha256`` was written. Never raises (read-only trees,
    odd numba versions): the guard must not break an import."""
    try:
        digest = sources_digest(files)
        dirs: dict[str, list] = {}
        for disp in dispatchers:
            cache = getattr(disp, "_cache", None)
            path = getattr(cache, "_cache_path", None)
            if path:
                dirs.setdefault(path, []).append(cache)
        for path, caches in dirs.items():
            stamp = os.path.join(path, f"{tag}.sha256")
            try:
                old = Path(stamp).read_text()
            except OSError:
                old = ""
            if old != digest:
                for cache in caches:
                    cache.flush()
                os.makedirs(path, exist_ok=True)
                Path(stamp).write_text(digest)
    except Exception:
        pass


def compile_notice(what: str, seconds: int) -> str:
    """The line that tells a user numba compiles kernels now.

    The line that tells a user numba compiles the kernels of ``what`` now, once (its cache lacks
    them), and about how long it takes: every command and the library say it in these words."""
    return f"compiling the kernels for {what}, once: about {seconds} s (numba keeps them in its cache)"


def is_cached(dispatchers) -> bool:
    """Whether numba's cache holds every one of these kernels.

    Whether numba's cache holds an entry for each of ``dispatchers`` (cached njit functions), so
    that their first call loads rather than compiles (a fresh install, or sources changed since the
    stamp: :func:`guard_cache` flushed them). True when it cannot tell: a guess never warns."""
    try:  # an index that is missing, stale or empty (what a flush leaves) holds no compiled code
        return all(bool(d._cache._cache_file._load_index()) for d in dispatchers)
    except Exception:
        return True
