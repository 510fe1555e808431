"""The Game of Islands analysis: the evaluator, and the text, JSON and SVG boards.

A line's value is the expected point margin for the mover of the rest of the grid: the final
margin, exact, when the rest of the grid fits the search (``exact``). Before that, while more than
``DEEP_BELOW`` lines are legal, the islands the line makes less those it leaves open to both,
shared out as both would take them (``bots.shared_out_values``); then the margin over the next
``depth`` lines; the rest of the grid counted as even. Lines played on to the end of the grid
(greedy play, exact from ``SOLVE_BELOW`` lines left) differ from these values by a quarter of a
point or less (s.d.) in the opening, 0.7 on the empty 10x10 grid, and under half a point in the
middle game (benchmarks/game_of_islands_values.py). An island the mover could claim and did not
costs two points: its own, and the opponent's, who may claim any unclaimed island on its turn
(shared/specs/game-of-islands.md 3), so that the value of the move played is that of the
position it leaves, as the next move's search finds it.
"""
from __future__ import annotations

import numpy as np

from scorebook import registry
from scorebook.engines.game_of_islands import bots, engine as G
from scorebook.records import game_of_islands as goi

from . import svg
from .loss import LINE_MOVES, MoveRow, top_moves, wants_line
from .protocol import Analysis, seat_name

FIRST, SECOND, LINE = "#222", "#fff", "#8a8a8a"
DEEP_BELOW = 400  # legal lines left under which the search goes ``depth`` deep (above: one line, the gain)
SOLVE_BELOW = 28  # legal lines left from which the rest of the grid is solved (exact), when it fits the budget


def parse_line(n: int, text: str):
    """The line (x1, y1, x2, y2) of a turn's text (``A1-B2, C3``), or None (``--``, ``time``)."""
    head = text.split(",")[0].strip()
    if "-" not in head or head in ("--",):
        return None
    a, b = head.split("-")

    def dot(t):
        return ord(t[0].upper()) - ord("A"), int(t[1:]) - 1
    (x1, y1), (x2, y2) = dot(a), dot(b)
    return x1, y1, x2, y2


def position_values(n, used, diag, owner, played, depth: int, budget: int):
    """Every legal line and its value for the mover, and whether the values are exact (the
    analysis's valuation, shared with benchmarks/game_of_islands_values.py). More than
    ``DEEP_BELOW`` lines left: one line ahead, the islands then open to both shared out; fewer:
    ``depth`` lines ahead; from ``SOLVE_BELOW``: to the end of the grid when it fits ``budget``.
    ``played`` (the line drawn) is valued in full. The position is restored."""
    left = G.count_legal_lines(n, used, diag)
    if left > DEEP_BELOW:
        lines, values, _ = bots.shared_out_values(n, used, diag, owner, *played)
        return lines, values, False
    value, _, complete = bots.solve(n, used, diag, owner, budget) if left <= SOLVE_BELOW else (0, 0, False)
    # solved: every line's value to the end of the grid (a depth no line sequence outlasts)
    lines, values, exact = bots.line_values(n, used, diag, owner, n * n * 4 if complete else depth, budget)
    return lines, values, bool(exact or complete)


def _line_name(n: int, line) -> str:
    return f"{goi.dot_name(n, line[1] * n + line[0])}-{goi.dot_name(n, line[3] * n + line[2])}"


def best_line(n: int, before, mover: int, first, depth: int, budget: int) -> list[str]:
    """The search's line after ``first`` from a position (``before``, a GridView, unchanged):
    the best line of each side in turn as the same search values it, each drawn with every
    island it makes claimed, up to ``LINE_MOVES`` lines or the grid's end."""
    used, diag, owner = before.used.copy(), before.diag.copy(), before.owner.copy()
    line, out = tuple(int(v) for v in first), []
    while True:
        G.apply_line(n, used, diag, *line)
        G.claim_near(n, used, diag, owner, mover, *line)
        legal = G.legal_lines(n, used, diag)
        if len(out) == LINE_MOVES or len(legal) == 0:
            return out
        mover = 1 - mover
        lines, values, _ = position_values(n, used, diag, owner, tuple(int(v) for v in legal[0]), depth, budget)
        line = tuple(int(v) for v in lines[int(np.argmax(values))])
        out.append(_line_name(n, line))


def _in_hand(record: goi.GoiRecord, number: int, owner: np.ndarray, mover: int, player: int) -> float:
    """The margin the mover has in hand before a move of grid ``number``: the islands claimed
    on this grid so far (the values are of the rest of it) and a triad's earlier grids, as
    their results stand, each from the mover's side."""
    grid = int((owner == mover).sum()) - int((owner == 1 - mover).sum())
    earlier = 0  # from the record's first player's side
    for g in record.games[:number - 1]:
        margin = g.points[0] - g.points[1]
        earlier += margin if g.first == record.players[0] else -margin
    return float(grid + (earlier if player == 0 else -earlier))


