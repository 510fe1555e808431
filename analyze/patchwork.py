"""Patchwork analysis: the evaluator, and the text, JSON and SVG quilts.

One player: a position's value is the final score of ``best``'s plan from it (the game has
no chance, so a plan is exact once played: no standard error); a move's loss is the plan's
value before it minus the plan's value after it. Two players: a move's value is the final
margin from the mover's side, the mean of value-guided play-outs (the same seeds for every
candidate: the standard error is the paired one).
"""
from __future__ import annotations

import colorsys

import numpy as np

from scorebook import registry
from scorebook.engines.patchwork import bots as B, pieces as P, planner as PL, rules as R, search as S
from scorebook.records import patchwork as PW

from . import svg
from .loss import LINE_MOVES, MoveRow, base_stderr, rank, top_moves, topped_up, with_played, wants_line
from .protocol import Analysis

CELL = 22
LEATHER_FILL, EMPTY_FILL = "#8c6d46", "#f4f1ea"


def patch_colour(patch: int) -> str:
    """A light colour of its own for each patch (hues spread by the golden angle)."""
    r, g, b = colorsys.hls_to_rgb((patch * 0.618034) % 1.0, 0.72, 0.55)
    return f"#{int(r * 255):02x}{int(g * 255):02x}{int(b * 255):02x}"


def move_cells(move: str | None, two_player: bool) -> tuple[int, list[int]] | None:
    """(seat, squares) a move covers, or None (an advance, a skip, a shape-less buy)."""
    if not move:
        return None
    parsed = PW.parse_move(move, two_player)
    if parsed is None:
        return None
    seat, kind, a, b = parsed
    if kind == R.BUY and b != R.NO_PLACE:
        k = int(R.placement_of(a, b))
        return (seat, P.cells_of(int(P.PL_LO[k]), int(P.PL_HI[k]))) if k >= 0 else None
    if kind == R.LEATHER_MOVE and 0 <= a < P.CELLS:
        return seat, [a]
    return None


def _line(before: np.ndarray, first, choose) -> list[str]:
    """Two players: the bot's line after ``first`` from a position (``before``, unchanged):
    each seat's move in turn as ``choose(state, moves so far)`` gives it (None: no more), up to
    ``LINE_MOVES`` moves or the game's end."""
    s, out, move = before.copy(), [], tuple(int(v) for v in first)
    while True:
        if R.apply(s, *move) != R.OK or len(out) == LINE_MOVES or R.is_over(s):
            return out
        seat = int(s[R.TO_MOVE])
        move = choose(s, len(out))
        if move is None:
            return out
        out.append(f"{seat + 1}:" + PW.move_text(*move))


def _duel_line(before: np.ndarray, first, playouts: int, seed: int) -> list[str]:
    """The line of the play-outs' bot: each choice with its candidates played out ``playouts`` times."""
    return _line(before, first, lambda s, k: S.duel_choice(s, playouts, seed + k)[0])


SOLVE_SPACES = 44  # the end is solved once the two seats have this many time spaces left between them, or fewer


def _solved_line(before: np.ndarray, first, table) -> list[str]:
    """The end solved: each seat's best move of the solve (``search.duel_options``) in turn."""
    options, values = np.empty((1 + R.WINDOW, 3), np.int64), np.empty(1 + R.WINDOW, np.float64)

    def best(s, _):
        n = int(S.duel_options(s, options))
        if not S.solved_values(s, options[:n], *table, 10 ** 7, values[:n]):
            return None
        return tuple(int(v) for v in options[int(np.argmax(values[:n]))])
    return _line(before, first, best)


TARGET_STDERR = 1.0  # points: a two-player move's loss is topped up until this sure (half the inaccuracy threshold)


def duel_values(s: np.ndarray, candidates: np.ndarray, options: dict[str, int], playouts: int,
                seed: int) -> np.ndarray:
    """Two players: each candidate's margins (a row a candidate, a column a play-out)."""
    if options["searched"] <= 0:
        return S.duel_values(s, candidates, playouts, seed)
    values = np.empty((candidates.shape[0], playouts), np.float64)
    S.searched_values(s, candidates, playouts, options["searched"], seed, values)
    return values


