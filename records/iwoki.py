"""Iwoki records: ``iwoki-log/1`` JSON Lines and Iwoki in the PGN-style container, both
replayed through the jitted engine (spec: shared/specs/iwoki.md §8-9).

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
import re
from dataclasses import dataclass, field

import numpy as np

from scorebook.engines.iwoki import engine as E
from scorebook.engines.iwoki.metadata import (HAND_HEX, HAND_SMALL, HEX_GAP_INDEX, HEX_GAP_NAMES, N_HAND_HEX,
                                    N_HAND_SMALL, N_HEX_TILES, N_SMALL_TILES, RULE_SETS, SCORE,
                                    SMALL_GAP_INDEX, SMALL_GAP_NAMES, SMALL_PILE, SMALL_PILE_LEN,
                                    SMALL_PILE_TOP, TO_MOVE, WHITE, WILD, hex_name, parse_tile,
                                    small_name)

from . import pgn
from .errors import IllegalMove, ParseError, ScoreMismatch

GAME = "iwoki"
FORMAT = "iwoki-log/1"
ACTION_RE = re.compile(r"^(st\d+)([+-])([0-2])@(H\d+_H\d+_H\d+)$|^(ht\d+)([AB])([0-5])@(H\d+)$|^draw=(st\d+)$|^pass$")
HEADER_KEYS = ("kind", "format", "game", "seed", "reference", "variant", "players", "initial_deal", "small_pile",
               "hex_pile")


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

    @property
    def players(self) -> list[str]:
        return [p.get("name", f"seat {p.get('seat')}") for p in sorted(self.header["players"], key=lambda p: p["seat"])]

    @property
    def recorded(self) -> dict | None:
        if not self.end:
            return None
        return {"before_tally": self.end.get("scores_before_tally"), "penalties": self.end.get("penalties"),
                "final": self.end.get("final_scores"), "winner": self.end.get("winner")}


# ---------------------------------------------------------------- replay

class _Where:
    """Positions: a line number per action (JSONL) or a token position (PGN)."""

    def __init__(self):
        self.spots: dict[int, tuple[int, int, str]] = {}  # action index -> (line, column, token)
        self.end = (None, None, None)
        self.header = (1, 1, None)


def _err(cls, code, message, where: _Where, i: int | None):
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


def _initial_state(header: dict, rules: str, where: _Where) -> np.ndarray:
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


def _hand(s, p, kind):
    if kind == "small":
        return [int(s[HAND_SMALL + p * N_SMALL_TILES + i]) for i in range(s[N_HAND_SMALL + p])]
    return [int(s[HAND_HEX + p * N_HEX_TILES + i]) for i in range(s[N_HAND_HEX + p])]


def replay(record: IwokiRecord, where: _Where, stated: list[dict] | None = None, *, lenient=False) -> None:
    """Replay every action; fill in the computed fields and the score. ``stated`` holds the
    log's own per-action numbers (points, scores, tokens, hex_drawn), checked one by one."""
    s = _initial_state(record.header, record.rules, where)
    for i, a in enumerate(record.actions):
        if E.game_over(s):
            raise _err(IllegalMove, "action-after-end", "the game was already over (a player to move had no small "
                       "tiles, or two passes in a row)", where, i)
        p = int(s[TO_MOVE])
        if a.seat != p:
            raise _err(IllegalMove, "wrong-seat", f"seat {p} is to move", where, i)
        opts = E.options(s)
        if a.n_options is not None and a.n_options != len(opts):
            record.warnings.append(f"action {i + 1}: the log counts {a.n_options} options, the engine {len(opts)}")
        first = bool(s[E.FIRST])
        a.first_move = first
        drawn = -1
        if a.type in ("place-small", "place-hex"):
            kind = "small" if a.type == "place-small" else "hex"
            try:
                tk, tile = parse_tile(a.tile)
            except (ValueError, TypeError):
                raise _err(ParseError, "bad-action", f"{a.tile!r} is not a tile", where, i) from None
            hand = _hand(s, p, kind)
            if tk != kind or tile not in hand:
                raise _err(IllegalMove, "tile-not-in-hand", f"{a.tile} is not in seat {p}'s hand", where, i)
            hi = hand.index(tile)
            if kind == "small":
                face = "+-".index(a.face)
                orient = face * 3 + a.rotation
                gaps = SMALL_GAP_INDEX
            else:
                face = "AB".index(a.face)
                orient = face * 6 + a.rotation
                gaps = HEX_GAP_INDEX
            if a.gap not in gaps:
                raise _err(ParseError, "bad-action", f"{a.gap!r} is not a {kind} gap", where, i)
            gap = gaps[a.gap]
            kind_code = E.SMALL if kind == "small" else E.HEX
            if first:
                allowed = [(o[0], o[1], o[2], o[3]) for o in opts]
                if (kind_code, hi, gap, orient) not in allowed:
                    raise _err(IllegalMove, "first-move-rule", "the first move is a tile on H1_H4_H5 or H1 in the "
                               "orientation the rules allow", where, i)
                points = int(E.first_move_points(kind_code, tile, orient))
            else:
                open_ = E.is_open_small(s, gap) if kind == "small" else E.is_open_hex(s, gap)
                if not open_:
                    raise _err(IllegalMove, "gap-not-open", f"{a.gap} is not open", where, i)
                legal, points = E.evaluate(s, kind_code, tile, gap, orient)
                if not legal:
                    raise _err(IllegalMove, "illegal-placement", "the tile's numbers do not match the board (a "
                               "placement needs a match and no mismatch)", where, i)
            a.points = int(points)
            drawn = E.place(s, kind_code, hi, gap, orient, points)
        elif a.type == "draw":
            if first or s[E.DREW]:
                raise _err(IllegalMove, "second-draw" if s[E.DREW] else "draw-not-allowed",
                           "one draw per turn, never on the first move", where, i)
            if s[SMALL_PILE_TOP] >= s[SMALL_PILE_LEN]:
                raise _err(IllegalMove, "draw-empty-pile", "the small pile is empty", where, i)
            top = small_name(int(s[SMALL_PILE + s[SMALL_PILE_TOP]]))
            if a.tile != top:
                raise _err(IllegalMove, "draw-not-top", f"the top of the small pile is {top}", where, i)
            drawn = E.draw(s)
        elif a.type == "pass":
            if len(opts) != 1 or opts[0, 0] != E.PASS:
                raise _err(IllegalMove, "pass-not-allowed", "a pass is allowed only when nothing can be placed "
                           "and no draw is left this turn", where, i)
            drawn = E.pass_turn(s)
        else:
            raise _err(ParseError, "bad-action", f"unknown action type {a.type!r}", where, i)
        a.hex_drawn = hex_name(drawn) if drawn >= 0 else None
        a.scores = (int(s[SCORE]), int(s[SCORE + 1]))
        a.white_tokens = (int(s[WHITE]), int(s[WHITE + 1]))
        if stated is not None:
            _check_stated(record, a, stated[i], where, i, lenient)
    over = bool(E.game_over(s))
    pen = E.penalties(s)
    before = [int(s[SCORE]), int(s[SCORE + 1])]
    final = [before[0] - int(pen[0]), before[1] - int(pen[1])]
    winner = 0 if final[0] > final[1] else 1 if final[1] > final[0] else None
    record.score = {"before_tally": before, "penalties": [int(pen[0]), int(pen[1])], "final": final, "winner": winner}
    record.finished = over
    record._end_state = (over, int(s[TO_MOVE]), "out_of_small_tiles" if s[N_HAND_SMALL + s[TO_MOVE]] == 0
                         else "double_pass")
    if record.end is not None:
        if not over:
            raise _err(IllegalMove, "end-too-early", "the end line comes while the game goes on", where, None)
        e = record.end
        reason, trigger = record._end_state[2], record._end_state[1]
        if e.get("reason") != reason or e.get("trigger_seat") != trigger:
            raise _err(IllegalMove, "end-mismatch", f"the game ends by {reason}, detected by seat {trigger}",
                       where, None)
        want = {"scores_before_tally": before, "penalties": record.score["penalties"], "final_scores": final,
                "winner": winner}
        diffs = [f"{k} {e.get(k)} (replay {v})" for k, v in want.items() if e.get(k) != v]
        if diffs:
            err = _err(ScoreMismatch, "score-mismatch", "the end line differs from the replay: " + ", ".join(diffs),
                       where, None)
            if not lenient:
                raise err
            record.warnings.append(err.describe())
    elif over and stated is not None:
        raise _err(IllegalMove, "missing-end", "the game is over but the log has no end line", where, None)


