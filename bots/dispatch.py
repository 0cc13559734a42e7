"""The bots' decisions for the deal kernel, dispatched on each seat's bot kind.

The bots' decisions for the deal kernel: one function per decision, dispatching on the seat's
bot kind (the bots' side of ``tarotsim._kernels.play.BotDispatch``).

Every decision gets the seat's bot ``kind``, the params table (float64[n_seats, N_BOT_PARAMS],
row = seat), the seat, its own hand (``ht`` trump word, ``hs`` suit word), the public view
``pub`` (``layout.PUB_*``), the legal choices, and the bots-stream state; it returns its choice
and the new state. Nothing else of the deal reaches a bot: it cannot see other hands.

``random`` draws as the engine's own player (``tarotsim._kernels.random_player``).
``greedy`` and ``heuristic`` are the policies of this package (``greedy.py``, ``heuristic.py``):
njit functions of (params, seat, own hand, public view, legal choices) called out of line from
here; they draw nothing from the bots stream. A user's policy set (``BOT_USER``, ``policy.py``)
is a tuple ``pol`` of first-class functions (``numba.types.FunctionType(bots.policy.SIG)``, seat
s's decision d at ``7*s + d``): the ``_user_*`` functions call them with the seat's parameter
row, hand, public view and legal choices, and check the answer. A forbidden answer is replaced by
a legal default and marked in the user scratch ``ub`` (``layout.U_*``), and the batch kernels
stop the run there (the slow path then names the rule). Kinds are checked by
``tarotsim.runs.simulate.bot_arrays``; each registered bot's ``DECIDES_AS`` says whose decisions
it makes here (``pimc`` the heuristic's: its card search is ``search.py``, called by the deal
kernel's pimc build only); any other kind plays ``greedy``.

The kernels never import this package: :data:`DISPATCH` is handed to the deal kernel's factory
(``tarotsim._kernels.play.make_play``) by ``tarotsim/_builds/deal.py``. ``decide_*`` are
compiled entry points over the same functions for the slow path's adapter
(``tarotsim.adapters.FastBotAdapter``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit

from tarotsim._kernels._bits import popcount, tzcnt
from tarotsim._kernels._cache import engine_sources, guard_cache
from tarotsim._kernels._rng import below
from tarotsim._kernels.layout import MAX_ECART, N_DECISIONS, U_ERR, U_ERR_SEAT, U_LEN, U_OUT, U_RNG
from tarotsim._kernels.play import BotDispatch
from tarotsim._kernels.random_player import random_bid, random_call, random_card_bits, random_ecart

from . import BOTS, BOT_USER, HEURISTIC_KINDS
from ._common import lowest_ecart
from .greedy import greedy_bid, greedy_call, greedy_card, greedy_ecart
from .heuristic import heuristic_bid, heuristic_call, heuristic_card, heuristic_chelem, heuristic_ecart, heuristic_poignee


# --- what a registered bot adds here -----------------------------------------------------------
# Nothing but its ``DECIDES_AS`` (in its own file): the bot whose rules make its decisions here.
# ``random`` draws before any policy; the ``heuristic`` kinds play the heuristic's policies, every
# other kind the greedy's. A bot with policies of its own besides adds one branch to each
# ``policies_*`` function below (and its ``DECIDES_AS`` names itself).

#: The kind of ``random`` (its draws are the engine's player's).
RANDOM = next(bot.CODE for bot in BOTS if bot.DECIDES_AS == "random")
# ``HEURISTIC_KINDS`` (``bots``): the kinds whose decisions here are the heuristic's.


# --- a user's policy set (kind BOT_USER) -------------------------------------------------------

@njit(inline="always")
def _forbidden(ub, d, seat):
    """Mark the first forbidden answer of the deal (decision ``d``, ``seat``)."""
    if ub[U_ERR] == 0:
        ub[U_ERR] = d + 1
        ub[U_ERR_SEAT] = seat


@njit(inline="always")
def _user_call_fn(pol, ub, d, params, seat, ht, hs, pub, lt, ls, arg, st):
    """Call seat's decision ``d`` of the policy tuple; the bots stream goes through ``ub``."""
    ub[U_RNG] = np.int64(st)
    r = pol[N_DECISIONS * seat + d](params[seat], seat, ht, hs, pub, lt, ls, arg, ub[U_OUT:U_OUT + MAX_ECART],
                                    ub[U_RNG:U_RNG + 1])
    return r, np.uint64(ub[U_RNG])


