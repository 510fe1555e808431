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

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import chain
from operator import attrgetter
from typing import Literal

import numpy as np
from pydantic import TypeAdapter

from scorebook.engines.tiny_islands import engine as E
from scorebook.engines.tiny_islands.deck import one_deck_consistent
from scorebook.engines.tiny_islands.game import ENGINE, RecordActions
from scorebook.engines.tiny_islands.metadata import (CATEGORIES, CELLS, DECK_MODELS, DRAWING_AFTER_TURN, GAME_ID,
                                                     RULE_SETS,
                                           TILE_INDEX, TILE_LETTERS, TURNS, ZONE_INDEX,
                                           ZONE_LETTERS, cell_name, parse_cell)

from . import pgn, tiny_islands_compiled
from .compiled import NO_COLUMN, CompiledTurns, MovesRows, one_game_bytes, text_between
from scorebook.errors import STRICT, ErrorPolicy, IllegalMove, ParseError, RecordRejected, ScoreMismatch, UsageError
from .limits import small_int
from .notation import Canonical, Notation
from .replay import Place, Step, replay_read

GAME = GAME_ID
_T = "fhswMCB"
_Z = "1-9a-iQWEASDZXC"
OFFER_RE = re.compile(rf"^([{_T}])([{_Z}])\+([{_T}])([{_Z}])$")
PLACEMENT_RE = re.compile(rf"^([{_T}])([a-i][1-9])$")
CELL_RE = re.compile(r"^[a-i][1-9]$")
VISITS_RE = re.compile(r"^([0-9]+:[0-9]+(,[0-9]+:[0-9]+)*)?$")  # ASCII digits, as TinyBot writes them
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


@dataclass(frozen=True, slots=True)
class CompiledRead:
    """A record as ``tiny_islands_compiled.read_turns`` replayed and wrote it: its score, its
    deck, its canonical movetext (a line a turn and a drawing, no result) and its moves rows."""
    score: dict
    deck: str
    movetext: str
    rows: Sequence  # MovesRows


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
    # the totals the record states besides ``recorded`` (a Result tag, a movetext result that
    # differs from it), each with its position: checked against the replay as ``recorded`` is
    also_stated: list = field(default_factory=list, repr=False, compare=False)
    # what the compiled reader computed (score, deck, canonical movetext), where it read the record
    compiled: CompiledRead | None = field(default=None, repr=False, compare=False)
    # its replay (a TinyIslandsReplay), made once by ``replayed`` and read by every later reader
    replay_kept: object = field(default=None, init=False, repr=False, compare=False)

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
    score: dict[str, int]  # by category, and the total
    tiles: np.ndarray
    land: np.ndarray
    regions: np.ndarray  # bool[3, 81]
    indirect: np.ndarray
    deck: str


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
    """Play the record through the shared walk (at once: the engine replays a whole record
    jitted); raises IllegalMove at the offer, placement or drawing the rules refuse."""
    _check_shape(record)
    offers, placements, traces, lens, as_region, _ = _arrays(record)
    deck = resolve_deck(record, offers)
    actions = RecordActions(placements, traces, lens, as_region, len(record.drawings))  # the shape is checked
    s = replay_read(ENGINE, {"offers": offers, "rules": record.rules}, actions, _Places(record, actions)).state
    for d, dr in enumerate(record.drawings):
        if dr.trace is not None and dr.region is not None:
            if set(dr.region) != set(np.flatnonzero(s.regions[d]).tolist()):
                line, col, tok = record.positions.get(("drawing", d), (None, None, None))
                raise IllegalMove("drawing-trace-mismatch", "the written region differs from the "
                                  "region its %trace encloses", line=line, column=col,
                                  ply=ply_of_drawing(d), token=tok)
    return TinyIslandsReplay(ENGINE.score(s), s.tiles, s.land, s.regions, s.indirect, deck)