def _check_stated(record, a: Action, st: dict, where, i, lenient):
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
            if lenient and code == "score-mismatch":
                record.warnings.append(err.describe())
                continue
            raise err


# ---------------------------------------------------------------- iwoki-log/1

def parse_log(text: str, *, lenient: bool = False) -> IwokiRecord:
    """Read and replay one ``iwoki-log/1`` file (one game)."""
    where = _Where()
    lines = [(n, l) for n, l in enumerate(text.split("\n"), 1) if l.strip()]
    objs = []
    for n, line in lines:
        try:
            objs.append((n, json.loads(line)))
        except json.JSONDecodeError as exc:
            raise ParseError("bad-json", f"not JSON: {exc.msg}", line=n, column=exc.colno, token=line[:40]) from None
    if not objs or not isinstance(objs[0][1], dict) or objs[0][1].get("kind") != "header":
        raise ParseError("bad-header", "the first line must be the header", line=objs[0][0] if objs else 1, column=1)
    n0, header = objs[0]
    where.header = (n0, 1, None)
    if header.get("format") != FORMAT or header.get("game") != GAME:
        raise ParseError("bad-header", f"format must be {FORMAT} and game iwoki", line=n0, column=1,
                         token=str(header.get("format")))
    actions, stated, end = [], [], None
    for n, obj in objs[1:]:
        if not isinstance(obj, dict):
            raise ParseError("bad-action", "each line is a JSON object", line=n, column=1)
        if end is not None:
            raise ParseError("action-after-end", "nothing may follow the end line", line=n, column=1,
                             token=obj.get("type") or obj.get("kind"))
        if obj.get("kind") == "end":
            end = obj
            where.end = (n, 1, "end")
            continue
        if obj.get("kind") != "action":
            raise ParseError("bad-action", f"unknown line kind {obj.get('kind')!r}", line=n, column=1)
        i = len(actions)
        where.spots[i] = (n, 1, str(obj.get("type")))
        if obj.get("n") != i + 1:
            raise ParseError("bad-action", f"actions are numbered in order: expected n {i + 1}", line=n, column=1,
                             ply=i + 1, token=str(obj.get("n")))
        try:
            a = Action(obj["type"], obj["seat"], obj.get("tile"), obj.get("face"), obj.get("rotation"),
                       obj.get("gap"), obj.get("n_options"))
        except KeyError as exc:
            raise ParseError("bad-action", f"the action lacks {exc}", line=n, column=1, ply=i + 1) from None
        if a.type.startswith("place"):
            small = a.type == "place-small"
            if a.face not in (("+", "-") if small else ("A", "B")) or a.rotation not in (range(3) if small else range(6)):
                raise ParseError("bad-action", "face and rotation out of range", line=n, column=1, ply=i + 1,
                                 token=a.type)
            shown = obj.get("corners" if small else "vertices")
            try:
                kind, tile = parse_tile(a.tile)
            except (ValueError, TypeError):
                raise ParseError("bad-action", f"{a.tile!r} is not a tile", line=n, column=1, ply=i + 1) from None
            if kind != ("small" if small else "hex"):
                raise ParseError("bad-action", f"{a.tile} is not a {'small' if small else 'hex'} tile", line=n,
                                 column=1, ply=i + 1, token=a.tile)
            if small:
                want = E.small_corners(tile, "+-".index(a.face), a.rotation).tolist()
            else:
                want = ["*" if v == WILD else v for v in E.hex_vertices(tile, "AB".index(a.face), a.rotation).tolist()]
            if shown is not None and shown != want:
                raise ParseError("numbers-mismatch", f"{a.tile} {a.face}{a.rotation} shows {want}, the log says "
                                 f"{shown}", line=n, column=1, ply=i + 1, token=a.tile)
        actions.append(a)
        stated.append(obj)
    record = IwokiRecord(header, actions, end, "simulator-2021", {}, [])
    replay(record, where, stated, lenient=lenient)
    return record


