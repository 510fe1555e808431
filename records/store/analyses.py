"""The analyses' tables: one analysis of a record (its bot, seed, engine version, settings,
summary) and its moves' rows."""
from __future__ import annotations

import json
from datetime import datetime, timezone


class AnalysisTables:
    """Mixed into ``Store``: analyses stored and found again."""

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
