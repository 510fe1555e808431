"""The SQLite store: schema and migrations, atomic files, idempotent re-ingest, --strict."""
from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from scorebook.errors import DatabaseError, UsageError
from scorebook.records.ingest import ingest_text
from scorebook.records.store import MIGRATIONS, WAL_CHECKPOINT_PAGES, Store

from .conftest import ROOT
from .tiny_islands.conftest import random_tinybot_line


def lines(*seeds):
    return "\n".join(random_tinybot_line(s) for s in seeds) + "\n"


def test_new_database_has_the_schema_wal_and_foreign_keys(tmp_path):
    store = Store(str(tmp_path / "a.db"))
    assert store.schema_version == len(MIGRATIONS)
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.db.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
    # the writer copies its log back into the file in large steps, not SQLite's 1,000 pages
    assert store.db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == WAL_CHECKPOINT_PAGES > 1000
    assert store.db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert {"records", "players", "events", "scores", "record_players"} <= set(store.db.table_names())
    assert "moves" in store.db.view_names()  # a record's moves are a column of its row (migration 19)
    # reopening does not migrate again
    assert Store(str(tmp_path / "a.db")).schema_version == len(MIGRATIONS)


def test_a_newer_schema_is_refused(tmp_path):
    store = Store(str(tmp_path / "a.db"))
    store.db.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 5}")
    with pytest.raises(UsageError):
        Store(str(tmp_path / "a.db"))


def test_not_a_database(tmp_path):
    path = tmp_path / "junk.db"
    path.write_text("this is not sqlite" * 100)
    with pytest.raises(DatabaseError, match="cannot open database"):
        Store(str(path))


def test_ingested_record_rows(store):
    out = ingest_text(store, lines(1), "a.txt")[0]
    rid = out["id"]
    row = store.get(rid[:6])
    assert row["game"] == "tiny-islands" and row["rules"] == "tinybot" and row["format"] == "tinybot"
    assert row["score"] == out["score"] and row["text"].startswith('[Game "tiny-islands"]')
    assert len(store.moves(rid)) == 26 + 3
    assert store.scores(rid) == {(0, k): v for k, v in out["score"].items()}
    assert list(store.list(player="TinyBot")) == []  # a TinyBot line names no player
    named = ingest_text(store, lines(1), "a.txt", player="Slogo")[0]
    assert named["status"] == "ingested" and named["id"] != rid  # the player is part of the record
    assert [r["id"] for r in store.list(player="Slogo")] == [named["id"]]
    assert list(store.list(player="nobody")) == []


def test_reingest_is_idempotent(store):
    text = lines(1, 2, 3)
    assert [o["status"] for o in ingest_text(store, text, "a.txt")] == ["ingested"] * 3
    before = store.db.execute("SELECT count(*) FROM moves").fetchone()[0]
    assert [o["status"] for o in ingest_text(store, text, "b.txt")] == ["duplicate"] * 3
    assert store.count() == 3
    assert store.db.execute("SELECT count(*) FROM moves").fetchone()[0] == before


def test_same_record_twice_in_one_file(store):
    out = ingest_text(store, lines(1, 1), "a.txt")
    assert [o["status"] for o in out] == ["ingested", "duplicate"]


def test_good_records_ingest_and_bad_ones_are_reported(store):
    text = lines(1) + "garbage line\n" + lines(2)
    out = ingest_text(store, text, "mixed.txt", "tinybot")
    assert [o["status"] for o in out] == ["ingested", "rejected", "ingested"]
    assert out[1]["index"] == 2 and out[1]["errors"][0]["line"] == 2


def test_strict_rejects_the_whole_file(store):
    text = lines(1) + "garbage line\n" + lines(2)
    out = ingest_text(store, text, "mixed.txt", "tinybot", strict=True)
    assert [o["status"] for o in out] == ["rejected"] * 3
    assert out[0]["errors"][0]["code"] == "file-rejected"
    assert store.count() == 0


def test_an_error_inside_the_transaction_leaves_nothing(store, monkeypatch):
    original = Store.add_records

    def half_then_fail(self, items):
        original(self, items[:1])
        raise RuntimeError("disk on fire")
    monkeypatch.setattr(Store, "add_records", half_then_fail)
    with pytest.raises(RuntimeError):
        ingest_text(store, lines(1, 2), "a.txt")
    assert store.count() == 0
    assert store.db.execute("SELECT count(*) FROM moves").fetchone()[0] == 0


def test_a_process_killed_mid_file_leaves_nothing(tmp_path):
    db = tmp_path / "kill.db"
    data = tmp_path / "three.txt"
    data.write_text(lines(1, 2, 3))
    script = textwrap.dedent(f"""
        import os
        from scorebook.records.store import Store
        from scorebook.records.ingest import ingest_text
        original = Store.add_records
        def die(self, items):
            original(self, items[:2])   # rows written inside the open transaction ...
            os._exit(9)                 # ... then the process dies
        Store.add_records = die
        ingest_text(Store({str(db)!r}), open({str(data)!r}).read(), "three.txt")
    """)
    proc = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True)
    assert proc.returncode == 9
    assert Store(str(db)).count() == 0


@pytest.mark.parametrize("strict", [False, True])
def test_large_files_read_by_workers_give_what_one_process_gives(tmp_path, monkeypatch, strict):
    import scorebook.records.ingest as ingest
    rows = [random_tinybot_line(s) for s in range(12)]
    rows[5] = rows[5].replace(" ", "  ", 1)  # other spacing: read token by token
    text = "\n".join(rows + ["garbage line"] * (not strict) + rows[:3] + [""] + rows[7:]) + "\n"
    if strict:
        text += "hiw6 too short\n"
    serial = ingest_text(Store(str(tmp_path / "serial.db")), text, "big.txt", strict=strict)
    monkeypatch.setattr(ingest, "PARALLEL_MIN_LINES", 4)
    monkeypatch.setattr(ingest, "_BATCH_LINES", 5)
    pools = []
    real_context = ingest.multiprocessing.get_context
    monkeypatch.setattr(ingest.multiprocessing, "get_context", lambda m: pools.append(m) or real_context(m))
    store = Store(str(tmp_path / "parallel.db"))
    parallel = ingest_text(store, text, "big.txt", strict=strict)
    assert pools == ["fork"] and parallel == serial
    statuses = [o["status"] for o in parallel]
    if strict:
        assert set(statuses) == {"rejected"} and store.count() == 0
    else:
        assert statuses.count("ingested") == 12 and statuses.count("duplicate") == 8
        assert statuses[12] == "rejected" and parallel[12]["errors"][0]["line"] == 13
        assert store.count() == 12
        keys = {r[0] for r in store.db.execute("SELECT DISTINCT record_key FROM moves")}
        assert len(keys) == 12


def test_the_search_index_merges_its_segments_sixteen_at_a_time(store):
    """FTS5's automerge at 16, not its default 4 (migration 20): at a million records, the
    merging of the search index's segments was a fifth of a record's write."""
    assert store.db.execute("SELECT v FROM records_fts_config WHERE k = 'automerge'").fetchone() == (16,)
