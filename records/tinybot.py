"""TinyBot's one-line game records (spec: shared/specs/tiny-islands-tinybot-format.md).

A line is 55 game tokens, 9 or 10 integers (the breakdown, then optionally the number of
random opening placements) and an optional ``#label``. Read into and written from the same
``TinyIslandsRecord`` as Scorebook notation; visit lists are kept verbatim.

>>> rec = parse_line(" ".join(["hiw6", "hi3"] * 9 + ["a1"] + ["hiw6", "hi3"] * 9 + ["b1"]
...                            + ["hiw6", "hi3"] * 8 + ["c1"]), 1)
>>> len(rec.offers), len(rec.drawings), rec.recorded is None
(26, 3, True)
"""
from __future__ import annotations

import dataclasses

import re

import numpy as np

from scorebook.engines.tiny_islands import engine as E
from scorebook.engines.tiny_islands.metadata import (CATEGORIES, DRAWING_AFTER_TURN, TILE_INDEX, TURNS,
                                           TILE_LETTERS, ZONE_INDEX, ZONE_LETTERS, cell_name)

from scorebook.errors import ErrorPolicy, ParseError, RecordRejected, UsageError
from .limits import MAX_DIGITS, MAX_LINE_CHARS, MAX_TAG_CHARS, MAX_TOKEN_CHARS, small_int, too_large
from .notation import Format, Item
from .tiny_islands import (GAME, Drawing, Offer, Placement, TinyIslandsRecord, TinyIslandsReplay,
                           ply_of_drawing, ply_of_turn, replayed)

GAME_TOKENS = 55
_TOKEN_RE = re.compile(r"\S+")
_INT_RE = re.compile(r"-?[0-9]+")
_VISITS = r"(?:[0-9]++:[0-9]++,)*+"  # ASCII digits only; possessive: twice as fast, same language
_PLACE_RE = re.compile(rf"(?:\{{({_VISITS})\}})?([fhswMCB])([a-i][1-9])")
_OFFER_RE = re.compile(r"([fhswMCB])([1-9a-iQWEASDZXC])([fhswMCB])([1-9a-iQWEASDZXC])")
_DRAWING_RE = re.compile(rf"(?:\{{{_VISITS}\}}|[a-i][1-9])+")
_DRAWING_PART_RE = re.compile(rf"(\{{{_VISITS}\}})|([a-i][1-9])")
CELL_INDEX = {cell_name(z): z for z in range(81)}

# The whole grammar of a well-formed line with single spaces, checked by one regular expression
# (the token-by-token path below only runs for lines it refuses, to say where and why).
_O = r"[fhswMCB][1-9a-iQWEASDZXC][fhswMCB][1-9a-iQWEASDZXC]"
_D = rf"\{{{_VISITS}\}}"
_P = rf"(?:{_D})?[fhswMCB][a-i][1-9]"
_DR = rf"(?:(?:{_D})?[a-i][1-9])+(?:{_D})?"
_LINE_RE = re.compile(rf"(?:{_O} {_P} ){{9}}{_DR} (?:{_O} {_P} ){{9}}{_DR} (?:{_O} {_P} ){{8}}{_DR}"
                      r"((?: -?[0-9]{1,9}){9,10})?(?: #(.*))?")

# Token position -> ("offer"|"placement"|"drawing", turn or drawing index), spec §3.
LAYOUT: list[tuple[str, int]] = []
for _turn in range(26):
    _d = sum(1 for d in DRAWING_AFTER_TURN if d <= _turn)
    LAYOUT.append(("offer", _turn))
    LAYOUT.append(("placement", _turn))
    if _turn + 1 in DRAWING_AFTER_TURN:
        LAYOUT.append(("drawing", DRAWING_AFTER_TURN.index(_turn + 1)))
assert len(LAYOUT) == GAME_TOKENS
_OFFER_AT = [i for i, (kind, _) in enumerate(LAYOUT) if kind == "offer"]
_PLACEMENT_AT = [i for i, (kind, _) in enumerate(LAYOUT) if kind == "placement"]
_DRAWING_AT = [i for i, (kind, _) in enumerate(LAYOUT) if kind == "drawing"]


def _dist(text: str | None) -> str | None:
    """'{1:2,3:4,}' content '1:2,3:4,' -> '1:2,3:4' (None stays None)."""
    return None if text is None else text[:-1] if text.endswith(",") else text


