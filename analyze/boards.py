"""The positions of a stored record for ``show``: after each move, the move as written, its
annotation, the board as text and the state as plain data, drawn by the game's analysis module."""
from __future__ import annotations

from scorebook import registry

from .run import record_of


def record_states(row: dict) -> list[dict]:
    """One entry per move of a stored record: ply, move text, annotation, board and state."""
    game = registry.get_game(row["game"])
    analysis = game.analysis
    out = []
    for p in game.notation.positions(record_of(row)):
        entry = analysis.show_extra(p)
        entry.update({"ply": p.ply, "move": p.move, "annotation": p.annotation,
                      "board": analysis.text_board(p.state), "state": analysis.state_json(p.state),
                      "heading": analysis.heading(p)})
        out.append(entry)
    return out
