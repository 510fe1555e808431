"""The store's schema: its numbered migrations (``PRAGMA user_version``), applied under the
write lock by the first process that opens an older database, and the fills that bring the
rows stored before a migration up to it."""
from __future__ import annotations

import json
import sqlite3

from scorebook import registry
from scorebook.errors import UsageError

from .records import _browsing, record_date

# created once older rows are filled and indexed (``_fill_browsing``): deleting from the index
# what was never in it would corrupt it
FTS_UPDATE_TRIGGER = """
    CREATE TRIGGER records_fts_update AFTER UPDATE ON records BEGIN
        INSERT INTO records_fts(records_fts, rowid, players, event, tags)
            VALUES ('delete', old.key, old.players, old.event, old.tags);
        INSERT INTO records_fts(rowid, players, event, tags) VALUES (new.key, new.players, new.event, new.tags);
    END"""


MIGRATIONS: list[str] = [
    # 1: the first schema
    """
    CREATE TABLE events (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
    CREATE TABLE players (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
    CREATE TABLE records (
        key INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        hash TEXT NOT NULL UNIQUE,
        game TEXT NOT NULL,
        rules TEXT,
        deck TEXT,
        format TEXT NOT NULL,
        source TEXT,
        source_index INTEGER,
        text TEXT NOT NULL,
        tags TEXT NOT NULL,
        score TEXT NOT NULL,
        recorded TEXT,
        total INTEGER,
        finished INTEGER NOT NULL,
        warnings TEXT,
        event_id INTEGER REFERENCES events(id),
        engine_version TEXT NOT NULL,
        ingested_at TEXT NOT NULL
    );
    CREATE INDEX records_game ON records(game);
    CREATE TABLE record_players (
        record_key INTEGER NOT NULL REFERENCES records(key) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        player_id INTEGER NOT NULL REFERENCES players(id),
        PRIMARY KEY (record_key, seat)
    ) WITHOUT ROWID;
    CREATE INDEX record_players_player ON record_players(player_id);
    CREATE TABLE moves (
        record_key INTEGER NOT NULL REFERENCES records(key) ON DELETE CASCADE,
        game INTEGER NOT NULL,
        ply INTEGER NOT NULL,
        player INTEGER NOT NULL,
        text TEXT NOT NULL,
        annotation TEXT,
        PRIMARY KEY (record_key, game, ply)
    ) WITHOUT ROWID;
    CREATE TABLE scores (
        record_key INTEGER NOT NULL REFERENCES records(key) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        category TEXT NOT NULL,
        points INTEGER NOT NULL,
        PRIMARY KEY (record_key, seat, category)
    ) WITHOUT ROWID;
    """,
    # 2: per-move analyses
    """
    CREATE TABLE analyses (
        id INTEGER PRIMARY KEY,
        record_key INTEGER NOT NULL REFERENCES records(key) ON DELETE CASCADE,
        bot TEXT NOT NULL,
        seed INTEGER NOT NULL,
        engine_version TEXT NOT NULL,
        settings TEXT NOT NULL,
        thresholds TEXT NOT NULL,
        summary TEXT NOT NULL,
        created_at TEXT NOT NULL,
        UNIQUE (record_key, bot, seed, engine_version)
    );
    CREATE TABLE analysis_moves (
        analysis_id INTEGER NOT NULL REFERENCES analyses(id) ON DELETE CASCADE,
        game INTEGER NOT NULL,
        ply INTEGER NOT NULL,
        player INTEGER NOT NULL,
        played TEXT NOT NULL,
        best TEXT NOT NULL,
        value_best REAL NOT NULL,
        value_played REAL NOT NULL,
        loss REAL NOT NULL,
        stderr REAL,
        class TEXT NOT NULL,
        rank INTEGER NOT NULL,
        candidates INTEGER NOT NULL,
        exact INTEGER,
        PRIMARY KEY (analysis_id, game, ply)
    ) WITHOUT ROWID;
    """,
    # 3: how many sampled futures stand behind a move's values (Tiny Islands tops them up)
    """
    ALTER TABLE analysis_moves ADD COLUMN futures INTEGER;
    """,
    # 4: made for browsing (Datasette): label columns, each seat's points, views that read like
    # the CLI, full-text search over players, events and tags (kept by triggers). The new
    # columns of older rows are filled by ``_fill_browsing`` right after.
    """
    ALTER TABLE records ADD COLUMN players TEXT;
    ALTER TABLE records ADD COLUMN event TEXT;
    ALTER TABLE records ADD COLUMN result TEXT;
    ALTER TABLE record_players ADD COLUMN points REAL;
    CREATE VIEW games AS
        SELECT r.id, r.game, json_extract(r.tags, '$.Date') AS date, r.event, r.players, r.result, r.total,
               r.rules, r.finished
        FROM records r ORDER BY r.key;
    CREATE VIEW player_results AS
        SELECT r.id AS record, r.game, p.name AS player, rp.seat, rp.points,
               CASE WHEN (SELECT count(*) FROM record_players o WHERE o.record_key = rp.record_key) < 2 THEN NULL
                    WHEN rp.points < (SELECT max(o.points) FROM record_players o WHERE o.record_key = rp.record_key)
                        THEN 'loss'
                    WHEN (SELECT count(*) FROM record_players o WHERE o.record_key = rp.record_key
                          AND o.points = rp.points) > 1 THEN 'shared'
                    ELSE 'win' END AS result
        FROM record_players rp JOIN records r ON r.key = rp.record_key JOIN players p ON p.id = rp.player_id
        ORDER BY r.key, rp.seat;
    CREATE VIEW analysed_moves AS
        SELECT r.id AS record, r.game, a.bot, a.seed, a.engine_version, m.game AS part, m.ply, m.player, m.played,
               m.best, m.value_best, m.value_played, m.loss, m.stderr, m.class
        FROM analysis_moves m JOIN analyses a ON a.id = m.analysis_id JOIN records r ON r.key = a.record_key
        ORDER BY r.key, a.id, m.game, m.ply;
    CREATE VIRTUAL TABLE records_fts USING fts5(players, event, tags, content='records', content_rowid='key');
    CREATE TRIGGER records_fts_insert AFTER INSERT ON records BEGIN
        INSERT INTO records_fts(rowid, players, event, tags) VALUES (new.key, new.players, new.event, new.tags);
    END;
    CREATE TRIGGER records_fts_delete AFTER DELETE ON records BEGIN
        INSERT INTO records_fts(records_fts, rowid, players, event, tags)
            VALUES ('delete', old.key, old.players, old.event, old.tags);
    END;
    """,
    # 5: each seat's outcome as its game decides it (a Game of Islands triad by the margin
    # rule, not by the most points); filled for older rows by ``_fill_outcomes`` right after
    """
    ALTER TABLE record_players ADD COLUMN outcome TEXT;
    DROP VIEW player_results;
    CREATE VIEW player_results AS
        SELECT r.id AS record, r.game, p.name AS player, rp.seat, rp.points, rp.outcome AS result
        FROM record_players rp JOIN records r ON r.key = rp.record_key JOIN players p ON p.id = rp.player_id
        ORDER BY r.key, rp.seat;
    """,
    # 6: tournaments ingested from a tournament file: the file and every text it names, kept
    # whole (players, seniority, tiebreaks, how each match is oriented), one per event
    """
    CREATE TABLE tournaments (
        event_id INTEGER PRIMARY KEY REFERENCES events(id),
        game TEXT NOT NULL,
        snapshot TEXT NOT NULL,
        source TEXT,
        created_at TEXT NOT NULL
    );
    """,
    # 7: per analysed move, the bot's best candidates (JSON: move, value, s.e.) and its line
    """
    ALTER TABLE analysis_moves ADD COLUMN top TEXT;
    ALTER TABLE analysis_moves ADD COLUMN line TEXT;
    """,
    # 8: the service: tokens programs write with (only a hash of each secret is kept), and
    # the queue of analyses asked for over HTTP (one job per record, bot and seed)
    """
    CREATE TABLE api_tokens (
        id TEXT PRIMARY KEY,
        actor TEXT NOT NULL,
        permissions TEXT NOT NULL,
        secret_hash TEXT NOT NULL,
        created_at TEXT NOT NULL,
        revoked_at TEXT
    );
    CREATE TABLE analysis_jobs (
        id INTEGER PRIMARY KEY,
        record_id TEXT NOT NULL,
        bot TEXT NOT NULL,
        spec TEXT,
        seed INTEGER NOT NULL,
        actor TEXT NOT NULL,
        status TEXT NOT NULL,
        done_moves INTEGER NOT NULL DEFAULT 0,
        total_moves INTEGER,
        error TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (record_id, bot, seed)
    );
    CREATE INDEX analysis_jobs_status ON analysis_jobs(status, id);
    """,
    # 9: the queue bounded: how often a job was started (one interrupted twice runs no more),
    # when it last started (the worker takes turns between actors), a job cancelled; the
    # lookups by actor and by record through their own indexes
    """
    ALTER TABLE analysis_jobs ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE analysis_jobs ADD COLUMN started_at TEXT;
    CREATE INDEX analysis_jobs_actor ON analysis_jobs(actor, started_at);
    CREATE INDEX analysis_jobs_record ON analysis_jobs(record_id, id);
    """,
    # 10: made for size. Each record's date (its Date tag as YYYY.MM.DD when the whole date is
    # known, else NULL; filled for older rows by ``_fill_dates`` right after); an index for
    # every lookup the commands and pages make (event, game with date, date); views whose order
    # is their tables' own keys (a scan in that order sorts nothing)
    """
    ALTER TABLE records ADD COLUMN date TEXT;
    CREATE INDEX records_event ON records(event, key);
    CREATE INDEX records_game_date ON records(game, date);
    CREATE INDEX records_date ON records(date);
    DROP VIEW games;
    CREATE VIEW games AS
        SELECT r.id, r.game, r.date, r.event, r.players, r.result, r.total, r.rules, r.finished FROM records r
        ORDER BY r.key;
    DROP VIEW player_results;
    CREATE VIEW player_results AS
        SELECT r.id AS record, r.game, p.name AS player, rp.seat, rp.points, rp.outcome AS result
        FROM record_players rp JOIN records r ON r.key = rp.record_key JOIN players p ON p.id = rp.player_id
        ORDER BY rp.record_key, rp.seat;
    DROP VIEW analysed_moves;
    CREATE VIEW analysed_moves AS
        SELECT r.id AS record, r.game, a.bot, a.seed, a.engine_version, m.game AS part, m.ply, m.player, m.played,
               m.best, m.value_best, m.value_played, m.loss, m.stderr, m.class
        FROM analysis_moves m JOIN analyses a ON a.id = m.analysis_id JOIN records r ON r.key = a.record_key
        ORDER BY m.analysis_id, m.game, m.ply;
    """,
    # 11: ratings kept as games arrive (``analyze.ratings``): each player's state in each game
    # (a rating's mu and sigma with its record, or a solo player's totals), and per game how
    # far the archive is rated (the last record's key and the order of the latest game rated)
    """
    CREATE TABLE ratings (
        game TEXT NOT NULL,
        player TEXT NOT NULL,
        kind TEXT NOT NULL,
        mu REAL,
        sigma REAL,
        games INTEGER NOT NULL,
        wins INTEGER,
        shared INTEGER,
        losses INTEGER,
        total_sum REAL,
        total_squares REAL,
        best REAL,
        PRIMARY KEY (game, kind, player)
    ) WITHOUT ROWID;
    CREATE TABLE ratings_marks (
        game TEXT PRIMARY KEY,
        through_key INTEGER NOT NULL,
        last_order TEXT NOT NULL,
        games INTEGER NOT NULL
    ) WITHOUT ROWID;
    """,
    # 12: the ratings as they stood every so many games of a game (``analyze.ratings``): a game
    # that arrives dated before the latest rated is rated again from the checkpoint before it,
    # not from the first game
    """
    CREATE TABLE ratings_checkpoints (
        game TEXT NOT NULL,
        games INTEGER NOT NULL,
        last_order TEXT NOT NULL,
        ledger TEXT NOT NULL,
        PRIMARY KEY (game, games)
    ) WITHOUT ROWID;
    """,
    # 13: each event's summary kept as records arrive (``events`` reads it rather than every
    # record of the archive): its games, records, first and last date, and its players; event
    # 0 holds the records with no event
    """
    CREATE TABLE event_summaries (
        event_id INTEGER PRIMARY KEY,
        games TEXT NOT NULL,
        records INTEGER NOT NULL,
        first TEXT,
        last TEXT
    );
    CREATE TABLE event_players (
        event_id INTEGER NOT NULL,
        player_id INTEGER NOT NULL,
        PRIMARY KEY (event_id, player_id)
    ) WITHOUT ROWID;
    INSERT INTO event_players SELECT DISTINCT coalesce(r.event_id, 0), rp.player_id
        FROM records r JOIN record_players rp ON rp.record_key = r.key;
    INSERT INTO event_summaries (event_id, games, records, first, last)
        SELECT coalesce(event_id, 0), group_concat(DISTINCT game), count(*), min(date), max(date)
        FROM (SELECT event_id, game, date FROM records ORDER BY key) GROUP BY coalesce(event_id, 0);
    """,
    # 14: a million records deep. A view with ORDER BY is materialised to be counted (each
    # Datasette page of it counts its rows: 2.8 s for the games at a million, past the time
    # limit); the games view without it is counted through an index (22 ms), its rows still in
    # the records' order (the scan's). An event's row page counts its records through an index
    # of their event id.
    """
    DROP VIEW games;
    CREATE VIEW games AS
        SELECT r.id, r.game, r.date, r.event, r.players, r.result, r.total, r.rules, r.finished FROM records r;
    CREATE INDEX records_event_id ON records(event_id);
    """,
    # 15: a move's points in hand, where its values are of the rest of the game only (The Game
    # of Islands: the grid's islands so far and a triad's earlier grids), for the report's chart
    """
    ALTER TABLE analysis_moves ADD COLUMN so_far REAL;
    """,
    # 16: the sign-in sessions of a served archive: a session ends at its expiry or when it
    # signs out (``ended_at``); its cookie names it (private, as the tokens are)
    """
    CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        account TEXT NOT NULL,
        created_at TEXT NOT NULL,
        expires_at REAL NOT NULL,
        ended_at TEXT
    );
    """,
    # 17: tournaments a director runs (``records/store/tournaments.py``): each event's plan, its
    # entrants in joining order, and every table of every round (seats in order, as JSON) with
    # its result and the record it came from
    """
    CREATE TABLE tournament_plans (
        event_id INTEGER PRIMARY KEY REFERENCES events(id),
        game TEXT NOT NULL,
        format TEXT NOT NULL,
        rounds INTEGER NOT NULL,
        settings TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE TABLE tournament_entrants (
        event_id INTEGER NOT NULL,
        number INTEGER NOT NULL,
        name TEXT NOT NULL,
        rating INTEGER,
        joined INTEGER NOT NULL,
        absent TEXT NOT NULL,
        withdrawn INTEGER,
        PRIMARY KEY (event_id, number),
        UNIQUE (event_id, name)
    ) WITHOUT ROWID;
    CREATE TABLE tournament_tables (
        event_id INTEGER NOT NULL,
        round INTEGER NOT NULL,
        number INTEGER NOT NULL,
        seats TEXT NOT NULL,
        kind TEXT NOT NULL,
        places TEXT,
        scores TEXT,
        source TEXT,
        record_id TEXT,
        deal TEXT,
        PRIMARY KEY (event_id, round, number)
    ) WITHOUT ROWID;
    CREATE INDEX tournament_tables_record ON tournament_tables(record_id);
    """,
    # 18: each event's matches as standings rank them (a finished record of a game whose events
    # are ranked, by its Match tag), kept as records arrive: ``events`` counts them through the
    # key, not the records (filled for older records by ``_fill_event_matches``)
    """
    CREATE TABLE event_matches (
        event_id INTEGER NOT NULL,
        match TEXT NOT NULL,
        PRIMARY KEY (event_id, match)
    ) WITHOUT ROWID;
    """,
    # 19: a record's moves in one column of its row, JSON rows [game, ply, player, text,
    # annotation] (a row a move cost most of a record's write, and was the largest table); the
    # view ``moves`` shows them as the table did, a record at a time by its key. The search
    # index is not touched: its trigger is set aside while the column is filled.
    """
    ALTER TABLE records ADD COLUMN moves_json TEXT;
    DROP TRIGGER IF EXISTS records_fts_update;
    UPDATE records SET moves_json = (
        SELECT json_group_array(json_array(game, ply, player, text, annotation))
        FROM (SELECT game, ply, player, text, annotation FROM moves m WHERE m.record_key = records.key
              ORDER BY game, ply));
    """ + FTS_UPDATE_TRIGGER + """;
    DROP TABLE moves;
    CREATE VIEW moves AS
        SELECT r.key AS record_key, json_extract(m.value, '$[0]') AS game, json_extract(m.value, '$[1]') AS ply,
               json_extract(m.value, '$[2]') AS player, json_extract(m.value, '$[3]') AS text,
               json_extract(m.value, '$[4]') AS annotation
        FROM records r, json_each(r.moves_json) m;
    """,
    # 20: the search index merges its segments less eagerly as records arrive (FTS5's automerge
    # 16, not its default 4): at a million records its merging was a fifth of a record's write
    """
    INSERT INTO records_fts(records_fts, rank) VALUES ('automerge', 16);
    """,
    # 21: the search index filled in bulk, not a record at a time by a trigger: the records up to
    # ``search_indexed.through_key`` are in it (``RecordTables.index_for_search``). A record's
    # entry made by the trigger in each file's transaction was a tenth of an ingest's writing,
    # mostly the merging of its many small segments. An update or deletion touches the index
    # only for a record in it (deleting what was never in it would corrupt it).
    """
    CREATE TABLE search_indexed (id INTEGER PRIMARY KEY CHECK (id = 1), through_key INTEGER NOT NULL);
    INSERT INTO search_indexed (id, through_key) SELECT 1, coalesce(max(key), 0) FROM records;
    DROP TRIGGER records_fts_insert;
    DROP TRIGGER records_fts_delete;
    DROP TRIGGER IF EXISTS records_fts_update;
    CREATE TRIGGER records_fts_delete AFTER DELETE ON records
    WHEN old.key <= (SELECT through_key FROM search_indexed) BEGIN
        INSERT INTO records_fts(records_fts, rowid, players, event, tags)
            VALUES ('delete', old.key, old.players, old.event, old.tags);
    END;
    CREATE TRIGGER records_fts_update AFTER UPDATE ON records
    WHEN old.key <= (SELECT through_key FROM search_indexed) BEGIN
        INSERT INTO records_fts(records_fts, rowid, players, event, tags)
            VALUES ('delete', old.key, old.players, old.event, old.tags);
        INSERT INTO records_fts(rowid, players, event, tags) VALUES (new.key, new.players, new.event, new.tags);
    END;
    """,
    # 22: a new archive's records keep no index of their hash (``_unindex_hash``): a record's id,
    # unique and indexed, is its hash's first digits, so a stored hash is found by its id
    # (``existing_hashes``), and a second index of random keys was a tenth of a record's write
    # at a million records. An archive that holds records keeps its index: rebuilding the table
    # would take minutes and double the file until a VACUUM.
    """
    SELECT 1;
    """,
    # 23: the ratings' checkpoints kept as rows of values (``Ledger.snapshot``), not as objects:
    # this Scorebook reads both, and an older one, which would misread the new ones, refuses
    # the database as newer than itself
    """
    SELECT 1;
    """,
    # 24: each record's players beside its key, a narrow copy in the records' order: a filter on
    # the players that no index can serve (Datasette's ``games?players__contains=NAME``, a LIKE)
    # is counted by scanning it, not the records' rows (each a page of text and moves): at a
    # million records, for the busiest player, the page took 1.03 s (its count past the time
    # limit), and takes 113 ms. Led by the key, it grows at its end as records arrive (an index
    # by the players themselves, written at random places, cost an ingest 3%; this one is
    # within noise). Made in 1.8 s at a million records.
    """
    CREATE INDEX IF NOT EXISTS records_key_players ON records(key, players);
    """,
]
RATINGS = 11  # the migration that keeps ratings
CHECKPOINTS = 12  # the migration that keeps ratings' checkpoints
EVENT_SUMMARIES = 13  # the migration that keeps each event's summary
DATES = 10  # the migration that adds each record's date
TOURNAMENTS = 6  # the migration that adds the tournaments table
EVENT_MATCHES = 18  # the migration that keeps each event's ranked matches
MOVES_COLUMN = 19  # the migration that keeps a record's moves in one column of its row
HASH_UNINDEXED = 22  # the migration that drops the hash's index of a new archive
COMPACT_CHECKPOINTS = 23  # the migration after which ratings' checkpoints are rows of values
BROWSING = 4  # the migration that adds the label columns, points, views and search
OUTCOMES = 5  # the migration that adds each seat's outcome


