"""The PGN-style container every game shares: tag pairs, then movetext, then the result.

This module knows nothing of any game's moves. It splits a file into games, reads the tag
pairs and cuts the movetext into positioned tokens; ``read_record`` walks them and drives a
game's ``Visitor`` (python-chess's ``read_game(..., Visitor=...)`` is the model): the walker
owns what every game shares (move numbers, comments, parenthesised groups, the result token,
nothing after it), the visitor the game's own moves, tags and result. Errors a reader may
step over go through the visitor's error policy (strict or lenient).

>>> games = split_games('[Game "tiny-islands"]\\n\\n1. hi+w6 hi3 {[%visits 1:2]} *\\n')
>>> games[0].tags["Game"], [t.text for t in games[0].tokens]
('tiny-islands', ['1.', 'hi+w6', 'hi3', '[%visits 1:2]', '*'])
>>> games[0].tokens[3].kind, games[0].tokens[2].column
('comment', 10)
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from scorebook.errors import STRICT, ErrorPolicy, ParseError, RecordRejected
from .limits import MAX_COMMENT_CHARS, MAX_LINE_CHARS, MAX_TAG_CHARS, MAX_TOKEN_CHARS, too_large
from .replay import Replay

WORD, COMMENT, OPEN, CLOSE = "word", "comment", "open", "close"
_GROUP_KINDS = {"(": OPEN, ")": CLOSE}

TAG_NAME_RE = re.compile(r"[A-Za-z0-9_]{1,64}")
_TAG_RE = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*(;.*)?$')
_ESCAPE_RE = re.compile(r"\\(.)")
# a tag pair written plainly, from the line's first column, one space, no escape, up to its
# newline: most tag lines, its name and value taken at once (``_Splitter.plain_tag``); any
# other line is read by ``tag``
_PLAIN_TAG_RE = re.compile(r'\[([A-Za-z0-9_]+) "([^"\\\r\n]*)"\]\n')
_COMMAND_RE = re.compile(r"\[%(\w+)\s*([^\]]*)\]")
# "12." or "12..." (black's move in PGN; a pair's second half here), possibly with the move stuck on
_NEXT_TOKEN = re.compile(r"[^\s{}();]+|[{}();]")  # a word, or a symbol of the movetext
# what a line of words only holds none of: a comment's symbols (a group's parentheses are cut
# from its words when its tokens are, ``PgnGame.tokens``)
_LINE_SYMBOLS = "{};"
_SYMBOLS = re.compile(r"[{}();]")
_WORD = re.compile(r"\S+")
MOVE_NUMBER_RE = re.compile(r"^(\d+)\.(\.\.)?(.*)$")


@dataclass(slots=True)
class Token:
    text: str
    line: int
    column: int
    kind: str = WORD


@dataclass
class PgnGame:
    """One game of a file: ``tags`` in file order, positions of each tag, movetext tokens.

    The splitter keeps a line of words only as the line itself (``pieces``), cut into tokens
    when ``tokens`` is first read: a game's compiled reader (``Visitor.read_compiled``) reads
    the lines whole (``movetext_lines``) and never makes a token."""
    index: int  # 1-based game number in the file
    line: int  # line of the first tag (or first movetext token)
    tags: dict[str, str] = field(default_factory=dict)
    tag_tokens: dict[str, Token] = field(default_factory=dict)
    pieces: list = field(default_factory=list)  # Tokens, and (line number, line) of words only
    error: ParseError | None = None  # the first container error of this game (a bad tag or comment)

    @property
    def tokens(self) -> list[Token]:
        """The movetext's tokens in order (its lines of words cut once, on first reading)."""
        pieces = self.pieces
        if any(type(piece) is tuple for piece in pieces):
            out: list[Token] = []
            for piece in pieces:
                if type(piece) is tuple:  # lines of words, from line_no on
                    line_no, lines = piece
                    for k, line in enumerate(lines.split("\n")):
                        if "(" in line or ")" in line:  # a group's parentheses: tokens of their own
                            out.extend(Token(m.group(), line_no + k, m.start() + 1, _GROUP_KINDS.get(m.group(), WORD))
                                       for m in _NEXT_TOKEN.finditer(line))
                        else:
                            out.extend(Token(m.group(), line_no + k, m.start() + 1) for m in _WORD.finditer(line))
                else:
                    out.append(piece)
            self.pieces = pieces = out
        return pieces

    def movetext_lines(self, groups: bool = False) -> list[tuple[int, str]] | None:
        """The movetext as its lines of words, (first line number, lines), or None where it
        holds a comment or a group (or its tokens were cut already). ``groups``: a group's
        parentheses are then words of their own, each token a line (its number the token's)."""
        pieces = self.pieces
        if not groups:
            if any(type(piece) is not tuple or "(" in piece[1] or ")" in piece[1] for piece in pieces):
                return None
            return pieces
        lines = []
        for piece in pieces:
            if type(piece) is tuple:  # a parenthesis made a word of its own
                text = piece[1]
                lines.append((piece[0], text.replace("(", " ( ").replace(")", " ) ") if "(" in text or ")" in text
                              else text))
            elif piece.kind == COMMENT:
                return None
            else:  # a word, ( or ): a word holds neither (the splitter cuts at them)
                lines.append((piece.line, piece.text))
        return lines


