"""Golden Patchwork records written by the project (samples/patchwork): known ids and scores,
every export read back as the same record, and the canonical text of a hand-written one."""
from __future__ import annotations

import pytest

from scorebook.records.export import export_record

from ..golden import golden_check

GOLDEN = [  # file, id, the score's variant, total (one player) or finals (two players)
    ("patchwork/patchwork-best2-real-s3-0001.pgn", "b6fa8dcf2623a0d0", "real", 84),
    ("patchwork/patchwork-best2-real-85.pgn", "464bb336d7bd6fd6", "real", 85),
    ("patchwork/patchwork-rule-based-real-s5-0001.pgn", "979a10eb9d2bb7f2", "real", 51),
    ("patchwork/patchwork-mc10-sim-s4-0001.pgn", "72e5bc4120f9d4b8", "sim", 70),
    ("patchwork/patchwork-handwritten-sim.pgn", "9f13f3e60c5cba2c", "sim", 70),
    ("patchwork/patchwork-best2-vbrz-two-player-s6-0001.pgn", "448b5a91c292cb9f", "two-player", [49, 9]),
    ("patchwork/patchwork-best2-vbrz-two-player-s6-0002.pgn", "e5e75e1246522010", "two-player", [-15, 43]),
]


@pytest.mark.parametrize("path, record_id, variant, points", GOLDEN)
def test_golden_records(store, path, record_id, variant, points):
    score = golden_check(store, path, 1, record_id)["score"]
    assert score["variant"] == variant
    assert (score["final"] if variant == "two-player" else score["total"]) == points


def test_the_best_real_game_fills_the_quilt(store):
    score = golden_check(store, GOLDEN[0][0], 1, GOLDEN[0][1])["score"]
    assert score == {"variant": "real", "buttons": 77, "empty": 0, "bonus": 7, "total": 84, "income": 19,
                     "patches": 14, "leather": 5, "seven_by_seven": True}


def test_two_player_scores_keep_their_signs_and_the_special_tile(store):
    score = golden_check(store, GOLDEN[6][0], 1, GOLDEN[6][1])["score"]
    assert score["final"] == [-15, 43] and score["winner"] == 1 and score["special_tile"] == 1
    assert score["final"] == [b - 2 * e + (7 if score["special_tile"] == p else 0)
                              for p, (b, e) in enumerate(zip(score["buttons"], score["empty"]))]


def test_hand_written_record_exports_canonically(store):
    golden_check(store, GOLDEN[3][0], 1, GOLDEN[3][1])
    text, dropped = export_record(store.get(GOLDEN[3][1]), "pgn")
    assert dropped == []
    assert text.startswith('[Game "patchwork-solo"]\n[Variant "sim"]\n[PatchSet "patches.json v1"]\n')
    movetext = text.split("\n\n", 1)[1]
    assert '[Score "70"]' in text and "1." not in movetext and "{" not in movetext and ";" not in movetext
    assert text.split("\n\n", 1)[1].split()[:3] == ["B20", "B30", "B32"]
