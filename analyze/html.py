"""A self-contained HTML report of an analysis: the summary per player, a chart of the values
and the losses with their axes and the class thresholds, a move list whose every row jumps to
its board, and the board in SVG before every move with the move played (solid orange) and the
bot's best (dashed purple) marked, drawn by the game's analysis module with its coordinates
and legend. No scripts, no external files.
"""
from __future__ import annotations

import html

from scorebook import registry

from . import svg
from .run import record_of

CSS = """body{font-family:system-ui,sans-serif;margin:24px;color:#222;max-width:1200px}h1{font-size:20px}
h2{font-size:16px;margin-top:24px}table{border-collapse:collapse;margin:12px 0}
td,th{border:1px solid #ccc;padding:3px 8px;font-size:13px;text-align:left}
#movelist{max-height:360px;overflow-y:auto;display:block}#movelist a{color:#225;text-decoration:none}
.boards{display:flex;flex-wrap:wrap;gap:12px}.move{border:1px solid #ddd;padding:6px;scroll-margin-top:12px}
.move h3{font-size:13px;margin:0 0 4px}.move p{font-size:12px;margin:4px 0 0;max-width:420px}
.blunder{background:#fdd}.mistake{background:#fed}.inaccuracy{background:#ffe}
.move:target{outline:3px solid #e6550d}"""

CLASS_COLOURS = {"best": "#2b8a3e", "good": "#74b816", "inaccuracy": "#f59f00", "mistake": "#e8590c",
                 "blunder": "#c92a2a"}


