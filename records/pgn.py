"""The PGN-style container every game shares: tag pairs, then movetext, then the result.

This module knows nothing of any game's moves. It splits a file into games, reads the tag
pairs and cuts the movetext into positioned tokens; each game's grammar reads those.

>>> games = split_games('[Game "tiny-islands"]\\n\\n1. hi+w6 hi3 {[%visits 1:2]} *\\n')
>>> games[0].tags["Game"], [t.text for t in games[0].tokens]
('tiny-islands', ['1.', 'hi+w6', 'hi3', '[%visits 1:2]', '*'])
>>> games[0].tokens[3].kind, games[0].tokens[2].column
('comment', 10)
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .errors import ParseError

WORD, COMMENT, OPEN, CLOSE = "word", "comment", "open", "close"

_TAG_RE = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*(;.*)?$')
_COMMAND_RE = re.compile(r"\[%(\w+)\s*([^\]]*)\]")


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
    """Split PGN-style text into games. A malformed tag or comment is kept as the error of
    its own game (``PgnGame.error``), so the other games of the file still read."""
    games: list[PgnGame] = []
    current: PgnGame | None = None
    in_movetext = False
    comment: list[str] | None = None
    comment_start: tuple[int, int] = (0, 0)
    for line_no, raw in enumerate(text.split("\n"), start=1):
        line = raw.rstrip("\r")
        if comment is None:
            stripped = line.strip()
            if stripped.startswith("[") and not stripped.startswith("[%"):
                if current is None or in_movetext:
                    current = PgnGame(index=len(games) + 1, line=line_no)
                    games.append(current)
                    in_movetext = False
                col = line.index("[") + 1
                m = _TAG_RE.match(stripped)
                if not m:
                    current.error = current.error or ParseError(
                        "bad-tag", 'a tag pair must read [Name "value"]', line=line_no, column=col, token=stripped)
                    continue
                name, value = m.group(1), re.sub(r"\\(.)", r"\1", m.group(2))
                if name in current.tags:
                    current.error = current.error or ParseError(
                        "bad-tag", f"tag {name} appears twice", line=line_no, column=col, token=value)
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
                if end < 0:
                    comment.append(line[i:])
                    i = n
                    break
                comment.append(line[i:end])
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
                current = PgnGame(index=len(games) + 1, line=line_no)
                games.append(current)
            in_movetext = True
            if ch == "{":
                comment = []
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
            current.tokens.append(Token(line[i:j], line_no, i + 1))
            i = j
        if comment is not None:
            comment.append("\n")
    if comment is not None:
        current.error = current.error or ParseError("bad-comment", "a comment is never closed",
                                                    line=comment_start[0], column=comment_start[1], token="{")
    return games


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
