"""Training the two models on the CPU with torch (the ``learn`` extra), seeded and reproducible.

```python
from tarotsim.learn.train import train
result = train("data/", "locations", epochs=4, seed=1)
result.save("locations.npz")
```

The rows of one data folder or several (:mod:`tarotsim.learn.data`; several: e.g. one per
table, so that one model plays at every table) are split by deal: every deal whose
index is a multiple of :data:`VALIDATION_EVERY` is held out for the validation loss, the
others train. The loss is the mean log-loss in bits: per hidden card for ``locations`` (the
cards with more than one allowed location; the others are certain), per decision with more
than one legal action for ``policy``. Adam, the learning rate decaying to 0 along a cosine, one
thread (``torch.set_num_threads(1)``): the same seed and data give the same weights.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..cards import N_CARDS
from .data import DataError, load, shard_files, unpack
from .features import INPUT_SCALE, N_LOCATIONS
from .models import KINDS, output_size, save_model

__all__ = ["DEFAULT_HIDDEN", "TORCH_HINT", "TrainResult", "require_torch", "torch_probabilities", "train"]

TORCH_HINT = "tarotsim learn train needs torch: pip install 'tarotsim[learn]'"
#: Hidden layer sizes by model kind.
DEFAULT_HIDDEN = {"locations": (256, 128), "policy": (128, 128)}
#: Deals whose index is a multiple of this are the validation set.
VALIDATION_EVERY = 20
LN2 = math.log(2.0)


def require_torch():
    """Import torch on one thread (``ImportError`` with the install hint when it is missing)."""
    try:
        import torch
    except ImportError:
        raise ImportError(TORCH_HINT) from None
    torch.set_num_threads(1)
    return torch


def _net(torch, kind: str, hidden: tuple[int, int]):
    from ..observations import OBS_LEN

    nn = torch.nn
    return nn.Sequential(nn.Linear(OBS_LEN, hidden[0]), nn.ReLU(), nn.Linear(hidden[0], hidden[1]), nn.ReLU(),
                         nn.Linear(hidden[1], output_size(kind)))


def _useful(stored: dict, kind: str) -> np.ndarray:
    """The rows a model learns from: with a hidden card (``locations``), with a choice (``policy``)."""
    if kind == "locations":
        a = stored["allowed"]
        return np.any((a & (a - 1)) != 0, axis=1)
    bits = np.unpackbits(stored["mask_bits"], axis=1)
    return bits.sum(axis=1) > 1


def _batch(torch, stored: dict, rows: np.ndarray, kind: str):
    """The tensors of some rows: the input, and the targets with their masks."""
    part = unpack({name: a[rows] for name, a in stored.items()})
    x = torch.from_numpy(part["obs"].astype(np.float32) * INPUT_SCALE)
    if kind == "locations":
        allowed = part["allowed"].astype(np.int64)
        legal = (allowed[:, :, None] >> np.arange(N_LOCATIONS)) & 1 == 1
        hidden = legal.sum(axis=2) > 1
        return x, torch.from_numpy(legal), torch.from_numpy(part["location"].astype(np.int64)), torch.from_numpy(hidden)
    return x, torch.from_numpy(part["mask"]), torch.from_numpy(part["action"].astype(np.int64)), None


def _loss(torch, net, batch, kind: str):
    """``(sum of the log-losses in nats, count)`` of a batch."""
    x, legal, target, hidden = batch
    logits = net(x)
    if kind == "locations":
        logits = logits.view(-1, N_CARDS, N_LOCATIONS)
    logits = logits.masked_fill(~legal, -1e9)
    logp = torch.log_softmax(logits, dim=-1)
    picked = logp.gather(-1, target.unsqueeze(-1)).squeeze(-1)
    if kind == "locations":
        return -(picked * hidden).sum(), hidden.sum()
    return -picked.sum(), torch.tensor(picked.numel())


def _uniform_bits(stored: dict, rows: np.ndarray, kind: str) -> float:
    """The log-loss in bits of the uniform law over the allowed locations (legal actions)."""
    if kind == "locations":
        a = stored["allowed"][rows].astype(np.int64)
        counts = sum((a >> k) & 1 for k in range(N_LOCATIONS))
        c = counts[counts > 1]
    else:
        c = np.unpackbits(stored["mask_bits"][rows], axis=1).sum(axis=1)
    return float(np.log2(c).mean()) if c.size else float("nan")


@dataclass
class TrainResult:
    """A trained model: its arrays, the per-epoch losses (bits) and what made it."""

    kind: str
    arrays: tuple[np.ndarray, ...]
    train_bits: list[float] = field(default_factory=list)
    validation_bits: list[float] = field(default_factory=list)
    uniform_bits: float = float("nan")
    meta: dict = field(default_factory=dict)

    def save(self, path) -> None:
        """Write the model file (:func:`tarotsim.learn.models.save_model`)."""
        save_model(path, self.kind, self.arrays, {**self.meta, "train_bits": self.train_bits,
                                                  "validation_bits": self.validation_bits,
                                                  "uniform_bits": self.uniform_bits})

    def plot(self, path) -> None:
        """Write the learning curve (:func:`curve_figure`) as a picture, PNG or SVG by the suffix."""
        meta = {**self.meta, "train_bits": self.train_bits, "validation_bits": self.validation_bits,
                "uniform_bits": self.uniform_bits}
        path = Path(path)
        tmp = path.with_name(f".{path.name}.tmp")
        try:
            curve_figure(self.kind, meta).savefig(tmp, format="svg" if path.suffix.lower() == ".svg" else "png")
            tmp.replace(path)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise


def curve_figure(kind: str, meta: dict):
    """The learning curve of a model: training and validation log-loss per epoch, and the uniform law's.

    Parameters
    ----------
    kind : str
        ``"locations"`` or ``"policy"``.
    meta : dict
        A model file's metadata (``load_model(path).meta``): ``train_bits``, ``validation_bits``
        and ``uniform_bits``, with ``rows``, ``hidden`` and ``seed`` for the title.

    Returns
    -------
    matplotlib.figure.Figure
        The figure (the ``plot`` extra), so that a model file's own history draws its curve.
    """
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7, 4.5), layout="constrained")
    ax = fig.subplots()
    epochs = list(range(1, len(meta["train_bits"]) + 1))
    ax.plot(epochs, meta["train_bits"], marker="o", label="training")
    ax.plot(epochs, meta["validation_bits"], marker="o", label="validation")
    ax.axhline(meta["uniform_bits"], color="grey", ls="--",
               label="uniform over the allowed locations" if kind == "locations" else
               "uniform over the legal actions")
    ax.set_xlabel("epoch")
    ax.set_xticks(epochs)
    ax.set_ylabel("bits per hidden card" if kind == "locations" else "bits per decision")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.suptitle(f"{kind} model: {meta.get('rows', 0):,} rows, hidden {meta.get('hidden')}, "
                 f"seed {meta.get('seed')}", fontsize=10)
    return fig


def train(folder, kind: str, *, hidden=None, epochs: int = 4, batch_size: int = 512, lr: float = 1e-3,
          seed: int = 1, max_rows: int | None = None, progress=None, log=None) -> TrainResult:
    """Train a ``kind`` model on the rows of a data folder, or of several.

    Parameters
    ----------
    folder : path or sequence of paths
        A data folder (``tarotsim learn data``), or several: their rows together.
    kind : str
        ``locations`` or ``policy``.
    hidden : (int, int) or None
        The hidden layers' sizes (default :data:`DEFAULT_HIDDEN`).
    epochs, batch_size, lr, seed :
        The run: passes over the training rows, rows per step, Adam's first learning rate, the seed
        of the initial weights and of the order of the rows.
    max_rows : int or None
        Use only the first rows of each folder.
    progress : callable or None
        Called with the rows of each step done and the rows of the whole run.
    log : callable or None
        Called with one line per epoch.
    """
    if kind not in KINDS:
        raise DataError(f"no model kind {kind!r} (kinds: {', '.join(KINDS)})")
    hidden = tuple(hidden or DEFAULT_HIDDEN[kind])
    if len(hidden) != 2 or not all(isinstance(h, int) and 1 <= h <= 4096 for h in hidden):
        raise DataError(f"hidden takes two layer sizes in 1..4096, not {hidden!r}")
    for name, v, lo in (("epochs", epochs, 1), ("batch_size", batch_size, 1)):
        if isinstance(v, bool) or not isinstance(v, int) or v < lo:
            raise DataError(f"{name} must be a whole number >= {lo}, not {v!r}")
    if not (isinstance(lr, (int, float)) and 0 < lr < 1):
        raise DataError(f"lr must be a number in (0, 1), not {lr!r}")
    torch = require_torch()
    folders = [folder] if isinstance(folder, (str, Path)) else list(folder)
    if not folders:
        raise DataError("no data folder given")
    manifests = [shard_files(f)[0] for f in folders]  # every folder whole before any is read
    parts = [load(f, max_rows=max_rows, packed=True) for f in folders]
    stored = {name: np.concatenate([p[name] for p in parts]) for name in parts[0]}
    del parts
    keep = _useful(stored, kind)
    stored = {name: a[keep] for name, a in stored.items()}
    held = stored["index"] % VALIDATION_EVERY == 0
    train_rows, val_rows = np.flatnonzero(~held), np.flatnonzero(held)
    if train_rows.size == 0 or val_rows.size == 0:
        raise DataError(f"{', '.join(map(str, folders))}: too few rows to train on and validate (give more deals: every "
                        f"{VALIDATION_EVERY}th deal is held out for validation)")
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    net = _net(torch, kind, hidden)
    opt = torch.optim.Adam(net.parameters(), lr=lr)
    steps = epochs * math.ceil(train_rows.size / batch_size)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda k: 0.5 * (1 + math.cos(math.pi * min(k, steps) / steps)))
    result = TrainResult(kind, (), uniform_bits=_uniform_bits(stored, val_rows, kind))
    for epoch in range(epochs):
        t0 = time.monotonic()
        net.train()
        order = rng.permutation(train_rows)
        total, count = 0.0, 0
        for a in range(0, order.size, batch_size):
            rows = np.sort(order[a:a + batch_size])
            loss, n = _loss(torch, net, _batch(torch, stored, rows, kind), kind)
            opt.zero_grad()
            (loss / max(int(n), 1)).backward()
            opt.step()
            sched.step()
            total += float(loss.detach())
            count += int(n)
            if progress is not None:
                progress(rows.size, epochs * train_rows.size)
        result.train_bits.append(total / max(count, 1) / LN2)
        result.validation_bits.append(_evaluate(torch, net, stored, val_rows, kind, batch_size))
        if log is not None:
            log(f"epoch {epoch + 1}/{epochs}: training {result.train_bits[-1]:.4f} bits, validation "
                f"{result.validation_bits[-1]:.4f} bits (uniform {result.uniform_bits:.4f}), "
                f"{time.monotonic() - t0:.0f} s")
    sd = net.state_dict()
    result.arrays = tuple(t.detach().numpy().T.copy() if t.ndim == 2 else t.detach().numpy().copy()
                          for t in (sd["0.weight"], sd["0.bias"], sd["2.weight"], sd["2.bias"], sd["4.weight"],
                                    sd["4.bias"]))
    result.meta = {"hidden": list(hidden), "epochs": epochs, "batch_size": batch_size, "lr": lr, "seed": seed,
                   "rows": int(train_rows.size), "validation_rows": int(val_rows.size),
                   "data": _data_meta(manifests),
                   "torch": torch.__version__}
    return result


def _data_meta(manifests: list[dict]):
    """What a model was trained on: one folder's manifest (its run), or the list of several folders'."""
    runs = [{k: m[k] for k in ("table", "options", "bots", "seed", "start", "stop", "seats")} for m in manifests]
    return runs[0] if len(runs) == 1 else runs


def torch_probabilities(kind: str, arrays, obs: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """Torch's probabilities of a model on observations: the reference of the forward passes.

    ``arrays``: ``(w0, b0, w1, b1, w2, b2)``. ``legal``: the ``allowed`` bits per card
    (``locations``: float32[n, 78, N_LOCATIONS] out, a card played all 0) or the legal action
    mask (``policy``: float32[n, N_ACTIONS] out)."""
    torch = require_torch()
    hidden = (arrays[0].shape[1], arrays[2].shape[1])
    net = _net(torch, kind, hidden)
    with torch.no_grad():
        for layer, (w, b) in zip((net[0], net[2], net[4]), zip(arrays[0::2], arrays[1::2])):
            layer.weight.copy_(torch.from_numpy(np.ascontiguousarray(w.T)))
            layer.bias.copy_(torch.from_numpy(b))
        logits = net(torch.from_numpy(obs.astype(np.float32) * INPUT_SCALE))
        if kind == "locations":
            a = legal.astype(np.int64)
            mask = torch.from_numpy((a[:, :, None] >> np.arange(N_LOCATIONS)) & 1 == 1)
            logits = logits.view(-1, N_CARDS, N_LOCATIONS)
        else:
            mask = torch.from_numpy(legal.astype(np.bool_))
        p = torch.softmax(logits.masked_fill(~mask, -math.inf), dim=-1)
        p = torch.nan_to_num(p, nan=0.0)  # a card played: no location at all
    return p.numpy()


def _evaluate(torch, net, stored: dict, rows: np.ndarray, kind: str, batch_size: int) -> float:
    net.eval()
    total, count = 0.0, 0
    with torch.no_grad():
        for a in range(0, rows.size, 4 * batch_size):
            loss, n = _loss(torch, net, _batch(torch, stored, rows[a:a + 4 * batch_size], kind), kind)
            total += float(loss)
            count += int(n)
    return total / max(count, 1) / LN2
