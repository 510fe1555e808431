"""The store's tables for tournaments a director runs (``scorebook.tournaments``): each
event's plan (game, format, rounds, settings), its entrants, and every table of every round
with its result. Part of the store (``Store`` inherits it), the only code that speaks SQL to
them; every query goes through a primary key (the event's id first) or the tables' record index.

Results attach here, as records are stored, in the same transaction (``attach_records``): a
record whose Event is a tournament's and whose Round (and Table, when it has one) names a table
of that round is attached when its players are the table's and the table has no result yet; any
other record of the event is stored, not attached, and its outcome says why, naming the table."""
from __future__ import annotations

import json
from datetime import datetime, timezone

from scorebook import registry


TOURNAMENT_PLANS = 17  # the migration that adds these tables


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")  # a page's version: every change


def _int(text) -> int | None:
    try:
        return int(str(text).strip())
    except (TypeError, ValueError):
        return None


class TournamentTables:
    """Mixed into ``Store``: ``self.db``, ``self.atomic()`` and ``self._name_id`` are the store's."""

    def _planned_events(self) -> dict[str, int]:
        """{event name: event id} of every tournament a director runs (few: read once a store)."""
        if self.schema_version < TOURNAMENT_PLANS:
            return {}
        # another process (the CLI beside a server) may have made one: a look at the plans' count
        # and last id (a table of a few rows) says whether what is held is still so
        mark = self.db.execute("SELECT count(*), max(event_id) FROM tournament_plans").fetchone()
        if self._planned is None or self._planned_mark != mark:
            self._planned = {name: eid for name, eid in self.db.execute(
                "SELECT e.name, p.event_id FROM tournament_plans p JOIN events e ON e.id = p.event_id")}
            self._planned_mark = mark
        return self._planned

    def planned_tournament(self, event: str) -> dict | None:
        """The tournament run under ``event`` as data (``tournaments.model.Tournament``'s
        fields), or None."""
        if self.schema_version < TOURNAMENT_PLANS:
            return None
        row = self.db.execute("SELECT p.event_id, p.game, p.format, p.rounds, p.settings FROM tournament_plans p "
                              "JOIN events e ON e.id = p.event_id WHERE e.name = ?", [event]).fetchone()
        if row is None:
            return None
        event_id, game, format_, rounds, settings = row
        entrants = [{"name": n, "rating": r, "joined": j, "absent": json.loads(a), "withdrawn": w}
                    for n, r, j, a, w in self.db.execute(
                        "SELECT name, rating, joined, absent, withdrawn FROM tournament_entrants "
                        "WHERE event_id = ? ORDER BY number", [event_id])]
        tables = [{"round": r, "table": n, "seats": json.loads(s), "kind": k,
                   "places": json.loads(p) if p else None, "scores": json.loads(sc) if sc else None,
                   "source": src, "record": rec, "deal": deal}
                  for r, n, s, k, p, sc, src, rec, deal in self.db.execute(
                      "SELECT round, number, seats, kind, places, scores, source, record_id, deal "
                      "FROM tournament_tables WHERE event_id = ? ORDER BY round, number", [event_id])]
        return {"event": event, "game": game, "format": format_, "rounds": rounds, **json.loads(settings),
                "entrants": entrants, "tables": tables}

    def save_planned_tournament(self, data: dict) -> None:
        """Keep a tournament (``planned_tournament``'s shape) whole, in place of what was kept;
        call inside ``atomic()`` with the read it changes, so that two writers make one change."""
        fixed = ("event", "game", "format", "rounds", "entrants", "tables")
        event_id = self._name_id("events", self._event_ids, data["event"])
        settings = json.dumps({k: v for k, v in data.items() if k not in fixed}, sort_keys=True)
        now = _now()
        self.db.execute("INSERT INTO tournament_plans (event_id, game, format, rounds, settings, created_at, updated_at) "
                        "VALUES (?,?,?,?,?,?,?) ON CONFLICT(event_id) DO UPDATE SET game = excluded.game, "
                        "format = excluded.format, rounds = excluded.rounds, settings = excluded.settings, "
                        "updated_at = excluded.updated_at",
                        [event_id, data["game"], data["format"], data["rounds"], settings, now, now])
        self.db.execute("DELETE FROM tournament_entrants WHERE event_id = ?", [event_id])
        self.db.conn.executemany(
            "INSERT INTO tournament_entrants (event_id, number, name, rating, joined, absent, withdrawn) "
            "VALUES (?,?,?,?,?,?,?)",
            [(event_id, k, e["name"], e.get("rating"), e.get("joined", 1), json.dumps(e.get("absent", [])),
              e.get("withdrawn")) for k, e in enumerate(data["entrants"], 1)])
        self.db.execute("DELETE FROM tournament_tables WHERE event_id = ?", [event_id])
        self.db.conn.executemany(
            "INSERT INTO tournament_tables (event_id, round, number, seats, kind, places, scores, source, "
            "record_id, deal) VALUES (?,?,?,?,?,?,?,?,?,?)",
            [(event_id, t["round"], t["table"], json.dumps(t["seats"]), t.get("kind", "game"),
              json.dumps(t["places"]) if t.get("places") is not None else None,
              json.dumps(t["scores"]) if t.get("scores") is not None else None,
              t.get("source"), t.get("record"), t.get("deal")) for t in data["tables"]])
        self._planned = None

    def latest_summaries(self, record_ids: list[str]) -> dict[str, dict]:
        """{record id: its latest analysis's per-player summary} of those analysed (each through
        the record's id and the analyses' record index)."""
        out = {}
        for rid in record_ids:
            row = self.db.execute("SELECT a.summary FROM analyses a JOIN records r ON r.key = a.record_key "
                                  "WHERE r.id = ? ORDER BY a.id DESC LIMIT 1", [rid]).fetchone()
            if row is not None:
                out[rid] = json.loads(row[0])
        return out

    def tournament_version(self, event: str) -> str | None:
        """What changes whenever the tournament's page would: its plan's last change, the last
        record stored and the last analysis (each a key's end); None for no such tournament."""
        event_id = self._planned_events().get(event)
        if event_id is None:
            return None
        updated = self.db.execute("SELECT updated_at FROM tournament_plans WHERE event_id = ?", [event_id]).fetchone()
        analysis = self.db.execute("SELECT max(id) FROM analyses").fetchone()[0]
        return f"{updated[0] if updated else ''}/{self.last_key()}/{analysis or 0}"

    def planned_list(self) -> list[dict]:
        """Every tournament run here: event, game, format, planned rounds, players, rounds paired,
        games with a result, the last change; the latest changed first."""
        out = []
        for name, event_id in self._planned_events().items():
            game, format_, rounds, updated = self.db.execute(
                "SELECT game, format, rounds, updated_at FROM tournament_plans WHERE event_id = ?", [event_id]).fetchone()
            players = self.db.execute("SELECT count(*) FROM tournament_entrants WHERE event_id = ?",
                                      [event_id]).fetchone()[0]
            paired, games = self.db.execute(
                "SELECT max(round), count(CASE WHEN kind = 'game' AND places IS NOT NULL THEN 1 END) "
                "FROM tournament_tables WHERE event_id = ?", [event_id]).fetchone()
            out.append({"event": name, "game": game, "format": format_, "rounds": rounds, "players": players,
                        "paired": paired or 0, "games": games, "updated_at": updated})
        return sorted(out, key=lambda r: r["updated_at"], reverse=True)

    def tournament_of_record(self, record_id: str) -> tuple[str, int, int] | None:
        """(event, round, table) a record is attached to, or None (through the record index)."""
        if self.schema_version < TOURNAMENT_PLANS:
            return None
        row = self.db.execute("SELECT e.name, t.round, t.number FROM tournament_tables t JOIN events e "
                              "ON e.id = t.event_id WHERE t.record_id = ?", [record_id]).fetchone()
        return None if row is None else (row[0], row[1], row[2])

    # ------------------------------------------------------------------ results from records

    def attach_records(self, items: list) -> list[str | None]:
        """For each stored record (``PreparedRecord``), what became of it in a tournament: a
        line when it is its event's (attached, or why not), else None. Inside the records'
        transaction."""
        planned = self._planned_events()
        if not planned:
            return [None] * len(items)
        return [self._attach(p, planned[p.tags["Event"]]) if p.tags.get("Event") in planned else None
                for p in items]

    def _attach(self, p, event_id: int) -> str:
        event = p.tags["Event"]
        game, format_ = self.db.execute("SELECT game, format FROM tournament_plans WHERE event_id = ?",
                                        [event_id]).fetchone()
        round_, table_no = _int(p.tags.get("Round")), _int(p.tags.get("Table"))
        if p.game != game:
            return f"not attached to {event}: a {p.game} record in a {game} tournament"
        if round_ is None:
            return f"not attached to {event}: its Round tag names no round"
        rows = round_rows = self.db.execute("SELECT number, seats, kind, places, record_id, deal FROM tournament_tables "
                                            "WHERE event_id = ? AND round = ?", [event_id, round_]).fetchall()
        if not rows:
            return f"not attached to {event}: round {round_} is not paired"
        players = list(p.players)
        if table_no is not None:
            rows = [r for r in rows if r[0] == table_no]
            if not rows:
                return f"not attached to {event}: round {round_} has no table {table_no}"
        found = [r for r in rows if r[2] == "game" and sorted(json.loads(r[1])) == sorted(players)]
        if not found:
            who = " / ".join(players) or "its players"
            if table_no is None:
                return f"not attached to {event}: no table of round {round_} seats {who}"
            return (f"not attached to {event}: round {round_} table {table_no} (seats "
                    f"{', '.join(json.loads(rows[0][1]))}) is not {who}'s")
        number, seats_text, _, places, record_id, _ = found[0]
        if places is not None:
            held = f"record {record_id}" if record_id else "a result entered by the director"
            return f"not attached to {event}: round {round_} table {number} already has {held}"
        if not p.finished:
            return f"not attached to {event}: round {round_} table {number}: the record is unfinished"
        if format_ == "duplicate":
            deals = {r[5] for r in round_rows if r[5] is not None}  # the deal the round's first record was played on
            if deals and p.deck not in deals:
                return f"not attached to {event}: round {round_} table {number}: not the round's deal"
        seats = json.loads(seats_text)
        notation = registry.get_game(p.game).notation
        ranks = notation.seat_ranks(p.score) or [1] * len(players)
        place_of = dict(zip(players, ranks))
        score_of = dict(zip(players, p.points))
        self.db.execute("UPDATE tournament_tables SET places = ?, scores = ?, source = 'record', record_id = ?, "
                        "deal = ? WHERE event_id = ? AND round = ? AND number = ?",
                        [json.dumps([place_of[s] for s in seats]), json.dumps([score_of.get(s) for s in seats]),
                         p.id, p.deck, event_id, round_, number])
        return f"attached to {event} round {round_} table {number}"
