"""Tiny Islands bots, jitted: ``heuristic``, ``mc:N`` and ``halving:N`` (``BOT_NAMES``), each
a whole game by ``play``. The parts, one file each:

* ``weights.py``: the numbers, as data (weights, policy, window value);
* ``heuristic.py``: a placement's value, and the heuristic's placement;
* ``planner.py``: the shoreline planner (a drawing's region) and the candidate islands;
* ``deck.py``: the deck models, and the futures drawn from the cards not seen yet;
* ``search.py``: play-outs, mc:N and halving:N, the analysis' values.

The bots see an offer only when it is drawn: at turn t they read ``offers[:t + 1]``, never
later offers. Futures are drawn under the deck model they are told (``deck_model``): the
two-deck model, or the real one-deck card pattern (spec §7), where the cards already seen
are out of the deck and the half-seen ones (the zones of turn 1, the tiles of turn t) are
completed at random from the cards that fit.

>>> import numpy as np
>>> from scorebook.engines.tiny_islands.deck import two_deck_offers
>>> placements, traces, lens = play(two_deck_offers(np.random.default_rng(0)), HEURISTIC, 0, 1, 0, TWO_DECK)
>>> bool((lens > 0).all()), placements.shape
(True, (26, 2))
"""
from __future__ import annotations

import numpy as np
from scorebook.engines.jit import njit

from .engine import drawing_due, listed_region
from .heuristic import heuristic_placement
from .metadata import CELLS, TURNS
from .planner import _draw_now, last_drawing
from .search import (choose_plan, COMMIT_FROM, COMMITTING, DRAWING_CANDIDATES, DRAWING_FUTURES, _first_island_plan,
                     HALVING_DRAWING_CANDIDATES, HALVING_EFFORT, HALVING_SCREEN, mc_drawing, mc_halving_placement,
                     mc_placement, PLACEMENT_CANDIDATES, _plan_weights, ROLLOUT_EFFORT)
from .weights import heuristic_weights, search_weights, WEIGHTS
# what callers of the bots need beside them: deck models, the analysis' values
from .deck import ONE_DECK, TWO_DECK
from .search import eval_placements, eval_regions, planned_region

__all__ = ["BOT_NAMES", "HEURISTIC", "MC", "HALVING", "ONE_DECK", "TWO_DECK", "WEIGHTS", "HALVING_EFFORT",
           "HALVING_SCREEN", "play", "play_weighted", "seed_random", "heuristic_weights", "search_weights",
           "last_drawing", "eval_placements", "eval_regions", "planned_region"]

HEURISTIC, MC, HALVING = 0, 1, 2
BOT_NAMES = {"heuristic": HEURISTIC, "mc": MC, "halving": HALVING}


def play(offers, bot, rollouts, seed, wave_rule, deck_model):
    """A whole game; returns (placements, traces, lengths) like players.random_game. Drawings
    are written as regions (the cells they enclose). Plain Python on purpose: the jitted game
    always gets every argument, so all callers share one compiled (and cached) signature; a
    default left out in a jitted call compiles the whole bot again. The heuristic bot plays
    with the learned window value (``heuristic_weights``), halving:N with it in its play-outs
    (``search_weights``), mc:N with ``WEIGHTS``."""
    w = heuristic_weights() if bot == HEURISTIC else search_weights() if bot == HALVING else WEIGHTS
    return play_weighted(offers, bot, rollouts, seed, wave_rule, w, deck_model)


@njit(cache=True, nogil=True)  # long: releases the GIL (an interrupt is served at once)
def play_weighted(offers, bot, rollouts, seed, wave_rule, w, deck_model):
    """``play`` with the heuristic's weights given (the tuner's entry point)."""
    np.random.seed(seed)
    tiles = np.zeros(CELLS, np.int64)
    land = np.zeros(CELLS, np.bool_)
    placements = np.full((TURNS, 2), -1, np.int64)
    traces = np.zeros((3, CELLS), np.int64)
    lens = np.zeros(3, np.int64)
    # what halving:N does differently from mc:N beyond its placements: its play-outs, the
    # regions it weighs at the first two drawings
    effort = HALVING_EFFORT if bot == HALVING else ROLLOUT_EFFORT
    screen = HALVING_SCREEN if bot == HALVING else 0
    regions_weighed = HALVING_DRAWING_CANDIDATES if bot == HALVING else DRAWING_CANDIDATES
    top_k = np.int64(PLACEMENT_CANDIDATES)
    d = np.int64(0)
    commit = np.zeros(CELLS, np.bool_)
    committed = np.bool_(False)
    wp = _plan_weights(w)
    for t in range(TURNS):
        if bot == MC and rollouts > 0:
            tile, cell = mc_placement(tiles, land, offers, t, d, wave_rule, rollouts, top_k, w, deck_model)
        elif bot == HALVING and rollouts > 0 and COMMITTING and d < COMMIT_FROM.shape[0] and t >= COMMIT_FROM[d]:
            commit = choose_plan(tiles, land, offers, t, d, wave_rule, rollouts, wp, deck_model, effort, screen, commit,
                                 committed)
            committed = np.bool_(True)
            tile, cell = mc_halving_placement(tiles, land, offers, t, d, wave_rule, rollouts, top_k, wp,
                                              deck_model, effort, screen, commit, committed)
        elif bot == HALVING and rollouts > 0:
            tile, cell = mc_halving_placement(tiles, land, offers, t, d, wave_rule, rollouts, top_k, w,
                                              deck_model, effort, screen, commit, np.bool_(False))
        else:
            plan, planned = _first_island_plan(tiles, land, offers, t, d, wave_rule, np.int64(1), w, np.int64(0))
            tile, cell = heuristic_placement(tiles, land, offers[t], 3 - d, wave_rule, w, plan, planned)
        if tile < 0:
            break
        placements[t, 0] = tile
        placements[t, 1] = cell
        tiles[cell] = tile
        if drawing_due(t + 1):
            if bot != HEURISTIC and rollouts > 0 and t + 1 < TURNS:
                cells, n = mc_drawing(tiles, land, offers, t, d, wave_rule, DRAWING_FUTURES * rollouts,
                                      regions_weighed, w, deck_model, effort, screen, commit, committed)
            elif bot == HALVING and rollouts > 0:
                cells, n = last_drawing(tiles, land, wave_rule, w)
            else:
                cells, n = _draw_now(tiles, land, offers, t, wave_rule, np.int64(1), w, np.int64(0))
            traces[d, :n] = cells[:n]
            lens[d] = n
            _, region = listed_region(land, cells, n)
            land ^= region
            d += 1
            commit = np.zeros(CELLS, np.bool_)  # a plan is for one drawing
            committed = np.bool_(False)
    return placements, traces, lens


@njit(cache=True)
def seed_random(seed):
    """Seed numba's random stream, the one the jitted bots draw from (numpy's is another): what
    ``play_weighted`` does first, for callers of ``rollout`` or the play-outs outside it."""
    np.random.seed(seed)
