"""Game of Islands bots, jitted: random, greedy and an alpha-beta search.

Every bot claims each island at once, so a position's score is settled move by move: a
move is worth the islands it creates, plus 5 if it draws the last line.

* ``random``: a random legal line.
* ``greedy``: the most islands now; among equals, the line after which the opponent's best
  reply creates the fewest islands; then at random.
* ``search``: negamax alpha-beta on the point margin, moves ordered by immediate gain,
  iterative deepening within a node budget; exact when the whole rest of the grid is searched.

>>> import numpy as np
>>> n = 6; lines = play_game(n, GREEDY, RANDOM, 3, 0, 0)
>>> lines.shape[1], bool(lines.shape[0] > 3)
(4, True)
"""
from __future__ import annotations

import numpy as np
from scorebook.engines.jit import njit

from .engine import (BONUS_POINTS, OK, apply_line, claim_near, count_legal_steps, has_legal_line, is_island,
                     legal_lines, legal_steps_up_to, line_code, random_line, sign, undo_line)

RANDOM, GREEDY, SEARCH = 0, 1, 2
BOT_NAMES = {"random": RANDOM, "greedy": GREEDY, "search": SEARCH}
INF = 1 << 30

# The transposition table: a grid reached by lines drawn in another order is the same grid, and
# so has the same rest of the game (the claims are fixed during a search). Keyed by Zobrist
# hashing over the used dots and the diagonal crossings; each entry the value, how many lines
# deep it was searched and whether it is exact or a bound.
TABLE_BITS = 18  # 2**18 entries, 6 MB
_DOT_KEYS = np.random.default_rng(20261127).integers(1, 2**63, size=26 * 26, dtype=np.int64).astype(np.uint64)
_DIAG_KEYS = np.random.default_rng(20261128).integers(1, 2**63, size=25 * 25, dtype=np.int64).astype(np.uint64)
EXACT, LOWER, UPPER = 0, 1, 2


@njit(cache=True)
def _grid_key(n, used, diag):
    h = np.uint64(0)
    for d in range(n * n):
        if used[d]:
            h ^= _DOT_KEYS[d]
    for c in range(diag.shape[0]):
        if diag[c]:
            h ^= _DIAG_KEYS[c]
    return h


@njit(cache=True)
def new_islands(n, used, diag, owner, x1, y1, x2, y2):
    """Unclaimed islands next to a line already drawn (counted once each)."""
    dx = x2 - x1
    dy = y2 - y1
    sx = sign(dx)
    sy = sign(dy)
    steps = max(abs(dx), abs(dy))
    count = 0
    for y in range(max(min(y1, y2) - 1, 0), min(max(y1, y2) + 2, n)):
        for x in range(max(min(x1, x2) - 1, 0), min(max(x1, x2) + 2, n)):
            if owner[y * n + x] >= 0 or used[y * n + x]:
                continue
            near = False  # within one step of a dot of the line
            for k in range(steps + 1):
                if abs(x1 + k * sx - x) <= 1 and abs(y1 + k * sy - y) <= 1:
                    near = True
                    break
            if near and is_island(n, used, diag, x, y):
                count += 1
    return count


@njit(cache=True)
def move_gain(n, used, diag, owner, x1, y1, x2, y2):
    """Islands a line creates, plus the bonus when it is the last line (state unchanged)."""
    apply_line(n, used, diag, x1, y1, x2, y2)
    gain = new_islands(n, used, diag, owner, x1, y1, x2, y2)
    if not has_legal_line(n, used, diag):
        gain += BONUS_POINTS
    undo_line(n, used, diag, x1, y1, x2, y2)
    return gain


@njit(cache=True)
def best_reply_gain(n, used, diag, owner):
    lines = legal_lines(n, used, diag)
    best = 0
    for i in range(lines.shape[0]):
        g = move_gain(n, used, diag, owner, lines[i, 0], lines[i, 1], lines[i, 2], lines[i, 3])
        if g > best:
            best = g
    return best


