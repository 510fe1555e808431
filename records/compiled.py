"""What every game's compiled reader shares: the movetext's bytes cut into words, numbers and
names read from them, and the canonical text written back as bytes, all jitted.

A compiled reader (``Visitor.read_compiled``) reads a record the common way in one jitted
call, and declines (returns None) at anything it does not read: a comment, a byte outside
printable ASCII, any fault. The shared walk (``pgn.read_record`` driving the game's visitor)
then reads the record as before, so every rejection, its position and its message come from
one place, and a compiled reader only ever has to agree with the walk on what it accepts.

>>> import numpy as np
>>> buf = np.frombuffer(b"1. A 4r0  | x>y\\n2. B", np.uint8).astype(np.int64)
>>> starts, ends = np.empty(8, np.int64), np.empty(8, np.int64)
>>> n = cut_words(buf, starts, ends)
>>> [bytes(buf[a:b].astype(np.uint8)).decode() for a, b in zip(starts[:n], ends[:n])]
['1.', 'A', '4r0', '|', 'x>y', '2.', 'B']
>>> names, offsets = words_array(["A", "Bo"])
>>> int(word_index(buf, 12, 13, names, offsets)), int(word_index(buf, 3, 4, names, offsets))
(-1, 0)
"""
from __future__ import annotations

import json
from collections.abc import Sequence

import numpy as np
from scorebook.engines.jit import njit

from .pgn import WRAP_WIDTH  # the movetext's lines, as the canonical texts wrap them

TAB, NEWLINE, RETURN, SPACE, DEL = 9, 10, 13, 32, 127
NOT_READ = -1  # a byte or a shape the compiled reader leaves to the walk
NO_COLUMN = -1  # ``moves_json``: a seat or note no column of a turn's row holds


@njit(cache=True)
def is_space(c) -> bool:
    return c == SPACE or c == NEWLINE or c == TAB or c == RETURN


