"""Monte-Carlo search for the Tiny Islands bots: play-outs to the end of the game
(heuristic placements, planned drawings) over futures drawn from the cards not seen yet, the
same futures for every candidate.

* ``mc:N``: the heuristic's best ``PLACEMENT_CANDIDATES`` placements, each played out N
  times; the best mean wins. The first two drawings likewise: the planner's best
  ``DRAWING_CANDIDATES`` regions, each played out ``DRAWING_FUTURES`` x N times.
* ``halving:N``: mc:N's budget spent by sequential halving: rounds of fresh common futures,
  the better half of the candidates going on after each, so the last two get the most
  futures. Its play-outs screen rectangles (``HALVING_SCREEN``) and climb from every
  ``HALVING_EFFORT``-th; it weighs ``HALVING_DRAWING_CANDIDATES`` regions at the first two
  drawings. Before each drawing it commits to an island (``choose_plan``, from the turns in
  ``COMMIT_FROM``): the candidate whose play-outs, following it, score best; its placements
  and their play-outs then follow that island (``_play_on``).
* ``eval_placements``, ``eval_regions``: the analysis' values, by halving:N's play-outs.

Play-outs run on every core (``prange``).
"""
from __future__ import annotations

import numpy as np
from scorebook.engines.jit import njit, prange

from .. import threads  # noqa: F401  (play-outs run on every core: numba's threads first)
from .deck import _sample_future
from .engine import OK, check_region, drawing_due, legal_placements, listed_region, score_board
from .heuristic import heuristic_placement, _optimistic_total, _weighted_value
from .metadata import CELLS, TURNS
from .planner import (_among, best_drawing, _climb, COMMIT_PLANS, _draw_now, last_drawing, _left_counts, _objective,
                      _plan_candidates, planned_regions, _region_cells)
from .weights import VALUE_AT


# Numbers and flags that jitted code passes on to another jitted function are written
# np.int64(...) / np.bool_(...), counters passed on start as np.int64(0): numba compiles a
# callee again, with all it calls, for every literal value it is handed (and for the literal
# first value of a loop variable). Typed, each function has one signature, and a cold start
# compiles half as much (benchmarks/history/benchmarks-moved-2026-11-27.md, "Compile costs").

# Play-outs plan their drawings from every ROLLOUT_EFFORT-th rectangle: most of a play-out's time.
ROLLOUT_EFFORT = 16


# Before the first drawing, placements follow a plan of the first island from turn PLAN_FROM
# on: the planner's region for the tiles so far, made again every PLAN_EVERY turns (in a
# play-out; every turn at the root). Weights 15-17 say how much the plan counts.
PLAN_FROM = 3
PLAN_EVERY = 3
PLAN_CLIMBS = 3  # rectangles a plan climbs from, as a drawing does (one: half the gain, within noise)


@njit(cache=True)
def _first_island_plan(tiles, land, offers, t, drawings_done, wave_rule, effort, w, screen):
    """(the planned first island as a region mask, whether there is one): the planner's region
    for the tiles placed before turn t, from turn PLAN_FROM until the first drawing."""
    if drawings_done > 0 or t < PLAN_FROM or (w[15] == 0.0 and w[16] == 0.0 and w[17] == 0.0):
        return np.zeros(CELLS, np.bool_), False
    left_land, left_water = _left_counts(offers, t)
    cells, n = best_drawing(tiles, land, wave_rule, left_land, left_water, effort, np.int64(PLAN_CLIMBS), w,
                            screen)
    if n == 0:
        return np.zeros(CELLS, np.bool_), False
    _, region = listed_region(land, cells, n)
    return region, True


@njit(cache=True)
def rollout(tiles, land, offers, t_next, drawings_done, wave_rule, effort, w, screen):
    """Play turns t_next.. with the heuristic and drawings planned with ``effort`` and
    ``screen`` (see ``planned_regions``); returns the final total."""
    return _play_on(tiles, land, offers, t_next, drawings_done, wave_rule, effort, w, screen,
                    np.zeros(CELLS, np.bool_), np.bool_(False))


