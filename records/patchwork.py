"""Patchwork records (shared/specs/patchwork.md section 4): the one owner of its moves' text.

A single-player record::

    [Game "patchwork-solo"]
    [Variant "real"]
    [PatchSet "patches.json v1"]
    [Score "-60"]

    S3 B28@a1r0 B24@c1r1 ...

``B12@c3r1m`` buys patch 12 in orientation r1m (mirror, then a quarter turn clockwise) with
the top-left of its bounding box on column c, row 3; ``B12`` buys it shape-less (simulated
variant); ``S2`` skips two spaces; ``L@e5`` places the due leather patch, ``L-`` loses it (a
full quilt). A two-player record (``[Game "patchwork"]``, ``[Players "a / b"]``,
``[Circle "..."]``) prefixes each move with its mover, ``1:`` or ``2:``; ``1:A`` advances.
Move numbers and comments are ignored. ``ply`` counts move tokens, leather ones included.

>>> from scorebook.records.pgn import split_games, read_record
>>> text = '[Game "patchwork-solo"]\\n[Variant "sim"]\\n\\nB25 S53\\n'
>>> read_record(split_games(text), PatchworkVisitor()).score["total"]
Traceback (most recent call last):
...
scorebook.errors.IllegalMove: line 4, column 5, ply 2, token S53: skip-past-end: the token is on space 2: 51 spaces are left
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from scorebook.engines.patchwork import pieces as P, rules as R

from . import patchwork_compiled, pgn
from .compiled import CompiledTurns, MovesRows, one_game_bytes, text_between
from scorebook.errors import STRICT, ErrorPolicy, IllegalMove, ParseError, ScoreMismatch
from .limits import small_int
from scorebook.engines.patchwork.game import ENGINE

from .notation import Canonical, Notation
from .replay import Place, Step

GAME = P.GAME_ID
SOLO_GAMES = {P.SOLO_TAG}
COLUMNS = "abcdefghi"

_PLACE = r"@([a-z])([0-9]{1,2})r([0-9])(m?)"
_SOLO_RE = re.compile(r"B([0-9]{1,9})(?:" + _PLACE + r")?|S(-?[0-9]{1,9})|L@([a-z])([0-9]{1,2})|(L-)")
_TWO_RE = re.compile(r"([0-9]):(?:B([0-9]{1,9})(?:" + _PLACE + r")?|(A)|L@([a-z])([0-9]{1,2})|(L-))")
_SCORE_SOLO_RE = re.compile(r"-?[0-9]{1,9}")
_SCORE_TWO_RE = re.compile(r"(-?[0-9]{1,9})-(-?[0-9]{1,9})")  # spec: ^(-?\d+)-(-?\d+)$, digits bounded


@dataclass(frozen=True)
class Move:
    """One move token: the mover (0-based), the engine's move, and where it was read."""
    seat: int
    kind: int
    a: int
    b: int
    special: bool = False  # two players: this move won the 7x7 special tile

    def text(self, two_player: bool) -> str:
        return (f"{self.seat + 1}:" if two_player else "") + move_text(self.kind, self.a, self.b)


@dataclass
class PatchworkRecord:
    variant: int  # pieces.REAL, SIM or TWO_PLAYER
    tags: dict[str, str]  # every tag but Game, Variant, PatchSet, Circle and Score
    circle: list[int]
    moves: list[Move]
    score: dict
    recorded: dict | None
    warnings: list[str] = field(default_factory=list)
    lines: str | None = None  # the canonical movetext, where the compiled reader wrote it

    @property
    def two_player(self) -> bool:
        return self.variant == P.TWO_PLAYER

    @property
    def players(self) -> list[str]:
        return players_of(self.tags, self.two_player)


def place_code(code: int, row: int, col: int) -> int:
    """A placement as the engine takes it (rules.apply): orientation code and anchor."""
    return code * 256 + min(row, 15) * 16 + min(col, 15)


def move_text(kind: int, a: int, b: int) -> str:
    """The notation of an engine move (``B12@c3r1m``, ``S2``, ``A``, ``L@e5``, ``L-``); a
    placement is written with the first code that gives its cells."""
    if kind == R.BUY:
        if b == R.NO_PLACE:
            return f"B{a}"
        k = int(R.placement_of(a, b))
        return f"B{a}@{COLUMNS[P.PL_COL[k]]}{P.PL_ROW[k] + 1}{P.ORIENTATION_NAMES[P.PL_CODE[k]]}"
    if kind == R.SKIP:
        return f"S{a}"
    if kind == R.ADVANCE:
        return "A"
    return "L-" if a < 0 else "L@" + P.square_name(a)


