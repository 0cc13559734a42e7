"""``strong``: an alias of the frontier's best setting within its time (``bots.ALIASES``), usable
wherever bots are named, listed by ``tarotsim bots``, and the hint's bot."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from bots import ALIASES, BotError, parse_bot, parse_bots
from tarotsim.rules import TABLES, Rules
from tarotsim.runs import evening, tournament
from tarotsim.runs.players import parse_players

ROOT = Path(__file__).resolve().parent.parent
STRONG = ALIASES["strong"]


def test_strong_stands_for_its_setting_at_every_table():
    """The alias is its setting, less the parameters that do nothing at the table (R-VAR-TWO:
    ``infer`` at table 2), so that it plays at every table."""
    for table in TABLES:
        name, vec = parse_bot("strong", table)
        setting = parse_bot(STRONG.setting_at(table), table)
        assert (name, vec.tolist()) == (setting[0], setting[1].tolist())
        assert parse_bot("Strong ", table)[1].tolist() == vec.tolist()  # names are case-insensitive, as the bots'
    assert STRONG.setting_at("4") == STRONG.setting_at() == STRONG.setting
    seats = parse_bots("strong,heuristic,heuristic,heuristic", 4, "4")
    assert seats[0][0] == "pimc" and np.array_equal(seats[0][1], parse_bot(STRONG.setting)[1])


def test_an_alias_leaves_out_at_a_table_the_parameters_idle_there():
    from bots import Alias

    alias = Alias("x", "pimc:worlds=64,candidates=128,infer=1,bid_search=1", "", 10.0, 1.0, "")
    assert alias.setting_at("4") == alias.setting
    # at table 2 infer and bid_search do nothing (R-VAR-TWO), nor candidates without infer
    assert alias.setting_at("2") == "pimc:worlds=64"
    assert Alias("y", "heuristic", "", 10.0, 1.0, "").setting_at("2") == "heuristic"


def test_strong_takes_no_parameters():
    """Parameters after the alias are refused in one line naming the setting that takes them."""
    for text in ("strong:bogus=1", "strong:worlds=8", "strong:"):
        for table in (None, "2"):
            with pytest.raises(BotError) as e:
                parse_bot(text, table)
            setting = STRONG.setting_at(table)
            assert str(e.value) == (f"bot strong takes no parameters: it stands for {setting}, which takes them "
                                    f"({setting},NAME=VALUE)")


def test_the_command_line_refuses_parameters_of_strong_in_one_line(cli):
    for command in (("tournament", "--table", "4", "--deals", 2), ("simulate", "--table", "4", "--deals", 2)):
        code, out, err = cli(*command, "--bots", "strong:bogus=1,heuristic,heuristic,heuristic")
        assert (code, out) == (2, "")
        assert err == (f"tarotsim: error: bot strong takes no parameters: it stands for {STRONG.setting}, which "
                       f"takes them ({STRONG.setting},NAME=VALUE)\n")


def _result(rules: Rules, threads: int) -> dict:
    bots = ",".join(["strong"] + ["heuristic"] * (rules.n_seats - 1))
    d = tournament.run(rules, 7, 2, parse_players(bots, rules), threads=threads).to_dict()
    return {k: v for k, v in d.items() if k not in ("elapsed_s", "compile_s")}


@pytest.mark.parametrize("table", TABLES)
def test_strong_plays_at_every_table_the_same_for_any_thread_count(table):
    """A tiny duplicate tournament of ``strong`` against the heuristic: every deal played, the
    alias named in the report, the same result on one thread and on two."""
    rules = Rules(table=table)
    one = _result(rules, 1)
    assert one["seats"][0] == "strong" and [b["name"] for b in one["bots"]] == ["strong", "heuristic"]
    assert one["bots"][0]["deals"] == 2 and one["bots"][0]["plays"] > 0
    assert _result(rules, 2) == one


def test_tarotsim_bots_lists_strong_with_its_setting_and_time(cli):
    code, out, _ = cli("bots")
    assert code == 0
    line = next(x for x in out.splitlines() if x.startswith("strong "))
    assert line.startswith(f"strong     {STRONG.setting} ({STRONG.ms_per_decision:.3g} ms a card decision, one core")
    code, out, _ = cli("bots", "--json")
    entry = next(b for b in json.loads(out) if b["name"] == "strong")
    assert entry == {"name": "strong", "description": STRONG.description, "params": [], "file_params": [],
                     "alias": STRONG.setting, "ms_per_decision": STRONG.ms_per_decision, "measured_by": STRONG.command}


def test_strong_is_the_stored_frontier_s_best_setting_within_its_budget():
    """The alias's setting, its time and its command are those of the frontier run the strength
    page shows: of its settings at ``budget_ms`` a card decision or less, the strongest."""
    run = json.loads((ROOT / "benchmarks" / "frontier-4.json").read_text(encoding="utf-8"))
    within = [e for e in run["settings"] if e["ms_per_decision"] is not None and e["ms_per_decision"] <= STRONG.budget_ms]
    best = max(within, key=lambda e: e["mean"])
    assert (best["bots"], best["ms_per_decision"]) == (STRONG.setting, STRONG.ms_per_decision)
    assert STRONG.command == run["command"] and run["table"] == "4"
    assert f"{STRONG.budget_ms:g} ms a card decision or less" in STRONG.description


def test_the_search_benchmark_measures_strong_as_any_pimc_setting():
    from benchmarks.search import card_speed

    out = card_speed("4", "strong,heuristic,heuristic,heuristic", 3, 3)
    same = card_speed("4", f"{STRONG.setting},heuristic,heuristic,heuristic", 3, 3)
    assert out["bots"] == "strong,heuristic,heuristic,heuristic" and out["decisions"] > 0
    assert (out["decisions"], out["rollouts_per_decision"]) == (same["decisions"], same["rollouts_per_decision"])


@pytest.mark.parametrize("table", TABLES)
def test_the_hint_is_strong_at_every_table(table):
    """The hint's bot (play's and serve's) is ``strong`` at every table, table 2 included."""
    from tarotsim.engine import Game
    from tarotsim.rng import Rng

    assert evening.HINT_BOT == "strong"
    rules = Rules(table=table)
    name, bot = evening.hint_bot(rules)
    assert name == "strong" and np.array_equal(bot.params, parse_bot(STRONG.setting_at(table), table)[1])
    game = Game(rules, 5, 0)
    assert bot.choose(game.view(game.decision.seat), game.legal_actions(), Rng(0)) in game.legal_actions()


def test_the_first_hint_says_strong_searches_its_cards():
    """The note of the first hint names the alias and says what its bot does (``pimc``'s search)."""
    from tarotsim.cli.interactive import Session

    assert Session._thinking("strong") == "  hint: strong is thinking (it plays each card out on sampled deals)..."
    assert Session._thinking("heuristic") == "  hint: heuristic is thinking..."


def test_the_search_benchmark_refuses_parameters_of_strong_in_one_line(capsys):
    from benchmarks import search

    with pytest.raises(SystemExit) as e:
        search.main(["--bots", "strong:bogus=1,heuristic,heuristic,heuristic", "--deals", "1"])
    err = capsys.readouterr().err
    assert e.value.code == 2 and err.splitlines()[-1].endswith(
        f"error: bot strong takes no parameters: it stands for {STRONG.setting}, which takes them "
        f"({STRONG.setting},NAME=VALUE)")
