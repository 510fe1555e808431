"""Tiny Islands bots, jitted: a heuristic player, a shoreline planner and Monte-Carlo search.

* ``plan_drawing``: hill-climbs a legal region (<= 24 edges, no shared point with earlier
  shorelines) from several seeds, maximising the board's score once the region flips, plus,
  before the last drawing, room for the land and water tiles still to come.
* ``heuristic``: each placement by its gain in an "optimistic" score (every tile valid
  where the land tiles stand, the land so far kept), plus shape terms (land tiles near land
  tiles, water tiles away from them, so that shorelines can separate them later; after a
  drawing, tiles on the side of the shore they need), plus room-to-grow terms (a Mountain,
  Forest, House or Church with empty cells around it, worth less as the game runs out), plus,
  before the first drawing and from turn 3 on, a plan: land tiles inside the first island the
  planner would draw for the tiles so far, water tiles outside it (made again every turn at a
  bot's own turn, every third turn inside a play-out).
  The weights are data (``weights.json``, read into ``HEURISTIC_WEIGHTS``), fitted by
  ``benchmarks/tune_tiny_islands_heuristic.py``. To them every placement adds a learned
  policy (``policy.json``, read into ``POLICY``): a table read at what lies within two cells
  of the placement, by tile and by the drawings done, fitted by
  ``benchmarks/fit_tiny_islands_policy.py`` to which candidates play-outs prefer.
* ``mc:N``: the heuristic's best ``PLACEMENT_CANDIDATES`` placements, each played out N
  times to the end (heuristic placements, planned drawings) over futures drawn from the cards
  not seen yet, with the same futures for every candidate; the best mean wins. The first two
  drawings likewise: the planner's best ``DRAWING_CANDIDATES`` regions, each played out
  ``DRAWING_FUTURES`` x N times. The last drawing is the planner's (nothing is left to chance).
* ``halving:N``: mc:N's budget (N x ``PLACEMENT_CANDIDATES`` play-outs a placement) spent by
  sequential halving: rounds of fresh common futures, the better half of the candidates
  going on after each, so the last two get the most futures. Its play-outs plan their drawings
  from a random few rectangles plus the best few by a cheap first look (``_screen_rectangles``:
  penalties saved and room, from sums over the rectangle), which plays about 2 points a game
  better than mc:N's play-outs in the same time; it weighs twice as many regions at the first
  two drawings, and its last drawing climbs from the best ``FINAL_DRAWING_CANDIDATES``.
  Before its first drawing it commits to a first island (``choose_plan``): from turn 3 it
  picks, by play-outs that follow each, one of a few candidate islands (small rectangles of
  four sizes, the planner's best regions, the island it holds so far); its placements and
  their play-outs then follow that island (``_play_on``), and its first drawing weighs it.
  After the first drawing it does the same for the second island, from turn 9.

The bots see an offer only when it is drawn: at turn t they read ``offers[:t + 1]``, never
later offers. Futures are drawn under the deck model they are told (``deck_model``): the
two-deck model, or the real one-deck card pattern (spec §7), where the cards already seen
are out of the deck and the half-seen ones (the zones of turn 1, the tiles of turn t) are
completed at random from the cards that fit.

>>> import numpy as np
>>> from scorebook.engines.tiny_islands.deck import two_deck_offers
>>> placements, traces, lens = play(two_deck_offers(np.random.default_rng(0)), HEURISTIC, 0, 1, 0, TWO_DECK)
>>> bool((lens > 0).all()), placements.shape
(True, (26, 2))
"""
from __future__ import annotations

import functools
import json
import os
from importlib import resources

import numba
import numpy as np
from numba import njit, prange

from .engine import (OK, boundary_vertices, check_region, drawing_due, legal_placements, listed_region, score_board,
                     shoreline_length, toggle_keeps_legal)
from .metadata import (BOAT, CELLS, CHURCH, DECK_SIZE, FOREST, HOUSE, MOUNTAIN, ONE_DECK_TILE, ONE_DECK_ZONE,
                       SIZE, TILE_COUNT, TILE_IS_LAND, TURNS, ZONE_CELLS, ZONE_COPIES, ZONE_MASK)

# Play-outs run on every core (prange). Numba's own work queue is the threading layer that
# survives the process pools' fork (a child forked after GNU OpenMP ran aborts).
if "NUMBA_THREADING_LAYER" not in os.environ:
    numba.config.THREADING_LAYER = "workqueue"
# Start the thread pool at import: once, with a numba cache filled by other processes, the
# first call (a cached caller of a parallel kernel) ran on threads never started and crashed.
numba.get_num_threads()

