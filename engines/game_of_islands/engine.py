"""The Game of Islands rules, jitted (spec: shared/specs/game-of-islands.md).

Dots are ints ``d = y*n + x`` on an n x n grid, ``x`` the file (A = 0), ``y`` the rank
(1 = 0). State:

* ``used``: uint8[n*n], 1 where a dot lies on a line;
* ``diag``: uint8[(n-1)*(n-1)], per unit square, bit 1 = the rising diagonal
  (x, y)-(x+1, y+1) is drawn, bit 2 = the falling one (x+1, y)-(x, y+1); a diagonal step
  may not cross the other diagonal of its square;
* ``owner``: int8[n*n], the player (0, 1) who claimed a dot, -1 if nobody.

An island is an unused dot with no legal step to any of its eight neighbours: it can never
lie on a line again.

>>> import numpy as np
>>> n = 10; used, diag, owner = new_state(n)
>>> line_code(n, used, diag, 8, 0, 9, 1) == OK        # I1-J2
True
>>> apply_line(n, used, diag, 8, 0, 9, 1); bool(is_island(n, used, diag, 9, 0))  # J1
True

A whole grid, turn by turn, is a :class:`Grid` (every rule of a turn, the end, timeouts and
the bonus); ``ENGINE`` is the game's protocol object (``engines.protocol.Engine``).
"""
from __future__ import annotations

import json
from importlib import resources

import numpy as np
from scorebook.engines.jit import njit

_FACTS = json.loads(resources.files(__package__).joinpath("game.json").read_text())
GAME_ID: str = _FACTS["game"]["id"]
BONUS_POINTS: int = _FACTS["last_line_bonus"]
MIN_GRID: int = _FACTS["grid_sizes"]["min"]
MAX_GRID: int = _FACTS["grid_sizes"]["max"]
TRIAD_GRIDS: tuple[int, ...] = tuple(_FACTS["grid_sizes"]["tournament"])
MATCH_WIN_MARGIN: int = _FACTS["match_win_margin"]
DEFAULT_TIEBREAKS: tuple[str, ...] = tuple(_FACTS["default_tiebreaks"])

OK = 0
SAME_DOT = 1
NOT_STRAIGHT = 2
DOT_USED = 3
CROSSING = 4
OFF_GRID = 5

LINE_CODE_NAMES = {SAME_DOT: "same-dot", NOT_STRAIGHT: "not-straight", DOT_USED: "dot-used",
                   CROSSING: "crossing", OFF_GRID: "off-grid"}
LINE_CODE_MESSAGES = {
    OFF_GRID: "a dot is off the grid",
    SAME_DOT: "a line needs two different end dots",
    NOT_STRAIGHT: "a line runs horizontally, vertically or diagonally",
    DOT_USED: "the line passes through a dot already on a line",
    CROSSING: "the line crosses a diagonal step of an earlier line",
}

# the four forward directions; with their opposites they are the eight neighbours
FORWARD = ((1, 0), (0, 1), (1, 1), (1, -1))


def new_state(n: int):
    return (np.zeros(n * n, np.uint8), np.zeros(max(n - 1, 1) ** 2, np.uint8),
            np.full(n * n, -1, np.int8))


@njit(cache=True)
def sign(v):
    """-1, 0 or 1: the step along a line's axis."""
    return 1 if v > 0 else -1 if v < 0 else 0


@njit(cache=True)
def step_ok(n, used, diag, x, y, dx, dy):
    """Can a line step from (x, y) to (x+dx, y+dy)? Both dots unused, no crossing."""
    nx = x + dx
    ny = y + dy
    if nx < 0 or ny < 0 or nx >= n or ny >= n:
        return False
    if used[y * n + x] or used[ny * n + nx]:
        return False
    if dx != 0 and dy != 0:
        cell = min(y, ny) * (n - 1) + min(x, nx)
        crossing = 2 if dx * dy > 0 else 1
        if diag[cell] & crossing:
            return False
    return True


@njit(cache=True)
def line_code(n, used, diag, x1, y1, x2, y2):
    """OK or why the line x1,y1 - x2,y2 is illegal (both ends on the grid). Checks in the
    order of the spec: same dot, not straight, a dot used, a crossing."""
    dx = x2 - x1
    dy = y2 - y1
    if dx == 0 and dy == 0:
        return SAME_DOT
    if not (dx == 0 or dy == 0 or abs(dx) == abs(dy)):
        return NOT_STRAIGHT
    sx = sign(dx)
    sy = sign(dy)
    steps = max(abs(dx), abs(dy))
    for k in range(steps + 1):
        if used[(y1 + k * sy) * n + x1 + k * sx]:
            return DOT_USED
    if sx != 0 and sy != 0:
        for k in range(steps):
            if not step_ok(n, used, diag, x1 + k * sx, y1 + k * sy, sx, sy):
                return CROSSING
    return OK


