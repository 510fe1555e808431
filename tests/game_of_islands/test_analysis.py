"""The Game of Islands analysis: a line that hands over islands loses more; the CLI's analyze contract."""
from __future__ import annotations

from scorebook.engines.game_of_islands.bots import GREEDY as GOI_GREEDY, play_game as goi_play
from scorebook.records.game_of_islands import bot_grid_text

from ..conftest import cli_json


def test_goi_line_that_hands_over_islands_loses_more():
    # near the end of a greedy game, compare the played line with the worst legal line
    from scorebook.engines.game_of_islands import bots, engine as G
    n = 6
    lines = goi_play(n, GOI_GREEDY, GOI_GREEDY, 2, 2, 1000)
    used, diag, owner = G.new_state(n)
    for l in lines[: len(lines) // 2]:
        G.apply_line(n, used, diag, *[int(v) for v in l])
        G.claim_near(n, used, diag, owner, 0, *[int(v) for v in l])
    cand, values, exact = bots.line_values(n, used, diag, owner, 64, 10**7)
    assert exact and values.max() - values.min() >= 2


def test_cli_analyze_json_contract(run_cli, tmp_path):
    lines = goi_play(6, GOI_GREEDY, GOI_GREEDY, 9, 2, 1000)
    text, _ = bot_grid_text(6, lines, {"Grid": "6", "First": "A", "Second": "B"})
    rid = cli_json(run_cli("ingest", "-", "--json", input=text))["records"][0]["id"]
    doc = cli_json(run_cli("analyze", rid, "--json", "--seed", "3", "--html", str(tmp_path / "r.html")))
    assert doc["id"] == rid and doc["seed"] == 3 and doc["bot"] == "search depth:2"
    keys = {"ply", "player", "played", "best", "value_best", "value_played", "loss", "stderr", "class"}
    assert all(keys <= set(m) for m in doc["moves"]) and set(doc["summary"]) == {"A", "B"}
    page = (tmp_path / "r.html").read_text()
    finals = page.count('class="move final"')  # and the final position
    assert page.count('class="board"') == len(doc["moves"]) + finals and 'id="chart"' in page and "id='summary'" in page
    assert run_cli("analyze").exit_code == 2


def test_the_chart_reads_the_expected_final_margin_from_the_first_seat(run_cli, tmp_path):
    """The values are of the rest of the grid; the chart adds the points in hand: at the last
    line the search is exact, and what the chart shows of the move played is the final margin."""
    from scorebook.analyze.loss import seen_from_first_seat
    lines = goi_play(6, GOI_GREEDY, GOI_GREEDY, 4, 2, 1000)
    text, _ = bot_grid_text(6, lines, {"Grid": "6", "First": "A", "Second": "B"})
    out = cli_json(run_cli("ingest", "-", "--json", input=text))["records"][0]
    doc = cli_json(run_cli("analyze", out["id"], "--json", "--html", str(tmp_path / "r.html")))
    points = out["score"]["points"]
    last = doc["moves"][-1]
    assert last["exact"] and seen_from_first_seat(last, "margin")[1] == points[0] - points[1]
    assert doc["moves"][0]["so_far"] == 0
    assert "the expected final margin from A's side" in (tmp_path / "r.html").read_text()


def test_a_triads_later_grids_count_the_earlier_results_in_hand():
    import numpy as np

    from scorebook.analyze.game_of_islands import _in_hand
    from scorebook.records.formats import read_text
    from ..conftest import SAMPLES
    path = SAMPLES / "game-of-islands" / "game-of-islands-search-greedy-triad-s11-0001.pgn"
    record = read_text(path.read_text(), path.name)[0].record
    first = record.games[0]
    margin = first.points[0] - first.points[1] if first.first == record.players[0] else first.points[1] - first.points[0]
    empty = -np.ones(record.games[1].grid ** 2, np.int64)
    assert _in_hand(record, 1, empty, 0, 0) == 0
    assert _in_hand(record, 2, empty, 0, 0) == margin and _in_hand(record, 2, empty, 1, 1) == -margin
    owner = empty.copy()
    owner[:3] = 1  # three islands claimed by grid 2's Second
    seat = 0 if record.games[1].first == record.players[0] else 1  # the record seat of grid 2's First
    assert _in_hand(record, 2, owner, 0, seat) == -3 + (margin if seat == 0 else -margin)
