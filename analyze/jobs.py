"""Analyses asked for over HTTP: a queue in the database, worked by one thread of the server.

A job is one (record, bot, seed): asked again, the same job answers (never run twice); asked
when that analysis is stored already, it is done at once. A job is ``queued``, ``running``
(moves done of all), ``done`` or ``failed`` (with the reason). The queue is in the database,
so a server stopped mid-job finds it queued again when it starts, and runs it then. An actor
has at most ``MAX_QUEUED`` jobs queued or running at once.

The worker hands each job to the batch seam (:mod:`scorebook.batch`): by default it runs in
the server's process, one job at a time, reporting its progress move by move; with
``executor="dask"`` each job runs on a worker of a Dask cluster and comes back whole (its
progress shows only when done), the database never leaving this machine.
"""
from __future__ import annotations

import threading
import time
from datetime import datetime, timezone

from scorebook import batch
from scorebook.errors import NotFound, ScorebookError, UsageError
from scorebook.records.store import Store

from .loss import ENGINE_VERSION
from .run import analysis_task, analyze_one, resolve

MAX_QUEUED = 10  # jobs one actor may have queued or running at once
POLL_SECONDS = 0.5  # how often an idle worker looks at the queue


class TooManyJobs(ScorebookError):
    """An actor's queue is full."""


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def job_doc(row) -> dict:
    """A job as the HTTP API shows it."""
    doc = {"job": row["id"], "record": row["record_id"], "bot": row["bot"], "seed": row["seed"],
           "status": row["status"]}
    if row["status"] == "running":
        doc["progress"] = {"moves": row["done_moves"], "of": row["total_moves"]}
    if row["status"] == "failed":
        doc["error"] = row["error"]
    return doc


def ask(store: Store, record_id: str, spec: str | None, seed: int, actor: str, *, files: dict | None = None,
        max_queued: int = MAX_QUEUED) -> tuple[dict, bool]:
    """Queue the analysis of a stored record: (its job, whether it is new). NotFound for no
    such record, UsageError for a bot spec its game does not take, TooManyJobs."""
    row = store.get(record_id)
    name, _ = resolve(row["game"], spec, (files or {}).get(row["game"]))
    with store.atomic():
        found = store.db.execute("SELECT * FROM analysis_jobs WHERE record_id = ? AND bot = ? AND seed = ?",
                                 [row["id"], name, seed]).fetchone()
        if found is not None:
            return job_doc(_row(store, found[0])), False
        stored = store.find_analysis(row["id"], name, seed, ENGINE_VERSION) is not None
        if not stored:
            waiting = store.db.execute("SELECT count(*) FROM analysis_jobs WHERE actor = ? AND status IN "
                                       "('queued', 'running')", [actor]).fetchone()[0]
            if waiting >= max_queued:
                raise TooManyJobs(f"{actor} has {waiting} analyses queued or running (at most {max_queued})")
        cur = store.db.execute(
            "INSERT INTO analysis_jobs (record_id, bot, spec, seed, actor, status, total_moves, created_at, updated_at)"
            " VALUES (?,?,?,?,?,?,?,?,?)", [row["id"], name, spec, seed, actor, "done" if stored else "queued",
                                            len(store.moves(row["id"])), _now(), _now()])
    return job_doc(_row(store, cur.lastrowid)), True


def _row(store: Store, job_id: int) -> dict:
    rows = list(store.db.query("SELECT * FROM analysis_jobs WHERE id = ?", [job_id]))
    if not rows:
        raise NotFound(f"no analysis job {job_id}")
    return rows[0]


def job(store: Store, job_id: int) -> dict:
    return job_doc(_row(store, job_id))


def latest_job(store: Store, record_id: str) -> dict | None:
    """The newest job asked for a record, or None."""
    rows = list(store.db.query("SELECT * FROM analysis_jobs WHERE record_id = ? ORDER BY id DESC LIMIT 1",
                               [record_id]))
    return job_doc(rows[0]) if rows else None


