"""`tarotsim tournament` and bots on both paths, as a user runs them."""

import json
import math

import pytest

from tarotsim.rules import Rules
from tarotsim.stats import t_quantile
from tarotsim.runs.tournament import MIN_VERDICT_DEALS, Entry, format_result, run, verdict


def test_identical_bots_under_two_names_cancel_exactly_in_duplicate():
    """Same bot, two labels: every rotation plays the same game, so each bot's deal total is 0."""
    es = [Entry("a", "random"), Entry("b", "random"), Entry("a", "random"), Entry("a", "random")]
    res = run(Rules("4"), 3, 3000, es)
    for b in res.bots:
        assert b["mean"] == 0 and b["ci_low"] == 0 and b["ci_high"] == 0
    assert res.pairs[0]["mean"] == 0
    # deals count the units (each deal once); plays count seat-plays (once per rotation and seat)
    assert {b["name"]: b["deals"] for b in res.bots} == {"a": 3000, "b": 3000}
    assert {b["name"]: b["plays"] for b in res.bots} == {"a": 3 * 4 * 3000, "b": 4 * 3000}


def test_no_duplicate_plays_each_deal_once_in_a_rotation():
    es = [Entry("a", "random"), Entry("b", "random"), Entry("c", "random")]
    res = run(Rules("3"), 3, 3000, es, duplicate=False)
    assert sum(b["plays"] for b in res.bots) == 3 * 3000
    assert all(b["units"] == b["deals"] == 3000 for b in res.bots)
    assert all(b["ci_low"] <= b["mean"] <= b["ci_high"] for b in res.bots)
    assert "no duplicate" in format_result(res)


def test_5d_dummy_seat_plays_are_not_counted():
    es = [Entry("a", "random"), Entry("b", "random"), Entry("b", "random"), Entry("b", "random"),
          Entry("b", "random")]
    res = run(Rules("5d"), 1, 500, es)
    a = next(b for b in res.bots if b["name"] == "a")
    assert a["plays"] == 500 * 4  # sits out one rotation in five
    assert a["deals"] == 500  # but plays in every deal


def test_tournament_json_fields(cli):
    code, out, _ = cli("tournament", "--table", "4", "--bots", "random,random,random,tarotsim.engine:PyRandomBot",
                       "--deals", "40", "--seed", "5", "--json")
    d = json.loads(out)
    assert code == 0 and d["seed"] == 5 and d["duplicate"] is True
    for b in d["bots"]:
        assert {"name", "mean", "ci_low", "ci_high", "deals", "plays", "units"} <= set(b)
        assert b["deals"] == 40 and b["plays"] == 40 * 4 * d["seats"].count(b["name"])
    assert {"a", "b", "mean", "ci_low", "ci_high", "units", "verdict"} <= set(d["pairs"][0])
    # the Python twin of the random bot plays the kernels' deals exactly: nothing to tell them apart
    assert all(b["mean"] == 0 for b in d["bots"]) and d["pairs"][0]["mean"] == 0


def test_tournament_readable(cli):
    code, out, _ = cli("tournament", "--table", "3", "--bots", "random,random,tarotsim.engine:PyRandomBot",
                       "--deals", "30", "--seed", "2")
    assert code == 0 and "95% CI" in out and "paired differences" in out and "seed 2" in out


