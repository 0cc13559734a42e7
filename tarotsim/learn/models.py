"""The model files: two small networks over a seat's observation, as float32 arrays in an ``.npz``.

Both models read the input of :mod:`tarotsim.learn.features` (the observation, counts scaled)
through two hidden layers with ReLU; their heads:

* ``locations``: for every card, one logit per location (the relative seats, then the hidden
  pile); the locations the seat's knowledge rules out (``allowed``, the exact sampler's
  constraints) get probability 0, the others a softmax of their logits;
* ``policy``: one logit per action id (:mod:`tarotsim.actions`); the illegal ones get
  probability 0, the legal ones a softmax.

A model file holds ``w0, b0, w1, b1, w2, b2`` (``w_k``: ``(inputs, outputs)``, float32) and
``meta``, a JSON text: the format, the kind, the layer sizes, the command that trained it and its
losses. :func:`load_model` reads one, every problem (a missing, truncated or mismatched file) as
one line of :class:`ModelError`; the forward passes run in the kernels
(:mod:`tarotsim.learn.forward`), without torch.
"""

from __future__ import annotations

import json
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..actions import N_ACTIONS
from ..cards import N_CARDS
from ..observations import OBS_LEN
from .features import N_LOCATIONS

__all__ = ["BESIDE_LEARNED", "KINDS", "MODEL_FORMAT", "learned_seats_error", "load_model", "Model", "ModelError",
           "output_size", "register", "registered", "save_model", "shipped"]

MODEL_FORMAT = "tarotsim-learn-model/1"
KINDS = ("locations", "policy")
N_LAYERS = 3
#: The models shipped in the package (``tarotsim/learn/shipped/``), by kind.
SHIPPED = {"locations": "locations-4.npz", "policy": "policy-4.npz"}


class ModelError(ValueError):
    """A model file that cannot be used: missing, truncated, not a model, or of another kind or layout."""


def output_size(kind: str) -> int:
    """The width of a model's last layer: 78 cards x the locations, or the action ids."""
    return N_CARDS * N_LOCATIONS if kind == "locations" else N_ACTIONS


@dataclass(frozen=True)
class Model:
    """A model's layers (float32, C-contiguous) and its metadata."""

    kind: str
    weights: tuple[np.ndarray, ...]  # w0, w1, w2: (inputs, outputs)
    biases: tuple[np.ndarray, ...]
    meta: dict

    @property
    def hidden(self) -> tuple[int, int]:
        return int(self.weights[0].shape[1]), int(self.weights[1].shape[1])

    def arrays(self) -> tuple[np.ndarray, ...]:
        """``(w0, b0, w1, b1, w2, b2)``, as the kernels take them."""
        return tuple(a for pair in zip(self.weights, self.biases) for a in pair)


def shipped(kind: str) -> Path:
    """The path of the shipped model of ``kind``."""
    return Path(__file__).resolve().parent / "shipped" / SHIPPED[kind]


