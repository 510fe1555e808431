"""The learned placement policy: a data file the bots read, a value that is the sum of the table's
entries a placement reads (checked against a plain-Python reading of the board), and the script
that fits it, run here on a tiny budget and on data whose answer is known."""
from __future__ import annotations

import json

import numpy as np
import pytest

from scorebook.engines.tiny_islands import bots, engine, heuristic, weights
from scorebook.engines.tiny_islands.deck import two_deck_offers
from scorebook.engines.tiny_islands.metadata import CELLS, SIZE

from ..conftest import benchmark_script


@pytest.fixture(scope="module")
def fitter():
    pytest.importorskip("scipy", reason="the policy's fit needs scipy (pip install '.[test]')")
    return benchmark_script("fit_tiny_islands_policy")


def reference_entries(tiles, land, tile, cell, drawings_done):
    """The table entries a placement reads, from the layout written in policy.json's "about"."""
    r, c = divmod(cell, SIZE)
    entries = []
    for dr in range(-2, 3):
        for dc in range(-2, 3):
            if (dr, dc) == (0, 0):
                continue
            slot = 2 if max(abs(dr), abs(dc)) == 2 else (0 if 0 in (dr, dc) else 1)
            rr, cc = r + dr, c + dc
            if not (0 <= rr < SIZE and 0 <= cc < SIZE):
                held = 0
            elif tiles[rr * SIZE + cc] == 0:
                held = 1 + int(land[rr * SIZE + cc])
            else:
                held = 2 + int(tiles[rr * SIZE + cc])
            entries.append(((drawings_done * 8 + tile) * 4 + slot) * 10 + held)
    entries.append(((drawings_done * 8 + tile) * 4 + 3) * 10 + 1 + int(land[cell]))
    return entries


def random_position(rng):
    tiles = np.zeros(CELLS, np.int64)
    filled = rng.choice(CELLS, int(rng.integers(0, 40)), replace=False)
    tiles[filled] = rng.integers(1, 8, len(filled))
    land = rng.random(CELLS) < 0.4
    return tiles, land


def test_the_bots_policy_is_the_package_file():
    described = json.loads(weights.policy_text())
    assert weights.POLICY.tolist() == described["table"] and described["made_by"]
    assert bots.WEIGHTS.tolist() == weights.HEURISTIC_WEIGHTS.tolist() + weights.POLICY.tolist()
    assert np.abs(weights.POLICY).max() > 0  # a policy that is there


@pytest.mark.parametrize("text", ['{"table": [1, 2]}', '{"table": [' + ", ".join(["0"] * (weights.N_POLICY - 1)) +
                                  ', Infinity]}', '{"weights": []}'])
def test_a_policy_file_with_the_wrong_numbers_is_refused(text):
    with pytest.raises((ValueError, KeyError)):
        weights.load_policy(text)


def test_a_placements_policy_value_is_the_table_at_what_lies_around_it():
    rng = np.random.default_rng(5)
    for _ in range(200):
        tiles, land = random_position(rng)
        cell = int(rng.choice(np.flatnonzero(tiles == 0)))
        tile, drawings_done = int(rng.integers(1, 8)), int(rng.integers(0, 3))
        features = np.zeros(weights.N_POLICY, np.int64)
        heuristic.policy_features(tiles, land, tile, cell, drawings_done, features)
        expected = np.bincount(reference_entries(tiles, land, tile, cell, drawings_done), minlength=weights.N_POLICY)
        assert features.tolist() == expected.tolist()
        # the bots' value of the placement: the heuristic's plus the table's entries
        with_policy = heuristic.weighted_value(tiles, land, tile, cell, 3 - drawings_done, 0, bots.WEIGHTS)
        without = heuristic.weighted_value(tiles, land, tile, cell, 3 - drawings_done, 0, weights.HEURISTIC_WEIGHTS)
        assert with_policy - without == pytest.approx(weights.POLICY @ features, abs=1e-9)


