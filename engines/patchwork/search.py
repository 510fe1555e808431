"""Patchwork's searching bots: the thesis's pure Monte Carlo and MCTS (spec section 2), and the
two-player half of ``best`` (Monte Carlo over a few good moves with value-guided play-outs).

Every option of a decision is followed by the same play-out seeds (common random numbers),
so two options' values differ by what the options do, not by luck.

>>> import numpy as np
>>> from .pieces import SIM
>>> from .rules import new_state
>>> s = new_state(SIM, np.zeros(0, np.int64))
>>> moves = mc_choice(s, 4, False, 1)
>>> len(moves) == 1 and moves[0][0] in (BUY, SKIP)
True
"""
from __future__ import annotations

import math

import numpy as np
from scorebook.engines.jit import njit, prange

from .. import threads  # noqa: F401  (the analysis' play-outs run on every core: numba's threads first)
from .bots import (RANDOM_PATCH, buy_code, contacts, covered, fitting_placements, leather_cell, new_rng, below, play_out,
                   snug_placement, value_choice)
from .pieces import CELLS, COLS, COST, LAST_SPACE, N_PATCHES, N_PLACEMENTS, PL_HI, PL_LO, ROWS, SIM, cells_of
from .rules import (ADVANCE, BOUGHT, BUTTONS, BUY, DUE, HI, LEATHER_MOVE, LO, NO_PLACE, PLAYERS, SEAT_SIZE, SKIP, SQUARES,
                    TIME as T_NOW, TO_MOVE, UNAFFORDABLE, VARIANT, WINDOW, apply, check_buy, is_over, OK, placement_of,
                    solo_total, two_player_finals, window)

MAX_OPTIONS = N_PLACEMENTS + LAST_SPACE + CELLS + 2  # every legal move of one decision fits
MS = 85.0  # the thesis's /MS: an MCTS value divided by it before the exploration term
EXPLORATION = math.sqrt(2.0)


@njit(cache=True)
def legal_options(s: np.ndarray, out: np.ndarray) -> np.int64:
    """Every legal move into ``out`` [MAX_OPTIONS, 3]; how many. A due leather patch: every
    free square (or lost, the quilt full); else skips (one player) or the advance, and every
    buy of every fitting distinct placement (shape-less: every buy with room)."""
    n = 0
    if is_over(s):
        return 0
    b = SEAT_SIZE * s[TO_MOVE]
    if s[DUE] > 0:
        for c in range(CELLS):
            if not covered(s, b, c):
                out[n, 0], out[n, 1], out[n, 2] = LEATHER_MOVE, c, 0
                n += 1
        if n == 0:
            out[0, 0], out[0, 1], out[0, 2] = LEATHER_MOVE, -1, 0
            n = 1
        return n
    patches = np.empty(N_PATCHES, np.int64)
    m = 0
    if s[PLAYERS] == 2:
        out[0, 0], out[0, 1], out[0, 2] = ADVANCE, 0, 0
        n = 1
        m = window(s, patches)
    else:
        for k in range(1, LAST_SPACE - s[T_NOW] + 1):
            out[n, 0], out[n, 1], out[n, 2] = SKIP, k, 0
            n += 1
        for p in range(N_PATCHES):
            if not (s[BOUGHT] >> p) & 1:
                patches[m] = p
                m += 1
    places = np.empty(N_PLACEMENTS, np.int64)
    for i in range(m):
        p = patches[i]
        if s[VARIANT] == SIM:
            if check_buy(s, p, NO_PLACE) == OK:
                out[n, 0], out[n, 1], out[n, 2] = BUY, p, NO_PLACE
                n += 1
            continue
        if check_buy(s, p, 0) == UNAFFORDABLE:  # no placement can make it legal
            continue
        f = fitting_placements(s, p, places)
        for j in range(f):
            if check_buy(s, p, buy_code(places[j])) == OK:
                out[n, 0], out[n, 1], out[n, 2] = BUY, p, buy_code(places[j])
                n += 1
    return n


@njit(cache=True)
def outcome(s: np.ndarray, seat: np.int64) -> np.float64:
    """A finished game's value to ``seat``: the total (one player) or its final margin."""
    if s[PLAYERS] == 1:
        return np.float64(solo_total(s))
    f = np.zeros(2, np.int64)
    two_player_finals(s, f)
    return np.float64(f[seat] - f[1 - seat])


