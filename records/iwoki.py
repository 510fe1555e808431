"""Iwoki records in the PGN-style container, replayed through the jitted engine (spec:
shared/specs/iwoki.md §9). A record holds its setup as an ``iwoki-log/1`` header, checked here
for both formats; the log format itself is ``records/iwoki_log.py``.

Scorebook notation::

    [Game "iwoki"]
    [Rules "simulator-2021"]
    [Seed "60069"]
    [First "Greedy"]
    [FirstAgent "greedy"]
    [Second "Random"]
    [SecondAgent "random"]
    [Deal1 "st23 st5 ... / ht4 ht20 ht15"]
    [Deal2 "st8 st12 ... / ht8 ht19 ht2"]
    [SmallPile "st25 st2 ..."]
    [HexPile "ht5 ht9 ..."]
    [Result "35-50"]

    1. st23+0@H1_H4_H5 {[%opts 21]} 2. ht19A2@H4 {[%opts 13]} 3. draw=st25 4. pass ...

An action is ``TILE FACE ROTATION @ GAP`` (small faces ``+ -``, hex faces ``A B``),
``draw=TILE`` or ``pass``, numbered in play order. ``Result`` is the final tally.
"""
from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from scorebook.engines.iwoki import engine as E
from scorebook.engines.iwoki.game import ENGINE
from scorebook.engines.iwoki.metadata import (GAME_ID, HEX_GAP_INDEX, HEX_GAP_NAMES, N_HEX_GAPS, N_HEX_TILES,
                                              N_SMALL_TILES,
                                              RULE_SETS, SCORE,
                                              SMALL_GAP_INDEX, SMALL_GAP_NAMES, WHITE, hex_name,
                                              parse_tile, small_name)

from scorebook.errors import STRICT, ErrorPolicy, IllegalMove, ParseError, ScoreMismatch

from . import iwoki_compiled, pgn
from .compiled import CompiledTurns, MovesRows, one_game_bytes, text_between
from typing import Annotated, Literal

from pydantic import (AfterValidator, BaseModel, ConfigDict, Field, StrictStr, ValidationError, field_validator,
                      model_validator)

from .limits import MAX_DIGITS, MAX_JSON_DEPTH, MAX_TAG_CHARS, json_depth, small_int, too_large
from .notation import Canonical, Notation
from .replay import Place, Replay, Step, replay_read

GAME = GAME_ID
LOG_FORMAT = "iwoki-log/1"  # the header's "format": records of both formats hold the log's header
_TILE = r"[1-9][0-9]?"
_GAP = r"H[1-9][0-9]?"
ACTION_RE = re.compile(rf"^(st{_TILE})([+-])([0-2])@({_GAP}_{_GAP}_{_GAP})$|^(ht{_TILE})([AB])([0-5])@({_GAP})$"
                       rf"|^draw=(st{_TILE})$|^pass$")
REFERENCE_TAGS = {"simulator": "Simulator", "commit": "Commit", "recorder": "Recorder"}  # header key -> tag
# the tags Scorebook notation writes for the header: a log's own "tags" cannot hold them
WRITTEN_TAGS = frozenset({"Game", "Rules", "Seed", "Variant", "First", "FirstAgent", "Second", "SecondAgent", "Deal1",
                          "Deal2", "SmallPile", "HexPile", "HeaderExtra", "Result", *REFERENCE_TAGS.values()})
HEADER_KEYS = ("kind", "format", "game", "seed", "reference", "variant", "players", "initial_deal", "small_pile",
               "hex_pile", "rules", "tags")


@dataclass(slots=True)
class Action:
    type: str  # place-small, place-hex, draw, pass
    seat: int
    tile: str | None = None
    face: str | None = None
    rotation: int | None = None
    gap: str | None = None
    n_options: int | None = None
    # what replay computed, for writing the log back
    points: int = 0
    scores: tuple = (0, 0)
    white_tokens: tuple = (0, 0)
    hex_drawn: str | None = None
    first_move: bool = False
    note: str | None = None

    def text(self) -> str:
        if self.type == "place-small" or self.type == "place-hex":
            return f"{self.tile}{self.face}{self.rotation}@{self.gap}"
        if self.type == "draw":
            return f"draw={self.tile}"
        return "pass"


def seat_names(header: dict) -> list[str]:
    """The players' names a log's header gives, by seat."""
    return [p.get("name", f"seat {p.get('seat')}") for p in sorted(header["players"], key=lambda p: p["seat"])]


