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

from collections.abc import Sequence

import numpy as np
from scorebook.engines.jit import njit

from .pgn import WRAP_WIDTH  # the movetext's lines, as the canonical texts wrap them

TAB, NEWLINE, RETURN, SPACE, DEL = 9, 10, 13, 32, 127
NOT_READ = -1  # a byte or a shape the compiled reader leaves to the walk


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
    ``text_at`` (its start and end)."""
    text_at: tuple[int, int] = (0, 0)

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