def replayed(record: TinyIslandsRecord) -> TinyIslandsReplay:
    """The record's replay (``replay``), made once and kept on the record: its canonical text,
    its steps, its score and a TinyBot line take this one (a record is replayed once)."""
    if record.replay_kept is None:
        record.replay_kept = replay(record)
    return record.replay_kept


class _Places(Sequence):
    """Where each action is written (a turn: its offer and its placement), looked up only for
    the one a rejection points at: a TinyBot line finds its columns on demand."""

    def __init__(self, record: TinyIslandsRecord, actions: RecordActions):
        self.record, self.actions = record, actions

    def __len__(self) -> int:
        return len(self.actions)

    def __getitem__(self, index: int):
        kind, k = self.actions.where(index)
        return drawing_place(self.record, k) if kind == "shoreline" else turn_places(self.record, k)


def turn_places(record: TinyIslandsRecord, turn: int) -> tuple[Place, Place]:
    """Where turn ``turn`` (from 0) writes its offer and its placement."""
    where, nowhere = record.positions.get, (None, None, None)
    return Place(*where(("offer", turn), nowhere)), Place(*where(("placement", turn), nowhere))


def drawing_place(record: TinyIslandsRecord, drawing: int) -> Place:
    """Where shoreline ``drawing`` (from 0) is written."""
    return Place(*record.positions.get(("drawing", drawing), (None, None, None)))


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


def score_mismatch(record: TinyIslandsRecord, result: TinyIslandsReplay) -> ScoreMismatch | None:
    """The error to report when the stated score differs from the replay, else None."""
    return _stated_differs(record, result.score)


def _stated_differs(record: TinyIslandsRecord, computed: dict) -> ScoreMismatch | None:
    diffs = [f"{k} {v} (replay {computed[k]})" for k, v in (record.recorded or {}).items() if computed.get(k) != v]
    if diffs:
        line, col, tok = record.score_position or (None, None, None)
        return ScoreMismatch("score-mismatch", "stated score differs from the replay: " + ", ".join(diffs),
                             line=line, column=col, token=tok)
    for total, (line, col, tok) in record.also_stated:  # a second statement of the total, as the first
        if total != computed["total"]:
            return ScoreMismatch("score-mismatch", f"stated total {total} differs from the replay: total "
                                 f"{computed['total']}", line=line, column=col, token=tok)
    return None


# ---------------------------------------------------------------- notation

def _visits_ok(text: str) -> bool:
    return all(seg == "-" or VISITS_RE.fullmatch(seg) for seg in text.split("|"))


