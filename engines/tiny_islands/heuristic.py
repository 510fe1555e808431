"""The Tiny Islands heuristic: each placement by its gain in an "optimistic" score (every
tile valid where the land tiles stand, the land so far kept), plus shape terms (land tiles
near land tiles, water tiles away from them, so that shorelines can separate them later;
after a drawing, tiles on the side of the shore they need), plus room-to-grow terms (a
Mountain, Forest, House or Church with empty cells around it, worth less as the game runs
out), plus, before the first drawing and from turn 3 on, a plan: land tiles inside the first
island the planner would draw, water tiles outside it. To the weights (``weights.py``) every
placement adds the learned policy (a table read at what lies within two cells of the
placement, by tile and by the drawings done) and, where the weights carry it, the window
value (a table read at each 2x2 window the placement touches).
"""
from __future__ import annotations

import numpy as np
from scorebook.engines.jit import njit

from .engine import legal_placements, score_board
from .metadata import BOAT, CELLS, CHURCH, FOREST, HOUSE, MOUNTAIN, SIZE, TILE_IS_LAND, TURNS
from .weights import (N_WEIGHTS, POLICY_CLASSES, POLICY_PHASES, POLICY_RINGS, POLICY_SLOTS, VALUE_AT, VALUE_CLASSES,
                      VALUE_LAND_AT, VALUE_TABLE)

@njit(cache=True)
def _optimistic_land(tiles, land, drawings_left):
    """Land as if the drawings to come enclose every land tile standing on water."""
    out = land.copy()
    if drawings_left > 0:
        for z in range(CELLS):
            t = tiles[z]
            if t != 0:
                out[z] = TILE_IS_LAND[t]
    return out


@njit(cache=True)
def _neighbours(tiles, cell, land):
    """(tiles of the same kind, tiles of the other kind, empty cells) among the 8 around ``cell``."""
    r, c = divmod(cell, SIZE)
    same = other = empty = 0
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr == 0 and dc == 0:
                continue
            rr, cc = r + dr, c + dc
            if 0 <= rr < SIZE and 0 <= cc < SIZE:
                t = tiles[rr * SIZE + cc]
                if t == 0:
                    empty += 1
                elif TILE_IS_LAND[t] == land:
                    same += 1
                else:
                    other += 1
    return same, other, empty


# (row step, column step, ring) of the cells the policy looks at around a placement
POLICY_AROUND = np.array([(dr, dc, 2 if max(abs(dr), abs(dc)) == 2 else (1 if dr and dc else 0))
                          for dr in range(-2, 3) for dc in range(-2, 3) if dr or dc], np.int64)
N_LOOKS = POLICY_AROUND.shape[0] + 1  # and the cell itself


@njit(cache=True)
def _policy_index(tiles, land, tile, cell, drawings_done, k):
    """Where in the policy table the k-th look at placing ``tile`` at ``cell`` falls: k below
    24, what the k-th cell around holds; k = 24, the cell's own side of the shore."""
    head = (drawings_done * 8 + tile) * POLICY_SLOTS
    if k == N_LOOKS - 1:
        return (head + POLICY_RINGS) * POLICY_CLASSES + 1 + land[cell]
    r = cell // SIZE + POLICY_AROUND[k, 0]
    c = cell % SIZE + POLICY_AROUND[k, 1]
    if r < 0 or r >= SIZE or c < 0 or c >= SIZE:
        held = 0
    elif tiles[r * SIZE + c] == 0:
        held = 1 + land[r * SIZE + c]
    else:
        held = 2 + tiles[r * SIZE + c]
    return (head + POLICY_AROUND[k, 2]) * POLICY_CLASSES + held


@njit(cache=True)
def policy_features(tiles, land, tile, cell, drawings_done, out):
    """Add one to ``out`` at each of the policy table's entries that placing ``tile`` at
    ``cell`` reads (the policy's value is their sum)."""
    for k in range(N_LOOKS):
        out[_policy_index(tiles, land, tile, cell, drawings_done, k)] += 1


@njit(cache=True)
def _policy_value(tiles, land, tile, cell, drawings_done, w):
    if w.shape[0] <= N_WEIGHTS:
        return 0.0
    v = 0.0
    for k in range(N_LOOKS):
        v += w[N_WEIGHTS + _policy_index(tiles, land, tile, cell, drawings_done, k)]
    return v


@njit(cache=True)
def _window_class(tiles, land, r, c, cell, tile):
    """What cell (r, c) holds for the window value, with ``tile`` at ``cell``: 0 off the board,
    else 1 + 2 * tile (0: empty) + 1 on land."""
    if r < 0 or r >= SIZE or c < 0 or c >= SIZE:
        return 0
    z = r * SIZE + c
    held = tile if z == cell else tiles[z]
    return 1 + held * 2 + (1 if land[z] else 0)


