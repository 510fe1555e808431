"""Fit the Tiny Islands heuristic's weights (``engines/tiny_islands/weights.json``) by a hill
climb: change one to three weights at random, keep the change when the mean score of games over
a fixed set of two-deck shuffles goes up. Run by hand; ``--out`` writes a weights file with
everything needed to rerun the fit (the command, seeds, data size, the start and the scores).
Check the result on the bot benchmark's own shuffles (``tiny_islands_bots.py``), which the
climb never sees, before it replaces the package's file.

    python benchmarks/tune_tiny_islands_heuristic.py [--games 400] [--steps 80] [--shuffle-seed 77]
        [--seed 1] [--bot heuristic | --bot halving:8 | --bot playout] [--only 12,14] [--start weights.json]
        [--workers 2] [--out engines/tiny_islands/weights.json]

The same arguments give the same weights: the shuffles, the steps and the games' own seeds
all come from the seeds given.
"""
from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from datetime import date
from multiprocessing import Pool
from pathlib import Path

import numpy as np

from scorebook.engines.tiny_islands import bots, engine as E, search, weights as package_weights
from scorebook.engines.tiny_islands.deck import two_deck_offers
from scorebook.engines.tiny_islands.metadata import TURNS

# How far one step moves each weight (standard deviation), by index as in weights.json.
STEP = np.array([0.3, 0.3, 0.5, 1.0, 2.0, 1.0, 1.5, 2.0, 0.3, 0.3, 0.3, 0.3, 0.4, 0.2, 0.5, 0.5, 0.5, 0.5])
_shuffles: list[np.ndarray] = []


def _totals(job: tuple[np.ndarray, int, int, int, int]) -> list[int]:
    """Final totals of the part's games: whole games of the bot, or (bot -1) one play-out from
    the empty board, as halving:N's play-outs play, seeded by the game's number."""
    weights, bot, rollouts, part, parts = job
    out = []
    empty_tiles, empty_land = np.zeros(81, np.int64), np.zeros(81, np.bool_)
    for g in range(part, len(_shuffles), parts):
        offers = _shuffles[g]
        if bot < 0:
            bots.seed_random(g)
            out.append(int(search.rollout(empty_tiles, empty_land, offers, 0, 0, 0, bots.HALVING_EFFORT, weights,
                                        bots.HALVING_SCREEN)))
            continue
        placements, regions, lens = bots.play_weighted(offers, bot, rollouts, g, 0, weights, bots.TWO_DECK)
        res = E.replay(offers, placements, regions, lens, np.ones(3, np.bool_), TURNS, 0)
        out.append(int(res[7][8]) if res[0] == E.OK else -100)
    return out


def mean_score(pool, weights: np.ndarray, bot: int, rollouts: int, parts: int) -> float:
    """The games' mean with these heuristic weights and the package's policy (as the bots play)."""
    played = np.concatenate((weights, package_weights.POLICY))
    jobs = [(played, bot, rollouts, p, parts) for p in range(parts)]
    results = pool.map(_totals, jobs) if pool else [_totals(job) for job in jobs]
    return float(np.mean([s for part in results for s in part]))


def fit(games: int, steps: int, shuffle_seed: int, seed: int, bot: str, only: list[int], start: np.ndarray,
        workers: int) -> dict:
    """The climb; returns the fitted weights with its scores (mean over the shuffles)."""
    name, _, n = bot.partition(":")
    bot_id, rollouts = (-1, 0) if name == "playout" else (bots.BOT_NAMES.get(name, bots.HEURISTIC), int(n or 0))
    _shuffles[:] = [two_deck_offers(np.random.default_rng([shuffle_seed, g])) for g in range(games)]
    movable = np.array(only or range(len(start)))
    best_w = start.copy()
    rng = np.random.default_rng(seed)
    pool = Pool(workers) if workers > 1 else None
    try:
        clock = time.perf_counter()
        first = best = mean_score(pool, best_w, bot_id, rollouts, workers)
        print(f"start {best:.2f} ({time.perf_counter() - clock:.1f} s a step)", flush=True)
        for step in range(steps):
            w = best_w.copy()
            k = rng.choice(movable, size=min(len(movable), int(rng.integers(1, 4))), replace=False)
            w[k] = np.round(w[k] + rng.normal(0, STEP[k]), 3)  # what is scored is what the file holds
            s = mean_score(pool, w, bot_id, rollouts, workers)
            if s > best:
                best, best_w = s, w
                print(f"step {step}: {s:.2f} {np.round(w, 3).tolist()}", flush=True)
    finally:
        if pool:
            pool.close()
    return {"weights": best_w.tolist(), "start_mean": round(first, 4), "fitted_mean": round(best, 4)}


def main(argv: list[str] | None = None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=400, help="two-deck shuffles the climb plays")
    parser.add_argument("--steps", type=int, default=80)
    parser.add_argument("--shuffle-seed", type=int, default=77)
    parser.add_argument("--seed", type=int, default=1, help="the climb's own random steps")
    parser.add_argument("--bot", default="heuristic",
                        help="the games scored: heuristic, halving:N, or playout (one of halving:N's play-outs "
                             "from the empty board a shuffle)")
    parser.add_argument("--only", default="", help="comma-separated indices of the weights that move (default all)")
    parser.add_argument("--start", help="a weights file to start from (default: the package's weights.json)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", help="write the fitted weights file here")
    args = parser.parse_args(argv)
    start_text = Path(args.start).read_text() if args.start else None
    start = package_weights.load_weights(start_text)
    only = [int(k) for k in args.only.split(",") if k]
    result = fit(args.games, args.steps, args.shuffle_seed, args.seed, args.bot, only, start, args.workers)
    print(f"best {result['fitted_mean']:.2f} weights {result['weights']}")
    if args.out:
        described = json.loads(start_text or package_weights.weights_text())
        command = "python benchmarks/tune_tiny_islands_heuristic.py " + shlex.join(argv if argv is not None
                                                                                  else sys.argv[1:])
        described["weights"] = package_weights.load_weights(json.dumps(result)).tolist()
        described["made_by"] = [f"{command} (on {date.today().isoformat()})"]
        described["fit"] = {"games": args.games, "steps": args.steps, "shuffle_seed": args.shuffle_seed,
                            "seed": args.seed, "bot": args.bot, "only": only, "start": start.tolist(),
                            "start_mean": result["start_mean"], "fitted_mean": result["fitted_mean"]}
        Path(args.out).write_text(json.dumps(described, indent=2) + "\n")
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
