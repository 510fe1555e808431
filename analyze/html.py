"""A self-contained HTML report of an analysis: the record (players, event, date, source), its
result and final position; the summary per player; a chart of the values, from one side, and
the losses with their axes and the class thresholds, each bar a link to its move; a move list
whose every row jumps to its board; and the board in SVG before every move with the move played
(solid orange) and the bot's best (dashed purple) marked, drawn by the game's analysis module
with its coordinates and legend; above them one interactive board that steps through them
(arrow keys, a slider). One file: the style and the script inline, nothing fetched.
"""
from __future__ import annotations

import html

from scorebook import registry

from . import svg
from .loss import seen_from_first_seat
from .run import trace_of

BODY_CSS = ("body{font-family:system-ui,sans-serif;margin:24px;color:#222;max-width:1200px}h1{font-size:20px}\n"
            # a phone: the drawings scale down to the width, a wide table scrolls in its own box
            "svg{max-width:100%;height:auto}figure{margin:12px 0}figcaption{font-size:13px}\n"
            # the chart keeps a legible size on a phone, scrolled sideways in its own box
            "figure.chart{overflow-x:auto}figure.chart svg{min-width:600px}\n"
            "@media (max-width:700px){body{margin:10px}table{display:block;overflow-x:auto;max-width:100%}}\n")
REPORT_CSS = """h2{font-size:16px;margin-top:24px}table{border-collapse:collapse;margin:12px 0}
td,th{border:1px solid #ccc;padding:3px 8px;font-size:13px;text-align:left}
#movelist{max-height:360px;overflow-y:auto;display:block}#movelist a{color:#225;text-decoration:none}
.boards{display:flex;flex-wrap:wrap;gap:12px}.move{border:1px solid #ddd;padding:6px;scroll-margin-top:12px}
.move h3{font-size:13px;margin:0 0 4px}.move p{font-size:12px;margin:4px 0 0;max-width:420px}
.blunder{background:#fdd}.mistake{background:#fed}.inaccuracy{background:#ffe}
.move:target{outline:3px solid #e6550d}
#viewer{border:1px solid #ccc;padding:8px;margin:12px 0;max-width:760px}#viewer .controls{display:flex;gap:8px;align-items:center}
#viewer-slider{flex:1}#viewer .move{border:none;padding:0}#movelist tr.current td{outline:2px solid #6a3d9a}"""

# The one interactive board: the boards below are the data, shown one at a time. Arrow keys
# (left, right, Home, End), the slider and the buttons step through them; a link to a move
# (the move list, a chart bar) shows it. Nothing from a record is in the script: it reads the
# page and copies its boards, setting only text.
VIEWER = ("<div id='viewer'><h2>Board</h2><div class='controls'>"
          "<button id='viewer-prev' type='button' aria-label='previous move'>&#9664;</button>"
          "<input id='viewer-slider' type='range' min='0' max='0' value='0' aria-label='move'>"
          "<button id='viewer-next' type='button' aria-label='next move'>&#9654;</button></div>"
          "<p id='viewer-where'></p><p id='viewer-value'></p><div id='viewer-board'></div>"
          "<p><small>Arrow keys, Home and End step through the moves.</small></p></div>")
