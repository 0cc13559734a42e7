"""The batch loops every build of the deal kernel runs (private).

The loops over a chunk of deals that each build's batch kernels run: the facts rows, the
aggregate and the full logs (the bidding study's loop is ``study.make_study_loop``).
:func:`make_loops` builds them for one build's deal kernel and buffer; the builds wrap them in
their own cached kernels (``deal.run_*_bots``, ``pimc.run_*_pimc`` ...), so a build compiles only
when one of its kernels is called.

Every loop but the logs' stops after a deal whose outcome is ``bot_error`` (the caller names the
rule on the slow path).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from tarotsim._kernels.layout import L_LEN, L_OUTCOME, OUTCOME_BOT_ERROR
from tarotsim._kernels.play import accumulate_deal, store_facts
from tarotsim.rules import RV_N_SEATS


class Loops(NamedTuple):
    """One build's batch loops (inlined njit functions), each with its batch kernel's arguments.

    ``facts(rv, seed, start, forced_seat, forced_contract, kinds, params, pol, out)``,
    ``aggregate(rv, seed, start, count, forced_seat, forced_contract, kinds, params, pol, acc)``,
    ``logs(rv, seed, indices, forced_seat, forced_contract, kinds, params, pol, logs)``; the
    aggregate and the logs return their buffer (the pimc builds' search counters are in it)."""

    facts: object
    aggregate: object
    logs: object


def make_loops(play, new_buf) -> Loops:
    """Build the batch loops of the deal kernel ``play`` over buffers from ``new_buf``.

    Parameters
    ----------
    play : numba dispatcher
        The build's deal kernel, called as ``play(rv, seed, index, forced_seat, forced_contract,
        kinds, params, pol, log, buf)`` (``tarotsim._kernels.play.make_play``).
    new_buf : numba dispatcher
        ``new_buf()``: the build's buffer, int64[>= BUF_LEN] (the pimc builds' carries the search's
        scratch after the deal's).

    Returns
    -------
    Loops
        The loops, closures of ``play`` and ``new_buf`` (closure constants), to inline into a
        build's cached batch kernels.
    """

    @njit(inline="always")
    def facts(rv, seed, start, forced_seat, forced_contract, kinds, params, pol, out):
        """Deals ``start .. start + len(out) - 1`` into the facts rows ``out``."""
        buf = new_buf()
        log = np.zeros(L_LEN, dtype=np.int64)
        for i in range(out.shape[0]):
            play(rv, seed, start + i, forced_seat, forced_contract, kinds, params, pol, log, buf)
            store_facts(log, out, i)
            if log[L_OUTCOME] == OUTCOME_BOT_ERROR:
                return

    @njit(inline="always")
    def aggregate(rv, seed, start, count, forced_seat, forced_contract, kinds, params, pol, acc):
        """Deals ``start .. start + count - 1`` added into the aggregate ``acc``; the buffer used."""
        buf = new_buf()
        log = np.zeros(L_LEN, dtype=np.int64)
        for i in range(count):
            play(rv, seed, start + i, forced_seat, forced_contract, kinds, params, pol, log, buf)
            accumulate_deal(log, acc, rv[RV_N_SEATS])
            if log[L_OUTCOME] == OUTCOME_BOT_ERROR:
                break
        return buf

    @njit(inline="always")
    def logs(rv, seed, indices, forced_seat, forced_contract, kinds, params, pol, out):
        """The full logs of the deals ``indices`` into ``out[i, :]``; the buffer used."""
        buf = new_buf()
        for i in range(indices.shape[0]):
            play(rv, seed, indices[i], forced_seat, forced_contract, kinds, params, pol, out[i], buf)
        return buf

    return Loops(facts, aggregate, logs)
