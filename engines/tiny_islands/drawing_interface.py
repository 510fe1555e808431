"""TinyBot's one-cell drawing interface for shorelines, jitted (``shared/specs/tinybot-net.md``).

TinyBot's network draws a shoreline one cell at a time and ends it with a pass; it was trained
on exactly one drawing order per region, so a player driving it must offer the same moves:

* every cell has a *priority* under a *draw mode*: before the first cell, mode 0 ranks the
  board's corners first and its centre last; the first cell's place relative to the centre
  picks one of 16 directional modes (an ambiguous one is refined by the next cells). Each
  mode is a ranking of the 81 cells (``PRIORITY``, built here from the ordering rules: cells
  that tie share a rank, a value is (163 - cells ranked strictly before) / 164);
* after a cell of priority p is drawn, every cell above p is forbidden for the rest of the
  drawing, and the others are rated again under the new mode: drawable (its priority, above
  0.5) or not now (``UNAVAILABLE``, 0.25);
* a cell is drawable when an orthogonal neighbour is in the region (the same side of the old
  shore) and its 8 neighbours pass the *coast test*: with the region flipped, the land
  neighbours form one run around it and the water ones another, each with an orthogonal
  neighbour. At 24 edges of ink it needs two region neighbours (the ink may not grow);
* *indirect* starts (priority 1.0) surround an island with its ring in one move (drawing 2,
  and drawing 3 around island 1, island 2 or both).

The state of a drawing: ``land_id`` (0 water, else the drawing that made the cell land),
``region`` (the cells drawn), ``prio`` (the drawing plane the net reads: 0 forbidden, 0.25 not
now, 1.0 an indirect start, else the cell's priority) and ``meta`` (``INK``: the shoreline's
length, 2 before the first cell; ``MODE``; ``DRAWN``: the land id of the region's cells;
``OVERLAP``: the third drawing's islands cannot be surrounded apart; ``DONE``: drawings done).

>>> import numpy as np
>>> land_id = np.zeros(81, np.int64); region = np.zeros(81, np.bool_)
>>> prio = np.zeros(81); meta = np.zeros(META, np.int64)
>>> begin_drawing(land_id, region, prio, meta, 0)
>>> round(prio[0] * 164), round(prio[40] * 164)   # a corner first, the centre last
(163, 83)
>>> draw_cell(land_id, region, prio, meta, 0); int(meta[INK]), int(meta[MODE])
(4, 1)
>>> sorted(int(z) for z in np.flatnonzero(prio > 0.5))   # b9 and a8 grow the island
[1, 9]
"""
from __future__ import annotations

import numpy as np
from scorebook.engines.jit import njit

from .metadata import CELLS, MAX_SHORELINE, SAND, SIZE, WAVE, BOAT

FORBIDDEN = 0.0
UNAVAILABLE = 0.25
INDIRECT = 1.0
PASS = 648  # the policy's index of ending the shoreline
INK_BEFORE = 2  # the ink before the first cell (the net reads 2/24)
EPSILON = 1.0 / 256  # below the smallest step between priorities (1/164)
# meta fields
INK, MODE, DRAWN, OVERLAP, DONE = 0, 1, 2, 3, 4
META = 5

# The draw modes: 0 before the first cell, then the four diagonal ones (ambiguous, refined by
# the next cells), the four straight ones (ambiguous too), and the eight directional ones.
(M_INITIAL, M_UL, M_UR, M_LL, M_LR, M_W, M_E, M_N, M_S,
 M_WN, M_WS, M_EN, M_ES, M_NW, M_NE, M_SW, M_SE) = range(17)


def _ring(v):
    return abs(v - 4)


