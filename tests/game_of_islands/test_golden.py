"""Golden Game of Islands records written by the project (samples/game-of-islands): known ids
and scores (grids and triads), and the export read back as the same record."""
from __future__ import annotations

import pytest

from ..golden import golden_check

GRIDS = [  # file, id, points, bonus
    ("game-of-islands/game-of-islands-greedy-random-10-s12-0001.pgn", "14400abaa10ffb21", [25, 2], [5, 0]),
    ("game-of-islands/game-of-islands-greedy-random-10-s12-0002.pgn", "6ec79f6202cbf905", [8, 16], [5, 0]),
]
TRIADS = [  # file, id, totals, result, each grid's points
    ("game-of-islands/game-of-islands-search-greedy-triad-s11-0001.pgn", "fbf1199c0907a64d", [48, 34], "1-0",
     [[14, 10], [12, 17], [17, 12]]),
    ("game-of-islands/bot-round-robin/game-of-islands-greedy-random-triad-s22-0001.pgn", "eb6a0be2abf220f0",
     [85, 10], "1-0", [[23, 1], [1, 32], [30, 8]]),
    ("game-of-islands/bot-round-robin/game-of-islands-random-search-triad-s23-0001.pgn", "04988016f0227670",
     [15, 81], "0-1", [[6, 18], [29, 3], [6, 34]]),
    ("game-of-islands/bot-round-robin/game-of-islands-search-greedy-triad-s21-0001.pgn", "2f2916e5a65cf7fd",
     [41, 31], "1-0", [[12, 10], [10, 14], [15, 11]]),
]


@pytest.mark.parametrize("path, record_id, points, bonus", GRIDS)
def test_golden_grids(store, path, record_id, points, bonus):
    score = golden_check(store, path, 1, record_id)["score"]
    assert (score["grid"], score["points"], score["bonus"]) == (10, points, bonus)


@pytest.mark.parametrize("path, record_id, totals, result, grids", TRIADS)
def test_golden_triads(store, path, record_id, totals, result, grids):
    score = golden_check(store, path, 1, record_id)["score"]
    assert (score["totals"], score["result"], [g["points"] for g in score["games"]]) == (totals, result, grids)
    assert score["margin"] == totals[0] - totals[1]
