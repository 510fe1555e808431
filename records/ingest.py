"""Ingest: text -> parse -> model -> replay (validate, score) -> store, one file per transaction.

>>> from scorebook.records.store import Store
>>> store = Store(":memory:")
>>> out = ingest_text(store, "garbage here\\n", "bad.txt")
>>> out[0]["status"], out[0]["errors"][0]["code"]
('rejected', 'unknown-format')
"""
from __future__ import annotations

import gc
import hashlib
import marshal
import multiprocessing
import os
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from . import tiny_islands
from .errors import RecordRejected, UsageError
from .formats import Item, decode, detect_format, read_text, read_tinybot_lines
from .store import Store

GAME_FILES = (".txt", ".pgn", ".sbn", ".jsonl", ".tbt")


def content_hash(canonical_text: str) -> str:
    """A record's identity: the SHA-256 of its normalised Scorebook text (its id is the first 16 hex digits)."""
    return hashlib.sha256(canonical_text.encode()).hexdigest()


def prepare(item: Item, source: str, *, lenient: bool = False) -> dict:
    """Replay one parsed record and build what the store needs; raises RecordRejected."""
    if item.game == "game-of-islands":
        return _prepare_goi(item, source)
    if item.game == "iwoki":
        return _prepare_iwoki(item, source)
    record = item.record
    result = tiny_islands.replay(record)
    warnings = []
    mismatch = tiny_islands.score_mismatch(record, result)
    if mismatch is not None:
        if not lenient:
            raise mismatch
        warnings.append(mismatch.describe())
    record.deck = result.deck
    text, rows = tiny_islands.render(record, result)
    digest = content_hash(text)
    score = result.score
    return {
        "id": digest[:16], "hash": digest, "game": record.game, "rules": record.rules, "deck": result.deck,
        "format": item.format, "source": source, "index": item.index, "text": text,
        "tags": record.tags, "score": score, "recorded": record.recorded, "total": score["total"],
        "finished": record.finished, "warnings": warnings, "players": record.players,
        "moves": rows, "scores": [(0, k, v) for k, v in score.items()],
    }


def _prepare_goi(item: Item, source: str) -> dict:
    """Game of Islands records were replayed while they were read (first error in reading order)."""
    from . import game_of_islands
    record = item.record
    text, rows = game_of_islands.render(record)
    digest = content_hash(text)
    if record.match is None:
        g = record.games[0]
        stated = g.result if g.result != "*" else None
        recorded = None if stated is None else {"grid": g.grid, "points": [int(v) for v in stated.split("-")]}
    else:
        stated_games = [None if g.result == "*" else {"grid": g.grid, "points": [int(v) for v in g.result.split("-")]}
                        for g in record.games]
        match_result = next((g.tags["MatchResult"] for g in record.games if "MatchResult" in g.tags), None)
        recorded = None if not any(stated_games) and match_result is None else {"games": stated_games,
                                                                                "result": match_result}
    return {
        "id": digest[:16], "hash": digest, "game": record.game, "rules": None, "deck": None,
        "format": item.format, "source": source, "index": item.index, "text": text, "tags": record.tags,
        "score": record.score, "recorded": recorded, "total": None, "finished": record.finished,
        "warnings": record.warnings, "players": record.players,
        "moves": [(game, ply, player, move, note) for game, ply, player, move, note in rows],
        "scores": game_of_islands.score_rows(record),
    }


def _prepare_iwoki(item: Item, source: str) -> dict:
    """Iwoki records were replayed while they were read."""
    from . import iwoki
    record = item.record
    text, rows = iwoki.write_pgn(record)
    digest = content_hash(text)
    return {
        "id": digest[:16], "hash": digest, "game": record.game, "rules": record.rules, "deck": None,
        "format": item.format, "source": source, "index": item.index, "text": text, "tags": record.tags,
        "score": record.score, "recorded": record.recorded, "total": None, "finished": record.finished,
        "warnings": record.warnings, "players": record.players, "moves": rows, "scores": iwoki.score_rows(record),
    }


def _outcome(item: Item, source: str) -> dict:
    return {"source": source, "index": item.index, "status": None, "game": item.game}


def _prepare_items(items: list[Item], source: str, lenient: bool) -> list[tuple[dict, dict | None]]:
    """(outcome, prepared record or None when rejected) for each item."""
    pairs = []
    for item in items:
        out = _outcome(item, source)
        if item.error is None:
            try:
                pairs.append((out, prepare(item, source, lenient=lenient)))
                continue
            except RecordRejected as err:
                item.error = err
        out["status"] = "rejected"
        out["errors"] = [item.error.as_dict()]
        pairs.append((out, None))
    return pairs


# Large TinyBot files are read and replayed by forked workers while this process writes.
PARALLEL_MIN_LINES = 2000
_BATCH_LINES = 250
_shared_lines: list[str] = []  # the file's lines, inherited by the forked workers


