"""What the readers accept at most: every bound is checked before anything is converted or
kept, so bad input costs neither memory nor time. A text past a size limit is refused as
``too-large`` (code), at the line and column where it crossed the limit.

The figures are documented in the README ("Limits"); a real record is far below each.
"""
from __future__ import annotations

from scorebook.errors import ParseError

MAX_FILE_BYTES = 32 * 1024 * 1024  # a file or standard input (TinyBot's 4,000-game runs: 11 MB)
MAX_LINE_CHARS = 1024 * 1024  # a line of any format (a TinyBot line: about 3 KB)
MAX_TOKEN_CHARS = 64 * 1024  # a movetext word or a TinyBot token (visit lists included)
MAX_COMMENT_CHARS = 128 * 1024  # a {comment} (a TinyBot token's visit lists fit in one)
MAX_TAG_CHARS = 64 * 1024  # a tag pair's value
MAX_DIGITS = 9  # any number read: a move number, a score, a count (all < 10**9)
MAX_JSON_DEPTH = 16  # nesting of a JSON line (an Iwoki log's is 4)


def too_large(what: str, limit: int, line: int, column: int, token: str | None = None) -> ParseError:
    return ParseError("too-large", f"{what} is longer than {limit:,} characters", line=line, column=column,
                      token=None if token is None else token[:40])


def small_int(text: str) -> int | None:
    """An ASCII decimal of at most MAX_DIGITS digits (an optional minus sign), or None. The
    one way the readers turn text into a number: nothing longer is ever converted."""
    digits = text[1:] if text.startswith("-") else text
    if not digits or len(digits) > MAX_DIGITS or not digits.isascii() or not digits.isdigit():
        return None
    return int(text)


def json_depth(text: str) -> int:
    """The deepest nesting of objects and arrays in a JSON text (strings skipped), without parsing it."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest
