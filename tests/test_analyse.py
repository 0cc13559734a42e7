"""`tarotsim analyse` and ``tarotsim.analysis``: the exact cost of each card of a played deal."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from test_solver_twin import game_until

from tarotsim import interactive
from tarotsim.analysis import AnalysisError, analyse, format_analysis
from tarotsim.cards import format_points
from tarotsim.cli import cli, main
from tarotsim.rules import N_TRICKS, Rules
from tarotsim.solver import Position, Solver

LEFT = 4  # tricks played by the solver at the end of the deals below


def _finish(game, mistake: bool = False, mode: str = "points"):
    """Play ``game`` to its end with the solver's best card (for ``mode``) at every decision; with
    ``mistake``, once, the legal card that loses the most instead. Returns ``(record, the mistake or
    None)``: ``(trick, position, seat, card, cost)``."""
    solver = Solver(mode, table_bits=14)
    made = None
    while (d := game.decision) is not None:
        if d.kind != "card":
            game.apply(game.legal_actions()[0] if d.kind != "poignee" else None)
            continue
        pos = Position.from_game(game)
        sol = solver.solve(pos)
        card = sol.best[0]
        if mistake and made is None:
            worst = max(sol.card_values, key=sol.cost)
            if sol.cost(worst) > 0:
                card = worst
                made = (pos.trick_index, len(pos.trick), pos.to_move, worst, sol.cost(worst))
        game.play(card)
    return game.record(), made


def test_a_deal_played_by_the_solver_loses_nothing():
    """Every card chosen by the solver costs 0, the deal's value never moves and ends as the count."""
    for index in range(6):
        game = game_until("4", 21, index, "garde", "heuristic", LEFT, 0)
        if game.decision is None:
            continue
        rec, _ = _finish(game)
        a = analyse(rec, from_trick=N_TRICKS["4"] - LEFT)
        assert len(a.cards) == 4 * LEFT and all(v.cost == 0 and not v.best for v in a.cards)
        assert a.lost == [0, 0, 0, 0]
        assert set(a.values.values()) == {a.final} == {rec["result"]["attack_half_points"]}
        return
    pytest.fail("no deal played")


@pytest.mark.parametrize("table,mode", [("4", "points"), ("3", "score"), ("5", "points")])
def test_a_card_that_throws_points_away_shows_its_cost(table, mode):
    """The one card played against the solver's advice shows the cost the solver gave it, with the
    best cards; every other card costs 0, and the seat's total is that cost."""
    for index in range(10):
        game = game_until(table, 8, index, "prise", "heuristic", LEFT, 0)
        if game.decision is None:
            continue
        rec, made = _finish(game, mistake=True, mode=mode)
        if made is None:
            continue
        trick, position, seat, card, cost = made
        a = analyse(rec, mode=mode, from_trick=N_TRICKS[table] - LEFT)
        bad = [v for v in a.cards if v.cost]
        assert [(v.trick, v.position, v.seat, v.card, v.cost) for v in bad] == [made]
        assert bad[0].best and card not in bad[0].best
        assert a.lost[seat] == cost and sum(a.lost) == cost
        assert bad[0].after == (bad[0].value - cost if bad[0].side == "attack" else bad[0].value + cost)
        if mode == "points":
            assert f"{card.pretty():4s} costs {format_points(cost)} (best:" in format_analysis(a)
        return
    pytest.fail("no deal with a costly card")


def test_from_trick_by_default_is_the_first_solved_within_the_budget():
    """Without ``from_trick``, the first trick (from the end backwards) whose value the solver finds
    within the budget; a smaller budget starts later; the output is the same run after run."""
    game = game_until("4", 3, 7, "garde", "heuristic", 1, 0)
    while game.decision is not None:
        game.apply(game.legal_actions()[0] if game.decision.kind != "poignee" else None)
    rec = game.record()
    big = analyse(rec, budget=200_000)
    small = analyse(rec, budget=2_000)
    assert big.chosen and small.chosen and big.from_trick <= small.from_trick < N_TRICKS["4"]
    assert analyse(rec, budget=2_000) == small
    assert all(v.cost is not None for v in small.cards)


def test_bad_records_and_arguments():
    game = game_until("4", 3, 7, "garde", "heuristic", 1, 0)
    while game.decision is not None:
        game.apply(game.legal_actions()[0] if game.decision.kind != "poignee" else None)
    rec = game.record()
    with pytest.raises(AnalysisError, match="has tricks 1..18"):
        analyse(rec, from_trick=18)
    with pytest.raises(AnalysisError, match="unknown mode"):
        analyse(rec, mode="tricks")
    with pytest.raises(AnalysisError, match="bad record"):
        analyse(dict(rec, tricks=rec["tricks"][:3]))
    thrown = dict(rec, outcome="all_passed", bids=[[s, "pass"] for s in range(4)], taker=None, contract=None,
                  ecart=[], declarations=[], tricks=[], result=None, scores=[0, 0, 0, 0])
    thrown["bids"] = [[(rec["dealer"] + 1 + k) % 4, "pass"] for k in range(4)]
    with pytest.raises(AnalysisError, match="not played"):
        analyse(thrown)


