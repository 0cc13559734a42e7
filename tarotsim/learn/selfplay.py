"""Self-play past imitation: a policy improved on its own deals by Monte-Carlo returns.

DouZero's deep Monte-Carlo (Zha et al., 2021) on the batched environment (:class:`tarotsim.VecEnv`):
the network being trained plays one seat against bots at the others, or every seat (``opponents``),
each decision's target is the deciding seat's final score, and the network learns ``Q(s, a)``, the
score the seat ends with when it takes ``a`` in ``s`` and play goes on as it plays, by the squared
error to that return. The action taken is the legal action of the largest ``Q`` (with probability ``epsilon`` a
uniformly random legal one, which explores).

The network starts from a policy (the shipped one by default, trained to imitate a bot) and keeps
its layout, so what comes out is a policy model the kernels play as ``learned:model=FILE``. Its
``Q`` is written in two parts (a *dueling* form): ``Q(s, a) = V(s) - c (l(s, g) - l(s, a))``,
``l`` the policy's outputs, ``g`` the legal action of the largest output (the one the policy
plays), ``V`` a value head on the last hidden layer (which reads it without moving it) and
``c > 0`` a fixed scale (``advantage_scale``: a gap of one between two outputs is worth ``c``
hundred points). The best action by ``Q`` is then the policy's own, so play starts
exactly as the imitation played; the played action's ``Q`` is ``V`` alone, so its return teaches
``V`` and leaves the policy as it is, and an explored action's return moves the policy's outputs
by how much better or worse than ``V`` it did. ``V`` and ``c`` are used in training only; the
model file holds the policy's layers.

Determinism: the deals are ``VecEnv``'s (slot ``i`` plays deals ``i, i + num_envs, ...``), the
explorations come from ``numpy.random.default_rng(seed)``, torch runs one thread, and the
network is updated after every ``batch_size`` decisions of finished deals, in the order the deals
finish: the same arguments give the same weights.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..actions import N_ACTIONS
from ..observations import OBS_LEN
from ..rules import ENV_TABLES, Rules
from .data import DataError
from .features import INPUT_SCALE
from .models import load_model, save_model, shipped

__all__ = ["SCORE_SCALE", "SelfPlayResult", "curve_figure", "finished_deals", "q_values", "selfplay", "strength"]

#: Returns are read in hundreds of points: a deal's score for a seat is mostly within a few hundred.
SCORE_SCALE = 100.0
#: Most decisions kept of one deal, over every seat (bids, call, écart picks, declarations,
#: cards), with room to spare.
_MAX_DECISIONS = 128


@dataclass
class SelfPlayResult:
    """A policy improved by self-play: its arrays, the losses along the run and what made it."""

    arrays: tuple[np.ndarray, ...]
    #: per update, the mean squared error of ``Q`` to the returns (in hundreds of points, squared)
    losses: list[float] = field(default_factory=list)
    #: per update, the deals finished so far
    deals_done: list[int] = field(default_factory=list)
    meta: dict = field(default_factory=dict)

    def save(self, path) -> None:
        """Write the policy model file (:func:`tarotsim.learn.models.save_model`)."""
        save_model(path, "policy", self.arrays, {**self.meta, "selfplay_losses": self.losses[-1000:]})


def _network(torch, arrays, advantage_scale: float):
    """The policy's layers as a torch module with a value head: ``forward(x) -> (logits, value)``."""
    nn = torch.nn
    module: Any = nn.Module  # torch is imported at run time (the learn extra)
    w0, b0, w1, b1, w2, b2 = (torch.from_numpy(np.array(a, dtype=np.float32)) for a in arrays)

    class Dueling(module):
        def __init__(self):
            super().__init__()
            self.l0 = nn.Linear(w0.shape[0], w0.shape[1])
            self.l1 = nn.Linear(w1.shape[0], w1.shape[1])
            self.l2 = nn.Linear(w2.shape[0], w2.shape[1])
            self.value = nn.Linear(w1.shape[1], 1)
            self.c = float(advantage_scale)
            with torch.no_grad():
                for layer, w, b in ((self.l0, w0, b0), (self.l1, w1, b1), (self.l2, w2, b2)):
                    layer.weight.copy_(w.T)
                    layer.bias.copy_(b)
                self.value.weight.zero_()
                self.value.bias.zero_()

        def forward(self, x):
            h = torch.relu(self.l1(torch.relu(self.l0(x))))
            return self.l2(h), self.value(h.detach()).squeeze(-1)

        def arrays(self):
            return tuple(t.detach().numpy().T.copy() if t.ndim == 2 else t.detach().numpy().copy()
                         for layer in (self.l0, self.l1, self.l2) for t in (layer.weight, layer.bias))

    return Dueling()


