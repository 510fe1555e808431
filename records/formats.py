"""Reading texts: decoding, format detection, splitting into records, each game's reader
found through the registry.

Formats: ``pgn`` (Scorebook's PGN-style container, shared by every game: several games a
file, the game named by its ``Game`` tag) and each game's foreign formats (``tinybot``,
``iwoki-log``), recognised by the patterns their games declare.

>>> detect_format('[Game "tiny-islands"]\\n')
'pgn'
>>> [item.index for item in read_text("\\n\\n", "x.txt")]
[1]
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterator

from scorebook import registry

from . import pgn
from scorebook.errors import STRICT, ErrorPolicy, ParseError, RecordRejected, UnknownGame, UsageError
from .limits import MAX_JSON_DEPTH, json_depth
from .notation import Item


# characters no record holds, which would drive a reader's terminal or reorder what it shows:
# C0 and C1 controls but tab and line ends, DEL, and the bidirectional overrides and marks
CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def decode(data: bytes) -> str:
    """UTF-8, with or without a byte-order mark; CRLF and CR line ends become LF. A control
    character (other than tab and line ends) or a bidirectional override is refused where it
    stands (``bad-encoding``)."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ParseError("bad-encoding", f"not UTF-8 text (byte {exc.start})", line=1, column=1) from None
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    bad = CONTROL.search(text)
    if bad:
        line = text.count("\n", 0, bad.start()) + 1
        column = bad.start() - text.rfind("\n", 0, bad.start())
        raise ParseError("bad-encoding", f"a control character, U+{ord(bad.group()):04X}, which no record holds",
                         line=line, column=column)
    return text


def detect_format(text: str) -> str | None:
    """The format of a text from its first non-blank, non-comment line, or None."""
    for line in _lines(text):
        s = line.strip()
        if not s or s.startswith(";"):
            continue
        if s.startswith("[") or s.startswith("{") and not s.startswith('{"'):
            return "pgn"
        foreign = registry.detect_foreign(s)
        if foreign is not None:
            return foreign
        if s[0].isdigit() and "." in s.split()[0]:
            return "pgn"
        return None
    return None


def _lines(text: str) -> Iterator[str]:
    """The lines of ``text`` one at a time: a detection reads the first few, not a whole file's."""
    start = 0
    while (end := text.find("\n", start)) >= 0:
        yield text[start:end]
        start = end + 1
    yield text[start:]


def blank(text: str) -> bool:
    """Does ``text`` hold nothing but whitespace (``not text.strip()``, without its copy)?"""
    return not text or text.isspace()


def is_tournament(text: str, *, strict: bool = False) -> bool:
    """A tournament file (shared/data/goi/README.md), which is not a record
    (``analyze.standings`` reads it): a JSON object with ``matches`` or ``records``. With
    ``strict`` (what a ``.json`` file found in a folder must be to be taken for one), its
    ``records`` are file names and its ``matches`` each name a file or hold a ``pgn`` text,
    so that other JSON, such as the output of ``standings --json`` or ``list --json``, is not."""
    if not text.lstrip().startswith("{"):
        return False
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError):
        return False
    if not isinstance(doc, dict) or ("records" not in doc and "matches" not in doc):
        return False
    if not strict:
        return True
    records, matches = doc.get("records", []), doc.get("matches", [])
    return (isinstance(records, list) and all(isinstance(r, str) for r in records)
            and isinstance(matches, list) and all(isinstance(m, dict) and ("file" in m or "pgn" in m) for m in matches))


_TAG_PAIR = re.compile(r'\[[A-Za-z_][A-Za-z0-9_]* "')  # a PGN tag pair, which no JSON text begins with


def _one_json_document(text: str) -> bool:
    """Is the whole text one JSON object or array spread over several lines (not a log's
    object a line)? Read within the limits' nesting bound."""
    start = text.lstrip()
    head = start[:1]
    if head not in "{[" or _TAG_PAIR.match(start) or "\n" not in text.strip() or json_depth(text) > MAX_JSON_DEPTH:
        return False
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def read_text(text: str, source: str, fmt: str = "auto", *, policy: ErrorPolicy = STRICT) -> list[Item]:
    """Split a text into records; never raises for bad content (errors go into the items)."""
    return list(iter_text(text, source, fmt, policy=policy))