# How each mode orders the cells (x: column from the left, y: row from the top; a smaller key
# is drawn first). Mode 0: the outer rings first, and within a ring the cells nearest its
# corners; a diagonal mode: the L-shaped layers out of its corner; a straight mode: columns
# (rows) from its side, the ones far from the middle first; a directional mode: columns then
# rows (or rows then columns) from its corner.
_ORDER = {
    M_INITIAL: lambda x, y: (-max(_ring(x), _ring(y)), max(_ring(x), _ring(y)) - min(_ring(x), _ring(y))),
    M_UL: lambda x, y: (min(x, y), max(x, y)),
    M_UR: lambda x, y: (min(8 - x, y), max(8 - x, y)),
    M_LL: lambda x, y: (min(x, 8 - y), max(x, 8 - y)),
    M_LR: lambda x, y: (min(8 - x, 8 - y), max(8 - x, 8 - y)),
    M_W: lambda x, y: (x, -_ring(y)),
    M_E: lambda x, y: (8 - x, -_ring(y)),
    M_N: lambda x, y: (y, -_ring(x)),
    M_S: lambda x, y: (8 - y, -_ring(x)),
    M_WN: lambda x, y: (x, y),
    M_WS: lambda x, y: (x, 8 - y),
    M_EN: lambda x, y: (8 - x, y),
    M_ES: lambda x, y: (8 - x, 8 - y),
    M_NW: lambda x, y: (y, x),
    M_NE: lambda x, y: (y, 8 - x),
    M_SW: lambda x, y: (8 - y, x),
    M_SE: lambda x, y: (8 - y, 8 - x),
}
PRIORITY_DENOMINATOR = 164


