"""Iwoki rules, jitted (spec: shared/specs/iwoki.md; every rule of the game is in this file).

Two rule sets, chosen by ``state[RULES]``:

* ``simulator-2021`` (0): the reference simulator exactly: a matched 0 resets the points of
  a placement; a gap stays open when placing on it wrote no new value next to it (a tile can
  then be stacked on it); the first move is rotation 0 of either face (hex: A0); the game
  ends after two passes in a row.
* ``official`` (1): the paper's Appendix A with those bugs fixed: points are the plain sum
  of matched values; a filled gap always closes; the first move may use any orientation
  (scoring its largest result, or the hex tile's largest number); two passes in a row end
  the game only when the last pass brought no hex tile (otherwise a blocked game never ends).

An option is int64[5]: (kind, hand index, gap, orientation, points); kind 0 small tile,
1 hex tile, 2 draw, 3 pass; a small orientation is face*3 + rotation (face 0 '+', 1 '-'),
a hex orientation face*6 + rotation (face 0 'A', 1 'B').

>>> import numpy as np
>>> small_results(22, 0, 0).tolist(), hex_vertices(0, 1, 0).tolist()  # st23 '+' r0; ht1 face B r0
([5, 5, 6], [6, 6, 4, 2, 5, 9])
"""
from __future__ import annotations

import numpy as np
from scorebook.engines.jit import njit

from .metadata import (DREW, EMPTY, FIRST, FIRST_HEX_GAP, FIRST_SMALL_GAP, HAND_HEX, HAND_SMALL,
                       HEX_NUMBERS, HEX_PILE, HEX_PILE_LEN, HEX_PILE_TOP, HEXVAL, N_HAND_HEX,
                       N_HAND_SMALL, N_HEX_GAPS, N_HEX_TILES, N_OPEN_HEX, N_OPEN_SMALL,
                       N_SMALL_GAPS, N_SMALL_TILES, OPEN_HEX, OPEN_SMALL, PASSES, RULES, SCORE,
                       SLOT_VERTEX, SLOTVAL, SMALL_NUMBERS, SMALL_PENALTY, SMALL_PILE,
                       SMALL_PILE_LEN, SMALL_PILE_TOP, STATE_SIZE, TO_MOVE, TOKENS_FOR_HEX,
                       VERTEX_SLOT, VERTEX_SMALL, WHITE, WILD)

SMALL, HEX, DRAW, PASS = 0, 1, 2, 3
SIMULATOR, OFFICIAL = 0, 1

# Why an action may not be played (the checks of ``action_code``, in order); messages name
# {tile}, {seat} and {gap} as the record writes them.
OK, ACTION_AFTER_END, TILE_NOT_IN_HAND, FIRST_MOVE_RULE, GAP_NOT_OPEN, ILLEGAL_PLACEMENT = 0, 1, 2, 3, 4, 5
SECOND_DRAW, DRAW_NOT_ALLOWED, DRAW_EMPTY_PILE, PASS_NOT_ALLOWED = 6, 7, 8, 9
CODE_NAMES = {ACTION_AFTER_END: "action-after-end", TILE_NOT_IN_HAND: "tile-not-in-hand",
              FIRST_MOVE_RULE: "first-move-rule", GAP_NOT_OPEN: "gap-not-open",
              ILLEGAL_PLACEMENT: "illegal-placement", SECOND_DRAW: "second-draw",
              DRAW_NOT_ALLOWED: "draw-not-allowed", DRAW_EMPTY_PILE: "draw-empty-pile",
              PASS_NOT_ALLOWED: "pass-not-allowed"}