# --- the command ----------------------------------------------------------------------------------

def _record_file(tmp_path):
    game = game_until("4", 21, 0, "garde", "heuristic", LEFT, 0)
    rec, _ = _finish(game, mistake=True)
    path = tmp_path / "deals.jsonl"
    path.write_text(json.dumps(rec) + "\n")
    return path, rec


def test_cli_analyse_a_record_as_text_and_json(tmp_path):
    path, rec = _record_file(tmp_path)
    k = N_TRICKS["4"] - LEFT + 1
    res = CliRunner().invoke(cli, ["analyse", str(path), "--line", "1", "--from-trick", str(k)])
    assert res.exit_code == 0, res.output
    assert f"from trick {k}; tricks 1..{k - 1} are not analysed" in res.output
    assert "costs" in res.output and "lost against best play" in res.output
    assert res.output.splitlines()[1] == f"seat {rec['taker']} takes a garde."
    res = CliRunner().invoke(cli, ["analyse", str(path), "--from-trick", str(k), "--json"])
    out = json.loads(res.output)
    assert (out["taker"], out["contract"], out["partner"]) == (rec["taker"], "garde", None)
    assert out["from_trick"] == k and not out["from_trick_chosen"] and len(out["cards"]) == 4 * LEFT
    assert out["unit"] == "half-points of the attack" and out["final"] == rec["result"]["attack_half_points"]
    assert sum(out["lost"]) == sum(c["cost"] for c in out["cards"]) > 0


def test_cli_analyse_a_deal_from_its_seed():
    res = CliRunner().invoke(cli, ["analyse", "--seed", "7", "--index", "5", "--from-trick", "16", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert (out["seed"], out["index"], out["table"]) == (7, 5, "4") and out["from_trick"] == 16


def test_cli_analyse_names_the_taker_and_at_table_5_the_partner():
    """The analysis says who took which contract and, at table 5, who holds the called card (R-CALL-1)."""
    res = CliRunner().invoke(cli, ["analyse", "--table", "5", "--seed", "7", "--from-trick", "15", "--json"])
    out = json.loads(res.output)
    rec = json.loads(CliRunner().invoke(cli, ["show", "--table", "5", "--seed", "7", "--json"]).output)
    assert (out["taker"], out["contract"], out["partner"]) == (rec["taker"], rec["contract"], rec["partner"])
    text = CliRunner().invoke(cli, ["analyse", "--table", "5", "--seed", "7", "--from-trick", "15"]).output
    assert text.splitlines()[1] == f"seat {rec['taker']} takes a {rec['contract']}, seat {rec['partner']} as partner."


@pytest.mark.parametrize("args,message", [
    (["analyse"], "Missing option '--seed'"),
    (["analyse", "--line", "2", "--seed", "1"], "--line N needs FILE"),
    (["analyse", "nowhere.jsonl"], "cannot read"),
    (["analyse", "--seed", "7", "--index", "0"], "not played (all passed)"),
    (["analyse", "--seed", "7", "--index", "5", "--from-trick", "19"], "the deal has 18 tricks"),
    (["analyse", "--seed", "7", "--table", "2"], "'2' is not one of"),
    (["analyse", "--seed", "7", "--budget", "0"], "0 is not in the range"),
])
def test_cli_bad_input_is_one_line_and_code_2(capsys, args, message):
    with pytest.raises(SystemExit) as e:
        main(args)
    err = capsys.readouterr().err
    assert e.value.code == 2 and message in err and len(err.strip().splitlines()) == 1


def test_cli_file_and_seed_together_are_refused(tmp_path, capsys):
    path, _ = _record_file(tmp_path)
    with pytest.raises(SystemExit) as e:
        main(["analyse", str(path), "--seed", "3"])
    assert e.value.code == 2 and "--seed: a deal read from FILE" in capsys.readouterr().err


def test_play_with_analyse_prints_the_post_mortem():
    """``tarotsim play --analyse``: after the deal, what each card cost."""
    rules = Rules(table="4")
    for seed in range(1, 30):
        said: list[str] = []
        bots = interactive.bots_for("heuristic", rules, 0)
        session = interactive.Session(rules, 0, bots, seed, deals=1, say=said.append, color=False, analyse=True)

        def ask(prompt, session=session):
            d = session.game.decision
            legal = session.game.legal_actions()
            if d.kind == "card":
                return str(legal[0])
            return {"bid": "pass", "poignee": "no", "chelem": "no"}.get(d.kind, "no")

        session.ask = ask
        res = session.run()
        if res.records and res.records[0]["outcome"] == "played":
            text = "\n".join(said)
            assert "Exact analysis (attack's points" in text and "lost against best play" in text
            return
    pytest.fail("no deal played")