HEURISTIC, MC, HALVING = 0, 1, 2
TWO_DECK, ONE_DECK = 0, 1  # deck models, as in metadata.DECK_MODELS
# Play-outs plan their drawings from every ROLLOUT_EFFORT-th rectangle: most of a play-out's time.
ROLLOUT_EFFORT = 16
# Numbers and flags that jitted code passes on to another jitted function are written
# np.int64(...) / np.bool_(...), counters passed on start as np.int64(0): numba compiles a
# callee again, with all it calls, for every literal value it is handed (and for the literal
# first value of a loop variable). Typed, each function has one signature, and a cold start
# compiles half as much (BENCHMARKS.md, "Compile costs").
BOT_NAMES = {"heuristic": HEURISTIC, "mc": MC, "halving": HALVING}
N_ZONES = ZONE_MASK.shape[0]


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


# The heuristic's weights: data in weights.json (what each one weighs, and how it was fitted),
# written by benchmarks/tune_tiny_islands_heuristic.py --out. Every jitted function takes
# them as an argument, never as a global: numba's cache would keep a global's old value.
WEIGHTS_FILE = "weights.json"
N_WEIGHTS = 18
# The learned policy (policy.json, written by benchmarks/fit_tiny_islands_policy.py): a table
# added to the heuristic's value of a placement, indexed by the drawings done, the tile placed,
# and what lies around the cell (policy_features). The jitted functions get it appended to the
# weights, w[N_WEIGHTS:]; a w of N_WEIGHTS alone is the heuristic without it.
POLICY_FILE = "policy.json"
POLICY_PHASES = 3  # drawings done before the placement
POLICY_CLASSES = 10  # what a cell holds: off the board, empty water, empty land, then the seven tiles
POLICY_RINGS = 3  # the 4 orthogonal neighbours, the 4 diagonal ones, the 16 cells two steps away
POLICY_SLOTS = POLICY_RINGS + 1  # the last slot: the cell's own side of the shore (water, land)
N_POLICY = POLICY_PHASES * 8 * POLICY_SLOTS * POLICY_CLASSES


def weights_text() -> str:
    """The package's own weights file, as text."""
    return resources.files(__package__).joinpath(WEIGHTS_FILE).read_text()


def _numbers(text: str, key: str, n: int, what: str) -> np.ndarray:
    numbers = np.array(json.loads(text)[key], np.float64)
    if numbers.shape != (n,) or not np.isfinite(numbers).all():
        raise ValueError(f"a Tiny Islands {what} file holds {n} finite numbers")
    return numbers


def load_weights(text: str | None = None) -> np.ndarray:
    """The heuristic's weights of a weights file's text (default: the package's ``weights.json``).

    >>> load_weights().shape
    (18,)
    """
    return _numbers(weights_text() if text is None else text, "weights", N_WEIGHTS, "weights")


def policy_text() -> str:
    """The package's own policy file, as text."""
    return resources.files(__package__).joinpath(POLICY_FILE).read_text()


def load_policy(text: str | None = None) -> np.ndarray:
    """The policy table of a policy file's text (default: the package's ``policy.json``).

    >>> load_policy().shape
    (960,)
    """
    return _numbers(policy_text() if text is None else text, "table", N_POLICY, "policy")


HEURISTIC_WEIGHTS = load_weights()
POLICY = load_policy()
# A learned window value (windows.json, written by benchmarks/fit_tiny_islands_windows.py): a
# number for what each 2x2 window of the board holds, by the drawings done; a placement's value
# gains the change of the four windows around its cell (_value_delta). The jitted functions
# take it appended to the weights after the policy, w[N_WEIGHTS + N_POLICY:]. The heuristic
# bot plays with all of it (heuristic_weights). halving:N reads it in its play-outs only, and
# only from the first drawing on (search_weights): its root ranks without it, and the phase
# before the first drawing, where the table cost the search a point of Mountains, is left
# out (BENCHMARKS.md).
WINDOWS_FILE = "windows.json"
VALUE_CLASSES = 17  # a window's cell: off the board, then (empty or one of the seven tiles) x (water, land)
VALUE_TABLE = VALUE_CLASSES ** 4
N_VALUE = POLICY_PHASES * VALUE_TABLE
VALUE_AT = N_WEIGHTS + N_POLICY  # where the table starts in the weights
# One more number may follow the table: 1 when its windows read the planned land. Under an
# island planned for the next drawing, a cell's side of the shore is then the one it will
# have after that drawing (land ^ plan), not the one it has now: before the first drawing
# every cell is water, and a table of the drawn land cannot tell a tile placed for the island
# from one placed to stay at sea.
VALUE_LAND_AT = VALUE_AT + N_VALUE


def load_window_value(text: str) -> np.ndarray:
    """The learned value of what a 2x2 window holds, by the drawings done: entry
    (((drawings_done * 17 + a) * 17 + b) * 17 + c) * 17 + d for the window's top-left,
    top-right, bottom-left and bottom-right cells, each 0 off the board, else 1 + 2 * tile
    (0: empty) + 1 on land. The file keeps the nonzero entries, in thousandths."""
    return window_table(json.loads(text))


