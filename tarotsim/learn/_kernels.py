"""The learning package's kernels (private): the decisions of logged deals, replayed with what each seat saw.

A deal played by any bots (the simulator's log, ``layout.L_*``) is replayed decision by
decision through the batched environment's steps (``tarotsim._kernels.env``: ``_begin``,
``_apply``, ``_fill_obs``, ``_fill_mask``), each action read back from the log. At every
decision of a chosen seat one row is written: the seat's observation and legal actions, the
action, where every card truly is, and where the seat's knowledge allows each card to be (the
exact sampler's constraints, ``tarotsim._kernels.worlds.derive``, from the same knowledge
vector ``tarotsim.worlds.knowledge`` builds from a seat's view).

Locations are relative to the seat (``tarotsim.learn.features``): column ``k`` the seat ``k``
places after it, column ``PILE`` the hidden pile.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit

from .._kernels._cache import engine_sources, guard_cache
from .._kernels._rng import stream_state
from .._kernels.env import (E_KIND, E_MIS, E_NBIDS, E_NPICK, E_PICK_S, E_PICK_T, E_PL_S,
                            E_PL_T, E_POS, E_SEAT, E_TR, K_BID, K_CALL, K_CARD, K_CHELEM, K_DONE, K_ECART,
                            K_MISERE_ATOUT, K_MISERE_TETE, K_POIGNEE, _apply, _begin, _fill_mask, _fill_obs)
from .._kernels.layout import (DECL_FIELDS, DECL_MISERE_ATOUT, DECL_POIGNEE, L_BID, L_CALLED, L_CARDS, L_CONTRACT,
                               L_DEALER, L_DECL, L_ECART, L_INDEX, L_LEADER, L_N_DECL, L_SCORES, L_SLAM_ANNOUNCED,
                               MAX_SEATS, PUB_CHIEN_S, PUB_CHIEN_T, PUB_ECART_T, PUB_POIGNEE_T)
from .._kernels.workspace import B_PUB, PUB_LEN, WS_HS, WS_HT, WS_LEN, WS_TAKER
from .._kernels import worlds as W
from ..actions import CHELEM_NO, CONTRACT_BASE, MISERE_NO, POIGNEE_NONE
from ..rules import KERNEL_ECART_MADE, RV_N_ACTIVE, RV_N_SEATS
from .features import PILE

#: At most this many decisions in one deal, every seat's: five bids, the call, six écart cards,
#: the chelem, three declarations per seat and 78 cards.
MAX_DECISIONS = 5 + 1 + 6 + 1 + 3 * MAX_SEATS + 78
#: Statuses of :func:`replay_decisions`: done; a logged action the replay's mask refuses; a
#: replayed deal whose scores differ from the log's (neither happens with a log of the kernels).
DONE, ERR_ACTION, ERR_SCORES, ERR_KNOWLEDGE = 0, -1, -2, -3

NO_POLICIES = False  # the replay keeps no bots' history (``_apply``'s ``policies``)
#: The streams of the measurements' worlds (:func:`uniform_marginals`), far from the deal's own.
STREAM_MEASURE = 1 << 40


@njit(inline="always")
def knowledge(rv, buf, log, e, seat, know):
    """Write ``seat``'s knowledge (``worlds.K_*``) of the paused deal into ``know``.

    The same vector as ``tarotsim.worlds.knowledge`` of the seat's view: its hand (the taker's
    enlarged hand during the écart), the auction, the shown chien, the écart as it knows it, the
    declarations, a misère another seat is being asked about (R-MIS-1: only an eligible seat is),
    and every card played with its trick's leader."""
    for i in range(W.K_LEN):
        know[i] = 0
    ws = buf[0:WS_LEN]
    pub = buf[B_PUB:B_PUB + PUB_LEN]
    kind = e[E_KIND]
    taker = ws[WS_TAKER]
    know[W.K_SEAT] = seat
    know[W.K_DEALER] = log[L_DEALER]
    know[W.K_STAGE] = W.STAGE_AUCTION if kind == K_BID or kind == K_CALL else W.STAGE_ECART if kind == K_ECART \
        else W.STAGE_PLAY
    know[W.K_TAKER] = taker
    know[W.K_CONTRACT] = log[L_CONTRACT] if taker >= 0 else -1
    know[W.K_CALLED] = log[L_CALLED]
    know[W.K_HAND_T] = ws[WS_HT + seat]
    know[W.K_HAND_S] = ws[WS_HS + seat]
    know[W.K_CHIEN_T] = pub[PUB_CHIEN_T]
    know[W.K_CHIEN_S] = pub[PUB_CHIEN_S]
    if seat == taker and kind != K_ECART and know[W.K_STAGE] == W.STAGE_PLAY and KERNEL_ECART_MADE[log[L_CONTRACT]]:
        know[W.K_ECART_T] = e[E_PICK_T]
        know[W.K_ECART_S] = e[E_PICK_S]
        know[W.K_ECART_KNOWN] = 1
    else:
        know[W.K_ECART_T] = pub[PUB_ECART_T]  # the trumps shown in the écart (R-CHIEN-2)
    for s in range(MAX_SEATS):
        know[W.K_POIGNEE + s] = pub[PUB_POIGNEE_T + s]
        know[W.K_MISERE + s] = e[E_MIS + s]
    if (kind == K_MISERE_ATOUT or kind == K_MISERE_TETE) and e[E_SEAT] != seat:
        know[W.K_MISERE + e[E_SEAT]] |= 1 if kind == K_MISERE_ATOUT else 2
    if K_POIGNEE <= kind <= K_CARD:
        tr = e[E_TR]
        na = rv[RV_N_ACTIVE]
        for t in range(tr + 1):
            know[W.K_LEADER + t] = log[L_LEADER + t]
            for j in range(na if t < tr else e[E_POS]):
                know[W.K_CARDS + t * MAX_SEATS + j] = log[L_CARDS + t * MAX_SEATS + j]
        know[W.K_N_PLAYED] = tr * na + e[E_POS]


