"""The bidding study kernel's steps (private).

The bidding study kernel's steps (private; the facade is ``tarotsim.runs.study``, the loops that
play the deals with the bots are ``tarotsim/_builds/study.py``).

For every deal ``index`` of a chunk, one seat is studied: the first player to speak, the seat
after the dealer, ``(index % n + 1) % n`` (at table 5d the dealer is the dummy, so this seat
always plays). Its dealt hand is evaluated with the ``heuristic`` bot's count
(``bots.heuristic.evaluate``), then the very same deal is played once per studied contract
with that seat forced as taker (the others pass; every other decision is the bots'). The
cards of ``(seed, index)`` come from their own random stream, so the plays are on identical
cards and their scores can be compared deal by deal (a paired design).

Everything is added into fixed-size int64 arrays (integer sums: the totals are the same for
any split of the deals into chunks and threads, and memory does not grow with the deals):

* ``acc_bin`` int64[N_CONTRACTS, N_BINS, N_FIELDS]: per contract ``c`` and per bin of the count the bot
  compares for ``c`` (``bots.heuristic.bid_counts``: with or without an écart; floored, clipped
  to ``0 .. N_BINS - 1``), the fields ``F_*`` below.
* ``acc_oud`` int64[N_CONTRACTS, 4, N_FIELDS]: the same per contract and number of oudlers in the hand.
* ``misc`` int64[M_LEN]: deals, annulled deals (petit sec, R-DEAL-4: nobody plays, so the deal
  is counted there and nowhere else), deals played.
* ``bad`` int64[BAD_LEN]: the first deal of the chunk in which a policy set chose what the rules
  forbid (its index and the contract being played; -1 when none). The loop stops there: such a
  deal is neither annulled nor played, and the caller names the bot and the rule.

Fields (one studied play each): ``F_N`` plays, ``F_MADE`` contracts made, ``F_S`` / ``F_S2``
the taker's score and its square, ``F_D`` / ``F_D2`` the paired difference with the next lower
studied contract (for the lowest one, with passing, whose score is taken as 0: the studied
seat passing is counted as a thrown-in deal, even though another seat might have taken) and
its square, ``F_X100`` the count in hundredths (rounded), then the raw features of the dealt
hand: oudlers, trumps (the Excuse aside), trumps 16-21, kings, cards in the longest suit, voids.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..rules import KERNEL_ECART_MADE, N_CONTRACTS, RV_N_SEATS
from ._bits import popcount
from .layout import L_HAND_S, L_HAND_T, L_MADE, L_OUTCOME, L_SCORES, OUTCOME_BOT_ERROR, OUTCOME_PLAYED
from .masks import SW_KINGS, SW_SUITS, TW_MAJORS, TW_OUDLERS, TW_T21, TW_TRUMPS

#: bins of the hand count, one point wide: 0 .. N_BINS - 1 (a count below 0 goes to the first, one
#: of N_BINS or more to the last)
N_BINS = 160
F_N, F_MADE, F_S, F_S2, F_D, F_D2, F_X100 = range(7)
F_OUDLERS, F_TRUMPS, F_HIGH_TRUMPS, F_KINGS, F_LONGEST, F_VOIDS = range(7, 13)
N_FIELDS = 13
FEATURES = ("oudlers", "trumps", "trumps_16_21", "kings", "longest_suit", "voids")
M_DEALS, M_ANNULLED, M_PLAYED = range(3)
M_LEN = 3
BAD_INDEX, BAD_CONTRACT = range(2)
BAD_LEN = 2

HIGH_TRUMPS = np.int64(TW_MAJORS | TW_T21)  # trumps 16..21


@njit(inline="always")
def _add(acc, c, k, score, diff, made, x100, ht, hs):
    """One play of contract ``c`` into row ``acc[c, k]``."""
    acc[c, k, F_N] += 1
    acc[c, k, F_MADE] += made
    acc[c, k, F_S] += score
    acc[c, k, F_S2] += score * score
    acc[c, k, F_D] += diff
    acc[c, k, F_D2] += diff * diff
    acc[c, k, F_X100] += x100
    acc[c, k, F_OUDLERS] += popcount(ht & TW_OUDLERS)
    acc[c, k, F_TRUMPS] += popcount(ht & TW_TRUMPS)
    acc[c, k, F_HIGH_TRUMPS] += popcount(ht & HIGH_TRUMPS)
    acc[c, k, F_KINGS] += popcount(hs & SW_KINGS)
    longest = 0
    voids = 0
    for su in range(4):
        m = popcount(hs & SW_SUITS[su])
        longest = max(longest, m)
        voids += m == 0
    acc[c, k, F_LONGEST] += longest
    acc[c, k, F_VOIDS] += voids


@njit(inline="always")
def _studied_seat(rv, index, misc):
    """The seat studied in deal ``index``: the first to speak (never the 5d dummy, who deals)."""
    misc[M_DEALS] += 1
    n = rv[RV_N_SEATS]
    return (index % n + 1) % n


def new_bad() -> np.ndarray:
    """The ``bad`` array of a chunk's state: no bot error yet."""
    return np.full(BAD_LEN, -1, dtype=np.int64)


@njit(inline="always")
def _bot_erred(log, index, c, bad):
    """Whether a policy set broke a rule in this play.

    True when a policy set chose what the rules forbid in this play (the deal kernel's outcome
    ``bot_error``): ``bad`` then holds the deal and the contract, and the loop stops."""
    if log[L_OUTCOME] != OUTCOME_BOT_ERROR:
        return False
    bad[BAD_INDEX] = index
    bad[BAD_CONTRACT] = c
    return True


@njit(inline="always")
def _keep_play(log, seat, c, score, made):
    """Keep the studied seat's score of one play.

    Keep the studied seat's score of the play of contract ``c``; False when the deal was
    annulled (petit sec, R-DEAL-4: before any bid, so for every contract alike)."""
    if log[L_OUTCOME] != OUTCOME_PLAYED:
        return False
    score[c] = log[L_SCORES + seat]
    made[c] = log[L_MADE]
    return True


@njit(inline="always")
def _add_deal(ok, count, count_no_ecart, seat, log, contracts, score, made, acc_bin, acc_oud, misc):
    """Add the plays of one deal to the accumulators.

    Add the plays of one deal: per contract, at the bin of the studied hand's count, the one the
    heuristic compares for that contract (``count`` where an écart is made,
    ``rules.KERNEL_ECART_MADE``, else ``count_no_ecart``: ``bots.heuristic.bid_counts`` of the
    dealt hand, counted by ``tarotsim/_builds/study.py``)."""
    if not ok:
        misc[M_ANNULLED] += 1
        return
    misc[M_PLAYED] += 1
    ht = log[L_HAND_T + seat]  # the dealt hand (the same in every play of the deal)
    hs = log[L_HAND_S + seat]
    oud = popcount(ht & TW_OUDLERS)
    prev = np.int64(0)  # passing scores 0
    for c in range(N_CONTRACTS):
        if contracts[c] == 0:
            continue
        x = count if KERNEL_ECART_MADE[c] else count_no_ecart
        k = np.int64(np.floor(x))
        k = min(max(k, 0), N_BINS - 1)
        x100 = np.int64(np.round(x * 100.0))
        diff = score[c] - prev
        _add(acc_bin, c, k, score[c], diff, made[c], x100, ht, hs)
        _add(acc_oud, c, oud, score[c], diff, made[c], x100, ht, hs)
        prev = score[c]
