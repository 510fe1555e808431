"""The Game of Islands' grids read in one jitted call each (``GameOfIslandsVisitor.read_compiled``):
a grid's movetext bytes cut into its numbers, turns and result, every turn played by the
engine's ``play_turn`` (the rules of ``Grid``, on its arrays), and the canonical movetext
written back, wrapped as ``pgn.wrap_words`` wraps it.

Like every compiled reader (``records/compiled.py``) it only says yes: at any fault, or a
shape it does not read (a move stuck to its number, a comma before a turn), it declines and
the walk reads the record, so every rejection keeps its wording.
``tests/game_of_islands/test_compiled_reader.py`` holds it to the walk.
"""
from __future__ import annotations

import numpy as np
from scorebook.engines.jit import njit

from scorebook.engines.game_of_islands import engine as E

from .compiled import NOT_A_NUMBER, NOT_READ, move_number, words_of, digits, put_byte, put_int, put_wrapped

OK = 0
DOT, COMMA, DASH, STAR = (ord(c) for c in ".,-*")
# a turn's columns in the ``turns`` array the call returns
KIND, X1, Y1, X2, Y2, FIRST_CLAIM, END_CLAIM, TEXT, TEXT_END = range(9)


@njit(cache=True)
def _letter(c) -> np.int64:
    """A file letter (either case) as x, or NOT_READ."""
    if 65 <= c <= 90:
        return c - 65
    if 97 <= c <= 122:
        return c - 97
    return NOT_READ


@njit(cache=True)
def _dot(buf, a, b, out, k) -> bool:
    """``J6`` (a file letter, a rank of 1 to 3 digits: the walk's ``DOT_RE``) at ``buf[a:b]``
    into ``out[k]`` as (x, y); False where it does not read."""
    if b - a < 2:
        return False
    x, rank = _letter(buf[a]), digits(buf, a + 1, b, 3)
    if x < 0 or rank < 0:
        return False
    out[k, 0], out[k, 1] = x, rank - 1
    return True


@njit(cache=True)
def _put_dot(out, n, x, y) -> np.int64:
    n = put_byte(out, n, 65 + x)
    return put_int(out, n, y + 1)


