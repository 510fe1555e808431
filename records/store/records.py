"""The records' tables: a record's row (normalised text, hash, game, rules, deck, tags, the
replayed and the stated score, its moves as JSON), its players and per-category scores,
written in bulk and read back by id, prefix, game or player."""
from __future__ import annotations

import hashlib
import json
import re
import sqlite3
from collections.abc import Iterator
from datetime import datetime, timezone
from itertools import chain

from scorebook import registry
from scorebook.errors import DatabaseError, NotFound, UnknownGame, UsageError

from ..notation import browsing, score_text

ENGINE_VERSION = "0.1.0"
ID_DIGITS = 16  # a record's id: the first hexadecimal digits of its hash
RECORD_COLUMNS = ("key, id, hash, game, rules, deck, format, source, source_index, text, tags, score, "
                  "recorded, total, finished, warnings, event_id, engine_version, ingested_at, players, event, result, "
                  "date, moves_json")
_DATE = re.compile(r"(\d{4})[.\-/](\d{2})[.\-/](\d{2})")


def record_date(tag) -> str | None:
    """A Date tag as the store keeps it: YYYY.MM.DD when the whole date is known, else None."""
    m = _DATE.fullmatch(tag.strip()) if isinstance(tag, str) else None
    return ".".join(m.groups()) if m else None


def columns_json(tags: dict, score: dict, recorded: dict | None, moves) -> tuple[str, str, str | None, str]:
    """A record's tags, score, stated score and moves as its row's JSON columns hold them.
    ``moves``: the rows (game, ply, seat, move, note), or what writes them itself, to the
    same text (``records.compiled.MovesRows.json``)."""
    return (json.dumps(tags), json.dumps(score), None if recorded is None else json.dumps(recorded),
            moves.json() if hasattr(moves, "json") else json.dumps(moves, separators=(",", ":")))