class PatchworkAnalysis(Analysis):
    game_id = PW.GAME

    def bot_name(self, options: dict[str, int]) -> str:
        return (f"best:{options['effort']} playouts:{options['playouts']} max-playouts:{options['max-playouts']} "
                f"searched:{options['searched']} solve:{options['solve']}")

    def evaluate(self, trace, *, seed: int, options: dict[str, int], progress=None, kept: list | None = None):
        options = {**registry.get_game(PW.GAME).info.analysis.options, **options}  # those not given: the defaults
        rows, _ = super().evaluate(trace, seed=seed, options=options, progress=progress, kept=kept)
        two = {k: options[k] for k in ("playouts", "max-playouts", "searched", "solve")}
        return rows, two if trace.record.two_player else {"effort": options["effort"]}

    def judge(self, record: PW.PatchworkRecord, position, *, seed: int, options: dict[str, int],
              memo: dict) -> MoveRow:
        if record.two_player:
            return self._duel_move(position, seed, options, memo)
        return self._solo_move(position, seed, options, memo, record)

    def _solo_move(self, position, seed: int, options: dict[str, int], memo: dict, record) -> MoveRow:
        """One player: the plan's value before the move and after it. The plan is carried from
        move to move (``memo``): when the move played is the plan's own first move, the rest of
        the plan is a plan from the next position with the same value (no search needed). The
        game has no chance, so what the record itself goes on to score is a plan too: the value
        after the move played is at least the record's final total (its line, the record's
        next moves), and so is the value before it."""
        width = 1000 * options["effort"]
        ply, s, after = position.ply, position.before.state, position.state
        plan = memo.get("plan") or _plan(s, width, seed)
        played = tuple(position.action)
        best_text = PW.move_text(*plan.moves[0]) if plan.moves else PW.move_text(*played)
        if plan.moves and tuple(plan.moves[0]) == played:
            nxt = PL.Plan(plan.score, plan.moves[1:], plan.steps, plan.tried)
        else:
            nxt = _plan(after.state, width, seed)
        value_best, value_played = float(plan.score), float(nxt.score)
        own = float(record.score["total"])
        after = [PW.move_text(*mv) for mv in nxt.moves[:LINE_MOVES]]
        if own > value_played:  # the record's own continuation scores more than the beam found
            value_played, after = own, [m.text(False) for m in record.moves[ply:ply + LINE_MOVES]]
        if value_played >= value_best:  # as much after the move as the beam found before it
            value_best, best_text = value_played, PW.move_text(*played)
        loss = value_best - value_played
        line = [PW.move_text(*mv) for mv in plan.moves[1:1 + LINE_MOVES]] if best_text != PW.move_text(*played) \
            else after
        memo["plan"] = nxt
        return MoveRow(ply, 0, PW.move_text(*played), best_text, value_best, value_played, loss, None,
                       1 if loss == 0 else 2, len(S.options_of(s)),
                       top=[{"move": best_text, "value": value_best, "stderr": None}], line=line)

    def _duel_move(self, position, seed: int, options: dict[str, int], memo: dict) -> MoveRow:
        """Two players: the best three options and the move played, each played out ``playouts``
        times, both seats searching every decision of a play-out with ``searched`` guided
        play-outs a move (``search.searched_play_out``; 0: the guided player alone); then the
        best and the played move topped up with fresh play-outs while the standard error of
        their difference is above ``TARGET_STDERR`` points, up to ``max-playouts``."""
        ply, s, seat = position.ply, position.before.state, position.player
        candidates, i_played = with_played(S.candidate_options(s, 3), np.array(position.action, np.int64))
        names = [f"{seat + 1}:" + PW.move_text(*c) for c in candidates]
        solved = self._solved(s, candidates, options, memo)
        if solved is not None:
            b = int(np.argmax(solved))
            vb, vp = float(solved[b]), float(solved[i_played])
            line = _solved_line(s, candidates[b], memo["table"]) if wants_line(vb - vp, PW.GAME) else []
            return MoveRow(ply, seat, position.move, names[b], vb, vp, max(0.0, vb - vp), None,
                           rank(solved, i_played), candidates.shape[0], exact=True,
                           top=top_moves(names, solved, None, b), line=line)
        base_seed = seed * 1009 + ply
        values = duel_values(s, candidates, options, options["playouts"], base_seed)

        def more(pair, n, k):  # a round of fresh play-outs for the candidates ``pair``
            return duel_values(s, candidates[pair], options, n, base_seed + 7919 * k)
        b, vb, vp, se, means, used = topped_up(values, i_played, more, options["max-playouts"], TARGET_STDERR)
        loss = max(0.0, vb - vp)
        line = _duel_line(s, candidates[b], options["playouts"], base_seed) if wants_line(loss, PW.GAME, se) else []
        return MoveRow(ply, seat, position.move, names[b], vb, vp, loss, se, rank(means, i_played),
                       candidates.shape[0], futures=used, top=top_moves(names, means, base_stderr(values), b),
                       line=line)

    @staticmethod
    def _solved(s: np.ndarray, candidates: np.ndarray, options: dict[str, int], memo: dict) -> np.ndarray | None:
        """Near the end (``search.solvable``): each candidate's final margin, the rest of the
        game solved with both seats limited to the advance and each patch's snuggest placement;
        None where it is not near enough, or the solve took more than ``solve`` thousand
        nodes. One transposition table serves the whole record (``memo``)."""
        if options["solve"] <= 0 or not S.solvable(s, SOLVE_SPACES):
            return None
        table = memo.setdefault("table", S.new_table())
        out = np.empty(candidates.shape[0], np.float64)
        return out if S.solved_values(s, candidates, *table, options["solve"] * 1000, out) else None

    # ---- boards: a state is records.patchwork.Quilts

    def text_board(self, q: PW.Quilts, players: tuple[str, ...] = ()) -> str:
        s = q.state
        seats = range(q.owners.shape[0])
        grids = [_grid(q.owners[p]) for p in seats]
        lines = ["   ".join(row) for row in zip(*grids)]
        names = _seat_names(q)
        lines += [_stats(s, p, names) for p in seats]
        if s[R.PLAYERS] == 2:
            w = np.empty(R.WINDOW, np.int64)
            lines.append("window: " + " ".join(f"B{int(p)}" for p in w[:R.window(s, w)]) +
                         f"; to move: {names[int(s[R.TO_MOVE])]}")
        return "\n".join(lines)

    def state_json(self, q: PW.Quilts) -> dict:
        s = q.state
        seats = []
        for p in range(q.owners.shape[0]):
            b = R.SEAT_SIZE * p
            seats.append({"quilt": [[_owner_json(int(q.owners[p, r * P.COLS + c])) for c in range(P.COLS)]
                                    for r in range(P.ROWS)],
                          "time": int(s[R.TIME + b]), "buttons": int(s[R.BUTTONS + b]),
                          "income": int(s[R.INCOME_NOW + b]), "squares": int(s[R.SQUARES + b])})
        out = {"seats": seats, "to_move": int(s[R.TO_MOVE]), "leather_due": int(s[R.DUE])}
        if s[R.PLAYERS] == 2:
            w = np.empty(R.WINDOW, np.int64)
            out["window"] = [int(p) for p in w[:R.window(s, w)]]
            out["special_tile"] = None if s[R.SPECIAL] < 0 else int(s[R.SPECIAL])
        return out

    def legend(self, players: tuple[str, ...] = ()) -> str:
        return svg.legend([("patch (its number)", {"fill": patch_colour(7), "stroke": svg.INK}),
                           ("leather patch", {"fill": LEATHER_FILL, "stroke": svg.INK}),
                           ("empty square", {"fill": EMPTY_FILL, "stroke": svg.GRID})])

    def svg_board(self, q: PW.Quilts, played: str | None = None, best: str | None = None,
                  players: tuple[str, ...] = ()) -> str:
        """The quilt(s) before a move: each patch in its colour with its number, outlined
        where it meets another patch or an empty square; leather patches brown; the squares of
        the move played (solid orange) and of the bot's best (dashed purple); the time track
        (buttons, leather patches, the tokens); two players, the window of patches to buy."""
        s = q.state
        seats = q.owners.shape[0]
        two = seats == 2
        margin, gap = 16, 30
        width = margin + seats * (P.COLS * CELL + gap)
        names = _seat_names(q)
        lines = [_stats(s, p, names) for p in range(seats)]
        extra = TRACK + 16 * seats + 40 + (WINDOW_HEIGHT if two else 0)  # the track, the window
        track = 2 * margin + (P.LAST_SPACE + 1) * TRACK + 8 + 5.5 * max(len(n) + 4 for n in names)  # a token's label
        window = margin + _window_width(s) if two else 0
        board = svg.Svg(max(width, 8 + 6.4 * max(len(x) for x in lines), track, window),
                        margin + P.ROWS * CELL + 18 * seats + 26 + extra)
        for p in range(seats):
            x0 = margin + p * (P.COLS * CELL + gap)
            _draw_quilt(board, q.owners[p], x0, margin)
            if two:
                board.text(x0, margin - 4, names[p], font_size=10)
            for kind, move in (("best", best), ("played", played)):
                cells = move_cells(move, two)
                if cells and cells[0] == p:
                    for c in cells[1]:
                        r, col = divmod(c, P.COLS)
                        board.mark(kind, "rect", {"x": x0 + col * CELL + 2, "y": margin + r * CELL + 2,
                                                  "width": CELL - 4, "height": CELL - 4})
        for i, line in enumerate(lines):
            board.text(4, margin + P.ROWS * CELL + 30 + 18 * i, line, font_size=11)
        y = margin + P.ROWS * CELL + 18 * seats + 34
        _draw_track(board, s, names, margin, y)
        if two:
            _draw_window(board, s, margin, y + TRACK + 16 * seats + 24)
        return board.to_string()


