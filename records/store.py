"""The SQLite store, through sqlite-utils.

One row per record (normalised Scorebook text, its SHA-256, game, rule set, deck, tags, the
replayed score and the stated one), with players, events, moves and per-category scores in
their own tables. Schema changes are numbered migrations tracked in ``PRAGMA user_version``.

>>> store = Store(":memory:")
>>> store.schema_version == len(MIGRATIONS)
True
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import sqlite3
import time
import urllib.parse
from contextlib import contextmanager
from datetime import datetime, timezone
from collections.abc import Iterator
from itertools import chain

import sqlite_utils

from scorebook import registry

from scorebook.errors import DatabaseError, NotFound, Unavailable, UnknownGame, UsageError
from .notation import browsing, score_text
from .store_service import ServiceTables
from .store_tournaments import TournamentTables

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
    # 17: tournaments a director runs (``records/store_tournaments.py``): each event's plan, its
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
]
RATINGS = 11  # the migration that keeps ratings
CHECKPOINTS = 12  # the migration that keeps ratings' checkpoints
EVENT_SUMMARIES = 13  # the migration that keeps each event's summary
DATES = 10  # the migration that adds each record's date
TOURNAMENTS = 6  # the migration that adds the tournaments table
EVENT_MATCHES = 18  # the migration that keeps each event's ranked matches
# created once older rows are filled and indexed (``_fill_browsing``): deleting from the index
# what was never in it would corrupt it
FTS_UPDATE_TRIGGER = """
    CREATE TRIGGER records_fts_update AFTER UPDATE ON records BEGIN
        INSERT INTO records_fts(records_fts, rowid, players, event, tags)
            VALUES ('delete', old.key, old.players, old.event, old.tags);
        INSERT INTO records_fts(rowid, players, event, tags) VALUES (new.key, new.players, new.event, new.tags);
    END"""

ENGINE_VERSION = "0.1.0"
BROWSING = 4  # the migration that adds the label columns, points, views and search
OUTCOMES = 5  # the migration that adds each seat's outcome
RECORD_COLUMNS = ("key, id, hash, game, rules, deck, format, source, source_index, text, tags, score, "
                  "recorded, total, finished, warnings, event_id, engine_version, ingested_at, players, event, result, "
                  "date")
_DATE = re.compile(r"(\d{4})[.\-/](\d{2})[.\-/](\d{2})")


def _ranked_games() -> list[str]:
    """The games whose events standings rank (their matches are kept for ``events``)."""
    return sorted(g.id for g in registry.games() if g.has_tournaments)


def _least(a: str | None, b: str | None) -> str | None:
    return b if a is None else a if b is None else min(a, b)


def _most(a: str | None, b: str | None) -> str | None:
    return b if a is None else a if b is None else max(a, b)


def record_date(tag) -> str | None:
    """A Date tag as the store keeps it: YYYY.MM.DD when the whole date is known, else None."""
    m = _DATE.fullmatch(tag.strip()) if isinstance(tag, str) else None
    return ".".join(m.groups()) if m else None


# A writer waits for another process's write lock in steps of LOCK_STEP seconds, saying so
# once, for at most LOCK_PATIENCE seconds: concurrent writers wait instead of failing.
LOCK_STEP = 2.0
LOCK_PATIENCE = 1800.0


EMPTY_FILE_PATIENCE = 3.0  # seconds a 0-byte file may take to become a database (another process creating it)


def _refuse_an_empty_file(path: str) -> None:
    """A file of 0 bytes is not a Scorebook database, and is never made one: unless another
    process is creating it at this moment (it is written within moments), it is refused."""
    waited = 0.0
    while True:
        try:
            if os.path.getsize(path) > 0:
                return
        except OSError:
            return  # no file: a new database is created
        if waited >= EMPTY_FILE_PATIENCE:
            raise DatabaseError(f"{path} is an empty file, not a Scorebook database (remove it, or choose another "
                                "path, to start a new one)")
        time.sleep(0.1)
        waited += 0.1


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


class Store(ServiceTables, TournamentTables):
    """A Scorebook database file. ``write``: the database is created and migrated as needed,
    and checked (``PRAGMA quick_check``) when opened; a reader (``write=False``) never
    creates one and refuses a path with no database."""

    def __init__(self, path: str, *, write: bool = True, on_wait=None):
        self.path = path
        self.on_wait = on_wait  # called once, with a message, when a write waits for another process
        if not write and path != ":memory:" and not os.path.exists(path):
            raise UsageError(f"no database at {path} (ingest or play create one)")
        if path != ":memory:":
            _refuse_an_empty_file(path)
        try:
            if write or path == ":memory:":
                conn = sqlite3.connect(path, timeout=LOCK_STEP)
            else:  # a reader changes nothing, not even a checkpoint of the log on close
                conn = sqlite3.connect(f"file:{urllib.parse.quote(os.path.abspath(path))}?mode=ro", uri=True,
                                       timeout=LOCK_STEP)
            self.db = sqlite_utils.Database(conn)
            self.db.execute("PRAGMA foreign_keys = ON")
            version = self.schema_version
            if version < 0:
                raise UsageError(f"{path} is not a Scorebook database (schema version {version})")
            if write and path != ":memory:":
                self._waiting(lambda: self.db.enable_wal())
                # WAL with NORMAL sync: never corrupt; a power cut may lose only the last commit
                self.db.execute("PRAGMA synchronous = NORMAL")
                self._check_intact()
            if write:
                self._migrate()
            elif version > len(MIGRATIONS):
                raise UsageError(f"database schema {version} is newer than this Scorebook ({len(MIGRATIONS)})")
        except sqlite3.DatabaseError as exc:  # not a database, unwritable, damaged header or schema
            if "malformed" in str(exc):
                raise DatabaseError(f"database {path} is damaged ({exc}); restore it from a backup, "
                                    "or ingest the records again into a new database") from None
            raise DatabaseError(f"cannot open database {path}: {exc}") from None
        self._player_ids: dict[str, int] = {}
        self._event_ids: dict[str, int] = {}
        self._planned: dict[str, int] | None = None  # the tournaments run here (``_planned_events``)

    def close(self) -> None:
        """Close the connection (a process that opens stores per request, as the Datasette
        plugin does, closes each when done rather than leaving it to the collector)."""
        self.db.conn.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def schema_version(self) -> int:
        return self.db.execute("PRAGMA user_version").fetchone()[0]

    def _check_intact(self) -> None:
        problems = [r[0] for r in self.db.execute("PRAGMA quick_check(1)").fetchall()]
        if problems != ["ok"]:
            first = problems[0].replace("*** in database main ***", "").strip().splitlines()[0]
            raise DatabaseError(f"database {self.path} is damaged ({first}); restore it from a backup, "
                                "or ingest the records again into a new database")

    def _waiting(self, attempt):
        """Run ``attempt`` (which takes the write lock), retrying while another process holds
        the lock, up to LOCK_PATIENCE seconds."""
        waited = 0.0
        while True:
            try:
                return attempt()
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) and "busy" not in str(exc):
                    raise
                if waited == 0.0 and self.on_wait:
                    self.on_wait(f"waiting for another process writing to {self.path}")
                waited += LOCK_STEP
                if waited >= LOCK_PATIENCE:
                    raise DatabaseError(f"database {self.path} stayed locked by another process for "
                                        f"{LOCK_PATIENCE:.0f} s") from None

    def check_writable(self) -> None:
        """Try a write, and take it back: before long work whose result is to be stored (a
        database the process may open but not write, such as an immutable file, fails here
        rather than after the work)."""
        conn = self.db.conn
        try:
            if self.path != ":memory:":  # the file itself: in WAL mode a write may reach only the -wal beside it
                with open(self.path, "r+b"):
                    pass
        except OSError as exc:
            raise Unavailable(f"cannot write to database {self.path}: {exc.strerror}") from None
        try:
            self._begin()
            conn.execute(f"PRAGMA user_version = {self.schema_version}")
        except sqlite3.OperationalError as exc:
            raise Unavailable(f"cannot write to database {self.path}: {exc}") from None
        finally:
            if conn.in_transaction:
                conn.execute("ROLLBACK")

    def _begin(self) -> None:
        self._waiting(lambda: self.db.conn.execute("BEGIN IMMEDIATE"))

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
                conn.execute(f"PRAGMA user_version = {number + 1}")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

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

    @contextmanager
    def atomic(self):
        """One write transaction, taken at once (so keys handed out inside stay free), waiting
        for another process's; rolled back whole on any error or interruption."""
        conn = self.db.conn
        if conn.in_transaction:
            with self.db.atomic():  # nested: a savepoint
                yield self
            return
        self._begin()
        try:
            yield self
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            self._player_ids.clear()  # ids handed out inside were rolled back with it
            self._event_ids.clear()
            self._planned = None
            raise
        conn.execute("COMMIT")

    def existing_hashes(self, hashes: list[str]) -> set[str]:
        found: set[str] = set()
        for start in range(0, len(hashes), 500):
            chunk = hashes[start:start + 500]
            marks = ",".join("?" * len(chunk))
            found.update(r[0] for r in self.db.execute(f"SELECT hash FROM records WHERE hash IN ({marks})", chunk))
        return found

    def _name_id(self, table: str, cache: dict[str, int], name: str) -> int:
        if name not in cache:
            row = self.db.execute(f"SELECT id FROM {table} WHERE name = ?", [name]).fetchone()
            if row is None:
                cur = self.db.execute(f"INSERT INTO {table} (name) VALUES (?)", [name])
                cache[name] = cur.lastrowid
            else:
                cache[name] = row[0]
        return cache[name]

    def add_records(self, items: list) -> list[str | None]:
        """Insert prepared records (``notation.PreparedRecord``); call inside ``atomic()``.
        Returns, for each, what became of it in a tournament (``attach_records``)."""
        now = datetime.now(timezone.utc).isoformat(timespec="seconds")
        rows: list[tuple] = []
        links, moves, scores = [], [], []
        key = self.db.execute("SELECT coalesce(max(key), 0) FROM records").fetchone()[0]
        for p in items:
            key += 1
            event = p.tags.get("Event")
            result, points, outcomes = p.result, p.points, p.outcomes  # as the game decided them
            rows.append((
                key, p.id, p.hash, p.game, p.rules, p.deck, p.format, p.source, p.index, p.text,
                json.dumps(p.tags), json.dumps(p.score), None if p.recorded is None else json.dumps(p.recorded),
                p.total, int(p.finished), json.dumps(p.warnings) if p.warnings else None,
                self._name_id("events", self._event_ids, event) if event else None, ENGINE_VERSION, now,
                " / ".join(p.players) or None, event, result, record_date(p.tags.get("Date"))))
            for seat, name in enumerate(p.players):
                links.append((key, seat, self._name_id("players", self._player_ids, name),
                              points[seat] if seat < len(points) else None,
                              outcomes[seat] if seat < len(outcomes) else None))
            moves.extend([(key, game, ply, player, text, note) for game, ply, player, text, note in p.moves])
            scores.extend([(key, seat, cat, pts) for seat, cat, pts in p.scores])
        # bulk rows go straight to the connection: sqlite-utils' insert_all builds SQL per chunk
        conn = self.db.conn
        conn.executemany(f"INSERT INTO records ({RECORD_COLUMNS}) VALUES ({','.join('?' * 23)})", rows)
        _insert_rows(conn, "record_players", 5, links)
        _insert_rows(conn, "moves", 6, moves)
        _insert_rows(conn, "scores", 4, scores)
        self._summarise_events(rows, links)
        return self.attach_records(items)

    def _summarise_events(self, rows: list[tuple], links: list[tuple]) -> None:
        """Add new records to their events' kept summaries (``events``)."""
        if self.schema_version < EVENT_SUMMARIES or not rows:
            return
        event_of = {r[0]: r[16] or 0 for r in rows}  # key -> event id (0: none)
        found: dict[int, list] = {}  # event id -> [games, records, first, last]
        for r in rows:
            e = found.setdefault(event_of[r[0]], [[], 0, None, None])
            if r[3] not in e[0]:
                e[0].append(r[3])
            e[1] += 1
            e[2], e[3] = _least(e[2], r[22]), _most(e[3], r[22])
        marks = ",".join("?" * len(found))
        for eid, games, count, first, last in self.db.conn.execute(
                f"SELECT event_id, games, records, first, last FROM event_summaries WHERE event_id IN ({marks})",
                list(found)).fetchall():
            e, known = found[eid], games.split(",")
            e[0] = known + [g for g in e[0] if g not in known]
            e[1] += count
            e[2], e[3] = _least(e[2], first), _most(e[3], last)
        self.db.conn.executemany("INSERT OR REPLACE INTO event_summaries (event_id, games, records, first, last) "
                                 "VALUES (?,?,?,?,?)", [(eid, ",".join(e[0]), *e[1:]) for eid, e in found.items()])
        self.db.conn.executemany("INSERT OR IGNORE INTO event_players (event_id, player_id) VALUES (?,?)",
                                 sorted({(event_of[key], player) for key, _, player, _, _ in links}))
        if self.schema_version >= EVENT_MATCHES:
            ranked = set(_ranked_games())
            self.db.conn.executemany(
                "INSERT OR IGNORE INTO event_matches (event_id, match) VALUES (?,?)",
                sorted({(event_of[r[0]], json.loads(r[10])["Match"]) for r in rows
                        if r[3] in ranked and r[14] and "Match" in json.loads(r[10])}))

    def get(self, ref: str) -> dict:
        """A record by id or unique id prefix (hexadecimal: nothing else is any record's)."""
        shown = ref[:40] + ("…" if len(ref) > 40 else "")
        if not re.fullmatch(r"[0-9a-f]{1,64}", ref):
            raise NotFound(f"no record with id {shown!r} (ids are hexadecimal)")
        # a range on the id index ('g' follows every hexadecimal digit): no scan of the table
        rows = list(self.db.query("SELECT * FROM records WHERE id >= ? AND id < ? LIMIT 2", [ref, ref + "g"]))
        if not rows:
            raise NotFound(f"no record with id {shown}")
        if len(rows) > 1:
            raise UsageError(f"id prefix {ref} matches several records; give more characters")
        row = rows[0]
        # the text proves itself: its hash is the record's identity
        if not isinstance(row["text"], str) or hashlib.sha256(row["text"].encode()).hexdigest() != row["hash"] \
                or row["hash"][:len(row["id"])] != row["id"]:
            raise DatabaseError(f"record {row['id']} in {self.path} is damaged: its text no longer matches its id; "
                                "restore the database from a backup, or ingest the record again")
        return _decode(row)

    LIST_COLUMNS = ("id", "game", "date", "event", "players", "result", "total", "rules", "deck", "finished", "source")

    def list(self, game: str | None = None, player: str | None = None, *, where_sql: str | None = None,
             order: str | None = None, limit: int | None = None, offset: int | None = None) -> Iterator[dict]:
        """Records, oldest first, one at a time; every filter, the order and the limit in the
        one query. ``where_sql`` and ``order`` are SQL over ``LIST_COLUMNS`` (sqlite-utils'
        row controls; the connection of a reader is read-only)."""
        where, args = [], []
        if game:
            where.append("game = ?")
            args.append(game)
        if player:  # any case; * matches any text (LIKE's own wildcards are escaped)
            pattern = player.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_").replace("*", "%")
            where.append("key IN (SELECT rp.record_key FROM record_players rp JOIN players p "
                         "ON p.id = rp.player_id WHERE lower(p.name) LIKE lower(?) ESCAPE '\\')")
            args.append(pattern)
        if where_sql:
            where.append(f"({where_sql})")
        sql = "SELECT * FROM records" + (" WHERE " + " AND ".join(where) if where else "")
        sql += f" ORDER BY {order}, key" if order else " ORDER BY key"
        if limit is not None or offset is not None:
            sql += " LIMIT ? OFFSET ?"
            args += [-1 if limit is None else limit, offset or 0]
        try:
            cursor = self.db.execute(sql, args)
        except sqlite3.OperationalError as exc:  # the SQL given (a damaged file is a DatabaseError)
            if where_sql or order:
                raise UsageError(f"--where/--order: {exc}") from None
            raise
        names = [d[0] for d in cursor.description]
        for values in cursor:
            yield _decode(dict(zip(names, values)))

    def events(self) -> list[dict]:
        """Every event: its game(s), records, players, first and last date, and whether a
        tournament is kept for it (and how many matches it ranks); last, the records with no
        event (``event`` None). From the events' kept summaries, not the records."""
        rows = self.db.execute(
            "SELECT e.name, s.games, s.records, s.first, s.last, (SELECT count(*) FROM event_players ep "
            "WHERE ep.event_id = s.event_id) FROM event_summaries s LEFT JOIN events e ON e.id = s.event_id "
            "WHERE s.records > 0").fetchall()
        # each kept tournament: its game, and the players and matches its file names (counted in
        # SQL: the snapshot also holds every record's text)
        kept = {name: (game, players, matches) for name, game, players, matches in self.db.execute(
            "SELECT e.name, t.game, json_array_length(t.snapshot, '$.spec.players'), "
            "json_array_length(t.snapshot, '$.spec.matches') FROM tournaments t JOIN events e ON e.id = t.event_id")
        } if self.schema_version >= TOURNAMENTS else {}
        kept.update(self.planned_summaries())  # a tournament run here: its entrants, its games with a result
        ranked = self._stored_matches(rows)
        out = [{"event": e, "game": game, "records": n, "first": first, "last": last, "players": players,
                "tournament": e in kept or e in ranked,
                "matches": max(kept[e][2] or 0, ranked.get(e, 0)) if e in kept else ranked.get(e)}
               for e, game, n, first, last, players in rows if e is not None]
        seen = {r[0] for r in rows}
        # a tournament whose records are stored under their own events (bot games with their own
        # Event tags): its game, its file's players and matches, a record a match (as standings count)
        out += [{"event": name, "game": kept[name][0], "records": kept[name][2] or 0, "first": None, "last": None,
                 "players": kept[name][1] or 0, "tournament": True, "matches": kept[name][2] or 0}
                for name in sorted(set(kept) - seen)]
        out.sort(key=lambda r: r["event"])
        none = [r for r in rows if r[0] is None]
        if none:  # the records with no event, last
            _, game, n, first, last, players = none[0]
            out.append({"event": None, "game": game, "records": n, "first": first, "last": last,
                        "players": players, "tournament": False, "matches": None})
        return out

    def _stored_matches(self, rows: list[tuple]) -> dict[str, int]:
        """{event: its finished stored matches} (``standings EVENT`` ranks them by Match tag),
        from what ingest kept (``event_matches``)."""
        if self.schema_version < EVENT_MATCHES:
            return {}
        return {name: count for name, count in self.db.execute(
            "SELECT e.name, count(*) FROM event_matches m JOIN events e ON e.id = m.event_id GROUP BY m.event_id")}

    def finished_results(self, game: str | None = None, event: str | None = None,
                         after_key: int | None = None, from_date: str | None = None) -> list[tuple]:
        """(id, game, tags, score, event, ingested_at, names joined by char 31, key) of every
        finished record of a game and an event (each when given; ``after_key``: stored after
        that record; ``from_date``, YYYY.MM.DD: played that day or later, or on a day not
        known), in the order they were stored."""
        sql = ("SELECT r.id, r.game, r.tags, r.score, r.event, r.ingested_at, "
               "(SELECT group_concat(p.name, char(31)) FROM (SELECT rp.seat, p.name FROM record_players rp "
               " JOIN players p ON p.id = rp.player_id WHERE rp.record_key = r.key ORDER BY rp.seat) p) AS names, "
               "r.key FROM records r WHERE r.finished = 1")
        args: list = []
        if game:
            sql += " AND r.game = ?"
            args.append(game)
        if event:
            sql += " AND r.event = ?"
            args.append(event)
        if after_key:
            sql += " AND r.key > ?"
            args.append(after_key)
        if from_date:
            sql += " AND (r.date >= ? OR r.date IS NULL)"
            args.append(from_date)
        return self.db.execute(sql + " ORDER BY r.key", args).fetchall()

    def ratings_kept(self, game: str) -> tuple[tuple | None, list[dict]]:
        """A game's kept ratings: (through_key, last_order, games) or None, and every
        player's row; (None, []) in a database older than the ratings tables."""
        if self.schema_version < RATINGS:
            return None, []
        mark = self.db.execute("SELECT through_key, last_order, games FROM ratings_marks WHERE game = ?",
                               [game]).fetchone()
        return mark, list(self.db.query("SELECT * FROM ratings WHERE game = ?", [game]))

    def ratings_checkpoints(self, game: str) -> list[tuple[int, str]]:
        """(games rated, order of the last of them) of each kept checkpoint of a game, in order."""
        if self.schema_version < CHECKPOINTS:
            return []
        return self.db.execute("SELECT games, last_order FROM ratings_checkpoints WHERE game = ? ORDER BY games",
                               [game]).fetchall()

    def ratings_checkpoint(self, game: str, games: int) -> list[dict]:
        """The ratings' rows as they stood at a checkpoint."""
        row = self.db.execute("SELECT ledger FROM ratings_checkpoints WHERE game = ? AND games = ?",
                              [game, games]).fetchone()
        return json.loads(row[0])

    def keep_ratings(self, game: str, mark: tuple[int, str, int], rows: list[dict], *, whole: bool,
                     checkpoints: list[tuple[int, str, list[dict]]] = (), checkpoints_after: int | None = None) -> None:
        """Keep a game's ratings: its changed players' rows (``whole``: every row, the old
        ones gone), how far it is rated, and its new checkpoints (those past
        ``checkpoints_after`` games dropped first: they were rated again), in one transaction."""
        columns = ("game", "player", "kind", "mu", "sigma", "games", "wins", "shared", "losses", "total_sum",
                   "total_squares", "best")
        with self.atomic():
            if self.schema_version >= CHECKPOINTS:
                if checkpoints_after is not None:
                    self.db.execute("DELETE FROM ratings_checkpoints WHERE game = ? AND games > ?",
                                    [game, checkpoints_after])
                self.db.conn.executemany("INSERT OR REPLACE INTO ratings_checkpoints (game, games, last_order, ledger) "
                                         "VALUES (?,?,?,?)", [(game, n, order, json.dumps(ledger))
                                                              for n, order, ledger in checkpoints])
            if whole:
                self.db.execute("DELETE FROM ratings WHERE game = ?", [game])
            self.db.conn.executemany(f"INSERT OR REPLACE INTO ratings ({', '.join(columns)}) VALUES "
                                     f"({','.join('?' * len(columns))})",
                                     [tuple(dict(r, game=game).get(c) for c in columns) for r in rows])
            self.db.execute("INSERT OR REPLACE INTO ratings_marks (game, through_key, last_order, games) "
                            "VALUES (?,?,?,?)", [game, *mark])

    def existing_ids(self, ids: list[str]) -> set[str]:
        """Those of ``ids`` that are stored records' ids (through the id index)."""
        found: set[str] = set()
        for start in range(0, len(ids), 500):  # under SQLite's limit of bound values
            chunk = ids[start:start + 500]
            found.update(r[0] for r in self.db.execute(
                f"SELECT id FROM records WHERE id IN ({', '.join('?' * len(chunk))})", chunk).fetchall())
        return found

    def event_rows(self, event: str, game: str) -> list[dict]:
        """Every record of an event and a game, in the order they were stored, as standings read
        them without their texts: id, source, tags, the replayed score, finished, and the
        players by seat."""
        rows: dict[int, dict] = {}
        for key, rid, source, tags, score, finished, name in self.db.execute(
                "SELECT r.key, r.id, r.source, r.tags, r.score, r.finished, p.name FROM records r "
                "JOIN record_players rp ON rp.record_key = r.key JOIN players p ON p.id = rp.player_id "
                "WHERE r.event = ? AND r.game = ? ORDER BY r.key, rp.seat", [event, game]):
            if key not in rows:
                rows[key] = {"id": rid, "source": source, "tags": json.loads(tags), "score": json.loads(score),
                             "finished": bool(finished), "players": []}
            rows[key]["players"].append(name)
        return list(rows.values())

    def moves(self, record_id: str) -> list[dict]:
        return list(self.db.query("SELECT m.game, ply, player, m.text, annotation FROM moves m JOIN records r "
                                  "ON r.key = m.record_key WHERE r.id = ? ORDER BY m.game, ply", [record_id]))

    def scores(self, record_id: str) -> dict[tuple[int, str], int]:
        rows = self.db.execute("SELECT seat, category, points FROM scores s JOIN records r "
                               "ON r.key = s.record_key WHERE r.id = ?", [record_id]).fetchall()
        return {(seat, cat): pts for seat, cat, pts in rows}

    def last_key(self) -> int:
        """The key of the record stored last (0 for none): records are only ever added, so it
        says whether anything was stored since."""
        return self.db.execute("SELECT coalesce(max(key), 0) FROM records").fetchone()[0]

    def count(self) -> int:
        return self.db["records"].count

    def stored_games(self) -> list[str]:
        """The games the archive holds records of: one step of the (game, date) index a game."""
        found, game = [], ""
        while True:
            row = self.db.execute("SELECT game FROM records WHERE game > ? ORDER BY game LIMIT 1", [game]).fetchone()
            if row is None:
                return found
            game = row[0]
            found.append(game)

    def stored_since(self, key: int) -> int:
        """Records stored after the one of ``key`` (``last_key``): through the key's index."""
        return self.db.execute("SELECT count(*) FROM records WHERE key > ?", [key]).fetchone()[0]

    def record_key(self, record_id: str) -> int:
        return self.db.execute("SELECT key FROM records WHERE id = ?", [record_id]).fetchone()[0]

    def save_tournament(self, event: str, game: str, snapshot: dict, source: str) -> str:
        """Keep a tournament's snapshot under its event, in place of the one kept before;
        returns ``ingested``, ``updated`` or ``duplicate`` (the same snapshot already kept)."""
        text = json.dumps(snapshot, sort_keys=True, ensure_ascii=False)
        now = datetime.now(timezone.utc).isoformat(timespec="seconds")
        with self.atomic():
            event_id = self._name_id("events", self._event_ids, event)
            found = self.db.execute("SELECT game, snapshot FROM tournaments WHERE event_id = ?",
                                    [event_id]).fetchone()
            if found == (game, text):
                return "duplicate"
            self.db.execute("INSERT OR REPLACE INTO tournaments VALUES (?,?,?,?,?)",
                            [event_id, game, text, source, now])
        return "ingested" if found is None else "updated"

    def event_ranked(self, event: str) -> bool:
        """Whether ``standings EVENT`` has something to rank: a tournament kept under its name,
        or records of a game whose events are ranked (through the name's and the summary's keys)."""
        from scorebook import registry
        if self.tournament(event) is not None or event in self._planned_events():
            return True
        row = self.db.execute("SELECT s.games FROM event_summaries s JOIN events e ON e.id = s.event_id "
                              "WHERE e.name = ?", [event]).fetchone()
        games = (row[0] or "").split(",") if row else []
        return any(g in registry.game_ids() and registry.get_game(g).has_tournaments for g in games)

    def tournament(self, event: str) -> tuple[str, dict] | None:
        """(game, snapshot) of the tournament kept under ``event``, or None (also in a
        database older than the tournaments table, opened read-only)."""
        if self.schema_version < TOURNAMENTS:
            return None
        row = self.db.execute("SELECT t.game, t.snapshot FROM tournaments t JOIN events e ON e.id = t.event_id "
                              "WHERE e.name = ?", [event]).fetchone()
        return None if row is None else (row[0], json.loads(row[1]))

    def find_analysis(self, record_id: str, bot: str, seed: int, engine_version: str) -> dict | None:
        row = self.db.execute("SELECT a.id, a.settings, a.thresholds, a.summary FROM analyses a JOIN records r "
                              "ON r.key = a.record_key WHERE r.id = ? AND a.bot = ? AND a.seed = ? AND "
                              "a.engine_version = ?", [record_id, bot, seed, engine_version]).fetchone()
        if row is None:
            return None
        moves = []
        for m in self.db.query("SELECT * FROM analysis_moves WHERE analysis_id = ? ORDER BY game, ply", [row[0]]):
            move = {"ply": m["ply"], "player": m["player"], "played": m["played"], "best": m["best"],
                    "value_best": m["value_best"], "value_played": m["value_played"], "loss": m["loss"],
                    "stderr": m["stderr"], "class": m["class"], "rank": m["rank"], "candidates": m["candidates"]}
            if m["game"] != 1:
                move["game"] = m["game"]
            if m["exact"] is not None:
                move["exact"] = bool(m["exact"])
            if m["futures"] is not None:
                move["futures"] = m["futures"]
            if m["class"] == "best" and m["played"] != m["best"]:
                move["tied"] = True  # level with the bot's own move within the error of the values
            for key in ("top", "line"):  # absent from a database of schema 6, read as it is
                if m.get(key):
                    move[key] = json.loads(m[key])
            if m.get("so_far") is not None:
                move["so_far"] = m["so_far"]
            moves.append(move)
        return {"bot": bot, "seed": seed, "engine_version": engine_version, "settings": json.loads(row[1]),
                "thresholds": json.loads(row[2]), "summary": json.loads(row[3]), "moves": moves}

    def save_analysis(self, record_id: str, report: dict) -> None:
        """Store one analysis in its own transaction (so ``analyze --all`` resumes after an interruption)."""
        now = datetime.now(timezone.utc).isoformat(timespec="seconds")
        with self.atomic():
            key = self.record_key(record_id)
            self.db.execute("DELETE FROM analyses WHERE record_key = ? AND bot = ? AND seed = ? AND engine_version = ?",
                            [key, report["bot"], report["seed"], report["engine_version"]])
            cur = self.db.execute(
                "INSERT INTO analyses (record_key, bot, seed, engine_version, settings, thresholds, summary, created_at) "
                "VALUES (?,?,?,?,?,?,?,?)", [key, report["bot"], report["seed"], report["engine_version"],
                                             json.dumps(report["settings"]), json.dumps(report["thresholds"]),
                                             json.dumps(report["summary"]), now])
            aid = cur.lastrowid
            self.db.conn.executemany(
                "INSERT INTO analysis_moves VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                [(aid, m.get("game", 1), m["ply"], m["player"], m["played"], m["best"], m["value_best"],
                  m["value_played"], m["loss"], m["stderr"], m["class"], m["rank"], m["candidates"],
                  None if "exact" not in m else int(m["exact"]), m.get("futures"),
                  json.dumps(m["top"]) if m.get("top") else None, json.dumps(m["line"]) if m.get("line") else None,
                  m.get("so_far"))
                 for m in report["moves"]])

    def unanalysed(self, bot_for_game: dict[str, str], seed: int, engine_version: str, *,
                   again: bool = False) -> list[str]:
        """The ids of the records of these games without an analysis by their game's bot, seed
        and engine version (``again``: all of them), oldest first: one indexed query a game (a
        batch of 100,000 is planned in time linear in its size)."""
        found: list[tuple[int, str]] = []
        for game, bot in bot_for_game.items():
            if again:
                found += self.db.execute("SELECT key, id FROM records WHERE game = ?", [game]).fetchall()
                continue
            found += self.db.execute(
                "SELECT r.key, r.id FROM records r WHERE r.game = ? AND NOT EXISTS (SELECT 1 FROM analyses a "
                "WHERE a.record_key = r.key AND a.bot = ? AND a.seed = ? AND a.engine_version = ?)",
                [game, bot, seed, engine_version]).fetchall()
        return [rid for _, rid in sorted(found)]


