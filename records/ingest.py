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
import re
import signal
import stat
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass

from scorebook import registry

from scorebook.errors import LENIENT, STRICT, ErrorPolicy, RecordRejected, UsageError
from .formats import blank, decode, detect_format, is_tournament, iter_text, pgn_records, read_pgn_record, reads_as_pgn
from .limits import MAX_FILE_BYTES
from .notation import Item, PreparedRecord, browsing
from .store import Store
from .store.records import ID_DIGITS, columns_json

GAME_FILES = (".txt", ".pgn", ".sbn", ".jsonl", ".tbt")


def content_hash(canonical_text: str) -> str:
    """A record's identity: the SHA-256 of its normalised Scorebook text (its id is the first
    ID_DIGITS hex digits, which the store finds it by)."""
    return hashlib.sha256(canonical_text.encode()).hexdigest()


def prepare(item: Item, source: str, policy: ErrorPolicy = STRICT) -> PreparedRecord:
    """Replay one parsed record (where reading did not) and build what the store takes;
    raises RecordRejected."""
    notation = registry.get_game(item.game).notation
    c = notation.canonical(item.record, policy)
    digest = content_hash(c.text)
    result, points, outcomes = browsing(notation, c.score, c.finished)
    return PreparedRecord(
        id=digest[:ID_DIGITS], hash=digest, game=item.game, rules=c.rules, deck=c.deck, format=item.format,
        source=source, index=item.index, text=c.text, tags=c.tags, score=c.score, recorded=c.recorded,
        total=c.total, finished=c.finished, warnings=list(c.warnings), players=list(c.players),
        scores=c.score_rows, columns_json=columns_json(c.tags, c.score, c.recorded, c.moves),
        result=result, points=list(points), outcomes=list(outcomes))


def _outcome(item: Item, source: str) -> dict:
    return {"source": source, "index": item.index, "status": None, "game": item.game}


def _prepare_items(items: list[Item], source: str, policy: ErrorPolicy) -> list[tuple[dict, tuple | None]]:
    """(outcome, prepared record as a plain tuple, or None when rejected) for each item."""
    pairs = []
    for item in items:
        out = _outcome(item, source)
        if item.error is None:
            try:
                pairs.append((out, tuple(prepare(item, source, policy))))
                continue
            except RecordRejected as err:
                item.error = err
        out["status"] = "rejected"
        error = item.error.as_dict()
        if error["line"] is None:  # a rejection of the whole record: at the record's first line
            error["line"], error["column"] = item.line, 1
        out["errors"] = [error]
        pairs.append((out, None))
    return pairs


# Large files of a one-line-a-record format (TinyBot lines) are read and replayed by forked
# workers while this process writes.
PARALLEL_MIN_LINES = 2000
_BATCH_LINES = 250
# a long file's lines (one record a line) or records (PGN-style, unread), set before the
# workers are forked, which inherit it (``_read_by_workers``)
_shared: list = []
_POLICIES = {p.name: p for p in (STRICT, LENIENT)}


def _prepare_line_batch(job: tuple[str, int, int, str, str]) -> bytes:
    """One batch, sent back marshalled: the results are plain dicts, tuples, lists and strings,
    which marshal writes three times faster than pickle (the pool would pickle them)."""
    fmt, start, end, source, policy = job
    reader = registry.format_owner(fmt).formats[fmt]
    items = reader.read_lines(_shared[start:end], start + 1, _POLICIES[policy])
    return marshal.dumps(_prepare_items(items, source, _POLICIES[policy]))