def split_games(text: str) -> list[PgnGame]:
    """Split PGN-style text into games (``iter_games``, all at once)."""
    return list(iter_games(text))


class _Lookout:
    """Where the next line from a position that is not words only begins (``next_line``): a
    tag (a line whose first word starts with "["), or a line holding a comment's symbol (a
    group's parentheses stay in a line of words, cut from its words with its tokens). With
    str.find, not a regular expression: it scans every character of a file, and find runs at
    memchr's speed; the next bracket and the next symbol found are kept, so that a file is
    scanned once however many lines are looked at."""

    def __init__(self, text: str):
        self.text, self.size = text, len(text)
        self.bracket = self.symbol = -1  # the next "[" and the next of _LINE_SYMBOLS found (size: none)
        self.places = [-1] * len(_LINE_SYMBOLS)  # the next place of each of them

    def next_line(self, pos: int) -> int:
        """The start of that line (``pos``, a line's start, where it is that line); past the
        end (``len(text) + 1``) where no such line follows."""
        text, size = self.text, self.size
        if self.symbol < pos:  # each symbol's next place, found again only where it is behind
            places = self.places
            for k, c in enumerate(_LINE_SYMBOLS):
                if places[k] < pos:
                    at = text.find(c, pos)
                    places[k] = size if at < 0 else at
            self.symbol = min(places)
        tag = size + 1
        while True:
            if self.bracket < pos:
                self.bracket = text.find("[", pos)
                if self.bracket < 0:
                    self.bracket = size
            bracket = self.bracket
            if bracket >= min(self.symbol, size):
                break
            start = text.rfind("\n", pos, bracket) + 1
            if start <= pos:
                start = pos
            if start == bracket or text[start:bracket].isspace():
                tag = start
                break
            self.bracket = text.find("[", bracket + 1)  # a bracket within a line of words (Tsuro's returns)
            if self.bracket < 0:
                self.bracket = size
        if self.symbol >= min(tag, size):
            return tag
        return max(pos, text.rfind("\n", pos, self.symbol) + 1)


def iter_games(text: str):
    """The games of a PGN-style text, each yielded once the next one starts (so a long file
    is read a game at a time). A malformed tag or comment, or a line, tag, word or comment
    past its limit (``limits.py``: ``too-large``), is kept as the error of its own game
    (``PgnGame.error``), so the other games of the file still read. Nothing past a limit is
    kept. The lines of words only between two tags or comments are taken at once, as one
    piece (``_Splitter.words_only``): the others one by one."""
    splitter = _Splitter()
    games = splitter.games
    lookout = _Lookout(text)
    pos, line_no, size = 0, 1, len(text)
    while True:
        while len(games) > 1:  # a game is whole once the next one has begun
            yield games.pop(0)
        if splitter.comment is None:
            if text.startswith("[", pos):
                m = _PLAIN_TAG_RE.match(text, pos)
                if m is not None and m.end() - pos <= MAX_LINE_CHARS:
                    splitter.plain_tag(line_no, m.group(1), m.group(2))
                    pos, line_no = m.end(), line_no + 1
                    continue
            special = lookout.next_line(pos)
            if special > pos:  # lines of words only up to the next line to look at (or the end)
                chunk = text[pos:special - 1] if special <= size else text[pos:]
                splitter.words_only(line_no, chunk)
                if special > size:
                    break
                line_no += chunk.count("\n") + 1
                pos = special
                continue
        end = text.find("\n", pos)
        splitter.line(line_no, text[pos:] if end < 0 else text[pos:end])
        if end < 0:
            break
        pos, line_no = end + 1, line_no + 1
    splitter.finish()
    yield from games


