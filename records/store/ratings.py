"""The ratings' tables: each game's ratings kept as games arrive, with the mark of the last game
rated, and checkpoints to rate from again."""
from __future__ import annotations

import json

from .schema import CHECKPOINTS, RATINGS


class RatingTables:
    """Mixed into ``Store``: the kept ratings and their checkpoints."""

    def ratings_kept(self, game: str) -> tuple[tuple | None, list[dict]]:
        """A game's kept ratings: (through_key, last_order, games) or None, and every
        player's row; (None, []) in a database older than the ratings tables."""
        if self.schema_version < RATINGS:
            return None, []
        mark = self.db.execute("SELECT through_key, last_order, games FROM ratings_marks WHERE game = ?",
                               [game]).fetchone()
        return mark, list(self.db.query("SELECT * FROM ratings WHERE game = ?", [game]))

    def ratings_pending(self, game: str) -> int:
        """A game's records stored since its ratings were last kept (through the game's index,
        from the mark's key)."""
        if self.schema_version < RATINGS:
            return self.db.execute("SELECT count(*) FROM records WHERE game = ?", [game]).fetchone()[0]
        return self.db.execute("SELECT count(*) FROM records WHERE game = ? AND key > coalesce((SELECT through_key "
                               "FROM ratings_marks WHERE game = ?), 0)", [game, game]).fetchone()[0]

    def ratings_checkpoints(self, game: str) -> list[tuple[int, str]]:
        """(games rated, order of the last of them) of each kept checkpoint of a game, in order."""
        if self.schema_version < CHECKPOINTS:
            return []
        return self.db.execute("SELECT games, last_order FROM ratings_checkpoints WHERE game = ? ORDER BY games",
                               [game]).fetchall()

    def ratings_checkpoint(self, game: str, games: int) -> dict | list[dict]:
        """The ratings as they stood at a checkpoint, as kept (``Ledger.snapshot``; before
        schema COMPACT_CHECKPOINTS, the ratings' rows)."""
        row = self.db.execute("SELECT ledger FROM ratings_checkpoints WHERE game = ? AND games = ?",
                              [game, games]).fetchone()
        return json.loads(row[0])

    def keep_ratings(self, game: str, mark: tuple[int, str, int], rows: list[dict], *, whole: bool,
                     checkpoints: list[tuple[int, str, dict]] = (), checkpoints_after: int | None = None,
                     thinned: tuple[int, int] | None = None) -> None:
        """Keep a game's ratings: its changed players' rows (``whole``: every row, the old
        ones gone), how far it is rated, and its new checkpoints (those past
        ``checkpoints_after`` games dropped first: they were rated again), in one transaction.
        ``thinned``, (games, every): of the checkpoints up to that many games, only those of a
        multiple of ``every`` games are kept."""
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
                if thinned is not None:
                    self.db.execute("DELETE FROM ratings_checkpoints WHERE game = ? AND games <= ? AND games % ? != 0",
                                    [game, *thinned])
            if whole:
                self.db.execute("DELETE FROM ratings WHERE game = ?", [game])
            self.db.conn.executemany(f"INSERT OR REPLACE INTO ratings ({', '.join(columns)}) VALUES "
                                     f"({','.join('?' * len(columns))})",
                                     [tuple(dict(r, game=game).get(c) for c in columns) for r in rows])
            self.db.execute("INSERT OR REPLACE INTO ratings_marks (game, through_key, last_order, games) "
                            "VALUES (?,?,?,?)", [game, *mark])
