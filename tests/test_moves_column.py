"""A record's moves are one column of its row (migration 19), shown by the view ``moves`` as
the table of a row a move showed them; an archive stored before keeps every move."""
from __future__ import annotations

import re
import sqlite3

from scorebook.records.ingest import ingest_file
from scorebook.records.store import Store
from scorebook.records.store.schema import BROWSING, FTS_UPDATE_TRIGGER, MIGRATIONS, MOVES_COLUMN

from .conftest import SAMPLES

# the table of a row a move, as the first migration made it (migration 19 replaced it)
MOVES_TABLE = re.search(r"CREATE TABLE moves \(.*?\) WITHOUT ROWID", MIGRATIONS[0], re.S).group()


# the search index's triggers before migration 21 (which fills it in bulk instead)
SEARCH_TRIGGERS = re.search(r"CREATE TRIGGER records_fts_insert.*?END;\s*CREATE TRIGGER records_fts_delete.*?END;",
                            MIGRATIONS[BROWSING - 1], re.S).group() + FTS_UPDATE_TRIGGER + ";"


def undo_moves_column(db: sqlite3.Connection) -> None:
    """Back to schema 18: a row a move in the table ``moves`` (what an older archive holds),
    the search index filled by its triggers."""
    moves = db.execute("SELECT * FROM moves ORDER BY record_key, game, ply").fetchall()
    db.executescript("DROP TABLE search_indexed; DROP TRIGGER records_fts_delete; DROP TRIGGER records_fts_update; "
                     + SEARCH_TRIGGERS)
    db.executescript(f"DROP VIEW moves; {MOVES_TABLE}; ALTER TABLE records DROP COLUMN moves_json;")
    db.executemany("INSERT INTO moves VALUES (?,?,?,?,?,?)", moves)
    db.execute(f"PRAGMA user_version = {MOVES_COLUMN - 1}")
    db.commit()


def _stored(path) -> tuple[Store, list[str]]:
    store = Store(str(path))
    ids = [o["id"] for p in sorted(SAMPLES.rglob("*.pgn")) for o in ingest_file(store, str(p))
           if o["status"] == "ingested"]
    return store, ids


def test_the_view_shows_each_move_as_written(tmp_path):
    store, ids = _stored(tmp_path / "a.db")
    db = sqlite3.connect(tmp_path / "a.db")
    for rid in ids[:5]:
        key = db.execute("SELECT key FROM records WHERE id = ?", [rid]).fetchone()[0]
        rows = db.execute("SELECT game, ply, player, text, annotation FROM moves WHERE record_key = ? "
                          "ORDER BY game, ply", [key]).fetchall()
        assert rows == [tuple(m.values()) for m in store.moves(rid)] and rows
        plan = " ".join(r[3] for r in db.execute("EXPLAIN QUERY PLAN SELECT * FROM moves WHERE record_key = ?", [key]))
        assert "INTEGER PRIMARY KEY" in plan  # a record's moves: one row of records, not a scan
    assert db.execute("SELECT count(*) FROM moves").fetchone()[0] == sum(len(store.moves(r)) for r in ids)


def test_an_archive_stored_before_keeps_every_move(tmp_path):
    """An archive of schema 18 (a row a move) migrated: the same moves, the search index whole."""
    path = tmp_path / "old.db"
    store, ids = _stored(path)
    counts = [len(store.moves(r)) for r in ids]
    store.db.conn.close()
    db = sqlite3.connect(path)
    moves = db.execute("SELECT * FROM moves ORDER BY record_key, game, ply").fetchall()
    found = db.execute("SELECT rowid FROM records_fts WHERE records_fts MATCH 'random' ORDER BY rowid").fetchall()
    undo_moves_column(db)
    db.close()
    migrated = Store(str(path))
    assert migrated.schema_version == len(MIGRATIONS)
    db = sqlite3.connect(path)
    assert db.execute("SELECT * FROM moves ORDER BY record_key, game, ply").fetchall() == moves and moves
    assert db.execute("SELECT rowid FROM records_fts WHERE records_fts MATCH 'random' ORDER BY rowid").fetchall() \
        == found and found
    assert db.execute("SELECT count(*) FROM sqlite_master WHERE name = 'records_fts_update'").fetchone()[0] == 1
    assert [len(migrated.moves(r)) for r in ids] == counts
