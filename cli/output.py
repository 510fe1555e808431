"""Output the way sqlite-utils does it: one ``output_options`` decorator on every command that
prints rows, and one printer. ``--table`` (the default), ``--csv``, ``--tsv``, ``--nl`` (one
JSON object a line), ``--json`` (the command's JSON document of the contract,
shared/specs/cli.md), ``--no-headers`` and ``--wide``. Tables fit the terminal (100 columns
without one): the widest cells are shortened with an ellipsis (a path keeps its end), the
columns that carry the answer (players, result, played, best...) wrapped instead.

>>> print(table(["id", "source"], [["ab12", "short.txt"], ["cd34", "a/very/long/path/" * 8 + "x.txt"]], width=40))
id    source
----  ----------------------------------
ab12  short.txt
cd34  …/long/path/a/very/long/path/x.txt
"""
from __future__ import annotations

import csv
import functools
import json
import sys

import click

WIDTH = 100
MODES = ("table", "csv", "tsv", "nl", "json")


def safe(text: str) -> str:
    """A text for the terminal: control characters and bidirectional overrides (which no new
    record holds, ``records.formats.CONTROL``; an older database might) shown as escapes, so
    that a stored text cannot drive the reader's terminal."""
    from scorebook.records.formats import CONTROL
    return CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def plural(n: int, word: str) -> str:
    """``1 record``, ``2 records``, ``0 records``, ``2 losses``.

    >>> plural(1, "move"), plural(3, "move"), plural(2, "loss"), plural(3, "match")
    ('1 move', '3 moves', '2 losses', '3 matches')
    """
    return f"{n} {word}" + ("" if n == 1 else "es" if word.endswith(("s", "ch", "sh", "x")) else "s")


def emit_json(doc) -> None:
    click.echo(json.dumps(doc, ensure_ascii=False))


def _shorten(text: str, width: int, keep_end: bool) -> str:
    if len(text) <= width:
        return text
    return "…" + text[len(text) - width + 1:] if keep_end else text[:width - 1] + "…"


def _wrap(text: str, width: int) -> list[str]:
    """A cell broken into lines of at most ``width`` characters: after a list's `` / `` where it
    can (a line of players ends with its slash), else at a space, else anywhere (the table's
    widths keep an answer's words whole: ``_fitted``)."""
    lines = []
    while len(text) > width:
        cut = text.rfind(" / ", 1, width + 1) + 2  # the slash ends the line
        if cut < 2:
            cut = text.rfind(" ", 1, width + 1)
            cut = cut if cut > 0 else width
        lines.append(text[:cut].rstrip())
        text = text[cut:].lstrip()
    return lines + [text]


# the columns that carry a command's answer: wrapped onto more lines, never cut
ANSWERS = ("players", "player", "score", "result", "played", "best", "won", "event", "bot",
           "value best", "value played")  # (these two wrap their headings: a number is short)
ANSWER_FLOOR = 12
SHORT_ANSWER = 24  # an answer no longer than this (an event's name) stays whole while a longer one wraps
PATH_FLOOR = 24  # a path keeps its end, the file's name, to this width before an answer wraps


def terminal_width() -> int:
    """The terminal's width (``$COLUMNS`` first), WIDTH when there is no terminal."""
    import shutil
    return shutil.get_terminal_size((WIDTH, 24)).columns


# the short columns no table cuts: a loss, a class, a ply, a date, a code keep their width
WHOLE = ("id", "game", "status", "ply", "loss", "class", "date", "first date",
         "last date", "code", "rank", "rating", "tournament", "margin", "share", "seconds")


