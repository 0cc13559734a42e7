"""The deal kernel's bid-search builds (private): pimc seats that bid, call, lay and declare by search.

The builds of the deal kernel for tables where a ``pimc`` seat has ``bid_search`` on: a pimc
build's card dispatch (``pimc.card_pimc``, the card search; ``pimc.card_pimc_full`` with its
optional parts) and the bid search's decisions (``bots.bid_search.make_bid_search``, built here on
the bots build's steps, ``deal.BOTS_PARTS``: its worlds are played by random, greedy and heuristic
seats only) in place of the bots' bid, call, écart, chelem and poignée; their one batch kernel
each (the logs: ``pimc.Build`` reads facts and aggregates from them); and the searches as one
compiled call for the slow path, the tests and ``benchmarks/search.py``.

* ``bid_search``: with the pimc build's card search;
* ``bid_search_full``: with the full pimc build's (``exact_from``, ``infer``), when a seat asks for
  them (``bots.search.needs_full_build``).

Compiled only when a seat has ``bid_search`` on (``runs.py`` picks them,
``bots.bid_search.needs_bid_search``): neither the bots build nor the pimc builds hold the bid
search. A seat without ``bid_search`` decides in them exactly as in the pimc build of the same
card search. They play every table but 2 (R-VAR-TWO: the bid search is off there, and a pimc
build plays the table; the piles' steps are pruned, ``make_play``'s ``TABLE2=False``). The
searches' scratch (``bots.search.PW_*``, ``PIMC_LEN`` int64, then ``bots.bid_search.BS_*``,
``BID_LEN``) follows the deal kernel's buffer (``buf[BUF_LEN:]``; :func:`new_bid_search_buffer`);
the slow path's call takes it as ``scratch`` (int64[:data:`SCRATCH_LEN`], :func:`new_scratch`)
and returns the choice with the new bots-stream state. After a call, :func:`totals` reads the
total score of every choice the search compared. :data:`BID_SEARCH_PARTS` holds a build's inner
steps (the hand-level study plays its deals with them).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarotsim._kernels._cache import guard_cache
from tarotsim._kernels.layout import L_ECART, L_LEN, L_N_ECART
from tarotsim._kernels.play import make_play
from tarotsim._kernels.workspace import BUF_LEN, TR_BID, TR_CALL, TR_CHELEM, TR_ECART

from bots.bid_search import BID_LEN, BS_CHOICE_S, BS_STATS, BS_SUM, N_STATS, make_bid_search
from bots.dispatch import DISPATCH
from bots.search import PIMC_LEN

from . import sources
from .deal import BOTS_PARTS
from .loops import make_loops
from .pimc import BUILDS as PIMC_BUILDS
from .pimc import Build, _add_stats, card_pimc, card_pimc_full

#: The searches, their worlds played with the bots build's steps (random, greedy, heuristic only).
BID_SEARCH = make_bid_search(BOTS_PARTS)

#: Length of a search's scratch: the card search's, then the bid search's.
SCRATCH_LEN = PIMC_LEN + BID_LEN


@njit(cache=True, nogil=True)
def new_bid_search_buffer():
    """A deal buffer with the searches' scratch after it (``workspace.new_buffer`` + :data:`SCRATCH_LEN`)."""
    return np.zeros(BUF_LEN + SCRATCH_LEN, dtype=np.int64)


def _make_build(card):
    """Build one bid-search build on the card dispatch ``card``: ``(deal kernel, its inner steps)``."""
    parts = {}  # what make_play puts in it: play_rest, auction, call, chien_and_ecart, announce_chelem
    return make_play(DISPATCH, CARD=card, DECIDE=BID_SEARCH.decisions, parts=parts, TABLE2=False), parts


#: The bid-search builds' deal kernels and inner steps, on the pimc build's card search and the
#: full one's.
_play_bid_search, BID_SEARCH_PARTS = _make_build(card_pimc)
_play_bid_search_full, BID_SEARCH_FULL_PARTS = _make_build(card_pimc_full)
_logs = make_loops(_play_bid_search, new_bid_search_buffer).logs
_logs_full = make_loops(_play_bid_search_full, new_bid_search_buffer).logs


# --- the one batch kernel of each build (as ``pimc.run_logs_pimc``) -------------------------------

@njit(cache=True, nogil=True)
def run_logs_bid_search(rv, seed, indices, forced_seat, forced_contract, kinds, params, pol, logs, stats):
    """The logs of the deals ``indices`` into ``logs``; the card search's counters into ``stats`` (``pimc.run_logs_pimc``)."""
    _add_stats(_logs(rv, seed, indices, forced_seat, forced_contract, kinds, params, pol, logs), stats)


@njit(cache=True, nogil=True)
def run_logs_bid_search_full(rv, seed, indices, forced_seat, forced_contract, kinds, params, pol, logs, stats):
    """:func:`run_logs_bid_search` on the full card search."""
    _add_stats(_logs_full(rv, seed, indices, forced_seat, forced_contract, kinds, params, pol, logs), stats)


#: The bid-search builds by name, as ``pimc.BUILDS`` holds the pimc builds (their cards on the slow
#: path: the pimc builds' own compiled call).
BUILDS = {"bid_search": Build(run_logs_bid_search, PIMC_BUILDS["pimc"].decide_card),
          "bid_search_full": Build(run_logs_bid_search_full, PIMC_BUILDS["pimc_full"].decide_card)}


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
guard_cache("builds-bid-search", (new_bid_search_buffer, run_logs_bid_search, run_logs_bid_search_full, new_scratch,
                                  decide_search, run_decisions), sources())