VIEWER_SCRIPT = """<script>
(function () {
  var cards = Array.prototype.slice.call(document.querySelectorAll(".boards .move[data-ply]"));
  var viewer = document.getElementById("viewer");
  if (!viewer) { return; }
  if (!cards.length) { viewer.style.display = "none"; return; }
  var slider = document.getElementById("viewer-slider"), board = document.getElementById("viewer-board");
  var where = document.getElementById("viewer-where"), value = document.getElementById("viewer-value");
  slider.max = String(cards.length - 1);
  function show(i) {
    i = Math.max(0, Math.min(cards.length - 1, i));
    var card = cards[i], copy = card.cloneNode(true);
    copy.removeAttribute("id");
    board.replaceChildren(copy);
    slider.value = String(i);
    viewer.dataset.index = String(i);
    where.textContent = "move " + (i + 1) + " of " + cards.length + ": " + card.querySelector("h3").textContent;
    var d = card.dataset;
    value.textContent = d.valuePlayed === undefined ? "" : "value of the move played " + d.valuePlayed +
      ", of the bot's best " + d.valueBest + ", loss " + d.loss;
    var rows = document.querySelectorAll("#movelist tr.current");
    for (var k = 0; k < rows.length; k++) { rows[k].classList.remove("current"); }
    var link = document.querySelector('#movelist a[href="#' + card.id + '"]');
    if (link) { link.closest("tr").classList.add("current"); }
  }
  document.addEventListener("keydown", function (e) {
    if (e.target === slider || e.altKey || e.ctrlKey || e.metaKey) { return; }
    var i = Number(slider.value), to = {ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: cards.length - 1}[e.key];
    if (to !== undefined) { show(to); e.preventDefault(); }
  });
  slider.addEventListener("input", function () { show(Number(slider.value)); });
  document.getElementById("viewer-prev").addEventListener("click", function () { show(Number(slider.value) - 1); });
  document.getElementById("viewer-next").addEventListener("click", function () { show(Number(slider.value) + 1); });
  function fromHash() {
    for (var k = 0; k < cards.length; k++) { if ("#" + cards[k].id === location.hash) { show(k); return; } }
  }
  window.addEventListener("hashchange", fromHash);
  show(0);
  fromHash();
})();
</script>"""
CSS = BODY_CSS + REPORT_CSS  # a page of its own; inside Datasette's page, REPORT_CSS alone

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


