"""The engines' ``njit`` and ``prange``: numba's, or, in a process told so before it imports an
engine (``interpret``), the functions themselves, run by Python.

A process that walks one record and ends (``scorebook show`` of a stored record, or of a small
file) spends most of its time starting
numba: 0.2 s to import it and about 0.5 s to load the cached machine code of the functions
the walk calls, against a few milliseconds to run them once as Python. The rules stay one
code: the same functions, compiled or not (the tests hold the two to the same positions).
"""
from __future__ import annotations

_interpreted = False


def interpret() -> None:
    """From now on, the engines imported in this process run as Python (those imported
    already stay compiled). For a process's entry point only: it is never undone."""
    global _interpreted
    _interpreted = True


def interpreted() -> bool:
    return _interpreted


def njit(*args, **options):
    """numba's ``njit``, or, interpreted, the function as it is."""
    if _interpreted:
        if len(args) == 1 and callable(args[0]) and not options:
            return args[0]
        return lambda function: function
    from numba import njit as numba_njit
    return numba_njit(*args, **options)


def __getattr__(name: str):
    if name == "prange":  # numba's parallel range, or range
        if _interpreted:
            return range
        from numba import prange
        return prange
    raise AttributeError(name)