def _ranked_games() -> list[str]:
    """The games whose events standings rank (their matches are kept for ``events``)."""
    return sorted(g.id for g in registry.games() if g.has_tournaments)


def _split_statements(script: str) -> list[str]:
    """A migration script as single statements (a trigger's body stays whole)."""
    out, buf = [], ""
    for line in script.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            out.append(buf.strip())
            buf = ""
    if buf.strip():
        out.append(buf.strip())
    return out


class Schema:
    """Mixed into ``Store``: bringing a database up to this Scorebook's schema."""

    def _migrate(self) -> None:
        """Bring the schema up to date under the write lock: many processes may open a new
        database at once, and the first one to get the lock migrates it for all."""
        if self.schema_version == len(MIGRATIONS):
            return
        conn = self.db.conn
        self._begin()
        try:
            version = self.schema_version  # again, under the lock
            if version > len(MIGRATIONS):
                raise UsageError(f"database schema {version} is newer than this Scorebook ({len(MIGRATIONS)})")
            for number in range(version, len(MIGRATIONS)):
                for statement in _split_statements(MIGRATIONS[number]):
                    conn.execute(statement)
                if number + 1 == BROWSING:
                    self._fill_browsing()
                if number + 1 == OUTCOMES:
                    self._fill_outcomes()
                if number + 1 == DATES:
                    self._fill_dates()
                if number + 1 == EVENT_MATCHES:
                    self._fill_event_matches()
                if number + 1 == HASH_UNINDEXED:
                    self._unindex_hash()
                conn.execute(f"PRAGMA user_version = {number + 1}")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    def _unindex_hash(self) -> None:
        """Migration 22: the records table of a new archive made again without its hash's
        UNIQUE index (SQLite drops a column's constraint only with its table); its indexes
        and triggers as they were, and the views that read it. An archive with records keeps it."""
        conn = self.db.conn
        if conn.execute("SELECT 1 FROM records LIMIT 1").fetchone() is not None:
            return
        table = conn.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'records'").fetchone()[0]
        unindexed = table.replace("hash TEXT NOT NULL UNIQUE", "hash TEXT NOT NULL", 1)
        if unindexed == table:
            return
        kept = conn.execute("SELECT sql FROM sqlite_master WHERE tbl_name = 'records' AND type IN ('index', "
                            "'trigger') AND sql IS NOT NULL").fetchall()
        views = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'view'").fetchall()
        for name, _ in views:
            conn.execute(f"DROP VIEW {name}")
        conn.execute("DROP TABLE records")
        conn.execute(unindexed)
        for (sql,) in kept + [(sql,) for _, sql in views]:
            conn.execute(sql)

    def _fill_event_matches(self) -> None:
        """Migration 18 for the records stored before it: each event's ranked matches."""
        games = _ranked_games()
        if games:
            self.db.conn.execute(
                "INSERT OR IGNORE INTO event_matches (event_id, match) SELECT coalesce(event_id, 0), "
                "json_extract(tags, '$.Match') FROM records WHERE finished = 1 AND json_extract(tags, '$.Match') "
                f"IS NOT NULL AND game IN ({','.join('?' * len(games))})", games)

    def _fill_browsing(self) -> None:
        """Migration 4 for the records stored before it: label columns, points, search index."""
        conn = self.db.conn
        rows = conn.execute("SELECT r.key, r.game, r.score, r.finished, e.name FROM records r "
                            "LEFT JOIN events e ON e.id = r.event_id").fetchall()
        for key, game, score_json, finished, event in rows:
            score = json.loads(score_json)
            names = [n for (n,) in conn.execute("SELECT p.name FROM record_players rp JOIN players p ON "
                                                "p.id = rp.player_id WHERE rp.record_key = ? ORDER BY rp.seat", [key])]
            result, points, _ = _browsing(game, score, finished)
            conn.execute("UPDATE records SET players = ?, event = ?, result = ? WHERE key = ?",
                         [" / ".join(names) or None, event, result, key])
            for seat, value in enumerate(points):
                conn.execute("UPDATE record_players SET points = ? WHERE record_key = ? AND seat = ?", [value, key, seat])
        conn.execute("INSERT INTO records_fts(records_fts) VALUES ('rebuild')")
        conn.execute(FTS_UPDATE_TRIGGER)

    def _fill_outcomes(self) -> None:
        """Migration 5 for the records stored before it: each seat's outcome."""
        conn = self.db.conn
        rows = conn.execute("SELECT key, game, score, finished FROM records").fetchall()
        for key, game, score_json, finished in rows:
            for seat, outcome in enumerate(_browsing(game, json.loads(score_json), finished)[2]):
                conn.execute("UPDATE record_players SET outcome = ? WHERE record_key = ? AND seat = ?",
                             [outcome, key, seat])

    def _fill_dates(self) -> None:
        """Migration 10 for the records stored before it: each one's date."""
        conn = self.db.conn
        rows = conn.execute("SELECT key, json_extract(tags, '$.Date') FROM records WHERE json_extract(tags, '$.Date') "
                            "IS NOT NULL").fetchall()
        conn.executemany("UPDATE records SET date = ? WHERE key = ?",
                         [(record_date(tag), key) for key, tag in rows if record_date(tag)])