def placement_move(k: int) -> tuple[int, int, int]:
    """The engine's buy of placement row ``k``."""
    return R.BUY, int(P.PL_PATCH[k]), place_code(int(P.PL_CODE[k]), int(P.PL_ROW[k]), int(P.PL_COL[k]))


def _square(letter: str, digits: str) -> int | None:
    """A square's cell from its column letter and 1-based row, or None when off the quilt."""
    col, row = ord(letter) - ord("a"), int(digits) - 1
    return row * P.COLS + col if 0 <= col < P.COLS and 0 <= row < P.ROWS else None


def parse_move(text: str, two_player: bool) -> tuple[int, int, int, int] | None:
    """(seat, kind, a, b) of a move token, or None when it is not one (``bad-token``). Anchors
    and squares off the quilt parse (the rules refuse them as ``off-board``)."""
    m = (_TWO_RE if two_player else _SOLO_RE).fullmatch(text)
    if not m:
        return None
    g = m.groups()
    seat = 0
    if two_player:
        if g[0] not in "12":
            return None
        seat, g = int(g[0]) - 1, g[1:]
    patch, col, row, turns, mirror = g[0:5]
    if patch is not None:
        if col is None:
            return seat, R.BUY, small_int(patch), R.NO_PLACE
        if int(turns) > 3 or int(row) < 1:
            return None
        return seat, R.BUY, small_int(patch), place_code(int(turns) + 4 * bool(mirror), int(row) - 1, ord(col) - 97)
    if two_player:
        advance, lcol, lrow, lost = g[5:9]
        if advance:
            return seat, R.ADVANCE, 0, 0
    else:
        spaces, lcol, lrow, lost = g[5:9]
        if spaces is not None:
            value = small_int(spaces)
            return None if value is None or value < 0 else (seat, R.SKIP, value, 0)
    if lost:
        return seat, R.LEATHER_MOVE, -1, 0
    if int(lrow) < 1:
        return None
    cell = _square(lcol, lrow)
    return seat, R.LEATHER_MOVE, P.CELLS if cell is None else cell, 0


def players_of(tags: dict[str, str], two_player: bool) -> list[str]:
    """The names a record's tags give its seats: ``[Players "a / b"]``, or ``[Player]`` alone."""
    if two_player:
        names = [n.strip() for n in tags.get("Players", "").split(" / ")]
        return names if len(names) == 2 and all(names) else ["player 1", "player 2"]
    return [tags.get("Player") or "player"]


class CompiledMoves(CompiledTurns):
    """A record's moves as ``patchwork_compiled.read_moves`` returned them."""
    text_at = (patchwork_compiled.TEXT, patchwork_compiled.TEXT_END)
    note_at, note = patchwork_compiled.SPECIAL, "7x7"  # on the move that wins the special tile

    def make(self) -> list[Move]:
        return [Move(seat, kind, a, b, special=bool(special)) for seat, kind, a, b, special, *_ in self.rows.tolist()]


