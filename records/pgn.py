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

WORD, COMMENT, OPEN, CLOSE = "word", "comment", "open", "close"

TAG_NAME_RE = re.compile(r"[A-Za-z0-9_]{1,64}")
_TAG_RE = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*(;.*)?$')
_COMMAND_RE = re.compile(r"\[%(\w+)\s*([^\]]*)\]")
# "12." or "12..." (black's move in PGN; a pair's second half here), possibly with the move stuck on
MOVE_NUMBER_RE = re.compile(r"^(\d+)\.(\.\.)?(.*)$")


@dataclass(slots=True)
class Token:
    text: str
    line: int
    column: int
    kind: str = WORD


@dataclass
class PgnGame:
    """One game of a file: ``tags`` in file order, positions of each tag, movetext tokens."""
    index: int  # 1-based game number in the file
    line: int  # line of the first tag (or first movetext token)
    tags: dict[str, str] = field(default_factory=dict)
    tag_tokens: dict[str, Token] = field(default_factory=dict)
    tokens: list[Token] = field(default_factory=list)
    error: ParseError | None = None  # the first container error of this game (a bad tag or comment)


def split_games(text: str) -> list[PgnGame]:
    """Split PGN-style text into games (``iter_games``, all at once)."""
    return list(iter_games(text))


def _lines(text: str):
    """The lines of a text, one at a time (no list of them all)."""
    start = 0
    while True:
        end = text.find("\n", start)
        if end < 0:
            yield text[start:]
            return
        yield text[start:end]
        start = end + 1


def iter_games(text: str):
    """The games of a PGN-style text, each yielded once the next one starts (so a long file
    is read a game at a time). A malformed tag or comment, or a line, tag, word or comment
    past its limit (``limits.py``: ``too-large``), is kept as the error of its own game
    (``PgnGame.error``), so the other games of the file still read. Nothing past a limit is
    kept."""
    games: list[PgnGame] = []  # the games not yielded yet (the current one, at most two)
    count = 0
    current: PgnGame | None = None
    in_movetext = False
    comment: list[str] | None = None
    comment_size = 0
    comment_start: tuple[int, int] = (0, 0)

    def fail(error: ParseError) -> None:
        nonlocal current, count
        if current is None:
            count += 1
            current = PgnGame(index=count, line=error.line or 1)
            games.append(current)
        current.error = current.error or error

    for line_no, raw in enumerate(_lines(text), start=1):
        while len(games) > 1:  # a game is whole once the next one has begun
            yield games.pop(0)
        line = raw.rstrip("\r")
        if len(line) > MAX_LINE_CHARS:
            fail(too_large("a line", MAX_LINE_CHARS, line_no, 1))
            continue
        if comment is None:
            stripped = line.strip()
            if stripped.startswith("[") and not stripped.startswith("[%"):
                if current is None or in_movetext:
                    count += 1
                    current = PgnGame(index=count, line=line_no)
                    games.append(current)
                    in_movetext = False
                col = line.index("[") + 1
                m = _TAG_RE.match(stripped)
                if not m:
                    current.error = current.error or ParseError(
                        "bad-tag", 'a tag pair must read [Name "value"]', line=line_no, column=col, token=stripped[:40])
                    continue
                name, value = m.group(1), re.sub(r"\\(.)", r"\1", m.group(2))
                if len(value) > MAX_TAG_CHARS:
                    fail(too_large(f"the value of tag {name[:40]}", MAX_TAG_CHARS, line_no, col))
                    continue
                if name in current.tags:
                    current.error = current.error or ParseError(
                        "bad-tag", f"tag {name} appears twice", line=line_no, column=col, token=value[:40])
                    continue
                current.tags[name] = value
                current.tag_tokens[name] = Token(value, line_no, col)
                continue
        i = 0
        n = len(line)
        while i < n:
            ch = line[i]
            if comment is not None:
                end = line.find("}", i)
                piece = line[i:] if end < 0 else line[i:end]
                comment_size += len(piece)
                if comment_size <= MAX_COMMENT_CHARS:
                    comment.append(piece)
                if end < 0:
                    i = n
                    break
                if comment_size > MAX_COMMENT_CHARS:
                    fail(too_large("a comment", MAX_COMMENT_CHARS, comment_start[0], comment_start[1]))
                else:
                    current.tokens.append(Token(" ".join(s.strip() for s in comment if s.strip()),
                                                comment_start[0], comment_start[1], COMMENT))
                comment = None
                i = end + 1
                continue
            if ch.isspace():
                i += 1
                continue
            if ch == ";":
                break  # comment to the end of the line
            if current is None:
                count += 1
                current = PgnGame(index=count, line=line_no)
                games.append(current)
            in_movetext = True
            if ch == "{":
                comment = []
                comment_size = 0
                comment_start = (line_no, i + 1)
                i += 1
                continue
            if ch == "}":
                current.error = current.error or ParseError("bad-comment", "a comment closes without opening",
                                                            line=line_no, column=i + 1, token="}")
                i += 1
                continue
            if ch in "()":
                current.tokens.append(Token(ch, line_no, i + 1, OPEN if ch == "(" else CLOSE))
                i += 1
                continue
            j = i
            while j < n and not line[j].isspace() and line[j] not in "{}();":
                j += 1
            if j - i > MAX_TOKEN_CHARS:
                fail(too_large("a word", MAX_TOKEN_CHARS, line_no, i + 1, line[i:j]))
            else:
                current.tokens.append(Token(line[i:j], line_no, i + 1))
            i = j
        if comment is not None:
            comment.append("\n")
    if comment is not None:
        current.error = current.error or ParseError("bad-comment", "a comment is never closed",
                                                    line=comment_start[0], column=comment_start[1], token="{")
    yield from games


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


def wrap_words(words: list[str], width: int = 79) -> list[str]:
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

    def __init__(self, policy: ErrorPolicy = STRICT):
        self.policy = policy
        self.warnings: list[str] = []

    def handle_error(self, error: RecordRejected) -> None:
        self.policy.handle(error, self.warnings)

    def ply(self) -> int | None:
        """The 1-based ply the next move would be (errors carry it)."""
        return None

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

    def begin_game(self, game: PgnGame) -> None:
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
    for game in games:
        visitor.begin_game(game)
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
