"""The Game of Islands records: read, validate move by move, group triads, write back.

Spec: ``shared/specs/game-of-islands.md`` with ``shared/data/goi/README.md`` (error codes,
their order and positions, timeouts, ``MatchResult``). A game is a PGN-style record with a
``Grid`` tag; games sharing a ``Match`` tag in one file form a triad (10, 12, 14), stored
as one record. The reader turns each turn's text into the engine's action and plays it
through the shared walk (``records/replay.py``) as it reads, so the error reported is the
first in reading order: the rules' refusal of a turn's line or of one of its claims, at
that part.

>>> from scorebook.records import pgn
>>> rec = read_group(pgn.split_games(EXAMPLE))
>>> rec.score
{'grid': 10, 'points': [1, 0], 'islands': [1, 0], 'bonus': [0, 0]}
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from scorebook.engines.game_of_islands import engine as E
from scorebook.engines.game_of_islands.game import ENGINE

from . import game_of_islands_compiled as compiled_grid, pgn
from .compiled import NO_COLUMN, CompiledTurns, MovesRows, movetext_bytes, text_between
from scorebook.errors import STRICT, ErrorPolicy, IllegalMove, ParseError, RecordRejected, ScoreMismatch
from .limits import small_int
from .notation import Canonical, Notation
from .replay import Place, Step

GAME = E.GAME_ID
MIN_GRID, MAX_GRID, TRIAD_GRIDS = E.MIN_GRID, E.MAX_GRID, E.TRIAD_GRIDS
DEFAULT_TIEBREAKS: list[str] = list(E.DEFAULT_TIEBREAKS)
match_result = E.match_result

DOT_RE = re.compile(r"^([A-Za-z])([0-9]{1,3})$")
LINE_RE = re.compile(r"^([A-Za-z][0-9]{1,3})-([A-Za-z][0-9]{1,3})$")
SCORE_RE = re.compile(r"^([0-9]{1,4})-([0-9]{1,4})$")  # a grid's points: islands and bonus, under 10,000
CLOCK_RE = re.compile(r"^[0-9]{1,4}:[0-9][0-9]:[0-9][0-9]$")
MATCH_RESULTS = ("1-0", "0-1", "1/2-1/2")

EXAMPLE = """[Grid "10"]
[First "Ann"]
[Second "Bob"]
[Result "*"]

1. I1-J2, J1 H1-H3 *
"""


dot_name = E.dot_name  # the notation names dots as the rules do


def grid_setup(n: int, first: str, second: str, out_of_time: set[str]) -> dict:
    """The engine's setup of one grid of a record: its size, and which of its players ran out
    of time on an earlier grid of the triad."""
    return {"grids": [n], "out_of_time": (first in out_of_time, second in out_of_time)}


def canonical_line(x1, y1, x2, y2) -> tuple[int, int, int, int]:
    """Lower file first; on equal files the lower rank first."""
    return (x1, y1, x2, y2) if (x1, y1) <= (x2, y2) else (x2, y2, x1, y1)


@dataclass(slots=True)
class Turn:
    kind: str  # "line", "pass" (the final claim-only turn) or "time"
    line: tuple[int, int, int, int] | None = None  # x1, y1, x2, y2 as written
    claims: list[int] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)


@dataclass
class GoiGame:
    index: int  # game number in the file
    tags: dict[str, str]
    grid: int
    first: str
    second: str
    turns: list[Turn]
    result: str
    points: list[int]
    islands: list[int]
    bonus: list[int]
    status: str  # "complete" or "unfinished"
    timed_out: list[bool]
    #: where the compiled reader read the grid: its canonical movetext without the result,
    #: wrapped, and the width of its last line (``render`` adds the result)
    written: tuple[str, int] | None = None

    @property
    def score(self) -> dict:
        return {"grid": self.grid, "points": list(self.points), "islands": list(self.islands),
                "bonus": list(self.bonus)}


@dataclass
class GoiRecord:
    games: list[GoiGame]
    match: str | None
    warnings: list[str] = field(default_factory=list)
    game: str = GAME

    @property
    def players(self) -> list[str]:
        return [self.games[0].first, self.games[0].second]

    @property
    def tags(self) -> dict[str, str]:
        return self.games[0].tags

    @property
    def finished(self) -> bool:
        if self.match is None:
            return self.games[0].status == "complete"
        return len(self.games) == len(TRIAD_GRIDS) and all(g.status == "complete" for g in self.games)

    def totals(self) -> list[int]:
        """Points over the games, from the side of the first game's First player."""
        a, b = self.players
        totals = [0, 0]
        for g in self.games:
            for seat, name in enumerate((g.first, g.second)):
                totals[0 if name == a else 1] += g.points[seat]
        return totals

    @property
    def score(self) -> dict:
        if self.match is None:
            return self.games[0].score
        totals = self.totals()
        margin = totals[0] - totals[1]
        return {"games": [g.score for g in self.games], "totals": totals, "margin": margin,
                "result": match_result(margin)}