class TinyIslandsVisitor(pgn.Visitor):
    """Reads one game of the container as a Tiny Islands record (grammar in the module doc)."""
    result_pattern = re.compile(r"\*|-?[0-9]{1,9}")

    def begin_game(self, game: pgn.PgnGame) -> None:
        self.game = game
        tags = dict(game.tags)
        name = tags.pop("Game", GAME)
        if name != GAME:
            t = game.tag_tokens["Game"]
            raise ParseError("bad-tag", f"Game is {name!r}, expected {GAME!r}", line=t.line, column=t.column,
                             token=name)
        self.rules = tags.pop("Rules", "published")
        if self.rules not in RULE_SETS:
            raise self._tag_error("Rules", f"Rules must be one of {', '.join(RULE_SETS)}")
        self.deck = tags.pop("Deck", None)
        if self.deck is not None and self.deck not in DECK_MODELS:
            raise self._tag_error("Deck", "Deck must be two-deck or one-deck")
        self.label = (tags.pop("Label", None) or "").rstrip() or None  # as a TinyBot line keeps it: trailing spaces go
        self.random_placements = None
        if "RandomPlacements" in tags:
            value = tags.pop("RandomPlacements")
            self.random_placements = small_int(value)
            if self.random_placements is None or self.random_placements < 0 or value.startswith("-"):
                raise self._tag_error("RandomPlacements", "RandomPlacements must be a whole number")
        self.recorded = None
        self.score_pos = None
        if "Breakdown" in tags:
            value = tags.pop("Breakdown")
            parts = value.split()
            nums = [small_int(p) for p in parts]
            if len(parts) != 9 or None in nums:
                raise self._tag_error("Breakdown", "Breakdown must be 9 integers: " + " ".join(CATEGORIES))
            if sum(nums[1:8]) - nums[0] != nums[8]:
                raise self._tag_error("Breakdown", "Breakdown total is not the sum of the categories less penalties")
            self.recorded = dict(zip(CATEGORIES, nums))
            t = game.tag_tokens["Breakdown"]
            self.score_pos = (t.line, t.column, value)
        self.result_tag = tags.pop("Result", None)
        if self.result_tag is not None and not self.result_pattern.fullmatch(self.result_tag):
            raise self._tag_error("Result", "Result must be the total score or *")
        self.tags = tags
        self.offers: list[Offer] = []
        self.placements: list[Placement] = []
        self.drawings: list[Drawing] = []
        self.preamble: list[str] = []
        self.positions: dict = {}
        self.last = None  # the move the next comment belongs to
        self.pending_offer: Offer | None = None
        self.result_token: pgn.Token | None = None

    def _tag_error(self, key: str, message: str) -> ParseError:
        t = self.game.tag_tokens[key]
        return ParseError("bad-tag", message, line=t.line, column=t.column, token=t.text)

    def ply(self) -> int | None:
        turn = len(self.placements)
        return ply_of_turn(turn) if turn < TURNS else None

    def expected_move_number(self) -> int:
        return len(self.placements) + 1

    def visit_move_number(self, number: int, token: pgn.Token) -> None:
        if self.pending_offer is not None or number != self.expected_move_number():
            raise self.token_error(token, "bad-move-number", f"expected move number {self.expected_move_number()}")

    def can_end(self) -> bool:
        return self.pending_offer is None

    def _drawings_due(self) -> int:
        n = len(self.placements)
        return sum(1 for d in DRAWING_AFTER_TURN if d <= n)

    def visit_comment(self, token: pgn.Token) -> None:
        if self.result_token is not None:
            raise self.token_error(token, "bad-token", "nothing may follow the result")
        commands, rest = pgn.comment_commands(token.text)
        last = self.last
        if last is None:
            if commands:
                raise self.token_error(token, "bad-comment", "an annotation before the first move")
            self.preamble.append(rest)
            return
        for key, value in commands.items():
            if key == "visits":
                if not _visits_ok(value):
                    raise self.token_error(token, "bad-comment", "visits must be move:visits entries, separated by commas")
                if isinstance(last, Placement):
                    if "|" in value:
                        raise self.token_error(token, "bad-comment", "a placement has one visit list")
                    last.visits = value
                else:
                    last.visits = [None if s == "-" else s for s in value.split("|")]
            elif key == "trace" and isinstance(last, Drawing):
                cells = value.split()
                if not cells or not all(CELL_RE.match(c) for c in cells):
                    raise self.token_error(token, "bad-comment", "a trace is a list of cells")
                last.trace = [parse_cell(c) for c in cells]
            else:
                raise self.token_error(token, "bad-comment", f"unknown annotation %{key}")
        if rest:
            last.note = rest if not last.note else last.note + " " + rest

    def visit_group(self, opening: pgn.Token, words: list[pgn.Token], closed: bool) -> None:
        """A drawing: the cells it encloses, ``(i1 h1 h2)``."""
        cells = []
        for word in words:
            if not CELL_RE.match(word.text):
                raise self.token_error(word, "bad-token", "a drawing lists cells such as e5")
            cells.append(parse_cell(word.text))
        if not closed:
            raise self.token_error(opening, "bad-token", "a drawing must close with )")
        if self.pending_offer is not None or len(self.drawings) >= self._drawings_due():
            raise self.token_error(opening, "drawing-out-of-place", f"drawings come after turns "
                                   f"{', '.join(map(str, DRAWING_AFTER_TURN))}, not after turn {len(self.placements)}")
        if not cells:
            raise self.token_error(opening, "drawing-empty", "a drawing encloses at least one cell")
        self.last = Drawing(region=cells)
        self.positions[("drawing", len(self.drawings))] = (
            opening.line, opening.column, region_text(cells))
        self.drawings.append(self.last)

    def _check_drawing_visits(self) -> None:
        """A drawing's visit lists, once its comments are all read: one a traced step and one for
        the pass (a TinyBot line pairs them with the cells)."""
        d = self.last
        if isinstance(d, Drawing) and d.visits is not None:
            steps = len(d.trace if d.trace is not None else d.region)
            if len(d.visits) != steps + 1:
                k = len(self.drawings) - 1
                line, col, tok = self.positions[("drawing", k)]
                raise ParseError("bad-comment", f"the drawing has {steps} traced cells, so {steps + 1} visit lists "
                                 f"(one a cell and one for the pass), not {len(d.visits)}", line=line, column=col,
                                 ply=ply_of_drawing(k), token=tok)

    def visit_move(self, token: pgn.Token) -> None:
        self._check_drawing_visits()
        text = token.text
        m = OFFER_RE.match(text)
        if m and self.pending_offer is None:
            n = len(self.placements)
            if len(self.drawings) < self._drawings_due():
                raise self.token_error(token, "missing-drawing", f"the shoreline drawing after turn {n} is missing")
            if n >= TURNS:
                raise self.token_error(token, "move-after-end", f"the game has {TURNS} turns")
            self.pending_offer = Offer(tile1=TILE_INDEX[m.group(1)], zone1=ZONE_INDEX[m.group(2)],
                                       tile2=TILE_INDEX[m.group(3)], zone2=ZONE_INDEX[m.group(4)])
            self.positions[("offer", n)] = (token.line, token.column, text)
            return
        m = PLACEMENT_RE.match(text)
        if m and self.pending_offer is not None:
            self.last = Placement(tile=TILE_INDEX[m.group(1)], cell=parse_cell(m.group(2)))
            self.positions[("placement", len(self.placements))] = (token.line, token.column, text)
            self.offers.append(self.pending_offer)
            self.placements.append(self.last)
            self.pending_offer = None
            return
        if self.pending_offer is not None:
            raise self.token_error(token, "bad-token",
                                   "expected a placement: tile letter (f h s w M C B) then a cell such as e5")
        raise self.token_error(token, "bad-token", "expected an offer such as hi+w6: tile letter (f h s w M C B) "
                               "and zone (row 1-9, column a-i, nonant QWEASDZXC), twice, joined by +")

    def visit_result(self, token: pgn.Token) -> None:
        self.result_token = token

    def end_game(self, game: pgn.PgnGame, result_token: pgn.Token | None) -> None:
        self._check_drawing_visits()
        n = len(self.placements)
        if self.pending_offer is not None:
            line, col, tok = self.positions[("offer", n)]
            raise ParseError("missing-placement", "the record ends after an offer", line=line, column=col,
                             ply=ply_of_turn(n), token=tok)
        if result_token is None:
            raise ParseError("missing-result", "the movetext must end with the result: the total or *",
                             line=game.line, column=1)
        result = result_token.text
        also_stated = []  # totals stated twice are each checked against the replay (score-mismatch)
        if self.result_tag is not None and self.result_tag != result:
            t = game.tag_tokens["Result"]
            if "*" in (self.result_tag, result):  # finished and not: the record contradicts itself
                raise ParseError("bad-result", f"the Result tag says {self.result_tag}, the movetext {result}",
                                 line=t.line, column=t.column, token=self.result_tag)
            also_stated.append((int(self.result_tag), (t.line, t.column, self.result_tag)))
        recorded, score_pos = self.recorded, self.score_pos
        if result != "*":
            total = int(result)
            if recorded is None:
                recorded = {"total": total}
                score_pos = (result_token.line, result_token.column, result)
            elif recorded["total"] != total:
                also_stated.append((total, (result_token.line, result_token.column, result)))
        self.record = TinyIslandsRecord(
            tags=self.tags, rules=self.rules, deck=self.deck, offers=self.offers, placements=self.placements,
            drawings=self.drawings, recorded=recorded, label=self.label, random_placements=self.random_placements,
            finished=result != "*", preamble=" ".join(self.preamble) or None, positions=self.positions,
            score_position=score_pos, also_stated=also_stated)
        if result != "*" and n != TURNS:
            raise ParseError("unfinished-game", f"a game with a score has {TURNS} turns, this one "
                             f"{n}; write * as the result of an unfinished game",
                             line=result_token.line, column=result_token.column, token=result)
        if self.record.finished and len(self.drawings) != len(DRAWING_AFTER_TURN):
            raise ParseError("missing-drawing", "the last shoreline drawing is missing",
                             line=result_token.line, column=result_token.column, token=result)

    def read_compiled(self, games: list[pgn.PgnGame]) -> TinyIslandsRecord | None:
        """The record read by ``tiny_islands_compiled.read_turns`` in one call, or None (a
        comment, a fault, a stated score the replay contradicts: the walk reads it and says
        why). The tags are read, and the game settled, by the walk's own ``begin_game`` and
        ``end_game``."""
        data = one_game_bytes(self, games, groups=True)
        if data is None:
            return None
        deck = tiny_islands_compiled.UNSTATED if self.deck is None else DECK_MODELS.index(self.deck)
        status, text, offers, placements, traces, lens, actions, scored, deck, result_a, result_b = \
            tiny_islands_compiled.read_turns(data, RULE_SETS.index(self.rules), deck)
        if status != tiny_islands_compiled.OK:
            return None
        movetext = text.tobytes().decode("ascii")
        self.offers, self.placements = CompiledOffers(offers, movetext), CompiledPlacements(placements, movetext)
        self.drawings = [Drawing(region=traces[d, :size].tolist()) for d, size in enumerate(lens.tolist()) if size]
        result = pgn.Token(text_between(data, result_a, result_b), games[0].line, 1)
        if not self.settled(lambda: self.end_game(games[0], result))[0]:
            return None
        record, score = self.record, dict(zip(CATEGORIES, scored.tolist()))
        if _stated_differs(record, score) is not None:
            return None
        moves = MovesRows([(1, CompiledActions(actions, movetext))])
        record.compiled = CompiledRead(score, DECK_MODELS[deck], movetext, moves)
        return record

    def result(self) -> TinyIslandsRecord:
        return self.record