def save_model(path, kind: str, arrays, meta: dict) -> None:
    """Write a model file: ``arrays`` is ``(w0, b0, w1, b1, w2, b2)``; ``meta`` is stored with the format and kind."""
    if kind not in KINDS:
        raise ModelError(f"no model kind {kind!r} (kinds: {', '.join(KINDS)})")
    names = {f"{'wb'[i % 2]}{i // 2}": np.ascontiguousarray(a, dtype=np.float32) for i, a in enumerate(arrays)}
    text = json.dumps({"format": MODEL_FORMAT, "kind": kind, **meta}, sort_keys=True)
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        with open(tmp, "wb") as fh:
            contents: dict[str, Any] = {"meta": np.array(text), **names}
            np.savez(fh, **contents)
        tmp.replace(path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def load_model(path, kind: str | None = None) -> Model:
    """Read a model file (of ``kind`` when given), checking its layout.

    Any problem (missing, truncated, not a model, another kind or layout) is one line of :class:`ModelError`."""
    path = Path(path)
    try:
        with np.load(path, allow_pickle=False) as z:
            arrays = {name: z[name] for name in z.files}
    except FileNotFoundError:
        raise ModelError(f"model file {path} does not exist") from None
    except IsADirectoryError:
        raise ModelError(f"model file {path} is a folder") from None
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as e:
        raise ModelError(f"model file {path} cannot be read (truncated or not a model file: "
                         f"{' '.join(str(e).split()) or type(e).__name__})") from None
    try:
        meta = json.loads(str(arrays.pop("meta")))
    except (KeyError, ValueError):
        raise ModelError(f"{path} is not a model file (no metadata)") from None
    if not isinstance(meta, dict) or meta.get("format") != MODEL_FORMAT:
        raise ModelError(f"{path} is not a {MODEL_FORMAT} model file")
    found = meta.get("kind")
    if found not in KINDS:
        raise ModelError(f"{path}: unknown model kind {found!r}")
    if kind is not None and found != kind:
        raise ModelError(f"{path} is a {found} model, not a {kind} model")
    try:
        ws = tuple(np.ascontiguousarray(arrays[f"w{i}"], dtype=np.float32) for i in range(N_LAYERS))
        bs = tuple(np.ascontiguousarray(arrays[f"b{i}"], dtype=np.float32) for i in range(N_LAYERS))
    except KeyError as e:
        raise ModelError(f"{path}: layer {e.args[0]} is missing") from None
    sizes = [OBS_LEN, ws[0].shape[-1], ws[1].shape[-1], output_size(found)]
    for i in range(N_LAYERS):
        if ws[i].shape != (sizes[i], sizes[i + 1]) or bs[i].shape != (sizes[i + 1],):
            raise ModelError(f"{path}: layer {i} is {ws[i].shape} + {bs[i].shape}, not ({sizes[i]}, {sizes[i + 1]}) "
                             f"+ ({sizes[i + 1]},) (a model of another layout or version)")
    if not all(np.all(np.isfinite(a)) for a in ws + bs):
        raise ModelError(f"{path}: a weight is not a finite number")
    return Model(found, ws, bs, meta)


# ---------------------------------------------------------------------------------------------
# the models the bots of this process play (``learned:model=FILE`` -> an id in the bot's parameters)

#: per kind, id - 1 -> a model read from a file; id 0 is the shipped model of the kind.
_REGISTERED: dict[str, list[tuple[str, Model]]] = {kind: [] for kind in KINDS}
_SHIPPED: dict[str, Model] = {}


def register(path, kind: str = "policy") -> int:
    """Read the model of ``kind`` in ``path`` (:func:`load_model`) and return its id for a bot's parameters (1, 2, ...)."""
    key = str(Path(path).resolve())
    models = _REGISTERED[kind]
    for i, (k, _) in enumerate(models):
        if k == key:
            return i + 1
    models.append((key, load_model(path, kind)))
    return len(models)


def registered(model_id: int, kind: str = "policy") -> Model:
    """The model of ``kind`` of an id from :func:`register` (0: the shipped one)."""
    if model_id == 0:
        if kind not in _SHIPPED:
            _SHIPPED[kind] = load_model(shipped(kind), kind)
        return _SHIPPED[kind]
    models = _REGISTERED[kind]
    if not 1 <= model_id <= len(models):
        how = "learned:model=FILE" if kind == "policy" else "pimc:location_model=FILE"
        raise ModelError(f"no {kind} model has id {model_id} in this process (give the file: {how})")
    return models[model_id - 1][1]


#: The bots a ``learned`` seat plays beside: its build plays the others through the environment's
#: opponent step, which has no search (``pimc``) and no policy set.
BESIDE_LEARNED = ("random", "greedy", "heuristic", "learned")


def learned_seats_error(table: str | None, names, model_ids) -> str | None:
    """Why these seats cannot play together when one is ``learned`` (None: they can, or none is).

    ``table``: the table (None: not checked), ``names``: each seat's bot name (None for a Python bot
    or a policy set), ``model_ids``: each seat's ``model_id`` parameter (read at the ``learned``
    seats only)."""
    from ..rules import ENV_TABLES

    if "learned" not in names:
        return None
    if table is not None and table not in ENV_TABLES:
        return f"learned plays at tables {', '.join(ENV_TABLES)}, not at table {table}"
    if any(n not in BESIDE_LEARNED for n in names):
        return ("learned plays beside random, greedy, heuristic and learned seats only (not pimc, a policy set "
                "or a Python bot)")
    if len({int(i) for n, i in zip(names, model_ids) if n == "learned"}) > 1:
        return "every learned seat of a run plays one model: give the same model=FILE to each"
    return None