GUIDED = 100  # play-out policy of ``best`` (two players): the rule-based player, its TCM drawn per decision


@njit(cache=True)
def guided_play_out(s: np.ndarray, rng: np.ndarray) -> None:
    """Both seats play the rule-based value player to the end, its time-cost modifier drawn
    in [1, 3) for every decision so that play-outs differ."""
    out = np.empty((2, 3), np.int64)
    while not is_over(s):
        tcm = 1.0 + below(rng, 200) / 100.0
        c = value_choice(s, True, tcm, rng, out)
        apply(s, out[0, 0], out[0, 1], out[0, 2])
        if c == 2 and s[DUE] == 0:
            apply(s, out[1, 0], out[1, 1], out[1, 2])


@njit(cache=True, nogil=True)
def option_values(s: np.ndarray, options: np.ndarray, n: np.int64, playouts: np.int64, policy: np.int64,
                  seed: np.int64, values: np.ndarray) -> None:
    """``values[i, j]``: the mover's outcome after option i then play-out j (its own seed,
    the same for every option). ``policy``: RANDOM, RANDOM_PATCH or GUIDED."""
    seat = s[TO_MOVE]
    for i in range(n):
        for j in range(playouts):
            t = s.copy()
            apply(t, options[i, 0], options[i, 1], options[i, 2])
            rng = new_rng(seed, j)
            if policy == GUIDED:
                guided_play_out(t, rng)
            else:
                play_out(t, policy, 0, rng)
            values[i, j] = outcome(t, seat)


@njit(cache=True)
def duel_options(s: np.ndarray, out: np.ndarray) -> np.int64:
    """The few moves a searched play-out weighs at a decision, into ``out`` [1 + WINDOW, 3];
    how many: the advance and each affordable window patch at its snuggest placement; a due
    leather patch: the snuggest square (the rule-based player's)."""
    if s[DUE] > 0:
        out[0, 0], out[0, 1], out[0, 2] = LEATHER_MOVE, leather_cell(s, 2, np.zeros(1, np.uint64)), 0
        return 1
    b = SEAT_SIZE * s[TO_MOVE]
    out[0, 0], out[0, 1], out[0, 2] = ADVANCE, 0, 0
    n = 1
    w = np.empty(WINDOW, np.int64)
    for i in range(window(s, w)):
        p = w[i]
        if COST[p] > s[BUTTONS + b]:
            continue
        k = snug_placement(s, p)
        if k >= 0:
            out[n, 0], out[n, 1], out[n, 2] = BUY, p, buy_code(k)
            n += 1
    return n


@njit(cache=True)
def searched_play_out(s: np.ndarray, rng: np.ndarray, inner: np.int64) -> None:
    """Both seats play to the end as ``best`` decides, in small: at every decision, each of
    ``duel_options`` followed by ``inner`` guided play-outs (the same seeds for each), the
    highest total played. The guided player alone never advances while a window patch it can
    afford has a positive value (Eq. 4), so it buys a cheap patch where advancing is better: a
    move that hands it such a decision was valued up to 18 points too high (an advance
    at +15.5 where self-play of ``best:8`` from there gives -2.5; benchmarks/history)."""
    options = np.empty((1 + WINDOW, 3), np.int64)
    while not is_over(s):
        n = duel_options(s, options)
        choice = 0
        if n > 1:
            seat, seed, top = s[TO_MOVE], below(rng, 1 << 30), -1e18
            for i in range(n):
                total = 0.0
                for j in range(inner):
                    t = s.copy()
                    apply(t, options[i, 0], options[i, 1], options[i, 2])
                    guided_play_out(t, new_rng(seed, j))
                    total += outcome(t, seat)
                if total > top:
                    choice, top = i, total
        apply(s, options[choice, 0], options[choice, 1], options[choice, 2])


