"""The Tiny Islands shoreline planner: hill-climbs a legal region (<= 24 edges, no shared
point with earlier shorelines) from several seeds, maximising the board's score once the
region flips, plus, before the last drawing, room for the land and water tiles still to come
(``_future_room``). Seeds are rectangles: every ``effort``-th one, or a random few plus the
best few by a cheap first look (``_screen_rectangles``: penalties saved and room, from sums
over the rectangle). ``_plan_candidates`` offers the candidate islands a bot may commit to.
"""
from __future__ import annotations

import numpy as np
from scorebook.engines.jit import njit

from .deck import N_ZONES
from .engine import OK, boundary_vertices, check_region, score_board, shoreline_length, toggle_keeps_legal
from .metadata import CELLS, SIZE, TILE_COUNT, TILE_IS_LAND, TURNS, ZONE_CELLS

@njit(cache=True)
def _future_room(tiles, land, left_land, left_water, w):
    """What the tiles still to come may score on this land: the land (water) tiles to come that
    fit on empty land (water), and how many zones keep an empty land cell for them."""
    empty_land = 0
    empty_water = 0
    for z in range(CELLS):
        if tiles[z] == 0:
            if land[z]:
                empty_land += 1
            else:
                empty_water += 1
    room = w[12] * min(empty_land, left_land) + w[13] * min(empty_water, left_water)
    if left_land > 0:
        reached = 0
        for k in range(N_ZONES):
            for i in range(SIZE):
                y = ZONE_CELLS[k, i]
                if tiles[y] == 0 and land[y]:
                    reached += 1
                    break
        room += w[14] * left_land * reached / N_ZONES
    return room


@njit(cache=True)
def _objective(tiles, land, region, wave_rule, left_land, left_water, w):
    after = land ^ region
    v = float(score_board(tiles, after, wave_rule)[8])
    if left_land + left_water > 0:
        v += _future_room(tiles, after, left_land, left_water, w)
    return v


@njit(cache=True)
def _climb(tiles, land, region, value, wave_rule, left_land, left_water, w):
    """Single-cell additions and removals while one improves the objective. From a legal
    region each toggle is checked incrementally (``toggle_keeps_legal``)."""
    legal = check_region(land, region) == OK
    shore = boundary_vertices(land)
    ink = shoreline_length(region)
    n = np.int64(0)
    for z in range(CELLS):
        n += region[z]
    improved = True
    while improved:
        improved = False
        move = -1
        move_value = value
        for z in range(CELLS):
            r, c = divmod(z, SIZE)
            if not region[z]:
                near = ((r > 0 and region[z - SIZE]) or (r < SIZE - 1 and region[z + SIZE])
                        or (c > 0 and region[z - 1]) or (c < SIZE - 1 and region[z + 1]))
                if not near:
                    continue
            region[z] = not region[z]
            if toggle_keeps_legal(region, z, shore, ink, n) if legal else check_region(land, region) == OK:
                v = _objective(tiles, land, region, wave_rule, left_land, left_water, w)
                if v > move_value + 1e-9:
                    move_value = v
                    move = z
            region[z] = not region[z]
        if move >= 0:
            region[move] = not region[move]
            value = move_value
            improved = True
            legal = True
            ink = shoreline_length(region)
            n += 1 if region[move] else -1
    return value


@njit(cache=True)
def _rectangle_clear(shore, r0, c0, h, wd):
    """Is the h x wd rectangle at (r0, c0) a legal drawing, given the lattice vertices of the
    earlier shorelines? A rectangle is connected, without hole or pinch, and ``planned_regions``
    keeps to the ink budget, so only a shared point can rule it out (as ``check_region`` says)."""
    side = SIZE + 1
    for vr in range(r0, r0 + h + 1):
        if shore[vr * side + c0] or shore[vr * side + c0 + wd]:
            return False
    for vc in range(c0 + 1, c0 + wd):
        if shore[r0 * side + vc] or shore[(r0 + h) * side + vc]:
            return False
    return True


# Rectangles within the 24-edge budget, the planner's starting points: (row, column, height,
# width), by height, width, row, column.
RECTANGLES = np.array([(r0, c0, h, wd) for h in range(1, SIZE + 1) for wd in range(1, SIZE + 1) if 2 * (h + wd) <= 24
                       for r0 in range(SIZE - h + 1) for c0 in range(SIZE - wd + 1)], np.int64)
N_RECTANGLES = RECTANGLES.shape[0]


