"""`tarotsim analyse` and ``tarotsim.analysis``: the exact cost of each card of a played deal."""

from __future__ import annotations

import json
import signal
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_solver_twin import game_until

from tarotsim.cli import interactive
from tarotsim.analysis import AnalysisError, analyse, format_analysis
from tarotsim.cards import format_points
from tarotsim.cli import cli, main
from tarotsim.rules import N_TRICKS, Rules
from tarotsim.runs.runner import Runner
from tarotsim.analysis.solver import Position, Solver

LEFT = 4  # tricks played by the solver at the end of the deals below
ROOT = Path(__file__).resolve().parent.parent


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
    with pytest.raises(AnalysisError, match=r"budget must be a whole number of nodes from 1 to 9,223,372,036,854,775,807"):
        analyse(rec, budget=2**63)
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
    assert f"from trick {k}; tricks 1..{k - 1} are not analysed" in " ".join(res.output.split())
    assert "costs" in res.output and "lost against best play" in res.output
    assert f"are not analysed.\nseat {rec['taker']} takes a garde.\n" in res.output  # the line after the head
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
    assert f"analysed.\nseat {rec['taker']} takes a {rec['contract']}, seat {rec['partner']} as partner.\n" in text


@pytest.mark.parametrize("args,message", [
    (["analyse"], "Missing option '--seed'"),
    (["analyse", "--line", "2", "--seed", "1"], "--line N needs FILE"),
    (["analyse", "nowhere.jsonl"], "cannot read"),
    (["analyse", "--seed", "7", "--index", "0"], "not played (all passed)"),
    (["analyse", "--seed", "7", "--index", "5", "--from-trick", "19"], "the deal has 18 tricks"),
    (["analyse", "--seed", "7", "--table", "2"], "--table 2: table 2 (R-VAR-TWO) is not solved: its face-down "
                                                 "piles change what each player may play"),
    (["analyse", "--seed", "7", "--budget", "0"], "0 is not in the range"),
    (["analyse", "--seed", "7", "--budget", str(2**63)], f"{2**63} is not in the range 1<=x<={2**63 - 1}"),
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


# --- as careful as simulate: outputs, several lines, totals, forced cards, bad records, names ------

def _two_records_file(tmp_path):
    """A records file of two played deals (lines 1 and 2), and their records."""
    path, first = _record_file(tmp_path)
    game = game_until("4", 3, 7, "garde", "heuristic", 1, 0)
    while game.decision is not None:
        game.apply(game.legal_actions()[0] if game.decision.kind != "poignee" else None)
    second = game.record()
    path.write_text(json.dumps(first) + "\n" + json.dumps(second) + "\n")
    return path, first, second


def test_cli_html_to_standard_output_keeps_the_analysis_off_it(tmp_path, cli):
    """``--html -``: standard output holds the page alone, the analysis goes to stderr."""
    path, _ = _record_file(tmp_path)
    k = N_TRICKS["4"] - LEFT + 1
    code, out, err = cli("analyse", path, "--from-trick", k, "--html", "-")
    assert code == 0, err
    assert out.startswith("<!DOCTYPE html>") and out.endswith("</html>\n") and "Exact analysis" not in out
    assert err.startswith(f"Exact analysis (attack's points, every card known, best play by both sides) from trick {k}")
    assert "lost against best play" in err and "<html" not in err


def test_cli_a_deal_every_seat_passed_is_said_before_the_solver_compiles(cli, monkeypatch):
    """Deal (1, 0) is all passed at table 4: the line comes without a solver compiled or run."""
    from tarotsim.cli import deals

    def never(*args, **kw):
        raise AssertionError("the solver was readied for a deal with no card to analyse")

    monkeypatch.setattr(deals, "_solver_ready", never)
    code, out, err = cli("analyse", "--seed", 1, "--index", 0)
    assert (code, out) == (2, "")
    assert err == "tarotsim: error: the deal was not played (all passed): no card to analyse\n"


@pytest.mark.parametrize("source", ["file", "seed"])
def test_cli_html_path_is_checked_before_any_solving(tmp_path, cli, monkeypatch, source):
    """A page that cannot be written is one line, exit 2, before the deal is played or solved."""
    from tarotsim import analysis

    def never(*args, **kw):
        raise AssertionError("solved before the --html path was checked")

    monkeypatch.setattr(analysis, "analyse", never)
    monkeypatch.setattr(Runner, "block", never)
    page = tmp_path / "no such folder" / "deal.html"
    args = [_record_file(tmp_path)[0]] if source == "file" else ["--seed", "7", "--index", "5"]
    code, out, err = cli("analyse", *args, "--html", page)
    assert code == 2 and out == ""
    assert err == f"tarotsim: error: --html: cannot write {page}: folder {page.parent} does not exist\n"


def test_cli_several_lines_are_each_analysed(tmp_path, cli):
    """Several ``--line``: each deal analysed, in file order (text: ``line N:`` first; JSON: one
    object per deal with its ``line``; ``--html``: one page of them all)."""
    path, first, second = _two_records_file(tmp_path)
    code, out, err = cli("analyse", path, "--line", "2", "--line", "1", "--from-trick", 18)
    assert code == 0, err
    heads = [line for line in out.splitlines() if "Exact analysis" in line]
    assert [h.split(":")[0] for h in heads] == ["line 1", "line 2"] and len(heads) == 2
    assert f"seat {first['taker']} takes a garde." in out and out.count("lost against best play") == 2
    code, out, err = cli("analyse", path, "--line", "1", "--line", "2", "--from-trick", 18, "--json")
    rows = [json.loads(x) for x in out.splitlines()]
    assert code == 0 and [r["line"] for r in rows] == [1, 2]
    assert [r["final"] for r in rows] == [first["result"]["attack_half_points"], second["result"]["attack_half_points"]]
    page = tmp_path / "two.html"
    code, out, err = cli("analyse", path, "--line", "1", "--line", "2", "--from-trick", 18, "--html", page)
    text = page.read_text()
    assert code == 0 and "tarotsim analysis · deals.jsonl, lines 1, 2" in text
    assert "line 1: table 4" in text and "line 2: table 4" in text
    assert err.endswith(f"replay page with the cards' costs written to {page}\n")


def test_totals_say_which_cards_they_leave_out_and_forced_cards_are_never_unsolved(tmp_path, cli):
    """With a budget too small, a card the solver could not value has no cost and its seat's total
    says so ("at least", "1 card not solved"; JSON ``not_solved``), "1 node" singular; a card that
    was the only legal one is forced, cost 0, whatever the budget."""
    path, rec = _record_file(tmp_path)
    a = analyse(rec, from_trick=N_TRICKS["4"] - LEFT, budget=1)
    unsolved = [v for v in a.cards if v.cost is None]
    assert unsolved and all(not v.forced for v in unsolved)
    assert list(a.not_solved) == [sum(v.seat == s for v in unsolved) for s in range(4)]
    forced = [v for v in a.cards if v.forced]
    assert forced and all(v.cost == 0 for v in forced)
    last = [v for v in a.cards if v.trick == N_TRICKS["4"] - 1]
    assert all(v.forced for v in last)  # one card left in every hand
    for v in a.cards:
        pos = Position.from_record(rec, v.trick, v.position)
        assert v.forced == (len(pos.legal_cards()) == 1)
    text = format_analysis(a)
    assert "not solved within 1 node\n" in text and "1 nodes" not in text
    seat = unsolved[0].seat
    k = a.not_solved[seat]
    assert f"seat {seat} at least {format_points(a.lost[seat])} ({k} card{'' if k == 1 else 's'} not solved)" in text
    code, out, err = cli("analyse", path, "--from-trick", N_TRICKS["4"] - LEFT + 1, "--budget", 1, "--json")
    d = json.loads(out)
    assert code == 0 and d["not_solved"] == list(a.not_solved)
    assert [c["forced"] for c in d["cards"]] == [v.forced for v in a.cards]
    big = analyse(rec, from_trick=N_TRICKS["4"] - LEFT)
    assert [v.forced for v in big.cards] == [v.forced for v in a.cards] and big.not_solved == (0, 0, 0, 0)
    assert "at least" not in format_analysis(big)


@pytest.mark.parametrize("edit,message", [
    (lambda r: dict(r, scores=[0, 0, 0, 0]), "field scores: recomputed"),
    (lambda r: dict(r, seed=12345), "the record's seed or index was edited"),
])
def test_cli_a_bad_record_is_its_error_alone(tmp_path, cli, edit, message):
    """A record that replay flags (a wrong score, an edited identity) is one error line, exit 2:
    never a warning that it is "shown as recorded" followed by the analysis or another error."""
    path, rec = _record_file(tmp_path)
    path.write_text(json.dumps(edit(rec)) + "\n")
    code, out, err = cli("analyse", path, "--from-trick", 18)
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert err.startswith(f"tarotsim: error: {path}: line 1: ") and message in err and "shown as" not in err


def test_cli_a_deal_that_breaks_a_rule_is_its_error_alone(tmp_path, cli):
    from tarotsim.record import RecordError, complete

    path, rec = _record_file(tmp_path)
    for t in range(1, N_TRICKS["4"]):  # one card of trick 1 swapped with one of a later trick: a card not allowed
        bad = json.loads(json.dumps(rec))
        first, later = bad["tricks"][0]["cards"], bad["tricks"][t]["cards"]
        first[1], later[1] = later[1], first[1]
        try:
            complete(bad)
        except RecordError as e:
            if e.rule_id and e.rule_id.startswith("R-PLAY-"):
                break
    path.write_text(json.dumps(bad) + "\n")
    code, out, err = cli("analyse", path, "--from-trick", 18)
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert err.startswith(f"tarotsim: error: {path}: line 1: trick ") and "(R-PLAY-" in err and "warning" not in err


def test_cli_names_the_seats_by_the_record_s_players(tmp_path, cli):
    """A record with ``players`` (as `tarotsim play` writes it) names its seats, as `show --html`
    and `stats` do; ``--names`` still chooses others."""
    from tarotsim.record import with_seat_labels

    path, rec = _record_file(tmp_path)
    names = ["Emma", "Nico", "Pat", "Lea"]
    path.write_text(json.dumps(with_seat_labels(rec, players=names)) + "\n")
    code, out, err = cli("analyse", path, "--from-trick", 18)
    assert code == 0 and f"analysed.\n{names[rec['taker']]} takes a garde.\n" in out  # the line after the head
    assert "lost against best play: Emma " in out and "seat 0" not in out
    code, out, err = cli("analyse", path, "--from-trick", 18, "--names", "A,B,C,D")
    assert code == 0 and "lost against best play: A " in out and "Emma" not in out


def test_cli_a_cold_cache_is_told_and_the_report_says_the_compile_time(cli, monkeypatch):
    """A first run (numba's cache lacks the kernels): on a terminal a line before each compile (the
    deal's bots, the solver); the report's last line gives the seconds searching and, apart, compiling."""
    import re
    import sys

    from tarotsim.analysis import solver
    from tarotsim._kernels import _cache

    args = ("analyse", "--seed", "7", "--index", "5", "--from-trick", 18)
    monkeypatch.setattr(_cache, "is_cached", lambda kernels: False)  # as on a first run
    monkeypatch.setattr(solver, "_ready", False)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)  # the notices are for a terminal
    code, out, err = cli(*args)
    assert code == 0 and err.splitlines() == [
        "tarotsim: compiling the kernels for heuristic, once: about 14 s (numba keeps them in its cache)",
        "tarotsim: compiling the kernels for the exact solver, once: about 20 s (numba keeps them in its cache)"]
    assert re.fullmatch(r"\d+ nodes searched in \d+\.\d s \(and \d+\.\d s compiling the kernels first, once\)",
                        out.splitlines()[-1]), out
    monkeypatch.setattr(solver, "_ready", False)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False)  # a pipe or a log: only the report says it
    code, out, err = cli(*args, "--json")
    d = json.loads(out)
    assert code == 0 and err == "" and d["compile_s"] > 0 and d["elapsed_s"] >= 0
    monkeypatch.undo()
    code, out, err = cli(*args)
    assert code == 0 and err == "" and re.fullmatch(r"\d+ nodes searched in \d+\.\d s", out.splitlines()[-1])