@njit(cache=True)
def cut_words(buf: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.int64:
    """The words of ``buf`` (runs of bytes between spaces, tabs and line ends), their spans
    written into ``starts`` and ``ends``; their count, or NOT_READ at any other control byte or
    a byte outside ASCII (the walk reads those: Python's whitespace is wider than these four).
    ``buf``: int64 (``movetext_bytes``)."""
    n, i, size = 0, 0, buf.shape[0]
    while i < size:
        c = buf[i]
        if is_space(c):
            i += 1
            continue
        start = i
        while i < size and not is_space(buf[i]):
            if buf[i] < SPACE or buf[i] >= DEL:
                return NOT_READ
            i += 1
        if n == starts.shape[0]:
            return NOT_READ
        starts[n], ends[n] = start, i
        n += 1
    return n


@njit(cache=True)
def words_of(buf: np.ndarray) -> tuple:
    """``cut_words`` with its arrays: (starts, ends, count or NOT_READ)."""
    starts = np.empty(buf.shape[0] // 2 + 1, np.int64)
    ends = np.empty(buf.shape[0] // 2 + 1, np.int64)
    return starts, ends, cut_words(buf, starts, ends)


NOT_A_NUMBER, STUCK = -2, -3  # ``move_number``: a word that is no move number; one with a move stuck to it


@njit(cache=True)
def move_number(buf: np.ndarray, a: np.int64, b: np.int64) -> np.int64:
    """The move number ``buf[a:b]`` is ("12." or "12...", as the walk's ``MOVE_NUMBER_RE``
    reads one), NOT_A_NUMBER, or STUCK where more follows it (the walk reads that)."""
    i = a
    while i < b and 48 <= buf[i] <= 57:
        i += 1
    if not (a < i < b and buf[i] == 46):
        return NOT_A_NUMBER
    if not (i + 1 == b or (i + 3 == b and buf[i + 1] == 46 and buf[i + 2] == 46)):
        return STUCK
    n = digits(buf, a, i, 9)
    return n if n >= 0 else STUCK


@njit(cache=True)
def digits(buf: np.ndarray, a: np.int64, b: np.int64, most: np.int64) -> np.int64:
    """The decimal ``buf[a:b]`` of 1 to ``most`` digits, or NOT_READ."""
    if b <= a or b - a > most:
        return NOT_READ
    value = 0
    for i in range(a, b):
        c = buf[i] - 48
        if c < 0 or c > 9:
            return NOT_READ
        value = value * 10 + c
    return value


@njit(cache=True)
def word_index(buf: np.ndarray, a: np.int64, b: np.int64, words: np.ndarray, offsets: np.ndarray) -> np.int64:
    """Which of ``words`` (``words_array``) ``buf[a:b]`` is, or NOT_READ."""
    for k in range(offsets.shape[0] - 1):
        lo, hi = offsets[k], offsets[k + 1]
        if hi - lo != b - a:
            continue
        same = True
        for i in range(hi - lo):
            if words[lo + i] != buf[a + i]:
                same = False
                break
        if same:
            return k
    return NOT_READ


@njit(cache=True)
def put_word(out: np.ndarray, n: np.int64, words: np.ndarray, offsets: np.ndarray, k: np.int64) -> np.int64:
    """Word ``k`` of ``words`` written at ``out[n:]``; where the text goes on."""
    for i in range(offsets[k], offsets[k + 1]):
        out[n] = words[i]
        n += 1
    return n


@njit(cache=True)
def put_byte(out: np.ndarray, n: np.int64, c: np.int64) -> np.int64:
    out[n] = c
    return n + 1


@njit(cache=True)
def put_int(out: np.ndarray, n: np.int64, value: np.int64) -> np.int64:
    """A non-negative decimal written at ``out[n:]``."""
    if value == 0:
        out[n] = 48
        return n + 1
    width, rest = 0, value
    while rest > 0:
        width += 1
        rest //= 10
    for i in range(width - 1, -1, -1):
        out[n + i] = 48 + value % 10
        value //= 10
    return n + width


@njit(cache=True)
def put_wrapped(text: np.ndarray, n: np.int64, width: np.int64, word: np.ndarray, size: np.int64) -> tuple:
    """``word[:size]`` added to a wrapped text at ``text[n:]``: on the line (a space before it)
    or on a new one where the line would pass WRAP_WIDTH, as ``pgn.wrap_words`` wraps. (where
    the text goes on, the width of its last line now)"""
    if width > 0 and width + 1 + size > WRAP_WIDTH:
        n = put_byte(text, n, 10)
        width = 0
    elif width > 0:
        n = put_byte(text, n, SPACE)
        width += 1
    for i in range(size):
        text[n + i] = word[i]
    return n + size, width + size


@njit(cache=True)
def put_json_string(out: np.ndarray, n: np.int64, text: np.ndarray, a: np.int64, b: np.int64) -> np.int64:
    """``text[a:b]`` written at ``out[n:]`` as a JSON string, quoted and escaped as json.dumps
    does; where the text goes on, or NOT_READ at a byte outside printable ASCII (left to
    json.dumps, which escapes a control byte and writes DEL as it is)."""
    out[n] = 34
    n += 1
    for i in range(a, b):
        c = text[i]
        if c < SPACE or c >= DEL:
            return NOT_READ
        if c == 34 or c == 92:  # " and \\
            out[n] = 92
            n += 1
        out[n] = c
        n += 1
    out[n] = 34
    return n + 1


@njit(cache=True)
def moves_json(text: np.ndarray, rows: np.ndarray, start_at: np.int64, end_at: np.int64, seat_at: np.int64,
               seats: np.int64, note_at: np.int64, note: np.ndarray, game: np.int64) -> np.ndarray:
    """A game's moves rows, [game, ply, seat, "move", note] a move, written as the store's
    JSON writes them (``json.dumps`` with compact separators), without the list's brackets:
    move i is ``text[rows[i, start_at]:rows[i, end_at]]``, its ply i + 1, its seat
    ``rows[i, seat_at]`` (where ``seat_at`` is NO_COLUMN, i modulo ``seats``), its note the
    string ``note`` where ``rows[i, note_at]`` is not 0 (never where ``note_at`` is
    NO_COLUMN), else null. An empty array where a move or the note holds a byte outside
    printable ASCII, or a seat is negative (``CompiledTurns.moves_json``)."""
    size = 0
    for i in range(rows.shape[0]):  # at most: a number's 20 characters and its comma, each text escaped whole
        size += 3 * 21 + 2 * (rows[i, end_at] - rows[i, start_at]) + 2 * note.shape[0] + 12
    out = np.empty(size, np.uint8)
    n = 0
    for i in range(rows.shape[0]):
        seat = rows[i, seat_at] if seat_at != NO_COLUMN else i % seats
        if seat < 0 or game < 0:
            return out[:0]
        if i > 0:
            n = put_byte(out, n, 44)
        n = put_byte(out, n, 91)
        n = put_byte(out, put_int(out, n, game), 44)
        n = put_byte(out, put_int(out, n, i + 1), 44)
        n = put_byte(out, put_int(out, n, seat), 44)
        n = put_json_string(out, n, text, rows[i, start_at], rows[i, end_at])
        if n == NOT_READ:
            return out[:0]
        n = put_byte(out, n, 44)
        if note_at != NO_COLUMN and rows[i, note_at] != 0:
            n = put_json_string(out, n, note, 0, note.shape[0])
            if n == NOT_READ:
                return out[:0]
        else:
            for c in (110, 117, 108, 108):  # null
                n = put_byte(out, n, c)
        n = put_byte(out, n, 93)
    return out[:n]


def words_array(words: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """ASCII words as one byte array and the offsets of each (word k is ``[off[k], off[k+1])``)."""
    data = "".join(words).encode("ascii")
    offsets = np.zeros(len(words) + 1, np.int64)
    np.cumsum([len(w) for w in words], out=offsets[1:])
    return np.frombuffer(data, np.uint8) if data else np.zeros(0, np.uint8), offsets


def movetext_bytes(lines: list[tuple[int, str]]) -> np.ndarray | None:
    """A game's lines of words (``PgnGame.movetext_lines``) as one byte array, or None where
    a line is not ASCII (the walk reads it)."""
    text = "\n".join(line for _, line in lines)
    if not text.isascii():
        return None
    # int64, not uint8: arithmetic on a byte must not wrap where the readers run as Python
    # (NUMBA_DISABLE_JIT), as it does not when jitted
    return np.frombuffer(text.encode("ascii"), np.uint8).astype(np.int64)


class CompiledTurns(Sequence):
    """A record's turns as a compiled reader returned them: a row a turn (``rows``), kept as
    arrays and made the game's objects (``make``) only when something reads them (ingest never
    does), and ``text``, the canonical movetext the call wrote, each turn's text at columns
    ``text_at`` (its start and end). As moves rows (``MovesRows``): a turn's seat is its
    row's column ``seat_at``, or, where that is NO_COLUMN, the ``seats`` take turns from 0;
    its note is ``note`` where its row's column ``note_at`` is not 0, else none."""
    text_at: tuple[int, int] = (0, 0)
    seat_at, seats = 0, 1
    note_at, note = NO_COLUMN, ""

    def __init__(self, rows: np.ndarray, text: str, *arrays: np.ndarray):
        self.rows, self.text, self.arrays, self._made = rows, text, arrays, None

    def make(self) -> list:
        """The turns as the game's walk makes them."""
        raise NotImplementedError

    def _turns(self) -> list:
        if self._made is None:
            self._made = self.make()
        return self._made

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, index):
        return self._turns()[index]

    def __eq__(self, other) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)

    def texts(self) -> list[tuple[int, str]]:
        """(the turn's first column, the turn's canonical text) of each turn, without making them."""
        text, (start, end) = self.text, self.text_at
        return [(row[0], text[row[start]:row[end]]) for row in self.rows.tolist()]

    def move_rows(self, game: int = 1) -> list[tuple]:
        """The turns as moves rows (game, ply, seat, move, note), without making them."""
        text, (start, end), seat_at, seats = self.text, self.text_at, self.seat_at, self.seats
        note_at, note = self.note_at, self.note or None
        return [(game, ply, row[seat_at] if seat_at != NO_COLUMN else (ply - 1) % seats, text[row[start]:row[end]],
                 note if note_at != NO_COLUMN and row[note_at] else None)
                for ply, row in enumerate(self.rows.tolist(), 1)]

    def moves_json(self, game: int = 1) -> str | None:
        """``move_rows`` as the store's JSON writes them, without the list's brackets (one
        jitted call: ``moves_json``); None where a move is not printable ASCII."""
        if not (self.text.isascii() and self.note.isascii()):
            return None
        written = moves_json(np.frombuffer(self.text.encode("ascii"), np.uint8), self.rows, self.text_at[0],
                             self.text_at[1], self.seat_at, self.seats, self.note_at,
                             np.frombuffer(self.note.encode("ascii"), np.uint8), game)
        return written.tobytes().decode("ascii") if len(written) else None


class MovesRows(Sequence):
    """A record's moves rows (game, ply, seat, move, note), as ``Canonical.moves`` holds them,
    where compiled readers read the record: each of its games (a triad has three) compiled
    turns (``CompiledTurns``), or rows made the common way where the walk read it. Made
    tuples only where something reads them, and written as the store's moves column
    (``json``) by one jitted call a game: ingest never makes them, where a tuple and its JSON a
    move were a tenth of a reader's time."""

    def __init__(self, parts: list | None = None):
        self.parts: list = list(parts or [])  # (game, CompiledTurns), or a list of rows
        self._made: list | None = None

    def add(self, part) -> None:
        """One more game's moves: (game, its CompiledTurns), or its rows."""
        self.parts.append(part)
        self._made = None

    def _rows(self) -> list[tuple]:
        if self._made is None:
            made: list[tuple] = []
            for part in self.parts:
                made += part[1].move_rows(part[0]) if isinstance(part, tuple) else part
            self._made = made
        return self._made

    def __len__(self) -> int:
        return len(self._rows())

    def __getitem__(self, index):
        return self._rows()[index]

    def __eq__(self, other) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)

    def __repr__(self) -> str:
        return f"MovesRows({self._rows()!r})"

    def json(self) -> str:
        """The rows as the store's moves column holds them: the text of ``json.dumps`` with
        compact separators."""
        pieces = []
        for part in self.parts:
            if isinstance(part, tuple):
                if len(part[1].rows):
                    written = part[1].moves_json(part[0])
                    if written is None:  # a byte the jitted writer leaves to json
                        return json.dumps(self._rows(), separators=(",", ":"))
                    pieces.append(written)
            elif part:
                pieces.append(json.dumps(part, separators=(",", ":"))[1:-1])
        return "[" + ",".join(pieces) + "]"


def text_between(data: np.ndarray, start: int, end: int) -> str | None:
    """The text of ``data[start:end]`` (a span a compiled call returned), or None where the
    call found none (``start`` < 0)."""
    return data[start:end].astype(np.uint8).tobytes().decode("ascii") if start >= 0 else None


def one_game_bytes(visitor, games: list, groups: bool = False) -> np.ndarray | None:
    """A record of one game: its tags read, and its walk started, by ``visitor.begin`` (a
    tag's fault is raised as the walk raises it) and its movetext as bytes
    (``movetext_bytes``); None where the record is of several games, or holds what only the
    walk reads. ``groups``: a group's parentheses are words of their own
    (``PgnGame.movetext_lines``)."""
    lines = games[0].movetext_lines(groups) if len(games) == 1 else None
    if lines is None:
        return None
    visitor.begin(games[0])
    return movetext_bytes(lines)
