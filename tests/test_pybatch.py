"""Python bots through the batched engine: the very records of the
step-by-step reference engine (the oracle, ``slowpath.play_record``), errors included."""

import json

import pytest

from examples.my_bot import CautiousBot
from helpers_bots import Cheater, Declarer, RaisesAtItsTenthCard, ReadsTheView, ShowsItsOwnPoignee
from tarotsim.runs import pybatch, slowpath
from tarotsim.engine import BotRaisedError, IllegalPlayError, PyRandomBot
from tarotsim.runs.players import parse_players
from tarotsim.runs.runner import Runner
from tarotsim.rules import Rules

OPTIONS = {"misere": True, "called_suit_after_excuse": "restricted", "poignee_ecart_trumps": False}
KERNEL_SEATS = [("random", ()), ("greedy", ()), ("heuristic", ()), ("greedy", ()), ("random", ())]


def _seats(rules, python_bots):
    """Python bots at the first seats, kernel bots (random, greedy, heuristic) at the others."""
    n = rules.n_seats
    seats = list(python_bots) + KERNEL_SEATS[len(python_bots):n]
    return seats[:n]


def _slow(seats):
    from tarotsim.adapters import FastBotAdapter

    return [FastBotAdapter(s[0]) if isinstance(s, tuple) else s for s in seats]


@pytest.mark.parametrize("table", ["3", "4", "5", "5d"])
@pytest.mark.parametrize("options", [{}, OPTIONS])
def test_python_bots_batched_give_the_reference_engines_records(table, options):
    """Every decision kind (R-BID-2, R-CALL-1, R-CHIEN-2, R-SLAM-1, R-POIG-1, R-MIS-1, R-PLAY-4a and every other rule of a decision)
    answered by Python bots inside the env kernel: the records equal the slow path's deal for
    deal, the bots stream shared with the kernel bots (Declarer and PyRandomBot draw from it)."""
    rules = Rules(table, **options)
    bots = [Declarer(), CautiousBot(), ReadsTheView(), PyRandomBot()][:rules.n_seats - 1]
    seats = _seats(rules, bots)
    assert pybatch.batchable(rules, seats)
    indices = range(40, 100)
    got = pybatch.play_records(rules, 9, indices, seats, _slow(seats))
    want = [slowpath.play_record(rules, 9, i, _slow(seats)) for i in indices]
    assert got == want


def test_a_poignee_of_the_bots_own_cards_sends_its_deal_to_the_reference_engine(monkeypatch):
    """R-POIG-3: cards of the bot's own choosing are not the kernels' lowest trumps: that deal is
    played step by step, the others in the kernel, all equal to the slow path."""
    rules = Rules("4")
    seats = [ShowsItsOwnPoignee()] * 4
    want = [slowpath.play_record(rules, 3, i, seats) for i in range(200)]
    shown = [i for i, r in enumerate(want) if any(d["kind"] == "poignee" for d in r.get("declarations", []))]
    stepped = []

    def play_record(rules, seed, index, players, forced=None):
        stepped.append(index)
        return want[index]

    monkeypatch.setattr(slowpath, "play_record", play_record)
    assert pybatch.play_records(rules, 3, range(200), seats, seats) == want
    assert shown and stepped == shown


def test_an_illegal_answer_raises_the_reference_engines_error():
    """R-PLAY-6: the Cheater's illegal card is refused with the slow path's very message."""
    rules = Rules("4")
    seats = _seats(rules, [Cheater()])
    with pytest.raises(IllegalPlayError) as slow:
        for i in range(20):
            slowpath.play_record(rules, 1, i, _slow(seats))
    with pytest.raises(IllegalPlayError) as fast:
        pybatch.play_records(rules, 1, range(20), seats, _slow(seats))
    assert str(fast.value) == str(slow.value) and fast.value.rule_id == slow.value.rule_id


def test_a_bot_that_raises_stops_the_run_naming_the_first_such_deal():
    rules = Rules("3")
    seats = _seats(rules, [RaisesAtItsTenthCard()])
    with pytest.raises(BotRaisedError) as slow:
        for i in range(5, 30):
            slowpath.play_record(rules, 2, i, _slow(seats))
    with pytest.raises(BotRaisedError) as fast:
        pybatch.play_records(rules, 2, range(5, 30), seats, _slow(seats))
    assert str(fast.value) == str(slow.value)


def test_runner_chooses_the_batched_engine_for_python_bots_and_keeps_the_facts():
    rules = Rules("5")
    players = parse_players("examples.my_bot:CautiousBot,greedy,heuristic,random,helpers_bots:Declarer", rules)
    runner = Runner(rules, 4, players)
    assert runner.batched and not runner.fast
    facts, recs = runner.block(10, 60, with_records=True)
    assert recs == [slowpath.play_record(rules, 4, i, runner.bots) for i in range(10, 60)]
    assert (facts == slowpath.facts(rules, 4, 10, 60, runner.bots)).all()


@pytest.mark.parametrize("bots,table,forced", [
    ("helpers_bots:Sequential,greedy,greedy,greedy", "4", None),     # a bot that wants deal order
    ("examples.my_bot:CautiousBot,pimc,greedy,greedy", "4", None),   # pimc is no env-kernel opponent
    ("examples.my_bot:CautiousBot,examples.my_policy:POLICY,greedy,greedy", "4", None),  # a policy set
    ("examples.my_bot:CautiousBot,greedy", "2", None),               # table 2 (R-VAR-TWO)
    ("examples.my_bot:CautiousBot,greedy,greedy,greedy", "4", (1, "garde")),
])
def test_runner_keeps_the_step_by_step_engine_where_the_batch_cannot_play(bots, table, forced):
    rules = Rules(table)
    runner = Runner(rules, 1, parse_players(bots, rules), forced=forced)
    assert not runner.batched and not runner.fast


def test_the_python_bot_benchmark_plays_both_engines_to_the_same_results(capsys):
    from benchmarks import pybots

    assert pybots.main(["--deals", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["same_results"] is True and out["deal_plays"] == 12