@njit(cache=True)
def window_entry(tiles, land, r, c, cell, tile):
    """The table entry, within a phase, of the 2x2 window whose top-left cell is (r, c), with
    ``tile`` at ``cell`` (cell -1: the board as it is)."""
    k = 0
    for dr in range(2):
        for dc in range(2):
            k = k * VALUE_CLASSES + _window_class(tiles, land, r + dr, c + dc, cell, tile)
    return k


@njit(cache=True)
def _value_delta(tiles, land, tile, cell, drawings_done, w):
    """What the learned window value gains when ``tile`` goes to the empty ``cell``: the four
    2x2 windows that hold the cell, after less before."""
    if w.shape[0] <= VALUE_AT:
        return 0.0
    base = VALUE_AT + drawings_done * VALUE_TABLE
    r0, c0 = divmod(cell, SIZE)
    v = 0.0
    for r in range(r0 - 1, r0 + 1):
        for c in range(c0 - 1, c0 + 1):
            v -= w[base + window_entry(tiles, land, r, c, cell, np.int64(0))]  # before, then after: the
            v += w[base + window_entry(tiles, land, r, c, cell, tile)]  # sums of the trials, bit for bit
    return v


@njit(cache=True)
def weighted_value(tiles, land, tile, cell, drawings_left, wave_rule, w):
    """The gain in the optimistic score, plus the shape and room-to-grow terms weighted by ``w``,
    plus the policy's value when ``w`` carries the policy table (``WEIGHTS`` does)."""
    return _weighted_value(tiles, land, tile, cell, drawings_left, wave_rule, w,
                           _optimistic_total(tiles, land, drawings_left, wave_rule), np.zeros(CELLS, np.bool_),
                           np.bool_(False))


@njit(cache=True)
def _optimistic_total(tiles, land, drawings_left, wave_rule):
    return score_board(tiles, _optimistic_land(tiles, land, drawings_left), wave_rule)[8]


@njit(cache=True)
def _weighted_value(tiles, land, tile, cell, drawings_left, wave_rule, w, before, plan, planned):
    """``weighted_value`` given the optimistic total before the placement (the same for every
    candidate of a turn: scored once) and, when ``planned``, the next drawing's region planned
    so far (``_first_island_plan``, or a committed plan): land tiles go on the land it leaves
    (``land ^ plan``), water tiles stay off it."""
    tiles[cell] = tile
    after_land = _optimistic_land(tiles, land, drawings_left)
    after = score_board(tiles, after_land, wave_rule)[8]
    tiles[cell] = 0
    v = float(after - before)
    is_land = TILE_IS_LAND[tile]
    same, other, empty = _neighbours(tiles, cell, is_land)
    placed = 0
    for z in range(CELLS):
        placed += tiles[z] != 0
    fade = (TURNS - 1 - placed) / TURNS
    if tile == MOUNTAIN:
        v += w[8] * empty * fade
    elif tile == FOREST:
        v += w[9] * empty * fade
    elif tile == HOUSE:
        v += w[10] * empty * fade
    elif tile == CHURCH:
        v += w[11] * empty * fade
    if drawings_left > 0:
        v += w[0] * same + w[1] * other
        if tile == BOAT:  # boats like the rim, far from everything
            r, c = divmod(cell, SIZE)
            v += w[2] * (min(min(r, SIZE - 1 - r), min(c, SIZE - 1 - c)) == 0)
        if drawings_left < 3:  # land is drawn already: where it stands is surer
            if is_land and land[cell]:
                v += w[3]
            elif not is_land and land[cell]:
                v += w[4]
            elif is_land:
                v += w[5] if drawings_left == 2 else w[6]
    elif is_land != land[cell]:
        v += w[7]
    if planned:
        if plan[cell] != land[cell]:  # the plan is the next drawing's region: land after it is land ^ plan
            v += w[15] if is_land else w[17]
        elif is_land:
            v += w[16]
    phase = min(3 - drawings_left, POLICY_PHASES - 1)
    v += _policy_value(tiles, land, tile, cell, phase, w)
    if planned and w.shape[0] > VALUE_LAND_AT and w[VALUE_LAND_AT] != 0.0:
        return v + _value_delta(tiles, land ^ plan, tile, cell, phase, w)
    return v + _value_delta(tiles, land, tile, cell, phase, w)


@njit(cache=True)
def heuristic_placement(tiles, land, offer, drawings_left, wave_rule, w, plan, planned):
    best = -1e18
    bt, bc = -1, -1
    before = _optimistic_total(tiles, land, drawings_left, wave_rule)
    options = legal_placements(tiles, offer)
    for i in range(options.shape[0]):
        v = _weighted_value(tiles, land, options[i, 0], options[i, 1], drawings_left, wave_rule, w, before, plan,
                            planned)
        if v > best:
            best = v
            bt, bc = options[i, 0], options[i, 1]
    return bt, bc
