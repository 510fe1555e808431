"""Where each Dask worker keeps its compiled functions: one numba cache directory per worker
(concurrent writers to one cache are a known crash), seeded from the package's own cache so a
worker starts warm. Used by :mod:`scorebook.dask_worker`; needs no Dask itself."""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import socket
import sys
from pathlib import Path

WORKER_CACHE_VARIABLE = "SCOREBOOK_WORKER_CACHE"


def worker_cache_dir(worker_name: str) -> Path:
    """``$SCOREBOOK_WORKER_CACHE`` (default ``~/.cache/scorebook/workers``) / HOST-NAME: the
    same directory again when a worker of the same name restarts (``dask worker --name``)."""
    root = Path(os.environ.get(WORKER_CACHE_VARIABLE) or Path.home() / ".cache" / "scorebook" / "workers")
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", f"{socket.gethostname()}-{worker_name}")[:120]
    return root / safe


def use_cache_dir(directory: Path) -> None:
    """Point numba's cache at ``directory`` (for every jitted module imported afterwards),
    first copying in what the package's own cache holds that the directory lacks."""
    directory.mkdir(parents=True, exist_ok=True)
    seed_cache(directory)
    os.environ["NUMBA_CACHE_DIR"] = str(directory)
    numba = sys.modules.get("numba")
    if numba is not None:
        numba.core.config.reload_config()


def seed_cache(directory: Path) -> int:
    """Copy the compiled functions cached beside the package's engines into ``directory``,
    laid out as numba looks for them there; returns how many files were copied. Only reads
    the shared cache, so workers seeding at once never write to one place."""
    import scorebook.engines as package  # no jitted module: only its folder is wanted
    engines = Path(package.__file__).resolve().parent
    copied = 0
    for pycache in engines.glob("*/__pycache__"):
        files = [f for f in pycache.iterdir() if f.suffix in (".nbi", ".nbc")]
        if not files:
            continue
        # numba's layout under NUMBA_CACHE_DIR: <folder>_<sha1 of the source folder's path>
        source = str(pycache.parent)
        target = directory / f"{os.path.basename(source)}_{hashlib.sha1(source.encode()).hexdigest()}"
        target.mkdir(exist_ok=True)
        for f in files:
            if not (target / f.name).exists():
                shutil.copy2(f, target / f.name)
                copied += 1
    return copied
