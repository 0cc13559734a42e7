"""Counter-based randomness and the deal itself (docs/engine-contract.md; R-DEAL-1, R-DEAL-2).

A deal is identified by ``(seed, index)``. Two independent streams derive from it:

* the *cards* stream (``STREAM_CARDS``) shuffles the deck, and nothing else;
* the *bots* stream (``STREAM_BOTS``) feeds every random choice of every bot in the deal,
  in the chronological order of the decisions.

So the same cards can be replayed by other bots or from other seats, a deal can be
replayed alone, and results do not depend on threads or chunking. The numba kernels
implement the very same arithmetic (``tarotsim._kernels``); this plain-Python version is
what the reference engine and the tests use. All arithmetic is modulo 2**64, but the deal
identity itself is never wrapped: a seed is a whole number in 0..2**64-1 and an index one in
0..2**63-1 (the kernels' int64); anything else raises :class:`DealIdError` (``check_*``).

Contract (shared by every engine in this project):

* ``stream_state(seed, index, stream)``: the initial 64-bit state.
* ``next_u64``: splitmix64: ``state += GOLDEN``; output ``mix64(state)``.
* ``below(n)``: ``((next_u64() >> 32) * n) >> 32``, a number in ``0..n-1`` (``n < 2**31``).
* Shuffle: the deck ids ``0..77`` in id order, Fisher-Yates from the top:
  for ``i`` from 77 down to 1, ``j = below(i + 1)``, swap ``a[i]`` and ``a[j]``.
* Deal: ``dealer = index % n_seats``. The active players in dealing order start with
  ``(dealer + 1) % n_seats`` and skip the 5d dummy (the dealer). The k-th of them receives
  ``a[k*h:(k+1)*h]`` (h = hand size), and the chien is the last cards ``a[n_active*h:]``.
  A uniform shuffle makes every partition equally likely, so this is the same distribution
  as dealing packets with chien cards in the gaps (R-DEAL-2).
* Table 2 (R-VAR-TWO): the hands as above (18 cards each, the non-dealer first), then the piles:
  the k-th player in dealing order receives ``a[36 + 18*k : 36 + 18*(k+1)]`` as 6 piles of 3
  consecutive cards, each pile from bottom to top (its last card face up); the chien is ``a[72:]``.
"""

from __future__ import annotations

import operator

from . import echo
from .cards import N_CARDS
from .rules import CHIEN_SIZE, HAND_SIZE, PILE_DEPTH, PILES, Rules  # noqa: F401  (their home is rules.py)

MASK64 = (1 << 64) - 1
#: Seeds are 64-bit unsigned numbers; deal indices are int64 in the kernels.
MAX_SEED = MASK64
MAX_INDEX = (1 << 63) - 1
#: The command line takes seeds up to this (a signed 64-bit number, as most tools print them).
MAX_CLI_SEED = (1 << 63) - 1
GOLDEN = 0x9E3779B97F4A7C15
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB
STREAM_CARDS = 0
STREAM_BOTS = 1



class DealIdError(ValueError):
    """A seed, deal index or number of deals that is not a whole number in its range."""


def _whole(value, what: str) -> int:
    """A value as a Python int, ints and numpy integers only.

    ``value`` as a Python int: ints and numpy integers only (a bool or a float such as 1.5
    is refused, never truncated)."""
    if isinstance(value, bool):
        raise DealIdError(f"{what} must be a whole number, not {echo.shown(value)}")
    try:
        return operator.index(value)
    except TypeError:
        raise DealIdError(f"{what} must be a whole number, not {echo.shown(value)}") from None


def check_seed(seed, what: str = "seed") -> int:
    """Check a deal seed.

    ``seed`` as an int in ``0 .. 2**64 - 1``, or :class:`DealIdError` (never wrapped: 2**64 is
    not 0, -1 is not 2**64 - 1)."""
    v = _whole(seed, what)
    if not 0 <= v <= MAX_SEED:
        raise DealIdError(f"{what} must be in 0..2**64-1 ({MAX_SEED}), not {v}")
    return v


def check_index(index, what: str = "deal index") -> int:
    """``index`` as an int in ``0 .. 2**63 - 1`` (the kernels' int64), or :class:`DealIdError`."""
    v = _whole(index, what)
    if not 0 <= v <= MAX_INDEX:
        raise DealIdError(f"{what} must be in 0..2**63-1 ({MAX_INDEX}), not {v}")
    return v


def check_count(count, what: str = "number of deals", minimum: int = 0) -> int:
    """``count`` as an int ``>= minimum``, or :class:`DealIdError`."""
    v = _whole(count, what)
    if v < minimum:
        raise DealIdError(f"{what} must be at least {minimum}, not {v}")
    return v


