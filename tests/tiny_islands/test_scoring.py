"""Scoring: golden boards by hand, the Wave quirk, and the jitted scorer against the
plain-Python reference on 10,000 random final boards."""
from __future__ import annotations

import numpy as np
import pytest

from scorebook.engines.tiny_islands import engine as E
from scorebook.engines.tiny_islands import reference as R
from scorebook.engines.tiny_islands.metadata import CATEGORIES, CELLS, TILE_INDEX, TILE_LETTERS, parse_cell

from .conftest import random_record


def board(tiles: dict[str, str], land: list[str]):
    t = np.zeros(CELLS, np.int64)
    for cell, letter in tiles.items():
        t[parse_cell(cell)] = TILE_INDEX[letter]
    l = np.zeros(CELLS, np.bool_)
    for cell in land:
        l[parse_cell(cell)] = True
    return t, l


def breakdown(tiles, land, rules="published"):
    return dict(zip(CATEGORIES, E.score_board(*board(tiles, land), 1 if rules == "tinybot" else 0).tolist()))


@pytest.mark.parametrize("waves, published, tinybot", [
    (["d5", "e6", "b4"], 2, 0),   # the quirk: the lone b4 scores 0 in TinyBot
    (["e1", "f2", "a5"], 2, 0),   # bottom-row variant: column a takes the extra count
    (["d5", "e6", "b7"], 2, 2),
    (["a1"], 2, 2),
    (["a1", "i9"], 4, 4),
    (["a1", "a9"], 0, 0),         # same column
])
def test_wave_rules(waves, published, tinybot):
    tiles = {w: "w" for w in waves}
    assert breakdown(tiles, ["i5"])["waves"] == published
    assert breakdown(tiles, ["i5"], "tinybot")["waves"] == tinybot


def test_golden_island():
    # a 3x2 island b2-d3 with forests, a mountain, a house and a church; sand, a wave and a
    # boat at sea; a forest on water (f7) is invalid
    land = ["b2", "c2", "d2", "b3", "c3", "d3"]
    tiles = {"b2": "f", "c2": "f", "d3": "f", "b3": "M", "c3": "h", "d2": "C",
             "e2": "s", "b4": "s", "h8": "B", "a9": "w", "f7": "f"}
    assert breakdown(tiles, land) == {
        "penalties": 5,    # f7
        "forests": 2,      # 3 valid forests, groups {b2, c2} and {d3}: 6 - 4
        "houses": 4,       # c3 sees f, C, M and the sand on b4 (diagonal)
        "sand": 2,         # e2 borders d2; b4 borders b3
        "waves": 2,        # a9 alone
        "mountains": 4,    # b3 near b2 and c2
        "churches": 2,     # d2: house c3 near it (1) plus on its landmass (1)
        "boats": 9,        # h8 to d3: 5 rows + 4 columns
        "total": 20,
    }


def test_two_churches_on_one_landmass_score_nothing():
    land = ["c3", "d3", "e3"]
    got = breakdown({"c3": "C", "d3": "h", "e3": "C"}, land)
    assert got["churches"] == 0 and got["houses"] == 1


def test_invalid_tiles_are_absent_except_for_their_penalty():
    # a house on water is invalid: it does not feed the church or the house's neighbour count
    land = ["c3", "d3"]
    got = breakdown({"c3": "C", "d3": "h", "c4": "h", "e3": "f"}, land)
    assert got["penalties"] == 10
    assert got["churches"] == 1 + 1
    assert got["houses"] == 1


def test_boats_measure_to_land_or_another_boat():
    got = breakdown({"a9": "B", "a7": "B"}, ["i1"])
    assert got["boats"] == 2 + 2


def _reference_breakdown(tiles, land, rules):
    t = {divmod(z, 9): TILE_LETTERS[v] for z, v in enumerate(tiles) if v}
    l = {divmod(z, 9) for z in np.flatnonzero(land)}
    ref = R.score(t, l, rules)
    return [ref[k] for k in CATEGORIES]


@pytest.mark.slow
def test_jitted_scorer_equals_plain_python_on_10000_random_boards():
    rng = np.random.default_rng(2026)
    checked = 0
    # 4,000 final boards of random legal games (both rule sets) ...
    for seed in range(4000):
        rules = ("published", "tinybot")[seed % 2]
        rec = random_record(seed, rules)
        res = E.replay(*_arrays(rec), 26, seed % 2)
        assert res[0] == E.OK
        assert res[7].tolist() == _reference_breakdown(res[3], res[4], rules), seed
        checked += 1
    # ... and 6,000 boards with random land blobs and a realistic number of tiles
    for i in range(6000):
        land = rng.random(CELLS) < rng.uniform(0.1, 0.7)
        tiles = np.zeros(CELLS, np.int64)
        cells = rng.choice(CELLS, size=26, replace=False)
        tiles[cells] = rng.choice(np.arange(1, 8), size=26, p=[13 / 54, 10 / 54, 9 / 54, 9 / 54, 5 / 54, 5 / 54, 3 / 54])
        for wave_rule, rules in ((0, "published"), (1, "tinybot")):
            assert E.score_board(tiles, land, wave_rule).tolist() == _reference_breakdown(tiles, land, rules), i
        checked += 1
    assert checked == 10_000


def _arrays(record):
    from scorebook.records.tiny_islands import _arrays as arrays
    offers, placements, traces, lens, as_region, _n = arrays(record)
    return offers, placements, traces, lens, as_region
