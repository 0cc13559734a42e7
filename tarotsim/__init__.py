"""tarotsim: a French Tarot simulator with automatic counting (rules: docs/rules.md, ids R-…)."""

import os as _os

__version__ = "0.1.0"


def _numba_cache_dir() -> str:
    """Where numba keeps the compiled kernels: ``NUMBA_CACHE_DIR`` when the user set it, else a
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
