"""The observation a bot rebuilds from its view equals the environment's (``env.view_observation``).

A bot inside the deal kernel (``pimc``'s search) sees its hand, its écart and the public view with
its history; the models read the environment's observation (``env._fill_obs``). Deals of random
legal actions at every table, with the misères allowed: at every card decision both are filled
and compared entry by entry.
"""

import numpy as np
import pytest
from numba import njit

from tarotsim._kernels.env import (E_KIND, E_PICK_S, E_PICK_T, E_POS, E_SEAT, K_CARD, K_DONE, _apply, _begin,
                                   _fill_mask, _fill_obs, new_state, view_observation)
from tarotsim._kernels.workspace import B_PUB, PUB_LEN, WS_HS, WS_HT
from tarotsim.actions import N_ACTIONS
from tarotsim.observations import OBS_DTYPE, OBS_LEN
from tarotsim.rules import Rules

POLICIES = True  # the bots' history in the public view, as in a deal with a bot seat


@njit
def _mismatches(rv, seed, n_deals, buf, log, e, out):
    """Play ``n_deals`` deals of random legal actions; count the card decisions and the mismatches."""
    mask = np.zeros(N_ACTIONS, dtype=np.bool_)
    a_obs = np.zeros(OBS_LEN, dtype=OBS_DTYPE)
    b_obs = np.zeros(OBS_LEN, dtype=OBS_DTYPE)
    x = np.uint64(seed) * np.uint64(6364136223846793005) + np.uint64(1442695040888963407)
    decisions = 0
    bad = 0
    for index in range(n_deals):
        _begin(rv, seed, index, buf, log, e)
        while e[E_KIND] != K_DONE:
            seat = e[E_SEAT]
            _fill_mask(rv, buf, e, mask)
            if e[E_KIND] == K_CARD:
                _fill_obs(rv, buf, log, e, seat, a_obs)
                pub = buf[B_PUB:B_PUB + PUB_LEN]
                view_observation(rv, seat, buf[WS_HT + seat], buf[WS_HS + seat], e[E_PICK_T], e[E_PICK_S], pub,
                                 e[E_POS], b_obs)
                decisions += 1
                for k in range(OBS_LEN):
                    if a_obs[k] != b_obs[k]:
                        if bad < out.shape[0]:
                            out[bad] = k
                        bad += 1
                        break
            legal = 0
            for a in range(N_ACTIONS):
                legal += mask[a]
            x ^= x << np.uint64(13)
            x ^= x >> np.uint64(7)
            x ^= x << np.uint64(17)
            pick = np.int64(x % np.uint64(legal))
            for a in range(N_ACTIONS):
                if mask[a]:
                    if pick == 0:
                        _apply(rv, buf, log, e, a, POLICIES)
                        break
                    pick -= 1
    return decisions, bad


@pytest.mark.parametrize("table", ["3", "4", "5", "5d"])
def test_the_observation_rebuilt_from_a_bots_view_equals_the_environments(table):
    rv = Rules(table, misere=True).to_vector()
    bufs, logs, est, _ = new_state(1)
    out = np.zeros(8, dtype=np.int64)
    decisions, bad = _mismatches(rv, 11, 300, bufs[0], logs[0], est[0], out)
    assert decisions > 300 * 10
    assert bad == 0, f"{bad} card decisions differ, first at observation entries {out[:min(bad, 8)]}"