class _Splitter:
    """The state of ``iter_games`` between lines: the games not yielded yet (the current one,
    at most two), whether the current game's movetext has begun, and an open comment."""

    def __init__(self):
        self.games: list[PgnGame] = []
        self.count = 0
        self.current: PgnGame | None = None
        self.in_movetext = False
        self.comment: list[str] | None = None
        self.comment_size = 0
        self.comment_start: tuple[int, int] = (0, 0)

    def _begin(self, line_no: int) -> PgnGame:
        self.count += 1
        self.current = PgnGame(index=self.count, line=line_no)
        self.games.append(self.current)
        return self.current

    def line(self, line_no: int, raw: str) -> None:
        """One line: a tag pair, or movetext (words, comments, groups)."""
        line = raw.rstrip("\r")
        if len(line) > MAX_LINE_CHARS:
            self.fail(too_large("a line", MAX_LINE_CHARS, line_no, 1))
        elif self.comment is None and line.lstrip().startswith("[") and not line.lstrip().startswith("[%"):
            self.tag(line_no, line, line.strip())
        else:
            self.movetext(line_no, line)

    def words_only(self, line_no: int, chunk: str) -> None:
        """Lines of words only (no tag, comment or group; no comment open), from ``line_no``:
        kept whole as one piece of the game (``PgnGame.tokens`` cuts it when read), from its
        first word on; line by line where a line or a word could be past its limit."""
        while len(chunk) > MAX_TOKEN_CHARS:  # in pieces of whole lines, each under a word's limit
            cut = chunk.rfind("\n", 0, MAX_TOKEN_CHARS + 1)
            if cut < 0:  # a first line that long: looked at alone
                cut = chunk.find("\n")
                self.line(line_no, chunk if cut < 0 else chunk[:cut])
            else:
                self.words_only(line_no, chunk[:cut])
            if cut < 0:
                return
            line_no += chunk.count("\n", 0, cut) + 1
            chunk = chunk[cut + 1:]
        first = len(chunk) - len(chunk.lstrip())
        if first == len(chunk):
            return  # blank lines
        start = chunk.rfind("\n", 0, first) + 1
        line_no += chunk.count("\n", 0, start)
        current = self.current or self._begin(line_no)
        self.in_movetext = True
        current.pieces.append((line_no, chunk[start:]))

    def fail(self, error: ParseError) -> None:
        """The current game's first error (a game of its own when none has begun)."""
        if self.current is None:
            self._begin(error.line or 1)
        self.current.error = self.current.error or error

    def _tag_game(self, line_no: int) -> PgnGame:
        """The game a tag line belongs to: a new one when movetext came before it."""
        if self.current is None or self.in_movetext:
            self._begin(line_no)
            self.in_movetext = False
        return self.current

    def plain_tag(self, line_no: int, name: str, value: str) -> None:
        """A tag pair written plainly (``_PLAIN_TAG_RE``: from the first column, no escape),
        its name and value already read."""
        self._keep_tag(self._tag_game(line_no), line_no, 1, name, value)

    def tag(self, line_no: int, line: str, stripped: str) -> None:
        """A tag pair, read from its line."""
        current = self._tag_game(line_no)
        col = line.index("[") + 1
        m = _TAG_RE.match(stripped)
        if not m:
            current.error = current.error or ParseError(
                "bad-tag", 'a tag pair must read [Name "value"]', line=line_no, column=col, token=stripped[:40])
            return
        name, value = m.group(1), m.group(2)
        if "\\" in value:  # escapes: \" and \\
            value = _ESCAPE_RE.sub(r"\1", value)
        self._keep_tag(current, line_no, col, name, value)

    def _keep_tag(self, current: PgnGame, line_no: int, col: int, name: str, value: str) -> None:
        """A tag's value kept in its game, unless past its limit or its name given twice."""
        if len(value) > MAX_TAG_CHARS:
            self.fail(too_large(f"the value of tag {name[:40]}", MAX_TAG_CHARS, line_no, col))
            return
        if name in current.tags:
            current.error = current.error or ParseError(
                "bad-tag", f"tag {name} appears twice", line=line_no, column=col, token=value[:40])
            return
        current.tags[name] = value
        current.tag_tokens[name] = Token(value, line_no, col)

    def movetext(self, line_no: int, line: str) -> None:
        """A line of movetext: words, variations' parentheses, comments (which may span lines)."""
        if self.comment is None and not _SYMBOLS.search(line):  # words only: the common line, read at once
            self._words(line_no, line)
            return
        i, n = 0, len(line)
        current, search = self.current, _NEXT_TOKEN.search  # locals: this loop is the reader's hot path
        in_comment, seen = self.comment is not None, False
        while i < n:
            if in_comment:
                i = self._comment_part(line_no, line, i)
                in_comment = self.comment is not None
                continue
            m = search(line, i)  # the next word or symbol (\s is str.isspace's whitespace)
            if m is None:
                break
            i, j = m.span()
            ch = line[i]
            if ch == ";":
                break  # comment to the end of the line
            if current is None:
                current = self._begin(line_no)
            seen = True
            if ch in "{}()":
                i = self._symbol(line_no, line, i)
                in_comment = self.comment is not None
            elif j - i > MAX_TOKEN_CHARS:
                self.fail(too_large("a word", MAX_TOKEN_CHARS, line_no, i + 1, line[i:j]))
                i = j
            else:
                current.pieces.append(Token(line[i:j], line_no, i + 1))
                i = j
        if seen:
            self.in_movetext = True
        if self.comment is not None:
            self.comment.append("\n")

    def _words(self, line_no: int, line: str) -> None:
        """A line of words only (no comment, variation or ``;``): kept whole when no word of it
        can be too large (``PgnGame.tokens`` cuts it when read)."""
        if len(line) <= MAX_TOKEN_CHARS:
            self.words_only(line_no, line)
            return
        words = [(m.group(), m.start() + 1) for m in _WORD.finditer(line)]
        if not words:
            return
        current = self.current or self._begin(line_no)
        self.in_movetext = True
        for word, column in words:
            if len(word) > MAX_TOKEN_CHARS:
                self.fail(too_large("a word", MAX_TOKEN_CHARS, line_no, column, word))
            else:
                current.pieces.append(Token(word, line_no, column))

    def _comment_part(self, line_no: int, line: str, i: int) -> int:
        """The open comment's text from column ``i``: to its ``}`` (the comment is then a token,
        or too large), or to the end of the line. Where to go on."""
        end = line.find("}", i)
        piece = line[i:] if end < 0 else line[i:end]
        self.comment_size += len(piece)
        if self.comment_size <= MAX_COMMENT_CHARS:
            self.comment.append(piece)
        if end < 0:
            return len(line)
        if self.comment_size > MAX_COMMENT_CHARS:
            self.fail(too_large("a comment", MAX_COMMENT_CHARS, *self.comment_start))
        else:
            self.current.pieces.append(Token(" ".join(s.strip() for s in self.comment if s.strip()),
                                             self.comment_start[0], self.comment_start[1], COMMENT))
        self.comment = None
        return end + 1

    def _symbol(self, line_no: int, line: str, i: int) -> int:
        """``{`` opens a comment, ``}`` alone is an error, ``(`` and ``)`` are tokens."""
        ch = line[i]
        if ch == "{":
            self.comment, self.comment_size, self.comment_start = [], 0, (line_no, i + 1)
        elif ch == "}":
            self.current.error = self.current.error or ParseError("bad-comment", "a comment closes without opening",
                                                                  line=line_no, column=i + 1, token="}")
        else:
            self.current.pieces.append(Token(ch, line_no, i + 1, OPEN if ch == "(" else CLOSE))
        return i + 1

    def finish(self) -> None:
        if self.comment is not None:
            self.current.error = self.current.error or ParseError(
                "bad-comment", "a comment is never closed", line=self.comment_start[0], column=self.comment_start[1],
                token="{")