class GameOfIslandsAnalysis(Analysis):
    game_id = goi.GAME

    def bot_name(self, options: dict[str, int]) -> str:
        # the budget is named when it is not the default: it changes the endgame values
        default = registry.get_game("game-of-islands").info.analysis.options["budget"]
        return f"search depth:{options['depth']}" + ("" if options["budget"] == default else f" budget:{options['budget']}")

    def judge(self, record: goi.GoiRecord, position, *, seed: int, options: dict[str, int],
              memo: dict) -> MoveRow | None:
        """Every legal line valued as ``position_values`` values it; a claim-only or timed-out
        turn is not judged."""
        depth, budget = options["depth"], options["budget"]
        g, ply, number = record.games[position.game - 1], position.ply, position.game
        n, kind, line, claims = g.grid, *position.action
        if kind != G.LINE:
            return None
        before = position.before  # shared by every reader of the record's positions: not changed here
        used, diag, owner = before.used.copy(), before.diag.copy(), before.owner
        mover = (ply - 1) % 2
        player = 0 if (g.first == record.players[0]) == (mover == 0) else 1
        lines, values, exact = position_values(n, used, diag, owner, line, depth, budget)
        canon = [goi.canonical_line(*map(int, each)) for each in lines]
        i = canon.index(goi.canonical_line(*line))
        b = int(np.argmax(values))
        G.apply_line(n, used, diag, *line)
        available = [dd for dd in range(n * n) if owner[dd] < 0 and G.is_island(n, used, diag, dd % n, dd // n)]
        missed = len([dd for dd in available if dd not in claims])
        vb, vp = float(values[b]), float(values[i]) - 2 * missed  # not the mover's, then the opponent's
        best_few = np.argsort(-values, kind="stable")[:3]
        top = top_moves([_line_name(n, canon[k]) for k in best_few], values[best_few])
        # the line played can lose by its claims alone: then the bot has no other line to show
        line = best_line(n, before, mover, canon[b], depth, budget) if b != i and wants_line(vb - vp, goi.GAME) else []
        return MoveRow(ply, player, goi.turn_text(n, g.turns[ply - 1]), _line_name(n, canon[b]), vb, vp,
                       max(0.0, vb - vp), None, int((values > values[i]).sum()) + 1, len(values), number, exact,
                       top=top, line=line, so_far=_in_hand(record, number, owner, mover, player))

    # ---- boards: a state is a records.game_of_islands.GridView

    def dots(self, state) -> list[str]:
        """Ranks from the top: '.' free dot, '+' on a line, 'X'/'O' claimed by First/Second,
        '*' an island nobody has claimed."""
        n, used, diag, owner = state.n, state.used, state.diag, state.owner
        islands = G.island_mask(n, used, diag)
        rows = []
        for y in range(n - 1, -1, -1):
            chars = []
            for x in range(n):
                d = y * n + x
                chars.append("X" if owner[d] == 0 else "O" if owner[d] == 1 else "+" if used[d]
                             else "*" if islands[d] else ".")
            rows.append("".join(chars))
        return rows

    def text_board(self, state, players: tuple[str, ...] = ()) -> str:
        n = state.n
        lines = ["    " + " ".join(chr(ord("A") + x) for x in range(n))]
        for i, r in enumerate(self.dots(state)):
            lines.append(f"{n - i:>2}  " + " ".join(r))
        return "\n".join(lines)

    def state_json(self, state) -> dict:
        return {"grid": state.n, "dots": self.dots(state)}

    def show_extra(self, position) -> dict:
        return {"game": position.game, "grid": position.state.n}

    def heading(self, position) -> str:
        n = position.state.n
        return f"game {position.game} ({n}x{n}), "

    def legend(self, players: tuple[str, ...] = ()) -> str:
        return svg.legend([(f"{seat_name(players, 0)}'s island", {"fill": FIRST, "rx": 6}),
                           (f"{seat_name(players, 1)}'s island", {"fill": SECOND, "stroke": svg.INK, "rx": 6}),
                           ("island unclaimed", {"fill": "none", "stroke": "#999", "rx": 6}),
                           ("line", {"fill": LINE})])

    def svg_board(self, state, played: str | None = None, best: str | None = None,
                  players: tuple[str, ...] = ()) -> str:
        """The grid before a turn: the lines drawn, the claimed islands (First's black,
        Second's white), the islands nobody claimed, coordinates; the line played (solid
        orange) and the bot's best (dashed purple)."""
        n, owner = state.n, state.owner
        size = 22 if n <= 12 else 17
        margin = 20
        s = svg.Svg(margin + n * size, margin + n * size)

        def xy(x, y):
            return margin + x * size + size / 2, (n - 1 - y) * size + size / 2

        for i in range(n):
            s.text(xy(i, 0)[0], margin + n * size - 4, chr(ord("A") + i), font_size=10, text_anchor="middle")
            s.text(9, xy(0, i)[1] + 4, str(i + 1), font_size=10, text_anchor="middle")
        for (x1, y1, x2, y2) in state.lines:
            (a, b), (c, d) = xy(x1, y1), xy(x2, y2)
            s.line(a, b, c, d, stroke=LINE, stroke_width=3, stroke_linecap="round")
        islands = G.island_mask(n, state.used, state.diag)
        for d in range(n * n):
            cx, cy = xy(d % n, d // n)
            if owner[d] == 0:
                s.circle(cx, cy, size * 0.3, fill=FIRST)
            elif owner[d] == 1:
                s.circle(cx, cy, size * 0.3, fill=SECOND, stroke=svg.INK, stroke_width=1.5)
            elif islands[d]:
                s.circle(cx, cy, size * 0.25, fill="none", stroke="#999", stroke_width=1.5)
            else:
                s.circle(cx, cy, 2, fill=svg.GRID if state.used[d] else "#777")
        for kind, move in (("best", best), ("played", played)):
            line = parse_line(n, move) if move else None
            if line is not None:
                (a, b), (c, d) = xy(line[0], line[1]), xy(line[2], line[3])
                s.mark(kind, "line", {"x1": a, "y1": b, "x2": c, "y2": d, "stroke_linecap": "round"})
        return s.to_string()


ANALYSIS = GameOfIslandsAnalysis()
