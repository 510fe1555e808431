"""Tiny Islands analysis: a deliberately bad placement costs clearly more, the numbers are
reproducible from the seed and stored, the top-up brings standard errors down."""
from __future__ import annotations

import numpy as np
import pytest

from scorebook.analyze.loss import TARGET_STDERR, analyze_record
from scorebook.analyze.run import analyze_one, resolve
from scorebook.engines.tiny_islands import bots as TB
from scorebook.engines.tiny_islands.metadata import CELLS, FOREST, ZONE_MASK
from scorebook.records import tiny_islands
from scorebook.records.ingest import ingest_text

from .conftest import bot_record


def _trace(record):
    return tiny_islands.NOTATION.trace(record)


def test_a_forest_on_water_costs_clearly_more():
    # find a turn after the first drawing whose offer is a Forest with a water cell free in its zone
    for seed in range(4, 30):
        offers, record = bot_record(seed)
        res = tiny_islands.replay(record)
        land = res.regions[0].copy()
        tiles = np.zeros(CELLS, np.int64)
        for p in record.placements[:10]:
            tiles[p.cell] = p.tile
        t = 10
        o = offers[t]
        slot = 0 if o[0] == FOREST else 2 if o[2] == FOREST else None
        if slot is None:
            continue
        water = [z for z in range(CELLS) if ZONE_MASK[o[slot + 1], z] and tiles[z] == 0 and not land[z]]
        if not water:
            continue
        cands = np.array([(FOREST, water[0])] + [(int(o[2 * k]), z) for k in range(2) for z in range(CELLS)
                                                 if ZONE_MASK[o[2 * k + 1], z] and tiles[z] == 0], np.int64)
        values = TB.eval_placements(tiles, land, offers, t, 1, 0, cands, 12, 1, TB.TWO_DECK, TB.WEIGHTS)
        means = values.mean(axis=1)
        assert means.max() - means[0] >= 3.0, (seed, means[0], means.max())
        return
    pytest.fail("no position found")


@pytest.mark.slow
def test_same_seed_same_numbers_and_stored(store, tmp_path):
    offers, record = bot_record(6)
    text = tiny_islands.write_pgn(record)
    rid = ingest_text(store, text, "t.pgn")[0]["id"]
    first = analyze_one(store, rid, "rollouts:4,candidates:3", 7)
    again = analyze_record("tiny-islands", _trace(tiny_islands.parse_pgn(text)[0]), players=["x"], seed=7,
                           options={"rollouts": 4, "candidates": 3})
    assert [m["value_played"] for m in first["moves"]] == [m["value_played"] for m in again["moves"]]
    stored = store.find_analysis(rid, first["bot"], 7, first["engine_version"])
    assert stored["moves"] == first["moves"] and len(stored["moves"]) == 29
    for m in first["moves"]:
        assert m["loss"] == max(0.0, round(m["value_best"] - m["value_played"], 3)) or abs(
            m["loss"] - max(0.0, m["value_best"] - m["value_played"])) < 0.01


@pytest.mark.slow
def test_tiny_islands_top_up_brings_standard_errors_down_within_the_cap():
    offers, record = bot_record(5)

    def over_target(max_rollouts):
        report = analyze_record("tiny-islands", _trace(record), players=["x"], seed=1,
                                options={"rollouts": 8, "candidates": 3, "max-rollouts": max_rollouts})
        # the pair's futures stay within the cap, but for the move played as best after a change
        # of hands (its futures then add up over the rounds, four caps at the most)
        assert all(m["futures"] <= 4 * max(max_rollouts, 8) for m in report["moves"])
        return report, sum(1 for m in report["moves"] if (m["stderr"] or 0) > TARGET_STDERR)

    report, over = over_target(160)
    assert report["settings"]["target_stderr"] == TARGET_STDERR
    assert any(m["futures"] > 8 for m in report["moves"])
    base, base_over = over_target(8)  # no top-up
    assert over < base_over


def test_bot_specs():
    assert resolve("tiny-islands", "rollouts:8")[0] == "heuristic rollouts:8 candidates:8 max-rollouts:4096"
    assert resolve("tiny-islands", "max-rollouts:96")[1] == {"max-rollouts": 96}
