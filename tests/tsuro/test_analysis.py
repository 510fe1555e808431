"""Tsuro analysis: values are shares of the win in percent with paired standard errors, the
game's last move is worth what the game gave, and the board shows the placements."""
from __future__ import annotations

from scorebook.analyze.run import resolve
from scorebook.analyze.tsuro import ANALYSIS
from scorebook.records.formats import read_text
from scorebook.records.tsuro import NOTATION

from ..conftest import SAMPLES


def record(name: str):
    items = read_text((SAMPLES / "tsuro" / name).read_text(), name, "pgn")
    assert items[0].error is None
    return items[0].record


def test_values_are_shares_of_the_win():
    rec = record("tsuro-mc8-simple-random-s6-0001.pgn")
    rows, settings = ANALYSIS.evaluate(NOTATION.trace(rec), seed=2, options={"samples": 8})
    assert settings == {"samples": 8} and len(rows) == len(rec.turns)
    for r in rows:
        assert 0 <= r.value_played <= r.value_best <= 100 and r.loss == r.value_best - r.value_played
        assert r.stderr is not None and 1 <= r.rank <= r.candidates
    last = rows[-1]  # the turn that ended the game: its value is the game's own outcome for the mover
    assert last.value_played == (100.0 / len(rec.score["winners"]) if last.player in rec.score["winners"] else 0.0)


def test_the_move_that_walks_into_a_kill_is_a_blunder():
    """The two-player sample ends on turn 4: random's tile sends simple off the board. Simple's
    move before it (turn 3) left its token where that could happen: a blunder; random's
    winning move is worth the whole win."""
    rec = record("tsuro-simple-random-s5-0001.pgn")
    rows, _ = ANALYSIS.evaluate(NOTATION.trace(rec), seed=0, options={"samples": 16})
    assert [r.player for r in rows] == [0, 1, 0, 1]
    assert rows[3].value_played == 100.0 and rows[3].loss == 0.0
    assert rows[2].loss >= 20.0 and rows[2].value_best > rows[2].value_played


def test_boards():
    rec = record("tsuro-shared-win-s6.pgn")
    sixth = NOTATION.trace(rec).positions[5]
    turn = rec.turns[5]
    move = f"{turn.tile}r{turn.rotation}@{'abcdef'[turn.square % 6]}{turn.square // 6 + 1}"
    assert sixth.move == move and sixth.before[1] == rec.players
    svg = ANALYSIS.svg_board(sixth.before, move, move)
    assert svg.count('class="mark played"') == 1 and svg.count('class="mark best"') == 1 and svg.startswith("<svg")
    text = ANALYSIS.text_board(sixth.state)
    assert f"{turn.tile:2d}r{turn.rotation}" in text and all(name in text for name in rec.players)
    state = ANALYSIS.state_json(sixth.state)
    assert state["board"][turn.square // 6][turn.square % 6] == [turn.tile, turn.rotation]


def test_bot_specs():
    assert resolve("tsuro", "samples:12") == ("mc samples:12", {"samples": 12})