def comment_commands(text: str) -> tuple[dict[str, str], str]:
    """``'[%visits 1:2] nice'`` -> ``({'visits': '1:2'}, 'nice')``."""
    commands = {m.group(1): m.group(2).strip() for m in _COMMAND_RE.finditer(text)}
    rest = _COMMAND_RE.sub("", text).strip()
    return commands, rest


def write_tags(tags: dict[str, str]) -> str:
    out = []
    for name, value in tags.items():
        escaped = value.replace("\\", "\\\\").replace('"', '\\"')
        out.append(f'[{name} "{escaped}"]')
    return "\n".join(out)


def wrap_comment(text: str) -> str:
    return "{" + text.replace("}", ")") + "}"


WRAP_WIDTH = 79  # the width of movetext lines as the canonical texts wrap them


def wrap_after(lines: str, width: int, word: str) -> str:
    """Wrapped movetext ``lines`` (its last line ``width`` wide) and one more word, as
    ``wrap_words`` places it: on the line, or on a new one where it would pass WRAP_WIDTH."""
    gap = "" if not width else "\n" if width + 1 + len(word) > WRAP_WIDTH else " "
    return lines + gap + word


def wrap_words(words: list[str], width: int = WRAP_WIDTH) -> list[str]:
    """Movetext words in lines of at most ``width`` characters (a longer word stands alone)."""
    lines, current = [], ""
    for w in words:
        if current and len(current) + 1 + len(w) > width:
            lines.append(current)
            current = w
        else:
            current = f"{current} {w}" if current else w
    if current:
        lines.append(current)
    return lines


