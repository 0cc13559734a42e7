"""The one thread pool of the batch runs, and how many workers a run may start.

The numba kernels release the GIL, so threads run deals in parallel (:func:`run_chunks`).
Results never depend on the number of threads: each deal is identified by ``(seed, index)``
alone and the totals are integer sums. :func:`bounded_workers` is the one rule for every count
of workers a user gives (``--threads``, ``replay --workers``, ``--dask-local``): at most what the
machine and the work can use, and never an absurd number. :func:`call_waiting` runs one long
kernel call (a solver's question) so that the program still stops at once when asked to.
"""

from __future__ import annotations

import itertools
import queue
import threading
from collections.abc import Callable
from typing import TypeVar

from . import echo

S = TypeVar("S")

#: More workers than this is a mistake (a typo, an overflow), whatever the machine.
MAX_WORKERS = 4096


class WorkersError(ValueError):
    """A count of workers that makes no sense: one line for the user."""


def available_cores() -> int:
    """The number of cores this process may run on.

    The cores this process may run on: its CPU affinity where the system tells it, else every
    core of the machine. The default number of workers everywhere."""
    import os

    if hasattr(os, "sched_getaffinity"):
        try:
            return max(1, len(os.sched_getaffinity(0)))
        except OSError:
            pass
    return max(1, os.cpu_count() or 1)


def bounded_workers(requested: int | None, what: str = "workers", *, work: int | None = None,
                    unit: str = "deal(s)", log: Callable[[str], None] | None = None) -> int:
    """How many workers to start for a request.

    How many workers (threads or processes) to start when ``requested`` were asked for (None:
    one per core): at most :func:`available_cores` and, when ``work`` is given, at most one per
    unit of work (``work`` deals, files, tasks ..., named by ``unit``), and at least 1.

    ``what`` names the request in messages (``"--threads"``). A request of fewer than 1 or more
    than :data:`MAX_WORKERS` raises :class:`WorkersError`. A request that is lowered calls
    ``log`` with one line saying why (a default of one per core is lowered silently)."""
    cores = available_cores()
    if requested is not None:
        if isinstance(requested, bool) or not isinstance(requested, int):
            raise WorkersError(f"{what}: a whole number of workers, not {echo.shown(requested)}")
        if not 1 <= requested <= MAX_WORKERS:
            raise WorkersError(f"{what} {requested}: give 1 to {MAX_WORKERS:,} (this machine has {cores} "
                               f"core(s))")
    n = cores if requested is None else requested
    reason = None
    if n > cores:
        n, reason = cores, f"this process may use {cores} core(s)"
    if work is not None and n > max(1, work):
        n, reason = max(1, work), f"the work is {work:,} {unit}"
    if requested is not None and n < requested and log is not None:
        log(f"{what} {requested} lowered to {n}: {reason}")
    return n


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


class _Worker:
    """A daemon thread that makes the calls handed to it, one at a time (:func:`call_waiting`)."""

    def __init__(self) -> None:
        self.calls: queue.SimpleQueue = queue.SimpleQueue()
        self.answers: queue.SimpleQueue = queue.SimpleQueue()
        threading.Thread(target=self._serve, name="tarotsim-call", daemon=True).start()

    def _serve(self) -> None:
        while (call := self.calls.get()) is not None:
            fn, args = call
            try:
                self.answers.put((True, fn(*args)))
            except BaseException as e:  # raised in the waiting thread, by call_waiting
                self.answers.put((False, e))


#: the main thread's idle worker (None while a call is out: an interrupted call keeps its worker)
_idle_worker: _Worker | None = None


def call_waiting(fn: Callable[..., S], *args) -> S:
    """``fn(*args)``, called in a worker thread while the main thread waits.

    A numba kernel cannot be interrupted while it runs, and the main thread is the one that
    handles signals. So from the main thread, ``fn`` (a kernel compiled with ``nogil``) runs in a
    daemon worker thread while the main thread only waits: Ctrl-C, or SIGTERM turned into an
    exception by :func:`tarotsim.outputs.signals_raise`, is raised here at once. The abandoned
    call then finishes unattended in its worker, still writing into the arrays it was given:
    the caller must not use them again. From any other thread (no signal reaches it), ``fn`` is
    simply called. Returns what ``fn`` returns; raises what it raises."""
    global _idle_worker
    if threading.current_thread() is not threading.main_thread():
        return fn(*args)
    worker, _idle_worker = _idle_worker or _Worker(), None
    worker.calls.put((fn, args))
    try:
        ok, answer = worker.answers.get()
    except BaseException:
        worker.calls.put(None)  # it ends after the abandoned call
        raise
    _idle_worker = worker
    if not ok:
        raise answer
    return answer
