"""Inline splitmix64 for the kernels: bit for bit the arithmetic of ``tarotsim.rng``.

Everything is uint64 (numba turns uint64-with-int64 arithmetic into float64, so every
constant and operand here is an explicit ``np.uint64``). A stream state is a uint64 passed
and returned by value: ``k, st = below(st, n)``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..rng import GOLDEN as _GOLDEN, MIX1 as _MIX1, MIX2 as _MIX2, STREAM_BOTS, STREAM_CARDS
from ._bits import scalar

GOLDEN = np.uint64(_GOLDEN)
MIX1 = np.uint64(_MIX1)
MIX2 = np.uint64(_MIX2)
U30 = np.uint64(30)
U27 = np.uint64(27)
U31 = np.uint64(31)
U32 = np.uint64(32)
U_STREAM_CARDS = np.uint64(STREAM_CARDS)
U_STREAM_BOTS = np.uint64(STREAM_BOTS)


@scalar
def mix64(z):
    z = (z ^ (z >> U30)) * MIX1
    z = (z ^ (z >> U27)) * MIX2
    return z ^ (z >> U31)


@scalar
def stream_state(seed, index, stream):
    """``tarotsim.rng.stream_state``; seed, index, stream as uint64."""
    h = mix64(seed + GOLDEN)
    h = mix64((h ^ index) + GOLDEN)
    return mix64((h ^ stream) + GOLDEN)


@scalar
def next_u64(st):
    st = st + GOLDEN
    return mix64(st), st


@scalar
def below(st, n):
    """A uniform int64 in ``0..n-1`` (``n`` int64, 1 <= n < 2**31) and the new state."""
    st = st + GOLDEN
    r = mix64(st)
    return np.int64(((r >> U32) * np.uint64(n)) >> U32), st


@njit(cache=True)
def shuffle_into(st, a):
    """Fisher-Yates of ``tarotsim.rng.shuffled_deck`` into ``a`` (int64[78]); returns the state."""
    n = a.shape[0]
    for i in range(n):
        a[i] = i
    for i in range(n - 1, 0, -1):
        j, st = below(st, i + 1)
        x = a[i]
        a[i] = a[j]
        a[j] = x
    return st


@njit(cache=True)
def stream_state_py(seed, index, stream):
    """Test hook: ``stream_state`` on uint64 arguments."""
    return stream_state(seed, index, stream)


@njit(cache=True)
def draws_py(st, ns, out):
    """Test hook: successive ``below(n)`` for each n of ``ns`` into ``out``; returns the state."""
    for i in range(ns.shape[0]):
        k, st = below(st, ns[i])
        out[i] = k
    return st
