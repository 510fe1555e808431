"""The HTML report of every game renders in headless Chromium: a screenshot is taken, the DOM
checked (a board with coordinates and marks before every analysed move, the chart with its
axes and thresholds, the move list linking to each board, the legend) and the console has no
error. Skips with a reason where Chromium is not installed (.ci/run installs it)."""
from __future__ import annotations

import re

import pytest

from .conftest import SAMPLES, cli_json

REPORTS = {  # a sample of each game, analysed cheaply: the page, not the numbers, is under test
    "tiny-islands": ("tiny-islands/tiny-islands-random-s7-0001.pgn", "rollouts:2,candidates:2,max-rollouts:2"),
    "game-of-islands": ("game-of-islands/bot-round-robin/game-of-islands-search-greedy-triad-s21-0001.pgn",
                        "depth:1"),
    "iwoki": ("iwoki/iwoki-minimax2-greedy-s5-0002.pgn", "samples:2"),
    "patchwork": ("patchwork/patchwork-rule-based-real-s5-0001.pgn", "effort:1"),
    "patchwork-two-player": ("patchwork/patchwork-best2-vbrz-two-player-s6-0001.pgn", "playouts:2"),
    "tsuro": ("tsuro/tsuro-mc8-simple-random-s6-0001.pgn", "samples:2"),
}
UNMARKED = re.compile(r"pass|--|time|draw.*|(\d:)?(S\d+|A|B\d+|L-)")  # moves that cover no square


@pytest.mark.browser
@pytest.mark.parametrize("game", sorted(REPORTS))
def test_the_report_of_every_game_renders_in_chromium(game, run_cli, tmp_path, browser):
    path, bot = REPORTS[game]
    rid = cli_json(run_cli("ingest", str(SAMPLES / path), "--json"))["records"][0]["id"]
    page = tmp_path / "report.html"
    doc = cli_json(run_cli("analyze", rid, "--bot", bot, "--json", "--html", str(page)))
    moves = doc["moves"]
    html = page.read_text()
    # self-contained: one inline script (the viewer), nothing fetched
    assert html.count("<script") == 1 and "<script>" in html and "src=" not in html.split("<script>")[1]
    assert "http://" not in html.replace("http://www.w3.org/2000/svg", "") and "https://" not in html
    browser.open(page.as_uri())
    shot = browser.screenshot(1200, 1600)
    assert len(shot) > 10_000 and shot[:8] == b"\x89PNG\r\n\x1a\n"
    assert browser.console_errors() == []
    dom = browser.html()
    finals = dom.count('class="move final"')  # the final position of each game of the record
    # and one before every analysed move, and the interactive board's copy of the one it shows
    assert finals >= 1 and dom.count('class="board"') == len(moves) + finals + 1
    assert 'id="record"' in dom and 'id="result"' in dom and "Final position" in dom
    assert dom.count('class="mark played"') >= sum(1 for m in moves if not UNMARKED.fullmatch(m["played"]))
    for m in moves:  # every row of the move list jumps to its board
        anchor = f"move-{m.get('game', 1)}-{m['ply']}"
        assert f'href="#{anchor}"' in dom and f'id="{anchor}"' in dom
    assert 'id="chart"' in dom and ">ply<" in dom and ">loss<" in dom and ">value<" in dom
    assert re.search(r"(inaccuracy|mistake|blunder) ≥", dom)  # the class thresholds on the loss axis
    assert 'class="legend"' in dom and "move played" in dom and "bot's best" in dom
    assert 'id="summary"' in dom
    assert re.search(r'id="viewer"[^>]*data-index="0"', dom)  # the interactive board shows the first move


KEYS = """<script>
function key(k) { document.dispatchEvent(new KeyboardEvent("keydown", {key: k, bubbles: true})); }
function at() { return document.getElementById("viewer").dataset.index; }
var seen = [];
key("ArrowRight"); key("ArrowRight"); key("ArrowRight"); seen.push(at());
key("ArrowLeft"); seen.push(at());
key("End"); seen.push(at());
key("ArrowRight"); seen.push(at());
key("Home"); key("ArrowLeft"); seen.push(at());
key("End");
document.body.setAttribute("data-keys", seen.join(",") + "|" + document.getElementById("viewer-where").textContent);
</script>"""


