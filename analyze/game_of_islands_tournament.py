"""The Game of Islands' tournaments (``standings``): a match is a triad (10, 12, 14 under one
Match tag), its result the margin rule (spec §6). Its own module, apart from the analysis: the
standings of stored matches read stored rows and load none of the game's rules or bots (numba's
import and first call are most of such a command)."""
from __future__ import annotations

from scorebook import registry
from scorebook.errors import STRICT, UsageError

from .standings import Match

GAME = "game-of-islands"


class Triads:
    """Tournaments of The Game of Islands (``Game.tournament``)."""
    default_tiebreaks = tuple(registry.get_game(GAME).facts["default_tiebreaks"])

    def match_records(self, text: str, where: str) -> list:
        """The triads of a PGN-style text; a rejected record stops the standings."""
        from scorebook.records.formats import read_pgn
        out = []
        for item in read_pgn(text, STRICT):
            if item.error is not None:
                raise UsageError(f"{where}: record {item.index} is rejected: {item.error.describe()}")
            if item.game == GAME and item.record.match is not None:
                out.append(item.record)
        return out

    def match_id(self, record) -> str:
        return record.match

    def match_of(self, record, where: str, players: list[str] | None = None, identify: bool = False) -> Match:
        """The match of a triad read (``match_records``), oriented as ``players`` (a tournament
        file's) when given; ``identify``: with the id its record has once ingested (a page links
        it where stored)."""
        from scorebook.engines.game_of_islands.engine import match_result
        if record.match is None:
            raise UsageError(f"{where}: a game without a Match tag is no triad")
        if not record.finished:
            raise UsageError(f"{where}: match {record.match} is unfinished")
        totals = record.totals()
        names = tuple(record.players)
        if players is not None:
            if sorted(players) != sorted(names):
                raise UsageError(f"{where}: match {record.match} is played by {names[0]} and {names[1]}, "
                                 f"the tournament file says {players[0]} and {players[1]}")
            if players[0] != names[0]:
                names, totals = (names[1], names[0]), [totals[1], totals[0]]
        return Match(record.match, names, tuple(totals), match_result(totals[0] - totals[1]),
                     _record_id(record) if identify else None)

    def stored_match(self, row: dict) -> Match | None:
        """The match a stored record holds (``Store.event_rows``), from what its replay stored:
        its Match tag, its players by seat, its totals and result; None for a record that is no
        finished triad. Nothing is read or walked again."""
        match, score = row["tags"].get("Match"), row["score"]
        if match is None or not row["finished"] or "totals" not in score:
            return None
        return Match(match, tuple(row["players"][:2]), tuple(score["totals"]), score["result"], row["id"])


def _record_id(record) -> str:
    """The id a triad read has once ingested (its canonical text's hash)."""
    from scorebook.records.game_of_islands import NOTATION
    from scorebook.records.ingest import ID_DIGITS, content_hash
    return content_hash(NOTATION.canonical(record, STRICT).text)[:ID_DIGITS]


TOURNAMENT = Triads()
