"""Tiny Islands rules, jitted: placement legality, shorelines, land and scoring.

Every rule of the game lives in this file (the facts are in ``game.json``); the
spec is ``shared/specs/tiny-islands-tinybot-format.md`` and the seed's rules text.

State is two flat arrays over the 81 cells (see ``metadata`` for the index):
``tiles`` (int64, 0 = empty, else a tile channel 1-7) and ``land`` (bool).

>>> import numpy as np
>>> tiles = np.zeros(81, np.int64); land = np.zeros(81, np.bool_)
>>> code, region, indirect = drawing_region(land, np.array([40], np.int64), 1)
>>> code == OK, int(region.sum()), indirect
(True, 1, False)
"""
from __future__ import annotations

import numpy as np
from scorebook.engines.jit import njit

from .metadata import (BOAT, CELLS, CHURCH, DRAWING_AFTER_TURN, FOREST, HOUSE, INVALID_PENALTY,
                       MAX_SHORELINE, MOUNTAIN, SAND, SIZE, TILE_COUNT, TILE_IS_LAND, WAVE, ZONE_CELLS,
                       ZONE_COPIES, ZONE_MASK)

# Result codes of the jitted checks; ``CODE_NAMES`` gives the stable public name.
OK = 0
TILE_NOT_OFFERED = 1
PLACEMENT_OUTSIDE_ZONE = 2
CELL_OCCUPIED = 3
TILE_EXHAUSTED = 4
ZONE_EXHAUSTED = 5
DRAWING_REPEATED_CELL = 6
DRAWING_DISCONNECTED = 7
DRAWING_HOLE = 8
DRAWING_PINCHED = 9
DRAWING_TOO_LONG = 10
DRAWING_TOUCHES_SHORELINE = 11
NO_LEGAL_PLACEMENT = 12
DRAWING_EMPTY = 13
# the order of a game's actions (a placement a turn, a drawing after the turns of drawings_after_turn)
MISSING_DRAWING = 14
DRAWING_OUT_OF_PLACE = 15
MOVE_AFTER_END = 16

CODE_NAMES = {
    OK: "ok",
    TILE_NOT_OFFERED: "tile-not-offered",
    PLACEMENT_OUTSIDE_ZONE: "placement-outside-zone",
    CELL_OCCUPIED: "cell-occupied",
    TILE_EXHAUSTED: "tile-exhausted",
    ZONE_EXHAUSTED: "zone-exhausted",
    DRAWING_REPEATED_CELL: "drawing-repeated-cell",
    DRAWING_DISCONNECTED: "drawing-disconnected",
    DRAWING_HOLE: "drawing-hole",
    DRAWING_PINCHED: "drawing-pinched",
    DRAWING_TOO_LONG: "drawing-too-long",
    DRAWING_TOUCHES_SHORELINE: "drawing-touches-shoreline",
    NO_LEGAL_PLACEMENT: "no-legal-placement",
    DRAWING_EMPTY: "drawing-empty",
    MISSING_DRAWING: "missing-drawing",
    DRAWING_OUT_OF_PLACE: "drawing-out-of-place",
    MOVE_AFTER_END: "move-after-end",
}
CODE_MESSAGES = {
    TILE_NOT_OFFERED: "the placed tile is not one of the two offered tiles",
    PLACEMENT_OUTSIDE_ZONE: "the cell is outside the zone offered with that tile",
    CELL_OCCUPIED: "the cell already holds a tile",
    TILE_EXHAUSTED: "the offer draws more tiles of one kind than the deck holds",
    ZONE_EXHAUSTED: "the offer draws a zone card a third time (the deck has two of each)",
    DRAWING_REPEATED_CELL: "the drawing lists a cell twice",
    DRAWING_DISCONNECTED: "the enclosed cells are not one orthogonally connected region",
    DRAWING_HOLE: "the enclosed region has a hole (a shoreline must be one closed loop)",
    DRAWING_PINCHED: "the shoreline touches itself at a corner (pinched region)",
    DRAWING_TOO_LONG: "the shoreline is longer than 24 edges",
    DRAWING_TOUCHES_SHORELINE: "the shoreline shares a point with an earlier shoreline",
    NO_LEGAL_PLACEMENT: "neither offered zone has an empty cell: the game is stuck",
    DRAWING_EMPTY: "the drawing encloses no cell",
    MISSING_DRAWING: "a shoreline drawing is due before the next placement",
    DRAWING_OUT_OF_PLACE: "no shoreline drawing is due here",
    MOVE_AFTER_END: "the game is over",
}

