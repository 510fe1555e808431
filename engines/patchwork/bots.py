"""Patchwork's bots, jitted: the thesis's players (shared/specs/patchwork.md section 2) and
the building blocks of the stronger ones (``planner.py``, ``search.py``).

Every bot's random numbers come from an explicit splitmix64 state, seeded per decision and
per play-out, so a result never depends on how many threads ran it.

A bot's decision may be two moves: the thesis's random and value players pick a patch, then
skip the fewest spaces that afford it and buy it. When that skip makes a leather patch due,
the leather patch is placed and the choice is made afresh (the patch may no longer fit).

>>> import numpy as np
>>> from .pieces import REAL
>>> from .rules import new_state, PLY
>>> s = new_state(REAL, np.zeros(0, np.int64))
>>> moves = np.zeros((MAX_MOVES, 3), np.int64)
>>> n = play_solo(s, RANDOM, 0, 7, moves)
>>> bool(is_over(s)), n == int(s[PLY])
(True, True)
"""
from __future__ import annotations

import numpy as np
from scorebook.engines.jit import njit

from .pieces import (FACTS, CELLS, COLS, COST, INCOME, INCOME_UPTO, LAST_SPACE, LOW_BITS, N_PATCHES, P_START, PL_ADJACENT,
                     PL_BORDER, PL_CODE, PL_COL, PL_HI, PL_LO, PL_ROW, ROWS, SIM, SIZE, TIME)
from .rules import (ADVANCE, BOUGHT, BUTTONS, BUY, DUE, HI, INCOME_NOW, LEATHER, LEATHER_MOVE, LO, NO_PLACE, PATCHES,
                    PLAYERS, SEAT_SIZE, SKIP, SQUARES, TIME as T_NOW, TO_MOVE, VARIANT, WINDOW, apply, empty_squares,
                    is_over, new_state, popcount, solo_total, window)

# bots (game.json names them); the planner's and the duel's are in their modules
RANDOM, RANDOM_PATCH, VBRZ, RULE_BASED, MC, MC_GREEDY, MCTS, MCTS_RAW, BEST = range(9)
BOT_CODES = {"random": RANDOM, "random-patch": RANDOM_PATCH, "vbrz": VBRZ, "rule-based": RULE_BASED, "mc": MC,
             "mc-greedy": MC_GREEDY, "mcts": MCTS, "mcts-raw": MCTS_RAW, "best": BEST}
MAX_MOVES = 512  # moves of one game, at most (a two-player game makes about 60)
# the rule-based player's TCM (hundredths) where another bot falls back on it: its default in game.json
RULE_BASED_TCM = next(b["default"] for b in FACTS["game"]["bots"] if b["name"] == "rule-based")


# ---------------------------------------------------------------- random numbers


@njit(cache=True)
def mix(x: np.uint64) -> np.uint64:
    """splitmix64's output function."""
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


@njit(cache=True)
def new_rng(seed: np.int64, stream: np.int64) -> np.ndarray:
    """A generator state for (seed, stream): play-out i of decision d gets its own."""
    rng = np.empty(1, np.uint64)
    rng[0] = mix(np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15) + mix(np.uint64(stream) + np.uint64(1)))
    return rng


@njit(cache=True)
def below(rng: np.ndarray, n: np.int64) -> np.int64:
    """A uniform integer in [0, n)."""
    rng[0] += np.uint64(0x9E3779B97F4A7C15)
    return np.int64(mix(rng[0]) % np.uint64(n))


# ---------------------------------------------------------------- placements


@njit(cache=True)
def fits(s: np.ndarray, b: np.int64, k: np.int64) -> bool:
    return (PL_LO[k] & s[LO + b]) == 0 and (PL_HI[k] & s[HI + b]) == 0


@njit(cache=True)
def fitting_placements(s: np.ndarray, patch: np.int64, out: np.ndarray) -> np.int64:
    """The placements of ``patch`` that fit the mover's quilt, into ``out``; how many."""
    b = SEAT_SIZE * s[TO_MOVE]
    lo, hi = s[LO + b], s[HI + b]
    n = 0
    for k in range(P_START[patch], P_START[patch + 1]):
        if (PL_LO[k] & lo) == 0 and (PL_HI[k] & hi) == 0:
            out[n] = k
            n += 1
    return n


@njit(cache=True)
def count_fitting(s: np.ndarray, patch: np.int64) -> np.int64:
    b = SEAT_SIZE * s[TO_MOVE]
    lo, hi = s[LO + b], s[HI + b]
    n = 0
    for k in range(P_START[patch], P_START[patch + 1]):
        if (PL_LO[k] & lo) == 0 and (PL_HI[k] & hi) == 0:
            n += 1
    return n


