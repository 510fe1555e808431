"""Iwoki analysis: the evaluator, and the text, JSON and SVG boards.

A value is the expected final-tally difference for the mover: the unseen tiles redealt
consistently with what the mover knows, each option followed by Greedy play to the end.
"""
from __future__ import annotations

import math
import textwrap

import numpy as np

from scorebook.engines.iwoki import agents as A, engine as IE
from scorebook.engines.iwoki.metadata import (EMPTY, HAND_HEX, HAND_SMALL, HEX_GAP_INDEX, HEX_GAP_NAMES, N_HAND_HEX,
                                              N_HAND_SMALL, N_HEX_GAPS, N_HEX_TILES, N_SMALL_TILES, SLOT_VERTEX,
                                              SMALL_GAP_INDEX, SMALL_GAP_NAMES, WILD, parse_tile)
from scorebook.records import iwoki as IW

from . import svg
from .loss import LINE_MOVES, MoveRow, sampled_top, verdict, wants_line
from .protocol import Analysis, seat_name

OPEN, OPEN_SMALL, PLAYED_AREA = "#fff3bf", "#ffd43b", "#e9dfcf"
SEAT_INK = ("#1864ab", "#2b8a3e")  # the numbers each seat put on the board (never the marks' colours)
HEX_SIZE = 40.0
# where a vertex's number is drawn, a share of the way from the hex's centre to the vertex: the
# board's, and a placement's marked numbers, apart where a hex tile meets a small tile's numbers
# at the same vertex (0.3 of the radius: their boxes clear at 13 and 12 px), both clear of the name
BOARD_AT, MARK_AT = 0.74, 0.42


def _board(state):
    """(the engine's state vector, who wrote each vertex's number or -1): a position's state is
    the vector, or the vector with the writers (``records.iwoki`` gives both)."""
    if isinstance(state, tuple):
        return state[0], state[1]
    return state, np.full(N_HEX_GAPS * 6, -1, np.int64)


def option_index(s, opts, a: IW.Action) -> int:
    """The index of a record's action among the engine's options of state ``s``."""
    p = int(s[IE.TO_MOVE])
    for j, o in enumerate(opts):
        if a.type == "draw" and o[0] == IE.DRAW or a.type == "pass" and o[0] == IE.PASS:
            return j
        if a.type.startswith("place") and o[0] in (IE.SMALL, IE.HEX):
            kind, tile = parse_tile(a.tile)
            if (kind == "small") != (o[0] == IE.SMALL):
                continue
            hand = HAND_SMALL + p * N_SMALL_TILES if kind == "small" else HAND_HEX + p * N_HEX_TILES
            orient = ("+-".index(a.face) * 3 if kind == "small" else "AB".index(a.face) * 6) + a.rotation
            gap = (SMALL_GAP_INDEX if kind == "small" else HEX_GAP_INDEX)[a.gap]
            if s[hand + o[1]] == tile and o[2] == gap and o[3] == orient:
                return j
    raise ValueError(f"action {a.text()} is not among the options")


def option_text(s, o) -> str:
    """An engine option of state ``s`` as Scorebook notation writes the action (the notation's
    own ``action_text``: a draw names the tile it takes, as a record does)."""
    return IW.NOTATION.action_text(s, tuple(int(v) for v in o))


def gap_names(s) -> tuple[list[str], list[str]]:
    """The open small and hex gaps of a state, in opening order."""
    small = [SMALL_GAP_NAMES[int(s[IE.OPEN_SMALL + i])] for i in range(s[IE.N_OPEN_SMALL])]
    hexes = [HEX_GAP_NAMES[int(s[IE.OPEN_HEX + i])] for i in range(s[IE.N_OPEN_HEX])]
    return small, hexes


