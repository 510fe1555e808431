"""The set-up every Dask worker runs once, before its first task (imported only with Dask).

Each worker gets its own numba cache directory, because concurrent writers to one cache are
a known crash; it is seeded from the installed package's cache when that exists, so a
worker starts warm. Jitted functions then load once per worker process and stay loaded: no
task compiles.
"""
from __future__ import annotations

from distributed.diagnostics.plugin import WorkerPlugin

from scorebook.worker_cache import use_cache_dir, worker_cache_dir


class WorkerSetup(WorkerPlugin):
    idempotent = True

    def setup(self, worker) -> None:
        use_cache_dir(worker_cache_dir(str(worker.name if worker.name is not None else worker.address)))
