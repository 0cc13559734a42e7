r"""A bot of your own on the fast path: njit functions of ``bots.policy.SIG`` (see bots/policy.py).

    tarotsim tournament --table 4 --bots examples.my_policy:POLICY,greedy,greedy,greedy \
        --deals 20000 --seed 1
"""
from numba import njit
from bots.policy import SIG, PolicySet, lowest_card, popcount


@njit(SIG, cache=True)
def bid(params, seat, hand_t, hand_s, pub, legal_t, legal_s, arg, out, rng):
    return 1 if popcount(hand_t >> 1) >= params[0] and arg < 1 else -1  # a garde with 8 trumps


@njit(SIG, cache=True)
def card(params, seat, hand_t, hand_s, pub, legal_t, legal_s, arg, out, rng):
    return lowest_card(legal_t, legal_s)


POLICY = PolicySet("eight_trumps", bid=bid, card=card, params=(8,))