def window_table(data: dict) -> np.ndarray:
    """``load_window_value`` of a windows file already read (a 650 kB file: read once)."""
    entries = np.array(data["entries"], np.int64).reshape(-1, 2)
    if data["classes"] != VALUE_CLASSES or data["phases"] != POLICY_PHASES or len(entries) and (
            entries[:, 0].min() < 0 or entries[:, 0].max() >= N_VALUE):
        raise ValueError("a Tiny Islands windows file holds entries of a table of "
                         f"{POLICY_PHASES} x {VALUE_CLASSES}^4 numbers")
    table = np.zeros(N_VALUE)
    table[entries[:, 0]] = entries[:, 1] / 1000.0
    return table


def window_value_weights(text: str) -> np.ndarray:
    """A windows file as the bots read it after their policy: the table, then 1 if its
    windows read the planned land (the file's ``"land": "planned"``), else 0."""
    data = json.loads(text)
    land = data.get("land", "drawn")
    if land not in ("drawn", "planned"):
        raise ValueError(f"a Tiny Islands windows file's land is 'drawn' or 'planned', not {land!r}")
    return np.append(window_table(data), 1.0 if land == "planned" else 0.0)


WEIGHTS = np.concatenate((HEURISTIC_WEIGHTS, POLICY))  # what mc:N plays with


def windows_text() -> str:
    """The package's own windows file, as text."""
    return resources.files(__package__).joinpath(WINDOWS_FILE).read_text()


@functools.cache
def heuristic_weights() -> np.ndarray:
    """What the heuristic bot plays with: ``WEIGHTS`` and the package's window value (read
    on first use: a 650 kB file that the other bots do not need).

    >>> heuristic_weights().shape[0] == VALUE_LAND_AT + 1
    True
    """
    return np.concatenate((WEIGHTS, window_value_weights(windows_text())))


SEARCH_VALUE_FROM = 1  # halving:N's play-outs read the window value from this many drawings done


@functools.cache
def search_weights() -> np.ndarray:
    """What halving:N and the analysis play out with: ``heuristic_weights`` with the window
    value's entries before drawing ``SEARCH_VALUE_FROM`` set to 0. Their roots rank candidates
    with ``WEIGHTS`` alone (``mc_halving_placement``).

    >>> w = search_weights()
    >>> bool((w[VALUE_AT:VALUE_AT + VALUE_TABLE] == 0).all()), bool((w[:VALUE_AT] == WEIGHTS).all())
    (True, True)
    """
    w = heuristic_weights().copy()
    w[VALUE_AT:VALUE_AT + SEARCH_VALUE_FROM * VALUE_TABLE] = 0.0
    return w


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
def _take_card(free, tile, zone):
    """Mark a free card with this tile (-1: any) and zone (-1: any) used, chosen at random
    among the matches; returns its index or -1."""
    n = 0
    for c in range(DECK_SIZE):
        if free[c] and (tile < 0 or ONE_DECK_TILE[c] == tile) and (zone < 0 or ONE_DECK_ZONE[c] == zone):
            n += 1
    if n == 0:
        return -1
    pick = np.random.randint(n)
    for c in range(DECK_SIZE):
        if free[c] and (tile < 0 or ONE_DECK_TILE[c] == tile) and (zone < 0 or ONE_DECK_ZONE[c] == zone):
            if pick == 0:
                free[c] = False
                return c
            pick -= 1
    return -1


@njit(cache=True)
def _sample_future_one_deck(offers, t, out):
    """Offers for turns after t under the real one-deck pattern (spec §7): the tile of slot i
    on turn k and the zone of slot i on turn k+1 are one card. Cards seen whole are out of the
    deck; the zones of turn 1 and the tiles of turn t are half-seen cards, completed at random
    from the cards that fit; the rest are shuffled. False when the offers fit no such deck."""
    out[:t + 1] = offers[:t + 1]
    whole = np.ones(DECK_SIZE, np.bool_)
    for k in range(t):
        for i in range(2):
            if _take_card(whole, offers[k, 2 * i], offers[k + 1, 2 * i + 1]) < 0:
                return False
    # the half-seen cards compete for the same few cards late in a game: retry the random picks
    for attempt in range(32):
        free = whole.copy()
        done = True
        for i in range(2):
            if _take_card(free, np.int64(-1), offers[0, 2 * i + 1]) < 0:
                done = False
        for i in range(2):
            c = _take_card(free, offers[t, 2 * i], np.int64(-1))
            if c < 0:
                done = False
            elif t + 1 < TURNS:
                out[t + 1, 2 * i + 1] = ONE_DECK_ZONE[c]
        if done:
            break
    if not done:
        return False
    rest = np.flatnonzero(free)
    order = np.random.permutation(rest)
    j = 0
    for k in range(t + 1, TURNS):
        for i in range(2):
            c = order[j]
            j += 1
            out[k, 2 * i] = ONE_DECK_TILE[c]
            if k + 1 < TURNS:
                out[k + 1, 2 * i + 1] = ONE_DECK_ZONE[c]
    return True


