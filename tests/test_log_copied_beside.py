"""A long write's log copied back into the file by a thread beside the writer
(``Store.log_copied_beside``, used by ingest of many files): the log starts over instead of
growing, every commit reaches the file, a reader in another process does not hold the writer
back, and the writer copies its log itself again when the block ends, however it ends."""
from __future__ import annotations

import os
import sqlite3
import threading
import time

import pytest

import scorebook.records.store as store_module
from scorebook.records.store import WAL_CHECKPOINT_PAGES, Store

ROW = "x" * 3000  # about a page a row: the log grows by thousands of pages a second


@pytest.fixture
def quick(monkeypatch):
    monkeypatch.setattr(store_module, "COPY_BESIDE_EVERY", 0.05)


def _write(store: Store, seconds: float, until=lambda: False, after_commit=lambda: None) -> int:
    """Commit row after row for ``seconds``, or until ``until()`` says so; how many."""
    store.db.execute("CREATE TABLE IF NOT EXISTS filler (k INTEGER PRIMARY KEY, v TEXT)")
    count, end = 0, time.monotonic() + seconds
    while time.monotonic() < end and not until():
        with store.atomic():
            store.db.conn.executemany("INSERT INTO filler (v) VALUES (?)", [(ROW,)] * 20)
        count += 20
        after_commit()
    return count


def _log_generation(path: str) -> int:
    """The log header's checkpoint sequence number: SQLite adds one each time the log starts
    over (and writes a new header), so two reads that differ saw a restart between them."""
    with open(path + "-wal", "rb") as log:
        return int.from_bytes(log.read(16)[12:16], "big")


def test_the_log_starts_over_and_every_row_reaches_the_file(tmp_path, quick, monkeypatch):
    """Rows written through eight of the thread's rounds (however long a busy machine makes
    them): the log starts over after each. Its restarts are counted from its header, not
    guessed from its size: on a loaded disk one round's fsync can outlast tens of thousands of
    rows, so the largest the log grew says nothing about whether it started over."""
    path = str(tmp_path / "a.db")
    store = Store(path)
    fsyncs, generations = [], set()
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: fsyncs.append(fd) or real_fsync(fd))  # two a round
    with store.log_copied_beside():
        assert store.db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0  # the thread copies it
        written = _write(store, 60, until=lambda: len(fsyncs) >= 16,
                         after_commit=lambda: generations.add(_log_generation(path)))
        assert len(fsyncs) >= 16
        threads = [t.name for t in threading.enumerate()]
        assert "scorebook-log-copy" in threads
    assert "scorebook-log-copy" not in [t.name for t in threading.enumerate()]
    assert store.db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == WAL_CHECKPOINT_PAGES
    # a finished round lets the writer's next transaction start the log over (7 or 8 times in
    # 8 rounds here; a round that begins while the writer copies its last pages costs one, and
    # a log that never starts over keeps its first header throughout)
    assert len(generations) >= 4, sorted(generations)
    store.close()
    assert not os.path.exists(path + "-wal")  # the last close copied the rest back
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("SELECT count(*) FROM filler").fetchone()[0] == written


def test_a_reader_holding_an_old_snapshot_does_not_hold_the_writer_back(tmp_path, quick):
    """The copies never wait for readers: a snapshot kept open only keeps the log from
    starting over until it ends."""
    path = str(tmp_path / "a.db")
    store = Store(path)
    _write(store, 0.1)
    reader = sqlite3.connect(path, isolation_level=None)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM filler").fetchone()  # a snapshot kept open throughout
    slowest = 0.0
    with store.log_copied_beside():
        end = time.monotonic() + 1.0
        while time.monotonic() < end:
            start = time.monotonic()
            with store.atomic():
                store.db.conn.execute("INSERT INTO filler (v) VALUES (?)", [ROW])
            slowest = max(slowest, time.monotonic() - start)
    reader.execute("COMMIT")
    reader.close()
    assert slowest < 0.5, slowest  # a copy's fsync at most


def test_the_thread_ends_and_the_writer_copies_again_when_the_block_fails(tmp_path, quick):
    store = Store(str(tmp_path / "a.db"))
    with pytest.raises(KeyboardInterrupt):
        with store.log_copied_beside():
            _write(store, 0.2)
            raise KeyboardInterrupt
    assert "scorebook-log-copy" not in [t.name for t in threading.enumerate()]
    assert store.db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == WAL_CHECKPOINT_PAGES


def test_an_ingest_of_many_files_copies_its_log_beside_and_one_file_does_not(tmp_path, monkeypatch):
    from scorebook.analyze.standings import ingest_tournament
    from scorebook.records import ingest
    from .conftest import ROOT
    used = []
    real = Store.log_copied_beside
    monkeypatch.setattr(Store, "log_copied_beside", lambda self: used.append(self) or real(self))
    store = Store(str(tmp_path / "a.db"))
    monkeypatch.setattr(ingest, "PARALLEL_MIN_BYTES", 1)
    one = sorted((ROOT / "samples").rglob("*.pgn"))[0]
    ingest.IngestPlan.of([str(ROOT / "samples")]).run(store, take_tournament=ingest_tournament)
    assert used == [store]
    monkeypatch.setattr(ingest, "PARALLEL_MIN_BYTES", one.stat().st_size + 1)
    ingest.IngestPlan.of([str(one)]).run(Store(str(tmp_path / "b.db")), take_tournament=ingest_tournament)
    assert used == [store]


def test_a_thread_that_fails_gives_the_copying_back_to_the_writer(tmp_path, quick, monkeypatch):
    """The thread's connection fails (a file it cannot open): the writer's own copying comes
    back at its next commit, and the log does not grow without end meanwhile."""
    real_connect = sqlite3.connect

    def failing(path, *args, **kwargs):
        if threading.current_thread().name == "scorebook-log-copy":
            raise sqlite3.OperationalError("unable to open database file")
        return real_connect(path, *args, **kwargs)
    monkeypatch.setattr(store_module.sqlite3, "connect", failing)
    store = Store(str(tmp_path / "a.db"))
    with store.log_copied_beside():
        _write(store, 0.3)
        assert store.db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == WAL_CHECKPOINT_PAGES
