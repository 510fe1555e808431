"""The search index is filled in bulk (migration 21, ``Store.index_for_search``): every record
stored is found by a search once the command that stored it ends (a single submission at
once, an ingest every SEARCH_BATCH records and at its end, an ingest cut short by the next
writer to open the database), the index agrees with one rebuilt from the records, and an
update or deletion touches it only for a record in it."""
from __future__ import annotations

import sqlite3

from scorebook.records import ingest
from scorebook.records.ingest import IngestPlan, ingest_text
from scorebook.records.store import Store

from .tiny_islands.conftest import random_tinybot_line

NAME = "Searchable"  # the player every record is credited to (a TinyBot line names none)


def _files(folder, count: int, per_file: int = 3) -> list[str]:
    paths = []
    for k in range(count):
        path = folder / f"f{k}.txt"
        path.write_text("".join(random_tinybot_line(1000 + k * per_file + i) + "\n" for i in range(per_file)))
        paths.append(str(path))
    return paths


def _found(db: str, term: str = "Searchable") -> list[int]:
    with sqlite3.connect(db) as conn:
        return [r[0] for r in conn.execute("SELECT rowid FROM records_fts WHERE records_fts MATCH ? ORDER BY rowid",
                                           [term])]


def _keys(db: str) -> list[int]:
    with sqlite3.connect(db) as conn:
        return [r[0] for r in conn.execute("SELECT key FROM records ORDER BY key")]


def _intact(db: str) -> bool:
    """FTS5's own check of the index against its content (the records)."""
    with sqlite3.connect(db) as conn:
        conn.execute("INSERT INTO records_fts (records_fts, rank) VALUES ('integrity-check', 1)")
    return True


def test_an_ingest_fills_the_index_in_bulk_and_when_it_ends(tmp_path, monkeypatch):
    db = str(tmp_path / "a.db")
    monkeypatch.setattr(ingest, "SEARCH_BATCH", 7)  # files of 3: filled after the third file, then at the end
    filled = []
    original = Store.index_for_search
    monkeypatch.setattr(Store, "index_for_search", lambda self, at_least=1: filled.append(original(self, at_least))
                        or filled[-1])
    store = Store(db)
    filled.clear()
    doc = IngestPlan.of(_files(tmp_path, 4)).run(store, player=NAME)
    assert doc["summary"]["ingested"] == 12
    assert [n for n in filled if n] == [9, 3]  # 9 pending after the third file, the last 3 at the end
    assert _found(db) == _keys(db) and len(_keys(db)) == 12 and _intact(db)


def test_a_text_ingested_alone_is_found_at_once(tmp_path):
    db = str(tmp_path / "a.db")
    store = Store(db)
    ingest_text(store, random_tinybot_line(7) + "\n", "one.txt", player=NAME)
    assert _found(db) == _keys(db) == [1]


def test_an_ingest_cut_short_is_indexed_by_the_next_writer(tmp_path, monkeypatch):
    db = str(tmp_path / "a.db")
    store = Store(db)
    monkeypatch.setattr(Store, "index_for_search", lambda self, at_least=1: 0)  # as if killed before it ran
    IngestPlan.of(_files(tmp_path, 2)).run(store, player=NAME)
    store.close()
    monkeypatch.undo()
    assert len(_keys(db)) == 6 and _found(db) == []
    Store(db, write=False).close()  # a reader changes nothing
    assert _found(db) == []
    Store(db).close()
    assert _found(db) == _keys(db) and _intact(db)


def test_an_update_or_deletion_touches_the_index_only_for_a_record_in_it(tmp_path):
    db = str(tmp_path / "a.db")
    store = Store(db)
    ingest_text(store, random_tinybot_line(1) + "\n", "one.txt", player=NAME)
    with store.atomic():  # stored, not yet indexed
        store.db.conn.execute("INSERT INTO records (key, id, hash, game, format, text, tags, score, finished, "
                              "engine_version, ingested_at, players) SELECT 2, 'x', 'x', game, format, text, tags, "
                              "score, finished, engine_version, ingested_at, 'Somebody' FROM records WHERE key = 1")
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE records SET players = 'Renamed' WHERE key = 2")  # not in the index: left alone
        conn.execute("DELETE FROM records WHERE key = 2")
        conn.execute("UPDATE records SET players = 'Renamed' WHERE key = 1")  # in it: its entry follows
    assert _intact(db) and _found(db, "Renamed") == [1]
