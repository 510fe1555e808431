"""Reading files: decoding, format detection, splitting into records.

Formats: ``tinybot`` (one TinyBot line per record) and ``pgn`` (Scorebook's PGN-style
container, several games per file, the game named by its ``Game`` tag).

>>> detect_format('[Game "tiny-islands"]\\n')
'pgn'
>>> [item.index for item in read_text("\\n\\n", "x.txt")]
[1]
"""
from __future__ import annotations

from dataclasses import dataclass

from . import pgn, tinybot, tiny_islands

# each game's module (and its jitted engine) is imported only when a record of it turns up
GOI, IWOKI = "game-of-islands", "iwoki"
from .errors import ParseError, RecordRejected, UsageError

FORMATS = ("tinybot", "pgn", "iwoki-log")

# Game tag -> reader of one container game. Games without a reader are refused by name.
PGN_READERS = {tiny_islands.GAME: tiny_islands.parse_game}
KNOWN_GAMES = ("tiny-islands", "game-of-islands", "iwoki", "patchwork", "tsuro")


@dataclass
class Item:
    """One record read from a source, or the reason it could not be read."""
    index: int
    format: str
    game: str | None
    record: object | None = None
    error: RecordRejected | None = None
    line: int = 1


def decode(data: bytes) -> str:
    """UTF-8, with or without a byte-order mark; CRLF and CR line ends become LF."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ParseError("bad-encoding", f"not UTF-8 text (byte {exc.start})", line=1, column=1) from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def detect_format(text: str) -> str | None:
    for line in text.split("\n"):
        s = line.strip()
        if not s or s.startswith(";"):
            continue
        if s.startswith("[") or s.startswith("{") and not s.startswith('{"'):
            return "pgn"
        if s.startswith("{"):
            return "iwoki-log"  # JSON Lines
        if tinybot.looks_like_tinybot(s):
            return "tinybot"
        if s[0].isdigit() and "." in s.split()[0]:
            return "pgn"
        return None
    return None


def game_of(game: pgn.PgnGame) -> str | None:
    """The game a container record is of: its Game tag, or a Grid tag for The Game of Islands."""
    return game.tags.get("Game") or (GOI if "Grid" in game.tags else None)


def read_tinybot_lines(lines: list[str], first: int = 1) -> list[Item]:
    """One item per non-blank line; ``first`` is the file line number of ``lines[0]``."""
    items = []
    for n, line in enumerate(lines, start=first):
        if not line.strip():
            continue
        try:
            items.append(Item(n, "tinybot", tiny_islands.GAME, record=tinybot.parse_line(line, n), line=n))
        except RecordRejected as err:
            items.append(Item(n, "tinybot", tiny_islands.GAME, error=err, line=n))
    return items


def read_text(text: str, source: str, fmt: str = "auto", *, lenient: bool = False) -> list[Item]:
    """Split text into records; never raises for bad content (errors go into the items).

    Game of Islands games sharing a Match tag are one record (a triad), numbered by its
    first game."""
    if not text.strip():
        return [Item(1, fmt if fmt != "auto" else "unknown", None,
                     error=ParseError("empty-input", "the input holds no record", line=1, column=1))]
    if fmt == "auto":
        fmt = detect_format(text)
        if fmt is None:
            first = next(i for i, l in enumerate(text.split("\n"), 1) if l.strip())
            line = text.split("\n")[first - 1]
            return [Item(1, "unknown", None, line=first, error=ParseError(
                "unknown-format", "neither a TinyBot line nor a PGN-style record (tags in [brackets])",
                line=first, column=len(line) - len(line.lstrip()) + 1, token=line.split()[0][:40]))]
    if fmt == "tinybot":
        return read_tinybot_lines(text.split("\n"))
    if fmt == "pgn":
        try:
            games = pgn.split_games(text)
        except RecordRejected as err:
            return [Item(1, fmt, None, error=err, line=err.line or 1)]
        items = []
        triads: dict[str, list[pgn.PgnGame]] = {}
        entries: list = []  # a game, or the key of a triad at the place of its first game
        for g in games:
            if game_of(g) == GOI and g.tags.get("Match") is not None:
                key = g.tags["Match"]
                if key not in triads:
                    triads[key] = []
                    entries.append(key)
                triads[key].append(g)
            else:
                entries.append(g)
        for entry in entries:
            if isinstance(entry, str):
                from . import game_of_islands
                group = triads[entry]
                broken = next((g.error for g in group if g.error is not None), None)
                if broken is not None:
                    items.append(Item(group[0].index, fmt, game_of_islands.GAME, error=broken, line=group[0].line))
                    continue
                try:
                    items.append(Item(group[0].index, fmt, game_of_islands.GAME, line=group[0].line,
                                      record=game_of_islands.read_group(group, lenient=lenient)))
                except RecordRejected as err:
                    items.append(Item(group[0].index, fmt, game_of_islands.GAME, error=err, line=group[0].line))
                continue
            g = entry
            name = game_of(g)
            if g.error is not None:
                items.append(Item(g.index, fmt, name, error=g.error, line=g.line))
                continue
            if name is None:
                err = ParseError("missing-game-tag", 'the record needs a tag naming its game, e.g. [Game "tiny-islands"]',
                                 line=g.line, column=1)
                items.append(Item(g.index, fmt, None, error=err, line=g.line))
                continue
            if name == IWOKI:
                from . import iwoki
                try:
                    items.append(Item(g.index, fmt, name, line=g.line, record=iwoki.read_pgn_game(g, lenient=lenient)))
                except RecordRejected as err:
                    items.append(Item(g.index, fmt, name, error=err, line=g.line))
                continue
            if name == GOI:
                from . import game_of_islands
                try:
                    items.append(Item(g.index, fmt, name, line=g.line,
                                      record=game_of_islands.read_group([g], lenient=lenient)))
                except RecordRejected as err:
                    items.append(Item(g.index, fmt, name, error=err, line=g.line))
                continue
            reader = PGN_READERS.get(name)
            if reader is None:
                t = g.tag_tokens["Game"]
                why = "is not supported yet" if name in KNOWN_GAMES else "is not a known game"
                err = ParseError("unsupported-game", f"game {name!r} {why}", line=t.line, column=t.column, token=name)
                items.append(Item(g.index, fmt, name, error=err, line=g.line))
                continue
            try:
                items.append(Item(g.index, fmt, name, record=reader(g), line=g.line))
            except RecordRejected as err:
                items.append(Item(g.index, fmt, name, error=err, line=g.line))
        return items
    if fmt == "iwoki-log":
        from . import iwoki
        # one game per header line; a file usually holds one
        lines = text.split("\n")
        starts = [i for i, l in enumerate(lines) if l.lstrip().startswith('{"kind":"header"')] or [0]
        items = []
        for k, start in enumerate(starts, 1):
            end = starts[k] if k < len(starts) else len(lines)
            chunk = "\n" * start + "\n".join(lines[start:end])  # keep file line numbers
            try:
                items.append(Item(k, fmt, iwoki.GAME, record=iwoki.parse_log(chunk, lenient=lenient), line=start + 1))
            except RecordRejected as err:
                items.append(Item(k, fmt, iwoki.GAME, error=err, line=start + 1))
        return items
    raise UsageError(f"unknown format {fmt!r}; choose one of auto, {', '.join(FORMATS)}")