# ---------------------------------------------------------------- reading

@dataclass(slots=True)
class _Part:
    """A turn's head or a claimed dot: a piece of a movetext word split at its commas."""
    text: str
    line: int
    column: int
    comma: bool  # a comma follows: a claim comes next


def _pieces(token: pgn.Token) -> list[_Part]:
    """A word split at its commas (``I1-J2,J1``); ``,,`` is an empty claim."""
    pieces = token.text.split(",")
    out, col = [], token.column
    for i, piece in enumerate(pieces):
        if piece:
            out.append(_Part(piece, token.line, col, i < len(pieces) - 1))
        elif 0 < i < len(pieces) - 1:
            out.append(_Part("", token.line, col, True))
        col += len(piece) + 1
    return out


class GridTurns(CompiledTurns):
    """A grid's turns as ``game_of_islands_compiled.read_grid`` returned them (the claimed dots
    in ``arrays[0]``)."""
    text_at = (compiled_grid.TEXT, compiled_grid.TEXT_END)
    seat_at, seats = NO_COLUMN, 2  # the two players take turns, the first first

    def make(self) -> list[Turn]:
        claims = self.arrays[0].tolist()
        kinds = {E.KIND_LINE: E.LINE, E.KIND_PASS: E.PASS, E.KIND_TIME: E.TIME}
        return [Turn(kinds[kind], (x1, y1, x2, y2) if kind == E.KIND_LINE else None, claims[lo:hi])
                for kind, x1, y1, x2, y2, lo, hi, *_ in self.rows.tolist()]


