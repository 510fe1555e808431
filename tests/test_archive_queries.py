"""The archive at size: the commands' filtered queries go through an index (EXPLAIN QUERY
PLAN of every statement the store runs: no full scan of the records), ``list`` applies its
filters before its limit, ``events`` reads the events' kept summaries, and a database of the previous
schema is upgraded with every record, analysis, job, token and rating intact."""
from __future__ import annotations

import sqlite3

import pytest

from scorebook.analyze.ratings import ratings
from scorebook.records.store import MIGRATIONS, Store

from .conftest import SAMPLES, cli_json


def _statements(store: Store, fn) -> list[str]:
    """Every statement ``fn(store)`` runs on the store's connection."""
    seen: list[str] = []
    store.db.conn.set_trace_callback(seen.append)
    try:
        result = fn(store)
        if hasattr(result, "__next__"):
            list(result)
    finally:
        store.db.conn.set_trace_callback(None)
    return [s for s in seen if s.lstrip().upper().startswith("SELECT")]


def _full_scans(store: Store, statement: str) -> list[str]:
    plan = [row[3] for row in store.db.conn.execute("EXPLAIN QUERY PLAN " + statement)]
    return [step for step in plan if step.startswith("SCAN") and ("records" in step.split()[1:2] or
                                                                  step.split()[1:2] == ["r"])
            and "INDEX" not in step]


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("archive") / "a.db")
    from scorebook.records.ingest import ingest_file, expand_paths
    store = Store(path)
    files, _, _ = expand_paths([str(SAMPLES)])
    for f in files:
        ingest_file(store, f)
    return store


@pytest.mark.parametrize("call", [
    lambda st: st.list("tsuro", order="date desc", limit=20),
    lambda st: st.list("tsuro", limit=20),
    lambda st: st.list(player="random*", limit=20),
    lambda st: st.list(where_sql="event = 'x'", limit=5),
    lambda st: st.list(where_sql="date >= '2026.01.01'", order="date desc", limit=5),
    lambda st: st.event_rows("Tournament", "game-of-islands"),
    lambda st: st.finished_results("tsuro", "Tournament"),
    lambda st: st.finished_results("tsuro", from_date="2026.01.01", through_key=5),
    lambda st: st.latest_analysis("ab"),
    lambda st: st.jobs(actor="club"),
    lambda st: st.events(),
    lambda st: st.existing_ids(["0123456789abcdef", "fedcba9876543210"]),
])
def test_filtered_queries_use_an_index(archive, call):
    statements = _statements(archive, call)
    assert statements
    for statement in statements:
        assert not _full_scans(archive, statement), statement


def test_a_players_records_are_found_through_the_player_index(archive):
    """``list --player`` matches the players' names (a scan of the players alone), then finds
    their seats by the player index: not every seat of the archive probed for its player's
    name (0.47 s at a million records, 1-10 ms this way)."""
    statements = _statements(archive, lambda st: st.list(player="random*", limit=20))
    plan = [row[3] for s in statements for row in archive.db.conn.execute("EXPLAIN QUERY PLAN " + s)]
    assert any(step.startswith("SEARCH record_players USING COVERING INDEX record_players_player") for step in plan)
    assert not any(step.startswith("SCAN") and step.split()[1] in ("record_players", "rp") for step in plan), plan


def test_a_games_results_from_a_date_are_two_ranges_of_the_game_date_index(archive):
    """A late game rated again reads its game's results from a checkpoint's date: the days
    from it and the days not known, each a range of the (game, date) index, not every record
    of the game (0.65 s for Tsuro at a million records, 0.1 s this way)."""
    statements = _statements(archive, lambda st: st.finished_results("tsuro", from_date="2026.01.01"))
    plan = [row[3] for s in statements for row in archive.db.conn.execute("EXPLAIN QUERY PLAN " + s)]
    assert "SEARCH r USING INDEX records_game_date (game=? AND date>?)" in plan, plan
    assert "SEARCH r USING INDEX records_game_date (game=? AND date=?)" in plan, plan


def test_a_filter_on_the_players_no_index_serves_is_counted_from_their_narrow_copy(archive):
    """Datasette counts ``games?players__contains=NAME`` (a LIKE, which no index serves) by
    scanning each record's players beside its key (``records_key_players``, some 40 bytes a
    record), not the records' rows (some 3,000): the same count."""
    conn, pattern = archive.db.conn, {"p0": "%random%"}
    count = 'SELECT count(*) FROM games WHERE "players" LIKE :p0'
    plan = [row[3] for row in conn.execute("EXPLAIN QUERY PLAN " + count, pattern)]
    assert plan == ["SCAN r USING COVERING INDEX records_key_players"], plan
    by_rows = conn.execute("SELECT count(*) FROM records NOT INDEXED WHERE players LIKE :p0", pattern).fetchone()[0]
    assert conn.execute(count, pattern).fetchone()[0] == by_rows > 0


