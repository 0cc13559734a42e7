"""Small things a user trips on: a Python bot that raises, `tarotsim` without a command, the
default number of threads, and a calibration resting on too little data.

The bots below are named on the command line as ``test_cli_misc:Name``, the way a user names
theirs (this folder is on ``sys.path`` under pytest, see tests/helpers_bots.py)."""

import json
import os
import sys

import pytest

from tarotsim.runs import simulate as sim
from tarotsim.runs import slowpath, study
from tarotsim.engine import EcartChoice, IllegalPlayError, PyRandomBot
from tarotsim.rules import CONTRACTS, Rules


class DividesByZeroAtBid:
    """Plays at random, but its bid code divides by zero (unnamed: messages use module:Class)."""

    def choose(self, view, legal, rng):
        if view.decision.kind == "bid":
            return 1 / 0
        return PyRandomBot().choose(view, legal, rng)


class FailsOnItsFirstCard:
    """A named bot whose card code fails with a multi-line message."""

    name = "clumsy"

    def choose(self, view, legal, rng):
        if view.decision.kind == "card":
            raise KeyError("no such\ncard")
        return PyRandomBot().choose(view, legal, rng)


class Interrupted:
    def choose(self, view, legal, rng):
        raise KeyboardInterrupt


class Exits:
    def choose(self, view, legal, rng):
        raise SystemExit(3)


class DiscardsNothing:
    """Takes a garde and answers None for its écart: an answer that is no choice at all."""

    def choose(self, view, legal, rng):
        if view.decision.kind == "bid":
            return "garde" if "garde" in legal else "pass"
        if isinstance(legal, EcartChoice):
            return None
        return PyRandomBot().choose(view, legal, rng)


class Passes:
    def choose(self, view, legal, rng):
        return "pass" if view.decision.kind == "bid" else PyRandomBot().choose(view, legal, rng)


# ---------------------------------------------------------------------------------------------
# a Python bot that raises


def test_raising_bot_stops_the_library_run_naming_bot_deal_seat_decision_and_cause():
    players = [PyRandomBot(), PyRandomBot(), DividesByZeroAtBid(), PyRandomBot()]
    with pytest.raises(slowpath.BotRaisedError) as e:
        slowpath.facts(Rules("4"), 1, 7, 9, players)
    # deal 7: the dealer is seat 3, so seat 0 speaks first and seat 2 third
    assert str(e.value) == ("bot test_cli_misc:DividesByZeroAtBid raised ZeroDivisionError: division by zero "
                            "at seat 2, deal (1, 7) (bid decision)")
    assert isinstance(e.value.__cause__, ZeroDivisionError)
    assert (e.value.seat, e.value.seed, e.value.index, e.value.decision) == (2, 1, 7, "bid")


def test_raising_bot_message_is_one_line_with_its_name_and_class():
    with pytest.raises(slowpath.BotRaisedError) as e:
        slowpath.play_record(Rules("3"), 4, 0, [FailsOnItsFirstCard()] * 3)
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith("bot clumsy (test_cli_misc:FailsOnItsFirstCard) raised KeyError: ")
    assert "(card decision)" in msg and "deal (4, 0)" in msg


@pytest.mark.parametrize("bot,exc", [(Interrupted, KeyboardInterrupt), (Exits, SystemExit)])
def test_interrupts_and_exits_pass_through_untouched(bot, exc):
    with pytest.raises(exc):
        slowpath.play_record(Rules("4"), 1, 0, [bot()] * 4)


def test_an_answer_that_is_no_choice_is_an_illegal_play_naming_bot_seat_deal_and_rule():
    """R-CHIEN-2: the écart is cards; None is refused like any illegal answer, not a TypeError."""
    with pytest.raises(IllegalPlayError) as e:
        slowpath.play_record(Rules("4"), 1, 0, [DiscardsNothing(), Passes(), Passes(), Passes()])
    assert e.value.rule_id == "R-CHIEN-2"
    assert "bot DiscardsNothing at seat 0, deal (1, 0): ecart: answered None" in str(e.value)


