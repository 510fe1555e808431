"""Count to Ten analysis: exact values by the multiple-of-three rule (1 a win, -1 a loss)."""
from __future__ import annotations

from scorebook.analyze import svg
from scorebook.analyze.loss import MoveRow
from scorebook.analyze.protocol import Analysis

from .game import STEPS, TARGET, perfect_step
from .records import GAME


def value_after(total: int) -> float:
    """The mover's value once its step made ``total``: a win if it reached the target or left a
    multiple of three to go."""
    return 1.0 if total == TARGET or (TARGET - total) % 3 == 0 else -1.0


class CountAnalysis(Analysis):
    game_id = GAME

    def bot_name(self, options):
        return f"perfect depth:{options['depth']}"

    def judge(self, record, position, *, seed, options, memo):
        total, step = position.before, position.action
        best = perfect_step(total)
        values = {s: value_after(total + s) for s in STEPS if total + s <= TARGET}
        vb, vp = values[best], values[step]
        return MoveRow(position.ply, position.player, f"+{step}", f"+{best}", vb, vp, max(0.0, vb - vp), None,
                       1 + sum(v > vp for v in values.values()), len(values))

    def text_board(self, state, players=()):
        return f"total {state} of {TARGET}"

    def state_json(self, state):
        return {"total": state}

    def svg_board(self, state, played=None, best=None, players=()):
        board = svg.Svg(20 * TARGET, 24)
        board.rect(0, 0, 20 * state, 24, fill="#9c6")
        for kind, move in (("best", best), ("played", played)):
            if move:
                board.mark(kind, "rect", {"x": 20 * state, "y": 2, "width": 20 * int(move[1:]), "height": 20})
        return board.to_string()

    def legend(self, players=()):
        return svg.legend([("the total so far", {"fill": "#9c6"})])


ANALYSIS = CountAnalysis()