def _ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    """Round tick values covering [lo, hi]."""
    span = hi - lo or 1.0
    raw = span / count
    magnitude = 10 ** len(str(int(raw))) / 10 if raw >= 1 else 10 ** -len(str(int(1 / raw)))
    step = min((m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw), default=raw)
    v = (lo // step) * step
    out = [round(v, 6)]
    while v < hi - 1e-9:  # up to the first tick at or above hi
        v += step
        out.append(round(v, 6))
    return out


def chart(moves: list[dict], thresholds: list) -> str:
    """Two panels over the moves: the value of the best move and of the move played, and the
    loss as bars coloured by class, each with its axis, the loss panel with the thresholds."""
    if not moves:
        return ""
    w, left, right, top = 860, 56, 16, 30
    panel = 150
    gap = 36
    h = top + panel + gap + panel + 40
    s = svg.Svg(w, h, css_class="chart", title="value and loss per move")
    s.root.set("id", "chart")
    n = len(moves)
    step = (w - left - right) / max(n, 1)

    def x(i):
        return left + (i + 0.5) * step

    values = [m["value_best"] for m in moves] + [m["value_played"] for m in moves]
    lo, hi = min(values), max(values)
    vt = _ticks(lo, hi)
    vlo, vhi = vt[0], vt[-1] if vt[-1] > vt[0] else vt[0] + 1

    def vy(v):
        return top + panel - (v - vlo) / (vhi - vlo) * panel

    max_loss = max([m["loss"] for m in moves] + [t for _, t in thresholds][-1:] + [1])
    lt = _ticks(0, max_loss)
    lhi = lt[-1] or 1
    ly0 = top + panel + gap

    def ly(v):
        return ly0 + panel - v / lhi * panel

    for y0, ticks, fy, label in ((top, vt, vy, "value"), (ly0, lt, ly, "loss")):
        s.line(left, y0, left, y0 + panel, stroke=svg.INK)
        s.line(left, y0 + panel, w - right, y0 + panel, stroke=svg.INK)
        for v in ticks:
            s.line(left - 4, fy(v), w - right, fy(v), stroke="#eee")
            s.text(left - 6, fy(v) + 4, f"{v:g}", font_size=10, text_anchor="end")
        s.text(12, y0 + panel / 2, label, font_size=11, transform=f"rotate(-90 12 {y0 + panel / 2})",
               text_anchor="middle")
    label_x, last_y = w - right - 2, None
    for name, t in thresholds:
        if 0 < t <= lhi:
            s.line(left, ly(t), w - right, ly(t), stroke=CLASS_COLOURS.get(name, "#999"), stroke_dasharray="4,3")
            label_x = label_x - 110 if last_y is not None and abs(last_y - ly(t)) < 12 else w - right - 2
            last_y = ly(t)
            s.text(label_x, ly(t) - 3, f"{name} ≥ {t:g}", font_size=10, text_anchor="end",
                   fill=CLASS_COLOURS.get(name, "#999"))
    for i, m in enumerate(moves):
        s.rect(x(i) - max(step * 0.3, 1), ly(m["loss"]), max(step * 0.6, 2), ly0 + panel - ly(m["loss"]),
               fill=CLASS_COLOURS.get(m["class"], "#999"), **{"class": "loss"})
    s.polyline([(x(i), vy(m["value_best"])) for i, m in enumerate(moves)], fill="none", stroke=svg.BEST,
               stroke_width=2, stroke_dasharray=svg.BEST_DASH)
    s.polyline([(x(i), vy(m["value_played"])) for i, m in enumerate(moves)], fill="none", stroke=svg.PLAYED,
               stroke_width=2)
    every = max(1, n // 12)
    for i in range(0, n, every):
        label = (f"{moves[i]['game']}." if "game" in moves[i] else "") + str(moves[i]["ply"])
        s.text(x(i), ly0 + panel + 14, label, font_size=10, text_anchor="middle")
    s.text(left + (w - left - right) / 2, h - 6, "ply", font_size=11, text_anchor="middle")
    s.text(left, 14, "value of the bot's best move (dashed purple) and of the move played (orange); loss below, "
                     "coloured by class", font_size=12)
    return s.to_string()


def _anchor(m: dict) -> str:
    return f"move-{m.get('game', 1)}-{m['ply']}"


def page(title: str, body: str, css: str = CSS) -> str:
    """One self-contained page: its title as the heading, the style inline, no script."""
    return (f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            f"<style>{css}</style></head><body><h1>{html.escape(title)}</h1>{body}</body></html>")


def render_boards(row: dict) -> str:
    """A record not analysed yet: its board before every move, nothing else."""
    game = registry.get_game(row["game"])
    cards = []
    for p in game.notation.positions(record_of(row)):
        where = f"game {p.game}, " if p.game != 1 else ""
        cards.append(f'<div class="move" id="move-{p.game}-{p.ply}"><h3>{where}ply {p.ply}: {html.escape(p.move)}</h3>'
                     f'{game.analysis.svg_board(p.before, None, None)}</div>')
    return page(f"Scorebook record {row['id']} ({game.info.name})",
                f"<p>{html.escape(row.get('players') or '')}; not analysed yet "
                f"(<code>scorebook analyze {row['id']}</code>).</p>"
                f"<h2>Boards</h2><p>Before each move. {game.analysis.legend()}</p>"
                f"<div class='boards'>{''.join(cards)}</div>")


def _e(value) -> str:
    """Any value a report holds, escaped for HTML: a database from elsewhere may hold anything."""
    return html.escape(str(value))


def render(row: dict, report: dict) -> str:
    game = registry.get_game(row["game"])
    moves = report["moves"]
    by_ply = {(m.get("game", 1), m["ply"]): m for m in moves}
    cards = []
    for p in game.notation.positions(record_of(row)):
        m = by_ply.get((p.game, p.ply))
        if m is None:
            continue
        board = game.analysis.svg_board(p.before, m["played"], m["best"])
        se = "" if m.get("stderr") is None else f" ± {_e(m['stderr'])}"
        where = f"game {_e(m['game'])}, " if "game" in m else ""
        shown = "best, tied" if m.get("tied") else m["class"]
        cards.append(f'<div class="move {_e(m["class"])}" id="{_e(_anchor(m))}" data-ply="{_e(m["ply"])}">'
                     f'<h3>{where}ply {_e(m["ply"])}: {_e(p.move)} ({_e(shown)})</h3>{board}'
                     f'<p>played {_e(m["played"])}: {_e(m["value_played"])}; best {_e(m["best"])}: '
                     f'{_e(m["value_best"])}; loss {_e(m["loss"])}{se}</p></div>')
    listing = "".join(
        f'<tr class="{_e(m["class"])}"><td><a href="#{_e(_anchor(m))}">{_e(m.get("game", 1))}.{_e(m["ply"])}</a></td>'
        f'<td>{_e(m["player"])}</td><td>{_e(m["played"][:60])}</td><td>{_e(m["best"][:60])}</td>'
        f'<td>{_e(m["loss"])}</td><td>{_e("best, tied" if m.get("tied") else m["class"])}</td></tr>' for m in moves)
    summary_rows = "".join(
        f"<tr><td>{_e(name)}</td><td>{_e(s['moves'])}</td><td>{_e(s['total_loss'])}</td><td>{_e(s['mean_loss'])}</td>"
        f"<td>{_e(s['accuracy'])}%</td><td>{_e(s['best_move_rate'])}%</td><td>"
        + _e(", ".join(f"{k} {v}" for k, v in s["classes"].items())) + "</td></tr>"
        for name, s in report["summary"].items())
    info = game.info.analysis
    title = f"Scorebook analysis of {row['id']} ({game.info.name})"
    thresholds = ", ".join(f"{name} ≥ {t:g}" if isinstance(t, (int, float)) else f"{name} ≥ {t}"
                           for name, t in report["thresholds"])
    return page(title, f"<p>Bot {_e(report['bot'])}, seed {_e(report['seed'])}, engine {_e(report['engine_version'])}. "
            f"A value is the {_e(info.value)} in {_e(info.unit)}, from the mover's side; "
            f"the loss is the best move's value less the move played's. Classes: best (the bot's own move), "
            f"then by loss: {_e(thresholds)}.</p>"
            f"<table id='summary'><tr><th>player</th><th>moves</th><th>total loss</th><th>mean loss</th>"
            f"<th>accuracy</th><th>best move</th><th>classes</th></tr>{summary_rows}</table>"
            f"{chart(moves, report['thresholds'])}"
            f"<h2>Moves</h2><table id='movelist'><tr><th>ply</th><th>player</th><th>played</th><th>best</th>"
            f"<th>loss</th><th>class</th></tr>{listing}</table>"
            f"<h2>Boards</h2><p>Before each move. {game.analysis.legend()}</p>"
            f"<div class='boards'>{''.join(cards)}</div>")


TIEBREAK_NAMES = {"points": "match points", "omb": "OMB (sum of match margins)",
                  "p_zero": "P-Zero (points among the tied)", "g_score": "G-score (points over all games)",
                  "seniority": "seniority (previous rank)"}


def render_standings(doc: dict) -> str:
    """Tournament standings as one self-contained page: the ranking with every tiebreak named
    and its value, and the crosstable of matches (each cell: the row player's margins and
    results against the column player, one per match)."""
    event = doc.get("event") or "tournament"
    chain = doc["tiebreaks"]
    head = "".join(f"<th title='{html.escape(TIEBREAK_NAMES.get(c, c))}'>{html.escape(TIEBREAK_NAMES.get(c, c))}</th>"
                   for c in chain)
    rows = "".join(f"<tr data-rank='{r['rank']}'><td>{r['rank']}</td><td class='player'>{html.escape(r['player'])}</td>"
                   + "".join(f"<td>{'-' if r[c] is None else r[c]}</td>" for c in chain) + "</tr>"
                   for r in doc["standings"])
    players = [r["player"] for r in doc["standings"]]
    cells: dict[tuple[str, str], list[str]] = {}
    for m in doc.get("matches", []):
        a, b = m["players"]
        points = {"1-0": ("1", "0"), "0-1": ("0", "1")}.get(m["result"], ("½", "½"))
        cells.setdefault((a, b), []).append(f"{m['margin']:+d} ({points[0]})")
        cells.setdefault((b, a), []).append(f"{-m['margin']:+d} ({points[1]})")
    cross_head = "".join(f"<th>{i + 1}</th>" for i in range(len(players)))
    cross = "".join(
        f"<tr><th>{i + 1}. {html.escape(p)}</th>" + "".join(
            "<td class='self'>-</td>" if p == q else f"<td>{'<br>'.join(cells.get((p, q), [])) or ''}</td>"
            for q in players) + "</tr>" for i, p in enumerate(players))
    title = f"Standings: {event}"
    css = CSS + "\n.self{background:#eee}#crosstable td{text-align:center}"
    rated = ""
    if doc.get("ratings"):
        rated = ("<h2>Ratings</h2><p>From this event's stored games, in the order played (rating = mu - 3 sigma, "
                 "openskill's Plackett-Luce; <code>scorebook ratings --event</code>).</p>" + ratings_table(doc["ratings"]))
    return page(title, f"<p>Ranked by {', then '.join(html.escape(TIEBREAK_NAMES.get(c, c)) for c in chain)}; players still tied "
            f"share a rank.</p><table id='standings'><tr><th>rank</th><th>player</th>{head}</tr>{rows}</table>"
            f"<h2>Crosstable</h2><p>Each cell: the row player's margin in every match against the column player, "
            f"and the match point it scored.</p><table id='crosstable'><tr><th></th>{cross_head}</tr>{cross}</table>"
            + rated, css)


RATING_HEAD = ("rank", "player", "rating", "mu", "±", "games", "won", "shared", "lost")


def ratings_table(rows: list[dict]) -> str:
    """Rating rows (``analyze.ratings``) as an HTML table, every name escaped."""
    keys = ("rank", "player", "rating", "mu", "sigma", "games", "wins", "shared", "losses")
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(r[k]))}</td>" for k in keys) + "</tr>" for r in rows)
    return ("<table class='ratings'><tr>" + "".join(f"<th>{h}</th>" for h in RATING_HEAD) + f"</tr>{body}</table>")


def render_ratings(doc: dict) -> str:
    """Every game's ratings and solo summaries as one page (the Datasette plugin's ratings view)."""
    parts = []
    for game in sorted({r["game"] for r in doc["ratings"]} | {r["game"] for r in doc["solo"]}):
        parts.append(f"<h2>{html.escape(game)}</h2>")
        mine = [r for r in doc["ratings"] if r["game"] == game]
        if mine:
            parts.append(ratings_table(mine))
        solo = [r for r in doc["solo"] if r["game"] == game]
        if solo:
            parts.append("<table class='solo'><tr><th>rank</th><th>player</th><th>mean</th><th>s.e.</th><th>best</th>"
                         "<th>games</th></tr>" + "".join(
                             "<tr>" + "".join(f"<td>{html.escape('-' if r[k] is None else str(r[k]))}</td>"
                                              for k in ("rank", "player", "mean", "stderr", "best", "games")) + "</tr>"
                             for r in solo) + "</table>")
    return page("Ratings", f"<p>{doc['games']} finished games, rated in the order played: rating = mu - 3 sigma "
                f"(openskill's Plackett-Luce), ± sigma; solo games, each player's totals.</p>" + "".join(parts))
