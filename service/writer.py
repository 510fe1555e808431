"""The one writer: every write the server makes (a submission's records, a job asked,
cancelled, progressed or finished) runs on one thread over one connection, in the order
asked. Reading and parsing happen before, elsewhere: a write holds the database's lock only
for its rows.

Before each write the writer checks that the database is still the file the server opened,
and that it and its journal files can be written: a database moved away, replaced or made
read-only while serving is ``Unavailable`` (503, with the reason), never written into an
unlinked file to be lost at the next start, nor touched through a journal that cannot be
written (a read-only shared-memory index killed the server with SIGBUS). The operator is
told once, in the server's log, for each reason.
"""
from __future__ import annotations

import asyncio
import os
import sqlite3
import sys
from concurrent.futures import ThreadPoolExecutor

from scorebook.records.store import Store


class Unavailable(Exception):
    """The database cannot be written now (a 503): the reason."""


def _identity(path: str) -> tuple[int, int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino


class Writer:
    def __init__(self, path: str):
        self.path = path
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="scorebook-writer")
        self._store: Store | None = None
        self._identity = _identity(path)
        self._told: set[str] = set()

    def _fault(self) -> str | None:
        """Why the database cannot be written now, or None."""
        if _identity(self.path) != self._identity:
            return f"the database {os.path.basename(self.path)} was moved, removed or replaced while serving"
        for path in (self.path, self.path + "-wal", self.path + "-shm"):
            if os.path.exists(path) and not os.access(path, os.W_OK):
                return f"{os.path.basename(path)} cannot be written"
        return None

    def _unavailable(self, why: str) -> Unavailable:
        if why not in self._told:  # the operator, once a reason
            self._told.add(why)
            print(f"scorebook: writes refused: {why}", file=sys.stderr, flush=True)
        return Unavailable(f"the archive takes no writes now: {why}; try again later")

    def refusal(self) -> str | None:
        """Why a write would be refused now (told to the log once), or None: asked before a
        request's credential is even looked up, so that it answers 503 with the reason."""
        why = self._fault()
        return str(self._unavailable(why)) if why else None

    def _with_store(self, fn):
        why = self._fault()
        if why:
            raise self._unavailable(why)
        if self._store is None:  # made on the writer's own thread, the only one that uses it
            self._store = Store(self.path)
        try:
            return fn(self._store)
        except sqlite3.OperationalError as err:  # read-only, disk full, I/O: the database's, not the request's
            raise self._unavailable(f"the database cannot be written ({err})") from None

    def call(self, fn):
        """``fn(store)`` on the writer's thread, waited for (from any other thread)."""
        return self._pool.submit(self._with_store, fn).result()

    async def run(self, fn):
        """``fn(store)`` on the writer's thread, awaited (from the event loop)."""
        return await asyncio.wrap_future(self._pool.submit(self._with_store, fn))