@njit(nogil=True, _nrt=False)
def _user_bid(pol, ub, params, seat, ht, hs, pub, highest, st):
    r, st = _user_call_fn(pol, ub, 0, params, seat, ht, hs, pub, 0, 0, highest, st)
    if r == -1 or (highest < r <= 3):
        return r, st
    _forbidden(ub, 0, seat)
    return np.int64(-1), st


@njit(nogil=True, _nrt=False)
def _user_called(pol, ub, params, seat, ht, hs, pub, legal_s, st):
    r, st = _user_call_fn(pol, ub, 1, params, seat, ht, hs, pub, 0, legal_s, 0, st)
    if 22 <= r < 78 and (legal_s >> (r - 22)) & 1:
        return r - 22, st
    _forbidden(ub, 1, seat)
    return tzcnt(legal_s), st


@njit(nogil=True, _nrt=False)
def _user_ecart(pol, ub, params, seat, ht, hs, pub, normal, cands, n_ecart, out, out_pos, st):
    """Check a policy's écart, or lay the lowest one (R-CHIEN-2).

    The écart of a policy (R-CHIEN-2): ``n_ecart`` distinct cards of ``normal``, trumps of
    ``cands`` only as many as ``normal`` lacks; else the lowest ones (and the answer is marked)."""
    for i in range(MAX_ECART):
        ub[U_OUT + i] = -1
    r, st = _user_call_fn(pol, ub, 2, params, seat, ht, hs, pub, cands, normal, n_ecart, st)
    et = np.int64(0)
    es = np.int64(0)
    ok = True
    for i in range(n_ecart):
        c = ub[U_OUT + i]
        if 22 <= c < 78 and (normal >> (c - 22)) & 1 and not (es >> (c - 22)) & 1:
            es |= np.int64(1) << (c - 22)
        elif 0 <= c < 22 and (cands >> c) & 1 and not (et >> c) & 1:
            et |= np.int64(1) << c
        else:
            ok = False
    need = n_ecart - popcount(normal)
    if ok and popcount(et) == (need if need > 0 else 0):
        for i in range(n_ecart):
            out[out_pos + i] = ub[U_OUT + i]
        return et, es, st
    _forbidden(ub, 2, seat)
    et, es = lowest_ecart(normal, cands, n_ecart, out, out_pos)
    return et, es, st


@njit(nogil=True, _nrt=False)
def _user_choice(pol, ub, d, params, seat, ht, hs, pub, arg, top, st):
    """A yes/no or a level: an answer in ``0..top`` (chelem, poignée, misère), else 0."""
    r, st = _user_call_fn(pol, ub, d, params, seat, ht, hs, pub, 0, 0, arg, st)
    if 0 <= r <= top:
        return r, st
    _forbidden(ub, d, seat)
    return np.int64(0), st


@njit(nogil=True, _nrt=False)
def _user_card(pol, ub, params, seat, ht, hs, pub, lt, ls, pos, st):
    r, st = _user_call_fn(pol, ub, 6, params, seat, ht, hs, pub, lt, ls, pos, st)
    if 22 <= r < 78:
        if (ls >> (r - 22)) & 1:
            return r, st
    elif 0 <= r < 22:
        if (lt >> r) & 1:
            return r, st
    _forbidden(ub, 6, seat)
    if ls:
        return 22 + tzcnt(ls), st
    return tzcnt(lt), st


# Each decision: the random bot's rule (``random_*``) and ``bot_*``, the dispatch on the seat's
# kind (random, or the other bots' policies through one out-of-line ``policies_*`` call).
I64 = np.int64  # a plain int64 argument (see the dispatchers below)

@njit(nogil=True, _nrt=False)
def policies_bid(kind, params, seat, ht, hs, pub, highest):
    if kind in HEURISTIC_KINDS:
        return heuristic_bid(params, seat, ht, hs, pub, highest)
    return greedy_bid(params, seat, ht, hs, pub, highest)