PLAYER_COLOURS = ("#1f77b4", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22")


def chart(moves: list[dict], thresholds: list, players: list[str] | None = None, scale: str = "score") -> str:
    """Two panels over the moves: the values, from one perspective, and the loss as bars
    coloured by class (each a link to its move), each panel with its axis, the loss panel
    with the thresholds; where a record holds several games, a line marks where each starts.

    The values: a game of one player, its own; two players, the first seat's side (lichess's
    White), the bot's best and the move played; three or more, one line per player, the value
    of each of its moves as played (its expected share)."""
    if not moves:
        return ""
    c = _Chart(moves, players, scale)
    c.axes(thresholds)
    c.thresholds(thresholds)
    c.game_starts()
    c.loss_bars()
    c.threshold_labels(thresholds)  # right of the plot area: never across the bars
    c.value_lines()
    c.ply_labels()
    # the caption in the page's text, not the drawing's: it wraps at any width (an SVG text is cut)
    return f"<figure class='chart'><figcaption>{html.escape(c.caption, quote=False)}</figcaption>{c.s.to_string()}</figure>"


class _Chart:
    """The chart's geometry and its parts, drawn one after the other."""
    w, left, right, top, panel, gap = 860, 56, 104, 12, 150, 36

    def __init__(self, moves: list[dict], players: list[str] | None, scale: str):
        players = list(players or [])
        self.moves, self.n = moves, len(moves)
        self.seats = sorted({m["player"] for m in moves})
        n_players = max(len(players), len(self.seats), max(self.seats) + 1)
        self.names = [players[i] if i < len(players) else f"seat {i + 1}" for i in range(n_players)]
        self.per_player = n_players >= 3 or scale == "score" and n_players > 1
        self.h = self.top + self.panel + self.gap + self.panel + 40
        self.s = svg.Svg(self.w, self.h, css_class="chart", title="value and loss per move")
        self.s.root.set("id", "chart")
        self.step = (self.w - self.left - self.right) / max(self.n, 1)
        self.ly0 = self.top + self.panel + self.gap
        self._series(n_players, scale)

    def _series(self, n_players: int, scale: str) -> None:
        """The values drawn and the caption that says what they are."""
        moves = self.moves
        if self.per_player:
            self.lines = {seat: [(i, m["value_played"]) for i, m in enumerate(moves) if m["player"] == seat]
                          for seat in self.seats}
            values = [v for pts in self.lines.values() for _, v in pts]
            self.caption = "each player's value after its own moves (colours below); loss below, coloured by class"
        elif n_players == 2:
            pairs = [seen_from_first_seat(m, scale) for m in moves]
            self.best, self.played = [b for b, _ in pairs], [p for _, p in pairs]
            # a margin's even line always shown: who is ahead reads at a glance
            values = self.best + self.played + ([0.0] if scale == "margin" else [])
            what = "the expected final margin " if _in_hand_given(moves) else ""
            self.caption = (f"{what}from {self.names[0]}'s side: the bot's best move (dashed purple) and the move "
                            "played (orange); loss below, coloured by class")
        else:
            self.best, self.played = [m["value_best"] for m in moves], [m["value_played"] for m in moves]
            values = self.best + self.played
            self.caption = "value of the bot's best move (dashed purple) and of the move played (orange); loss " \
                           "below, coloured by class"
        self.vt = _ticks(min(values), max(values))
        self.vlo, self.vhi = self.vt[0], self.vt[-1] if self.vt[-1] > self.vt[0] else self.vt[0] + 1

    def x(self, i: int) -> float:
        return self.left + (i + 0.5) * self.step

    def vy(self, v: float) -> float:
        return self.top + self.panel - (v - self.vlo) / (self.vhi - self.vlo) * self.panel

    def ly(self, v: float) -> float:
        return self.ly0 + self.panel - v / self.lhi * self.panel

    def axes(self, thresholds: list) -> None:
        """Each panel's axes, ticks and label."""
        max_loss = max([m["loss"] for m in self.moves] + [t for _, t in thresholds][-1:] + [1])
        lt = _ticks(0, max_loss)
        self.lhi = lt[-1] or 1
        s, left, right, panel = self.s, self.left, self.right, self.panel
        for y0, ticks, fy, label in ((self.top, self.vt, self.vy, "value"), (self.ly0, lt, self.ly, "loss")):
            s.line(left, y0, left, y0 + panel, stroke=svg.INK)
            s.line(left, y0 + panel, self.w - right, y0 + panel, stroke=svg.INK)
            for v in ticks:
                s.line(left - 4, fy(v), self.w - right, fy(v), stroke="#eee")
                s.text(left - 6, fy(v) + 4, f"{v:g}", font_size=10, text_anchor="end")
            s.text(12, y0 + panel / 2, label, font_size=11, transform=f"rotate(-90 12 {y0 + panel / 2})",
                   text_anchor="middle")

    def thresholds(self, thresholds: list) -> None:
        """The classes' thresholds on the loss panel, as dashed lines."""
        for name, t in thresholds:
            if 0 < t <= self.lhi:
                self.s.line(self.left, self.ly(t), self.w - self.right, self.ly(t),
                            stroke=CLASS_COLOURS.get(name, "#999"), stroke_dasharray="4,3")

    def threshold_labels(self, thresholds: list) -> None:
        """Each threshold's label in the margin right of the plot area, level with its line,
        moved up where it would meet the one below (the thresholds rise)."""
        x, below = self.w - self.right + 4, None
        for name, t in thresholds:
            if 0 < t <= self.lhi:
                y = self.ly(t) + 3
                if below is not None and below - y < 12:
                    y = below - 12
                below = y
                self.s.text(x, y, f"{name} ≥ {t:g}", font_size=10, fill=CLASS_COLOURS.get(name, "#999"),
                            **{"class": "threshold"})

    def game_starts(self) -> None:
        """Where a game of several starts: a line and its number."""
        moves, half = self.moves, self.step / 2
        for i, m in enumerate(moves):
            if i > 0 and m.get("game", 1) != moves[i - 1].get("game", 1):
                self.s.line(self.x(i) - half, self.top, self.x(i) - half, self.ly0 + self.panel, stroke=svg.INK,
                            stroke_dasharray="2,3", **{"class": "game-start"})
                self.s.text(self.x(i) - half + 3, self.top + 10, f"game {m['game']}", font_size=10)

    def loss_bars(self) -> None:
        """A bar a move, coloured by its class, a link to the move."""
        s, bottom = self.s, self.ly0 + self.panel
        for i, m in enumerate(self.moves):
            link = s._add("a", {"href": f"#{_anchor(m)}"})
            s._add("title", {}, link).text = f"{_where(m)}: {m['played'][:60]} ({_shown_class(m)}, loss {m['loss']})"
            s.rect(self.x(i) - max(self.step * 0.3, 1), self.ly(m["loss"]), max(self.step * 0.6, 2),
                   bottom - self.ly(m["loss"]), parent=link, fill=CLASS_COLOURS.get(m["class"], "#999"),
                   **{"class": "loss"})

    def value_lines(self) -> None:
        """A line a player with its key, or the bot's best and the move played."""
        s = self.s
        if not self.per_player:
            self._series_line(list(enumerate(self.best)), svg.BEST, stroke_dasharray=svg.BEST_DASH)
            self._series_line(list(enumerate(self.played)), svg.PLAYED)
            return
        for seat, pts in self.lines.items():
            self._series_line(pts, PLAYER_COLOURS[seat % len(PLAYER_COLOURS)], **{"class": f"player-line seat-{seat}"})
        key_x, key_y = self.left + 4, self.top + self.panel
        for seat in self.seats:
            s.rect(key_x, key_y + 6, 10, 10, fill=PLAYER_COLOURS[seat % len(PLAYER_COLOURS)])
            label = self.names[seat][:24]
            s.text(key_x + 14, key_y + 15, label, font_size=10)
            key_x += 24 + 6 * len(label)

    def _series_line(self, pts: list[tuple[int, float]], colour: str, **attrs) -> None:
        """A series' line, and a dot on each point where it has fewer than three (a line of one
        point draws nothing: a player of one move)."""
        self.s.polyline([(self.x(i), self.vy(v)) for i, v in pts], fill="none", stroke=colour, stroke_width=2,
                        **attrs)
        if len(pts) < 3:
            for i, v in pts:
                self.s.circle(self.x(i), self.vy(v), 4, fill=colour, **{"class": "point"})

    def ply_labels(self) -> None:
        """Every few plies' number under the loss panel; the axis' name; the caption."""
        s, left, right = self.s, self.left, self.right
        for i in range(0, self.n, max(1, self.n // 12)):
            s.text(self.x(i), self.ly0 + self.panel + 14, str(self.moves[i]["ply"]), font_size=10,
                   text_anchor="middle")
        s.text(left + (self.w - left - right) / 2, self.h - 6, "ply", font_size=11, text_anchor="middle")


def _in_hand_given(moves: list[dict]) -> bool:
    """Whether the values are of the rest of the game, the points in hand beside them
    (``so_far``): the chart then shows the expected final margin."""
    return any("so_far" in m for m in moves)


def _chart_side(players: list[str], scale: str, moves: list[dict]) -> str:
    """What the chart's values are, as ``chart`` draws them."""
    if len(players) >= 3 or scale == "score" and len(players) > 1:
        return "the chart: a line per player, the value of each of its moves"
    if len(players) == 2 and _in_hand_given(moves):
        return (f"the chart shows the expected final margin from {players[0]}'s side: the points in hand plus "
                "that value")
    if len(players) == 2:
        return f"the chart shows them from {players[0]}'s side"
    return "the chart: the values of the bot's best move and of the move played"


def _where(m: dict) -> str:
    """A move's place: ``ply 7``, or ``game 2, ply 7`` in a record of several games."""
    return (f"game {m['game']}, " if "game" in m else "") + f"ply {m['ply']}"


def _shown_class(m: dict) -> str:
    return "best, tied" if m.get("tied") else str(m["class"])


def _anchor(m: dict) -> str:
    return f"move-{m.get('game', 1)}-{m['ply']}"


# where the served archive shows a record (its boards and analysis): a page drawn here links a
# record there when it is told the archive's address (``service/pages.py`` serves it)
RECORD_ROUTE = "/-/scorebook/record/"


def page(title: str, body: str, css: str = CSS) -> str:
    """One self-contained page: its title as the heading, the style inline (a report's body
    carries the viewer's script inline); nothing fetched from outside the page."""
    return (f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
            f"<meta name='viewport' content='width=device-width, initial-scale=1'><title>{html.escape(title)}</title>"
            f"<style>{css}</style></head><body><h1>{html.escape(title)}</h1>{body}</body></html>")


def _e(value) -> str:
    """Any value a report holds, escaped for HTML: a database from elsewhere may hold anything."""
    return html.escape(str(value))


TAGS_SHOWN = ("Event", "Site", "Date", "Round")


def about(row: dict, game, players: list[str], positions: list) -> str:
    """The record: its players, event, site, date, round and source; the result with its
    breakdown (``Notation.score_lines``); the final position of each of its games."""
    tags = row.get("tags") or {}
    facts = [("Players", ", ".join(players))] + [(k, tags[k]) for k in TAGS_SHOWN if tags.get(k)]
    if row.get("source"):
        facts.append(("Source", row["source"]))
    table = "".join(f"<tr><th>{_e(k)}</th><td>{_e(v)}</td></tr>" for k, v in facts)
    if row.get("finished"):
        result = "<br>".join(_e(line) for line in game.notation.score_lines(row.get("score") or {}, players))
    else:
        result = "unfinished: the record stops before the game's end"
    last: dict[int, object] = {}
    for p in positions:
        last[p.game] = p
    boards = "".join(f'<div class="move final"><h3>{f"game {g}, " if len(last) > 1 else ""}after ply {p.ply}</h3>'
                     f'{game.analysis.svg_board(p.state, None, None, tuple(players))}</div>' for g, p in last.items())
    return (f"<table id='record'>{table}</table><p id='result'><b>Result</b>: {result}</p>"
            + (f"<h2>Final position</h2><div class='boards'>{boards}</div>{game.analysis.legend(tuple(players))}"
               if boards else ""))


def render_boards(row: dict, trace=None) -> str:
    """A record not analysed yet, as a page of its own (``boards_parts``)."""
    return page(*boards_parts(row, trace))


def boards_parts(row: dict, trace=None) -> tuple[str, str]:
    """(title, body) of a record not analysed yet: the record, its result and final position,
    then its board before every move with the move played marked. ``trace``: the record
    walked, when the caller has it."""
    game = registry.get_game(row["game"])
    trace = trace or trace_of(row)
    positions, players = trace.positions, trace.players
    cards = []
    for p in positions:
        where = f"game {p.game}, " if p.game != 1 else ""
        cards.append(f'<div class="move" id="move-{p.game}-{p.ply}" data-ply="{p.ply}"><h3>{where}ply {p.ply}: '
                     f'{_e(p.move)}</h3>{game.analysis.svg_board(p.before, game.analysis.move_mark(p), None, tuple(players))}</div>')
    return (f"Scorebook record {row['id']} ({game.info.name})",
            about(row, game, players, positions)
            + f"<p>Not analysed yet (<code>scorebook analyze {_e(row['id'])}</code>).</p>" + VIEWER
            + f"<h2>Boards</h2><p>Before each move. {game.analysis.legend(tuple(players))}</p>"
            f"<div class='boards'>{''.join(cards)}</div>" + VIEWER_SCRIPT)


def render(row: dict, report: dict, trace=None) -> str:
    """The report of an analysed record, as a page of its own (``report_parts``)."""
    return page(*report_parts(row, report, trace))


def report_parts(row: dict, report: dict, trace=None) -> tuple[str, str]:
    """(title, body) of the report of an analysed record: the record and its result, the
    summary per player, the chart, the move list and the board before every move. ``trace``:
    the record walked, when the caller has it."""
    game = registry.get_game(row["game"])
    trace = trace or trace_of(row)
    positions, players = trace.positions, trace.players
    moves = report["moves"]
    by_ply = {(m.get("game", 1), m["ply"]): m for m in moves}

    def name(seat: int) -> str:
        return players[seat] if 0 <= seat < len(players) else f"seat {seat + 1}"
    cards = []
    for p in positions:
        m = by_ply.get((p.game, p.ply))
        if m is None:
            continue
        board = game.analysis.svg_board(p.before, m["played"], m["best"], tuple(players))
        se = "" if m.get("stderr") is None else f" ± {_e(m['stderr'])}"
        top = "; ".join(f"{c['move']} {c['value']}" + ("" if c.get("stderr") is None else f" ± {c['stderr']}")
                        for c in m.get("top", []))
        extra = (f"<p class='top'>the bot's candidates: {_e(top)}</p>" if top else "") + \
            (f"<p class='line'>its line after {_e(m['best'])}: {_e(' '.join(m['line']))}</p>" if m.get("line") else "")
        cards.append(f'<div class="move {_e(m["class"])}" id="{_e(_anchor(m))}" data-ply="{_e(m["ply"])}" '
                     f'data-value-played="{_e(m["value_played"])}" data-value-best="{_e(m["value_best"])}" '
                     f'data-loss="{_e(m["loss"])}">'
                     f'<h3>{_e(_where(m))}: {_e(p.move)} ({_e(_shown_class(m))})</h3>{board}'
                     f'<p>{_e(name(m["player"]))} played {_e(m["played"])}: {_e(m["value_played"])}; '
                     f'best {_e(m["best"])}: {_e(m["value_best"])}; loss {_e(m["loss"])}{se}</p>{extra}</div>')
    listing = "".join(
        f'<tr class="{_e(m["class"])}"><td><a href="#{_e(_anchor(m))}">{_e(_where(m))}</a></td>'
        f'<td>{_e(name(m["player"]))}</td><td>{_e(m["played"][:60])}</td><td>{_e(m["best"][:60])}</td>'
        f'<td>{_e(m["loss"])}</td><td>{_e(_shown_class(m))}</td></tr>' for m in moves)
    summary_rows = "".join(
        f"<tr><td>{_e(who)}</td><td>{_e(s['moves'])}</td><td>{_e(s['total_loss'])}</td><td>{_e(s['mean_loss'])}</td>"
        f"<td>{_e(s['accuracy'])}%</td><td>{_e(s['best_move_rate'])}%</td><td>"
        + _e(", ".join(f"{k} {v}" for k, v in s["classes"].items())) + "</td></tr>"
        for who, s in report["summary"].items())
    info = game.info.analysis
    title = f"Scorebook analysis of {row['id']} ({game.info.name})"
    thresholds = ", ".join(f"{cls} ≥ {t:g}" if isinstance(t, (int, float)) else f"{cls} ≥ {t}"
                           for cls, t in report["thresholds"])
    return (title, about(row, game, players, positions)
            + f"<p>Bot {_e(report['bot'])}, seed {_e(report['seed'])}, engine {_e(report['engine_version'])}. "
            f"A value is the {_e(info.value)} in {_e(info.unit)}, from the mover's side "
            f"({_e(_chart_side(players, info.scale, moves))}); the loss is the best move's value less the move played's. Classes: best "
            f"(the bot's own move, or one level with it within the error of the values: tied), "
            f"then by loss: {_e(thresholds)}.</p>"
            f"<table id='summary'><tr><th>player</th><th>moves</th><th>total loss</th><th>mean loss</th>"
            f"<th>accuracy</th><th>best move</th><th>classes</th></tr>{summary_rows}</table>"
            f"{chart(moves, report['thresholds'], players, info.scale)}{VIEWER}"
            f"<h2>Moves</h2><table id='movelist'><tr><th>move</th><th>player</th><th>played</th><th>best</th>"
            f"<th>loss</th><th>class</th></tr>{listing}</table>"
            f"<h2>Boards</h2><p>Before each move. {game.analysis.legend(tuple(players))}</p>"
            f"<div class='boards'>{''.join(cards)}</div>" + VIEWER_SCRIPT)


TIEBREAK_NAMES = {"points": "match points", "omb": "OMB (sum of match margins)",
                  "p_zero": "P-Zero (points among the tied)", "g_score": "G-score (points over all games)",
                  "seniority": "seniority (previous rank)"}


def render_standings(doc: dict, record_url: str | None = None, links: dict | None = None) -> str:
    """Tournament standings as one self-contained page: the ranking with every tiebreak named
    and its value, and the crosstable of matches (each cell: the row player's margins and
    results against the column player, one per match; a match in ``links`` ({match: record
    id}) a link to its record, ``record_url`` followed by the id)."""
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
        for pair, text in (((a, b), f"{m['margin']:+d} ({points[0]})"), ((b, a), f"{-m['margin']:+d} ({points[1]})")):
            if record_url and (links or {}).get(m["match"]):
                text = (f"<a href='{html.escape(record_url + links[m['match']], quote=True)}' "
                        f"title='match {html.escape(str(m['match'] or ''), quote=True)}'>{text}</a>")
            cells.setdefault(pair, []).append(text)
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


def ratings_table(rows: list[dict], caption: str | None = None) -> str:
    """Rating rows (``analyze.ratings``) as an HTML table, every name escaped."""
    keys = ("rank", "player", "rating", "mu", "sigma", "games", "wins", "shared", "losses")
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(r[k]))}</td>" for k in keys) + "</tr>" for r in rows)
    return ("<table class='ratings'>" + (f"<caption>{html.escape(caption)}</caption>" if caption else "")
            + "<tr>" + "".join(f"<th>{h}</th>" for h in RATING_HEAD) + f"</tr>{body}</table>")


def render_ratings(doc: dict) -> str:
    """Every game's ratings and solo summaries as one page."""
    return page(*ratings_parts(doc))


def ratings_parts(doc: dict) -> tuple[str, str]:
    """(title, body) of every game's ratings and solo summaries, each table captioned (the
    served archive draws the body in its own page)."""
    parts = []
    for game in sorted({r["game"] for r in doc["ratings"]} | {r["game"] for r in doc["solo"]}):
        parts.append(f"<h2>{html.escape(game)}</h2>")
        mine = [r for r in doc["ratings"] if r["game"] == game]
        if mine:
            parts.append(ratings_table(mine, "games of two or more players: ratings, best first"))
        solo = [r for r in doc["solo"] if r["game"] == game]
        if solo:
            parts.append("<table class='solo'><caption>games of one player: each player's totals, best mean first"
                         "</caption><tr><th>rank</th><th>player</th><th>mean</th><th>s.e.</th><th>best</th>"
                         "<th>games</th></tr>" + "".join(
                             "<tr>" + "".join(f"<td>{html.escape('-' if r[k] is None else str(r[k]))}</td>"
                                              for k in ("rank", "player", "mean", "stderr", "best", "games")) + "</tr>"
                             for r in solo) + "</table>")
    return ("Ratings", f"<p>{doc['games']} finished games, rated in the order played: rating = mu - 3 sigma "
            f"(openskill's Plackett-Luce), ± sigma; solo games, each player's totals.</p>" + "".join(parts))
