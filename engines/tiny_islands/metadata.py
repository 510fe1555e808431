"""Tiny Islands game facts, read from ``game.json`` and laid out for the engine.

Cells are ints ``z = r*9 + c`` with ``r`` counted from the top row (row ``9``) and
``c`` from column ``a``; this is TinyBot's own index, so visit lists need no mapping.

>>> cell_name(0), cell_name(80), parse_cell("f7")
('a9', 'i1', 23)
>>> ZONE_LETTERS[ZONE_INDEX["Q"]], sorted(cell_name(z) for z in ZONE_CELLS[ZONE_INDEX["C"]])[:3]
('Q', ['g1', 'g2', 'g3'])
"""
from __future__ import annotations

import json
from importlib import resources

import numpy as np

_GAME = json.loads(resources.files(__package__).joinpath("game.json").read_text())

GAME_ID: str = _GAME["game"]["id"]
SIZE: int = _GAME["board"]["rows"]
CELLS: int = SIZE * SIZE
COLUMN_NAMES: str = _GAME["board"]["column_names"]
ROW_NAMES: str = _GAME["board"]["row_names_top_to_bottom"]  # row name of r = 0 .. 8
TURNS: int = _GAME["turns"]
DRAWING_AFTER_TURN: tuple[int, ...] = tuple(_GAME["drawings_after_turn"])
MAX_SHORELINE: int = _GAME["max_shoreline_edges"]
INVALID_PENALTY: int = _GAME["invalid_tile_penalty"]

EMPTY = 0
_tiles = sorted(_GAME["tiles"], key=lambda t: t["channel"])
TILE_LETTERS: str = "." + "".join(t["letter"] for t in _tiles)  # index = channel
TILE_NAMES: tuple[str, ...] = ("empty",) + tuple(t["name"] for t in _tiles)
TILE_INDEX: dict[str, int] = {t["letter"]: t["channel"] for t in _tiles}
FOREST, HOUSE, SAND, WAVE, MOUNTAIN, CHURCH, BOAT = (TILE_INDEX[c] for c in "fhswMCB")
# Channel-indexed tables (index 0 = empty cell).
TILE_IS_LAND = np.array([False] + [t["land"] for t in _tiles], dtype=np.bool_)
TILE_COUNT = np.array([0] + [t["count"] for t in _tiles], dtype=np.int64)

_zones = _GAME["zones"]
ZONE_COPIES: int = _zones["copies_each"]
ZONE_LETTERS: str = _zones["rows"] + _zones["columns"] + "".join(_zones["nonants_top_to_bottom"])
ZONE_INDEX: dict[str, int] = {ch: i for i, ch in enumerate(ZONE_LETTERS)}


def _zone_cells() -> np.ndarray:
    table = np.zeros((len(ZONE_LETTERS), SIZE), dtype=np.int64)
    for zi, ch in enumerate(ZONE_LETTERS):
        if ch in _zones["rows"]:
            r = ROW_NAMES.index(ch)
            cells = [r * SIZE + c for c in range(SIZE)]
        elif ch in _zones["columns"]:
            c = COLUMN_NAMES.index(ch)
            cells = [r * SIZE + c for r in range(SIZE)]
        else:
            band = next(i for i, s in enumerate(_zones["nonants_top_to_bottom"]) if ch in s)
            col = _zones["nonants_top_to_bottom"][band].index(ch)
            cells = [(3 * band + dr) * SIZE + 3 * col + dc for dr in range(3) for dc in range(3)]
        table[zi] = sorted(cells)
    return table


ZONE_CELLS = _zone_cells()
ZONE_MASK = np.zeros((len(ZONE_LETTERS), CELLS), dtype=np.bool_)
for _zi in range(len(ZONE_LETTERS)):
    ZONE_MASK[_zi, ZONE_CELLS[_zi]] = True

# The real deck (spec §7): card k has tile ONE_DECK_TILE[k] on one side, zone ONE_DECK_ZONE[k] on the other.
_cards = _GAME["one_deck_cards"].split()
ONE_DECK_TILE = np.array([TILE_INDEX[c[0]] for c in _cards], dtype=np.int64)
ONE_DECK_ZONE = np.array([ZONE_INDEX[c[1]] for c in _cards], dtype=np.int64)
DECK_SIZE: int = len(_cards)

# Breakdown order everywhere (TinyBot's field order): penalties first, total last.
CATEGORIES: tuple[str, ...] = (
    "penalties", "forests", "houses", "sand", "waves", "mountains", "churches", "boats", "total")

RULE_SETS: tuple[str, ...] = ("published", "tinybot")  # index = wave_rule passed to the engine
DECK_MODELS: tuple[str, ...] = ("two-deck", "one-deck")


def cell_name(z: int) -> str:
    """``0 -> 'a9'``: column letter then row digit."""
    return COLUMN_NAMES[z % SIZE] + ROW_NAMES[z // SIZE]


def parse_cell(text: str) -> int:
    """``'a9' -> 0``; raises ValueError on anything else."""
    if len(text) != 2 or text[0] not in COLUMN_NAMES or text[1] not in ROW_NAMES:
        raise ValueError(f"not a cell: {text!r}")
    return ROW_NAMES.index(text[1]) * SIZE + COLUMN_NAMES.index(text[0])


assert int(TILE_COUNT.sum()) == DECK_SIZE == len(ZONE_LETTERS) * ZONE_COPIES
