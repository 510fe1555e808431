"""Golden Tsuro records written by the project (samples/tsuro): known ids, winners,
elimination turns and causes, and every export read back as the same record."""
from __future__ import annotations

import pytest

from scorebook.records.export import export_record

from ..golden import golden_check

GOLDEN = [  # file, id, winners, eliminated turn, cause
    ("tsuro/tsuro-simple-random-s5-0001.pgn", "6c9a95500b80451e", [1], [4, None], ["edge", None]),
    ("tsuro/tsuro-handwritten.pgn", "a386e4c34d8eeece", [1], [4, None], ["edge", None]),
    ("tsuro/tsuro-simple-random-s5-0002.pgn", "91db45c1b1e63133", [0], [None, 35], [None, "edge"]),
    ("tsuro/tsuro-mc8-simple-random-s6-0001.pgn", "53a635453a0d5333", [2], [15, 10, None], ["edge", "edge", None]),
    ("tsuro/tsuro-shared-win-s6.pgn", "7aecbfa8be92297f", [0, 1], [32, 32, 31], ["edge", "edge", "edge"]),
    ("tsuro/tsuro-random-1-simple-2-random-3-simple-4-random-5-s2-0001.pgn", "79f6c37126f3bf67", [4],
     [31, 33, 4, 23, None], ["edge", "edge", "edge", "edge", None]),
    ("tsuro/tsuro-random-1-random-2-random-3-random-4-random-5-random-6-random-7-random-8-holder_first-s2-0001.pgn",
     "11a7cb8edea82585", [2, 5, 7], [27, 28, 33, 29, 32, 33, 10, 33],
     ["edge", "edge", "edge", "edge", "edge", "edge", "edge", "edge"]),
]


@pytest.mark.parametrize("path, record_id, winners, eliminated, cause", GOLDEN)
def test_golden_records(store, path, record_id, winners, eliminated, cause):
    out = golden_check(store, path, 1, record_id)
    score = out["score"]
    assert (score["winners"], score["eliminated_turn"], score["cause"]) == (winners, eliminated, cause)
    assert score["turns"] == score["tiles_placed"] == max(t or 0 for t in eliminated) or score["turns"] == 35
    assert out["recorded"] == {"winners": winners}


def test_the_hand_written_record_is_the_played_one_in_canonical_form(store):
    golden_check(store, GOLDEN[1][0], 1, GOLDEN[1][1])
    text, dropped = export_record(store.get(GOLDEN[1][1]), "pgn")
    assert dropped == [] and "{" not in text and '[Date "2026.11.24"]' in text
    assert "1. simple 32r1@a6 | simple a6.7>a5.4 | draw simple 9" in text.split("\n")