@njit(cache=True)
def _sample_future(offers, t, out, deck_model):
    """Offers for turns after t drawn from the cards not seen yet: under the one-deck pattern
    when ``deck_model`` is ONE_DECK and the offers fit it, else the two-deck model."""
    if deck_model == ONE_DECK and _sample_future_one_deck(offers, t, out):
        return
    out[:t + 1] = offers[:t + 1]
    tiles_left = np.empty(64, np.int64)
    zones_left = np.empty(64, np.int64)
    seen_t = np.zeros(8, np.int64)
    seen_z = np.zeros(N_ZONES, np.int64)
    for k in range(t + 1):
        seen_t[offers[k, 0]] += 1
        seen_t[offers[k, 2]] += 1
        seen_z[offers[k, 1]] += 1
        seen_z[offers[k, 3]] += 1
    nt = 0
    for tile in range(1, 8):
        for _ in range(TILE_COUNT[tile] - seen_t[tile]):
            tiles_left[nt] = tile
            nt += 1
    nz = 0
    for zone in range(N_ZONES):
        for _ in range(ZONE_COPIES - seen_z[zone]):
            zones_left[nz] = zone
            nz += 1
    pt = np.random.permutation(tiles_left[:nt])
    pz = np.random.permutation(zones_left[:nz])
    i = 0
    for k in range(t + 1, TURNS):
        out[k, 0] = pt[i]
        out[k, 1] = pz[i]
        out[k, 2] = pt[i + 1]
        out[k, 3] = pz[i + 1]
        i += 2


@njit(cache=True)
def _draw_now(tiles, land, offers, t, wave_rule, effort, w, screen):
    left_land, left_water = _left_counts(offers, t)
    cells, n = best_drawing(tiles, land, wave_rule, left_land, left_water, effort, np.int64(3), w, screen)
    return cells, n


# Before the first drawing, placements follow a plan of the first island from turn PLAN_FROM
# on: the planner's region for the tiles so far, made again every PLAN_EVERY turns (in a
# play-out; every turn at the root). Weights 15-17 say how much the plan counts.
PLAN_FROM = 3
PLAN_EVERY = 3
PLAN_CLIMBS = 3  # rectangles a plan climbs from, as a drawing does (one: half the gain, within noise)


@njit(cache=True)
def _first_island_plan(tiles, land, offers, t, drawings_done, wave_rule, effort, w, screen):
    """(the planned first island as a region mask, whether there is one): the planner's region
    for the tiles placed before turn t, from turn PLAN_FROM until the first drawing."""
    if drawings_done > 0 or t < PLAN_FROM or (w[15] == 0.0 and w[16] == 0.0 and w[17] == 0.0):
        return np.zeros(CELLS, np.bool_), False
    left_land, left_water = _left_counts(offers, t)
    cells, n = best_drawing(tiles, land, wave_rule, left_land, left_water, effort, np.int64(PLAN_CLIMBS), w,
                            screen)
    if n == 0:
        return np.zeros(CELLS, np.bool_), False
    _, region = listed_region(land, cells, n)
    return region, True


@njit(cache=True)
def rollout(tiles, land, offers, t_next, drawings_done, wave_rule, effort, w, screen):
    """Play turns t_next.. with the heuristic and drawings planned with ``effort`` and
    ``screen`` (see ``planned_regions``); returns the final total."""
    return _play_on(tiles, land, offers, t_next, drawings_done, wave_rule, effort, w, screen,
                    np.zeros(CELLS, np.bool_), np.bool_(False))


@njit(cache=True)
def _play_on(tiles, land, offers, t_next, drawings_done, wave_rule, effort, w, screen, plan, committed):
    """``rollout``; when ``committed``, until the next drawing the placements follow the island
    ``plan`` (with ``w``'s plan weights) and that drawing is the plan, climbed
    (``_committed_drawing``)."""
    tiles = tiles.copy()
    land = land.copy()
    d = drawings_done
    planned = committed
    for t in range(t_next, TURNS):
        if committed:
            planned = True
        elif d == 0 and t >= PLAN_FROM and (not planned or (t - PLAN_FROM) % PLAN_EVERY == 0):
            plan, planned = _first_island_plan(tiles, land, offers, t, d, wave_rule, effort, w, screen)
        elif d > 0:
            planned = False
        tile, cell = heuristic_placement(tiles, land, offers[t], 3 - d, wave_rule, w, plan, planned)
        if tile < 0:
            return -100
        tiles[cell] = tile
        if drawing_due(t + 1):
            cells, n = _play_out_drawing(tiles, land, offers, t, d, wave_rule, effort, w, screen, plan, committed)
            _, region = listed_region(land, cells, n)
            land ^= region
            d += 1
            committed = np.bool_(False)  # a plan is for one drawing
    return score_board(tiles, land, wave_rule)[8]


