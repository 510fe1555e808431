"""Tsuro analysis: the evaluator, and the text, JSON and SVG boards.

A move's value is the mover's expected share of the win in percent (a shared win of k
players is 1/k), as ``mc`` estimates it from what the mover knows: the unseen tiles (the
deck and the other hands) dealt anew for every sample, the same deals for every candidate
(the standard error is the paired one), each candidate played out by the simple AI for
every seat. Like lichess's win%, the loss is the drop in that share.
"""
from __future__ import annotations

import numpy as np

from scorebook.engines.tsuro import bots as B, rules as R
from scorebook.records import tsuro as TS

from . import svg
from .loss import LINE_MOVES, MoveRow, sampled_top, verdict, with_played, wants_line
from .protocol import Analysis

CELL = 54
HAND_TILE = 28  # a tile of a hand, drawn smaller
TOKEN_COLOURS = ["#1f77b4", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22"]


def port_xy(x0: float, y0: float, port: int, size: float = CELL) -> tuple[float, float]:
    a, b = size / 3, 2 * size / 3
    return [(x0 + a, y0), (x0 + b, y0), (x0 + size, y0 + a), (x0 + size, y0 + b), (x0 + b, y0 + size),
            (x0 + a, y0 + size), (x0, y0 + b), (x0, y0 + a)][port]


def tile_paths(tile: int, rot: int) -> list[tuple[int, int]]:
    return [((a + 2 * rot) % 8, (b + 2 * rot) % 8) for a, b in R.FACTS["tiles"][tile]]


def best_line(before: np.ndarray, first, samples: int, seed: int) -> list[str]:
    """The bot's line after ``first`` (tile, rotation) from a position (``before``,
    unchanged): each player's choice in turn as the same bot makes it (``samples`` play-outs
    an option), on the record's own deck, up to ``LINE_MOVES`` tiles or the game's end."""
    s, out = before.copy(), []
    tile, rot = int(first[0]), int(first[1])
    while True:
        code = R.turn(s, tile, rot, R.NO_ORDER, np.zeros((B.EVENTS, 3), np.int64))
        if code != R.OK or len(out) == LINE_MOVES or s[R.OVER]:
            return out
        square = R.square_name(int(s[R.POS + int(s[R.TO_MOVE])]) // 8)
        tile, rot = B.mc_choice(s, samples, seed + len(out))
        out.append(f"{tile}r{rot}@{square}")


class TsuroAnalysis(Analysis):
    game_id = TS.GAME

    def bot_name(self, options: dict[str, int]) -> str:
        return f"mc samples:{options['samples']}"

    def judge(self, record: TS.TsuroRecord, position, *, seed: int, options: dict[str, int],
              memo: dict) -> MoveRow:
        """Every tile and rotation in hand, played out ``samples`` times by the simple AI."""
        samples, ply, (before, _), (tile, rotation, _) = options["samples"], position.ply, position.before, position.action
        options_, i_played = with_played(B.options_of(before), np.array([tile, rotation], np.int64))
        values = np.empty((options_.shape[0], samples))
        B.option_values(before, options_, options_.shape[0], samples, seed * 1009 + ply, values)
        values *= 100.0
        b, vb, vp, loss, se, place = verdict(values, i_played)
        names = [TS.NOTATION.action_text(before, (int(o[0]), int(o[1]))) for o in options_]
        line = best_line(before, options_[b], samples, seed * 1009 + ply) if wants_line(loss, TS.GAME, se) else []
        return MoveRow(ply, position.player, position.move, names[b], vb, vp, loss, se, place, options_.shape[0],
                       top=sampled_top(names, values, b), line=line)

    # ---- boards: a state is (the engine's state, the players' names)

    def text_board(self, position, players: tuple[str, ...] = ()) -> str:
        s, names = position
        lines = []
        tokens = {int(s[R.POS + p]) // 8: names[p] for p in range(int(s[R.N])) if s[R.POS + p] >= 0}
        for r in range(R.ROWS):
            cells = []
            for c in range(R.COLS):
                sq = r * R.COLS + c
                t = int(s[R.BOARD + sq])
                cells.append(f"{t:2d}r{int(s[R.ROT + sq])}" if t >= 0 else (" <> " if sq in tokens else "  . "))
            lines.append(f"{r + 1} " + " ".join(cells))
        lines.append("  " + " ".join(f"  {c} " for c in "abcdef"))
        for p in range(int(s[R.N])):
            where = R.point_name(int(s[R.POS + p])) if s[R.POS + p] >= 0 else \
                f"out on turn {int(s[R.ELIM_TURN + p])} ({('', 'edge', 'collision')[int(s[R.CAUSE + p])]})"
            lines.append(f"{names[p]}: {where}; hand {' '.join(map(str, R.hand(s, p))) or 'empty'}" + (" (dragon)" if s[R.DRAGON] == p else ""))
        lines.append(f"deck {int(s[R.DECK_N])} tiles; to move: {names[int(s[R.TO_MOVE])]}")
        return "\n".join(lines)

    def state_json(self, position) -> dict:
        s, names = position
        return {"board": [[None if s[R.BOARD + r * R.COLS + c] < 0 else
                           [int(s[R.BOARD + r * R.COLS + c]), int(s[R.ROT + r * R.COLS + c])]
                           for c in range(R.COLS)] for r in range(R.ROWS)],
                "tokens": {names[p]: (R.point_name(int(s[R.POS + p])) if s[R.POS + p] >= 0 else None)
                           for p in range(int(s[R.N]))},
                "hands": {names[p]: R.hand(s, p) for p in range(int(s[R.N]))},
                "deck": int(s[R.DECK_N]), "dragon": None if s[R.DRAGON] < 0 else names[int(s[R.DRAGON])],
                "to_move": names[int(s[R.TO_MOVE])]}

    def legend(self, players: tuple[str, ...] = ()) -> str:
        return svg.legend([("placed tile", {"fill": "#f3ead7", "stroke": svg.INK}),
                           ("token", {"fill": TOKEN_COLOURS[0], "stroke": svg.INK, "rx": 6})])

    def svg_board(self, position, played: str | None = None, best: str | None = None,
                  players: tuple[str, ...] = ()) -> str:
        """The board before a move: every tile's four paths, the tokens on their points (each
        player's colour); the move played in its square (solid orange), the bot's best tile
        beside the board (dashed purple, the same square); below, each player with its hand
        drawn as tiles."""
        s, names = position
        m = 20
        n = int(s[R.N])
        side = CELL + 60  # the bot's best, beside the board
        row = 18 + HAND_TILE + 8
        board = svg.Svg(2 * m + R.COLS * CELL + side, 2 * m + R.ROWS * CELL + row * n + 4)
        for sq in range(R.SQUARES):
            r, c = divmod(sq, R.COLS)
            x0, y0 = m + c * CELL, m + r * CELL
            t = int(s[R.BOARD + sq])
            board.rect(x0, y0, CELL, CELL, fill="#f3ead7" if t >= 0 else "#fbfbf8", stroke=svg.GRID, stroke_width=1)
            if t >= 0:
                self._paths(board, x0, y0, t, int(s[R.ROT + sq]), {"stroke": svg.INK, "stroke_width": 2})
        for c in range(R.COLS):
            board.text(m + c * CELL + CELL / 2, m - 6, "abcdef"[c], font_size=10, text_anchor="middle", fill="#888")
        for r in range(R.ROWS):
            board.text(m - 6, m + r * CELL + CELL / 2 + 3, r + 1, font_size=10, text_anchor="end", fill="#888")
        for kind, move in (("played", played), ("best", best)):
            parsed = TS._PLACE_RE.fullmatch(move or "")
            if not parsed or not parsed.group(3):
                continue
            style = {"stroke": svg.PLAYED if kind == "played" else svg.BEST, "stroke_width": 2.5,
                     "stroke_dasharray": None if kind == "played" else svg.BEST_DASH}
            if kind == "played":
                sq = (int(parsed.group(4)) - 1) * R.COLS + "abcdef".index(parsed.group(3))
                x0, y0 = m + (sq % R.COLS) * CELL, m + (sq // R.COLS) * CELL
            else:
                x0, y0 = 2 * m + R.COLS * CELL + 10, m + 16
                board.text(x0, y0 - 5, "bot's best", font_size=11, fill=svg.BEST)
                board.rect(x0, y0, CELL, CELL, fill="#fbfbf8", stroke=svg.GRID, stroke_width=1)
                board.text(x0, y0 + CELL + 14, move, font_size=11, fill=svg.BEST)
            board.mark(kind, "rect", {"x": x0 + 2, "y": y0 + 2, "width": CELL - 4, "height": CELL - 4})
            self._paths(board, x0, y0, int(parsed.group(1)), int(parsed.group(2)), style)
        for p in range(n):
            colour = TOKEN_COLOURS[p % len(TOKEN_COLOURS)]
            if s[R.POS + p] >= 0:
                pt = int(s[R.POS + p])
                x0, y0 = m + (pt // 8 % R.COLS) * CELL, m + (pt // 8 // R.COLS) * CELL
                x, y = port_xy(x0, y0, pt % 8)
                board.circle(x, y, 6, fill=colour, stroke=svg.INK, stroke_width=1)
            status = "" if s[R.POS + p] >= 0 else f" (out, turn {int(s[R.ELIM_TURN + p])})"
            dragon = " (dragon)" if s[R.DRAGON] == p else ""
            y = 2 * m + R.ROWS * CELL + row * p
            board.circle(m + 5, y - 4, 5, fill=colour, stroke=svg.INK, stroke_width=1)
            hand = R.hand(s, p)
            board.text(m + 16, y, f"{names[p]}{status}{dragon}: hand " + (", ".join(map(str, hand)) or "empty"),
                       font_size=11)
            for k, tile in enumerate(hand):  # each tile of the hand, drawn unturned
                hx, hy = m + 16 + k * (HAND_TILE + 6), y + 6
                board.rect(hx, hy, HAND_TILE, HAND_TILE, fill="#f3ead7", stroke=svg.GRID, stroke_width=1,
                           **{"class": "hand-tile"})
                self._paths(board, hx, hy, int(tile), 0, {"stroke": svg.INK, "stroke_width": 1.2}, HAND_TILE)
        return board.to_string()

    @staticmethod
    def _paths(board: svg.Svg, x0: float, y0: float, tile: int, rot: int, style: dict, size: float = CELL) -> None:
        cx, cy = x0 + size / 2, y0 + size / 2
        for a, b in tile_paths(tile, rot):
            (xa, ya), (xb, yb) = port_xy(x0, y0, a, size), port_xy(x0, y0, b, size)
            mx, my = (xa + xb) / 2, (ya + yb) / 2
            bend = (mx + 0.35 * (cx - mx), my + 0.35 * (cy - my))
            board.polyline([(xa, ya), bend, (xb, yb)], fill="none", **style)


ANALYSIS = TsuroAnalysis()