@njit(cache=True)
def _screen_rectangles(tiles, land, shore, left_land, left_water, w, screen):
    """A cheap first look at every rectangle, in ``planned_regions``' order: the penalties it
    saves (tiles made valid) less those it costs, plus the room term, from sums over the
    rectangle (all but the zones' reach, ``w[14]``, which the full objective adds). Returns the
    values and the ``screen``-th best of the legal ones."""
    side = SIZE + 1
    pre = np.zeros((3, side, side))
    for r in range(SIZE):
        for c in range(SIZE):
            z = r * SIZE + c
            t = tiles[z]
            a = 0.0
            el = 0.0
            ew = 0.0
            if t != 0:
                a = -5.0 if TILE_IS_LAND[t] == land[z] else 5.0
            elif land[z]:
                el = 1.0
            else:
                ew = 1.0
            pre[0, r + 1, c + 1] = pre[0, r, c + 1] + pre[0, r + 1, c] - pre[0, r, c] + a
            pre[1, r + 1, c + 1] = pre[1, r, c + 1] + pre[1, r + 1, c] - pre[1, r, c] + el
            pre[2, r + 1, c + 1] = pre[2, r, c + 1] + pre[2, r + 1, c] - pre[2, r, c] + ew
    total_el = pre[1, SIZE, SIZE]
    total_ew = pre[2, SIZE, SIZE]
    values = np.empty(N_RECTANGLES, np.float64)
    best = np.full(screen, -1e18)
    lowest = -1e18
    for k in range(N_RECTANGLES):
        r0, c0, h, wd = RECTANGLES[k, 0], RECTANGLES[k, 1], RECTANGLES[k, 2], RECTANGLES[k, 3]
        r1 = r0 + h
        c1 = c0 + wd
        gain = pre[0, r1, c1] - pre[0, r0, c1] - pre[0, r1, c0] + pre[0, r0, c0]
        el_in = pre[1, r1, c1] - pre[1, r0, c1] - pre[1, r1, c0] + pre[1, r0, c0]
        ew_in = pre[2, r1, c1] - pre[2, r0, c1] - pre[2, r1, c0] + pre[2, r0, c0]
        v = gain + w[12] * min(total_el - el_in + ew_in, left_land) + w[13] * min(total_ew - ew_in + el_in, left_water)
        values[k] = v
        if v > lowest and _rectangle_clear(shore, r0, c0, h, wd):
            worst = 0
            for i in range(1, screen):
                if best[i] < best[worst]:
                    worst = i
            best[worst] = v
            lowest = best.min()
    return values, lowest


@njit(cache=True)
def _fill_rectangle(region, r0, c0, h, wd):
    """Make ``region`` the h x wd rectangle at (r0, c0), nothing else."""
    region[:] = False
    for r in range(r0, r0 + h):
        for c in range(c0, c0 + wd):
            region[r * SIZE + c] = True


@njit(cache=True)
def _among(regions, m, region):
    """Is ``region`` one of the first m ``regions``?"""
    for j in range(m):
        if (regions[j] == region).all():
            return True
    return False


@njit(cache=True)
def planned_regions(tiles, land, wave_rule, left_land, left_water, effort, top_n, w, screen):
    """Legal regions worth drawing: every rectangle within the 24-edge budget (every
    ``effort``-th when effort > 1, for speed; with ``screen`` > 0, also the best ``screen``
    by a cheap first look, ``_screen_rectangles``), the best ``top_n`` refined by hill climbing.
    Returns (regions bool[top_n, 81], their objective values, how many are distinct and set)."""
    region = np.zeros(CELLS, np.bool_)
    top_v = np.full(top_n, -1e18)
    top_r = np.zeros((top_n, 4), np.int64)
    stride = max(effort, 1)
    shore = boundary_vertices(land)
    screened = np.zeros(0, np.float64)
    threshold = 1e18
    if stride > 1 and screen > 0:
        screened, threshold = _screen_rectangles(tiles, land, shore, left_land, left_water, w, screen)
    for k in range(N_RECTANGLES):
        if (stride > 1 and (k + 1 + np.random.randint(stride)) % stride != 0
                and (screen == 0 or screened[k] < threshold)):
            continue
        r0, c0, h, wd = RECTANGLES[k, 0], RECTANGLES[k, 1], RECTANGLES[k, 2], RECTANGLES[k, 3]
        if not _rectangle_clear(shore, r0, c0, h, wd):
            continue
        _fill_rectangle(region, r0, c0, h, wd)
        v = _objective(tiles, land, region, wave_rule, left_land, left_water, w)
        worst = 0
        for i in range(1, top_n):
            if top_v[i] < top_v[worst]:
                worst = i
        if v > top_v[worst]:
            top_v[worst] = v
            top_r[worst] = RECTANGLES[k]
    regions = np.zeros((top_n, CELLS), np.bool_)
    values = np.full(top_n, -1e18)
    m = np.int64(0)
    for i in range(top_n):
        if top_v[i] <= -1e17:
            continue
        _fill_rectangle(region, top_r[i, 0], top_r[i, 1], top_r[i, 2], top_r[i, 3])
        v = _climb(tiles, land, region, top_v[i], wave_rule, left_land, left_water, w)
        if not _among(regions, m, region):
            regions[m] = region
            values[m] = v
            m += 1
    return regions, values, m