@njit(cache=True)
def _play_out_drawing(tiles, land, offers, t, drawings_done, wave_rule, effort, w, screen, plan, committed):
    """A play-out's drawing after turn t: a committed plan's island, else the planner's."""
    if committed:
        return _committed_drawing(tiles, land, offers, t, wave_rule, effort, w, screen, plan)
    return _draw_now(tiles, land, offers, t, wave_rule, effort, w, screen)


@njit(cache=True)
def _committed_drawing(tiles, land, offers, t, wave_rule, effort, w, screen, plan):
    """The drawing of a committed plan: the plan climbed (or the planner's, when the plan
    is not a legal region)."""
    if check_region(land, plan) != OK:
        return _draw_now(tiles, land, offers, t, wave_rule, effort, w, screen)
    left_land, left_water = _left_counts(offers, t)
    region = plan.copy()
    _climb(tiles, land, region, _objective(tiles, land, region, wave_rule, left_land, left_water, w), wave_rule,
           left_land, left_water, w)
    return _region_cells(region)


# halving:N commits to an island: from turn COMMIT_FROM[d] until drawing d + 1 (the first two
# drawings; the last is exact), its root chooses one among up to COMMIT_PLANS candidates (the
# incumbent, the best rectangle of each size class of SMALL_AREAS clear of earlier shores, the
# planner's best regions) by play-outs that follow it, then searches placements under it; the
# drawing weighs it (climbed) beside the planner's. COMMITTING = False plays the games of
# before the commitment, bit for bit; COMMIT_FROM = [3] those of the first island alone.
COMMITTING = True
COMMIT_FROM = np.array([3, 9])  # the turn from which it commits to the island of each drawing
COMMIT_PLANS = 8
COMMIT_W = np.array([0.0, -3.0, -1.5])  # plan weights in committed play-outs: land in, land out, water in
SMALL_AREAS = np.array([6, 12, 16, 20, 25])  # size classes of small candidate islands (area in (a, b])


@njit(cache=True)
def _plan_weights(w):
    wp = w.copy()
    wp[15] = COMMIT_W[0]
    wp[16] = COMMIT_W[1]
    wp[17] = COMMIT_W[2]
    return wp


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