def _undist(visits: str | None) -> str:
    if visits is None:
        return ""
    return "{" + "".join(e + "," for e in visits.split(",") if e) + "}"


def _parse_drawing(text: str) -> tuple[list[int], list[str | None]] | None:
    if not _DRAWING_RE.fullmatch(text):
        return None
    cells: list[int] = []
    visits: list[str | None] = []
    pending = None
    for dist, cell in _DRAWING_PART_RE.findall(text):
        if cell:
            cells.append(CELL_INDEX[cell])
            visits.append(pending)
            pending = None
        elif pending is not None:
            return None  # two visit lists in a row
        else:
            pending = dist[1:-2] if len(dist) > 2 else ""
    visits.append(pending)
    return cells, visits


_ENTRY_RE = re.compile(r"[0-9]{1,9}:[0-9]{1,9}")
_CELLS_RE = re.compile(r"(?:[a-i][1-9])+")


def _bad_part(text: str, column: int, kind: str) -> tuple[str, int]:
    """The first wrong part of a placement or drawing token, and its column: a visit list
    left open, an entry of one that is not ``move:visits``, or what stands beside the lists
    (a placement's tile and cell, a drawing's cells)."""
    i = 0
    while i < len(text):
        if text[i] == "{":
            end = text.find("}", i)
            if end < 0:
                return text[i:], column + i
            for piece in re.finditer(r"[^,]*,|[^,]+$", text[i + 1:end]):  # "move:visits," each
                entry = piece.group().rstrip(",")
                if not piece.group().endswith(",") or not _ENTRY_RE.fullmatch(entry):
                    return entry or ",", column + i + 1 + piece.start()
            i = end + 1
            continue
        nxt = text.find("{", i)
        run = text[i:nxt if nxt >= 0 else len(text)]
        good = _PLACEMENT_TAIL_RE.fullmatch(run) and nxt < 0 if kind == "placement" else _CELLS_RE.fullmatch(run)
        if not good:
            return run, column + i
        i += len(run)
    return text, column


_PLACEMENT_TAIL_RE = re.compile(r"[fhswMCB][a-i][1-9]")


def _columns(line: str) -> list[tuple[str, int]]:
    return [(m.group(0), m.start() + 1) for m in _TOKEN_RE.finditer(line)]


class _Positions:
    """Token positions of a TinyBot line, worked out only when an error needs one."""
    __slots__ = ("line_no", "line")

    def __init__(self, line_no: int, line: str):
        self.line_no = line_no
        self.line = line

    def get(self, key, default=None):
        try:
            text, col = _columns(self.line)[LAYOUT.index(key)]
        except (ValueError, IndexError):
            return default
        return (self.line_no, col, text)


_CELL_SPLIT_RE = re.compile(r"([a-i][1-9])")  # visit lists hold only digits, ':' and ','


def _drawing_of(text: str) -> Drawing:
    """A drawing token already checked by _LINE_RE: cells, each after an optional visit list.
    Split at the cells, the pieces alternate: list before cell 1, cell 1, list before cell 2, ..."""
    parts = _CELL_SPLIT_RE.split(text)
    cells = [CELL_INDEX[c] for c in parts[1::2]]
    lists = parts[0::2]
    if not any(lists):
        return Drawing(trace=cells)
    return Drawing(trace=cells, visits=[(d[1:-2] if len(d) > 2 else "") if d else None for d in lists])


_OFFERS: dict[str, Offer] = {}  # offers are immutable: one object per token text


def _offer(w: str) -> Offer:
    offer = _OFFERS.get(w)
    if offer is None:
        offer = _OFFERS[w] = Offer(TILE_INDEX[w[0]], ZONE_INDEX[w[1]], TILE_INDEX[w[2]], ZONE_INDEX[w[3]])
    return offer


