"""Text boards of a record after each move, for ``show`` (terminal and JSON).

Tiny Islands cells are three characters: a tile letter (``.`` when empty) in brackets on
land, between spaces on water.
"""
from __future__ import annotations

from scorebook.engines.game_of_islands import engine as goi_engine
from scorebook.engines.tiny_islands.metadata import COLUMN_NAMES, ROW_NAMES, SIZE, TILE_LETTERS
from scorebook.records import game_of_islands, iwoki, tiny_islands
from scorebook.records.formats import read_text


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


def goi_rows(n, used, diag, owner) -> list[str]:
    """Ranks from the top: '.' free dot, '+' on a line, 'X'/'O' claimed by First/Second,
    '*' an island nobody has claimed."""
    islands = goi_engine.island_mask(n, used, diag)
    rows = []
    for y in range(n - 1, -1, -1):
        chars = []
        for x in range(n):
            d = y * n + x
            chars.append("X" if owner[d] == 0 else "O" if owner[d] == 1 else "+" if used[d]
                         else "*" if islands[d] else ".")
        rows.append("".join(chars))
    return rows


def goi_board(n, rows) -> str:
    lines = ["    " + " ".join(chr(ord("A") + x) for x in range(n))]
    for i, r in enumerate(rows):
        lines.append(f"{n - i:>2}  " + " ".join(r))
    return "\n".join(lines)


def iwoki_text(s) -> str:
    from scorebook.engines.iwoki import engine as IE
    from scorebook.engines.iwoki.metadata import HAND_HEX, HAND_SMALL, N_HAND_HEX, N_HAND_SMALL, N_HEX_TILES, N_SMALL_TILES
    small, hexes = iwoki.gap_names(s)
    lines = [f"scores {s[IE.SCORE]}-{s[IE.SCORE + 1]}, white tokens {s[IE.WHITE]}-{s[IE.WHITE + 1]}"]
    for p in range(2):
        hs = " ".join(f"st{s[HAND_SMALL + p * N_SMALL_TILES + i] + 1}" for i in range(s[N_HAND_SMALL + p]))
        hh = " ".join(f"ht{s[HAND_HEX + p * N_HEX_TILES + i] + 1}" for i in range(s[N_HAND_HEX + p]))
        lines.append(f"seat {p}: {hs} / {hh}")
    lines.append("open small gaps: " + (" ".join(small) or "-"))
    lines.append("open hex gaps: " + (" ".join(hexes) or "-"))
    return "\n".join(lines)


def record_states(row: dict) -> list[dict]:
    """One entry per move of a stored record: ply, move text, annotation, board and state."""
    if row["game"] == iwoki.GAME:
        record = read_text(row["text"], "stored", "pgn")[0].record
        out = []
        for ply, action, s in iwoki.states(record):
            small, hexes = iwoki.gap_names(s)
            out.append({"ply": ply, "move": f"{ply}. seat {action.seat} {action.text()}", "annotation": action.note,
                        "board": iwoki_text(s), "state": {"open_small": small, "open_hex": hexes,
                                                          "scores": [int(s[0 + iwoki.SCORE]), int(s[iwoki.SCORE + 1])]}})
        return out
    if row["game"] == game_of_islands.GAME:
        record = read_text(row["text"], "stored", "pgn")[0].record
        out = []
        for number, ply, move, n, used, diag, owner in game_of_islands.states(record):
            rows = goi_rows(n, used, diag, owner)
            turn = record.games[number - 1].turns[ply - 1]
            out.append({"game": number, "grid": n, "ply": ply, "move": f"{(ply + 1) // 2}{'.' if ply % 2 else '...'} {move}",
                        "annotation": " ".join(turn.comments) or None, "board": goi_board(n, rows),
                        "state": {"grid": n, "dots": rows}})
        return out
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