def q_values(torch, net, x, legal, actions):
    """``Q(s, a)`` of the actions taken: ``V(s) - c (l(s, g) - l(s, a))``, ``g`` the best legal output."""
    logits, value = net(x)
    best = logits.masked_fill(~legal, -1e30).max(dim=-1).values
    gap = best - logits.gather(-1, actions.unsqueeze(-1)).squeeze(-1)
    return value - net.c * gap


def _choose(logits: np.ndarray, masks: np.ndarray, explore: np.ndarray, rng) -> np.ndarray:
    """The action of each slot: the legal one of the largest output, or where ``explore`` a random legal one."""
    acts = np.where(masks, logits, -np.inf).argmax(axis=1)
    for i in np.flatnonzero(explore):
        acts[i] = rng.choice(np.flatnonzero(masks[i]))
    return acts


def selfplay(model=None, *, table: str = "4", deals: int = 100_000, num_envs: int = 256, epsilon: float = 0.05,
             lr: float = 2e-5, batch_size: int = 2048, seed: int = 1, progress=None, log=None,
             opponents="heuristic", advantage_scale: float = 1.0, checkpoint=None,
             checkpoint_every: int = 0) -> SelfPlayResult:
    """Improve a policy by deep Monte-Carlo self-play (see the module docstring).

    Parameters
    ----------
    model : path or None
        The policy to start from (None: the shipped one).
    table : str or sequence of str
        The table played (``3``, ``4``, ``5`` or ``5d``), or several: their deals taken in turn,
        one finished deal of each, so every update sees every table.
    deals : int
        Deals played at each table.
    num_envs : int
        Deals in play at once (the batch of each forward pass).
    epsilon : float
        The share of decisions taken at random among the legal actions (0..1).
    lr : float
        Adam's first learning rate; it decays to 0 along a cosine over the deals.
    batch_size : int
        Decisions of finished deals per update.
    seed : int
        The deals' seed, and the explorations'.
    opponents : str or None
        The bots of the other seats, the network at seat 0: one for all of them or one per other
        seat separated by commas (random, greedy or heuristic); None: the network at every seat
        (which does worse: docs/learn.md).
    advantage_scale : float
        ``c``: what a gap of one between two of the policy's outputs is worth, in hundreds of points
        (larger: the returns move the policy less).
    progress : callable or None
        Called with the deals just finished and ``deals``.
    log : callable or None
        Called with a line now and then.
    checkpoint : callable or None
        Called with ``(deals_done, arrays)`` each time ``checkpoint_every`` more deals are done (over
        every table), and at the end.

    Returns
    -------
    SelfPlayResult
    """
    from ..runs.env import VecEnv
    from .train import require_torch

    tables = [table] if isinstance(table, (str, Rules)) else list(table)
    rules = [t if isinstance(t, Rules) else Rules(str(t)) for t in tables]
    for r in rules:
        if r.table not in ENV_TABLES:
            raise DataError(f"table {r.table}: self-play covers tables {', '.join(ENV_TABLES)}")
    if not rules:
        raise DataError("no table given")
    for name, v, lo in (("deals", deals, 1), ("num_envs", num_envs, 1), ("batch_size", batch_size, 1),
                        ("checkpoint_every", checkpoint_every, 0)):
        if isinstance(v, bool) or not isinstance(v, int) or v < lo:
            raise DataError(f"{name} must be a whole number >= {lo}, not {v!r}")
    if not (isinstance(epsilon, (int, float)) and 0 <= epsilon <= 1):
        raise DataError(f"epsilon must be a number in 0..1, not {epsilon!r}")
    if not (isinstance(lr, (int, float)) and 0 < lr < 1):
        raise DataError(f"lr must be a number in (0, 1), not {lr!r}")
    start = load_model(model if model is not None else shipped("policy"), "policy")
    torch = require_torch()
    torch.manual_seed(seed)
    net = _network(torch, start.arrays(), advantage_scale)
    opt = torch.optim.Adam(net.parameters(), lr=lr)
    rng = np.random.default_rng(seed)
    scale = torch.from_numpy(INPUT_SCALE)

    result = SelfPlayResult(start.arrays())
    pending: list[tuple[np.ndarray, ...]] = []
    pending_rows = 0
    done = 0
    t0 = time.monotonic()
    next_checkpoint = checkpoint_every if checkpoint_every else deals * len(rules) + 1

    def choose(obs, masks):
        with torch.no_grad():
            logits, _ = net(torch.from_numpy(obs.astype(np.float32)) * scale)
        return _choose(logits.numpy(), masks, rng.random(obs.shape[0]) < epsilon, rng)

    def update(rows):
        x = torch.from_numpy(np.concatenate([p[0] for p in rows]).astype(np.float32)) * scale
        legal = torch.from_numpy(np.concatenate([p[1] for p in rows]))
        acts = torch.from_numpy(np.concatenate([p[2] for p in rows]))
        target = torch.from_numpy(np.concatenate([p[3] for p in rows]).astype(np.float32))
        loss = torch.mean((q_values(torch, net, x, legal, acts) - target) ** 2)
        for group in opt.param_groups:  # decaying to 0 along a cosine over the run's deals
            group["lr"] = lr * 0.5 * (1 + math.cos(math.pi * min(done, total) / total))
        opt.zero_grad()
        loss.backward()
        opt.step()
        result.losses.append(float(loss.detach()))
        result.deals_done.append(done)

    total = deals * len(rules)
    envs = [VecEnv(r, num_envs=min(num_envs, deals), seed=seed, opponents=_other_seats(r, opponents)) for r in rules]
    try:
        for _, obs, masks, acts, _, scores in _in_turn([finished_deals(e, choose, deals) for e in envs]):
            pending.append((obs, masks, acts, scores / SCORE_SCALE))
            pending_rows += acts.size
            done += 1
            if progress is not None:
                progress(1, total)
            while pending_rows >= batch_size:
                rows, pending, pending_rows = _take(pending, batch_size)
                update(rows)
            if done >= next_checkpoint and done < total and checkpoint is not None:
                checkpoint(done, net.arrays())
                next_checkpoint += checkpoint_every
            if log is not None and done % 10_000 == 0:
                log(f"{done} deals: squared error {np.mean(result.losses[-100:] or [np.nan]):.4f}, "
                    f"{done / max(time.monotonic() - t0, 1e-9):.0f} deals/s")
        if pending_rows:
            rows, pending, pending_rows = _take(pending, pending_rows)
            update(rows)
    finally:
        for e in envs:
            e.close()
    result.arrays = net.arrays()
    result.meta = {"hidden": list(start.hidden), "start": str(Path(model)) if model is not None else "shipped",
                   "start_command": start.meta.get("command"), "tables": [r.table for r in rules],
                   "deals": deals, "num_envs": envs[0].num_envs, "epsilon": epsilon, "lr": lr, "against": opponents or "self",
                   "batch_size": batch_size, "seed": seed, "updates": len(result.losses),
                   "advantage_scale": advantage_scale, "torch": torch.__version__}
    if checkpoint is not None:
        checkpoint(done, result.arrays)
    return result


