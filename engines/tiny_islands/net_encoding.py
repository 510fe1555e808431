"""TinyBot's network's inputs and outputs, jitted (``shared/specs/tinybot-net.md``).

The encoder turns a Scorebook state into the net's ``input_local`` (21 planes of 9 x 9, flat:
``plane * 81 + cell``) and ``input_global`` (11 numbers); the decoder reads ``output_policy``
(649 logits: ``tile * 81 + cell`` places a tile, ``cell`` draws a cell, 648 passes) over the
legal moves only. Scorebook's cell index is TinyBot's, so no board mapping is needed.

Placement inputs are taken right after the offer is revealed (both offered tiles and zones are
out of the deck's counts already); drawing inputs show the region flipped as it is drawn.

>>> import numpy as np
>>> local = np.zeros(LOCAL, np.float32); glob = np.zeros(GLOBAL, np.float32)
>>> tiles = np.zeros(81, np.int64); land_id = np.zeros(81, np.int64)
>>> tile_drawn = np.zeros(8, np.int64); zone_drawn = np.zeros(27, np.int64)
>>> offer = np.array([1, 0, 2, 9])          # (Forest, row 1), (House, column a)
>>> take_offer(offer, tile_drawn, zone_drawn)
>>> encode_placement(tiles, land_id, offer, tile_drawn, zone_drawn, 0, 0, local, glob)
>>> float(local[9 * 81 + 72]), float(local[10 * 81 + 0]), float(glob[8]), float(glob[9])
(1.0, 1.0, 1.0, 1.0)
"""
from __future__ import annotations

import numpy as np
from scorebook.engines.jit import njit

from .drawing_interface import INK
from .metadata import CELLS, DRAWING_AFTER_TURN, TILE_COUNT, TURNS, WAVE, ZONE_COPIES, ZONE_MASK, SIZE

PLANES = 21
LOCAL = PLANES * CELLS
GLOBAL = 11
POLICY = 649
INPUT_NAMES = ("input_local", "input_global")
OUTPUT_NAMES = ("output_policy", "output_value", "output_land")
# the shapes the net declares (batch dimension first)
INPUT_SHAPES = ((PLANES, SIZE, SIZE), (GLOBAL,))
OUTPUT_SHAPES = ((POLICY,), (8,), (1, SIZE, SIZE))

# plane numbers
P_LAND, P_DRAWING, P_OFFER, P_ROW_ZONE, P_COLUMN_ZONE, P_NONANT, P_WAVE_COLUMN, P_WAVE_ROW = 0, 8, 8, 16, 17, 18, 19, 20
# global numbers
G_INK, G_TURNS_LEFT, G_UNTIL_DRAWING, G_DRAWINGS = 0, 8, 9, 10
N_ZONES = ZONE_MASK.shape[0]


def _cell_zones() -> np.ndarray:
    """cell -> its row zone, column zone and nonant (indexes into the zone letters, which
    list the nine rows, then the nine columns, then the nine nonants)."""
    out = np.zeros((CELLS, 3), np.int64)
    for z in range(CELLS):
        for group in range(3):
            out[z, group] = next(k for k in range(9 * group, 9 * group + 9) if ZONE_MASK[k, z])
    return out


CELL_ZONES = _cell_zones()
_DRAWINGS = np.array(DRAWING_AFTER_TURN, np.int64)


@njit(cache=True)
def take_offer(offer, tile_drawn, zone_drawn):
    """Count the offer's two tiles and two zones out of the deck."""
    tile_drawn[offer[0]] += 1
    tile_drawn[offer[2]] += 1
    zone_drawn[offer[1]] += 1
    zone_drawn[offer[3]] += 1


@njit(cache=True)
def _until_drawing(turn):
    """Placements left before the next drawing."""
    for d in _DRAWINGS:
        if turn < d:
            return d - turn
    return 0


@njit(cache=True)
def _board_planes(tiles, land_id, region, tile_drawn, zone_drawn, turn, drawings_done, local, glob):
    """What placements and drawings share: land (the region flipped), tiles, zone counts,
    Waves by row and column, the deck's tiles, the turns."""
    local[:] = 0.0
    waves_in_column = np.zeros(SIZE, np.int64)
    waves_in_row = np.zeros(SIZE, np.int64)
    for z in range(CELLS):
        if (land_id[z] > 0) != region[z]:
            local[P_LAND * CELLS + z] = 1.0
        t = tiles[z]
        if t != 0:
            local[t * CELLS + z] = 1.0
            if t == WAVE:
                waves_in_column[z % SIZE] += 1
                waves_in_row[z // SIZE] += 1
        for group in range(3):
            k = CELL_ZONES[z, group]
            local[(P_ROW_ZONE + group) * CELLS + z] = (ZONE_COPIES - zone_drawn[k]) / 2.0
    for z in range(CELLS):
        local[P_WAVE_COLUMN * CELLS + z] = min(waves_in_column[z % SIZE], 2) / 2.0
        local[P_WAVE_ROW * CELLS + z] = min(waves_in_row[z // SIZE], 2) / 2.0
    glob[:] = 0.0
    for t in range(1, 8):
        glob[t] = (TILE_COUNT[t] - tile_drawn[t]) / TILE_COUNT[t]
    glob[G_TURNS_LEFT] = (TURNS - turn) / TURNS
    glob[G_DRAWINGS] = drawings_done / 2.0


@njit(cache=True)
def encode_placement(tiles, land_id, offer, tile_drawn, zone_drawn, turn, drawings_done, local, glob):
    """The inputs of a placement decision (``take_offer`` already counted the offer)."""
    _board_planes(tiles, land_id, np.zeros(CELLS, np.bool_), tile_drawn, zone_drawn, turn, drawings_done,
                  local, glob)
    for k in range(2):
        t = offer[2 * k]
        zone = offer[2 * k + 1]
        for z in range(CELLS):
            if ZONE_MASK[zone, z] and tiles[z] == 0:
                local[(P_OFFER + t) * CELLS + z] = 1.0
    glob[G_UNTIL_DRAWING] = _until_drawing(turn) / 9.0


@njit(cache=True)
def encode_drawing(tiles, land_id, region, prio, meta, tile_drawn, zone_drawn, turn, drawings_done, local, glob):
    """The inputs of a drawing step: the drawing plane and the ink."""
    _board_planes(tiles, land_id, region, tile_drawn, zone_drawn, turn, drawings_done, local, glob)
    for z in range(CELLS):
        local[P_DRAWING * CELLS + z] = prio[z]
    glob[G_INK] = meta[INK] / 24.0
    glob[G_UNTIL_DRAWING] = 0.0


@njit(cache=True)
def placement_move(tile, cell):
    return tile * CELLS + cell


@njit(cache=True)
def best_of(logits, moves, n):
    """The move with the largest logit among ``moves[:n]`` (the first of equals)."""
    best = moves[0]
    value = logits[moves[0]]
    for i in range(1, n):
        if logits[moves[i]] > value:
            value = logits[moves[i]]
            best = moves[i]
    return best


@njit(cache=True)
def ranked(logits, moves, n, out):
    """``moves[:n]`` by logit, largest first, into ``out``; returns n."""
    order = np.argsort(-logits[moves[:n]], kind="mergesort")
    for i in range(n):
        out[i] = moves[order[i]]
    return n

