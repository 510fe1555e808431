"""One seam for batch work: ``analyze --all`` and ``play --games N`` hand one task per game
to an executor and write each result in this process, the single SQLite writer, as it
comes back. A task is a whole game with its seed, so a task that runs twice (a worker lost
mid-game and its game retried) gives the same numbers, and the caller stores it once.

Executors, all ``concurrent.futures`` ones:

* ``local`` (the default): a pool of ``jobs`` processes on this machine; with one job the
  tasks run here, in this process, one after the other;
* ``dask``: the workers of a Dask cluster (``pip install 'scorebook[dask]'``), reached at
  ``--scheduler tcp://HOST:PORT`` or ``$SCOREBOOK_SCHEDULER``. Record texts and seeds travel
  to the workers, plain results come back; the database never leaves this machine.

Only a window of tasks is in flight at any time (a few per worker), so a batch of 100,000
records holds a few dozen in memory and the scheduler a few dozen futures.

>>> with executor("local", jobs=1) as pool:
...     sorted(done for _, done in run_tasks(pool, abs, [-2, 1, -3]))
[1, 2, 3]
"""
from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass

from scorebook.errors import UsageError

EXECUTORS = ("local", "dask")
SCHEDULER_VARIABLE = "SCOREBOOK_SCHEDULER"
TASKS_PER_WORKER = 4  # in flight per worker: enough to keep it busy while results travel back


@dataclass
class Pool:
    """An executor, how many tasks it runs at once, and what wraps each task there."""
    executor: Executor
    workers: int
    kind: str
    wrap: Callable | None = None

    def submit(self, fn: Callable, arg) -> Future:
        return self.executor.submit(fn, arg) if self.wrap is None else self.executor.submit(self.wrap, fn, arg)


class InlineExecutor(Executor):
    """Runs each task at once, in this process (one local job: no process to start)."""

    def submit(self, fn, /, *args, **kwargs) -> Future:
        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # noqa: BLE001 - handed to the caller as the future's
            future.set_exception(exc)
        return future


def one_thread_each() -> None:
    """A worker process of the local pool runs its jitted play-outs on one thread (the games
    already spread over the cores) and leaves Ctrl-C to the main process, which answers it
    for all."""
    import signal

    import numba
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    numba.set_num_threads(1)


_ONE_TASK = threading.Lock()


def one_at_a_time(fn: Callable, arg):
    """A task on a Dask worker: one at a time per worker process, whatever its thread count,
    since numba's work-queue threading layer (Tiny Islands' parallel play-outs) aborts the
    process when two threads enter it at once; and on one numba thread, the workers
    themselves being spread over the cores (numba's thread count is per thread)."""
    with _ONE_TASK:
        import numba
        numba.set_num_threads(1)
        return fn(arg)


@contextmanager
def executor(kind: str = "local", *, jobs: int | None = None, scheduler: str | None = None) -> Iterator[Pool]:
    """The executor ``kind`` names, shut down on leaving (a Dask client disconnects; its
    cluster keeps running)."""
    if kind == "local":
        jobs = max(1, jobs or os.cpu_count() or 1)
        if jobs == 1:
            yield Pool(InlineExecutor(), 1, kind)
            return
        with ProcessPoolExecutor(max_workers=jobs, initializer=one_thread_each) as pool:
            yield Pool(pool, jobs, kind)
        return
    if kind != "dask":
        raise UsageError(f"--executor: {' or '.join(EXECUTORS)}")
    with dask_client(scheduler) as client:
        workers = len(client.scheduler_info()["workers"])
        yield Pool(client.get_executor(pure=False), max(1, workers), kind, one_at_a_time)


@contextmanager
def dask_client(scheduler: str | None):
    """A client of the cluster at ``scheduler`` (or ``$SCOREBOOK_SCHEDULER``), with the
    worker set-up below registered on every worker, present and future."""
    address = scheduler or os.environ.get(SCHEDULER_VARIABLE)
    if not address:
        raise UsageError(f"--executor dask needs --scheduler tcp://HOST:PORT (or ${SCHEDULER_VARIABLE})")
    try:
        from distributed import Client
    except ImportError:
        raise UsageError("--executor dask needs Dask: pip install 'scorebook[dask]'") from None
    try:
        client = Client(address, timeout="10s", set_as_default=False)
    except (OSError, TimeoutError) as exc:
        raise UsageError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    try:
        from scorebook.dask_worker import WorkerSetup
        client.register_plugin(WorkerSetup(), name="scorebook-worker-setup")
        if not client.scheduler_info()["workers"]:
            client.wait_for_workers(1, timeout=60)
        yield client
    except TimeoutError:
        raise UsageError(f"the Dask scheduler at {address} has no workers") from None
    finally:
        client.close()


def run_tasks(pool: Pool, fn: Callable, args: Iterable, *, window: int | None = None) -> Iterator[tuple]:
    """``fn(arg)`` for every arg, at most ``window`` in flight (default: a few per worker; one
    on an inline pool, so that each result comes back before the next task runs); yields
    ``(arg, result)`` as each finishes (those finished together in the order handed out), or
    ``(arg, exception)`` for a task that failed as a task (its worker lost too often, the
    cluster gone). ``args`` is read lazily, so planning a batch costs its length, never its
    square."""
    if window is None:  # an inline pool runs a task as it is handed out: one ahead would hold back its result
        window = 1 if isinstance(pool.executor, InlineExecutor) else pool.workers * TASKS_PER_WORKER
    pending: dict[Future, object] = {}
    todo = iter(args)
    exhausted = False
    while pending or not exhausted:
        while not exhausted and len(pending) < window:
            try:
                arg = next(todo)
            except StopIteration:
                exhausted = True
                break
            pending[pool.submit(fn, arg)] = arg
        if not pending:
            break
        done, _ = wait(pending, return_when=FIRST_COMPLETED)
        for future in [f for f in pending if f in done]:  # those done together: in the order handed out
            arg = pending.pop(future)
            try:
                yield arg, future.result()
            except Exception as exc:  # noqa: BLE001 - the caller records it against its game
                yield arg, exc