@njit(cache=True)
def nth_fitting(s: np.ndarray, patch: np.int64, nth: np.int64) -> np.int64:
    b = SEAT_SIZE * s[TO_MOVE]
    lo, hi = s[LO + b], s[HI + b]
    for k in range(P_START[patch], P_START[patch + 1]):
        if (PL_LO[k] & lo) == 0 and (PL_HI[k] & hi) == 0:
            if nth == 0:
                return k
            nth -= 1
    return -1


@njit(cache=True)
def any_fitting(s: np.ndarray, patch: np.int64) -> bool:
    b = SEAT_SIZE * s[TO_MOVE]
    lo, hi = s[LO + b], s[HI + b]
    for k in range(P_START[patch], P_START[patch + 1]):
        if (PL_LO[k] & lo) == 0 and (PL_HI[k] & hi) == 0:
            return True
    return False


@njit(cache=True)
def contacts(k: np.int64, lo: np.int64, hi: np.int64) -> np.int64:
    """Edges of placement ``k`` that touch a covered square or the quilt's border."""
    n = PL_BORDER[k]
    for d in range(4):
        n += popcount(PL_ADJACENT[k, 2 * d] & lo) + popcount(PL_ADJACENT[k, 2 * d + 1] & hi)
    return n


@njit(cache=True)
def top_left_placement(s: np.ndarray, patch: np.int64) -> np.int64:
    """"Return zero": the fitting placement whose anchor comes first row by row, then column."""
    best, key = -1, 1 << 30
    b = SEAT_SIZE * s[TO_MOVE]
    for k in range(P_START[patch], P_START[patch + 1]):
        if fits(s, b, k):
            kk = (PL_ROW[k] * COLS + PL_COL[k]) * 8 + PL_CODE[k]
            if kk < key:
                best, key = k, kk
    return best


@njit(cache=True)
def snug_placement(s: np.ndarray, patch: np.int64) -> np.int64:
    """The rule-based placement: most edges touching patches or the border (first on a tie)."""
    b = SEAT_SIZE * s[TO_MOVE]
    lo, hi = s[LO + b], s[HI + b]
    best, most = -1, -1
    for k in range(P_START[patch], P_START[patch + 1]):
        if (PL_LO[k] & lo) == 0 and (PL_HI[k] & hi) == 0:
            c = contacts(k, lo, hi)
            if c > most:
                best, most = k, c
    return best


@njit(cache=True)
def covered(s: np.ndarray, b: np.int64, cell: np.int64) -> bool:
    if cell < LOW_BITS:
        return (s[LO + b] >> cell) & 1 == 1
    return (s[HI + b] >> (cell - LOW_BITS)) & 1 == 1


@njit(cache=True)
def leather_cell(s: np.ndarray, how: np.int64, rng: np.ndarray) -> np.int64:
    """Where the due leather patch goes: uniformly at random (0), the first free square (1),
    the free square with most sides touching patches or the border (2); -1 on a full quilt."""
    b = SEAT_SIZE * s[TO_MOVE]
    free = CELLS - popcount(s[LO + b]) - popcount(s[HI + b])
    if free == 0:
        return -1
    if how == 0:
        nth = below(rng, free)
        for cell in range(CELLS):
            if not covered(s, b, cell):
                if nth == 0:
                    return cell
                nth -= 1
    best, most = -1, -1
    for cell in range(CELLS):
        if covered(s, b, cell):
            continue
        if how == 1:
            return cell
        r, c = cell // COLS, cell % COLS
        n = 0
        n += 1 if r == 0 or covered(s, b, cell - COLS) else 0
        n += 1 if r == ROWS - 1 or covered(s, b, cell + COLS) else 0
        n += 1 if c == 0 or covered(s, b, cell - 1) else 0
        n += 1 if c == COLS - 1 or covered(s, b, cell + 1) else 0
        if n > most:
            best, most = cell, n
    return best


@njit(cache=True)
def buy_code(k: np.int64) -> np.int64:
    """A placement row as the notation's (and ``rules.apply``'s) placement."""
    return PL_CODE[k] * 256 + PL_ROW[k] * 16 + PL_COL[k]


