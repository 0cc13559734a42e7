"""Seating order, the one step from a seat to the next (R-GEN-2).

Seating order (R-GEN-2): the one step from a seat to the next, shared by the deal kernel, the
world sampler, the search and the bots (a leaf module: it imports no other part of tarotsim)."""

from numba import njit


@njit(inline="always")
def next_seat(s, n_seats, dummy):
    """The seat after ``s`` in playing order.

    The seat after ``s`` in playing order, ``(s + 1) mod n_seats``, the 5d dummy (``dummy``,
    -1 when there is none, R-DEAL-6) skipped (R-GEN-2)."""
    s += 1
    if s == n_seats:
        s = 0
    if s == dummy:
        s += 1
        if s == n_seats:
            s = 0
    return s