@njit(cache=True)
def greedy_line(n, used, diag, owner):
    lines = legal_lines(n, used, diag)
    k = lines.shape[0]
    if k == 0:
        return -1, -1, -1, -1
    gains = np.empty(k, np.int64)
    top = -1
    for i in range(k):
        gains[i] = move_gain(n, used, diag, owner, lines[i, 0], lines[i, 1], lines[i, 2], lines[i, 3])
        top = max(top, gains[i])
    order = np.random.permutation(k)
    best_i = -1
    best_reply = INF
    looked = 0
    for j in range(k):
        i = order[j]
        if gains[i] != top:
            continue
        apply_line(n, used, diag, lines[i, 0], lines[i, 1], lines[i, 2], lines[i, 3])
        reply = best_reply_gain(n, used, diag, owner) if has_legal_line(n, used, diag) else 0
        undo_line(n, used, diag, lines[i, 0], lines[i, 1], lines[i, 2], lines[i, 3])
        if reply < best_reply:
            best_reply = reply
            best_i = i
        looked += 1
        if best_reply == 0 or looked >= 48:  # enough equal candidates looked at
            break
    return lines[best_i, 0], lines[best_i, 1], lines[best_i, 2], lines[best_i, 3]


@njit(cache=True)
def _ordered_moves(n, used, diag, owner):
    """Legal lines, their immediate gains, and an order by gain (best first)."""
    lines = legal_lines(n, used, diag)
    gains = np.empty(lines.shape[0], np.int64)
    for i in range(lines.shape[0]):
        gains[i] = move_gain(n, used, diag, owner, lines[i, 0], lines[i, 1], lines[i, 2], lines[i, 3])
    return lines, gains, np.argsort(-gains, kind="mergesort")


@njit(cache=True)
def _negamax(n, used, diag, owner, depth, alpha, beta, budget, nodes, keys, values, info):
    """Best margin (mover minus opponent) over the next ``depth`` lines, within (alpha, beta).

    Alpha-beta negamax on an explicit stack (numba cannot cache recursive functions), with a
    transposition table (``keys, values, info``: ``new_table``; one of no entries for none).
    ``nodes[0]`` counts lines evaluated (the work); ``nodes[1]`` is set when the budget ran
    out, and the value is then unusable. The position is restored in every case."""
    max_sp = min(depth, n * n * 2) + 1
    size = keys.shape[0]
    mask = np.uint64(size - 1) if size > 0 else np.uint64(0)
    key = np.zeros(max_sp + 1, np.uint64)
    alpha0 = np.zeros(max_sp + 1, np.int64)  # a frame's window as it began, for the kind of its value
    cap = 1024
    buf = np.empty((cap, 4), np.int64)
    gain = np.empty(cap, np.int64)
    first = np.zeros(max_sp + 1, np.int64)  # where a frame's moves start in buf
    count = np.zeros(max_sp + 1, np.int64)
    pos = np.zeros(max_sp + 1, np.int64)
    lo = np.zeros(max_sp + 1, np.int64)
    hi = np.zeros(max_sp + 1, np.int64)
    best = np.zeros(max_sp + 1, np.int64)
    sp = 0
    lo[0] = alpha
    hi[0] = beta
    result = 0
    entering = True
    while True:
        if entering and size > 0:  # a grid searched before, as deep: its value, or a cutoff
            key[sp] = _grid_key(n, used, diag)
            alpha0[sp] = lo[sp]
            slot = np.int64(key[sp] & mask)
            if keys[slot] == key[sp] and info[slot] // 4 >= depth - sp:
                kind, v = info[slot] % 4, values[slot]
                if kind == EXACT or (kind == LOWER and v >= hi[sp]) or (kind == UPPER and v <= lo[sp]):
                    count[sp] = 0
                    pos[sp] = 0
                    best[sp] = v
                    first[sp + 1] = first[sp]
                    entering = False
                    key[sp] = np.uint64(0)  # known: not stored again
        if entering:  # a new frame: its moves, best first
            lines, gains, order = _ordered_moves(n, used, diag, owner)
            k = lines.shape[0]
            nodes[0] += k
            top = first[sp]
            while top + k > cap:
                cap *= 2
                bigger = np.empty((cap, 4), np.int64)
                bigger[:top] = buf[:top]
                buf = bigger
                bg = np.empty(cap, np.int64)
                bg[:top] = gain[:top]
                gain = bg
            for j in range(k):
                buf[top + j] = lines[order[j]]
                gain[top + j] = gains[order[j]]
            count[sp] = k
            pos[sp] = 0
            best[sp] = -INF if k > 0 else 0
            first[sp + 1] = top + k
            entering = False
        if nodes[0] > budget:  # out of budget: take back every line on the stack
            nodes[1] = 1
            for f in range(sp - 1, -1, -1):
                m = first[f] + pos[f]
                undo_line(n, used, diag, buf[m, 0], buf[m, 1], buf[m, 2], buf[m, 3])
            return 0
        if pos[sp] < count[sp] and best[sp] < hi[sp]:
            m = first[sp] + pos[sp]
            g = gain[m]
            if sp + 1 < depth:
                apply_line(n, used, diag, buf[m, 0], buf[m, 1], buf[m, 2], buf[m, 3])
                if has_legal_line(n, used, diag):  # look deeper: the child's window, negated
                    lo[sp + 1] = g - hi[sp]
                    hi[sp + 1] = g - max(lo[sp], best[sp])
                    sp += 1
                    entering = True
                    continue
                undo_line(n, used, diag, buf[m, 0], buf[m, 1], buf[m, 2], buf[m, 3])
            if g > best[sp]:
                best[sp] = g
            pos[sp] += 1
            continue
        # this frame is done: keep its value, and hand it to the parent
        result = best[sp]
        if size > 0 and key[sp] != 0:
            slot = np.int64(key[sp] & mask)
            kind = UPPER if result <= alpha0[sp] else LOWER if result >= hi[sp] else EXACT
            keys[slot] = key[sp]
            values[slot] = result
            info[slot] = (depth - sp) * 4 + kind
        if sp == 0:
            return result
        sp -= 1
        m = first[sp] + pos[sp]
        undo_line(n, used, diag, buf[m, 0], buf[m, 1], buf[m, 2], buf[m, 3])
        value = gain[m] - result
        if value > best[sp]:
            best[sp] = value
        pos[sp] += 1