@dataclass
class IwokiRecord:
    header: dict  # the log header, key order kept
    actions: list[Action]
    end: dict | None  # the end line as stated
    rules: str = "simulator-2021"
    tags: dict[str, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    score: dict | None = None  # replayed: before_tally, penalties, final, winner
    finished: bool = True
    game: str = GAME
    lines: tuple[str, int] | None = None  # the compiled reader's movetext (wrapped, no result) and last width

    @property
    def players(self) -> list[str]:
        return seat_names(self.header)

    @property
    def recorded(self) -> dict | None:
        if not self.end:
            return None
        return {"before_tally": self.end.get("scores_before_tally"), "penalties": self.end.get("penalties"),
                "final": self.end.get("final_scores"), "winner": self.end.get("winner")}


# ---------------------------------------------------------------- replay

class Where:
    """Positions: a line number per action (JSONL) or a token position (PGN)."""

    def __init__(self):
        self.spots: dict[int, tuple[int, int, str]] = {}  # action index -> (line, column, token)
        self.end = (None, None, None)
        self.header = (1, 1, None)


def _err(cls, code, message, where: Where, i: int | None):
    line, col, tok = where.spots.get(i, where.end) if i is not None else where.end
    return cls(code, message, line=line, column=col, ply=None if i is None else i + 1, token=tok)


def _tiles(names, kind, where, what):
    out = []
    for name in names:
        try:
            k, t = parse_tile(name)
        except (ValueError, TypeError):
            raise ParseError("bad-header", f"{what}: {name!r} is not a tile", line=where.header[0], column=1) from None
        if k != kind:
            raise ParseError("bad-header", f"{what}: {name} is not a {kind} tile", line=where.header[0], column=1)
        out.append(t)
    return out


def _initial_state(header: dict, rules: str, where: Where) -> np.ndarray:
    try:
        deal = header["initial_deal"]
        hands_small = [_tiles(deal[p]["small"], "small", where, f"initial_deal[{p}].small") for p in range(2)]
        hands_hex = [_tiles(deal[p]["hex"], "hex", where, f"initial_deal[{p}].hex") for p in range(2)]
        small_pile = _tiles(header["small_pile"], "small", where, "small_pile")
        hex_pile = _tiles(header["hex_pile"], "hex", where, "hex_pile")
    except (KeyError, IndexError, TypeError) as exc:
        raise ParseError("bad-header", f"the header lacks {exc}", line=where.header[0], column=1) from None
    variant = header.get("variant") or {}
    for p in range(2):
        for kind, hand, key in (("small", hands_small[p], "initial_small"), ("hex", hands_hex[p], "initial_hex")):
            if key in variant and len(hand) != variant[key]:
                raise ParseError("bad-header", f"seat {p} is dealt {len(hand)} {kind} tiles, the variant says "
                                 f"{variant[key]}", line=where.header[0], column=1)
    all_small = sorted(sum(hands_small, []) + small_pile)
    all_hex = sorted(sum(hands_hex, []) + hex_pile)
    if all_small != list(range(N_SMALL_TILES)) or all_hex != list(range(N_HEX_TILES)):
        raise ParseError("bad-header", "the deal and the piles must hold each of the 48 small and 20 hex tiles once",
                         line=where.header[0], column=1)
    return E.new_state(hands_small, hands_hex, small_pile, hex_pile, RULE_SETS.index(rules))


_KINDS = {"place-small": E.SMALL, "place-hex": E.HEX, "draw": E.DRAW, "pass": E.PASS}


def replay(record: IwokiRecord, where: Where | None = None, stated: list[dict] | None = None,
           policy: ErrorPolicy = STRICT, walks: list | None = None) -> None:
    """Play every action through the shared walk; fill in what each action computed and the
    score. An action without a seat (Scorebook notation writes none) gets the seat the rules
    put to move. ``stated`` holds a log's own per-action numbers (points, scores, tokens,
    hex_drawn), checked one by one; a stated score that differs goes through ``policy``.
    ``walks``: where the walk keeps its states (``Replay``'s ``kept_in``)."""
    where = where or Where()

    def play_one(walk: Replay, i: int, a: Action) -> None:
        _play_action(walk, record, a, i, where)
        if stated is not None:
            _check_stated(record, a, stated[i], where, i, policy)
    walk = replay_read(ENGINE, _initial_state(record.header, record.rules, where), record.actions, kept_in=walks,
                       play_one=play_one)
    _check_end(record, walk.state, where, stated is not None, policy)


def _play_action(walk: Replay, record: IwokiRecord, a: Action, i: int, where: Where) -> None:
    """Action ``i``: its seat checked, played through the walk, what it computed written on it."""
    s = walk.state
    line, column, token = where.spots.get(i, where.end)
    place = Place(line, column, token)
    if ENGINE.is_terminal(s):  # the rules refuse any action once the game is over
        walk.play((E.PASS, -1, -1, -1), place)
    p = ENGINE.to_move(s)
    if a.seat < 0:
        a.seat = p
    if a.seat != p:
        raise _err(IllegalMove, "wrong-seat", f"seat {p} is to move", where, i)
    if a.n_options is not None:
        n_options = len(E.options(s))  # counted, not listed as the protocol lists them
        if a.n_options != n_options:
            record.warnings.append(f"action {i + 1}: the log counts {a.n_options} options, the engine {n_options}")
    action, fault = _engine_action(a, where, i)
    top = E.pile_top(s) if action[0] == E.DRAW and s[E.SMALL_PILE_TOP] < s[E.SMALL_PILE_LEN] else None
    before = s.copy()
    try:
        walk.play(action, place)
    except IllegalMove as refusal:
        if fault is None or refusal.part == 0:  # the tile is read before the gap
            raise
        raise fault from None
    if fault is not None:
        raise fault
    if action[0] == E.DRAW and a.tile != small_name(top):
        raise _err(IllegalMove, "draw-not-top", f"the top of the small pile is {small_name(top)}", where, i)
    computed(a, before, s)


def computed(a: Action, before, after) -> None:
    """What action ``a`` computed, from the states before and after it, written on it: whether
    it was the game's first move, its points, the hex drawn, the scores and the white tokens."""
    p, hex_top = a.seat, int(before[E.HEX_PILE_TOP])
    a.first_move = bool(before[E.FIRST])
    a.points = int(after[SCORE + p]) - int(before[SCORE + p])
    a.hex_drawn = hex_name(int(after[E.HEX_PILE + hex_top])) if after[E.HEX_PILE_TOP] > hex_top else None
    a.scores = (int(after[SCORE]), int(after[SCORE + 1]))
    a.white_tokens = (int(after[WHITE]), int(after[WHITE + 1]))


def ended(record: IwokiRecord, s) -> tuple[bool, int, str]:
    """The record's score and whether it is finished, from its last state; the end the rules
    reach (over, the seat that detected it, the reason)."""
    over, trigger, reason = E.end_of_game(s)
    record.score = ENGINE.score(s)
    record.finished = over
    record._end_state = (over, trigger, reason)
    return over, trigger, reason


def _check_end(record: IwokiRecord, s, where: Where, is_log: bool, policy: ErrorPolicy) -> None:
    """The score, and the end line against the end the rules reach (a log must have one)."""
    over, trigger, reason = ended(record, s)
    if record.end is not None:
        if not over:
            raise _err(IllegalMove, "end-too-early", "the end line comes while the game goes on", where, None)
        e = record.end
        if e.get("reason") != reason or e.get("trigger_seat") != trigger:
            raise _err(IllegalMove, "end-mismatch", f"the game ends by {reason}, detected by seat {trigger}",
                       where, None)
        sc = record.score
        want = {"scores_before_tally": sc["before_tally"], "penalties": sc["penalties"], "final_scores": sc["final"],
                "winner": sc["winner"]}
        diffs = [f"{k} {e.get(k)} (replay {v})" for k, v in want.items() if e.get(k) != v]
        if diffs:
            policy.handle(_err(ScoreMismatch, "score-mismatch", "the end line differs from the replay: "
                               + ", ".join(diffs), where, None), record.warnings)
    elif over and is_log:
        raise _err(IllegalMove, "missing-end", "the game is over but the log has no end line", where, None)


def _check_stated(record, a: Action, st: dict, where, i, policy: ErrorPolicy):
    checks = []
    if a.type.startswith("place"):
        checks.append(("points", st.get("points"), a.points))
    checks += [("scores", st.get("scores"), list(a.scores)), ("white_tokens", st.get("white_tokens"),
                                                                list(a.white_tokens)),
               ("hex_drawn", st.get("hex_drawn"), [a.hex_drawn] if a.hex_drawn else None)]
    for name, said, got in checks:
        if said != got:
            code = "score-mismatch" if name in ("points", "scores") else f"{name.replace('_', '-')}-mismatch"
            err = _err(ScoreMismatch if code == "score-mismatch" else IllegalMove, code,
                       f"{name} {json.dumps(said)} differs from the replay {json.dumps(got)}", where, i)
            policy.handle(err, record.warnings)


# ---------------------------------------------------------------- the log header, the record's setup in both formats

def _no_constant(name: str):
    raise ValueError(f"{name} is not a number a log holds")


def _bounded_int(text: str) -> int:
    value = small_int(text)
    if value is None:
        raise ValueError(f"a number of more than {MAX_DIGITS} digits")
    return value


def _bounded_float(text: str) -> float:
    """A decimal of at most MAX_DIGITS digits that is a finite number (``1e999`` is not)."""
    digits = sum(ch.isdigit() for ch in text)
    value = float(text)
    if digits > 2 * MAX_DIGITS or not math.isfinite(value):
        raise ValueError(f"{text[:20]} is not a number a log holds")
    return value


# made once (json.loads with hooks makes a decoder a call): a record reads half a dozen values
_BOUNDED_JSON = json.JSONDecoder(parse_int=_bounded_int, parse_float=_bounded_float, parse_constant=_no_constant)


def load_json(text: str):
    """A JSON text, read within bounds: nesting, numbers of at most MAX_DIGITS digits, no
    NaN or Infinity; ValueError (RecursionError too) otherwise."""
    if json_depth(text) > MAX_JSON_DEPTH:
        raise ValueError(f"nested deeper than {MAX_JSON_DEPTH}")
    if text.startswith("\ufeff"):  # as json.loads says it
        raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
    return _BOUNDED_JSON.decode(text)


_NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_-]{0,63}")


