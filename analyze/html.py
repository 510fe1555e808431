"""A self-contained HTML report of an analysis: the board in SVG at every move with the move
played (red) and the bot's best (green, dashed) marked, a chart of value and loss per move,
and the per-player summary. No scripts, no external files.
"""
from __future__ import annotations

import html

from scorebook import registry

from .run import record_of

CSS = """body{font-family:system-ui,sans-serif;margin:24px;color:#222}h1{font-size:20px}
table{border-collapse:collapse;margin:12px 0}td,th{border:1px solid #ccc;padding:3px 8px;font-size:13px}
.moves{display:flex;flex-wrap:wrap;gap:12px}.move{border:1px solid #ddd;padding:6px;width:250px}
.move h3{font-size:13px;margin:0 0 4px}.blunder{background:#fdd}.mistake{background:#fed}
.inaccuracy{background:#ffe}.legend span{margin-right:12px}"""


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
    """An SVG per analysed move: the position before the move, the move played and the bot's
    best marked, drawn by the game's analysis module."""
    game = registry.get_game(row["game"])
    by_ply = {(m.get("game", 1), m["ply"]): m for m in moves}
    out = []
    for p in game.notation.positions(record_of(row)):
        m = by_ply.get((p.game, p.ply))
        if m:
            out.append(game.analysis.svg_board(p.before, m["played"], m["best"]))
    return out


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
