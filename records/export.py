"""Export a stored record in any format its game can be read in.

The store keeps each record's normalised Scorebook text; every export starts from it, so
an export read back in stores as the same record (same hash: a duplicate).
"""
from __future__ import annotations

from . import pgn, tinybot, tiny_islands
from .errors import UsageError

EXPORT_FORMATS = {"tiny-islands": ("pgn", "tinybot"), "game-of-islands": ("pgn",), "iwoki": ("pgn", "iwoki-log")}


def export_record(row: dict, fmt: str) -> str:
    game = row["game"]
    if fmt not in EXPORT_FORMATS.get(game, ("pgn",)):
        raise UsageError(f"{game} records cannot be written as {fmt}; formats: "
                         f"{', '.join(EXPORT_FORMATS.get(game, ('pgn',)))}")
    if fmt == "pgn":
        return row["text"]
    if fmt == "iwoki-log":
        from . import iwoki
        return iwoki.write_log(iwoki.read_pgn_game(pgn.split_games(row["text"])[0]))
    record = tiny_islands.parse_pgn(row["text"])[0]
    return tinybot.write_line(record) + "\n"