def _plan(s: np.ndarray, width: int, seed: int) -> PL.Plan:
    """``best``'s plan from ``s``; the game's end (or no tiling found: the rule-based player
    to the end) as a plan too."""
    plan = PL.make_plan(s, width, seed) if not R.is_over(s) else None
    if plan is not None:
        return plan
    t = s.copy()
    moves = np.zeros((B.MAX_MOVES, 3), np.int64)
    n = B.play_solo(t, B.RULE_BASED, B.RULE_BASED_TCM, seed, moves)
    return PL.Plan(int(R.solo_total(t)), [tuple(int(v) for v in m) for m in moves[:n]], [], 0)


def _owner_json(v: int):
    return None if v < 0 else "L" if v == PW.LEATHER_PATCH else v


def _grid(owners: np.ndarray) -> list[str]:
    rows = []
    for r in range(P.ROWS):
        cells = []
        for c in range(P.COLS):
            v = int(owners[r * P.COLS + c])
            cells.append("  ." if v < 0 else "  L" if v == PW.LEATHER_PATCH else f"{v:3d}")
        rows.append(f"{r + 1} " + "".join(cells))
    rows.append("  " + "".join(f"  {c}" for c in PW.COLUMNS))
    return rows


TRACK = 10  # a space of the time track
SEAT_COLOURS = ("#1864ab", "#2b8a3e")
BUTTON_FILL = "#4dabf7"
SHAPE_CELL = 9  # a square of a window patch
WINDOW_HEIGHT = 5 * SHAPE_CELL + 40


