"""Tiny Islands bots: legal games, better than random, and blind to offers not drawn yet."""
from __future__ import annotations

import numpy as np
import pytest

from scorebook.engines.tiny_islands import bots, deck, heuristic, planner, search
from scorebook.engines.tiny_islands import engine as E
from scorebook.engines.tiny_islands.deck import two_deck_offers
from scorebook.engines.tiny_islands.metadata import FOREST, MOUNTAIN, ZONE_MASK
from scorebook.engines.tiny_islands.players import random_game

from ..conftest import cli_json


def total(offers, placements, traces, lens, as_region):
    res = E.replay(offers, placements, traces, lens, np.full(3, as_region), 26, 0)
    assert res[0] == E.OK
    return res[7][8]


def test_heuristic_games_are_legal_and_beat_random():
    ours, rand = [], []
    for g in range(20):
        offers = two_deck_offers(np.random.default_rng([1, g]))
        ours.append(total(offers, *bots.play(offers, bots.HEURISTIC, 0, g, 0, bots.TWO_DECK), True))
        rand.append(total(offers, *random_game(offers, g), False))
    assert np.mean(ours) > np.mean(rand) + 40


def test_the_planner_draws_legal_regions():
    # every region the planner draws, over several games, replayed one by one on the board as
    # it stood: legal, within the ink, and an island of some size first
    for seed in (3, 4, 5):
        offers = two_deck_offers(np.random.default_rng(seed))
        placements, regions, lens = bots.play(offers, bots.HEURISTIC, 0, seed, 0, bots.TWO_DECK)
        land = np.zeros(81, np.bool_)
        for d in range(3):
            code, region = E.listed_region(land, regions[d], lens[d])
            assert code == E.OK, (seed, d, E.CODE_NAMES[code])
            assert region.sum() == lens[d] >= 1 and E.shoreline_length(region) <= 24
            land ^= region
        assert lens[0] >= 4
        code = E.replay(offers, placements, regions, lens, np.ones(3, np.bool_), 26, 0)[0]
        assert code == E.OK


@pytest.mark.slow
def test_bots_never_read_offers_not_yet_drawn():
    offers = two_deck_offers(np.random.default_rng(8))
    for bot, rollouts in ((bots.HEURISTIC, 0), (bots.MC, 1), (bots.HALVING, 1)):
        full, full_regions, full_lens = bots.play(offers, bot, rollouts, 5, 0, bots.TWO_DECK)
        for t in (4, 8, 12):
            changed = offers.copy()
            changed[t + 1:] = two_deck_offers(np.random.default_rng(99))[t + 1:]
            part, regions, lens = bots.play(changed, bot, rollouts, 5, 0, bots.TWO_DECK)
            assert (part[:t + 1] == full[:t + 1]).all(), (bot, t)
            if t >= 8:  # the first drawing, after turn 9, saw only the first nine offers
                assert lens[0] == full_lens[0] and (regions[0] == full_regions[0]).all(), (bot, t)


def test_halving_spends_the_budget_on_the_leaders_and_plays_legal_games():
    # sequential halving with mc:N's budget: the game replays legally, the same seed gives the
    # same game, and a placement is one the offer allows
    offers = two_deck_offers(np.random.default_rng(21))
    first = bots.play(offers, bots.HALVING, 2, 7, 0, bots.TWO_DECK)
    again = bots.play(offers, bots.HALVING, 2, 7, 0, bots.TWO_DECK)
    assert all((a == b).all() for a, b in zip(first, again))
    res = E.replay(offers, *first, np.ones(3, np.bool_), 26, 0)
    assert res[0] == E.OK
    tiles = np.zeros(81, np.int64)
    land = np.zeros(81, np.bool_)
    cands = [(offers[0, 2 * k], z) for k in range(2) for z in range(81) if ZONE_MASK[offers[0, 2 * k + 1], z]]
    tile, cell = search.mc_halving_placement(tiles, land, offers, 0, 0, 0, 4, 10, bots.WEIGHTS, bots.TWO_DECK,
                                            bots.HALVING_EFFORT, bots.HALVING_SCREEN, np.zeros(81, np.bool_), False)
    assert (tile, cell) in cands


