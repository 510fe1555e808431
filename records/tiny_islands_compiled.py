"""Tiny Islands' turns read in one jitted call (``TinyIslandsVisitor.read_compiled``): the
movetext's bytes (a drawing's parentheses as words of their own, ``PgnGame.movetext_lines(
groups=True)``) cut into move numbers, offers (``hi+w6``), placements (``hi3``), the drawings'
cells (``( i1 h1 h2 )``) and the result; the record replayed by the engine's jitted ``replay``,
the deck checked as ``resolve_deck`` checks it, and the canonical movetext written back, a
line a turn and a line a drawing, as ``tiny_islands.render`` writes it.

Like every compiled reader (``records/compiled.py``) it only says yes: at any fault, or a shape
it does not read (a comment, a move stuck to its number), it declines and the walk reads the
record. ``tests/tiny_islands/test_compiled_reader.py`` holds it to the walk.
"""
from __future__ import annotations

import numpy as np
from scorebook.engines.jit import njit

from scorebook.engines.tiny_islands import engine as E
from scorebook.engines.tiny_islands.deck import _CARD_COUNT, _one_deck_check
from scorebook.engines.tiny_islands.metadata import (CELLS, COLUMN_NAMES, DRAWING_AFTER_TURN, ROW_NAMES, SIZE,
                                                     TILE_LETTERS, TURNS, ZONE_LETTERS)

from .compiled import NOT_A_NUMBER, NOT_READ, digits, move_number, put_byte, put_int, words_of

OK = 0
UNSTATED, TWO_DECK, ONE_DECK = -1, 0, 1  # the Deck tag (metadata.DECK_MODELS' order)
PLUS, OPEN, CLOSE, STAR, MINUS, SPACE, NEWLINE, DOT = (ord(c) for c in "+()*- \n.")
# a turn's or a drawing's columns in the ``actions`` array the call returns
KIND, TEXT, TEXT_END = range(3)
TURN, DRAWING = 0, 1


def _table(letters: str) -> np.ndarray:
    """Byte -> the letter's index in ``letters`` (-1: none)."""
    table = np.full(128, -1, np.int64)
    for k, ch in enumerate(letters):
        if ch != ".":
            table[ord(ch)] = k
    return table


TILE_OF, ZONE_OF, COLUMN_OF, ROW_OF = (_table(s) for s in (TILE_LETTERS, ZONE_LETTERS, COLUMN_NAMES, ROW_NAMES))
TILE_BYTE, ZONE_BYTE, COLUMN_BYTE, ROW_BYTE = (np.frombuffer(s.encode(), np.uint8).astype(np.int64)
                                                for s in (TILE_LETTERS, ZONE_LETTERS, COLUMN_NAMES, ROW_NAMES))
DRAWINGS = np.array(DRAWING_AFTER_TURN, np.int64)


@njit(cache=True)
def _letter(table, c) -> np.int64:
    return table[c] if 0 <= c < 128 else -1


@njit(cache=True)
def _cell(buf, a, b) -> np.int64:
    """``e5`` at ``buf[a:b]``: its cell, or NOT_READ."""
    if b - a != 2:
        return NOT_READ
    col, row = _letter(COLUMN_OF, buf[a]), _letter(ROW_OF, buf[a + 1])
    return NOT_READ if col < 0 or row < 0 else row * SIZE + col


@njit(cache=True)
def _due(turns: np.int64) -> np.int64:
    """The drawings due after ``turns`` turns."""
    n = 0
    for d in DRAWINGS:
        if d <= turns:
            n += 1
    return n


@njit(cache=True)
def _total(buf, a, b) -> tuple:
    """Is ``buf[a:b]`` a result as the walk's ``result_pattern`` reads one (``*`` or an
    integer of 1 to 9 digits), and a finished game's (a total)?"""
    if b - a == 1 and buf[a] == STAR:
        return True, False
    if buf[a] == MINUS:
        a += 1
    return digits(buf, a, b, 9) >= 0, True


@njit(cache=True)
def _put_pair(out, n, tile, zone) -> np.int64:
    n = put_byte(out, n, TILE_BYTE[tile])
    return put_byte(out, n, ZONE_BYTE[zone])


