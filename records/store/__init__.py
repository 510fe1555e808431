"""The SQLite store, through sqlite-utils: a package of small modules, one a part of the schema
(``schema``: migrations; ``records``, ``events``, ``ratings``, ``analyses``, ``service``,
``tournaments``: their tables), each a mixin of ``Store``, the only code that speaks SQL.

One row per record (normalised Scorebook text, its SHA-256, game, rule set, deck, tags, the
replayed score and the stated one), with players, events, moves and per-category scores in
their own tables. Schema changes are numbered migrations tracked in ``PRAGMA user_version``.

>>> store = Store(":memory:")
>>> store.schema_version == len(MIGRATIONS)
True
"""
from __future__ import annotations

import os
import sqlite3
import threading
import time
import urllib.parse
from contextlib import contextmanager

import sqlite_utils

from scorebook.errors import DatabaseError, Unavailable, UsageError

from .analyses import AnalysisTables
from .events import EventTables
from .ratings import RatingTables
from .records import ENGINE_VERSION, RECORD_COLUMNS, RecordTables, record_date
from .schema import (BROWSING, CHECKPOINTS, DATES, EVENT_MATCHES, EVENT_SUMMARIES, MIGRATIONS, OUTCOMES, RATINGS,
                     TOURNAMENTS, Schema)
from .service import ServiceTables
from .tournaments import TournamentTables

# what the layers above import from the store
__all__ = ["Store", "MIGRATIONS", "ENGINE_VERSION", "RECORD_COLUMNS", "record_date", "BROWSING", "CHECKPOINTS",
           "DATES", "EVENT_MATCHES", "EVENT_SUMMARIES", "OUTCOMES", "RATINGS", "TOURNAMENTS"]

# A writer waits for another process's write lock in steps of LOCK_STEP seconds, saying so
# once, for at most LOCK_PATIENCE seconds: concurrent writers wait instead of failing.
LOCK_STEP = 2.0
# a writer checks the whole file (quick_check) when it opens one of up to this size: about
# 0.9 ms a megabyte (0.09 s at 20,000 records, 0.23 s at 256 MB: that much of every ingest,
# twice with the ratings' forked side), so at most about 30 ms; a larger one is checked page by
# page as SQLite reads it: a damaged page the write reaches fails it, rolled back, in one line
WHOLE_CHECK_MAX_BYTES = 32 * 1024 * 1024
LOCK_PATIENCE = 1800.0
WAL_CHECKPOINT_PAGES = 40_000  # a writer's log is copied back into the file past this many pages
COPY_BESIDE_EVERY = 2.0  # seconds between two rounds of ``log_copied_beside``

EMPTY_FILE_PATIENCE = 3.0  # seconds a 0-byte file may take to become a database (another process creating it)


def _refuse_an_empty_file(path: str) -> None:
    """A file of 0 bytes is not a Scorebook database, and is never made one: unless another
    process is creating it at this moment (it is written within moments), it is refused."""
    waited = 0.0
    while True:
        try:
            if os.path.getsize(path) > 0:
                return
        except OSError:
            return  # no file: a new database is created
        if waited >= EMPTY_FILE_PATIENCE:
            raise DatabaseError(f"{path} is an empty file, not a Scorebook database (remove it, or choose another "
                                "path, to start a new one)")
        time.sleep(0.1)
        waited += 0.1


