"""Tiny Islands records: the model, Scorebook's notation for it, and replay through the engine.

Scorebook notation (the shared PGN-style container, ``Game "tiny-islands"``)::

    [Game "tiny-islands"]
    [Rules "published"]
    [Deck "two-deck"]
    [Breakdown "0 2 24 9 4 10 15 7 71"]
    [Result "71"]

    1. hi+w6 hi3 {[%visits 224:4096,179:2192]}
    ...
    9. sh+f4 fg4
    (i1 h1 h2 g2 f2 h3 i3 g3)
    10. ...

* a turn is ``N. OFFER PLACEMENT``: the offer ``hi+w6`` is (House, column i) or (Wave,
  row 6), each pair a tile letter then a zone letter (spec §1); the placement ``hi3`` is
  the tile letter then the cell;
* after turns 9, 18 and 26 the drawing is the set of cells it encloses, in parentheses;
  ``{[%trace c3 d4]}`` keeps TinyBot's traced cells when they differ (a surrounding drawing);
* ``{[%visits ...]}`` keeps a bot's visit list: entries ``move:visits``; on a drawing one
  segment per traced step plus the final pass, separated by ``|``, ``-`` for none;
* ``Breakdown`` is penalties, forests, houses, sand, waves, mountains, churches, boats, total;
  ``Result`` and the last token are the total, or ``*`` for an unfinished game.

>>> rec = parse_pgn(EXAMPLE)[0]
>>> len(rec.placements), rec.rules
(2, 'published')
>>> write_pgn(rec) == EXAMPLE
True
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import chain
from operator import attrgetter
from typing import Literal

import numpy as np
from pydantic import TypeAdapter

from scorebook.engines.tiny_islands import engine as E
from scorebook.engines.tiny_islands.deck import one_deck_consistent
from scorebook.engines.tiny_islands.metadata import (CATEGORIES, CELLS, DRAWING_AFTER_TURN, RULE_SETS,
                                           TILE_INDEX, TILE_LETTERS, TURNS, ZONE_INDEX,
                                           ZONE_LETTERS, cell_name, parse_cell)

from . import pgn
from .errors import IllegalMove, ParseError, ScoreMismatch

GAME = "tiny-islands"
_T = "fhswMCB"
_Z = "1-9a-iQWEASDZXC"
OFFER_RE = re.compile(rf"^([{_T}])([{_Z}])\+([{_T}])([{_Z}])$")
PLACEMENT_RE = re.compile(rf"^([{_T}])([a-i][1-9])$")
CELL_RE = re.compile(r"^[a-i][1-9]$")
MOVE_NUMBER_RE = re.compile(r"^(\d+)\.$")
VISITS_RE = re.compile(r"^(\d+:\d+(,\d+:\d+)*)?$")
# the text of every (tile, zone) pair and every placement, made once
_PAIR_TEXT = [[tile + zone for zone in ZONE_LETTERS] for tile in TILE_LETTERS]
CELL_NAMES = [cell_name(z) for z in range(CELLS)]
_PLACEMENT_TEXT = [[tile + name for name in CELL_NAMES] for tile in TILE_LETTERS]


@dataclass(frozen=True, slots=True)
class Offer:
    """Two (tile, zone) pairs; tiles are channels 1-7, zones indexes into ZONE_LETTERS."""
    tile1: int
    zone1: int
    tile2: int
    zone2: int

    def text(self) -> str:
        return _PAIR_TEXT[self.tile1][self.zone1] + "+" + _PAIR_TEXT[self.tile2][self.zone2]


@dataclass(slots=True)
class Placement:
    tile: int  # channel 1-7
    cell: int  # 0-80
    visits: str | None = None  # "move:visits,..." as the bot wrote it
    note: str | None = None

    def text(self) -> str:
        return _PLACEMENT_TEXT[self.tile][self.cell]


@dataclass(slots=True)
class Drawing:
    """A shoreline. ``trace``: TinyBot's traced cells (the first may start a surrounding
    drawing). ``region``: the enclosed cells when written out in Scorebook notation."""
    trace: list[int] | None = None
    region: list[int] | None = None
    visits: list[str | None] | None = None  # one per traced step, plus the final pass
    note: str | None = None


@dataclass(slots=True)
class TinyIslandsRecord:
    """One game. Build it through ``validate_record`` (pydantic) from untrusted data; the
    parsers build it directly after checking every token themselves."""
    offers: list[Offer]
    placements: list[Placement]
    drawings: list[Drawing] = field(default_factory=list)
    tags: dict[str, str] = field(default_factory=dict)
    rules: Literal["published", "tinybot"] = "published"
    deck: Literal["two-deck", "one-deck"] | None = None  # None: inferred from the offers
    recorded: dict[str, int] | None = None
    label: str | None = None
    random_placements: int | None = None
    finished: bool = True
    preamble: str | None = None
    game: Literal["tiny-islands"] = "tiny-islands"
    # where each token stood, for error reports: (kind, index) -> (line, column, token)
    positions: dict = field(default_factory=dict, repr=False, compare=False)
    score_position: tuple | None = field(default=None, repr=False, compare=False)

    @property
    def players(self) -> list[str]:
        return [self.tags["Player"]] if self.tags.get("Player") else []


RECORD_ADAPTER = TypeAdapter(TinyIslandsRecord)


def validate_record(data: dict) -> TinyIslandsRecord:
    """A record from plain data (e.g. JSON), type-checked by pydantic.

    >>> validate_record({"offers": [{"tile1": 1, "zone1": 0, "tile2": 2, "zone2": 9}],
    ...                  "placements": [{"tile": 1, "cell": 72}], "finished": False}).placements[0].text()
    'fa1'
    """
    return RECORD_ADAPTER.validate_python(data)


EXAMPLE = """[Game "tiny-islands"]
[Rules "published"]
[Deck "two-deck"]
[Result "*"]

