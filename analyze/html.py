"""A self-contained HTML report of an analysis: the board in SVG at every move with the move
played (red) and the bot's best (green, dashed) marked, a chart of value and loss per move,
and the per-player summary. No scripts, no external files.
"""
from __future__ import annotations

import html

import numpy as np

from scorebook.records.formats import read_text

CSS = """body{font-family:system-ui,sans-serif;margin:24px;color:#222}h1{font-size:20px}
table{border-collapse:collapse;margin:12px 0}td,th{border:1px solid #ccc;padding:3px 8px;font-size:13px}
.moves{display:flex;flex-wrap:wrap;gap:12px}.move{border:1px solid #ddd;padding:6px;width:250px}
.move h3{font-size:13px;margin:0 0 4px}.blunder{background:#fdd}.mistake{background:#fed}
.inaccuracy{background:#ffe}.legend span{margin-right:12px}"""


def _tiny_islands_svg(tiles, land, played_cell=None, best_cell=None, size=22) -> str:
    from scorebook.engines.tiny_islands.metadata import SIZE, TILE_LETTERS
    out = [f'<svg class="board" xmlns="http://www.w3.org/2000/svg" width="{SIZE * size}" height="{SIZE * size}">']
    for z in range(SIZE * SIZE):
        r, c = divmod(z, SIZE)
        fill = "#cfe8a9" if land[z] else "#a9d3f0"
        out.append(f'<rect x="{c * size}" y="{r * size}" width="{size}" height="{size}" fill="{fill}" stroke="#fff"/>')
        if tiles[z]:
            out.append(f'<text x="{c * size + size / 2}" y="{r * size + size * 0.7}" font-size="{size * 0.6}" '
                       f'text-anchor="middle">{TILE_LETTERS[tiles[z]]}</text>')
    for cell, color, dash in ((best_cell, "#080", "4,2"), (played_cell, "#d00", "")):
        if cell is not None:
            r, c = divmod(cell, SIZE)
            out.append(f'<rect class="mark" x="{c * size + 1}" y="{r * size + 1}" width="{size - 2}" height="{size - 2}" '
                       f'fill="none" stroke="{color}" stroke-width="2" stroke-dasharray="{dash}"/>')
    out.append("</svg>")
    return "".join(out)