def table(headers: list[str], rows: list[list], *, width: int | None = WIDTH, headers_shown: bool = True,
          keep_end: tuple[str, ...] = ("source",), whole: tuple[str, ...] = WHOLE,
          answers: tuple[str, ...] = ANSWERS) -> str:
    """Rows as aligned text within ``width`` columns (None: as wide as the cells). While too
    wide, the widest column gives up a character: its cells shortened with an ellipsis
    (columns named in ``keep_end`` keep the end of their text, as a path's file name), or, for
    the columns in ``answers``, wrapped onto more lines, so the answer is never cut; those in
    ``whole`` keep their width."""
    cells = [[str(h) for h in headers]] + [[_text(c) for c in r] for r in rows]
    widths = _fitted(cells, width, whole, answers, keep_end)
    cut = [_cutter(h, keep_end, answers) for h in headers]
    lines = []
    for r in cells[1:]:
        lines += _row_lines([cut[i](c, w) for i, (c, w) in enumerate(zip(r, widths))], widths)
    if headers_shown:
        lines[:0] = _row_lines([cut[i](c, w) for i, (c, w) in enumerate(zip(cells[0], widths))], widths) + [
            "  ".join("-" * w for w in widths)]
    return "\n".join(lines)


def _cutter(heading: str, keep_end, answers):
    """How a column's cell fits its width: wrapped (an answer), or shortened (keeping the end)."""
    if _named(heading, answers) and heading not in keep_end:
        return _wrap
    return lambda text, width: [_shorten(text, width, heading in keep_end)]


def _row_lines(parts: list[list[str]], widths: list[int]) -> list[str]:
    """One row's cells, each as its lines, side by side."""
    return ["  ".join((p[k] if k < len(p) else "").ljust(w) for p, w in zip(parts, widths)).rstrip()
            for k in range(max(len(p) for p in parts))]


def _fitted(cells: list[list[str]], width: int | None, whole, answers, keep_end=()) -> list[int]:
    """The columns' widths within ``width``: the other columns give way first, down to their
    floor; then the answers longer than SHORT_ANSWER, down to ANSWER_FLOOR characters; then
    every answer as needed."""
    headers = cells[0]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    if width is None:
        return widths
    floor, least = _floors(widths, headers, whole, answers, keep_end)
    for i, h in enumerate(headers):  # an answer wraps between its words (its heading's too), never inside one
        if _named(h, answers):
            word = max((len(w) for r in cells for w in r[i].split()), default=0)
            floor[i] = word
            least[i] = (max(word, 4), max(_first_wrap(widths[i], word, True), word), max(word, 4))
    for stage in (0, 1, 2):
        movers = [i for i in range(len(headers)) if _named(headers[i], answers) == (stage > 0)]
        _give_way(widths, width, movers, floor, [limits[stage] for limits in least])
    return widths


def _give_way(widths: list[int], width: int, movers: list[int], floor: list[int], least: list[int]) -> None:
    """While the table is too wide, the widest of ``movers`` (from its floor) gives up a character."""
    while sum(widths) + 2 * (len(widths) - 1) > width:
        movable = [i for i in movers if widths[i] > least[i]]
        if not movable:
            return
        widths[max(movable, key=lambda i: widths[i] - floor[i])] -= 1


def _floors(widths: list[int], headers: list[str], whole, answers, keep_end=()) -> tuple[list[int], list[tuple]]:
    """Each column's floor (its width when whole; a path's, PATH_FLOOR characters, enough for
    its file's name; else its heading's up to 8) and the least width it gives way to at each
    stage."""
    floor = [widths[i] if _named(h, whole) else min(widths[i], PATH_FLOOR) if h in keep_end else min(len(h), 8)
             for i, h in enumerate(headers)]
    return floor, [(max(f, 4), _first_wrap(w, f, _named(h, answers)), max(f, 4))
                   for w, f, h in zip(widths, floor, headers)]


def _first_wrap(width: int, floor: int, answer: bool) -> int:
    """How far a column gives way while the answers wrap: a short answer not at all."""
    if not answer:
        return max(floor, 4)
    return width if width <= SHORT_ANSWER else max(floor, ANSWER_FLOOR)


def _named(heading: str, names) -> bool:
    """Is a column one of ``names``, by its heading or the heading's first part ("margin (ann)",
    "players (mean loss, accuracy)")?"""
    return heading in names or heading.split(" (")[0] in names


def _text(cell) -> str:
    if isinstance(cell, bool):  # a flag reads as a word in a table (CSV and JSON keep true and false)
        return "yes" if cell else "no"
    return "-" if cell is None else str(cell)