class CompiledOffers(CompiledTurns):
    """A record's offers as ``tiny_islands_compiled.read_turns`` returned them."""

    def make(self) -> list[Offer]:
        return offers_of(self.rows)


class CompiledActions(CompiledTurns):
    """A record's actions (a turn's offer or placement, a drawing: the rows of its moves) as
    ``tiny_islands_compiled.read_turns`` returned them: each its text's span in the movetext.
    The one player's: seat 0."""
    text_at = (tiny_islands_compiled.TEXT, tiny_islands_compiled.TEXT_END)
    seat_at = NO_COLUMN

    def make(self) -> list[str]:
        return [text for _, text in self.texts()]


class CompiledPlacements(CompiledTurns):
    """A record's placements as ``tiny_islands_compiled.read_turns`` returned them."""

    def make(self) -> list[Placement]:
        return [Placement(tile=tile, cell=cell) for tile, cell in self.rows.tolist()]


def parse_pgn(text: str, policy: ErrorPolicy = STRICT) -> list[TinyIslandsRecord]:
    """Every Tiny Islands record of a container text; raises the first error."""
    return NOTATION.read_pgn(text, policy)


def _drawing_text(drawing: Drawing, region: np.ndarray | None) -> tuple[str, str]:
    """(line, move): the cells in parentheses, with %trace when TinyBot's trace is not the
    region itself, and %visits."""
    names = CELL_NAMES
    if drawing.region is not None:
        cells = drawing.region
    else:
        enclosed = np.flatnonzero(region).tolist()
        cells = drawing.trace if sorted(drawing.trace) == enclosed else enclosed
    move = region_text(cells)
    line = move
    if drawing.trace is not None and cells is not drawing.trace and list(cells) != list(drawing.trace):
        line += " {[%trace " + " ".join([names[c] for c in drawing.trace]) + "]}"
    if drawing.visits is not None:
        line += " {[%visits " + _join_visits(drawing.visits) + "]}"
    if drawing.note:
        line += " " + pgn.wrap_comment(drawing.note)
    return line, move