@njit(cache=True)
def _mark_line(n, used, diag, x1, y1, x2, y2, on):
    """Set (``on``) or clear the dots of a straight line and the diagonal bits of its steps."""
    dx = x2 - x1
    dy = y2 - y1
    sx = sign(dx)
    sy = sign(dy)
    steps = max(abs(dx), abs(dy))
    for k in range(steps + 1):
        used[(y1 + k * sy) * n + x1 + k * sx] = 1 if on else 0
    if sx != 0 and sy != 0:
        bit = np.uint8(1 if sx * sy > 0 else 2)
        for k in range(steps):
            x = x1 + k * sx
            y = y1 + k * sy
            cell = min(y, y + sy) * (n - 1) + min(x, x + sx)
            diag[cell] = (diag[cell] | bit) if on else (diag[cell] & ~bit)


@njit(cache=True)
def apply_line(n, used, diag, x1, y1, x2, y2):
    _mark_line(n, used, diag, x1, y1, x2, y2, True)


@njit(cache=True)
def undo_line(n, used, diag, x1, y1, x2, y2):
    """Take a legal line back (it set only dots and diagonal bits that were clear)."""
    _mark_line(n, used, diag, x1, y1, x2, y2, False)


@njit(cache=True)
def is_island(n, used, diag, x, y):
    if used[y * n + x]:
        return False
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            if (dx != 0 or dy != 0) and step_ok(n, used, diag, x, y, dx, dy):
                return False
    return True


@njit(cache=True)
def island_mask(n, used, diag):
    out = np.zeros(n * n, np.bool_)
    for y in range(n):
        for x in range(n):
            out[y * n + x] = is_island(n, used, diag, x, y)
    return out


@njit(cache=True)
def legal_steps_up_to(n, used, diag, limit):
    """Legal steps between two neighbouring dots, counted up to ``limit`` (the count stops
    there: a question of whether there is one need not scan the whole grid)."""
    k = 0
    for y in range(n):
        for x in range(n):
            if used[y * n + x]:
                continue
            for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
                if step_ok(n, used, diag, x, y, dx, dy):
                    k += 1
                    if k >= limit:
                        return k
    return k


@njit(cache=True)
def has_legal_line(n, used, diag):
    return legal_steps_up_to(n, used, diag, 1) > 0


@njit(cache=True)
def count_legal_steps(n, used, diag):
    """Legal steps between two neighbouring dots: no more lines than these can still be drawn
    (a line holds at least one, two lines share none, and a line drawn makes none legal)."""
    return legal_steps_up_to(n, used, diag, 4 * n * n)


@njit(cache=True)
def legal_lines(n, used, diag):
    """Every legal line, each once (drawn in a forward direction): int64[k, 4] x1 y1 x2 y2."""
    cap = 64
    out = np.empty((cap, 4), np.int64)
    k = 0
    for y in range(n):
        for x in range(n):
            if used[y * n + x]:
                continue
            for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cx = x
                cy = y
                while step_ok(n, used, diag, cx, cy, dx, dy):
                    cx += dx
                    cy += dy
                    if k == cap:
                        cap *= 2
                        bigger = np.empty((cap, 4), np.int64)
                        bigger[:k] = out[:k]
                        out = bigger
                    out[k, 0] = x
                    out[k, 1] = y
                    out[k, 2] = cx
                    out[k, 3] = cy
                    k += 1
    return out[:k]


@njit(cache=True)
def count_legal_lines(n, used, diag):
    return legal_lines(n, used, diag).shape[0]


@njit(cache=True)
def claim_all(n, used, diag, owner, player):
    """Claim every unclaimed island for ``player``; returns how many."""
    got = 0
    for y in range(n):
        for x in range(n):
            d = y * n + x
            if owner[d] < 0 and is_island(n, used, diag, x, y):
                owner[d] = player
                got += 1
    return got


@njit(cache=True)
def claim_near(n, used, diag, owner, player, x1, y1, x2, y2):
    """Claim for ``player`` the unclaimed islands next to the line just drawn (only dots
    next to a line's dots can change status); returns how many."""
    dx = x2 - x1
    dy = y2 - y1
    sx = sign(dx)
    sy = sign(dy)
    got = 0
    for k in range(max(abs(dx), abs(dy)) + 1):
        lx = x1 + k * sx
        ly = y1 + k * sy
        for ox in (-1, 0, 1):
            for oy in (-1, 0, 1):
                x = lx + ox
                y = ly + oy
                if 0 <= x < n and 0 <= y < n and owner[y * n + x] < 0 and is_island(n, used, diag, x, y):
                    owner[y * n + x] = player
                    got += 1
    return got


