"""The one thread pool of the batch runs (tarotsim.parallel.run_chunks)."""

import threading

import pytest

from tarotsim.parallel import run_chunks


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_every_deal_once_whatever_the_threads(threads):
    seen = []
    lock = threading.Lock()

    def work(a, b, state):
        state.append((a, b))
        with lock:
            seen.extend(range(a, b))

    done = []
    states = run_chunks(10, 1000, 7, threads, list, work, progress=done.append)
    assert sorted(seen) == list(range(10, 1000)) and sum(done) == 990
    assert sorted(c for s in states for c in s) == [(a, min(1000, a + 7)) for a in range(10, 1000, 7)]


@pytest.mark.parametrize("threads", [1, 2])
def test_false_stops_every_worker_after_its_chunk(threads):
    taken = []

    def work(a, b, state):
        taken.append(a)
        return False if a == 30 else None

    run_chunks(0, 10_000, 10, threads, lambda: None, work)
    assert 30 in taken and len(taken) <= 4 + threads  # chunks 0..30, and at most one more per worker


def test_an_exception_in_a_worker_stops_the_others():
    taken = []

    def work(a, b, state):
        taken.append(a)
        if a == 50:
            raise ZeroDivisionError("boom")

    with pytest.raises(ZeroDivisionError):
        run_chunks(0, 100_000, 10, 2, lambda: None, work)
    assert len(taken) < 100


def test_a_signal_while_a_worker_never_returns_is_raised_at_once():
    """A chunk that never ends (a user's function looping inside the kernels) must not hold the
    run: the exception a signal raises in the calling thread (Ctrl-C, SIGTERM under
    outputs.signals_raise) comes out of run_chunks at once, for one thread as for several."""
    import os
    import signal
    import time

    class Stop(Exception):
        pass

    def handler(signum, frame):
        raise Stop

    started, release = threading.Event(), threading.Event()

    def work(a, b, state):
        started.set()
        release.wait()  # "never" returns: released when the test is over

    old = signal.signal(signal.SIGUSR1, handler)
    try:
        for threads in (1, 2):
            started.clear()
            threading.Thread(target=lambda: (started.wait(), time.sleep(0.2), os.kill(os.getpid(), signal.SIGUSR1)),
                             daemon=True).start()
            t0 = time.monotonic()
            with pytest.raises(Stop):
                run_chunks(0, 100, 10, threads, lambda: None, work)
            assert time.monotonic() - t0 < 30
    finally:
        signal.signal(signal.SIGUSR1, old)
        release.set()


# ---------------------------------------------------------------------------------------------
# how many workers a run starts (bounded_workers): what the machine and the work can use


def test_bounded_workers_caps_at_the_cores_and_the_work_and_says_why(monkeypatch):
    from tarotsim import parallel

    monkeypatch.setattr(parallel, "available_cores", lambda: 4)
    lines = []
    assert parallel.bounded_workers(None) == 4 and parallel.bounded_workers(3) == 3
    assert parallel.bounded_workers(None, "--threads", work=2, log=lines.append) == 2 and lines == []  # a default
    assert parallel.bounded_workers(64, "--threads", log=lines.append) == 4
    assert parallel.bounded_workers(3, "--dask-local", work=1, unit="task(s)", log=lines.append) == 1
    assert parallel.bounded_workers(2, "--workers", work=0, log=lines.append) == 1
    assert lines == ["--threads 64 lowered to 4: this process may use 4 core(s)",
                     "--dask-local 3 lowered to 1: the work is 1 task(s)",
                     "--workers 2 lowered to 1: the work is 0 deal(s)"]


@pytest.mark.parametrize("requested", [0, -1, 4097, 2**63 - 1, 10**20, True, 2.5])
def test_bounded_workers_refuses_the_absurd(requested):
    from tarotsim.parallel import MAX_WORKERS, WorkersError, bounded_workers

    assert MAX_WORKERS == 4096
    with pytest.raises(WorkersError, match="--threads"):
        bounded_workers(requested, "--threads")