@pytest.mark.parametrize("argv", [
    ["simulate", "--bots", "test_cli_misc:DividesByZeroAtBid", "--deals", "5", "--seed", "1", "--start", "7"],
    ["simulate", "--bots", "random,random,test_cli_misc:DividesByZeroAtBid,random", "--deals", "3", "--seed",
     "1", "--start", "7", "--records", "{tmp}/r.jsonl"],
    ["show", "--bots", "random,random,test_cli_misc:DividesByZeroAtBid,random", "--seed", "1", "--index", "7"],
    ["tournament", "--bots", "test_cli_misc:DividesByZeroAtBid,random,random,random", "--deals", "3",
     "--seed", "1", "--start", "7"],
])
def test_cli_raising_bot_is_one_line_exit_2(cli, tmp_path, argv):
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    code, out, err = cli(*argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("tarotsim: error: bot test_cli_misc:DividesByZeroAtBid raised ZeroDivisionError: "
                          "division by zero at seat ")
    assert "deal (1, 7) (bid decision)" in err
    assert list(tmp_path.iterdir()) == []  # nothing half-written


def test_cli_keyboard_interrupt_in_a_bot_stops_as_ctrl_c_without_traceback(cli):
    code, out, err = cli("simulate", "--bots", "test_cli_misc:Interrupted", "--deals", "2", "--seed", "1")
    # click echoes a newline first (the terminal's ^C line)
    assert code == 130 and err == "\ntarotsim: stopped by SIGINT; no output file was written\n"


# ---------------------------------------------------------------------------------------------
# tarotsim without a command


@pytest.mark.parametrize("argv,commands", [([], ["score", "simulate", "tournament"]), (["study"], ["bidding"])])
def test_no_command_prints_the_whole_help_not_one_line(cli, argv, commands):
    """Click's convention (8.2 on): a group without a command is a usage error, its help on
    stderr, exit code 2; the help keeps its lines."""
    code, out, err = cli(*argv)
    assert code == 2 and out == ""
    lines = err.splitlines()
    assert lines[0].startswith("Usage: tarotsim") and "Commands:" in lines and len(lines) > 6
    assert not err.startswith("tarotsim: error")
    for c in commands:
        assert any(line.strip().startswith(c + " ") for line in lines), c


def test_help_is_still_stdout_and_exit_0(cli):
    code, out, err = cli("--help")
    assert code == 0 and out.startswith("Usage: tarotsim") and err == ""


# ---------------------------------------------------------------------------------------------
# threads: every core by default


def test_default_threads_is_every_core_this_process_may_use():
    expected = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    assert sim.default_threads() == expected >= 1


@pytest.mark.parametrize("argv", [["tournament", "--help"], ["study", "bidding", "--help"]])
def test_threads_help_says_every_core(cli, argv):
    code, out, _ = cli(*argv)
    assert code == 0 and "default: every core" in " ".join(out.split())


def test_tournament_results_do_not_depend_on_threads(cli):
    runs = []
    for threads in ([], ["--threads", "1"], ["--threads", "3"]):
        code, out, _ = cli("tournament", "--bots", "greedy,random,random", "--table", "3", "--deals", "50",
                           "--seed", "9", "--json", *threads)
        d = json.loads(out)
        runs.append((d["bots"], d["pairs"]))
    assert code == 0 and runs[0] == runs[1] == runs[2]


# ---------------------------------------------------------------------------------------------
# a calibration on too little data


def _report(played, statuses, uncertainties):
    th = {c: {"status": s, "threshold": 40.0 + i, "uncertainty": u}
          for i, (c, s, u) in enumerate(zip(CONTRACTS, statuses, uncertainties))}
    return {"played": played, "thresholds": th}


def test_calibration_warning_says_what_is_short():
    assert study.calibration_warning(_report(study.CALIBRATION_MIN_DEALS, ["crossing"] * 4, [0.3] * 4)) is None
    w = study.calibration_warning(_report(1_999, ["crossing"] * 4, [0.3] * 4))
    assert w == "the thresholds rest on too little data: 1,999 deals studied (fewer than 20,000)"
    w = study.calibration_warning(_report(10**6, ["crossing", "crossing", "above", "crossing"], [0.3, 2.5, None, None]))
    assert "\n" not in w and "1,000,000" not in w
    assert "garde ± 2.5" in w and "garde_contre ± ?" in w and "garde_sans above 42" in w and "prise" not in w


def test_cli_calibration_on_few_deals_warns_on_one_line_and_still_writes(cli, tmp_path):
    cal = tmp_path / "cal.json"
    code, out, err = cli("study", "bidding", "--deals", "2000", "--seed", "3", "--calibrate", str(cal))
    assert code == 0 and "thresholds written to" in out
    assert err.count("\n") == 1 and err.startswith("tarotsim: warning: the thresholds rest on too little data: ")
    assert "fewer than 20,000" in err and str(cal) in err
    assert json.loads(cal.read_text())["deals"] == 2000


# ---------------------------------------------------------------------------------------------
# bounded parallelism: at most what the machine and the work can use, the absurd refused


@pytest.mark.parametrize("argv,flag", [
    (["simulate", "--deals", "10", "--threads", "9223372036854775807"], "--threads"),
    (["tournament", "--bots", "heuristic,random,random,random", "--deals", "10", "--threads", "5000"], "--threads"),
    (["study", "bidding", "--deals", "10", "--threads", "99999999999999999999"], "--threads"),
    (["simulate", "--deals", "10", "--dask-local", "99999999999999999999"], "--dask-local"),
    (["replay", "--workers", "4097", "-"], "--workers"),
])
def test_an_absurd_worker_count_is_one_line_exit_2_before_any_work(cli, argv, flag):
    code, out, err = cli(*argv)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith(f"tarotsim: error: {flag} ") and "give 1 to 4,096" in err


def test_a_worker_count_above_the_cores_is_lowered_with_one_line(cli, monkeypatch):
    from tarotsim import parallel

    monkeypatch.setattr(parallel, "available_cores", lambda: 2)
    code, out, err = cli("simulate", "--deals", "300", "--seed", "1", "--threads", "1000")
    assert code == 0 and err == "tarotsim: --threads 1000 lowered to 2: this process may use 2 core(s)\n"
    assert "2 thread(s)" in out
    code, out, err = cli("simulate", "--deals", "1", "--seed", "1", "--threads", "2")
    assert code == 0 and err == "tarotsim: --threads 2 lowered to 1: the work is 1 deal(s)\n"


@pytest.mark.slow
def test_replay_starts_no_more_processes_than_cores_and_chunks(cli, monkeypatch, tmp_path):
    """`replay --workers 1000` starts at most a process per core and per chunk of records."""
    import concurrent.futures
    import json

    from tarotsim import parallel
    from tarotsim.runs import simulate as sim

    path = tmp_path / "r.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in sim.records("4", 1, range(600))))  # 3 chunks of 256
    started = []
    real = concurrent.futures.ProcessPoolExecutor

    def counting(n, *a, **k):
        started.append(n)
        return real(n, *a, **k)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", counting)
    for cores, expected, why in ((2, 2, "this process may use 2 core(s)"), (16, 3, "the work is 3 chunk(s) of 256 records")):
        monkeypatch.setattr(parallel, "available_cores", lambda cores=cores: cores)
        started.clear()
        code, out, err = cli("replay", "--workers", "1000", str(path))
        assert code == 0 and out.endswith("600 record(s) replayed, 0 bad\n")
        assert started == [expected] and err == f"tarotsim: --workers 1000 lowered to {expected}: {why}\n"


# ---------------------------------------------------------------------------------------------
# a cold numba cache says so, once, and the header says which part of the time was compiling


def test_is_cached_tells_a_kernel_numba_has_to_compile_from_one_it_loads(tmp_path, monkeypatch):
    import importlib
    import sys

    from tarotsim._kernels._cache import is_cached

    (tmp_path / "cold_mod.py").write_text("from numba import njit\n\n@njit(cache=True)\ndef twice(x):\n"
                                          "    return 2 * x\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    mod = importlib.import_module("cold_mod")
    try:
        assert not is_cached([mod.twice])
        assert mod.twice(21) == 42 and is_cached([mod.twice])
        assert is_cached([object()])  # cannot tell: no warning
    finally:
        sys.modules.pop("cold_mod", None)


@pytest.mark.parametrize("argv,what", [
    (["simulate", "--bots", "random"], "random"),
    (["tournament", "--bots", "heuristic,random,random,random"], "heuristic,random,random,random"),
    (["study", "bidding", "--bots", "random"], "the bidding study of random"),
])
def test_a_cold_cache_is_told_before_compiling_and_the_header_says_the_compile_time(cli, monkeypatch, argv, what):
    import re

    def header(out: str) -> str:  # the header's lines, a sentence of it wrapped over several
        return "\n".join(out.splitlines()[:4])

    from tarotsim._kernels import _cache

    monkeypatch.setattr(_cache, "is_cached", lambda kernels: False)  # as on a first run
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)  # the notice is for a terminal
    code, out, err = cli(*argv, "--deals", "300", "--seed", "1", "--threads", "1")
    # on a line of its own, over a progress bar already drawn (the bar is drawn again below it)
    assert code == 0 and re.search(rf"(^|\r\x1b\[K)tarotsim: compiling the kernels for {what}, once: about \d+ s "
                                   r"\(numba keeps them in its cache\)\n", err), err
    assert re.search(r" s\b.* \(and \d+\.\d s compiling the kernels first, once\)$", header(out), re.M)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False)  # a pipe or a log: only the header says it
    code, out, err = cli(*argv, "--deals", "300", "--seed", "1", "--threads", "1")
    assert code == 0 and err == ""
    assert re.search(r" \(and \d+\.\d s compiling the kernels first, once\)$", header(out), re.M)
    monkeypatch.undo()
    code, out, err = cli(*argv, "--deals", "300", "--seed", "1", "--threads", "1")
    assert code == 0 and err == "" and "compiling" not in out
