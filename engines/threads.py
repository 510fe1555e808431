"""Numba's threads for the engines whose play-outs run on every core (``prange``): imported
before such a kernel is compiled or called.

Numba's own work queue is the threading layer that survives the process pools' fork (a child
forked after GNU OpenMP ran aborts). The thread pool starts at import: once, with a numba
cache filled by other processes, the first call (a cached caller of a parallel kernel) ran on
threads never started and crashed.
"""
from __future__ import annotations

import os

from .jit import interpreted

if not interpreted():  # (interpreted, ``jit.interpret``: no numba, no threads)
    import numba

    if "NUMBA_THREADING_LAYER" not in os.environ:
        numba.config.THREADING_LAYER = "workqueue"
    numba.get_num_threads()