def _goi_svg(n, lines, owner, played=None, best=None, size=14) -> str:
    out = [f'<svg class="board" xmlns="http://www.w3.org/2000/svg" width="{(n + 1) * size}" height="{(n + 1) * size}">']

    def xy(x, y):
        return (x + 1) * size, (n - y) * size
    for (x1, y1, x2, y2) in lines:
        a, b = xy(x1, y1), xy(x2, y2)
        out.append(f'<line x1="{a[0]}" y1="{a[1]}" x2="{b[0]}" y2="{b[1]}" stroke="#555" stroke-width="2"/>')
    for line, color, dash in ((best, "#080", "4,2"), (played, "#d00", "")):
        if line is not None:
            a, b = xy(line[0], line[1]), xy(line[2], line[3])
            out.append(f'<line class="mark" x1="{a[0]}" y1="{a[1]}" x2="{b[0]}" y2="{b[1]}" stroke="{color}" '
                       f'stroke-width="3" stroke-dasharray="{dash}"/>')
    for d in range(n * n):
        x, y = d % n, d // n
        cx, cy = xy(x, y)
        fill = "#c33" if owner[d] == 0 else "#33c" if owner[d] == 1 else "#222"
        r = 4 if owner[d] >= 0 else 1.6
        out.append(f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="{fill}"/>')
    out.append("</svg>")
    return "".join(out)


def _text_svg(lines: list[str]) -> str:
    h = 14 * len(lines) + 6
    body = "".join(f'<text x="4" y="{14 * (i + 1)}" font-size="11">{html.escape(l)}</text>' for i, l in enumerate(lines))
    return f'<svg class="board" xmlns="http://www.w3.org/2000/svg" width="240" height="{h}">{body}</svg>'


def _chart(moves: list[dict]) -> str:
    """Value of the move played and of the best move per ply, and the loss as bars."""
    w, h, pad = 760, 220, 30
    if not moves:
        return ""
    vals = [m["value_best"] for m in moves] + [m["value_played"] for m in moves]
    lo, hi = min(vals + [0]), max(vals + [1])
    top_loss = max([m["loss"] for m in moves] + [1])
    step = (w - 2 * pad) / max(len(moves) - 1, 1)

    def y(v):
        return h - pad - (v - lo) / (hi - lo or 1) * (h - 2 * pad)
    best = " ".join(f"{pad + i * step:.1f},{y(m['value_best']):.1f}" for i, m in enumerate(moves))
    played = " ".join(f"{pad + i * step:.1f},{y(m['value_played']):.1f}" for i, m in enumerate(moves))
    bars = "".join(f'<rect class="loss" x="{pad + i * step - 2:.1f}" y="{h - pad - m["loss"] / top_loss * 60:.1f}" '
                   f'width="4" height="{m["loss"] / top_loss * 60:.1f}" fill="#d55"/>' for i, m in enumerate(moves))
    return (f'<svg id="chart" xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}">'
            f'<rect width="{w}" height="{h}" fill="#fafafa" stroke="#ccc"/>{bars}'
            f'<polyline points="{best}" fill="none" stroke="#080" stroke-width="2"/>'
            f'<polyline points="{played}" fill="none" stroke="#d00" stroke-width="2"/>'
            f'<text x="{pad}" y="16" font-size="12">value of the best move (green) and of the move played (red); '
            f'loss (bars, max {top_loss:.1f})</text></svg>')


def _boards(row: dict, moves: list[dict]) -> list[str]:
    """An SVG per analysed move, the position before the move with both moves marked."""
    game = row["game"]
    record = read_text(row["text"], "stored", "pgn")[0].record
    by_ply = {(m.get("game", 1), m["ply"]): m for m in moves}
    out = []
    if game == "tiny-islands":
        from scorebook.engines.tiny_islands.metadata import CELLS, parse_cell
        from scorebook.records import tiny_islands
        tiles = np.zeros(CELLS, np.int64)
        land = np.zeros(CELLS, np.bool_)
        for ply, move_text, new_tiles, new_land in tiny_islands.states(record):
            m = by_ply.get((1, ply))
            if m:
                cell = lambda t: parse_cell(t[1:3]) if len(t) == 3 else None  # noqa: E731
                out.append(_tiny_islands_svg(tiles, land, cell(m["played"]), cell(m["best"])))
            tiles, land = new_tiles, new_land
    elif game == "game-of-islands":
        for number, g in enumerate(record.games, 1):
            n = g.grid
            drawn = []
            owner = np.full(n * n, -1, np.int8)
            for ply, turn in enumerate(g.turns, 1):
                m = by_ply.get((number, ply))
                if m:
                    out.append(_goi_svg(n, drawn, owner, _parse_line(n, m["played"]), _parse_line(n, m["best"])))
                if turn.line is not None:
                    drawn.append(turn.line)
                for d in turn.claims:
                    owner[d] = (ply - 1) % 2
    else:
        from scorebook.records import iwoki
        from scorebook.analyze.boards import iwoki_text
        s_prev = None
        for ply, action, s in iwoki.states(record):
            m = by_ply.get((1, ply))
            lines = iwoki_text(s_prev).split("\n") if s_prev is not None else ["start"]
            if m:
                out.append(_text_svg(lines + [f"played {m['played']}", f"best {m['best']}"]))
            s_prev = s
    return out


def _parse_line(n: int, text: str):
    head = text.split(",")[0].strip()
    if "-" not in head or head in ("--",):
        return None
    a, b = head.split("-")
    def dot(t):
        return ord(t[0].upper()) - ord("A"), int(t[1:]) - 1
    (x1, y1), (x2, y2) = dot(a), dot(b)
    return x1, y1, x2, y2


def render(row: dict, report: dict) -> str:
    moves = report["moves"]
    boards = _boards(row, moves)
    summary_rows = "".join(
        f"<tr><td>{html.escape(name)}</td><td>{s['moves']}</td><td>{s['total_loss']}</td><td>{s['mean_loss']}</td>"
        f"<td>{s['accuracy']}%</td><td>{s['best_move_rate']}%</td><td>"
        + ", ".join(f"{k} {v}" for k, v in s["classes"].items()) + "</td></tr>"
        for name, s in report["summary"].items())
    cards = []
    for m, svg in zip(moves, boards):
        se = "" if m.get("stderr") is None else f" ± {m['stderr']}"
        cards.append(f'<div class="move {m["class"]}" data-ply="{m["ply"]}"><h3>{"game " + str(m["game"]) + ", " if "game" in m else ""}'
                     f'ply {m["ply"]}: {html.escape(m["played"])} ({m["class"]})</h3>{svg}'
                     f'<div>best {html.escape(m["best"])}: {m["value_best"]} vs {m["value_played"]}; loss '
                     f'{m["loss"]}{se}</div></div>')
    title = f"Scorebook analysis of {row['id']} ({row['game']})"
    thresholds = ", ".join(f"{name} ≥ {t}" for name, t in report["thresholds"])
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            f"<style>{CSS}</style></head><body><h1>{html.escape(title)}</h1>"
            f"<p>Bot {html.escape(report['bot'])}, seed {report['seed']}, engine {report['engine_version']}. "
            f"Classes by loss in points: {html.escape(thresholds)}.</p>"
            f"<table id='summary'><tr><th>player</th><th>moves</th><th>total loss</th><th>mean loss</th>"
            f"<th>accuracy</th><th>best move</th><th>classes</th></tr>{summary_rows}</table>"
            f"{_chart(moves)}<p class='legend'><span style='color:#d00'>■ played</span>"
            f"<span style='color:#080'>□ best</span></p><div class='moves'>{''.join(cards)}</div></body></html>")