def test_cli_play_with_shuffles_and_bots(run_cli, tmp_path):
    from scorebook.records import tinybot, tiny_islands
    offers = two_deck_offers(np.random.default_rng(4))
    rec = tiny_islands.from_arrays(offers, *random_game(offers, 4), rules="tinybot")
    (tmp_path / "s.txt").write_text(tinybot.write_line(rec) + "\n")
    doc = cli_json(run_cli("play", "tiny-islands", "--players", "heuristic", "--shuffles", str(tmp_path / "s.txt"),
                           "--json"))
    assert len(doc["games"]) == 1 and doc["games"][0]["status"] == "ingested"
    assert run_cli("play", "tiny-islands", "--players", "mc:x").exit_code == 2
    assert run_cli("play", "tiny-islands", "--players", "heuristic:3").exit_code == 2


def test_the_planner_offers_distinct_legal_regions_and_mc_picks_one():
    offers = two_deck_offers(np.random.default_rng(11))
    placements, _, _ = bots.play(offers, bots.HEURISTIC, 0, 11, 0, bots.TWO_DECK)
    tiles = np.zeros(81, np.int64)
    for tile, cell in placements[:9]:
        tiles[cell] = tile
    land = np.zeros(81, np.bool_)
    regions, values, m = planner.planned_regions(tiles, land, 0, 9, 8, 1, 8, bots.WEIGHTS, 0)
    assert m >= 2
    for i in range(m):
        assert E.check_region(land, regions[i]) == E.OK
        assert all(not (regions[i] == regions[j]).all() for j in range(i))
    cells, n = planner.plan_drawing(tiles, land, 0, 9, 8, 1, bots.WEIGHTS)
    planned = np.zeros(81, np.bool_)
    planned[cells[:n]] = True
    best3, values3, m3 = planner.planned_regions(tiles, land, 0, 9, 8, 1, 3, bots.WEIGHTS, 0)
    assert (planned == best3[int(np.argmax(values3[:m3]))]).all()
    cells, n = search.mc_drawing(tiles, land, offers, 8, 0, 0, 4, 8, bots.WEIGHTS, bots.TWO_DECK, search.ROLLOUT_EFFORT, 0,
                               np.zeros(81, np.bool_), False)
    chosen = np.zeros(81, np.bool_)
    chosen[cells[:n]] = True
    assert any((chosen == regions[i]).all() for i in range(m))


def test_a_wider_last_drawing_search_never_scores_less():
    # the last drawing decides the final score outright: climbing from more rectangles can only
    # find a region as good or better (the best three are among the best forty)
    offers = two_deck_offers(np.random.default_rng(12))
    placements, traces, lens = bots.play(offers, bots.HEURISTIC, 0, 12, 0, bots.TWO_DECK)
    tiles = np.zeros(81, np.int64)
    for tile, cell in placements:
        tiles[cell] = tile
    land = np.zeros(81, np.bool_)
    for d in range(2):
        land ^= E.listed_region(land, traces[d], lens[d])[1]
    scores = []
    for cells, n in (planner.best_drawing(tiles, land, 0, 0, 0, 1, 3, bots.WEIGHTS, 0),
                     bots.last_drawing(tiles, land, 0, bots.WEIGHTS)):
        code, region = E.listed_region(land, cells, n)
        assert code == E.OK and E.check_region(land, region) == E.OK
        scores.append(E.score_board(tiles, land ^ region, 0)[8])
    assert scores[1] >= scores[0]