def _kill_long_analysis(tmp_path, sig):
    """Start `analyse` on a question of minutes, send ``sig`` once it searches: ``(code, stderr,
    seconds from the signal to the line on stderr)``."""
    import os
    import signal
    import subprocess
    import sys
    import time

    page = tmp_path / "deal.html"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.Popen([sys.executable, "-m", "tarotsim.cli", "analyse", "--seed", "7", "--index", "5",
                             "--from-trick", "1", "--budget", str(10**12), "--html", str(page)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                            # the default disposition, whatever the test run inherited (a job in the
                            # background ignores SIGINT, and Python then installs no handler for it)
                            preexec_fn=lambda: signal.signal(sig, signal.SIG_DFL))
    deadline = time.monotonic() + 240
    while not any(f.name.startswith(".tarotsim-") for f in tmp_path.iterdir()):  # the page opened
        assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read()
        time.sleep(0.05)
    time.sleep(5)  # the deal played, the solver loaded: deep in its first question
    assert proc.poll() is None
    proc.send_signal(sig)
    t0 = time.monotonic()
    line = proc.stderr.readline()
    seconds = time.monotonic() - t0
    rest = proc.stderr.read()
    proc.wait(timeout=60)
    assert not any(tmp_path.iterdir())  # neither the page nor its temporary file
    return proc.returncode, (line + rest).decode(), seconds


@pytest.mark.slow
def test_sigterm_stops_a_long_question_at_once_and_says_nothing_was_written(tmp_path):
    code, err, seconds = _kill_long_analysis(tmp_path, signal.SIGTERM)
    assert code == 128 + signal.SIGTERM and err == "tarotsim: stopped by SIGTERM; no output file was written\n"
    assert seconds < 1.5


@pytest.mark.slow
def test_ctrl_c_stops_a_long_question_at_once_as_main_ends_an_interrupt(tmp_path, cli, monkeypatch):
    """Ctrl-C during a long question: the process ends at once, with the exit code and line that
    ``main()`` gives a KeyboardInterrupt raised inside `analyse`."""
    from tarotsim import analysis

    def interrupted(*args, **kw):
        raise KeyboardInterrupt

    monkeypatch.setattr(analysis, "analyse", interrupted)
    want_code, _, want_err = cli("analyse", "--seed", "7", "--index", "5", "--from-trick", "18")
    code, err, seconds = _kill_long_analysis(tmp_path, signal.SIGINT)
    assert (code, err) == (want_code, want_err) and seconds < 1.5
