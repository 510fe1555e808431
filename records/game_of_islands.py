"""The Game of Islands records: read, validate move by move, group triads, write back.

Spec: ``shared/specs/game-of-islands.md`` with ``shared/data/goi/README.md`` (error codes,
their order and positions, timeouts, ``MatchResult``). A game is a PGN-style record with a
``Grid`` tag; games sharing a ``Match`` tag in one file form a triad (10, 12, 14), stored
as one record. Reading and replaying happen in one pass, so the error reported is the first
in reading order.

>>> from scorebook.records import pgn
>>> rec = read_group(pgn.split_games(EXAMPLE))
>>> rec.score
{'grid': 10, 'points': [1, 0], 'islands': [1, 0], 'bonus': [0, 0]}
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from importlib import resources

from scorebook.engines.game_of_islands import engine as E

from . import pgn
from .errors import IllegalMove, ParseError, RecordRejected, ScoreMismatch

GAME = "game-of-islands"
_FACTS = json.loads(resources.files("scorebook.engines.game_of_islands").joinpath("game.json").read_text())
MIN_GRID, MAX_GRID = _FACTS["grid_sizes"]["min"], _FACTS["grid_sizes"]["max"]
TRIAD_GRIDS = tuple(_FACTS["grid_sizes"]["tournament"])
BONUS = _FACTS["last_line_bonus"]
WIN_MARGIN = _FACTS["match_win_margin"]
DEFAULT_TIEBREAKS: list[str] = list(_FACTS["default_tiebreaks"])

DOT_RE = re.compile(r"^([A-Za-z])(\d{1,3})$")
LINE_RE = re.compile(r"^([A-Za-z]\d{1,3})-([A-Za-z]\d{1,3})$")
MOVE_NUMBER_RE = re.compile(r"^(\d+)\.(\.\.)?(.*)$")
SCORE_RE = re.compile(r"^(\d+)-(\d+)$")
CLOCK_RE = re.compile(r"^\d+:\d\d:\d\d$")
MATCH_RESULTS = ("1-0", "0-1", "1/2-1/2")

EXAMPLE = """[Grid "10"]
[First "Ann"]
[Second "Bob"]
[Result "*"]