def best_line(before: np.ndarray, first, samples: int, seed: int) -> list[str]:
    """The bot's line after ``first`` (an engine option) from a position (``before``,
    unchanged): each side's best option in turn as the same bot values it (``samples``
    redeals, Greedy to the end), on the record's own deal, up to ``LINE_MOVES`` actions or the end."""
    s, out, option = before.copy(), [], first
    while True:
        IE.apply_option(s, np.asarray(option, np.int64))
        if len(out) == LINE_MOVES or IE.game_over(s):
            return out
        opts, values = A.option_values(s, samples, seed + len(out))
        option = opts[int(np.argmax(values.mean(axis=1)))]
        out.append(option_text(s, option))


class IwokiAnalysis(Analysis):
    game_id = IW.GAME

    def bot_name(self, options: dict[str, int]) -> str:
        return f"greedy samples:{options['samples']}"

    def judge(self, record: IW.IwokiRecord, position, *, seed: int, options: dict[str, int],
              memo: dict) -> MoveRow:
        """Every option, played out ``samples`` times by Greedy on both sides."""
        ply, s, a = position.ply, position.before[0], record.actions[position.ply - 1]
        opts, values = A.option_values(s, options["samples"], seed + ply)
        played = option_index(s, opts, a)
        b, vb, vp, loss, se, place = verdict(values, played)
        top = sampled_top([option_text(s, o) for o in opts], values, b)
        # a mistake is never the bot's own move (its loss would be 0)
        line = best_line(s, opts[b], options["samples"], seed + ply) if wants_line(loss, IW.GAME, se) else []
        return MoveRow(ply, int(s[IE.TO_MOVE]), a.text(), option_text(s, opts[b]), vb, vp, loss, se, place, len(opts),
                       top=top, line=line)

    # ---- boards: a state is the engine's state vector

    def text_board(self, state, players: tuple[str, ...] = ()) -> str:
        """The virtual board as text: every hex gap with numbers on it (its six vertices, clockwise,
        ``.`` where none is yet), then the scores, the hands (each named by its player, where the
        record names them) and the open gaps."""
        s = _board(state)[0]
        small, hexes = gap_names(s)
        board = []
        for gap in range(N_HEX_GAPS):
            values = [int(v) for v in s[IE.HEXVAL + gap * 6:IE.HEXVAL + gap * 6 + 6]]
            if any(v != EMPTY for v in values):
                board.append(f"{HEX_GAP_NAMES[gap]}[" + " ".join("." if v == EMPTY else str(v) for v in values) + "]")
        lines = ["board: " + (" ".join(board) or "empty")]
        lines.append(f"scores {s[IE.SCORE]}-{s[IE.SCORE + 1]}, white tokens {s[IE.WHITE]}-{s[IE.WHITE + 1]}")
        for p in range(2):
            hs = " ".join(f"st{s[HAND_SMALL + p * N_SMALL_TILES + i] + 1}" for i in range(s[N_HAND_SMALL + p]))
            hh = " ".join(f"ht{s[HAND_HEX + p * N_HEX_TILES + i] + 1}" for i in range(s[N_HAND_HEX + p]))
            tiles = " / ".join(t for t in (hs, hh) if t) or "empty"
            lines.append(f"{seat_name(players, p)}'s hand: {tiles}")
        lines.append("open small gaps: " + (" ".join(small) or "-"))
        lines.append("open hex gaps: " + (" ".join(hexes) or "-"))
        return "\n".join(lines)

    def state_json(self, state) -> dict:
        s = _board(state)[0]
        small, hexes = gap_names(s)
        return {"open_small": small, "open_hex": hexes, "scores": [int(s[IE.SCORE]), int(s[IE.SCORE + 1])]}

    def legend(self, players: tuple[str, ...] = ()) -> str:
        return svg.legend([("numbers on the board", {"fill": PLAYED_AREA, "stroke": "#999"}),
                           ("open hex gap", {"fill": OPEN, "stroke": "#999"}),
                           ("open small gap", {"fill": OPEN_SMALL, "stroke": "#b8860b", "rx": 6}),
                           *((f"{seat_name(players, p)}'s numbers", {"fill": SEAT_INK[p]}) for p in range(2))])

    def move_mark(self, position) -> str:
        """The action itself (``ht18B3@H13``, ``draw=st31``, ``pass``): the move less its number and player."""
        return position.move.split()[-1]

    def svg_board(self, state, played: str | None = None, best: str | None = None,
                  players: tuple[str, ...] = ()) -> str:
        """The virtual board before a move: the 55 hex gaps (named, their vertices' numbers in
        the colour of the seat that put them there, open ones yellow), the open small gaps
        (where three hexes meet), each seat's score, white tokens and hand (named by its
        player); the move played (solid orange) and the bot's best (dashed purple): a
        placement's gap outlined and the tile's numbers, face and rotation as they would lie, in
        the mark's colour; a draw or a pass in words. A best placed in the gap of the move
        played is drawn apart, under the board: its gap again, with the best's numbers."""
        s, owner = _board(state)
        lines = [part for line in self.text_board(s, players).split("\n")[1:4] for part in _wrapped(line)]
        width, height = LAYOUT["width"], LAYOUT["height"]
        same_gap, words = _in_words(played, best)
        apart = same_gap and best != played
        inset = _inset_box(best) if apart else None
        text_top = height + (inset[3] + 8 if inset else 0)
        board = svg.Svg(max(width, 8 + 6.4 * max(len(line) for line in lines)),
                        text_top + 16 * (len(lines) + len(words)) + 6)
        _draw_gaps(board, s, owner, marked={h for m in (played, best) if m and "@" in m for h in _covered(m)})
        for kind, move in (("best", best), ("played", played)):
            self._mark_placement(board, kind, move, numbers=not (kind == "best" and same_gap))
        if inset:
            self._draw_apart(board, best, inset, height)
        for i, line in enumerate(lines):
            board.text(4, text_top + 14 + 16 * i, line, font_size=11)
        for i, (kind, move) in enumerate(words):
            label = "move played" if kind == "played" else "bot's best, in the same gap, drawn apart above"
            board.text(4, text_top + 14 + 16 * (len(lines) + i), f"{label}: {move.replace('=', ' ')}",
                       font_size=12, font_weight="bold", fill=svg.PLAYED if kind == "played" else svg.BEST,
                       **{"class": f"word {kind}"})
        return board.to_string()

    @classmethod
    def _draw_apart(cls, board, move: str, box: tuple, top: float) -> None:
        """The gap(s) of a placement drawn again under the board (``box``: their extent), the
        placement's numbers on them: the bot's best where it shares the gap of the move played."""
        x0, y0 = box[0], box[1]
        dx, dy = 4 - x0, top + 4 - y0
        for h in _covered(move):
            board.polygon([(x + dx, y + dy) for x, y in LAYOUT["corners"][HEX_GAP_INDEX[h]]], fill="#f7f7f7",
                          stroke="#999", stroke_width=1, **{"class": "apart"})
        cls._mark_placement(board, "best", move, offset=(dx, dy))
        board.text(box[2] + 16, top + 8 + box[3] / 2, f"bot's best: {move}", font_size=12, font_weight="bold",
                   fill=svg.BEST, **{"class": "apart-label"})

    @staticmethod
    def _mark_placement(board, kind: str, move: str | None, numbers: bool = True, offset=(0.0, 0.0)) -> None:
        """A placement's gap outlined, and (``numbers``) the numbers the tile would lay there
        (its face and rotation) in the mark's colour; ``offset``: where its gap is drawn apart."""
        ox, oy = offset
        m = IW.ACTION_RE.match(move or "")
        if not m or not (m.group(1) or m.group(5)):
            return
        colour = svg.PLAYED if kind == "played" else svg.BEST
        if m.group(1):  # a small tile: three numbers, one on each hex meeting at the gap
            _, tile = parse_tile(m.group(1))
            gap = SMALL_GAP_INDEX.get(m.group(4))
            if gap is None:
                return
            x, y = LAYOUT["small"][gap]
            board.mark(kind, "circle", {"cx": x + ox, "cy": y + oy, "r": 10})
            if not numbers:
                return
            values = IE.small_results(tile, "+-".index(m.group(2)), int(m.group(3)))
            for j in range(3):
                vtx = int(SLOT_VERTEX[gap, j])
                cx, cy = LAYOUT["centres"][vtx // 6]
                px, py = LAYOUT["corners"][vtx // 6][vtx % 6]
                board.text(cx + ox + MARK_AT * (px - cx), cy + oy + MARK_AT * (py - cy) + 4, int(values[j]), font_size=12,
                           text_anchor="middle", fill=colour, font_style="italic", **{"class": f"tile-number {kind}"})
            return
        _, tile = parse_tile(m.group(5))
        gap = HEX_GAP_INDEX.get(m.group(8))
        if gap is None:
            return
        corners = [(x + ox, y + oy) for x, y in LAYOUT["corners"][gap]]
        board.mark(kind, "polygon", {"points": " ".join(f"{x:.1f},{y:.1f}" for x, y in corners)})
        if not numbers:
            return
        values = IE.hex_vertices(tile, "AB".index(m.group(6)), int(m.group(7)))
        cx, cy = LAYOUT["centres"][gap]
        cx, cy = cx + ox, cy + oy
        for (x, y), v in zip(corners, values):
            board.text(cx + MARK_AT * (x - cx), cy + MARK_AT * (y - cy) + 4, "*" if v == WILD else int(v), font_size=12,
                       text_anchor="middle", fill=colour, font_style="italic", **{"class": f"tile-number {kind}"})


def _in_words(played: str | None, best: str | None) -> tuple[bool, list[tuple[str, str]]]:
    """Whether the bot's best lies in the gap of the move played (its numbers would lie on the
    played ones: it is said in words, its gap outlined all the same), and the moves said in
    words under the board, (kind, move): a draw, a pass, and such a best."""
    same_gap = bool(played and best and "@" in best and "@" in played and _gap_of(best) == _gap_of(played))
    words = [(kind, move) for kind, move in (("played", played), ("best", best))
             if move and ("@" not in move or kind == "best" and same_gap)]
    return same_gap, words


def _wrapped(line: str, width: int = 64) -> list[str]:
    """A line of the board's text cut at spaces into lines of ``width`` characters at most
    (a hand of many tiles), the later ones indented; a tile's name never cut."""
    return textwrap.wrap(line, width, subsequent_indent="   ", break_long_words=False, break_on_hyphens=False) \
        or [line]


def _inset_box(move: str) -> tuple[float, float, float, float]:
    """The extent (x, y, width, height) of the gap(s) a placement covers on the board."""
    points = [p for h in _covered(move) for p in LAYOUT["corners"][HEX_GAP_INDEX[h]]]
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)


def _gap_of(move: str) -> str:
    """The gap a placement names (``ht18B3@H13``: ``H13``)."""
    return move.rsplit("@", 1)[-1]


def _covered(move: str) -> set[str]:
    """The hex gaps whose middles a placement's numbers are drawn over: its own, or the three
    hexes that meet at its small gap."""
    gap = _gap_of(move)
    if gap in SMALL_GAP_INDEX:
        return {HEX_GAP_NAMES[int(SLOT_VERTEX[SMALL_GAP_INDEX[gap], j]) // 6] for j in range(3)}
    return {gap}


def _draw_gaps(board, s, owner, marked: set[str] = frozenset()) -> None:
    """The hex gaps (open ones yellow), each named but those ``marked`` (a placement's numbers
    lie there, over its name), its vertices' numbers in the colour of the seat that put them
    there; the open small gaps."""
    hexval = s[IE.HEXVAL:IE.HEXVAL + N_HEX_GAPS * 6]
    open_hex = {int(s[IE.OPEN_HEX + i]) for i in range(s[IE.N_OPEN_HEX])}
    for g, corners in enumerate(LAYOUT["corners"]):
        values = [int(v) for v in hexval[g * 6:g * 6 + 6]]
        fill = OPEN if g in open_hex else PLAYED_AREA if any(v != EMPTY for v in values) else "#f7f7f7"
        board.polygon(corners, fill=fill, stroke="#999", stroke_width=1)
        cx, cy = LAYOUT["centres"][g]
        if HEX_GAP_NAMES[g] not in marked:
            board.text(cx, cy + 3, HEX_GAP_NAMES[g], font_size=9, fill="#aaa", text_anchor="middle")
        for j, ((x, y), v) in enumerate(zip(corners, values)):
            if v != EMPTY:
                seat = int(owner[g * 6 + j])
                board.text(cx + BOARD_AT * (x - cx), cy + BOARD_AT * (y - cy) + 5, "*" if v == WILD else v, font_size=13,
                           text_anchor="middle", fill=SEAT_INK[seat] if seat >= 0 else svg.INK, font_weight="bold")
    for g in {int(s[IE.OPEN_SMALL + i]) for i in range(s[IE.N_OPEN_SMALL])}:
        x, y = LAYOUT["small"][g]
        board.circle(x, y, 6, fill=OPEN_SMALL, stroke="#b8860b", stroke_width=1)


def _layout(size: float = 24.0) -> dict:
    """Where every gap is drawn. The data name no positions, but two hex gaps that share two
    small gaps are neighbours across the edge between those vertices, so walking from H1 puts
    every hex on a hex lattice (55 of 55, consistently: the vertex numbering turns the same
    way round every hex). A small gap sits at the corner its three hexes share."""
    at = {(int(SLOT_VERTEX[g, j]) // 6, int(SLOT_VERTEX[g, j]) % 6): g
          for g in range(SLOT_VERTEX.shape[0]) for j in range(3)}
    hexes_of = {g: {int(SLOT_VERTEX[g, j]) // 6 for j in range(3)} for g in range(SLOT_VERTEX.shape[0])}
    steps = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]  # axial; edge v (vertex v to v+1) faces steps[v]

    def across(h, v):  # the hex across the edge from vertex v to v+1 (0-based), or None
        a, b = at.get((h, v)), at.get((h, (v + 1) % 6))
        common = (hexes_of[a] & hexes_of[b]) - {h} if a is not None and b is not None else set()
        return next(iter(common), None)

    axial = {0: (0, 0)}
    todo = [0]
    while todo:
        h = todo.pop()
        for v in range(6):
            n = across(h, v)
            if n is not None and n not in axial:
                axial[n] = (axial[h][0] + steps[(v + 1) % 6][0], axial[h][1] + steps[(v + 1) % 6][1])
                todo.append(n)
    pixel = {h: (size * 1.5 * q, size * math.sqrt(3) * (r + q / 2)) for h, (q, r) in axial.items()}
    angle = [math.atan2(size * math.sqrt(3) * (dr + dq / 2), size * 1.5 * dq) for dq, dr in steps]
    corner = [math.atan2(math.sin(angle[v]) + math.sin(angle[(v + 1) % 6]),
                         math.cos(angle[v]) + math.cos(angle[(v + 1) % 6])) for v in range(6)]
    xs = [p[0] for p in pixel.values()]
    ys = [p[1] for p in pixel.values()]
    dx, dy = size * 1.1 - min(xs), size * 1.1 - min(ys)
    centres = [(pixel[h][0] + dx, pixel[h][1] + dy) for h in range(N_HEX_GAPS)]
    corners = [[(cx + size * math.cos(corner[(v - 1) % 6]), cy + size * math.sin(corner[(v - 1) % 6]))
                for v in range(6)] for cx, cy in centres]
    small = [corners[int(SLOT_VERTEX[g, 0]) // 6][int(SLOT_VERTEX[g, 0]) % 6] for g in range(SLOT_VERTEX.shape[0])]
    return {"centres": centres, "corners": corners, "small": small,
            "width": max(xs) - min(xs) + 2.2 * size, "height": max(ys) - min(ys) + 2.2 * size}


LAYOUT = _layout(HEX_SIZE)
ANALYSIS = IwokiAnalysis()