CODE_MESSAGES = {
    ACTION_AFTER_END: "the game was already over (a player to move had no small tiles, or two passes in a row)",
    TILE_NOT_IN_HAND: "{tile} is not in seat {seat}'s hand",
    FIRST_MOVE_RULE: "the first move is a tile on H1_H4_H5 or H1 in the orientation the rules allow",
    GAP_NOT_OPEN: "{gap} is not open",
    ILLEGAL_PLACEMENT: "the tile's numbers do not match the board (a placement needs a match and no mismatch)",
    SECOND_DRAW: "one draw per turn, never on the first move",
    DRAW_NOT_ALLOWED: "one draw per turn, never on the first move",
    DRAW_EMPTY_PILE: "the small pile is empty",
    PASS_NOT_ALLOWED: "a pass is allowed only when nothing can be placed and no draw is left this turn"}


def new_state(hands_small, hands_hex, small_pile, hex_pile, rules: int) -> np.ndarray:
    """The state at the start: hands in deal order, piles top first, seat 0 to move."""
    s = np.zeros(STATE_SIZE, np.int64)
    s[HEXVAL:HEXVAL + N_HEX_GAPS * 6] = EMPTY
    s[SLOTVAL:SLOTVAL + N_SMALL_GAPS * 3] = EMPTY
    for p in range(2):
        for i, t in enumerate(hands_small[p]):
            s[HAND_SMALL + p * N_SMALL_TILES + i] = t
        s[N_HAND_SMALL + p] = len(hands_small[p])
        for i, t in enumerate(hands_hex[p]):
            s[HAND_HEX + p * N_HEX_TILES + i] = t
        s[N_HAND_HEX + p] = len(hands_hex[p])
    s[SMALL_PILE:SMALL_PILE + len(small_pile)] = small_pile
    s[SMALL_PILE_LEN] = len(small_pile)
    s[HEX_PILE:HEX_PILE + len(hex_pile)] = hex_pile
    s[HEX_PILE_LEN] = len(hex_pile)
    s[FIRST] = 1
    s[RULES] = rules
    return s


@njit(cache=True)
def small_corners(tile, face, rot):
    n = SMALL_NUMBERS[tile]
    c = np.empty(3, np.int64)
    for j in range(3):
        c[j] = n[(rot + j) % 3] if face == 0 else n[(rot - j) % 3]
    return c


@njit(cache=True)
def small_results(tile, face, rot):
    """What the tile writes on slots 0, 1, 2: slot j gets c_j (+ or |-|) c_(j-1)."""
    c = small_corners(tile, face, rot)
    r = np.empty(3, np.int64)
    for j in range(3):
        a, b = c[j], c[(j - 1) % 3]
        r[j] = a + b if face == 0 else abs(a - b)
    return r


@njit(cache=True)
def hex_vertices(tile, face, k):
    n = HEX_NUMBERS[tile]
    v = np.empty(6, np.int64)
    for j in range(6):
        v[j] = n[(j + k) % 6] if face == 0 else n[(5 + k - j) % 6]
    return v