@njit(cache=True)
def random_line(n, used, diag):
    """A random legal line: a random legal step, extended a random number of further steps.
    Returns (x1, y1, x2, y2), or x1 = -1 when none is left."""
    for _ in range(24):  # cheap tries first; the full list below when the grid is crowded
        x = np.random.randint(n)
        y = np.random.randint(n)
        i = np.random.randint(4)
        dx, dy = ((1, 0), (0, 1), (1, 1), (1, -1))[i]
        if step_ok(n, used, diag, x, y, dx, dy):
            ex, ey = x + dx, y + dy
            while np.random.random() < 0.5 and step_ok(n, used, diag, ex, ey, dx, dy):
                ex += dx
                ey += dy
            return x, y, ex, ey
    steps = np.empty((n * n * 4, 3), np.int64)
    k = 0
    for y in range(n):
        for x in range(n):
            if used[y * n + x]:
                continue
            for i in range(4):
                dx, dy = ((1, 0), (0, 1), (1, 1), (1, -1))[i]
                if step_ok(n, used, diag, x, y, dx, dy):
                    steps[k, 0] = x
                    steps[k, 1] = y
                    steps[k, 2] = i
                    k += 1
    if k == 0:
        return -1, -1, -1, -1
    j = np.random.randint(k)
    x, y, i = steps[j, 0], steps[j, 1], steps[j, 2]
    dx, dy = ((1, 0), (0, 1), (1, 1), (1, -1))[i]
    ex, ey = x + dx, y + dy
    while np.random.random() < 0.5 and step_ok(n, used, diag, ex, ey, dx, dy):
        ex += dx
        ey += dy
    return x, y, ex, ey


@njit(cache=True)
def playout(n, used, diag, owner, to_move):
    """Play random lines to the end, each player claiming every island at once; the one who
    draws the last line gets 5. Works on copies; returns the final points [p0, p1]."""
    used = used.copy()
    diag = diag.copy()
    owner = owner.copy()
    points = np.zeros(2, np.int64)
    for d in range(n * n):
        if owner[d] >= 0:
            points[owner[d]] += 1
    player = to_move
    while True:
        x1, y1, x2, y2 = random_line(n, used, diag)
        if x1 < 0:
            break
        apply_line(n, used, diag, x1, y1, x2, y2)
        points[player] += claim_near(n, used, diag, owner, player, x1, y1, x2, y2)
        if not has_legal_line(n, used, diag):
            points[player] += BONUS_POINTS
            points[1 - player] += claim_all(n, used, diag, owner, 1 - player)
            break
        player = 1 - player
    return points


@njit(cache=True)
def random_playouts(n, count, seed):
    """``count`` playouts from the empty grid; returns the mean points of the first player."""
    np.random.seed(seed)
    used = np.zeros(n * n, np.uint8)
    diag = np.zeros(max(n - 1, 1) ** 2, np.uint8)
    owner = np.full(n * n, -1, np.int8)
    total = 0
    for _ in range(count):
        total += playout(n, used, diag, owner, 0)[0]
    return total / count


# ---------------------------------------------------------------- a grid, turn by turn

LINE, PASS, TIME = "line", "pass", "time"  # a turn draws a line, is the final claim-only turn, or is out of time

# codes of a turn's checks, in the order of the spec (shared/data/goi/README.md)
BOTH_OUT, GRID_OVER, MOVE_AFTER_TIMEOUT, PASS_NOT_ALLOWED, TIME_CLAIMS = 11, 12, 13, 14, 15
NO_LINE = 16  # a line turn whose action names no line
CLAIM_USED_DOT, CLAIM_REPEATED, CLAIM_ALREADY_CLAIMED, CLAIM_NOT_ISLAND = 21, 22, 23, 24
CLAIM_CODES = (CLAIM_USED_DOT, CLAIM_REPEATED, CLAIM_ALREADY_CLAIMED, CLAIM_NOT_ISLAND)
TURN_CODE_NAMES = {
    BOTH_OUT: "move-after-end", GRID_OVER: "move-after-end", MOVE_AFTER_TIMEOUT: "move-after-timeout",
    PASS_NOT_ALLOWED: "pass-not-allowed", TIME_CLAIMS: "bad-token", NO_LINE: "bad-token", CLAIM_USED_DOT: "claim-used-dot",
    CLAIM_REPEATED: "claim-repeated", CLAIM_ALREADY_CLAIMED: "claim-already-claimed",
    CLAIM_NOT_ISLAND: "claim-not-island", **LINE_CODE_NAMES}
