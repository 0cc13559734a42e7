"""Every command stopped the same way: SIGTERM and SIGHUP anywhere in a command end it with one
line saying what it kept and exit code 128 + the signal, Ctrl-C (SIGINT) with exit code 130.

Each command runs in a real process and gets a real signal once ``tarotsim.cli.main`` holds
SIGTERM (read in ``/proc``), while it cannot have finished: its standard output is a pipe
filled to the brim beforehand (its first line blocks), or its input is a named pipe nobody
writes (its reading blocks)."""

from __future__ import annotations

import fcntl
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EVENING = str(ROOT / "examples" / "evening.csv")
RECORDS = str(ROOT / "tests" / "data" / "examples.jsonl")
KEPT_NOTHING = "no output file was written"

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")]


def _catches(pid: int, sig: int) -> bool:
    """Whether process ``pid`` has a handler of its own for ``sig`` (its SigCgt mask)."""
    status = Path(f"/proc/{pid}/status").read_text()
    mask = next(int(line.split()[1], 16) for line in status.splitlines() if line.startswith("SigCgt:"))
    return bool(mask & (1 << (sig - 1)))


def _full_pipe() -> tuple[int, int]:
    """A pipe whose buffer is full: a process writing into it blocks until it is read."""
    r, w = os.pipe()
    fcntl.fcntl(w, fcntl.F_SETFL, os.O_NONBLOCK)
    with pytest.raises(BlockingIOError):
        while True:
            os.write(w, b"\n" * 65536)
    fcntl.fcntl(w, fcntl.F_SETFL, 0)
    return r, w


def _stop(argv: list[str], sig: int, cwd: Path, stdin=subprocess.DEVNULL, ready=lambda: True) -> tuple[int, str]:
    """Run ``tarotsim ARGV`` blocked on its output, send ``sig`` once main() holds SIGTERM and ``ready()``.

    Returns the exit code and standard error."""
    r, w = _full_pipe()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    # the signals' default dispositions in the child, whatever the test run inherited (under
    # nohup SIGHUP is ignored, and tarotsim rightly leaves it ignored)
    proc = subprocess.Popen([sys.executable, "-m", "tarotsim.cli", *argv], stdin=stdin, stdout=w,
                            stderr=subprocess.PIPE, cwd=cwd, env=env,
                            preexec_fn=lambda: [signal.signal(s, signal.SIG_DFL)
                                                for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)])
    os.close(w)
    try:
        deadline = time.monotonic() + 240
        while not (_catches(proc.pid, signal.SIGTERM) and ready()):
            assert proc.poll() is None and time.monotonic() < deadline, "main() never started"
            time.sleep(0.01)
        proc.send_signal(sig)
        with os.fdopen(r, "rb") as out:  # drained: the process may flush its output on the way out
            out.read()
        assert proc.stderr is not None
        err = proc.stderr.read().decode()
        proc.wait(timeout=240)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return proc.returncode, err


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


@pytest.mark.parametrize("argv", [
    ["score", "--contract", "garde", "--oudlers", "2", "--points", "45"],
    ["sheet", EVENING, "--players", "Emma,Nico,Pat,Lea"],
    ["options"],
    ["bots"],
    ["replay", RECORDS],
    ["stats", RECORDS],
    ["show", RECORDS, "--line", "2"],
    ["show", "--seed", "1", "--index", "3"],
    ["simulate", "--deals", "20", "--seed", "1"],
    ["tournament", "--bots", "heuristic,random,random,random", "--deals", "4", "--seed", "1"],
], ids=lambda argv: " ".join(argv[:2]))
def test_sigterm_anywhere_in_a_command_is_one_line_and_exit_143(tmp_path, argv):
    code, err = _stop(argv, signal.SIGTERM, tmp_path)
    assert (code, err) == (128 + signal.SIGTERM, f"tarotsim: stopped by SIGTERM; {KEPT_NOTHING}\n")
    assert _leftovers(tmp_path) == []


@pytest.mark.parametrize("argv", [
    ["replay", "in.jsonl"],
    ["stats", "in.jsonl", "--csv", "s.csv"],
    ["show", "in.jsonl", "--html", "page.html"],
    ["analyse", "in.jsonl", "--html", "page.html"],
    ["sheet", "in.jsonl", "--players", "Emma,Nico,Pat,Lea"],
], ids=lambda argv: " ".join(argv[:3:2]))
def test_sigterm_while_a_command_reads_its_input_writes_nothing(tmp_path, argv):
    os.mkfifo(tmp_path / "in.jsonl")  # nobody writes into it: the command waits on it
    code, err = _stop(argv, signal.SIGTERM, tmp_path)
    assert (code, err) == (128 + signal.SIGTERM, f"tarotsim: stopped by SIGTERM; {KEPT_NOTHING}\n")
    assert _leftovers(tmp_path) == ["in.jsonl"]