class Output:
    """How a command prints: ``mode`` and ``headers``."""

    def __init__(self, mode: str, headers: bool, wide: bool = False):
        self.mode = mode
        self.headers = headers
        self.wide = wide

    @property
    def json(self) -> bool:
        return self.mode == "json"

    @property
    def human(self) -> bool:
        """A table for people: the summary lines and notes go with it (on stdout)."""
        return self.mode == "table"

    def columns(self, shown: list[tuple[str, str]], wide_only: list[tuple[str, str]]) -> list[tuple[str, str]]:
        """A table's columns: ``shown`` at the terminal's width, ``wide_only`` added with
        ``--wide`` (a table as wide as its cells); the other formats carry them all."""
        return shown + (wide_only if self.wide or not self.human else [])

    def rows(self, columns: list[tuple[str, str]], rows: list[dict], document=None) -> None:
        """Print ``rows`` (dicts) by ``columns`` ((key, heading) pairs), or the JSON document."""
        if self.mode == "json":
            emit_json(document if document is not None else rows)
        elif self.mode == "table":
            if rows or self.headers:
                click.echo(table([h for _, h in columns], [[_cell(r.get(k)) for k, _ in columns] for r in rows],
                                 headers_shown=self.headers, width=None if self.wide else terminal_width()))
        else:
            self._lines(columns, rows)

    def _lines(self, columns: list[tuple[str, str]], rows) -> int:
        """``--nl``, ``--csv`` or ``--tsv``: each row as it comes; how many."""
        write = emit_json if self.mode == "nl" else self._csv_writer(columns)
        n = 0
        for n, row in enumerate(rows, 1):
            write(row)
        return n

    def _csv_writer(self, columns: list[tuple[str, str]]):
        writer = csv.writer(sys.stdout, lineterminator="\n", delimiter="," if self.mode == "csv" else "\t")
        if self.headers:
            writer.writerow([k for k, _ in columns])
        return lambda row: writer.writerow(["" if row.get(k) is None else _cell(row.get(k)) for k, _ in columns])

    def stream(self, columns: list[tuple[str, str]], pairs, key: str) -> int:
        """Print (row, document item) pairs as they come, in constant memory: ``rows``'
        formats, the JSON document being ``{key: [item, ...]}``. How many were printed."""
        n = 0
        if self.mode == "json":
            sys.stdout.write(f'{{"{key}": [')
            for n, (_, item) in enumerate(pairs, 1):
                sys.stdout.write((", " if n > 1 else "") + json.dumps(item, ensure_ascii=False))
            sys.stdout.write("]}\n")
        elif self.mode == "table":  # a table is aligned: it waits for its rows (a page of them)
            rows = [row for row, _ in pairs]
            self.rows(columns, rows)
            n = len(rows)
        else:
            n = self._lines(columns, (row for row, _ in pairs))
        sys.stdout.flush()
        return n


def _cell(value):
    if isinstance(value, (list, dict)):
        return safe(json.dumps(value, ensure_ascii=False))
    return safe(value) if isinstance(value, str) else value


def output_options(fn):
    """The output flags of every command that prints rows; the command receives ``out``."""
    @click.option("--table", "mode", flag_value="table", default=True, help="A table (the default).")
    @click.option("--csv", "mode", flag_value="csv", help="Comma-separated values.")
    @click.option("--tsv", "mode", flag_value="tsv", help="Tab-separated values.")
    @click.option("--nl", "mode", flag_value="nl", help="One JSON object a line.")
    @click.option("--json", "mode", flag_value="json", help="One JSON document (the contract's).")
    @click.option("--no-headers", is_flag=True, help="Without the heading row (table, csv, tsv).")
    @click.option("--wide", is_flag=True, help="A table as wide as its cells, nothing cut or wrapped.")
    @functools.wraps(fn)
    def wrapper(*args, mode, no_headers, wide, **kwargs):
        return fn(*args, out=Output(mode or "table", not no_headers, wide), **kwargs)
    return wrapper


def json_option(fn):
    """``--json`` alone, for the commands that print one document rather than rows."""
    @click.option("--json", "as_json", is_flag=True, help="Print one JSON document on stdout.")
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)
    return wrapper
