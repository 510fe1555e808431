"""The heuristic's weights are a data file the bots read, and the script that fits them writes
that file reproducibly: it is run here on a tiny budget."""
from __future__ import annotations

import json

import numpy as np
import pytest

from scorebook.engines.tiny_islands import bots, weights

from ..conftest import benchmark_script


@pytest.fixture(scope="module")
def tuner():
    return benchmark_script("tune_tiny_islands_heuristic")


def test_the_bots_weights_are_the_package_file():
    described = json.loads(weights.weights_text())
    assert weights.HEURISTIC_WEIGHTS.tolist() == described["weights"]
    assert len(described["names"]) == weights.N_WEIGHTS and described["made_by"]


@pytest.mark.parametrize("text", ['{"weights": [1, 2]}',  # too few
                                  '{"weights": [' + ", ".join(["0"] * (weights.N_WEIGHTS - 1)) + ', NaN]}',  # not finite
                                  '{"weights": "many"}'])
def test_a_weights_file_with_the_wrong_numbers_is_refused(text):
    with pytest.raises(ValueError):
        weights.load_weights(text)


def test_the_tuner_writes_a_file_the_bots_read_and_a_rerun_fits_the_same(tuner, tmp_path):
    args = ["--games", "8", "--steps", "4", "--seed", "1", "--workers", "1"]
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    tuner.main(args + ["--out", str(first)])
    tuner.main(args + ["--out", str(second)])
    fitted, again = json.loads(first.read_text()), json.loads(second.read_text())
    assert fitted["weights"] == again["weights"] and fitted["fit"] == again["fit"]
    assert fitted["fit"]["start"] == weights.HEURISTIC_WEIGHTS.tolist() and fitted["fit"]["games"] == 8
    assert "--games 8 --steps 4 --seed 1" in fitted["made_by"][0]
    # this seed finds better weights within 4 steps, and the recorded mean is theirs
    found = weights.load_weights(first.read_text())
    assert fitted["fit"]["fitted_mean"] > fitted["fit"]["start_mean"]
    assert not np.array_equal(found, weights.HEURISTIC_WEIGHTS)
    assert tuner.mean_score(None, found, bots.HEURISTIC, 0, 1) == pytest.approx(fitted["fit"]["fitted_mean"],
                                                                                   abs=1e-3)
    assert fitted["names"] == json.loads(weights.weights_text())["names"]