def test_the_planners_screen_adds_up_penalties_and_room_over_each_rectangle():
    # halving:N's play-outs first look at every rectangle through sums over it: the penalties
    # the flip saves less those it costs, plus the room term; here each is checked against the
    # full score of the flipped board, on a board with land already drawn
    offers = two_deck_offers(np.random.default_rng(13))
    placements, traces, lens = bots.play(offers, bots.HEURISTIC, 0, 13, 0, bots.TWO_DECK)
    tiles = np.zeros(81, np.int64)
    for tile, cell in placements[:18]:
        tiles[cell] = tile
    land = E.listed_region(np.zeros(81, np.bool_), traces[0], lens[0])[1]
    shore = E.boundary_vertices(land)
    weights = bots.WEIGHTS.copy()
    weights[14] = 0.0  # the zones' reach is left to the full objective
    values, threshold = planner._screen_rectangles(tiles, land, shore, 6, 3, weights, 6)
    before = E.score_board(tiles, land, 0)[0]
    assert len(planner.RECTANGLES) == len({tuple(r) for r in planner.RECTANGLES}) == 1899  # all, within 24 edges
    legal = []
    for k, (r0, c0, h, wd) in enumerate(planner.RECTANGLES):
        region = np.zeros((9, 9), np.bool_)
        region[r0:r0 + h, c0:c0 + wd] = True
        after = land ^ region.ravel()
        expected = before - E.score_board(tiles, after, 0)[0] + planner._future_room(tiles, after, 6, 3, weights)
        assert values[k] == pytest.approx(expected), (h, wd, r0, c0)
        if E.check_region(land, region.ravel()) == E.OK:
            legal.append(values[k])
    assert threshold == sorted(legal)[-6]  # the sixth best legal rectangle lets the rest in
    regions, _, m = planner.planned_regions(tiles, land, 0, 6, 3, bots.HALVING_EFFORT, 3, bots.WEIGHTS,
                                         bots.HALVING_SCREEN)
    assert m >= 1 and all(E.check_region(land, regions[i]) == E.OK for i in range(m))


def test_the_planners_room_counts_the_zones_that_keep_empty_land():
    # land on the top-left nonant: rows a-c, columns 1-3 and that nonant reach it, 7 zones of 27
    weights = np.zeros_like(bots.WEIGHTS)
    weights[14] = 1.0
    land = np.zeros((9, 9), np.bool_)
    land[:3, :3] = True
    tiles = np.zeros(81, np.int64)
    assert deck.N_ZONES == 27
    assert planner._future_room(tiles, land.ravel(), 4, 0, weights) == pytest.approx(4 * 7 / 27)
    assert planner._future_room(tiles, land.ravel(), 0, 5, weights) == 0.0  # no land tile to come
    tiles[:3] = 1  # the top row of the island filled: row a no longer reached
    assert planner._future_room(tiles, land.ravel(), 4, 0, weights) == pytest.approx(4 * 6 / 27)
    tiles.reshape(9, 9)[:3, :3] = 1  # all of it filled
    assert planner._future_room(tiles, land.ravel(), 4, 0, weights) == 0.0


def test_one_deck_futures_keep_the_card_pattern():
    from scorebook.engines.tiny_islands.deck import one_deck_consistent, one_deck_offers
    for s in range(5):
        offers = one_deck_offers(np.random.default_rng([3, s]))
        for t in (0, 1, 8, 17, 24, 25):
            out = offers.copy()
            np.random.seed(s)
            assert deck._sample_future_one_deck(offers, t, out)
            assert (out[:t + 1] == offers[:t + 1]).all()
            assert one_deck_consistent(out)[0], (s, t)
            if t < 24:
                assert not (out[t + 2:] == offers[t + 2:]).all()  # a new future, not the real one
    naive = two_deck_offers(np.random.default_rng(5))
    assert not one_deck_consistent(naive)[0]  # offers that fit no real deck: the two-deck model
    out = naive.copy()
    assert not deck._sample_future_one_deck(naive, 19, out)
    deck._sample_future(naive, 19, out, bots.ONE_DECK)
    assert (out[:20] == naive[:20]).all()


def _lands_before_each_drawing():
    """(game, drawing, land before it) over three heuristic games: real shorelines to test on."""
    for g in range(3):
        offers = two_deck_offers(np.random.default_rng([4, g]))
        placements, regions, lens = bots.play(offers, bots.HEURISTIC, 0, g, 0, bots.TWO_DECK)
        land = np.zeros(81, np.bool_)
        for d in range(3):
            yield g, d, land.copy()
            _, region = E.listed_region(land, regions[d], lens[d])
            land ^= region