@njit(cache=True)
def search_root(n, used, diag, owner, depth, budget):
    """(x1, y1, x2, y2, value, nodes, complete): the best line looking ``depth`` lines ahead
    (no transposition table: a depth-limited search's values are its own)."""
    nodes = np.zeros(2, np.int64)
    keys, values, info = np.zeros(0, np.uint64), np.zeros(0, np.int64), np.zeros(0, np.int64)
    lines, gains, order = _ordered_moves(n, used, diag, owner)
    nodes[0] += lines.shape[0]
    if lines.shape[0] == 0:
        return -1, -1, -1, -1, 0, 0, True
    best = -INF
    best_i = order[0]
    for j in range(lines.shape[0]):
        i = order[j]
        g = gains[i]
        value = g
        if depth > 1:
            apply_line(n, used, diag, lines[i, 0], lines[i, 1], lines[i, 2], lines[i, 3])
            if has_legal_line(n, used, diag):
                value = g - _negamax(n, used, diag, owner, depth - 1, g - INF, g - best if best > -INF else INF,
                                     budget, nodes, keys, values, info)
            undo_line(n, used, diag, lines[i, 0], lines[i, 1], lines[i, 2], lines[i, 3])
        if nodes[1]:
            break
        if value > best:
            best = value
            best_i = i
    return lines[best_i, 0], lines[best_i, 1], lines[best_i, 2], lines[best_i, 3], best, nodes[0], nodes[1] == 0


@njit(cache=True, nogil=True)  # long: releases the GIL (an interrupt is served at once)
def solve(n, used, diag, owner, budget):
    """Exact margin of the rest of the grid for the player to move, if it fits the budget
    (lines evaluated): (value, lines evaluated, complete). With a transposition table."""
    return solve_with_table(n, used, diag, owner, budget, np.int64(TABLE_BITS))