def _tables():
    res = np.empty((SMALL_NUMBERS.shape[0], 6, 3), np.int64)
    for t in range(SMALL_NUMBERS.shape[0]):
        for o in range(6):
            res[t, o] = small_results(t, o // 3, o % 3)
    verts = np.empty((HEX_NUMBERS.shape[0], 12, 6), np.int64)
    for t in range(HEX_NUMBERS.shape[0]):
        for o in range(12):
            verts[t, o] = hex_vertices(t, o // 6, o % 6)
    return res, verts


@njit(cache=True)
def _points_at(s, base, table, tile, orient, n, is_hex, rules):
    """placement_points of ``table[tile, orient]`` against the board values s[base : base + n],
    read in place: no views or temporary arrays in the option generator's inner loop."""
    total = -1  # unset
    matched = False
    for j in range(n):
        b = s[base + j]
        p = table[tile, orient, j]
        if b == EMPTY or p == WILD:
            continue
        if b == WILD:
            if is_hex:
                return False, 0  # only reachable through the re-open bug: a * must meet a *
            continue
        if b != p:
            return False, 0
        matched = True
        if b == 0 and rules == SIMULATOR:
            total = 0  # the simulator's reset
        else:
            total = b if total < 0 else total + b
    if not matched:
        return False, 0
    return True, max(total, 0)


@njit(cache=True)
def placement_points(board, values, is_hex, rules):
    """(legal, points) of writing ``values`` over ``board`` values (spec §5.2): every number
    that meets a number must equal it and at least one must; the points are their sum (the
    simulator resets the sum when a 0 is matched); on a hex gap a '*' only meets a '*'."""
    return _points_at(board, 0, values.reshape(1, 1, values.shape[0]), 0, 0, values.shape[0], is_hex, rules)


@njit(cache=True)
def _is_open(s, start, count_at, gap):
    for i in range(s[count_at]):
        if s[start + i] == gap:
            return True
    return False


@njit(cache=True)
def _remove_open(s, start, count_at, gap):
    n = s[count_at]
    for i in range(n):
        if s[start + i] == gap:
            for k in range(i, n - 1):
                s[start + k] = s[start + k + 1]
            s[count_at] = n - 1
            return


@njit(cache=True)
def _add_open(s, start, count_at, gap):
    n = s[count_at]
    if _is_open(s, start, count_at, gap):
        return
    s[start + n] = gap
    s[count_at] = n + 1


@njit(cache=True)
def is_open_small(s, gap):
    return _is_open(s, OPEN_SMALL, N_OPEN_SMALL, gap)


@njit(cache=True)
def is_open_hex(s, gap):
    return _is_open(s, OPEN_HEX, N_OPEN_HEX, gap)


@njit(cache=True)
def white_token(s, p):
    """One white token; the third draws the top hex tile. Returns the hex tile drawn or -1."""
    s[WHITE + p] += 1
    if s[WHITE + p] < TOKENS_FOR_HEX:
        return -1
    s[WHITE + p] = 0
    if s[HEX_PILE_TOP] >= s[HEX_PILE_LEN]:
        return -1
    t = s[HEX_PILE + s[HEX_PILE_TOP]]
    s[HEX_PILE_TOP] += 1
    s[HAND_HEX + p * N_HEX_TILES + s[N_HAND_HEX + p]] = t
    s[N_HAND_HEX + p] += 1
    return t


@njit(cache=True)
def _end_turn(s, p):
    s[DREW] = 0
    s[FIRST] = 0
    s[TO_MOVE] = 1 - p


@njit(cache=True)
def first_move_points(kind, tile, orient):
    """Points of the fixed first move: the largest result, or the hex tile's largest number."""
    if kind == SMALL:
        r = SMALL_RESULTS[tile, orient]
        return max(r[0], max(r[1], r[2]))
    best = 0
    for v in HEX_NUMBERS[tile]:
        if v != WILD and v > best:
            best = v
    return best


@njit(cache=True)
def evaluate(s, kind, tile, gap, orient):
    """(legal, points) of placing a tile (not the first move)."""
    if kind == SMALL:
        values = small_results(tile, orient // 3, orient % 3)
        board = np.empty(3, np.int64)
        for j in range(3):
            board[j] = s[SLOTVAL + gap * 3 + j]
        return placement_points(board, values, False, s[RULES])
    values = hex_vertices(tile, orient // 6, orient % 6)
    return placement_points(s[HEXVAL + gap * 6:HEXVAL + gap * 6 + 6], values, True, s[RULES])


@njit(cache=True)
def place(s, kind, hand_index, gap, orient, points):
    """Apply a placement by the player to move (legality checked before). Returns the hex
    tile a third white token drew, or -1."""
    p = s[TO_MOVE]
    official = s[RULES] == OFFICIAL
    if kind == SMALL:
        tile = s[HAND_SMALL + p * N_SMALL_TILES + hand_index]
        r = SMALL_RESULTS[tile, orient]
        wrote_new = False
        for j in range(3):
            s[SLOTVAL + gap * 3 + j] = r[j]
            vtx = SLOT_VERTEX[gap, j]
            if s[HEXVAL + vtx] == EMPTY:
                s[HEXVAL + vtx] = r[j]
                _add_open(s, OPEN_HEX, N_OPEN_HEX, vtx // 6)
                wrote_new = True
        if wrote_new or official:
            _remove_open(s, OPEN_SMALL, N_OPEN_SMALL, gap)
        n = s[N_HAND_SMALL + p]
        base = HAND_SMALL + p * N_SMALL_TILES
        for k in range(hand_index, n - 1):
            s[base + k] = s[base + k + 1]
        s[N_HAND_SMALL + p] = n - 1
    else:
        tile = s[HAND_HEX + p * N_HEX_TILES + hand_index]
        v = HEX_VERTICES[tile, orient]
        wrote_new = False
        for j in range(6):
            vtx = gap * 6 + j
            s[HEXVAL + vtx] = v[j]
            sg = VERTEX_SMALL[vtx]
            if sg >= 0:
                slot = VERTEX_SLOT[vtx]
                if s[SLOTVAL + sg * 3 + slot] == EMPTY:
                    s[SLOTVAL + sg * 3 + slot] = v[j]
                    _add_open(s, OPEN_SMALL, N_OPEN_SMALL, sg)
                    wrote_new = True
        if wrote_new or official:
            _remove_open(s, OPEN_HEX, N_OPEN_HEX, gap)
        n = s[N_HAND_HEX + p]
        base = HAND_HEX + p * N_HEX_TILES
        for k in range(hand_index, n - 1):
            s[base + k] = s[base + k + 1]
        s[N_HAND_HEX + p] = n - 1
    s[SCORE + p] += points
    drawn = -1
    if kind == SMALL and orient // 3 == 1:
        drawn = white_token(s, p)
    s[PASSES] = 0
    _end_turn(s, p)
    return drawn


@njit(cache=True)
def draw(s):
    """The player to move takes the top small tile and moves again. Returns the hex tile a
    third white token drew, or -1."""
    p = s[TO_MOVE]
    t = s[SMALL_PILE + s[SMALL_PILE_TOP]]
    s[SMALL_PILE_TOP] += 1
    s[HAND_SMALL + p * N_SMALL_TILES + s[N_HAND_SMALL + p]] = t
    s[N_HAND_SMALL + p] += 1
    drawn = white_token(s, p)
    s[PASSES] = 0
    s[DREW] = 1
    return drawn


@njit(cache=True)
def pass_turn(s):
    p = s[TO_MOVE]
    drawn = white_token(s, p)
    s[PASSES] += 1
    if drawn >= 0 and s[RULES] == OFFICIAL:
        s[PASSES] = 0  # the new hex tile may unblock the game
    _end_turn(s, p)
    return drawn


@njit(cache=True)
def can_draw(s):
    return s[FIRST] == 0 and s[DREW] == 0 and s[SMALL_PILE_TOP] < s[SMALL_PILE_LEN]


@njit(cache=True)
def game_over(s):
    """Checked when a player is about to move (spec §5.6)."""
    return s[N_HAND_SMALL + s[TO_MOVE]] == 0 or s[PASSES] >= 2


@njit(cache=True)
def options(s):
    """The option list in the simulator's order (spec §7); int64[k, 5]."""
    p = s[TO_MOVE]
    n_small = s[N_HAND_SMALL + p]
    n_hex = s[N_HAND_HEX + p]
    # room for every option there could be, so the loops below never check for space
    most = max(n_small * max(s[N_OPEN_SMALL], 1) * 6 + n_hex * max(s[N_OPEN_HEX], 1) * 12, 1) + 1
    out = np.empty((most, 5), np.int64)
    k = 0
    official = s[RULES] == OFFICIAL
    if s[FIRST]:
        rotations = 3 if official else 1
        for face in (1, 0):
            for i in range(n_small):
                tile = s[HAND_SMALL + p * N_SMALL_TILES + i]
                for rot in range(rotations):
                    o = face * 3 + rot
                    out[k, 0] = SMALL
                    out[k, 1] = i
                    out[k, 2] = FIRST_SMALL_GAP
                    out[k, 3] = o
                    out[k, 4] = first_move_points(SMALL, tile, o)
                    k += 1
        for i in range(n_hex):
            tile = s[HAND_HEX + p * N_HEX_TILES + i]
            for o in range(12 if official else 1):
                out[k, 0] = HEX
                out[k, 1] = i
                out[k, 2] = FIRST_HEX_GAP
                out[k, 3] = o
                out[k, 4] = first_move_points(HEX, tile, o)
                k += 1
        return out[:k]
    rules = s[RULES]
    # which (tile, orientation) fit each open gap: the AND of the masks of its filled values
    n_os = s[N_OPEN_SMALL]
    small_fit = np.empty((n_os, SMALL_WORDS), np.uint64)
    small_any = np.zeros(n_os, np.bool_)
    for g in range(n_os):
        gap = s[OPEN_SMALL + g]
        small_fit[g, :] = ALL_BITS
        for j in range(3):
            b = s[SLOTVAL + gap * 3 + j]
            if b == EMPTY or b == WILD:
                continue
            small_any[g] = True
            for w in range(SMALL_WORDS):
                small_fit[g, w] &= SMALL_MASK[j, b, w]
    for face in (1, 0):
        for i in range(n_small):
            tile = s[HAND_SMALL + p * N_SMALL_TILES + i]
            for g in range(n_os):
                if not small_any[g]:
                    continue
                gap = s[OPEN_SMALL + g]
                for rot in range(3):
                    bit = tile * 6 + face * 3 + rot
                    if (small_fit[g, bit >> 6] >> np.uint64(bit & 63)) & np.uint64(1):
                        legal, pts = _points_at(s, SLOTVAL + gap * 3, SMALL_RESULTS, tile, face * 3 + rot, 3, False,
                                                rules)
                        if legal:
                            out[k, 0] = SMALL
                            out[k, 1] = i
                            out[k, 2] = gap
                            out[k, 3] = face * 3 + rot
                            out[k, 4] = pts
                            k += 1
    n_oh = s[N_OPEN_HEX]
    hex_fit = np.empty((n_oh, HEX_WORDS), np.uint64)
    hex_any = np.zeros(n_oh, np.bool_)
    for g in range(n_oh):
        gap = s[OPEN_HEX + g]
        hex_fit[g, :] = ALL_BITS
        for j in range(6):
            b = s[HEXVAL + gap * 6 + j]
            if b == EMPTY:
                continue
            if b != WILD:
                hex_any[g] = True
            for w in range(HEX_WORDS):
                hex_fit[g, w] &= HEX_MASK[j, b, w]
    for i in range(n_hex):
        tile = s[HAND_HEX + p * N_HEX_TILES + i]
        for g in range(n_oh):
            if not hex_any[g]:
                continue
            gap = s[OPEN_HEX + g]
            for o in range(12):
                bit = tile * 12 + o
                if (hex_fit[g, bit >> 6] >> np.uint64(bit & 63)) & np.uint64(1):
                    legal, pts = _points_at(s, HEXVAL + gap * 6, HEX_VERTICES, tile, o, 6, True, rules)
                    if legal:
                        out[k, 0] = HEX
                        out[k, 1] = i
                        out[k, 2] = gap
                        out[k, 3] = o
                        out[k, 4] = pts
                        k += 1
    if can_draw(s):
        out[k, 0] = DRAW
        out[k, 1:] = 0
        k += 1
    if k == 0:
        out[k, 0] = PASS
        out[k, 1:] = 0
        k += 1
    return out[:k]


@njit(cache=True)
def apply_option(s, option):
    """Play one option for the player to move; returns the hex tile drawn by a third token or -1."""
    kind = option[0]
    if kind == DRAW:
        return draw(s)
    if kind == PASS:
        return pass_turn(s)
    return place(s, kind, option[1], option[2], option[3], option[4])


@njit(cache=True)
def penalties(s):
    out = np.zeros(2, np.int64)
    for p in range(2):
        for i in range(s[N_HAND_SMALL + p]):
            out[p] += SMALL_PENALTY[s[HAND_SMALL + p * N_SMALL_TILES + i]]
    return out


@njit(cache=True)
def tally_margin(s, player):
    """(own score - own hand penalty) - (opponent's likewise): the final tally as if it ended now."""
    pen = penalties(s)
    return (s[SCORE + player] - pen[player]) - (s[SCORE + 1 - player] - pen[1 - player])


# what each tile writes in each orientation: small [tile, face*3+rot, slot], hex [tile, face*6+rot, vertex]
SMALL_RESULTS, HEX_VERTICES = _tables()


def _masks():
    """Bit (tile*6 + orientation) of SMALL_MASK[slot, value] is set when that small tile in that
    orientation puts ``value`` on ``slot``; bit (tile*12 + orientation) of HEX_MASK[vertex, value]
    when the hex tile puts ``value`` or its own '*' there (a '*' on the board only meets a '*')."""
    small_words = (SMALL_RESULTS.shape[0] * 6 + 63) // 64
    hex_words = (HEX_VERTICES.shape[0] * 12 + 63) // 64
    small = np.zeros((3, WILD + 1, small_words), np.uint64)
    for t in range(SMALL_RESULTS.shape[0]):
        for o in range(6):
            bit = t * 6 + o
            for j in range(3):
                small[j, SMALL_RESULTS[t, o, j], bit >> 6] |= np.uint64(1) << np.uint64(bit & 63)
    hexes = np.zeros((6, WILD + 1, hex_words), np.uint64)
    for t in range(HEX_VERTICES.shape[0]):
        for o in range(12):
            bit = t * 12 + o
            for j in range(6):
                v = HEX_VERTICES[t, o, j]
                for b in range(WILD + 1):
                    if v == b or (v == WILD and b != WILD):
                        hexes[j, b, bit >> 6] |= np.uint64(1) << np.uint64(bit & 63)
    return small, hexes, small_words, hex_words


SMALL_MASK, HEX_MASK, SMALL_WORDS, HEX_WORDS = _masks()
ALL_BITS = np.uint64(0xFFFFFFFFFFFFFFFF)
assert SMALL_RESULTS.max() < WILD and HEX_NUMBERS[HEX_NUMBERS != WILD].max() < WILD  # no number reads as a '*'


# ---------------------------------------------------------------- actions, checked (for replaying records)

def hand(s, p, kind) -> list[int]:
    """The tiles (numbers) in player p's small (kind SMALL) or hex hand, in hand order."""
    if kind == SMALL:
        return [int(s[HAND_SMALL + p * N_SMALL_TILES + i]) for i in range(s[N_HAND_SMALL + p])]
    return [int(s[HAND_HEX + p * N_HEX_TILES + i]) for i in range(s[N_HAND_HEX + p])]


def pile_top(s) -> int:
    """The small tile a draw takes now, or -1 when the pile is empty."""
    return int(s[SMALL_PILE + s[SMALL_PILE_TOP]]) if s[SMALL_PILE_TOP] < s[SMALL_PILE_LEN] else -1


def action_code(s, kind: int, tile: int = -1, gap: int = -1, orient: int = -1) -> tuple[int, int]:
    """(OK or why not, points) of an action by the player to move: a placement of tile number
    ``tile`` (kind SMALL or HEX) on ``gap`` in ``orient``, a DRAW or a PASS (spec §5)."""
    code, points = check_action(s, kind, tile, gap, orient)
    return int(code), int(points)


@njit(cache=True)
def check_action(s, kind, tile, gap, orient):
    """``action_code``, jitted (a record's actions read in one compiled call play them so)."""
    if game_over(s):
        return ACTION_AFTER_END, 0
    if kind == DRAW:
        if s[FIRST] or s[DREW]:
            return (SECOND_DRAW if s[DREW] else DRAW_NOT_ALLOWED), 0
        return (OK if s[SMALL_PILE_TOP] < s[SMALL_PILE_LEN] else DRAW_EMPTY_PILE), 0
    if kind == PASS:
        opts = options(s)
        return (OK if opts.shape[0] == 1 and opts[0, 0] == PASS else PASS_NOT_ALLOWED), 0
    p = s[TO_MOVE]
    held = -1  # the tile's place in the hand (the first, as a list's index finds it)
    if kind == SMALL:
        for i in range(s[N_HAND_SMALL + p]):
            if s[HAND_SMALL + p * N_SMALL_TILES + i] == tile:
                held = i
                break
    else:
        for i in range(s[N_HAND_HEX + p]):
            if s[HAND_HEX + p * N_HEX_TILES + i] == tile:
                held = i
                break
    if held < 0:
        return TILE_NOT_IN_HAND, 0
    if s[FIRST]:
        opts = options(s)
        for o in range(opts.shape[0]):
            if opts[o, 0] == kind and opts[o, 1] == held and opts[o, 2] == gap and opts[o, 3] == orient:
                return OK, first_move_points(kind, tile, orient)
        return FIRST_MOVE_RULE, 0
    if not (is_open_small(s, gap) if kind == SMALL else is_open_hex(s, gap)):
        return GAP_NOT_OPEN, 0
    legal, points = evaluate(s, kind, tile, gap, orient)
    return (OK if legal else ILLEGAL_PLACEMENT), points


@njit(cache=True)
def play_action(s, kind, tile, gap, orient):
    """A record's action by its tile checked (``check_action``) and, where allowed, played:
    OK, or the code of its refusal with the state as it was."""
    code, points = check_action(s, kind, tile, gap, orient)
    if code != OK:
        return code
    if kind == DRAW:
        draw(s)
    elif kind == PASS:
        pass_turn(s)
    else:
        held = 0
        if kind == SMALL:
            while s[HAND_SMALL + s[TO_MOVE] * N_SMALL_TILES + held] != tile:
                held += 1
        else:
            while s[HAND_HEX + s[TO_MOVE] * N_HEX_TILES + held] != tile:
                held += 1
        place(s, kind, held, gap, orient, points)
    return OK


def apply_action(s, kind: int, tile: int = -1, gap: int = -1, orient: int = -1, points: int = 0) -> int:
    """Play an action ``action_code`` allowed; returns the hex tile a third white token drew, or -1."""
    if kind == DRAW:
        return int(draw(s))
    if kind == PASS:
        return int(pass_turn(s))
    return int(place(s, kind, hand(s, int(s[TO_MOVE]), kind).index(tile), gap, orient, points))


def end_of_game(s) -> tuple[bool, int, str]:
    """(over, the seat whose move detected the end, why: out_of_small_tiles or double_pass)."""
    to_move = int(s[TO_MOVE])
    return bool(game_over(s)), to_move, "out_of_small_tiles" if s[N_HAND_SMALL + to_move] == 0 else "double_pass"


def final_tally(s) -> dict:
    """The score as if the game ended now (spec §5.6): running scores, hand penalties (the
    largest number of each small tile in hand), final scores and the winner (None on a tie)."""
    pen = penalties(s)
    before = [int(s[SCORE]), int(s[SCORE + 1])]
    final = [before[0] - int(pen[0]), before[1] - int(pen[1])]
    winner = 0 if final[0] > final[1] else 1 if final[1] > final[0] else None
    return {"before_tally": before, "penalties": [int(pen[0]), int(pen[1])], "final": final, "winner": winner}