def _dump(obj) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def write_log(record: IwokiRecord) -> str:
    """``iwoki-log/1`` text: the header as stored, each action with its replayed numbers."""
    lines = [_dump(record.header)]
    for i, a in enumerate(record.actions, 1):
        obj = {"kind": "action", "n": i, "seat": a.seat, "type": a.type}
        if a.type == "place-small":
            kind, tile = parse_tile(a.tile)
            obj.update({"tile": a.tile, "face": a.face, "rotation": a.rotation,
                        "corners": E.small_corners(tile, "+-".index(a.face), a.rotation).tolist(),
                        "gap": a.gap, "points": a.points})
        elif a.type == "place-hex":
            kind, tile = parse_tile(a.tile)
            v = E.hex_vertices(tile, "AB".index(a.face), a.rotation).tolist()
            obj.update({"tile": a.tile, "face": a.face, "rotation": a.rotation,
                        "vertices": ["*" if x == WILD else x for x in v], "gap": a.gap, "points": a.points})
        elif a.type == "draw":
            obj["tile"] = a.tile
        if a.hex_drawn:
            obj["hex_drawn"] = [a.hex_drawn]
        obj["scores"] = list(a.scores)
        obj["white_tokens"] = list(a.white_tokens)
        if a.n_options is not None:
            obj["n_options"] = a.n_options
        if a.first_move:
            obj["first_move"] = True
        lines.append(_dump(obj))
    if record.finished:
        sc = record.score
        over, trigger, reason = record._end_state
        lines.append(_dump({"kind": "end", "reason": reason, "trigger_seat": trigger,
                            "scores_before_tally": sc["before_tally"], "penalties": sc["penalties"],
                            "final_scores": sc["final"], "winner": sc["winner"]}))
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- Scorebook notation

