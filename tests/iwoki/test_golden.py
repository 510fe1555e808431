"""Golden Iwoki records written by the project (samples/iwoki, notation and log): known ids
and tallies, and every export read back as the same record."""
from __future__ import annotations

import pytest

from ..golden import golden_check

GOLDEN = [  # file, id, scores before the tally, penalties, final, winner
    ("iwoki/iwoki-minimax2-greedy-s5-0001.pgn", "ad753d3d45956744", [164, 118], [0, 3], [164, 115], 0),
    ("iwoki/iwoki-minimax2-greedy-s5-0002.pgn", "a146a3ee4fc5f87b", [53, 73], [0, 33], [53, 40], 0),
    ("iwoki/iwoki-sampler-vs-random-s6.jsonl", "eb25e1674852cfa5", [68, 36], [3, 0], [65, 36], 0),
]


@pytest.mark.parametrize("path, record_id, before, penalties, final, winner", GOLDEN)
def test_golden_records(store, path, record_id, before, penalties, final, winner):
    score = golden_check(store, path, 1, record_id)["score"]
    assert score == {"before_tally": before, "penalties": penalties, "final": final, "winner": winner}
