"""Bit tricks for the kernels: popcount, trailing zeros, "k-th set bit" and bit extraction on int64 masks.

``popcount`` and ``tzcnt`` are LLVM's ``ctpop``/``cttz`` (portable: LLVM picks POPCNT/TZCNT when
the CPU has them, bit tricks otherwise). ``select_bit(mask, k)`` (index of the k-th set bit,
k from 0) uses BMI2 ``pdep`` when the host CPU has it, ``extract_bits(x, mask)`` BMI2
``pext`` and its inverse ``deposit_bits(x, mask)`` ``pdep``; else clear-lowest-bit loops. The
choice is made once, at import (DESIGN §2). Set ``TAROTSIM_NO_PDEP=1`` to force the portable path.

Masks are int64 and stay below 2**63 (trump word 22 bits, suit word 56 bits).
"""

from __future__ import annotations

import os

import numpy as np

from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic


#: The decorator of the kernels' small scalar helpers (integers in, integers out: bit tricks, the
#: random stream, the trick state, a card of the random player). numba compiles each once and LLVM
#: inlines it at every call (``forceinline``). numba's own ``inline="always"`` copies the callee's
#: IR into each caller and runs its passes again at every level of nesting, which lengthens the cold
#: compile of the deal kernel for no better code. Steps that take arrays stay ``inline="always"``:
#: inlined by LLVM instead, the deal runs slower. numba compiles a helper once per signature, and a
#: constant argument has a literal type of its own: pass ``np.int64(2)``, ``np.bool_(False)``, not
#: ``2`` or ``False``, or the helper is compiled once more for each such call site
#: (BENCHMARKS.md, "Design measurements", has the figures).
scalar = njit(forceinline=True, nogil=True)


@scalar
def at(i):
    """``i`` as an array index that is never negative (a seat's slot, a card's place in the log).

    numba wraps a signed index around when it is negative, with a compare and a select at every
    access; an unsigned one it takes as it is, as C does. The card loop indexes by seat and
    position at every card."""
    return np.uint64(i)


@intrinsic
def popcount(typingctx, x):
    """Number of set bits of an int64."""
    if not isinstance(x, types.Integer):
        return None
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def tzcnt(typingctx, x):
    """Index of the lowest set bit of an int64 (64 when x == 0)."""
    if not isinstance(x, types.Integer):
        return None
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


@intrinsic
def ctlz(typingctx, x):
    """Leading zero bits of an int64 (64 when x == 0)."""
    if not isinstance(x, types.Integer):
        return None
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


@scalar
def hibit(x):
    """Index of the highest set bit (x > 0)."""
    return 63 - ctlz(x)


@scalar
def lobit(x):
    """Index of the lowest set bit (x > 0)."""
    return tzcnt(x)


@intrinsic
def _pdep(typingctx, src, mask):
    """BMI2 parallel bit deposit (only compiled when the host CPU has BMI2)."""
    if not (isinstance(src, types.Integer) and isinstance(mask, types.Integer)):
        return None
    sig = types.int64(types.int64, types.int64)

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        fnty = ir.FunctionType(i64, [i64, i64])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.x86.bmi.pdep.64")
        return builder.call(fn, [args[0], args[1]])

    return sig, codegen


def _host_has_bmi2() -> bool:
    if os.environ.get("TAROTSIM_NO_PDEP", "") not in ("", "0"):
        return False
    # numba compiles for NUMBA_CPU_NAME / NUMBA_CPU_FEATURES when set (e.g. "generic" for
    # portable caches): then only trust an explicit +bmi2.
    if os.environ.get("NUMBA_CPU_NAME") or os.environ.get("NUMBA_CPU_FEATURES"):
        return "+bmi2" in os.environ.get("NUMBA_CPU_FEATURES", "")
    try:
        import llvmlite.binding as llvm

        return bool(llvm.get_host_cpu_features().get("bmi2", False))
    except Exception:  # pragma: no cover - unusual llvmlite builds
        return False


HAS_PDEP = _host_has_bmi2()


@intrinsic
def _pext(typingctx, src, mask):
    """BMI2 parallel bit extract (only compiled when the host CPU has BMI2)."""
    if not (isinstance(src, types.Integer) and isinstance(mask, types.Integer)):
        return None
    sig = types.int64(types.int64, types.int64)

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        fnty = ir.FunctionType(i64, [i64, i64])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.x86.bmi.pext.64")
        return builder.call(fn, [args[0], args[1]])

    return sig, codegen


@scalar
def _select_pdep(mask, k):
    return tzcnt(_pdep(1 << k, mask))


@scalar
def _select_loop(mask, k):
    for _ in range(k):
        mask &= mask - 1
    return tzcnt(mask)


@scalar
def _kth_pdep(mask, k):
    return _pdep(1 << (k & 63), mask)


@scalar
def _kth_loop(mask, k):
    for _ in range(k):
        mask &= mask - 1
    return mask & -mask


@scalar
def _extract_pext(x, mask):
    return _pext(x, mask)


@scalar
def _deposit_pdep(x, mask):
    return _pdep(x, mask)


@scalar
def _deposit_loop(x, mask):
    out = x & 0
    k = 0
    while mask:
        low = mask & -mask
        if (x >> k) & 1:
            out |= low
        k += 1
        mask ^= low
    return out


@scalar
def _extract_loop(x, mask):
    out = x & 0
    k = 0
    while mask:
        low = mask & -mask
        if x & low:
            out |= np.int64(1) << k
        k += 1
        mask ^= low
    return out


#: ``select_bit(mask, k)``: index of the k-th (from 0) set bit of ``mask``; 0 <= k < popcount(mask).
select_bit = _select_pdep if HAS_PDEP else _select_loop
#: ``kth_bit(mask, k)``: the k-th (from 0) set bit of ``mask`` as a one-bit mask (0 if k is out of
#: range); ``k`` must be >= 0.
kth_bit = _kth_pdep if HAS_PDEP else _kth_loop
#: ``extract_bits(x, mask)``: the bits of ``x`` at the set bits of ``mask``, packed at the bottom in
#: the order of ``mask``'s bits (BMI2 ``pext``): bit k of the result is ``x``'s bit at the k-th set
#: bit of ``mask``.
extract_bits = _extract_pext if HAS_PDEP else _extract_loop
#: ``deposit_bits(x, mask)``: the inverse of ``extract_bits`` (BMI2 ``pdep``): the low bits of ``x``
#: spread to the set bits of ``mask`` in their order; ``extract_bits(deposit_bits(x, m), m)`` is
#: ``x`` below ``2**popcount(m)``.
deposit_bits = _deposit_pdep if HAS_PDEP else _deposit_loop


@njit(cache=True)
def extract_py(x, mask):
    """Test hook: (extract_bits, loop extract)."""
    return extract_bits(x, mask), _extract_loop(x, mask)


@njit(cache=True)
def deposit_py(x, mask):
    """Test hook: (deposit_bits, loop deposit)."""
    return deposit_bits(x, mask), _deposit_loop(x, mask)


@njit(cache=True)
def bits_py(mask, k):
    """Test hook: (popcount, tzcnt, select_bit, loop select, kth_bit, loop kth, pdep select or -1)."""
    sp = _select_pdep(mask, k) if HAS_PDEP else -1
    return (popcount(mask), tzcnt(mask), select_bit(mask, k), _select_loop(mask, k), kth_bit(mask, k),
            _kth_loop(mask, k), sp)
