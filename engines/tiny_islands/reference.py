"""A plain-Python Tiny Islands replayer, written separately from the jitted engine.

It follows the rules text and spec §5-6 with sets of (row, column) pairs and no numpy, so
that tests can hold the engine against an independent reading of the rules, and the
benchmark can show what the jitted path buys.

>>> score({(0, 0): "B"}, {(8, 8)}, "published")["boats"]
16
"""
from __future__ import annotations

import json
from importlib import resources

# the game's facts, read here on their own: the reference shares data, not code, with the engine
DRAWINGS_AFTER_TURN = tuple(json.loads(resources.files(__package__).joinpath("game.json").read_text())
                            ["drawings_after_turn"])
LAND_TILES = set("fhMC")
N = 9
ORTHO = ((-1, 0), (1, 0), (0, -1), (0, 1))
NEAR = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)
CATEGORIES = ("penalties", "forests", "houses", "sand", "waves", "mountains", "churches", "boats", "total")


def _on(r, c):
    return 0 <= r < N and 0 <= c < N


def _components(cells: set) -> list[set]:
    left, out = set(cells), []
    while left:
        start = left.pop()
        comp, todo = {start}, [start]
        while todo:
            r, c = todo.pop()
            for dr, dc in ORTHO:
                nb = (r + dr, c + dc)
                if nb in left:
                    left.discard(nb)
                    comp.add(nb)
                    todo.append(nb)
        out.append(comp)
    return out


def score(tiles: dict, land: set, rules: str = "published") -> dict:
    """``tiles``: {(r, c): letter}; ``land``: set of (r, c). Returns the breakdown."""
    valid = {}
    penalties = 0
    for cell, t in tiles.items():
        if (t in LAND_TILES) == (cell in land):
            valid[cell] = t
        else:
            penalties += 5
    out = dict.fromkeys(CATEGORIES, 0)
    out["penalties"] = penalties
    forests = {c for c, t in valid.items() if t == "f"}
    out["forests"] = 2 * len(forests) - 2 * len(_components(forests))
    masses = _components(land)
    mass_of = {cell: i for i, m in enumerate(masses) for cell in m}
    for (r, c), t in valid.items():
        near = [valid.get((r + dr, c + dc)) for dr, dc in NEAR]
        if t == "h":
            out["houses"] += len({x for x in near if x and x != "h"})
        elif t == "s":
            out["sand"] += sum(1 for dr, dc in ORTHO if (r + dr, c + dc) in land)
        elif t == "M":
            out["mountains"] += 2 * near.count("f")
        elif t == "C":
            mass = masses[mass_of[(r, c)]]
            if sum(1 for x in mass if valid.get(x) == "C") == 1:
                out["churches"] += near.count("h") + sum(1 for x in mass if valid.get(x) == "h")
        elif t == "B":
            targets = [x for x in land] + [x for x, t2 in tiles.items() if t2 == "B" and x != (r, c)]
            if targets:
                out["boats"] += min(abs(r - a) + abs(c - b) for a, b in targets)
    waves = sorted(c for c, t in valid.items() if t == "w")
    out["waves"] = _waves_tinybot(waves) if rules == "tinybot" else _waves_published(waves)
    out["total"] = sum(out[k] for k in CATEGORIES[1:8]) - penalties
    return out


def _waves_published(waves: list) -> int:
    total = 0
    for r, c in waves:
        if not any((a, b) != (r, c) and (a == r or b == c or (abs(a - r) <= 1 and abs(b - c) <= 1))
                   for a, b in waves):
            total += 2
    return total


def _waves_tinybot(waves: list) -> int:
    """TinyBot's counters, written from spec §6 (row r+1 of the bottom row is column a)."""
    rows = [0] * (N + 1)
    cols = [0] * N
    ws = set(waves)

    def bump_row(i):
        if i == N:
            cols[0] += 1
        else:
            rows[i] += 1
    for r, c in waves:  # sorted: index order
        rows[r] += 1
        cols[c] += 1
        if r > 0:
            if (r - 1, c - 1) in ws:
                rows[r - 1] += 1
                rows[r] += 1
                cols[c - 1] += 1
                cols[c] += 1
            elif (r - 1, c + 1) in ws:
                rows[r] += 1
                cols[c] += 1
                cols[c + 1] += 1
                bump_row(r + 1)
    return sum(2 for r, c in waves if rows[r] == 1 and cols[c] == 1)


