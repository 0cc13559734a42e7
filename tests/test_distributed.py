"""Runs on Dask (the dask extra; CI installs it): a LocalCluster of 2 worker processes gives the
local run's totals, also when a worker dies in the middle (tarotsim.runs.distributed)."""

import os
import signal

import pytest
from hypothesis import given, settings, strategies as st

from tarotsim.runs import shards
from tarotsim.cli import main
from tarotsim.rules import Rules

# the dask extra, which the test command installs (pip install -e '.[test,plot,dask]'): never skipped
import distributed  # noqa: E402,F401  (fails, never skips, without the extra)

from tarotsim.runs import distributed as tdist  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(scope="module")
def client():
    """Two worker processes of one thread, importing this checkout's tarotsim."""
    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = REPO + (os.pathsep + old if old else "")
    try:
        with tdist.connect(local_workers=2) as c:  # the local cluster --dask-local starts
            yield c
    finally:
        if old is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = old


JOBS = {
    "simulate": dict(table="4", bots="random", settings={}),
    "tournament": dict(table="4", bots="greedy,random,random,random", settings={"duplicate": True}),
    "study bidding": dict(table="5", bots="random", settings={"contracts": ["garde", "garde_sans"]}),
}


def _job(command, start, stop):
    j = JOBS[command]
    return shards.Job.of(command, Rules(j["table"]), 9, start, stop, j["bots"], **j["settings"])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 10**7), st.integers(1, 3 * 10**6)), min_size=1, max_size=4),
       st.integers(1, 2 * 10**6), st.integers(1, 16))
def test_tail_pieces_cover_the_ranges_with_shorter_pieces_at_the_end(spans, size, threads):
    ranges, at = [], 0
    for gap, n in spans:  # disjoint, in order
        ranges.append((at + gap, at + gap + n))
        at += gap + n
    got = tdist.tail_pieces(ranges, size, threads)
    def joined(pieces):  # adjacent pieces as one range
        out = []
        for a, b in pieces:
            if out and out[-1][1] == a:
                out[-1] = (out[-1][0], b)
            else:
                out.append((a, b))
        return out

    assert all(a < b for a, b in got) and joined(got) == joined(ranges)
    assert max(b - a for a, b in got) <= size
    left = sum(b - a for a, b in ranges)
    for a, b in got:  # at most what is left over 2 threads-worth, never below the floor unless a range ends
        assert b - a <= max(1, size // tdist.TAIL_SPLIT, left // (2 * threads))
        left -= b - a
    # the full pieces are those of shards.pieces (aligned): only the tail is cut finer
    assert set(shards.pieces(ranges, size)) >= {p for p in got if p[1] - p[0] == size}


def test_tail_pieces_of_a_run_of_ten_full_pieces_on_two_workers():
    sizes = [b - a for a, b in tdist.tail_pieces([(0, 10_000_000)], 1_000_000, 2)]
    assert sizes[:6] == [1_000_000] * 6 and sum(sizes) == 10**7
    assert all(x >= y for x, y in zip(sizes, sizes[1:])) and 62_500 >= sizes[-1] > 0 and len(sizes) <= 24


def _worker_settings():
    import dask
    return {key: dask.config.get(key) for key in tdist.QUIET_WORKERS}


@pytest.mark.slow
def test_local_cluster_workers_run_without_profiler_or_frequent_monitors(client):
    """Every task is one long numba call: the sampling profiler and the monitors would only take
    CPU from the deals (the 1 -> 2 worker scaling of BENCHMARKS.md)."""
    settings = client.run(_worker_settings)
    assert len(settings) == 2
    for got in settings.values():
        assert got == tdist.QUIET_WORKERS


@pytest.mark.slow
@pytest.mark.parametrize("command", list(JOBS))
def test_dask_run_equals_the_local_run(client, command):
    job = _job(command, 100, 2_600)
    local = shards.execute(job, threads=1)
    seen = []
    on_dask = shards.execute(job, executor=tdist.executor(client=client, task_deals=500, progress=seen.append))
    assert on_dask.done == local.done == [(100, 2_600)]
    assert shards._totals_json(command, on_dask.totals) == shards._totals_json(command, local.totals)
    # the tasks: pieces aligned on multiples of 500, cut finer towards the end (tail_pieces)
    assert sorted(seen) == sorted(b - a for a, b in tdist.tail_pieces([(100, 2_600)], 500, 2))
    assert on_dask.threads == 2


@pytest.mark.slow
def test_a_worker_killed_during_the_run_changes_no_total(client):
    """SIGKILL to one worker process after the first result: its tasks run again elsewhere (the
    scheduler's retries), every range is counted once."""
    job = _job("simulate", 0, 1_200_000)
    pids = list(client.run(os.getpid).values())
    killed = []

    def kill_once(n):
        if not killed:
            killed.append(pids[0])
            os.kill(pids[0], signal.SIGKILL)

    lines = []
    on_dask = shards.execute(job, executor=tdist.executor(client=client, task_deals=100_000, progress=kill_once,
                                                          log=lines.append))
    assert killed and on_dask.done == [(0, 1_200_000)]
    # the re-run is told, and the progress lines reach the end of the run
    assert any(line.startswith("dask: worker ") and line.endswith("left the cluster: the scheduler runs its "
                                                                   "task(s) again on another worker")
               for line in lines), lines
    assert lines[-1] == "dask: 1,200,000 of 1,200,000 deals done"
    local = shards.execute(job, threads=2)
    assert (on_dask.totals == local.totals).all()
    client.wait_for_workers(2, timeout=60)  # the nanny restarted it: the cluster is whole again


@pytest.mark.slow
def test_checkpoint_of_a_dask_run_resumes_with_the_same_tasks(client, tmp_path):
    job = _job("simulate", 0, 6_000)
    ck = str(tmp_path / "ck.json")
    first = shards.execute(_job("simulate", 0, 2_000)).totals  # as an interrupted run left it
    shards.write(shards.Saved(job.config(), (0, 6_000), [(0, 2_000)], first), ck, "--checkpoint")
    ran = []
    resumed = shards.execute(job, checkpoint=ck, executor=tdist.executor(client=client, task_deals=1_000,
                                                                          progress=ran.append))
    assert sum(ran) == 4_000 and resumed.done == [(0, 6_000)]
    assert (resumed.totals == shards.execute(job).totals).all()


@pytest.mark.slow
def test_dask_local_from_the_command_line(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))
    argv = ["simulate", "--deals", "4000", "--seed", "3", "--threads", "1"]
    with pytest.raises(SystemExit):
        main(argv)
    single = capsys.readouterr().out
    saved = tmp_path / "d.json"
    from tarotsim._kernels import _cache
    monkeypatch.setattr(_cache, "is_cached", lambda kernels: False)  # as on a first run: the workers compile
    with pytest.raises(SystemExit) as exc:
        main([*argv, "--dask-local", "2", "--save", str(saved)])
    out, err = capsys.readouterr()
    assert "tarotsim: dask: the workers compile the kernels first, once: about " in err
    # one task: one worker process is all the run can use (tarotsim.parallel.bounded_workers)
    assert exc.value.code == 0 and "tarotsim: --dask-local 2 lowered to 1: the work is 1 task(s)\n" in err
    assert "dask: 1 task(s) of up to 1,000,000 deals on 1 worker(s)" in err
    strip = (lambda text: "\n".join(line for line in text.splitlines() if "thread(s)" not in line))
    assert strip(out) == strip(single) and "1 thread(s)" in out
    assert shards.load(str(saved)).threads == 1


