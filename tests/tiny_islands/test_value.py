"""The learned-value diagnostic (benchmarks/tiny_islands_value.py): its features checked against
a plain-Python reading of the board, its fit on data whose answer is known, and the script run
on a tiny budget."""
from __future__ import annotations

import json

import numpy as np
import pytest

from scorebook.engines.tiny_islands import bots, engine as E, heuristic, planner
from scorebook.engines.tiny_islands.deck import two_deck_offers
from scorebook.engines.tiny_islands.metadata import CELLS, SIZE, TILE_COUNT, TILE_IS_LAND, ZONE_CELLS

from ..conftest import benchmark_script


@pytest.fixture(scope="module")
def fitter():
    return benchmark_script("tiny_islands_value")


def reference_features(tiles, land, offers, t):
    """The script's ``value_features`` written out plainly, from its docstring's list."""
    x = np.zeros(24)
    x[0] = 1
    x[1:9] = E.score_board(tiles, land, 0)[:8]
    empty = tiles == 0
    x[9], x[10] = (empty & land).sum(), (empty & ~land).sum()
    is_land = np.array([TILE_IS_LAND[t] for t in tiles], bool)
    x[11] = (~empty & is_land & ~land).sum()
    x[12] = (~empty & ~is_land & land).sum()
    x[13] = sum(any(empty[y] and land[y] for y in zone) for zone in ZONE_CELLS)
    x[14] = sum(any(empty[y] and not land[y] for y in zone) for zone in ZONE_CELLS)
    for z in range(CELLS):
        if empty[z] or is_land[z] != land[z]:
            continue
        r, c = divmod(z, SIZE)
        letter = "-fhswMCB"[tiles[z]]
        for rr in range(r - 1, r + 2):
            for cc in range(c - 1, c + 2):
                if (rr, cc) == (r, c) or not (0 <= rr < SIZE and 0 <= cc < SIZE) or not empty[rr * SIZE + cc]:
                    continue
                y = rr * SIZE + cc
                side = rr == r or cc == c
                if letter == "M" and land[y]:
                    x[15] += 1
                elif letter == "f" and land[y]:
                    x[16 if side else 17] += 1
                elif letter == "h":
                    x[18] += 1
                elif letter == "C" and land[y]:
                    x[19] += 1
                elif letter == "s" and side and land[y] != land[z]:
                    x[20] += 1
    seen = np.bincount(np.concatenate([offers[:t + 1, 0], offers[:t + 1, 2]]), minlength=8)
    rest = np.array(TILE_COUNT) - seen
    left = 26 - 1 - t
    total = rest[1:].sum()
    x[21] = left * rest[5] / total  # Mountains
    x[22] = left * rest[1] / total  # Forests
    x[23] = left * (rest[2] + rest[6]) / total  # Houses and Churches
    return x


def played_board(seed: int, turns: int):
    offers = two_deck_offers(np.random.default_rng([seed, 1]))
    tiles, land = np.zeros(CELLS, np.int64), np.zeros(CELLS, np.bool_)
    none = np.zeros(CELLS, np.bool_)
    for t in range(turns):
        tile, cell = heuristic.heuristic_placement(tiles, land, offers[t], 3, 0, bots.WEIGHTS, none, False)
        tiles[cell] = tile
    return offers, tiles, land


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_value_features_read_the_board_as_their_description_says(fitter, seed):
    offers, tiles, land = played_board(seed, 9)
    bots.seed_random(seed)
    cells, n = planner.plan_drawing(tiles, land, 0, 9, 8, 1, bots.WEIGHTS)
    land = E.listed_region(land, cells, n)[1]
    got = fitter.value_features(tiles, land, offers, 8, np.empty(fitter.N_FEATURES))
    assert np.allclose(got, reference_features(tiles, land, offers, 8))
    assert got[1:9].sum() > 0 and got[9] > 0  # a real board: something scored, some land left empty


def test_the_fit_recovers_a_known_linear_value(fitter):
    rng = np.random.default_rng(0)
    x = np.column_stack([np.ones(400), rng.normal(size=(400, 5))])
    truth = np.array([60.0, 2.0, -1.0, 0.5, 0.0, 3.0])
    y = x @ truth + rng.normal(scale=0.1, size=400)
    assert np.allclose(fitter.fit_value(x, y, 1e-6), truth, atol=0.05)
    shrunk = fitter.fit_value(x, y, 1e4)
    assert abs(shrunk[0] - y.mean()) < 1.0 and np.abs(shrunk[1:]).max() < 0.2  # the constant is not penalised


def test_the_script_gathers_boards_and_measures_the_value(fitter, tmp_path, monkeypatch):
    data, report = tmp_path / "data.npz", tmp_path / "fit.json"
    gather = ["gather", "--games", "4", "--level", "1", "--workers", "1"]
    monkeypatch.setattr("sys.argv", ["tiny_islands_value.py", *gather, "--out", str(data)])
    fitter.main()
    gathered = np.load(data)
    assert (gathered["d"] == 0).sum() == 4 and (gathered["d"] == 1).sum() == 4
    assert (gathered["t"][gathered["d"] == 0] == 8).all() and (gathered["t"][gathered["d"] == 1] == 17).all()
    assert (gathered["final"][:, 8] > 0).all() and "--games 4" in str(gathered["command"])
    for i in range(len(gathered["t"])):  # each kept region is the drawing the game made: legal there
        assert E.check_region(gathered["land"][i], gathered["region"][i]) == E.OK
    measure = ["measure", str(data), "--futures", "2", "--ridge", "10"]
    monkeypatch.setattr("sys.argv", ["tiny_islands_value.py", *measure, "--out", str(report)])
    first = fitter.main()
    monkeypatch.setattr("sys.argv", ["tiny_islands_value.py", *measure])
    again = fitter.main()
    written = json.loads(report.read_text())
    assert [d["drawing"] for d in written["drawings"]] == [1, 2]
    assert written == json.loads(json.dumps(again)) == json.loads(json.dumps(first))  # same data, same fit
    assert all(len(d["weights"]) == fitter.N_FEATURES and "play_outs_r2" in d for d in written["drawings"])
