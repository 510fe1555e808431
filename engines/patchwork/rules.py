"""Every rule of Patchwork, jitted: the state, the moves of the three rule sets, the score.

Rule sets (``VARIANTS``): ``real`` (one player, the thesis's game on the real quilt), ``sim``
(one player, shapes ignored: a patch fits when its size fits the squares not yet bought,
leather patches are collected, never placed) and ``two-player`` (the rulebook: the patch
circle and its three-patch window, advancing past the opponent, the 7x7 special tile).

A state is an int64 vector (offsets below). A move is three numbers ``(kind, a, b)``:

* ``BUY, patch, place``: ``place`` is ``code * 256 + row * 16 + column`` (the notation's
  orientation code and the anchor, 0-based, up to 15 so that an anchor off the quilt can be
  named and refused) or -1 (no placement: the simulated variant);
* ``SKIP, k`` (one player: k spaces, a button each), ``ADVANCE`` (two players: to just in
  front of the opponent, a button a space);
* ``LEATHER, cell`` (the due 1x1 patch on ``cell``) or ``LEATHER, -1`` (lost: only when the
  quilt is full).

``apply`` returns OK or the code of the first rule the move breaks, in the order of the
records' errors (shared/specs/patchwork.md 4.3), and leaves the state unchanged then.

>>> from .pieces import REAL
>>> s = new_state(REAL, np.zeros(0, np.int64))
>>> apply(s, SKIP, 3, 0), int(s[TIME]), int(s[BUTTONS])
(0, 3, 8)
>>> CODE_NAMES[apply(s, BUY, 29, 0)], CODE_NAMES[apply(s, BUY, 20, 8 * 16 + 8)]
('unaffordable', 'off-board')
"""
from __future__ import annotations

import numpy as np
from scorebook.engines.jit import njit

from .pieces import (CELLS, COST as PATCH_COST, EMPTY_PENALTY, FULL_BONUS, INCOME as PATCH_INCOME,
                     INCOME_UPTO, LAST_SPACE, LEATHER_SPACES, LEATHER_UPTO, LOW_BITS, N_PATCHES, PL_HI, PL_LO,
                     RESOLVE, SIM, SIZE as PATCH_SIZE, SPECIAL_POINTS, SPECIAL_REGIONS, START_BUTTONS,
                     TIME as PATCH_TIME, TWO_PLAYER, VARIANTS)

# ---- the state vector
VARIANT, PLAYERS, TO_MOVE, BOUGHT, NEUTRAL, SPECIAL, ON_TOP, FIRST_END, DUE, PLY = range(10)
SEAT, SEAT_SIZE = 10, 10  # a seat's block: SEAT + SEAT_SIZE * seat + one of
TIME, BUTTONS, INCOME_NOW, LO, HI, SQUARES, PATCHES, LEATHER, LOST = (SEAT + i for i in range(9))
CIRCLE = 30  # two players: the 33 patch ids clockwise from just after the neutral token's start
STATE_SIZE = CIRCLE + N_PATCHES + 1

# ---- moves
BUY, SKIP, ADVANCE, LEATHER_MOVE = 0, 1, 2, 3
NO_PLACE = -1
WINDOW = 3

# ---- codes: the records' error codes
(OK, MOVE_AFTER_END, NO_LEATHER_DUE, LEATHER_LOST_NOT_FULL, OVERLAP, LEATHER_DUE, BAD_SKIP, SKIP_PAST_END,
 NOT_IN_WINDOW, UNKNOWN_PATCH, ALREADY_BOUGHT, UNAFFORDABLE, PLACEMENT_MISSING, OFF_BOARD, PLACEMENT_IN_SIM,
 NO_ROOM, NOT_THIS_VARIANT) = range(17)
CODE_NAMES = {MOVE_AFTER_END: "move-after-end", NO_LEATHER_DUE: "no-leather-due",
              LEATHER_LOST_NOT_FULL: "leather-lost-not-full", OVERLAP: "overlap", LEATHER_DUE: "leather-due",
              BAD_SKIP: "bad-skip", SKIP_PAST_END: "skip-past-end", NOT_IN_WINDOW: "not-in-window",
              UNKNOWN_PATCH: "unknown-patch", ALREADY_BOUGHT: "already-bought", UNAFFORDABLE: "unaffordable",
              PLACEMENT_MISSING: "placement-missing", OFF_BOARD: "off-board", PLACEMENT_IN_SIM: "placement-in-sim",
              NO_ROOM: "no-room", NOT_THIS_VARIANT: "bad-token"}

_TWO = np.int64(2)