def check_stop(start: int, stop, what: str = "stop") -> int:
    """Check the end of a range of deals.

    The end (excluded) of the deals ``start .. stop - 1``: ``start <= stop <= 2**63``, so the
    last index fits in int64."""
    v = _whole(stop, what)
    if v < start:
        raise DealIdError(f"bad index range {start}..{v}: need start <= stop")
    if v > MAX_INDEX + 1:
        raise DealIdError(f"deals {start}..{v - 1} pass the last deal index 2**63-1 ({MAX_INDEX}): "
                          f"start + number of deals must be at most 2**63")
    return v


def check_run(start, count, what: str = "number of deals", minimum: int = 0) -> tuple[int, int]:
    """``(start, stop)`` of ``count`` deals from index ``start``, checked (:class:`DealIdError`)."""
    start = check_index(start, "start")
    count = check_count(count, what, minimum)
    return start, check_stop(start, start + count)


def mix64(z: int) -> int:
    """The splitmix64 finaliser."""
    z = ((z ^ (z >> 30)) * MIX1) & MASK64
    z = ((z ^ (z >> 27)) * MIX2) & MASK64
    return z ^ (z >> 31)


def stream_state(seed: int, index: int, stream: int) -> int:
    """The initial state of one stream of a deal.

    Initial state of one stream of deal ``(seed, index)`` (both checked: :func:`check_seed`,
    :func:`check_index`)."""
    seed, index = check_seed(seed), check_index(index)
    h = mix64((seed + GOLDEN) & MASK64)
    h = mix64(((h ^ index) + GOLDEN) & MASK64)
    return mix64(((h ^ stream) + GOLDEN) & MASK64)


class Rng:
    """A splitmix64 stream (plain Python twin of the kernels' inline generator).

    Examples
    --------
    The bots stream of deal ``(7, 3)``, whose draws the random bot makes:

    >>> rng = Rng.for_deal(7, 3, STREAM_BOTS)
    >>> [rng.below(6) for _ in range(5)]
    [3, 5, 0, 2, 3]
    >>> Rng(0).next_u64()
    16294208416658607535
    """

    __slots__ = ("state",)

    def __init__(self, state: int):
        self.state = state & MASK64

    @classmethod
    def for_deal(cls, seed: int, index: int, stream: int) -> Rng:
        return cls(stream_state(seed, index, stream))

    def next_u64(self) -> int:
        self.state = (self.state + GOLDEN) & MASK64
        return mix64(self.state)

    def below(self, n: int) -> int:
        """A uniform integer in 0..n-1."""
        return ((self.next_u64() >> 32) * n) >> 32


def shuffled_deck(seed: int, index: int) -> list[int]:
    """The 78 card ids in the order of deal ``(seed, index)``."""
    rng = Rng.for_deal(seed, index, STREAM_CARDS)
    a = list(range(N_CARDS))
    for i in range(N_CARDS - 1, 0, -1):
        j = rng.below(i + 1)
        a[i], a[j] = a[j], a[i]
    return a


def dealing_order(rules: Rules, dealer: int) -> list[int]:
    """Active seats in dealing (= bidding, = trick-1) order from the dealer's right (R-GEN-2)."""
    n = rules.n_seats
    order = [(dealer + 1 + k) % n for k in range(n)]
    if rules.table == "5d":
        order.remove(dealer)  # the dealer is the dummy (R-DEAL-6)
    return order


def deal(rules: Rules, seed: int, index: int) -> tuple[int, list[list[int]], list[int]]:
    """Deal ``(seed, index)``: ``(dealer, hands by seat as sorted id lists, sorted chien ids)``.

    At table 2 the hands are the cards in hand only; :func:`deal_with_piles` adds the piles.
    """
    dealer, hands, chien, _ = deal_with_piles(rules, seed, index)
    return dealer, hands, chien


def deal_with_piles(rules: Rules, seed: int, index: int):
    """Deal ``(seed, index)``: ``(dealer, hands, chien, piles)``.

    ``piles[seat]`` is that seat's 6 piles of 3 card ids, each from bottom to top (the last card is
    face up, R-VAR-TWO) at table 2, and ``[]`` at every other table.
    """
    seed, index = check_seed(seed), check_index(index)
    a = shuffled_deck(seed, index)
    dealer = index % rules.n_seats
    h = HAND_SIZE[rules.table]
    n_piles = PILES.get(rules.table, 0)
    hands: list[list[int]] = [[] for _ in range(rules.n_seats)]
    piles: list[list[list[int]]] = [[] for _ in range(rules.n_seats)]
    order = dealing_order(rules, dealer)
    for k, seat in enumerate(order):
        hands[seat] = sorted(a[k * h:(k + 1) * h])
    laid = len(order) * h  # the piles come after the hands (table 2 only)
    per_seat = n_piles * PILE_DEPTH
    for k, seat in enumerate(order):
        start = laid + k * per_seat
        piles[seat] = [a[start + p * PILE_DEPTH:start + (p + 1) * PILE_DEPTH] for p in range(n_piles)]
    chien = sorted(a[laid + len(order) * per_seat:])
    return dealer, hands, chien, piles