def latest_report(store: Store, record_id: str) -> dict | None:
    """The latest stored analysis of a record, as ``analyze --json`` prints it, or None."""
    row = store.get(record_id)
    found = store.db.execute("SELECT a.bot, a.seed, a.engine_version FROM analyses a JOIN records r ON r.key = "
                             "a.record_key WHERE r.id = ? ORDER BY a.id DESC LIMIT 1", [row["id"]]).fetchone()
    if found is None:
        return None
    report = store.find_analysis(row["id"], *found)
    return {"id": row["id"], "bot": report["bot"], "seed": report["seed"], "game": row["game"],
            "engine_version": report["engine_version"], "settings": report["settings"],
            "thresholds": report["thresholds"], "moves": report["moves"], "summary": report["summary"]}


class Worker(threading.Thread):
    """Works the queue of the database at ``path``, one job at a time, until ``stop``: in this
    process (``executor="local"``) or on a Dask cluster (``"dask"``, at ``scheduler``)."""

    def __init__(self, path: str, *, files: dict | None = None, poll: float = POLL_SECONDS,
                 executor: str = "local", scheduler: str | None = None):
        super().__init__(name="scorebook-analyses", daemon=True)
        self.path, self.files, self.poll = path, files, poll
        self.executor, self.scheduler = executor, scheduler
        self.pool: batch.Pool | None = None
        self.stopping = threading.Event()

    def stop(self) -> None:
        self.stopping.set()

    def run(self) -> None:
        with batch.executor(self.executor, jobs=1, scheduler=self.scheduler) as self.pool, Store(self.path) as store:
            with store.atomic():  # a job a stopped server left running is queued again
                store.db.execute("UPDATE analysis_jobs SET status = 'queued', done_moves = 0, updated_at = ? "
                                 "WHERE status = 'running'", [_now()])
            while not self.stopping.is_set():
                if not self.work_one(store):
                    self.stopping.wait(self.poll)

    def work_one(self, store: Store) -> bool:
        """Run the oldest queued job, if any; whether there was one."""
        with store.atomic():
            row = store.db.execute("SELECT id, record_id, spec, seed FROM analysis_jobs WHERE status = 'queued' "
                                   "ORDER BY id LIMIT 1").fetchone()
            if row is None:
                return False
            store.db.execute("UPDATE analysis_jobs SET status = 'running', done_moves = 0, updated_at = ? WHERE id = ?",
                             [_now(), row[0]])
        job_id, record_id, spec, seed = row
        done = [0]
        last = [0.0]

        def progress() -> None:  # a move done: written at most a few times a second
            done[0] += 1
            if time.monotonic() - last[0] > 0.2:
                last[0] = time.monotonic()
                with store.atomic():
                    store.db.execute("UPDATE analysis_jobs SET done_moves = ?, updated_at = ? WHERE id = ?",
                                     [done[0], _now(), job_id])
        try:
            self.analyse(store, record_id, spec, seed, progress)
            status, error = "done", None
        except (ScorebookError, UsageError) as exc:
            status, error = "failed", str(exc)[:300]
        except Exception as exc:  # noqa: BLE001 - a job fails with its reason, the server goes on
            status, error = "failed", f"{type(exc).__name__}: {str(exc)[:280]}"
        with store.atomic():
            store.db.execute("UPDATE analysis_jobs SET status = ?, error = ?, done_moves = coalesce(total_moves, ?), "
                             "updated_at = ? WHERE id = ?", [status, error, done[0], _now(), job_id])
        return True

    def analyse(self, store: Store, record_id: str, spec: str | None, seed: int, progress) -> None:
        """One job: here, move by move; or as one task on the pool's workers, stored here."""
        if self.pool is None or isinstance(self.pool.executor, batch.InlineExecutor):
            analyze_one(store, record_id, spec, seed, progress=progress, files=self.files)
            return
        report = self.pool.submit(analysis_task, (store.get(record_id), spec, seed, self.files)).result()
        if "error" in report:
            raise ScorebookError(report["error"])
        store.save_analysis(report["id"], report)
