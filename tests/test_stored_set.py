"""The project's samples give today what an earlier commit gave (``tests/data/stored-set.json``,
made before the redesign of the readers and the walks): the same record ids, byte-identical
exports in every format, and the same analysis numbers. A sample added later is not in the set
and is not compared. (Changed on purpose since: two-player Patchwork's analysis numbers, engine
0.9.0: its searched play-outs and solved end; the three TinyBot lines' ids and Scorebook-notation
exports, which no longer name TinyBot as their player: a line names no one.)"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from .stored_set import outputs

STORED = Path(__file__).resolve().parent / "data" / "stored-set.json"
STORED_RECORDS = json.loads(STORED.read_text())["records"]


# a game's folder a test: the five spread over the workers (one test was the suite's longest)
@pytest.mark.slow
@pytest.mark.parametrize("folder", sorted({r["sample"].split("/")[0] for r in STORED_RECORDS.values()}))
def test_the_samples_give_what_the_stored_set_says(folder):
    stored = {i: r for i, r in STORED_RECORDS.items() if r["sample"].split("/")[0] == folder}
    now = outputs(folder)
    for record_id, expected in stored.items():
        assert record_id in now, f"{expected['sample']}: no longer the record {record_id}"
        assert now[record_id] == expected, expected["sample"]