@njit(cache=True, parallel=True)
def searched_values(s: np.ndarray, options: np.ndarray, playouts: np.int64, inner: np.int64, seed: np.int64,
                    values: np.ndarray) -> None:
    """``values[i, j]``: the mover's outcome after option i then searched play-out j (its own
    seed, the same for every option), on every core (each play-out's numbers its own, so the
    values do not depend on the threads)."""
    seat, n = s[TO_MOVE], options.shape[0]
    for k in prange(n * playouts):
        i, j = k // playouts, k % playouts
        t = s.copy()
        apply(t, options[i, 0], options[i, 1], options[i, 2])
        searched_play_out(t, new_rng(seed, j), inner)
        values[i, j] = outcome(t, seat)


def options_of(s: np.ndarray) -> np.ndarray:
    out = np.empty((MAX_OPTIONS, 3), np.int64)
    return out[:legal_options(s, out)].copy()


def first_move_classes(s: np.ndarray, options: np.ndarray) -> np.ndarray:
    """Spec section 2: at the very first move the quilt is empty, so rotations and mirrors of
    a buy are the same move; the options kept, one per (patch, cells up to symmetry)."""
    if int(s[SQUARES]) or int(s[BOUGHT]) or s[PLAYERS] == 2:
        return np.arange(options.shape[0])
    keep, seen = [], set()
    for i, (kind, a, b) in enumerate(options):
        key = (int(kind), int(a), symmetric_key(int(placement_of(a, b))) if kind == BUY and b != NO_PLACE else int(b))
        if key not in seen:
            seen.add(key)
            keep.append(i)
    return np.array(keep, np.int64)


def symmetric_key(k: int) -> tuple:
    """The cells of placement row ``k`` up to the quilt's eight symmetries."""
    cells = [divmod(c, COLS) for c in cells_of(int(PL_LO[k]), int(PL_HI[k]))]
    n = ROWS - 1
    forms = []
    for f in (lambda r, c: (r, c), lambda r, c: (c, n - r), lambda r, c: (n - r, n - c), lambda r, c: (n - c, r),
              lambda r, c: (r, n - c), lambda r, c: (n - r, c), lambda r, c: (c, r), lambda r, c: (n - c, n - r)):
        forms.append(tuple(sorted(f(r, c) for r, c in cells)))
    return min(forms)


def mc_choice(s: np.ndarray, playouts: int, greedy: bool, seed: int) -> list[tuple[int, int, int]]:
    """Pure Monte Carlo (greedy: the best single play-out): every legal move, ``playouts``
    non-weighted random play-outs each; the best mean."""
    options = options_of(s)
    options = options[first_move_classes(s, options)]
    values = np.empty((options.shape[0], playouts), np.float64)
    option_values(s, options, options.shape[0], playouts, RANDOM_PATCH, seed, values)
    score = values.max(axis=1) if greedy else values.mean(axis=1)
    return [tuple(int(v) for v in options[int(np.argmax(score))])]


# ---------------------------------------------------------------- MCTS


class _Node:
    __slots__ = ("moves", "visits", "wins", "children", "seat")

    def __init__(self, s: np.ndarray):
        self.moves = options_of(s)
        self.visits = np.zeros(self.moves.shape[0])
        self.wins = np.zeros(self.moves.shape[0])
        self.children: list = [None] * self.moves.shape[0]
        self.seat = int(s[TO_MOVE])


def _first_try(moves: np.ndarray, unvisited: np.ndarray, rng) -> int:
    """The unvisited move a node tries next, drawn as random-patch plays: a uniform patch
    among those with an untried placement, then one of them; once no buy is left untried,
    the shortest skip (random-patch skips no further than it must), else any. (Uniform over
    all moves, the many skips would come first, most of them far too long.)"""
    buys = unvisited[moves[unvisited, 0] == BUY]
    if buys.size == 0:
        skips = unvisited[moves[unvisited, 0] == SKIP]
        if skips.size:
            return int(skips[np.argmin(moves[skips, 1])])
        return int(unvisited[rng.integers(unvisited.size)])
    patches = np.unique(moves[buys, 1])
    patch = patches[rng.integers(patches.size)]
    mine = buys[moves[buys, 1] == patch]
    return int(mine[rng.integers(mine.size)])