@pytest.mark.parametrize("address,why", [
    ("nonsense", "not a scheduler address (missing port number in address 'nonsense')"),
    ("", "an empty address"),
    ("tcp://localhost:99999", "not a scheduler address (host 'localhost', port 99999)"),
])
def test_a_bad_scheduler_address_is_one_line_at_once(capsys, tmp_path, address, why):
    """No connection is tried (a client built on a bad address hangs 20 s on its way out)."""
    import time

    t0 = time.monotonic()
    with pytest.raises(SystemExit) as exc:
        main(["simulate", "--deals", "100", "--scheduler", address, "--save", str(tmp_path / "s.json")])
    out, err = capsys.readouterr()
    assert exc.value.code == 2 and out == "" and err.count("\n") == 1 and time.monotonic() - t0 < 10
    assert err.startswith(f"tarotsim: error: --scheduler{' ' + address if address else ''}: {why}")
    assert os.listdir(tmp_path) == []


@pytest.mark.slow
def test_a_bot_error_under_dask_local_is_the_one_line_of_a_local_run(tmp_path):
    """No worker traceback before it: the task's error comes back and is told as a local run tells it."""
    import subprocess
    import sys

    (tmp_path / "cheat_mod.py").write_text("from helpers_policy import RARE_CHEAT as CHEAT\n")
    tests = os.path.dirname(os.path.abspath(__file__))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), tests, REPO]))
    argv = [sys.executable, "-m", "tarotsim.cli", "simulate", "--deals", "3000", "--seed", "3", "--bots",
            "heuristic,heuristic:garde=30,cheat_mod:CHEAT,heuristic:prise=20"]
    local = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=tmp_path, timeout=600)
    dask = subprocess.run(argv + ["--dask-local", "2"], capture_output=True, text=True, env=env, cwd=tmp_path,
                          timeout=600)
    assert local.returncode == dask.returncode == 2 and local.stdout == dask.stdout == ""
    line = local.stderr
    assert line.startswith("tarotsim: error: bot rare_cheat at seat 2, deal (3, ") and line.count("\n") == 1
    assert dask.stderr.endswith(line) and "Traceback" not in dask.stderr and "Compute Failed" not in dask.stderr
    assert all(x.startswith("tarotsim: ") for x in dask.stderr.splitlines()), dask.stderr