@njit(cache=True)
def skips_to_afford(s: np.ndarray, patch: np.int64) -> np.int64:
    """One player: the fewest spaces to skip before ``patch`` is affordable (0 if it is), income
    on the way counted; -1 when skipping to the last space but one does not do it."""
    b = SEAT_SIZE * s[TO_MOVE]
    buttons, t = s[BUTTONS + b], s[T_NOW + b]
    cost = COST[patch]
    for k in range(LAST_SPACE - t):
        if k > 0:
            buttons += 1 + (INCOME_UPTO[t + k] - INCOME_UPTO[t + k - 1]) * s[INCOME_NOW + b]
        if buttons >= cost:
            return k
    return -1


@njit(cache=True)
def room_for(s: np.ndarray, patch: np.int64) -> bool:
    """Shape-less: does the patch's size fit the squares not yet bought?"""
    return SIZE[patch] <= CELLS - s[SQUARES + SEAT_SIZE * s[TO_MOVE]]


# ---------------------------------------------------------------- the thesis's players


@njit(cache=True)
def _leather(s: np.ndarray, how: np.int64, rng: np.ndarray, out: np.ndarray) -> np.int64:
    out[0, 0], out[0, 1], out[0, 2] = LEATHER_MOVE, leather_cell(s, how, rng), 0
    return 1


@njit(cache=True)
def _buy(s: np.ndarray, patch: np.int64, k: np.int64, spaces: np.int64, out: np.ndarray) -> np.int64:
    """Skip ``spaces`` (if any), then buy ``patch`` at placement row ``k`` (-1 shape-less)."""
    n = 0
    if spaces > 0:
        out[0, 0], out[0, 1], out[0, 2] = SKIP, spaces, 0
        n = 1
    out[n, 0], out[n, 1], out[n, 2] = BUY, patch, NO_PLACE if k < 0 else buy_code(k)
    return n + 1


@njit(cache=True)
def _to_end(s: np.ndarray, out: np.ndarray) -> np.int64:
    if s[PLAYERS] == 2:
        out[0, 0], out[0, 1], out[0, 2] = ADVANCE, 0, 0
    else:
        out[0, 0], out[0, 1], out[0, 2] = SKIP, LAST_SPACE - s[T_NOW], 0
    return 1


@njit(cache=True)
def random_choice(s: np.ndarray, weighted: bool, rng: np.ndarray, out: np.ndarray) -> np.int64:
    """The thesis's random players: weighted, a uniform placement among all that fit; not
    weighted, a uniform patch among those that fit, then one of its placements (shape-less:
    a uniform patch with room). One player: among patches that skipping can afford, then the
    fewest skips; nothing: skip to the end. Two players: the window's affordable patches, else
    advance. Writes the moves into ``out``; how many."""
    if s[DUE] > 0:
        return _leather(s, 0, rng, out)
    two = s[PLAYERS] == 2
    sim = s[VARIANT] == SIM
    b = SEAT_SIZE * s[TO_MOVE]
    patches = np.empty(N_PATCHES, np.int64)
    counts = np.empty(N_PATCHES, np.int64)
    spaces = np.zeros(N_PATCHES, np.int64)
    n, total = 0, 0
    if two:
        w = np.empty(WINDOW, np.int64)
        m = window(s, w)
        for i in range(m):
            p = w[i]
            if COST[p] <= s[BUTTONS + b]:
                c = count_fitting(s, p)
                if c > 0:
                    patches[n], counts[n] = p, c
                    n += 1
                    total += c
    else:
        for p in range(N_PATCHES):
            if (s[BOUGHT] >> p) & 1:
                continue
            k = skips_to_afford(s, p)
            if k < 0:
                continue
            c = (1 if room_for(s, p) else 0) if sim else count_fitting(s, p)
            if c > 0:
                patches[n], counts[n], spaces[n] = p, c, k
                n += 1
                total += c
    if n == 0:
        return _to_end(s, out)
    if weighted:
        nth = below(rng, total)
        i = 0
        while nth >= counts[i]:
            nth -= counts[i]
            i += 1
    else:
        i = below(rng, n)
        nth = below(rng, counts[i])
    p = patches[i]
    return _buy(s, p, -1 if sim else nth_fitting(s, p, nth), spaces[i], out)