class PatchworkVisitor(pgn.Visitor):
    """Reads and replays one record through the jitted rules."""
    result_pattern = re.compile(r"\*|1-0|0-1")
    engine = ENGINE

    def begin_game(self, game: pgn.PgnGame) -> None:
        t = dict(game.tags)
        self.game = game
        kind = t.pop("Game", None)
        variant = t.pop("Variant", None)
        self.circle: list[int] = []
        circle_text = t.pop("Circle", None)
        if kind in SOLO_GAMES or (kind == GAME and variant in P.VARIANTS[:2]):
            if variant not in P.VARIANTS[:2]:
                self._tag_error("Variant", 'a single-player record is [Variant "real"] or [Variant "sim"]')
            self.variant = P.VARIANTS.index(variant)
        else:
            self.variant = P.TWO_PLAYER
            self.circle = self._read_circle(circle_text)
            if variant not in (None, P.VARIANTS[P.TWO_PLAYER]):
                self._tag_error("Variant", 'a two-player record has no Variant or [Variant "two-player"]')
        patch_set = t.pop("PatchSet", None)
        if patch_set not in (None, P.PATCH_SET):
            self._tag_error("PatchSet", f'the patches are "{P.PATCH_SET}"')
        self.score_text = t.pop("Score", None)
        self.tags = t
        self.moves: list[Move] = []
        self.last: pgn.Token | None = None
        self.stated_result: str | None = None

    def setup(self) -> tuple:
        return self.variant, self.circle

    @property
    def state(self) -> np.ndarray:
        """The state of the walk (the reader's) after the moves read so far."""
        return self.walk.state

    def read_compiled(self, games: list[pgn.PgnGame]) -> PatchworkRecord | None:
        """The record read by ``patchwork_compiled.read_moves`` in one call, or None (a comment,
        a fault, a game not over, a stated score or result the replay contradicts: the walk
        reads it and says why). The tags are read, and the game settled, by the walk's own
        ``begin_game`` and ``end_game``."""
        data = one_game_bytes(self, games)
        if data is None:
            return None
        status, text, _, moves, result_a, result_b = patchwork_compiled.read_moves(
            data, self.variant == P.TWO_PLAYER, self.state)
        if status != patchwork_compiled.OK:
            return None
        lines = text.tobytes().decode("ascii")
        self.moves, self.stated_result = CompiledMoves(moves, lines), text_between(data, result_a, result_b)
        if not self.settled(lambda: self.end_game(games[0], None))[0]:  # the walk's end: over, the stated score
            return None
        record = self.result()
        record.lines = lines
        return record

    def _tag_error(self, name: str, message: str):
        tok = self.game.tag_tokens.get(name)
        raise ParseError("bad-tag", message, line=tok.line if tok else self.game.line, column=1,
                         token=tok.text[:40] if tok else None)

    def _read_circle(self, text: str | None) -> list[int]:
        tok = self.game.tag_tokens.get("Circle")
        ids = [small_int(w) for w in (text or "").split()]
        if len(ids) != P.N_PATCHES or set(ids) != set(range(P.N_PATCHES)) or ids[-1] != 0:
            raise ParseError("bad-circle", f"[Circle] is the {P.N_PATCHES} patch ids 0 to {P.N_PATCHES - 1} once each, "
                             "clockwise from the neutral token, ending with 0 (the 1x2 patch)",
                             line=tok.line if tok else self.game.line, column=1,
                             token=None if text is None else text[:40])
        return ids

    def ply(self) -> int:
        return len(self.moves) + 1

    def seat_names(self) -> list[str]:
        return players_of(self.tags, self.variant == P.TWO_PLAYER)

    def visit_move_number(self, number: int, token: pgn.Token) -> None:
        """Move numbers are ignored (spec 4)."""

    def visit_move(self, token: pgn.Token) -> None:
        two = self.variant == P.TWO_PLAYER
        parsed = parse_move(token.text, two)
        if parsed is None:
            form = ("1:B12@c3r1m, 1:A, 1:L@e5 or 1:L- (the mover 1 or 2)" if two
                    else "B12@c3r1m, B12, S2, L@e5 or L-")
            raise self.token_error(token, "bad-token", f"a move is {form}")
        seat, kind, a, b = parsed
        s = self.state
        if two and seat != s[R.TO_MOVE] and not R.is_over(s):
            raise self.token_error(token, "wrong-mover", f"player {int(s[R.TO_MOVE]) + 1} moves now")
        special_before = s[R.SPECIAL]
        self.walk.play((kind, a, b), Place(token.line, token.column, token.text))
        self.moves.append(Move(seat, kind, a, b, special=takes_special(special_before, s)))
        self.last = token

    def visit_result(self, token: pgn.Token) -> None:
        if self.variant != P.TWO_PLAYER and token.text != "*":
            raise self.token_error(token, "bad-token", "a single-player record has no result but its [Score]")
        self.stated_result = token.text
        self.last = token

    def _end_error(self, code: str, message: str) -> IllegalMove:
        """An error after the last token: ply = tokens + 1, no token, just past the last one."""
        last = self.last
        return IllegalMove(code, message, line=last.line if last else self.game.line,
                           column=last.column + len(last.text) if last else 1, ply=self.ply())

    def end_game(self, game: pgn.PgnGame, result: pgn.Token | None) -> None:
        s = self.state
        if s[R.DUE] > 0:
            raise self._end_error("leather-due", f"the record ends with {int(s[R.DUE])} leather patch(es) due")
        if not R.is_over(s):
            seats = range(int(s[R.PLAYERS]))
            where = ", ".join(f"space {int(s[R.TIME + R.SEAT_SIZE * p])}" for p in seats)
            raise self._end_error("game-incomplete", f"the game ends when every token is on space "
                                                     f"{P.LAST_SPACE}; now: {where}")
        self.score = R.score(s)
        self.recorded = self._recorded()

    def _recorded(self) -> dict | None:
        """The stated score, checked against the replay (``score-mismatch``, a reader's
        error the lenient policy keeps as a warning)."""
        two = self.variant == P.TWO_PLAYER
        stated = self.score_text
        if stated is None:
            if two and self.stated_result not in (None, "*"):
                winner = 0 if self.stated_result == "1-0" else 1
                if winner != self.score["winner"]:
                    self._mismatch(f"the result says {self.stated_result}; the replay's winner is player "
                                   f"{self.score['winner'] + 1}", None)
            return None
        m = (_SCORE_TWO_RE if two else _SCORE_SOLO_RE).fullmatch(stated)
        if not m:
            self._tag_error("Score", '[Score] is the final scores, "s1-s2" (negative ones as "-4-14")' if two
                            else '[Score] is the final score, a whole number')
        if two:
            final = [int(m.group(1)), int(m.group(2))]
            if final != self.score["final"]:
                self._mismatch(f"stated {stated}, replay {self.score['final'][0]}-{self.score['final'][1]}", stated)
            return {"final": final}
        total = int(stated)
        if total != self.score["total"]:
            self._mismatch(f"stated {total}, replay {self.score['total']}", stated)
        return {"total": total}

    def _mismatch(self, message: str, stated: str | None) -> None:
        tok = self.game.tag_tokens.get("Score")
        self.handle_error(ScoreMismatch("score-mismatch", message, line=tok.line if tok else self.game.line,
                                        column=1, token=stated))

    def result(self) -> PatchworkRecord:
        return PatchworkRecord(self.variant, self.tags, self.circle, self.moves, self.score, self.recorded,
                               self.warnings)


