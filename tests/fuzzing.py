"""Mutation fuzzing of every reader, through the same ``ingest_text`` path as the CLI (the
test suite and ``benchmarks/fuzz.py`` share it). Seeds are the project's own records
(``samples/``); mutations are what an attacker tries: bytes and tokens dropped, doubled and
swapped, numbers blown up (thousands of digits, negative, non-ASCII digits, infinities),
JSON fields of the wrong type or missing, nesting thousands deep, huge fields, spliced
records, stray brackets and braces.

``check(text)`` classifies one input: ``ok`` (accepted, and every export of it reads back as
the same record, or says what it dropped and still reads back), ``rejected`` (each error
with code, line and column), or a failure: ``crash`` (an exception escaped), ``hang`` (over
the time limit), ``unpositioned`` (a rejection without line or column), ``round-trip``.
"""
from __future__ import annotations

import json
import random
import re
import signal
import traceback
from contextlib import contextmanager
from pathlib import Path

from scorebook import registry
from scorebook.errors import RecordRejected, UsageError
from scorebook.records.export import export_record
from scorebook.records.formats import detect_format
from scorebook.records.ingest import ingest_text
from scorebook.records.store import Store

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
FAILURES = ("crash", "hang", "unpositioned", "round-trip")


def seeds() -> dict[str, list[str]]:
    """The project's records by format, the PGN-style ones by game (``pgn-tsuro``...): tinybot,
    every game's pgn, iwoki-log."""
    out: dict[str, list[str]] = {}
    for path in sorted(SAMPLES.rglob("*")):
        if path.suffix not in (".txt", ".pgn", ".jsonl"):
            continue
        text = path.read_text()
        fmt = detect_format(text)
        if fmt == "tinybot":
            out.setdefault(fmt, []).extend(line + "\n" for line in text.splitlines() if line.strip())
        elif fmt == "pgn":
            out.setdefault(f"pgn-{path.parent.name}", []).append(text)
        else:
            out.setdefault(fmt, []).append(text)
    return out


HUGE = ["9" * 5000, "-" + "7" * 4400, "٣", "１２", "1e999", "Infinity", "NaN", "-0", "00000000000000000001",
        "4294967297", "-1", "99999999999999999999"]
JUNK = ["{", "}", "[", "]", "(", ")", "\"", "\\", ";", "%", ":", ",", "|", "#", "\n", "\r\n", "\t", "\ufeff",
        "é", "\x00", "[%visits 1:2]", "{[%opts inf]}", "[%clk 9:99:99]", "1.", "...", "--", "*", "1-0", "time"]


def _numbers(text: str, rng: random.Random) -> str:
    spots = [m.span() for m in re.finditer(r"-?\d+", text)]
    if not spots:
        return text
    a, b = rng.choice(spots)
    return text[:a] + rng.choice(HUGE) + text[b:]