@njit(cache=True)
def choose_plan(tiles, land, offers, t, drawings_done, wave_rule, rollouts, wp, deck_model, effort, screen, incumbent,
                has_incumbent):
    """The candidate island for the next drawing whose committed play-outs score best, by
    sequential halving (``rollouts`` x COMMIT_PLANS play-outs in all)."""
    plans = _plan_candidates(tiles, land, offers, t, wave_rule, wp, incumbent, has_incumbent)
    m = plans.shape[0]
    alive = np.arange(m)
    sums = np.zeros(m)
    rounds = _halving_rounds(m)
    budget = rollouts * COMMIT_PLANS
    while alive.shape[0] > 1:
        per = max(1, budget // (rounds * alive.shape[0]))
        out = _region_play_outs(tiles, land, offers, t, drawings_done, wave_rule, plans[alive], per, wp, deck_model,
                                effort, screen, np.bool_(True))
        alive = _better_half(sums, alive, out)
    return plans[alive[0]].copy()


@njit(cache=True)
def _halving_rounds(m):
    """Rounds of sequential halving down to one of m candidates."""
    rounds = 0
    while (1 << rounds) < m:
        rounds += 1
    return rounds


@njit(cache=True)
def _better_half(sums, alive, out):
    """Add a round's play-outs (``out``, a row per candidate still in) to their sums; the
    better half goes on (equal sums: the earlier candidate). The candidates still in have had
    the same futures, so their sums rank them."""
    for i in range(alive.shape[0]):
        sums[alive[i]] += out[i].sum()
    ranked = np.argsort(-sums[alive], kind="mergesort")
    return np.sort(alive[ranked[:(alive.shape[0] + 1) // 2]])


@njit(cache=True)
def _top_placements(tiles, land, offer, drawings_done, wave_rule, w, top_k, plan, planned):
    """The heuristic's best ``top_k`` placements (tile, cell), best first; empty when none."""
    cand = legal_placements(tiles, offer)
    n = cand.shape[0]
    vals = np.empty(n, np.float64)
    before = _optimistic_total(tiles, land, 3 - drawings_done, wave_rule)
    for i in range(n):
        vals[i] = _weighted_value(tiles, land, cand[i, 0], cand[i, 1], 3 - drawings_done, wave_rule, w, before,
                                  plan, planned)
    order = np.argsort(-vals[:n])
    return cand[order[:min(top_k, n)]]


@njit(cache=True)
def mc_placement(tiles, land, offers, t, drawings_done, wave_rule, rollouts, top_k, w, deck_model):
    """The best of the heuristic's top-k placements by mean rollout total (same futures for all)."""
    plan, planned = _first_island_plan(tiles, land, offers, t, drawings_done, wave_rule, np.int64(1), w,
                                       np.int64(0))
    top = _top_placements(tiles, land, offers[t], drawings_done, wave_rule, w, top_k, plan, planned)
    if top.shape[0] == 0:
        return -1, -1
    totals = _placement_play_outs(tiles, land, offers, t, drawings_done, wave_rule, top, rollouts, w,
                                  deck_model, np.int64(ROLLOUT_EFFORT), np.int64(0), plan,
                                  np.bool_(False)).sum(axis=1)
    best = np.argmax(totals)  # the first of equal means, as the heuristic ranked them
    return top[best, 0], top[best, 1]


@njit(cache=True)
def mc_halving_placement(tiles, land, offers, t, drawings_done, wave_rule, rollouts, top_k, w, deck_model, effort,
                         screen, commit, committed):
    """The heuristic's top-k placements by sequential halving: rounds of fresh futures, common
    to the candidates still in; after each, the better half (by mean over all their futures)
    goes on. The same budget as ``mc_placement`` (rollouts x top_k play-outs) in equal parts
    per round, so the last two get the most futures. When ``committed`` (``w`` then carries
    the plan weights), the placements and their play-outs follow the island ``commit``. The
    candidates are ranked without the window value that ``w`` may carry: only the play-outs
    read it (at the root it offered worse candidates: BENCHMARKS.md)."""
    if committed:
        plan, planned = commit, np.bool_(True)
    else:
        plan, planned = _first_island_plan(tiles, land, offers, t, drawings_done, wave_rule, np.int64(1), w,
                                            np.int64(0))
    top = _top_placements(tiles, land, offers[t], drawings_done, wave_rule, w[:VALUE_AT].copy(), top_k, plan,
                          planned)
    m = top.shape[0]
    if m == 0:
        return -1, -1
    alive = np.arange(m)
    sums = np.zeros(m)
    rounds = _halving_rounds(m)
    budget = rollouts * top_k
    while alive.shape[0] > 1:
        per = max(1, budget // (rounds * alive.shape[0]))
        out = _placement_play_outs(tiles, land, offers, t, drawings_done, wave_rule, top[alive], per, w,
                                   deck_model, effort, screen, plan, committed)
        alive = _better_half(sums, alive, out)  # equal sums: the heuristic's order
    return top[alive[0], 0], top[alive[0], 1]


PLACEMENT_CANDIDATES = 10  # the heuristic's best placements that mc:N plays out
DRAWING_CANDIDATES = 8  # regions the planner offers mc:N at the first two drawings
DRAWING_FUTURES = 4  # futures per region: this many times N (three drawings a game: cheap)
# halving:N's play-outs plan from every HALVING_EFFORT-th rectangle and from the best
# HALVING_SCREEN by a cheap first look (better play-outs than mc:N's in the same time); it
# weighs HALVING_DRAWING_CANDIDATES regions at the first two drawings, and its last drawing
# climbs from the best FINAL_DRAWING_CANDIDATES rectangles.
HALVING_EFFORT = 32
HALVING_SCREEN = 6
HALVING_DRAWING_CANDIDATES = 16
FINAL_DRAWING_CANDIDATES = 40


@njit(cache=True)
def mc_drawing(tiles, land, offers, t, drawings_done, wave_rule, rollouts, top_n, w, deck_model, effort, screen,
               commit, committed):
    """The planner's best ``top_n`` regions (and, when ``committed``, the island ``commit``
    climbed), each drawn and played out over the same ``rollouts`` futures; returns
    the cells and count of the best mean."""
    left_land, left_water = _left_counts(offers, t)
    regions, values, m = planned_regions(tiles, land, wave_rule, left_land, left_water, np.int64(1), top_n, w,
                                         np.int64(0))
    if committed and check_region(land, commit) == OK:
        cells, n = _committed_drawing(tiles, land, offers, t, wave_rule, np.int64(1), w, np.int64(0), commit)
        _, region = listed_region(land, cells, n)
        if not _among(regions, m, region):
            more = np.zeros((m + 1, CELLS), np.bool_)
            more[:m] = regions[:m]
            more[m] = region
            regions = more
            m += 1
    if m <= 1:
        return _draw_now(tiles, land, offers, t, wave_rule, np.int64(1), w, np.int64(0))
    totals = _region_play_outs(tiles, land, offers, t, drawings_done, wave_rule, regions[:m], rollouts, w,
                               deck_model, effort, screen, np.bool_(False)).sum(axis=1)
    return _region_cells(regions[np.argmax(totals)])


def play(offers, bot, rollouts, seed, wave_rule, deck_model):
    """A whole game; returns (placements, traces, lengths) like players.random_game. Drawings
    are written as regions (the cells they enclose). Plain Python on purpose: the jitted game
    always gets every argument, so all callers share one compiled (and cached) signature; a
    default left out in a jitted call compiles the whole bot again. The heuristic bot plays
    with the learned window value (``heuristic_weights``), halving:N with it in its play-outs
    (``search_weights``), mc:N with ``WEIGHTS``."""
    w = heuristic_weights() if bot == HEURISTIC else search_weights() if bot == HALVING else WEIGHTS
    return play_weighted(offers, bot, rollouts, seed, wave_rule, w, deck_model)


@njit(cache=True, nogil=True)  # long: releases the GIL (an interrupt is served at once)
def play_weighted(offers, bot, rollouts, seed, wave_rule, w, deck_model):
    """``play`` with the heuristic's weights given (the tuner's entry point)."""
    np.random.seed(seed)
    tiles = np.zeros(CELLS, np.int64)
    land = np.zeros(CELLS, np.bool_)
    placements = np.full((TURNS, 2), -1, np.int64)
    traces = np.zeros((3, CELLS), np.int64)
    lens = np.zeros(3, np.int64)
    # what halving:N does differently from mc:N beyond its placements: its play-outs, the
    # regions it weighs at the first two drawings
    effort = HALVING_EFFORT if bot == HALVING else ROLLOUT_EFFORT
    screen = HALVING_SCREEN if bot == HALVING else 0
    regions_weighed = HALVING_DRAWING_CANDIDATES if bot == HALVING else DRAWING_CANDIDATES
    top_k = np.int64(PLACEMENT_CANDIDATES)
    d = np.int64(0)
    commit = np.zeros(CELLS, np.bool_)
    committed = np.bool_(False)
    wp = _plan_weights(w)
    for t in range(TURNS):
        if bot == MC and rollouts > 0:
            tile, cell = mc_placement(tiles, land, offers, t, d, wave_rule, rollouts, top_k, w, deck_model)
        elif bot == HALVING and rollouts > 0 and COMMITTING and d < COMMIT_FROM.shape[0] and t >= COMMIT_FROM[d]:
            commit = choose_plan(tiles, land, offers, t, d, wave_rule, rollouts, wp, deck_model, effort, screen, commit,
                                 committed)
            committed = np.bool_(True)
            tile, cell = mc_halving_placement(tiles, land, offers, t, d, wave_rule, rollouts, top_k, wp,
                                              deck_model, effort, screen, commit, committed)
        elif bot == HALVING and rollouts > 0:
            tile, cell = mc_halving_placement(tiles, land, offers, t, d, wave_rule, rollouts, top_k, w,
                                              deck_model, effort, screen, commit, np.bool_(False))
        else:
            plan, planned = _first_island_plan(tiles, land, offers, t, d, wave_rule, np.int64(1), w, np.int64(0))
            tile, cell = heuristic_placement(tiles, land, offers[t], 3 - d, wave_rule, w, plan, planned)
        if tile < 0:
            break
        placements[t, 0] = tile
        placements[t, 1] = cell
        tiles[cell] = tile
        if drawing_due(t + 1):
            if bot != HEURISTIC and rollouts > 0 and t + 1 < TURNS:
                cells, n = mc_drawing(tiles, land, offers, t, d, wave_rule, DRAWING_FUTURES * rollouts,
                                      regions_weighed, w, deck_model, effort, screen, commit, committed)
            elif bot == HALVING and rollouts > 0:
                cells, n = last_drawing(tiles, land, wave_rule, w)
            else:
                cells, n = _draw_now(tiles, land, offers, t, wave_rule, np.int64(1), w, np.int64(0))
            traces[d, :n] = cells[:n]
            lens[d] = n
            _, region = listed_region(land, cells, n)
            land ^= region
            d += 1
            commit = np.zeros(CELLS, np.bool_)  # a plan is for one drawing
            committed = np.bool_(False)
    return placements, traces, lens


@njit(cache=True)
def seed_random(seed):
    """Seed numba's random stream, the one the jitted bots draw from (numpy's is another): what
    ``play_weighted`` does first, for callers of ``rollout`` or the play-outs outside it."""
    np.random.seed(seed)


@njit(cache=True)
def _draw_seeds(n):
    """n seeds from the calling thread's stream (a serial function: in a parallel one, numba
    would spread an array draw over the threads and their streams)."""
    return np.random.randint(0, 1 << 30, n)


@njit(cache=True, parallel=True)
def _placement_play_outs(tiles, land, offers, t, drawings_done, wave_rule, cands, rollouts, w, deck_model, effort,
                         screen, plan, committed):
    """Final totals of playing each candidate (tile, cell) at turn t, then the heuristic with
    weights ``w`` and planned drawings, over ``rollouts`` futures drawn from the unseen cards;
    the same futures and random numbers for every candidate. Returns float64[k, rollouts].

    The futures run in parallel over the cores; each is seeded from the caller's stream
    first, so the numbers do not depend on how many threads ran them."""
    k = cands.shape[0]
    out = np.zeros((k, rollouts), np.float64)
    due = drawing_due(t + 1)
    seeds = _draw_seeds(rollouts + 1)
    for r in prange(rollouts):
        np.random.seed(seeds[r])
        future = offers.copy()
        _sample_future(offers, t, future, deck_model)
        sub = np.random.randint(1 << 30)
        board = tiles.copy()
        for j in range(k):
            np.random.seed(sub)  # common random numbers: the same drawing restarts for all
            board[cands[j, 1]] = cands[j, 0]
            if due:
                cells, n = _play_out_drawing(board, land, future, t, drawings_done, wave_rule, effort, w, screen,
                                             plan, committed)
                _, region = listed_region(land, cells, n)
                out[j, r] = rollout(board, land ^ region, future, t + 1, drawings_done + 1, wave_rule, effort, w,
                                    screen)
            else:
                out[j, r] = _play_on(board, land, future, t + 1, drawings_done, wave_rule, effort, w, screen, plan,
                                     committed)
            board[cands[j, 1]] = 0
    np.random.seed(seeds[rollouts])  # the caller's stream goes on the same whoever ran what
    return out


@njit(cache=True, parallel=True)
def _region_play_outs(tiles, land, offers, t, drawings_done, wave_rule, regions, rollouts, w, deck_model, effort,
                      screen, follow):
    """Final totals of drawing each candidate region after turn t, then the heuristic with
    weights ``w``; exact (every future alike) after the last turn. With ``follow``, each region
    is instead an island to commit to from turn t on, its placement included (``_play_on``;
    ``w`` then carries the plan weights). Returns float64[k, rollouts]."""
    k = regions.shape[0]
    out = np.zeros((k, rollouts), np.float64)
    seeds = _draw_seeds(rollouts + 1)
    for r in prange(rollouts):
        np.random.seed(seeds[r])
        future = offers.copy()
        _sample_future(offers, t, future, deck_model)
        sub = np.random.randint(1 << 30)
        for j in range(k):
            np.random.seed(sub)
            if follow:
                out[j, r] = _play_on(tiles, land, future, t, drawings_done, wave_rule, effort, w, screen, regions[j],
                                     np.bool_(True))
                continue
            after = land ^ regions[j]
            if t + 1 >= TURNS:
                out[j, r] = score_board(tiles, after, wave_rule)[8]
            else:
                out[j, r] = rollout(tiles, after, future, t + 1, drawings_done + 1, wave_rule, effort, w, screen)
    np.random.seed(seeds[rollouts])
    return out


@njit(cache=True, nogil=True)  # long: releases the GIL (an interrupt is served at once)
def eval_placements(tiles, land, offers, t, drawings_done, wave_rule, cands, rollouts, seed, deck_model, w):
    """The analysis' placement values: ``_placement_play_outs`` with weights ``w`` and
    halving:N's play-outs, from ``seed``."""
    np.random.seed(seed)
    return _placement_play_outs(tiles, land, offers, t, drawings_done, wave_rule, cands, rollouts, w,
                                deck_model, np.int64(HALVING_EFFORT), np.int64(HALVING_SCREEN),
                                np.zeros(CELLS, np.bool_), np.bool_(False))


@njit(cache=True, nogil=True)  # long: releases the GIL (an interrupt is served at once)
def eval_regions(tiles, land, offers, t, drawings_done, wave_rule, regions, rollouts, seed, deck_model, w):
    """The analysis' drawing values: ``_region_play_outs`` with weights ``w`` and halving:N's
    play-outs, from ``seed``."""
    np.random.seed(seed)
    return _region_play_outs(tiles, land, offers, t, drawings_done, wave_rule, regions, rollouts, w,
                             deck_model, np.int64(HALVING_EFFORT), np.int64(HALVING_SCREEN), np.bool_(False))


@njit(cache=True, nogil=True)  # long: releases the GIL (an interrupt is served at once)
def planned_region(tiles, land, offers, t, wave_rule, w):
    """The bot's own drawing after turn t, as a region mask: the planner's, searched as widely as
    halving:N's at the last drawing."""
    if t + 1 >= TURNS:
        cells, n = last_drawing(tiles, land, wave_rule, w)
    else:
        cells, n = _draw_now(tiles, land, offers, t, wave_rule, np.int64(1), w, np.int64(0))
    _, region = listed_region(land, cells, n)
    return region
