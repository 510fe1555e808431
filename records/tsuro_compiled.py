"""Tsuro's turns read in one jitted call (``TsuroVisitor.read_compiled``): the grammar of
shared/specs/tsuro.md section 4 over a record's movetext bytes, every turn replayed through
the engine's ``turn`` and every move and event written checked against it, and the canonical
turn lines written back as bytes.

It reads what the walk (``TsuroVisitor``) reads, and only says yes: at any fault, or any shape
it does not read (a result token, a keyword with a comma on it, a number of three digits), it
declines and the walk reads the record, so that every rejection keeps its one wording. Its
checks are the walk's, in the walk's terms: ``tests/tsuro/test_compiled_reader.py`` holds them
to the walk on every record the tests make and on the fuzzers' corrupted records.
"""
from __future__ import annotations

import numpy as np
from scorebook.engines.jit import njit

from scorebook.engines.tsuro import rules as R

from .compiled import NOT_READ, cut_words, digits, put_byte, put_int, put_word, word_index

#: the event keywords, in the order of the walk's ``KEYWORDS``, and the engine's kind of each
KEYWORDS = ("draw", "dragon", "return", "deck", "refill", "pass")
KIND_OF = np.array([R.DRAW, R.DRAGON_TAKEN, R.RETURN, R.SHUFFLE, R.REFILL_DRAW, R.PASS], np.int64)
KEYWORD_BYTES = np.frombuffer("".join(KEYWORDS).encode(), np.uint8)
KEYWORD_OFFSETS = np.cumsum([0] + [len(k) for k in KEYWORDS]).astype(np.int64)
OK = 0
TEXT_PER_TURN = 4096  # bytes a turn's canonical line can take, at most (8 names of 40 characters)
BAR, DOT, COMMA, OPEN, CLOSE, STAR, AT, ARROW = (ord(c) for c in "|.,[]*@>")
# a turn's columns in the ``turns`` array the call returns
SEAT, TILE, ROTATION, SQUARE, FIRST_EVENT, END_EVENT, PLACEMENT, PLACEMENT_END = range(8)


@njit(cache=True)
def _number_like(buf, a, b) -> bool:
    """Does the word start as a move number does (digits, then a dot: the walk's ``MOVE_NUMBER_RE``)?"""
    i = a
    while i < b and 48 <= buf[i] <= 57:
        i += 1
    return a < i < b and buf[i] == DOT


@njit(cache=True)
def _stripped(buf, a, b) -> np.int64:
    """The end of the word without its trailing commas (the walk's ``rstrip(",")``)."""
    while b > a and buf[b - 1] == COMMA:
        b -= 1
    return b


@njit(cache=True)
def _point(buf, a) -> np.int64:
    """``c4.6`` at ``buf[a:a+4]``: square * 8 + port, or NOT_READ."""
    col, row, port = buf[a] - 97, buf[a + 1] - 49, buf[a + 3] - 48
    if col < 0 or col >= R.COLS or row < 0 or row >= R.ROWS or buf[a + 2] != DOT or port < 0 or port > 7:
        return NOT_READ
    return (row * R.COLS + col) * 8 + port