def region_text(cells) -> str:
    """A shoreline as the movetext writes it: its cells in parentheses, ``(e4 e5 f4)``."""
    return "(" + " ".join([CELL_NAMES[c] for c in cells]) + ")"


def _join_visits(visits: list[str | None]) -> str:
    return "|".join(["-" if v is None else v for v in visits])


def _as_written(step: Step, drawing: Drawing) -> Step:
    """A shoreline step as its drawing is written: its region, else its trace."""
    if drawing.region is not None:
        return step
    return dataclasses.replace(step, action=("trace", tuple(drawing.trace)), move=region_text(drawing.trace))


def render(record: TinyIslandsRecord, result: TinyIslandsReplay | None = None) -> tuple[str, Sequence[tuple]]:
    """Canonical Scorebook notation (the normalised text the store hashes) and the rows
    (game 1, ply, player 0, move, note) of the moves table, made in one pass. Visit lists stay in the text."""
    tags, final = _canonical_tags(record)
    if record.compiled is not None:  # its movetext written by the compiled reader
        return pgn.write_tags(tags) + "\n\n" + record.compiled.movetext + final + "\n", record.compiled.rows
    lines = [pgn.write_tags(tags), ""]
    if record.preamble:
        lines.append(pgn.wrap_comment(record.preamble))
    if result is None and any(d.region is None for d in record.drawings):
        result = replayed(record)
    rows = []
    d = 0
    n_drawings = len(record.drawings)
    next_drawing = DRAWING_AFTER_TURN[0] if n_drawings else -1
    pair, place = _PAIR_TEXT, _PLACEMENT_TEXT
    for t, (o, p) in enumerate(zip(record.offers, record.placements)):
        move = f"{pair[o.tile1][o.zone1]}+{pair[o.tile2][o.zone2]} {place[p.tile][p.cell]}"
        lines.append(_turn_line(t, move, p))
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