_SEATS = ("First", "Second")


def _agent_text(player: dict) -> str:
    extra = " ".join(f"{k}={json.dumps(v)}" for k, v in player.items() if k not in ("seat", "name", "type"))
    return (str(player.get("type", "")) + (" " + extra if extra else "")).strip()


def _agent_parse(text: str, seat: int, name: str) -> dict:
    parts = text.split()
    out = {"seat": seat, "name": name, "type": parts[0] if parts else ""}
    for p in parts[1:]:
        k, _, v = p.partition("=")
        out[k] = json.loads(v)
    return out


def header_tags(record: IwokiRecord) -> dict[str, str]:
    h = record.header
    tags = {"Game": GAME}
    tags.update(record.tags)
    tags["Rules"] = record.rules
    tags["Seed"] = json.dumps(h.get("seed"))
    ref = h.get("reference") or {}
    for key, tag in (("simulator", "Simulator"), ("commit", "Commit"), ("recorder", "Recorder")):
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
        tags["HeaderExtra"] = _dump(extra)
    sc = record.score
    tags["Result"] = f"{sc['final'][0]}-{sc['final'][1]}" if record.finished else "*"
    return tags


def write_pgn(record: IwokiRecord) -> tuple[str, list[tuple]]:
    """Canonical Scorebook text and the moves rows (game, ply, player, move, note)."""
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
    from .game_of_islands import _wrap
    return pgn.write_tags(tags) + "\n\n" + "\n".join(_wrap(words)) + "\n", rows


