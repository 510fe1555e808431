"""Every game's analysis values agree from one move to the next (``analyze/consistency.py``):
the value of the move played, from its mover's side, is the next position's best from the same
side, within the values' standard errors and the horizon the game declares (game.json; where a
draw comes between moves, the mean over the record). Checked on the bot games of every game
(``samples/<game>/``, one a seat count, at the analysis' own settings) and on the third-party
records; nothing here names a game."""
from __future__ import annotations

import re

import pytest

from scorebook import registry
from scorebook.analyze import consistency as C
from scorebook.analyze.loss import analyze_record
from scorebook.records.formats import read_text

from .conftest import SAMPLES, SHARED, shared_file

BOT_GAME = re.compile(r".*-s\d+-\d{4}\.pgn")  # as play names the games it writes


def bot_games(game_id: str) -> list:
    """The game's bot games in ``samples/``, the first of each number of seats."""
    seen, out = set(), []
    for path in sorted((SAMPLES / game_id).glob("*.pgn")):
        if not BOT_GAME.fullmatch(path.name):
            continue
        item = read_text(path.read_text(), str(path))[0]
        seats = len(item.record.players or ())
        if item.error is None and seats not in seen:
            seen.add(seats)
            out.append(pytest.param(game_id, path.name, id=f"{game_id}-{path.name}"))
    return out


def faults_of(game_id: str, text: str, source: str, records: int | None = None) -> list[str]:
    game = registry.get_game(game_id)
    declared = game.info.analysis
    found = []
    for item in read_text(text, source)[:records]:
        assert item.error is None, item.error
        report = analyze_record(game_id, game.notation.trace(item.record), seed=1)
        breaks = C.breaks(report, declared.scale, len(item.record.players or ()) or 1)
        assert breaks or len(report["moves"]) < 2 or len(item.record.players or ()) > 2
        found += C.faults(breaks, declared.horizon, declared.drawn_between, declared.exact_horizon)
    return found


@pytest.mark.slow
@pytest.mark.parametrize("game_id,name", [p for g in registry.game_ids() if registry.get_game(g).info.analysis
                                          for p in bot_games(g)])
def test_a_bot_games_values_agree_from_move_to_move(game_id, name):
    assert faults_of(game_id, (SAMPLES / game_id / name).read_text(), name) == []


SHARED_RECORDS = {  # a third-party record of each game that has them, the file's first (Tiny Islands':
    # benchmarks/consistency.py, a minute of analysis)
    "game-of-islands": "goi/greedy-10x10.pgn", "iwoki": "iwoki/samples/iwoki_gr_60069.jsonl"}


@pytest.mark.slow
@pytest.mark.parametrize("game_id", sorted(SHARED_RECORDS))
def test_a_shared_records_values_agree_from_move_to_move(game_id):
    path = shared_file(SHARED / "data" / SHARED_RECORDS[game_id])
    assert faults_of(game_id, path.read_text(), path.name, records=1) == []


def _report(*rows) -> dict:
    return {"moves": [dict(zip(("ply", "player", "value_best", "value_played", "top"), r), played="p", best="b")
                      for r in rows]}


def test_a_break_is_the_played_value_less_the_next_best_from_one_side():
    sampled = [{"move": "b", "value": 0.0, "stderr": 1.0}]
    report = _report((1, 0, 5.0, 4.0, sampled), (2, 1, -3.0, -3.0, sampled), (3, 1, 5.0, 2.0, sampled))
    breaks = C.breaks(report, "margin", 2)
    assert [(b.ply, b.points) for b in breaks] == [(1, 1.0), (2, -8.0)]  # 4 - 3; -3 - 5, the same mover
    assert breaks[0].stderr == pytest.approx(2 ** 0.5)
    assert C.faults(breaks, 0.0, False) == ["ply 2 (game 1): break -8.00, beyond 4 x 1.41 + 0"]
    assert C.faults(breaks, 2.4, False) == []  # 4 x 1.41 + 2.4 > 8
    share = C.breaks(_report((1, 0, 70.0, 60.0, sampled), (2, 1, 45.0, 40.0, sampled)), "share", 2)
    assert share[0].points == 5.0  # 60 against 100 - 45
    assert C.breaks(report, "share", 3) == [C.Break(2, 1, -8.0, 2 ** 0.5)]  # three seats: a mover's own moves


def test_where_draws_come_between_moves_only_the_mean_break_counts():
    sampled = [{"move": "b", "value": 0.0, "stderr": 0.1}]
    luck = _report(*[(i, 0, v, v, sampled) for i, v in enumerate([0, 10, 0, 10, 0, 10, 0], 1)])
    breaks = C.breaks(luck, "score", 1)
    assert C.faults(breaks, 0.0, False) != [] and C.faults(breaks, 0.0, True) == []
    drift = _report(*[(i, 0, -3.0 * i, -3.0 * i + 0.1 * (i % 2), sampled) for i in range(1, 9)])
    assert C.faults(C.breaks(drift, "score", 1), 1.0, True)[0].startswith("mean break +3.0")


def test_exact_values_agree_within_the_exact_horizon():
    exact = [{"move": "b", "value": 0.0, "stderr": None}]
    report = _report((1, 0, 3.0, 3.0, exact), (2, 1, -2.0, -2.0, exact))
    for m in report["moves"]:
        m["exact"] = True
    breaks = C.breaks(report, "margin", 2)
    assert breaks[0].exact and breaks[0].stderr is None
    assert C.faults(breaks, 10.0, False) == ["ply 1 (game 1): break +1.00 between exact values, beyond 0"]
    assert C.faults(breaks, 0.0, False, exact_horizon=1.0) == []
