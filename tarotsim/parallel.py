"""The one thread pool of the batch runs: chunks of deals pulled by worker threads.

The numba kernels release the GIL, so threads run deals in parallel. Results never depend on
the number of threads: each deal is identified by ``(seed, index)`` alone and the totals are
integer sums.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

S = TypeVar("S")


def run_chunks(start: int, stop: int, chunk_size: int, threads: int, new_state: Callable[[], S],
               work: Callable[[int, int, S], bool | None],
               progress: Callable[[int], None] | None = None) -> list[S]:
    """Run ``work(a, b, state)`` over the chunks ``[a, b)`` of ``start .. stop - 1``.

    Each of ``threads`` workers makes its own ``state = new_state()`` (running totals, say) and
    pulls the next chunk until none is left; the states are returned, one per worker. ``work``
    returning ``False`` stops every worker after its current chunk (a bot broke a rule: the run
    ends). So does an exception in any worker, or in the main thread while it waits (Ctrl-C,
    SIGTERM): no worker takes another chunk, so an interrupted run stops within one chunk.
    ``progress(n)`` is called under a lock after every chunk of ``n`` deals.
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
            try:
                if work(a, b, state) is False:
                    halt.set()
            except BaseException:
                halt.set()
                raise
            if progress is not None:
                with lock:
                    progress(b - a)
        return state

    threads = max(1, int(threads))
    if threads == 1 or n_chunks <= 1:
        return [worker()]
    pool = ThreadPoolExecutor(max_workers=min(threads, n_chunks))
    try:
        futures = [pool.submit(worker) for _ in range(min(threads, n_chunks))]
        return [f.result() for f in futures]
    finally:
        halt.set()
        pool.shutdown(wait=True)
