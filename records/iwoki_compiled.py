"""Iwoki's actions read in one jitted call (``IwokiVisitor.read_compiled``): the movetext's bytes
cut into numbered actions (``st5+1@H1_H4_H5``, ``ht3A0@H1``, ``draw=st7``, ``pass``) and the
result, every action played by the engine's ``play_action`` (the rules ``action_code`` checks
by), a draw's tile compared with the pile's top, and the canonical movetext written back.

Like every compiled reader (``records/compiled.py``) it only says yes: at any fault, or a shape
it does not read (an action stuck to its number), it declines and the walk reads the record.
``tests/iwoki/test_compiled_reader.py`` holds it to the walk.
"""
from __future__ import annotations

import numpy as np
from scorebook.engines.jit import njit

from scorebook.engines.iwoki import engine as E
from scorebook.engines.iwoki.metadata import HEX_GAP_NAMES, SMALL_GAP_NAMES

from .compiled import NOT_A_NUMBER, NOT_READ, move_number, words_of, digits, put_byte, put_int, put_wrapped, word_index, words_array

OK = 0
DOT, DASH, STAR, AT, PLUS, EQUALS, UNDERSCORE = (ord(c) for c in ".-*@+=_")
SMALL_GAPS, SMALL_GAP_OFFSETS = words_array(SMALL_GAP_NAMES)
HEX_GAPS, HEX_GAP_OFFSETS = words_array(HEX_GAP_NAMES)
_DRAW, _PASS, _ST, _HT = (np.frombuffer(w.encode(), np.uint8).astype(np.int64) for w in ("draw=st", "pass", "st", "ht"))
# an action's columns in the ``actions`` array the call returns
SEAT, KIND, TEXT, TEXT_END = range(4)


@njit(cache=True)
def _starts_with(buf, a, b, word) -> bool:
    if b - a < word.shape[0]:
        return False
    for i in range(word.shape[0]):
        if buf[a + i] != word[i]:
            return False
    return True


@njit(cache=True)
def _tile(buf, a, b) -> np.int64:
    """A tile's number as written (1 to 2 digits, no leading zero), less one; or NOT_READ."""
    if b <= a or buf[a] == 48:
        return NOT_READ
    n = digits(buf, a, b, 2)
    return n - 1 if n > 0 else NOT_READ


@njit(cache=True)
def _action(buf, a, b, out) -> bool:
    """An action token (the walk's ``ACTION_RE``) into ``out`` (kind, tile, gap, orientation);
    for a draw, the tile written (the pile's top is checked against it); False where it does
    not read, or names a gap there is none of."""
    if b - a == 4 and _starts_with(buf, a, b, _PASS):
        out[0], out[1], out[2], out[3] = E.PASS, -1, -1, -1
        return True
    if _starts_with(buf, a, b, _DRAW):
        tile = _tile(buf, a + 7, b)
        out[0], out[1], out[2], out[3] = E.DRAW, tile, -1, -1
        return tile >= 0
    small = _starts_with(buf, a, b, _ST)
    if not small and not _starts_with(buf, a, b, _HT):
        return False
    at = a + 2
    while at < b and buf[at] != AT:
        at += 1
    if at - a < 5 or at + 2 > b:
        return False
    face, rotation = buf[at - 2], buf[at - 1] - 48
    tile = _tile(buf, a + 2, at - 2)
    if tile < 0:
        return False
    if small:
        if not (face == PLUS or face == DASH) or rotation < 0 or rotation > 2:
            return False
        gap = word_index(buf, at + 1, b, SMALL_GAPS, SMALL_GAP_OFFSETS)
        orient = (0 if face == PLUS else 3) + rotation
        kind = E.SMALL
    else:
        if not (face == 65 or face == 66) or rotation < 0 or rotation > 5:  # A, B
            return False
        gap = word_index(buf, at + 1, b, HEX_GAPS, HEX_GAP_OFFSETS)
        orient = (face - 65) * 6 + rotation
        kind = E.HEX
    out[0], out[1], out[2], out[3] = kind, tile, gap, orient
    return gap >= 0


@njit(cache=True)
def _is_result(buf, a, b) -> bool:
    """``*``, or the two final tallies ``164-115`` (either may be negative: ``-4--10``)."""
    if b - a == 1:
        return buf[a] == STAR
    i = a + (buf[a] == DASH)
    j = i
    while j < b and 48 <= buf[j] <= 57:
        j += 1
    if j == i or j - i > 9 or j >= b or buf[j] != DASH:
        return False
    k = j + 1 + (j + 1 < b and buf[j + 1] == DASH)
    return k < b and k + 9 >= b and digits(buf, k, b, 9) >= 0


@njit(cache=True)
def read_actions(buf: np.ndarray, s: np.ndarray) -> tuple:
    """A record's actions read and played from state ``s`` (changed: the position at the end):
    ``(OK, wrapped movetext without the result, the last line's width, actions, result start,
    result end)`` (``actions``: a row an action, columns SEAT .. TEXT_END; the result's span in
    ``buf``, -1 without one), or NOT_READ first where the walk is to read it."""
    none = (NOT_READ, np.zeros(0, np.uint8), 0, np.zeros((0, 4), np.int64), -1, -1)
    starts, ends, n_words = words_of(buf)
    if n_words < 0:
        return none
    text = np.empty(buf.shape[0] * 2 + 64, np.uint8)
    actions = np.empty((n_words + 1, 4), np.int64)
    word = np.empty(64, np.uint8)
    action = np.empty(4, np.int64)
    n_text, width, n_actions = 0, 0, 0
    result_a, result_b = -1, -1
    for w in range(n_words):
        a, b = starts[w], ends[w]
        if result_a >= 0 or b - a > 48:
            return none  # nothing follows the result; no action is that long
        number = move_number(buf, a, b)
        if number != NOT_A_NUMBER:  # a move number: "12." or "12..." alone, the next action's
            if number != n_actions + 1:
                return none
            continue
        if _is_result(buf, a, b):
            result_a, result_b = a, b
            continue
        if not _action(buf, a, b, action):
            return none
        seat, kind = s[E.TO_MOVE], action[0]
        if kind == E.DRAW:  # the tile drawn is the pile's top
            if s[E.SMALL_PILE_TOP] >= s[E.SMALL_PILE_LEN] or s[E.SMALL_PILE + s[E.SMALL_PILE_TOP]] != action[1]:
                return none
            action[1] = -1
        if E.play_action(s, kind, action[1], action[2], action[3]) != OK:
            return none
        size = put_byte(word, put_int(word, 0, n_actions + 1), DOT)  # "12." then the action as written
        n_text, width = put_wrapped(text, n_text, width, word, size)
        for k in range(b - a):
            word[k] = buf[a + k]
        n_text, width = put_wrapped(text, n_text, width, word, b - a)
        actions[n_actions, SEAT], actions[n_actions, KIND] = seat, kind
        actions[n_actions, TEXT], actions[n_actions, TEXT_END] = n_text - (b - a), n_text
        n_actions += 1
    return OK, text[:n_text], width, actions[:n_actions], result_a, result_b