def mcts_choice(s: np.ndarray, playouts: int, scaled: bool, seed: int) -> list[tuple[int, int, int]]:
    """UCT (spec section 2): ``w/n`` (divided by MS when ``scaled``) + sqrt(2) sqrt(ln N / n);
    expansion adds all children, tried first in random-patch's order (``_first_try``); one
    non-weighted random play-out per iteration; the most
    visited move, the best mean among the most visited (with fewer play-outs than moves,
    every visited move has one: the first listed would be a skip). Two players: values are
    the final margin from the mover's side."""
    root = _Node(s)
    if root.moves.shape[0] == 1:
        return [tuple(int(v) for v in root.moves[0])]
    scale = MS if scaled else 1.0
    rng = np.random.default_rng(seed)
    sign = np.array([1.0, -1.0])
    for it in range(playouts):
        t = s.copy()
        node, path = root, []
        while True:
            if node.moves.shape[0] == 0:
                break
            unvisited = np.flatnonzero(node.visits == 0)
            if unvisited.size:
                i = _first_try(node.moves, unvisited, rng)
            else:
                q = node.wins / node.visits / scale
                i = int(np.argmax(q + EXPLORATION * np.sqrt(math.log(node.visits.sum()) / node.visits)))
            kind, a, b = node.moves[i]
            apply(t, kind, a, b)
            path.append((node, i))
            if node.visits[i] == 0:
                break
            if node.children[i] is None:
                node.children[i] = _Node(t)
            node = node.children[i]
        play_out(t, RANDOM_PATCH, 0, new_rng(seed, it))
        margin = outcome(t, 0)
        for n, i in path:
            n.visits[i] += 1
            n.wins[i] += margin if s[PLAYERS] == 1 else margin * sign[n.seat]
    most = root.visits == root.visits.max()
    mean = np.where(most, root.wins / np.maximum(root.visits, 1), -np.inf)
    return [tuple(int(v) for v in root.moves[int(np.argmax(mean))])]


# ---------------------------------------------------------------- two players: best


def candidate_options(s: np.ndarray, per_patch: int) -> np.ndarray:
    """The moves ``best`` weighs (two players): the advance and, for every window patch it
    can buy, its ``per_patch`` snuggest placements; a due leather patch: the snuggest squares."""
    options = options_of(s)
    if s[PLAYERS] == 1 or options.shape[0] <= 1:
        return options
    b = SEAT_SIZE * int(s[TO_MOVE])
    lo, hi = int(s[LO + b]), int(s[HI + b])
    keep = []
    if s[DUE] > 0:
        ranked = sorted(range(options.shape[0]), key=lambda i: -_square_contacts(int(options[i, 1]), lo, hi))
        return options[sorted(ranked[:per_patch * 2])]
    by_patch: dict[int, list[tuple[int, int]]] = {}
    for i, (kind, a, c) in enumerate(options):
        if kind != BUY:
            keep.append(i)
            continue
        by_patch.setdefault(int(a), []).append((-int(contacts(placement_of(a, c), lo, hi)), i))
    for ranked in by_patch.values():
        keep += [i for _, i in sorted(ranked)[:per_patch]]
    return options[sorted(keep)]


def _square_contacts(cell: int, lo: int, hi: int) -> int:
    """Sides of a square that touch a patch or the border."""
    if cell < 0:
        return 0
    quilt = lo | hi << 63
    r, c = divmod(cell, COLS)
    return sum(1 for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
               if not (0 <= rr < ROWS and 0 <= cc < COLS) or quilt >> (rr * COLS + cc) & 1)


def duel_values(s: np.ndarray, options: np.ndarray, playouts: int, seed: int) -> np.ndarray:
    values = np.empty((options.shape[0], playouts), np.float64)
    option_values(s, options, options.shape[0], playouts, GUIDED, seed, values)
    return values


def duel_choice(s: np.ndarray, playouts: int, seed: int, per_patch: int = 3) -> list[tuple[int, int, int]]:
    options = candidate_options(s, per_patch)
    if options.shape[0] == 1:
        return [tuple(int(v) for v in options[0])]
    values = duel_values(s, options, playouts, seed)
    return [tuple(int(v) for v in options[int(np.argmax(values.mean(axis=1)))])]



