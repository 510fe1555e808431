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