# {dot}: the dot as written; {player}: the mover's name
TURN_CODE_MESSAGES = {
    BOTH_OUT: "both players are out of time: the grid has stopped",
    GRID_OVER: "the grid is over: no legal line remains",
    MOVE_AFTER_TIMEOUT: "{player} is out of time: every later turn is written 'time'",
    PASS_NOT_ALLOWED: "'--' is only the final claim-only turn, when no legal line remains",
    TIME_CLAIMS: "a player out of time claims nothing",
    NO_LINE: "a turn is a line such as A1-B2, '--' or 'time'",
    CLAIM_USED_DOT: "{dot} lies on a line",
    CLAIM_REPEATED: "{dot} is claimed twice in one turn",
    CLAIM_ALREADY_CLAIMED: "{dot} is already claimed",
    CLAIM_NOT_ISLAND: "{dot} is not an island: a line can still pass through it",
    **LINE_CODE_MESSAGES}


# the jitted turn's terms (``play_turn``): a turn's kind as a number, and a grid's scalars as
# an int64 array (ply, over, who drew the last line or -1, final turn taken, each out of time)
KIND_LINE, KIND_PASS, KIND_TIME = 0, 1, 2
PLY, OVER, LAST_LINE_BY, FINAL_TAKEN, OUT_FIRST, OUT_SECOND = range(6)


@njit(cache=True)
def play_turn(n, used, diag, owner, meta, kind, x1, y1, x2, y2, claims, n_claims):
    """One turn as :class:`Grid` and the engine's ``apply`` play it, every check in their
    order, on arrays (a record's turns read in one compiled call): ``meta`` the grid's
    scalars (PLY ...), ``claims[:n_claims]`` the claimed dots as (x, y). OK with the turn
    played, or the code of its first refusal with the grid as it was."""
    p = meta[PLY] % 2
    if meta[OUT_FIRST] and meta[OUT_SECOND]:
        return BOTH_OUT
    if meta[OVER] and (kind == KIND_LINE or p == meta[LAST_LINE_BY] or meta[FINAL_TAKEN]):
        return GRID_OVER
    if meta[OUT_FIRST + p] and kind != KIND_TIME:
        return MOVE_AFTER_TIMEOUT
    if kind == KIND_PASS and not meta[OVER]:
        return PASS_NOT_ALLOWED
    if kind == KIND_TIME and n_claims > 0:
        return TIME_CLAIMS
    if kind == KIND_LINE:
        if not (0 <= x1 < n and 0 <= y1 < n and 0 <= x2 < n and 0 <= y2 < n):
            return OFF_GRID
        code = line_code(n, used, diag, x1, y1, x2, y2)
        if code != OK:
            return code
        apply_line(n, used, diag, x1, y1, x2, y2)
    for k in range(n_claims):
        x, y = claims[k, 0], claims[k, 1]
        code = OK
        if not (0 <= x < n and 0 <= y < n):
            code = OFF_GRID
        elif used[y * n + x]:
            code = CLAIM_USED_DOT
        else:
            for j in range(k):
                if claims[j, 0] == x and claims[j, 1] == y:
                    code = CLAIM_REPEATED
            if code == OK and owner[y * n + x] >= 0:
                code = CLAIM_ALREADY_CLAIMED
            elif code == OK and not is_island(n, used, diag, x, y):
                code = CLAIM_NOT_ISLAND
        if code != OK:
            if kind == KIND_LINE:
                undo_line(n, used, diag, x1, y1, x2, y2)
            return code
    if kind == KIND_LINE:
        meta[LAST_LINE_BY] = p
    elif kind == KIND_TIME:
        meta[OUT_FIRST + p] = 1
    else:
        meta[FINAL_TAKEN] = 1
    for k in range(n_claims):
        owner[claims[k, 1] * n + claims[k, 0]] = p
    if kind == KIND_LINE and not has_legal_line(n, used, diag):
        meta[OVER] = 1
    meta[PLY] += 1
    return OK

