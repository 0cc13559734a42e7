"""The ``learned`` build (private): deals with a seat playing a policy network's best legal action.

A ``learned`` seat decides from its observation (``tarotsim.observations``) and legal actions
(``tarotsim.actions``), which the batched environment's steps compute (``tarotsim._kernels.env``:
``_begin``, ``_fill_obs``, ``_fill_mask``, ``_apply``), so its deals are played by those steps:
at a ``learned`` seat's decision the network's forward pass in the kernels
(``tarotsim.learn.forward.policy_best``) picks the action; every other seat is a kernel bot
through the environment's opponent step with the bots' dispatch (``random``, ``greedy``,
``heuristic``), drawing from the deal's bots stream as in the simulator. The deal's log is the
deal kernel's (``layout.L_*``): facts, aggregates and records read it as any other build's.

Compiled only when a seat plays ``learned`` (``runs.py``); the network's float32 weights are
arguments of the batch kernels, one model for every ``learned`` seat of a run.
"""

from __future__ import annotations


import numpy as np
from numba import njit

from tarotsim._kernels._cache import guard_cache
from tarotsim._kernels.env import E_KIND, E_LEN, E_SEAT, K_DONE, _apply, _begin, _fill_mask, _fill_obs, _make_opponent
from tarotsim._kernels.layout import L_LEN
from tarotsim._kernels.play import accumulate_deal, build_name, store_facts
from tarotsim._kernels.workspace import BUF_LEN
from tarotsim.actions import N_ACTIONS
from tarotsim.learn.features import INPUT_SCALE
from tarotsim.learn.forward import policy_best
from tarotsim.observations import OBS_DTYPE, OBS_LEN
from tarotsim.rules import RV_N_SEATS

from bots import BOT_KINDS
from bots.dispatch import DISPATCH

from . import sources

_opponent = build_name(_make_opponent(True, *DISPATCH), "learned")
#: the environment's bots history (``_apply``'s ``policies``): the other seats' bots read it
POLICIES = True
#: the ``learned`` bot's kind (``bots/learned.py``)
LEARNED = BOT_KINDS["learned"]
#: the ``learned`` bot's parameter ``model_id`` (``bots/learned.py``: its first)
MODEL_ID = 0


@njit(nogil=True, _nrt=False)
def _play(rv, seed, index, kinds, params, scale, w0, b0, w1, b1, w2, b2, log, buf, e, obs, mask, work):
    """Play deal ``(seed, index)`` into ``log``: the ``learned`` seats by the network, the others by their bots."""
    bst = _begin(rv, seed, index, buf, log, e)
    while e[E_KIND] != K_DONE:
        seat = e[E_SEAT]
        if kinds[seat] == LEARNED:
            _fill_mask(rv, buf, e, mask)
            _fill_obs(rv, buf, log, e, seat, obs)
            _apply(rv, buf, log, e, policy_best(obs, mask, scale, w0, b0, w1, b1, w2, b2, work), POLICIES)
        else:
            a, bst = _opponent(rv, kinds, params, None, buf, log, e, bst)
            if a >= 0:  # -1: the écart was laid whole
                _apply(rv, buf, log, e, a, POLICIES)


@njit(inline="always")
def _scratch(w0, w1, w2):
    return (np.zeros(BUF_LEN, dtype=np.int64), np.zeros(E_LEN, dtype=np.int64), np.zeros(OBS_LEN, dtype=OBS_DTYPE),
            np.zeros(N_ACTIONS, dtype=np.bool_), np.zeros(w0.shape[1] + w1.shape[1] + w2.shape[1], dtype=np.float32))


@njit(cache=True, nogil=True)
def run_facts_learned(rv, seed, start, kinds, params, scale, w0, b0, w1, b1, w2, b2, out):
    """Deals ``start .. start + len(out) - 1`` into the facts rows ``out``."""
    buf, e, obs, mask, work = _scratch(w0, w1, w2)
    log = np.zeros(L_LEN, dtype=np.int64)
    for i in range(out.shape[0]):
        _play(rv, seed, start + i, kinds, params, scale, w0, b0, w1, b1, w2, b2, log, buf, e, obs, mask, work)
        store_facts(log, out, i)


@njit(cache=True, nogil=True)
def run_aggregate_learned(rv, seed, start, count, kinds, params, scale, w0, b0, w1, b1, w2, b2, acc):
    """Deals ``start .. start + count - 1`` added into the aggregate ``acc``."""
    buf, e, obs, mask, work = _scratch(w0, w1, w2)
    log = np.zeros(L_LEN, dtype=np.int64)
    for i in range(count):
        _play(rv, seed, start + i, kinds, params, scale, w0, b0, w1, b1, w2, b2, log, buf, e, obs, mask, work)
        accumulate_deal(log, acc, rv[RV_N_SEATS])


@njit(cache=True, nogil=True)
def run_logs_learned(rv, seed, indices, kinds, params, scale, w0, b0, w1, b1, w2, b2, logs):
    """The full logs of the deals ``indices`` into ``logs[i, :]``."""
    buf, e, obs, mask, work = _scratch(w0, w1, w2)
    for i in range(indices.shape[0]):
        _play(rv, seed, indices[i], kinds, params, scale, w0, b0, w1, b1, w2, b2, logs[i], buf, e, obs, mask, work)


def weights(kinds, params, forced_seat: int = -1, pol=None) -> tuple:
    """``(INPUT_SCALE, w0, b0, w1, b1, w2, b2)`` of the ``learned`` seats' model, after checking the seats.

    ``tarotsim.runs.players`` refuses seats that cannot play together before a run; here a ``ValueError``
    for a caller of the kernels that gave them, or a forced contract."""
    from tarotsim.learn.models import learned_seats_error
    from tarotsim.learn.models import registered

    names = {code: name for name, code in BOT_KINDS.items()}
    kinds = [int(k) for k in kinds]
    seat_names = [None if pol is not None else names.get(k) for k in kinds]
    why = learned_seats_error(None, seat_names, params[:, MODEL_ID])
    if why is None and forced_seat >= 0:
        why = "learned plays the deals as they come (no forced contract)"
    if why is not None:
        raise ValueError(why)
    return (INPUT_SCALE, *registered(int(params[kinds.index(LEARNED), MODEL_ID])).arrays())


guard_cache("builds-learned", (run_facts_learned, run_aggregate_learned, run_logs_learned), sources())
