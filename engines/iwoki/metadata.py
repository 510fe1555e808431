"""Iwoki facts from ``game.json`` and the layout of the flat state vector the engine uses.

Tiles are ints: small tile ``st{i+1}`` is i (0-47), hex tile ``ht{i+1}`` is i (0-19). Hex
gaps ``H{i+1}`` are i (0-54); small gaps are indexes into SMALL_GAP_NAMES. A value on the
board is -1 (nothing yet), 0-6, or WILD (the wildcard ``*``).

>>> SMALL_GAP_INDEX["H1_H4_H5"] == FIRST_SMALL_GAP, SMALL_NUMBERS[22].tolist()
(True, [2, 3, 3])
"""
from __future__ import annotations

import json
from importlib import resources

import numpy as np

_DATA = json.loads(resources.files(__package__).joinpath("game.json").read_text())

GAME_ID: str = _DATA["game"]["id"]
WILD = 9  # the wildcard: out of the range of every number a tile can put down (0-6)
EMPTY = -1
N_SMALL_TILES = len(_DATA["small_tiles"])
N_HEX_TILES = len(_DATA["hex_tiles"])
SMALL_NUMBERS = np.array(_DATA["small_tiles"], np.int64)  # [tile, 3]
SMALL_PENALTY = SMALL_NUMBERS.max(axis=1)
HEX_NUMBERS = np.array([[WILD if v == "*" else v for v in t] for t in _DATA["hex_tiles"]], np.int64)  # [tile, 6]
HEX_GAP_NAMES: list[str] = _DATA["hex_gaps"]
N_HEX_GAPS = len(HEX_GAP_NAMES)
SMALL_GAP_NAMES: list[str] = [g[0] for g in _DATA["small_gaps"]]
N_SMALL_GAPS = len(SMALL_GAP_NAMES)
SMALL_GAP_INDEX = {name: i for i, name in enumerate(SMALL_GAP_NAMES)}
HEX_GAP_INDEX = {name: i for i, name in enumerate(HEX_GAP_NAMES)}
FIRST_SMALL_GAP = SMALL_GAP_INDEX[_DATA["first_small_gap"]]
FIRST_HEX_GAP = HEX_GAP_INDEX[_DATA["first_hex_gap"]]
INITIAL_SMALL = _DATA["initial_small"]
INITIAL_HEX = _DATA["initial_hex"]
TOKENS_FOR_HEX = _DATA["white_tokens_for_hex"]

# slot j of small gap s is vertex SLOT_VERTEX[s, j] = hex * 6 + (v - 1)
SLOT_VERTEX = np.array([[h * 6 + v - 1 for h, v in g[1]] for g in _DATA["small_gaps"]], np.int64)
# vertex -> (small gap, slot), -1 on the board edge
VERTEX_SMALL = np.full(N_HEX_GAPS * 6, -1, np.int64)
VERTEX_SLOT = np.full(N_HEX_GAPS * 6, -1, np.int64)
for _s in range(N_SMALL_GAPS):
    for _j in range(3):
        VERTEX_SMALL[SLOT_VERTEX[_s, _j]] = _s
        VERTEX_SLOT[SLOT_VERTEX[_s, _j]] = _j

RULE_SETS: tuple[str, ...] = tuple(_DATA["game"]["rule_sets"])  # index = state[RULES]


def small_name(t: int) -> str:
    return f"st{t + 1}"


def hex_name(t: int) -> str:
    return f"ht{t + 1}"


# every tile's name as written (ASCII digits, no leading zero): a record's header names 68
_TILES = {**{small_name(t): ("small", t) for t in range(N_SMALL_TILES)},
          **{hex_name(t): ("hex", t) for t in range(N_HEX_TILES)}}


def parse_tile(name) -> tuple[str, int]:
    """'st23' -> ('small', 22); 'ht4' -> ('hex', 3); ValueError for anything else."""
    found = _TILES.get(name) if isinstance(name, str) else None
    if found is None:
        raise ValueError(f"not a tile: {str(name)[:40]!r}")
    return found


# ---- the flat state vector (int64); offsets are plain ints the jitted code closes over
_o = 0


def _field(size: int) -> int:
    global _o
    start = _o
    _o += size
    return start


HEXVAL = _field(N_HEX_GAPS * 6)        # value on each hex vertex
SLOTVAL = _field(N_SMALL_GAPS * 3)     # value on each small-gap slot
OPEN_SMALL = _field(N_SMALL_GAPS)      # open small gaps in opening order ...
N_OPEN_SMALL = _field(1)               # ... and how many
OPEN_HEX = _field(N_HEX_GAPS)
N_OPEN_HEX = _field(1)
HAND_SMALL = _field(2 * N_SMALL_TILES)  # per player, in hand order
N_HAND_SMALL = _field(2)
HAND_HEX = _field(2 * N_HEX_TILES)
N_HAND_HEX = _field(2)
SMALL_PILE = _field(N_SMALL_TILES)     # top first
SMALL_PILE_TOP = _field(1)             # index of the next tile to draw
SMALL_PILE_LEN = _field(1)
HEX_PILE = _field(N_HEX_TILES)
HEX_PILE_TOP = _field(1)
HEX_PILE_LEN = _field(1)
SCORE = _field(2)
WHITE = _field(2)
PASSES = _field(1)                     # passes in a row
DREW = _field(1)                       # the player to move has drawn this turn
FIRST = _field(1)                      # the next move is the first of the game
TO_MOVE = _field(1)
RULES = _field(1)                      # 0 simulator-2021, 1 official
HEX_FROM_PASS = _field(1)              # official rules: a pass in the current run brought a hex tile
STATE_SIZE = _o
