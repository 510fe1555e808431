"""The bots benchmark's reading of its own ``--log`` files: levels kept apart by deck, and
each level against the one before it paired on the shuffles both played."""
from __future__ import annotations

import json

import numpy as np
import pytest

from scorebook.engines.tiny_islands import bots
from scorebook.engines.tiny_islands.deck import two_deck_offers

from ..conftest import benchmark_script


@pytest.fixture(scope="module")
def bots_benchmark():
    return benchmark_script("tiny_islands_bots")


def write_log(path, level, deck, games, penalties):
    with path.open("a") as f:
        for shuffle, total in games.items():
            breakdown = [penalties, 10, 0, 0, 0, total - 10 + penalties, 0, 0, total]  # Forests 10, the rest Mountains
            f.write(json.dumps({"level": level, "deck": deck, "shuffle": shuffle, "breakdown": breakdown,
                                "seconds": 1.0}) + "\n")


def test_logs_pair_by_shuffle_within_a_deck(bots_benchmark, tmp_path):
    before, after = tmp_path / "before.jsonl", tmp_path / "after.jsonl"
    write_log(before, "halving:16", "two-deck", {0: 60, 1: 62, 2: 64}, 1)
    write_log(before, "halving:16", "one-deck", {0: 90}, 1)
    write_log(after, "halving:64", "two-deck", {2: 67, 1: 63, 5: 99}, 0)  # shuffle 5 has no partner

    decks = bots_benchmark.read_logs([before, after])
    assert sorted(decks) == ["one-deck", "two-deck"]
    assert [level for level, *_ in decks["two-deck"]] == ["halving:16", "halving:64"]
    assert decks["two-deck"][1][1] == {2: 1.0, 1: 1.0, 5: 1.0}  # seconds, by shuffle
    table = bots_benchmark.category_table(decks["two-deck"])
    rows = {line.split(" | ")[0].lstrip("| "): line.strip("| ").split(" | ")[1:] for line in table[2:]}
    # means over each level's own games; differences over shuffles 1 and 2: +1 and +3
    assert rows["total"] == ["62.0", "76.3", "+2.00 ± 1.00"]
    assert rows["Forests"] == ["10.0", "10.0", "+0.00 ± 0.00"]
    assert rows["penalties"] == ["-1.0", "0.0", "+1.00 ± 0.00"]  # penalties count as points lost


def test_a_run_taken_up_again_plays_the_same_games(bots_benchmark):
    """``--first``: shuffles keep their numbers, and each game's seed is its shuffle's number."""
    shuffles = [two_deck_offers(np.random.default_rng([2026, g])) for g in range(3)]
    whole = bots_benchmark.run(bots.MC, 1, shuffles)[3]
    logged = []
    tail = bots_benchmark.run(bots.MC, 1, shuffles[1:], lambda g, breakdown, seconds: logged.append(g), 1)[3]
    assert logged == [1, 2]
    np.testing.assert_array_equal(tail, whole[1:])


def test_games_played_a_core_each_are_the_same_games(bots_benchmark):
    """``--processes``: the games are shared out to worker processes, logged as they end and
    reported in shuffle order, the same games as one after the other."""
    shuffles = [two_deck_offers(np.random.default_rng([2026, g])) for g in range(4)]
    one_by_one = bots_benchmark.run(bots.HEURISTIC, 0, shuffles, None, 5)[3]
    logged = []
    log = lambda g, breakdown, seconds: logged.append(g)  # noqa: E731
    shared_out = bots_benchmark.run(bots.HEURISTIC, 0, shuffles, log, 5, 2)[3]
    assert sorted(logged) == [5, 6, 7, 8]
    np.testing.assert_array_equal(shared_out, one_by_one)