def _draw_track(board: svg.Svg, s: np.ndarray, names: list[str], x0: float, y0: float) -> None:
    """The time track, 0 to the last space: a button where income is paid, a leather patch
    where one still lies (taken once a token has passed it), each seat's token below it."""
    seats = len(names)
    board.text(x0, y0 - 4, "time track", font_size=10, fill="#666")
    passed = max(int(s[R.TIME + R.SEAT_SIZE * p]) for p in range(seats))
    for t in range(P.LAST_SPACE + 1):
        x = x0 + t * TRACK
        board.rect(x, y0, TRACK, TRACK, fill="#fff", stroke=svg.GRID, stroke_width=0.5)
        if t in P.INCOME_SPACES:
            board.circle(x + TRACK / 2, y0 + TRACK / 2, TRACK * 0.35, fill=BUTTON_FILL, **{"class": "income-space"})
        if t in P.LEATHER_SPACES and t > passed:
            board.rect(x + 2, y0 + 2, TRACK - 4, TRACK - 4, fill=LEATHER_FILL, **{"class": "leather-space"})
    for p in range(seats):
        t = int(s[R.TIME + R.SEAT_SIZE * p])
        board.circle(x0 + t * TRACK + TRACK / 2, y0 + TRACK + 7 + 14 * p, 5, fill=SEAT_COLOURS[p], stroke=svg.INK,
                     stroke_width=0.8, **{"class": f"token seat-{p}"})
        board.text(x0 + t * TRACK + TRACK / 2 + 8, y0 + TRACK + 11 + 14 * p, f"{names[p] if seats == 2 else 'time'} {t}",
                   font_size=9)


def _window_label(patch: int) -> str:
    return f"B{patch}: {int(P.COST[patch])}, {int(P.TIME[patch])}, +{int(P.INCOME[patch])}"