@pytest.mark.parametrize("argv,needle", [
    (["--bots", "random,random,random,random"], "at least two different bots"),
    (["--bots", "random,random"], "seats 4 players"),
    (["--bots", "alphago,random,random,random"], "alphago"),
    (["--bots", "nosuchmodule.sub:Bot,random,random,random"], "cannot import"),
    (["--bots", "helpers_bots:NoChoose,random,random,random"], "choose"),
    (["--bots", "helpers_bots:Cheater,random,random,random", "--deals", "20", "--seed", "4"], "cheater"),
])
def test_tournament_bad_input_one_line_exit_2(cli, argv, needle):
    code, out, err = cli("tournament", "--table", "4", *argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and needle in err and "Traceback" not in err


def test_illegal_user_bot_names_bot_deal_and_rule(cli):
    code, _, err = cli("simulate", "--table", "4", "--bots", "helpers_bots:Cheater", "--deals", "5",
                       "--seed", "4")
    assert code == 2 and "cheater" in err and "deal (4, " in err and "(R-" in err


def test_user_bot_example_from_the_readme(cli):
    code, out, _ = cli("simulate", "--table", "4", "--bots", "examples.my_bot:CautiousBot", "--deals",
                       "20", "--seed", "1", "--json")
    d = json.loads(out)
    assert code == 0 and d["deals"] == 20 and d["bots"] == "examples.my_bot:CautiousBot"
    assert not math.isnan(d["mean_score"][0])


def test_python_random_bot_gives_the_fast_path_summary(cli):
    _, fast, _ = cli("simulate", "--table", "5", "--deals", "60", "--seed", "8", "--json", "--bots", "random")
    _, slow, _ = cli("simulate", "--table", "5", "--deals", "60", "--seed", "8", "--json",
                     "--bots", "tarotsim.engine:PyRandomBot")
    f, s = json.loads(fast), json.loads(slow)
    for key in ("taken", "made", "mean_score", "petit_au_bout", "chelems", "thrown_in", "annulled"):
        assert f[key] == s[key]


@pytest.mark.parametrize("table", ["3", "4", "5"])
@pytest.mark.parametrize("better,worse", [("heuristic", "greedy"), ("greedy", "random")])
def test_acceptance_stronger_bot_wins_duplicate_with_separate_intervals(table, better, worse):
    """Issue 4 acceptance on a fixed seed: one stronger bot against the weaker one in every
    other seat, duplicate; the per-bot 95% intervals do not overlap and the paired difference is
    positive with its whole interval."""
    n = Rules(table).n_seats
    entries = [Entry(better, better)] + [Entry(worse, worse)] * (n - 1)
    res = run(Rules(table), 2024, 4000, entries)
    b = {x["name"]: x for x in res.bots}
    assert b[better]["ci_low"] > b[worse]["ci_high"]
    pair = res.pairs[0]
    sign = 1 if pair["a"] == better else -1
    assert sign * pair["mean"] > 0 and min(sign * pair["ci_low"], sign * pair["ci_high"]) > 0


# ---------------------------------------------------------------------------------------------
# statistics: Student t intervals over deals, and no verdict on a tiny sample


def test_two_deals_get_an_interval_but_no_verdict(cli):
    """Heuristic against random over 2 deals: a large difference, but 2 deals decide nothing."""
    code, out, _ = cli("tournament", "--table", "4", "--bots", "heuristic,random,random,random",
                       "--deals", "2", "--seed", "1")
    assert code == 0 and "too few deals for a verdict: 2 < 30" in out
    assert "(significant)" not in out and "(not significant)" not in out
    code, out, _ = cli("tournament", "--table", "4", "--bots", "heuristic,random,random,random",
                       "--deals", "2", "--seed", "1", "--json")
    d = json.loads(out)
    assert d["pairs"][0]["verdict"] == "too few deals" and d["min_deals_for_verdict"] == MIN_VERDICT_DEALS


def test_interval_half_width_is_the_t_quantile_with_n_minus_1_degrees_of_freedom():
    res = run(Rules("4"), 11, 5, [Entry("greedy", "greedy")] + [Entry("random", "random")] * 3)
    t4 = t_quantile(0.975, 4)
    assert abs(t4 - 2.776445) < 1e-6
    for x in res.bots + res.pairs:
        half = (x["ci_high"] - x["ci_low"]) / 2
        assert x["sd"] > 0 and math.isclose(half, t4 * x["sd"] / math.sqrt(5), rel_tol=1e-12)


@pytest.mark.parametrize("units,low,high,expected", [
    (MIN_VERDICT_DEALS - 1, 5.0, 9.0, "too few deals"),
    (MIN_VERDICT_DEALS, 5.0, 9.0, "significant"),
    (MIN_VERDICT_DEALS, -9.0, -5.0, "significant"),
    (MIN_VERDICT_DEALS, -1.0, 3.0, "not significant"),
    (10**6, math.nan, math.nan, "too few deals"),
])
def test_verdict(units, low, high, expected):
    assert verdict(units, low, high) == expected


def test_stronger_bot_is_significant_from_enough_deals():
    res = run(Rules("4"), 5, 200, [Entry("heuristic", "heuristic")] + [Entry("random", "random")] * 3)
    assert res.pairs[0]["verdict"] == "significant"
    assert "(significant)" in format_result(res)


def test_json_has_no_nan_when_a_bot_plays_a_single_deal():
    """5d without duplicate: bot a is the dummy of deal 0 and plays deal 1 only, so it has a mean
    but no interval; the JSON says null, never NaN."""
    es = [Entry("a", "random")] + [Entry("b", "random")] * 4
    res = run(Rules("5d"), 1, 2, es, duplicate=False)
    d = json.loads(json.dumps(res.to_dict(), allow_nan=False))
    a = next(b for b in d["bots"] if b["name"] == "a")
    assert a["deals"] == 1 and a["mean"] is not None and a["ci_low"] is None and a["sd"] is None
    assert d["pairs"][0]["verdict"] == "too few deals"


def test_the_library_plays_a_python_bot_on_the_slow_path_by_itself():
    """No callback from the CLI: a seat whose bot is a Python object is played step by step, and
    the Python random bot gives exactly the kernels' random bot's deals."""
    from tarotsim.engine import PyRandomBot
    from tarotsim.runs.players import Player

    slow = run(Rules("4"), 3, 40, [Player("py", "py", obj=PyRandomBot())] + [Entry("random", "random")] * 3)
    fast = run(Rules("4"), 3, 40, [Entry("py", "random")] + [Entry("random", "random")] * 3)
    assert slow.pairs == fast.pairs and slow.bots == fast.bots


def test_a_block_of_a_tournament_is_shared_between_its_threads(monkeypatch):
    """Runner.block cuts its block into one chunk per thread: a block of a tournament (20,000
    deals) in one chunk of the kernels' size (65,536) would run on one core whatever --threads."""
    from tarotsim.runs import simulate as sim
    from tarotsim.runs.players import parse_players
    from tarotsim.runs.runner import Runner

    calls = []
    real = sim.facts

    def facts(*a, **k):
        calls.append((k["threads"], k["chunk_size"]))
        return real(*a, **k)

    monkeypatch.setattr(sim, "facts", facts)
    r = Rules("4")
    for threads in (1, 2, 3):
        Runner(r, 1, parse_players("greedy,random,random,random", r), threads).block(0, 1000)
    assert calls == [(1, 1000), (2, 500), (3, 334)]
