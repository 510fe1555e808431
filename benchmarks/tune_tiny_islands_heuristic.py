"""Tune the Tiny Islands heuristic's weights (``engines/tiny_islands/bots.py: WEIGHTS``) by a
hill climb: change one to three weights at random, keep the change when the mean score of
heuristic games over a fixed set of two-deck shuffles goes up. Run by hand; paste the result
into WEIGHTS, then check it on the benchmark's own shuffles (``tiny_islands_bots.py``), which
the climb never sees.

    python benchmarks/tune_tiny_islands_heuristic.py [--games 400] [--steps 80] [--shuffle-seed 77]
                                                     [--seed 1] [--start "[w0, w1, ...]"]
"""
from __future__ import annotations

import argparse
import json
import time
from multiprocessing import Pool
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent

from scorebook.engines.tiny_islands import bots, engine as E  # noqa: E402
from scorebook.engines.tiny_islands.deck import two_deck_offers  # noqa: E402
from scorebook.engines.tiny_islands.metadata import TURNS  # noqa: E402

# How far one step moves each weight (standard deviation), by index as in WEIGHTS.
STEP = np.array([0.3, 0.3, 0.5, 1.0, 2.0, 1.0, 1.5, 2.0, 0.3, 0.3, 0.3, 0.3, 0.4, 0.2, 0.5])
_shuffles: list[np.ndarray] = []


def _totals(job: tuple[np.ndarray, int, int]) -> list[int]:
    weights, part, parts = job
    out = []
    for g in range(part, len(_shuffles), parts):
        offers = _shuffles[g]
        placements, regions, lens = bots.play_weighted(offers, bots.HEURISTIC, 0, g, 0, weights, bots.TWO_DECK)
        res = E.replay(offers, placements, regions, lens, np.ones(3, np.bool_), TURNS, 0)
        out.append(int(res[7][8]) if res[0] == E.OK else -100)
    return out


def mean_score(pool: Pool, weights: np.ndarray, parts: int = 2) -> float:
    return float(np.mean([s for part in pool.map(_totals, [(weights, p, parts) for p in range(parts)]) for s in part]))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--steps", type=int, default=80)
    parser.add_argument("--shuffle-seed", type=int, default=77)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--start", help="weights to start from (default: the current WEIGHTS)")
    args = parser.parse_args()
    _shuffles.extend(two_deck_offers(np.random.default_rng([args.shuffle_seed, g])) for g in range(args.games))
    best_w = np.array(json.loads(args.start), float) if args.start else bots.WEIGHTS.copy()
    rng = np.random.default_rng(args.seed)
    with Pool(2) as pool:
        start = time.perf_counter()
        best = mean_score(pool, best_w)
        print(f"start {best:.2f} ({time.perf_counter() - start:.1f} s a step)", flush=True)
        for step in range(args.steps):
            w = best_w.copy()
            k = rng.choice(len(w), size=rng.integers(1, 4), replace=False)
            w[k] += rng.normal(0, STEP[k])
            s = mean_score(pool, w)
            if s > best:
                best, best_w = s, w
                print(f"step {step}: {s:.2f} {np.round(w, 3).tolist()}", flush=True)
    print(f"best {best:.2f} WEIGHTS = {np.round(best_w, 3).tolist()}")


if __name__ == "__main__":
    main()