def _window_step(patch: int) -> float:
    """How far the window moves on after a patch: its shape or its label, the wider."""
    return max(len(P.SHAPES[patch][0]) * SHAPE_CELL, 6.2 * len(_window_label(patch))) + 14


def _window_width(s: np.ndarray) -> float:
    w = np.empty(R.WINDOW, np.int64)
    return sum(_window_step(int(p)) for p in w[:R.window(s, w)])


def _draw_window(board: svg.Svg, s: np.ndarray, x0: float, y0: float) -> None:
    """The patches the player to move may buy next: each shape, its number, and its cost in
    buttons, time and income."""
    w = np.empty(R.WINDOW, np.int64)
    n = R.window(s, w)
    board.text(x0, y0 - 4, "window (cost, time, income)", font_size=10, fill="#666")
    x = x0
    for i in range(n):
        patch = int(w[i])
        shape = P.SHAPES[patch]
        for r, line in enumerate(shape):
            for c, ch in enumerate(line):
                if ch == "#":
                    board.rect(x + c * SHAPE_CELL, y0 + r * SHAPE_CELL, SHAPE_CELL, SHAPE_CELL,
                               fill=patch_colour(patch), stroke=svg.INK, stroke_width=0.5, **{"class": "window-patch"})
        board.text(x, y0 + len(shape) * SHAPE_CELL + 12, _window_label(patch), font_size=10)
        x += _window_step(patch)


def _seat_names(q: PW.Quilts) -> list[str]:
    """The players by seat, as the record names them (``player N`` where it names none)."""
    seats = q.owners.shape[0]
    names = list(q.names)[:seats]
    return names + [f"player {p + 1}" for p in range(len(names), seats)]


def _stats(s: np.ndarray, p: int, names: list[str]) -> str:
    b = R.SEAT_SIZE * p
    who = f"{names[p]}: " if len(names) == 2 else ""
    return (f"{who}time {int(s[R.TIME + b])}, buttons {int(s[R.BUTTONS + b])}, income {int(s[R.INCOME_NOW + b])}, "
            f"squares {int(s[R.SQUARES + b])}/{P.CELLS}")


def _draw_quilt(board: svg.Svg, owners: np.ndarray, x0: float, y0: float) -> None:
    for cell in range(P.CELLS):
        r, c = divmod(cell, P.COLS)
        v = int(owners[cell])
        fill = EMPTY_FILL if v < 0 else LEATHER_FILL if v == PW.LEATHER_PATCH else patch_colour(v)
        board.rect(x0 + c * CELL, y0 + r * CELL, CELL, CELL, fill=fill, stroke=svg.GRID, stroke_width=0.5)
    # outlines: a thick edge between squares of different patches (or a patch and the border)
    for cell in range(P.CELLS):
        r, c = divmod(cell, P.COLS)
        v = int(owners[cell])
        if v < 0:
            continue
        x, y = x0 + c * CELL, y0 + r * CELL
        for dr, dc, x1, y1, x2, y2 in ((-1, 0, x, y, x + CELL, y), (1, 0, x, y + CELL, x + CELL, y + CELL),
                                       (0, -1, x, y, x, y + CELL), (0, 1, x + CELL, y, x + CELL, y + CELL)):
            rr, cc = r + dr, c + dc
            other = int(owners[rr * P.COLS + cc]) if 0 <= rr < P.ROWS and 0 <= cc < P.COLS else -1
            if other != v or v == PW.LEATHER_PATCH:
                board.line(x1, y1, x2, y2, stroke=svg.INK, stroke_width=2)
    # a patch's number once, on its first square
    seen = set()
    for cell in range(P.CELLS):
        v = int(owners[cell])
        if 0 <= v < PW.LEATHER_PATCH and v not in seen:
            seen.add(v)
            r, c = divmod(cell, P.COLS)
            board.text(x0 + c * CELL + CELL / 2, y0 + r * CELL + CELL / 2 + 4, v, font_size=10,
                       text_anchor="middle", fill=svg.INK)
    for c in range(P.COLS):
        board.text(x0 + c * CELL + CELL / 2, y0 + P.ROWS * CELL + 11, PW.COLUMNS[c], font_size=9,
                   text_anchor="middle", fill="#888")
    for r in range(P.ROWS):
        board.text(x0 - 3, y0 + r * CELL + CELL / 2 + 3, r + 1, font_size=9, text_anchor="end", fill="#888")


ANALYSIS = PatchworkAnalysis()