def test_the_rectangle_shortcut_agrees_with_the_full_drawing_check():
    # The planner skips check_region for rectangles: only a point shared with an earlier
    # shoreline can rule one out. Every rectangle in budget, on the land of real games.
    for g, d, land in _lands_before_each_drawing():
        shore = E.boundary_vertices(land)
        for r0, c0, h, wd in planner.RECTANGLES:
            rect = np.zeros((9, 9), np.bool_)
            rect[r0:r0 + h, c0:c0 + wd] = True
            legal = E.check_region(land, rect.ravel()) == E.OK
            assert planner._rectangle_clear(shore, r0, c0, h, wd) == legal, (g, d, r0, c0, h, wd)


def test_the_incremental_toggle_check_agrees_with_the_full_drawing_check():
    # The planner's hill climb checks a toggled cell incrementally from a legal region:
    # compare with check_region on every toggle along random walks of legal regions.
    rng = np.random.default_rng(5)
    compared = rejected = 0
    for g, d, land in _lands_before_each_drawing():
        shore = E.boundary_vertices(land)
        starts = 0
        while starts < 12:
            h, wd = rng.integers(1, 7, 2)
            r0, c0 = rng.integers(0, 10 - h), rng.integers(0, 10 - wd)
            region = np.zeros((9, 9), np.bool_)
            region[r0:r0 + h, c0:c0 + wd] = True
            region = region.ravel()
            if E.check_region(land, region) != E.OK:
                continue
            starts += 1
            for step in range(8):
                ink, n = E.shoreline_length(region), int(region.sum())
                legal_moves = []
                for z in range(81):
                    region[z] = not region[z]
                    full = E.check_region(land, region) == E.OK
                    assert E.toggle_keeps_legal(region, z, shore, ink, n) == full, (g, d, z)
                    compared += 1
                    rejected += not full
                    if full:
                        legal_moves.append(z)
                    region[z] = not region[z]
                if not legal_moves:
                    break
                z = legal_moves[rng.integers(len(legal_moves))]
                region[z] = not region[z]
    assert compared > 10000 and 0 < rejected < compared


def test_play_outs_do_not_depend_on_the_number_of_threads():
    import numba
    offers = two_deck_offers(np.random.default_rng(12))
    placements, _, _ = bots.play(offers, bots.HEURISTIC, 0, 1, 0, bots.TWO_DECK)
    tiles = np.zeros(81, np.int64)
    for t in range(5):
        tiles[placements[t, 1]] = placements[t, 0]
    cands = np.array([[offers[5, 0], z] for z in range(81) if tiles[z] == 0][:3], np.int64)
    land = np.zeros(81, np.bool_)
    both = bots.eval_placements(tiles, land, offers, 5, 0, 0, cands, 6, 77, bots.TWO_DECK, bots.WEIGHTS)
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        one = bots.eval_placements(tiles, land, offers, 5, 0, 0, cands, 6, 77, bots.TWO_DECK, bots.WEIGHTS)
    finally:
        numba.set_num_threads(threads)
    assert (both == one).all()
    assert both.std() > 0  # six different futures, not one repeated


def test_a_fresh_process_can_start_with_the_analysis_kernel():
    # A cached serial function that calls a parallel kernel, loaded first in a process, once
    # ran on a thread pool never started and crashed; importing the bots starts it.
    import subprocess
    import sys
    from pathlib import Path
    code = ("import numpy as np\n"
            "from scorebook.engines.tiny_islands.players import random_game\n"
            "from scorebook.engines.tiny_islands.deck import two_deck_offers\n"
            "from scorebook.engines.tiny_islands import bots\n"
            "o = two_deck_offers(np.random.default_rng(12)); p, _, _ = random_game(o, 0)\n"
            "v = bots.eval_placements(np.zeros(81, np.int64), np.zeros(81, np.bool_), o, 0, 0, 0,"
            " np.array([p[0]], np.int64), 2, 3, bots.TWO_DECK, bots.WEIGHTS)\n"
            "print(v.shape)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600,
                          cwd=Path(__file__).resolve().parent.parent)
    assert done.returncode == 0 and done.stdout.strip() == "(1, 2)", done.stderr[-2000:]