def _canonical_tags(record: TinyIslandsRecord) -> tuple[dict, str]:
    """The canonical text's tags, in their order, and its result (the stated total, or ``*``)."""
    tags = {"Game": GAME}
    tags.update(record.tags)
    tags["Rules"] = record.rules
    optional = {"Deck": record.deck, "Label": record.label,
                "RandomPlacements": None if record.random_placements is None else str(record.random_placements)}
    tags.update({k: v for k, v in optional.items() if v is not None})
    rec = record.recorded
    if rec and len(rec) == len(CATEGORIES):
        tags["Breakdown"] = " ".join([str(rec[k]) for k in CATEGORIES])
    final = str(rec["total"]) if record.finished and rec else "*"
    tags["Result"] = final
    return tags, final


def _turn_line(t: int, move: str, p) -> str:
    """A turn's line: its number, the offer and placement, the visits and the note when there are."""
    visits = "" if p.visits is None else f" {{[%visits {p.visits}]}}"
    return f"{t + 1}. {move}{visits}" + (" " + pgn.wrap_comment(p.note) if p.note else "")


def write_pgn(record: TinyIslandsRecord, result: TinyIslandsReplay | None = None) -> str:
    """Scorebook notation, canonical."""
    return render(record, result)[0]


def offers_of(rows) -> list[Offer]:
    """The offers of an engine's array, a row (tile, zone, tile, zone) a turn."""
    return [Offer(tile1=int(o[0]), zone1=int(o[1]), tile2=int(o[2]), zone2=int(o[3])) for o in rows]