def test_a_command_stopped_after_writing_a_file_says_it_was_written(tmp_path):
    """The records are written whole, then the summary blocks: the line names the file kept."""
    code, err = _stop(["simulate", "--deals", "20", "--seed", "1", "--records", "r.jsonl"], signal.SIGTERM, tmp_path,
                      ready=(tmp_path / "r.jsonl").exists)
    assert (code, err) == (143, "tarotsim: stopped by SIGTERM; --records r.jsonl was written; "
                                "no other output file was written\n")
    assert _leftovers(tmp_path) == ["r.jsonl"] and len((tmp_path / "r.jsonl").read_text().splitlines()) == 20


@pytest.mark.parametrize("argv", [
    ["score", "--contract", "garde", "--oudlers", "2", "--points", "45"],
    ["sheet", EVENING, "--players", "Emma,Nico,Pat,Lea"],
    ["simulate", "--deals", "20", "--seed", "1"],
], ids=lambda argv: argv[0])
def test_ctrl_c_anywhere_in_a_command_is_one_line_and_exit_130(tmp_path, argv):
    code, err = _stop(argv, signal.SIGINT, tmp_path)
    # click ends the terminal's ^C line first
    assert (code, err) == (130, f"\ntarotsim: stopped by SIGINT; {KEPT_NOTHING}\n")
    assert _leftovers(tmp_path) == []


def test_sighup_is_sigterm_s_twin(tmp_path):
    code, err = _stop(["stats", RECORDS, "--csv", "s.csv"], signal.SIGHUP, tmp_path)
    assert (code, err) == (128 + signal.SIGHUP, f"tarotsim: stopped by SIGHUP; {KEPT_NOTHING}\n")
    assert _leftovers(tmp_path) == []


def test_play_stopped_at_a_prompt_says_the_deals_it_appended(tmp_path):
    """`play` waits for the person's answer; SIGTERM then: the records file keeps what it held."""
    code, err = _stop(["play", "--seed", "3", "--deals", "2", "--records", "game.jsonl"], signal.SIGTERM, tmp_path,
                      stdin=subprocess.PIPE, ready=(tmp_path / "game.jsonl").exists)
    assert (code, err) == (143, "tarotsim: stopped by SIGTERM; 0 deal(s) appended to game.jsonl; "
                                "no other output file was written\n")


#: A function compiled into numba's on-disk cache that is sent SIGTERM (or SIGINT) from inside
#: numba's object-cache hook, which llvmlite's C code calls back: a Python exception raised there
#: would be printed and dropped by ctypes.
_SIGNAL_IN_A_CALLBACK = """
import os, signal, sys, tempfile
os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="tarotsim-test-numba-")
import numba
import numba.core.codegen as codegen
from tarotsim.outputs import Terminated, signals_raise
hook = codegen.CPUCodeLibrary._object_compiled_hook
def signalled(ll_module, buf):  # each function compiled calls it back: the signal comes every time
    os.kill(os.getpid(), getattr(signal, sys.argv[1]))
    sum(range(100_000))  # Python code runs inside the callback once the signal is pending
    return hook(ll_module, buf)
codegen.CPUCodeLibrary._object_compiled_hook = staticmethod(signalled)
try:
    with signals_raise():
        numba.njit(cache=True)(lambda x: x + 1)(1)  # cached: a function of a file
        print("compiled, not stopped")
except (Terminated, KeyboardInterrupt) as e:
    print("stopped by", type(e).__name__)
"""


@pytest.mark.parametrize("sig, stopped", [("SIGTERM", "Terminated"), ("SIGINT", "KeyboardInterrupt")])
def test_a_signal_inside_a_compile_s_callback_from_c_still_stops(sig, stopped, tmp_path):
    """A signal that lands while numba compiles, inside a callback from LLVM's C code, is raised once
    the callback returns: never printed as an ignored exception, never lost."""
    script = tmp_path / "signalled.py"
    script.write_text(_SIGNAL_IN_A_CALLBACK, encoding="utf-8")
    run = subprocess.run([sys.executable, str(script), sig], capture_output=True, text=True,
                         timeout=120, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert (run.stdout, run.stderr) == (f"stopped by {stopped}\n", "")