1. I1-J2, J1 H1-H3 *
"""


def dot_name(n: int, d: int) -> str:
    return chr(ord("A") + d % n) + str(d // n + 1)


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


def match_result(margin: int) -> str:
    return "1-0" if margin >= WIN_MARGIN else "0-1" if margin <= -WIN_MARGIN else "1/2-1/2"


# ---------------------------------------------------------------- reading

@dataclass(slots=True)
class _Part:
    """A piece of movetext: a word, or one comma-separated piece of it."""
    text: str
    line: int
    column: int
    comma: bool  # a comma follows: claims come next


def _parts(tokens: list[pgn.Token]):
    """Words split at commas, with comments kept as they are (kind 'comment')."""
    for tok in tokens:
        if tok.kind == pgn.COMMENT:
            yield tok
            continue
        if tok.kind != pgn.WORD:
            yield _Part(tok.text, tok.line, tok.column, False)
            continue
        m = MOVE_NUMBER_RE.match(tok.text)
        text, col = tok.text, tok.column
        if m and m.group(3):  # "1.A1-B2": the number stuck to the move
            number = tok.text[:len(tok.text) - len(m.group(3))]
            yield _Part(number, tok.line, col, False)
            col += len(number)
            text = m.group(3)
        pieces = text.split(",")
        for i, piece in enumerate(pieces):
            if piece:
                yield _Part(piece, tok.line, col, i < len(pieces) - 1)
            elif i < len(pieces) - 1 and i > 0:
                yield _Part("", tok.line, col, True)  # ",," : an empty claim
            col += len(piece) + 1


def _tag_error(code, message, game: pgn.PgnGame, name: str, cls=ParseError):
    t = game.tag_tokens[name]
    return cls(code, message, line=t.line, column=t.column, token=t.text)


def _tag_bracket(game: pgn.PgnGame, name: str) -> tuple[int, int]:
    t = game.tag_tokens[name]
    return t.line, t.column


class _GameChecker:
    """Replays one game token by token; raises the first error with its position."""

    def __init__(self, pg: pgn.PgnGame, n: int, out_from_start: set[str], first: str, second: str):
        self.pg = pg
        self.n = n
        self.used, self.diag, self.owner = E.new_state(n)
        self.names = (first, second)
        self.out = [first in out_from_start, second in out_from_start]
        self.ply = 0
        self.over = False  # no legal line remains
        self.last_line_by = None
        self.final_turn_taken = False
        self.turns: list[Turn] = []

    def mover(self) -> int:
        return self.ply % 2

    def err(self, cls, code, message, part, ply=None):
        ply = self.ply + 1 if ply is None else ply
        return cls(code, message, line=part.line, column=part.column, token=part.text,
                   ply=ply, move=(ply + 1) // 2)

    def dot(self, part: _Part) -> int:
        m = DOT_RE.match(part.text)
        if not m:
            raise self.err(ParseError, "bad-token", "a dot is a file letter and a rank number, e.g. J6", part)
        x = ord(m.group(1).upper()) - ord("A")
        y = int(m.group(2)) - 1
        if not (0 <= x < self.n and 0 <= y < self.n):
            raise self.err(IllegalMove, "off-grid", f"{part.text} is off the {self.n} x {self.n} grid", part)
        return y * self.n + x

    def line(self, part: _Part) -> tuple[int, int, int, int]:
        m = LINE_RE.match(part.text)
        if not m:
            raise self.err(ParseError, "bad-token", "a turn is a line such as A1-B2, '--' or 'time'", part)
        ends = []
        for text in (m.group(1), m.group(2)):
            dm = DOT_RE.match(text)
            x = ord(dm.group(1).upper()) - ord("A")
            y = int(dm.group(2)) - 1
            if not (0 <= x < self.n and 0 <= y < self.n):
                raise self.err(IllegalMove, "off-grid", f"{text} is off the {self.n} x {self.n} grid", part)
            ends += [x, y]
        x1, y1, x2, y2 = ends
        code = E.line_code(self.n, self.used, self.diag, x1, y1, x2, y2)
        if code != E.OK:
            raise self.err(IllegalMove, E.LINE_CODE_NAMES[code], E.LINE_CODE_MESSAGES[code], part)
        return x1, y1, x2, y2

    def claim(self, part: _Part, seen: set[int]) -> int:
        d = self.dot(part)
        x, y = d % self.n, d // self.n
        if self.used[d]:
            raise self.err(IllegalMove, "claim-used-dot", f"{part.text} lies on a line", part)
        if d in seen:
            raise self.err(IllegalMove, "claim-repeated", f"{part.text} is claimed twice in one turn", part)
        if self.owner[d] >= 0:
            raise self.err(IllegalMove, "claim-already-claimed", f"{part.text} is already claimed", part)
        if not E.is_island(self.n, self.used, self.diag, x, y):
            raise self.err(IllegalMove, "claim-not-island", f"{part.text} is not an island: a line can still "
                           "pass through it", part)
        return d

    def turn(self, head: _Part, claims: list[_Part]) -> Turn:
        p = self.mover()
        text = head.text
        kind = "time" if text.lower() == "time" else "pass" if text == "--" else "line"
        if self.out[0] and self.out[1]:
            raise self.err(IllegalMove, "move-after-end", "both players are out of time: the grid has stopped", head)
        if self.over:
            if kind == "line" or p == self.last_line_by or self.final_turn_taken:
                raise self.err(IllegalMove, "move-after-end", "the grid is over: no legal line remains", head)
        if self.out[p] and kind != "time":
            raise self.err(IllegalMove, "move-after-timeout",
                           f"{self.names[p]} is out of time: every later turn is written 'time'", head)
        turn = Turn(kind)
        if kind == "time":
            if claims:
                raise self.err(ParseError, "bad-token", "a player out of time claims nothing", claims[0])
            self.out[p] = True
        elif kind == "pass":
            if not self.over:
                raise self.err(IllegalMove, "pass-not-allowed", "'--' is only the final claim-only turn, "
                               "when no legal line remains", head)
            self.final_turn_taken = True
        else:
            turn.line = self.line(head)
            E.apply_line(self.n, self.used, self.diag, *turn.line)
            self.last_line_by = p
        seen: set[int] = set()
        for part in claims:
            d = self.claim(part, seen)
            seen.add(d)
            turn.claims.append(d)
        for d in turn.claims:
            self.owner[d] = p
        if kind == "line" and not E.has_legal_line(self.n, self.used, self.diag):
            self.over = True
        self.ply += 1
        self.turns.append(turn)
        return turn


def _check_game(pg: pgn.PgnGame, *, expected_grid: int | None = None, triad_players: tuple | None = None,
                out_from_start: set[str] = frozenset()) -> tuple[GoiGame, list[RecordRejected]]:
    """Read and replay one game. Returns the game and its score errors (stated result differs),
    which the caller raises or keeps as warnings; raises every other error."""
    tags = {k: v for k, v in pg.tags.items() if k != "Game"}
    if "Grid" not in pg.tags:
        raise ParseError("bad-grid", "a Game of Islands record needs a Grid tag (4 to 26)", line=pg.line, column=1)
    grid_text = pg.tags["Grid"]
    if not grid_text.isdigit() or not MIN_GRID <= int(grid_text) <= MAX_GRID:
        raise _tag_error("bad-grid", f"Grid must be a whole number from {MIN_GRID} to {MAX_GRID}", pg, "Grid")
    n = int(grid_text)
    for name in ("Result",):
        if name in pg.tags and not (pg.tags[name] == "*" or SCORE_RE.match(pg.tags[name])):
            raise _tag_error("bad-result", "Result is the grid score First-Second, e.g. 12-9, or *", pg, name)
    if "MatchResult" in pg.tags and pg.tags["MatchResult"] not in MATCH_RESULTS:
        raise _tag_error("bad-result", "MatchResult is 1-0, 0-1 or 1/2-1/2", pg, "MatchResult")
    first, second = pg.tags.get("First", "?"), pg.tags.get("Second", "?")
    if expected_grid is not None and n != expected_grid:
        raise _tag_error("triad-grid-order", f"the games of a triad are grids {', '.join(map(str, TRIAD_GRIDS))} "
                         f"in this order; this game should be {expected_grid} x {expected_grid}", pg, "Grid")
    if triad_players is not None:
        for name, who in (("First", first), ("Second", second)):
            if who not in triad_players or first == second:
                where = pg.tag_tokens.get(name)
                raise ParseError("triad-players", f"the games of a triad are played by {' and '.join(triad_players)}",
                                 line=where.line if where else pg.line, column=where.column if where else 1,
                                 token=who)
    checker = _GameChecker(pg, n, set(out_from_start), first, second)
    parts = list(_parts(pg.tokens))
    result_part = None
    i = 0
    last_turn = None
    while i < len(parts):
        part = parts[i]
        i += 1
        if isinstance(part, pgn.Token):  # a comment
            commands, _ = pgn.comment_commands(part.text)
            if "clk" in commands and not CLOCK_RE.match(commands["clk"]):
                raise ParseError("bad-comment", "a clock reads [%clk h:mm:ss]", line=part.line,
                                 column=part.column, token=commands["clk"], ply=checker.ply or None)
            if last_turn is not None:
                last_turn.comments.append(part.text)
            continue
        if result_part is not None:
            raise checker.err(ParseError, "bad-token", "nothing may follow the result", part)
        m = MOVE_NUMBER_RE.match(part.text)
        if m and not part.comma:
            expected = checker.ply // 2 + 1
            if int(m.group(1)) != expected:
                raise checker.err(ParseError, "bad-move-number", f"expected move number {expected}", part)
            continue
        if (part.text == "*" or SCORE_RE.match(part.text)) and not part.comma:
            result_part = part
            continue
        claims = []
        comma = part.comma
        while comma:
            if i >= len(parts) or isinstance(parts[i], pgn.Token):
                raise checker.err(ParseError, "bad-token", "a comma must be followed by a claimed dot", part)
            claims.append(parts[i])
            comma = parts[i].comma
            i += 1
        last_turn = checker.turn(part, claims)
    timed_out = list(checker.out)
    bonus = [0, 0]
    if timed_out[0] != timed_out[1]:
        bonus[1 if timed_out[0] else 0] = BONUS  # the player with time left completes the grid
    elif not any(timed_out) and checker.over:
        bonus[checker.last_line_by] = BONUS
    islands = [int((checker.owner == 0).sum()), int((checker.owner == 1).sum())]
    points = [islands[0] + bonus[0], islands[1] + bonus[1]]
    stopped = checker.over or any(timed_out)
    stated_tag = pg.tags.get("Result")
    stated_text = result_part.text if result_part is not None else None
    errors: list[RecordRejected] = []
    computed = f"{points[0]}-{points[1]}"
    for stated, where in ((stated_tag, "tag"), (stated_text, "movetext")):
        if stated is None or stated == "*":
            continue
        if where == "tag":
            line, col = _tag_bracket(pg, "Result")
        else:
            line, col = result_part.line, result_part.column
        if not stopped:
            raise ParseError("missing-final-move", "the result says the grid ended, but legal lines remain "
                             "and no timeout is recorded", line=line, column=col, token=stated)
        if stated != computed:
            errors.append(ScoreMismatch("score-mismatch", f"the stated result {stated} differs from the replay "
                                        f"{computed}", line=line, column=col, token=stated))
    if stated_tag is not None and stated_text is not None and stated_tag != stated_text and not errors:
        raise ParseError("bad-result", f"the movetext result {stated_text} differs from the Result tag {stated_tag}",
                         line=result_part.line, column=result_part.column, token=stated_text)
    result = stated_text or stated_tag or "*"
    status = "complete" if stopped else "unfinished"
    game = GoiGame(pg.index, tags, n, first, second, checker.turns, result, points, islands, bonus, status,
                   timed_out)
    return game, errors


def read_group(games: list[pgn.PgnGame], *, lenient: bool = False) -> GoiRecord:
    """One record from one game, or from the games of a triad (same Match tag, file order).

    Raises the first error in reading order; with ``lenient`` a stated result that differs
    from the replay becomes a warning."""
    match = games[0].tags.get("Match")
    checked: list[GoiGame] = []
    warnings: list[str] = []
    out: set[str] = set()
    players = None
    for k, pg in enumerate(games):
        expected = None
        if match is not None:
            expected = TRIAD_GRIDS[k] if k < len(TRIAD_GRIDS) else -1
            if expected == -1:
                raise _tag_error("triad-grid-order", f"a triad has {len(TRIAD_GRIDS)} games; this is game {k + 1} "
                                 f"of Match {match}", pg, "Grid")
        game, errors = _check_game(pg, expected_grid=expected, triad_players=players, out_from_start=out)
        if errors:
            if not lenient:
                raise errors[0]
            warnings.extend(e.describe() for e in errors)
        if players is None:
            players = (game.first, game.second)
        out |= {name for name, gone in zip((game.first, game.second), game.timed_out) if gone}
        checked.append(game)
    record = GoiRecord(checked, match, warnings)
    if match is not None:
        computed = record.score["result"]
        for pg in games:
            stated = pg.tags.get("MatchResult")
            if stated is not None and record.finished and stated != computed:
                err = _tag_error("match-result-mismatch", f"MatchResult {stated} differs from the margin rule: "
                                 f"totals {record.totals()[0]}-{record.totals()[1]} give {computed}", pg, "MatchResult",
                                 ScoreMismatch)
                if not lenient:
                    raise err
                warnings.append(err.describe())
    return record


# ---------------------------------------------------------------- writing

def _turn_text(n: int, turn: Turn) -> str:
    if turn.kind == "time":
        head = "time"
    elif turn.kind == "pass":
        head = "--"
    else:
        x1, y1, x2, y2 = canonical_line(*turn.line)
        head = f"{dot_name(n, y1 * n + x1)}-{dot_name(n, y2 * n + x2)}"
    return ", ".join([head] + [dot_name(n, d) for d in turn.claims])


def _wrap(words: list[str], width: int = 79) -> list[str]:
    lines, current = [], ""
    for w in words:
        if current and len(current) + 1 + len(w) > width:
            lines.append(current)
            current = w
        else:
            current = f"{current} {w}" if current else w
    if current:
        lines.append(current)
    return lines


def render(record: GoiRecord) -> tuple[str, list[tuple]]:
    """Canonical text (upper case, canonical line direction, one space, wrapped) and the
    moves rows (game, ply, player, move, note)."""
    blocks, rows = [], []
    for number, g in enumerate(record.games, 1):
        tags = {"Game": GAME}
        tags.update(g.tags)
        tags["Result"] = g.result
        words = []
        for ply, turn in enumerate(g.turns, 1):
            if ply % 2 == 1:
                words.append(f"{(ply + 1) // 2}.")
            elif g.turns[ply - 2].comments:  # PGN style: resume after a comment with "N..."
                words.append(f"{ply // 2}...")
            text = _turn_text(g.grid, turn)
            words.append(text)
            for c in turn.comments:
                words.append(pgn.wrap_comment(c))
            rows.append((number, ply, (ply - 1) % 2, text, " ".join(turn.comments) or None))
        words.append(g.result)
        blocks.append(pgn.write_tags(tags) + "\n\n" + "\n".join(_wrap(words)) + "\n")
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


def states(record: GoiRecord):
    """Yield (game number, ply, move text, n, used, diag, owner) after every turn, for ``show``."""
    for number, g in enumerate(record.games, 1):
        n = g.grid
        used, diag, owner = E.new_state(n)
        for ply, turn in enumerate(g.turns, 1):
            if turn.line is not None:
                E.apply_line(n, used, diag, *turn.line)
            for d in turn.claims:
                owner[d] = (ply - 1) % 2
            yield number, ply, _turn_text(n, turn), n, used.copy(), diag.copy(), owner.copy()
