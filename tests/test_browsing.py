"""The archive made for browsing (migrations 4 and 5): the views read like the CLI, each seat's
outcome by its game's rule, full-text search over players, events and tags, the label columns,
an older database migrated with nothing lost, and the Datasette metadata describing every
table and view."""
from __future__ import annotations

import json
import sqlite3
from importlib import resources

from scorebook.records.store import BROWSING, MIGRATIONS, Store

from .conftest import SAMPLES, SHARED, cli_json, shared_file


def test_views_read_like_the_cli(run_cli):
    cli_json(run_cli("ingest", str(SAMPLES), "--json"))
    listed = cli_json(run_cli("list", "--json"))["records"]
    db = sqlite3.connect(run_cli.db)
    games = db.execute("SELECT id, game, event, players, result, total, rules FROM games").fetchall()
    assert [(g[0], g[1]) for g in games] == [(r["id"], r["game"]) for r in listed]
    from scorebook.records.notation import score_text
    for g, r in zip(games, listed):
        assert g[2] == r["tags"].get("Event") and g[3] == (" / ".join(r["players"]) or None)
        assert g[4] == score_text(r["score"]) + ("" if r["finished"] else " *") and g[6] == r["rules"]
    per_player = db.execute("SELECT record, player, seat, points, result FROM player_results").fetchall()
    assert len(per_player) == sum(len(r["players"]) for r in listed)
    from scorebook import registry
    for r in listed:
        points = registry.get_game(r["game"]).notation.seat_points(r["score"])
        rows = [p for p in per_player if p[0] == r["id"]]
        assert [(p[1], p[2], p[3]) for p in rows] == [(n, s, float(v)) for s, (n, v) in enumerate(zip(r["players"], points))]
        if len(rows) > 1:
            assert [p[4] for p in rows] == registry.get_game(r["game"]).notation.seat_outcomes(r["score"])
        elif rows:
            assert rows[0][4] is None
        else:  # a record that names no player (a TinyBot line)
            assert r["players"] == [] and r["rules"] == "tinybot"


def test_seat_outcomes_follow_each_games_rule():
    from scorebook import registry
    tsuro = registry.get_game("tsuro").notation
    assert tsuro.seat_outcomes({"winners": [1, 2], "players": [0, 1, 2]}) == ["loss", "shared", "shared"]
    goi = registry.get_game("game-of-islands").notation
    assert goi.seat_outcomes({"points": [9, 12]}) == ["loss", "win"]  # one grid: the most points
    # a triad: a margin under 2 is a drawn match, whatever the totals (spec §6)
    assert goi.seat_outcomes({"totals": [17, 16], "margin": 1, "result": "1/2-1/2"}) == ["shared", "shared"]
    assert goi.seat_outcomes({"totals": [15, 17], "margin": -2, "result": "0-1"}) == ["loss", "win"]


def test_a_drawn_triad_is_shared_though_its_totals_differ(run_cli):
    cli_json(run_cli("ingest", str(shared_file(SHARED / "data" / "goi" / "tournament-small" / "games.pgn")), "--json"))
    db = sqlite3.connect(run_cli.db)
    rows = db.execute("SELECT record, points, result FROM player_results").fetchall()
    by_record = {}
    for record, points, result in rows:
        by_record.setdefault(record, []).append((points, result))
    drawn_apart = [seats for seats in by_record.values() if seats[0][0] != seats[1][0] and abs(seats[0][0] - seats[1][0]) < 2]
    assert drawn_apart, "the tournament file has a triad drawn by a margin of 1"
    for seats in by_record.values():
        margin = seats[0][0] - seats[1][0]
        want = ["shared", "shared"] if abs(margin) < 2 else ["win", "loss"] if margin > 0 else ["loss", "win"]
        assert [result for _, result in seats] == want