@njit(nogil=True, _nrt=False)
def _bot_bid(kind, params, pol, ub, seat, ht, hs, pub, highest, st):
    """Bid: -1 pass, or a contract 0..3 strictly above ``highest`` (-1 when nobody bid)."""
    if kind == RANDOM:
        return random_bid(highest, st)
    if pol is not None:
        if kind == BOT_USER:
            return _user_bid(pol, ub, params, seat, ht, hs, pub, highest, st)
    return policies_bid(kind, params, seat, ht, hs, pub, highest), st


@njit(nogil=True, _nrt=False)
def policies_call(kind, params, seat, ht, hs, pub, legal_s):
    if kind in HEURISTIC_KINDS:
        return heuristic_call(params, seat, ht, hs, pub, legal_s)
    return greedy_call(params, seat, ht, hs, pub, legal_s)


@njit(nogil=True, _nrt=False)
def _bot_call(kind, params, pol, ub, seat, ht, hs, pub, legal_s, st):
    """Call (table 5): a card of ``legal_s`` (suit word); returns its suit-word bit."""
    if kind == RANDOM:
        return random_call(legal_s, st)
    if pol is not None:
        if kind == BOT_USER:
            return _user_called(pol, ub, params, seat, ht, hs, pub, legal_s, st)
    return policies_call(kind, params, seat, ht, hs, pub, legal_s), st


@njit(nogil=True, _nrt=False)
def policies_ecart(kind, params, seat, ht, hs, pub, normal, cands, n_ecart, out, out_pos):
    if kind in HEURISTIC_KINDS:
        return heuristic_ecart(params, seat, ht, hs, pub, normal, cands, n_ecart, out, out_pos)
    return greedy_ecart(params, seat, ht, hs, pub, normal, cands, n_ecart, out, out_pos)


@njit(nogil=True, _nrt=False)
def _bot_ecart(kind, params, pol, ub, seat, ht, hs, pub, normal, cands, n_ecart, out, out_pos, st):
    """Écart of ``n_ecart`` cards from the enlarged hand.

    ``normal`` (suit word): the cards neither trump, king nor Excuse; ``cands`` (trump word):
    T2..T20 held. Writes the card ids, in the order chosen, at ``out[out_pos:]`` and returns
    ``(ecart trump word, ecart suit word, state)``.
    """
    if kind == RANDOM:
        return random_ecart(normal, cands, n_ecart, out, out_pos, st)
    if pol is not None:
        if kind == BOT_USER:
            return _user_ecart(pol, ub, params, seat, ht, hs, pub, normal, cands, n_ecart, out,
                               out_pos, st)
    et, es = policies_ecart(kind, params, seat, ht, hs, pub, normal, cands, n_ecart, out,
                             out_pos)
    return et, es, st


@njit(nogil=True, _nrt=False)
def policies_chelem(kind, params, seat, ht, hs, pub):
    if kind in HEURISTIC_KINDS:
        return heuristic_chelem(params, seat, ht, hs, pub)
    return np.int64(0)  # greedy: never


@njit(nogil=True, _nrt=False)
def _bot_chelem(kind, params, pol, ub, seat, ht, hs, pub, st):
    """Announce a chelem? (taker, after the écart): 0 no, 1 yes (``random``: one draw)."""
    if kind == RANDOM:
        return below(st, np.int64(2))  # a literal 2 would compile ``below`` once more
    if pol is not None:
        if kind == BOT_USER:
            return _user_choice(pol, ub, I64(3), params, seat, ht, hs, pub, I64(0), I64(1), st)
    return policies_chelem(kind, params, seat, ht, hs, pub), st


@njit(nogil=True, _nrt=False)
def policies_poignee(kind, params, seat, ht, hs, pub, n_levels):
    if kind in HEURISTIC_KINDS:
        return heuristic_poignee(params, seat, ht, hs, pub, n_levels)
    return np.int64(1 if n_levels > 0 else 0)  # greedy: the simple one when it has one


