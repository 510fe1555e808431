"""Text boards of a record after each move, for ``show`` (terminal and JSON).

Tiny Islands cells are three characters: a tile letter (``.`` when empty) in brackets on
land, between spaces on water.
"""
from __future__ import annotations

from engines.tiny_islands.metadata import COLUMN_NAMES, ROW_NAMES, SIZE, TILE_LETTERS
from records import tiny_islands


def tiny_islands_board(tiles, land) -> str:
    lines = ["    " + "  ".join(COLUMN_NAMES)]
    for r in range(SIZE):
        cells = []
        for c in range(SIZE):
            z = r * SIZE + c
            letter = TILE_LETTERS[tiles[z]] if tiles[z] else "."
            cells.append(f"[{letter}]" if land[z] else f" {letter} ")
        lines.append(f"{ROW_NAMES[r]}  " + "".join(cells).rstrip())
    return "\n".join(lines)


def tiny_islands_state(tiles, land) -> dict:
    """Rows from the top (row 9): tile letters with '.' for empty, and '#' land / '.' water."""
    return {"tiles": ["".join(TILE_LETTERS[tiles[r * SIZE + c]] if tiles[r * SIZE + c] else "."
                              for c in range(SIZE)) for r in range(SIZE)],
            "land": ["".join("#" if land[r * SIZE + c] else "." for c in range(SIZE)) for r in range(SIZE)]}


def record_states(row: dict) -> list[dict]:
    """One entry per move of a stored record: ply, move text, annotation, board and state."""
    if row["game"] != tiny_islands.GAME:
        raise NotImplementedError(row["game"])
    record = tiny_islands.parse_pgn(row["text"])[0]
    annotations = {}
    for t, p in enumerate(record.placements):
        annotations[tiny_islands.ply_of_turn(t)] = p.visits
    for d, dr in enumerate(record.drawings):
        annotations[tiny_islands.ply_of_drawing(d)] = (
            None if dr.visits is None else "|".join("-" if v is None else v for v in dr.visits))
    return [{"ply": ply, "move": move, "annotation": annotations.get(ply),
             "board": tiny_islands_board(tiles, land), "state": tiny_islands_state(tiles, land)}
            for ply, move, tiles, land in tiny_islands.states(record)]
