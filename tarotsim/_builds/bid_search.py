"""The bid search's decisions as compiled calls (private): for the slow path
(``tarotsim.adapters.FastBotAdapter``), the tests and ``benchmarks/search.py``.

Each ``decide_*`` runs the search of ``bots/bid_search.py`` on one decision, with the inputs the
deal kernel hands it (the seat, its hand, the public view, the decision's own arguments, every
seat's kind and parameters, the bots-stream state) and a caller's ``scratch``
(int64[:data:`SCRATCH_LEN`], :func:`new_scratch`: the card search's and the bid search's, as in
the pimc build's buffer past ``BUF_LEN``), and returns the choice with the new state. After a
call, :func:`totals` reads the total score of every choice the search compared.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarotsim._kernels._cache import guard_cache
from tarotsim._kernels.layout import L_ECART, L_LEN, L_N_ECART

from bots.bid_search import (BID_LEN, BS_CHOICE_S, BS_STATS, BS_SUM, N_STATS, search_bid, search_call, search_chelem,
                             search_ecart, search_poignee)
from bots.search import PIMC_LEN

from . import sources

#: Length of a search's scratch: the card search's, then the bid search's.
SCRATCH_LEN = PIMC_LEN + BID_LEN


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


@njit(cache=True, nogil=True)
def decide_search_bid(rv, kinds, params, seat, ht, hs, pub, highest, st, scratch):
    """``bid_search.search_bid``: ``(bid -1..3, state)``."""
    wsp, bsp = _parts(scratch)
    return search_bid(rv, kinds, params, seat, ht, hs, pub, highest, st, wsp, bsp)


@njit(cache=True, nogil=True)
def decide_search_call(rv, kinds, params, seat, ht, hs, pub, legal_s, st, scratch):
    """``bid_search.search_call``: ``(suit-word bit of the called card, state)``."""
    wsp, bsp = _parts(scratch)
    return search_call(rv, kinds, params, seat, ht, hs, pub, legal_s, st, wsp, bsp)


@njit(cache=True, nogil=True)
def decide_search_ecart(rv, kinds, params, seat, ht, hs, pub, normal, cands, n_ecart, out, st, scratch):
    """``bid_search.search_ecart``: ``(écart trump word, écart suit word, state)``, its card ids
    in ``out[:n_ecart]``."""
    wsp, bsp = _parts(scratch)
    return search_ecart(rv, kinds, params, seat, ht, hs, pub, normal, cands, n_ecart, out, np.int64(0), st, wsp,
                        bsp)


@njit(cache=True, nogil=True)
def decide_search_chelem(rv, kinds, params, seat, ht, hs, pub, ecart, st, scratch):
    """``bid_search.search_chelem``: ``(0 or 1, state)``; ``ecart``: the seat's own écart (card
    ids; empty unless it is the taker at prise or garde)."""
    wsp, bsp = _parts(scratch)
    return search_chelem(rv, kinds, params, seat, ht, hs, pub, _log_of(ecart), st, wsp, bsp)


@njit(cache=True, nogil=True)
def decide_search_poignee(rv, kinds, params, seat, ht, hs, pub, n_levels, ecart, pos, st, scratch):
    """``bid_search.search_poignee``: ``(level 0..n_levels, state)``; ``ecart`` as for the
    chelem, ``pos``: the cards already in trick 1."""
    wsp, bsp = _parts(scratch)
    return search_poignee(rv, kinds, params, seat, ht, hs, pub, n_levels, _log_of(ecart), pos, st, wsp, bsp)


def totals(scratch, n: int) -> np.ndarray:
    """The total score of each of the ``n`` choices the last search in ``scratch`` compared, in
    its order (the heuristic's choice, or passing, first)."""
    return scratch[PIMC_LEN + BS_SUM:PIMC_LEN + BS_SUM + n].copy()


def choices(scratch, n: int) -> np.ndarray:
    """The ``n`` choices of the last call, écart or poignée search (suit-word bit of a called
    card, écart suit word, poignée level)."""
    return scratch[PIMC_LEN + BS_CHOICE_S:PIMC_LEN + BS_CHOICE_S + n].copy()


def stats(buf_or_scratch, offset: int) -> np.ndarray:
    """The bid search's counters (``bid_search.BS_STATS``) in a buffer whose bid-search scratch
    starts at ``offset``."""
    return np.asarray(buf_or_scratch[offset + BS_STATS:offset + BS_STATS + N_STATS]).copy()


@njit(cache=True, nogil=True)
def run_decisions(rv, kinds, params, what, seats, hands, pubs, args, st, scratch):
    """The search on a batch of positions, for ``benchmarks/search.py``: row ``i`` is a decision of
    seat ``seats[i]`` with hand ``hands[i]`` (trump word, suit word), public view ``pubs[i]`` and
    the decision's own arguments ``args[i]`` (a bid, ``what`` 0: the highest bid so far; an écart,
    ``what`` 1: normal, candidate trumps, size). Returns the state after the last one."""
    wsp, bsp = _parts(scratch)
    out = np.zeros(8, dtype=np.int64)
    for i in range(seats.shape[0]):
        if what == 0:
            _, st = search_bid(rv, kinds, params, seats[i], hands[i, 0], hands[i, 1], pubs[i], args[i, 0], st, wsp, bsp)
        else:
            _, _, st = search_ecart(rv, kinds, params, seats[i], hands[i, 0], hands[i, 1], pubs[i], args[i, 0],
                                    args[i, 1], args[i, 2], out, np.int64(0), st, wsp, bsp)
    return st


# the cache guard (``tarotsim._kernels._cache``): these kernels inline the engine and the policies
guard_cache("builds-bid-search", (new_scratch, decide_search_bid, decide_search_call, decide_search_ecart,
                                  decide_search_chelem, decide_search_poignee, run_decisions), sources())
