"""Tiny Islands play-outs: how well and how fast the bots' play-out policies play a whole game
alone (heuristic placements, planned drawings), side by side on the same naive two-deck
shuffles: mc:N's planner (a random sixteenth of the rectangles), a random eighth,
halving:N's (a random 32nd plus the best six by a cheap first look), and the full planner.

    python benchmarks/tiny_islands_rollouts.py [--games 2000] [--write]
"""
from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from datetime import date
from pathlib import Path

import numpy as np
from numba import njit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from _report import publish  # noqa: E402

from scorebook.engines.tiny_islands import bots, search  # noqa: E402
from scorebook.engines.tiny_islands.deck import two_deck_offers  # noqa: E402

POLICIES = [  # label, effort, screen
    (f"mc:N's play-outs (1 rectangle in {search.ROLLOUT_EFFORT} at random)", search.ROLLOUT_EFFORT, 0),
    ("1 rectangle in 8 at random", 8, 0),
    (f"halving:N's play-outs (1 in {bots.HALVING_EFFORT} at random + the best {bots.HALVING_SCREEN} screened)",
     bots.HALVING_EFFORT, bots.HALVING_SCREEN),
    ("every rectangle (the real game's planner)", 1, 0),
]


@njit
def _seed(seed):
    np.random.seed(seed)  # numba's own generator (the planner samples rectangles from it)


def play_outs(shuffles, effort, screen):
    empty_tiles = np.zeros(81, np.int64)
    empty_land = np.zeros(81, np.bool_)
    _seed(1)
    start = time.perf_counter()
    totals = np.array([search.rollout(empty_tiles, empty_land, o, 0, 0, 0, effort, bots.WEIGHTS, screen)
                       for o in shuffles], float)
    return totals, (time.perf_counter() - start) / len(shuffles)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    shuffles = [two_deck_offers(np.random.default_rng([7, g])) for g in range(args.games)]
    for _, effort, screen in POLICIES:  # compile (or load from the cache) before timing
        play_outs(shuffles[:2], effort, screen)
    rows = []
    for label, effort, screen in POLICIES:
        totals, sec = play_outs(shuffles, effort, screen)
        rows.append((label, totals, sec))
        print(label, f"{totals.mean():.2f}", f"{sec * 1000:.2f} ms", flush=True)
    base_totals, base_sec = rows[0][1], rows[0][2]
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    out = [f"### Tiny Islands play-outs ({date.today().isoformat()}, {machine})", "",
           f"`python benchmarks/tiny_islands_rollouts.py` — one play-out a shuffle from the empty board, "
           f"{args.games} naive two-deck shuffles (seed 7), one core; the difference is paired on the same shuffles.",
           "", "| play-out policy | mean ± s.e. | vs mc:N's | ms a play-out | time vs mc:N's |",
           "|---|---:|---:|---:|---:|"]
    for label, totals, sec in rows:
        d = totals - base_totals
        out.append(f"| {label} | {totals.mean():.2f} ± {totals.std(ddof=1) / np.sqrt(len(totals)):.2f} | "
                   f"{d.mean():+.2f} ± {d.std(ddof=1) / np.sqrt(len(d)):.2f} | {sec * 1000:.2f} | "
                   f"{sec / base_sec:.2f}x |")
    report = "\n".join(out) + "\n"
    publish("### Tiny Islands play-outs (", report, args.write)


if __name__ == "__main__":
    main()
