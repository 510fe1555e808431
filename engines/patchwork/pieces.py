"""Patchwork's facts as arrays: the patches, the time track, and every placement of every
patch on the 9x9 quilt as a bitboard, computed once from ``game.json``.

A quilt is 81 bits in two int64 words: cell ``row * 9 + column`` (row 0 the top, column 0
column ``a``), cells 0..62 in the low word, 63..80 in the high word (no sign bit used).

Orientation codes 0..7 are the notation's ``r0 r1 r2 r3 r0m r1m r2m r3m``: mirror (a
left-right flip of the stored rows) first, then quarter turns clockwise, ``(r, c) -> (c, -r)``
re-normalised. A patch's distinct orientations are those codes that give new cells, first
code first; its placements are every distinct orientation at every anchor (the top-left cell
of the oriented shape's bounding box) where it lies inside the quilt.

>>> int(SIZE[0]), int(COST[19]), int(TIME[19]), int(INCOME[19])
(2, 10, 3, 2)
>>> [len(distinct_orientations(p)) for p in (0, 1, 9, 16, 7)]
[2, 4, 1, 1, 8]
>>> int(P_START[1] - P_START[0])  # the 1x2 patch: 8 x 9 across and 9 x 8 down
144
"""
from __future__ import annotations

import json
from importlib import resources

import numpy as np

FACTS = json.loads(resources.files(__package__).joinpath("game.json").read_text())
GAME_ID = FACTS["game"]["id"]
SOLO_TAG = FACTS["game"]["aliases"][0]  # the Game tag of a single-player record
VARIANTS = tuple(FACTS["game"]["rule_sets"])  # real, sim, two-player
REAL, SIM, TWO_PLAYER = range(3)
PATCH_SET = FACTS["patch_set"]

ROWS, COLS = FACTS["board"]["rows"], FACTS["board"]["columns"]
CELLS = ROWS * COLS
LOW_BITS = 63  # cells 0..62 in the low word
LAST_SPACE = FACTS["time_track"]["last"]
INCOME_SPACES = np.array(FACTS["time_track"]["income"], np.int64)
LEATHER_SPACES = np.array(FACTS["time_track"]["leather"], np.int64)
START_BUTTONS = FACTS["start_buttons"]
EMPTY_PENALTY = FACTS["empty_square_penalty"]
FULL_BONUS = FACTS["full_board_bonus"]
SPECIAL_SIDE = FACTS["special_tile"]["side"]
SPECIAL_POINTS = FACTS["special_tile"]["points"]

N_PATCHES = len(FACTS["patches"])
COST = np.array([p[0] for p in FACTS["patches"]], np.int64)
TIME = np.array([p[1] for p in FACTS["patches"]], np.int64)
INCOME = np.array([p[2] for p in FACTS["patches"]], np.int64)
SHAPES = [p[3].split("/") for p in FACTS["patches"]]
SIZE = np.array([sum(row.count("#") for row in shape) for shape in SHAPES], np.int64)

# income spaces and leather spaces at or before each space of the track: "passed or reached"
# from t0 to t1 is INCOME_UPTO[t1] - INCOME_UPTO[t0]
INCOME_UPTO = np.array([int((INCOME_SPACES <= t).sum()) for t in range(LAST_SPACE + 1)], np.int64)
LEATHER_UPTO = np.array([int((LEATHER_SPACES <= t).sum()) for t in range(LAST_SPACE + 1)], np.int64)

ORIENTATION_NAMES = ("r0", "r1", "r2", "r3", "r0m", "r1m", "r2m", "r3m")


def oriented(patch: int, code: int) -> tuple[tuple[int, int], ...]:
    """The cells (row, column) of a patch in orientation ``code``, normalised to (0, 0), sorted."""
    cells = [(r, c) for r, row in enumerate(SHAPES[patch]) for c, ch in enumerate(row) if ch == "#"]
    if code >= 4:
        width = len(SHAPES[patch][0])
        cells = [(r, width - 1 - c) for r, c in cells]
    for _ in range(code % 4):
        cells = [(c, -r) for r, c in cells]
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return tuple(sorted((r - r0, c - c0) for r, c in cells))


