"""What the compiled readers' tests share: a text read twice, by the compiled reader and by the
walk alone (the compiled reader declining every record), the outcomes compared."""
from __future__ import annotations

from collections.abc import Callable
from contextlib import contextmanager

from scorebook.errors import STRICT
from scorebook.records.compiled import CompiledTurns
from scorebook.records.formats import read_pgn


@contextmanager
def walk_only(visitor: type):
    """The walk reads every record of ``visitor``'s game (its compiled reader declines all)."""
    kept = visitor.read_compiled
    visitor.read_compiled = lambda self, games: None
    try:
        yield
    finally:
        visitor.read_compiled = kept


def _outcomes(text: str, policy, described: Callable) -> list[tuple]:
    return [("rejected", item.error.as_dict()) if item.error is not None else ("read", *described(item.record))
            for item in read_pgn(text, policy)]


def compiled_and_walked(text: str, visitor: type, described: Callable, turns_of: Callable,
                        policy=STRICT) -> list[bool]:
    """Read ``text`` both ways and assert the same outcomes (``described(record)``: what is
    compared of a record read); which records the compiled reader read (``turns_of(record)``:
    its turns, CompiledTurns where it did)."""
    compiled = _outcomes(text, policy, lambda r: (*described(r), compiled_turns(turns_of(r))))
    with walk_only(visitor):
        walked = _outcomes(text, policy, lambda r: (*described(r), compiled_turns(turns_of(r))))
    assert [c[:-1] if c[0] == "read" else c for c in compiled] == [w[:-1] if w[0] == "read" else w for w in walked]
    assert not any(w[-1] for w in walked if w[0] == "read")
    return [c[0] == "read" and c[-1] for c in compiled]


def compiled_turns(turns) -> bool:
    """Were these turns read by a compiled reader (one game's, or any game's of several)?"""
    return any(isinstance(t, CompiledTurns) for t in turns) if isinstance(turns, list) else \
        isinstance(turns, CompiledTurns)