def _json_field(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    k = rng.randrange(len(lines))
    try:
        obj = json.loads(lines[k])
    except (ValueError, RecursionError):
        return text
    if not isinstance(obj, dict) or not obj:
        return text
    key = rng.choice(list(obj))
    choice = rng.randrange(6)
    if choice == 0:
        del obj[key]
    else:
        obj[key] = [None, [], {}, "x", 1.5, True, -3, 10 ** 30, [[1, 2]], {"a": obj.get(key)}][rng.randrange(10)]
    lines[k] = json.dumps(obj, separators=(",", ":"))
    return "\n".join(lines)


def _nest(text: str, rng: random.Random) -> str:
    depth = rng.choice([50, 5000])
    k = rng.randrange(len(text) + 1)
    return text[:k] + "[" * depth + "1" + "]" * depth + text[k:]


def mutate(text: str, rng: random.Random) -> str:
    """One to four random mutations of a text."""
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(12)
        n = len(text)
        i = rng.randrange(n + 1)
        if op == 0 and n:
            text = text[:i] + text[i + 1:]
        elif op == 1:
            text = text[:i] + rng.choice(JUNK) + text[i:]
        elif op == 2 and n:
            text = text[:i] + rng.choice(JUNK + ["a", "9", " "]) + text[i + 1:]
        elif op in (3, 4):
            words = text.split(" ")
            if len(words) > 2:
                j = rng.randrange(len(words) - 1)
                if op == 3:
                    words[j], words[j + 1] = words[j + 1], words[j]
                else:
                    del words[j]
                text = " ".join(words)
        elif op == 5:
            text = _numbers(text, rng)
        elif op == 6:
            text = _json_field(text, rng)
        elif op == 7:
            text = _nest(text, rng)
        elif op == 8 and n:  # a piece repeated (a move, a line, a tag)
            j = rng.randrange(n)
            text = text[:j] + text[j:j + rng.randint(1, 80)] * rng.randint(2, 5) + text[j:]
        elif op == 9:  # a huge field
            text = text[:i] + rng.choice(["x", "{", "1", "a1 "]) * rng.choice([70_000, 2000]) + text[i:]
        elif op == 10:  # truncated
            text = text[:i]
        elif op == 11:  # a line doubled or dropped
            lines = text.split("\n")
            k = rng.randrange(len(lines))
            lines.insert(k, lines[k]) if rng.random() < 0.5 else lines.pop(k)
            text = "\n".join(lines)
    return text


class _Timeout(Exception):
    pass


@contextmanager
def time_limit(seconds: int):
    def alarm(signum, frame):
        raise _Timeout()
    old = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _positioned(outcome: dict) -> bool:
    return all(e.get("code") and e.get("line") is not None and e.get("column") is not None
               for e in outcome.get("errors", []))


def _round_trip(store: Store, outcome: dict, lenient: bool = False) -> str | None:
    """Every format the record's game writes reads back as the same record (or, where the
    format says what it dropped, as a record that reads back the same way again). A record
    stored by ``--lenient`` is read back the same way."""
    row = store.get(outcome["id"])
    for fmt in registry.get_game(row["game"]).info.formats.write:
        try:
            text, dropped = export_record(row, fmt)
        except UsageError as err:
            if not outcome.get("finished", True) and "finished" in str(err):
                continue  # a format of finished games only
            return f"export as {fmt} refused: {err}"
        again = ingest_text(store, text, f"export.{fmt}", fmt, lenient=lenient)
        if len(again) != 1 or again[0]["status"] not in ("duplicate", "ingested"):
            return f"export as {fmt} does not read back: {json.dumps(again)[:400]}"
        if not dropped and again[0]["id"] != outcome["id"]:
            return f"export as {fmt} reads back as another record: {text[:300]!r}"
        if dropped:  # what the export kept must itself be stable
            second, _ = export_record(store.get(again[0]["id"]), fmt)
            if second != text:
                return f"export as {fmt} is not stable once read back"
    return None


def check(text: str, seconds: int = 10) -> tuple[str, str]:
    """(kind, detail) of ingesting one text into a fresh store and, if accepted, of its round trips."""
    store = Store(":memory:")
    try:
        with time_limit(seconds):
            outcomes = ingest_text(store, text, "fuzz.txt")
            for out in outcomes:
                if out["status"] == "rejected" and not _positioned(out):
                    return "unpositioned", json.dumps(out["errors"])[:400]
            for out in outcomes:
                if out["status"] == "ingested":
                    problem = _round_trip(store, out)
                    if problem:
                        return "round-trip", problem
            if any(o["status"] == "rejected" and o["errors"][0]["code"] == "score-mismatch" for o in outcomes):
                kept = Store(":memory:")  # what --lenient stores must read back too
                for out in ingest_text(kept, text, "fuzz.txt", lenient=True):
                    if out["status"] == "ingested":
                        problem = _round_trip(kept, out, lenient=True)
                        if problem:
                            return "round-trip", "kept by --lenient: " + problem
    except _Timeout:
        return "hang", f"over {seconds} s"
    except RecordRejected as err:  # must never escape ingest_text
        return "crash", f"RecordRejected escaped: {err}"
    except Exception as exc:  # noqa: BLE001 - this is what the fuzzer looks for
        frame = traceback.extract_tb(exc.__traceback__)[-1]
        return "crash", f"{type(exc).__name__}: {str(exc)[:200]} at {Path(frame.filename).name}:{frame.lineno}"
    if any(o["status"] == "rejected" for o in outcomes):
        return "rejected", outcomes[0].get("errors", [{}])[0].get("code", "")
    return "ok", ""
