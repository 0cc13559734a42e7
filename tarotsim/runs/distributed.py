"""Runs on a Dask cluster (the optional extra ``tarotsim[dask]``: dask and distributed).

:func:`executor` gives :func:`tarotsim.runs.shards.execute` a way to run deal ranges on Dask workers:
an existing cluster (``--scheduler tcp://HOST:PORT``) or a local one of N worker processes
(``--dask-local N``). The work is a plain map and sum:

- every task is one deal range of about a second of work or more
  (:meth:`tarotsim.runs.shards.Job.task_deals`), but for the last ones, cut finer so that no worker
  finishes alone (:func:`tail_pieces`), with a deterministic key (the job's configuration hash
  and the range), so a resumed run asks for the same tasks;
- before the timed work every worker loads (or compiles) the numba kernels once, through a
  worker plugin that also runs on workers joining later;
- a task whose worker dies is run again elsewhere by the scheduler (its ``allowed-failures``),
  and a line says so;
- results are streamed back with ``as_completed(..., with_results=True)`` and summed on the
  client in integers, so the totals are those of a local run whatever the workers or the order;
  two tasks per worker thread are in flight, so the scheduler holds few tasks however long the
  run and no worker is left with a queue while another has none.

Dask is imported only here, and only when asked for: without it, :class:`DaskMissing` names
``pip install 'tarotsim[dask]'``.
"""

from __future__ import annotations

import contextlib
import sys
import time
from typing import Protocol

from .. import echo
from .shards import ShardError, pieces

INSTALL_HINT = "pip install 'tarotsim[dask]'"
#: Seconds to wait for a scheduler before giving up on it.
CONNECT_TIMEOUT = 10
#: Seconds between two progress lines on stderr when it is not a terminal.
PROGRESS_EVERY = 10.0
#: The last pieces of a run are down to 1 / TAIL_SPLIT of a full one (``tail_pieces``).
TAIL_SPLIT = 16
#: Dask settings of the workers a local cluster starts. Each task is one long numba call, so the
#: worker's statistical profiler (a stack sample every 10 ms) and its system and memory monitors
#: (every 0.5 s and 0.1 s) only take CPU from the deals; these settings sample less often
#: (BENCHMARKS.md, "Design measurements"). Workers of an existing cluster take the same from
#: their environment (docs/how-to/cluster.md).
QUIET_WORKERS = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.system-monitor.interval": "2s",
    "distributed.worker.memory.monitor-interval": "2s",
}


class RangeJob(Protocol):
    """What runs on Dask: a job whose deal ranges are computed apart and summed on the client.

    A :class:`tarotsim.runs.shards.Job`, or the games of a league (``tarotsim.league.schedule``):
    plain values a worker rebuilds its bots from, the totals of a range (:meth:`compute`), the
    prefix of its task keys (:meth:`key`, ``command``) and its kernels loaded once per worker."""

    command: str

    def key(self) -> str: ...

    def task_deals(self) -> int: ...

    def compute(self, a: int, b: int, threads: int = 1, progress=None): ...

    def warm_up(self) -> None: ...

    def compile_seconds(self) -> int | None: ...


class DaskMissing(ShardError):
    """Dask was asked for but is not installed."""


def require():
    """Import ``distributed`` (:class:`DaskMissing` with the install command when it is missing)."""
    try:
        import distributed
    except ImportError:
        raise DaskMissing(f"--scheduler and --dask-local need Dask, which is not installed: {INSTALL_HINT}") from None
    return distributed


def _run_task(job: RangeJob, a: int, b: int):
    """One task: the totals of deals ``a .. b - 1`` on one thread of the worker."""
    return job.compute(a, b, threads=1)


try:  # this module is imported only when Dask is asked for
    from distributed.diagnostics.plugin import WorkerPlugin as _PluginBase
except ImportError:  # without the extra: a plain base class, never instantiated
    _PluginBase = object  # type: ignore[misc,assignment]


class _WarmUp(_PluginBase):
    """Worker plugin: load (or compile) the job's kernels once per worker, before any task."""

    def __init__(self, job: RangeJob):
        self.job = job
        self.name = f"tarotsim-warm-up-{job.key()}"

    def setup(self, worker=None):
        try:
            self.job.warm_up()
        except Exception:  # a bot that fails on the first deal: its task reports it, in one line
            pass

    def teardown(self, worker=None):
        pass