1. hi+w6 hi3 {[%visits 224:4096,179:2192]}
2. fh+hQ hc8
*
"""


# ---------------------------------------------------------------- replay

_PLY_OF_TURN = [t + 1 + sum(1 for d in DRAWING_AFTER_TURN if d <= t) for t in range(TURNS + 1)]


def ply_of_turn(turn: int) -> int:
    """1-based ply of the placement of 0-based turn ``turn`` (drawings are plies too)."""
    return _PLY_OF_TURN[turn]


def ply_of_drawing(d: int) -> int:
    return DRAWING_AFTER_TURN[d] + d + 1


@dataclass
class TinyIslandsReplay:
    breakdown: np.ndarray  # int64[9]
    tiles: np.ndarray
    land: np.ndarray
    regions: np.ndarray  # bool[3, 81]
    indirect: np.ndarray
    deck: str

    @property
    def score(self) -> dict[str, int]:
        return {k: int(v) for k, v in zip(CATEGORIES, self.breakdown)}


_OFFER_FIELDS = attrgetter("tile1", "zone1", "tile2", "zone2")
_PLACEMENT_FIELDS = attrgetter("tile", "cell")


def _arrays(record: TinyIslandsRecord):
    """Engine arrays; out-of-range values are refused here (the jitted code does not check)."""
    n = len(record.placements)
    offers = np.fromiter(chain.from_iterable(map(_OFFER_FIELDS, record.offers)), np.int64,
                         4 * len(record.offers)).reshape(-1, 4)
    placements = np.fromiter(chain.from_iterable(map(_PLACEMENT_FIELDS, record.placements)), np.int64,
                             2 * n).reshape(-1, 2)
    traces = np.zeros((3, CELLS), np.int64)
    lens = np.zeros(3, np.int64)
    as_region = np.zeros(3, np.bool_)
    for d, dr in enumerate(record.drawings[:3]):
        cells = dr.trace if dr.trace is not None else dr.region
        if not cells or len(cells) > CELLS:
            raise ParseError("drawing-empty" if not cells else "drawing-repeated-cell",
                             "a drawing lists 1 to 81 cells", ply=ply_of_drawing(d))
        as_region[d] = dr.trace is None
        traces[d, :len(cells)] = cells
        lens[d] = len(cells)
    if not E.values_in_range(offers, placements, traces, len(ZONE_LETTERS)):
        raise ParseError("bad-token", "a tile, zone or cell number is out of range")
    return offers, placements, traces, lens, as_region, n


def resolve_deck(record: TinyIslandsRecord, offers: np.ndarray | None = None) -> str:
    """The stated deck model, checked; or the one the offers fit when none is stated."""
    ok, bad_turn = one_deck_consistent(_arrays(record)[0] if offers is None else offers)
    if record.deck is None:
        return "one-deck" if ok and len(record.offers) == TURNS else "two-deck"
    if record.deck == "one-deck" and not ok:
        line, col, tok = record.positions.get(("offer", bad_turn), (None, None, None))
        raise IllegalMove("deck-mismatch", "these offers cannot come from the real one-deck card "
                          "pattern (a tile's back must be the next turn's zone in the same slot)",
                          line=line, column=col, ply=ply_of_turn(bad_turn), token=tok)
    return record.deck


def replay(record: TinyIslandsRecord) -> TinyIslandsReplay:
    """Replay every action through the jitted engine; raises IllegalMove with its position."""
    _check_shape(record)
    offers, placements, traces, lens, as_region, n = _arrays(record)
    deck = resolve_deck(record, offers)
    code, action, at, tiles, land, regions, indirect, breakdown = E.replay(
        offers, placements, traces, lens, as_region, n, RULE_SETS.index(record.rules))
    if code != E.OK:
        _raise_at(record, code, action, at)
    for d, dr in enumerate(record.drawings):
        if dr.trace is not None and dr.region is not None:
            if set(dr.region) != set(np.flatnonzero(regions[d]).tolist()):
                line, col, tok = record.positions.get(("drawing", d), (None, None, None))
                raise IllegalMove("drawing-trace-mismatch", "the written region differs from the "
                                  "region its %trace encloses", line=line, column=col,
                                  ply=ply_of_drawing(d), token=tok)
    return TinyIslandsReplay(breakdown, tiles, land, regions, indirect, deck)


def _check_shape(record: TinyIslandsRecord) -> None:
    n = len(record.placements)
    if len(record.offers) != n:
        raise ParseError("missing-placement", "every offer needs its placement", ply=ply_of_turn(n))
    due = sum(1 for d in DRAWING_AFTER_TURN if d <= n)
    if len(record.drawings) != due or n > TURNS:
        raise ParseError("missing-drawing", f"after {n} turns the record needs {due} drawings, "
                         f"it has {len(record.drawings)}")
    if record.finished and n != TURNS:
        raise ParseError("unfinished-game", f"a finished game has {TURNS} turns, this one {n} "
                         "(write the result as * for an unfinished game)")


def _raise_at(record: TinyIslandsRecord, code: int, action: int, at: int):
    # map the engine's action index back to turn or drawing number
    turn, drawing, i = 0, 0, 0
    while i < action:
        turn += 1
        i += 1
        if drawing < len(DRAWING_AFTER_TURN) and turn == DRAWING_AFTER_TURN[drawing] and i < action:
            drawing += 1
            i += 1
    if at == E.AT_DRAWING:
        key, ply = ("drawing", drawing), ply_of_drawing(drawing)
    else:
        key, ply = ("offer" if at == E.AT_OFFER else "placement", turn), ply_of_turn(turn)
    line, col, tok = record.positions.get(key, (None, None, None))
    raise IllegalMove(E.CODE_NAMES[code], E.CODE_MESSAGES[code], line=line, column=col, ply=ply, token=tok)


def score_mismatch(record: TinyIslandsRecord, result: TinyIslandsReplay) -> ScoreMismatch | None:
    """The error to report when the stated score differs from the replay, else None."""
    if not record.recorded:
        return None
    computed = result.score
    diffs = [f"{k} {v} (replay {computed[k]})" for k, v in record.recorded.items() if computed.get(k) != v]
    if not diffs:
        return None
    line, col, tok = record.score_position or (None, None, None)
    return ScoreMismatch("score-mismatch", "stated score differs from the replay: " + ", ".join(diffs),
                         line=line, column=col, token=tok)


def states(record: TinyIslandsRecord):
    """Yield (ply, move text, tiles, land) after each action, for boards and ``show``."""
    tiles = np.zeros(CELLS, np.int64)
    land = np.zeros(CELLS, np.bool_)
    result = replay(record)
    d = 0
    for t, p in enumerate(record.placements):
        tiles = tiles.copy()
        tiles[p.cell] = p.tile
        yield ply_of_turn(t), f"{t + 1}. {record.offers[t].text()} {p.text()}", tiles, land
        if d < len(record.drawings) and t + 1 == DRAWING_AFTER_TURN[d]:
            land = land ^ result.regions[d]
            cells = " ".join(cell_name(z) for z in np.flatnonzero(result.regions[d]))
            yield ply_of_drawing(d), f"({cells})", tiles, land
            d += 1


# ---------------------------------------------------------------- notation

def _visits_ok(text: str) -> bool:
    return all(seg == "-" or VISITS_RE.match(seg) for seg in text.split("|"))


def parse_pgn(text: str) -> list[TinyIslandsRecord]:
    return [parse_game(g) for g in pgn.split_games(text)]


def parse_game(game: pgn.PgnGame) -> TinyIslandsRecord:
    """Read one game of the container as a Tiny Islands record (grammar in the module doc)."""
    tags = dict(game.tags)
    positions: dict = {}
    name = tags.pop("Game", GAME)
    if name != GAME:
        t = game.tag_tokens["Game"]
        raise ParseError("bad-tag", f"Game is {name!r}, expected {GAME!r}", line=t.line, column=t.column, token=name)

    def tag_error(key, message):
        t = game.tag_tokens[key]
        return ParseError("bad-tag", message, line=t.line, column=t.column, token=t.text)

    rules = tags.pop("Rules", "published")
    if rules not in RULE_SETS:
        raise tag_error("Rules", f"Rules must be one of {', '.join(RULE_SETS)}")
    deck = tags.pop("Deck", None)
    if deck is not None and deck not in ("two-deck", "one-deck"):
        raise tag_error("Deck", "Deck must be two-deck or one-deck")
    label = tags.pop("Label", None)
    random_placements = None
    if "RandomPlacements" in tags:
        value = tags.pop("RandomPlacements")
        if not value.isdigit():
            raise tag_error("RandomPlacements", "RandomPlacements must be a whole number")
        random_placements = int(value)
    recorded = None
    score_pos = None
    if "Breakdown" in tags:
        value = tags.pop("Breakdown")
        parts = value.split()
        if len(parts) != 9 or not all(re.fullmatch(r"-?\d+", p) for p in parts):
            raise tag_error("Breakdown", "Breakdown must be 9 integers: " + " ".join(CATEGORIES))
        nums = [int(p) for p in parts]
        if sum(nums[1:8]) - nums[0] != nums[8]:
            raise tag_error("Breakdown", "Breakdown total is not the sum of the categories less penalties")
        recorded = dict(zip(CATEGORIES, nums))
        t = game.tag_tokens["Breakdown"]
        score_pos = (t.line, t.column, value)
    result_tag = tags.pop("Result", None)
    if result_tag is not None and not re.fullmatch(r"\*|-?\d+", result_tag):
        raise tag_error("Result", "Result must be the total score or *")

    offers: list[Offer] = []
    placements: list[Placement] = []
    drawings: list[Drawing] = []
    preamble: list[str] = []
    last = None  # the model the next comment belongs to
    pending_offer = None
    result_token = None
    toks = game.tokens
    i = 0

    def bad(tok, code, message):
        turn = len(placements)
        ply = ply_of_turn(turn) if turn < TURNS else None
        return ParseError(code, message, line=tok.line, column=tok.column, ply=ply, token=tok.text)

    while i < len(toks):
        tok = toks[i]
        i += 1
        if result_token is not None:
            raise bad(tok, "bad-token", "nothing may follow the result")
        if tok.kind == pgn.COMMENT:
            commands, rest = pgn.comment_commands(tok.text)
            if last is None:
                if commands:
                    raise bad(tok, "bad-comment", "an annotation before the first move")
                preamble.append(rest)
                continue
            for key, value in commands.items():
                if key == "visits":
                    if not _visits_ok(value):
                        raise bad(tok, "bad-comment", "visits must be move:visits entries, separated by commas")
                    if isinstance(last, Placement):
                        if "|" in value:
                            raise bad(tok, "bad-comment", "a placement has one visit list")
                        last.visits = value
                    else:
                        last.visits = [None if s == "-" else s for s in value.split("|")]
                elif key == "trace" and isinstance(last, Drawing):
                    cells = value.split()
                    if not cells or not all(CELL_RE.match(c) for c in cells):
                        raise bad(tok, "bad-comment", "a trace is a list of cells")
                    last.trace = [parse_cell(c) for c in cells]
                else:
                    raise bad(tok, "bad-comment", f"unknown annotation %{key}")
            if rest:
                last.note = rest if not last.note else last.note + " " + rest
            continue
        if tok.kind == pgn.OPEN:
            start = tok
            cells = []
            while i < len(toks) and toks[i].kind == pgn.WORD:
                if not CELL_RE.match(toks[i].text):
                    raise bad(toks[i], "bad-token", "a drawing lists cells such as e5")
                cells.append(parse_cell(toks[i].text))
                i += 1
            if i >= len(toks) or toks[i].kind != pgn.CLOSE:
                raise bad(start, "bad-token", "a drawing must close with )")
            i += 1
            n = len(placements)
            due = sum(1 for d in DRAWING_AFTER_TURN if d <= n)
            if pending_offer is not None or len(drawings) >= due:
                raise bad(start, "drawing-out-of-place", f"drawings come after turns "
                          f"{', '.join(map(str, DRAWING_AFTER_TURN))}, not after turn {n}")
            if not cells:
                raise bad(start, "drawing-empty", "a drawing encloses at least one cell")
            last = Drawing(region=cells)
            positions[("drawing", len(drawings))] = (start.line, start.column,
                                                      "(" + " ".join(cell_name(c) for c in cells) + ")")
            drawings.append(last)
            continue
        if tok.kind == pgn.CLOSE:
            raise bad(tok, "bad-token", "a ) without its (")
        text = tok.text
        m = MOVE_NUMBER_RE.match(text)
        if m:
            if pending_offer is not None or int(m.group(1)) != len(placements) + 1:
                raise bad(tok, "bad-move-number", f"expected move number {len(placements) + 1}")
            continue
        m = OFFER_RE.match(text)
        if m and pending_offer is None:
            n = len(placements)
            due = sum(1 for d in DRAWING_AFTER_TURN if d <= n)
            if len(drawings) < due:
                raise bad(tok, "missing-drawing", f"the shoreline drawing after turn {n} is missing")
            if n >= TURNS:
                raise bad(tok, "move-after-end", f"the game has {TURNS} turns")
            pending_offer = Offer(tile1=TILE_INDEX[m.group(1)], zone1=ZONE_INDEX[m.group(2)],
                                  tile2=TILE_INDEX[m.group(3)], zone2=ZONE_INDEX[m.group(4)])
            positions[("offer", n)] = (tok.line, tok.column, text)
            continue
        m = PLACEMENT_RE.match(text)
        if m and pending_offer is not None:
            last = Placement(tile=TILE_INDEX[m.group(1)], cell=parse_cell(m.group(2)))
            positions[("placement", len(placements))] = (tok.line, tok.column, text)
            offers.append(pending_offer)
            placements.append(last)
            pending_offer = None
            continue
        if re.fullmatch(r"\*|-?\d+", text) and pending_offer is None:
            result_token = tok
            continue
        if pending_offer is not None:
            raise bad(tok, "bad-token", "expected a placement: tile letter (f h s w M C B) then a cell such as e5")
        raise bad(tok, "bad-token", "expected an offer such as hi+w6: tile letter (f h s w M C B) and zone "
                  "(row 1-9, column a-i, nonant QWEASDZXC), twice, joined by +")
    if pending_offer is not None:
        line, col, tok = positions[("offer", len(placements))]
        raise ParseError("missing-placement", "the record ends after an offer", line=line, column=col,
                         ply=ply_of_turn(len(placements)), token=tok)
    if result_token is None:
        raise ParseError("missing-result", "the movetext must end with the result: the total or *",
                         line=game.line, column=1)
    result = result_token.text
    if result_tag is not None and result_tag != result:
        t = game.tag_tokens["Result"]
        raise ParseError("bad-result", f"the Result tag says {result_tag}, the movetext {result}",
                         line=t.line, column=t.column, token=result_tag)
    if result != "*":
        total = int(result)
        if recorded is None:
            recorded = {"total": total}
            score_pos = (result_token.line, result_token.column, result)
        elif recorded["total"] != total:
            raise ParseError("bad-result", f"the result {total} differs from the Breakdown total {recorded['total']}",
                             line=result_token.line, column=result_token.column, token=result)
    record = TinyIslandsRecord(
        tags=tags, rules=rules, deck=deck, offers=offers, placements=placements,
        drawings=drawings, recorded=recorded, label=label, random_placements=random_placements,
        finished=result != "*", preamble=" ".join(preamble) or None, positions=positions,
        score_position=score_pos)
    if result != "*" and len(placements) != TURNS:
        raise ParseError("unfinished-game", f"a game with a score has {TURNS} turns, this one "
                         f"{len(placements)}; write * as the result of an unfinished game",
                         line=result_token.line, column=result_token.column, token=result)
    if record.finished and len(drawings) != len(DRAWING_AFTER_TURN):
        raise ParseError("missing-drawing", "the last shoreline drawing is missing",
                         line=result_token.line, column=result_token.column, token=result)
    return record


def _drawing_text(drawing: Drawing, region: np.ndarray | None) -> tuple[str, str]:
    """(line, move): the cells in parentheses, with %trace when TinyBot's trace is not the
    region itself, and %visits."""
    names = CELL_NAMES
    if drawing.region is not None:
        cells = drawing.region
    else:
        enclosed = np.flatnonzero(region).tolist()
        cells = drawing.trace if sorted(drawing.trace) == enclosed else enclosed
    move = "(" + " ".join([names[c] for c in cells]) + ")"
    line = move
    if drawing.trace is not None and cells is not drawing.trace and list(cells) != list(drawing.trace):
        line += " {[%trace " + " ".join([names[c] for c in drawing.trace]) + "]}"
    if drawing.visits is not None:
        line += " {[%visits " + _join_visits(drawing.visits) + "]}"
    if drawing.note:
        line += " " + pgn.wrap_comment(drawing.note)
    return line, move


def _join_visits(visits: list[str | None]) -> str:
    return "|".join(["-" if v is None else v for v in visits])


def render(record: TinyIslandsRecord, result: TinyIslandsReplay | None = None) -> tuple[str, list[tuple]]:
    """Canonical Scorebook notation (the normalised text the store hashes) and the rows
    (game 1, ply, player 0, move, note) of the moves table, made in one pass. Visit lists stay in the text."""
    tags = {"Game": GAME}
    tags.update(record.tags)
    tags["Rules"] = record.rules
    if record.deck is not None:
        tags["Deck"] = record.deck
    if record.label is not None:
        tags["Label"] = record.label
    if record.random_placements is not None:
        tags["RandomPlacements"] = str(record.random_placements)
    rec = record.recorded
    if rec and len(rec) == len(CATEGORIES):
        tags["Breakdown"] = " ".join([str(rec[k]) for k in CATEGORIES])
    final = str(rec["total"]) if record.finished and rec else "*"
    tags["Result"] = final
    lines = [pgn.write_tags(tags), ""]
    if record.preamble:
        lines.append(pgn.wrap_comment(record.preamble))
    if result is None and any(d.region is None for d in record.drawings):
        result = replay(record)
    rows = []
    d = 0
    n_drawings = len(record.drawings)
    next_drawing = DRAWING_AFTER_TURN[0] if n_drawings else -1
    pair, place = _PAIR_TEXT, _PLACEMENT_TEXT
    for t, (o, p) in enumerate(zip(record.offers, record.placements)):
        move = f"{pair[o.tile1][o.zone1]}+{pair[o.tile2][o.zone2]} {place[p.tile][p.cell]}"
        if p.note:
            line = f"{t + 1}. {move}" + ("" if p.visits is None else f" {{[%visits {p.visits}]}}")
            lines.append(line + " " + pgn.wrap_comment(p.note))
        elif p.visits is not None:
            lines.append(f"{t + 1}. {move} {{[%visits {p.visits}]}}")
        else:
            lines.append(f"{t + 1}. {move}")
        rows.append((1, _PLY_OF_TURN[t], 0, move, p.note))
        if t + 1 == next_drawing:
            drawing = record.drawings[d]
            line, move = _drawing_text(drawing, None if result is None else result.regions[d])
            lines.append(line)
            rows.append((1, ply_of_drawing(d), 0, move, drawing.note))
            d += 1
            next_drawing = DRAWING_AFTER_TURN[d] if d < n_drawings else -1
    lines.append(final)
    return "\n".join(lines) + "\n", rows


def write_pgn(record: TinyIslandsRecord, result: TinyIslandsReplay | None = None) -> str:
    """Scorebook notation, canonical."""
    return render(record, result)[0]


def from_arrays(offers, placements, traces, lens, *, tags: dict[str, str] | None = None,
                rules: str = "published", deck: str | None = None, regions: bool = False) -> TinyIslandsRecord:
    """A record from engine arrays (a bot's game): drawings are TinyBot-style traces, or the
    enclosed regions themselves when ``regions``."""
    n = int((np.asarray(placements)[:, 0] >= 0).sum())
    record = TinyIslandsRecord(
        tags=tags or {}, rules=rules, deck=deck,
        offers=[Offer(tile1=int(o[0]), zone1=int(o[1]), tile2=int(o[2]), zone2=int(o[3])) for o in offers[:n]],
        placements=[Placement(tile=int(p[0]), cell=int(p[1])) for p in placements[:n]],
        drawings=[Drawing(region=[int(z) for z in traces[d, :lens[d]]]) if regions else
                  Drawing(trace=[int(z) for z in traces[d, :lens[d]]])
                  for d in range(len(lens)) if lens[d] > 0 and DRAWING_AFTER_TURN[d] <= n],
        finished=n == TURNS)
    return record