@pytest.mark.browser
@pytest.mark.parametrize("game", ["tsuro", "game-of-islands"])
def test_the_interactive_board_steps_with_the_arrow_keys(game, run_cli, tmp_path, browser):
    """Key presses dispatched in Chromium (a script added to a copy of the page): right three
    times, left, End, right at the end, Home then left at the start."""
    path, bot = REPORTS[game]
    rid = cli_json(run_cli("ingest", str(SAMPLES / path), "--json"))["records"][0]["id"]
    page = tmp_path / "report.html"
    moves = cli_json(run_cli("analyze", rid, "--bot", bot, "--json", "--html", str(page)))["moves"]
    page.write_text(page.read_text().replace("</body>", KEYS + "</body>"))
    browser.open(page.as_uri())
    dom = browser.html()
    seen, where = re.search(r'data-keys="([^"|]*)\|([^"]*)"', dom).groups()
    last = len(moves) - 1
    assert seen.split(",") == [str(min(3, last)), str(min(3, last) - 1), str(last), str(last), "0"]
    final = moves[-1]
    assert where.startswith(f"move {len(moves)} of {len(moves)}: ") and f"ply {final['ply']}:" in where
    shown = dom.split('id="viewer-board"')[1].split('id="movelist"')[0] if 'id="movelist"' in dom else dom
    assert 'class="board"' in shown  # the board of the move it shows


@pytest.mark.browser
def test_the_standings_page_equals_the_json_rank_by_rank(run_cli, tmp_path, browser):
    from .conftest import SHARED, shared_file
    tournament = shared_file(SHARED / "data" / "goi" / "tournament-small" / "tournament.json")
    page = tmp_path / "standings.html"
    doc = cli_json(run_cli("standings", str(tournament), "--json", "--html", str(page)))
    html = page.read_text()
    assert "<script" not in html and "http://" not in html
    browser.open(page.as_uri())
    dom = browser.html()
    rows = re.findall(r"<tr data-rank=\"(\d+)\"><td>\d+</td><td class=\"player\">([^<]+)</td>(.*?)</tr>", dom)
    assert [(int(rank), player) for rank, player, _ in rows] == [(r["rank"], r["player"]) for r in doc["standings"]]
    for (_, _, cells), row in zip(rows, doc["standings"]):
        assert re.findall(r"<td>([^<]*)</td>", cells) == ["-" if row[c] is None else str(row[c]) for c in doc["tiebreaks"]]
    for name in ("match points", "OMB", "P-Zero", "G-score", "seniority"):
        assert name in dom
    crosstable = dom.split('id="crosstable"')[1]
    for m in doc["matches"]:  # every match's margin, from both sides
        assert f"{m['margin']:+d} (" in crosstable and f"{-m['margin']:+d} (" in crosstable


@pytest.mark.browser
def test_the_shared_browser_sees_a_pages_console_errors(browser, tmp_path):
    """What the pages above are held to: a console error and an uncaught exception are seen."""
    page = tmp_path / "broken.html"
    page.write_text('<p>x</p><script>console.error("drawn wrong"); null.board;</script>')
    browser.open(page.as_uri())
    errors = browser.console_errors()
    assert len(errors) == 2 and "drawn wrong" in errors[0] and errors[1].startswith("Uncaught TypeError")
    browser.open(SAMPLES.as_uri())
    assert browser.console_errors() == []


# The visible part of every text of every drawing (its box less the font's space above and below
# the glyphs), and any two of one drawing that meet; the page's own width against the window's.
OVERLAPS = r"""JSON.stringify((function () {
  function glyph(e) { var q = e.getBoundingClientRect(), h = q.height;
    return {l: q.left, r: q.right, t: q.top + 0.22 * h, b: q.bottom - 0.2 * h, w: q.width, text: e.textContent}; }
  function meet(a, b) { return a.l + 1 < b.r && b.l + 1 < a.r && a.t + 1 < b.b && b.t + 1 < a.b; }
  var found = [];
  document.querySelectorAll("svg").forEach(function (svg) {
    var texts = Array.prototype.map.call(svg.querySelectorAll("text"), glyph).filter(function (g) { return g.w > 0; });
    for (var i = 0; i < texts.length; i++) for (var j = i + 1; j < texts.length; j++)
      if (meet(texts[i], texts[j])) found.push(texts[i].text + " / " + texts[j].text);
  });
  return {overlaps: found, page: document.documentElement.scrollWidth, window: window.innerWidth};
})())"""


@pytest.mark.browser
@pytest.mark.parametrize("game", sorted(REPORTS))
def test_no_text_of_a_report_meets_another_on_a_phone_or_a_desktop(game, run_cli, tmp_path, browser):
    """Every text of every drawing (boards, legends, the chart) clear of every other, and the
    page no wider than the window, at a phone's 390 px and at 1280 px."""
    import json
    path, bot = REPORTS[game]
    rid = cli_json(run_cli("ingest", str(SAMPLES / path), "--json"))["records"][0]["id"]
    page = tmp_path / "report.html"
    cli_json(run_cli("analyze", rid, "--bot", bot, "--json", "--html", str(page)))
    try:
        for width in (390, 1280):
            browser.page("Emulation.setDeviceMetricsOverride", width=width, height=900, deviceScaleFactor=1,
                         mobile=width < 600)
            browser.open(page.as_uri())
            seen = json.loads(browser.evaluate(OVERLAPS))
            assert seen["overlaps"] == [] and seen["page"] <= seen["window"] == width, (width, seen)
    finally:
        browser.page("Emulation.clearDeviceMetricsOverride")