def finished_deals(env, choose, deals: int):
    """Play the first ``deals`` deals of ``env``'s slots and yield each one's decisions as it ends.

    Parameters
    ----------
    env : tarotsim.VecEnv
        A fresh environment (``reset`` is called here).
    choose : callable
        ``choose(obs, masks) -> actions``: uint8[num_envs, OBS_LEN] and bool[num_envs, N_ACTIONS]
        to int64[num_envs], one legal action id per slot.
    deals : int
        Deals kept: each slot's deals in turn until that many have started; the decisions of the
        slots' later deals are played (every slot steps together) but not kept.

    Yields
    ------
    tuple
        ``(slot, obs, masks, actions, seats, scores)`` for each deal kept, in the order they end:
        uint8[k, OBS_LEN], bool[k, N_ACTIONS], int64[k], int64[k] and float64[k] over its ``k``
        decisions, ``scores`` the final score of the seat that took each (R-SCORE-1).
    """
    obs, masks, to_play = env.reset()
    n = env.num_envs
    store_obs = np.zeros((n, _MAX_DECISIONS, OBS_LEN), np.uint8)
    store_mask = np.zeros((n, _MAX_DECISIONS, N_ACTIONS), bool)
    store_act = np.zeros((n, _MAX_DECISIONS), np.int64)
    store_seat = np.zeros((n, _MAX_DECISIONS), np.int64)
    count = np.zeros(n, np.int64)
    active = np.ones(n, bool)
    started = min(n, deals)
    active[started:] = False
    done = 0
    while done < deals:
        acts = choose(obs, masks)
        at = np.flatnonzero(active)
        k = count[at]
        store_obs[at, k] = obs[at]
        store_mask[at, k] = masks[at]
        store_act[at, k] = acts[at]
        store_seat[at, k] = to_play[at]
        count[at] = k + 1
        obs, masks, rewards, terminated, info = env.step(acts)
        to_play = info["to_play"]
        for i in np.flatnonzero(terminated & active):
            k = count[i]
            seats = store_seat[i, :k].copy()
            yield (int(i), store_obs[i, :k].copy(), store_mask[i, :k].copy(), store_act[i, :k].copy(), seats,
                   rewards[i, seats].astype(np.float64))
            count[i] = 0
            done += 1
            if started < deals:
                started += 1
            else:
                active[i] = False  # the slot's next deal is not part of the run


