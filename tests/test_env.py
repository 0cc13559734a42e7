"""The batched environment: whole deals with kernel bots against the simulator, the same
trajectories whatever num_envs and threads, refused actions, any seat's observation. Every step
against the facade and the reference engine: tests/test_engines_conform.py."""

import numpy as np
import pytest

from tarotsim.engine import Game
from tarotsim.runs.env import IllegalActionError, VecEnv
from tarotsim.observations import observation
from tarotsim.reference import play_deal
from tarotsim.rules import Rules
from tarotsim.runs.simulate import records

TABLES = ("3", "4", "5", "5d")


def _choose(masks, index, step):
    """A deterministic choice per (deal index, step in the deal): the same action for the same
    deal whatever the slot, num_envs or threads."""
    counts = masks.sum(axis=1)
    k = (index * 2654435761 + step * 40503 + 12345) % 1000003 % counts
    return np.argmax(masks.cumsum(axis=1) > k[:, None], axis=1).astype(np.int64)


@pytest.mark.parametrize("table", TABLES)
def test_whole_deals_with_kernel_bots_are_the_simulator_deals(table):
    rules = Rules(table)
    bots = ["heuristic", "greedy", "random", "heuristic", "greedy"][:rules.n_seats]
    env = VecEnv(rules, 4, seed=3, opponents=bots, agent_seat=None)
    env.reset()
    _, _, _, terminated, _ = env.step(np.zeros(4, dtype=np.int64))
    assert terminated.all()
    assert [env.record(i) for i in range(4)] == records(rules, 3, range(4), bots=bots)


def _records_of(num_envs, threads, n_deals, rules, opponents=None):
    env = VecEnv(rules, num_envs, seed=5, opponents=opponents, threads=threads)
    _, masks, _ = env.reset()
    index = np.arange(num_envs)
    steps = np.zeros(num_envs, dtype=np.int64)
    out = {}
    while (index < n_deals).any():  # until every slot is past the first n_deals deals
        _, masks, rewards, terminated, info = env.step(_choose(masks, index, steps))
        steps += 1
        for i in np.flatnonzero(terminated):
            out[int(info["final_index"][i])] = (env.record(i), rewards[i].tolist())
        steps[terminated] = 0
        index = info["index"]
    env.close()
    return {k: out[k] for k in range(n_deals) if k in out}


@pytest.mark.parametrize("opponents", [None, "heuristic"])
def test_trajectories_are_the_same_for_any_num_envs_and_threads(opponents):
    rules = Rules("5")
    big = _records_of(1024, 1, 40, rules, opponents)
    # deals 0..39 but those that ask nobody anything, skipped (R-DEAL-4)
    assert set(range(40)) - set(big) == {k for k in range(40) if play_deal(rules, 5, k)["outcome"] == "petit_sec"}
    for num_envs, threads in ((1, 1), (7, 1), (1024, 2)):
        small = _records_of(num_envs, threads, 40, rules, opponents)
        assert small == big, (num_envs, threads)


def test_an_illegal_action_is_refused_and_nothing_is_played():
    env = VecEnv(Rules("4"), 3, seed=1)
    obs, masks, to_play = env.reset()
    actions = np.array([np.flatnonzero(m)[0] for m in masks])
    bad = actions.copy()
    bad[1] = 0  # a card at a bid
    with pytest.raises(IllegalActionError, match="slot 1"):
        env.step(bad)
    with pytest.raises(IllegalActionError):
        env.step(actions[:2])
    assert np.array_equal(env.masks, masks) and np.array_equal(env.obs, obs)
    obs2, *_ = env.step(actions)
    assert not np.array_equal(obs2, obs)


def test_observe_any_seat_equals_the_facade():
    rules = Rules("5")
    env = VecEnv(rules, 2, seed=4)
    obs, masks, _ = env.reset()
    games = [Game(rules, seed=4, index=i) for i in range(2)]
    for step in range(40):
        actions = _choose(masks, np.arange(2), np.full(2, step))
        obs, masks, _, terminated, _ = env.step(actions)
        for i in range(2):
            games[i].apply_action(int(actions[i]))
        assert not terminated.any()
        for i in range(2):
            for seat in range(5):
                assert np.array_equal(env.observe(i, seat), observation(games[i], seat)), (step, i, seat)
