"""The learned window value: a placement's gain is the change of the table entries of the 2x2
windows around its cell (checked against a plain-Python reading of the whole board), a TD step
moves a board's value by the share of the error asked for, and the script that learns the table
runs here on a tiny budget and gives the same table for the same arguments."""
from __future__ import annotations

import json

import numpy as np
import pytest

from scorebook.engines.tiny_islands import bots, heuristic, search, weights
from scorebook.engines.tiny_islands.deck import two_deck_offers
from scorebook.engines.tiny_islands.metadata import CELLS, SIZE

from ..conftest import benchmark_script


@pytest.fixture(scope="module")
def learner():
    return benchmark_script("fit_tiny_islands_windows")


def window_sum(table, tiles, land, drawings_done):
    """The table's value of a whole board, from the layout in ``load_window_value``'s docstring."""
    def held(r, c):
        if not (0 <= r < SIZE and 0 <= c < SIZE):
            return 0
        return 1 + 2 * int(tiles[r * SIZE + c]) + int(land[r * SIZE + c])
    total = 0.0
    for r in range(-1, SIZE):
        for c in range(-1, SIZE):
            a, b, d, e = held(r, c), held(r, c + 1), held(r + 1, c), held(r + 1, c + 1)
            total += table[(((drawings_done * 17 + a) * 17 + b) * 17 + d) * 17 + e]
    return total


def random_position(rng):
    tiles = np.zeros(CELLS, np.int64)
    filled = rng.choice(CELLS, int(rng.integers(0, 40)), replace=False)
    tiles[filled] = rng.integers(1, 8, len(filled))
    return tiles, rng.random(CELLS) < 0.4


def test_a_placements_window_gain_is_the_boards_value_after_less_before():
    rng = np.random.default_rng(8)
    table = rng.normal(0, 1, weights.N_VALUE)
    w = np.concatenate((weights.HEURISTIC_WEIGHTS, weights.POLICY, table))
    for _ in range(100):
        tiles, land = random_position(rng)
        cell = int(rng.choice(np.flatnonzero(tiles == 0)))
        tile, drawings_done = int(rng.integers(1, 8)), int(rng.integers(0, 3))
        before = window_sum(table, tiles, land, drawings_done)
        after_tiles = tiles.copy()
        after_tiles[cell] = tile
        expected = window_sum(table, after_tiles, land, drawings_done) - before
        assert heuristic._value_delta(tiles, land, tile, cell, drawings_done, w) == pytest.approx(expected, abs=1e-9)
        # and the placement's value is the heuristic's (with its policy) plus that gain
        with_table = heuristic.weighted_value(tiles, land, tile, cell, 3 - drawings_done, 0, w)
        without = heuristic.weighted_value(tiles, land, tile, cell, 3 - drawings_done, 0, w[:-weights.N_VALUE])
        assert with_table - without == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("land", ["drawn", "planned"])
def test_under_a_plan_the_windows_read_the_land_the_file_names(land):
    """A table of the planned land reads each cell's side of the shore as it will be after the
    planned drawing (land ^ plan); without a plan, every table reads the land as drawn."""
    rng = np.random.default_rng(5)
    table = rng.normal(0, 1, weights.N_VALUE)
    text = json.dumps({"classes": 17, "phases": 3, "land": land,
                       "entries": [[int(i), int(round(table[i] * 1000))] for i in range(weights.N_VALUE)]})
    value = weights.window_value_weights(text)
    assert value[-1] == (1.0 if land == "planned" else 0.0)
    table = value[:-1]
    w = np.concatenate((weights.HEURISTIC_WEIGHTS, weights.POLICY, value))
    for _ in range(50):
        tiles, drawn = random_position(rng)
        plan = rng.random(CELLS) < 0.3
        cell = int(rng.choice(np.flatnonzero(tiles == 0)))
        tile, drawings_done = int(rng.integers(1, 8)), int(rng.integers(0, 2))
        after_tiles = tiles.copy()
        after_tiles[cell] = tile
        for planned in (True, False):
            read = drawn ^ plan if planned and land == "planned" else drawn
            expected = window_sum(table, after_tiles, read, drawings_done) - window_sum(table, tiles, read,
                                                                                         drawings_done)
            before = heuristic._optimistic_total(tiles, drawn, 3 - drawings_done, 0)
            values = [heuristic._weighted_value(tiles, drawn, tile, cell, 3 - drawings_done, 0, weights_, before, plan,
                                                planned) for weights_ in (w, w[:weights.VALUE_AT])]
            assert values[0] - values[1] == pytest.approx(expected, abs=1e-9)
    with pytest.raises(ValueError):
        weights.window_value_weights(text.replace(f'"{land}"', '"sea"'))


