"""Learn the Tiny Islands window value (``engines/tiny_islands/windows.json``) by temporal
differences from the bots' own games. The value of a board after a placement is its optimistic
total (every tile on its right side of the shore), plus a number for each turn, plus one table
entry for each of the board's 100 2x2 windows (corners off the board included): what the four
cells hold, water or land, by the drawings done. The heuristic's placements add the windows'
change to their value (``heuristic._value_delta``), so the table is learned under the very policy
that plays with it: each game is played by the heuristic with the table so far, and after each
placement the value of the board before it moves toward the value of the board after it
(TD(0)), the last toward the final score. A step is normalised by the squared counts of the
entries it moves (a window met twice moves twice).

    python benchmarks/fit_tiny_islands_windows.py train --games 200000 --alpha 0.5 --out windows.json [--start windows.json]
    python benchmarks/fit_tiny_islands_windows.py train --games 300000 --alpha 0.2 --plans --land planned --value-from 1 --start W --out windows.json
    python benchmarks/fit_tiny_islands_windows.py bench windows.json [--shuffles 200 --seed 2026]

The games are two-deck shuffles of ``--shuffle-seed``, numbered on from the starting file's
games, so that a run taken up from its own output plays what one longer run would have played
(the step size aside). ``bench`` plays the heuristic with and without the table on the same
shuffles, paired. The same arguments give the same table.
"""
from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from datetime import date

import numpy as np
from numba import njit

from scorebook.engines.tiny_islands import bots, heuristic, planner, search, weights
from scorebook.engines.tiny_islands.deck import two_deck_offers
from scorebook.engines.tiny_islands.engine import drawing_due, listed_region, score_board
from scorebook.engines.tiny_islands.metadata import CELLS, SIZE, TURNS

N_WINDOWS = (SIZE + 1) * (SIZE + 1)
BATCH = 2000  # games a jitted call plays between reports


@njit(cache=True)
def window_entries(tiles, land, out):
    """The table entry (within a phase) of each of the board's windows, written to ``out``."""
    k = 0
    for r in range(-1, SIZE):
        for c in range(-1, SIZE):
            out[k] = heuristic.window_entry(tiles, land, r, c, np.int64(-1), np.int64(0))
            k += 1


@njit(cache=True)
def _step(w, bias, phase, t, entries, error, alpha, value_from):
    """Move the value of the board whose windows are ``entries`` by ``alpha`` of ``error``;
    before drawing ``value_from`` the table is not read, and only the turn's number moves."""
    if phase < value_from:
        bias[t] += alpha * error
        return
    s = np.sort(entries)
    norm = 1.0  # the turn's own number
    run = 1
    for k in range(1, N_WINDOWS + 1):
        if k < N_WINDOWS and s[k] == s[k - 1]:
            run += 1
        else:
            norm += run * run
            run = 1
    step = alpha * error / norm
    base = weights.VALUE_AT + phase * weights.VALUE_TABLE
    for k in range(N_WINDOWS):
        w[base + entries[k]] += step
    bias[t] += step


@njit(cache=True)
def _board_value(tiles, land, window_land, drawings_done, t, w, bias, entries):
    """The board's value: its optimistic total, the turn's number, and its windows' entries
    (written to ``entries``) read with ``window_land`` as the land."""
    window_entries(tiles, window_land, entries)
    base = weights.VALUE_AT + drawings_done * weights.VALUE_TABLE
    v = heuristic._optimistic_total(tiles, land, np.int64(3 - drawings_done), np.int64(0)) + bias[t]
    for k in range(N_WINDOWS):
        v += w[base + entries[k]]
    return v


@njit(cache=True)
def _commit_now(t, d, plans, coin):
    """Whether a game learned under plans (``--plans``) commits to the island of drawing d + 1
    at turn t: the first island at COMMIT_FROM[0], the second at COMMIT_FROM[1] in half the
    games (the search's play-outs begun before the first drawing play the second island
    freely; those begun after it follow a plan)."""
    if not plans or d >= search.COMMIT_FROM.shape[0] or t != search.COMMIT_FROM[d]:
        return False
    return d == 0 or coin