@njit(cache=True)
def popcount(x: np.int64) -> np.int64:
    """Set bits of a non-negative int64 (SWAR)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56 & 0xFF


@njit(cache=True)
def new_state(variant: np.int64, circle: np.ndarray) -> np.ndarray:
    """The state before the first move; ``circle`` (two players) the 33 ids clockwise from
    just after the neutral token, so ending with the 1x2 patch."""
    s = np.zeros(STATE_SIZE, np.int64)
    s[VARIANT] = variant
    s[PLAYERS] = 2 if variant == TWO_PLAYER else 1
    s[SPECIAL] = -1
    s[FIRST_END] = -1
    s[ON_TOP] = 0  # the first player starts "on top": it moves first
    s[NEUTRAL] = N_PATCHES - 1  # the token is just clockwise of the last patch of the circle
    for p in range(s[PLAYERS]):
        s[BUTTONS + SEAT_SIZE * p] = START_BUTTONS
    for i in range(circle.shape[0]):
        s[CIRCLE + i] = circle[i]
    return s


@njit(cache=True)
def is_over(s: np.ndarray) -> bool:
    if s[DUE] > 0:
        return False
    for p in range(s[PLAYERS]):
        if s[TIME + SEAT_SIZE * p] < LAST_SPACE:
            return False
    return True


@njit(cache=True)
def next_mover(s: np.ndarray) -> np.int64:
    """The player furthest behind on the time track; on a tie, the one on top."""
    if s[PLAYERS] == 1:
        return 0
    t0, t1 = s[TIME], s[TIME + SEAT_SIZE]
    if t0 < t1:
        return 0
    if t1 < t0:
        return 1
    return s[ON_TOP]


@njit(cache=True)
def window(s: np.ndarray, out: np.ndarray) -> np.int64:
    """Two players: the next (up to) three patches clockwise from the neutral token, into
    ``out``; how many."""
    n = 0
    i = s[NEUTRAL]
    for _ in range(N_PATCHES):
        i = (i + 1) % N_PATCHES
        p = s[CIRCLE + i]
        if not (s[BOUGHT] >> p) & 1:
            out[n] = p
            n += 1
            if n == WINDOW:
                break
    return n


@njit(cache=True)
def in_window(s: np.ndarray, patch: np.int64) -> bool:
    w = np.empty(WINDOW, np.int64)
    n = window(s, w)
    for i in range(n):
        if w[i] == patch:
            return True
    return False


@njit(cache=True)
def covers_special(lo: np.int64, hi: np.int64) -> bool:
    """Does a quilt cover some 7x7 square completely?"""
    for k in range(SPECIAL_REGIONS.shape[0]):
        if (lo & SPECIAL_REGIONS[k, 0]) == SPECIAL_REGIONS[k, 0] and (hi & SPECIAL_REGIONS[k, 1]) == SPECIAL_REGIONS[k, 1]:
            return True
    return False


@njit(cache=True)
def _placed(s: np.ndarray, seat: np.int64, lo: np.int64, hi: np.int64, squares: np.int64) -> None:
    b = SEAT_SIZE * seat
    s[LO + b] |= lo
    s[HI + b] |= hi
    s[SQUARES + b] += squares
    if s[PLAYERS] == 2 and s[SPECIAL] < 0 and covers_special(s[LO + b], s[HI + b]):
        s[SPECIAL] = seat


@njit(cache=True)
def _move_token(s: np.ndarray, seat: np.int64, spaces: np.int64) -> None:
    """Move a token (stopping at the last space); pay income for every income space passed or
    reached; leather spaces passed first by anyone become due (real board) or are collected
    (shape-less); then who moves next."""
    b = SEAT_SIZE * seat
    t0 = s[TIME + b]
    t1 = min(t0 + spaces, LAST_SPACE)
    other = s[TIME + SEAT_SIZE * (1 - seat)] if s[PLAYERS] == 2 else 0
    s[BUTTONS + b] += (INCOME_UPTO[t1] - INCOME_UPTO[t0]) * s[INCOME_NOW + b]
    new_leather = LEATHER_UPTO[max(t1, other)] - LEATHER_UPTO[max(t0, other)]
    s[TIME + b] = t1
    if s[VARIANT] == SIM:
        s[LEATHER + b] += new_leather
    else:
        s[DUE] = new_leather
    if s[PLAYERS] == 2 and t1 == other:
        s[ON_TOP] = seat
    if t1 == LAST_SPACE and s[FIRST_END] < 0:
        s[FIRST_END] = seat
    if s[DUE] == 0:
        s[TO_MOVE] = next_mover(s)


@njit(cache=True)
def placement_of(patch: np.int64, place: np.int64) -> np.int64:
    """The placement (row of the tables) a notation placement names, or -1 when off the quilt."""
    code, row, col = place >> 8, (place >> 4) & 15, place & 15
    if code > 7 or row >= RESOLVE.shape[2] or col >= RESOLVE.shape[3]:
        return -1
    return RESOLVE[patch, code, row, col]


@njit(cache=True)
def check_buy(s: np.ndarray, patch: np.int64, place: np.int64) -> np.int64:
    """OK, or why a buy is illegal (the records' order); ``place`` as ``apply`` takes it."""
    seat = s[TO_MOVE]
    b = SEAT_SIZE * seat
    known = 0 <= patch < N_PATCHES
    if s[PLAYERS] == 2 and known and not (s[BOUGHT] >> patch) & 1 and not in_window(s, patch):
        return NOT_IN_WINDOW
    if not known:
        return UNKNOWN_PATCH
    if (s[BOUGHT] >> patch) & 1:
        return ALREADY_BOUGHT
    if PATCH_COST[patch] > s[BUTTONS + b]:
        return UNAFFORDABLE
    if s[VARIANT] == SIM:
        if place != NO_PLACE:
            return PLACEMENT_IN_SIM
        if PATCH_SIZE[patch] > CELLS - s[SQUARES + b]:
            return NO_ROOM
        return OK
    if place == NO_PLACE:
        return PLACEMENT_MISSING
    k = placement_of(patch, place)
    if k < 0:
        return OFF_BOARD
    if (PL_LO[k] & s[LO + b]) != 0 or (PL_HI[k] & s[HI + b]) != 0:
        return OVERLAP
    return OK


@njit(cache=True)
def buy_placement(s: np.ndarray, patch: np.int64, k: np.int64) -> None:
    """Buy ``patch`` (placement row ``k``, or -1 shape-less), the move known legal."""
    seat = s[TO_MOVE]
    b = SEAT_SIZE * seat
    s[BUTTONS + b] -= PATCH_COST[patch]
    if k >= 0:
        _placed(s, seat, PL_LO[k], PL_HI[k], PATCH_SIZE[patch])
    else:
        s[SQUARES + b] += PATCH_SIZE[patch]
    s[INCOME_NOW + b] += PATCH_INCOME[patch]
    s[PATCHES + b] += 1
    s[BOUGHT] |= np.int64(1) << patch
    if s[PLAYERS] == 2:
        for i in range(N_PATCHES):
            if s[CIRCLE + i] == patch:
                s[NEUTRAL] = i
    s[PLY] += 1
    _move_token(s, seat, PATCH_TIME[patch])


@njit(cache=True)
def skip(s: np.ndarray, spaces: np.int64) -> None:
    """Skip (one player) or advance (two players: ``spaces`` to just in front of the opponent)."""
    seat = s[TO_MOVE]
    s[BUTTONS + SEAT_SIZE * seat] += spaces
    s[PLY] += 1
    _move_token(s, seat, spaces)


@njit(cache=True)
def advance_spaces(s: np.ndarray) -> np.int64:
    seat = s[TO_MOVE]
    return min(s[TIME + SEAT_SIZE * (1 - seat)] + 1, LAST_SPACE) - s[TIME + SEAT_SIZE * seat]


@njit(cache=True)
def place_leather(s: np.ndarray, cell: np.int64) -> None:
    """The due leather patch on ``cell`` (empty), or lost (-1, the quilt full)."""
    seat = s[TO_MOVE]
    b = SEAT_SIZE * seat
    if cell < 0:
        s[LOST + b] += 1
    else:
        if cell < LOW_BITS:
            _placed(s, seat, np.int64(1) << cell, np.int64(0), np.int64(1))
        else:
            _placed(s, seat, np.int64(0), np.int64(1) << (cell - LOW_BITS), np.int64(1))
        s[LEATHER + b] += 1
    s[DUE] -= 1
    s[PLY] += 1
    if s[DUE] == 0:
        s[TO_MOVE] = next_mover(s)


@njit(cache=True)
def cell_free(s: np.ndarray, cell: np.int64) -> bool:
    b = SEAT_SIZE * s[TO_MOVE]
    if cell < LOW_BITS:
        return not (s[LO + b] >> cell) & 1
    return not (s[HI + b] >> (cell - LOW_BITS)) & 1


@njit(cache=True)
def apply(s: np.ndarray, kind: np.int64, a: np.int64, c: np.int64) -> np.int64:
    """Play a move: OK, or the code of the first rule it breaks (the state unchanged then)."""
    if is_over(s):
        return MOVE_AFTER_END
    two = s[PLAYERS] == 2
    if kind == LEATHER_MOVE:
        if s[DUE] == 0:
            return NO_LEATHER_DUE
        if a < 0:
            if s[SQUARES + SEAT_SIZE * s[TO_MOVE]] < CELLS:
                return LEATHER_LOST_NOT_FULL
        elif a >= CELLS:
            return OFF_BOARD
        elif not cell_free(s, a):
            return OVERLAP
        place_leather(s, a)
        return OK
    if s[DUE] > 0:
        return LEATHER_DUE
    if kind == SKIP:
        if two:
            return NOT_THIS_VARIANT
        if a < 1:
            return BAD_SKIP
        if s[TIME + SEAT_SIZE * s[TO_MOVE]] + a > LAST_SPACE:
            return SKIP_PAST_END
        skip(s, a)
        return OK
    if kind == ADVANCE:
        if not two:
            return NOT_THIS_VARIANT
        skip(s, advance_spaces(s))
        return OK
    code = check_buy(s, a, c)
    if code != OK:
        return code
    buy_placement(s, a, placement_of(a, c) if c != NO_PLACE else np.int64(-1))
    return OK


# ---------------------------------------------------------------- the score


@njit(cache=True)
def empty_squares(s: np.ndarray, seat: np.int64) -> np.int64:
    """Open squares as scored: on the quilt, or shape-less ``max(81 - bought - 5, 0)``."""
    squares = s[SQUARES + SEAT_SIZE * seat]
    if s[VARIANT] == SIM:
        return max(CELLS - squares - LEATHER_SPACES.shape[0], 0)
    return CELLS - squares


@njit(cache=True)
def solo_total(s: np.ndarray) -> np.int64:
    """Thesis Eq. 1: buttons + 7 on a full quilt, else buttons - 2 per empty square."""
    empty = empty_squares(s, 0)
    return s[BUTTONS] + (FULL_BONUS if empty == 0 else 0) - EMPTY_PENALTY * empty


@njit(cache=True)
def two_player_finals(s: np.ndarray, out: np.ndarray) -> None:
    for p in range(2):
        out[p] = s[BUTTONS + SEAT_SIZE * p] - EMPTY_PENALTY * empty_squares(s, p) \
            + (SPECIAL_POINTS if s[SPECIAL] == p else 0)


@njit(cache=True)
def winner(s: np.ndarray) -> np.int64:
    """The higher final; on a tie, whoever reached the last space first."""
    f = np.zeros(2, np.int64)
    two_player_finals(s, f)
    if f[0] != f[1]:
        return 0 if f[0] > f[1] else 1
    return s[FIRST_END] if s[FIRST_END] >= 0 else 0


def score(s: np.ndarray) -> dict:
    """The score in the shapes of shared/specs/cli.md."""
    if s[PLAYERS] == 1:
        empty = int(empty_squares(s, 0))
        sim = s[VARIANT] == SIM
        return {"variant": VARIANTS[int(s[VARIANT])], "buttons": int(s[BUTTONS]), "empty": empty,
                "bonus": FULL_BONUS if empty == 0 else 0, "total": int(solo_total(s)), "income": int(s[INCOME_NOW]),
                "patches": int(s[PATCHES]), "leather": int(s[LEATHER]),
                "seven_by_seven": None if sim else bool(covers_special(s[LO], s[HI]))}
    finals = np.zeros(2, np.int64)
    two_player_finals(s, finals)
    seats = (0, 1)
    return {"variant": VARIANTS[TWO_PLAYER], "buttons": [int(s[BUTTONS + SEAT_SIZE * p]) for p in seats],
            "empty": [int(empty_squares(s, p)) for p in seats],
            "special_tile": None if s[SPECIAL] < 0 else int(s[SPECIAL]), "final": [int(f) for f in finals],
            "winner": int(winner(s)), "income": [int(s[INCOME_NOW + SEAT_SIZE * p]) for p in seats],
            "patches": [int(s[PATCHES + SEAT_SIZE * p]) for p in seats],
            "leather": [int(s[LEATHER + SEAT_SIZE * p]) for p in seats]}


def board_cells(s: np.ndarray, seat: int) -> int:
    """A seat's quilt as one Python int of 81 bits (cell i = bit i)."""
    b = SEAT_SIZE * seat
    return int(s[LO + b]) | int(s[HI + b]) << LOW_BITS