def test_a_td_step_moves_the_boards_value_by_alpha_of_the_error(learner):
    """The step is normalised by the squared counts of the entries it moves, so a window met
    many times (the empty ones) does not move the value more than asked."""
    rng = np.random.default_rng(2)
    tiles, land = random_position(rng)
    w = np.concatenate((weights.HEURISTIC_WEIGHTS, weights.POLICY, np.zeros(weights.N_VALUE), [0.0]))
    bias = np.zeros(26)
    entries = np.zeros(learner.N_WINDOWS, np.int64)
    before = learner._board_value(tiles, land, land, 1, 10, w, bias, entries)
    learner._step(w, bias, 1, 10, entries.copy(), 8.0, 0.25, 0)
    assert learner._board_value(tiles, land, land, 1, 10, w, bias, entries) - before == pytest.approx(2.0)
    assert learner._board_value(tiles, land, land, 2, 10, w, bias, entries) - before == pytest.approx(bias[10])


@pytest.mark.parametrize("change", [{"classes": 10}, {"phases": 4}, {"entries": [[weights.N_VALUE, 5]]},
                                    {"entries": [[-1, 5]]}])
def test_a_windows_file_of_another_table_is_refused(change):
    text = json.dumps({"classes": 17, "phases": 3, "entries": [[0, 1]], **change})
    with pytest.raises(ValueError):
        weights.load_window_value(text)


def test_the_script_learns_a_table_the_bots_read(learner, tmp_path, monkeypatch, capsys):
    out, again, longer = tmp_path / "w.json", tmp_path / "again.json", tmp_path / "longer.json"
    for path in (out, again):
        monkeypatch.setattr("sys.argv", ["fit_tiny_islands_windows.py", "train", "--games", "6", "--alpha", "0.5",
                                         "--shuffle-seed", "4", "--out", str(path)])
        learner.main()
    learned = json.loads(out.read_text())
    assert learned["entries"] == json.loads(again.read_text())["entries"]  # the same arguments, the same table
    assert learned["entries"] and learned["fit"]["games"] == 6 and "--games 6" in learned["made_by"][0]
    table = weights.load_window_value(out.read_text())
    assert np.count_nonzero(table) == len(learned["entries"])
    # taken up from its own output, the games go on from the seventh
    monkeypatch.setattr("sys.argv", ["fit_tiny_islands_windows.py", "train", "--games", "2", "--shuffle-seed", "4",
                                     "--start", str(out), "--out", str(longer)])
    learner.main()
    went_on = json.loads(longer.read_text())
    assert went_on["fit"]["games"] == 8 and len(went_on["made_by"]) == 2
    assert went_on["entries"] != learned["entries"]
    monkeypatch.setattr("sys.argv", ["fit_tiny_islands_windows.py", "bench", str(out), "--shuffles", "3"])
    learner.main()
    printed = capsys.readouterr().out
    assert "heuristic with the table" in printed and "paired: " in printed


def test_games_learned_under_plans_follow_the_search_play_outs(learner, tmp_path, monkeypatch):
    """``--plans`` plays the games as halving:N's committed play-outs do: other games than the
    heuristic's, the same for the same arguments."""
    files = {}
    for name, extra in (("free", []), ("plans", ["--plans"]), ("plans_again", ["--plans"])):
        files[name] = tmp_path / f"{name}.json"
        monkeypatch.setattr("sys.argv", ["fit_tiny_islands_windows.py", "train", "--games", "4", "--shuffle-seed", "4",
                                         "--out", str(files[name])] + extra)
        learner.main()
    learned = {name: json.loads(path.read_text()) for name, path in files.items()}
    assert learned["plans"]["fit"]["plans"] and not learned["free"]["fit"]["plans"]
    assert learned["plans"]["entries"] == learned["plans_again"]["entries"]
    assert learned["plans"]["entries"] != learned["free"]["entries"]
    # the first island is committed at COMMIT_FROM[0] in every game, the second in half of them
    assert learner._commit_now(int(search.COMMIT_FROM[0]), 0, True, False)
    assert not learner._commit_now(int(search.COMMIT_FROM[0]), 0, False, True)
    assert not learner._commit_now(int(search.COMMIT_FROM[0]) + 1, 0, True, True)
    assert learner._commit_now(int(search.COMMIT_FROM[1]), 1, True, True)
    assert not learner._commit_now(int(search.COMMIT_FROM[1]), 1, True, False)


