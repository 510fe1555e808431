"""The events' tables: each event's summary and its players, kept as records arrive, its
ranked matches, and the tournament files ingested under it."""
from __future__ import annotations

import json
from datetime import datetime, timezone

from .schema import EVENT_MATCHES, EVENT_SUMMARIES, TOURNAMENTS, _ranked_games


def _least(a: str | None, b: str | None) -> str | None:
    return b if a is None else a if b is None else min(a, b)


def _most(a: str | None, b: str | None) -> str | None:
    return b if a is None else a if b is None else max(a, b)


class EventTables:
    """Mixed into ``Store``: events, their kept summaries and matches, tournament files."""

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
            matches = set()
            for r in rows:  # a finished record of a ranked game: its tags read once, for its Match tag
                match = json.loads(r[10]).get("Match") if r[3] in ranked and r[14] else None
                if match is not None:
                    matches.add((event_of[r[0]], match))
            self.db.conn.executemany("INSERT OR IGNORE INTO event_matches (event_id, match) VALUES (?,?)",
                                     sorted(matches))

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
        # a tournament run here: its entrants, its games with a result
        kept.update({t["event"]: (t["game"], t["players"], t["games"]) for t in self.planned_list()})
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
