"""A user's policy set on the fast path (``bots.policy``, DESIGN §4): typed as first-class
functions, it plugs into the compiled kernels; it plays the very deals of the slow path; a
forbidden answer stops the run with one line naming the bot, the deal and the rule."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

from helpers_policy import CHEATS, PLAIN, RANDOM
from bots.policy import DECISIONS, SIG, PolicyError, PolicySet, default_policies, policy_tuple
from tarotsim.runs import simulate
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

    from tarotsim.runs.slowpath import load_user_bot
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


# --- a policy set that raises, writes out of bounds or never returns -------------------------


def test_a_raising_policy_set_stops_at_its_first_deal_naming_bot_seat_deal_and_decision():
    """The kernels pass the exception on; the first deal that raises is named, whatever the threads."""
    from helpers_policy import MISBEHAVING

    from tarotsim.engine import BotRaisedError

    r = Rules("4")
    bots = ["heuristic", MISBEHAVING["raises"], "heuristic", "heuristic"]
    with pytest.raises(BotRaisedError) as one:
        simulate.aggregate(r, 5, 0, 3000, bots=bots, threads=1)
    msg = str(one.value)
    assert msg.startswith("bot divider raised ZeroDivisionError: ") and "at seat 1, deal (5, " in msg, msg
    assert msg.endswith("(card decision)")
    with pytest.raises(BotRaisedError) as two:
        simulate.facts(r, 5, 0, 3000, bots=bots, threads=2, chunk_size=37)
    assert str(two.value) == msg
    index = one.value.index
    assert simulate.facts(r, 5, 0, index, bots=bots).size == index  # the deals before it play through
    with pytest.raises(BotRaisedError) as three:
        simulate.records(r, 5, [index + 1, index, 0], bots=bots)
    assert str(three.value) == msg


@pytest.mark.parametrize("argv", [["simulate", "--deals", "3000"], ["tournament", "--deals", "3000"],
                                  ["study", "bidding", "--deals", "3000"], ["show", "--index", "{index}"]])
def test_cli_raising_policy_set_is_one_line_exit_2(cli, tmp_path, monkeypatch, argv):
    from helpers_policy import MISBEHAVING

    (tmp_path / "bad_mod.py").write_text("from helpers_policy import MISBEHAVING\nRAISES = MISBEHAVING['raises']\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    bots = ["heuristic", MISBEHAVING["raises"], "heuristic", "heuristic"]
    with pytest.raises(Exception) as e:
        simulate.facts(Rules("4"), 5, 0, 3000, bots=bots)
    argv = [a.replace("{index}", str(e.value.index)) for a in argv]
    code, out, err = cli(*argv, "--seed", "5", "--bots", "heuristic,bad_mod:RAISES,heuristic,heuristic")
    assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith("tarotsim: error: bot divider raised ZeroDivisionError: ")
    assert ", deal (5, " in err and err.endswith("(card decision)\n")


def test_check_bots_turns_an_out_of_bounds_write_into_one_line(cli, tmp_path, monkeypatch):
    """--check-bots compiles the policy sets with numba's bounds checking (PolicySet.checked)."""
    from helpers_policy import MISBEHAVING

    checked = MISBEHAVING["out_of_bounds"].checked()
    assert checked.boundscheck and checked.checked() is checked and checked.name == "scribbler"
    (tmp_path / "oob_mod.py").write_text("from helpers_policy import MISBEHAVING\nOOB = MISBEHAVING['out_of_bounds']\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    code, out, err = cli("simulate", "--deals", "100", "--seed", "2", "--check-bots",
                          "--bots", "oob_mod:OOB,random,random,random")
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert err == ("tarotsim: error: bot scribbler raised IndexError: index is out of bounds at seat 0, "
                   "deal (2, 0) (card decision)\n")


@pytest.mark.slow
def test_a_policy_set_that_never_returns_still_stops_on_sigterm_with_outputs_untouched(tmp_path):
    """SIGTERM while the kernels are inside a user's function that loops forever: the usual line
    and exit code, the old records file as it was, no temporary file left."""
    import os
    import signal
    import subprocess
    import sys
    import time

    records = tmp_path / "r.jsonl"
    records.write_text("old\n")
    (tmp_path / "loop_mod.py").write_text("from helpers_policy import MISBEHAVING\nLOOPS = MISBEHAVING['loops']\n")
    driver = (
        "import os, signal, threading, time\n"
        "def stop_when_running():  # the kernels run in the workers, once compiled\n"
        "    while not any(t.name.startswith('tarotsim-worker') for t in threading.enumerate()):\n"
        "        time.sleep(0.05)\n"
        "    time.sleep(0.5)\n"
        "    print('signal', flush=True)\n"
        "    os.kill(os.getpid(), signal.SIGTERM)\n"
        "threading.Thread(target=stop_when_running, daemon=True).start()\n"
        "from tarotsim.cli import main\n"
        f"main(['simulate', '--deals', '1000', '--seed', '1', '--bots', 'loop_mod:LOOPS,random,random,random', "
        f"'--records', {str(records)!r}])\n")
    tests = os.path.dirname(os.path.abspath(__file__))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), tests, os.path.dirname(tests)]))
    proc = subprocess.Popen([sys.executable, "-c", driver], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env, preexec_fn=lambda: signal.signal(signal.SIGTERM, signal.SIG_DFL))
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline() == "signal\n"
        t0 = time.monotonic()
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert time.monotonic() - t0 < 60
    assert proc.returncode == 128 + signal.SIGTERM, err
    assert err == "tarotsim: stopped by SIGTERM; no output file was written\n"
    assert records.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "__pycache__") == ["loop_mod.py", "r.jsonl"]