# ---------------------------------------------------------------- two players: the end solved
#
# Near the end of a two-player game the moves that matter are few: the advance and each
# affordable window patch at its snuggest placement (``duel_options``; a due leather patch on
# its snuggest square). Both seats limited to those, the rest of the game is solved exactly by
# alpha-beta over the final margin, with a transposition table (states reached by moves in
# another order meet): from the middle of the time track, about a million nodes.

TABLE_BITS = 21  # transposition table: 2 million entries (36 MB)
EXACT, LOWER, UPPER = 1, 2, 3


def new_table() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """An empty transposition table: keys, values, bounds (valid for any state of any game:
    a key is the whole state's hash)."""
    n = 1 << TABLE_BITS
    return np.zeros(n, np.uint64), np.zeros(n, np.float64), np.zeros(n, np.int8)


@njit(cache=True)
def state_hash(s: np.ndarray) -> np.uint64:
    h = np.uint64(1469598103934665603)
    for v in s:
        h = (h ^ np.uint64(v & 0xFFFFFFFFFFFF)) * np.uint64(1099511628211)
        h ^= h >> np.uint64(29)
    return h


@njit(cache=True)
def _negamax(s: np.ndarray, alpha: np.float64, beta: np.float64, keys: np.ndarray, values: np.ndarray,
             bounds: np.ndarray, nodes: np.ndarray, budget: np.int64) -> np.float64:
    """The final margin for the seat to move, both seats playing ``duel_options``; past
    ``budget`` nodes the search stops (``nodes[0] > budget``: what it returned is meaningless
    and nothing more is kept in the table)."""
    me = s[TO_MOVE]
    if is_over(s):
        return outcome(s, me)
    nodes[0] += 1
    if nodes[0] > budget:
        return 0.0
    h = state_hash(s)
    slot = np.int64(h & np.uint64(keys.shape[0] - 1))
    if keys[slot] == h and bounds[slot] != 0:
        v = values[slot]
        if bounds[slot] == EXACT or bounds[slot] == LOWER and v >= beta or bounds[slot] == UPPER and v <= alpha:
            return v
    start = alpha
    options = np.empty((1 + WINDOW, 3), np.int64)
    n = duel_options(s, options)
    best = -1e18
    for i in range(n - 1, -1, -1):  # the purchases first, the advance last: cut-offs come sooner
        t = s.copy()
        apply(t, options[i, 0], options[i, 1], options[i, 2])
        if is_over(t):
            v = outcome(t, me)
        elif t[TO_MOVE] == me:  # a seat still behind moves again
            v = _negamax(t, alpha, beta, keys, values, bounds, nodes, budget)
        else:
            v = -_negamax(t, -beta, -alpha, keys, values, bounds, nodes, budget)
        best = max(best, v)
        alpha = max(alpha, best)
        if alpha >= beta:
            break
    if nodes[0] <= budget:
        keys[slot], values[slot] = h, best
        bounds[slot] = UPPER if best <= start else LOWER if best >= beta else EXACT
    return best


@njit(cache=True)
def solved_values(s: np.ndarray, options: np.ndarray, keys: np.ndarray, values: np.ndarray, bounds: np.ndarray,
                  budget: np.int64, out: np.ndarray) -> bool:
    """``out[i]``: the mover's final margin after option i, the rest of the game solved
    (``duel_options`` for both seats); False where the options together took more than
    ``budget`` nodes (then ``out`` means nothing)."""
    me, nodes = s[TO_MOVE], np.zeros(1, np.int64)
    for i in range(options.shape[0]):
        t = s.copy()
        apply(t, options[i, 0], options[i, 1], options[i, 2])
        if is_over(t):
            out[i] = outcome(t, me)
        elif t[TO_MOVE] == me:
            out[i] = _negamax(t, -1e18, 1e18, keys, values, bounds, nodes, budget)
        else:
            out[i] = -_negamax(t, -1e18, 1e18, keys, values, bounds, nodes, budget)
        if nodes[0] > budget:
            return False
    return True


def solvable(s: np.ndarray, spaces: int) -> bool:
    """Whether the two seats have ``spaces`` or fewer time spaces left between them."""
    return 2 * LAST_SPACE - int(s[T_NOW]) - int(s[T_NOW + SEAT_SIZE]) <= spaces