def _worker_init(parent: int) -> None:
    """A worker leaves Ctrl-C to the main process, which answers it for all, and dies with it:
    the kernel kills it when its parent ends, however the parent ends (even by kill -9)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # the pool stops its workers with SIGTERM; a handler inherited from the CLI would never run
    # here (a worker forked from the CLI's command thread is not Python's main thread), so the
    # default action, which ends the process, is restored
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})  # blocked by ``_pool`` until now
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux: the pool's own shutdown still ends it
        pass
    if os.getppid() != parent:  # the parent died before the line above took effect
        os._exit(1)


def _pool(workers: int):
    """A pool of forked workers that die with this process. SIGTERM is blocked while they are
    forked (and in the pool's threads, which fork any replacement): a worker stopped before
    ``_worker_init`` restored the default action would run its parent's handler instead, and
    a handler whose exception the forked child's start-up swallows left the pool waiting on a
    worker that never ended. The worker unblocks it; the signal, if sent, then ends it."""
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
    try:
        return multiprocessing.get_context("fork").Pool(workers, initializer=_worker_init, initargs=(os.getpid(),))
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


_ALONGSIDE: tuple = ()  # what ``alongside`` shares with its forked worker (inherited, not sent)


def _take(items: list, work, taken, lock) -> list[tuple[int, object]]:
    """Take the next of ``items`` (the shared ``taken`` counter) and do it, until none is
    left; (index, result) of each done: what both sides of ``alongside`` run."""
    done = []
    while True:
        with lock:
            k = taken.value
            taken.value += 1
        if k >= len(items):
            return done
        done.append((k, work(items[k])))


def _take_alongside(_) -> list[tuple[int, object]]:
    """In the worker: ``_take`` with the work of its side."""
    items, there, taken, lock = _ALONGSIDE
    return _take(items, there, taken, lock)


def alongside(items: list, here, there) -> list:
    """``here(item)`` for each item in this process while one forked worker does ``there(item)``
    (the same work, on its own connections), each taking the next item as it is free: the
    items are best given largest first. The results, in the items' order; an item the worker
    took and did not finish (it failed or was stopped) is done here. One core, or no fork: all
    done here."""
    global _ALONGSIDE
    if len(items) < 2 or not _can_fork():
        return [here(item) for item in items]
    context = multiprocessing.get_context("fork")
    taken, lock = context.RawValue("i", 0), context.Lock()
    _ALONGSIDE = (items, there, taken, lock)
    results: dict[int, object] = {}
    pool = _pool(1)
    try:
        worker = pool.apply_async(_take_alongside, (None,))
        results.update(_take(items, here, taken, lock))
        try:
            results.update(worker.get())
        except Exception:  # noqa: BLE001 - what the worker took and did not finish is done here
            pass
    finally:
        pool.terminate()
        _ALONGSIDE = ()
    return [results[k] if k in results else here(item) for k, item in enumerate(items)]


def _can_fork() -> bool:
    return _workers() >= 2 and "fork" in multiprocessing.get_all_start_methods()


def _workers() -> int:
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return min(cores, 8)


_STREAM_BATCH = 256  # records read, replayed and written at a time (within the file's one transaction)


def _line_format(fmt: str) -> bool:
    """Is ``fmt`` a format of one record a line (whose files can be read in parallel batches)?"""
    owner = registry.format_owner(fmt)
    return owner is not None and getattr(owner.formats[fmt], "one_record_a_line", False)


def _prepared_batches(text: str, source: str, fmt: str, policy: ErrorPolicy, *,
                      parallel: bool = True) -> Iterator[list[tuple[dict, tuple | None]]]:
    """Batches of (outcome, prepared record as a tuple, or None) in file order; ``parallel``:
    a long PGN-style file, or one of one record a line, is read by forked workers (never from
    a process with threads of its own, such as the server)."""
    if parallel and len(text) >= PARALLEL_MIN_BYTES and _can_fork() and reads_as_pgn(text, fmt):
        yield from _pooled_pgn(text, source, policy)
        return
    resolved = detect_format(text) if fmt == "auto" and not blank(text) else fmt
    lines = text.split("\n") if resolved and _line_format(resolved) else []
    if not parallel or len(lines) < PARALLEL_MIN_LINES or not _can_fork():
        batch: list = []  # records prepared a batch at a time: a long file is never all in memory
        for item in iter_text(text, source, fmt, policy=policy):
            batch.append(item)
            if len(batch) == _STREAM_BATCH:
                yield _prepare_items(batch, source, policy)
                batch = []
        if batch:
            yield _prepare_items(batch, source, policy)
        return
    jobs = [(resolved, i, min(i + _BATCH_LINES, len(lines)), source, policy.name)
            for i in range(0, len(lines), _BATCH_LINES)]
    yield from _read_by_workers(lines, _prepare_line_batch, jobs)


def _read_by_workers(shared: list, worker, jobs: list) -> Iterator:
    """Each of ``jobs`` done by ``worker`` in forked workers that inherit ``shared`` (a long
    file's lines or records: ``_shared``), its marshalled result read back, in order."""
    global _shared
    _shared = shared
    pool = _pool(_workers())
    try:
        for blob in pool.imap(worker, jobs):
            yield marshal.loads(blob)
    finally:
        pool.terminate()
        _shared = []


def _pooled_pgn(text: str, source: str, policy: ErrorPolicy) -> Iterator[list[tuple[dict, tuple | None]]]:
    """A long PGN-style text's records read by forked workers, a batch each, in order. The text
    is split into its records (unread games: the splitter is fast) before the workers are
    forked, so that they inherit them: a game's error does not survive pickling, and a group's
    games may lie anywhere in the text, so the workers cannot split it themselves."""
    records = list(pgn_records(text))
    jobs = [(i, min(i + _STREAM_BATCH, len(records)), source, policy.name)
            for i in range(0, len(records), _STREAM_BATCH)]
    yield from _read_by_workers(records, _prepare_record_batch, jobs)


def _prepare_record_batch(job: tuple[int, int, str, str]) -> bytes:
    """In a worker: a batch of a long PGN-style text's records read and prepared, marshalled."""
    start, end, source, policy = job
    items = [read_pgn_record(games, _POLICIES[policy]) for games in _shared[start:end]]
    return marshal.dumps(_prepare_items(items, source, _POLICIES[policy]))


@contextmanager
def gc_paused():
    """Reading, writing and rating build many small objects and no cycles: the cyclic
    collector would only slow them (after the games' code is loaded, each full collection
    walks about a million objects and finds nothing: 0.08 s, four times in an ingest of
    10,000 records)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def named(prepared: PreparedRecord, player: str | None) -> PreparedRecord:
    """A record of one seat that names no player (a TinyBot line), read again as ``player``'s
    (``ingest --player``): the player is part of its text, so of its id."""
    if player is None or prepared.players or registry.get_game(prepared.game).info.players.max != 1:
        return prepared
    text = f'[Player "{player}"]\n' + prepared.text
    policy = LENIENT if prepared.warnings else STRICT
    items = list(iter_text(text, prepared.source, "pgn", policy=policy))
    if len(items) != 1 or items[0].error is not None:
        return prepared
    try:
        again = prepare(items[0], prepared.source, policy)
    except RecordRejected:
        return prepared
    return again._replace(format=prepared.format, index=prepared.index)


def _store_batch(store: Store, batch: list[tuple[dict, tuple | None]], seen: set[str], player: str | None = None) -> None:
    """Write the new records of a batch (inside the file's transaction); mark the duplicates.
    ``player``: who a record of one seat without a player is credited to."""
    prepared = [(out, named(PreparedRecord._make(p), player)) for out, p in batch if p is not None]
    existing = store.existing_hashes([p.hash for _, p in prepared])
    fresh = []
    for out, p in prepared:
        out.update({"id": p.id, "score": p.score, "recorded": p.recorded, "finished": p.finished})
        if p.hash in existing or p.hash in seen:
            out["status"] = "duplicate"
            continue
        seen.add(p.hash)
        out["status"] = "ingested"
        if p.warnings:
            out["warnings"] = p.warnings
        fresh.append((out, p))
    for (out, _), note in zip(fresh, store.add_records([p for _, p in fresh])):
        if note:
            out["tournament"] = note


# ingest puts the records it stores into the search index (``Store.index_for_search``) in one
# statement every SEARCH_BATCH records and when it ends; a text ingested alone, at once
SEARCH_BATCH = 20_000


def ingest_text(store: Store, text: str, source: str, fmt: str = "auto", *,
                strict: bool = False, lenient: bool = False, player: str | None = None,
                search_at: int = 1) -> list[dict]:
    """Ingest every record of one text atomically; returns one outcome dict per record.
    ``strict``: one rejected record rejects the file; ``lenient``: a stated score that differs
    from the replay is stored with a warning (the readers' error policy). ``search_at``: the
    records stored and not yet in the search index are put into it, in the same transaction,
    once there are this many."""
    policy = LENIENT if lenient else STRICT
    with gc_paused():
        if strict:  # read everything first: one rejection and nothing is written
            return _write_pairs(store, [pair for batch in _prepared_batches(text, source, fmt, policy)
                                        for pair in batch], strict=True, player=player, search_at=search_at)
        return _write_batches(store, _prepared_batches(text, source, fmt, policy), player=player,
                              search_at=search_at)


def _write_pairs(store: Store, pairs: list[tuple], *, strict: bool, player: str | None = None,
                 search_at: int = 1) -> list[dict]:
    """Write a file's prepared records in one transaction; with ``strict``, none when one was rejected."""
    if strict and any(p is None for _, p in pairs):
        for out, p in pairs:
            if p is not None:
                out["status"] = "rejected"
                out["errors"] = [{"line": None, "column": None, "ply": None, "token": None,
                                  "code": "file-rejected",
                                  "message": "another record of this file was rejected and --strict is on"}]
        return [out for out, _ in pairs]
    return _write_batches(store, [pairs], player=player, search_at=search_at)


def _write_batches(store: Store, batches: Iterable, player: str | None = None, search_at: int = 1) -> list[dict]:
    """Write the batches of one file in one transaction, as they come (``search_at``: as
    ``ingest_text``'s)."""
    outcomes: list[dict] = []
    seen: set[str] = set()
    try:
        with store.atomic():
            for batch in batches:
                outcomes.extend(out for out, _ in batch)
                _store_batch(store, batch, seen, player)
            store.index_for_search(search_at)
    finally:
        if hasattr(batches, "close"):
            batches.close()  # stops the workers at once if writing failed
    return outcomes


# A folder of many files is read by forked workers, a file each, while this process writes
# each file in its own transaction, in the files' order (so what is a duplicate of what is as
# when read one by one). A large file is taken here instead, in batches of records: read by
# forked workers when it is one record a line (``_prepare_line_batch``) or PGN-style
# (``_pooled_pgn``), else here, a batch at a time (its memory stays bounded).
PARALLEL_MIN_BYTES = 2 * 1024 * 1024  # less than this in all: forking and loading code would cost more
POOLED_MAX_BYTES = 4 * 1024 * 1024  # a larger file is streamed here


def _read_file_pairs(job: tuple[str, str, bool]) -> bytes:
    """In a worker: every (outcome, prepared record) of one file, marshalled."""
    path, fmt, lenient = job
    try:
        data = read_source(path)
    except RecordRejected as err:
        return marshal.dumps([(file_rejection(path, err), None)])
    return marshal.dumps(prepare_bytes(data, path, fmt, lenient=lenient))


def _first_record_read(path: str, fmt: str, lenient: bool) -> None:
    """The first record of ``path`` read and prepared, then dropped: what loads its game's code."""
    try:
        text = decode(read_source(path))
    except RecordRejected:
        return
    policy = LENIENT if lenient else STRICT
    for item in iter_text(text, path, fmt, policy=policy):
        _prepare_items([item], path, policy)
        return


def _file_size(path: str) -> int:
    try:
        return os.stat(path).st_size if path != "-" else POOLED_MAX_BYTES + 1
    except OSError:
        return 0


def _pooled_files(paths: list[str], sizes: list[int], fmt: str, lenient: bool) -> Iterator[tuple[str, list | None]]:
    """(path, its pairs), in order: the pairs read by the workers for the files they take,
    None for a file this process reads itself (a large one, standard input). At most
    AHEAD_FILES a worker and about AHEAD_BYTES are read ahead of the writer, so memory does not
    grow with the folder. ``sizes``: each path's (``_file_size``)."""
    small = [(p, size) for p, size in zip(paths, sizes) if size <= POOLED_MAX_BYTES]
    if len(small) < 2 or sum(min(s, POOLED_MAX_BYTES) for s in sizes) < PARALLEL_MIN_BYTES or not _can_fork():
        yield from ((p, None) for p in paths)
        return
    workers = _workers()
    # the first record of a file of each game is read here, before the workers are forked: they
    # inherit its code imported and its compiled code loaded, which each would otherwise load
    # again; the files themselves are the workers' (this core idles meanwhile)
    for path in _one_of_each_game([p for p, _ in small[:_LOOKED_AT]]):
        _first_record_read(path, fmt, lenient)
    # the code just loaded (about a million objects, kept for the process's life) moved out of
    # the cyclic collector's reach before the fork, as Python's gc.freeze advises: no collection
    # walks it again, here or in a worker (whose walk would also write to, so copy, the pages it
    # shares with this process)
    gc.freeze()
    pool = _pool(workers)
    try:
        pending: list = []
        queue = iter(small)
        in_flight = 0  # the bytes of the files pending

        def top_up():
            nonlocal in_flight
            while len(pending) < AHEAD_FILES * workers and (in_flight < AHEAD_BYTES or len(pending) < 2 * workers):
                nxt = next(queue, None)
                if nxt is None:
                    return
                in_flight += nxt[1]
                pending.append((nxt, pool.apply_async(_read_file_pairs, ((nxt[0], fmt, lenient),))))

        top_up()
        for path, size in zip(paths, sizes):
            if size > POOLED_MAX_BYTES:
                yield path, None
                continue
            (got, got_size), result = pending.pop(0)
            in_flight -= got_size
            top_up()
            yield got, marshal.loads(result.get())
    finally:
        pool.terminate()


# the files read ahead of the writer: a worker that finished its file finds the next one
# queued while the writer waits on an earlier, longer one (2 a worker left each idle a
# third of the time, between files); the bytes bound what they hold meanwhile
AHEAD_FILES, AHEAD_BYTES = 8, 32 * 1024 * 1024
_LOOKED_AT = 64  # the files whose games are looked at before the workers start
_HEAD_BYTES = 4096
_GAME_TAG = re.compile(r'\[Game "([^"\n]{1,64})"\]')


def _one_of_each_game(paths: list[str]) -> list[str]:
    """The first of ``paths`` of each game (its Game tag, or its foreign format), as the head
    of each file says it; a file whose head says neither is not looked at further."""
    first: dict[str, str] = {}
    for path in paths:
        try:  # a regular file only, opened without waiting (a FIFO's writer may never come)
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
            try:
                head = os.read(fd, _HEAD_BYTES).decode("utf-8", "replace") if stat.S_ISREG(os.fstat(fd).st_mode) else ""
            finally:
                os.close(fd)
        except OSError:
            continue
        tag = _GAME_TAG.search(head)
        kind = tag.group(1) if tag else detect_format(head)
        if kind and kind != "pgn":
            first.setdefault(kind, path)
    return list(first.values())


def tournament_file_text(path: str, *, strict: bool = False) -> str | None:
    """The text of ``path`` when it names a tournament file (a ``.json`` file that
    ``formats.is_tournament``, ``strict`` or not), which ``ingest`` takes as a tournament
    rather than as records; else None (and an unreadable file is left to the records' reader
    to report). A file named is taken loosely, so that a faulty tournament is told what is
    wrong with it; a file found in a folder strictly, so that other JSON there is skipped."""
    if path == "-" or not path.lower().endswith(".json"):
        return None
    try:
        text = decode(read_source(path))
    except RecordRejected:
        return None
    return text if is_tournament(text, strict=strict) else None


def expand_paths(paths: list[str], *, tournaments: bool = False) -> tuple[list[str], list[dict], list[str]]:
    """(files, problems, skipped): files as given, directories walked recursively (sorted,
    files with a record suffix, and with ``tournaments`` the ``.json`` files that are
    tournament files), an outcome for each folder that cannot be listed, and the files of
    folders that were skipped (other suffixes, hidden). A path that does not exist is a
    usage error."""
    files: list[str] = []
    problems: list[dict] = []
    skipped: list[str] = []

    def unlistable(err: OSError) -> None:
        problems.append(file_rejection(err.filename or "?", RecordRejected(
            "unreadable-file", f"cannot list the folder: {err.strerror or err}", line=1, column=1)))

    for p in paths:
        if p == "-":
            files.append(p)
        elif os.path.isdir(p):
            if not os.access(p, os.R_OK | os.X_OK):
                unlistable(PermissionError(13, "Permission denied", p))
                continue
            for root, dirs, names in os.walk(p, onerror=unlistable):
                dirs.sort()
                for n in sorted(names):
                    path = os.path.join(root, n)
                    wanted = not n.startswith(".") and (n.lower().endswith(GAME_FILES) or (
                        tournaments and tournament_file_text(path, strict=True) is not None))
                    (files if wanted else skipped).append(path)
        elif os.path.lexists(p):
            files.append(p)
        else:
            raise UsageError(f"no such file or directory: {p}")
    return files, problems, skipped


def file_rejection(source: str, err: RecordRejected) -> dict:
    return {"source": source, "index": 1, "status": "rejected", "game": None, "errors": [err.as_dict()]}


def read_source(path: str) -> bytes:
    """The bytes of a regular file, or of standard input for ``-``, at most MAX_FILE_BYTES;
    raises RecordRejected: ``unreadable-file`` (not a regular file: a FIFO or a device is
    never opened, so it cannot hang; or the system refuses it), ``too-large``."""
    def refuse(code: str, why: str) -> RecordRejected:
        return RecordRejected(code, why, line=1, column=1)

    if path == "-":
        data = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
    else:
        try:
            info = os.stat(path)
        except OSError as exc:
            raise refuse("unreadable-file", exc.strerror or str(exc)) from None
        if not stat.S_ISREG(info.st_mode):
            kind = ("a folder" if stat.S_ISDIR(info.st_mode) else "a FIFO" if stat.S_ISFIFO(info.st_mode)
                    else "a device" if stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode)
                    else "a socket" if stat.S_ISSOCK(info.st_mode) else "not a regular file")
            raise refuse("unreadable-file", f"{kind}: only regular files are read")
        if info.st_size > MAX_FILE_BYTES:
            raise refuse("too-large", f"the file has {info.st_size:,} bytes; at most {MAX_FILE_BYTES:,} are read")
        try:
            with open(path, "rb") as fh:
                data = fh.read(MAX_FILE_BYTES + 1)
        except OSError as exc:
            raise refuse("unreadable-file", exc.strerror or str(exc)) from None
    if len(data) > MAX_FILE_BYTES:
        raise refuse("too-large", f"the input is larger than {MAX_FILE_BYTES:,} bytes")
    return data


def ingest_bytes(store: Store, data: bytes, source: str, fmt: str = "auto", *, strict: bool = False,
                 lenient: bool = False) -> list[dict]:
    """Ingest one text received whole (an HTTP body, at most MAX_FILE_BYTES): as a file is."""
    try:
        text = decode(data)
    except RecordRejected as err:
        return [file_rejection(source, err)]
    return ingest_text(store, text, source, fmt, strict=strict, lenient=lenient)


def prepare_bytes(data: bytes, source: str, fmt: str = "auto", *, lenient: bool = False) -> list[tuple]:
    """Read and replay every record of a text received whole (an HTTP body, or a file a
    worker of a folder's pool read), writing nothing: the (outcome, prepared record) pairs
    ``store_prepared`` writes. The slow part of a submission, done outside any transaction so
    that its write holds the lock only for its rows; in this process (the server's, which has
    threads, or a pool's worker: no forked workers of its own)."""
    try:
        text = decode(data)
    except RecordRejected as err:
        return [(file_rejection(source, err), None)]
    with gc_paused():
        return [pair for batch in _prepared_batches(text, source, fmt, LENIENT if lenient else STRICT,
                                                    parallel=False) for pair in batch]


def store_prepared(store: Store, pairs: list[tuple]) -> list[dict]:
    """Write what ``prepare_bytes`` read, in one transaction; one outcome a record."""
    with store.atomic():
        _store_batch(store, pairs, set())
        store.index_for_search()
    return [out for out, _ in pairs]


def document(outcomes: list[dict], skipped: list[str] | None = None, tournaments: list[dict] | None = None) -> dict:
    """The document ``ingest --json`` prints (and the HTTP API answers): a summary, every
    record's outcome, the files skipped, the tournaments ingested."""
    summary = {k: sum(1 for o in outcomes if o["status"] == v)
               for k, v in (("ingested", "ingested"), ("duplicates", "duplicate"), ("rejected", "rejected"))}
    return {"summary": summary, "records": outcomes, "skipped": list(skipped or []),
            "tournaments": list(tournaments or [])}


def ingest_file(store: Store, path: str, fmt: str = "auto", *, strict: bool = False,
                lenient: bool = False, player: str | None = None, search_at: int = 1) -> list[dict]:
    """Ingest one file (or ``-`` for stdin); unreadable, oversized or undecodable input is one
    rejection. ``search_at``: as ``ingest_text``'s."""
    source = "<stdin>" if path == "-" else path
    try:
        text = decode(read_source(path))
    except RecordRejected as err:
        return [file_rejection(source, err)]
    return ingest_text(store, text, source, fmt, strict=strict, lenient=lenient, player=player,
                       search_at=search_at)


@dataclass
class IngestPlan:
    """What ``ingest PATHS`` will read: the files (folders walked), an outcome for each folder
    that cannot be listed, and the files of folders that are no records (not also named)."""
    files: list[str]
    problems: list[dict]
    skipped: list[str]
    named: frozenset[str]  # the files' absolute paths: a tournament's own files are ingested with it
    fmt: str = "auto"

    def skipped_line(self) -> str:
        """What was skipped, in one line."""
        shown = ", ".join(self.skipped[:5]) + (f" and {len(self.skipped) - 5} more" if len(self.skipped) > 5 else "")
        read = " ".join(GAME_FILES) + (" and tournament .json files" if self.fmt == "auto" else "")
        return f"skipped {len(self.skipped)} file(s) that are not records (folders are read for {read}): {shown}"

    @classmethod
    def of(cls, paths: list[str], fmt: str = "auto") -> "IngestPlan":
        files, problems, skipped = expand_paths(list(paths), tournaments=fmt == "auto")
        named = frozenset(os.path.abspath(f) for f in files if f != "-")
        return cls(files, problems, [f for f in skipped if os.path.abspath(f) not in named], named, fmt)

    def run(self, store: Store, *, strict: bool = False, lenient: bool = False, take_tournament=None,
            progress=None, player: str | None = None) -> dict:
        """Ingest every file, each whole or not at all: ``ingest --json``'s document. A
        tournament file goes to ``take_tournament(store, path, text, strict, lenient,
        also_ingested)`` (the standings' ingest, a layer above), which returns its outcomes and
        its summary; without it a tournament file is read as records."""
        outcomes: list[dict] = list(self.problems)
        tournaments: list[dict] = []
        texts = {path: tournament_file_text(path) if self.fmt == "auto" and take_tournament else None
                 for path in self.files}
        records = [path for path in self.files if texts[path] is None]
        sizes = [_file_size(p) for p in records]
        pooled = _pooled_files(records, sizes, self.fmt, lenient)
        # many files: the log copied back beside the writer (its readers never touch SQLite)
        beside = store.log_copied_beside() if sum(sizes) >= PARALLEL_MIN_BYTES else nullcontext()
        try:
            with beside, gc_paused():
                for path in self.files:
                    if texts[path] is not None:
                        found, tournament = take_tournament(store, path, texts[path], strict=strict, lenient=lenient,
                                                            also_ingested=self.named)
                        outcomes.extend(found)
                        tournaments.append(tournament)
                    else:
                        _, pairs = next(pooled)
                        outcomes.extend(
                            ingest_file(store, path, self.fmt, strict=strict, lenient=lenient, player=player,
                                        search_at=SEARCH_BATCH) if pairs is None else
                            _write_pairs(store, pairs, strict=strict, player=player, search_at=SEARCH_BATCH))
                    if progress:
                        progress()
        finally:
            pooled.close()
        store.index_for_search()  # the rest (an ingest cut short leaves it to the next writer)
        return document(outcomes, self.skipped, tournaments)


def rejection_line(outcome: dict) -> str:
    """A rejected record as one line: file, line, column, record, ply, token, code, reason."""
    e = outcome["errors"][0]
    return (f"{outcome['source']}:{e['line'] or '-'}:{e['column'] or '-'}: record {outcome['index']}, "
            f"ply {e['ply'] if e['ply'] is not None else '-'}, token {e['token'] or '-'}: {e['code']}: {e['message']}")


def kept_code(warnings) -> str | None:
    """A record stored with a warning (--lenient): the code it was kept despite."""
    for w in warnings or []:
        m = re.search(r"(?:^|: )([a-z]+(?:-[a-z]+)+): ", w)
        if m:
            return f"{m.group(1)} (kept)"
    return None
