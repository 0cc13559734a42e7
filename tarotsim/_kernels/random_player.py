"""The ``random`` player's draws (private).

The ``random`` player's draws (private): uniform over the legal choices, in the draw order of
docs/engine-contract.md, from the deal's bots stream.

They are the engine's own player: the deal kernel's random build (``play.make_play`` without a
bot dispatch) calls them directly, and the bots' dispatch (``bots/dispatch.py``) calls them for
a seat of kind ``random``. A leaf module: it imports only ``_bits``, ``_rng`` and the rules.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..rules import N_CONTRACTS, ecart_trumps_needed
from ._bits import kth_bit, popcount, scalar, select_bit, tzcnt
from ._rng import below

#: Trumps the écart must hold (R-CHIEN-2): ``rules.ecart_trumps_needed`` compiled.
ecart_needed = scalar(ecart_trumps_needed)


@njit(inline="always")
def random_bid(highest, st):
    """``random`` bid: pass, then the legal contracts ascending."""
    k, st = below(st, N_CONTRACTS - highest)
    if k == 0:
        return -1, st
    return highest + k, st


@njit(inline="always")
def random_call(legal_s, st):
    """``random`` call: uniform over the legal called cards (suit-word bit)."""
    k, st = below(st, popcount(legal_s))
    return select_bit(legal_s, k), st


@njit(inline="always")
def random_ecart(normal, cands, n_ecart, out, out_pos, st):
    """``random`` écart (docs/engine-contract.md); see :func:`bot_ecart`."""
    et = np.int64(0)
    es = np.int64(0)
    n_normal = popcount(normal)
    needed = ecart_needed(n_ecart, n_normal)
    if needed == 0:
        rem = normal
        cnt = n_normal
        for i in range(n_ecart):
            k, st = below(st, cnt)
            b = select_bit(rem, k)
            rem &= ~(1 << b)
            cnt -= 1
            es |= 1 << b
            out[out_pos + i] = 22 + b
    else:
        es = normal
        rem = normal
        i = 0
        while rem:
            b = tzcnt(rem)
            rem &= rem - 1
            out[out_pos + i] = 22 + b
            i += 1
        rem = cands
        cnt = popcount(cands)
        for i2 in range(needed):
            k, st = below(st, cnt)
            b = select_bit(rem, k)
            rem &= ~(1 << b)
            cnt -= 1
            et |= 1 << b
            out[out_pos + n_normal + i2] = b
    return et, es, st


@scalar
def random_card_bits(lt, ls, st):
    """``random`` card: uniform over the legal cards in id order, as (id, trump bit, suit bit).

    Both words are searched at once and the one holding the k-th card kept, so the one-bit
    masks come out of ``pdep`` directly (the card chain of a trick is latency-bound).
    """
    nt = popcount(lt)
    k, st = below(st, nt + popcount(ls))
    in_s = k >= nt
    pt = kth_bit(lt, k)
    ps = kth_bit(ls, (k - nt) & 63)
    bt = np.int64(0) if in_s else pt
    bs = ps if in_s else np.int64(0)
    c = tzcnt(ps) + 22 if in_s else tzcnt(pt)
    return c, bt, bs, st