@njit(nogil=True, _nrt=False)
def _bot_poignee(kind, params, pol, ub, seat, ht, hs, pub, n_levels, st):
    """Poignée level: 0 none, 1..n_levels (simple, double, triple) (``random``: one draw)."""
    if kind == RANDOM:
        return below(st, n_levels + 1)
    if pol is not None:
        if kind == BOT_USER:
            return _user_choice(pol, ub, I64(4), params, seat, ht, hs, pub, n_levels, n_levels, st)
    return policies_poignee(kind, params, seat, ht, hs, pub, n_levels), st


@njit(nogil=True, _nrt=False)
def _bot_misere(kind, params, pol, ub, seat, ht, hs, pub, which, st):
    """Whether the seat declares a misère.

    Declare the misère ``which`` (0 atout, 1 tête) the seat is eligible for: 0 no, 1 yes
    (``random``: one draw; ``greedy`` and ``heuristic`` never do)."""
    if kind == RANDOM:
        return below(st, np.int64(2))  # a literal 2 would compile ``below`` once more
    if pol is not None:
        if kind == BOT_USER:
            return _user_choice(pol, ub, I64(5), params, seat, ht, hs, pub, which, I64(1), st)
    return np.int64(0), st


@njit(nogil=True, _nrt=False)
def policies_card(kind, params, seat, ht, hs, pub, lt, ls, fixed, fmask, amask, pos):
    """The card of a ``greedy`` / ``heuristic`` seat (one out-of-line call per card site)."""
    if kind in HEURISTIC_KINDS:
        return heuristic_card(params, seat, ht, hs, pub, lt, ls, fixed, fmask, amask, pos)
    return greedy_card(params, seat, ht, hs, pub, lt, ls, fixed, fmask, amask, pos)


@njit(nogil=True, _nrt=False)
def _bot_card_bits(kind, params, pol, ub, seat, ht, hs, pub, lt, ls, fixed, fmask, amask, pos, st):
    """The bot's card among the legal ones, with its mask bits.

    A card among the legal ones (``lt`` trump word, ``ls`` suit word), as ``(card id,
    trump-word bit, suit-word bit, state)``.

    Trick state: ``fixed`` the led suit is fixed; ``fmask`` suit-word mask of the led suit (0
    when trumps were led); ``amask`` trumps above the highest trump played; ``pos`` cards
    already in the trick, which are ``pub[PUB_TRICK_CARDS:PUB_TRICK_CARDS + pos]``.
    """
    if kind == RANDOM:
        return random_card_bits(lt, ls, st)
    c = np.int64(-1)
    if pol is not None:
        if kind == BOT_USER:
            c, st = _user_card(pol, ub, params, seat, ht, hs, pub, lt, ls, pos, st)
    if c < 0:
        c = policies_card(kind, params, seat, ht, hs, pub, lt, ls, fixed, fmask, amask,
                           pos)
    in_s = c >= 22
    bit = np.int64(1) << (c - 22 if in_s else c)
    return c, (np.int64(0) if in_s else bit), (bit if in_s else np.int64(0)), st


# The dispatchers as the deal kernel calls them: out of line (one build each, so the deal's own
# typing stays small), every scalar as a plain int64 (``I64``): a literal argument (a constant 0,
# False or -1 at one call site) would make numba build the dispatch, and the policies under it,
# once more for each such signature, each build of the card policies a good part of the cold
# compile.

@njit(inline="always")
def bot_bid(kind, params, pol, ub, seat, ht, hs, pub, highest, st):
    return _bot_bid(I64(kind), params, pol, ub, I64(seat), I64(ht), I64(hs), pub, I64(highest), st)


@njit(inline="always")
def bot_call(kind, params, pol, ub, seat, ht, hs, pub, legal_s, st):
    return _bot_call(I64(kind), params, pol, ub, I64(seat), I64(ht), I64(hs), pub, I64(legal_s), st)


@njit(inline="always")
def bot_ecart(kind, params, pol, ub, seat, ht, hs, pub, normal, cands, n_ecart, out, out_pos, st):
    return _bot_ecart(I64(kind), params, pol, ub, I64(seat), I64(ht), I64(hs), pub, I64(normal), I64(cands),
                      I64(n_ecart), out, I64(out_pos), st)