def _other_seats(r: Rules, opponents):
    """``VecEnv``'s opponents (one bot per seat) from one bot for every other seat or one per other seat."""
    if opponents is None or "," not in str(opponents):
        return opponents
    names = [t.strip() for t in str(opponents).split(",")]
    others = r.n_seats - 1
    if len(names) != others:
        raise DataError(f"against: table {r.table} has {others} other seats; give one bot for all of them or "
                        f"{others} separated by commas, not {len(names)}")
    return ",".join([names[0]] + names)  # seat 0 is the policy's: the environment does not play its entry


def _in_turn(streams: list):
    """The items of several iterators taken in turn, one of each, until all are exhausted."""
    live = list(streams)
    while live:
        for it in list(live):
            try:
                yield next(it)
            except StopIteration:
                live.remove(it)


def _take(pending: list, rows: int):
    """The first ``rows`` decisions of the pending ones (a deal may be split), and what is left."""
    out, got = [], 0
    while got < rows:
        head = pending[0]
        need = rows - got
        if head[0].shape[0] <= need:
            out.append(head)
            got += head[0].shape[0]
            pending = pending[1:]
        else:
            out.append(tuple(a[:need] for a in head))
            pending = [tuple(a[need:] for a in head)] + pending[1:]
            got = rows
    return out, pending, sum(p[0].shape[0] for p in pending)


def strength(model, table: str = "4", deals: int = 5000, seed: int = 3, against: str = "heuristic",
             threads: int | None = None) -> dict:
    """Points a deal of a policy (``learned:model=FILE``) at one seat over ``against`` at the others.

    A duplicate tournament (``tarotsim.runs.tournament``, every seat rotation) of the policy file
    ``model`` against three (or two, or four) ``against`` bots: returns ``{"mean", "ci_low",
    "ci_high", "take_rate", "made_rate", "deals", "seed"}``, the pair's difference in points a
    deal and its 95% interval (the same for any ``threads``: None, every core)."""
    from ..runs import tournament
    from ..runs.players import parse_players

    r = table if isinstance(table, Rules) else Rules(str(table))
    bots = ",".join([f"learned:model={model}"] + [against] * (r.n_seats - 1))
    res = tournament.run(r, seed, deals, parse_players(bots, r, check_bots=True), threads=threads).to_dict()
    pair = res["pairs"][0]
    mine = res["bots"][0]
    return {"mean": pair["mean"], "ci_low": pair["ci_low"], "ci_high": pair["ci_high"],
            "take_rate": mine["take_rate"], "made_rate": mine["made_rate"], "deals": deals, "seed": seed,
            "against": against}


def curve_figure(meta: dict):
    """The self-play learning curve: points a deal over the bots it is measured against, by deals played.

    Parameters
    ----------
    meta : dict
        ``curve``: a list of :func:`strength` results, each with ``at`` (the deals of self-play
        done when it was measured), and the run's ``deals``, ``lr`` and ``seed`` for the title.

    Returns
    -------
    matplotlib.figure.Figure
        The figure (the ``plot`` extra).
    """
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7, 4.5), layout="constrained")
    ax = fig.subplots()
    pts = meta["curve"]
    x = [p["at"] for p in pts]
    y = [p["mean"] for p in pts]
    err = [[p["mean"] - p["ci_low"] for p in pts], [p["ci_high"] - p["mean"] for p in pts]]
    ax.errorbar(x, y, yerr=err, marker="o", capsize=3, label="the policy, 95% interval")
    ax.axhline(pts[0]["mean"], color="grey", ls="--", label="where it started")
    ax.axhline(0, color="black", lw=0.8)
    ax.set_xlabel("deals played")
    ax.set_ylabel(f"points a deal over the {pts[0].get('against', 'heuristic')} bots")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.suptitle(f"{meta.get('deals', 0):,} deals against {meta.get('against', 'self')}, lr {meta.get('lr')}, seed {meta.get('seed')}; "
                 f"measured on {pts[0]['deals']:,} duplicate deals, seed {pts[0]['seed']}", fontsize=10)
    return fig
