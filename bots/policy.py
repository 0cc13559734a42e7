"""Your own bot on the fast path: a *policy set* of njit functions.

Every decision is one njit function with the one signature :data:`SIG`:

```python
decide(params, seat, hand_t, hand_s, pub,
       legal_t, legal_s, arg, out, rng) -> int64
```

| argument | type | what it holds |
|---|---|---|
| ``params`` | ``float64[::1]`` (16) | the bot's parameter row (:attr:`PolicySet.params`, zero-padded) |
| ``seat`` | ``int64`` | the deciding seat (0..n-1, playing order) |
| ``hand_t`` | ``int64`` | its own trumps: bit 0 the Excuse, bit t trump t |
| ``hand_s`` | ``int64`` | its own suit cards: bit 14*suit + rank - 1 (suits S H D C, rank 1..14) |
| ``pub`` | ``int64[::1]`` | the public view (``tarotsim._kernels.layout.PUB_*``): bids, taker, contract, called card, shown chien and poignées, the trick so far, the cards each seat has played, the voids shown ... |
| ``legal_t`` | ``int64`` | legal choices in the trump word (card, écart; else 0) |
| ``legal_s`` | ``int64`` | legal choices in the suit word (card, call, écart; else 0) |
| ``arg`` | ``int64`` | the decision's own number (see below) |
| ``out`` | ``int64[::1]`` (6) | écart only: write the card ids here |
| ``rng`` | ``int64[::1]`` (1) | the deal's bots stream: draw with :func:`draw_below` |

Decisions, their ``arg`` and what they return:

* ``bid``: ``arg`` the highest bid so far (-1 none); return -1 (pass) or a contract 0..3
  (prise, garde, garde sans, garde contre) above ``arg``.
* ``call`` (table 5): ``legal_s`` the cards it may call; return a card id (22..77).
* ``ecart``: ``legal_s`` the cards it may put down (no king, trump or Excuse), ``legal_t`` the
  trumps 2..20 allowed only when those run short (R-CHIEN-2), ``arg`` the number of cards; write
  that many card ids to ``out[0:arg]`` (return value ignored).
* ``chelem``: return 1 to announce a slam, else 0.
* ``poignee``: ``arg`` the largest poignée it holds (1 simple, 2 double, 3 triple); return 0..arg.
* ``misere``: ``arg`` 0 (atout) or 1 (tête); return 1 to declare it, else 0.
* ``card``: ``legal_t`` / ``legal_s`` the legal cards, ``arg`` the cards already in the trick
  (``pub[PUB_TRICK_CARDS:PUB_TRICK_CARDS + arg]``); return a card id.

Card ids: 0 the Excuse, 1..21 the trumps, 22 + 14*suit + rank - 1 the suit cards
(``tarotsim.cards``). A choice the rules forbid stops the run with a one-line error naming the
bot, the deal ``(seed, index)`` and the rule; so does an exception a function raises (a division
by zero ...), naming the bot, the seat, the deal and the decision. numba does not check array
bounds: a write past ``out`` or any array corrupts memory (a crash at best). ``--check-bots``
(:meth:`PolicySet.checked`) compiles the functions with bounds checking, so such an access
raises ``IndexError`` and is named in one line too. A decision left out plays a simple default
(pass, the lowest cards). A bot of a few lines (``examples/my_policy.py``):

```python
from numba import njit
from bots.policy import SIG, PolicySet, popcount

@njit(SIG, cache=True)
def bid(params, seat, hand_t, hand_s, pub, legal_t, legal_s, arg, out, rng):
    # a garde with 8 trumps or more (the Excuse aside), if nobody bid higher
    return 1 if popcount(hand_t >> 1) >= params[0] and arg < 1 else -1

# --bots examples.my_policy:POLICY
POLICY = PolicySet("eight_trumps", bid=bid, params=(8,))
```

The engine's kernels are compiled once for :data:`SIG` (``numba.types.FunctionType``), so a
policy set plugs in without recompiling them, and numba's cache keeps working.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
from numba import njit, types
from numba.core.registry import CPUDispatcher

import tarotsim.echo as echo
from tarotsim._kernels._bits import popcount, tzcnt
from tarotsim._kernels._rng import below
from tarotsim._kernels.layout import MAX_SEATS, N_BOT_PARAMS
from tarotsim.rules import BOT_DECISIONS

from ._common import lowest_ecart

__all__ = ["CODE", "DECISIONS", "SIG", "PolicyError", "PolicySet", "draw_below", "lowest_card", "popcount",
           "default_policies"]

#: A policy set's kind in the kernels' ``kinds`` arrays (``bots.BOT_USER``): its seat's decisions call
#: the functions of the kernels' policy tuple (``7 * seat + decision``); not a registered bot.
CODE = 3

#: The one signature of every decision function (see the module docstring).
SIG = types.int64(types.float64[::1], types.int64, types.int64, types.int64, types.int64[::1],
                  types.int64, types.int64, types.int64, types.int64[::1], types.int64[::1])
#: Decision names, in the order of the kernels' tuple of functions (``workspace.TR_*`` order).
DECISIONS = BOT_DECISIONS
N_DECISIONS = len(DECISIONS)


class PolicyError(ValueError):
    """A policy set that cannot be built: a decision that is not a function of :data:`SIG`."""


# --- helpers for policies (njit) ---------------------------------------------------------------

@njit(inline="always")
def draw_below(rng, n):
    """A uniform int in ``0..n-1`` from the deal's bots stream (``rng``: the int64[1] argument)."""
    k, st = below(np.uint64(rng[0]), n)
    rng[0] = np.int64(st)
    return k


