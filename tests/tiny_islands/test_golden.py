"""Golden Tiny Islands records written by the project (samples/tiny-islands): known ids and
scores, and every export read back as the same record. Runs without ../shared."""
from __future__ import annotations

import pytest

from ..golden import golden_check

# file, record, id, breakdown: penalties, forests, houses, sand, waves, mountains, churches, boats, total
GOLDEN = [
    ("tiny-islands/hand-written-opening.pgn", 1, "7224246f76ecd02f", [15, 0, 0, 0, 2, 0, 0, 0, -13]),
    ("tiny-islands/random-games.tinybot.txt", 1, "c66281a0e8b8dbb4", [80, 0, 4, 2, 2, 0, 2, 0, -70]),
    ("tiny-islands/random-games.tinybot.txt", 2, "c1e79aed976f6cb2", [50, 0, 2, 2, 2, 0, 0, 0, -44]),
    ("tiny-islands/random-games.tinybot.txt", 3, "b7105f627c921949", [45, 2, 4, 4, 2, 4, 4, 2, -23]),
    ("tiny-islands/tiny-islands-mc4-s9-0001.pgn", 1, "370ad016ad09563a", [0, 6, 13, 16, 6, 2, 6, 7, 56]),
    ("tiny-islands/tiny-islands-mc4-s9-0002.pgn", 1, "755dec5c409a87a8", [0, 8, 11, 8, 4, 18, 4, 3, 56]),
    ("tiny-islands/tiny-islands-random-s2026-0001.pgn", 1, "a5918d7a16a82a26", [55, 0, 6, 3, 0, 0, 6, 3, -37]),
    ("tiny-islands/tiny-islands-random-s2026-0002.pgn", 1, "640ad0512fed6d4c", [60, 2, 3, 3, 2, 0, 0, 1, -49]),
    ("tiny-islands/tiny-islands-random-s2026-0003.pgn", 1, "2a1b260e90fbd2b4", [65, 4, 0, 1, 2, 2, 0, 3, -53]),
    ("tiny-islands/tiny-islands-random-s7-0001.pgn", 1, "624f64c9200fca50", [65, 0, 1, 0, 4, 0, 0, 0, -60]),
    ("tiny-islands/tiny-islands-random-s7-0002.pgn", 1, "35bde3c55ee71d30", [55, 0, 1, 2, 2, 2, 1, 1, -46]),
]


@pytest.mark.parametrize("path, index, record_id, breakdown", GOLDEN)
def test_golden_records(store, path, index, record_id, breakdown):
    out = golden_check(store, path, index, record_id)
    assert list(out["score"].values()) == breakdown
