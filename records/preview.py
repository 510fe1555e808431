"""A record read from a file and walked, nothing stored (``show FILE``): what ingest would make
of it, and where it goes wrong when it does. A record that is refused is walked up to its first
error, which the trace carries as a value (lichess's ``Replay``), so that the board before the
refused move can be shown beside the rejection.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from scorebook import registry
from scorebook.errors import RecordRejected, UsageError

from . import pgn
from .formats import decode, read_text, record_key
from .ingest import prepare, read_source
from .notation import Item, Trace, pgn_groups

_NUMBERED = re.compile(r"(.*)#([0-9]{1,9})")


@dataclass
class FileRecord:
    """The ``number``-th record of ``path`` (of ``count``), walked: ``row`` has what a stored
    row has for ``show`` beside the trace (``id`` None when the record is refused)."""
    path: str
    number: int
    count: int
    row: dict
    trace: Trace


def parse_reference(ref: str) -> tuple[str, int | None]:
    """``games.pgn#3`` -> (``games.pgn``, 3); ``games.pgn`` -> (``games.pgn``, None)."""
    m = _NUMBERED.fullmatch(ref)
    if m and m.group(1):
        return m.group(1), int(m.group(2))
    return ref, None


def file_record(path: str, number: int | None = None, fmt: str = "auto") -> FileRecord:
    """Read ``path`` (a regular file, bounded as ingest reads one) and walk its ``number``-th
    record (1-based, the first by default); UsageError when the file cannot be read or holds
    no such record."""
    shown = path if len(path) <= 120 else path[:119] + "…"
    try:
        text = decode(read_source(path))
    except RecordRejected as err:
        raise UsageError(f"cannot read {shown}: {err.message}") from None
    items = read_text(text, path, fmt)
    number = 1 if number is None else number
    if number > len(items) or number < 1:
        raise UsageError(f"{shown} holds {len(items)} record(s); {shown}#N shows the N-th")
    item = items[number - 1]
    return FileRecord(path, number, len(items), *_walked(item, text, path))


def _walked(item: Item, text: str, path: str) -> tuple[dict, Trace]:
    """The row and the trace of one item read: the record read again, its reader's walk kept
    (the positions with the places of the moves, up to an error), where its reader walks."""
    row = {"id": None, "game": item.game, "rules": None, "deck": None, "tags": {}, "recorded": None}
    if item.game is None:  # not a record of any game: nothing to walk
        return row, Trace(None, [], [], item.error)
    notation = registry.get_game(item.game).notation
    if item.record is None:  # the walk read again, where it stops where reading the file did
        again, row["tags"] = _read_again(item, text, notation)
        return row, again if again is not None and _same(again.error, item.error) else Trace(None, [], [], item.error)
    row["tags"] = dict(item.record.tags)
    try:
        prepared = prepare(item, path)
    except RecordRejected as err:
        return row, notation.trace_until_refused(item.record, err)
    row.update({k: getattr(prepared, k) for k in ("id", "rules", "deck", "tags", "recorded")})
    again, _ = _read_again(item, text, notation)
    return row, again if again is not None and again.error is None else notation.trace(item.record)


def _same(error: RecordRejected | None, first: RecordRejected) -> bool:
    return error is not None and (error.code, error.line, error.column) == (first.code, first.line, first.column)


def _read_again(item: Item, text: str, notation) -> tuple[Trace | None, dict]:
    """An item's record read again with its walk kept (None where its format's reader does not
    walk), and the tags of its first game ({} for a foreign format's)."""
    if item.format != "pgn":
        return registry.get_game(item.game).formats[item.format].read_trace(text, item.index), {}
    games = _games_of(item, text)
    if not games:
        return None, {}
    return notation.trace_games(games), dict(games[0].tags)


def _games_of(item: Item, text: str) -> list[pgn.PgnGame]:
    """The PGN-style games that make ``item`` (a triad's, wherever they are in the file), grouped
    as ingest groups them."""
    groups = pgn_groups(pgn.split_games(text), record_key)
    return next((group for group in groups if group[0].index == item.index), [])