def _parse_checked(line: str, line_no: int, ints: str | None, label: str | None) -> TinyIslandsRecord:
    """The fast path: a line _LINE_RE accepted is read by position, with no further checks."""
    words = line.split(" ", GAME_TOKENS)[:GAME_TOKENS]
    ti, ci = TILE_INDEX, CELL_INDEX
    offers = [_OFFERS.get(w) or _offer(w) for w in [words[i] for i in _OFFER_AT]]
    # "{1:2,3:4,}hc8": the list without its braces and last comma is w[1:-5] ("" for "{}hc8")
    placements = [Placement(ti[w[-3]], ci[w[-2:]], w[1:-5] if w[0] == "{" else None)
                  for w in [words[i] for i in _PLACEMENT_AT]]
    drawings = [_drawing_of(words[i]) for i in _DRAWING_AT]
    recorded = random_placements = score_pos = None
    if label and len(label) > MAX_TAG_CHARS:
        raise too_large("the label", MAX_TAG_CHARS, line_no, line.index(" #") + 3)
    if ints:
        nums = [int(v) for v in ints.split()]
        recorded = dict(zip(CATEGORIES, nums[:9]))
        if sum(nums[1:8]) - nums[0] != nums[8]:  # as the PGN reader checks a Breakdown: both read alike
            text, col = _columns(line)[GAME_TOKENS + 8]
            raise ParseError("bad-score-fields", "the total is not the sum of the categories less the penalties",
                             line=line_no, column=col, token=text)
        if len(nums) == 10:
            if nums[9] < 0:
                return _parse_tokens(line, line_no)  # to say where
            random_placements = nums[9]
        score_pos = (line_no, len(" ".join(words)) + 2, " ".join(ints.split()[:9]))
    return TinyIslandsRecord(
        offers=offers, placements=placements, drawings=drawings, tags={}, rules="tinybot",
        recorded=recorded, label=(label or "").rstrip() or None, random_placements=random_placements,
        positions=_Positions(line_no, line), score_position=score_pos)


def parse_line(line: str, line_no: int = 1) -> TinyIslandsRecord:
    """Read one TinyBot line; raises ParseError with line, column, ply and token."""
    line = line.rstrip("\r\n")
    if len(line) > MAX_LINE_CHARS:
        raise too_large("the line", MAX_LINE_CHARS, line_no, 1)
    m = _LINE_RE.fullmatch(line)
    if m:
        return _parse_checked(line, line_no, m.group(1), m.group(2))
    return _parse_tokens(line, line_no)


def _parse_tokens(line: str, line_no: int) -> TinyIslandsRecord:
    """Token by token, for any spacing, and naming the first bad token."""
    words, label, hash_at = _words_and_label(line, line_no)
    ints = _score_words(line, line_no, words, hash_at if label is not None else None)
    positions = _Positions(line_no, line)
    offers: list[Offer] = []
    placements: list[Placement] = []
    drawings: list[Drawing] = []
    for text, (kind, index) in zip(words, LAYOUT):
        read = _game_token(text, kind, index, positions, line_no)
        (offers if kind == "offer" else placements if kind == "placement" else drawings).append(read)
    recorded, random_placements, score_pos = _score_fields(line, line_no, words, ints)
    return TinyIslandsRecord(
        offers=offers, placements=placements, drawings=drawings, tags={}, rules="tinybot",
        recorded=recorded, label=label, random_placements=random_placements,
        positions=positions, score_position=score_pos)


def _words_and_label(line: str, line_no: int) -> tuple[list[str], str | None, int]:
    """The words before the label (``# ...``), the label, and where its ``#`` is."""
    label = None
    hash_at = line.find("#")
    if hash_at >= 0 and (hash_at == 0 or line[hash_at - 1].isspace()):
        label = line[hash_at + 1:].rstrip() or None
        words = line[:hash_at].split()
    else:
        words = line.split()
    if not words:
        raise ParseError("empty-record", "the line holds no game tokens", line=line_no, column=1)
    if label and len(label) > MAX_TAG_CHARS:
        raise too_large("the label", MAX_TAG_CHARS, line_no, hash_at + 2)
    long = next((w for w in words if len(w) > MAX_TOKEN_CHARS), None)
    if long is not None:
        raise too_large("a token", MAX_TOKEN_CHARS, line_no, line.index(long) + 1, long)
    return words, label, hash_at


