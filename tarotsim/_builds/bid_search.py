"""The deal kernel's bid-search build (private): pimc seats that bid, call, lay and declare by search.

The build of the deal kernel for tables where a ``pimc`` seat has ``bid_search`` on: the pimc
build's card dispatch (``pimc._card_pimc``: the card search) and the bid search's decisions
(``bots.bid_search.make_bid_search``, built here on the bots build's steps, ``deal.BOTS_PARTS``:
its worlds are played by random, greedy and heuristic seats only) in place of the bots' bid,
call, écart, chelem and poignée; its batch kernels; and each search as one compiled call for
the slow path, the tests and ``benchmarks/search.py``.

Compiled only when a seat has ``bid_search`` on (``runs.py`` picks it): neither the bots build
nor the pimc build holds the bid search. A seat without ``bid_search`` decides in it exactly as
in the pimc build. The searches' scratch (``bots.search.PW_*``, ``PIMC_LEN`` int64, then
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
from tarotsim._kernels.workspace import BUF_LEN
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
_play_bid_search = make_play(DISPATCH, CARD=_card_pimc, DECIDE=BID_SEARCH.decisions, parts=BID_SEARCH_PARTS)


@njit(cache=True, nogil=True)
def new_bid_search_buffer():
    """A deal buffer with the searches' scratch after it (``workspace.new_buffer`` + :data:`SCRATCH_LEN`)."""
    return np.zeros(BUF_LEN + SCRATCH_LEN, dtype=np.int64)


# --- batch kernels of the build (as ``deal.run_*_bots``) ------------------------------------------

@njit(cache=True, nogil=True)
def run_facts_bid_search(rv, seed, start, forced_seat, forced_contract, kinds, params, pol, out):
    buf = new_bid_search_buffer()
    log = np.zeros(L_LEN, dtype=np.int64)
    for i in range(out.shape[0]):
        _play_bid_search(rv, seed, start + i, forced_seat, forced_contract, kinds, params, pol, log, buf)
        store_facts(log, out, i)
        if log[L_OUTCOME] == OUTCOME_BOT_ERROR:
            return


@njit(cache=True, nogil=True)
def run_aggregate_bid_search(rv, seed, start, count, forced_seat, forced_contract, kinds, params, pol, acc):
    buf = new_bid_search_buffer()
    log = np.zeros(L_LEN, dtype=np.int64)
    for i in range(count):
        _play_bid_search(rv, seed, start + i, forced_seat, forced_contract, kinds, params, pol, log, buf)
        accumulate_deal(log, acc, rv[RV_N_SEATS])
        if log[L_OUTCOME] == OUTCOME_BOT_ERROR:
            return


@njit(cache=True, nogil=True)
def run_logs_bid_search(rv, seed, indices, forced_seat, forced_contract, kinds, params, pol, logs):
    buf = new_bid_search_buffer()
    for i in range(indices.shape[0]):
        _play_bid_search(rv, seed, indices[i], forced_seat, forced_contract, kinds, params, pol, logs[i], buf)


# --- the searches as compiled calls ----------------------------------------------------------------

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
def decide_search_bid(rv, kinds, params, seat, ht, hs, pub, highest, st, scratch):
    """``search_bid`` (``bots.bid_search``): ``(bid -1..3, state)``."""
    wsp, bsp = _parts(scratch)
    return _search_bid(rv, kinds, params, seat, ht, hs, pub, highest, st, wsp, bsp)


@njit(cache=True, nogil=True)
def decide_search_call(rv, kinds, params, seat, ht, hs, pub, legal_s, st, scratch):
    """``search_call``: ``(suit-word bit of the called card, state)``."""
    wsp, bsp = _parts(scratch)
    return _search_call(rv, kinds, params, seat, ht, hs, pub, legal_s, st, wsp, bsp)


@njit(cache=True, nogil=True)
def decide_search_ecart(rv, kinds, params, seat, ht, hs, pub, normal, cands, n_ecart, out, st, scratch):
    """``search_ecart``: ``(écart trump word, écart suit word, state)``, its card ids in ``out[:n_ecart]``."""
    wsp, bsp = _parts(scratch)
    return _search_ecart(rv, kinds, params, seat, ht, hs, pub, normal, cands, n_ecart, out, np.int64(0), st, wsp,
                         bsp)


@njit(cache=True, nogil=True)
def decide_search_chelem(rv, kinds, params, seat, ht, hs, pub, ecart, st, scratch):
    """``search_chelem``: ``(0 or 1, state)``.

    ``ecart``: the seat's own écart (card ids; empty unless it is the taker of a contract with an
    écart)."""
    wsp, bsp = _parts(scratch)
    return _search_chelem(rv, kinds, params, seat, ht, hs, pub, _log_of(ecart), st, wsp, bsp)


@njit(cache=True, nogil=True)
def decide_search_poignee(rv, kinds, params, seat, ht, hs, pub, n_levels, ecart, pos, st, scratch):
    """``search_poignee``: ``(level 0..n_levels, state)``.

    ``ecart`` as for the chelem, ``pos``: the cards already in trick 1."""
    wsp, bsp = _parts(scratch)
    return _search_poignee(rv, kinds, params, seat, ht, hs, pub, n_levels, _log_of(ecart), pos, st, wsp, bsp)


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
guard_cache("builds-bid-search", (new_bid_search_buffer, run_facts_bid_search, run_aggregate_bid_search,
                                  run_logs_bid_search, new_scratch, decide_search_bid, decide_search_call,
                                  decide_search_ecart, decide_search_chelem, decide_search_poignee, run_decisions),
            sources())
