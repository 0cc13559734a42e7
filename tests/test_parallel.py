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