def test_games_learned_from_a_drawing_leave_the_table_before_it_as_it_started(learner, tmp_path, monkeypatch):
    """``--value-from 1`` plays the phase before the first drawing without the table, as
    halving:N's play-outs do, learns only the phases after it, and writes the phase before it
    back as the starting file had it (the heuristic bot reads it)."""
    start, went_on = tmp_path / "start.json", tmp_path / "went_on.json"
    for path, extra in ((start, []), (went_on, ["--start", str(start), "--value-from", "1"])):
        monkeypatch.setattr("sys.argv", ["fit_tiny_islands_windows.py", "train", "--games", "4", "--shuffle-seed", "4",
                                         "--plans", "--out", str(path)] + extra)
        learner.main()
    before, after = (weights.load_window_value(path.read_text()) for path in (start, went_on))
    first = slice(0, weights.VALUE_TABLE)
    assert np.count_nonzero(before[first]) and (after[first] == before[first]).all()
    assert (after[weights.VALUE_TABLE:] != before[weights.VALUE_TABLE:]).any()
    assert json.loads(went_on.read_text())["fit"]["value_from"] == 1
    # before the drawing, a step moves the turn's number alone, by alpha of the error
    rng = np.random.default_rng(3)
    tiles, land = random_position(rng)
    w = np.concatenate((weights.HEURISTIC_WEIGHTS, weights.POLICY, np.zeros(weights.N_VALUE), [0.0]))
    bias, entries = np.zeros(26), np.zeros(learner.N_WINDOWS, np.int64)
    learner._board_value(tiles, land, land, 0, 4, w, bias, entries)
    learner._step(w, bias, 0, 4, entries.copy(), 8.0, 0.25, 1)
    assert bias[4] == pytest.approx(2.0) and not w[weights.VALUE_AT:].any()


def test_the_heuristic_bot_plays_with_the_packages_table(learner):
    """The package's windows.json is read (planned land, the fit its command names), and only
    the heuristic bot adds it: on some shuffle its game is not the one without the table."""
    data = json.loads(weights.windows_text())
    assert data["land"] == "planned" and data["fit"]["plans"] and "--land planned" in data["made_by"][-1]
    w = bots.heuristic_weights()
    assert w.shape[0] == weights.VALUE_LAND_AT + 1 and w[-1] == 1.0
    np.testing.assert_array_equal(w[:weights.VALUE_AT], bots.WEIGHTS)
    differs = 0
    for g in range(3):
        offers = learner.shuffles(2026, g, 1)[0]
        played = bots.play(offers, bots.HEURISTIC, 0, g, 0, bots.TWO_DECK)
        with_table = bots.play_weighted(offers, bots.HEURISTIC, 0, g, 0, w, bots.TWO_DECK)
        without = bots.play_weighted(offers, bots.HEURISTIC, 0, g, 0, bots.WEIGHTS, bots.TWO_DECK)
        np.testing.assert_array_equal(played[0], with_table[0])
        differs += not np.array_equal(played[0], without[0])
    assert differs


def test_halving_reads_the_table_in_its_play_outs_from_the_first_drawing(learner):
    """halving:N plays with ``search_weights``: the package's table with its entries before the
    first drawing set to 0 (the rest as the heuristic reads it), and the game is not the one
    without the table."""
    w = bots.search_weights()
    full = bots.heuristic_weights()
    before_first = slice(weights.VALUE_AT, weights.VALUE_AT + weights.VALUE_TABLE)
    assert not w[before_first].any() and full[before_first].any()
    np.testing.assert_array_equal(w[weights.VALUE_AT + weights.VALUE_TABLE:], full[weights.VALUE_AT + weights.VALUE_TABLE:])
    np.testing.assert_array_equal(w[:weights.VALUE_AT], bots.WEIGHTS)
    offers = learner.shuffles(2026, 0, 1)[0]
    played = bots.play(offers, bots.HALVING, 1, 5, 0, bots.TWO_DECK)
    with_table = bots.play_weighted(offers, bots.HALVING, 1, 5, 0, w, bots.TWO_DECK)
    without = bots.play_weighted(offers, bots.HALVING, 1, 5, 0, bots.WEIGHTS, bots.TWO_DECK)
    np.testing.assert_array_equal(played[0], with_table[0])
    assert not np.array_equal(played[0], without[0])


def test_halving_ranks_its_root_candidates_without_the_table():
    """With one candidate kept, halving's root move is the ranking's best: the same with any
    window value, while the heuristic that reads the value moves elsewhere."""
    rng = np.random.default_rng(3)
    offers = two_deck_offers(rng)
    noisy = np.concatenate((bots.WEIGHTS, rng.normal(0, 50, weights.N_VALUE), [0.0]))
    tiles = np.zeros(CELLS, np.int64)
    land = np.zeros(CELLS, np.bool_)
    land[:30] = True  # as after a first drawing: the table's phase 1 is read
    none = np.zeros(CELLS, np.bool_)
    moved = 0
    for t in range(6):
        ranked = search.mc_halving_placement(tiles, land, offers, t, 1, 0, 1, 1, bots.WEIGHTS, bots.TWO_DECK, 1, 0,
                                           none, False)
        same = search.mc_halving_placement(tiles, land, offers, t, 1, 0, 1, 1, noisy, bots.TWO_DECK, 1, 0, none, False)
        assert ranked == same
        moved += heuristic.heuristic_placement(tiles, land, offers[t], 2, 0, noisy, none, False) != \
            heuristic.heuristic_placement(tiles, land, offers[t], 2, 0, bots.WEIGHTS, none, False)
        tiles[ranked[1]] = ranked[0]
    assert moved