@njit(cache=True)
def _put_point(out, n, point) -> np.int64:
    square = point // 8
    n = put_byte(out, n, 97 + square % R.COLS)
    n = put_int(out, n, square // R.COLS + 1)
    n = put_byte(out, n, DOT)
    return put_int(out, n, point % 8)


@njit(cache=True)
def _tile(buf, a, b) -> np.int64:
    t = digits(buf, a, b, 2)
    return t if t < R.N_TILES else NOT_READ


@njit(cache=True)
def _group(kind, buf, sub_a, sub_b, sub_k, lo, hi, names, offsets, said, n_said, order) -> tuple:
    """One event's words (``sub_*[lo:hi]``; ``sub_k`` 1 for ``[``, 2 for ``]``, else 0) as
    entries ``(kind, seat, value)`` added to ``said``, or a deck order into ``order``:
    (entries now, the deck's length or -1), NOT_READ as the count where they do not read."""
    n = hi - lo
    deck = -1
    if kind == 0:  # draw P 22
        if n != 2 or sub_k[lo] or sub_k[lo + 1]:
            return NOT_READ, deck
        seat, t = word_index(buf, sub_a[lo], sub_b[lo], names, offsets), _tile(buf, sub_a[lo + 1], sub_b[lo + 1])
        if seat < 0 or t < 0:
            return NOT_READ, deck
        said[n_said, 0], said[n_said, 1], said[n_said, 2] = R.DRAW, seat, t
        return n_said + 1, deck
    if kind == 1 or kind == 5:  # dragon P, pass P
        if n != 1 or sub_k[lo]:
            return NOT_READ, deck
        seat = word_index(buf, sub_a[lo], sub_b[lo], names, offsets)
        if seat < 0:
            return NOT_READ, deck
        said[n_said, 0], said[n_said, 1], said[n_said, 2] = R.DRAGON_TAKEN if kind == 1 else R.PASS, seat, 0
        return n_said + 1, deck
    if kind == 2:  # return P [5 9]
        if n < 3 or sub_k[lo] or sub_k[lo + 1] != 1 or sub_k[hi - 1] != 2:
            return NOT_READ, deck
        seat = word_index(buf, sub_a[lo], sub_b[lo], names, offsets)
        if seat < 0:
            return NOT_READ, deck
        for i in range(lo + 2, hi - 1):
            t = _tile(buf, sub_a[i], sub_b[i]) if sub_k[i] == 0 else NOT_READ
            if t < 0:
                return NOT_READ, deck
            said[n_said, 0], said[n_said, 1], said[n_said, 2] = R.RETURN, seat, t
            n_said += 1
        return n_said, deck
    if kind == 3:  # deck 9 22 5 ...
        if n < 1 or n > R.N_TILES:
            return NOT_READ, deck
        for i in range(lo, hi):
            t = _tile(buf, sub_a[i], sub_b[i]) if sub_k[i] == 0 else NOT_READ
            if t < 0:
                return NOT_READ, deck
            order[i - lo] = t
        return n_said, n
    # refill P2 9, P1 5
    if n == 0 or n % 2:
        return NOT_READ, deck
    for i in range(lo, hi, 2):
        seat = word_index(buf, sub_a[i], sub_b[i], names, offsets) if sub_k[i] == 0 else NOT_READ
        t = _tile(buf, sub_a[i + 1], sub_b[i + 1]) if sub_k[i + 1] == 0 else NOT_READ
        if seat < 0 or t < 0:
            return NOT_READ, deck
        said[n_said, 0], said[n_said, 1], said[n_said, 2] = R.REFILL_DRAW, seat, t
        n_said += 1
    return n_said, deck


@njit(cache=True)
def _events(buf, starts, ends, lo, hi, names, offsets, said, order, sub_a, sub_b, sub_k) -> tuple:
    """The events section's words ``[lo, hi)``: (entries written into ``said``, the deck
    order's length or -1), NOT_READ as the count where they do not read."""
    kind, first, n_sub, n_said, deck = -1, 0, 0, 0, -1
    for w in range(lo, hi + 1):
        if w < hi:
            a = starts[w]
            b = _stripped(buf, a, ends[w])
            if b == a:
                return NOT_READ, deck
            keyword = word_index(buf, a, b, KEYWORD_BYTES, KEYWORD_OFFSETS)
        if w == hi or keyword >= 0:  # the group before ends
            if kind >= 0:
                n_said, given = _group(kind, buf, sub_a, sub_b, sub_k, first, n_sub, names, offsets, said, n_said, order)
                if n_said < 0 or (given >= 0 and deck >= 0):
                    return NOT_READ, deck
                deck = max(deck, given)
            if w == hi:
                break
            kind, first = keyword, n_sub
            continue
        if kind < 0:
            return NOT_READ, deck
        i = a  # the word's pieces: "[", "]", and what lies between them
        while i < b:
            if buf[i] == OPEN or buf[i] == CLOSE:
                sub_a[n_sub], sub_b[n_sub], sub_k[n_sub] = i, i + 1, 1 if buf[i] == OPEN else 2
                n_sub += 1
                i += 1
                continue
            j = i
            while j < b and buf[j] != OPEN and buf[j] != CLOSE:
                j += 1
            sub_a[n_sub], sub_b[n_sub], sub_k[n_sub] = i, j, 0
            n_sub += 1
            i = j
    return n_said, deck


@njit(cache=True)
def _moves_agree(buf, starts, ends, lo, hi, names, offsets, events, n_events) -> bool:
    """Are the moves written ``[lo, hi)`` (pairs of a player and ``a1.0>b1.6``, ``>x``, ``>*``)
    the replay's, as a set?"""
    if (hi - lo) % 2:
        return False
    replayed = 0
    for r in range(n_events):
        replayed += events[r, 0] == R.MOVE
    if replayed != (hi - lo) // 2:
        return False
    used = np.zeros(n_events, np.bool_)
    for w in range(lo, hi, 2):
        seat = word_index(buf, starts[w], ends[w], names, offsets)
        a, b = starts[w + 1], ends[w + 1]
        if seat < 0 or (b - a != 6 and b - a != 9) or buf[a + 4] != ARROW:
            return False
        start = _point(buf, a)
        if b - a == 9:
            end = _point(buf, a + 5)
        else:
            end = 901 if buf[a + 5] == 120 else 902 if buf[a + 5] == STAR else NOT_READ  # x, *
        if start < 0 or end < 0:
            return False
        value, found = start * 1000 + end, False
        for r in range(n_events):
            if not used[r] and events[r, 0] == R.MOVE and events[r, 1] == seat and events[r, 2] == value:
                used[r], found = True, True
                break
        if not found:
            return False
    return True


@njit(cache=True)
def _events_agree(said, n_said, events, n_events, every: bool) -> bool:
    """The walk's ``_events_agree``: ``every`` (the full form), each kind's entries as the replay
    gives them (returns as a set); else each entry written is one of the replay's."""
    used = np.zeros(n_events, np.bool_)
    if every:
        for k in range(KIND_OF.shape[0]):
            kind = KIND_OF[k]
            if kind == R.SHUFFLE:
                continue
            mine = 0
            for r in range(n_events):
                mine += events[r, 0] == kind
            written = 0
            for i in range(n_said):
                written += said[i, 0] == kind
            if mine != written:
                return False
    for i in range(n_said):
        kind, found = said[i, 0], False
        for r in range(n_events):
            if used[r] or events[r, 0] != kind:
                continue
            if every and kind != R.RETURN:  # in the order they happened: the next of its kind
                found, used[r] = events[r, 1] == said[i, 1] and events[r, 2] == said[i, 2], True
                break
            if events[r, 1] == said[i, 1] and events[r, 2] == said[i, 2]:
                used[r], found = True, True
                break
        if not found:
            return False
    return True


@njit(cache=True)
def _put_events(out, n, events, n_events, placer, names, offsets, players) -> np.int64:
    """The walk's ``events_text``: by kind (draws, dragons, returns the placer's first then by
    seat, the new deck, the refill, passes), ``", "`` between them; nothing where none."""
    first = True
    for k in (R.DRAW, R.DRAGON_TAKEN):
        for r in range(n_events):
            if events[r, 0] == k:
                n = _separate(out, n, first)
                first = False
                n = _put_text(out, n, "draw " if k == R.DRAW else "dragon ")
                n = put_word(out, n, names, offsets, events[r, 1])
                if k == R.DRAW:
                    n = put_byte(out, n, SPACE_BYTE)
                    n = put_int(out, n, events[r, 2])
    for i in range(players):
        seat = (placer + i) % players if i == 0 else (i - 1 if i - 1 < placer else i)
        some = False
        for r in range(n_events):
            if events[r, 0] == R.RETURN and events[r, 1] == seat:
                if not some:
                    n = _separate(out, n, first)
                    first = False
                    n = _put_text(out, n, "return ")
                    n = put_word(out, n, names, offsets, seat)
                    n = _put_text(out, n, " [")
                else:
                    n = put_byte(out, n, SPACE_BYTE)
                some = True
                n = put_int(out, n, events[r, 2])
        if some:
            n = put_byte(out, n, CLOSE)
    some = False
    for r in range(n_events):
        if events[r, 0] == R.SHUFFLE:
            if not some:
                n = _separate(out, n, first)
                first = False
                n = _put_text(out, n, "deck")
            some = True
            n = put_byte(out, n, SPACE_BYTE)
            n = put_int(out, n, events[r, 2])
    some = False
    for r in range(n_events):
        if events[r, 0] == R.REFILL_DRAW:
            n = _separate(out, n, first)
            if not some:
                n = _put_text(out, n, "refill ")
            first, some = False, True
            n = put_word(out, n, names, offsets, events[r, 1])
            n = put_byte(out, n, SPACE_BYTE)
            n = put_int(out, n, events[r, 2])
    for r in range(n_events):
        if events[r, 0] == R.PASS:
            n = _separate(out, n, first)
            first = False
            n = _put_text(out, n, "pass ")
            n = put_word(out, n, names, offsets, events[r, 1])
    return n


SPACE_BYTE = 32


@njit(cache=True)
def _separate(out, n, first) -> np.int64:
    if first:
        return n
    n = put_byte(out, n, COMMA)
    return put_byte(out, n, SPACE_BYTE)


@njit(cache=True)
def _put_text(out, n, text) -> np.int64:
    for ch in text:
        out[n] = ord(ch)
        n += 1
    return n


@njit(cache=True)
def read_turns(buf: np.ndarray, names: np.ndarray, offsets: np.ndarray, s: np.ndarray) -> tuple:
    """A record's turns read and replayed from state ``s`` (changed: the position at the end):
    ``(OK, canonical turn lines, turns, events)`` (``turns``: a row a turn, its columns SEAT ..
    PLACEMENT_END, the last two where the lines write its placement; ``events``: the engine's
    rows of every turn, in order), or NOT_READ first where
    the walk is to read the record."""
    players = offsets.shape[0] - 1
    none = (NOT_READ, np.zeros(0, np.uint8), np.zeros((0, 8), np.int64), np.zeros((0, 3), np.int64))
    starts = np.empty(buf.shape[0] // 2 + 1, np.int64)
    ends = np.empty(buf.shape[0] // 2 + 1, np.int64)
    n_words = cut_words(buf, starts, ends)
    if n_words < 0:
        return none
    text = np.empty(2 * buf.shape[0] + TEXT_PER_TURN, np.uint8)  # grown where a turn may not fit
    turns = np.empty((R.N_TILES, 8), np.int64)
    kept = np.empty((4 * R.EVENTS, 3), np.int64)  # grown likewise
    events = np.empty((R.EVENTS, 3), np.int64)
    said = np.empty((buf.shape[0] + 1, 3), np.int64)
    order = np.empty(R.N_TILES, np.int64)
    missing = np.full(1, -2, np.int64)  # no deck order written: tiles may not come back
    sub_a = np.empty(buf.shape[0] + 1, np.int64)
    sub_b = np.empty(buf.shape[0] + 1, np.int64)
    sub_k = np.empty(buf.shape[0] + 1, np.int64)
    n_text, n_turns, n_kept, w = 0, 0, 0, 0
    while w < n_words:
        a, b = starts[w], ends[w]
        if s[R.OVER] == 1 or n_turns == R.N_TILES or b - a < 2 or buf[b - 1] != DOT:
            return none
        if digits(buf, a, b - 1, 9) != n_turns + 1:
            return none
        first = w + 1
        e, bars, bar1, bar2 = first, 0, -1, -1
        while e < n_words and not _number_like(buf, starts[e], ends[e]):
            if ends[e] - starts[e] == 1 and (buf[starts[e]] == BAR or buf[starts[e]] == STAR):
                if buf[starts[e]] == STAR:
                    return none  # a result token: the walk reads it
                bars += 1
                if bars == 1:
                    bar1 = e
                elif bars == 2:
                    bar2 = e
            e += 1
        w = e
        # the sections: the placement, the moves (None in the short form), the events
        head_end, mv_lo, mv_hi, ev_lo, ev_hi = e, -1, -1, e, e
        if bars == 1:
            head_end = bar1
            if bar1 + 1 < e and word_index(buf, starts[bar1 + 1], _stripped(buf, starts[bar1 + 1], ends[bar1 + 1]),
                                           KEYWORD_BYTES, KEYWORD_OFFSETS) >= 0:
                ev_lo = bar1 + 1
            else:
                mv_lo, mv_hi = bar1 + 1, e
        elif bars == 2:
            head_end, mv_lo, mv_hi, ev_lo = bar1, bar1 + 1, bar2, bar2 + 1
            if ev_lo == e:
                return none
        elif bars > 2:
            return none
        if head_end - first != 2 or (mv_lo >= 0 and mv_lo == mv_hi):
            return none
        # the placement: who, then tile r rotation [@square]
        seat = word_index(buf, starts[first], ends[first], names, offsets)
        a, b = starts[first + 1], ends[first + 1]
        r = a
        while r < b and buf[r] != 114:  # r
            r += 1
        tile = _tile(buf, a, r)
        if seat < 0 or tile < 0 or r + 1 >= b or not 48 <= buf[r + 1] <= 51:
            return none
        rotation = buf[r + 1] - 48
        square = s[R.POS + seat] // 8
        if r + 2 < b:
            if b - r != 5 or buf[r + 2] != AT:
                return none
            col, row = buf[r + 3] - 97, buf[r + 4] - 49
            if col < 0 or col >= R.COLS or row < 0 or row >= R.ROWS or row * R.COLS + col != square:
                return none
        if seat != s[R.TO_MOVE] or not R.live(s, seat):
            return none
        n_said, deck = _events(buf, starts, ends, ev_lo, ev_hi, names, offsets, said, order, sub_a, sub_b, sub_k)
        if n_said < 0:
            return none
        if R.turn(s, tile, rotation, order[:deck] if deck > 0 else missing, events) != OK:
            return none
        n_events = s[R.N_EVENTS]
        if mv_lo >= 0 and not _moves_agree(buf, starts, ends, mv_lo, mv_hi, names, offsets, events, n_events):
            return none
        if s[R.OVER] == 1 and ev_hi > ev_lo:
            return none  # the turn that ends the game has no events
        if not _events_agree(said, n_said, events, n_events, mv_lo >= 0):
            return none
        # the canonical line: "12. P1 13r0@a1 | P1 a1.0>b1.6 | draw P1 33"
        if n_text + TEXT_PER_TURN > text.shape[0]:
            grown = np.empty(2 * text.shape[0], np.uint8)
            grown[:n_text] = text[:n_text]
            text = grown
        if n_kept + n_events > kept.shape[0]:
            more = np.empty((2 * kept.shape[0] + n_events, 3), np.int64)
            more[:n_kept] = kept[:n_kept]
            kept = more
        n_text = put_int(text, n_text, n_turns + 1)
        n_text = _put_text(text, n_text, ". ")
        n_text = put_word(text, n_text, names, offsets, seat)
        n_text = put_byte(text, n_text, SPACE_BYTE)
        turns[n_turns, PLACEMENT] = n_text
        n_text = put_int(text, n_text, tile)
        n_text = put_byte(text, n_text, 114)
        n_text = put_int(text, n_text, rotation)
        n_text = put_byte(text, n_text, AT)
        n_text = put_byte(text, n_text, 97 + square % R.COLS)
        n_text = put_int(text, n_text, square // R.COLS + 1)
        turns[n_turns, PLACEMENT_END] = n_text
        n_text = _put_text(text, n_text, " |")
        for r in range(n_events):
            if events[r, 0] == R.MOVE:
                n_text = put_byte(text, n_text, SPACE_BYTE)
                n_text = put_word(text, n_text, names, offsets, events[r, 1])
                n_text = put_byte(text, n_text, SPACE_BYTE)
                n_text = _put_point(text, n_text, events[r, 2] // 1000)
                n_text = put_byte(text, n_text, ARROW)
                end = events[r, 2] % 1000
                if end == 901:
                    n_text = put_byte(text, n_text, 120)
                elif end == 902:
                    n_text = put_byte(text, n_text, STAR)
                else:
                    n_text = _put_point(text, n_text, end)
        mark = n_text
        n_text = _put_text(text, n_text, " | ")
        after = _put_events(text, n_text, events, n_events, seat, names, offsets, players)
        n_text = after if after > n_text else mark
        n_text = put_byte(text, n_text, 10)
        turns[n_turns, SEAT], turns[n_turns, TILE], turns[n_turns, ROTATION] = seat, tile, rotation
        turns[n_turns, SQUARE], turns[n_turns, FIRST_EVENT] = square, n_kept
        kept[n_kept:n_kept + n_events] = events[:n_events]
        n_kept += n_events
        turns[n_turns, END_EVENT] = n_kept
        n_turns += 1
    if n_turns == 0 or s[R.OVER] != 1:
        return none
    return OK, text[:n_text], turns[:n_turns], kept[:n_kept]
