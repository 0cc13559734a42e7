"""The deal kernel's bid-search build (private): pimc seats that bid, call, lay and declare by search.

The build of the deal kernel for tables where a ``pimc`` seat has ``bid_search`` on: the pimc
build's card dispatch (``pimc._card_pimc``: the card search) and the bid search's decisions
(``bots.bid_search.make_bid_search``, built here on the bots build's steps, ``deal.BOTS_PARTS``:
its worlds are played by random, greedy and heuristic seats only) in place of the bots' bid,
call, écart, chelem and poignée; its batch kernels; and each search as one compiled call for
the slow path, the tests and ``benchmarks/search.py``.

Compiled only when a seat has ``bid_search`` on (``runs.py`` picks it): neither the bots build
nor the pimc build holds the bid search. A seat without ``bid_search`` decides in it exactly as
in the pimc build. It plays every table but 2 (R-VAR-TWO: the bid search is off there, and the
pimc build plays the table; the piles' steps are pruned, ``make_play``'s ``TABLE2=False``). The searches' scratch (``bots.search.PW_*``, ``PIMC_LEN`` int64, then
``bots.bid_search.BS_*``, ``BID_LEN``) follows the deal kernel's buffer (``buf[BUF_LEN:]``;
:func:`new_bid_search_buffer`); the slow path's calls take it as ``scratch``
(int64[:data:`SCRATCH_LEN`], :func:`new_scratch`) and return the choice with the new bots-stream
state. After a call, :func:`totals` reads the total score of every choice the search compared.
:data:`BID_SEARCH_PARTS` holds the build's inner steps (the hand-level study plays its deals with
them).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarotsim._kernels._cache import guard_cache
from tarotsim._kernels.layout import L_ECART, L_LEN, L_N_ECART, L_OUTCOME, OUTCOME_BOT_ERROR
from tarotsim._kernels.play import accumulate_deal, make_play, store_facts
from tarotsim._kernels.workspace import BUF_LEN, TR_BID, TR_CALL, TR_CHELEM, TR_ECART
from tarotsim.rules import RV_N_SEATS

from bots.bid_search import BID_LEN, BS_CHOICE_S, BS_STATS, BS_SUM, N_STATS, make_bid_search
from bots.dispatch import DISPATCH
from bots.search import PIMC_LEN

from . import sources
from .deal import BOTS_PARTS
from .pimc import _card_pimc

#: The searches, their worlds played with the bots build's steps (random, greedy, heuristic only).
BID_SEARCH = make_bid_search(BOTS_PARTS)

#: Length of a search's scratch: the card search's, then the bid search's.
SCRATCH_LEN = PIMC_LEN + BID_LEN

#: The deal kernel's bid-search build (the pimc build with the bid search's decisions), and its
#: inner steps.
BID_SEARCH_PARTS: dict = {}
_play_bid_search = make_play(DISPATCH, CARD=_card_pimc, DECIDE=BID_SEARCH.decisions, parts=BID_SEARCH_PARTS,
                             TABLE2=False)


@njit(cache=True, nogil=True)
def new_bid_search_buffer():
    """A deal buffer with the searches' scratch after it (``workspace.new_buffer`` + :data:`SCRATCH_LEN`)."""
    return np.zeros(BUF_LEN + SCRATCH_LEN, dtype=np.int64)


# --- batch kernels of the build -----------------------------------------------------------------
# One compiled entry point holds the build (each one links and compiles the whole build again): the
# logs. Facts and aggregates are read from the logs of a block of deals by two small kernels; a
# deal costs many searches, so the logs' memory and the extra pass cost nothing next to it.

#: Deals per block of logs in :func:`run_facts_bid_search` and :func:`run_aggregate_bid_search`.
LOG_BLOCK = 64


@njit(cache=True, nogil=True)
def run_logs_bid_search(rv, seed, indices, forced_seat, forced_contract, kinds, params, pol, logs):
    """Full logs of the deals ``indices`` into ``logs[i, :]`` (as ``deal.run_logs_bots``)."""
    buf = new_bid_search_buffer()
    for i in range(indices.shape[0]):
        _play_bid_search(rv, seed, indices[i], forced_seat, forced_contract, kinds, params, pol, logs[i], buf)