@contextlib.contextmanager
def connect(scheduler: str | None = None, local_workers: int | None = None):
    """A Dask client, on a scheduler or a new local cluster.

    A Dask client: on the scheduler at ``scheduler`` or on a new local cluster of
    ``local_workers`` worker processes of one thread each (closed on exit).

    An unreachable scheduler is a :class:`ShardError` of one line."""
    distributed = require()
    if (scheduler is None) == (local_workers is None):
        raise ShardError("give one of --scheduler and --dask-local")
    if scheduler is not None:
        check_address(scheduler)
        try:
            client = distributed.Client(scheduler, timeout=CONNECT_TIMEOUT, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as e:
            reason = " ".join(str(e).split()) or type(e).__name__
            raise ShardError(f"--scheduler {scheduler}: cannot reach the Dask scheduler ({reason[:200]})") from None
        with contextlib.closing(client):
            yield client
        return
    import logging
    # a local cluster is ours: quiet its start-up and shut-down chatter here, keep its errors; its
    # workers say nothing (a task's error comes back to this process, and is told in one line)
    for name in ("distributed", "distributed.nanny", "distributed.scheduler", "distributed.worker"):
        logging.getLogger(name).setLevel(logging.ERROR)
    assert local_workers is not None  # no scheduler given: a local cluster
    import dask
    with dask.config.set(QUIET_WORKERS):  # the nannies hand these to their workers, restarted ones too
        with distributed.LocalCluster(n_workers=int(local_workers), threads_per_worker=1, processes=True,
                                      dashboard_address=":0", silence_logs=logging.CRITICAL) as cluster:
            with distributed.Client(cluster, set_as_default=False) as client:
                yield client


def check_address(scheduler: str) -> None:
    """Check a Dask scheduler's address.

    A scheduler's address as Dask takes it (``tcp://HOST:PORT``, ``tls://``, ``HOST:PORT``), or
    a :class:`ShardError` of one line, before any connection is tried (a client built on a bad
    address hangs on its way out)."""
    from distributed.comm.addressing import get_address_host_port

    hint = "give the scheduler's address, tcp://HOST:PORT"
    if not isinstance(scheduler, str) or not scheduler.strip():
        raise ShardError(f"--scheduler: an empty address: {hint}")
    try:
        host, port = get_address_host_port(scheduler.strip())
    except (ValueError, TypeError) as e:
        raise ShardError(f"--scheduler {scheduler}: not a scheduler address ({' '.join(str(e).split())}): "
                         f"{hint}") from None
    if not host or not 1 <= int(port) <= 65535:
        raise ShardError(f"--scheduler {scheduler}: not a scheduler address (host {echo.shown(host)}, port {port}): {hint}")


def tail_pieces(ranges, size: int, threads: int) -> list[tuple[int, int]]:
    """Cut deal ranges into pieces that shrink near the end of the run.

    :func:`tarotsim.runs.shards.pieces` of ``size`` deals, but shorter near the end of the run:
    each piece holds at most the deals left (from its start) over ``2 * threads``, and at least
    ``size // TAIL_SPLIT``. With pieces of a second each, the run's last second or so would
    otherwise keep one worker busy while the others wait for nothing (BENCHMARKS.md measures
    the gain). The full pieces keep :func:`~tarotsim.runs.shards.pieces`'s alignment."""
    full = pieces(ranges, size)
    floor = max(1, size // TAIL_SPLIT)
    share = 2 * max(1, threads)
    left = sum(b - a for a, b in full)
    out = []
    k = 0
    while k < len(full) and left // share >= size:  # far from the end: the aligned pieces
        out.append(full[k])
        left -= full[k][1] - full[k][0]
        k += 1
    rest: list[tuple[int, int]] = []  # the tail, as contiguous ranges
    for a, b in full[k:]:
        if rest and rest[-1][1] == a:
            rest[-1] = (rest[-1][0], b)
        else:
            rest.append((a, b))
    for a, b in rest:
        while a < b:
            n = min(b - a, max(floor, left // share))
            out.append((a, a + n))
            a += n
            left -= n
    return out


def run_ranges(client, job: RangeJob, ranges, on_done, on_start=None, *, task_deals: int | None = None, progress=None,
               log=None, progress_lines: bool = True) -> int:
    """Run deal ranges of a job as tasks on Dask workers.

    Run ``ranges`` of ``job`` as tasks on ``client``'s workers, calling ``on_done(a, b,
    totals)`` as each one arrives; returns the number of worker threads.

    ``task_deals``: deals per task (default :meth:`RangeJob.task_deals`); ``progress(n)``: called with
    the deals of every finished task; ``log(line)``: a line when the run starts and (with
    ``progress_lines``), at most every :data:`PROGRESS_EVERY` seconds, how far it is;
    ``on_start()``: called when every worker is ready, as the timed work starts."""
    distributed = require()
    client.register_plugin(_WarmUp(job))  # every worker loads the kernels, now and when it joins
    threads = max(1, sum(client.nthreads().values()))
    tasks = tail_pieces(ranges, task_deals or job.task_deals(), threads)
    total = sum(b - a for a, b in tasks)
    if log is not None:
        log(f"dask: {len(tasks):,} task(s) of up to {task_deals or job.task_deals():,} deals on "
            f"{len(client.nthreads())} worker(s), {threads} thread(s)")
    prefix = f"tarotsim-{job.command.replace(' ', '-')}-{job.key()}"
    if on_start is not None:
        on_start()
    # tasks in flight: one running and one waiting per thread. The scheduler gives a task to a
    # worker when it is submitted; with more in flight (8 on 2 workers) the last ones sat in one
    # worker's queue while the other ran out (1 -> 2 workers: 1.84x, against 1.90x now)
    window = 2 * threads
    queue = iter(tasks)
    where = {}  # key -> (future, a, b) of the tasks in flight

    def submit():
        for a, b in queue:
            fut = client.submit(_run_task, job, a, b, key=f"{prefix}-{a}-{b}", pure=False)
            where[fut.key] = (fut, a, b)
            return fut
        return None

    first = [f for f in (submit() for _ in range(window)) if f is not None]
    done_deals, last = 0, time.monotonic()
    workers = set(client.nthreads())
    ac = distributed.as_completed(first, with_results=True, loop=client.loop)
    try:
        for fut, totals in ac:
            _, a, b = where.pop(fut.key)
            fut.release()
            on_done(a, b, totals)
            done_deals += b - a
            if progress is not None:
                progress(b - a)
            if log is not None:
                workers = _tell_lost_workers(client, workers, log)
                if progress_lines and (time.monotonic() - last >= PROGRESS_EVERY or done_deals == total):
                    last = time.monotonic()
                    log(f"dask: {done_deals:,} of {total:,} deals done")
            nxt = submit()
            if nxt is not None:
                ac.add(nxt)
    finally:
        ac.clear()  # an interrupted run leaves nothing queued on the cluster
        if where:
            with contextlib.suppress(Exception):
                client.cancel([fut for fut, _, _ in where.values()])
    return threads


def _tell_lost_workers(client, known: set, log) -> set:
    """The client's workers now, with a line for each known one that left.

    The workers of ``client`` now; one line for each of ``known`` that left (it died, or its
    nanny restarted it): the scheduler runs its tasks again elsewhere, each range still counted
    once (``tarotsim.runs.shards.execute``)."""
    try:
        now = set(client.nthreads())
    except Exception:  # the scheduler did not answer: asked again after the next task
        return known
    for address in sorted(known - now):
        log(f"dask: worker {address} left the cluster: the scheduler runs its task(s) again on another worker")
    return now


def executor(scheduler: str | None = None, local_workers: int | None = None, *, task_deals: int | None = None,
             progress=None, log=None, progress_lines: bool = True, client=None):
    """An executor that runs the ranges of a run on Dask.

    An ``executor`` for :func:`tarotsim.runs.shards.execute` that runs the ranges on Dask: on
    ``client`` when given, else on the scheduler at ``scheduler`` or on a local cluster of
    ``local_workers`` processes (opened when the run starts, closed when it ends), at most one per
    core and per task (:func:`tarotsim.parallel.bounded_workers`: ``log`` gets a line when
    ``local_workers`` is lowered; an absurd number is a ``WorkersError`` here, before any run)."""
    from ..parallel import bounded_workers

    require()
    if local_workers is not None:
        bounded_workers(local_workers, "--dask-local")
    if scheduler is not None and client is None:
        check_address(scheduler)

    def run(job: RangeJob, ranges, on_done, on_start=None) -> int:
        if not ranges:
            return 1
        kw = dict(task_deals=task_deals, progress=progress, log=log, progress_lines=progress_lines)
        if client is not None:
            return run_ranges(client, job, ranges, on_done, on_start, **kw)
        workers = local_workers
        if workers is not None:  # a process per core at most, and per task
            tasks = tail_pieces(ranges, task_deals or job.task_deals(), bounded_workers(workers, "--dask-local"))
            workers = bounded_workers(workers, "--dask-local", work=len(tasks), unit="task(s)", log=log)
            about = job.compile_seconds()  # the local workers share this machine's numba cache
            if about is not None and log is not None:
                log(f"dask: the workers compile the kernels first, once: about {about} s (numba keeps them in its "
                    f"cache)")
        with connect(scheduler, workers) as c:
            return run_ranges(c, job, ranges, on_done, on_start, **kw)

    return run


def stderr_log(line: str) -> None:
    print(f"tarotsim: {line}", file=sys.stderr, flush=True)


__all__ = ["CONNECT_TIMEOUT", "DaskMissing", "INSTALL_HINT", "QUIET_WORKERS", "RangeJob", "TAIL_SPLIT", "check_address",
           "connect", "executor", "require", "run_ranges", "tail_pieces"]