@njit(cache=True)
def read_grid(buf: np.ndarray, n: np.int64, used: np.ndarray, diag: np.ndarray, owner: np.ndarray,
              meta: np.ndarray) -> tuple:
    """One grid's movetext read and played on its arrays (changed: the grid at its end):
    ``(OK, wrapped turns, the last line's width, turns, claims, result start, result end)``
    (``turns``: a row a turn, columns KIND .. TEXT_END, TEXT where the text writes it;
    ``claims``: every claimed dot, ``y * n + x``; the result's span in ``buf``, -1 without
    one), or NOT_READ first where the walk is to read it."""
    none = (NOT_READ, np.zeros(0, np.uint8), 0, np.zeros((0, 9), np.int64), np.zeros(0, np.int64), -1, -1)
    starts, ends, n_words = words_of(buf)
    if n_words < 0:
        return none
    capacity = n * n * 2 + 8  # turns: each draws a line (n * n dots at most) or passes or times out
    text = np.empty(buf.shape[0] * 2 + 64 * capacity, np.uint8)
    turns = np.empty((capacity, 9), np.int64)
    claimed = np.empty(n * n + 1, np.int64)
    said = np.empty((buf.shape[0] + 1, 2), np.int64)  # the claims of the turn being read, as (x, y)
    line = np.empty((2, 2), np.int64)
    word = np.empty(256, np.uint8)
    n_text, width, n_turns, n_claimed = 0, 0, 0, 0
    pending, n_said, head_a, head_b = False, 0, 0, 0
    result_a, result_b = -1, -1
    for w in range(n_words):
        a, b = starts[w], ends[w]
        if result_a >= 0:
            return none  # nothing follows the result
        number = move_number(buf, a, b)
        if number != NOT_A_NUMBER:  # "12." or "12..." alone: the turn's number, where no claim is due
            if pending or number != meta[E.PLY] // 2 + 1:
                return none
            continue
        if not pending and (b - a == 1 and buf[a] == STAR or _is_score(buf, a, b)):
            result_a, result_b = a, b
            continue
        # a word of turns and claims, split at its commas
        p = a
        while p <= b:
            q = p
            while q < b and buf[q] != COMMA:
                q += 1
            comma = q < b
            if q == p:  # an empty piece: only after a word's last comma
                if p < b or p == a:
                    return none
                break
            if pending:
                if n_said == said.shape[0] or not _dot(buf, p, q, said, n_said):
                    return none
                n_said += 1
                if not comma:
                    pending = False
            elif comma:
                pending, n_said, head_a, head_b = True, 0, p, q
            else:
                head_a, head_b, n_said = p, q, 0
            if not pending:  # a whole turn: its head, then its claims
                kind = E.KIND_LINE
                if head_b - head_a == 4 and _letter(buf[head_a]) == 19 and _letter(buf[head_a + 1]) == 8 \
                        and _letter(buf[head_a + 2]) == 12 and _letter(buf[head_a + 3]) == 4:  # time
                    kind = E.KIND_TIME
                elif head_b - head_a == 2 and buf[head_a] == DASH and buf[head_a + 1] == DASH:
                    kind = E.KIND_PASS
                x1 = y1 = x2 = y2 = -1
                if kind == E.KIND_LINE:
                    dash = head_a
                    while dash < head_b and buf[dash] != DASH:
                        dash += 1
                    if not (_dot(buf, head_a, dash, line, 0) and _dot(buf, dash + 1, head_b, line, 1)):
                        return none
                    x1, y1, x2, y2 = line[0, 0], line[0, 1], line[1, 0], line[1, 1]
                ply = meta[E.PLY]
                if n_turns == capacity or E.play_turn(n, used, diag, owner, meta, kind, x1, y1, x2, y2, said,
                                                       n_said) != OK:
                    return none
                if ply % 2 == 0:  # First's turn: its number
                    size = put_int(word, 0, ply // 2 + 1)
                    size = put_byte(word, size, DOT)
                    n_text, width = put_wrapped(text, n_text, width, word, size)
                # the turn: the line lower file first (then lower rank), its claims
                if kind == E.KIND_TIME:
                    size = 0
                    for c in (116, 105, 109, 101):
                        size = put_byte(word, size, c)
                elif kind == E.KIND_PASS:
                    size = put_byte(word, put_byte(word, 0, DASH), DASH)
                else:
                    if (x2, y2) < (x1, y1):
                        size = _put_dot(word, 0, x2, y2)
                        size = put_byte(word, size, DASH)
                        size = _put_dot(word, size, x1, y1)
                    else:
                        size = _put_dot(word, 0, x1, y1)
                        size = put_byte(word, size, DASH)
                        size = _put_dot(word, size, x2, y2)
                for k in range(n_said):
                    if size + 8 > word.shape[0]:
                        return none
                    size = put_byte(word, size, COMMA)
                    size = put_byte(word, size, 32)
                    size = _put_dot(word, size, said[k, 0], said[k, 1])
                n_text, width = put_wrapped(text, n_text, width, word, size)
                t = turns[n_turns]
                t[KIND], t[X1], t[Y1], t[X2], t[Y2] = kind, x1, y1, x2, y2
                t[FIRST_CLAIM], t[TEXT], t[TEXT_END] = n_claimed, n_text - size, n_text
                for k in range(n_said):
                    claimed[n_claimed] = said[k, 1] * n + said[k, 0]
                    n_claimed += 1
                t[END_CLAIM] = n_claimed
                n_turns += 1
                n_said = 0
            if not comma:
                break
            p = q + 1
        if n_text + 300 > text.shape[0]:
            return none
    if pending:
        return none  # a comma must be followed by a claimed dot
    return OK, text[:n_text], width, turns[:n_turns], claimed[:n_claimed], result_a, result_b


@njit(cache=True)
def _is_score(buf, a, b) -> bool:
    """A grid's result: 1 to 4 digits, "-", 1 to 4 digits (the walk's ``result_pattern``)."""
    dash = a
    while dash < b and buf[dash] != DASH:
        dash += 1
    return dash < b and digits(buf, a, dash, 4) >= 0 and digits(buf, dash + 1, b, 4) >= 0