@njit(inline="always")
def lowest_card(legal_t, legal_s):
    """The lowest legal card: the lowest suit card (by id), else the lowest trump, else the Excuse."""
    if legal_s:
        return 22 + tzcnt(legal_s)
    if legal_t & ~np.int64(1):
        return tzcnt(legal_t & ~np.int64(1))
    return 0


# --- the defaults: what a decision left out of a PolicySet plays ----------------------------

@njit(SIG, cache=True)
def default_bid(params, seat, hand_t, hand_s, pub, legal_t, legal_s, arg, out, rng):
    """Pass."""
    return -1


@njit(SIG, cache=True)
def default_call(params, seat, hand_t, hand_s, pub, legal_t, legal_s, arg, out, rng):
    """The lowest card it may call."""
    return 22 + tzcnt(legal_s)


@njit(SIG, cache=True)
def default_ecart(params, seat, hand_t, hand_s, pub, legal_t, legal_s, arg, out, rng):
    """The lowest cards it may put down, then the lowest trumps when those run short."""
    lowest_ecart(legal_s, legal_t, arg, out, 0)
    return arg


@njit(SIG, cache=True)
def default_no(params, seat, hand_t, hand_s, pub, legal_t, legal_s, arg, out, rng):
    """No (chelem, poignée, misère)."""
    return 0


@njit(SIG, cache=True)
def default_card(params, seat, hand_t, hand_s, pub, legal_t, legal_s, arg, out, rng):
    """The lowest legal card."""
    return lowest_card(legal_t, legal_s)


DEFAULTS = {"bid": default_bid, "call": default_call, "ecart": default_ecart, "chelem": default_no,
            "poignee": default_no, "misere": default_no, "card": default_card}