def _plain(value) -> bool:
    """A value a header tag carries as ``key=value``: a number, true/false/null, or a
    string without spaces (what the notation writes is what it reads)."""
    if value is None or isinstance(value, (bool, int)):
        return True
    return isinstance(value, str) and value != "" and not any(ch.isspace() for ch in value) and len(value) <= 256


def _strings(value) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def check_tags(tags, code: str, line: int) -> None:
    """A record's own tags (beyond those the header gives), the same rule in both formats so
    that either writes what the other reads: names as the container's, printable strings, at
    most MAX_TAG_CHARS // 2 characters of JSON together (the log's header line holds them)."""
    if not isinstance(tags, dict) or not all(
            isinstance(v, str) and v.isprintable() and pgn.TAG_NAME_RE.fullmatch(k) and k not in WRITTEN_TAGS
            for k, v in tags.items()):
        raise ParseError(code, "tags must be tag names (not the header's own) with printable values",
                         line=line, column=1)
    if len(dump_json(tags)) > MAX_TAG_CHARS // 2:
        raise too_large("the record's own tags", MAX_TAG_CHARS // 2, line, 1)


_PLAIN = AfterValidator(lambda v: _checked(_plain(v), v))
Plain = Annotated[object, _PLAIN]  # a number, true, false, null or a word
Word = Annotated[str, _PLAIN]  # a string a tag carries as one word
Name = Annotated[str, AfterValidator(lambda v: _checked(bool(_NAME_RE.fullmatch(v)), v))]
Tiles = list[StrictStr]


def _checked(ok: bool, value):
    if not ok:
        raise ValueError("not plain")
    return value


class LogPlayer(BaseModel):
    """A seat of an Iwoki log: its number, a name, and an agent (a type, one word, and its
    settings: plain values under names)."""
    model_config = ConfigDict(strict=True, extra="allow")
    seat: Literal[0, 1]
    name: str = ""
    type: Word = None  # absent, never null

    @model_validator(mode="after")
    def _settings_are_plain(self):
        settings = self.model_extra or {}
        if settings and "type" not in self.model_fields_set:
            raise ValueError("settings without a type")
        for key, value in settings.items():
            _checked(bool(_NAME_RE.fullmatch(key)) and _plain(value), value)
        return self


class Deal(BaseModel):
    model_config = ConfigDict(strict=True)
    small: Tiles
    hex: Tiles


class LogHeader(BaseModel):
    """The header of an Iwoki log (spec section 8); other keys pass through (``HeaderExtra``)."""
    model_config = ConfigDict(strict=True, extra="allow")
    format: str
    game: str
    seed: int | Word | None = None
    reference: dict[Literal[tuple(REFERENCE_TAGS)], str] = {}
    variant: dict[Name, Plain] = {}
    players: Annotated[list[dict], Field(min_length=2, max_length=2)]
    initial_deal: Annotated[list[Deal], Field(min_length=2, max_length=2)]
    small_pile: Tiles
    hex_pile: Tiles

    @field_validator("players")
    @classmethod
    def _two_seats(cls, players: list[dict]) -> list[dict]:
        if sorted(p.get("seat") if type(p.get("seat")) is int else -1 for p in players) != [0, 1]:
            raise ValueError("players must give seats 0 and 1")
        try:
            for player in players:
                LogPlayer.model_validate(player)
        except ValidationError:
            raise ValueError("a player has a name, a type (one word) and plain settings") from None
        return players


# what a fault in each field is called, in the order the fields are checked
_HEADER_FAULTS = {
    "format": "format must be a string",
    "game": "game must be a string",
    "seed": "seed must be a number, a string or null",
    "reference": f"reference must be an object of strings: {', '.join(REFERENCE_TAGS)}",
    "variant": "variant must be an object of names to numbers, true, false, null or words",
    "players": "players must list the two seats",
    "initial_deal": "initial_deal must give each seat's small and hex tiles",
    "small_pile": "small_pile and hex_pile must list tiles",
    "hex_pile": "small_pile and hex_pile must list tiles",
}


def check_header(h: dict, line: int) -> None:
    """The header's shape (spec section 8, ``LogHeader``), every field of the type the format
    gives it, each small enough for the tag that carries it in Scorebook notation."""
    extra = {k: v for k, v in h.items() if k not in HEADER_KEYS}
    for key, value in [*h.items(), ("the other keys", extra)]:
        if len(dump_json(value)) > MAX_TAG_CHARS // 2:
            raise too_large(f"the header's {key}", MAX_TAG_CHARS // 2, line, 1)
    def bad(why: str):
        return ParseError("bad-header", why, line=line, column=1)
    try:
        LogHeader.model_validate(h)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = str(first["loc"][0]) if first["loc"] else ""
        if field == "players" and first["type"] == "value_error":  # the players' own checks say what
            raise bad(first["msg"].removeprefix("Value error, ")) from None
        raise bad(_HEADER_FAULTS.get(field, "the header is not an Iwoki log header")) from None


_COMPACT_JSON = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)  # made once: a record dumps a dozen values


def dump_json(obj) -> str:
    return _COMPACT_JSON.encode(obj)



# ---------------------------------------------------------------- Scorebook notation

_SEATS = ("First", "Second")


def _agent_text(player: dict) -> str:
    extra = " ".join(f"{k}={json.dumps(v)}" for k, v in player.items() if k not in ("seat", "name", "type"))
    return (str(player.get("type", "")) + (" " + extra if extra else "")).strip()


def _agent_parse(text: str, seat: int, name: str) -> dict:
    """A FirstAgent/SecondAgent tag: the agent's type, then its settings as key=value."""
    parts = text.split()
    out = {"seat": seat, "name": name}
    if parts:
        out["type"] = parts[0]
    for p in parts[1:]:
        k, _, v = p.partition("=")
        if k in ("seat", "name", "type"):
            raise ValueError(f"{k} is not an agent setting")
        out[k] = load_json(v)
    return out


def header_tags(record: IwokiRecord) -> dict[str, str]:
    h = record.header
    tags = {"Game": GAME}
    tags.update(record.tags)
    tags["Rules"] = record.rules
    tags["Seed"] = json.dumps(h.get("seed"))
    ref = h.get("reference") or {}
    for key, tag in REFERENCE_TAGS.items():
        if key in ref:
            tags[tag] = str(ref[key])
    var = h.get("variant") or {}
    tags["Variant"] = " ".join(f"{k}={json.dumps(v)}" for k, v in var.items())
    for p in sorted(h["players"], key=lambda p: p["seat"]):
        tags[_SEATS[p["seat"]]] = str(p.get("name", ""))
        tags[_SEATS[p["seat"]] + "Agent"] = _agent_text(p)
    for p, deal in enumerate(h["initial_deal"]):
        tags[f"Deal{p + 1}"] = " ".join(deal["small"]) + " / " + " ".join(deal["hex"])
    tags["SmallPile"] = " ".join(h["small_pile"])
    tags["HexPile"] = " ".join(h["hex_pile"])
    extra = {k: v for k, v in h.items() if k not in HEADER_KEYS}
    if extra:
        tags["HeaderExtra"] = dump_json(extra)
    sc = record.score
    tags["Result"] = f"{sc['final'][0]}-{sc['final'][1]}" if record.finished else "*"
    return tags


def write_pgn(record: IwokiRecord) -> tuple[str, Sequence[tuple]]:
    """Canonical Scorebook text and the moves rows (game, ply, player, move, note)."""
    if record.lines is not None:  # written by the compiled reader
        lines, width = record.lines
        tags = header_tags(record)
        return (pgn.write_tags(tags) + "\n\n" + pgn.wrap_after(lines, width, tags["Result"]) + "\n",
                MovesRows([(1, record.actions)]))
    words, rows = [], []
    for i, a in enumerate(record.actions, 1):
        words.append(f"{i}.")
        words.append(a.text())
        if a.n_options is not None:
            words.append("{[%opts " + str(a.n_options) + "]}")
        if a.note:
            words.append(pgn.wrap_comment(a.note))
        rows.append((1, i, a.seat, a.text(), a.note))
    tags = header_tags(record)
    words.append(tags["Result"])
    return pgn.write_tags(tags) + "\n\n" + "\n".join(pgn.wrap_words(words)) + "\n", rows


class CompiledActions(CompiledTurns):
    """A record's actions as ``iwoki_compiled.read_actions`` returned them; made Actions only
    when read, each with what it computed (a walk of the record then: ingest never reads them)."""
    text_at = (iwoki_compiled.TEXT, iwoki_compiled.TEXT_END)

    def __init__(self, rows, text: str, header: dict, rules: str):
        super().__init__(rows, text)
        self.header, self.rules = header, rules

    def make(self) -> list[Action]:
        actions = []
        for seat, written in self.texts():
            m = ACTION_RE.match(written)
            if m.group(1):
                actions.append(Action("place-small", seat, m.group(1), m.group(2), int(m.group(3)), m.group(4)))
            elif m.group(5):
                actions.append(Action("place-hex", seat, m.group(5), m.group(6), int(m.group(7)), m.group(8)))
            else:
                actions.append(Action("draw", seat, m.group(9)) if m.group(9) else Action("pass", seat))
        replay(IwokiRecord(self.header, actions, None, self.rules))  # what each computed, written on it
        return actions


class IwokiVisitor(pgn.Visitor):
    """Reads and replays one Iwoki game of the container (actions numbered in play order; the
    seats follow from the rules, a draw keeping the turn)."""
    result_pattern = re.compile(r"-?[0-9]{1,9}--?[0-9]{1,9}|\*")

    def begin_game(self, game: pgn.PgnGame) -> None:
        self.game = game
        t = dict(game.tags)
        self.where = Where()
        self.where.header = (game.line, 1, None)

        def need(name):
            if name not in t:
                raise ParseError("bad-tag", f"an Iwoki record needs the tag {name}", line=game.line, column=1)
            return t.pop(name)
        t.pop("Game", None)
        self.rules = t.pop("Rules", "simulator-2021")
        if self.rules not in RULE_SETS:
            tok = game.tag_tokens["Rules"]
            raise ParseError("bad-tag", f"Rules must be one of {', '.join(RULE_SETS)}", line=tok.line,
                             column=tok.column, token=self.rules)
        try:
            header = {"kind": "header", "format": LOG_FORMAT, "game": GAME, "seed": load_json(need("Seed"))}
            ref = {}
            for key, tag in REFERENCE_TAGS.items():
                if tag in t:
                    ref[key] = t.pop(tag)
            header["reference"] = ref
            variant = {}
            for part in need("Variant").split():
                k, _, v = part.partition("=")
                variant[k] = load_json(v)
            header["variant"] = variant
            header["players"] = [_agent_parse(need(s + "Agent"), seat, need(s)) for seat, s in enumerate(_SEATS)]
            deals = []
            for p in range(2):
                small, _, hexes = need(f"Deal{p + 1}").partition("/")
                deals.append({"small": small.split(), "hex": hexes.split()})
            header["initial_deal"] = deals
            header["small_pile"] = need("SmallPile").split()
            header["hex_pile"] = need("HexPile").split()
            if "HeaderExtra" in t:
                extra = load_json(t.pop("HeaderExtra"))
                if not isinstance(extra, dict) or set(extra) & set(HEADER_KEYS):
                    raise ValueError("HeaderExtra is an object of the header's other keys")
                header.update(extra)
        except (ValueError, RecursionError) as exc:
            raise ParseError("bad-tag", f"a header tag does not read: {str(exc)[:120]}", line=game.line,
                             column=1) from None
        check_header(header, game.line)
        self.header = header
        self.result_tag = t.pop("Result", None)
        if self.result_tag is not None and not self.result_pattern.fullmatch(self.result_tag):
            tok = game.tag_tokens["Result"]
            raise ParseError("bad-tag", "Result is the final tally, First's then Second's (164-115), or *",
                             line=tok.line, column=tok.column, token=self.result_tag[:40])
        check_tags(t, "bad-tag", game.line)
        self.tags = t
        self.actions: list[Action] = []

    def read_compiled(self, games: list[pgn.PgnGame]) -> IwokiRecord | None:
        """The record read by ``iwoki_compiled.read_actions`` in one call, or None (a comment,
        a fault, a stated result the replay contradicts: the walk reads it and says why). The
        tags are read, and the result settled, by the walk's own ``begin_game`` and ``_settle``."""
        data = one_game_bytes(self, games)
        if data is None:
            return None
        try:  # the record's one walk, its state played by the compiled call
            s = ENGINE.initial_state(_initial_state(self.header, self.rules, self.where))
        except ParseError:  # the walk says so, after what it reads first
            return None
        status, text, width, actions, result_a, result_b = iwoki_compiled.read_actions(data, s)
        if status != iwoki_compiled.OK:
            return None
        written = text.tobytes().decode("ascii")
        record = IwokiRecord(self.header, CompiledActions(actions, written, self.header, self.rules), None, self.rules,
                             self.tags, self.warnings, lines=(written, width))
        ended(record, s)  # what the walk's replay ends with (``_check_end``: a record has no end line)
        if not self.settled(lambda: self._settle(record, games[0], text_between(data, result_a, result_b)))[0]:
            return None
        return record

    def ply(self) -> int:
        return len(self.actions) + 1

    def seat_names(self) -> list[str]:
        return seat_names(self.header)

    def expected_move_number(self) -> int:
        return len(self.actions) + 1

    def visit_comment(self, token: pgn.Token) -> None:
        if not self.actions:
            return
        commands, rest = pgn.comment_commands(token.text)
        if "opts" in commands:
            n_options = small_int(commands["opts"])
            if n_options is None or n_options < 0:
                raise self.token_error(token, "bad-comment", "[%opts N] gives the option count, a whole number")
            self.actions[-1].n_options = n_options
        if rest:
            if "[%" in rest:  # an annotation left open: a log note could not hold it
                raise self.token_error(token, "bad-comment", "an annotation reads [%key value]; this one is not closed")
            self.actions[-1].note = rest

    def visit_move(self, token: pgn.Token) -> None:
        m = ACTION_RE.match(token.text)
        if not m:
            raise self.token_error(token, "bad-token", "an action is TILE FACE ROTATION@GAP (st5+1@H1_H4_H5, "
                                   "ht3A0@H1), draw=TILE or pass")
        self.where.spots[len(self.actions)] = (token.line, token.column, token.text)
        if m.group(1):
            a = Action("place-small", -1, m.group(1), m.group(2), int(m.group(3)), m.group(4))
        elif m.group(5):
            a = Action("place-hex", -1, m.group(5), m.group(6), int(m.group(7)), m.group(8))
        elif m.group(9):
            a = Action("draw", -1, m.group(9))
        else:
            a = Action("pass", -1)
        self.actions.append(a)

    def end_game(self, game: pgn.PgnGame, result_token: pgn.Token | None) -> None:
        record = IwokiRecord(self.header, self.actions, None, self.rules, self.tags, self.warnings)
        replay(record, self.where, None, self.policy, self.walks)
        self._settle(record, game, result_token.text if result_token else None)
        self.record = record

    def _settle(self, record: IwokiRecord, game: pgn.PgnGame, result_text: str | None) -> None:
        """The stated result (the Result tag, else the movetext's) against the replayed record;
        the record's end line from it."""
        stated = self.result_tag if self.result_tag is not None else result_text
        computed = f"{record.score['final'][0]}-{record.score['final'][1]}" if record.finished else "*"
        if stated is not None and stated != computed:
            if stated != "*" and not record.finished:
                raise ParseError("unfinished-game", "the result is stated but the game goes on", line=game.line,
                                 column=1, token=stated)
            tok = game.tag_tokens.get("Result")
            self.handle_error(ScoreMismatch("score-mismatch", f"the stated result {stated} differs from the replay "
                                            f"{computed}", line=tok.line if tok else None,
                                            column=tok.column if tok else None, token=stated))
        if stated is not None and stated != "*":
            m = re.fullmatch(r"(-?[0-9]{1,9})-(-?[0-9]{1,9})", stated)  # "164-115": First's, then Second's
            final = [int(m.group(1)), int(m.group(2))]
            record.end = {"final_scores": final}

    def result(self) -> IwokiRecord:
        return self.record


def read_pgn_game(game: pgn.PgnGame, policy: ErrorPolicy = STRICT) -> IwokiRecord:
    """Read and replay one Iwoki game of the container."""
    return pgn.read_record([game], IwokiVisitor(policy))


def score_rows(record: IwokiRecord) -> list[tuple[int, str, int]]:
    sc = record.score
    rows = []
    for seat in (0, 1):
        rows += [(seat, "before_tally", sc["before_tally"][seat]), (seat, "penalty", sc["penalties"][seat]),
                 (seat, "final", sc["final"][seat])]
    return rows


def _engine_action(a: Action, where: Where, i: int) -> tuple[tuple[int, int, int, int], ParseError | None]:
    """A record's action as the engine takes it by its tile: (kind, tile number, gap,
    orientation), -1 where the kind takes none (draw, pass), and the fault of a gap not
    written right (the gap is then -1: the rules judge the tile before it). A tile of the
    other kind is tile -1, which no hand holds."""
    kind = _KINDS.get(a.type)
    if kind is None:
        raise _err(ParseError, "bad-action", f"unknown action type {a.type!r}", where, i)
    if kind not in (E.SMALL, E.HEX):
        return (kind, -1, -1, -1), None
    small = kind == E.SMALL
    try:
        tile_kind, tile = parse_tile(a.tile)
    except (ValueError, TypeError):
        raise _err(ParseError, "bad-action", f"{a.tile!r} is not a tile", where, i) from None
    if tile_kind != ("small" if small else "hex"):
        tile = -1
    orient = ("+-".index(a.face) * 3 if small else "AB".index(a.face) * 6) + a.rotation
    gaps = SMALL_GAP_INDEX if small else HEX_GAP_INDEX
    if a.gap not in gaps:
        return (kind, tile, -1, orient), _err(ParseError, "bad-action",
                                               f"{a.gap!r} is not a {'small' if small else 'hex'} gap", where, i)
    return (kind, tile, gaps[a.gap], orient), None


def engine_action(a: Action) -> tuple[int, int, int, int]:
    """A read record's action as the engine takes it by its tile: (kind, tile number, gap, orientation)."""
    return _engine_action(a, Where(), 0)[0]


class IwokiNotation(Notation):
    game_id = GAME

    def visitor(self, policy: ErrorPolicy) -> IwokiVisitor:
        return IwokiVisitor(policy)

    def canonical(self, record: IwokiRecord, policy: ErrorPolicy) -> Canonical:
        """Iwoki records were replayed while they were read."""
        text, rows = write_pgn(record)
        return Canonical(text=text, moves=rows, score=record.score, recorded=record.recorded,
                         score_rows=score_rows(record), players=record.players, tags=record.tags,
                         finished=record.finished, rules=record.rules, warnings=record.warnings)

    def games(self, record: IwokiRecord):
        names = record.players
        return [(_initial_state(record.header, record.rules, Where()),
                 [Step(engine_action(a), a.seat,
                       f"{ply}. {names[a.seat] if a.seat < len(names) else f'seat {a.seat}'} {a.text()}", a.note)
                  for ply, a in enumerate(record.actions, 1)])]

    def view(self, record: IwokiRecord, s, before, step):
        """(the engine's state vector, the seat that wrote each hex vertex's number or -1)."""
        if before is None:
            return s.copy(), np.full(N_HEX_GAPS * 6, -1, np.int64)
        owner = before[1].copy()
        owner[s[E.HEXVAL:E.HEXVAL + N_HEX_GAPS * 6] != before[0][E.HEXVAL:E.HEXVAL + N_HEX_GAPS * 6]] = step.seat
        return s.copy(), owner


    def action_text(self, s, action) -> str:
        return action_of(s, action).text()

    def write_walked(self, setup, actions, states, players, tags) -> str:
        """The deal as the header; its agents and seed those a bot game's tags name
        (``bot_tags``), else none named (the actions say nothing of who chose them) and 0."""
        tags = dict(tags)
        agents = [_agent_parse(tags.pop(_SEATS[seat] + "Agent", ""), seat, name) for seat, name in enumerate(players)]
        seed = load_json(tags.pop("Seed")) if "Seed" in tags else 0
        header = _played_header(setup, agents, seed, any(str(a.get("type", "")).startswith("minimax") for a in agents))
        return self._written(setup, header, [action_of(before, a) for a, before in zip(actions, states)], states, tags)

    def bot_tags(self, setup, seats, context) -> dict[str, str]:
        """Each seat's agent and its settings, as a log's header names them, and the game's
        seed; a game against minimax is played with perfect information (``write_walked``)."""
        tags = {_SEATS[entry["seat"]] + "Agent": _agent_text(entry) for entry in _agents(seats)}
        tags["Seed"] = json.dumps(context["seed"] * 100000 + context["game"])
        return tags

    @staticmethod
    def _written(setup, header: dict, actions: list[Action], states: list, tags: dict[str, str]) -> str:
        """The record of a game from the states its walk passed through: what each action
        computed, and the score, read from them."""
        record = IwokiRecord(header, actions, None, RULE_SETS[int(setup[E.RULES])], dict(tags), [])
        for a, before, after in zip(actions, states, states[1:]):
            computed(a, before, after)
        ended(record, states[-1])
        return write_pgn(record)[0]

    def seat_points(self, score: dict) -> list[float]:
        return list(score["final"])

    def score_lines(self, score: dict, players: list[str]) -> list[str]:
        a, b = players[:2] if len(players) >= 2 else ("seat 0", "seat 1")
        won = {0: f"{a} wins", 1: f"{b} wins", None: "a draw"}[score.get("winner")]
        return [f"{a} {score['final'][0]}, {b} {score['final'][1]}: {won} (tally {score['before_tally'][0]}-"
                f"{score['before_tally'][1]}, penalties {score['penalties'][0]}-{score['penalties'][1]})"]


def _action(seat: int, kind: int, tile: int, gap: int, orient: int) -> Action:
    """The engine's action (its kind, tile number, gap, orientation) as a record's."""
    if kind == E.SMALL:
        return Action("place-small", seat, small_name(tile), "+-"[orient // 3], orient % 3, SMALL_GAP_NAMES[gap])
    if kind == E.HEX:
        return Action("place-hex", seat, hex_name(tile), "AB"[orient // 6], orient % 6, HEX_GAP_NAMES[gap])
    if kind == E.DRAW:
        return Action("draw", seat, small_name(tile))
    return Action("pass", seat)


def action_of(s, action) -> Action:
    """An engine's action in state ``s`` (an option as ``legal_actions`` lists it, by its hand
    index; or a record's, by its tile) as a record's: a draw names the pile's top tile."""
    seat, kind = int(s[E.TO_MOVE]), int(action[0])
    tile = int(action[1])
    if kind == E.SMALL and len(action) == 5:
        tile = int(s[E.HAND_SMALL + seat * E.N_SMALL_TILES + tile])
    elif kind == E.HEX and len(action) == 5:
        tile = int(s[E.HAND_HEX + seat * E.N_HEX_TILES + tile])
    elif kind == E.DRAW:
        tile = int(s[E.SMALL_PILE + s[E.SMALL_PILE_TOP]])
    return _action(seat, kind, tile, int(action[2]), int(action[3]))


def _agents(seats) -> list[dict]:
    """The header's players of a bot game: each seat's name, agent and its settings."""
    players = []
    for seat, (name, bot) in enumerate(seats):
        entry = {"seat": seat, "name": name, "type": bot.name}
        if bot.name.startswith("minimax"):
            entry.update({"depth": bot.number, "max_time_ms": None})
        if bot.name == "sampler":
            entry["samples"] = bot.number
        players.append(entry)
    return players


def _played_header(s, players: list[dict], seed: int, perfect: bool) -> dict:
    """The log header of a game dealt as state ``s``: its players, hands and piles."""
    deal = [{"small": [small_name(t) for t in E.hand(s, p, E.SMALL)], "hex": [hex_name(t) for t in E.hand(s, p, E.HEX)]}
            for p in range(2)]
    return {"kind": "header", "format": LOG_FORMAT, "game": GAME, "seed": seed,
            "reference": {"simulator": "scorebook engines/iwoki", "recorder": "scorebook play"},
            "variant": {"perfect_information": perfect, "players": 2, "initial_small": len(deal[0]["small"]),
                        "initial_hex": len(deal[0]["hex"]), "draw_seed": None},
            "players": players, "initial_deal": deal,
            "small_pile": [small_name(int(s[E.SMALL_PILE + i])) for i in range(s[E.SMALL_PILE_LEN])],
            "hex_pile": [hex_name(int(s[E.HEX_PILE + i])) for i in range(s[E.HEX_PILE_LEN])]}


NOTATION = IwokiNotation()
