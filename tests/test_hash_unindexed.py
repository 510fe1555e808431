"""A new archive keeps no index of its records' hashes (migration 22): a stored hash is found by
its id, unique and indexed, which is the hash's first digits. An archive that already held
records keeps its index, and finds its duplicates the same way."""
from __future__ import annotations

import sqlite3

from scorebook.records.ingest import ingest_file
from scorebook.records.store import MIGRATIONS, Store

from .conftest import SAMPLES

SAMPLE = sorted((SAMPLES / "tsuro").glob("*.pgn"))[0]


def _indexed_columns(conn) -> dict[str, list[str]]:
    return {name: [c[2] for c in conn.execute(f"PRAGMA index_info('{name}')")]
            for _, name, *_ in conn.execute("PRAGMA index_list(records)")}


def _ingested_twice(store: Store) -> tuple[list[str], list[str]]:
    first = [o["status"] for o in ingest_file(store, str(SAMPLE))]
    again = [o["status"] for o in ingest_file(store, str(SAMPLE))]
    return first, again


def test_a_new_archive_finds_its_duplicates_by_id_without_an_index_of_hashes(tmp_path):
    store = Store(str(tmp_path / "new.db"))
    indexed = _indexed_columns(store.db.conn)
    assert ["hash"] not in indexed.values() and ["id"] in indexed.values()
    first, again = _ingested_twice(store)
    assert set(first) == {"ingested"} and again == ["duplicate"] * len(first)
    lookup = "SELECT hash FROM records WHERE id IN (?, ?)"
    plan = " ".join(r[3] for r in store.db.conn.execute("EXPLAIN QUERY PLAN " + lookup, ["a", "b"]))
    assert "USING INDEX sqlite_autoindex_records_1" in plan and "SCAN" not in plan
    assert store.db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    # the views that read the records were made again with the table
    assert store.db.execute("SELECT count(*) FROM games").fetchone()[0] == len(first)


def test_an_archive_that_held_records_keeps_its_index_and_finds_its_duplicates(tmp_path):
    path = tmp_path / "old.db"
    fresh = Store(str(tmp_path / "fresh.db"))
    ingest_file(fresh, str(SAMPLE))
    old = sqlite3.connect(path)
    for script in MIGRATIONS[:21]:
        old.executescript(script)
    old.execute("PRAGMA user_version = 21")
    columns = [r[1] for r in old.execute("PRAGMA table_info(records)")]
    row = fresh.db.conn.execute(f"SELECT {', '.join(columns)} FROM records ORDER BY key LIMIT 1").fetchone()
    old.execute(f"INSERT INTO records ({', '.join(columns)}) VALUES ({','.join('?' * len(columns))})", row)
    old.commit()
    old.close()
    upgraded = Store(str(path))
    assert upgraded.schema_version == len(MIGRATIONS)
    assert ["hash"] in _indexed_columns(upgraded.db.conn).values()
    statuses = [o["status"] for o in ingest_file(upgraded, str(SAMPLE))]
    assert statuses[0] == "duplicate" and set(statuses[1:]) <= {"ingested"}
