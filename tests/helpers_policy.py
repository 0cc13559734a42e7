"""Policy sets for the tests.

Policy sets (``bots.policy``) for the tests: ``RANDOM`` mirrors the built-in ``random`` bot
draw for draw (docs/engine-contract.md), so its deals must be the random bot's deals; the
``CHEATS`` each break one rule at one kind of decision; ``RARE_CHEAT`` breaks one only sometimes."""

from __future__ import annotations

import numpy as np
from numba import njit

from bots.policy import SIG, PolicySet, draw_below, lowest_card, popcount


@njit(inline="always")
def _kth(t, s, k):
    """The k-th card (by id) of the masks: the trump word first, then the suit word."""
    for c in range(78):
        bit = (s >> (c - 22)) & 1 if c >= 22 else (t >> c) & 1
        if bit:
            if k == 0:
                return c
            k -= 1
    return -1


@njit(SIG, cache=True)
def random_bid(params, seat, hand_t, hand_s, pub, legal_t, legal_s, arg, out, rng):
    k = draw_below(rng, 4 - arg)
    return -1 if k == 0 else arg + k


@njit(SIG, cache=True)
def random_call(params, seat, hand_t, hand_s, pub, legal_t, legal_s, arg, out, rng):
    return _kth(0, legal_s, draw_below(rng, popcount(legal_s)))


@njit(SIG, cache=True)
def random_ecart(params, seat, hand_t, hand_s, pub, legal_t, legal_s, arg, out, rng):
    n_normal = popcount(legal_s)
    if n_normal >= arg:
        rem = legal_s
        for i in range(arg):
            c = _kth(0, rem, draw_below(rng, n_normal - i))
            rem &= ~(np.int64(1) << (c - 22))
            out[i] = c
        return arg
    for i in range(n_normal):
        out[i] = _kth(0, legal_s, i)
    rem = legal_t
    for i in range(arg - n_normal):
        c = _kth(rem, 0, draw_below(rng, popcount(legal_t) - i))
        rem &= ~(np.int64(1) << c)
        out[n_normal + i] = c
    return arg


@njit(SIG, cache=True)
def random_yes(params, seat, hand_t, hand_s, pub, legal_t, legal_s, arg, out, rng):
    return draw_below(rng, 2)


@njit(SIG, cache=True)
def random_poignee(params, seat, hand_t, hand_s, pub, legal_t, legal_s, arg, out, rng):
    return draw_below(rng, arg + 1)


@njit(SIG, cache=True)
def random_card(params, seat, hand_t, hand_s, pub, legal_t, legal_s, arg, out, rng):
    return _kth(legal_t, legal_s, draw_below(rng, popcount(legal_t) + popcount(legal_s)))


RANDOM = PolicySet("policy_random", bid=random_bid, call=random_call, ecart=random_ecart, chelem=random_yes,
                   poignee=random_poignee, misere=random_yes, card=random_card)


def plain_bid(params, seat, hand_t, hand_s, pub, legal_t, legal_s, arg, out, rng):
    """Not decorated: a PolicySet compiles it for SIG."""
    return 0 if arg < 0 and popcount(hand_t) >= params[0] else -1


PLAIN = PolicySet("plain", bid=plain_bid, params=(6,))


# --- cheats: each decision answered with what the rules forbid --------------------------------

@njit(SIG, cache=True)
def take_garde_contre(params, seat, hand_t, hand_s, pub, legal_t, legal_s, arg, out, rng):
    return 3 if arg < 3 else -1


@njit(SIG, cache=True)
def bid_nine(params, seat, hand_t, hand_s, pub, legal_t, legal_s, arg, out, rng):
    return 9


@njit(SIG, cache=True)
def lowest_in_hand(params, seat, hand_t, hand_s, pub, legal_t, legal_s, arg, out, rng):
    return lowest_card(hand_t, hand_s)


@njit(SIG, cache=True)
def ecart_kings(params, seat, hand_t, hand_s, pub, legal_t, legal_s, arg, out, rng):
    # the kings and the highest cards first: a king is banned from the écart (R-CHIEN-2)
    k = 0
    for c in range(77, 21, -1):
        if (hand_s >> (c - 22)) & 1 and k < arg:
            out[k] = c
            k += 1
    return arg


@njit(SIG, cache=True)
def garde(params, seat, hand_t, hand_s, pub, legal_t, legal_s, arg, out, rng):
    return 1 if arg < 1 else -1


@njit(SIG, cache=True)
def always_triple(params, seat, hand_t, hand_s, pub, legal_t, legal_s, arg, out, rng):
    return 3


@njit(SIG, cache=True)
def call_trump(params, seat, hand_t, hand_s, pub, legal_t, legal_s, arg, out, rng):
    return 21


@njit(SIG, cache=True)
def lowest_in_hand_with_t19_to_t21(params, seat, hand_t, hand_s, pub, legal_t, legal_s, arg, out, rng):
    # wrong only sometimes: the lowest card of its hand while it holds trumps 19, 20 and 21
    if (hand_t >> 19) & 7 == 7:
        return lowest_card(hand_t, hand_s)
    return lowest_card(legal_t, legal_s)


#: breaks R-PLAY-4 in about one deal in a hundred (a bot wrong only sometimes)
RARE_CHEAT = PolicySet("rare_cheat", card=lowest_in_hand_with_t19_to_t21)

CHEATS = {
    "card": PolicySet("cheat_card", card=lowest_in_hand),
    "bid": PolicySet("cheat_bid", bid=bid_nine),
    "ecart": PolicySet("cheat_ecart", bid=garde, ecart=ecart_kings),
    "poignee": PolicySet("cheat_poignee", poignee=always_triple),
    "call": PolicySet("cheat_call", bid=take_garde_contre, call=call_trump),
}


# --- misbehaving functions: an exception, an out-of-bounds write, a loop that never ends ------

@njit(SIG, cache=True)
def divide_by_zero_at_trick_3(params, seat, hand_t, hand_s, pub, legal_t, legal_s, arg, out, rng):
    if popcount(hand_t) + popcount(hand_s) == 15:  # its fourth card at table 4 (18 cards)
        return 10 // (arg - arg)
    return lowest_card(legal_t, legal_s)


@njit(SIG, cache=True)
def write_past_out(params, seat, hand_t, hand_s, pub, legal_t, legal_s, arg, out, rng):
    out[out.shape[0] + seat] = 1  # one past the end of the écart array, or further
    return lowest_card(legal_t, legal_s)


@njit(SIG, cache=True)
def loop_forever(params, seat, hand_t, hand_s, pub, legal_t, legal_s, arg, out, rng):
    k = np.int64(1)
    while k != 0:  # k is never 0: the function never returns
        k = (k * 3 + 1) % 1000003 + 1
        out[0] = k
    return lowest_card(legal_t, legal_s)


MISBEHAVING = {
    "raises": PolicySet("divider", card=divide_by_zero_at_trick_3),
    "out_of_bounds": PolicySet("scribbler", card=write_past_out),
    "loops": PolicySet("looper", card=loop_forever),
}
