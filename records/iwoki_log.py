"""The ``iwoki-log/1`` format: JSON Lines, a header, one line per action with the numbers it
scored, an end line (spec: shared/specs/iwoki.md §8). Read into the same record as Scorebook
notation (``records/iwoki.py``, whose header checks both formats share) and replayed there.
"""
from __future__ import annotations

import dataclasses
import json

from scorebook.engines.iwoki import engine as E
from scorebook.engines.iwoki.metadata import RULE_SETS, WILD, parse_tile
from scorebook.errors import STRICT, ErrorPolicy, ParseError, RecordRejected

from .iwoki import (GAME, LOG_FORMAT, NOTATION, Action, IwokiRecord, check_header, check_tags, dump_json, Where, load_json,
                    replay)
from .limits import MAX_COMMENT_CHARS, MAX_LINE_CHARS, too_large
from .notation import Format, Item, Trace


def _ints(value, n: int) -> bool:
    return isinstance(value, list) and len(value) == n and all(type(v) is int for v in value)


ACTION_TYPES = ("place-small", "place-hex", "draw", "pass")


def _check_action(obj: dict, line: int, ply: int) -> None:
    """An action line's fields, each of its type (the numbers it states are checked by the replay)."""
    def bad(why: str):
        return ParseError("bad-action", why, line=line, column=1, ply=ply, token=str(obj.get("type"))[:40])
    if obj.get("type") not in ACTION_TYPES:
        raise bad(f"type must be one of {', '.join(ACTION_TYPES)}")
    if obj.get("seat") not in (0, 1) or type(obj.get("seat")) is not int:
        raise bad("seat must be 0 or 1")
    if obj["type"] != "pass" and not isinstance(obj.get("tile"), str):
        raise bad("the action names its tile")
    if obj["type"].startswith("place"):
        if not isinstance(obj.get("gap"), str) or not isinstance(obj.get("face"), str) \
                or type(obj.get("rotation")) is not int:
            raise bad("a placement gives its face, rotation and gap")
    n_options = obj.get("n_options")
    if n_options is not None and (type(n_options) is not int or n_options < 0):
        raise bad("n_options must be a whole number")
    note = obj.get("note")
    if note is not None and (not isinstance(note, str) or not note.strip() or note != " ".join(note.split())
                             or "}" in note or "[%" in note or len(note) > MAX_COMMENT_CHARS // 2):
        raise bad("a note is a comment's text: one line, no braces")


def _check_end(obj: dict, line: int) -> None:
    def bad(why: str):
        return ParseError("bad-end", why, line=line, column=1, token="end")
    if not isinstance(obj.get("reason"), str) or type(obj.get("trigger_seat")) is not int:
        raise bad("the end line gives its reason and trigger_seat")
    if not all(_ints(obj.get(k), 2) for k in ("scores_before_tally", "penalties", "final_scores")):
        raise bad("the end line gives two scores before the tally, penalties and final scores")
    if obj.get("winner") not in (0, 1, None) or isinstance(obj.get("winner"), bool):
        raise bad("winner must be 0, 1 or null")


def parse_log(text: str, policy: ErrorPolicy = STRICT, walks: list | None = None) -> IwokiRecord:
    """Read and replay one ``iwoki-log/1`` file (one game); ``walks``: where the walk keeps its
    states (``Replay(kept_in=)``)."""
    where = Where()
    objs = _json_lines(text)
    header, rules, tags = _log_header(objs, where)
    actions, stated, end = [], [], None
    for n, obj in objs[1:]:
        if not isinstance(obj, dict):
            raise ParseError("bad-action", "each line is a JSON object", line=n, column=1)
        if end is not None:
            raise ParseError("action-after-end", "nothing may follow the end line", line=n, column=1,
                             token=str(obj.get("type") or obj.get("kind"))[:40])
        if obj.get("kind") == "end":
            _check_end(obj, n)
            end = obj
            where.end = (n, 1, "end")
            continue
        if obj.get("kind") != "action":
            raise ParseError("bad-action", f"unknown line kind {str(obj.get('kind'))[:40]!r}", line=n, column=1)
        where.spots[len(actions)] = (n, 1, str(obj.get("type"))[:40])
        actions.append(_log_action(obj, n, len(actions) + 1))
        stated.append(obj)
    record = IwokiRecord(header, actions, end, rules, tags, [])
    replay(record, where, stated, policy, walks)
    return record


def _json_lines(text: str) -> list[tuple[int, object]]:
    """Every non-blank line's JSON, with its line number."""
    objs = []
    for n, line in ((n, l) for n, l in enumerate(text.split("\n"), 1) if l.strip()):
        if len(line) > MAX_LINE_CHARS:
            raise too_large("a line", MAX_LINE_CHARS, n, 1, line)
        try:
            objs.append((n, load_json(line)))
        except json.JSONDecodeError as exc:
            raise ParseError("bad-json", f"not JSON: {exc.msg}", line=n, column=exc.colno, token=line[:40]) from None
        except (ValueError, RecursionError) as exc:
            raise ParseError("bad-json", f"not a log's JSON: {str(exc)[:80]}", line=n, column=1,
                             token=line[:40]) from None
    return objs


def _log_header(objs: list[tuple[int, object]], where: Where) -> tuple[dict, str, dict]:
    """The header line, checked: (the header less its rules and tags, the rules, the tags)."""
    if not objs or not isinstance(objs[0][1], dict) or objs[0][1].get("kind") != "header":
        raise ParseError("bad-header", "the first line must be the header", line=objs[0][0] if objs else 1, column=1)
    n0, header = objs[0]
    where.header = (n0, 1, None)
    where.end = (objs[-1][0], 1, "end")  # where the end line is missing, if it is
    if header.get("format") != LOG_FORMAT or header.get("game") != GAME:
        raise ParseError("bad-header", f"format must be {LOG_FORMAT} and game iwoki", line=n0, column=1,
                         token=str(header.get("format"))[:40])
    check_header(header, n0)
    header = dict(header)
    rules = header.pop("rules", RULE_SETS[0])
    tags = header.pop("tags", {})
    if rules not in RULE_SETS:
        raise ParseError("bad-header", f"rules must be one of {', '.join(RULE_SETS)}", line=n0, column=1,
                         token=str(rules)[:40])
    check_tags(tags, "bad-header", n0)
    return header, rules, tags


def _log_action(obj: dict, n: int, ply: int) -> Action:
    """An action line (``ply``, at line ``n``): its fields, and a placement's shown numbers
    against the tile's own."""
    if obj.get("n") != ply or type(obj.get("n")) is not int:
        raise ParseError("bad-action", f"actions are numbered in order: expected n {ply}", line=n, column=1,
                         ply=ply, token=str(obj.get("n"))[:40])
    _check_action(obj, n, ply)
    a = Action(obj["type"], obj["seat"], obj.get("tile"), obj.get("face"), obj.get("rotation"),
               obj.get("gap"), obj.get("n_options"), note=obj.get("note"))
    if a.type.startswith("place"):
        _check_numbers(a, obj.get("corners" if a.type == "place-small" else "vertices"), n, ply)
    return a


def _check_numbers(a: Action, shown, n: int, ply: int) -> None:
    """A placement's face and rotation in range, its tile of its kind, and the numbers the log
    shows (corners, vertices) the tile's own in that orientation."""
    small = a.type == "place-small"
    if a.face not in (("+", "-") if small else ("A", "B")) or a.rotation not in (range(3) if small else range(6)):
        raise ParseError("bad-action", "face and rotation out of range", line=n, column=1, ply=ply, token=a.type)
    try:
        kind, tile = parse_tile(a.tile)
    except ValueError:
        raise ParseError("bad-action", f"{a.tile[:40]!r} is not a tile", line=n, column=1, ply=ply) from None
    if kind != ("small" if small else "hex"):
        raise ParseError("bad-action", f"{a.tile} is not a {'small' if small else 'hex'} tile", line=n,
                         column=1, ply=ply, token=a.tile)
    if small:
        want = E.small_corners(tile, "+-".index(a.face), a.rotation).tolist()
    else:
        want = ["*" if v == WILD else v for v in E.hex_vertices(tile, "AB".index(a.face), a.rotation).tolist()]
    if shown is not None and shown != want:
        raise ParseError("numbers-mismatch", f"{a.tile} {a.face}{a.rotation} shows {want}, the log says {shown}",
                         line=n, column=1, ply=ply, token=a.tile)


def write_log(record: IwokiRecord) -> str:
    """``iwoki-log/1`` text: the header as stored, each action with its replayed numbers.
    Scorebook's logs also carry what the reference simulator's do not (read back, older logs
    lack them): ``rules`` in the header when not simulator-2021, ``tags``, and an action's ``note``."""
    header = dict(record.header)
    if record.rules != RULE_SETS[0]:
        header["rules"] = record.rules
    if record.tags:
        header["tags"] = dict(record.tags)
    lines = [dump_json(header)]
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
        if a.note:
            obj["note"] = a.note
        lines.append(dump_json(obj))
    if record.finished:
        sc = record.score
        over, trigger, reason = record._end_state
        lines.append(dump_json({"kind": "end", "reason": reason, "trigger_seat": trigger,
                            "scores_before_tally": sc["before_tally"], "penalties": sc["penalties"],
                            "final_scores": sc["final"], "winner": sc["winner"]}))
    return "\n".join(lines) + "\n"


def _games(text: str):
    """(number, first line's index, text) of each game: from a header line to the next, the
    text led by as many blank lines as come before it (the file's line numbers kept)."""
    lines = text.split("\n")
    starts = [i for i, line in enumerate(lines) if line.lstrip().startswith('{"kind":"header"')] or [0]
    for k, start in enumerate(starts, 1):
        end = starts[k] if k < len(starts) else len(lines)
        yield k, start, "\n" * start + "\n".join(lines[start:end])


class IwokiLogFormat(Format):
    """``iwoki-log/1`` JSON Lines: one game from each header line to the next."""
    name = "iwoki-log"

    def read(self, text: str, policy: ErrorPolicy) -> list[Item]:
        items = []
        for k, start, chunk in _games(text):
            try:
                items.append(Item(k, self.name, GAME, record=parse_log(chunk, policy), line=start + 1))
            except RecordRejected as err:
                items.append(Item(k, self.name, GAME, error=err, line=start + 1))
        return items

    def read_trace(self, text: str, index: int) -> Trace | None:
        """Game ``index`` of the text walked as it is read: a game refused midway, up to its error."""
        walks: list = []
        chunk = next((chunk for k, _, chunk in _games(text) if k == index), None)
        if chunk is None:
            return None
        try:
            record = parse_log(chunk, STRICT, walks)
        except RecordRejected as err:
            refused = NOTATION.refused_trace(walks, [], err)
            # a log's line is JSON: each move as the notation writes it, from the state before it
            return dataclasses.replace(refused, positions=[
                dataclasses.replace(p, move=NOTATION.action_text(p.before[0], p.action)) for p in refused.positions])
        return NOTATION.trace(record, walks)

    def write(self, record: IwokiRecord) -> tuple[str, list[str]]:
        return write_log(record), []  # Scorebook's log header carries the rules and tags, actions their notes


FORMAT = IwokiLogFormat()
