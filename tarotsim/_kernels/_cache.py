"""The guard of numba's on-disk cache (private), for the engine's kernels and the bots' alike.

numba's cache only watches each kernel's own source file, but a kernel inlines code from many
(the deal's steps, the scorer, the rule tables, the bots' policies). So every module that defines
cached kernels calls :func:`guard_cache` once at import with its kernels and every source they
may inline: a hash of those files and of the bit-selection path is kept beside the cache, one
stamp per module (``tag``), and the module's stale entries are flushed when it changed.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from pathlib import Path

from ._bits import HAS_PDEP

_TAROTSIM = Path(__file__).resolve().parent.parent


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


def is_cached(dispatchers) -> bool:
    """Whether numba's cache holds every one of these kernels.

    Whether numba's cache holds an entry for each of ``dispatchers`` (cached njit functions), so
    that their first call loads rather than compiles (a fresh install, or sources changed since the
    stamp: :func:`guard_cache` flushed them). True when it cannot tell: a guess never warns."""
    try:  # an index that is missing, stale or empty (what a flush leaves) holds no compiled code
        return all(bool(d._cache._cache_file._load_index()) for d in dispatchers)
    except Exception:
        return True