class RecordTables:
    """Mixed into ``Store``: the records, their players, moves and scores."""

    def existing_hashes(self, hashes: list[str]) -> set[str]:
        """Which of ``hashes`` are stored: looked up by their ids (a record's id is its hash's
        first ID_DIGITS digits, and unique), so that the hash needs no index of its own."""
        wanted = set(hashes)
        return {h for h in self._of_ids("hash", [h[:ID_DIGITS] for h in hashes]) if h in wanted}

    def _of_ids(self, column: str, ids: list[str]) -> Iterator:
        """``column`` of each stored record whose id is one of ``ids``, through the id index."""
        return (r[0] for r in self._rows_in(f"SELECT {column} FROM records WHERE id IN", ids))

    def _known_ids(self, table: str, cache: dict[str, int], names) -> None:
        """The stored ids of those of ``names`` not in ``cache`` yet, into it, through the
        name's unique index: a file's players looked up at once, not one statement each
        (``_name_id`` then finds them, or adds the new ones)."""
        cache.update(self._rows_in(f"SELECT name, id FROM {table} WHERE name IN",
                                   [name for name in set(names) if name not in cache]))

    def _rows_in(self, select: str, values: list) -> Iterator[tuple]:
        """The rows of ``select``, which ends in ``IN``, for ``values``: in statements of at
        most 500 values (under SQLite's limit of bound values)."""
        for start in range(0, len(values), 500):
            chunk = values[start:start + 500]
            yield from self.db.execute(f"{select} ({', '.join('?' * len(chunk))})", chunk)

    def index_for_search(self, at_least: int = 1) -> int:
        """Put the records stored since the search index was last filled into it, in one
        statement, when there are at least ``at_least`` of them (inside the caller's
        transaction, or in one of its own): ingest fills it every SEARCH_BATCH records and
        when it ends, a single submission at once, and a writer opening the database after an
        ingest that was cut short. The records not yet in it are only missing from searches
        (no record is ever deleted, so the keys past the mark are those not yet in it). How
        many were put in."""
        pending = self.db.execute("SELECT (SELECT coalesce(max(key), 0) FROM records) - through_key "
                                  "FROM search_indexed").fetchone()[0]
        if pending < max(at_least, 1):
            return 0
        with self.atomic():  # the mark read again under the write lock: another writer may have filled it
            through, last = self.db.execute("SELECT through_key, (SELECT coalesce(max(key), 0) FROM records) "
                                            "FROM search_indexed").fetchone()
            self.db.conn.execute("INSERT INTO records_fts (rowid, players, event, tags) "
                                 "SELECT key, players, event, tags FROM records WHERE key > ? ORDER BY key", [through])
            self.db.conn.execute("UPDATE search_indexed SET through_key = ?", [last])
        return last - through

    def add_records(self, items: list) -> list[str | None]:
        """Insert prepared records (``notation.PreparedRecord``); call inside ``atomic()``.
        Returns, for each, what became of it in a tournament (``attach_records``)."""
        now = datetime.now(timezone.utc).isoformat(timespec="seconds")
        rows: list[tuple] = []
        links, scores = [], []
        key = self.db.execute("SELECT coalesce(max(key), 0) FROM records").fetchone()[0]
        self._known_ids("players", self._player_ids, [name for p in items for name in p.players])
        for p in items:
            key += 1
            event = p.tags.get("Event")
            result, points, outcomes = p.result, p.points, p.outcomes  # as the game decided them
            tags, score, recorded, moves = p.columns_json
            rows.append((
                key, p.id, p.hash, p.game, p.rules, p.deck, p.format, p.source, p.index, p.text,
                tags, score, recorded, p.total, int(p.finished), json.dumps(p.warnings) if p.warnings else None,
                self._name_id("events", self._event_ids, event) if event else None, ENGINE_VERSION, now,
                " / ".join(p.players) or None, event, result, record_date(p.tags.get("Date")), moves))
            for seat, name in enumerate(p.players):
                links.append((key, seat, self._name_id("players", self._player_ids, name),
                              points[seat] if seat < len(points) else None,
                              outcomes[seat] if seat < len(outcomes) else None))
            scores.extend([(key, seat, cat, pts) for seat, cat, pts in p.scores])
        # bulk rows go straight to the connection: sqlite-utils' insert_all builds SQL per chunk
        conn = self.db.conn
        conn.executemany(f"INSERT INTO records ({RECORD_COLUMNS}) VALUES ({','.join('?' * 24)})", rows)
        _insert_rows(conn, "record_players", 5, links)
        _insert_rows(conn, "scores", 4, scores)
        self._summarise_events(rows, links)
        return self.attach_records(items)

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
            # the players matching first (a scan of the players), then their records by the player
            # index: not every seat of the archive probed for its player's name
            where.append("key IN (SELECT record_key FROM record_players WHERE player_id IN "
                         "(SELECT id FROM players WHERE lower(name) LIKE lower(?) ESCAPE '\\'))")
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

    def finished_results(self, game: str | None = None, event: str | None = None,
                         after_key: int | None = None, from_date: str | None = None,
                         through_key: int | None = None) -> list[tuple]:
        """(id, game, date, Round tag, score, event, ingested_at, names joined by char 31, key)
        of every finished record of a game and an event (each when given; ``after_key`` and
        ``through_key``: stored after, and up to, those records; ``from_date``, YYYY.MM.DD:
        played that day or later, or on a day not known), in the order they were stored. The
        Round tag alone is read from the tags (in SQL): the rest of them is not needed to rate."""
        select = ("SELECT r.id, r.game, r.date, json_extract(r.tags, '$.Round'), r.score, r.event, r.ingested_at, "
                  "(SELECT group_concat(p.name, char(31)) FROM (SELECT rp.seat, p.name FROM record_players rp "
                  " JOIN players p ON p.id = rp.player_id WHERE rp.record_key = r.key ORDER BY rp.seat) p) AS names, "
                  "r.key AS key FROM records r WHERE r.finished = 1")
        args: list = []
        if game:
            select += " AND r.game = ?"
            args.append(game)
        if event:
            select += " AND r.event = ?"
            args.append(event)
        if after_key:
            select += " AND r.key > ?"
            args.append(after_key)
        if through_key is not None:
            select += " AND r.key <= ?"
            args.append(through_key)
        if from_date:  # two ranges of the (game, date) index, not one scan of the game's records
            sql = f"{select} AND r.date >= ? UNION ALL {select} AND r.date IS NULL ORDER BY key"
            args = args + [from_date] + args
        else:
            sql = select + " ORDER BY r.key"
        return self.db.execute(sql, args).fetchall()

    def existing_ids(self, ids: list[str]) -> set[str]:
        """Those of ``ids`` that are stored records' ids (through the id index)."""
        return set(self._of_ids("id", ids))

    def moves(self, record_id: str) -> list[dict]:
        """A record's moves (game, ply, player, text, annotation), from its row's column."""
        row = self.db.execute("SELECT moves_json FROM records WHERE id = ?", [record_id]).fetchone()
        names = ("game", "ply", "player", "text", "annotation")
        return [dict(zip(names, move)) for move in json.loads(row[0] or "[]")] if row else []

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
    out.pop("moves_json", None)  # the moves: ``moves``
    for key in ("tags", "score", "recorded", "warnings"):
        if out.get(key) is not None:
            try:
                out[key] = json.loads(out[key])
            except (TypeError, ValueError):
                raise DatabaseError(f"record {str(row.get('id'))[:16]} is damaged: its {key} column is not JSON; "
                                    "restore the database from a backup, or ingest the record again") from None
    return out