class GameOfIslandsVisitor(pgn.Visitor):
    """Reads one game, or the games of a triad in order, each turn played through the walk
    as it is read; raises the first error in reading order (codes, order and positions:
    shared/data/goi/README.md). A stated result that differs from the replay goes through the
    error policy."""
    result_pattern = re.compile(r"\*|[0-9]{1,4}-[0-9]{1,4}")
    engine = ENGINE

    def __init__(self, policy=STRICT):
        super().__init__(policy)
        self.games: list[GoiGame] = []
        self.match: str | None = None
        self.players: tuple[str, str] | None = None  # the triad's players, from its first game
        self.out_of_time: set[str] = set()  # players out of time in an earlier grid of the triad
        self.pgn_games: list[pgn.PgnGame] = []

    @property
    def grid(self) -> E.Grid:
        """The grid as the walk has played it so far."""
        return self.walk.state

    # ---- positions
    def ply(self) -> int:
        return self.grid.ply + 1

    def seat_names(self) -> list[str]:
        return list(self.players or (self.first, self.second))

    def _error(self, cls, code: str, message: str, part, ply: int | None = None):
        ply = self.ply() if ply is None else ply
        return cls(code, message, line=part.line, column=part.column, token=part.text, ply=ply, move=(ply + 1) // 2)

    def token_error(self, token, code: str, message: str) -> ParseError:
        return self._error(ParseError, code, message, token)

    def _tag_error(self, code: str, message: str, name: str, cls=ParseError):
        t = self.pg.tag_tokens.get(name)
        if t is None:  # a required tag is missing: the game's first line
            return cls(code, message, line=self.pg.line, column=1)
        return cls(code, message, line=t.line, column=t.column, token=t.text)

    # ---- the game's tags
    def begin_game(self, pg: pgn.PgnGame) -> None:
        self.pg = pg
        k = len(self.games)
        if k == 0:
            self.match = pg.tags.get("Match")
        if self.match is not None and k >= len(TRIAD_GRIDS):
            raise self._tag_error("triad-grid-order", f"a triad has {len(TRIAD_GRIDS)} games; this is game "
                                  f"{k + 1} of Match {self.match}", "Grid")
        n = self._grid()
        self._check_result_tags(pg.tags)
        self.first, self.second = pg.tags.get("First", "?"), pg.tags.get("Second", "?")
        if self.match is not None and n != TRIAD_GRIDS[k]:
            raise self._tag_error("triad-grid-order", f"the games of a triad are grids "
                                  f"{', '.join(map(str, TRIAD_GRIDS))} in this order; this game should be "
                                  f"{TRIAD_GRIDS[k]} x {TRIAD_GRIDS[k]}", "Grid")
        if self.players is not None:
            self._check_triad_players()
        self.grid_size = n
        self.turns: list[Turn] = []
        self.pending: tuple[_Part, list[_Part]] | None = None  # a turn whose claims are still coming

    def setup(self) -> tuple:
        return grid_setup(self.grid_size, self.first, self.second, self.out_of_time)

    def _grid(self) -> int:
        """The game's Grid tag, a size from MIN_GRID to MAX_GRID."""
        pg = self.pg
        if "Grid" not in pg.tags:
            raise ParseError("bad-grid", f"a Game of Islands record needs a Grid tag ({MIN_GRID} to {MAX_GRID})",
                             line=pg.line, column=1)
        n = small_int(pg.tags["Grid"])
        if n is None or pg.tags["Grid"].startswith("-") or not MIN_GRID <= n <= MAX_GRID:
            raise self._tag_error("bad-grid", f"Grid must be a whole number from {MIN_GRID} to {MAX_GRID}", "Grid")
        return n

    def _check_result_tags(self, tags: dict) -> None:
        if "Result" in tags and not (tags["Result"] == "*" or SCORE_RE.match(tags["Result"])):
            raise self._tag_error("bad-result", "Result is the grid score First-Second, e.g. 12-9, or *", "Result")
        if "MatchResult" in tags and tags["MatchResult"] not in MATCH_RESULTS:
            raise self._tag_error("bad-result", "MatchResult is 1-0, 0-1 or 1/2-1/2", "MatchResult")

    def _check_triad_players(self) -> None:
        """A triad's later games are played by its first game's two players."""
        for name, who in (("First", self.first), ("Second", self.second)):
            if who not in self.players or self.first == self.second:
                where = self.pg.tag_tokens.get(name)
                raise ParseError("triad-players", f"the games of a triad are played by "
                                 f"{' and '.join(self.players)}", line=where.line if where else self.pg.line,
                                 column=where.column if where else 1, token=who)

    # ---- a record read in compiled calls
    def read_compiled(self, games: list[pgn.PgnGame]) -> GoiRecord | None:
        """The record read a grid a compiled call (``game_of_islands_compiled.read_grid``), or
        None: a comment, a fault, a stated result the replay contradicts (the walk reads it and
        says why). The tags are read, and each grid and the triad settled, by the walk's own
        ``begin_game``, ``end_game`` and ``result``. Declining, it leaves the visitor as it was
        made, for the walk."""
        if any(pg.movetext_lines() is None for pg in games):
            return None
        record = self._read_compiled(games)
        if record is None:
            self.__init__(self.policy)
        return record

    def _read_compiled(self, games: list[pgn.PgnGame]) -> GoiRecord | None:
        for pg in games:
            self.begin(pg)
            data = movetext_bytes(pg.movetext_lines())
            if data is None:
                return None
            grid = self.grid
            meta = grid.scalars()
            status, text, width, turns, claims, result_a, result_b = compiled_grid.read_grid(
                data, grid.n, grid.used, grid.diag, grid.owner, meta)
            if status != compiled_grid.OK:
                return None
            grid.take_scalars(meta)
            stated = text_between(data, result_a, result_b)
            lines = text.tobytes().decode("ascii")
            self.turns = GridTurns(turns, lines, claims)
            if not self.settled(lambda: self.end_game(pg, None if stated is None else pgn.Token(stated, 0, 0)))[0]:
                return None  # the walk's end of a grid: its stated results
            self.games[-1].written = (lines, width)
        settled, record = self.settled(self.result)  # and of the triad: its MatchResult
        return record if settled else None

    # ---- movetext
    def visit_move_number(self, number: int, token: pgn.Token) -> None:
        if self.pending is not None:  # where a claim must come
            self._claim_part(_Part(token.text, token.line, token.column, False))
            return
        super().visit_move_number(number, token)

    def expected_move_number(self) -> int:
        return self.grid.ply // 2 + 1

    def can_end(self) -> bool:
        return self.pending is None

    def visit_comment(self, token: pgn.Token) -> None:
        if self.pending is not None:
            raise self._error(ParseError, "bad-token", "a comma must be followed by a claimed dot", self.pending[0])
        commands, _ = pgn.comment_commands(token.text)
        if "clk" in commands and not CLOCK_RE.match(commands["clk"]):
            raise ParseError("bad-comment", "a clock reads [%clk h:mm:ss]", line=token.line, column=token.column,
                             token=commands["clk"], ply=self.grid.ply or None)
        if self.turns:
            self.turns[-1].comments.append(token.text)

    def visit_move(self, token: pgn.Token) -> None:
        for part in _pieces(token):
            if self.pending is not None:
                self._claim_part(part)
            elif part.comma:
                self.pending = (part, [])
            else:
                self._turn(part, [])

    def _claim_part(self, part: _Part) -> None:
        head, claims = self.pending
        claims.append(part)
        if not part.comma:
            self.pending = None
            self._turn(head, claims)

    def _dot(self, part: _Part) -> tuple[int, int]:
        m = DOT_RE.match(part.text)
        if not m:
            raise self._error(ParseError, "bad-token", "a dot is a file letter and a rank number, e.g. J6", part)
        return ord(m.group(1).upper()) - ord("A"), int(m.group(2)) - 1

    def _claimed(self, part: _Part) -> int:
        """A claimed dot's index on this grid (-1 off the grid: the rules refuse it there)."""
        x, y = self._dot(part)
        n = self.grid.n
        return y * n + x if 0 <= x < n and 0 <= y < n else -1

    def _turn(self, head: _Part, claims: list[_Part]) -> None:
        """Read the turn's text into an action and play it through the walk. A part that is
        not written right comes after the rules' refusal of the parts before it (reading
        order), so the turn as far as it was read is played first."""
        text = head.text
        kind = E.TIME if text.lower() == "time" else E.PASS if text == "--" else E.LINE
        line, dots, fault = None, [], None
        m = LINE_RE.match(text)
        if kind == E.LINE and not m:  # judged as a line turn with no line: whether one may be drawn now
            fault = self._error(ParseError, "bad-token", "a turn is a line such as A1-B2, '--' or 'time'", head)
        elif kind == E.LINE:
            line = self._dot(_Part(m.group(1), head.line, head.column, False)) + \
                self._dot(_Part(m.group(2), head.line, head.column, False))
        for part in claims if fault is None else ():
            try:
                dots.append(self._claimed(part))
            except ParseError as err:
                fault = err
                break
        self._play((kind, line, tuple(dots)), [head, *claims], fault)
        self.turns.append(Turn(kind, line, dots))

    def _play(self, action, parts: list[_Part], fault: ParseError | None) -> None:
        """Play ``action`` (the turn as far as it is written right); then raise ``fault``, the
        writing's, unless the rules refused an earlier part."""
        try:
            self.walk.play(action, [Place(p.line, p.column, p.text) for p in parts])
        except IllegalMove as refusal:
            if refusal.code == "bad-token":  # a turn the rules cannot read: its writing is at fault
                raise fault or ParseError(refusal.code, refusal.message, line=refusal.line,
                                          column=refusal.column, ply=refusal.ply, token=refusal.token,
                                          move=(refusal.ply + 1) // 2) from None
            refusal.move = (refusal.ply + 1) // 2  # the record counts pairs of turns
            raise
        if fault is not None:
            raise fault

    # ---- the game's end and result
    def end_game(self, pg: pgn.PgnGame, result_part: pgn.Token | None) -> None:
        if self.pending is not None:
            raise self._error(ParseError, "bad-token", "a comma must be followed by a claimed dot", self.pending[0])
        grid = self.grid
        points, islands, bonus = grid.score()
        stated_tag = pg.tags.get("Result")
        stated_text = result_part.text if result_part is not None else None
        self._check_results(pg, result_part, f"{points[0]}-{points[1]}", grid.stopped)
        tags = {k: v for k, v in pg.tags.items() if k != "Game"}
        self.games.append(GoiGame(pg.index, tags, grid.n, self.first, self.second, self.turns,
                                  stated_text or stated_tag or "*", points, islands, bonus,
                                  "complete" if grid.stopped else "unfinished", list(grid.out)))
        if self.players is None:
            self.players = (self.first, self.second)
        self.out_of_time |= {name for name, gone in zip((self.first, self.second), grid.out) if gone}
        self.pgn_games.append(pg)

    def _check_results(self, pg: pgn.PgnGame, result_part: pgn.Token | None, computed: str, stopped: bool) -> None:
        """The stated results (the Result tag, the movetext's) against the replay: a result on a
        grid not over, one that differs from the replay's score, or two that differ."""
        stated_tag = pg.tags.get("Result")
        stated_text = result_part.text if result_part is not None else None
        errors: list[RecordRejected] = []
        for stated, at in ((stated_tag, pg.tag_tokens.get("Result")), (stated_text, result_part)):
            if stated is None or stated == "*":
                continue
            if not stopped:
                raise ParseError("missing-final-move", "the result says the grid ended, but legal lines remain "
                                 "and no timeout is recorded", line=at.line, column=at.column, token=stated)
            if stated != computed:
                errors.append(ScoreMismatch("score-mismatch", f"the stated result {stated} differs from the replay "
                                            f"{computed}", line=at.line, column=at.column, token=stated))
        if stated_tag is not None and stated_text is not None and stated_tag != stated_text and not errors:
            raise ParseError("bad-result", f"the movetext result {stated_text} differs from the Result tag "
                             f"{stated_tag}", line=result_part.line, column=result_part.column, token=stated_text)
        for err in errors:
            self.handle_error(err)

    def result(self) -> GoiRecord:
        record = GoiRecord(self.games, self.match, self.warnings)
        if self.match is not None:
            computed = record.score["result"]
            for pg in self.pgn_games:
                stated = pg.tags.get("MatchResult")
                if stated is not None and record.finished and stated != computed:
                    self.pg = pg
                    self.handle_error(self._tag_error(
                        "match-result-mismatch", f"MatchResult {stated} differs from the margin rule: totals "
                        f"{record.totals()[0]}-{record.totals()[1]} give {computed}", "MatchResult", ScoreMismatch))
        return record


def read_group(games: list[pgn.PgnGame], policy=STRICT) -> GoiRecord:
    """One record from one game, or from the games of a triad (same Match tag, file order)."""
    return pgn.read_record(games, GameOfIslandsVisitor(policy))


# ---------------------------------------------------------------- writing

def turn_text(n: int, turn: Turn) -> str:
    """A turn as Scorebook notation writes it: the line in canonical direction, then the claims."""
    if turn.kind == "time":
        head = "time"
    elif turn.kind == "pass":
        head = "--"
    else:
        x1, y1, x2, y2 = canonical_line(*turn.line)
        head = f"{dot_name(n, y1 * n + x1)}-{dot_name(n, y2 * n + x2)}"
    return ", ".join([head] + [dot_name(n, d) for d in turn.claims])


def render(record: GoiRecord) -> tuple[str, MovesRows]:
    """Canonical text (upper case, canonical line direction, one space, wrapped) and the
    moves rows (game, ply, player, move, note)."""
    blocks, rows = [], MovesRows()
    for number, g in enumerate(record.games, 1):
        tags = {"Game": GAME}
        tags.update(g.tags)
        tags["Result"] = g.result
        if g.written is not None:  # the compiled reader wrote the turns
            lines, width = g.written
            rows.add((number, g.turns))
            blocks.append(pgn.write_tags(tags) + "\n\n" + pgn.wrap_after(lines, width, g.result) + "\n")
            continue
        words, grid_rows = [], []
        for ply, turn in enumerate(g.turns, 1):
            if ply % 2 == 1:
                words.append(f"{(ply + 1) // 2}.")
            elif g.turns[ply - 2].comments:  # PGN style: resume after a comment with "N..."
                words.append(f"{ply // 2}...")
            text = turn_text(g.grid, turn)
            words.append(text)
            for c in turn.comments:
                words.append(pgn.wrap_comment(c))
            grid_rows.append((number, ply, (ply - 1) % 2, text, " ".join(turn.comments) or None))
        rows.add(grid_rows)
        words.append(g.result)
        blocks.append(pgn.write_tags(tags) + "\n\n" + "\n".join(pgn.wrap_words(words)) + "\n")
    return "\n".join(blocks), rows


def score_rows(record: GoiRecord) -> list[tuple[int, str, int]]:
    a = record.players[0]
    rows = []
    for seat in (0, 1):
        pts = isl = bon = 0
        for g in record.games:
            s = (0 if g.first == a else 1) if seat == 0 else (1 if g.first == a else 0)
            pts += g.points[s]
            isl += g.islands[s]
            bon += g.bonus[s]
        rows += [(seat, "points", pts), (seat, "islands", isl), (seat, "bonus", bon)]
    return rows


class GridView(NamedTuple):
    """A grid's position for boards: the engine's arrays and the lines drawn so far."""
    n: int
    used: np.ndarray
    diag: np.ndarray
    owner: np.ndarray
    lines: tuple


def move_text(ply: int, text: str) -> str:
    """A turn as ``show`` prints it: ``3. I1-J2, J1`` for First, ``3... H1-H3`` for Second."""
    return f"{(ply + 1) // 2}{'.' if ply % 2 else '...'} {text}"


def action_text(grid, action) -> str:
    """An engine's turn (kind, line, claims) as the movetext writes it (``turn_text``)."""
    kind, line, claims = action
    return turn_text(grid.n, Turn(kind, line, list(claims)))


def write_grid(n: int, actions, states: list, tags: dict[str, str]) -> tuple[str, list[int]]:
    """One grid's turns, the engine's actions (kind, line, claims) First first, as Scorebook
    notation with the result the engine scores of its last state (``states``: the grid before
    the first turn and after each); returns (text, points)."""
    words = []
    for i, (action, before) in enumerate(zip(actions, states)):
        if i % 2 == 0:
            words.append(f"{i // 2 + 1}.")
        words.append(action_text(before, action))
    points = ENGINE.score(states[-1])["points"]
    words.append(f"{points[0]}-{points[1]}")
    tags = dict(tags, Result=words[-1])
    return pgn.write_tags(tags) + "\n\n" + "\n".join(pgn.wrap_words(words)) + "\n", points


def bot_grid_text(n: int, lines, tags: dict[str, str]) -> tuple[str, list[int]]:
    """A grid played by bots (their lines; each mover claims the islands its line makes)."""
    from scorebook.engines.game_of_islands.game import claimed_turns
    turns, states = claimed_turns(n, lines)
    return write_grid(n, turns, states, tags)


class GameOfIslandsNotation(Notation):
    game_id = GAME

    def visitor(self, policy: ErrorPolicy) -> GameOfIslandsVisitor:
        return GameOfIslandsVisitor(policy)

    def group_key(self, game: pgn.PgnGame) -> str | None:
        """The games of a triad share a Match tag."""
        return game.tags.get("Match")

    def canonical(self, record: GoiRecord, policy: ErrorPolicy) -> Canonical:
        """Game of Islands records were replayed while they were read (first error in reading order)."""
        text, rows = render(record)
        if record.match is None:
            g = record.games[0]
            recorded = None if g.result == "*" else {"grid": g.grid, "points": [int(v) for v in g.result.split("-")]}
        else:
            stated = [None if g.result == "*" else {"grid": g.grid, "points": [int(v) for v in g.result.split("-")]}
                      for g in record.games]
            match_stated = next((g.tags["MatchResult"] for g in record.games if "MatchResult" in g.tags), None)
            recorded = None if not any(stated) and match_stated is None else {"games": stated, "result": match_stated}
        return Canonical(text=text, moves=rows, score=record.score, recorded=recorded, score_rows=score_rows(record),
                         players=record.players, tags=record.tags, finished=record.finished,
                         warnings=record.warnings)

    def games(self, record: GoiRecord):
        """Each grid: its size and who is out of time from an earlier grid; every turn."""
        out: set[str] = set()
        games = []
        for g in record.games:
            games.append((grid_setup(g.grid, g.first, g.second, out), [Step((t.kind, t.line, tuple(t.claims)), (ply - 1) % 2,
                                       move_text(ply, turn_text(g.grid, t)), " ".join(t.comments) or None)
                                  for ply, t in enumerate(g.turns, 1)]))
            out |= {name for name, gone in zip((g.first, g.second), g.timed_out) if gone}
        return games

    def view(self, record: GoiRecord, grid, before: GridView | None, step: Step | None) -> GridView:
        """The grid's arrays and the lines drawn so far."""
        lines = () if before is None else before.lines
        if step is not None and step.action[1] is not None:
            lines = lines + (step.action[1],)
        return GridView(grid.n, grid.used.copy(), grid.diag.copy(), grid.owner.copy(), lines)

    def action_text(self, grid, action) -> str:
        return action_text(grid, action)

    def write_walked(self, setup, actions, states, players, tags) -> str:
        """One grid (the setup's first): First and Second the players by seat. A triad as
        ``play`` keeps it (a setup of several grids, the actions and states a list a grid):
        First alternating from grid to grid, the match's result on the last grid."""
        grids = setup["grids"]
        if len(grids) == 1 or not isinstance(states[0], list):
            grid_tags = {"Game": GAME, **tags, "Grid": str(grids[0]), "First": players[0], "Second": players[1]}
            return write_grid(grids[0], actions, states, grid_tags)[0]
        margin = 0  # the first grid's First's points less the other player's, over the grids
        for k, grid_states in enumerate(states):
            points = ENGINE.score(grid_states[-1])["points"]
            margin += (points[0] - points[1]) * (1 if k % 2 == 0 else -1)
        texts = []
        for k, (n, grid_actions, grid_states) in enumerate(zip(grids, actions, states)):
            grid_tags = {"Game": GAME, **tags, "Grid": str(n)}
            if k == len(grids) - 1:
                grid_tags["MatchResult"] = E.match_result(margin)
            grid_tags.update({"First": players[k % 2], "Second": players[1 - k % 2]})
            texts.append(write_grid(n, grid_actions, grid_states, grid_tags)[0])
        return "\n".join(texts)

    def bot_tags(self, setup, seats, context) -> dict[str, str]:
        """A triad's grids share their Match: the seed and the game."""
        return {"Match": f"{context['seed']}.{context['game'] + 1}"} if len(setup["grids"]) > 1 else {}

    def seat_points(self, score: dict) -> list[float]:
        return list(score.get("totals") or score["points"])

    def score_lines(self, score: dict, players: list[str]) -> list[str]:
        a, b = (players + ["First", "Second"])[:2] if len(players) >= 2 else ("First", "Second")

        def grid(g: dict, k: int = 0) -> str:  # a triad's First alternates from grid to grid
            first, second = (a, b) if k % 2 == 0 else (b, a)
            return (f"{g['grid']}x{g['grid']}: {first} {g['points'][0]}, {second} {g['points'][1]} (islands "
                    f"{g['islands'][0]}-{g['islands'][1]}, bonus {g['bonus'][0]}-{g['bonus'][1]})")
        if "totals" not in score:
            return [grid(score)]
        verdict = {"1-0": f"{a} wins the match", "0-1": f"{b} wins the match",
                   "1/2-1/2": "a drawn match (a margin under 2)"}[score["result"]]
        return [grid(g, k) for k, g in enumerate(score["games"])] + [
            f"totals: {a} {score['totals'][0]}, {b} {score['totals'][1]}, margin {score['margin']:+d} for {a}: "
            f"{verdict} ({score['result']})"]

    def game_headers(self, record) -> dict[int, dict[str, str]]:
        if len(record.games) < 2:
            return {}
        return {k: g.tags for k, g in enumerate(record.games, 1)}

    def seat_outcomes(self, score: dict) -> list[str | None]:
        # a triad is won by a margin of 2 or more (spec §6): 17-16 is a drawn match
        outcomes = {"1-0": ["win", "loss"], "0-1": ["loss", "win"], "1/2-1/2": ["shared", "shared"]}
        return outcomes[score["result"]] if "totals" in score else super().seat_outcomes(score)

    def file_label(self, options: dict) -> str:
        return "triad" if options.get("triad") else str(options.get("grid") or 10)


NOTATION = GameOfIslandsNotation()