@njit(inline="always")
def allowed_locations(rv, buf, log, e, seat, know, cons, out):
    """``out[c]``: the relative locations ``seat``'s knowledge allows card ``c`` (bit k: column k).

    Returns the status of ``worlds.derive`` (``OK``, or an error code)."""
    knowledge(rv, buf, log, e, seat, know)
    status = W.derive(rv, know, cons)
    n = rv[RV_N_SEATS]
    for c in range(78):
        a = cons[W.C_ALLOWED + c]
        r = np.int64(0)
        for s in range(n):
            if (a >> s) & 1:
                r |= np.int64(1) << ((s - seat + n) % n)
        if (a >> W.LOC_PILE) & 1:
            r |= np.int64(1) << PILE
        out[c] = r
    return status


@njit(inline="always")
def true_locations(rv, buf, e, seat, out):
    """``out[c]``: where card ``c`` is, relative to ``seat``: the seat holding or having played it, else the pile."""
    ws = buf[0:WS_LEN]
    n = rv[RV_N_SEATS]
    for c in range(78):
        out[c] = PILE
    for s in range(n):
        r = (s - seat + n) % n
        t = ws[WS_HT + s] | e[E_PL_T + s]
        u = ws[WS_HS + s] | e[E_PL_S + s]
        for c in range(22):
            if (t >> c) & 1:
                out[c] = r
        for c in range(56):
            if (u >> c) & 1:
                out[22 + c] = r


@njit(inline="always")
def _declared(log, seat, kind):
    """The level of the declaration ``kind`` (``DECL_*``) ``seat`` made in the logged deal (1 a misère), else 0."""
    for d in range(log[L_N_DECL]):
        at = L_DECL + DECL_FIELDS * d
        if log[at] == seat and log[at + 1] == kind:
            return log[at + 2] if kind == DECL_POIGNEE else np.int64(1)
    return np.int64(0)


@njit(inline="always")
def logged_action(dealt, e):
    """The action id the logged deal ``dealt`` took at the decision the replay waits for."""
    kind = e[E_KIND]
    seat = e[E_SEAT]
    if kind == K_BID:
        return CONTRACT_BASE + dealt[L_BID + e[E_NBIDS]]
    if kind == K_CALL:
        return dealt[L_CALLED]
    if kind == K_ECART:
        return dealt[L_ECART + e[E_NPICK]]
    if kind == K_CHELEM:
        return CHELEM_NO + dealt[L_SLAM_ANNOUNCED]
    if kind == K_POIGNEE:
        return POIGNEE_NONE + _declared(dealt, seat, DECL_POIGNEE)
    if kind == K_MISERE_ATOUT or kind == K_MISERE_TETE:
        return MISERE_NO + _declared(dealt, seat, DECL_MISERE_ATOUT + kind - K_MISERE_ATOUT)
    return dealt[L_CARDS + e[E_TR] * MAX_SEATS + e[E_POS]]


