"""Analyses asked for over HTTP: a queue in the database (the store's ``analysis_jobs``),
worked by one thread of the server.

A job is one (record, bot, seed): asked again, the same job answers (never run twice); asked
when that analysis is stored already, it is done at once. Every job is bounded before it is
queued and while it runs:
- its bot's options are at most its game's caps (game.json's ``served``);
- an actor has at most ``max_queued`` jobs queued or running;
- it runs at most ``job_seconds``, in a process of its own, killed then (a move's work
  cannot be stopped from inside): it fails with that reason, the moves it judged kept as an
  analysis of their own, its bot named as stopped;
- its owner, or an administrator, cancels it, queued or running (HTTP, ``scorebook jobs
  cancel``);
- the worker takes turns between actors (the store's ``claim_job``): one actor's long queue
  never holds another's;
- a job a stopped server left running is queued again once; stopped twice, it fails.

Between jobs the worker also brings the kept ratings up to the records submitted since.

The worker hands each job to the batch seam (:mod:`scorebook.batch`): by default it runs in
a process of its own, reporting its progress move by move; with ``executor="dask"`` each job
runs on a worker of a Dask cluster and comes back whole, the database never leaving this
machine (waited for until its time limit).
"""
from __future__ import annotations

import concurrent.futures
import multiprocessing
import threading
import time

from scorebook import batch
from scorebook.analyze.loss import ENGINE_VERSION
from scorebook.analyze.run import analysis_task, compute, resolve
from scorebook.errors import ScorebookError, UsageError
from scorebook.records.store import Store

from .writer import Unavailable

POLL_SECONDS = 0.5  # how often an idle worker looks at the queue
PROGRESS_SECONDS = 0.2  # how often a running job's progress is written (and its cancel looked for)


class TooManyJobs(ScorebookError):
    """An actor's queue is full."""


class NotYours(ScorebookError):
    """A job cancelled by someone who neither asked for it nor administers the server."""


class Stopped(Exception):
    """A running job's end before its last move: cancelled, or out of time."""


def out_of_time(seconds: float) -> str:
    return f"stopped at the time limit of {seconds:g} s (job_seconds)"


def job_doc(row: dict) -> dict:
    """A job as the HTTP API and ``scorebook jobs`` show it."""
    doc = {"job": row["id"], "record": row["record_id"], "bot": row["bot"], "seed": row["seed"],
           "status": row["status"], "actor": row["actor"]}
    if row["status"] == "running":
        doc["progress"] = {"moves": row["done_moves"], "of": row["total_moves"]}
    if row["status"] in ("failed", "cancelled"):
        doc["error"] = row["error"]
    return doc


def ask(store: Store, record_id: str, spec: str | None, seed: int, actor: str, *, max_queued: int,
        files: dict | None = None) -> tuple[dict, bool]:
    """Queue the analysis of a stored record: (its job, whether it was queued now). NotFound
    for no such record, UsageError for a bot its game does not take or past the caps,
    TooManyJobs. Call on the writer."""
    row = store.get(record_id)
    name, _ = resolve(row["game"], spec, (files or {}).get(row["game"]), served=True)
    with store.atomic():
        found = store.find_job(row["id"], name, seed)
        if found is not None and found["status"] != "cancelled":
            return job_doc(found), False
        stored = store.find_analysis(row["id"], name, seed, ENGINE_VERSION) is not None
        if not stored:
            waiting = store.waiting_jobs(actor)
            if waiting >= max_queued:
                raise TooManyJobs(f"{actor} has {waiting} analyses queued or running (at most {max_queued})")
        if found is not None:
            store.queue_again(found["id"], actor)
            job_id = found["id"]
        else:
            job_id = store.add_job(row["id"], name, spec, seed, actor, "done" if stored else "queued",
                                   len(store.moves(row["id"])))
    return job_doc(store.job(job_id)), True


def job(store: Store, job_id: int) -> dict:
    return job_doc(store.job(job_id))


def latest_job(store: Store, record_id: str) -> dict | None:
    """The newest job asked for a record, or None."""
    row = store.latest_job(record_id)
    return job_doc(row) if row else None


