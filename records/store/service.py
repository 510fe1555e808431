"""The store's tables for the service: the tokens programs write with, and the queue of
analyses asked for over HTTP. Part of the store (``Store`` inherits it), the only code that
speaks SQL to them; every query goes through an index (the token's primary key, the queue's
status, actor and record indexes).

A job is ``queued``, ``running``, ``done``, ``failed`` (with the reason) or ``cancelled``.
The worker takes the queued job of the actor whose last job started longest ago (never
started first), oldest first within an actor: one actor's long queue never starves another's.
"""
from __future__ import annotations

from datetime import datetime, timezone

from scorebook.errors import NotFound

WAITING = ("queued", "running")
RESTARTS = 1  # a job found running when the server starts again is queued again this often, then failed


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class ServiceTables:
    """Mixed into ``Store``: ``self.db`` (sqlite-utils) and ``self.atomic()`` are the store's."""

    # ------------------------------------------------------------------ tokens

    def add_token(self, token_id: str, actor: str, permissions: str, secret_hash: str) -> None:
        with self.atomic():
            self.db.execute("INSERT INTO api_tokens (id, actor, permissions, secret_hash, created_at) "
                            "VALUES (?,?,?,?,?)", [token_id, actor, permissions, secret_hash, _now()])

    def revoke_token(self, token_id: str) -> bool:
        with self.atomic():
            done = self.db.execute("UPDATE api_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
                                   [_now(), token_id])
        return done.rowcount > 0

    def tokens(self) -> list[dict]:
        return list(self.db.query("SELECT id, actor, permissions, created_at, revoked_at FROM api_tokens "
                                  "ORDER BY created_at, id"))

    def active_token(self, token_id: str) -> tuple[str, str, str] | None:
        """(actor, permissions, secret hash) of a token not revoked, or None."""
        return self.db.execute("SELECT actor, permissions, secret_hash FROM api_tokens WHERE id = ? "
                               "AND revoked_at IS NULL", [token_id]).fetchone()

    def any_active_token(self) -> bool:
        return self.db.execute("SELECT 1 FROM api_tokens WHERE revoked_at IS NULL LIMIT 1").fetchone() is not None

    # ------------------------------------------------------------------ sign-in sessions

    def add_session(self, session_id: str, account: str, expires_at: float) -> None:
        with self.atomic():
            self.db.execute("INSERT INTO sessions (id, account, created_at, expires_at) VALUES (?,?,?,?)",
                            [session_id, account, _now(), expires_at])

    def end_session(self, session_id: str) -> bool:
        with self.atomic():
            done = self.db.execute("UPDATE sessions SET ended_at = ? WHERE id = ? AND ended_at IS NULL",
                                   [_now(), session_id])
        return done.rowcount > 0

    def live_session(self, session_id: str, now: float) -> str | None:
        """The account of a session neither ended nor expired, or None."""
        row = self.db.execute("SELECT account FROM sessions WHERE id = ? AND ended_at IS NULL AND expires_at > ?",
                              [session_id, now]).fetchone()
        return row[0] if row else None

    # ------------------------------------------------------------------ the analysis queue

    def job(self, job_id: int) -> dict:
        rows = list(self.db.query("SELECT * FROM analysis_jobs WHERE id = ?", [job_id]))
        if not rows:
            raise NotFound(f"no analysis job {job_id}")
        return rows[0]

    def find_job(self, record_id: str, bot: str, seed: int) -> dict | None:
        rows = list(self.db.query("SELECT * FROM analysis_jobs WHERE record_id = ? AND bot = ? AND seed = ?",
                                  [record_id, bot, seed]))
        return rows[0] if rows else None

    def waiting_jobs(self, actor: str) -> int:
        """An actor's jobs queued or running."""
        return self.db.execute("SELECT count(*) FROM analysis_jobs WHERE actor = ? AND status IN ('queued', "
                               "'running')", [actor]).fetchone()[0]

    def add_job(self, record_id: str, bot: str, spec: str | None, seed: int, actor: str, status: str,
                total_moves: int) -> int:
        cur = self.db.execute(
            "INSERT INTO analysis_jobs (record_id, bot, spec, seed, actor, status, total_moves, created_at, "
            "updated_at) VALUES (?,?,?,?,?,?,?,?,?)", [record_id, bot, spec, seed, actor, status, total_moves,
                                                         _now(), _now()])
        return cur.lastrowid

    def queue_again(self, job_id: int, actor: str) -> None:
        """A cancelled job asked for again: queued anew, as ``actor``'s."""
        self.db.execute("UPDATE analysis_jobs SET status = 'queued', actor = ?, error = NULL, done_moves = 0, "
                        "attempts = 0, updated_at = ? WHERE id = ?", [actor, _now(), job_id])

    def latest_job(self, record_id: str) -> dict | None:
        rows = list(self.db.query("SELECT * FROM analysis_jobs WHERE record_id = ? ORDER BY id DESC LIMIT 1",
                                  [record_id]))
        return rows[0] if rows else None

    def jobs(self, status: str | None = None, actor: str | None = None, limit: int = 100) -> list[dict]:
        """Jobs, newest first, of one status and one actor when given."""
        where, args = [], []
        if status:
            where.append("status = ?")
            args.append(status)
        if actor:
            where.append("actor = ?")
            args.append(actor)
        sql = "SELECT * FROM analysis_jobs" + (" WHERE " + " AND ".join(where) if where else "")
        return list(self.db.query(sql + " ORDER BY id DESC LIMIT ?", [*args, limit]))

    def any_queued_job(self) -> bool:
        return self.db.execute("SELECT 1 FROM analysis_jobs WHERE status = 'queued' LIMIT 1").fetchone() is not None

    def claim_job(self) -> dict | None:
        """The next job, marked running: the queued job of the actor whose latest start is the
        oldest (one who never had a job started first), the oldest of that actor's."""
        with self.atomic():
            rows = list(self.db.query(
                "SELECT j.*, (SELECT max(k.started_at) FROM analysis_jobs k WHERE k.actor = j.actor) AS last "
                "FROM analysis_jobs j WHERE j.status = 'queued' ORDER BY last IS NOT NULL, last, j.id LIMIT 1"))
            if not rows:
                return None
            self.db.execute("UPDATE analysis_jobs SET status = 'running', done_moves = 0, attempts = attempts + 1, "
                            "started_at = ?, updated_at = ? WHERE id = ?", [_now(), _now(), rows[0]["id"]])
        return rows[0]

    def job_progress(self, job_id: int, done: int) -> str:
        """Record the moves done of a running job; its status now (``cancelled`` when its owner
        or an administrator cancelled it meanwhile)."""
        with self.atomic():
            self.db.execute("UPDATE analysis_jobs SET done_moves = ?, updated_at = ? WHERE id = ? AND status = "
                            "'running'", [done, _now(), job_id])
            return self.db.execute("SELECT status FROM analysis_jobs WHERE id = ?", [job_id]).fetchone()[0]

    def finish_job(self, job_id: int, status: str, error: str | None, done: int) -> None:
        """A running job ends (a cancelled one stays cancelled)."""
        with self.atomic():
            self.db.execute("UPDATE analysis_jobs SET status = ?, error = ?, done_moves = coalesce(total_moves, ?), "
                            "updated_at = ? WHERE id = ? AND status = 'running'",
                            [status, error, done, _now(), job_id])

    def cancel_job(self, job_id: int) -> bool:
        """Cancel a queued or running job; whether it was waiting."""
        with self.atomic():
            done = self.db.execute("UPDATE analysis_jobs SET status = 'cancelled', error = 'cancelled', "
                                   "updated_at = ? WHERE id = ? AND status IN ('queued', 'running')", [_now(), job_id])
        return done.rowcount > 0

    def requeue_interrupted(self) -> None:
        """Jobs a stopped server left running: queued again, unless they were interrupted
        before (a job that stops its server every time runs no more)."""
        with self.atomic():
            self.db.execute("UPDATE analysis_jobs SET status = 'failed', error = 'the server stopped while it ran, "
                            "twice', updated_at = ? WHERE status = 'running' AND attempts > ?", [_now(), RESTARTS])
            self.db.execute("UPDATE analysis_jobs SET status = 'queued', done_moves = 0, updated_at = ? "
                            "WHERE status = 'running'", [_now()])

    def latest_analysis(self, record_id: str) -> tuple[int, str, int, str] | None:
        """(id, bot, seed, engine version) of a record's latest stored analysis, or None."""
        return self.db.execute("SELECT a.id, a.bot, a.seed, a.engine_version FROM analyses a JOIN records r ON "
                               "r.key = a.record_key WHERE r.id = ? ORDER BY a.id DESC LIMIT 1",
                               [record_id]).fetchone()

    def analysis_key(self, analysis_id: int) -> tuple[str, int, str]:
        """(bot, seed, engine version) of a stored analysis."""
        return self.db.execute("SELECT bot, seed, engine_version FROM analyses WHERE id = ?",
                               [analysis_id]).fetchone()