def priority_numerators() -> np.ndarray:
    """int[17, 81]: each mode's priorities times 164 (the net's inputs are these / 164)."""
    out = np.zeros((len(_ORDER), CELLS), np.int64)
    for mode, key in _ORDER.items():
        keys = [key(z % SIZE, z // SIZE) for z in range(CELLS)]
        out[mode] = [163 - sum(k2 < k for k2 in keys) for k in keys]
    return out


PRIORITY = priority_numerators() / PRIORITY_DENOMINATOR


def _coast_table() -> np.ndarray:
    """mask -> coast test. Bits clockwise from the up-left neighbour (1 up-left, 2 up, 4
    up-right, 8 right, 16 down-right, 32 down, 64 down-left, 128 left), set where the
    neighbour is land once the region is flipped; the odd positions are the orthogonal ones."""
    out = np.zeros(256, np.bool_)
    for mask in range(256):
        bits = [(mask >> i) & 1 for i in range(8)]
        runs = sum(bits[i] != bits[(i + 1) % 8] for i in range(8))
        out[mask] = (runs == 2 and any(bits[i] for i in (1, 3, 5, 7))
                     and any(not bits[i] for i in (1, 3, 5, 7)))
    return out


COAST = _coast_table()
# the 8 neighbours in the coast mask's bit order, and which of them are orthogonal
_STEPS = np.array([(-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1)], np.int64)


@njit(cache=True)
def _is_land(land_id, region, z):
    """Land once the region is flipped."""
    return (land_id[z] > 0) != region[z]


@njit(cache=True)
def _drawable(land_id, region, meta, z, need):
    """TinyBot's test: ``need`` orthogonal neighbours in the region (with the region's land id)
    and the coast test on the 8 neighbours."""
    x = z % SIZE
    y = z // SIZE
    found = 0
    mask = 0
    for i in range(8):
        yy = y + _STEPS[i, 0]
        xx = x + _STEPS[i, 1]
        if 0 <= yy < SIZE and 0 <= xx < SIZE:
            zz = yy * SIZE + xx
            if _is_land(land_id, region, zz):
                mask |= 1 << i
            if i % 2 == 1 and region[zz] and land_id[zz] == meta[DRAWN]:
                found += 1
    return found >= need and COAST[mask]


@njit(cache=True)
def _no_land_near(land_id, z, island):
    """No neighbour (of 8) on ``island`` (0: on any island): a water start far from the shore."""
    x = z % SIZE
    y = z // SIZE
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            yy = y + dy
            xx = x + dx
            if (dy or dx) and 0 <= yy < SIZE and 0 <= xx < SIZE:
                lid = land_id[yy * SIZE + xx]
                if (island == 0 and lid > 0) or (island > 0 and lid == island):
                    return False
    return True


@njit(cache=True)
def _deep_inland(land_id, z):
    """Off the board's edge, with all 8 neighbours on the same side as z (a lake start)."""
    x = z % SIZE
    y = z // SIZE
    if x == 0 or y == 0 or x == SIZE - 1 or y == SIZE - 1:
        return False
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            if land_id[(y + dy) * SIZE + x + dx] != land_id[z]:
                return False
    return True


@njit(cache=True)
def _on_edge(z):
    x = z % SIZE
    y = z // SIZE
    return x == 0 or y == 0 or x == SIZE - 1 or y == SIZE - 1


@njit(cache=True)
def _outside(blocked):
    """(outside, ink): the cells the board's border reaches through unblocked cells (4-steps),
    and the length of the boundary between them and the rest (board-edge sides of the rest
    included)."""
    outside = np.zeros(CELLS, np.bool_)
    stack = np.empty(CELLS, np.int64)
    top = 0
    ink = 0
    for z in range(CELLS):
        if _on_edge(z):
            x = z % SIZE
            y = z // SIZE
            if blocked[z]:
                ink += (x == 0) + (x == SIZE - 1) + (y == 0) + (y == SIZE - 1)
            else:
                outside[z] = True
                stack[top] = z
                top += 1
    while top > 0:
        top -= 1
        z = stack[top]
        x = z % SIZE
        y = z // SIZE
        for dy, dx in ((0, -1), (0, 1), (-1, 0), (1, 0)):
            yy = y + dy
            xx = x + dx
            if 0 <= yy < SIZE and 0 <= xx < SIZE:
                zz = yy * SIZE + xx
                if outside[zz]:
                    continue
                if blocked[zz]:
                    ink += 1
                else:
                    outside[zz] = True
                    stack[top] = zz
                    top += 1
    return outside, ink


@njit(cache=True)
def _direct_starts(land_id, prio, allow_edge_land):
    """Water far from every shore and land deep inland start a drawing at their mode-0
    priority, the rest is forbidden (land on the board's edge too)."""
    for z in range(CELLS):
        if land_id[z] == 0:
            prio[z] = PRIORITY[0, z] if _no_land_near(land_id, z, 0) else FORBIDDEN
        elif _on_edge(z) and not allow_edge_land:
            prio[z] = FORBIDDEN
        else:
            prio[z] = PRIORITY[0, z] if _deep_inland(land_id, z) else FORBIDDEN


@njit(cache=True)
def _mark_best(prio, outside, candidates):
    """The cells the border does not reach are forbidden; the highest mode-0 ones among
    ``candidates`` become indirect starts."""
    best = -1.0
    for z in range(CELLS):
        if not outside[z]:
            prio[z] = FORBIDDEN
            if candidates[z]:
                best = max(best, PRIORITY[0, z])
    for z in range(CELLS):
        if not outside[z] and candidates[z] and PRIORITY[0, z] == best:
            prio[z] = INDIRECT


@njit(cache=True)
def _specific_indirect(prio, outside):
    """Cells outside one island's ring start at their mode-0 priority (as TinyBot rates them),
    its best ring cells surround it."""
    for z in range(CELLS):
        prio[z] = PRIORITY[0, z] if outside[z] else FORBIDDEN
    _mark_best(prio, outside, np.ones(CELLS, np.bool_))


@njit(cache=True)
def _second_drawing_starts(land_id, prio):
    """Drawing 2: water and lake starts; if island 1 keeps off the edge and its ring costs at
    most 24 edges of ink, its best ring cells start a surrounding drawing."""
    _direct_starts(land_id, prio, False)
    for z in range(CELLS):
        if land_id[z] > 0 and _on_edge(z):
            return
    outside, ink = _outside(prio == FORBIDDEN)
    if ink <= MAX_SHORELINE:
        _mark_best(prio, outside, (land_id == 0) & (prio == FORBIDDEN))  # ring cells


@njit(cache=True)
def _island_outside(land_id, island):
    """(outside, ink, blocked) of one island's ring: what the border reaches through cells
    with no neighbour on the island, and the ring's length of boundary; -1 ink when the island
    touches the edge, 0 when it does not exist."""
    blocked = np.zeros(CELLS, np.bool_)
    exists = False
    for z in range(CELLS):
        if land_id[z] == island:
            exists = True
            if _on_edge(z):
                return np.zeros(CELLS, np.bool_), -1, blocked
    if not exists:
        return np.ones(CELLS, np.bool_), 0, blocked
    for z in range(CELLS):
        blocked[z] = not _no_land_near(land_id, z, island)
    outside, ink = _outside(blocked)
    return outside, ink, blocked


@njit(cache=True)
def _rings_meet(out1, out2, blocked2):
    """Does island 2's ring, where the border's fill meets it, enter island 1's (TinyBot's
    ``indirect_overlap``)?"""
    for z in range(CELLS):
        if not blocked2[z] or out1[z]:
            continue
        if _on_edge(z):
            return True
        x = z % SIZE
        y = z // SIZE
        for dy, dx in ((0, -1), (0, 1), (-1, 0), (1, 0)):
            yy = y + dy
            xx = x + dx
            if 0 <= yy < SIZE and 0 <= xx < SIZE and out2[yy * SIZE + xx]:
                return True
    return False


@njit(cache=True)
def _third_drawing_starts(land_id, prio, meta):
    """Drawing 3 (TinyBot's ``initThirdDraw``): direct starts, and indirect ones around island
    1, island 2 or each, when the ring fits the ink; when the two rings overlap, one drawing
    surrounds both (as drawing 2 surrounds)."""
    out1, ink1, _ = _island_outside(land_id, 1)
    out2, ink2, blocked2 = _island_outside(land_id, 2)
    if ink1 > 0 and ink2 > 0 and _rings_meet(out1, out2, blocked2):
        meta[OVERLAP] = 1
        _second_drawing_starts(land_id, prio)
        return
    if ink2 == -1:
        if ink1 > 0 and ink1 <= MAX_SHORELINE:
            for z in range(CELLS):
                if not out1[z] and not _no_land_near(land_id, z, 2):
                    _direct_starts(land_id, prio, False)
                    return
            _specific_indirect(prio, out1)
        else:
            _direct_starts(land_id, prio, False)
    elif ink2 == 0:
        if ink1 != -1 and ink1 <= MAX_SHORELINE:
            _specific_indirect(prio, out1)
        else:
            _direct_starts(land_id, prio, False)
    elif ink1 == -1:
        if ink2 <= MAX_SHORELINE:
            for z in range(CELLS):
                if not out2[z] and not _no_land_near(land_id, z, 1):
                    _direct_starts(land_id, prio, False)
                    return
            _specific_indirect(prio, out2)
        else:
            _direct_starts(land_id, prio, False)
    elif ink1 == 0:
        if ink2 <= MAX_SHORELINE:
            _specific_indirect(prio, out2)
        else:
            _direct_starts(land_id, prio, False)
    elif ink1 <= MAX_SHORELINE and ink2 <= MAX_SHORELINE:
        both = out1 & out2
        for z in range(CELLS):
            prio[z] = PRIORITY[0, z] if both[z] else FORBIDDEN
        _mark_best(prio, out1, np.ones(CELLS, np.bool_))
        only_out1 = out1 & ~out2
        best = -1.0
        for z in range(CELLS):
            if only_out1[z]:
                best = max(best, PRIORITY[0, z])
        for z in range(CELLS):
            if only_out1[z] and PRIORITY[0, z] == best:
                prio[z] = INDIRECT
    elif ink1 <= MAX_SHORELINE:
        _specific_indirect(prio, out1)
    elif ink2 <= MAX_SHORELINE:
        _specific_indirect(prio, out2)
    else:
        _direct_starts(land_id, prio, False)


@njit(cache=True)
def begin_drawing(land_id, region, prio, meta, drawings_done):
    """Set up drawing ``drawings_done + 1``: no cell drawn, the starts rated."""
    region[:] = False
    meta[INK] = INK_BEFORE
    meta[MODE] = M_INITIAL
    meta[DRAWN] = 0
    meta[OVERLAP] = 0
    meta[DONE] = drawings_done
    if drawings_done == 0:
        prio[:] = PRIORITY[0]
    elif drawings_done == 1:
        _second_drawing_starts(land_id, prio)
    else:
        _third_drawing_starts(land_id, prio, meta)


@njit(cache=True)
def _next_mode(mode, x, y):
    """The draw mode after a cell at (x, y): the first cell picks the side of the centre, an
    ambiguous mode is refined by a later cell off its axis or diagonal."""
    if mode == M_INITIAL:
        ax = abs(x - 4)
        ay = abs(y - 4)
        if x < 4:
            if y < 4:
                return M_NW if ax < ay else (M_UL if ax == ay else M_WN)
            if y == 4:
                return M_W
            return M_SW if ax < ay else (M_LL if ax == ay else M_WS)
        if x == 4:
            if y < 4:
                return M_N
            return M_S if y > 4 else M_INITIAL
        if y < 4:
            return M_NE if ax < ay else (M_UR if ax == ay else M_EN)
        if y == 4:
            return M_E
        return M_SE if ax < ay else (M_LR if ax == ay else M_ES)
    if mode == M_UL:
        return M_WN if x < y else (M_NW if x != y else mode)
    if mode == M_UR:
        return M_EN if 8 - x < y else (M_NE if 8 - x != y else mode)
    if mode == M_LL:
        return M_WS if x < 8 - y else (M_SW if x != 8 - y else mode)
    if mode == M_LR:
        return M_SE if x < y else (M_ES if x != y else mode)
    if mode == M_W:
        return M_WN if y < 4 else (M_WS if y != 4 else mode)
    if mode == M_E:
        return M_EN if y < 4 else (M_ES if y != 4 else mode)
    if mode == M_N:
        return M_NW if x < 4 else (M_NE if x != 4 else mode)
    if mode == M_S:
        return M_SW if x < 4 else (M_SE if x != 4 else mode)
    return mode


@njit(cache=True)
def _find_island(land_id, z):
    """The island a third drawing's indirect start surrounds: the land id of a diagonal
    neighbour (down-left, down-right, up-right, else up-left), as TinyBot looks for it."""
    x = z % SIZE
    y = z // SIZE
    if y != SIZE - 1:
        if x != 0 and land_id[z + SIZE - 1] != 0:
            return land_id[z + SIZE - 1]
        if x != SIZE - 1 and land_id[z + SIZE + 1] != 0:
            return land_id[z + SIZE + 1]
    if y != 0 and x != SIZE - 1 and land_id[z - SIZE + 1] != 0:
        return land_id[z - SIZE + 1]
    return land_id[z - SIZE - 1]


@njit(cache=True)
def _rate_outside(land_id, region, prio, meta, outside):
    need = 2 if meta[INK] == MAX_SHORELINE else 1
    for z in range(CELLS):
        if outside[z]:
            prio[z] = PRIORITY[meta[MODE], z] if _drawable(land_id, region, meta, z, need) else UNAVAILABLE


@njit(cache=True)
def _surround(land_id, region, prio, meta, z, island):
    """An indirect start: the region becomes what the border cannot reach through cells that
    are neither forbidden nor indirect starts (near ``island``, when one is named)."""
    blocked = np.zeros(CELLS, np.bool_)
    for c in range(CELLS):
        blocked[c] = ((prio[c] == FORBIDDEN or prio[c] == INDIRECT)
                      and (island == 0 or not _no_land_near(land_id, c, island)))
    outside, ink = _outside(blocked)
    for c in range(CELLS):
        if not outside[c]:
            region[c] = True
            prio[c] = FORBIDDEN
    meta[INK] = ink
    meta[DRAWN] = 0
    meta[MODE] = _next_mode(meta[MODE], z % SIZE, z // SIZE)
    _rate_outside(land_id, region, prio, meta, outside)


@njit(cache=True)
def draw_cell(land_id, region, prio, meta, z):
    """Draw cell ``z`` (one of ``legal_moves``, not the pass)."""
    x = z % SIZE
    y = z // SIZE
    if meta[INK] == INK_BEFORE:
        if land_id[z] == 0 and prio[z] == INDIRECT:
            island = 0 if meta[DONE] != 2 or meta[OVERLAP] else _find_island(land_id, z)
            _surround(land_id, region, prio, meta, z, island)
            return
        meta[INK] = 4
        meta[DRAWN] = land_id[z]
    else:
        for dy, dx in ((0, -1), (0, 1), (-1, 0), (1, 0)):
            yy = y + dy
            xx = x + dx
            inside = 0 <= yy < SIZE and 0 <= xx < SIZE and region[yy * SIZE + xx]
            meta[INK] += -1 if inside else 1
    region[z] = True
    ceiling = prio[z] + EPSILON
    prio[z] = FORBIDDEN
    meta[MODE] = _next_mode(meta[MODE], x, y)
    need = 2 if meta[INK] == MAX_SHORELINE else 1
    for c in range(CELLS):
        p = prio[c]
        if p == UNAVAILABLE:
            if _drawable(land_id, region, meta, c, need):
                prio[c] = PRIORITY[meta[MODE], c]
        elif p > UNAVAILABLE:
            if p < ceiling:
                prio[c] = PRIORITY[meta[MODE], c] if _drawable(land_id, region, meta, c, need) else UNAVAILABLE
            else:
                prio[c] = FORBIDDEN


@njit(cache=True)
def legal_moves(land_id, region, prio, meta, tiles, out):
    """The moves TinyBot offers now that the rules allow, written to ``out`` (cells, then
    ``PASS`` once a cell is drawn); returns how many. At the start of drawing 2, when a lake
    start holds Sand, Wave or a Boat, only lake starts are offered (TinyBot's early-lake rule)."""
    n = 0
    started = meta[INK] != INK_BEFORE
    if not started and meta[DONE] == 1:
        for z in range(CELLS):
            if prio[z] > 0.5 and land_id[z] > 0 and (tiles[z] == SAND or tiles[z] == WAVE or tiles[z] == BOAT):
                for c in range(CELLS):
                    if prio[c] > 0.5 and land_id[c] > 0:
                        out[n] = c
                        n += 1
                return n
    for z in range(CELLS):
        if prio[z] > 0.5 and (started or prio[z] == INDIRECT or _starts_alone(land_id, z)):
            out[n] = z
            n += 1
    if started:
        out[n] = PASS
        n += 1
    return n


@njit(cache=True)
def _starts_alone(land_id, z):
    """Can a drawing start at z on its own: water far from every shore, or land deep inland?
    TinyBot rates every cell outside a third drawing's ring as a start, even next to the other
    island (its ``initDrawSpecificIndirect``); such a start would touch that island's shore,
    which the rules forbid, so it is not offered (the net still reads TinyBot's plane)."""
    return _no_land_near(land_id, z, 0) if land_id[z] == 0 else _deep_inland(land_id, z)


@njit(cache=True)
def is_legal(land_id, region, prio, meta, tiles, move):
    """Is ``move`` (a cell or ``PASS``) one of ``legal_moves``?"""
    out = np.empty(CELLS + 1, np.int64)
    n = legal_moves(land_id, region, prio, meta, tiles, out)
    for i in range(n):
        if out[i] == move:
            return True
    return False


@njit(cache=True)
def finish_drawing(land_id, region, drawings_done):
    """The pass: the region flips; cells that become land take the drawing's number as their
    land id, cells that become water lose theirs."""
    for z in range(CELLS):
        if region[z]:
            land_id[z] = 0 if land_id[z] > 0 else drawings_done + 1