def distinct_orientations(patch: int) -> list[int]:
    """The codes that give new cells, in code order (the code a writer emits for them)."""
    seen, codes = set(), []
    for code in range(8):
        cells = oriented(patch, code)
        if cells not in seen:
            seen.add(cells)
            codes.append(code)
    return codes


def cell_mask(cells) -> tuple[int, int]:
    """The (low, high) words of a set of cell indices."""
    lo = hi = 0
    for cell in cells:
        if cell < LOW_BITS:
            lo |= 1 << cell
        else:
            hi |= 1 << (cell - LOW_BITS)
    return lo, hi


def _placements():
    """Every distinct placement as bitboards (Python ints of 81 bits, split into words at the
    end): its cells, where it touches the quilt's border, and the cells next to it in each
    direction (up, down, left, right), each a shift of its cells."""
    full = (1 << CELLS) - 1
    first_column = sum(1 << (r * COLS) for r in range(ROWS))
    last_column = first_column << (COLS - 1)
    top, bottom = (1 << COLS) - 1, ((1 << COLS) - 1) << (CELLS - COLS)
    low = (1 << LOW_BITS) - 1
    cells, patch, code, row, col, border, adjacent = [], [], [], [], [], [], []
    start = [0]
    resolve = np.full((N_PATCHES, 8, ROWS, COLS), -1, np.int64)
    for p in range(N_PATCHES):
        first_code = {}
        for k in range(8):
            first_code.setdefault(oriented(p, k), k)
        for k in range(8):
            shape = oriented(p, k)
            height = 1 + max(r for r, _ in shape)
            width = 1 + max(c for _, c in shape)
            at_origin = sum(1 << (dr * COLS + dc) for dr, dc in shape)
            for r in range(ROWS - height + 1):
                for c in range(COLS - width + 1):
                    if first_code[shape] != k:  # a symmetric patch: the placement of the first code
                        resolve[p, k, r, c] = resolve[p, first_code[shape], r, c]
                        continue
                    m = at_origin << (r * COLS + c)
                    resolve[p, k, r, c] = len(cells)
                    cells.append(m)
                    patch.append(p)
                    code.append(k)
                    row.append(r)
                    col.append(c)
                    border.append((m & top).bit_count() + (m & bottom).bit_count() + (m & first_column).bit_count()
                                  + (m & last_column).bit_count())
                    adjacent.append(((m >> COLS) & ~m, (m << COLS) & full & ~m, ((m & ~first_column) >> 1) & ~m,
                                     ((m & ~last_column) << 1) & ~m))
        start.append(len(cells))
    near = [[half for side in sides for half in (side & low, side >> LOW_BITS)] for sides in adjacent]
    return (np.array([m & low for m in cells], np.int64), np.array([m >> LOW_BITS for m in cells], np.int64),
            np.array(patch, np.int64), np.array(code, np.int64), np.array(row, np.int64), np.array(col, np.int64),
            np.array(border, np.int64), np.array(near, np.int64).reshape(-1, 8), np.array(start, np.int64), resolve)


# PL_*: one row per distinct placement, grouped by patch (P_START[p]..P_START[p + 1]), in
# code, row, column order. RESOLVE[p, code, row, col]: the placement a notation code names.
(PL_LO, PL_HI, PL_PATCH, PL_CODE, PL_ROW, PL_COL, PL_BORDER, PL_ADJACENT, P_START, RESOLVE) = _placements()
N_PLACEMENTS = len(PL_LO)


def _special_regions():
    out = []
    for r in range(ROWS - SPECIAL_SIDE + 1):
        for c in range(COLS - SPECIAL_SIDE + 1):
            out.append(cell_mask({(r + i) * COLS + c + j for i in range(SPECIAL_SIDE) for j in range(SPECIAL_SIDE)}))
    return np.array(out, np.int64)


SPECIAL_REGIONS = _special_regions()  # (low, high) of every 7x7 square of the quilt
FULL_LO, FULL_HI = cell_mask(range(CELLS))


def square_name(cell: int) -> str:
    """``c3``: column letter, row number from 1 at the top."""
    return "abcdefghi"[cell % COLS] + str(cell // COLS + 1)


def cells_of(lo: int, hi: int) -> list[int]:
    """The cell indices of a bitboard."""
    return [i for i in range(LOW_BITS) if lo >> i & 1] + [LOW_BITS + i for i in range(CELLS - LOW_BITS) if hi >> i & 1]