@njit(cache=True)
def play_games(all_offers, first, w, bias, alpha, learn, plans, value_from, totals):
    """Play each game of ``all_offers`` with the heuristic and the table in ``w``; with
    ``learn``, move the table (and ``bias``) by TD(0) as it goes. Writes the final totals.
    With ``plans``, the games are played as halving:N's committed play-outs are: from
    COMMIT_FROM the placements follow an island (one of the search's candidates, at random;
    ``w`` carries the plan weights) and the drawing is that island, climbed; drawings are
    planned with halving:N's effort. The table's phases before drawing ``value_from`` must be
    0 in ``w``: they are neither read nor learned."""
    entries = np.zeros(N_WINDOWS, np.int64)
    last = np.zeros(N_WINDOWS, np.int64)
    no_plan = np.zeros(CELLS, np.bool_)
    effort = np.int64(bots.HALVING_EFFORT) if plans else np.int64(1)
    screen = np.int64(bots.HALVING_SCREEN) if plans else np.int64(0)
    for g in range(all_offers.shape[0]):
        offers = all_offers[g]
        np.random.seed(first + g)
        coin = np.random.random() < 0.5
        tiles = np.zeros(CELLS, np.int64)
        land = np.zeros(CELLS, np.bool_)
        d = np.int64(0)
        plan = no_plan
        planned = False
        last_value = 0.0
        last_phase = np.int64(0)
        last_t = -1
        total = -100.0
        stuck = False
        for t in range(TURNS):
            if _commit_now(t, d, plans, coin):
                candidates = planner._plan_candidates(tiles, land, offers, np.int64(t), np.int64(0), w, no_plan,
                                                   np.bool_(False))
                plan = candidates[np.random.randint(candidates.shape[0])].copy()
                planned = True
            tile, cell = heuristic.heuristic_placement(tiles, land, offers[t], np.int64(3 - d), np.int64(0), w, plan,
                                                  np.bool_(planned))
            if tile < 0:  # stuck: the game has no score
                stuck = True
                break
            tiles[cell] = tile
            window_land = land ^ plan if planned and w[weights.VALUE_LAND_AT] != 0.0 else land
            value = _board_value(tiles, land, window_land, d, t, w, bias, entries)
            if learn and last_t >= 0:
                _step(w, bias, last_phase, last_t, last, value - last_value, alpha, value_from)
            last[:] = entries
            last_value = value
            last_phase = d
            last_t = t
            if drawing_due(t + 1):
                if planned:
                    cells, n = search._committed_drawing(tiles, land, offers, np.int64(t), np.int64(0), effort, w,
                                                       screen, plan)
                else:
                    cells, n = planner._draw_now(tiles, land, offers, np.int64(t), np.int64(0), effort, w, screen)
                _, region = listed_region(land, cells, n)
                land ^= region
                d += 1
                planned = False
        if not stuck:
            total = float(score_board(tiles, land, np.int64(0))[8])
        if learn and last_t >= 0:
            _step(w, bias, last_phase, last_t, last, total - last_value, alpha, value_from)
        totals[g] = total


def shuffles(seed: int, first: int, n: int) -> np.ndarray:
    """Two-deck shuffles numbered first .. first + n - 1 of ``seed``: shuffle g is the same in
    every run."""
    return np.array([two_deck_offers(np.random.default_rng([seed, g])) for g in range(first, first + n)])


def table_text(table: np.ndarray, land: str, bias: np.ndarray, fit: dict, made_by: list[str]) -> str:
    """The data file: the table's nonzero entries, in thousandths, as (entry, value) pairs."""
    rounded = np.round(table * 1000).astype(np.int64)
    nonzero = np.flatnonzero(rounded)
    data = {
        "about": " ".join(weights.load_window_value.__doc__.split()),
        "made_by": made_by,
        "fit": fit,
        "classes": weights.VALUE_CLASSES,
        "phases": weights.POLICY_PHASES,
        "land": land,
        "turn_bias": [round(float(b), 4) for b in bias],  # the value's number for each turn (not played)
        "entries": [[int(i), int(rounded[i])] for i in nonzero],
    }
    # a key a line, each on one line: readable at the head, compact in its 40,000 entries
    return "{\n" + ",\n".join(f"{json.dumps(k)}: {json.dumps(v, separators=(',', ':'))}" for k, v in data.items()) + "\n}\n"


