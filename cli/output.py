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


def emit_json(doc) -> None:
    click.echo(json.dumps(doc, ensure_ascii=False))


def _shorten(text: str, width: int, keep_end: bool) -> str:
    if len(text) <= width:
        return text
    return "…" + text[len(text) - width + 1:] if keep_end else text[:width - 1] + "…"


def _wrap(text: str, width: int) -> list[str]:
    """A cell broken into lines of at most ``width`` characters, at spaces where it can."""
    lines = []
    while len(text) > width:
        cut = text.rfind(" ", 1, width + 1)
        cut = cut if cut > 0 else width
        lines.append(text[:cut].rstrip())
        text = text[cut:].lstrip()
    return lines + [text]


# the columns that carry a command's answer: wrapped onto more lines, never cut
ANSWERS = ("players", "player", "score", "result", "played", "best", "won", "event")
ANSWER_FLOOR = 12


def terminal_width() -> int:
    """The terminal's width (``$COLUMNS`` first), WIDTH when there is no terminal."""
    import shutil
    return shutil.get_terminal_size((WIDTH, 24)).columns


def table(headers: list[str], rows: list[list], *, width: int | None = WIDTH, headers_shown: bool = True,
          keep_end: tuple[str, ...] = ("source",), whole: tuple[str, ...] = ("id", "game", "status"),
          answers: tuple[str, ...] = ANSWERS) -> str:
    """Rows as aligned text within ``width`` columns (None: as wide as the cells). While too
    wide, the widest column gives up a character: its cells shortened with an ellipsis
    (columns named in ``keep_end`` keep the end of their text, as a path's file name), or, for
    the columns in ``answers``, wrapped onto more lines, so the answer is never cut; those in
    ``whole`` keep their width."""
    cells = [[str(h) for h in headers]] + [["-" if c is None else str(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    floor = [widths[i] if h in whole else min(len(h), 8) for i, h in enumerate(headers)]
    # the other columns give way first; the answer's keep at least ANSWER_FLOOR characters
    for stage in (0, 1, 2):  # the others to their floor, the answer's to ANSWER_FLOOR, then as needed
        while width is not None and sum(widths) + 2 * (len(widths) - 1) > width:
            movable = [i for i, h in enumerate(headers) if (h in answers) == (stage > 0)
                       and widths[i] > max(floor[i], ANSWER_FLOOR if h in answers and stage == 1 else 4)]
            if not movable:
                break
            widest = max(movable, key=lambda i: widths[i] - floor[i])
            widths[widest] -= 1
    lines = []
    for n, r in enumerate(cells if headers_shown else cells[1:]):
        parts = [_wrap(c, w) if headers[i] in answers and headers[i] not in keep_end else
                 [_shorten(c, w, headers[i] in keep_end)] for i, (c, w) in enumerate(zip(r, widths))]
        for k in range(max(len(p) for p in parts)):
            lines.append("  ".join((p[k] if k < len(p) else "").ljust(w) for p, w in zip(parts, widths)).rstrip())
        if headers_shown and n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


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

    def rows(self, columns: list[tuple[str, str]], rows: list[dict], document=None) -> None:
        """Print ``rows`` (dicts) by ``columns`` ((key, heading) pairs), or the JSON document."""
        if self.mode == "json":
            emit_json(document if document is not None else rows)
        elif self.mode == "nl":
            for r in rows:
                emit_json(r)
        elif self.mode in ("csv", "tsv"):
            writer = csv.writer(sys.stdout, lineterminator="\n", delimiter="," if self.mode == "csv" else "\t")
            if self.headers:
                writer.writerow([k for k, _ in columns])
            writer.writerows([["" if r.get(k) is None else _cell(r.get(k)) for k, _ in columns] for r in rows])
        elif rows or self.headers:
            click.echo(table([h for _, h in columns], [[_cell(r.get(k)) for k, _ in columns] for r in rows],
                             headers_shown=self.headers, width=None if self.wide else terminal_width()))


    def stream(self, columns: list[tuple[str, str]], pairs, key: str) -> int:
        """Print (row, document item) pairs as they come, in constant memory: ``rows``'
        formats, the JSON document being ``{key: [item, ...]}``. How many were printed."""
        n = 0
        if self.mode == "json":
            sys.stdout.write(f'{{"{key}": [')
            for n, (_, item) in enumerate(pairs, 1):
                sys.stdout.write((", " if n > 1 else "") + json.dumps(item, ensure_ascii=False))
            sys.stdout.write("]}\n")
        elif self.mode in ("nl", "csv", "tsv"):
            writer = csv.writer(sys.stdout, lineterminator="\n", delimiter="," if self.mode == "csv" else "\t")
            if self.mode != "nl" and self.headers:
                writer.writerow([k for k, _ in columns])
            for n, (row, _) in enumerate(pairs, 1):
                if self.mode == "nl":
                    emit_json(row)
                else:
                    writer.writerow(["" if row.get(k) is None else _cell(row.get(k)) for k, _ in columns])
        else:
            rows = [row for row, _ in pairs]
            self.rows(columns, rows)
            n = len(rows)
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