_ROWS_PER_STATEMENT = 100


def _browsing(game: str, score: dict, finished) -> tuple[str, list[float], list[str | None]]:
    """What browsing shows of a record stored before its columns existed (a migration): as
    ingest prepares it for a new record (``notation.browsing``)."""
    try:
        return browsing(registry.get_game(game).notation, score, finished)
    except UnknownGame:  # a game no longer registered keeps no points or outcomes
        return score_text(score) + ("" if finished else " *"), [], []


def _insert_rows(conn, table: str, width: int, rows: list[tuple]) -> None:
    """INSERT many rows, a hundred per statement: binding is then most of the cost, which
    makes moves and scores (dozens of rows a record) about a third cheaper than one row each."""
    one = "(" + ",".join("?" * width) + ")"
    full = len(rows) - len(rows) % _ROWS_PER_STATEMENT
    if full:
        step = _ROWS_PER_STATEMENT * width
        flat = list(chain.from_iterable(rows[:full]))
        conn.executemany(f"INSERT INTO {table} VALUES " + ",".join([one] * _ROWS_PER_STATEMENT),
                         [flat[i:i + step] for i in range(0, len(flat), step)])
    if full < len(rows):
        conn.executemany(f"INSERT INTO {table} VALUES {one}", rows[full:])


def _decode(row: dict) -> dict:
    out = dict(row)
    for key in ("tags", "score", "recorded", "warnings"):
        if out.get(key) is not None:
            try:
                out[key] = json.loads(out[key])
            except (TypeError, ValueError):
                raise DatabaseError(f"record {str(row.get('id'))[:16]} is damaged: its {key} column is not JSON; "
                                    "restore the database from a backup, or ingest the record again") from None
    return out
