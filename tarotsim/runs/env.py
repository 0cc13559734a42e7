"""A batched environment for training agents: many deals in the kernels, arrays in, arrays out.

```python
# the agent at seat 0, heuristic bots at the others
env = VecEnv(Rules("4"), num_envs=1024, seed=7, opponents="heuristic")
obs, masks, to_play = env.reset()
while training:
    actions = policy(obs, masks)  # int64[num_envs], each in its row's mask
    obs, masks, rewards, terminated, info = env.step(actions)
```

* **Actions** are the ids of :mod:`tarotsim.actions` (91 of them; the écart is laid card by card).
  ``masks`` (bool[num_envs, 91]) holds the legal ids of each slot's decision: an action outside
  it raises :class:`IllegalActionError` before anything is played (never replaced silently).
* **Observations** (uint8[num_envs, OBS_LEN]) are those of :mod:`tarotsim.observations`, for the
  seat to decide (``to_play``; ``info["to_play"]`` after a step).
* **Rewards** (int64[num_envs, n_seats]) are the deal's scores, in the step where it ends
  (``terminated``), else 0.
* **Automatic reset, same step**: when a slot's deal ends, the step returns its rewards with
  ``terminated`` True and already the observation, mask and seat of the slot's next deal
  (``info["final_index"]`` is the deal that ended; :meth:`VecEnv.record` its record, docs/records.md).
* **Deals**: slot ``i`` plays deals ``start + i``, ``start + i + N``, ``start + i + 2N``, ... of
  ``(seed, index)`` (N = ``num_envs``): the same trajectories for any ``num_envs`` and thread
  count. A deal that asks the agent nothing (petit sec, R-DEAL-4; the agent as the 5d dummy) is
  played through and skipped (``info["skipped"]`` counts them per slot).
* **Opponents**: ``None``: the agent decides at every seat (self-play). A bot name
  (``random``, ``greedy``, ``heuristic``, with parameters as ``--bots`` takes them) or one per
  seat: those kernel bots play the other seats and the agent plays ``agent_seat``. They draw
  from the deal's bots stream as in the simulator. ``agent_seat=None`` with opponents: nobody is
  the agent and every step plays one whole deal per slot (a check of the kernel against the
  simulator).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np

from .. import echo
from .._kernels import env as K
from ..actions import ACTION_NAMES, N_ACTIONS
from ..observations import OBS_DTYPE, OBS_LEN
from ..rng import check_index, check_seed
from ..rules import ENV_TABLES, Rules

__all__ = ["IllegalActionError", "VecEnv"]

AUTORESET_MODE = "same-step"


class IllegalActionError(ValueError):
    """An action id outside its slot's mask (nothing of the step was played)."""


