"""The bot's best line: wherever the move played was a mistake or a blunder, every game's
analysis gives the line the bot would play after its best move, up to five moves, in the JSON,
the --wide table and the report."""
from __future__ import annotations

import pytest

from scorebook import registry
from scorebook.analyze.loss import LINE_MOVES

from .conftest import SAMPLES, cli_json

# the cheapest settings that still leave the bot a choice worth a line
CHEAP = {"game-of-islands": "depth:1,budget:20000", "iwoki": "samples:2", "tsuro": "samples:2",
         "patchwork": "effort:1,playouts:2", "tiny-islands": "rollouts:1,candidates:2"}


# a two-player Patchwork game: the solo planner's lines are its plan (tests/patchwork)
SAMPLE = {"patchwork": "patchwork-best2-vbrz-two-player-s6-0001.pgn"}


def _sample(game: str):
    if game in SAMPLE:
        return SAMPLES / game / SAMPLE[game]
    return next(iter(sorted((SAMPLES / game).rglob("*.pgn"))), None)


@pytest.mark.slow
@pytest.mark.parametrize("game", registry.game_ids())
def test_every_game_gives_the_bots_line_after_a_mistake(game, run_cli, tmp_path):
    path = _sample(game)
    if path is None:
        pytest.skip(f"no sample of {game}")
    rid = cli_json(run_cli("ingest", str(path), "--json"))["records"][0]["id"]
    doc = cli_json(run_cli("analyze", rid, "--json", "--bot", CHEAP[game], "--html", str(tmp_path / "r.html")))
    missed = [m for m in doc["moves"] if m["class"] in ("mistake", "blunder")]
    assert missed, "a cheap bot finds a mistake"
    last = {}
    for m in doc["moves"]:
        last[m.get("game", 1)] = max(last.get(m.get("game", 1), 0), m["ply"])
    # a line wherever the game goes on after the best move (a record's last moves may end it)
    assert all(m.get("line") for m in missed if m["ply"] < last[m.get("game", 1)] - 2)
    with_line = [m for m in missed if m.get("line")]
    assert with_line and all(1 <= len(m["line"]) <= LINE_MOVES for m in with_line)
    assert not any(m.get("line") for m in doc["moves"] if m not in missed)
    page = (tmp_path / "r.html").read_text()
    assert "its line after" in page
    wide = run_cli("analyze", rid, "--wide", "--bot", CHEAP[game])
    assert "best line" in wide.output and " ".join(with_line[0]["line"]) in wide.output
    assert "best line" not in run_cli("analyze", rid, "--bot", CHEAP[game]).output