@njit(inline="always")
def bot_chelem(kind, params, pol, ub, seat, ht, hs, pub, st):
    return _bot_chelem(I64(kind), params, pol, ub, I64(seat), I64(ht), I64(hs), pub, st)


@njit(inline="always")
def bot_poignee(kind, params, pol, ub, seat, ht, hs, pub, n_levels, st):
    return _bot_poignee(I64(kind), params, pol, ub, I64(seat), I64(ht), I64(hs), pub, I64(n_levels), st)


@njit(inline="always")
def bot_misere(kind, params, pol, ub, seat, ht, hs, pub, which, st):
    return _bot_misere(I64(kind), params, pol, ub, I64(seat), I64(ht), I64(hs), pub, I64(which), st)


@njit(inline="always")
def bot_card_bits(kind, params, pol, ub, seat, ht, hs, pub, lt, ls, fixed, fmask, amask, pos, st):
    return _bot_card_bits(I64(kind), params, pol, ub, I64(seat), I64(ht), I64(hs), pub, I64(lt), I64(ls), I64(fixed),
                          I64(fmask), I64(amask), I64(pos), st)


#: The bots build's decisions, handed to the deal kernel's factory (``tarotsim/_builds/deal.py``).
DISPATCH = BotDispatch(bid=bot_bid, call=bot_call, ecart=bot_ecart, chelem=bot_chelem, poignee=bot_poignee,
                       misere=bot_misere, card=bot_card_bits)


# --- compiled entry points for the slow path (tarotsim.adapters.FastBotAdapter) ------------------
# One per decision, over the very functions the deal kernel calls; ``st`` is the bots-stream state
# (uint64) and the new state is returned with the choice. ``pol``: None (the adapter calls a
# user's policy set itself).

@njit(cache=True)
def decide_bid(kind, params, pol, seat, ht, hs, pub, highest, st):
    ub = np.zeros(U_LEN, dtype=np.int64)
    return bot_bid(kind, params, pol, ub, seat, ht, hs, pub, highest, st)


@njit(cache=True)
def decide_call(kind, params, pol, seat, ht, hs, pub, legal_s, st):
    ub = np.zeros(U_LEN, dtype=np.int64)
    return bot_call(kind, params, pol, ub, seat, ht, hs, pub, legal_s, st)


@njit(cache=True)
def decide_ecart(kind, params, pol, seat, ht, hs, pub, normal, cands, n_ecart, out, st):
    ub = np.zeros(U_LEN, dtype=np.int64)
    return bot_ecart(kind, params, pol, ub, seat, ht, hs, pub, normal, cands, n_ecart, out, 0, st)


@njit(cache=True)
def decide_chelem(kind, params, pol, seat, ht, hs, pub, st):
    ub = np.zeros(U_LEN, dtype=np.int64)
    return bot_chelem(kind, params, pol, ub, seat, ht, hs, pub, st)


@njit(cache=True)
def decide_poignee(kind, params, pol, seat, ht, hs, pub, n_levels, st):
    ub = np.zeros(U_LEN, dtype=np.int64)
    return bot_poignee(kind, params, pol, ub, seat, ht, hs, pub, n_levels, st)


@njit(cache=True)
def decide_misere(kind, params, pol, seat, ht, hs, pub, which, st):
    ub = np.zeros(U_LEN, dtype=np.int64)
    return bot_misere(kind, params, pol, ub, seat, ht, hs, pub, which, st)


@njit(cache=True)
def decide_card(kind, params, pol, seat, ht, hs, pub, lt, ls, fixed, fmask, amask, pos, st):
    ub = np.zeros(U_LEN, dtype=np.int64)
    c, bt, bs, st = bot_card_bits(kind, params, pol, ub, seat, ht, hs, pub, lt, ls, fixed, fmask, amask, pos, st)
    return c, st


# the cache guard (``tarotsim._kernels._cache``): these kernels inline the engine and the policies
guard_cache("bots-dispatch", (decide_bid, decide_call, decide_ecart, decide_chelem, decide_poignee, decide_misere, decide_card),
            engine_sources() + sorted(Path(__file__).resolve().parent.glob("*.py")))