# ---------------------------------------------------------------- writing


def write_record(record: PatchworkRecord) -> tuple[str, Sequence[tuple]]:
    """Canonical Scorebook text (the replayed score as [Score], no move numbers, the 7x7
    special tile marked ``{7x7}``) and the moves rows (game, ply, player, move, note)."""
    two = record.two_player
    tags = {"Game": GAME if two else P.SOLO_TAG}
    if not two:
        tags["Variant"] = P.VARIANTS[record.variant]
    tags["PatchSet"] = P.PATCH_SET
    tags.update(record.tags)
    if two:
        tags["Circle"] = " ".join(str(p) for p in record.circle)
        tags["Score"] = f"{record.score['final'][0]}-{record.score['final'][1]}"
    else:
        tags["Score"] = str(record.score["total"])
    if record.lines is not None:  # written by the compiled reader
        return pgn.write_tags(tags) + "\n\n" + record.lines + "\n", MovesRows([(1, record.moves)])
    words, rows = [], []
    for ply, m in enumerate(record.moves, 1):
        text = m.text(two)
        words.append(text)
        note = "7x7" if m.special else None
        if note:
            words.append("{" + note + "}")
        rows.append((1, ply, m.seat, text, note))
    return pgn.write_tags(tags) + "\n\n" + "\n".join(pgn.wrap_words(words)) + "\n", rows


def score_rows(score: dict) -> list[tuple[int, str, int]]:
    keys = ("buttons", "empty", "income", "patches", "leather")
    if score["variant"] != P.VARIANTS[P.TWO_PLAYER]:
        return [(0, k, score[k]) for k in (*keys, "bonus", "total")]
    return [(seat, k, score[k][seat]) for seat in (0, 1) for k in (*keys, "final")] + \
        [(seat, "special_tile", int(score["special_tile"] == seat)) for seat in (0, 1)]


@dataclass(frozen=True)
class Quilts:
    """A position for the boards: the engine's state and, per seat, the patch on every square
    (-1 empty, ``LEATHER_PATCH`` a leather patch), which the bitboards do not keep."""
    state: np.ndarray
    owners: np.ndarray  # [seats, 81]
    names: tuple[str, ...] = ()  # the players, by seat, as the boards name them


LEATHER_PATCH = P.N_PATCHES