def _prepare_line_batch(job: tuple[int, int, str, bool]) -> bytes:
    """One batch, sent back marshalled: the results are plain dicts, lists and strings, which
    marshal writes three times faster than pickle (the pool would pickle them)."""
    start, end, source, lenient = job
    return marshal.dumps(_prepare_items(read_tinybot_lines(_shared_lines[start:end], start + 1), source, lenient))


def _workers() -> int:
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return min(cores, 8)


def _prepared_batches(text: str, source: str, fmt: str, lenient: bool) -> Iterator[list[tuple[dict, dict | None]]]:
    """Batches of (outcome, prepared) in file order."""
    resolved = detect_format(text) if fmt == "auto" and text.strip() else fmt
    lines = text.split("\n") if resolved == "tinybot" else []
    if (len(lines) < PARALLEL_MIN_LINES or _workers() < 2
            or "fork" not in multiprocessing.get_all_start_methods()):
        yield _prepare_items(read_text(text, source, fmt, lenient=lenient), source, lenient)
        return
    global _shared_lines
    _shared_lines = lines
    jobs = [(i, min(i + _BATCH_LINES, len(lines)), source, lenient) for i in range(0, len(lines), _BATCH_LINES)]
    pool = multiprocessing.get_context("fork").Pool(_workers())
    try:
        for blob in pool.imap(_prepare_line_batch, jobs):
            yield marshal.loads(blob)
    finally:
        pool.terminate()
        _shared_lines = []


@contextmanager
def _gc_paused():
    """Reading builds many small objects and no cycles: the cyclic collector would only slow it."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _store_batch(store: Store, batch: list[tuple[dict, dict | None]], seen: set[str]) -> None:
    """Write the new records of a batch (inside the file's transaction); mark the duplicates."""
    prepared = [(out, p) for out, p in batch if p is not None]
    existing = store.existing_hashes([p["hash"] for _, p in prepared])
    fresh = []
    for out, p in prepared:
        out.update({"id": p["id"], "score": p["score"], "recorded": p["recorded"], "finished": p["finished"]})
        if p["hash"] in existing or p["hash"] in seen:
            out["status"] = "duplicate"
            continue
        seen.add(p["hash"])
        out["status"] = "ingested"
        if p["warnings"]:
            out["warnings"] = p["warnings"]
        fresh.append(p)
    store.add_records(fresh)


def ingest_text(store: Store, text: str, source: str, fmt: str = "auto", *,
                strict: bool = False, lenient: bool = False) -> list[dict]:
    """Ingest every record of one text atomically; returns one outcome dict per record."""
    with _gc_paused():
        if strict:  # read everything first: one rejection and nothing is written
            pairs = [pair for batch in _prepared_batches(text, source, fmt, lenient) for pair in batch]
            if any(p is None for _, p in pairs):
                for out, p in pairs:
                    if p is not None:
                        out["status"] = "rejected"
                        out["errors"] = [{"line": None, "column": None, "ply": None, "token": None,
                                          "code": "file-rejected",
                                          "message": "another record of this file was rejected and --strict is on"}]
                return [out for out, _ in pairs]
            batches: Iterable = [pairs]
        else:
            batches = _prepared_batches(text, source, fmt, lenient)
        outcomes: list[dict] = []
        seen: set[str] = set()
        try:
            with store.atomic():
                for batch in batches:
                    outcomes.extend(out for out, _ in batch)
                    _store_batch(store, batch, seen)
        finally:
            if hasattr(batches, "close"):
                batches.close()  # stops the workers at once if writing failed
        return outcomes


def expand_paths(paths: list[str]) -> list[str]:
    """Files as given, directories walked recursively (sorted, game-record suffixes only)."""
    files: list[str] = []
    for p in paths:
        if p == "-":
            files.append(p)
        elif os.path.isdir(p):
            for root, dirs, names in os.walk(p):
                dirs.sort()
                files.extend(os.path.join(root, n) for n in sorted(names)
                             if n.lower().endswith(GAME_FILES) and not n.startswith("."))
        elif os.path.exists(p):
            files.append(p)
        else:
            raise UsageError(f"no such file or directory: {p}")
    return files


def ingest_file(store: Store, path: str, fmt: str = "auto", *, strict: bool = False,
                lenient: bool = False) -> list[dict]:
    """Ingest one file (or ``-`` for stdin); unreadable or undecodable input is one rejection."""
    source = "<stdin>" if path == "-" else path
    try:
        data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
        text = decode(data)
    except OSError as exc:
        err = RecordRejected("unreadable-file", exc.strerror or str(exc), line=None, column=None)
        return [{"source": source, "index": 1, "status": "rejected", "game": None, "errors": [err.as_dict()]}]
    except RecordRejected as err:
        return [{"source": source, "index": 1, "status": "rejected", "game": None, "errors": [err.as_dict()]}]
    return ingest_text(store, text, source, fmt, strict=strict, lenient=lenient)