@njit(cache=True, nogil=True)
def facts_of_logs(logs, out):
    """Write the facts of ``logs[i]`` into ``out[i]``; returns how many rows, up to the first ``bot_error`` included."""
    for i in range(logs.shape[0]):
        store_facts(logs[i], out, i)
        if logs[i, L_OUTCOME] == OUTCOME_BOT_ERROR:
            return i + 1
    return logs.shape[0]


@njit(cache=True, nogil=True)
def aggregate_logs(logs, acc, n_seats):
    """Add ``logs`` into the aggregate ``acc`` (``ACC_*``), up to the first ``bot_error`` included; returns 1 if one was met."""
    for i in range(logs.shape[0]):
        accumulate_deal(logs[i], acc, n_seats)
        if logs[i, L_OUTCOME] == OUTCOME_BOT_ERROR:
            return 1
    return 0


def run_facts_bid_search(rv, seed, start, forced_seat, forced_contract, kinds, params, pol, out):
    """Deals ``start .. start + len(out) - 1`` into the facts rows ``out`` (as ``deal.run_facts_bots``).

    Stops after a deal whose outcome is ``bot_error``, as the other builds' loops do."""
    logs = np.zeros((min(LOG_BLOCK, len(out)), L_LEN), dtype=np.int64)
    if len(out) == 0:  # loads (or compiles) the kernel, as a call of the other builds' loops does
        run_logs_bid_search(rv, seed, np.arange(0, dtype=np.int64), forced_seat, forced_contract, kinds, params, pol,
                            logs)
    for a in range(0, len(out), LOG_BLOCK):
        n = min(LOG_BLOCK, len(out) - a)
        run_logs_bid_search(rv, seed, np.arange(start + a, start + a + n, dtype=np.int64), forced_seat,
                            forced_contract, kinds, params, pol, logs[:n])
        if facts_of_logs(logs[:n], out[a:a + n]) < n:
            return


def run_aggregate_bid_search(rv, seed, start, count, forced_seat, forced_contract, kinds, params, pol, acc):
    """Deals ``start .. start + count - 1`` added into the aggregate ``acc`` (as ``deal.run_aggregate_bots``)."""
    logs = np.zeros((min(LOG_BLOCK, max(count, 1)), L_LEN), dtype=np.int64)
    if count == 0:  # loads (or compiles) the kernel, as a call of the other builds' loops does
        run_logs_bid_search(rv, seed, np.arange(0, dtype=np.int64), forced_seat, forced_contract, kinds, params, pol,
                            logs[:0])
    for a in range(0, count, LOG_BLOCK):
        n = min(LOG_BLOCK, count - a)
        run_logs_bid_search(rv, seed, np.arange(start + a, start + a + n, dtype=np.int64), forced_seat,
                            forced_contract, kinds, params, pol, logs[:n])
        if aggregate_logs(logs[:n], acc, rv[RV_N_SEATS]):
            return


# --- the searches as one compiled call ---------------------------------------------------------------

@njit(cache=True, nogil=True)
def new_scratch():
    """A search's scratch (int64[:data:`SCRATCH_LEN`])."""
    return np.zeros(SCRATCH_LEN, dtype=np.int64)


@njit(inline="always")
def _parts(scratch):
    return scratch[:PIMC_LEN], scratch[PIMC_LEN:PIMC_LEN + BID_LEN]


@njit(inline="always")
def _log_of(ecart):
    """A deal log holding only the seat's own écart (card ids), as the search reads it."""
    log = np.zeros(L_LEN, dtype=np.int64)
    log[L_N_ECART] = ecart.shape[0]
    for i in range(ecart.shape[0]):
        log[L_ECART + i] = ecart[i]
    return log


_search_bid, _search_call, _search_ecart, _search_chelem, _search_poignee, _ = BID_SEARCH