@njit(cache=True, nogil=True)
def replay_decisions(rv, seed, logs, seats, index, seat_of, kind_of, obs, masks, actions, where, allowed, scores,
                     deal_of, scratch):
    """Replay logged deals and write one row per decision of the seats in ``seats`` (a bit per seat).

    Deals ``logs[k]`` in turn, while a whole deal's rows (at most ``MAX_DECISIONS``) still fit
    in the output arrays (one row each: ``index``, ``seat_of``, ``kind_of``, ``obs``, ``masks``,
    ``actions``, ``where``, ``allowed``, ``scores``, ``deal_of`` the row of ``logs``). Returns
    ``(rows written, deals replayed, status)``, status ``DONE`` or an ``ERR_*`` code (its deal's
    rows are not counted). ``scratch``: :func:`new_scratch`."""
    buf, log, e, know, cons, amask = scratch
    n_rows = masks.shape[0]
    r = 0
    k = 0
    while k < logs.shape[0] and r + MAX_DECISIONS <= n_rows:
        dealt = logs[k]
        _begin(rv, seed, dealt[L_INDEX], buf, log, e)
        first = r
        while e[E_KIND] != K_DONE:
            seat = e[E_SEAT]
            a = logged_action(dealt, e)
            if (seats >> seat) & 1:
                _fill_mask(rv, buf, e, masks[r])
                if masks[r, a] == 0:
                    return first, k, ERR_ACTION
                _fill_obs(rv, buf, log, e, seat, obs[r])
                true_locations(rv, buf, e, seat, where[r])
                if allowed_locations(rv, buf, log, e, seat, know, cons, amask) != W.OK:
                    return first, k, ERR_KNOWLEDGE
                for c in range(78):
                    allowed[r, c] = amask[c]
                index[r] = dealt[L_INDEX]
                seat_of[r] = seat
                kind_of[r] = e[E_KIND]
                actions[r] = a
                deal_of[r] = k
                r += 1
            _apply(rv, buf, log, e, a, NO_POLICIES)
        for s in range(MAX_SEATS):
            if log[L_SCORES + s] != dealt[L_SCORES + s]:
                return first, k, ERR_SCORES
        for j in range(first, r):
            scores[j] = dealt[L_SCORES + seat_of[j]]
        k += 1
    return r, k, DONE


@njit(cache=True, nogil=True)
def uniform_marginals(rv, seed, logs, seats, first_trick, last_trick, worlds, out, scratch, wf, wi):
    """The exact sampler's marginals at the card decisions of tricks ``first_trick..last_trick`` (from 0).

    Replays the logged deals as :func:`replay_decisions` does and, at each card decision of a seat
    of ``seats`` in those tricks, in the same order as its rows, draws ``worlds.shape[0]``
    uniform worlds of the seat's knowledge (``tarotsim._kernels.worlds.sample_worlds``, each
    position its own stream from the deal and its rank in the deal) and writes ``out[r, c, l]``: how many put
    card ``c`` at relative location ``l``. Returns ``(rows written, status)``."""
    buf, log, e, know, cons, amask = scratch
    r = 0
    n = rv[RV_N_SEATS]
    for k in range(logs.shape[0]):
        dealt = logs[k]
        _begin(rv, seed, dealt[L_INDEX], buf, log, e)
        j = 0
        while e[E_KIND] != K_DONE:
            seat = e[E_SEAT]
            a = logged_action(dealt, e)
            if (seats >> seat) & 1 and e[E_KIND] == K_CARD and first_trick <= e[E_TR] <= last_trick:
                if r >= out.shape[0]:
                    return r, ERR_ACTION
                knowledge(rv, buf, log, e, seat, know)
                if W.derive(rv, know, cons) != W.OK:
                    return r, ERR_KNOWLEDGE
                st = stream_state(seed, np.uint64(dealt[L_INDEX]), np.uint64(STREAM_MEASURE + j))
                j += 1
                status, st = W.sample_worlds(cons, st, worlds, wf, wi)
                if status != W.OK:
                    return r, ERR_KNOWLEDGE
                for c in range(78):
                    for l in range(PILE + 1):
                        out[r, c, l] = 0
                for w in range(worlds.shape[0]):
                    for c in range(78):
                        loc = worlds[w, c]
                        if loc == W.LOC_PILE:
                            out[r, c, PILE] += 1
                        elif loc >= 0:
                            out[r, c, (loc - seat + n) % n] += 1
                r += 1
            _apply(rv, buf, log, e, a, NO_POLICIES)
    return r, DONE


def new_scratch():
    """The replay's scratch: a deal's buffer, log and paused state, a knowledge, its constraints, a row of locations."""
    from .._kernels.env import new_state

    bufs, logs, est, _ = new_state(1)
    return (bufs[0], logs[0], est[0], np.zeros(W.K_LEN, dtype=np.int64), np.zeros(W.C_LEN, dtype=np.int64),
            np.zeros(78, dtype=np.int64))


guard_cache("tarotsim-learn", (replay_decisions, uniform_marginals),
            engine_sources() + [Path(__file__).resolve().parent.parent / n for n in ("actions.py", "observations.py")]
            + [Path(__file__).resolve()])