@njit(cache=True)
def patch_value(s: np.ndarray, patch: np.int64, spaces: np.int64, tcm: np.float64) -> np.float64:
    """Thesis Eq. 3 and 4: 2 S + SB BL(t) - BC - min(TC, 53 - t) TCM - SR TCM, + 7 when the
    patch fills the quilt."""
    b = SEAT_SIZE * s[TO_MOVE]
    t = s[T_NOW + b]
    ahead = INCOME_UPTO[LAST_SPACE] - INCOME_UPTO[t]
    v = 2.0 * SIZE[patch] + INCOME[patch] * ahead - COST[patch] - min(TIME[patch], LAST_SPACE - t) * tcm - spaces * tcm
    room = CELLS - s[SQUARES + b] - (5 if s[VARIANT] == SIM else 0)  # shape-less: the five leather patches
    if SIZE[patch] == room:
        v += 7.0
    return v


@njit(cache=True)
def value_choice(s: np.ndarray, snug: bool, tcm: np.float64, rng: np.ndarray, out: np.ndarray) -> np.int64:
    """The thesis's value players: the patch of best value (Eq. 4) among those that fit and
    that skipping can afford, after the fewest skips; placed at the first top-left spot
    (``vbrz``, "return zero") or where most of its edges touch (``rule-based``). Two players:
    the window's affordable patches, bought when the best value is positive, else advance."""
    if s[DUE] > 0:
        return _leather(s, 2 if snug else 1, rng, out)
    two = s[PLAYERS] == 2
    sim = s[VARIANT] == SIM
    b = SEAT_SIZE * s[TO_MOVE]
    best, best_k, best_v = -1, 0, -1e18
    w = np.empty(WINDOW, np.int64)
    m = window(s, w) if two else N_PATCHES
    for i in range(m):
        p = w[i] if two else i
        if not two and (s[BOUGHT] >> p) & 1:
            continue
        k = (0 if COST[p] <= s[BUTTONS + b] else -1) if two else skips_to_afford(s, p)
        if k < 0 or not (room_for(s, p) if sim else any_fitting(s, p)):
            continue
        v = patch_value(s, p, k, tcm)
        if v > best_v:
            best, best_k, best_v = p, k, v
    if best < 0 or (two and best_v <= 0.0):
        return _to_end(s, out)
    k = -1 if sim else (snug_placement(s, best) if snug else top_left_placement(s, best))
    return _buy(s, best, k, best_k, out)


@njit(cache=True)
def cheap_choice(s: np.ndarray, bot: np.int64, arg: np.int64, rng: np.ndarray, out: np.ndarray) -> np.int64:
    """A decision of one of the bots that need no search."""
    if bot == RANDOM:
        return random_choice(s, True, rng, out)
    if bot == RANDOM_PATCH:
        return random_choice(s, False, rng, out)
    return value_choice(s, bot == RULE_BASED, arg / 100.0, rng, out)


@njit(cache=True)
def play_out(s: np.ndarray, bot: np.int64, arg: np.int64, rng: np.ndarray) -> None:
    """Play to the end with a bot that needs no search (both seats), without recording."""
    out = np.empty((2, 3), np.int64)
    while not is_over(s):
        n = cheap_choice(s, bot, arg, rng, out)
        apply(s, out[0, 0], out[0, 1], out[0, 2])
        if n == 2 and s[DUE] == 0:
            apply(s, out[1, 0], out[1, 1], out[1, 2])


@njit(cache=True)
def play_solo(s: np.ndarray, bot: np.int64, arg: np.int64, seed: np.int64, moves: np.ndarray) -> np.int64:
    """A one-player game (or a two-player one, both seats the same bot) by a bot that needs no
    search; its moves into ``moves``; how many."""
    rng = new_rng(seed, 0)
    out = np.empty((2, 3), np.int64)
    n = 0
    while not is_over(s):
        c = cheap_choice(s, bot, arg, rng, out)
        for j in range(c):
            if j == 1 and s[DUE] > 0:
                break
            apply(s, out[j, 0], out[j, 1], out[j, 2])
            moves[n, 0], moves[n, 1], moves[n, 2] = out[j, 0], out[j, 1], out[j, 2]
            n += 1
    return n


@njit(cache=True)
def random_games(variant: np.int64, weighted: bool, games: np.int64, seed: np.int64, out: np.ndarray) -> None:
    """Table 1: ``games`` one-player random games; per game: total, empty squares, patches
    bought, leather patches, sewn buttons (income)."""
    circle = np.zeros(0, np.int64)
    for g in range(games):
        s = new_state(variant, circle)
        rng = new_rng(seed, g)
        play_out(s, RANDOM if weighted else RANDOM_PATCH, 0, rng)
        out[g, 0] = solo_total(s)
        out[g, 1] = empty_squares(s, 0)
        out[g, 2] = s[PATCHES]
        out[g, 3] = s[LEATHER]
        out[g, 4] = s[INCOME_NOW]
