"""One seat value from the command line to the kernels: the one ``--bots`` grammar
(``bots.split_bots``), the one normaliser of the library's ``bots=`` values
(``tarotsim.runs.players.seats``), a command that parses its ``--bots`` once, and the one runner
(``tarotsim.runs.runner.Runner``) whose blocks, totals and written runs agree."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pytest

import bots
from bots import REGISTRY, BotError, parse_bots, split_bots
from tarotsim.runs import shards
from tarotsim.runs import simulate as sim
from tarotsim.runs.players import Player, PlayersError, parse_players, seats
from tarotsim.record import dumps, with_seat_labels
from tarotsim.rules import Rules
from tarotsim.runs.runner import FAST_BLOCK, SLOW_BLOCK, Runner

R4 = Rules(table="4")
ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("text,segments", [
    ("heuristic", ["heuristic"]),
    ("heuristic,random,random,random", ["heuristic", "random", "random", "random"]),
    ("heuristic:garde=56,prise=40,random", ["heuristic:garde=56,prise=40", "random"]),
    (" greedy:prise=8 , HEURISTIC:garde=50,hunt=4 ,random", ["greedy:prise=8", "HEURISTIC:garde=50,hunt=4", "random"]),
    ("examples.my_policy:POLICY,heuristic", ["examples.my_policy:POLICY", "heuristic"]),
])
def test_the_bots_grammar_gives_one_text_per_bot(text, segments):
    assert split_bots(text) == segments


@pytest.mark.parametrize("text,needle", [
    ("", "no bot given"), ("heuristic,,random", "empty bot name"), ("garde=56,heuristic", "comes before any bot"),
])
def test_a_text_that_breaks_the_grammar_is_one_line_everywhere(text, needle):
    with pytest.raises(BotError) as e:
        split_bots(text)
    assert needle in str(e.value) and "\n" not in str(e.value)
    with pytest.raises(PlayersError) as e2:  # the command line's parser says the same, naming --bots
        parse_players(text, R4)
    assert str(e2.value) == f"--bots: {e.value}"


@pytest.mark.parametrize("text", ["heuristic", "heuristic:garde=56,prise=40,random,greedy:prise=7,random",
                                  "pimc:worlds=8,heuristic,heuristic,heuristic"])
def test_the_registry_and_the_players_read_a_text_alike(text):
    registered = parse_bots(text, 4)
    players = parse_players(text, R4)
    assert [p.name for p in players] == [name for name, _ in registered]
    assert all(np.array_equal(p.row(), vec) for p, (_, vec) in zip(players, registered))


def test_seats_takes_every_form_and_passes_players_through():
    players = parse_players("heuristic:garde=50,greedy,greedy:prise=7,random", R4)
    assert all(a is b for a, b in zip(seats(R4, players), players))
    h = REGISTRY["heuristic"].vector(garde=50)
    forms = [players, "heuristic:garde=50,greedy,greedy:prise=7,random",
             [("heuristic", h), "greedy", ("greedy", {"prise": 7}), "random"]]
    rows = [[p.row() for p in seats(R4, f)] for f in forms]
    assert all(np.array_equal(a, b) for r in rows[1:] for a, b in zip(r, rows[0]))
    assert [p.code for p in seats(R4, forms[2])] == [2, 1, 1, 0]
    # one entry for every seat; a short vector completed with the defaults
    one = seats(R4, ("heuristic", [39.0]))
    assert len(one) == 4 and one[0].row()[0] == 39 and one[0].row()[1] == REGISTRY["heuristic"].params[1].default
    with pytest.raises(BotError, match="3 bots for a table of 4"):
        seats(R4, ["random"] * 3)


def test_a_player_row_is_its_bots_defaults_completed():
    assert np.array_equal(Player("greedy", "greedy").row(), REGISTRY["greedy"].vector())
    assert np.array_equal(Player("h", "heuristic", (41.0,)).row()[:2], [41.0, REGISTRY["heuristic"].vector()[1]])


def test_the_kernels_refuse_a_python_bot_by_its_seat(monkeypatch):
    monkeypatch.chdir(ROOT)
    players = parse_players("random,examples.my_bot:CautiousBot,random,random", R4)
    with pytest.raises(BotError, match="seat 1 plays a Python bot"):
        sim.bot_setup(R4, players)


@pytest.fixture
def split_calls(monkeypatch):
    """How many times the --bots grammar splits a text (each parse of --bots splits once)."""
    calls = []
    real = bots.split_bots

    def counted(text):
        calls.append(text)
        return real(text)

    monkeypatch.setattr(bots, "split_bots", counted)
    return calls


@pytest.mark.parametrize("argv", [
    ["simulate", "--deals", "300", "--bots", "heuristic:garde=50,random,random,random"],
    ["simulate", "--deals", "300", "--bots", "greedy", "--records", "{tmp}/r.jsonl", "--facts", "{tmp}/f.csv"],
    ["tournament", "--deals", "40", "--bots", "greedy,random,random,random"],
    ["study", "bidding", "--deals", "200", "--bots", "greedy"],
])
def test_a_command_parses_its_bots_once(cli, tmp_path, split_calls, argv):
    code, out, err = cli(*[a.format(tmp=tmp_path) for a in argv], "--seed", "3", "--json", "--threads", "1")
    assert code in (0, None), err
    assert len(split_calls) == 1, split_calls


def test_a_job_keeps_the_seats_it_was_given(split_calls):
    players = parse_players("greedy,random,random,random", R4)
    job = shards.Job.of("simulate", R4, 1, 0, 10, "greedy,random,random,random", players=players)
    assert job.players() is not players and all(a is b for a, b in zip(job.players(), players))
    assert len(split_calls) == 1  # parse_players' own: the job parsed nothing
    assert job.config()["seats"][0] == {"label": "greedy", "bot": "greedy", "params": list(players[0].params)}


def _written(runner, a, b):
    facts, records = io.StringIO(), io.StringIO()
    acc = runner.write(a, b, facts=sim.CsvFacts(facts, runner.rules, runner.seed), records=records)
    return acc, facts.getvalue(), records.getvalue().splitlines()


@pytest.mark.parametrize("text,deals", [("greedy,random,heuristic,random", 1200),
                                        ("random,examples.my_bot:CautiousBot,random,random", 30)])
def test_the_runner_writes_the_blocks_it_plays(monkeypatch, text, deals):
    """Runner.write, in blocks smaller than the run, writes what Runner.block plays and totals it as
    Runner.totals does (fast path, and a Python bot's slow path)."""
    import tarotsim.runs.runner as runner_module

    monkeypatch.chdir(ROOT)  # examples.my_bot

    players = parse_players(text, R4)
    runner = Runner(R4, 11, players)
    monkeypatch.setattr(runner_module, "FAST_BLOCK", 500)  # several blocks, the last one short
    monkeypatch.setattr(runner_module, "SLOW_BLOCK", 12)
    assert runner.block_size == (500 if runner.fast else 12)
    acc, csv_text, recs = _written(runner, 5, 5 + deals)
    f, expected = runner.block(5, 5 + deals, with_records=True)
    assert np.array_equal(acc, sim.accumulate(f, R4))
    assert np.array_equal(acc, runner.totals(5, 5 + deals))
    header, *rows = csv_text.splitlines()
    assert header == ",".join(sim.facts_csv_header(R4)) and len(rows) == deals
    labels = [p.label for p in players]
    assert recs == [dumps(with_seat_labels(rec, bots=labels)) for rec in expected]
    assert [json.loads(r)["index"] for r in recs] == list(range(5, 5 + deals))


def test_a_run_with_a_python_bot_goes_in_small_blocks(monkeypatch):
    monkeypatch.chdir(ROOT)
    assert FAST_BLOCK > SLOW_BLOCK
    assert Runner(R4, 1, parse_players("random", R4)).block_size == FAST_BLOCK
    assert Runner(R4, 1, parse_players("examples.my_bot:CautiousBot", R4)).block_size == SLOW_BLOCK