class Store(Schema, RecordTables, EventTables, RatingTables, AnalysisTables, ServiceTables, TournamentTables):
    """A Scorebook database file. ``write``: the database is created and migrated as needed,
    and, up to WHOLE_CHECK_MAX_BYTES, checked whole (``PRAGMA quick_check``) when opened; a
    reader (``write=False``) never creates one and refuses a path with no database."""

    _log_copied: threading.Event | None = None  # set when the thread beside has copied the log (``atomic``)
    _log_copy_failed = False  # the thread beside stopped on an error

    def __init__(self, path: str, *, write: bool = True, on_wait=None, checked: bool = False):
        """``checked``: this process's parent opened the file, checked, moments ago (a forked
        worker's connection): it is not read whole again."""
        self.path = path
        self.on_wait = on_wait  # called once, with a message, when a write waits for another process
        if not write and path != ":memory:" and not os.path.exists(path):
            raise UsageError(f"no database at {path} (ingest or play create one)")
        if path != ":memory:":
            _refuse_an_empty_file(path)
        try:
            if write or path == ":memory:":
                conn = sqlite3.connect(path, timeout=LOCK_STEP)
            else:  # a reader changes nothing, not even a checkpoint of the log on close
                conn = sqlite3.connect(f"file:{urllib.parse.quote(os.path.abspath(path))}?mode=ro", uri=True,
                                       timeout=LOCK_STEP)
            self.db = sqlite_utils.Database(conn)
            self.db.execute("PRAGMA foreign_keys = ON")
            version = self.schema_version
            if version < 0:
                raise UsageError(f"{path} is not a Scorebook database (schema version {version})")
            if write and path != ":memory:":
                self._waiting(lambda: self.db.enable_wal())
                # WAL with NORMAL sync: never corrupt; a power cut may lose only the last commit
                self.db.execute("PRAGMA synchronous = NORMAL")
                # the log copied back into the file every WAL_CHECKPOINT_PAGES, not 1,000 (SQLite's
                # default): an index page that commit after commit dirties again is copied back
                # once, and the copy's fsync, which costs by the pages it writes back across the
                # file, comes a quarter as often (at a million records, an ingest 13% faster than
                # every 10,000 pages); the log grows to about 160 MB
                self.db.execute(f"PRAGMA wal_autocheckpoint = {WAL_CHECKPOINT_PAGES}")
                # a statement's journal (an INSERT of a hundred rows needs one) kept in memory, not
                # in a file of /var/tmp: 55 MB written there for 10,000 records ingested (no VACUUM
                # is ever run here, whose copy of the database this would hold in memory)
                self.db.execute("PRAGMA temp_store = MEMORY")
                if not checked:
                    self._check_intact()
            if write:
                self._migrate()
                self.index_for_search()  # what an ingest cut short had stored and not yet indexed
            elif version > len(MIGRATIONS):
                raise UsageError(f"database schema {version} is newer than this Scorebook ({len(MIGRATIONS)})")
        except sqlite3.DatabaseError as exc:  # not a database, unwritable, damaged header or schema
            if "malformed" in str(exc):
                raise DatabaseError(f"database {path} is damaged ({exc}); restore it from a backup, "
                                    "or ingest the records again into a new database") from None
            raise DatabaseError(f"cannot open database {path}: {exc}") from None
        self._player_ids: dict[str, int] = {}
        self._event_ids: dict[str, int] = {}
        self._planned: dict[str, int] | None = None  # the tournaments run here (``_planned_events``)

    def close(self) -> None:
        """Close the connection (a process that opens stores per request, as the Datasette
        plugin does, closes each when done rather than leaving it to the collector)."""
        self.db.conn.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def schema_version(self) -> int:
        return self.db.execute("PRAGMA user_version").fetchone()[0]

    def _check_intact(self) -> None:
        try:
            if os.path.getsize(self.path) > WHOLE_CHECK_MAX_BYTES:
                return
        except OSError:
            pass
        problems = [r[0] for r in self.db.execute("PRAGMA quick_check(1)").fetchall()]
        if problems != ["ok"]:
            first = problems[0].replace("*** in database main ***", "").strip().splitlines()[0]
            raise DatabaseError(f"database {self.path} is damaged ({first}); restore it from a backup, "
                                "or ingest the records again into a new database")

    def _waiting(self, attempt):
        """Run ``attempt`` (which takes the write lock), retrying while another process holds
        the lock, up to LOCK_PATIENCE seconds."""
        waited = 0.0
        while True:
            try:
                return attempt()
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) and "busy" not in str(exc):
                    raise
                if waited == 0.0 and self.on_wait:
                    self.on_wait(f"waiting for another process writing to {self.path}")
                waited += LOCK_STEP
                if waited >= LOCK_PATIENCE:
                    raise DatabaseError(f"database {self.path} stayed locked by another process for "
                                        f"{LOCK_PATIENCE:.0f} s") from None

    def check_writable(self) -> None:
        """Try a write, and take it back: before long work whose result is to be stored (a
        database the process may open but not write, such as an immutable file, fails here
        rather than after the work)."""
        conn = self.db.conn
        try:
            if self.path != ":memory:":  # the file itself: in WAL mode a write may reach only the -wal beside it
                with open(self.path, "r+b"):
                    pass
        except OSError as exc:
            raise Unavailable(f"cannot write to database {self.path}: {exc.strerror}") from None
        try:
            self._begin()
            conn.execute(f"PRAGMA user_version = {self.schema_version}")
        except sqlite3.OperationalError as exc:
            raise Unavailable(f"cannot write to database {self.path}: {exc}") from None
        finally:
            if conn.in_transaction:
                conn.execute("ROLLBACK")

    def _begin(self) -> None:
        self._waiting(lambda: self.db.conn.execute("BEGIN IMMEDIATE"))

    @contextmanager
    def atomic(self):
        """One write transaction, taken at once (so keys handed out inside stay free), waiting
        for another process's; rolled back whole on any error or interruption."""
        conn = self.db.conn
        if conn.in_transaction:
            with self.db.atomic():  # nested: a savepoint
                yield self
            return
        self._begin()
        try:
            yield self
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            self._player_ids.clear()  # ids handed out inside were rolled back with it
            self._event_ids.clear()
            self._planned = None
            raise
        conn.execute("COMMIT")
        if self._log_copied is not None and self._log_copied.is_set():  # see ``log_copied_beside``
            self._log_copied.clear()
            conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            if self._log_copy_failed:  # the thread stopped: this connection copies its log itself again
                conn.execute(f"PRAGMA wal_autocheckpoint = {WAL_CHECKPOINT_PAGES}")
                self._log_copied = None

    def copy_log_back(self) -> None:
        """Copy what the log holds into the database file now, without waiting for readers or
        holding writers back (a passive checkpoint): from a process of its own, the close of
        the writer that wrote the log then has only what came since to copy."""
        if self.path != ":memory:":
            self.db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()

    @contextmanager
    def log_copied_beside(self):
        """For a long write (an ingest of many files): the log copied back into the file by a
        thread of its own connection while this one writes, not by this connection's commit
        every WAL_CHECKPOINT_PAGES, whose fsync (up to a second at a million records, by the
        pages written across the file) stopped the writer. Every COPY_BESIDE_EVERY seconds
        the thread copies what the log holds and fsyncs the file, twice (the second copies
        what came during the first); the writer, after its next commit, copies the few pages
        left itself (``atomic``), which lets the log start over at its next transaction. The
        writer's own copying comes back when the block ends, however it ends, or at its next
        commit if the thread stops on an error (the file removed, say). Processes forked
        meanwhile (the readers) must not use SQLite: they are copies of this one, thread and all."""
        if self.path == ":memory:":
            yield self
            return
        stop, copied = threading.Event(), threading.Event()

        def copy_back() -> None:
            conn = fd = None
            try:
                conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
                conn.execute("PRAGMA synchronous = NORMAL")
                fd = os.open(self.path, os.O_RDONLY)
                while not stop.wait(COPY_BESIDE_EVERY):
                    if copied.is_set():
                        continue  # the writer has not finished the last round yet
                    for _ in range(2):
                        conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                        os.fsync(fd)  # what the writer's last copy would otherwise flush
                    copied.set()
            except (sqlite3.Error, OSError):  # the writer copies its log itself again from its next commit
                self._log_copy_failed = True
                copied.set()
            finally:
                if fd is not None:
                    os.close(fd)
                if conn is not None:
                    conn.close()

        self.db.execute("PRAGMA wal_autocheckpoint = 0")
        self._log_copied, self._log_copy_failed = copied, False
        thread = threading.Thread(target=copy_back, name="scorebook-log-copy", daemon=True)
        thread.start()
        try:
            yield self
        finally:
            stop.set()
            thread.join()
            self._log_copied = None
            self.db.execute(f"PRAGMA wal_autocheckpoint = {WAL_CHECKPOINT_PAGES}")

    def _name_id(self, table: str, cache: dict[str, int], name: str) -> int:
        if name not in cache:
            row = self.db.execute(f"SELECT id FROM {table} WHERE name = ?", [name]).fetchone()
            if row is None:
                cur = self.db.execute(f"INSERT INTO {table} (name) VALUES (?)", [name])
                cache[name] = cur.lastrowid
            else:
                cache[name] = row[0]
        return cache[name]