def _boundary_points(cells: set) -> set:
    pts = set()
    for vr in range(N + 1):
        for vc in range(N + 1):
            k = sum(1 for dr in (-1, 0) for dc in (-1, 0) if (vr + dr, vc + dc) in cells)
            if 0 < k < 4:
                pts.add((vr, vc))
    return pts


def check_region(land: set, region: set) -> str:
    """'ok' or the code of the first broken drawing rule."""
    if not region:
        return "drawing-empty"
    if len(_components(region)) != 1:
        return "drawing-disconnected"
    outside = {(r, c) for r in range(N) for c in range(N)} - region
    reach = {x for x in outside if x[0] in (0, N - 1) or x[1] in (0, N - 1)}
    todo = list(reach)
    while todo:  # 8-steps: a pocket open at a corner is a pinch, reported below
        r, c = todo.pop()
        for dr, dc in NEAR:
            nb = (r + dr, c + dc)
            if nb in outside and nb not in reach:
                reach.add(nb)
                todo.append(nb)
    if reach != outside:
        return "drawing-hole"
    for vr in range(1, N):
        for vc in range(1, N):
            a, b = (vr - 1, vc - 1) in region, (vr - 1, vc) in region
            c, d = (vr, vc - 1) in region, (vr, vc) in region
            if (a and d and not b and not c) or (b and c and not a and not d):
                return "drawing-pinched"
    ink = sum(1 for (r, c) in region for dr, dc in ORTHO if (r + dr, c + dc) not in region)
    if ink > 24:
        return "drawing-too-long"
    if _boundary_points(region) & _boundary_points(land):
        return "drawing-touches-shoreline"
    return "ok"


def drawing_region(land: set, trace: list) -> tuple[str, set]:
    """The region a TinyBot trace encloses (spec §5.2), and its check."""
    first = trace[0]
    r0, c0 = first
    if first not in land and any((r0 + dr, c0 + dc) in land for dr, dc in NEAR):
        masses = _components(land)
        chosen = {i for i, m in enumerate(masses) if any((r0 + dr, c0 + dc) in m for dr, dc in NEAR)}
        while True:
            core = set().union(*(masses[i] for i in chosen))
            ring = {(r + dr, c + dc) for r, c in core for dr, dc in NEAR + ((0, 0),) if _on(r + dr, c + dc)}
            free = {(r, c) for r in range(N) for c in range(N)} - ring
            reach = {x for x in free if x[0] in (0, N - 1) or x[1] in (0, N - 1)}
            todo = list(reach)
            while todo:
                r, c = todo.pop()
                for dr, dc in ORTHO:
                    nb = (r + dr, c + dc)
                    if nb in free and nb not in reach:
                        reach.add(nb)
                        todo.append(nb)
            region = {(r, c) for r in range(N) for c in range(N)} - reach
            near_region = {(r + dr, c + dc) for r, c in region for dr, dc in NEAR + ((0, 0),)}
            more = {i for i, m in enumerate(masses) if i not in chosen and m & near_region}
            if not more:
                break
            chosen |= more
        rest = trace[1:]
    else:
        region, rest = set(), trace
    for cell in rest:
        if cell in region:
            return "drawing-repeated-cell", region
        region.add(cell)
    return check_region(land, region), region


def replay(offers, placements, traces, rules="published") -> tuple[str, dict | None]:
    """Replay letter-level moves: ``offers`` [(tile, zone_cells set, tile, zone_cells set)],
    ``placements`` [(tile, (r, c))], ``traces`` 3 lists of (r, c). Returns (code, breakdown)."""
    tiles: dict = {}
    land: set = set()
    for t, ((t1, z1, t2, z2), (tile, cell)) in enumerate(zip(offers, placements)):
        if not ((tile == t1 and cell in z1) or (tile == t2 and cell in z2)):
            return "illegal-placement", None
        if cell in tiles:
            return "cell-occupied", None
        tiles[cell] = tile
        if t + 1 in DRAWINGS_AFTER_TURN:
            code, region = drawing_region(land, traces[DRAWINGS_AFTER_TURN.index(t + 1)])
            if code != "ok":
                return code, None
            land ^= region
    return "ok", score(tiles, land, rules)
