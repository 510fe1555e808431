"""Shoreline drawings: each rule, surrounding drawings, and the jitted engine against the
plain-Python reference on random traces."""
from __future__ import annotations

import numpy as np
import pytest

from scorebook.engines.tiny_islands import engine as E
from scorebook.engines.tiny_islands import reference as R
from scorebook.engines.tiny_islands.metadata import CELLS, cell_name, parse_cell

from .conftest import random_record


def mask(names):
    m = np.zeros(CELLS, np.bool_)
    for n in names:
        m[parse_cell(n)] = True
    return m


def trace(names):
    return np.array([parse_cell(n) for n in names], np.int64)


def draw(land_names, trace_names):
    t = trace(trace_names)
    code, region, indirect = E.drawing_region(mask(land_names), t, len(t))
    return E.CODE_NAMES[code], {cell_name(z) for z in np.flatnonzero(region)}, indirect


STRIP_12 = ["a5", "b5", "c5", "d5", "e5", "f5", "g5", "h5", "i5", "i4", "i3", "i2"]
RING = ["d4", "e4", "f4", "d5", "f5", "d6", "e6", "f6"]
PINCHED = ["e5", "e6", "f6", "g6", "g5", "g4", "f4"]  # a C whose ends meet at one corner (e5/f4)


@pytest.mark.parametrize("land, cells, code", [
    ([], ["e5"], "ok"),
    ([], STRIP_12, "drawing-too-long"),          # 12 cells in a line: 26 edges
    ([], STRIP_12[:11], "ok"),                   # 11 cells: exactly 24 edges
    ([], RING, "drawing-hole"),
    ([], PINCHED, "drawing-pinched"),
    ([], ["a1", "c1"], "drawing-disconnected"),
    ([], ["e5", "e5"], "drawing-repeated-cell"),
    (["e5"], ["h6", "g6", "f6"], "drawing-touches-shoreline"),  # f6 meets e5 at a corner
    (["e5"], ["h6", "g6"], "ok"),
    (["a9"], ["c9"], "ok"),                      # one column apart: no shared point
    (["a1", "b1", "a2", "b2"], ["b2"], "drawing-touches-shoreline"),  # a lake on the island's edge
    (["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"], ["b2"], "ok"),  # one cell from every edge
    (["d4", "e4", "f4", "d5", "e5", "f5", "d6", "e6", "f6"], ["e5"], "ok"),  # an inner lake
])
def test_drawing_rules(land, cells, code):
    got, _, _ = draw(land, cells)
    assert got == code
    ref_code, _ = R.drawing_region({divmod(parse_cell(n), 9) for n in land},
                                   [divmod(parse_cell(n), 9) for n in cells])
    assert ref_code == code


def test_surrounding_a_one_cell_island_makes_a_lake_in_a_ring():
    code, region, indirect = draw(["e5"], ["d5"])
    assert (code, indirect) == ("ok", True)
    assert region == {"e5"} | set(RING)
    land = mask(["e5"]) ^ mask(region)
    assert not land[parse_cell("e5")] and land[parse_cell("d4")]


def test_surrounding_reaches_a_second_island_that_is_too_close():
    # c5 and e5: the ring of c5 touches e5, so both are surrounded by one shoreline
    code, region, indirect = draw(["c5", "e5"], ["b5"])
    assert (code, indirect) == ("ok", True)
    assert region == {f"{c}{r}" for c in "bcdef" for r in "456"}


def test_surrounding_extends_with_later_cells():
    code, region, _ = draw(["e5"], ["d5", "c5"])
    assert code == "ok" and "c5" in region and len(region) == 10


def test_a_later_cell_inside_the_surrounded_region_is_a_repeat():
    code, _, _ = draw(["e5"], ["d5", "e5"])
    assert code == "drawing-repeated-cell"


def test_random_traces_match_the_reference():
    rng = np.random.default_rng(11)
    seen = set()
    for seed in range(300):
        rec = random_record(seed)
        # the land before drawing 3 of a random game
        from scorebook.records.tiny_islands import replay
        res = replay(rec)
        land = res.regions[0] ^ res.regions[1]
        ref_land = {divmod(int(z), 9) for z in np.flatnonzero(land)}
        for _ in range(10):
            n = int(rng.integers(1, 8))
            start = int(rng.integers(CELLS))
            cells = [start]
            for _ in range(n - 1):  # mostly connected walks, sometimes jumps
                r, c = divmod(cells[-1], 9)
                dr, dc = [(0, 1), (1, 0), (0, -1), (-1, 0), (2, 2)][int(rng.integers(5))]
                cells.append(((r + dr) % 9) * 9 + (c + dc) % 9)
            t = np.array(cells, np.int64)
            code, region, _ = E.drawing_region(land, t, len(t))
            ref_code, ref_region = R.drawing_region(ref_land, [divmod(z, 9) for z in cells])
            assert E.CODE_NAMES[code] == ref_code, (seed, [cell_name(z) for z in cells])
            if ref_code == "ok":
                assert {divmod(int(z), 9) for z in np.flatnonzero(region)} == ref_region
            seen.add(ref_code)
    assert {"ok", "drawing-disconnected", "drawing-touches-shoreline"} <= seen