def dot_name(n: int, d: int) -> str:
    """A dot by its file letter and rank number (spec: ``A1`` bottom left)."""
    return chr(ord("A") + d % n) + str(d // n + 1)


def match_result(margin: int) -> str:
    """A triad's result from the first player's side: |margin| >= 2 wins (spec §6)."""
    return "1-0" if margin >= MATCH_WIN_MARGIN else "0-1" if margin <= -MATCH_WIN_MARGIN else "1/2-1/2"


class Grid:
    """One grid as it is played: First moves at even plies. A turn is checked and applied in
    the spec's order: ``turn_code`` (before anything), ``line_code`` and ``draw`` for a
    line, ``claim_code`` per claimed dot, then ``end_turn``. ``out_of_time`` carries a
    timeout over from an earlier grid of the triad (that player has no time left).

    >>> g = Grid(4)
    >>> g.turn_code(LINE) == OK and g.line_code(0, 0, 3, 0) == OK
    True
    >>> g.draw(0, 0, 3, 0); g.end_turn(LINE, []); g.ply, g.mover
    (1, 1)
    """

    def __init__(self, n: int, out_of_time: tuple[bool, bool] = (False, False)):
        self.n = n
        self.used, self.diag, self.owner = new_state(n)
        self.out = list(out_of_time)
        self.ply = 0
        self.over = False  # no legal line remains
        self.last_line_by: int | None = None
        self.final_turn_taken = False

    @property
    def mover(self) -> int:
        return self.ply % 2

    def on_grid(self, x: int, y: int) -> bool:
        return 0 <= x < self.n and 0 <= y < self.n

    def turn_code(self, kind: str) -> int:
        """OK, or why the mover may not take a turn of this kind now."""
        p = self.mover
        if self.out[0] and self.out[1]:
            return BOTH_OUT
        if self.over and (kind == LINE or p == self.last_line_by or self.final_turn_taken):
            return GRID_OVER
        if self.out[p] and kind != TIME:
            return MOVE_AFTER_TIMEOUT
        if kind == PASS and not self.over:
            return PASS_NOT_ALLOWED
        return OK

    def line_code(self, x1: int, y1: int, x2: int, y2: int) -> int:
        """OK or why the line (both ends on the grid) may not be drawn."""
        return line_code(self.n, self.used, self.diag, x1, y1, x2, y2)

    def draw(self, x1: int, y1: int, x2: int, y2: int) -> None:
        apply_line(self.n, self.used, self.diag, x1, y1, x2, y2)
        self.last_line_by = self.mover

    def claim_code(self, d: int, claimed_this_turn) -> int:
        """OK or why dot ``d`` (on the grid) may not be claimed now."""
        if self.used[d]:
            return CLAIM_USED_DOT
        if d in claimed_this_turn:
            return CLAIM_REPEATED
        if self.owner[d] >= 0:
            return CLAIM_ALREADY_CLAIMED
        if not is_island(self.n, self.used, self.diag, d % self.n, d // self.n):
            return CLAIM_NOT_ISLAND
        return OK

    def end_turn(self, kind: str, claims) -> None:
        """The turn's claims score for the mover; a timeout, the final turn or the grid's end is noted."""
        p = self.mover
        if kind == TIME:
            self.out[p] = True
        elif kind == PASS:
            self.final_turn_taken = True
        for d in claims:
            self.owner[d] = p
        if kind == LINE and not has_legal_line(self.n, self.used, self.diag):
            self.over = True
        self.ply += 1

    def scalars(self) -> np.ndarray:
        """The grid's scalars as ``play_turn`` takes them (PLY ... OUT_SECOND)."""
        return np.array([self.ply, self.over, -1 if self.last_line_by is None else self.last_line_by,
                         self.final_turn_taken, *self.out], np.int64)

    def take_scalars(self, meta: np.ndarray) -> None:
        """The scalars ``play_turn`` left (the arrays it played on are the grid's own)."""
        ply, over, last, final, out_first, out_second = meta.tolist()
        self.ply, self.over, self.final_turn_taken = ply, bool(over), bool(final)
        self.last_line_by = None if last < 0 else last
        self.out = [bool(out_first), bool(out_second)]

    @property
    def stopped(self) -> bool:
        """The grid has ended: no legal line left, or a player out of time."""
        return self.over or any(self.out)

    def score(self) -> tuple[list[int], list[int], list[int]]:
        """(points, islands, bonus) of First and Second: islands claimed, plus the bonus to
        whoever drew the last line, or, when one player ran out of time, to the other."""
        bonus = [0, 0]
        if self.out[0] != self.out[1]:
            bonus[1 if self.out[0] else 0] = BONUS_POINTS
        elif not any(self.out) and self.over:
            bonus[self.last_line_by] = BONUS_POINTS
        islands = [int((self.owner == 0).sum()), int((self.owner == 1).sum())]
        return [islands[0] + bonus[0], islands[1] + bonus[1]], islands, bonus