@njit(cache=True, nogil=True)
def solve_with_table(n, used, diag, owner, budget, table_bits):
    """``solve`` with a transposition table of 2**table_bits entries (none below 0)."""
    nodes = np.zeros(2, np.int64)
    size = 0 if table_bits < 0 else 1 << table_bits
    keys, values, info = np.zeros(size, np.uint64), np.zeros(size, np.int64), np.zeros(size, np.int64)
    value = _negamax(n, used, diag, owner, n * n * 4, -INF, INF, budget, nodes, keys, values, info)
    return value, nodes[0], nodes[1] == 0


@njit(cache=True)
def search_line(n, used, diag, owner, max_depth, budget):
    """Iterative deepening from 2 lines ahead until ``max_depth`` or the budget (lines
    evaluated); the deepest finished answer, greedy's when none finished."""
    bx1, by1, bx2, by2 = greedy_line(n, used, diag, owner)
    spent = 0
    for depth in range(2, max_depth + 1):
        x1, y1, x2, y2, value, nodes, complete = search_root(n, used, diag, owner, depth, budget - spent)
        spent += nodes
        if not complete:
            break
        bx1, by1, bx2, by2 = x1, y1, x2, y2
        if spent >= budget:
            break
    return bx1, by1, bx2, by2


@njit(cache=True)
def choose_line(bot, n, used, diag, owner, depth, budget):
    if bot == RANDOM:
        return random_line(n, used, diag)
    if bot == GREEDY:
        return greedy_line(n, used, diag, owner)
    return search_line(n, used, diag, owner, depth, budget)


@njit(cache=True, nogil=True)  # long: releases the GIL (an interrupt is served at once)
def play_game(n, bot_first, bot_second, seed, depth, budget):
    """A whole grid between two bots; returns the lines drawn, int64[k, 4], First first.
    (Claims follow from the lines: each mover claims the islands its line creates.)"""
    np.random.seed(seed)
    used = np.zeros(n * n, np.uint8)
    diag = np.zeros(max(n - 1, 1) ** 2, np.uint8)
    owner = np.full(n * n, -1, np.int8)
    out = np.empty((n * n, 4), np.int64)
    k = 0
    player = 0
    while True:
        bot = bot_first if player == 0 else bot_second
        x1, y1, x2, y2 = choose_line(bot, n, used, diag, owner, depth, budget)
        if x1 < 0:
            break
        apply_line(n, used, diag, x1, y1, x2, y2)
        claim_near(n, used, diag, owner, player, x1, y1, x2, y2)
        out[k, 0] = x1
        out[k, 1] = y1
        out[k, 2] = x2
        out[k, 3] = y2
        k += 1
        if not has_legal_line(n, used, diag):
            break
        player = 1 - player
    return out[:k]


@njit(cache=True, nogil=True)  # long: releases the GIL (an interrupt is served at once)
def line_values(n, used, diag, owner, depth, budget):
    """Every legal line with its value for the mover: islands it creates (plus the bonus if it
    is the last line) minus the opponent's best margin after it, searched ``depth`` lines
    deep in all (exact when the search reached the end everywhere). Returns (lines, values,
    exact). Where ``depth`` reaches the end of the grid, the searches after every line share a
    transposition table; a search stopped by the depth has none (its values are its own)."""
    bits = TABLE_BITS if count_legal_steps(n, used, diag) <= depth else -1
    size = 0 if bits < 0 else 1 << bits
    tkeys, tvalues, tinfo = np.zeros(size, np.uint64), np.zeros(size, np.int64), np.zeros(size, np.int64)
    lines, gains, order = _ordered_moves(n, used, diag, owner)
    k = lines.shape[0]
    values = np.empty(k, np.int64)
    exact = True
    for i in range(k):
        g = gains[i]
        values[i] = g
        apply_line(n, used, diag, lines[i, 0], lines[i, 1], lines[i, 2], lines[i, 3])
        if has_legal_line(n, used, diag):
            if depth > 1:
                nodes = np.zeros(2, np.int64)
                reply = _negamax(n, used, diag, owner, depth - 1, -INF, INF, budget, nodes, tkeys, tvalues, tinfo)
                if nodes[1]:  # out of budget: the gain alone
                    exact = False
                else:
                    values[i] = g - reply
                    if depth - 1 < n * n:  # a depth limit, not the end, may have stopped it
                        exact = exact and _reached_end(n, used, diag, owner, depth - 1)
            else:
                exact = False
        undo_line(n, used, diag, lines[i, 0], lines[i, 1], lines[i, 2], lines[i, 3])
    return lines, values, exact