class VecEnv:
    """``num_envs`` deals of tarot advanced in lockstep by the kernels (see the module's text).

    Parameters
    ----------
    rules : Rules or str
        Table 3, 4, 5 or 5d and its options.
    num_envs : int
        Slots (deals in play at once).
    seed : int
        The deals' seed; slot ``i`` plays deals ``start + i + k * num_envs``.
    opponents : None, str or sequence
        None: self-play (the agent decides everywhere); else the bots of the other seats.
    agent_seat : int or None
        The agent's seat when there are opponents (None: no agent, whole deals per step).
    start : int
        The first deal index.
    threads : int
        Worker threads for a step (the kernels release the GIL); results do not depend on it.
    observations : bool
        Compute the observations (False: masks and seats only).

    Examples
    --------
    Self-play of deals ``(7, 0)`` and ``(7, 1)``: the first bid in each slot, then a pass in
    slot 0 and a garde sans in slot 1, after which only a garde contre tops it (R-BID-2):

    >>> env = VecEnv(Rules("4"), num_envs=2, seed=7)
    >>> obs, masks, to_play = env.reset()
    >>> obs.shape, to_play.tolist(), [np.flatnonzero(m).tolist() for m in masks]
    ((2, 1370), [1, 2], [[78, 79, 80, 81, 82], [78, 79, 80, 81, 82]])
    >>> obs, masks, rewards, terminated, info = env.step(np.array([78, 81]))
    >>> info["to_play"].tolist(), terminated.tolist()
    ([2, 3], [False, False])
    >>> np.flatnonzero(masks[1]).tolist()
    [78, 82]
    """

    autoreset_mode = AUTORESET_MODE

    def __init__(self, rules=None, num_envs: int = 1, seed: int = 0, opponents=None, *, agent_seat: int | None = 0,
                 start: int = 0, threads: int = 1, observations: bool = True):
        self.rules = rules if isinstance(rules, Rules) else Rules(str(rules) if rules is not None else "4")
        if self.rules.table not in ENV_TABLES:
            raise ValueError(f"table {self.rules.table} is not played by the batched environment "
                             f"(tables {', '.join(ENV_TABLES)})")
        if int(num_envs) < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs}")
        self.num_envs = n = int(num_envs)
        self.seed = check_seed(seed)
        self.start = check_index(start)
        self.threads = max(1, int(threads))
        n_seats = self.rules.n_seats
        self.rv = self.rules.to_vector()
        if opponents is None:
            agent = (1 << n_seats) - 1
            kinds = np.zeros(n_seats, dtype=np.int64)
            params = np.zeros((n_seats, 24), dtype=np.float64)
            self._kernel = K.env_step_random
        else:
            from .simulate import bot_setup

            from bots import BOT_KINDS

            from .._builds.env import OPPONENT_KINDS

            kinds, params, pol = bot_setup(self.rules, opponents)
            if pol is not None or any(k not in OPPONENT_KINDS for k in kinds):
                raise ValueError("opponents play random, greedy or heuristic (a policy set or pimc is not "
                                 "offered as an opponent here)")
            if agent_seat is None:
                agent = 0
            else:
                if not (isinstance(agent_seat, int) and 0 <= agent_seat < n_seats):
                    raise ValueError(f"agent_seat {echo.shown(agent_seat)} is not a seat of a table of {n_seats}")
                agent = 1 << agent_seat
            if all(k == BOT_KINDS["random"] for k in kinds):
                self._kernel = K.env_step_random
            else:
                from .._builds.env import env_step_bots
                self._kernel = env_step_bots
        self.agent_seat = agent_seat if opponents is not None else None
        self.kinds, self.params = kinds, params
        self.cfg = np.zeros(K.C_LEN, dtype=np.int64)
        self.cfg[K.C_STRIDE] = n
        self.cfg[K.C_AGENT] = agent
        self.cfg[K.C_OBS] = 1 if observations else 0
        self._bufs, self._logs, self._est, self._bst = K.new_state(n)
        self.obs = np.zeros((n, OBS_LEN), dtype=OBS_DTYPE)
        self.masks = np.zeros((n, N_ACTIONS), dtype=np.bool_)
        self.to_play = np.full(n, -1, dtype=np.int64)
        self.rewards = np.zeros((n, 5), dtype=np.int64)
        self.terminated = np.zeros(n, dtype=np.bool_)
        self.final_logs = np.zeros_like(self._logs)
        self._pool = ThreadPoolExecutor(self.threads) if self.threads > 1 else None
        self._chunks = [(int(c[0]), int(c[-1]) + 1) for c in np.array_split(np.arange(n), min(self.threads, n))]
        self._started = False

    # ---------------------------------------------------------------------------------------------
    def _run(self, actions: np.ndarray) -> None:
        seed = np.uint64(self.seed)

        def work(chunk):
            lo, hi = chunk
            self._kernel(self.rv, self.cfg, seed, lo, hi, actions, self.kinds, self.params, self._bufs, self._logs,
                         self._est, self._bst, self.obs, self.masks, self.to_play, self.rewards, self.terminated,
                         self.final_logs)

        if self._pool is None:
            work(self._chunks[0])
        else:
            list(self._pool.map(work, self._chunks))

    def reset(self):
        """Start every slot at its first deal; returns ``(observations, masks, to_play)``."""
        self._est[:] = 0
        self._est[:, K.E_INDEX] = self.start + np.arange(self.num_envs)
        self._run(np.full(self.num_envs, -1, dtype=np.int64))
        self._started = True
        return self.obs.copy(), self.masks.copy(), self.to_play.copy()

    def step(self, actions):
        """Apply one action id per slot; returns ``(observations, masks, rewards, terminated, info)``.

        ``info``: ``to_play`` (the seat each slot's observation is for), ``index`` (each slot's
        current deal), ``final_index`` (the deal that ended, -1 none) and ``skipped``.
        """
        if not self._started:
            raise RuntimeError("call reset() before step()")
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,) or not np.issubdtype(acts.dtype, np.integer):
            raise IllegalActionError(f"actions must be {self.num_envs} integers, not {acts.dtype} {acts.shape}")
        acts = acts.astype(np.int64)
        if self.cfg[K.C_AGENT]:
            inside = (acts >= 0) & (acts < N_ACTIONS)
            legal = inside & self.masks[np.arange(self.num_envs), np.where(inside, acts, 0)]
            if not legal.all():
                i = int(np.flatnonzero(~legal)[0])
                a = int(acts[i])
                name = ACTION_NAMES[a] if 0 <= a < N_ACTIONS else "no action"
                raise IllegalActionError(
                    f"slot {i}, deal ({self.seed}, {int(self._est[i, K.E_INDEX])}), seat {int(self.to_play[i])}: "
                    f"action {a} ({name}) is not legal now; legal: {np.flatnonzero(self.masks[i]).tolist()}")
        self._run(acts)
        n_seats = self.rules.n_seats
        info = {"to_play": self.to_play.copy(), "index": self._est[:, K.E_INDEX].copy(),
                "final_index": self._est[:, K.E_FINAL_INDEX].copy(), "skipped": self._est[:, K.E_SKIPPED].copy()}
        return (self.obs.copy(), self.masks.copy(), self.rewards[:, :n_seats].copy(), self.terminated.copy(), info)

    def observe(self, slot: int, seat: int) -> np.ndarray:
        """The observation of any seat of a slot's current deal (uint8[OBS_LEN])."""
        row = np.zeros(OBS_LEN, dtype=OBS_DTYPE)
        K.observe(self.rv, self._bufs, self._logs, self._est, int(slot), int(seat), row)
        return row

    def record(self, slot: int) -> dict:
        """The record (docs/records.md) of the deal that ended last in ``slot``."""
        from .simulate import record_from_log

        return record_from_log(self.rules, self.seed, self.final_logs[slot])

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None