def train(args) -> None:
    w = np.concatenate((bots.WEIGHTS, np.zeros(weights.N_VALUE), [1.0 if args.land == "planned" else 0.0]))
    if args.plans:  # the weights of halving:N's committed play-outs
        w = search._plan_weights(w)
    bias = np.zeros(TURNS)
    made_by, played = [], 0
    if args.start:
        start = json.loads(open(args.start).read())
        w[weights.VALUE_AT:weights.VALUE_LAND_AT] = weights.window_table(start)
        bias[:] = start["turn_bias"]
        made_by, played = start["made_by"], start["fit"]["games"]
    # the phases before --value-from are played without the table, as halving:N's play-outs
    # are (weights.SEARCH_VALUE_FROM); the file keeps them as they started, for the heuristic bot
    kept = slice(weights.VALUE_AT, weights.VALUE_AT + args.value_from * weights.VALUE_TABLE)
    kept_table = w[kept].copy()
    w[kept] = 0.0
    started = time.perf_counter()
    means = []
    for first in range(played, played + args.games, BATCH):
        n = min(BATCH, played + args.games - first)
        totals = np.zeros(n)
        play_games(shuffles(args.shuffle_seed, first, n), first, w, bias, args.alpha, True, args.plans,
                   np.int64(args.value_from), totals)
        means.append(totals.mean())
        print(f"games {first + n}: {totals.mean():.2f} on the last {n}", flush=True)
    fit = {"games": played + args.games, "shuffle_seed": args.shuffle_seed, "alpha": args.alpha,
           "plans": args.plans, "value_from": args.value_from,
           "mean_of_the_last_batch": round(float(means[-1]), 3),
           "seconds": round(time.perf_counter() - started, 1)}
    made_by = made_by + [f"python benchmarks/fit_tiny_islands_windows.py {shlex.join(sys.argv[1:])} "
                         f"(on {date.today().isoformat()})"]
    w[kept] = kept_table
    with open(args.out, "w") as f:
        f.write(table_text(w[weights.VALUE_AT:weights.VALUE_LAND_AT], args.land, bias, fit, made_by))


def bench(args) -> None:
    table = weights.window_value_weights(open(args.value).read())
    offers = shuffles(args.seed, 0, args.shuffles)
    results = {}
    for name, w in (("without", bots.WEIGHTS), ("with", np.concatenate((bots.WEIGHTS, table)))):
        totals = np.zeros(args.shuffles)
        play_games(offers, 0, w.copy(), np.zeros(TURNS), 0.0, False, False, np.int64(0), totals)
        results[name] = totals
        print(f"heuristic {name} the table: {totals.mean():.2f} ± {totals.std(ddof=1) / np.sqrt(len(totals)):.2f}")
    d = results["with"] - results["without"]
    print(f"paired: {d.mean():+.2f} ± {d.std(ddof=1) / np.sqrt(len(d)):.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("train", help="TD(0) over self-played heuristic games")
    p.add_argument("--games", type=int, required=True)
    p.add_argument("--alpha", type=float, default=0.5)
    p.add_argument("--shuffle-seed", type=int, default=2718)
    p.add_argument("--start", help="a windows file to go on from")
    p.add_argument("--plans", action="store_true",
                   help="play the games as halving:N's committed play-outs (islands planned, then followed)")
    p.add_argument("--land", choices=["drawn", "planned"], default="drawn",
                   help="under a plan, the windows read the land as drawn, or as it will be after the plan")
    p.add_argument("--value-from", type=int, choices=range(weights.POLICY_PHASES), default=0,
                   help="play the phases before this many drawings without the table, and keep them as they "
                        "started (halving:N's play-outs read it from weights.SEARCH_VALUE_FROM)")
    p.add_argument("--out", required=True)
    p = sub.add_parser("bench", help="the heuristic with and without a table, paired")
    p.add_argument("value")
    p.add_argument("--shuffles", type=int, default=200)
    p.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    train(args) if args.command == "train" else bench(args)


if __name__ == "__main__":
    main()