def _score_words(line: str, line_no: int, words: list[str], hash_at: int | None) -> list[tuple[str, int]]:
    """The integers after the game tokens (none, 9 or 10), once the game tokens are counted."""
    n_ints = 0
    while n_ints < len(words) and _INT_RE.fullmatch(words[-1 - n_ints]):
        n_ints += 1
    if len(words) - n_ints == GAME_TOKENS and n_ints in (0, 9, 10):
        return [(w, 0) for w in words[GAME_TOKENS:]]
    # the slow path, with columns, for the error report
    tokens = _columns(line[:hash_at] if hash_at is not None else line)
    ints = tokens[len(tokens) - n_ints:]
    tokens = tokens[:len(tokens) - n_ints]
    if len(tokens) != GAME_TOKENS:
        where = tokens[min(len(tokens), GAME_TOKENS) - 1] if tokens else ("", 1)
        raise ParseError("wrong-token-count", f"expected {GAME_TOKENS} game tokens, found {len(tokens)}",
                         line=line_no, column=where[1] if len(tokens) > GAME_TOKENS else 1,
                         token=where[0] if len(tokens) > GAME_TOKENS else None)
    if len(ints) in (0, 9, 10):  # counted apart from a label's "#" the words held: the count fits
        return ints
    raise ParseError("bad-score-fields", f"expected 9 or 10 integers after the game tokens, found {len(ints)}",
                     line=line_no, column=ints[0][1], token=ints[0][0])


def _game_token(text: str, kind: str, index: int, positions: "_Positions", line_no: int):
    """One game token as the layout places it: an offer, a placement or a drawing."""
    if kind == "offer":
        if not _OFFER_RE.fullmatch(text):
            raise ParseError("bad-token", "expected an offer: tile letter (f h s w M C B), zone (1-9, a-i, "
                             "QWEASDZXC), twice", line=line_no, column=positions.get((kind, index))[1],
                             ply=ply_of_turn(index), token=text)
        return Offer(TILE_INDEX[text[0]], ZONE_INDEX[text[1]], TILE_INDEX[text[2]], ZONE_INDEX[text[3]])
    if kind == "placement":
        m = _PLACE_RE.fullmatch(text)
        if not m:
            part, col = _bad_part(text, positions.get((kind, index))[1], kind)
            raise ParseError("bad-token", "expected a placement: [visit list {move:visits,...}] tile letter, cell",
                             line=line_no, column=col, ply=ply_of_turn(index), token=part)
        return Placement(TILE_INDEX[text[-3]], CELL_INDEX[text[-2:]], _dist(m.group(1)))
    parsed = _parse_drawing(text)
    if parsed is None:
        part, col = _bad_part(text, positions.get((kind, index))[1], kind)
        raise ParseError("bad-token", "expected a drawing: cells such as e5, each optionally after a "
                         "visit list {move:visits,...}", line=line_no, column=col, ply=ply_of_drawing(index), token=part)
    cells, visits = parsed
    return Drawing(trace=cells, visits=None if visits.count(None) == len(visits) else visits)


def _score_fields(line: str, line_no: int, words: list[str], ints: list[tuple[str, int]]):
    """(the breakdown stated, the random placements, where the score stands) of the integers."""
    if not ints:
        return None, None, None
    nums = [small_int(t) for t, _ in ints]
    bad = next((k for k, v in enumerate(nums) if v is None or (k == 9 and v < 0)), None)
    if bad is not None:
        text, col = _columns(line)[GAME_TOKENS + bad]
        raise ParseError("bad-score-fields", "the random placements are a count (0 or more)" if bad == 9 else
                         f"a score is a number of at most {MAX_DIGITS} digits", line=line_no, column=col,
                         token=text[:40])
    if sum(nums[1:8]) - nums[0] != nums[8]:  # as the PGN reader checks a Breakdown: both read alike
        text, col = _columns(line)[GAME_TOKENS + 8]
        raise ParseError("bad-score-fields", "the total is not the sum of the categories less the penalties",
                         line=line_no, column=col, token=text)
    return (dict(zip(CATEGORIES, nums[:9])), nums[9] if len(nums) == 10 else None,
            (line_no, len(" ".join(words[:GAME_TOKENS])) + 2, " ".join(t for t, _ in ints[:9])))