def test_analysed_moves_view_matches_analyze(run_cli):
    rid = cli_json(run_cli("ingest", str(SAMPLES / "iwoki" / "iwoki-minimax2-greedy-s5-0002.pgn"), "--json"))[
        "records"][0]["id"]
    report = cli_json(run_cli("analyze", rid, "--bot", "samples:2", "--json"))
    rows = sqlite3.connect(run_cli.db).execute(
        "SELECT record, bot, ply, player, played, best, loss, class FROM analysed_moves").fetchall()
    assert rows == [(rid, report["bot"], m["ply"], m["player"], m["played"], m["best"], m["loss"], m["class"])
                    for m in report["moves"]]


def test_full_text_search_over_players_events_and_tags(run_cli):
    cli_json(run_cli("ingest", str(SAMPLES), "--json"))
    db = sqlite3.connect(run_cli.db)
    hits = {r[0] for r in db.execute("SELECT r.id FROM records r JOIN records_fts f ON f.rowid = r.key "
                                     "WHERE records_fts MATCH 'simple'")}
    everything = {r[0] for r in db.execute("SELECT id FROM records")}
    assert hits and hits < everything
    for (tags, players, event) in db.execute("SELECT tags, players, event FROM records WHERE id IN (%s)"
                                             % ",".join("?" * len(hits)), sorted(hits)):
        assert "simple" in (tags + (players or "") + (event or "")).lower()
    mc = {r[0] for r in db.execute("SELECT rowid FROM records_fts WHERE records_fts MATCH 'players:simple'")}
    assert mc == {r[0] for r in db.execute("SELECT key FROM records WHERE players LIKE '%simple%'")}


def test_an_older_database_is_migrated_with_nothing_lost(tmp_path, run_cli):
    cli_json(run_cli("ingest", str(SAMPLES), "--json"))
    new = sqlite3.connect(run_cli.db)
    old_path = tmp_path / "old.db"
    old = sqlite3.connect(old_path)
    for number in range(BROWSING - 1):  # the schema as it was before browsing
        old.executescript(MIGRATIONS[number])
    old.execute(f"PRAGMA user_version = {BROWSING - 1}")
    old_columns = [r[1] for r in old.execute("PRAGMA table_info(records)")]
    for table, columns in (("events", None), ("players", None), ("records", old_columns),
                           ("record_players", ["record_key", "seat", "player_id"]), ("moves", None), ("scores", None)):
        names = ", ".join(columns) if columns else "*"
        rows = new.execute(f"SELECT {names} FROM {table}").fetchall()
        if rows:
            old.executemany(f"INSERT INTO {table} ({names if columns else ', '.join(r[1] for r in new.execute(f'PRAGMA table_info({table})'))}) "
                            f"VALUES ({','.join('?' * len(rows[0]))})", rows)
    old.commit()
    old.close()
    Store(str(old_path))  # a writer migrates
    migrated = sqlite3.connect(old_path)
    for view in ("games", "player_results"):
        assert migrated.execute(f"SELECT * FROM {view}").fetchall() == new.execute(f"SELECT * FROM {view}").fetchall()
    assert migrated.execute("SELECT count(*) FROM records_fts WHERE records_fts MATCH 'TinyBot'").fetchone() == \
        new.execute("SELECT count(*) FROM records_fts WHERE records_fts MATCH 'TinyBot'").fetchone()


def test_metadata_describes_every_table_and_view(run_cli):
    cli_json(run_cli("ingest", str(SAMPLES / "iwoki"), "--json"))
    meta = json.loads(resources.files("scorebook.records").joinpath("metadata.json").read_text())
    tables = meta["databases"]["scorebook"]["tables"]
    db = sqlite3.connect(run_cli.db)
    names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view') "
                                      "AND name NOT LIKE 'records_fts%' AND name NOT LIKE 'sqlite_%'")}
    assert names == set(tables)
    for view in ("games", "player_results", "analysed_moves"):
        columns = {r[1] for r in db.execute(f"PRAGMA table_info({view})")}
        assert columns == set(tables[view]["columns"]), view
    assert tables["records"]["label_column"] == "id" and tables["records"]["fts_table"] == "records_fts"
