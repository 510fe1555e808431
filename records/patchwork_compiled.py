"""Patchwork's moves read in one jitted call (``PatchworkVisitor.read_compiled``): the movetext's
bytes cut into moves (``1:B12@c3r1m``, ``2:A``, ``1:L@e5``, ``L-``, ``S2``; move numbers are
ignored, as the walk ignores them) and the result, every move played by the engine's
``apply``, and the canonical movetext written back (each placement with the first code that
gives its cells, ``{7x7}`` after the move that wins the special tile), wrapped as
``pgn.wrap_words`` wraps it.

Like every compiled reader (``records/compiled.py``) it only says yes: at any fault, or a shape
it does not read (a move stuck to its number, a number of more than two digits), it declines
and the walk reads the record. ``tests/patchwork/test_compiled_reader.py`` holds it to the walk.
"""
from __future__ import annotations

import numpy as np
from scorebook.engines.jit import njit

from scorebook.engines.patchwork import pieces as P, rules as R

from .compiled import NOT_A_NUMBER, NOT_READ, move_number, words_of, digits, put_byte, put_int, put_wrapped

OK = 0
COLON, AT, DASH, DOT, STAR = (ord(c) for c in ":@-.*")
LETTER_A, LETTER_R, LETTER_M, LETTER_B, LETTER_A_UP, LETTER_L, LETTER_S = (ord(c) for c in "arm" + "BALS")
PL_ROW, PL_COL, PL_CODE = P.PL_ROW.astype(np.int64), P.PL_COL.astype(np.int64), P.PL_CODE.astype(np.int64)
# a move's columns in the ``moves`` array the call returns
SEAT, KIND, A, B, SPECIAL, TEXT, TEXT_END = range(7)


@njit(cache=True)
def _square(buf, a, b) -> np.int64:
    """``e5`` at ``buf[a:b]``: the cell, CELLS off the quilt (the rules refuse it there), or
    NOT_READ where it does not read (a row of one or two digits, from 1)."""
    if b - a < 2:
        return NOT_READ
    col, row = buf[a] - LETTER_A, digits(buf, a + 1, b, 2)
    if col < 0 or col >= 26 or row < 1:
        return NOT_READ
    return (row - 1) * P.COLS + col if col < P.COLS and row <= P.ROWS else P.CELLS


@njit(cache=True)
def _move(buf, a, b, two, out) -> bool:
    """A move token at ``buf[a:b]`` into ``out`` (seat, kind, a, b), as the walk's
    ``parse_move`` reads it; False where the compiled reader leaves it to the walk."""
    seat = 0
    if two:
        if b - a < 3 or buf[a + 1] != COLON or not (49 <= buf[a] <= 50):
            return False
        seat, a = buf[a] - 49, a + 2
    c = buf[a]
    if c == LETTER_B:  # B12, B12@c3r1m
        at = a + 1
        while at < b and buf[at] != AT:
            at += 1
        patch = digits(buf, a + 1, at, 2)
        if patch < 0:
            return False
        out[0], out[1], out[2], out[3] = seat, R.BUY, patch, R.NO_PLACE
        if at == b:
            return True
        r = at + 1
        while r < b and buf[r] != LETTER_R:
            r += 1
        col, row = buf[at + 1] - LETTER_A, digits(buf, at + 2, r, 2)
        mirror = b - r == 3 and buf[r + 2] == LETTER_M
        if r + 1 >= b or not (b - r == 2 or mirror) or col < 0 or col >= 26 or row < 1:
            return False
        turns = buf[r + 1] - 48
        if turns < 0 or turns > 3:
            return False
        out[3] = (turns + 4 * mirror) * 256 + min(row - 1, 15) * 16 + min(col, 15)
        return True
    if two and b - a == 1 and c == LETTER_A_UP:
        out[0], out[1], out[2], out[3] = seat, R.ADVANCE, 0, 0
        return True
    if not two and c == LETTER_S:
        spaces = digits(buf, a + 1, b, 2)
        out[0], out[1], out[2], out[3] = seat, R.SKIP, spaces, 0
        return spaces >= 0
    if c == LETTER_L and b - a == 2 and buf[a + 1] == DASH:
        out[0], out[1], out[2], out[3] = seat, R.LEATHER_MOVE, -1, 0
        return True
    if c == LETTER_L and b - a >= 4 and buf[a + 1] == AT:
        cell = _square(buf, a + 2, b)
        out[0], out[1], out[2], out[3] = seat, R.LEATHER_MOVE, cell, 0
        return cell >= 0
    return False