def write_line(record: TinyIslandsRecord, result: TinyIslandsReplay | None = None) -> str:
    """One TinyBot line, with the record's stated breakdown (or the replayed one, when the
    record states only its total), or no score when it states none."""
    if len(record.placements) != TURNS or len(record.drawings) != len(DRAWING_AFTER_TURN):
        raise UsageError("the TinyBot format holds finished games only")
    if result is None and (record.recorded is None or any(d.trace is None for d in record.drawings)):
        result = replayed(record)
    out = [_entry(record, kind, index, result) for kind, index in LAYOUT]
    score = _line_score(record, result)
    if score is not None:
        out.extend(str(score[k]) for k in CATEGORIES)
        if record.random_placements is not None:
            out.append(str(record.random_placements))
    if record.label is not None:
        out.append("#" + record.label)
    return " ".join(out)


def _entry(record: TinyIslandsRecord, kind: str, index: int, result: TinyIslandsReplay | None) -> str:
    """One word of the line: an offer, a placement, or a drawing."""
    if kind == "offer":
        o = record.offers[index]
        return TILE_LETTERS[o.tile1] + ZONE_LETTERS[o.zone1] + TILE_LETTERS[o.tile2] + ZONE_LETTERS[o.zone2]
    if kind == "placement":
        p = record.placements[index]
        return _undist(p.visits) + TILE_LETTERS[p.tile] + cell_name(p.cell)
    d = record.drawings[index]
    cells = d.trace if d.trace is not None else _direct_order(d.region, result, index)
    visits = d.visits or [None] * (len(cells) + 1)
    return "".join(_undist(v) + cell_name(c) for v, c in zip(visits, cells)) + _undist(visits[-1])


def _line_score(record: TinyIslandsRecord, result: TinyIslandsReplay | None) -> dict | None:
    """The score a line states: the record's stated breakdown; a record that states only its
    total gets the replayed one (equal, or it would not have been stored); one that states no
    score, none. A line is read under TinyBot's rules: its score too."""
    if not record.recorded:
        return None
    if record.rules != "tinybot":
        return replayed(dataclasses.replace(record, rules="tinybot")).score
    return record.recorded if len(record.recorded) == len(CATEGORIES) else (result or replayed(record)).score


def _direct_order(region: list[int], result: TinyIslandsReplay, index: int) -> list[int]:
    """Cells in an order TinyBot reads as a direct drawing: a legal region either holds land
    (start on it) or has no land near any of its cells (any order reads directly)."""
    land = np.zeros(result.land.shape, np.bool_)
    for d in range(index):
        land ^= result.regions[d]
    cells = list(region)
    if not E.is_indirect_start(land, cells[0]):
        return cells
    first_land = next(c for c in cells if land[c])
    return [first_land] + [c for c in cells if c != first_land]


class TinybotFormat(Format):
    """TinyBot's lines as a format of Tiny Islands: one record a line (large files are read in
    parallel batches by ingest)."""
    name = "tinybot"
    one_record_a_line = True

    def read(self, text: str, policy: ErrorPolicy) -> list[Item]:
        return self.read_lines(text.split("\n"), 1, policy)

    def read_lines(self, lines: list[str], first: int, policy: ErrorPolicy) -> list[Item]:
        """One item per non-blank line; ``first`` is the file line number of ``lines[0]``. (The
        stated breakdown is checked against the replay later, under ``policy``.)"""
        items = []
        for n, line in enumerate(lines, start=first):
            if not line.strip():
                continue
            try:
                items.append(Item(n, self.name, GAME, record=parse_line(line, n), line=n))
            except RecordRejected as err:
                items.append(Item(n, self.name, GAME, error=err, line=n))
        return items

    def write(self, record: TinyIslandsRecord) -> tuple[str, list[str]]:
        return write_line(record) + "\n", dropped(record)


def dropped(record: TinyIslandsRecord) -> list[str]:
    """What of a record a TinyBot line cannot carry (read back, the line is TinyBot's game
    under TinyBot's rules, with no tags and no comments, stating a whole breakdown or none)."""
    out = [f"tag {k}" for k in record.tags]  # the player too: a line names no one
    if record.recorded and len(record.recorded) != len(CATEGORIES):
        out.append("the stated total alone (a TinyBot line states the whole breakdown: the replayed one)")
    if record.rules != "tinybot":
        out.append(f"rules {record.rules} (a TinyBot line is replayed and scored under the tinybot rules)")
    if record.preamble or any(p.note for p in record.placements) or any(d.note for d in record.drawings):
        out.append("comments")
    return out


FORMAT = TinybotFormat()