@njit(cache=True)
def _reached_end(n, used, diag, owner, depth):
    """Can every line sequence end within ``depth`` more lines? (Then a search that deep is exact.)"""
    from_here = 0
    # each line uses at least two dots: the game lasts at most (unused dots) / 2 more lines
    for d in range(n * n):
        if not used[d]:
            from_here += 1
    return from_here // 2 <= depth


@njit(cache=True)
def _near(line, x1, y1, x2, y2):
    """Can drawing x1,y1-x2,y2 change ``line``'s legality or the islands it makes? Only if a dot
    of one is within 2 of a dot of the other (a dot's island status depends on its neighbours)."""
    if (max(line[0], line[2]) < min(x1, x2) - 2 or min(line[0], line[2]) > max(x1, x2) + 2
            or max(line[1], line[3]) < min(y1, y2) - 2 or min(line[1], line[3]) > max(y1, y2) + 2):
        return False  # their bounding boxes, widened by 2, do not meet
    sx, sy = sign(line[2] - line[0]), sign(line[3] - line[1])
    tx, ty = sign(x2 - x1), sign(y2 - y1)
    for a in range(max(abs(line[2] - line[0]), abs(line[3] - line[1])) + 1):
        px, py = line[0] + a * sx, line[1] + a * sy
        for b in range(max(abs(x2 - x1), abs(y2 - y1)) + 1):
            if abs(px - x1 - b * tx) <= 2 and abs(py - y1 - b * ty) <= 2:
                return True
    return False


@njit(cache=True)
def _redo_near(n, used, diag, claimed, lines, gains, alive, x1, y1, x2, y2, steps):
    """After x1,y1-x2,y2 is drawn, ``steps`` legal steps left: the lines near it, illegal now
    (not alive) or their new gain. Every line's, when so few steps are left that one line may
    block them all (a line of d dots blocks at most 9d): the last line's bonus may then be near."""
    everywhere = steps <= 9 * n
    for i in range(lines.shape[0]):
        if alive[i] and (everywhere or _near(lines[i], x1, y1, x2, y2)):
            if line_code(n, used, diag, lines[i, 0], lines[i, 1], lines[i, 2], lines[i, 3]) != OK:
                alive[i] = False
            else:
                gains[i] = move_gain(n, used, diag, claimed, lines[i, 0], lines[i, 1], lines[i, 2], lines[i, 3])


@njit(cache=True)
def _take(n, used, diag, claimed, lines, gains, alive, i, player):
    """Draw line i for ``player``, claiming what it makes; the lines it changes valued again."""
    x1, y1, x2, y2 = lines[i, 0], lines[i, 1], lines[i, 2], lines[i, 3]
    apply_line(n, used, diag, x1, y1, x2, y2)
    steps = legal_steps_up_to(n, used, diag, 9 * n + 1)
    claim_near(n, used, diag, claimed, player, x1, y1, x2, y2)
    alive[i] = False
    _redo_near(n, used, diag, claimed, lines, gains, alive, x1, y1, x2, y2, steps)