@njit(cache=True, nogil=True)
def decide_search(what, rv, kinds, params, seat, ht, hs, pub, args, ecart, out, st, scratch):
    """One decision of a searching seat, for the slow path and the tests: ``(choice, écart suit word, state)``.

    Parameters
    ----------
    what : int64
        The decision (``workspace.TR_BID``, ``TR_CALL``, ``TR_ECART``, ``TR_CHELEM``, ``TR_POIGNEE``).
    rv, kinds, params, seat, ht, hs, pub :
        The rules vector, every seat's bot kind and parameters (``float64[n_seats, N_BOT_PARAMS]``),
        the seat, its hand (trump word, suit word) and its public view, as the deal kernel has them.
    args : int64[3]
        The decision's own arguments: a bid, the highest bid so far; a call, the cards it may call
        (suit word); an écart, the suit cards it may lay (``normal``), the candidate trumps and the
        écart's size; a poignée, the levels it may show and the cards already in trick 1.
    ecart : int64[k]
        The chelem and the poignée: the seat's own écart (card ids; empty unless it is the taker of
        a contract with an écart).
    out : int64[MAX_ECART]
        The écart: its card ids, in ``out[:size]``.
    st : uint64
        The bots stream.
    scratch : int64[SCRATCH_LEN]
        :func:`new_scratch`; after the call :func:`totals` and :func:`choices` read it.

    Returns
    -------
    The bid (-1..3), the called card's suit-word bit, the écart's trump word, 0 or 1 (chelem) or
    the poignée level (0..``args[0]``); the écart's suit word (0 for the other decisions); the new
    state.
    """
    wsp, bsp = _parts(scratch)
    extra = np.int64(0)
    if what == TR_BID:
        choice, st = _search_bid(rv, kinds, params, seat, ht, hs, pub, args[0], st, wsp, bsp)
    elif what == TR_CALL:
        choice, st = _search_call(rv, kinds, params, seat, ht, hs, pub, args[0], st, wsp, bsp)
    elif what == TR_ECART:
        choice, extra, st = _search_ecart(rv, kinds, params, seat, ht, hs, pub, args[0], args[1], args[2], out,
                                          np.int64(0), st, wsp, bsp)
    elif what == TR_CHELEM:
        choice, st = _search_chelem(rv, kinds, params, seat, ht, hs, pub, _log_of(ecart), st, wsp, bsp)
    else:
        choice, st = _search_poignee(rv, kinds, params, seat, ht, hs, pub, args[0], _log_of(ecart), args[1], st,
                                     wsp, bsp)
    return np.int64(choice), np.int64(extra), st


def totals(scratch, n: int) -> np.ndarray:
    """The total score of each of the ``n`` choices the last search in ``scratch`` compared.

    In its order (the heuristic's choice, or passing, first)."""
    return scratch[PIMC_LEN + BS_SUM:PIMC_LEN + BS_SUM + n].copy()


def choices(scratch, n: int) -> np.ndarray:
    """The ``n`` choices of the last call, écart or poignée search.

    The suit-word bit of a called card, an écart's suit word, a poignée level."""
    return scratch[PIMC_LEN + BS_CHOICE_S:PIMC_LEN + BS_CHOICE_S + n].copy()


def stats(buf_or_scratch, offset: int) -> np.ndarray:
    """The bid search's counters (``bid_search.BS_STATS``) in a buffer whose bid-search scratch starts at ``offset``."""
    return np.asarray(buf_or_scratch[offset + BS_STATS:offset + BS_STATS + N_STATS]).copy()


@njit(cache=True, nogil=True)
def run_decisions(rv, kinds, params, what, seats, hands, pubs, args, st, scratch):
    """The search on a batch of positions, for ``benchmarks/search.py``.

    Row ``i`` is a decision of seat ``seats[i]`` with hand ``hands[i]`` (trump word, suit word),
    public view ``pubs[i]`` and the decision's own arguments ``args[i]`` (a bid, ``what`` 0: the
    highest bid so far; an écart, ``what`` 1: normal, candidate trumps, size). Returns the state
    after the last one."""
    wsp, bsp = _parts(scratch)
    out = np.zeros(8, dtype=np.int64)
    for i in range(seats.shape[0]):
        if what == 0:
            _, st = _search_bid(rv, kinds, params, seats[i], hands[i, 0], hands[i, 1], pubs[i], args[i, 0], st, wsp,
                                bsp)
        else:
            _, _, st = _search_ecart(rv, kinds, params, seats[i], hands[i, 0], hands[i, 1], pubs[i], args[i, 0],
                                     args[i, 1], args[i, 2], out, np.int64(0), st, wsp, bsp)
    return st


# the cache guard (``tarotsim._kernels._cache``): these kernels inline the engine and the policies
guard_cache("builds-bid-search", (new_bid_search_buffer, run_logs_bid_search, facts_of_logs, aggregate_logs,
                                  new_scratch, decide_search, run_decisions), sources())
