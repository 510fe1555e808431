"""``scorebook``: a thin click façade over the library (contract: shared/specs/cli.md).

Every command takes ``--json`` and then prints exactly one JSON document on stdout (an error
too: ``{"error": {...}}``); the commands that print rows take sqlite-utils' output options
(``cli/output.py``). Exit codes: 0 success, 1 some input rejected or a check failed, 2 usage
error; 130 interrupted. No tracebacks for bad input. ``--db`` goes before or after the command.
The commands live by what they serve: ``archive.py``, ``bots.py``, ``service.py``; what they
share in ``common.py``. This module is the process: the entry point and its Ctrl-C.
"""
from __future__ import annotations

import gc
import os
import signal
import sys
import threading

from . import archive, bots, files, service, tournament  # noqa: F401 - each registers its commands on the group
from . import common
from .common import interrupted_line, main

__all__ = ["main", "run"]


# ------------------------------------------------------------------ the process

def _children(pid: int) -> list[int]:
    """The processes ``pid`` started (worker pools, a forked ingest), and theirs, from /proc;
    elsewhere the multiprocessing children this process knows of."""
    try:
        found = []
        for entry in os.scandir("/proc"):
            if entry.name.isdigit():
                try:
                    with open(f"/proc/{entry.name}/stat", "rb") as f:
                        stat = f.read().rsplit(b")", 1)[1].split()
                except OSError:
                    continue
                if int(stat[1]) == pid:
                    found.append(int(entry.name))
        return found + [g for c in found for g in _children(c)]
    except OSError:
        import multiprocessing
        return [p.pid for p in multiprocessing.active_children()]


def _interrupted(signum, frame) -> None:
    """SIGINT or SIGTERM: one line and exit 130, at once, the workers this process started
    stopped first (none is left running, nor writing to the pipe of a parent gone). Whatever
    was being written is rolled back by SQLite (a file or a game is committed whole or not at
    all); jitted code need not be unwound, so this is safe at any moment."""
    for child in _children(os.getpid()):
        try:
            os.kill(child, signal.SIGKILL)
        except OSError:
            pass
    os.write(2, (interrupted_line() + "\n").encode())
    os._exit(130)


def run() -> None:
    """The console entry point: the command runs in a worker thread while this, the main
    thread, only waits, so an interrupt is served at once even during a long jitted search
    (which releases the GIL). Exit codes as ``main``'s; 130 when interrupted."""
    signal.signal(signal.SIGINT, _interrupted)
    signal.signal(signal.SIGTERM, _interrupted)
    common._PROCESS["own"] = True
    outcome: dict = {"code": 0}

    def command() -> None:
        try:
            main(prog_name="scorebook")
        except SystemExit as exc:
            outcome["code"] = exc.code
        except BaseException as exc:  # noqa: BLE001 - the main thread reports it
            outcome["error"] = exc

    worker = threading.Thread(target=command, name="scorebook", daemon=True)
    worker.start()
    while worker.is_alive():
        worker.join(0.2)
    sys.stdout.flush()
    if "error" in outcome:
        raise outcome["error"]
    # the command's stores are closed (``open_store``); the rest, numba's objects mostly, is left
    # to the exit without being collected (a full collection took 0.3 s after a large ingest)
    gc.freeze()
    sys.exit(outcome["code"])