@njit(cache=True)
def _play_on(tiles, land, offers, t_next, drawings_done, wave_rule, effort, w, screen, plan, committed):
    """``rollout``; when ``committed``, until the next drawing the placements follow the island
    ``plan`` (with ``w``'s plan weights) and that drawing is the plan, climbed
    (``_committed_drawing``)."""
    tiles = tiles.copy()
    land = land.copy()
    d = drawings_done
    planned = committed
    for t in range(t_next, TURNS):
        if committed:
            planned = True
        elif d == 0 and t >= PLAN_FROM and (not planned or (t - PLAN_FROM) % PLAN_EVERY == 0):
            plan, planned = _first_island_plan(tiles, land, offers, t, d, wave_rule, effort, w, screen)
        elif d > 0:
            planned = False
        tile, cell = heuristic_placement(tiles, land, offers[t], 3 - d, wave_rule, w, plan, planned)
        if tile < 0:
            return -100
        tiles[cell] = tile
        if drawing_due(t + 1):
            cells, n = _play_out_drawing(tiles, land, offers, t, d, wave_rule, effort, w, screen, plan, committed)
            _, region = listed_region(land, cells, n)
            land ^= region
            d += 1
            committed = np.bool_(False)  # a plan is for one drawing
    return score_board(tiles, land, wave_rule)[8]


@njit(cache=True)
def _play_out_drawing(tiles, land, offers, t, drawings_done, wave_rule, effort, w, screen, plan, committed):
    """A play-out's drawing after turn t: a committed plan's island, else the planner's."""
    if committed:
        return _committed_drawing(tiles, land, offers, t, wave_rule, effort, w, screen, plan)
    return _draw_now(tiles, land, offers, t, wave_rule, effort, w, screen)


@njit(cache=True)
def _committed_drawing(tiles, land, offers, t, wave_rule, effort, w, screen, plan):
    """The drawing of a committed plan: the plan climbed (or the planner's, when the plan
    is not a legal region)."""
    if check_region(land, plan) != OK:
        return _draw_now(tiles, land, offers, t, wave_rule, effort, w, screen)
    left_land, left_water = _left_counts(offers, t)
    region = plan.copy()
    _climb(tiles, land, region, _objective(tiles, land, region, wave_rule, left_land, left_water, w), wave_rule,
           left_land, left_water, w)
    return _region_cells(region)


# halving:N commits to an island: from turn COMMIT_FROM[d] until drawing d + 1 (the first two
# drawings; the last is exact), its root chooses one among up to COMMIT_PLANS candidates (the
# incumbent, the best rectangle of each size class of SMALL_AREAS clear of earlier shores, the
# planner's best regions) by play-outs that follow it, then searches placements under it; the
# drawing weighs it (climbed) beside the planner's. COMMITTING = False plays the games of
# before the commitment, bit for bit; COMMIT_FROM = [3] those of the first island alone.
COMMITTING = True
COMMIT_FROM = np.array([3, 9])  # the turn from which it commits to the island of each drawing
COMMIT_W = np.array([0.0, -3.0, -1.5])  # plan weights in committed play-outs: land in, land out, water in


@njit(cache=True)
def _plan_weights(w):
    wp = w.copy()
    wp[15] = COMMIT_W[0]
    wp[16] = COMMIT_W[1]
    wp[17] = COMMIT_W[2]
    return wp