@njit(cache=True)
def _put_cell(out, n, cell) -> np.int64:
    n = put_byte(out, n, COLUMN_BYTE[cell % SIZE])
    return put_byte(out, n, ROW_BYTE[cell // SIZE])


@njit(cache=True)
def read_turns(buf: np.ndarray, wave_rule: np.int64, deck: np.int64) -> tuple:
    """A record's movetext read, replayed and written. ``deck``: the Deck tag (UNSTATED,
    TWO_DECK, ONE_DECK). Returns (status, text, offers, placements, traces, lens, actions,
    breakdown, deck, result's start, result's end): status OK or NOT_READ; ``offers`` and
    ``placements`` a row a turn played, ``traces[d, :lens[d]]`` drawing d's cells as written,
    ``actions`` a row a turn or drawing (KIND, TEXT, TEXT_END: where its text lies in
    ``text``), ``deck`` the deck the offers are of."""
    offers = np.zeros((TURNS, 4), np.int64)
    placements = np.zeros((TURNS, 2), np.int64)
    traces = np.zeros((3, CELLS), np.int64)
    lens = np.zeros(3, np.int64)
    actions = np.zeros((TURNS + 3, 3), np.int64)
    breakdown = np.zeros(E.BREAKDOWN_LEN, np.int64)
    empty = np.zeros(0, np.uint8)
    no = (NOT_READ, empty, offers, placements, traces, lens, actions, breakdown, deck, -1, -1)
    starts, ends, count = words_of(buf)
    if count < 0:
        return no
    turns, drawings, pending, result_a, result_b = 0, 0, False, -1, -1
    finished = False
    k = 0
    while k < count:
        a, b = starts[k], ends[k]
        k += 1
        if result_a >= 0:
            return no  # nothing may follow the result
        if b - a == 1 and buf[a] == OPEN:  # a drawing: its cells to the )
            if pending or drawings >= _due(turns):
                return no
            size = 0
            while k < count and not (ends[k] - starts[k] == 1 and buf[starts[k]] == CLOSE):
                cell = _cell(buf, starts[k], ends[k])
                if cell < 0 or size == CELLS:
                    return no
                traces[drawings, size] = cell
                size += 1
                k += 1
            if k == count or size == 0:
                return no
            k += 1  # the )
            lens[drawings] = size
            actions[turns + drawings, KIND] = DRAWING
            drawings += 1
            continue
        number = move_number(buf, a, b)
        if number != NOT_A_NUMBER:
            if number < 0 or pending or number != turns + 1:
                return no
            continue
        if not pending:
            is_result, ends_finished = _total(buf, a, b)
            if is_result:
                result_a, result_b, finished = a, b, ends_finished
                continue
        if b - a == 5 and buf[a + 2] == PLUS and not pending:  # an offer
            tile1, zone1 = _letter(TILE_OF, buf[a]), _letter(ZONE_OF, buf[a + 1])
            tile2, zone2 = _letter(TILE_OF, buf[a + 3]), _letter(ZONE_OF, buf[a + 4])
            if min(tile1, zone1, tile2, zone2) < 0 or drawings < _due(turns) or turns >= TURNS:
                return no
            offers[turns, 0], offers[turns, 1], offers[turns, 2], offers[turns, 3] = tile1, zone1, tile2, zone2
            pending = True
            continue
        if b - a == 3 and pending:  # a placement
            tile, cell = _letter(TILE_OF, buf[a]), _cell(buf, a + 1, b)
            if tile < 0 or cell < 0:
                return no
            placements[turns, 0], placements[turns, 1] = tile, cell
            actions[turns + drawings, KIND] = TURN
            turns += 1
            pending = False
            continue
        return no
    if result_a < 0 or pending or drawings != _due(turns) or (finished and turns != TURNS):
        return no
    if deck != TWO_DECK:
        ok, _ = _one_deck_check(offers[:turns], _CARD_COUNT, TURNS)
        if deck == ONE_DECK and not ok:
            return no
        if deck == UNSTATED:
            deck = ONE_DECK if ok and turns == TURNS else TWO_DECK
    as_region = lens > 0
    code, _, _, _, _, _, _, scored = E.replay(offers[:turns], placements[:turns], traces, lens, as_region, turns,
                                              wave_rule)
    if code != E.OK:
        return no
    text = np.empty(16 * turns + 3 * (lens[0] + lens[1] + lens[2]) + 8, np.uint8)
    n, t, d = 0, 0, 0
    for i in range(turns + drawings):
        if actions[i, KIND] == TURN:
            n = put_int(text, n, t + 1)
            n = put_byte(text, n, DOT)
            n = put_byte(text, n, SPACE)
            actions[i, TEXT] = n
            n = _put_pair(text, n, offers[t, 0], offers[t, 1])
            n = put_byte(text, n, PLUS)
            n = _put_pair(text, n, offers[t, 2], offers[t, 3])
            n = put_byte(text, n, SPACE)
            n = put_byte(text, n, TILE_BYTE[placements[t, 0]])
            n = _put_cell(text, n, placements[t, 1])
            t += 1
        else:
            actions[i, TEXT] = n
            n = put_byte(text, n, OPEN)
            for j in range(lens[d]):
                if j:
                    n = put_byte(text, n, SPACE)
                n = _put_cell(text, n, traces[d, j])
            n = put_byte(text, n, CLOSE)
            d += 1
        actions[i, TEXT_END] = n
        n = put_byte(text, n, NEWLINE)
    return (OK, text[:n], offers[:turns], placements[:turns], traces, lens, actions[:turns + drawings], scored,
            deck, result_a, result_b)
