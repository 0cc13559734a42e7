"""The one thread pool of the batch runs: chunks of deals pulled by worker threads.

The numba kernels release the GIL, so threads run deals in parallel. Results never depend on
the number of threads: each deal is identified by ``(seed, index)`` alone and the totals are
integer sums.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable
from typing import TypeVar

S = TypeVar("S")


def run_chunks(start: int, stop: int, chunk_size: int, threads: int, new_state: Callable[[], S],
               work: Callable[[int, int, S], bool | None],
               progress: Callable[[int], None] | None = None) -> list[S]:
    """Run ``work(a, b, state)`` over the chunks ``[a, b)`` of ``start .. stop - 1``.

    Each of ``threads`` workers makes its own ``state = new_state()`` (running totals, say) and
    pulls the next chunk until none is left; the states are returned, one per worker. ``work``
    returning ``False`` stops every worker after its current chunk (a bot broke a rule: the run
    ends). So does an exception in any worker (the first one is raised here).

    The workers are daemon threads, even for one thread, and the calling thread only waits for
    them: an exception in it while it waits (Ctrl-C, or SIGTERM turned into an exception by
    :func:`tarotsim.outputs.signals_raise`) is raised at once, without waiting for the chunks in
    progress. So a user's function that never returns (a policy set looping inside the kernels)
    cannot keep a run from stopping cleanly; the workers take no further chunk, and the process
    exits without them. ``progress(n)`` is called under a lock after every chunk of ``n`` deals.
    """
    chunk_size = max(1, int(chunk_size))
    n_chunks = (stop - start + chunk_size - 1) // chunk_size
    counter = itertools.count()
    lock = threading.Lock()
    halt = threading.Event()

    def worker() -> S:
        state = new_state()
        while not halt.is_set():
            with lock:
                k = next(counter)
            if k >= n_chunks:
                break
            a = start + k * chunk_size
            b = min(stop, a + chunk_size)
            if work(a, b, state) is False:
                halt.set()
            if progress is not None and not halt.is_set():  # a stopped run reports no more progress
                with lock:
                    progress(b - a)
        return state

    n_workers = max(1, min(int(threads), n_chunks))
    states: list = [None] * n_workers
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            states[i] = worker()
        except BaseException as e:  # raised in the calling thread, below
            halt.set()
            errors.append(e)

    pool = [threading.Thread(target=run, args=(i,), name=f"tarotsim-worker-{i}", daemon=True)
            for i in range(n_workers)]
    for t in pool:
        t.start()
    try:
        for t in pool:
            t.join()
    except BaseException:
        halt.set()  # no worker takes another chunk; the ones in progress are not waited for
        raise
    if errors:
        raise errors[0]
    return states
