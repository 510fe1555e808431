"""The one writer: every write the server makes (a submission's records, a job asked,
cancelled, progressed or finished) runs on one thread over one connection, in the order
asked. Reading and parsing happen before, elsewhere: a write holds the database's lock only
for its rows."""
from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from scorebook.records.store import Store


class Writer:
    def __init__(self, path: str):
        self.path = path
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="scorebook-writer")
        self._store: Store | None = None

    def _with_store(self, fn):
        if self._store is None:  # made on the writer's own thread, the only one that uses it
            self._store = Store(self.path)
        return fn(self._store)

    def call(self, fn):
        """``fn(store)`` on the writer's thread, waited for (from any other thread)."""
        return self._pool.submit(self._with_store, fn).result()

    async def run(self, fn):
        """``fn(store)`` on the writer's thread, awaited (from the event loop)."""
        return await asyncio.wrap_future(self._pool.submit(self._with_store, fn))