def read_pgn_game(game: pgn.PgnGame, *, lenient: bool = False) -> IwokiRecord:
    """Read and replay one Iwoki game of the container."""
    t = dict(game.tags)
    where = _Where()
    where.header = (game.line, 1, None)

    def need(name):
        if name not in t:
            raise ParseError("bad-tag", f"an Iwoki record needs the tag {name}", line=game.line, column=1)
        return t.pop(name)
    t.pop("Game", None)
    rules = t.pop("Rules", "simulator-2021")
    if rules not in RULE_SETS:
        tok = game.tag_tokens["Rules"]
        raise ParseError("bad-tag", f"Rules must be one of {', '.join(RULE_SETS)}", line=tok.line, column=tok.column,
                         token=rules)
    try:
        header = {"kind": "header", "format": FORMAT, "game": GAME, "seed": json.loads(need("Seed"))}
        ref = {}
        for key, tag in (("simulator", "Simulator"), ("commit", "Commit"), ("recorder", "Recorder")):
            if tag in t:
                ref[key] = t.pop(tag)
        header["reference"] = ref
        variant = {}
        for part in need("Variant").split():
            k, _, v = part.partition("=")
            variant[k] = json.loads(v)
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
            header.update(json.loads(t.pop("HeaderExtra")))
    except (json.JSONDecodeError, ValueError) as exc:
        raise ParseError("bad-tag", f"a header tag does not read: {exc}", line=game.line, column=1) from None
    result_tag = t.pop("Result", None)
    actions: list[Action] = []
    result_tok = None
    for tok in game.tokens:
        if tok.kind == pgn.COMMENT:
            cmds, rest = pgn.comment_commands(tok.text)
            if actions:
                if "opts" in cmds and cmds["opts"].isdigit():
                    actions[-1].n_options = int(cmds["opts"])
                if rest:
                    actions[-1].note = rest
            continue
        text = tok.text
        if re.fullmatch(r"\d+\.", text):
            if int(text[:-1]) != len(actions) + 1:
                raise ParseError("bad-move-number", f"expected action number {len(actions) + 1}", line=tok.line,
                                 column=tok.column, ply=len(actions) + 1, token=text)
            continue
        if re.fullmatch(r"-?\d+--?\d+|\*", text):
            result_tok = tok
            continue
        m = ACTION_RE.match(text)
        if not m or result_tok is not None:
            raise ParseError("bad-token", "an action is TILE FACE ROTATION@GAP (st5+1@H1_H4_H5, ht3A0@H1), "
                             "draw=TILE or pass", line=tok.line, column=tok.column, ply=len(actions) + 1, token=text)
        where.spots[len(actions)] = (tok.line, tok.column, text)
        if m.group(1):
            a = Action("place-small", -1, m.group(1), m.group(2), int(m.group(3)), m.group(4))
        elif m.group(5):
            a = Action("place-hex", -1, m.group(5), m.group(6), int(m.group(7)), m.group(8))
        elif m.group(9):
            a = Action("draw", -1, m.group(9))
        else:
            a = Action("pass", -1)
        actions.append(a)
    record = IwokiRecord(header, actions, None, rules, t, [])
    # seats follow from the rules (a draw keeps the turn): fill them in as the replay goes
    s = _initial_state(header, rules, where)
    for a in actions:
        a.seat = int(s[TO_MOVE])
        if not _step_for_seat(s, a):
            break  # the replay below reports why
    replay(record, where, None, lenient=lenient)
    stated = result_tag if result_tag is not None else (result_tok.text if result_tok else None)
    computed = f"{record.score['final'][0]}-{record.score['final'][1]}" if record.finished else "*"
    if stated is not None and stated != computed:
        if stated != "*" and not record.finished:
            raise ParseError("unfinished-game", "the result is stated but the game goes on", line=game.line, column=1,
                             token=stated)
        tok = game.tag_tokens.get("Result")
        err = ScoreMismatch("score-mismatch", f"the stated result {stated} differs from the replay {computed}",
                            line=tok.line if tok else None, column=tok.column if tok else None, token=stated)
        if not lenient:
            raise err
        record.warnings.append(err.describe())
    if stated is not None and stated != "*":
        final = [int(x) for x in re.findall(r"-?\d+", stated)[:2]]
        record.end = {"final_scores": final}
    return record


def _step_for_seat(s, a: Action) -> bool:
    """Advance a scratch state by one action, to know who moves next (a draw keeps the
    turn); False when the action is not among the options."""
    if E.game_over(s):
        return False
    opts = E.options(s)
    if a.type == "draw":
        for o in opts:
            if o[0] == E.DRAW:
                E.apply_option(s, o)
                return True
        return False
    if a.type == "pass":
        if opts[0, 0] != E.PASS:
            return False
        E.apply_option(s, opts[0])
        return True
    kind, tile = parse_tile(a.tile)
    code = E.SMALL if kind == "small" else E.HEX
    hand = _hand(s, int(s[TO_MOVE]), kind)
    orient = ("+-".index(a.face) * 3 if code == E.SMALL else "AB".index(a.face) * 6) + a.rotation
    gap = (SMALL_GAP_INDEX if code == E.SMALL else HEX_GAP_INDEX).get(a.gap, -1)
    for o in opts:
        if o[0] == code and tile in hand and o[1] == hand.index(tile) and o[2] == gap and o[3] == orient:
            E.apply_option(s, o)
            return True
    return False


def score_rows(record: IwokiRecord) -> list[tuple[int, str, int]]:
    sc = record.score
    rows = []
    for seat in (0, 1):
        rows += [(seat, "before_tally", sc["before_tally"][seat]), (seat, "penalty", sc["penalties"][seat]),
                 (seat, "final", sc["final"][seat])]
    return rows


def states(record: IwokiRecord):
    """Yield (ply, move, state) after every action, for ``show``: open gaps, scores, hands."""
    s = _initial_state(record.header, record.rules, _Where())
    for i, a in enumerate(record.actions, 1):
        _step_for_seat(s, a)
        yield i, a, s.copy()


def gap_names(s) -> tuple[list[str], list[str]]:
    small = [SMALL_GAP_NAMES[int(s[E.OPEN_SMALL + i])] for i in range(s[E.N_OPEN_SMALL])]
    hexes = [HEX_GAP_NAMES[int(s[E.OPEN_HEX + i])] for i in range(s[E.N_OPEN_HEX])]
    return small, hexes