# ---------------------------------------------------------------- reading a record


class Visitor:
    """Receives the games of one record from ``read_record`` and builds the game's model.

    A game's notation subclasses it: ``begin_game`` reads the tags, ``visit_move`` each move
    token, ``visit_group`` a parenthesised group, ``visit_comment`` each ``{...}`` comment,
    ``visit_result`` the result token, ``end_game`` settles the game (stated result against the
    replay), ``result`` returns the record. ``token_error`` makes a positioned error with
    the game's ply (and move) numbering; ``handle_error`` applies the error policy to an error
    a reader may step over (a stated score that differs from the replay).
    """
    #: a movetext token that ends the game: the result (matched before ``visit_move``)
    result_pattern: re.Pattern = re.compile(r"\*")
    #: where the reader's walks keep their states (``Replay(kept_in=)``), or None: set by the
    #: caller that wants the positions the reading passes through (``Notation.read_trace``)
    walks: list | None = None
    #: the engine the reader walks each game through, move by move, from the setup its tags
    #: give (``setup``); None for a game whose record is read whole before it is replayed
    #: (Iwoki, Tiny Islands: their notation's own ``replay``)
    engine: object = None
    #: the walk of the game being read (``begin``): the reader owns it, as python-chess's
    #: reader owns the board; the visitor plays each move it reads through it
    walk: Replay | None = None

    def __init__(self, policy: ErrorPolicy = STRICT):
        self.policy = policy
        self.warnings: list[str] = []

    def handle_error(self, error: RecordRejected) -> None:
        self.policy.handle(error, self.warnings)

    def ply(self) -> int | None:
        """The 1-based ply the next move would be (errors carry it)."""
        return None

    def seat_names(self) -> list[str]:
        """The players' names as read so far (from the tags), by seat: what the boards of a
        record refused midway name (``Notation.trace_games``); none by default."""
        return []

    def token_error(self, token: Token, code: str, message: str) -> ParseError:
        return ParseError(code, message, line=token.line, column=token.column, ply=self.ply(), token=token.text)

    def expected_move_number(self) -> int:
        raise NotImplementedError

    def visit_move_number(self, number: int, token: Token) -> None:
        """A move number: it must be the one the next move carries."""
        expected = self.expected_move_number()
        if number != expected:
            raise self.token_error(token, "bad-move-number", f"expected move number {expected}")

    def can_end(self) -> bool:
        """May the result stand here (a token matching ``result_pattern`` is the result)?"""
        return True

    def read_compiled(self, games: list[PgnGame]):
        """The record read in one compiled call, or None: then ``read_record``'s walk reads it
        (a game without a compiled reader, or a record the compiled one declines: see
        ``records/compiled.py``). It may only say yes where the walk says yes, to the same record;
        declining, it leaves the visitor as the walk expects to find it."""
        return None

    def settled(self, settle):
        """``(True, what settle returns)`` where the walk's own checks in ``settle`` (a game's
        end, its stated result) find nothing to say; ``(False, None)`` where they raise or would
        warn (every error raised for the while, whatever the policy): a compiled reader settles a
        record with the walk's checks, and accepts only a record they pass without a word."""
        policy, self.policy = self.policy, STRICT
        try:
            return True, settle()
        except RecordRejected:
            return False, None
        finally:
            self.policy = policy

    def begin(self, game: PgnGame) -> None:
        """A game begins: its tags read (``begin_game``), then its walk started from the setup
        they give, through the game's engine."""
        self.begin_game(game)
        if self.engine is not None:
            self.walk = Replay(self.engine, self.setup(), self.walks)

    def begin_game(self, game: PgnGame) -> None:
        """Read a game's tags (a tag's fault raised here, before any move)."""
        raise NotImplementedError

    def setup(self):
        """The engine's setup (``Engine.initial_state``) of the game whose tags ``begin_game``
        read: what the reader starts its walk from."""
        raise NotImplementedError

    def visit_move(self, token: Token) -> None:
        raise NotImplementedError

    def visit_group(self, opening: Token, words: list[Token], closed: bool) -> None:
        """``( word ... )``; ``closed`` is False when the group never closes."""
        self.visit_move(opening)

    def visit_comment(self, token: Token) -> None:
        pass

    def visit_result(self, token: Token) -> None:
        pass

    def end_game(self, game: PgnGame, result: Token | None) -> None:
        pass

    def result(self):
        raise NotImplementedError


