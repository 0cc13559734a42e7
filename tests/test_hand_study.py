"""`tarotsim study bidding --hand` (``tarotsim.runs.hand_study``): the study of one given hand.

* A slow Python twin (the worlds of ``_builds.hand.hand_worlds``, each played once per contract
  on the reference engine with the seats' bots on the slow path, from the deal's bots stream)
  gives the same integer totals per contract: plays, made, score, score², paired difference.
* Its worlds agree with the hand (the seat holds exactly it, every other card is dealt once,
  R-DEAL-1); threads and chunks never change the totals.
* The report's statistics come from those totals; the CLI prints them, and bad input is one line
  with exit code 2.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from bots import BOT_KINDS
from tarotsim.runs import hand_study

from tarotsim import rng
from tarotsim.runs import simulate as sim
from tarotsim._builds import hand as K
from tarotsim._kernels import worlds as W
from tarotsim.adapters import FastBotAdapter
from tarotsim.cards import DECK, masks_of
from tarotsim.cli import main
from tarotsim.engine import Game
from tarotsim.rules import CONTRACTS, HAND_SIZE, Rules

HANDS = {
    "4": "T21 T19 T15 T12 T9 T6 T3 EX KH QH 5H KS 8S 4S 9D 2D 7C 1C",
    "5": "T21 T20 T1 T14 T8 KS QS 3S KH 9H 2H 7D 1D NC 6C",
    "3": "T21 T18 T16 T13 T11 T7 T5 T2 EX KS 9S 6S KH 1H QD 8D 4D JC 5C 3C 2C 1C KC 6C",
}


def cli(capsys, *argv):
    with pytest.raises(SystemExit) as exc:
        main(list(argv))
    out, err = capsys.readouterr()
    return exc.value.code, out, err


def _worlds(p, indices):
    """The worlds the kernel plays for deals ``indices`` of the plan ``p``."""
    ht, hs = masks_of(p.hand)
    out = np.zeros((len(indices), 78), dtype=np.int8)
    status = K.hand_worlds(p.rules.to_vector(), sim._seed(p.seed), np.array(indices, dtype=np.int64),
                           np.int64(p.seat), np.int64(p.dealer), np.int64(ht), np.int64(hs), out)
    assert status == W.OK
    return out


def _twin(p, indices):
    """The totals of ``hand_study.run`` recomputed on the slow path, one deal and contract at a time."""
    names = {code: name for name, code in BOT_KINDS.items()}
    adapters = [FastBotAdapter(names[int(p.kinds[s])], p.params[s], seats=(p.kinds, p.params))
                for s in range(p.rules.n_seats)]
    acc = np.zeros((4, K.H_LEN), dtype=np.int64)
    for index, row in zip(indices, _worlds(p, indices)):
        hands = [[DECK[c] for c in range(78) if row[c] == s] for s in range(p.rules.n_seats)]
        chien = [DECK[c] for c in range(78) if row[c] == W.LOC_PILE]
        prev = 0  # passing scores 0
        for c in p.contracts:
            game = Game(p.rules, hands=hands, chien=chien, dealer=p.dealer, forced=(p.seat, c))
            stream = rng.Rng.for_deal(p.seed, index, rng.STREAM_BOTS)
            while (d := game.decision) is not None:
                game.apply(adapters[d.seat].choose(game.view(d.seat), game.legal_actions(), stream))
            rec = game.record()
            score = rec["scores"][p.seat]
            k = CONTRACTS.index(c)
            acc[k] += [1, int(rec["result"]["made"]), score, score * score, score - prev, (score - prev) ** 2]
            prev = score
    return acc


@pytest.mark.parametrize("table,bots,contracts", [
    ("4", "heuristic", None),
    ("4", "greedy,heuristic,random,heuristic", "prise,garde_sans"),
    ("5", "heuristic", None),
    ("3", "heuristic,greedy,heuristic", "garde,garde_contre"),
])
def test_hand_totals_agree_with_a_slow_twin(table, bots, contracts):
    r = Rules(table=table)
    seat = 1 if table == "4" else 0
    t = hand_study.run(r, HANDS[table], seat, 17, 6, start=40, bots=bots, contracts=contracts)
    assert t.deals_done == 6
    assert np.array_equal(t.acc, _twin(t.plan, list(range(40, 46))))
    studied = [CONTRACTS.index(c) for c in t.plan.contracts]
    assert all(t.acc[k, K.H_N] == 6 for k in studied)
    assert all(t.acc[k, K.H_N] == 0 for k in range(4) if k not in studied)


def test_hand_totals_with_a_pimc_seat_agree_with_a_slow_twin():
    """The pimc build (a seat plays ``pimc``) plays the same deals as the slow path."""
    r = Rules(table="4")
    t = hand_study.run(r, HANDS["4"], 0, 5, 2, bots="pimc:worlds=2,heuristic,pimc:worlds=2,heuristic",
                       contracts="garde")
    assert np.array_equal(t.acc, _twin(t.plan, [0, 1]))


@pytest.mark.parametrize("table", ["3", "4", "5", "5d"])
def test_the_worlds_hold_the_hand_and_deal_every_other_card_once(table):
    """R-DEAL-1: the studied seat holds exactly the hand, every other seat a full hand, the chien
    the rest; at 5d the dealer (the dummy, R-DEAL-6) holds nothing."""
    r = Rules(table=table)
    hand = [str(c) for c in DECK][::3][:HAND_SIZE[table]]
    seat = 2
    p = hand_study.plan(r, " ".join(hand), seat, 9, 20)
    rows = _worlds(p, list(range(20)))
    mine = {DECK.index(c) for c in p.hand}
    for row in rows:
        assert {c for c in range(78) if row[c] == seat} == mine
        for s in range(r.n_seats):
            held = int((row == s).sum())
            assert held == (0 if table == "5d" and s == p.dealer else HAND_SIZE[table])
        assert int((row == W.LOC_PILE).sum()) == 78 - HAND_SIZE[table] * (r.n_seats - (table == "5d"))
    assert len({row.tobytes() for row in rows}) == 20


def test_same_totals_for_any_thread_count_and_chunk_size():
    a = hand_study.run("4", HANDS["4"], 0, 3, 300, bots="heuristic", threads=1)
    b = hand_study.run("4", HANDS["4"], 0, 3, 300, bots="heuristic", threads=2, chunk_size=37)
    c1 = hand_study.run("4", HANDS["4"], 0, 3, 120, bots="heuristic")
    c2 = hand_study.run("4", HANDS["4"], 0, 3, 180, start=120, bots="heuristic")
    assert np.array_equal(a.acc, b.acc) and np.array_equal(a.acc, c1.acc + c2.acc)


def test_the_report_reads_its_statistics_from_the_totals():
    t = hand_study.run("4", HANDS["4"], 0, 3, 400, bots="heuristic")
    d = hand_study.report(t)
    assert [r["contract"] for r in d["contracts"]] == list(CONTRACTS)
    prev = None
    for r in d["contracts"]:
        a = t.acc[CONTRACTS.index(r["contract"])]
        n = int(a[K.H_N])
        assert r["deals"] == n == 400 and r["made"] == a[K.H_MADE]
        mean = a[K.H_S] / n
        sd = math.sqrt((a[K.H_S2] - n * mean * mean) / (n - 1))
        assert r["mean_score"] == pytest.approx(mean)
        half = r["score_ci"][1] - mean
        assert half == pytest.approx(mean - r["score_ci"][0]) and half == pytest.approx(1.966 * sd / math.sqrt(n),
                                                                                         rel=2e-3)
        assert r["made_ci"][0] <= r["made_rate"] <= r["made_ci"][1]
        assert r["mean_difference"] == pytest.approx(mean - (prev if prev is not None else 0.0))
        prev = mean
    best = max(d["contracts"], key=lambda r: r["mean_score"])
    assert d["best"] == (best["contract"] if best["mean_score"] > 0 else "pass")
    assert d["heuristic_bid"] == "garde" and d["hand_points"] > 40


def test_the_cli_prints_the_hand_study(capsys):
    code, out, err = cli(capsys, "study", "bidding", "--hand", HANDS["4"], "--deals", "50", "--seed", "2",
                         "--json", "--threads", "1")
    assert code == 0, err
    d = json.loads(out)
    assert d["study"] == "bidding-hand" and d["seed"] == 2 and d["deals"] == 50
    assert [r["deals"] for r in d["contracts"]] == [50] * 4
    code, out, _ = cli(capsys, "study", "bidding", "--hand", HANDS["4"], "--deals", "50", "--seed", "2",
                       "--threads", "1")
    assert code == 0 and "seed 2" in out and "best: " in out


def test_the_best_contract_is_said_without_parentheses_inside_parentheses(capsys):
    code, out, err = cli(capsys, "study", "bidding", "--hand", HANDS["4"], "--deals", "50", "--seed", "2",
                         "--json", "--threads", "1")
    assert code == 0, err
    d = json.loads(out)
    for sure, verdict in ((True, "for sure at 95%"), (False, "not for sure: the intervals overlap, study more deals")):
        best = next(line for line in hand_study.format_report(dict(d, best_is_sure=sure)).splitlines()
                    if line.startswith("best: "))
        assert best == f"best: {d['best']} ({verdict})"


@pytest.mark.parametrize("args,message", [
    (["--hand", "T21 T20"], "a hand holds 18 cards at table 4 (R-DEAL-1), not 2"),
    (["--hand", HANDS["4"].replace("1C", "T21")], "T21 given twice"),
    (["--hand", HANDS["4"].replace("1C", "ZZ")], "--hand:"),
    (["--hand", HANDS["4"], "--seat", "4"], "--seat: a seat 0..3"),
    (["--hand", HANDS["4"], "--save", "x.json"], "leave out --save"),
    (["--hand", HANDS["4"], "--table", "2"], "R-VAR-TWO"),
    (["--hand", "T1 1S 2S 3S 4S 5S 6S 7S 8S 9S 1H 2H 3H 4H 5H 6H 7H 8H"], "R-DEAL-4"),
    (["--bots", "pimc:bid_search=1,heuristic,heuristic,heuristic"], "pimc:bid_search=1 is not studied here"),
])
def test_bad_input_is_one_line_and_exit_code_2(capsys, args, message):
    code, out, err = cli(capsys, "study", "bidding", "--deals", "5", "--seed", "1", *args)
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1, err


def test_the_hand_may_be_given_as_tarotsim_prints_it(capsys):
    """``K♥ 10♠`` (Card.pretty, what tarotsim prints) reads as ``KH 10S``: the same study."""
    from tarotsim.cards import Card

    pretty = " ".join(Card.parse(c).pretty() for c in HANDS["4"].split())
    assert "K♥" in pretty and "8♠" in pretty
    runs = [cli(capsys, "study", "bidding", "--hand", hand, "--deals", "20", "--seed", "2", "--json", "--threads", "1")
            for hand in (HANDS["4"], pretty)]
    assert [code for code, _, _ in runs] == [0, 0]
    plain, printed = (json.loads(out) for _, out, _ in runs)
    assert printed["hand"] == plain["hand"] == HANDS["4"].split()
    assert printed["contracts"] == plain["contracts"]


@pytest.mark.parametrize("seat", [0, 2])
def test_an_illegal_policy_answer_names_the_bot_the_seat_and_the_rule(capsys, tmp_path, monkeypatch, seat):
    """A policy set that plays a card the rules forbid stops the hand study with one line naming the
    bot, its seat, the deal of the study, the contract forced and the rule broken (here R-PLAY-4a), exit 2."""
    from helpers_policy import CHEATS

    from tarotsim.engine import IllegalPlayError

    # a module name of its own: another test of this process may have imported its own cheat_mod
    (tmp_path / "card_cheat_mod.py").write_text("from helpers_policy import CHEATS\nCHEAT = CHEATS['card']\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    bots = ",".join("card_cheat_mod:CHEAT" if s == seat else "heuristic" for s in range(4))
    code, out, err = cli(capsys, "study", "bidding", "--hand", HANDS["4"], "--deals", "20", "--seed", "1",
                         "--threads", "1", "--bots", bots)
    assert code == 2 and out == "" and len(err.splitlines()) == 1, err
    assert err.startswith(f"tarotsim: error: bot cheat_card at seat {seat}, deal ") and "of the hand study (seed 1)" in err
    assert " forced: " in err and "(R-PLAY-4" in err
    players = ["heuristic"] * 4
    players[seat] = CHEATS["card"]
    with pytest.raises(IllegalPlayError) as e:
        hand_study.run("4", HANDS["4"], 0, 1, 20, bots=players)
    assert f"tarotsim: error: {e.value}\n" == err and e.value.rule_id.startswith("R-PLAY-4")


def test_a_cold_cache_is_told_and_the_report_says_the_compile_time(capsys, monkeypatch):
    """A first run (numba's cache lacks the hand study's loop): on a terminal, a line before the
    compile; the report's last line gives the seconds compiling apart from the study's."""
    import re
    import sys

    from tarotsim._kernels import _cache

    args = ("study", "bidding", "--hand", HANDS["4"], "--deals", "20", "--seed", "1", "--threads", "1")
    monkeypatch.setattr(_cache, "is_cached", lambda kernels: False)  # as on a first run
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)  # the notice is for a terminal
    code, out, err = cli(capsys, *args)
    assert code == 0 and re.search(r"(^|\r\x1b\[K)tarotsim: compiling the kernels for the hand study of heuristic, "
                                   r"once: about 30 s \(numba keeps them in its cache\)\n", err), err
    assert re.search(r" s · .* plays/s \(and \d+\.\d s compiling the kernels first, once\)$", out.splitlines()[-1])
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False)  # a pipe or a log: only the report says it
    code, out, err = cli(capsys, *args, "--json")
    assert code == 0 and err == "" and json.loads(out)["compile_s"] > 0
    monkeypatch.undo()
    code, out, err = cli(capsys, *args)
    assert code == 0 and err == "" and "compiling" not in out


@pytest.mark.slow
def test_sigterm_stops_the_hand_study_and_says_nothing_was_written():
    """SIGTERM during a hand study: the line every run gives, exit code 128 + 15, at once."""
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.Popen([sys.executable, "-m", "tarotsim.cli", "study", "bidding", "--hand", HANDS["4"],
                             "--deals", str(10**9), "--seed", "1", "--threads", "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            preexec_fn=lambda: signal.signal(signal.SIGTERM, signal.SIG_DFL))
    time.sleep(6)
    assert proc.poll() is None
    proc.send_signal(signal.SIGTERM)
    t0 = time.monotonic()
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 128 + signal.SIGTERM and out == ""
    assert err == "tarotsim: stopped by SIGTERM; no output file was written\n" and time.monotonic() - t0 < 5
