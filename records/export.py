"""Export a stored record in any format its game writes.

The store keeps each record's normalised Scorebook text; every export starts from it, so an
export read back in stores as the same record (same hash: a duplicate) when the format
carries everything. What a foreign format cannot carry, the export names (``dropped``).
"""
from __future__ import annotations

from scorebook import registry

from scorebook.errors import STRICT, UsageError


def export_record(row: dict, fmt: str) -> tuple[str, list[str]]:
    """(text, what the format dropped) of a stored record (a row of ``Store.get``)."""
    game = registry.get_game(row["game"])
    writes = game.info.formats.write
    if fmt not in writes:
        raise UsageError(f"{game.id} records cannot be written as {fmt}; formats: {', '.join(writes)}")
    if fmt == "pgn":  # the stored canonical text itself: nothing of the game's code is loaded (0.7 s)
        return row["text"], []
    return game.notation.export(row["text"], fmt, STRICT)