def _as_decision(name: str, fn, boundscheck: bool = False):
    """Compile a decision function for exactly :data:`SIG`.

    ``fn`` as a dispatcher compiled for exactly :data:`SIG` (what numba types as
    ``FunctionType(SIG)`` in the kernels' tuple): as it is when it was declared ``@njit(SIG)``,
    else its Python function compiled anew for SIG. ``boundscheck``: always compiled anew, with
    numba's bounds checking (an index out of an array's bounds raises ``IndexError``)."""
    if isinstance(fn, CPUDispatcher):
        if not boundscheck and not fn._can_compile and len(fn.overloads) == 1 and SIG.args in fn.overloads:
            return fn
        py = fn.py_func
    elif callable(fn):
        py = fn
    else:
        raise PolicyError(f"decision {name} is {echo.shown(fn)}, not a function")
    try:
        d = njit(SIG, boundscheck=True)(py) if boundscheck else njit(SIG)(py)
    except Exception as e:  # the user's code: one line, not numba's page of typing errors
        first = str(e).strip().splitlines()
        raise PolicyError(f"decision {name} does not compile for bots.policy.SIG: "
                          f"{type(e).__name__}: {first[0] if first else ''}") from None
    return d


@dataclass(frozen=True)
class PolicySet:
    """A bot of your own on the fast path, one njit function per decision.

    A bot of your own on the fast path: one njit function per decision (see the module
    docstring), the others defaulting to :data:`DEFAULTS`; ``params`` (up to 16 numbers) is
    handed to every decision. Name it on the command line as ``module:ATTRIBUTE``."""

    name: str
    bid: object = None
    call: object = None
    ecart: object = None
    chelem: object = None
    poignee: object = None
    misere: object = None
    card: object = None
    params: tuple = ()
    description: str = ""
    #: its functions compiled with numba's bounds checking (:meth:`checked`)
    boundscheck: bool = False
    _fns: tuple = field(default=(), init=False, repr=False, compare=False)

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name.strip():
            raise PolicyError("a policy set needs a name")
        p = tuple(float(x) for x in self.params)
        if len(p) > N_BOT_PARAMS:
            raise PolicyError(f"policy set {self.name}: at most {N_BOT_PARAMS} parameters, not {len(p)}")
        object.__setattr__(self, "params", p)
        fns = tuple(DEFAULTS[d] if getattr(self, d) is None else _as_decision(d, getattr(self, d), self.boundscheck)
                    for d in DECISIONS)
        object.__setattr__(self, "_fns", fns)

    def checked(self) -> PolicySet:
        """This policy set compiled with numba's bounds checking.

        This policy set with its functions compiled with numba's bounds checking (``tarotsim
        ... --check-bots``): an index out of an array's bounds (``out``, ``pub``, ``params``)
        raises ``IndexError``, which stops the run with one line naming the bot, instead of
        writing over memory that is not the array's (a crash, or silently wrong deals). Bounds
        are checked in the decision functions themselves and in helpers inlined into them
        (``inline="always"``), not in other njit functions they call. Slower: for finding bugs."""
        return self if self.boundscheck else replace(self, boundscheck=True)

    @property
    def functions(self) -> tuple:
        """The seven compiled decision functions, in :data:`DECISIONS` order."""
        return self._fns

    def vector(self) -> np.ndarray:
        """``params`` as the float64[N_BOT_PARAMS] row the decisions receive."""
        v = np.zeros(N_BOT_PARAMS, dtype=np.float64)
        v[:len(self.params)] = self.params
        return v


_DEFAULT_ROW = tuple(DEFAULTS[d] for d in DECISIONS)


def default_policies() -> tuple:
    """The kernels' policy tuple when no seat plays a policy set (MAX_SEATS x 7 defaults)."""
    return _DEFAULT_ROW * MAX_SEATS


def policy_tuple(per_seat) -> tuple:
    """The kernels' tuple of ``MAX_SEATS * 7`` functions: seat s's decision d at ``7*s + d``.

    ``per_seat``: a PolicySet or None (the defaults, unused by that seat) per seat."""
    out: list = []  # the decision functions (numba dispatchers)
    for s in range(MAX_SEATS):
        ps = per_seat[s] if s < len(per_seat) else None
        out.extend(ps.functions if isinstance(ps, PolicySet) else _DEFAULT_ROW)
    return tuple(out)