@njit(cache=True)
def _region_cells(region):
    cells = np.zeros(CELLS, np.int64)
    n = 0
    for z in range(CELLS):
        if region[z]:
            cells[n] = z
            n += 1
    return cells, n


@njit(cache=True)
def plan_drawing(tiles, land, wave_rule, left_land, left_water, effort, w):
    """The best of ``planned_regions`` (or, when no rectangle fits, any single legal cell).
    Returns its cells (read them as a region: ``listed_region``) and their count."""
    return best_drawing(tiles, land, wave_rule, left_land, left_water, effort, np.int64(3), w, np.int64(0))


@njit(cache=True)
def best_drawing(tiles, land, wave_rule, left_land, left_water, effort, top_n, w, screen):
    """``plan_drawing`` climbing from the best ``top_n`` rectangles."""
    regions, values, m = planned_regions(tiles, land, wave_rule, left_land, left_water, effort, top_n, w, screen)
    if m > 0:
        return _region_cells(regions[np.argmax(values[:m])])
    region = np.zeros(CELLS, np.bool_)
    for z in range(CELLS):
        region[z] = True
        if check_region(land, region) == OK:
            return _region_cells(region)
        region[z] = False
    return _region_cells(region)


@njit(cache=True)
def last_drawing(tiles, land, wave_rule, w):
    """halving:N's last drawing: nothing is left to chance, so the planner climbs from the best
    ``FINAL_DRAWING_CANDIDATES`` rectangles, not three."""
    return best_drawing(tiles, land, wave_rule, np.int64(0), np.int64(0), np.int64(1),
                        np.int64(FINAL_DRAWING_CANDIDATES), w, np.int64(0))


@njit(cache=True)
def _left_counts(offers, t):
    """Land and water tiles still to come after turn t, from the tiles seen so far (a bot
    knows the deck, not the order): one tile of each later offer is placed, so about half."""
    seen = np.zeros(8, np.int64)
    for k in range(t + 1):
        seen[offers[k, 0]] += 1
        seen[offers[k, 2]] += 1
    land_left = 0
    water_left = 0
    for tile in range(1, 8):
        rest = TILE_COUNT[tile] - seen[tile]
        if TILE_IS_LAND[tile]:
            land_left += rest
        else:
            water_left += rest
    turns_left = TURNS - 1 - t
    total = land_left + water_left
    if total == 0:
        return 0, 0
    return turns_left * land_left // total, turns_left * water_left // total


@njit(cache=True)
def _draw_now(tiles, land, offers, t, wave_rule, effort, w, screen):
    left_land, left_water = _left_counts(offers, t)
    cells, n = best_drawing(tiles, land, wave_rule, left_land, left_water, effort, np.int64(3), w, screen)
    return cells, n
COMMIT_PLANS = 8
SMALL_AREAS = np.array([6, 12, 16, 20, 25])  # size classes of small candidate islands (area in (a, b])


@njit(cache=True)
def _plan_candidates(tiles, land, offers, t, wave_rule, w, incumbent, has_incumbent):
    """Candidate islands for the next drawing: the incumbent plan, in each size class of
    SMALL_AREAS the best rectangle clear of earlier shores by the planner's objective, and the
    planner's best regions (climbed)."""
    left_land, left_water = _left_counts(offers, t)
    shore = boundary_vertices(land)
    out = np.zeros((COMMIT_PLANS, CELLS), np.bool_)  # incumbent and small ones: 5 at most, then the planner's
    m = np.int64(0)
    if has_incumbent:
        out[0] = incumbent
        m = 1
    region = np.zeros(CELLS, np.bool_)
    for a in range(SMALL_AREAS.shape[0] - 1):
        best_v = -1e18
        best_k = -1
        for k in range(N_RECTANGLES):
            r0, c0, h, wd = RECTANGLES[k, 0], RECTANGLES[k, 1], RECTANGLES[k, 2], RECTANGLES[k, 3]
            if h * wd <= SMALL_AREAS[a] or h * wd > SMALL_AREAS[a + 1] or not _rectangle_clear(shore, r0, c0, h, wd):
                continue
            _fill_rectangle(region, r0, c0, h, wd)
            v = _objective(tiles, land, region, wave_rule, left_land, left_water, w)
            if v > best_v:
                best_v = v
                best_k = k
        if best_k >= 0:
            _fill_rectangle(region, RECTANGLES[best_k, 0], RECTANGLES[best_k, 1], RECTANGLES[best_k, 2],
                            RECTANGLES[best_k, 3])
            if not _among(out, m, region):  # the incumbent (areas set the earlier small ones apart)
                out[m] = region
                m += 1
    regions, values, n = planned_regions(tiles, land, wave_rule, left_land, left_water, np.int64(1),
                                         COMMIT_PLANS - m, w, np.int64(0))
    for i in range(n):
        if not _among(out, m, regions[i]):
            out[m] = regions[i]
            m += 1
    return out[:m]
FINAL_DRAWING_CANDIDATES = 40
