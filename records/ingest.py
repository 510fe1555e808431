"""Ingest: text -> parse -> model -> replay (validate, score) -> store, one file per transaction.

>>> from records.store import Store
>>> store = Store(":memory:")
>>> out = ingest_text(store, "garbage here\\n", "bad.txt")
>>> out[0]["status"], out[0]["errors"][0]["code"]
('rejected', 'unknown-format')
"""
from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

from . import tiny_islands
from .errors import RecordRejected, UsageError
from .formats import Item, decode, read_text
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
    moves = [(1, ply, 0, move, note) for ply, move, note in rows]
    score = result.score
    return {
        "id": digest[:16], "hash": digest, "game": record.game, "rules": record.rules, "deck": result.deck,
        "format": item.format, "source": source, "index": item.index, "text": text,
        "tags": record.tags, "score": score, "recorded": record.recorded, "total": score["total"],
        "finished": record.finished, "warnings": warnings, "players": record.players,
        "moves": moves, "scores": [(0, k, v) for k, v in score.items()],
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


def ingest_text(store: Store, text: str, source: str, fmt: str = "auto", *,
                strict: bool = False, lenient: bool = False) -> list[dict]:
    """Ingest every record of one text atomically; returns one outcome dict per record."""
    items = read_text(text, source, fmt, lenient=lenient)
    outcomes: list[dict] = []
    prepared: list[tuple[dict, dict]] = []
    for item in items:
        out = _outcome(item, source)
        outcomes.append(out)
        if item.error is None:
            try:
                prepared.append((out, prepare(item, source, lenient=lenient)))
                continue
            except RecordRejected as err:
                item.error = err
        out["status"] = "rejected"
        out["errors"] = [item.error.as_dict()]
    if strict and any(o["status"] == "rejected" for o in outcomes):
        for out, _ in prepared:
            out["status"] = "rejected"
            out["errors"] = [{"line": None, "column": None, "ply": None, "token": None, "code": "file-rejected",
                              "message": "another record of this file was rejected and --strict is on"}]
        return outcomes
    with store.atomic():
        existing = store.existing_hashes([p["hash"] for _, p in prepared])
        fresh = []
        for out, p in prepared:
            out.update({"id": p["id"], "score": p["score"], "recorded": p["recorded"], "finished": p["finished"]})
            if p["hash"] in existing:
                out["status"] = "duplicate"
                continue
            existing.add(p["hash"])
            out["status"] = "ingested"
            if p["warnings"]:
                out["warnings"] = p["warnings"]
            fresh.append(p)
        store.add_records(fresh)
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
