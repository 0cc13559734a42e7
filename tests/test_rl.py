"""The PettingZoo adapter (the ``rl`` extra, installed in CI): PettingZoo's own
API and seed tests at tables 3, 4, 5, 5d. Its masks, observations and scores against the facade:
tests/test_engines_conform.py."""

import pytest
from pettingzoo.test import api_test, seed_test

from tarotsim.runs import rl
from tarotsim.engine import Game, IllegalPlayError
from tarotsim.rules import Rules

TABLES = ("3", "4", "5", "5d")


@pytest.mark.parametrize("table", TABLES)
def test_pettingzoo_api_test(table):
    api_test(rl.env(table, seed=3), num_cycles=400)


@pytest.mark.parametrize("table", TABLES)
def test_pettingzoo_seed_test(table):
    seed_test(lambda: rl.env(table, seed=3), num_cycles=400)


def test_an_illegal_action_is_refused_naming_the_rule():
    e = rl.env("4")
    e.reset(seed=1)
    with pytest.raises(IllegalPlayError) as err:
        e.step(0)  # a card during the auction
    assert err.value.rule_id


def test_reset_without_a_seed_plays_the_next_deal_and_petit_sec_deals_are_skipped():
    e = rl.raw_env("3", seed=8)
    seen = []
    for _ in range(30):
        e.reset()
        seen.append(e.index)
    assert seen == sorted(set(seen)) and seen[0] == 0
    skipped = sorted(set(range(seen[-1] + 1)) - set(seen))
    assert all(Game(Rules("3"), 8, i).done for i in skipped)
    assert all(not Game(Rules("3"), 8, i).done for i in seen)


def test_without_the_extra_the_error_names_the_install_command(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "pettingzoo", None)  # as if not installed
    rl._env_class.cache_clear()
    try:
        with pytest.raises(ImportError) as err:
            rl.raw_env("4")
        assert str(err.value) == "tarotsim.runs.rl needs PettingZoo and Gymnasium: pip install 'tarotsim[rl]'"
    finally:
        rl._env_class.cache_clear()


def test_the_adapter_benchmark_plays_whole_deals(capsys):
    import json

    from benchmarks import rl as bench

    assert bench.main(["--table", "5d", "--deals", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["deals"] == 2 and out["agent_steps"] > 2 * 18