def test_list_filters_before_its_limit_and_orders_by_date(archive):
    newest = list(archive.list("tsuro", order="date desc", limit=3))
    every = sorted((r for r in archive.list("tsuro")), key=lambda r: (r["date"] or "", -r["key"]), reverse=True)
    assert newest and all(r["game"] == "tsuro" for r in newest)
    assert [r["date"] for r in newest] == [r["date"] for r in every[:3]]
    assert len(list(archive.list("tsuro", limit=3))) == min(3, len(every))


def test_events_count_what_a_scan_counts(archive):
    listed = {e["event"]: e for e in archive.events()}
    by_hand: dict = {}
    for r in archive.list():
        e = by_hand.setdefault(r["event"], {"records": 0, "players": set(), "dates": set()})
        e["records"] += 1
        e["players"].update(r["players"].split(" / ") if r["players"] else [])
        if r["date"]:
            e["dates"].add(r["date"])
    assert set(listed) == set(by_hand)
    for name, e in by_hand.items():
        assert listed[name]["records"] == e["records"] and listed[name]["players"] == len(e["players"]), name
        assert listed[name]["first"] == (min(e["dates"]) if e["dates"] else None)


def test_the_previous_schema_is_upgraded_with_everything_intact(tmp_path, run_cli):
    cli_json(run_cli("ingest", str(SAMPLES), "--json"))
    rid = cli_json(run_cli("list", "--game", "iwoki", "--json"))["records"][0]["id"]
    cli_json(run_cli("analyze", rid, "--bot", "samples:1", "--json"))
    cli_json(run_cli("token", "create", "club", "--can", "submit", "--json"))
    new = sqlite3.connect(run_cli.db)
    old_path = tmp_path / "old.db"
    old = sqlite3.connect(old_path)
    for script in MIGRATIONS[:-1]:  # the schema one migration back
        old.executescript(script)
    old.execute(f"PRAGMA user_version = {len(MIGRATIONS) - 1}")
    # the search index, and its mark, are the upgraded writer's to fill (``index_for_search``)
    tables = [r[0] for r in old.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE "
                                        "'records_fts%' AND name NOT LIKE 'sqlite_%' AND name != 'search_indexed'")]
    for table in tables:
        columns = [r[1] for r in old.execute(f"PRAGMA table_info({table})")]
        rows = new.execute(f"SELECT {', '.join(columns)} FROM {table}").fetchall()
        if rows:
            old.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({','.join('?' * len(columns))})",
                            rows)
    old.commit()
    old.close()
    upgraded = Store(str(old_path))
    assert upgraded.schema_version == len(MIGRATIONS)
    fresh = Store(run_cli.db, write=False)
    assert [(r["id"], r["date"], r["text"]) for r in upgraded.list()] == \
        [(r["id"], r["date"], r["text"]) for r in fresh.list()]
    key = fresh.latest_analysis(rid)[1:]
    assert upgraded.find_analysis(rid, *key) == fresh.find_analysis(rid, *key)
    assert upgraded.tokens() == fresh.tokens()
    assert upgraded.events() == fresh.events()
    assert ratings(upgraded, None) == ratings(fresh, None)
    search = "SELECT rowid FROM records_fts WHERE records_fts MATCH 'random' ORDER BY rowid"
    assert upgraded.db.execute(search).fetchall() == fresh.db.execute(search).fetchall() != []


def test_the_counts_datasette_makes_go_through_an_index(archive):
    """Every page of a table or view counts its rows, and an event's row page its records: at a
    million records a count that materialises the view or scans the records passes the time
    limit on every request."""
    for statement in ("SELECT count(*) FROM games", "SELECT count(*) FROM records WHERE event_id = 1",
                      "SELECT * FROM games ORDER BY date DESC LIMIT 101"):
        plan = [row[3] for row in archive.db.conn.execute("EXPLAIN QUERY PLAN " + statement)]
        assert not any(step.startswith(("CO-ROUTINE", "MATERIALIZE")) for step in plan), (statement, plan)
        assert not _full_scans(archive, statement) and any("INDEX" in step for step in plan), (statement, plan)