def test_before_the_first_drawing_land_tiles_follow_the_planned_island():
    offers = two_deck_offers(np.random.default_rng([5, 1]))
    tiles, land = np.zeros(81, np.int64), np.zeros(81, np.bool_)
    none = np.zeros(81, np.bool_)
    weights = bots.WEIGHTS.copy()
    weights[15:18] = [-0.519, -3.606, -1.661]  # the plan's weights as fitted (weights.json leaves the plan off)
    for t in range(search.PLAN_FROM + 2):
        tile, cell = heuristic.heuristic_placement(tiles, land, offers[t], 3, 0, bots.WEIGHTS, none, False)
        tiles[cell] = tile
    t = search.PLAN_FROM + 2
    plan, planned = search._first_island_plan(tiles, land, offers, t, 0, 0, 1, weights, 0)
    assert planned and E.check_region(land, plan) == E.OK
    # no plan before turn PLAN_FROM, after the first drawing, or when its weights are zero
    assert not search._first_island_plan(tiles, land, offers, search.PLAN_FROM - 1, 0, 0, 1, weights, 0)[1]
    assert not search._first_island_plan(tiles, land, offers, t, 1, 0, 1, weights, 0)[1]
    assert not search._first_island_plan(tiles, land, offers, t, 0, 0, 1, bots.WEIGHTS, 0)[1]  # off
    # a Forest offered everywhere: where it goes depends on the plan, and a strong plan wins
    offer = np.array([FOREST, 0, FOREST, 0], np.int64)
    strong = weights.copy()
    strong[16] = -50.0
    for zone in range(27):
        offer[1] = offer[3] = zone
        _, cell = heuristic.heuristic_placement(tiles, land, offer, 3, 0, strong, plan, True)
        if cell >= 0 and any(plan[z] and tiles[z] == 0 for z in range(81) if ZONE_MASK[zone, z]):
            assert plan[cell], zone


def test_halving_commits_to_a_first_island_chosen_among_legal_candidates():
    offers = two_deck_offers(np.random.default_rng([5, 2]))
    tiles, land = np.zeros(81, np.int64), np.zeros(81, np.bool_)
    none = np.zeros(81, np.bool_)
    for t in range(search.COMMIT_FROM[0]):
        tile, cell = heuristic.heuristic_placement(tiles, land, offers[t], 3, 0, bots.WEIGHTS, none, False)
        tiles[cell] = tile
    t = int(search.COMMIT_FROM[0])
    wp = search._plan_weights(bots.WEIGHTS)
    assert (wp[15:18] == search.COMMIT_W).all() and (wp[:15] == bots.WEIGHTS[:15]).all()
    fresh = planner._plan_candidates(tiles, land, offers, t, 0, wp, none, False)
    assert 2 <= fresh.shape[0] <= planner.COMMIT_PLANS + len(planner.SMALL_AREAS)
    for i, plan in enumerate(fresh):
        assert E.check_region(land, plan) == E.OK
        assert all(not (plan == fresh[j]).all() for j in range(i))
    # the small candidates come first, one a size class, each within its class
    sizes = [int(p.sum()) for p in fresh[:len(planner.SMALL_AREAS) - 1]]
    assert all(lo < n <= hi for n, lo, hi in zip(sizes, planner.SMALL_AREAS[:-1], planner.SMALL_AREAS[1:]))
    # the incumbent stays a candidate, first
    held = planner._plan_candidates(tiles, land, offers, t, 0, wp, fresh[-1], True)
    assert (held[0] == fresh[-1]).all()
    bots.seed_random(3)
    chosen = search.choose_plan(tiles, land, offers, t, 0, 0, 2, wp, bots.TWO_DECK, bots.HALVING_EFFORT,
                              bots.HALVING_SCREEN, fresh[-1], True)
    assert any((chosen == p).all() for p in held)
    # a committed play-out ends in a legal, scored game; its first island starts from the plan
    bots.seed_random(4)
    value = search._play_on(tiles, land, offers, t, 0, 0, bots.HALVING_EFFORT, wp, bots.HALVING_SCREEN, chosen, True)
    assert value > 0
    board = tiles.copy()
    for k in range(t, 9):
        tile, cell = heuristic.heuristic_placement(board, land, offers[k], 3, 0, wp, chosen, True)
        board[cell] = tile
    cells, n = search._committed_drawing(board, land, offers, 8, 0, 1, wp, 0, chosen)
    drawn = E.listed_region(land, cells, n)[1]
    assert E.check_region(land, drawn) == E.OK
    assert (drawn & chosen).sum() >= chosen.sum() // 2
    # the first drawing weighs the committed island beside the planner's regions
    bots.seed_random(5)
    cells, n = search.mc_drawing(board, land, offers, 8, 0, 0, 2, 4, wp, bots.TWO_DECK, bots.HALVING_EFFORT,
                               bots.HALVING_SCREEN, chosen, True)
    assert E.check_region(land, E.listed_region(land, cells, n)[1]) == E.OK


