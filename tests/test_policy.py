"""A user's policy set on the fast path (``bots.policy``, DESIGN §4): typed as first-class
functions, it plugs into the compiled kernels; it plays the very deals of the slow path; a
forbidden answer stops the run with one line naming the bot, the deal and the rule."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

from helpers_policy import CHEATS, PLAIN, RANDOM
from bots.policy import DECISIONS, SIG, PolicyError, PolicySet, default_policies, policy_tuple
from tarotsim import simulate
from tarotsim.cli import cli
from tarotsim.adapters import FastBotAdapter, PolicyAdapter
from tarotsim.engine import Game, IllegalPlayError, play_game
from tarotsim.rules import Rules
from tarotsim._kernels.layout import N_BOT_PARAMS

TABLES = ("3", "4", "5", "5d")


@pytest.mark.parametrize("table", TABLES)
def test_policy_random_plays_the_random_bots_deals(table):
    """RANDOM draws exactly as the built-in random bot (engine contract): same facts, deal for deal."""
    r = Rules.from_options(table, {"misere": True})
    a = simulate.facts(r, 8, 0, 400, bots=RANDOM)
    b = simulate.facts(r, 8, 0, 400, bots="random")
    assert np.array_equal(a, b)
    mixed = [RANDOM, "random"] * 3
    assert np.array_equal(simulate.facts(r, 8, 0, 300, bots=mixed[:r.n_seats]),
                          simulate.facts(r, 8, 0, 300, bots="random"))


@pytest.mark.parametrize("table", TABLES)
def test_policy_fast_path_equals_slow_path(table):
    r = Rules(table=table)
    bots = [PLAIN, "heuristic", RANDOM, "greedy", PLAIN][:r.n_seats]
    fast = simulate.records(r, 12, range(30), bots=bots)
    for i, rec in enumerate(fast):
        players = [PolicyAdapter(b) if isinstance(b, PolicySet) else FastBotAdapter(b) for b in bots]
        assert play_game(Game(r, 12, i), players).record() == rec


def test_aggregate_with_policies_matches_facts_and_threads():
    r = Rules(table="4")
    bots = [PLAIN, "heuristic", "random", "greedy"]
    one = simulate.aggregate(r, 3, 0, 5000, bots=bots, threads=1, chunk_size=700)
    two = simulate.aggregate(r, 3, 0, 5000, bots=bots, threads=2, chunk_size=900)
    f = simulate.facts(r, 3, 0, 5000, bots=bots)
    s = simulate.summarize(f, r, 3, bots)
    for x in (two, s):
        assert one.taken == x.taken and one.made == x.made and one.mean_score == x.mean_score
    assert one.taken["prise"] > 0  # PLAIN bids a prise with 6 trumps (its parameter)


def test_policy_set_checks_its_functions():
    with pytest.raises(PolicyError, match="not a function"):
        PolicySet("x", bid=3)
    with pytest.raises(PolicyError, match=f"at most {N_BOT_PARAMS}"):
        PolicySet("x", params=tuple(range(N_BOT_PARAMS + 1)))
    with pytest.raises(PolicyError, match="does not compile"):
        PolicySet("x", card=lambda params, seat: seat)
    with pytest.raises(PolicyError, match="name"):
        PolicySet("")
    p = PolicySet("x")
    assert len(p.functions) == len(DECISIONS) == 7
    assert len(policy_tuple([p, None])) == len(default_policies()) == 35
    assert all(f.signatures == [SIG.args] for f in p.functions)


@pytest.mark.parametrize("decision,rule", [("card", "R-PLAY-4"), ("bid", "R-BID-1"), ("ecart", "R-CHIEN-2"),
                                           ("poignee", "R-POIG"), ("call", "R-CALL-1")])
def test_forbidden_answer_names_bot_deal_and_rule(decision, rule):
    table = "5" if decision == "call" else "4"
    r = Rules(table=table)
    bots = [CHEATS[decision]] + ["random"] * (r.n_seats - 1)
    with pytest.raises(IllegalPlayError) as e:
        simulate.aggregate(r, 4, 0, 3000, bots=bots)
    msg = str(e.value)
    assert f"bot cheat_{decision} at seat 0, deal (4, " in msg and rule in msg, msg
    with pytest.raises(IllegalPlayError) as e2:
        simulate.facts(r, 4, 0, 3000, bots=bots, threads=2, chunk_size=500)
    assert str(e2.value) == msg  # the first bad deal, whatever the threads


def test_cli_policy_set_and_cheater(tmp_path, monkeypatch):
    (tmp_path / "pol_mod.py").write_text(
        "from helpers_policy import CHEATS, RANDOM\nCHEAT = CHEATS['card']\nNOT_A_BOT = 3\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    run = CliRunner().invoke
    ok = run(cli, ["simulate", "--bots", "pol_mod:RANDOM", "--deals", "2000", "--seed", "3", "--json"])
    assert ok.exit_code == 0, ok.output
    ref = run(cli, ["simulate", "--bots", "random", "--deals", "2000", "--seed", "3", "--json"])
    import json
    a, b = json.loads(ok.output), json.loads(ref.output)
    assert a["taken"] == b["taken"] and a["mean_score"] == b["mean_score"]
    bad = run(cli, ["simulate", "--bots", "pol_mod:CHEAT,random,random,random", "--deals", "100", "--seed", "3"])
    assert bad.exit_code != 0 and "R-PLAY-4" in str(bad.exception) + bad.output
    t = run(cli, ["tournament", "--bots", "pol_mod:RANDOM,heuristic,random,random", "--deals", "400", "--seed", "1",
                  "--json"])
    assert t.exit_code == 0, t.output
    assert {b["name"] for b in json.loads(t.output)["bots"]} >= {"pol_mod:RANDOM", "heuristic"}


def test_readme_example_policy(monkeypatch):
    """examples/my_policy.py (the README's): a garde with 8 trumps, else pass; the lowest card."""
    from pathlib import Path

    from tarotsim.slowpath import load_user_bot
    monkeypatch.chdir(Path(__file__).resolve().parent.parent)
    pol = load_user_bot("examples.my_policy:POLICY")
    assert isinstance(pol, PolicySet) and pol.params == (8.0,)
    r = Rules(table="4")
    f = simulate.facts(r, 2, 0, 3000, bots=[pol, "greedy", "greedy", "greedy"])
    logs = simulate.logs(r, 2, range(3000), bots=[pol, "greedy", "greedy", "greedy"])
    from tarotsim._kernels import layout as L
    checked = 0
    for row, log in zip(f, logs):
        if row["outcome"] == L.OUTCOME_PETIT_SEC:
            continue
        order = [int(log[L.L_BID_SEAT + k]) for k in range(4)]
        bids = [int(log[L.L_BID + k]) for k in range(4)]
        k0 = order.index(0)
        before = max([-1] + bids[:k0])
        trumps = bin(int(log[L.L_HAND_T + 0]) >> 1).count("1")
        assert bids[k0] == (1 if trumps >= 8 and before < 1 else -1)
        checked += bids[k0] == 1
    assert checked > 10


def test_a_new_policy_set_does_not_recompile_the_kernels():
    """The kernels are typed on FunctionType(SIG), not on the user's functions (DESIGN §4)."""
    from numba import njit

    from tarotsim._builds import deal as P

    r = Rules(table="4")
    simulate.aggregate(r, 1, 0, 50, bots=[PLAIN, "random", "random", "random"])
    before = len(P.run_aggregate_bots.signatures)

    @njit(SIG)
    def never(params, seat, hand_t, hand_s, pub, legal_t, legal_s, arg, out, rng):
        return -1

    fresh = PolicySet("fresh", bid=never)
    sm = simulate.aggregate(r, 1, 0, 50, bots=[fresh, "random", "random", "random"])
    assert len(P.run_aggregate_bots.signatures) == before
    # one build for tables with policy sets (and at most one more without any)
    assert sum("FunctionType" in str(sig) for sig in P.run_aggregate_bots.signatures) == 1
    assert sm.deals == 50
