"""Scorebook's strongest one-player Patchwork: plan the whole game, then tile it exactly.

The one-player game has no chance, so a plan is a policy. Planning runs on the shape-less
abstraction of a state: time ``t``, buttons, income, the patches bought, the squares filled
(on the real quilt, leather patches fill a square each as they come). Two things make the
real game more than that abstraction, and both are settled at the end:

* **Timing.** A beam search by time: the states of each space of the track, at most
  ``width`` of them, are expanded in turn. A move is a macro: skip the fewest spaces that
  afford a patch, then buy it (skipping more only delays its income); near the end also
  "skip to 52 (or to where it ends on 53) and buy" (the thesis's overrun: a 6-time patch
  bought on 52 costs one space), plain skips from space 44 on, and skipping to the end.
  States with the same patches at the same time keep the most buttons (it dominates), the
  rest are ranked by ``buttons + income x income spaces ahead + FILL_WEIGHT x squares``.
* **Shapes.** A patch set is only worth its abstract score if its patches, the leather
  patches still to come, and the holes the plan leaves fit the quilt's empty squares exactly.
  ``tile`` decides that by a depth-first exact cover (the first empty square, every patch
  that can cover it in every orientation, biggest first, then a leather patch or a hole),
  pruning when more squares are cut off than leather patches and holes can take. Since the
  patches of a tiling never overlap, they can be placed in any order: a tiling makes the plan
  playable as it stands. The best abstract plans are tried in order of score until one tiles.

>>> import numpy as np
>>> from .rules import new_state
>>> plan = make_plan(new_state(SIM, np.zeros(0, np.int64)), 400, 0)
>>> plan.score >= 60, plan.moves[0][0] in (BUY, SKIP)
(True, True)
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scorebook.engines.jit import njit

from .pieces import (CELLS, COLS, COST, INCOME, INCOME_UPTO, LAST_SPACE, LEATHER_SPACES, LEATHER_UPTO, LOW_BITS,
                     N_PATCHES, PL_CODE, PL_COL, PL_HI, PL_LO, PL_ROW, RESOLVE, ROWS, SIM, SIZE, TIME,
                     distinct_orientations, oriented)
from .rules import (BOUGHT, BUTTONS, BUY, DUE, EMPTY_PENALTY, FULL_BONUS, HI, INCOME_NOW, LEATHER_MOVE, LO, NO_PLACE,
                    SKIP, SQUARES, TIME as T_NOW, VARIANT, apply, is_over, solo_total)

FILL_WEIGHT = 0.6  # buttons a filled square is worth to the ranking (measured: 0.5-0.75 best in sim)
LATE_SKIPS = 44  # from this space on, plain skips of any length are moves too
END = -1  # the macro "skip to the end"
N_LEATHER = LEATHER_SPACES.shape[0]

# the distinct orientations of each patch and, for each, the column of its top row's first
# square: the tiler covers a square with that cell
N_DISTINCT = np.array([len(distinct_orientations(p)) for p in range(N_PATCHES)], np.int64)
DISTINCT = np.full((N_PATCHES, 8), -1, np.int64)
FIRST_COLUMN = np.zeros((N_PATCHES, 8), np.int64)
for _p in range(N_PATCHES):
    for _j, _code in enumerate(distinct_orientations(_p)):
        DISTINCT[_p, _j] = _code
        FIRST_COLUMN[_p, _j] = min(c for r, c in oriented(_p, _code) if r == 0)
# cells next to each cell (up, down, left, right), as (low, high) words
NEIGHBOURS = np.zeros((CELLS, 2), np.int64)
for _cell in range(CELLS):
    _r, _c = divmod(_cell, COLS)
    for _rr, _cc in ((_r - 1, _c), (_r + 1, _c), (_r, _c - 1), (_r, _c + 1)):
        if 0 <= _rr < ROWS and 0 <= _cc < COLS:
            _n = _rr * COLS + _cc
            if _n < LOW_BITS:
                NEIGHBOURS[_cell, 0] |= 1 << _n
            else:
                NEIGHBOURS[_cell, 1] |= 1 << (_n - LOW_BITS)


# ---------------------------------------------------------------- the abstraction


@njit(cache=True)
def _advance(t, buttons, income, filled, spaces, real):
    """Move ``spaces`` along the track: income paid, leather patches filling squares (real)."""
    t2 = min(t + spaces, LAST_SPACE)
    buttons += (INCOME_UPTO[t2] - INCOME_UPTO[t]) * income
    if real:
        filled += min(LEATHER_UPTO[t2] - LEATHER_UPTO[t], CELLS - filled)
    return t2, buttons, filled


@njit(cache=True)
def _final_score(buttons, filled, real):
    empty = CELLS - filled if real else max(CELLS - filled - N_LEATHER, 0)
    return buttons + (FULL_BONUS if empty == 0 else 0) - EMPTY_PENALTY * empty


@njit(cache=True)
def _rank(buttons, income, filled, t, real, fill_weight):
    target = CELLS if real else CELLS - N_LEATHER
    return buttons + income * (INCOME_UPTO[LAST_SPACE] - INCOME_UPTO[t]) + fill_weight * min(filled, target)


@njit(cache=True)
def _prune(mask, buttons, income, filled, parent, action, n, keep, t, real, table, fill_weight):
    """Keep the ``keep`` best of a bucket's ``n`` states, same patches keeping the most
    buttons; returns how many remain (in the first slots)."""
    size = table.shape[0]
    table[:] = -1
    kept = 0
    for i in range(n):
        h = np.uint64(mask[i]) * np.uint64(0x9E3779B97F4A7C15)
        slot = np.int64(h >> np.uint64(40)) % size
        while True:
            j = table[slot]
            if j < 0:
                table[slot] = kept
                mask[kept], buttons[kept], income[kept] = mask[i], buttons[i], income[i]
                filled[kept], parent[kept], action[kept] = filled[i], parent[i], action[i]
                kept += 1
                break
            if mask[j] == mask[i]:
                if buttons[i] > buttons[j]:
                    buttons[j], parent[j], action[j] = buttons[i], parent[i], action[i]
                break
            slot = (slot + 1) % size
    if kept <= keep:
        return kept
    score = np.empty(kept, np.float64)
    for i in range(kept):
        score[i] = -_rank(buttons[i], income[i], filled[i], t, real, fill_weight)
    order = np.argsort(score, kind="mergesort")[:keep]
    m2, b2, i2, f2, p2, a2 = (mask[order].copy(), buttons[order].copy(), income[order].copy(), filled[order].copy(),
                              parent[order].copy(), action[order].copy())
    mask[:keep], buttons[:keep], income[:keep], filled[:keep], parent[:keep], action[:keep] = m2, b2, i2, f2, p2, a2
    return keep


@njit(cache=True)
def beam(t0, buttons0, income0, mask0, filled0, real, width, fill_weight, max_finals, finals_out, arena_out):
    """The beam search from one abstract state. Returns (finals, arena size): ``finals_out``
    rows (score, arena index, action, buttons, filled) best first; ``arena_out`` rows
    (parent, action, t, mask) of every expanded state (row 0 the root). An action is
    ``patch * 64 + spaces skipped first``, or ``END``."""
    cap = 4 * width
    n_b = LAST_SPACE + 1
    mask = np.zeros((n_b, cap), np.int64)
    buttons = np.zeros((n_b, cap), np.int64)
    income = np.zeros((n_b, cap), np.int64)
    filled = np.zeros((n_b, cap), np.int64)
    parent = np.zeros((n_b, cap), np.int64)
    action = np.zeros((n_b, cap), np.int64)
    count = np.zeros(n_b, np.int64)
    table = np.empty(2 * cap + 1, np.int64)
    fin_score = np.empty(max_finals, np.int64)
    n_fin = 0
    arena_n = 1
    arena_out[0, 0], arena_out[0, 1], arena_out[0, 2], arena_out[0, 3] = -1, 0, t0, mask0
    mask[t0, 0], buttons[t0, 0], income[t0, 0], filled[t0, 0], parent[t0, 0], action[t0, 0] = \
        mask0, buttons0, income0, filled0, -1, 0
    count[t0] = 1
    room_limit = CELLS
    for t in range(t0, LAST_SPACE):
        if count[t] == 0:
            continue
        n = _prune(mask[t], buttons[t], income[t], filled[t], parent[t], action[t], count[t], width, t, real, table,
                   fill_weight)
        for i in range(n):
            if arena_n >= arena_out.shape[0]:
                break
            me = arena_n
            if t == t0 and i == 0 and parent[t, 0] == -1:
                me = 0  # the root is row 0
            else:
                arena_out[me, 0], arena_out[me, 1], arena_out[me, 2], arena_out[me, 3] = \
                    parent[t, i], action[t, i], t, mask[t, i]
                arena_n += 1
            m, b, inc, f = mask[t, i], buttons[t, i], income[t, i], filled[t, i]
            # successors: (patch, spaces skipped first); -1 patch = a plain skip
            for p in range(-1, N_PATCHES):
                if p >= 0:
                    if (m >> p) & 1 or SIZE[p] > room_limit - f:
                        continue
                    # the fewest skips that afford it
                    kmin = -1
                    bb = b
                    for k in range(LAST_SPACE - t):
                        if k > 0:
                            bb += 1 + (INCOME_UPTO[t + k] - INCOME_UPTO[t + k - 1]) * inc
                        if bb >= COST[p]:
                            kmin = k
                            break
                    if kmin < 0:
                        continue
                    options = 3
                else:
                    kmin = 1
                    options = LAST_SPACE - t - 1 if t >= LATE_SKIPS else 0
                for o in range(options):
                    if p >= 0:
                        k = kmin if o == 0 else (LAST_SPACE - 1 - t if o == 1 else LAST_SPACE - TIME[p] - t)
                        if o > 0 and (k <= kmin or (o == 2 and k == LAST_SPACE - 1 - t)):
                            continue
                    else:
                        k = o + 1
                    # skip k
                    t1, b1, f1 = _advance(t, b + k, inc, f, k, real)
                    m1, inc1 = m, inc
                    if p >= 0:
                        if SIZE[p] > CELLS - f1:
                            continue  # a leather patch took the room
                        b1 -= COST[p]
                        inc1 = inc + INCOME[p]
                        f1 += SIZE[p]
                        m1 = m | (np.int64(1) << p)
                        t1, b1, f1 = _advance(t1, b1, inc1, f1, TIME[p], real)
                    act = (p if p >= 0 else N_PATCHES) * 64 + k
                    if t1 >= LAST_SPACE:
                        if n_fin < max_finals:
                            fin_score[n_fin] = _final_score(b1, f1, real)
                            finals_out[n_fin, 0], finals_out[n_fin, 1], finals_out[n_fin, 2] = fin_score[n_fin], me, act
                            finals_out[n_fin, 3], finals_out[n_fin, 4], finals_out[n_fin, 5] = b1, f1, m1
                            n_fin += 1
                        continue
                    j = count[t1]
                    if j == cap:
                        j = _prune(mask[t1], buttons[t1], income[t1], filled[t1], parent[t1], action[t1], cap,
                                   width, t1, real, table, fill_weight)
                    mask[t1, j], buttons[t1, j], income[t1, j], filled[t1, j] = m1, b1, inc1, f1
                    parent[t1, j], action[t1, j] = me, act
                    count[t1] = j + 1
            # skip to the end
            t1, b1, f1 = _advance(t, b + LAST_SPACE - t, inc, f, LAST_SPACE - t, real)
            if n_fin < max_finals:
                finals_out[n_fin, 0], finals_out[n_fin, 1], finals_out[n_fin, 2] = _final_score(b1, f1, real), me, END
                finals_out[n_fin, 3], finals_out[n_fin, 4], finals_out[n_fin, 5] = b1, f1, m
                n_fin += 1
        if n_fin >= max_finals:  # keep the best half of the finals
            order = np.argsort(-finals_out[:n_fin, 0], kind="mergesort")[:max_finals // 2]
            finals_out[:max_finals // 2] = finals_out[order].copy()
            n_fin = max_finals // 2
    order = np.argsort(-finals_out[:n_fin, 0], kind="mergesort")
    finals_out[:n_fin] = finals_out[order].copy()
    return n_fin, arena_n


# ---------------------------------------------------------------- tiling


@njit(cache=True)
def _isolated(lo, hi) -> np.int64:
    """Empty squares with no empty neighbour."""
    n = 0
    for cell in range(CELLS):
        empty = not ((lo >> cell) & 1) if cell < LOW_BITS else not ((hi >> (cell - LOW_BITS)) & 1)
        if empty and (NEIGHBOURS[cell, 0] & ~lo) == 0 and (NEIGHBOURS[cell, 1] & ~hi) == 0:
            n += 1
    return n


@njit(cache=True)
def _first_empty(lo, hi) -> np.int64:
    for cell in range(CELLS):
        if cell < LOW_BITS:
            if not (lo >> cell) & 1:
                return cell
        elif not (hi >> (cell - LOW_BITS)) & 1:
            return cell
    return -1


@njit(cache=True)
def _tile(lo, hi, pieces, used, monos, holes, placed, cells, nodes, limit):
    """Depth-first exact cover of the empty squares, with an explicit stack (numba's cache
    cannot hold a recursive function safely). A frame covers its first empty square with an
    unused piece (each orientation), else a leather patch, else a hole; ``placed[i]`` the
    placement of piece i, ``cells[depth]`` as ``tile`` says."""
    depth_max = CELLS + 1
    f_lo = np.zeros(depth_max, np.int64)
    f_hi = np.zeros(depth_max, np.int64)
    f_monos = np.zeros(depth_max, np.int64)
    f_holes = np.zeros(depth_max, np.int64)
    f_first = np.zeros(depth_max, np.int64)
    f_stage = np.zeros(depth_max, np.int64)  # 0 pieces, 1 leather, 2 hole, 3 exhausted
    f_piece = np.zeros(depth_max, np.int64)  # the piece cursor, then the orientation cursor
    f_orient = np.zeros(depth_max, np.int64)
    f_choice = np.zeros(depth_max, np.int64)  # what this frame placed: piece index, -1 leather, -2 hole
    d = 0
    f_lo[0], f_hi[0], f_monos[0], f_holes[0] = lo, hi, monos, holes
    entering = True
    while d >= 0:
        if entering:
            entering = False
            nodes[0] += 1
            if nodes[0] > limit:
                return False
            first = _first_empty(f_lo[d], f_hi[d])
            if first < 0:
                return True
            f_first[d], f_stage[d], f_piece[d], f_orient[d] = first, 0, 0, 0
            if _isolated(f_lo[d], f_hi[d]) > f_monos[d] + f_holes[d]:
                f_stage[d] = 3
        first = f_first[d]
        clo, chi = f_lo[d], f_hi[d]
        pushed = False
        if f_stage[d] == 0:
            r, c = first // COLS, first % COLS
            i = f_piece[d]
            while i < pieces.shape[0] and not pushed:
                p = pieces[i]
                skip_piece = used[i]
                if not skip_piece:  # a piece of the same shape as an unused earlier one was tried already
                    for j in range(i):
                        if not used[j] and SIZE[pieces[j]] == SIZE[p] and _same_shape(pieces[j], p):
                            skip_piece = True
                            break
                if not skip_piece:
                    o = f_orient[d]
                    while o < N_DISTINCT[p]:
                        code = DISTINCT[p, o]
                        col = c - FIRST_COLUMN[p, o]
                        o += 1
                        if col < 0:
                            continue
                        k = RESOLVE[p, code, r, col]
                        if k < 0 or (PL_LO[k] & clo) != 0 or (PL_HI[k] & chi) != 0:
                            continue
                        used[i] = True
                        placed[i] = k
                        f_piece[d], f_orient[d], f_choice[d] = i, o, i
                        f_lo[d + 1], f_hi[d + 1] = clo | PL_LO[k], chi | PL_HI[k]
                        f_monos[d + 1], f_holes[d + 1] = f_monos[d], f_holes[d]
                        pushed = True
                        break
                if not pushed:
                    i += 1
                    f_orient[d] = 0
            if not pushed:
                f_stage[d] = 1
        if not pushed and f_stage[d] == 1:
            f_stage[d] = 2
            if f_monos[d] > 0:
                cells[d] = first
                f_choice[d] = -1
                f_monos[d + 1], f_holes[d + 1] = f_monos[d] - 1, f_holes[d]
                pushed = True
        if not pushed and f_stage[d] == 2:
            f_stage[d] = 3
            if f_holes[d] > 0:
                cells[d] = -2 - first
                f_choice[d] = -2
                f_monos[d + 1], f_holes[d + 1] = f_monos[d], f_holes[d] - 1
                pushed = True
        if pushed:
            if f_choice[d] < 0:
                bit_lo = np.int64(1) << first if first < LOW_BITS else np.int64(0)
                bit_hi = np.int64(1) << (first - LOW_BITS) if first >= LOW_BITS else np.int64(0)
                f_lo[d + 1], f_hi[d + 1] = clo | bit_lo, chi | bit_hi
            d += 1
            entering = True
            continue
        # this frame is exhausted: back to the parent, undoing its choice
        d -= 1
        if d >= 0:
            if f_choice[d] >= 0:
                used[f_choice[d]] = False
            else:
                cells[d] = -1
    return False


SHAPE_CLASS = np.zeros(N_PATCHES, np.int64)
_classes: dict = {}
for _p in range(N_PATCHES):
    _key = min(oriented(_p, _k) for _k in range(8))
    SHAPE_CLASS[_p] = _classes.setdefault(_key, len(_classes))


@njit(cache=True)
def _same_shape(a, b) -> bool:
    return SHAPE_CLASS[a] == SHAPE_CLASS[b]


@njit(cache=True)
def tile(lo, hi, pieces, monos, holes, limit, placed, cells):
    """Can ``pieces`` (patch ids), ``monos`` leather patches and ``holes`` empty squares fill
    the empty squares of the quilt (lo, hi) exactly? Returns 1 (yes: ``placed[i]`` the
    placement of piece i; ``cells`` the leather squares, then -2 - cell for the holes, in the
    order met), 0 (no), -1 (undecided within ``limit`` nodes)."""
    order = np.argsort(-SIZE[pieces], kind="mergesort")
    ordered = pieces[order].copy()
    used = np.zeros(ordered.shape[0], np.bool_)
    got = np.full(ordered.shape[0], -1, np.int64)
    cells[:] = -1
    nodes = np.zeros(1, np.int64)
    ok = _tile(lo, hi, ordered, used, monos, holes, got, cells, nodes, limit)
    for i in range(ordered.shape[0]):
        placed[order[i]] = got[i]
    if ok:
        return 1
    return -1 if nodes[0] > limit else 0


# ---------------------------------------------------------------- plans


@dataclass
class Plan:
    """A whole game from a state: the engine moves to play, the final score they reach, and
    the abstract steps behind them ((patch or -1, spaces skipped first) each)."""
    score: int
    moves: list[tuple[int, int, int]]
    steps: list[tuple[int, int]]
    tried: int = 0  # patch sets tried before one tiled (real quilt)


TILE_LIMIT = 20_000  # nodes of one exact-cover attempt
MAX_TRIES = 400  # abstract plans tried for a tiling, best first
# A plan better than the best that tiled, left undecided within TILE_LIMIT, is tried again
# with this many nodes, best first, up to RETRY_BUDGET nodes in all: on the real quilt the
# 85-point plans are undecided at 20,000 nodes and one of them tiles within 2,000,000, while
# 84-point plans tile at once (BENCHMARKS.md, Patchwork).
RETRY_LIMIT = 2_000_000
RETRY_BUDGET = 16_000_000


def make_plan(s: np.ndarray, width: int, seed: int, fill_weight: float = FILL_WEIGHT) -> Plan | None:
    """The best plan the beam finds from one-player state ``s`` (no leather patch due),
    tiled when the quilt is real; None if the game is over."""
    if is_over(s):
        return None
    real = s[VARIANT] != SIM
    finals = np.zeros((max(64 * width, 4096), 6), np.int64)
    arena = np.zeros((width * (LAST_SPACE + 1) + 2, 4), np.int64)
    # a leather patch due (real quilt) is a square filled now: the tiling says where it goes
    n_fin, _ = beam(s[T_NOW], s[BUTTONS], s[INCOME_NOW], s[BOUGHT], s[SQUARES] + s[DUE], real, width, fill_weight,
                    finals.shape[0], finals, arena)
    tried: dict = {}
    undecided: list[int] = []  # finals whose tiling the first limit left open, best first
    for i in range(min(n_fin, MAX_TRIES if real else 1)):
        steps = _steps(finals[i], arena)
        if not real:
            return _playable(s, finals[i, 0], steps, None, None, len(tried))
        patches = np.array([p for p, _ in steps if p >= 0], np.int64)
        key = (tuple(sorted(patches.tolist())), int(finals[i, 4]))
        if key in tried:
            continue
        tried[key] = None
        plan, decided = _tiled(s, finals[i], steps, patches, TILE_LIMIT, len(tried))
        if plan is not None:
            spent = 0
            for j in undecided:  # the better plans the first limit left open, with more nodes
                if finals[j, 0] <= plan.score or spent + RETRY_LIMIT > RETRY_BUDGET:
                    break
                spent += RETRY_LIMIT
                steps = _steps(finals[j], arena)
                better, _ = _tiled(s, finals[j], steps, np.array([p for p, _ in steps if p >= 0], np.int64),
                                   RETRY_LIMIT, len(tried))
                if better is not None:
                    return better
            return plan
        if not decided:
            undecided.append(i)
    return None


def _tiled(s: np.ndarray, final: np.ndarray, steps, patches: np.ndarray, limit: int, tried: int):
    """(the plan of an abstract final if its patches tile the quilt within ``limit`` nodes,
    else None; whether the tiler decided)."""
    monos = int(final[4]) - int(s[SQUARES]) - int(SIZE[patches].sum()) if patches.size else \
        int(final[4]) - int(s[SQUARES])
    holes = CELLS - int(final[4])
    placed = np.full(max(patches.size, 1), -1, np.int64)
    cells = np.full(CELLS, -1, np.int64)
    found = int(tile(s[LO], s[HI], patches, monos, holes, limit, placed, cells))
    if found != 1:
        return None, found == 0
    leather = [int(c) for c in cells if c >= 0]
    return _playable(s, final[0], steps, dict(zip(patches.tolist(), placed.tolist())), leather, tried), True


def _steps(final: np.ndarray, arena: np.ndarray) -> list[tuple[int, int]]:
    """The abstract steps of a final, first first: (patch or -1 for a plain skip, spaces)."""
    steps = []
    act, node = int(final[2]), int(final[1])
    if act != END:
        steps.append(_step(act))
    else:
        steps.append((-1, -1))  # to the end
    while node > 0:
        steps.append(_step(int(arena[node, 1])))
        node = int(arena[node, 0])
    return steps[::-1]


def _step(act: int) -> tuple[int, int]:
    p, k = divmod(act, 64)
    return (p if p < N_PATCHES else -1, k)


def _playable(s: np.ndarray, score: int, steps, placements: dict | None, leather: list | None, tried: int) -> Plan | None:
    """The engine moves of a plan, checked by playing them on a copy of ``s``."""
    state = s.copy()
    moves: list[tuple[int, int, int]] = []
    leather = list(leather or [])

    def play(kind, a, b) -> bool:
        if apply(state, kind, a, b) != 0:
            return False
        moves.append((kind, a, b))
        while state[DUE] > 0:
            cell = leather.pop(0) if leather else -1
            if apply(state, LEATHER_MOVE, cell, 0) != 0:
                return False
            moves.append((LEATHER_MOVE, cell, 0))
        return True

    while state[DUE] > 0:
        cell = leather.pop(0) if leather else -1
        if apply(state, LEATHER_MOVE, cell, 0) != 0:
            return None
        moves.append((LEATHER_MOVE, cell, 0))
    for p, k in steps:
        if k == -1:  # to the end
            if state[T_NOW] < LAST_SPACE and not play(SKIP, LAST_SPACE - int(state[T_NOW]), 0):
                return None
            continue
        if k > 0 and not play(SKIP, k, 0):
            return None
        if p >= 0:
            place = NO_PLACE if placements is None else _code(placements[p])
            if not play(BUY, p, place):
                return None
    if state[T_NOW] < LAST_SPACE and not play(SKIP, LAST_SPACE - int(state[T_NOW]), 0):
        return None
    if not is_over(state):
        return None
    return Plan(int(solo_total(state)), moves, steps, tried)


def _code(k: int) -> int:
    return int(PL_CODE[k]) * 256 + int(PL_ROW[k]) * 16 + int(PL_COL[k])