def test_halving_commits_to_the_second_island_clear_of_the_first():
    offers = two_deck_offers(np.random.default_rng([6, 1]))
    tiles, land = np.zeros(81, np.int64), np.zeros(81, np.bool_)
    none = np.zeros(81, np.bool_)
    t = int(search.COMMIT_FROM[1])
    for k in range(t):
        tile, cell = heuristic.heuristic_placement(tiles, land, offers[k], 3, 0, bots.WEIGHTS, none, False)
        tiles[cell] = tile
    bots.seed_random(1)
    cells, n = planner.plan_drawing(tiles, land, 0, 30, 30, 1, bots.WEIGHTS)
    land ^= E.listed_region(land, cells, n)[1]
    wp = search._plan_weights(bots.WEIGHTS)
    plans = planner._plan_candidates(tiles, land, offers, t, 0, wp, none, False)
    assert plans.shape[0] >= 2
    for plan in plans:  # each a legal second drawing: it keeps off the first shoreline
        assert E.check_region(land, plan) == E.OK
    # the placements read the plan as the land it leaves: the first island's land counts as planned land
    plan = plans[0]
    land_cell = next(z for z in range(81) if land[z] and not plan[z] and tiles[z] == 0)
    off_cell = next(z for z in range(81) if not land[z] and not plan[z] and tiles[z] == 0)
    before = heuristic._optimistic_total(tiles, land, 2, 0)
    mountain = MOUNTAIN
    planned = heuristic._weighted_value(tiles, land, mountain, land_cell, 2, 0, wp, before, plan, True)
    unplanned = heuristic._weighted_value(tiles, land, mountain, land_cell, 2, 0, wp, before, plan, False)
    assert planned == unplanned  # w[15] (land in the plan) is 0 in the committed weights
    outside = heuristic._weighted_value(tiles, land, mountain, off_cell, 2, 0, wp, before, plan, True)
    assert outside == heuristic._weighted_value(tiles, land, mountain, off_cell, 2, 0, wp, before, plan, False) + wp[16]
    # a committed play-out from the second phase draws the plan (climbed) and ends legal and scored
    bots.seed_random(2)
    assert search._play_on(tiles, land, offers, t, 1, 0, bots.HALVING_EFFORT, wp, bots.HALVING_SCREEN, plan, True) > 0
    held = planner._plan_candidates(tiles, land, offers, t, 0, wp, plan, True)
    chosen = search.choose_plan(tiles, land, offers, t, 1, 0, 2, wp, bots.TWO_DECK, bots.HALVING_EFFORT,
                              bots.HALVING_SCREEN, plan, True)
    assert any((chosen == p).all() for p in held)