def takes_special(special_before, after) -> bool:
    """Did the move win the 7x7 special tile (no one's before it, a player's after)?"""
    return bool(special_before < 0 <= after[R.SPECIAL])


class PatchworkNotation(Notation):
    game_id = GAME

    def visitor(self, policy: ErrorPolicy = STRICT) -> PatchworkVisitor:
        return PatchworkVisitor(policy)

    def canonical(self, record: PatchworkRecord, policy: ErrorPolicy) -> Canonical:
        """Patchwork records are replayed while they are read."""
        text, rows = write_record(record)
        total = record.score["total"] if not record.two_player else None
        return Canonical(text=text, moves=rows, score=record.score, recorded=record.recorded,
                         score_rows=score_rows(record.score), players=record.players, tags=record.tags,
                         finished=True, total=total, rules=P.VARIANTS[record.variant], warnings=record.warnings)

    def games(self, record: PatchworkRecord):
        return [((record.variant, record.circle),
                 [Step((m.kind, m.a, m.b), m.seat, m.text(record.two_player), "7x7" if m.special else None)
                  for m in record.moves])]

    def view(self, record, state, before: Quilts | None, step: Step | None) -> Quilts:
        """The state and every seat's squares, by patch (the bitboards keep no patch ids)."""
        owners = np.full((int(state[R.PLAYERS]), P.CELLS), -1, np.int64) if before is None else before.owners.copy()
        if step is not None:
            kind, a, b = step.action
            if kind == R.BUY and b != R.NO_PLACE:
                k = int(R.placement_of(a, b))
                owners[step.seat, P.cells_of(int(P.PL_LO[k]), int(P.PL_HI[k]))] = a
            elif kind == R.LEATHER_MOVE and a >= 0:
                owners[step.seat, a] = LEATHER_PATCH
        return Quilts(state.copy(), owners, tuple(record.players) if before is None else before.names)

    def action_text(self, state, action) -> str:
        kind, a, b = action
        return Move(int(state[R.TO_MOVE]), kind, a, b).text(int(state[R.PLAYERS]) == 2)

    def write_walked(self, setup, actions, states, players, tags) -> str:
        variant, circle = setup
        tags = dict(tags)
        if variant == P.TWO_PLAYER:
            tags["Players"] = " / ".join(players)
        else:
            tags["Player"] = players[0]
        moves = [Move(int(before[R.TO_MOVE]), kind, a, b, special=takes_special(before[R.SPECIAL], after))
                 for (kind, a, b), before, after in zip(actions, states, states[1:])]
        record = PatchworkRecord(variant, tags, list(circle), moves, R.score(states[-1]), None)
        return write_record(record)[0]

    def seat_points(self, score: dict) -> list[float]:
        if score["variant"] == P.VARIANTS[P.TWO_PLAYER]:
            return [float(f) for f in score["final"]]
        return [float(score["total"])]

    def score_lines(self, score: dict, players: list[str]) -> list[str]:
        if score.get("variant") == P.VARIANTS[P.TWO_PLAYER]:
            a, b = players[:2] if len(players) >= 2 else ("player 1", "player 2")
            special = {0: a, 1: b, None: "nobody"}[score.get("special_tile")]
            winner = (a, b)[score["winner"]]
            return [f"{a} {score['final'][0]}, {b} {score['final'][1]}: {winner} wins (buttons {score['buttons'][0]}-"
                    f"{score['buttons'][1]}, empty squares {score['empty'][0]}-{score['empty'][1]}, the 7x7 tile to "
                    f"{special})"]
        who = f"{players[0]}: " if players else ""
        seven = "" if score.get("seven_by_seven") is None else (
            ", a 7x7 square covered" if score["seven_by_seven"] else ", no 7x7 square covered")
        return [f"{who}total {score['total']} (buttons {score['buttons']}, bonus {score['bonus']}, "
                f"{score['empty']} empty squares; income {score['income']}, {score['patches']} patches, "
                f"{score['leather']} leather{seven})"]

    def seat_outcomes(self, score: dict) -> list[str | None]:
        """Two players: the replay's winner (a tie of points goes to who reached the end first)."""
        if score.get("variant") == P.VARIANTS[P.TWO_PLAYER] and score.get("winner") is not None:
            return ["win" if seat == score["winner"] else "loss" for seat in range(2)]
        return super().seat_outcomes(score)

    def file_label(self, options: dict) -> str:
        return options.get("variant") or ""


NOTATION = PatchworkNotation()
