"""Per move, the bot's best candidates (``top``): its own pick first, at the value the move's
verdict gives it, then the next best by value; each with its standard error where the values
are sampled; stored and read back the same; shown in the table. And the planner's line after
its best move, where the bot has one (Patchwork alone)."""
from __future__ import annotations

import pytest

from .conftest import SAMPLES, cli_json
from .test_html_report import REPORTS


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(REPORTS))
def test_every_move_lists_the_bots_best_candidates(game, run_cli):
    path, bot = REPORTS[game]
    rid = cli_json(run_cli("ingest", str(SAMPLES / path), "--json"))["records"][0]["id"]
    report = cli_json(run_cli("analyze", rid, "--bot", bot, "--json"))
    for m in report["moves"]:
        top = m["top"]
        assert 1 <= len(top) <= min(3, m["candidates"]), m
        assert top[0]["move"] == m["best"] and top[0]["value"] == pytest.approx(m["value_best"], abs=1e-3), m
        assert len({c["move"] for c in top}) == len(top)
        rest = [c["value"] for c in top[1:]]
        assert rest == sorted(rest, reverse=True)  # after the pick, best first
        sampled = m.get("exact") is not True and m["stderr"] is not None
        if sampled and m["candidates"] > 1 and len(top) > 1:
            assert all(c["stderr"] is not None and c["stderr"] >= 0 for c in top), m
    again = cli_json(run_cli("analyze", rid, "--bot", bot, "--json"))  # read back from the store
    assert again["moves"] == report["moves"]
    table = run_cli("analyze", rid, "--bot", bot, "--wide").stdout
    second = next((m["top"][1] for m in report["moves"] if len(m["top"]) > 1), None)
    if second is not None:
        assert "next best" in table and second["move"][:20] in table


@pytest.mark.slow
def test_a_solo_patchwork_move_shows_the_planners_line(run_cli):
    path, bot = REPORTS["patchwork"]
    rid = cli_json(run_cli("ingest", str(SAMPLES / path), "--json"))["records"][0]["id"]
    report = cli_json(run_cli("analyze", rid, "--bot", bot, "--json"))
    lines = [m["line"] for m in report["moves"] if m.get("line")]
    assert lines and all(1 <= len(line) <= 5 for line in lines)
    # the line continues from the best move: where the player keeps to it, the bot's best next
    # is the line's next move
    moves = report["moves"]
    kept = [(m, n) for m, n in zip(moves, moves[1:]) if m["played"] == m["best"] and m.get("line")
            and n["played"] == m["line"][0]]
    assert kept and all(n["best"] == m["line"][0] and n.get("line", [])[:4] == m["line"][1:5] for m, n in kept)