def read_record(games: list[PgnGame], visitor: Visitor):
    """Walk the games of one record (one game, or several that form one record) through
    ``visitor`` and return what it built; raises the first error in reading order."""
    for game in games:  # a container error (bad tag, comment) of any game comes first
        if game.error is not None:
            raise game.error
    if visitor.walks is None:  # a walk that keeps the positions (show, the analysis) walks
        compiled = visitor.read_compiled(games)
        if compiled is not None:
            return compiled
    for game in games:
        visitor.begin(game)
        result: Token | None = None
        tokens = game.tokens
        i = 0
        while i < len(tokens):
            token = tokens[i]
            i += 1
            if token.kind == COMMENT:
                visitor.visit_comment(token)
                continue
            if result is not None:
                raise visitor.token_error(token, "bad-token", "nothing may follow the result")
            if token.kind == OPEN:
                words = []
                while i < len(tokens) and tokens[i].kind == WORD:
                    words.append(tokens[i])
                    i += 1
                closed = i < len(tokens) and tokens[i].kind == CLOSE
                i += closed
                visitor.visit_group(token, words, closed)
                continue
            if token.kind == CLOSE:
                raise visitor.token_error(token, "bad-token", "a ) without its (")
            number = MOVE_NUMBER_RE.match(token.text)
            if number:
                head = token.text[:len(token.text) - len(number.group(3))]
                digits = number.group(1)  # bounded before int(): a move number has at most 9 digits
                visitor.visit_move_number(int(digits) if len(digits) <= 9 else -1, Token(head, token.line, token.column))
                if not number.group(3):
                    continue
                token = Token(number.group(3), token.line, token.column + len(head))
            if visitor.result_pattern.fullmatch(token.text) and visitor.can_end():
                result = token
                visitor.visit_result(token)
                continue
            visitor.visit_move(token)
        visitor.end_game(game, result)
    return visitor.result()