def from_arrays(offers, placements, traces, lens, *, tags: dict[str, str] | None = None,
                rules: str = "published", deck: str | None = None, regions: bool = False) -> TinyIslandsRecord:
    """A record from engine arrays (a bot's game): drawings are TinyBot-style traces, or the
    enclosed regions themselves when ``regions``."""
    n = int((np.asarray(placements)[:, 0] >= 0).sum())
    record = TinyIslandsRecord(
        tags=tags or {}, rules=rules, deck=deck,
        offers=offers_of(offers[:n]),
        placements=[Placement(tile=int(p[0]), cell=int(p[1])) for p in placements[:n]],
        drawings=[Drawing(region=[int(z) for z in traces[d, :lens[d]]]) if regions else
                  Drawing(trace=[int(z) for z in traces[d, :lens[d]]])
                  for d in range(len(lens)) if lens[d] > 0 and DRAWING_AFTER_TURN[d] <= n],
        finished=n == TURNS)
    return record


class TinyIslandsNotation(Notation):
    game_id = GAME

    def visitor(self, policy: ErrorPolicy) -> TinyIslandsVisitor:
        return TinyIslandsVisitor(policy)

    def canonical(self, record: TinyIslandsRecord, policy: ErrorPolicy) -> Canonical:
        warnings: list[str] = []
        if record.compiled is not None:  # replayed, checked and written by the compiled reader
            record.deck, score = record.compiled.deck, record.compiled.score
            text, rows = render(record)
        else:
            result = replayed(record)
            mismatch = score_mismatch(record, result)
            if mismatch is not None:
                policy.handle(mismatch, warnings)
            record.deck = result.deck
            text, rows = render(record, result)
            score = result.score
        return Canonical(text=text, moves=rows, score=score, recorded=record.recorded,
                         score_rows=[(0, k, v) for k, v in score.items()], players=record.players, tags=record.tags,
                         finished=record.finished, total=score["total"], rules=record.rules, deck=record.deck,
                         warnings=warnings)

    def games(self, record: TinyIslandsRecord):
        """The offers and every placement and shoreline; a shoreline is its region as written
        (a stored record writes each one's), else the one the replay gives its trace (a trace
        means a region only on its board)."""
        written = all(dr.region is not None for dr in record.drawings)
        regions = None if written else replayed(record).regions
        offers = np.array([[o.tile1, o.zone1, o.tile2, o.zone2] for o in record.offers], np.int64).reshape(-1, 4)
        steps, d = [], 0
        for t, p in enumerate(record.placements):
            steps.append(Step(("place", p.tile, p.cell), 0, f"{t + 1}. {record.offers[t].text()} {p.text()}",
                              p.visits, turn_places(record, t)))
            if d < len(record.drawings) and t + 1 == DRAWING_AFTER_TURN[d]:
                cells = tuple(sorted(set(record.drawings[d].region))) if written else \
                    tuple(int(z) for z in np.flatnonzero(regions[d]))
                visits = record.drawings[d].visits
                steps.append(Step(("draw", cells), 0, region_text(cells),
                                  None if visits is None else _join_visits(visits), drawing_place(record, d)))
                d += 1
        return [({"offers": offers, "rules": record.rules}, steps)]

    def replayed_score(self, record: TinyIslandsRecord, positions) -> dict:
        """A reader here only parses: the engine scores the last board walked."""
        if not positions:
            return replayed(record).score
        tiles, land = positions[-1].state
        return {k: int(v) for k, v in zip(CATEGORIES, E.score_board(tiles, land, RULE_SETS.index(record.rules)))}

    def games_as_read(self, record: TinyIslandsRecord):
        """The steps as written, of a record that may not replay: a shoreline given by
        TinyBot's trace is that trace (the engine draws its region), not the replay's region."""
        if all(dr.region is not None for dr in record.drawings):
            return self.games(record)
        as_regions = dataclasses.replace(record, drawings=[
            dataclasses.replace(dr, region=(dr.trace or []) if dr.region is None else dr.region) for dr in record.drawings])
        setup, steps = self.games(as_regions)[0]
        drawings = iter(record.drawings)
        return [(setup, [_as_written(step, next(drawings)) if step.action[0] == "draw" else step for step in steps])]

    def view(self, record: TinyIslandsRecord, state, before, step):
        return state.tiles.copy(), state.land.copy()

    def finish_positions(self, record: TinyIslandsRecord, positions):
        """The board before a placement also shows the turn's offer (tile, zone, tile, zone)."""
        offers = {ply_of_turn(t): (o.tile1, o.zone1, o.tile2, o.zone2) for t, o in enumerate(record.offers)}
        return [dataclasses.replace(p, before=(*p.before, offers[p.ply])) if p.ply in offers else p
                for p in positions]

    def fixed_setups(self, options: dict) -> list | None:
        """``--shuffles FILE``: the deck orders of every record of a file (TinyBot lines or
        Scorebook notation); the bot sees each offer only when it is drawn."""
        path = options.get("shuffles")
        if not path:
            return None
        from .formats import decode, read_text
        try:
            with open(path, "rb") as fh:
                text = decode(fh.read())
        except OSError as exc:
            raise UsageError(f"{path}: {exc.strerror}") from None
        except RecordRejected as err:
            raise UsageError(f"{path}: {err.describe()}") from None
        rules = options.get("rules") or RULE_SETS[0]
        out = []
        for item in read_text(text, path):
            if item.record is None or item.game != GAME:
                raise UsageError(f"{path}: record {item.index} gives no shuffle"
                                 + (f" ({item.error.describe()})" if item.error else ""))
            rec = item.record
            if len(rec.offers) != TURNS:
                raise UsageError(f"{path}: record {item.index} is unfinished and gives no full shuffle")
            offers = np.array([[o.tile1, o.zone1, o.tile2, o.zone2] for o in rec.offers], np.int64)
            out.append(ENGINE.setup_of_offers(offers, rules))
        return out

    def action_text(self, state, action) -> str:
        """A placement (``Mc4``; the turn's offer is the deck's, written before it) or a
        shoreline (its cells)."""
        return _PLACEMENT_TEXT[action[1]][action[2]] if action[0] == "place" else region_text(action[1])

    def write_walked(self, setup, actions, states, players, tags) -> str:
        """Each shoreline written as its region (a TinyBot trace: the region the walk drew, the
        trace beside it); the offers the deck's, up to the last turn played; the result the
        last state's score."""
        placements = [Placement(tile=int(a[1]), cell=int(a[2])) for a in actions if a[0] == "place"]
        drawings = [Drawing(region=[int(z) for z in a[1]]) if a[0] == "draw" else Drawing(trace=[int(z) for z in a[1]])
                    for a in actions if a[0] != "place"]
        record = TinyIslandsRecord(
            offers=offers_of(setup["offers"][:len(placements)]), placements=placements, drawings=drawings,
            tags={**tags, "Player": players[0]}, rules=setup["rules"],
            deck=None if setup.get("given") else setup.get("deck"), finished=len(placements) == TURNS)
        last = states[-1]
        score = ENGINE.score(last)
        record.recorded = score if record.finished else None
        return write_pgn(record, TinyIslandsReplay(score, last.tiles, last.land, last.regions, last.indirect, None))

    def seat_points(self, score: dict) -> list[float]:
        return [score["total"]]

    def score_lines(self, score: dict, players: list[str]) -> list[str]:
        who = f"{players[0]}: " if players else ""
        parts = ", ".join(f"{k} {score[k]}" for k in CATEGORIES[1:-1])
        penalties = f"penalties -{score['penalties']}" if score["penalties"] else "no penalties"
        return [f"{who}total {score['total']} ({parts}; {penalties})"]


NOTATION = TinyIslandsNotation()