def iter_text(text: str, source: str, fmt: str = "auto", *, policy: ErrorPolicy = STRICT):
    """``read_text`` a record at a time (a PGN-style text is read game by game)."""
    if blank(text):
        return [Item(1, fmt if fmt != "auto" else "unknown", None,
                     error=ParseError("empty-input", "the input holds no record", line=1, column=1))]
    if fmt == "auto":
        if is_tournament(text):  # not a record: say what it is rather than fail inside it as PGN
            return [Item(1, "unknown", None, line=1, error=ParseError(
                "tournament-file", "a tournament file, not a record: name its .json file to ingest "
                "(its records and the tournament), or rank it with scorebook standings FILE",
                line=1, column=1, token="{"))]
        fmt = detect_format(text)
        if fmt != "iwoki-log" and _one_json_document(text):  # a JSON file that is not a record (game data, a report)
            return [Item(1, "unknown", None, line=1, error=ParseError(
                "not-a-record", "a JSON document, not a record: Scorebook reads JSON as Iwoki logs (one "
                "object a line) and as tournament files", line=1, column=1, token=text.lstrip()[:1]))]
        if fmt is None:
            lines = text.split("\n")
            first = next(i for i, l in enumerate(lines, 1) if l.strip())
            line = lines[first - 1]
            return [Item(1, "unknown", None, line=first, error=ParseError(
                "unknown-format", "neither a PGN-style record (tags in [brackets]) nor a record in "
                + " or ".join(registry.formats()[1:]),
                line=first, column=len(line) - len(line.lstrip()) + 1, token=line.split()[0][:40]))]
    if fmt == "pgn":
        return iter_pgn(text, policy)
    owner = registry.format_owner(fmt)
    if owner is None:
        raise UsageError(f"unknown format {fmt!r}; choose one of auto, {', '.join(registry.formats())}")
    return owner.formats[fmt].read(text, policy)


def _game_error(g: pgn.PgnGame, game_id: str | None) -> ParseError | None:
    """Why a container game cannot be read as the game it names, or None."""
    if game_id is None:
        return ParseError("missing-game-tag", "the record needs a tag naming its game, one of "
                          + ", ".join(f'[Game "{gid}"]' for gid in registry.game_ids()), line=g.line, column=1)
    try:
        registry.get_game(game_id)
    except UnknownGame as err:
        t = g.tag_tokens["Game"]
        why = "is not supported yet" if err.planned else "is not a known game"
        return ParseError("unsupported-game", f"game {game_id!r} {why}", line=t.line, column=t.column, token=game_id)
    return None


def read_pgn(text: str, policy: ErrorPolicy = STRICT) -> list[Item]:
    """Every record of a PGN-style text (``iter_pgn``, all at once)."""
    return list(iter_pgn(text, policy))


def record_key(g: pgn.PgnGame):
    """What a game shares with the other games of its record (its game and that game's group
    key: a triad's Match tag), or None for a record of one game."""
    gid = registry.game_for_tags(g.tags)
    if gid is None or _game_error(g, gid) is not None:
        return None
    k = registry.get_game(gid).notation.group_key(g)
    return None if k is None else (gid, k)


def iter_pgn(text: str, policy: ErrorPolicy = STRICT):
    """The records of a PGN-style text, one at a time, each read by its game's visitor
    (``pgn_records``, ``read_pgn_record``)."""
    for games in pgn_records(text):
        yield read_pgn_record(games, policy)


def read_pgn_record(games: list, policy: ErrorPolicy = STRICT) -> Item:
    """The record of these games (one, or a group's), read by its game's visitor."""
    first = games[0]
    gid = registry.game_for_tags(first.tags)
    error = next((g.error for g in games if g.error is not None), None) or _game_error(first, gid)
    if error is not None:
        return Item(first.index, "pgn", gid, error=error, line=first.line)
    notation = registry.get_game(gid).notation
    try:
        return Item(first.index, "pgn", gid, record=pgn.read_record(games, notation.visitor(policy)),
                    line=first.line)
    except RecordRejected as err:
        return Item(first.index, "pgn", gid, error=err, line=first.line)


def reads_as_pgn(text: str, fmt: str = "auto") -> bool:
    """Does ``iter_text`` read this text as PGN-style records (not a tournament file, nor JSON)?"""
    if fmt != "auto":
        return fmt == "pgn"
    return not blank(text) and not is_tournament(text) and detect_format(text) == "pgn" \
        and not _one_json_document(text)


def pgn_records(text: str):
    """The games of each record of a PGN-style text, in the records' order, unread. Games of
    one game sharing that game's group key (a Game of Islands triad's Match tag) are one
    record, at the place of its first game: a record is yielded once every record before it is,
    and a group once the text ends (its games may be anywhere in the file), so memory holds a
    game at a time, and a file of groups its groups."""
    queue: list[tuple[list, bool]] = []  # (games, whole) in file order; a group is whole at the end
    groups: dict = {}
    for g in pgn.iter_games(text):
        k = record_key(g)
        if k is None:
            queue.append(([g], True))
        elif k in groups:
            groups[k].append(g)
        else:
            groups[k] = [g]
            queue.append((groups[k], False))
        while queue and queue[0][1]:
            yield queue.pop(0)[0]
    for games, _ in queue:
        yield games
