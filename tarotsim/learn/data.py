"""Training data from the kernels: every decision of chosen seats, its features and its labels.

```python
from tarotsim.learn.data import decisions, write_data, load
# in memory
rows = decisions("4", seed=1, start=0, stop=100, bots="heuristic")
# shards on disk, then every shard unpacked
write_data("data/", "4", seed=1, deals=100_000, bots="pimc")
rows = load("data/")
```

The deals are played by the simulator (any bots, one per seat, a mixture of kinds included),
then each deal's log is replayed in the kernels (``tarotsim.learn._kernels``): at every decision
of a chosen seat, one row of :data:`tarotsim.learn.features.DATA_FIELDS`: the seat's
observation and legal actions, the action taken, where every card truly is, where the seat's
knowledge allows each card to be, and the seat's final score. Deal ``(seed, index)`` is the
simulator's: its rows are the same for any shard size and thread count.

On disk a data set is a folder: ``data.json`` (what the run is) and one ``.npz`` per shard of
deals, written whole or not at all; the same command run again writes only the shards missing,
and the same command with more deals grows the folder by the shards of the deals added.
"""

from __future__ import annotations

import json
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from ..actions import N_ACTIONS
from ..observations import OBS_DTYPE, OBS_LEN
from ..rng import check_run, check_seed
from ..rules import ENV_TABLES, Rules
from .features import COUNT_COLUMNS, DATA_FIELDS

__all__ = ["DATA_FORMAT", "DataError", "decisions", "load", "pack", "shard_files", "unpack", "write_data"]

#: The data folder's format (``data.json``); its version changes with :data:`DATA_FIELDS`.
DATA_FORMAT = "tarotsim-learn-data/1"
MANIFEST = "data.json"
#: Deals per shard by default: about a hundred thousand rows at table 4, every seat recorded.
SHARD_DEALS = 1000
#: Deals replayed per kernel call (its output arrays hold ``MAX_DECISIONS`` rows per deal).
_CHUNK = 256


class DataError(ValueError):
    """Bad arguments for the data, or a folder that holds another run's data or no data."""


def _rules(rules) -> Rules:
    r = rules if isinstance(rules, Rules) else Rules(str(rules))
    if r.table not in ENV_TABLES:
        raise DataError(f"table {r.table}: the learning data covers tables {', '.join(ENV_TABLES)}")
    return r


def _seat_bits(seats, n_seats: int) -> int:
    if seats is None:
        return (1 << n_seats) - 1
    bits = 0
    for s in seats:
        if isinstance(s, bool) or not isinstance(s, (int, np.integer)) or not 0 <= s < n_seats:
            raise DataError(f"seat {s!r} is not a seat of a table of {n_seats} (0..{n_seats - 1})")
        bits |= 1 << int(s)
    if not bits:
        raise DataError("no seat chosen")
    return bits


def decisions(rules, seed, start: int, stop: int, bots="heuristic", seats=None) -> dict[str, np.ndarray]:
    """The rows of deals ``start .. stop - 1`` played by ``bots``, unpacked.

    Parameters
    ----------
    rules : Rules or str
        Table 3, 4, 5 or 5d and its options.
    seed : int
        The deals' seed.
    start, stop : int
        The deal range.
    bots : str or sequence
        The players, as ``--bots`` takes them (``tarotsim.runs.simulate.bot_setup``).
    seats : sequence of int or None
        The seats whose decisions are kept (None: every seat).

    Returns
    -------
    dict
        One array per field of ``DATA_FIELDS`` (one row per decision), ``obs`` (uint8[n, OBS_LEN])
        and ``mask`` (bool[n, N_ACTIONS]) instead of the packed ``obs_bits``, ``obs_counts`` and
        ``mask_bits``.
    """
    from ..runs import simulate

    r = _rules(rules)
    seed = check_seed(seed)
    start, stop = check_run(start, stop - start if stop >= start else -1)
    bits = _seat_bits(seats, r.n_seats)
    return rows_of_logs(r, seed, simulate.logs(r, seed, range(start, stop), bots), bits)


def rows_of_logs(r: Rules, seed: int, logs: np.ndarray, bits: int) -> dict[str, np.ndarray]:
    """The rows of deals already played (their logs, ``simulate.logs``) for the seats of ``bits`` (:func:`decisions`)."""
    from . import _kernels as K

    rv = r.to_vector()
    scratch = K.new_scratch()
    rows = min(_CHUNK, max(1, logs.shape[0])) * K.MAX_DECISIONS
    parts: list[dict[str, np.ndarray]] = []
    k = 0
    while k < logs.shape[0]:
        out = _empty(rows)
        deal_of = np.zeros(rows, np.int64)
        n, done, status = K.replay_decisions(rv, np.uint64(seed), logs[k:], np.int64(bits), out["index"], out["seat"],
                                             out["kind"], out["obs"], out["mask"], out["action"], out["location"],
                                             out["allowed"], out["score"], deal_of, scratch)
        if status != K.DONE:  # pragma: no cover - the replay of a kernel log never fails
            raise RuntimeError(f"replay of deal ({seed}, {int(logs[k + done, 0])}) failed (code {status})")
        parts.append({name: a[:n] for name, a in out.items()})
        k += done
    if not parts:
        return _empty()
    return {name: np.concatenate([p[name] for p in parts]) for name in parts[0]}


#: The unpacked rows' arrays (:func:`decisions`): ``DATA_FIELDS`` with ``obs`` and ``mask`` unpacked.
ROW_ARRAYS: dict[str, tuple[Any, tuple[int, ...]]] = {
    "index": (np.int64, ()), "seat": (np.int8, ()), "kind": (np.int8, ()), "obs": (OBS_DTYPE, (OBS_LEN,)),
    "mask": (np.bool_, (N_ACTIONS,)), "action": (np.uint8, ()), "location": (np.uint8, (78,)),
    "allowed": (np.uint8, (78,)), "score": (np.int32, ())}


def _empty(rows: int = 0) -> dict[str, np.ndarray]:
    return {name: np.zeros((rows, *shape), dtype) for name, (dtype, shape) in ROW_ARRAYS.items()}


def pack(rows: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The stored arrays (``DATA_FIELDS``) of unpacked rows (``obs``, ``mask``: :func:`decisions`)."""
    out = {name: rows[name] for name, *_ in DATA_FIELDS if name in rows}
    out["obs_bits"] = np.packbits(rows["obs"] != 0, axis=1)
    out["obs_counts"] = rows["obs"][:, COUNT_COLUMNS]
    out["mask_bits"] = np.packbits(rows["mask"], axis=1)
    return {name: out[name] for name, *_ in DATA_FIELDS}


def unpack(stored) -> dict[str, np.ndarray]:
    """Unpacked rows (``obs``, ``mask``, as :func:`decisions` gives them) of the stored arrays."""
    obs = np.unpackbits(stored["obs_bits"], axis=1, count=OBS_LEN).astype(OBS_DTYPE)
    obs[:, COUNT_COLUMNS] = stored["obs_counts"]
    out = {name: np.asarray(stored[name]) for name, *_ in DATA_FIELDS if name not in ("obs_bits", "obs_counts",
                                                                                     "mask_bits")}
    out["obs"] = obs
    out["mask"] = np.unpackbits(stored["mask_bits"], axis=1, count=N_ACTIONS).astype(np.bool_)
    return out


# ---------------------------------------------------------------------------------------------
# shards on disk

def _shard_name(a: int, b: int) -> str:
    return f"shard-{a:012d}-{b:012d}.npz"


def _manifest(r: Rules, seed: int, start: int, stop: int, bots: str, seats: int, shard_deals: int) -> dict:
    return {"format": DATA_FORMAT, "table": r.table, "options": r.non_default_options(), "bots": bots, "seed": seed,
            "start": start, "stop": stop, "seats": [s for s in range(r.n_seats) if seats >> s & 1],
            "shard_deals": shard_deals, "fields": [name for name, *_ in DATA_FIELDS]}


def _read_manifest(folder: Path) -> dict:
    path = folder / MANIFEST
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DataError(f"{folder} holds no training data ({MANIFEST} is missing; tarotsim learn data writes it)"
                        ) from None
    except (OSError, ValueError) as e:
        raise DataError(f"cannot read {path}: {e}") from None
    if not isinstance(data, dict) or data.get("format") != DATA_FORMAT:
        raise DataError(f"{path} is not a {DATA_FORMAT} data set")
    return data


def _grows(old: dict, new: dict) -> bool:
    """Whether run ``new`` is run ``old`` with more deals after its last (its shards a superset)."""
    return (new["stop"] > old.get("stop", new["stop"])
            and all(old.get(k) == v for k, v in new.items() if k != "stop"))


def _write_manifest(folder: Path, manifest: dict) -> None:
    path = folder / MANIFEST
    tmp = path.with_name(f".{MANIFEST}.{os.getpid()}.tmp")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tmp.write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
        os.replace(tmp, path)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        raise DataError(f"cannot write {path}: {e.strerror or e}") from None


def _pieces(start: int, stop: int, size: int) -> list[tuple[int, int]]:
    return [(a, min(a + size, stop)) for a in range(start, stop, size)]


def write_data(folder, rules, seed, deals: int, bots: str = "heuristic", *, start: int = 0, seats=None,
               shard_deals: int = SHARD_DEALS, threads: int = 1, progress=None) -> dict:
    """Write the rows of ``deals`` deals from ``start`` into ``folder``, one ``.npz`` per shard.

    The shards already there (a run interrupted, then started again with the same arguments,
    or a run grown by more deals with every other argument the same) are kept; a folder holding
    another run's data is refused (:class:`DataError`). Each shard is written to a temporary
    file first, then renamed: a shard is whole or absent. Returns the manifest (``data.json``);
    ``progress(n)`` is called with the deals of each shard done.
    """
    r = _rules(rules)
    seed = check_seed(seed)
    start, stop = check_run(start, deals, "number of deals", 1)
    if isinstance(shard_deals, bool) or not isinstance(shard_deals, int) or shard_deals < 1:
        raise DataError(f"shard_deals must be a whole number >= 1, not {shard_deals!r}")
    bits = _seat_bits(seats, r.n_seats)
    from ..runs import simulate

    simulate.bot_setup(r, bots)  # bad bots: one line before anything is written
    folder = Path(folder)
    manifest = _manifest(r, seed, start, stop, str(bots), bits, shard_deals)
    if (folder / MANIFEST).exists():
        old = _read_manifest(folder)
        if old != manifest and not _grows(old, manifest):
            diff = ", ".join(k for k in manifest if old.get(k) != manifest[k])
            raise DataError(f"{folder} holds the data of another run (it differs in: {diff}); "
                            "give another folder, the same arguments to resume it, or more deals to grow it")
        if old != manifest:
            _write_manifest(folder, manifest)
            # A short last shard of the smaller run is not one of the larger run's shards.
            kept = {_shard_name(a, b) for a, b in _pieces(start, stop, shard_deals)}
            for a, b in _pieces(old["start"], old["stop"], shard_deals):
                if _shard_name(a, b) not in kept:
                    (folder / _shard_name(a, b)).unlink(missing_ok=True)
    else:
        _write_manifest(folder, manifest)
    todo = [(a, b) for a, b in _pieces(start, stop, shard_deals) if not (folder / _shard_name(a, b)).exists()]
    if progress is not None and len(todo) < len(_pieces(start, stop, shard_deals)):
        progress((stop - start) - sum(b - a for a, b in todo))
    seat_list = [s for s in range(r.n_seats) if bits >> s & 1]

    def one(piece):
        a, b = piece
        stored = pack(decisions(r, seed, a, b, bots, seat_list))
        final = folder / _shard_name(a, b)
        tmp = final.with_name(f".{final.name}.{os.getpid()}.tmp")
        try:
            with open(tmp, "wb") as fh:
                np.savez(fh, **stored)
            os.replace(tmp, final)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        return b - a

    if threads > 1 and len(todo) > 1:
        with ThreadPoolExecutor(min(threads, len(todo))) as pool:
            for n in pool.map(one, todo):
                if progress is not None:
                    progress(n)
    else:
        for piece in todo:
            n = one(piece)
            if progress is not None:
                progress(n)
    return manifest


def shard_files(folder) -> tuple[dict, list[Path]]:
    """The manifest of a data folder and its shard files, in deal order (every shard written)."""
    folder = Path(folder)
    manifest = _read_manifest(folder)
    files = [folder / _shard_name(a, b) for a, b in _pieces(manifest["start"], manifest["stop"],
                                                             manifest["shard_deals"])]
    missing = [f.name for f in files if not f.exists()]
    if missing:
        raise DataError(f"{folder}: {len(missing)} of {len(files)} shards are missing (the run did not finish: "
                        "run the same tarotsim learn data command again to complete it)")
    return manifest, files


def load(folder, max_rows: int | None = None, packed: bool = False) -> dict[str, np.ndarray]:
    """Every row of a data folder (the first ``max_rows``), unpacked or as stored.

    Unpacked: as :func:`decisions` gives them; ``packed``: the arrays of ``DATA_FIELDS`` as
    stored, a fifth of the memory (:func:`unpack` turns a slice of them into rows)."""
    _, files = shard_files(folder)
    parts, n = [], 0
    for f in files:
        try:
            with np.load(f) as z:
                stored = {name: z[name] for name, *_ in DATA_FIELDS}
        except (OSError, ValueError, KeyError) as e:
            raise DataError(f"cannot read shard {f}: {e}") from None
        parts.append(stored if packed else unpack(stored))
        n += len(stored["index"])
        if max_rows is not None and n >= max_rows:
            break
    if not parts:
        return pack(_empty()) if packed else _empty()
    out = {name: np.concatenate([p[name] for p in parts]) for name in parts[0]}
    if max_rows is not None:
        out = {name: a[:max_rows] for name, a in out.items()}
    return out