@njit(cache=True)
def choose_plan(tiles, land, offers, t, drawings_done, wave_rule, rollouts, wp, deck_model, effort, screen, incumbent,
                has_incumbent):
    """The candidate island for the next drawing whose committed play-outs score best, by
    sequential halving (``rollouts`` x COMMIT_PLANS play-outs in all)."""
    plans = _plan_candidates(tiles, land, offers, t, wave_rule, wp, incumbent, has_incumbent)
    m = plans.shape[0]
    alive = np.arange(m)
    sums = np.zeros(m)
    rounds = _halving_rounds(m)
    budget = rollouts * COMMIT_PLANS
    while alive.shape[0] > 1:
        per = max(1, budget // (rounds * alive.shape[0]))
        out = _region_play_outs(tiles, land, offers, t, drawings_done, wave_rule, plans[alive], per, wp, deck_model,
                                effort, screen, np.bool_(True))
        alive = _better_half(sums, alive, out)
    return plans[alive[0]].copy()


@njit(cache=True)
def _halving_rounds(m):
    """Rounds of sequential halving down to one of m candidates."""
    rounds = 0
    while (1 << rounds) < m:
        rounds += 1
    return rounds


@njit(cache=True)
def _better_half(sums, alive, out):
    """Add a round's play-outs (``out``, a row per candidate still in) to their sums; the
    better half goes on (equal sums: the earlier candidate). The candidates still in have had
    the same futures, so their sums rank them."""
    for i in range(alive.shape[0]):
        sums[alive[i]] += out[i].sum()
    ranked = np.argsort(-sums[alive], kind="mergesort")
    return np.sort(alive[ranked[:(alive.shape[0] + 1) // 2]])


@njit(cache=True)
def _top_placements(tiles, land, offer, drawings_done, wave_rule, w, top_k, plan, planned):
    """The heuristic's best ``top_k`` placements (tile, cell), best first; empty when none."""
    cand = legal_placements(tiles, offer)
    n = cand.shape[0]
    vals = np.empty(n, np.float64)
    before = _optimistic_total(tiles, land, 3 - drawings_done, wave_rule)
    for i in range(n):
        vals[i] = _weighted_value(tiles, land, cand[i, 0], cand[i, 1], 3 - drawings_done, wave_rule, w, before,
                                  plan, planned)
    order = np.argsort(-vals[:n])
    return cand[order[:min(top_k, n)]]


@njit(cache=True)
def mc_placement(tiles, land, offers, t, drawings_done, wave_rule, rollouts, top_k, w, deck_model):
    """The best of the heuristic's top-k placements by mean rollout total (same futures for all)."""
    plan, planned = _first_island_plan(tiles, land, offers, t, drawings_done, wave_rule, np.int64(1), w,
                                       np.int64(0))
    top = _top_placements(tiles, land, offers[t], drawings_done, wave_rule, w, top_k, plan, planned)
    if top.shape[0] == 0:
        return -1, -1
    totals = _placement_play_outs(tiles, land, offers, t, drawings_done, wave_rule, top, rollouts, w,
                                  deck_model, np.int64(ROLLOUT_EFFORT), np.int64(0), plan,
                                  np.bool_(False)).sum(axis=1)
    best = np.argmax(totals)  # the first of equal means, as the heuristic ranked them
    return top[best, 0], top[best, 1]


@njit(cache=True)
def mc_halving_placement(tiles, land, offers, t, drawings_done, wave_rule, rollouts, top_k, w, deck_model, effort,
                         screen, commit, committed):
    """The heuristic's top-k placements by sequential halving: rounds of fresh futures, common
    to the candidates still in; after each, the better half (by mean over all their futures)
    goes on. The same budget as ``mc_placement`` (rollouts x top_k play-outs) in equal parts
    per round, so the last two get the most futures. When ``committed`` (``w`` then carries
    the plan weights), the placements and their play-outs follow the island ``commit``. The
    candidates are ranked without the window value that ``w`` may carry: only the play-outs
    read it (at the root it offered worse candidates: BENCHMARKS.md)."""
    if committed:
        plan, planned = commit, np.bool_(True)
    else:
        plan, planned = _first_island_plan(tiles, land, offers, t, drawings_done, wave_rule, np.int64(1), w,
                                            np.int64(0))
    top = _top_placements(tiles, land, offers[t], drawings_done, wave_rule, w[:VALUE_AT].copy(), top_k, plan,
                          planned)
    m = top.shape[0]
    if m == 0:
        return -1, -1
    alive = np.arange(m)
    sums = np.zeros(m)
    rounds = _halving_rounds(m)
    budget = rollouts * top_k
    while alive.shape[0] > 1:
        per = max(1, budget // (rounds * alive.shape[0]))
        out = _placement_play_outs(tiles, land, offers, t, drawings_done, wave_rule, top[alive], per, w,
                                   deck_model, effort, screen, plan, committed)
        alive = _better_half(sums, alive, out)  # equal sums: the heuristic's order
    return top[alive[0], 0], top[alive[0], 1]


PLACEMENT_CANDIDATES = 10  # the heuristic's best placements that mc:N plays out
DRAWING_CANDIDATES = 8  # regions the planner offers mc:N at the first two drawings
DRAWING_FUTURES = 4  # futures per region: this many times N (three drawings a game: cheap)
# halving:N's play-outs plan from every HALVING_EFFORT-th rectangle and from the best
# HALVING_SCREEN by a cheap first look (better play-outs than mc:N's in the same time); it
# weighs HALVING_DRAWING_CANDIDATES regions at the first two drawings, and its last drawing
# climbs from the best FINAL_DRAWING_CANDIDATES rectangles.
HALVING_EFFORT = 32
HALVING_SCREEN = 6
HALVING_DRAWING_CANDIDATES = 16


@njit(cache=True)
def mc_drawing(tiles, land, offers, t, drawings_done, wave_rule, rollouts, top_n, w, deck_model, effort, screen,
               commit, committed):
    """The planner's best ``top_n`` regions (and, when ``committed``, the island ``commit``
    climbed), each drawn and played out over the same ``rollouts`` futures; returns
    the cells and count of the best mean."""
    left_land, left_water = _left_counts(offers, t)
    regions, values, m = planned_regions(tiles, land, wave_rule, left_land, left_water, np.int64(1), top_n, w,
                                         np.int64(0))
    if committed and check_region(land, commit) == OK:
        cells, n = _committed_drawing(tiles, land, offers, t, wave_rule, np.int64(1), w, np.int64(0), commit)
        _, region = listed_region(land, cells, n)
        if not _among(regions, m, region):
            more = np.zeros((m + 1, CELLS), np.bool_)
            more[:m] = regions[:m]
            more[m] = region
            regions = more
            m += 1
    if m <= 1:
        return _draw_now(tiles, land, offers, t, wave_rule, np.int64(1), w, np.int64(0))
    totals = _region_play_outs(tiles, land, offers, t, drawings_done, wave_rule, regions[:m], rollouts, w,
                               deck_model, effort, screen, np.bool_(False)).sum(axis=1)
    return _region_cells(regions[np.argmax(totals)])


@njit(cache=True)
def _draw_seeds(n):
    """n seeds from the calling thread's stream (a serial function: in a parallel one, numba
    would spread an array draw over the threads and their streams)."""
    return np.random.randint(0, 1 << 30, n)


@njit(cache=True, parallel=True)
def _placement_play_outs(tiles, land, offers, t, drawings_done, wave_rule, cands, rollouts, w, deck_model, effort,
                         screen, plan, committed):
    """Final totals of playing each candidate (tile, cell) at turn t, then the heuristic with
    weights ``w`` and planned drawings, over ``rollouts`` futures drawn from the unseen cards;
    the same futures and random numbers for every candidate. Returns float64[k, rollouts].

    The futures run in parallel over the cores; each is seeded from the caller's stream
    first, so the numbers do not depend on how many threads ran them."""
    k = cands.shape[0]
    out = np.zeros((k, rollouts), np.float64)
    due = drawing_due(t + 1)
    seeds = _draw_seeds(rollouts + 1)
    for r in prange(rollouts):
        np.random.seed(seeds[r])
        future = offers.copy()
        _sample_future(offers, t, future, deck_model)
        sub = np.random.randint(1 << 30)
        board = tiles.copy()
        for j in range(k):
            np.random.seed(sub)  # common random numbers: the same drawing restarts for all
            board[cands[j, 1]] = cands[j, 0]
            if due:
                cells, n = _play_out_drawing(board, land, future, t, drawings_done, wave_rule, effort, w, screen,
                                             plan, committed)
                _, region = listed_region(land, cells, n)
                out[j, r] = rollout(board, land ^ region, future, t + 1, drawings_done + 1, wave_rule, effort, w,
                                    screen)
            else:
                out[j, r] = _play_on(board, land, future, t + 1, drawings_done, wave_rule, effort, w, screen, plan,
                                     committed)
            board[cands[j, 1]] = 0
    np.random.seed(seeds[rollouts])  # the caller's stream goes on the same whoever ran what
    return out


@njit(cache=True, parallel=True)
def _region_play_outs(tiles, land, offers, t, drawings_done, wave_rule, regions, rollouts, w, deck_model, effort,
                      screen, follow):
    """Final totals of drawing each candidate region after turn t, then the heuristic with
    weights ``w``; exact (every future alike) after the last turn. With ``follow``, each region
    is instead an island to commit to from turn t on, its placement included (``_play_on``;
    ``w`` then carries the plan weights). Returns float64[k, rollouts]."""
    k = regions.shape[0]
    out = np.zeros((k, rollouts), np.float64)
    seeds = _draw_seeds(rollouts + 1)
    for r in prange(rollouts):
        np.random.seed(seeds[r])
        future = offers.copy()
        _sample_future(offers, t, future, deck_model)
        sub = np.random.randint(1 << 30)
        for j in range(k):
            np.random.seed(sub)
            if follow:
                out[j, r] = _play_on(tiles, land, future, t, drawings_done, wave_rule, effort, w, screen, regions[j],
                                     np.bool_(True))
                continue
            after = land ^ regions[j]
            if t + 1 >= TURNS:
                out[j, r] = score_board(tiles, after, wave_rule)[8]
            else:
                out[j, r] = rollout(tiles, after, future, t + 1, drawings_done + 1, wave_rule, effort, w, screen)
    np.random.seed(seeds[rollouts])
    return out


@njit(cache=True, nogil=True)  # long: releases the GIL (an interrupt is served at once)
def eval_placements(tiles, land, offers, t, drawings_done, wave_rule, cands, rollouts, seed, deck_model, w):
    """The analysis' placement values: ``_placement_play_outs`` with weights ``w`` and
    halving:N's play-outs, from ``seed``."""
    np.random.seed(seed)
    return _placement_play_outs(tiles, land, offers, t, drawings_done, wave_rule, cands, rollouts, w,
                                deck_model, np.int64(HALVING_EFFORT), np.int64(HALVING_SCREEN),
                                np.zeros(CELLS, np.bool_), np.bool_(False))


@njit(cache=True, nogil=True)  # long: releases the GIL (an interrupt is served at once)
def eval_regions(tiles, land, offers, t, drawings_done, wave_rule, regions, rollouts, seed, deck_model, w):
    """The analysis' drawing values: ``_region_play_outs`` with weights ``w`` and halving:N's
    play-outs, from ``seed``."""
    np.random.seed(seed)
    return _region_play_outs(tiles, land, offers, t, drawings_done, wave_rule, regions, rollouts, w,
                             deck_model, np.int64(HALVING_EFFORT), np.int64(HALVING_SCREEN), np.bool_(False))


@njit(cache=True, nogil=True)  # long: releases the GIL (an interrupt is served at once)
def planned_region(tiles, land, offers, t, wave_rule, w):
    """The bot's own drawing after turn t, as a region mask: the planner's, searched as widely as
    halving:N's at the last drawing."""
    if t + 1 >= TURNS:
        cells, n = last_drawing(tiles, land, wave_rule, w)
    else:
        cells, n = _draw_now(tiles, land, offers, t, wave_rule, np.int64(1), w, np.int64(0))
    _, region = listed_region(land, cells, n)
    return region