def cancel(store: Store, job_id: int, actor: str | None) -> dict:
    """Cancel a queued or running job: ``actor`` must have asked for it (None: an
    administrator, or the command line). The job as it now stands. Call on the writer."""
    row = store.job(job_id)
    if actor is not None and row["actor"] != actor:
        raise NotYours(f"job {job_id} was asked for by another actor")
    store.cancel_job(job_id)
    return job_doc(store.job(job_id))


def latest_report(store: Store, record_id: str) -> dict | None:
    """The latest stored analysis of a record, as ``analyze --json`` prints it, or None."""
    row = store.get(record_id)
    found = store.latest_analysis(row["id"])
    if found is None:
        return None
    report = store.find_analysis(row["id"], *found[1:])
    return {"id": row["id"], "bot": report["bot"], "seed": report["seed"], "game": row["game"],
            "engine_version": report["engine_version"], "settings": report["settings"],
            "thresholds": report["thresholds"], "moves": report["moves"], "summary": report["summary"]}


class Worker(threading.Thread):
    """Works the queue, one job at a time, until ``stop``: in this process
    (``executor="local"``) or on a Dask cluster (``"dask"``, at ``scheduler``). Reads on its
    own connection; writes through ``writer`` (the server's one writer)."""

    def __init__(self, path: str, writer, *, job_seconds: float, files: dict | None = None,
                 poll: float = POLL_SECONDS, executor: str = "local", scheduler: str | None = None):
        super().__init__(name="scorebook-analyses", daemon=True)
        self.path, self.writer, self.files, self.poll = path, writer, files, poll
        self.job_seconds = job_seconds
        self.executor, self.scheduler = executor, scheduler
        self.pool: batch.Pool | None = None
        self.stopping = threading.Event()

    def stop(self) -> None:
        self.stopping.set()

    def run(self) -> None:
        with batch.executor(self.executor, jobs=1, scheduler=self.scheduler) as self.pool, \
                Store(self.path, write=False) as store:
            self.writer.call(lambda st: st.requeue_interrupted())
            rated = None
            while not self.stopping.is_set():
                try:
                    if self.work_one(store):
                        continue
                    rated = self.keep_ratings(store, rated)
                except Unavailable:  # the database takes no writes now (the writer told the log): later
                    pass
                self.stopping.wait(self.poll)

    def keep_ratings(self, store: Store, rated: int | None) -> int:
        """Between jobs: the kept ratings brought up to the records stored since the last time
        (submissions do not wait for it; ``ratings`` reads catch up in memory meanwhile). The
        last record's key, now rated."""
        last = store.last_key()
        if last != rated:
            from scorebook.analyze.ratings import update
            self.writer.call(update)
        return last

    def work_one(self, store: Store) -> bool:
        """Run the next job, if any; whether there was one (looked for on the worker's own
        connection first: an idle queue takes no write lock)."""
        row = self.writer.call(lambda st: st.claim_job()) if store.any_queued_job() else None
        if row is None:
            return False
        job_id = row["id"]
        deadline = time.monotonic() + self.job_seconds
        done, last = [0], [time.monotonic()]

        def progress() -> None:  # a move done: written at most a few times a second
            done[0] += 1
            if time.monotonic() - last[0] > PROGRESS_SECONDS:
                last[0] = time.monotonic()
                if self.writer.call(lambda st: st.job_progress(job_id, done[0])) == "cancelled":
                    raise Stopped("cancelled")
        try:
            self.analyse(store, row["record_id"], row["spec"], row["seed"], progress, deadline)
            status, error = "done", None
        except Stopped as exc:
            status, error = "failed", str(exc)
        except (ScorebookError, UsageError) as exc:
            status, error = "failed", str(exc)[:300]
        except Exception as exc:  # noqa: BLE001 - a job fails with its reason, the server goes on
            status, error = "failed", f"{type(exc).__name__}: {str(exc)[:280]}"
        self.writer.call(lambda st: st.finish_job(job_id, status, error, done[0]))
        return True

    def analyse(self, store: Store, record_id: str, spec: str | None, seed: int, progress, deadline: float) -> None:
        """One job: in a process of its own, move by move, stopped at ``deadline`` (the
        moves it finished kept); or as one task on a Dask worker, waited for until then.
        Stored through the writer."""
        row = store.get(record_id)
        if self.pool is None or isinstance(self.pool.executor, batch.InlineExecutor):
            report = run_in_process(row, spec, seed, self.files, progress, deadline, self.job_seconds,
                                    keep=lambda partial: self.writer.call(lambda st: st.save_analysis(
                                        partial["id"], partial)))
        else:
            future = self.pool.submit(analysis_task, (row, spec, seed, self.files))
            try:
                report = future.result(timeout=max(0.0, deadline - time.monotonic()))
            except concurrent.futures.TimeoutError:
                future.cancel()
                raise Stopped(out_of_time(self.job_seconds)) from None
        if "error" in report:
            raise ScorebookError(report["error"])
        self.writer.call(lambda st: st.save_analysis(report["id"], report))