def test_the_fit_recovers_a_known_preference(fitter):
    """Positions whose play-out values are a known table's sum: the fitted policy ranks each
    position's candidates as that table does."""
    rng = np.random.default_rng(3)
    n_features, positions, per = 12, 400, 6
    truth = rng.normal(0, 1, n_features)
    features = rng.integers(0, 3, (positions * per, n_features)).astype(np.int8)
    heuristic = rng.normal(0, 1, positions * per)
    values = 2.0 * (heuristic + features @ truth)
    state = np.repeat(np.arange(positions), per)
    table, scale = fitter.fit_table(features, heuristic, values, state, 0.5, 1e-6)
    assert scale > 0
    assert np.corrcoef(table, truth)[0, 1] > 0.99
    assert fitter.chosen_loss(values, heuristic + features @ table, state) < 0.05
    assert fitter.chosen_loss(values, heuristic, state) > 0.5  # the heuristic alone does not know it


def test_the_script_gathers_and_fits_a_policy_the_bots_read(fitter, tmp_path, monkeypatch):
    data, policy = tmp_path / "data.npz", tmp_path / "policy.json"
    gather = ["gather", "--games", "2", "--candidates", "4", "--futures", "2", "--workers", "1"]
    monkeypatch.setattr("sys.argv", ["fit_tiny_islands_policy.py", *gather, "--out", str(data)])
    fitter.main()
    monkeypatch.setattr("sys.argv", ["fit_tiny_islands_policy.py", "fit", str(data), "--out", str(policy)])
    fitter.main()
    again = tmp_path / "again.json"
    monkeypatch.setattr("sys.argv", ["fit_tiny_islands_policy.py", "fit", str(data), "--out", str(again)])
    fitter.main()
    fitted = json.loads(policy.read_text())
    assert fitted["table"] == json.loads(again.read_text())["table"]  # the same data, the same fit
    assert weights.load_policy(policy.read_text()).shape == (weights.N_POLICY,)
    assert "--games 2" in fitted["made_by"][0] and fitted["fit"]["fitted"]["positions"] > 0
    gathered = np.load(data)
    assert gathered["features"].shape == (len(gathered["values"]), weights.N_POLICY)
    assert len(gathered["totals"]) == 2 and (gathered["totals"] > 0).all()


def test_the_script_labels_positions_by_a_teachers_choices(fitter, tmp_path, monkeypatch):
    """``gather --teacher halving:N``: every position of the teacher's game is kept, with one
    candidate labelled ``--margin`` (the teacher's own placement) and the others 0, and the
    game's total is the teacher's game's total."""
    data = tmp_path / "teacher.npz"
    gather = ["gather", "--teacher", "halving:1", "--games", "1", "--candidates", "3", "--margin", "4",
              "--shuffle-seed", "5", "--workers", "1", "--out", str(data)]
    monkeypatch.setattr("sys.argv", ["fit_tiny_islands_policy.py", *gather])
    fitter.main()
    gathered = np.load(data)
    starts, counts = fitter._groups(gathered["state"])
    labels = np.add.reduceat(gathered["values"], starts)
    assert (labels == 4).all() and set(np.unique(gathered["values"])) == {0.0, 4.0}
    policy = tmp_path / "teacher.json"
    monkeypatch.setattr("sys.argv", ["fit_tiny_islands_policy.py", "fit", str(data), "--out", str(policy)])
    fitter.main()
    fitted = json.loads(policy.read_text())["fit"]["fitted"]
    assert 0 <= fitted["disagreement_package_policy"] <= 1
    assert fitted["disagreement_heuristic"] * 4 == pytest.approx(fitted["loss_heuristic"], abs=1e-3)
    assert ((counts >= 3) & (counts <= 4)).all()  # the heuristic's 3 best, and the teacher's when not among them
    offers = two_deck_offers(np.random.default_rng([5, 0]))
    placements, traces, lens = bots.play(offers, bots.HALVING, 1, 0, 0, bots.TWO_DECK)
    played = int((placements[:, 0] >= 0).sum())
    assert len(starts) == played
    res = engine.replay(offers, placements, traces, lens, np.ones(3, np.bool_), played, 0)
    assert gathered["totals"][0] == res[7][8]