@njit(cache=True)
def _shared_out(n, used, diag, claimed, lines, gains, alive):
    """``shared_out_margin`` from the legal lines and their gains as they are (``claimed``,
    ``gains`` and ``alive`` are the caller's copies, and are changed); ``used`` and ``diag``
    are restored."""
    drawn = np.empty(n * n, np.int64)
    taken = np.empty(n * n, np.int64)
    k = 0
    player = 0
    while True:
        best = -1
        top = 0
        for i in range(lines.shape[0]):
            if alive[i] and gains[i] > top:  # the first of the lines that make the most
                top = gains[i]
                best = i
        if best < 0:
            break
        drawn[k] = best
        taken[k] = top
        k += 1
        _take(n, used, diag, claimed, lines, gains, alive, best, player)
        player = 1 - player
    margin = 0
    for j in range(k - 1, -1, -1):
        i = drawn[j]
        undo_line(n, used, diag, lines[i, 0], lines[i, 1], lines[i, 2], lines[i, 3])
        margin = max(0, taken[j] - margin)
    return margin


@njit(cache=True)
def shared_out_margin(n, used, diag, owner):
    """The islands open to both, shared out: the margin they give the player to move.

    From here each side in turn draws the line that makes the most islands (the first such line
    in the order of the legal lines), claiming them, until no line makes one; each side may stop
    taking instead, and the value is that of the best places to stop (never below 0). Four
    corner islands open to both are worth 0 to the mover, three are worth 1. The rest of the
    grid is counted as even. After each line drawn only the lines near it are valued again
    (``_redo_near``). The position is restored."""
    lines, gains, _ = _ordered_moves(n, used, diag, owner)
    return _shared_out(n, used, diag, owner.copy(), lines, gains, np.ones(lines.shape[0], np.bool_))


@njit(cache=True)
def _shared_out_value(n, used, diag, owner, lines, gains, i):
    """Line i's value: its gain less the opponent's ``shared_out_margin`` after it."""
    claimed = owner.copy()
    after = gains.copy()
    alive = np.ones(lines.shape[0], np.bool_)
    _take(n, used, diag, claimed, lines, after, alive, i, 0)
    margin = _shared_out(n, used, diag, claimed, lines, after, alive)  # 0 if it was the last line
    undo_line(n, used, diag, lines[i, 0], lines[i, 1], lines[i, 2], lines[i, 3])
    return gains[i] - margin


@njit(cache=True, nogil=True)
def shared_out_values(n, used, diag, owner, x1, y1, x2, y2):
    """Every legal line's value for the mover one line ahead, the islands then open to both
    shared out: the islands it makes (and the bonus if last) less the opponent's
    ``shared_out_margin`` after it. Returns (lines, values, the index of x1,y1-x2,y2).

    Valued in full: x1,y1-x2,y2 (the line played), every line that makes an island, and the
    best, until the best three are all valued in full. Any other line (most of them) is given
    the value of the islands open to both as they are now, the opponent's margin before the
    line: a line away from them leaves them as they are. It is an estimate for a line near them
    (in 24 opening positions, 13% of the lines are worth less than it and 7% more), but the
    best value was right in all 24 (benchmarks/history/goi-analysis-playouts-2026-11-27.md), and valuing
    the lines near them in full too took 100 to 300 times as long. The position is restored."""
    lines, gains, _ = _ordered_moves(n, used, diag, owner)
    k = lines.shape[0]
    margin = _shared_out(n, used, diag, owner.copy(), lines, gains.copy(), np.ones(k, np.bool_))
    values = np.full(k, -margin, np.int64)
    settled = np.zeros(k, np.bool_)
    played = -1
    for i in range(k):
        if (lines[i, 0] == x1 and lines[i, 1] == y1 and lines[i, 2] == x2 and lines[i, 3] == y2) or \
                (lines[i, 0] == x2 and lines[i, 1] == y2 and lines[i, 2] == x1 and lines[i, 3] == y1):
            played = i
        if gains[i] > 0 or played == i:
            values[i] = _shared_out_value(n, used, diag, owner, lines, gains, i)
            settled[i] = True
    while True:
        order = np.argsort(-values, kind="mergesort")
        pending = 0
        for j in range(min(3, k)):
            if not settled[order[j]]:
                values[order[j]] = _shared_out_value(n, used, diag, owner, lines, gains, order[j])
                settled[order[j]] = True
                pending += 1
        if pending == 0:
            return lines, values, played