def _job_process(conn, row: dict, spec: str | None, seed: int, files: dict | None) -> None:
    """A job's own process: the analysis, each move's row sent as it is judged, then the
    report (or the fault) sent whole."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server answers Ctrl-C; this process is stopped by it
    kept: list = []
    try:
        report = compute(row, spec, seed, lambda: conn.send(("move", kept[-1] if kept else None)), files, kept=kept)
        conn.send(("done", report))
    except Exception as exc:  # noqa: BLE001 - sent to the worker, which fails the job with it
        conn.send(("error", f"{type(exc).__name__}: {str(exc)[:280]}"))
    finally:
        conn.close()


_CONTEXT = multiprocessing.get_context("forkserver")  # a clean process a job: never a fork of the server's threads
_CONTEXT.set_forkserver_preload(["scorebook.analyze.run", "scorebook.analyze.loss"])  # imported once, not a job


def run_in_process(row: dict, spec: str | None, seed: int, files: dict | None, progress, deadline: float,
                   seconds: float, keep) -> dict:
    """A job's analysis in a process of its own, killed at ``deadline`` (a move's work cannot
    be interrupted from inside: the process can). Each move's row comes back as it is judged;
    stopped (the time limit, a cancel), the moves finished are kept: ``keep(report)`` stores
    them as an analysis of their own, its bot marked as stopped, before ``Stopped`` is raised."""
    ours, theirs = _CONTEXT.Pipe(duplex=False)
    process = _CONTEXT.Process(target=_job_process, args=(theirs, row, spec, seed, files), daemon=True,
                               name="scorebook-analysis")
    process.start()
    theirs.close()
    rows: list = []
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Stopped(out_of_time(seconds))
            if not ours.poll(min(left, PROGRESS_SECONDS)):
                if not process.is_alive() and not ours.poll(0):
                    raise ScorebookError(f"the analysis process ended with code {process.exitcode}")
                continue
            try:
                kind, value = ours.recv()
            except EOFError:
                raise ScorebookError(f"the analysis process ended with code {process.exitcode}") from None
            if kind == "done":
                return value
            if kind == "error":
                raise ScorebookError(value)
            if value is not None:
                rows.append(value)
            progress()
    except Stopped as stopped:
        if rows:
            keep(_stopped_report(row, spec, seed, files, rows, str(stopped)))
            raise Stopped(f"{stopped}; the {len(rows)} moves judged are kept") from None
        raise
    finally:
        if process.is_alive():
            process.kill()
        process.join(5)
        ours.close()


def _stopped_report(row: dict, spec: str | None, seed: int, files: dict | None, rows: list, why: str) -> dict:
    """The report of the moves a stopped job judged: an analysis of its own, its bot named as
    stopped (never taken for the whole record's)."""
    from scorebook.analyze.loss import report_of
    name, options = resolve(row["game"], spec, (files or {}).get(row["game"]))
    players = [p for p in (row.get("players") or "").split(" / ") if p]
    settings = {k: v for k, v in options.items() if isinstance(v, int)}
    settings["stopped"] = {"moves": len(rows), "why": why}  # kept with the settings: what the report stores
    report = report_of(row["game"], rows, bot=f"{name} (stopped after {len(rows)} moves: {why})",
                       settings=settings, seed=seed, players=players)
    report.update({"id": row["id"], "game": row["game"]})
    return report