# Action kinds a replay error can point at.
AT_OFFER, AT_PLACEMENT, AT_DRAWING = 0, 1, 2

# Rule-set index for the Wave rule: 0 = the published rules, 1 = TinyBot's counters (spec §6).
WAVES_PUBLISHED, WAVES_TINYBOT = 0, 1

BREAKDOWN_LEN = 9  # penalties, forests, houses, sand, waves, mountains, churches, boats, total


def _neighbour_table(steps):
    """cell -> the cells one of ``steps`` away, -1 off the board."""
    table = np.full((CELLS, len(steps)), -1, np.int64)
    for z in range(CELLS):
        r, c = divmod(z, SIZE)
        for i, (dr, dc) in enumerate(steps):
            if 0 <= r + dr < SIZE and 0 <= c + dc < SIZE:
                table[z, i] = (r + dr) * SIZE + c + dc
    return table


SIDES = _neighbour_table([(-1, 0), (1, 0), (0, -1), (0, 1)])  # orthogonal neighbours
AROUND = _neighbour_table([(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc])  # "near": all 8
DIAGONALS = _neighbour_table([(-1, -1), (-1, 1), (1, -1), (1, 1)])
RING = _neighbour_table([(0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1), (1, 0), (1, 1)])  # around, in turn



@njit(cache=True)
def _inside(r, c):
    return 0 <= r < SIZE and 0 <= c < SIZE


@njit(cache=True)
def flood(cells, want, mark, value, stack, top, steps):
    """The one flood fill: grow the cells on ``stack[:top]`` (already marked ``value``) through
    the unmarked cells (``mark == 0``) where ``cells`` holds ``want`` (land, a Forest, not
    blocked...), by the moves of a neighbour table (``SIDES``: 4-connected, ``AROUND``:
    8-connected), marking them ``value``. Returns the number of cells marked, the seeds included."""
    count = top
    while top > 0:
        top -= 1
        z = stack[top]
        for i in range(steps.shape[1]):
            n = steps[z, i]
            if n >= 0 and cells[n] == want and mark[n] == 0:
                mark[n] = value
                stack[top] = n
                top += 1
                count += 1
    return count


@njit(cache=True)
def land_components(land):
    """Label 4-connected land components: labels[z] = component id, -1 for water."""
    mark = np.zeros(CELLS, np.int64)
    stack = np.empty(CELLS, np.int64)
    n = np.int64(0)
    for start in range(CELLS):
        if land[start] and mark[start] == 0:
            n += 1
            mark[start] = n
            stack[0] = start
            flood(land, np.bool_(True), mark, n, stack, np.int64(1), SIDES)
    return mark - 1, n


@njit(cache=True)
def _fill_from_border(blocked, diagonal):
    """(mark, count): the cells reachable from the board border without entering ``blocked``
    (marked 1), by 4-steps, or 8-steps when ``diagonal`` (a pocket that escapes only through a
    corner is a pinch, not a hole)."""
    mark = np.zeros(CELLS, np.int64)
    stack = np.empty(CELLS, np.int64)
    top = np.int64(0)
    for z in range(CELLS):
        r, c = divmod(z, SIZE)
        if (r == 0 or c == 0 or r == SIZE - 1 or c == SIZE - 1) and not blocked[z]:
            mark[z] = 1
            stack[top] = z
            top += 1
    count = flood(blocked, np.bool_(False), mark, np.int64(1), stack, top, AROUND if diagonal else SIDES)
    return mark, count


@njit(cache=True)
def boundary_vertices(mask):
    """Lattice vertices (10 x 10) on the boundary of ``mask``; off-board cells count as outside."""
    out = np.zeros((SIZE + 1) * (SIZE + 1), np.bool_)
    for vr in range(SIZE + 1):
        for vc in range(SIZE + 1):
            n = 0
            for dr in (-1, 0):
                for dc in (-1, 0):
                    r, c = vr + dr, vc + dc
                    if _inside(r, c) and mask[r * SIZE + c]:
                        n += 1
            out[vr * (SIZE + 1) + vc] = 0 < n < 4
    return out


@njit(cache=True)
def shoreline_length(region):
    """Edges of the region's boundary, board-edge sides included."""
    ink = 0
    for z in range(CELLS):
        if region[z]:
            r, c = divmod(z, SIZE)
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                rr, cc = r + dr, c + dc
                if not _inside(rr, cc) or not region[rr * SIZE + cc]:
                    ink += 1
    return ink


@njit(cache=True)
def _connected_without_hole(region, first, n):
    """OK, DRAWING_DISCONNECTED or DRAWING_HOLE for a region of n cells, ``first`` among them."""
    mark = np.zeros(CELLS, np.int64)
    stack = np.empty(CELLS, np.int64)
    mark[first] = 1
    stack[0] = first
    if flood(region, np.bool_(True), mark, np.int64(1), stack, np.int64(1), SIDES) != n:
        return DRAWING_DISCONNECTED
    # no hole: every outside cell reaches the border through outside cells
    if _fill_from_border(region, True)[1] != CELLS - n:
        return DRAWING_HOLE
    return OK


@njit(cache=True)
def _pinch(a, b, c, d):
    """A vertex whose four cells (a b over c d) hold the region on exactly two diagonal ones."""
    return (a and d and not b and not c) or (b and c and not a and not d)


@njit(cache=True)
def toggle_keeps_legal(region, z, old_shore, ink, n):
    """After cell ``z`` of a legal drawing was toggled (in ``region`` already): is the drawing
    still legal? ``old_shore`` = boundary_vertices(land), ``ink`` and ``n`` the shoreline length
    and cell count before the toggle. The same answer as ``check_region(...) == OK``, faster:
    only the four corners of z can gain a shared point or a pinch, and the ink changes by
    the sides z shares with the region, so the flood fills run only when those pass."""
    r, c = divmod(z, SIZE)
    k = 0
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        rr, cc = r + dr, c + dc
        if _inside(rr, cc) and region[rr * SIZE + cc]:
            k += 1
    if region[z]:  # added
        n += 1
        ink += 4 - 2 * k
    else:
        n -= 1
        ink += 2 * k - 4
    if n == 0 or ink > MAX_SHORELINE:
        return False
    side = SIZE + 1
    for vr in range(r, r + 2):
        for vc in range(c, c + 2):
            a = vr > 0 and vc > 0 and region[(vr - 1) * SIZE + vc - 1]
            b = vr > 0 and vc < SIZE and region[(vr - 1) * SIZE + vc]
            c_ = vr < SIZE and vc > 0 and region[vr * SIZE + vc - 1]
            d = vr < SIZE and vc < SIZE and region[vr * SIZE + vc]
            around = a + b + c_ + d
            if 0 < around < 4 and old_shore[vr * side + vc]:
                return False
            if _pinch(a, b, c_, d):
                return False
    # The region was one piece without hole; it stays so exactly when z is a simple point:
    # its neighbours in the region form one arc around it (digital topology, 4-connected
    # region, 8-connected outside), so no flood fill is needed.
    return _connectivity_number(region, z) == 1


@njit(cache=True)
def _connectivity_number(region, z):
    """Yokoi's number for 4-connectivity: sum over the sides k of x_k - x_k x_k+1 x_k+2, the
    8 neighbours (off the board: outside) taken in turn around z from its east side."""
    x = np.zeros(9, np.bool_)
    for i in range(8):
        n = RING[z, i]
        x[i] = n >= 0 and region[n]
    x[8] = x[0]
    number = 0
    for k in range(0, 8, 2):
        number += x[k] and not (x[k + 1] and x[k + 2])
    return number


@njit(cache=True)
def check_region(land, region):
    """Is ``region`` a legal drawing on ``land``? Returns OK or the first failing code.

    Order of checks: empty, connected, no hole, no pinch, length <= 24, no shared point.
    """
    n = np.int64(0)
    first = np.int64(-1)
    for z in range(CELLS):
        if region[z]:
            n += 1
            if first < 0:
                first = z
    if n == 0:
        return DRAWING_EMPTY
    shape = _connected_without_hole(region, first, n)
    if shape != OK:
        return shape
    # no pinch: no vertex with the region on exactly two diagonally opposite cells
    for vr in range(1, SIZE):
        for vc in range(1, SIZE):
            a = region[(vr - 1) * SIZE + vc - 1]
            b = region[(vr - 1) * SIZE + vc]
            c_ = region[vr * SIZE + vc - 1]
            d = region[vr * SIZE + vc]
            if _pinch(a, b, c_, d):
                return DRAWING_PINCHED
    if shoreline_length(region) > MAX_SHORELINE:
        return DRAWING_TOO_LONG
    # the earlier shorelines are exactly the boundary of the current land
    new_v = boundary_vertices(region)
    old_v = boundary_vertices(land)
    for v in range(new_v.shape[0]):
        if new_v[v] and old_v[v]:
            return DRAWING_TOUCHES_SHORELINE
    return OK


@njit(cache=True)
def _surround_region(land, start):
    """The starting region of an indirect drawing from water cell ``start`` (spec §5.2)."""
    labels, ncomp = land_components(land)
    in_s = np.zeros(max(ncomp, 1), np.bool_)
    r0, c0 = divmod(start, SIZE)
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            rr, cc = r0 + dr, c0 + dc
            if _inside(rr, cc) and labels[rr * SIZE + cc] >= 0:
                in_s[labels[rr * SIZE + cc]] = True
    while True:
        ring = np.zeros(CELLS, np.bool_)
        for z in range(CELLS):
            if labels[z] >= 0 and in_s[labels[z]]:
                r, c = divmod(z, SIZE)
                for dr in (-1, 0, 1):
                    for dc in (-1, 0, 1):
                        rr, cc = r + dr, c + dc
                        if _inside(rr, cc):
                            ring[rr * SIZE + cc] = True
        region = _fill_from_border(ring, False)[0] == 0
        added = False
        for z in range(CELLS):
            if region[z]:
                r, c = divmod(z, SIZE)
                for dr in (-1, 0, 1):
                    for dc in (-1, 0, 1):
                        rr, cc = r + dr, c + dc
                        if _inside(rr, cc):
                            lab = labels[rr * SIZE + cc]
                            if lab >= 0 and not in_s[lab]:
                                in_s[lab] = True
                                added = True
        if not added:
            return region


@njit(cache=True)
def is_indirect_start(land, start):
    """A water cell with land among its 8 neighbours starts a surrounding drawing."""
    if land[start]:
        return False
    r, c = divmod(start, SIZE)
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            rr, cc = r + dr, c + dc
            if (dr != 0 or dc != 0) and _inside(rr, cc) and land[rr * SIZE + cc]:
                return True
    return False


@njit(cache=True)
def drawing_region(land, trace, n):
    """Region enclosed by a drawing traced as cells ``trace[:n]``; returns (code, region, indirect).

    Direct drawing: the region is the listed cells. Indirect: the first cell is water next
    to land; the region is the surrounded islands with their ring, then the later cells.
    """
    region = np.zeros(CELLS, np.bool_)
    if n == 0:
        return DRAWING_EMPTY, region, False
    indirect = is_indirect_start(land, trace[0])
    if indirect:
        region = _surround_region(land, trace[0])
        begin = 1
    else:
        begin = 0
    for i in range(begin, n):
        z = trace[i]
        if region[z]:
            return DRAWING_REPEATED_CELL, region, indirect
        region[z] = True
    return check_region(land, region), region, indirect


@njit(cache=True)
def listed_region(land, cells, n):
    """Region written out cell by cell (Scorebook notation); returns (code, region)."""
    region = np.zeros(CELLS, np.bool_)
    for i in range(n):
        if region[cells[i]]:
            return DRAWING_REPEATED_CELL, region
        region[cells[i]] = True
    return check_region(land, region), region


@njit(cache=True)
def drawing_due(turns_done):
    """Is a shoreline drawn after this many turns (game.json's drawings_after_turn)?"""
    for d in DRAWING_AFTER_TURN:
        if d == turns_done:
            return True
    return False


MAX_PLACEMENTS = 2 * ZONE_CELLS.shape[1]  # an offer's two zones, nine cells each


@njit(cache=True)
def placements_into(tiles, offer, out):
    """The one placement generator (replay, bots and analysis all read it): every (tile, cell)
    an offer allows on this board, written to ``out`` (int64[MAX_PLACEMENTS, 2]): the empty
    cells of the first pair's zone in cell order, then the second's (a cell both pairs reach
    with the same tile appears twice). Returns how many; 0 when the turn is stuck."""
    n = 0
    for k in range(2):
        zone = offer[2 * k + 1]
        for i in range(ZONE_CELLS.shape[1]):
            z = ZONE_CELLS[zone, i]
            if tiles[z] == 0:
                out[n, 0] = offer[2 * k]
                out[n, 1] = z
                n += 1
    return n


@njit(cache=True)
def legal_placements(tiles, offer):
    """``placements_into`` in a new array: int64[k, 2]."""
    out = np.empty((MAX_PLACEMENTS, 2), np.int64)
    return out[:placements_into(tiles, offer, out)]


@njit(cache=True)
def offer_code(offer, tile_drawn, zone_drawn):
    """Take an offer's two (tile, zone) cards from the deck's counts: OK, or the tile or the
    zone that has run out (a deck holds TILE_COUNT of each tile and ZONE_COPIES of each zone)."""
    for k in range(2):
        tile_drawn[offer[2 * k]] += 1
        zone_drawn[offer[2 * k + 1]] += 1
        if tile_drawn[offer[2 * k]] > TILE_COUNT[offer[2 * k]]:
            return TILE_EXHAUSTED
        if zone_drawn[offer[2 * k + 1]] > ZONE_COPIES:
            return ZONE_EXHAUSTED
    return OK


@njit(cache=True)
def offer_counts(offers, n_turns):
    """The deck's counts (tiles, zones) once the first ``n_turns`` offers are taken."""
    tile_drawn = np.zeros(8, np.int64)
    zone_drawn = np.zeros(ZONE_MASK.shape[0], np.int64)
    for t in range(n_turns):
        for k in range(2):
            tile_drawn[offers[t, 2 * k]] += 1
            zone_drawn[offers[t, 2 * k + 1]] += 1
    return tile_drawn, zone_drawn


@njit(cache=True)
def placement_code(tiles, offer, tile, cell):
    """OK if ``tile`` on ``cell`` matches one offered (tile, zone) pair; else why not.

    ``offer`` is (tile1, zone1, tile2, zone2).
    """
    fits_tile = False
    for k in range(2):
        if offer[2 * k] == tile:
            fits_tile = True
            if ZONE_MASK[offer[2 * k + 1], cell]:
                if tiles[cell] != 0:
                    return CELL_OCCUPIED
                return OK
    if not fits_tile:
        return TILE_NOT_OFFERED
    return PLACEMENT_OUTSIDE_ZONE


@njit(cache=True)
def _wave_scores_published(wave):
    """2 per valid Wave with no other valid Wave near it or in its row or column."""
    total = 0
    for z in range(CELLS):
        if not wave[z]:
            continue
        r, c = divmod(z, SIZE)
        alone = True
        for z2 in range(CELLS):
            if z2 != z and wave[z2]:
                r2, c2 = divmod(z2, SIZE)
                if r2 == r or c2 == c or (abs(r2 - r) <= 1 and abs(c2 - c) <= 1):
                    alone = False
                    break
        if alone:
            total += 2
    return total


@njit(cache=True)
def _wave_scores_tinybot(wave):
    """TinyBot's row/column counters (spec §6), quirk included.

    Counters 0-8 are rows, 9-17 columns, so "the row below the bottom row" is column a.
    """
    counter = np.zeros(2 * SIZE, np.int64)
    for z in range(CELLS):
        if not wave[z]:
            continue
        r, c = divmod(z, SIZE)
        counter[r] += 1
        counter[SIZE + c] += 1
        if r > 0:
            if c > 0 and wave[(r - 1) * SIZE + c - 1]:
                counter[r - 1] += 1
                counter[r] += 1
                counter[SIZE + c - 1] += 1
                counter[SIZE + c] += 1
            elif c < SIZE - 1 and wave[(r - 1) * SIZE + c + 1]:
                counter[r] += 1
                counter[SIZE + c] += 1
                counter[SIZE + c + 1] += 1
                counter[r + 1] += 1
    total = 0
    for z in range(CELLS):
        if wave[z]:
            r, c = divmod(z, SIZE)
            if counter[r] == 1 and counter[SIZE + c] == 1:
                total += 2
    return total


@njit(cache=True)
def score_board(tiles, land, wave_rule):
    """Breakdown of a final board: [penalties, forests, houses, sand, waves, mountains,
    churches, boats, total]; invalid tiles cost 5 and are otherwise absent (spec §6).

    The bots score boards by the million: one pass per rule, neighbours from tables, and land
    components flooded only from valid Churches (the one rule that needs them)."""
    out = np.zeros(BREAKDOWN_LEN, np.int64)
    valid = np.zeros(CELLS, np.int64)
    churches = 0
    for z in range(CELLS):
        t = tiles[z]
        if t != 0:
            if TILE_IS_LAND[t] == land[z]:
                valid[z] = t
                churches += t == CHURCH
            else:
                out[0] += INVALID_PENALTY
    # Forests: 2 each, minus 2 per orthogonal group (flooded once each).
    stack = np.empty(CELLS, np.int64)
    grouped = np.zeros(CELLS, np.int64)
    forests = 0
    for z in range(CELLS):
        if valid[z] == FOREST:
            forests += 2
            if grouped[z] == 0:
                forests -= 2
                grouped[z] = 1
                stack[0] = z
                flood(valid, np.int64(FOREST), grouped, np.int64(1), stack, np.int64(1), SIDES)
    out[1] = forests
    # Churches: 0 when the landmass holds another valid Church, else 2 per House near it
    # plus 1 per other House on the landmass (near + all Houses of the landmass).
    if churches > 0:
        comp_houses = np.zeros(churches + 1, np.int64)
        comp_churches = np.zeros(churches + 1, np.int64)
        comp = np.zeros(CELLS, np.int64)
        label = np.int64(0)
        for z in range(CELLS):
            if valid[z] == CHURCH and comp[z] == 0:
                label += 1
                comp[z] = label
                stack[0] = z
                flood(land, np.bool_(True), comp, label, stack, np.int64(1), SIDES)
        for z in range(CELLS):
            if comp[z] > 0:
                if valid[z] == HOUSE:
                    comp_houses[comp[z]] += 1
                elif valid[z] == CHURCH:
                    comp_churches[comp[z]] += 1
        for z in range(CELLS):
            if valid[z] == CHURCH and comp_churches[comp[z]] == 1:
                near = 0
                for i in range(8):
                    n = AROUND[z, i]
                    if n >= 0 and valid[n] == HOUSE:
                        near += 1
                out[6] += near + comp_houses[comp[z]]
    row_waves = np.zeros(SIZE, np.int64)
    col_waves = np.zeros(SIZE, np.int64)
    for z in range(CELLS):
        t = valid[z]
        if t == 0:
            continue
        if t == HOUSE:  # 1 per kind of valid non-House tile near it
            kinds = 0  # bit k: a valid tile of kind k is near
            for i in range(8):
                n = AROUND[z, i]
                if n >= 0:
                    kinds |= 1 << valid[n]
            kinds &= ~((1 << HOUSE) | 1)
            while kinds:
                kinds &= kinds - 1
                out[2] += 1
        elif t == SAND:  # 1 per side on land
            for i in range(4):
                n = SIDES[z, i]
                if n >= 0 and land[n]:
                    out[3] += 1
        elif t == WAVE:
            r, c = divmod(z, SIZE)
            row_waves[r] += 1
            col_waves[c] += 1
        elif t == MOUNTAIN:  # 2 per valid Forest near it
            for i in range(8):
                n = AROUND[z, i]
                if n >= 0 and valid[n] == FOREST:
                    out[5] += 2
        elif t == BOAT:  # steps to the nearest land or other Boat (invalid Boats too)
            r, c = divmod(z, SIZE)
            best = 1 << 30
            for y in range(CELLS):
                if y != z and (land[y] or tiles[y] == BOAT):
                    ry, cy = divmod(y, SIZE)
                    d = abs(ry - r) + abs(cy - c)
                    if d < best:
                        best = d
            if best < (1 << 30):
                out[7] += best
    if wave_rule == WAVES_TINYBOT:
        wave = np.zeros(CELLS, np.bool_)
        for z in range(CELLS):
            wave[z] = valid[z] == WAVE
        out[4] = _wave_scores_tinybot(wave)
    else:  # 2 per valid Wave alone in its row and column with no Wave diagonally next to it
        for z in range(CELLS):
            if valid[z] == WAVE:
                r, c = divmod(z, SIZE)
                if row_waves[r] == 1 and col_waves[c] == 1:
                    alone = True
                    for i in range(4):
                        n = DIAGONALS[z, i]
                        if n >= 0 and valid[n] == WAVE:
                            alone = False
                    if alone:
                        out[4] += 2
    out[8] = out[1] + out[2] + out[3] + out[4] + out[5] + out[6] + out[7] - out[0]
    return out


@njit(cache=True)
def values_in_range(offers, placements, traces, n_zones):
    """Tiles 1-7, zones below ``n_zones``, cells 0-80: the jitted code below indexes with them unchecked."""
    for t in range(offers.shape[0]):
        if not (1 <= offers[t, 0] <= 7 and 1 <= offers[t, 2] <= 7
                and 0 <= offers[t, 1] < n_zones and 0 <= offers[t, 3] < n_zones):
            return False
    for t in range(placements.shape[0]):
        if not (1 <= placements[t, 0] <= 7 and 0 <= placements[t, 1] < CELLS):
            return False
    for d in range(traces.shape[0]):
        for i in range(traces.shape[1]):
            if not 0 <= traces[d, i] < CELLS:
                return False
    return True


@njit(cache=True)
def replay(offers, placements, traces, trace_lens, as_region, n_turns, wave_rule):
    """Replay a record: ``offers[t] = (tile1, zone1, tile2, zone2)``, ``placements[t] =
    (tile, cell)`` for turns ``t < n_turns``; drawing ``d`` is ``traces[d, :trace_lens[d]]``,
    made after the turns of ``drawings_after_turn`` (game.json) when reached; ``as_region[d]`` says the cells are the
    enclosed region itself rather than TinyBot's trace (which may start a surrounding drawing).

    Returns (code, action, at, tiles, land, regions, indirect, breakdown): ``action`` is the
    0-based index of the failing action (placements and drawings in order) and ``at`` says
    whether the offer, the placement or the drawing failed.
    """
    tiles = np.zeros(CELLS, np.int64)
    land = np.zeros(CELLS, np.bool_)
    regions = np.zeros((3, CELLS), np.bool_)
    indirect = np.zeros(3, np.bool_)
    tile_drawn = np.zeros(8, np.int64)
    zone_drawn = np.zeros(ZONE_MASK.shape[0], np.int64)
    action = 0
    drawing = 0
    options = np.empty((MAX_PLACEMENTS, 2), np.int64)
    for t in range(n_turns):
        offer = offers[t]
        code = offer_code(offer, tile_drawn, zone_drawn)
        if code != OK:
            return code, action, AT_OFFER, tiles, land, regions, indirect, np.zeros(BREAKDOWN_LEN, np.int64)
        if placements_into(tiles, offer, options) == 0:
            return NO_LEGAL_PLACEMENT, action, AT_OFFER, tiles, land, regions, indirect, np.zeros(BREAKDOWN_LEN, np.int64)
        code = placement_code(tiles, offer, placements[t, 0], placements[t, 1])
        if code != OK:
            return code, action, AT_PLACEMENT, tiles, land, regions, indirect, np.zeros(BREAKDOWN_LEN, np.int64)
        tiles[placements[t, 1]] = placements[t, 0]
        action += 1
        if drawing_due(t + 1) and drawing < trace_lens.shape[0] and trace_lens[drawing] > 0:
            if as_region[drawing]:
                code, region = listed_region(land, traces[drawing], trace_lens[drawing])
                ind = False
            else:
                code, region, ind = drawing_region(land, traces[drawing], trace_lens[drawing])
            if code != OK:
                return code, action, AT_DRAWING, tiles, land, regions, indirect, np.zeros(BREAKDOWN_LEN, np.int64)
            regions[drawing] = region
            indirect[drawing] = ind
            land ^= region
            drawing += 1
            action += 1
    return OK, action, AT_PLACEMENT, tiles, land, regions, indirect, score_board(tiles, land, wave_rule)
