"""The HTML report, read as a page (no browser): the record and its result above the
analysis, its final position, the chart from one perspective (the first seat's for two
players, one line per player for more), each loss bar a link to its move, the games of a
triad marked, and players named in the move list."""
from __future__ import annotations

import re

from scorebook.analyze.html import chart, render, render_boards
from scorebook.records.store import Store

from .conftest import SAMPLES, cli_json

TRIAD = SAMPLES / "game-of-islands" / "bot-round-robin" / "game-of-islands-search-greedy-triad-s21-0001.pgn"
TSURO_FIVE = SAMPLES / "tsuro" / "tsuro-random-1-simple-2-random-3-simple-4-random-5-s2-0001.pgn"


def _move(ply, player, best, played, game=None, cls="good"):
    m = {"ply": ply, "player": player, "played": f"m{ply}", "best": f"b{ply}", "value_best": best,
         "value_played": played, "loss": best - played, "class": cls}
    if game is not None:
        m["game"] = game
    return m


def _points(svg: str, css: str) -> list[tuple[float, float]]:
    line = re.search(rf'<polyline points="([^"]*)"[^>]*{css}', svg).group(1)
    return [tuple(map(float, p.split(","))) for p in line.split()]


def test_a_page_has_its_title_escaped_and_a_viewport():
    from scorebook.analyze.html import page
    head = page("Ann <b> & Bob", "<p>x</p>").split("</head>")[0]
    assert "<title>Ann &lt;b&gt; &amp; Bob</title>" in head and "name='viewport'" in head


def test_two_players_are_charted_from_the_first_seats_side():
    moves = [_move(1, 0, 4.0, 4.0, cls="best"), _move(2, 1, 4.0, 4.0, cls="best")]
    svg = chart(moves, [["inaccuracy", 1.0]], ["Ann", "Bob"], "margin")
    # Bob's +4 is Ann's -4: the played line falls from the first move to the second
    played = _points(svg, 'stroke="#e6550d"')
    assert played[1][1] > played[0][1]
    assert "from Ann's side" in svg
    share = chart(moves, [["inaccuracy", 1.0]], ["Ann", "Bob"], "share")
    assert _points(share, 'stroke="#e6550d"')[1][1] < _points(share, 'stroke="#e6550d"')[0][1]  # 4% -> 96%


def test_three_or_more_players_get_a_line_each_and_their_names():
    moves = [_move(p + 1, p % 3, 50.0, 40.0 + p) for p in range(7)]
    svg = chart(moves, [["inaccuracy", 5.0]], ["Ann", "Bob", "Cy"], "share")
    assert [len(re.findall(rf'class="player-line seat-{s}"', svg)) for s in range(3)] == [1, 1, 1]
    assert all(name in svg for name in ("Ann", "Bob", "Cy"))
    assert len(_points(svg, 'class="player-line seat-0"')) == 3  # Ann's three moves


def test_a_player_of_one_move_is_a_dot_and_the_thresholds_lie_right_of_the_bars():
    """A series of one point draws no line: it gets a dot. The thresholds' labels are in the
    margin right of the plot area, never across a bar; the caption is the page's text (it
    wraps), not the drawing's (it was cut)."""
    moves = [_move(1, 0, 50.0, 40.0), _move(2, 1, 50.0, 45.0), _move(3, 2, 50.0, 30.0), _move(4, 0, 50.0, 50.0),
             _move(5, 1, 50.0, 20.0, cls="blunder")]
    page = chart(moves, [["inaccuracy", 5.0], ["mistake", 10.0], ["blunder", 20.0]], ["Ann", "Bob", "Cy"], "share")
    svg = page[page.index("<svg"):]
    cy_dots = [c for c in re.findall(r'<circle ([^>]*)/>', svg) if 'class="point"' in c and "#d62728" in c]
    assert len(cy_dots) == 1  # Cy's one move
    right = max(float(x) + float(w) for x, w in re.findall(r'<rect x="([\d.]+)"[^>]*width="([\d.]+)"[^>]*class="loss"', svg))
    labels = [float(x) for x in re.findall(r'<text x="([\d.]+)"[^>]*class="threshold"', svg)]
    assert len(labels) == 3 and min(labels) > right
    assert page.startswith("<figure class='chart'><figcaption>each player's value") and "figcaption" not in svg


def test_each_loss_bar_links_to_its_move_and_a_triad_marks_its_games():
    moves = [_move(1, 0, 1.0, 0.0, game=1), _move(1, 1, 1.0, 0.0, game=2), _move(2, 0, 1.0, 0.0, game=2),
             _move(1, 0, 1.0, 1.0, game=3, cls="best")]
    svg = chart(moves, [["inaccuracy", 1.0]], ["Ann", "Bob"], "margin")
    assert re.findall(r'<a href="#(move-\d-\d)"><title>[^<]*</title><rect', svg) == \
        ["move-1-1", "move-2-1", "move-2-2", "move-3-1"]
    assert svg.count('class="game-start"') == 2 and "game 2" in svg and "game 3" in svg


def _stored(run_cli, path, tmp_path):
    rid = cli_json(run_cli("ingest", str(path), "--json"))["records"][0]["id"]
    return Store(run_cli.db).get(rid), rid


def test_the_report_shows_the_record_its_result_and_final_positions(run_cli, tmp_path):
    row, rid = _stored(run_cli, TRIAD, tmp_path)
    page = render_boards(row)  # not analysed: the record, the result, then the boards with the move marked
    assert re.search(r"<th>Players</th><td>[^<]+, [^<]+</td>", page) and "<b>Result</b>" in page
    assert page.count('class="move final"') == 3  # a triad: each grid's last position
    assert page.count('class="mark played"') > 0
    report = cli_json(run_cli("analyze", rid, "--bot", "depth:1", "--json"))
    page = render(row, report)
    names = re.search(r"<th>Players</th><td>([^<]+)</td>", page).group(1).split(", ")
    listing = page.split("id='movelist'")[1].split("</table>")[0]
    assert re.search(r">game 2, ply \d+</a>", listing) and not re.search(r">\d+\.\d+</a>", listing)
    assert set(re.findall(r"</a></td><td>([^<]+)</td>", listing)) == set(names)  # players by name


def test_text_from_the_record_is_inert_in_the_header(run_cli, tmp_path):
    text = TSURO_FIVE.read_text()
    hostile = re.sub(r'\[Event "[^"]*"\]', '[Event "<script>alert(1)</script>"]', text)
    if hostile == text:
        hostile = text.replace("\n", '\n[Event "<script>alert(1)</script>"]\n', 1)
    path = tmp_path / "hostile.pgn"
    path.write_text(hostile)
    row, _ = _stored(run_cli, path, tmp_path)
    page = render_boards(row)
    assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