@njit(cache=True)
def _put_move(word, two, seat, kind, a, b) -> np.int64:
    """The walk's ``move_text``, with the mover (two players) before it."""
    n = 0
    if two:
        n = put_byte(word, put_byte(word, 0, 49 + seat), COLON)
    if kind == R.BUY:
        n = put_int(word, put_byte(word, n, LETTER_B), a)
        if b != R.NO_PLACE:
            k = R.placement_of(a, b)
            n = put_byte(word, n, AT)
            n = put_byte(word, n, LETTER_A + PL_COL[k])
            n = put_int(word, n, PL_ROW[k] + 1)
            n = put_byte(word, n, LETTER_R)
            n = put_int(word, n, PL_CODE[k] % 4)
            if PL_CODE[k] >= 4:
                n = put_byte(word, n, LETTER_M)
    elif kind == R.SKIP:
        n = put_int(word, put_byte(word, n, LETTER_S), a)
    elif kind == R.ADVANCE:
        n = put_byte(word, n, LETTER_A_UP)
    else:
        n = put_byte(word, n, LETTER_L)
        if a < 0:
            n = put_byte(word, n, DASH)
        else:
            n = put_byte(word, n, AT)
            n = put_byte(word, n, LETTER_A + a % P.COLS)
            n = put_int(word, n, a // P.COLS + 1)
    return n


@njit(cache=True)
def read_moves(buf: np.ndarray, two: bool, s: np.ndarray) -> tuple:
    """A record's moves read and played from state ``s`` (changed: the position at the end):
    ``(OK, wrapped moves, the last line's width, moves, result start, result end)``
    (``moves``: a row a move, columns SEAT .. TEXT_END, TEXT where the text writes it; the
    result's span in ``buf``, -1 without one), or NOT_READ first where the walk is to read it."""
    none = (NOT_READ, np.zeros(0, np.uint8), 0, np.zeros((0, 7), np.int64), -1, -1)
    starts, ends, n_words = words_of(buf)
    if n_words < 0:
        return none
    text = np.empty(buf.shape[0] * 3 + 64, np.uint8)
    moves = np.empty((n_words + 1, 7), np.int64)
    word = np.empty(64, np.uint8)
    move = np.empty(4, np.int64)
    n_text, width, n_moves = 0, 0, 0
    result_a, result_b = -1, -1
    for w in range(n_words):
        a, b = starts[w], ends[w]
        if result_a >= 0:
            return none  # nothing follows the result
        number = move_number(buf, a, b)
        if number != NOT_A_NUMBER:  # a move number, ignored: "12." or "12..." alone
            if number < 0:
                return none
            continue
        if b - a == 1 and buf[a] == STAR or b - a == 3 and buf[a + 1] == DASH and (
                buf[a] == 49 and buf[a + 2] == 48 or buf[a] == 48 and buf[a + 2] == 49):  # *, 1-0, 0-1
            if not two and b - a == 3:
                return none  # a single-player record has no result but its [Score]
            result_a, result_b = a, b
            continue
        if not _move(buf, a, b, two, move):
            return none
        seat, kind = move[0], move[1]
        if two and seat != s[R.TO_MOVE] and not R.is_over(s):
            return none
        special_before = s[R.SPECIAL]
        if R.apply(s, kind, move[2], move[3]) != OK:
            return none
        size = _put_move(word, two, seat, kind, move[2], move[3])
        if n_text + 2 * size + 16 > text.shape[0]:
            return none
        n_text, width = put_wrapped(text, n_text, width, word, size)
        m = moves[n_moves]
        m[SEAT], m[KIND], m[A], m[B], m[TEXT], m[TEXT_END] = seat, kind, move[2], move[3], n_text - size, n_text
        m[SPECIAL] = special_before < 0 <= s[R.SPECIAL]
        if m[SPECIAL]:  # the note after the move: {7x7}
            size = 0
            for c in (123, 55, 120, 55, 125):
                size = put_byte(word, size, c)
            n_text, width = put_wrapped(text, n_text, width, word, size)
        n_moves += 1
    return OK, text[:n_text], width, moves[:n_moves], result_a, result_b
