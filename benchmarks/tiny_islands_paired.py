"""Paired trials of a Tiny Islands bot change: play one level on fixed two-deck shuffles, keep
every game's total and breakdown in a JSON file, and compare with an earlier run's file on the
same shuffles (mean difference ± its standard error). Games run one a core, each on one
thread (the same games as on two threads: the play-outs are seeded per future).

    python benchmarks/tiny_islands_paired.py halving:16 --shuffles 120 --seed 31337 --out new.json [--against old.json]

What it was used for (2026-11-24; seed 31337, 120 shuffles, halving:16, each against the
code of record, 63.12 ± 0.53): candidate regions at the first two drawings planned with the
room terms scaled 1, 2 and 3.5 (-0.48 ± 0.32); 32 regions weighed instead of 16 (-0.23 ± 0.19);
half the regions planned with land tiles left outside free (-0.36 ± 0.28); islands grown
around single groups of tiles, weighed by sequential halving (-0.32 ± 0.39); the same with
placements that group land tiles before the first drawing, at three strengths (+0.36, +0.92
± 0.64, +0.42). The best of those, checked on the benchmark's own 200 shuffles (seed 2026),
gave halving:16 63.1 ± 0.4 against 63.2 ± 0.4 before, slower, and the heuristic 50.0
against 51.3: dropped. See BENCHMARKS.md, "Tiny Islands: what was tried". Later the same
day: halving:N's budget by phase, the root's candidates, two Forest-and-Mountain terms (see
BENCHMARKS.md, "Tiny Islands: search budget by phase"). Then the commitments to a first and a
second island (BENCHMARKS.md, "halving:N commits to a first island" and "... to the second
island too"), and the trials of "Tiny Islands: trials on what the search is offered"
(2026-11-25, seeds 31337 and 4242; halving:64 for the held island).

Each worker compiles (or loads from numba's cache) before its first game, so the seconds a
game are the games' own, compile excluded.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")  # before numba loads: one game a core

from multiprocessing import Pool  # noqa: E402

import numpy as np  # noqa: E402

from scorebook.engines.tiny_islands import bots, engine as E  # noqa: E402
from scorebook.engines.tiny_islands.deck import two_deck_offers  # noqa: E402
from scorebook.engines.tiny_islands.metadata import TURNS  # noqa: E402


def one_game(job: tuple) -> tuple[int, float, list[int]]:
    g, bot, rollouts, shuffle_seed = job
    offers = two_deck_offers(np.random.default_rng([shuffle_seed, g]))
    started = time.perf_counter()
    placements, regions, lens = bots.play(offers, bot, rollouts, g, 0, bots.TWO_DECK)
    seconds = time.perf_counter() - started
    res = E.replay(offers, placements, regions, lens, np.ones(3, np.bool_), TURNS, 0)
    assert res[0] == E.OK
    return int(res[7][8]), seconds, [int(x) for x in res[7]]


def warm_up(bot: int) -> None:
    """Compile (or load from numba's cache) before any game is timed: the times are games only."""
    bots.play(two_deck_offers(np.random.default_rng(0)), bot, 1, 0, 0, bots.TWO_DECK)  # the heuristic ignores the 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("level", help="heuristic, mc:N or halving:N")
    parser.add_argument("--shuffles", type=int, default=120)
    parser.add_argument("--seed", type=int, default=31337, help="the shuffles' seed")
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--out", required=True, help="write every game's total here (JSON)")
    parser.add_argument("--against", help="an earlier run's file on the same shuffles")
    args = parser.parse_args()
    name, _, number = args.level.partition(":")
    bot = bots.BOT_NAMES.get(name, bots.HEURISTIC) if name != "heuristic" else bots.HEURISTIC
    jobs = [(g, bot, int(number or 0), args.seed) for g in range(args.shuffles)]
    warm_up(bot)  # one compile here, then every worker loads it from the cache
    with Pool(args.processes, initializer=warm_up, initargs=(bot,)) as pool:
        games = pool.map(one_game, jobs, chunksize=1)
    totals = np.array([g[0] for g in games], float)
    n = len(totals)
    se = totals.std(ddof=1) / np.sqrt(n) if n > 1 else 0.0
    print(f"{args.level} on {n} shuffles (seed {args.seed}): {totals.mean():.2f} ± {se:.2f}, "
          f"{np.mean([g[1] for g in games]):.2f} s a game on one thread")
    print("breakdown means:", np.round(np.mean([g[2] for g in games], axis=0), 2).tolist())
    with open(args.out, "w") as f:
        json.dump({"level": args.level, "seed": args.seed, "games": games}, f)
    if args.against:
        with open(args.against) as f:
            before = np.array([g[0] for g in json.load(f)["games"]], float)
        if len(before) != n:
            sys.exit(f"{args.against} has {len(before)} games, this run {n}")
        d = totals - before
        print(f"against {args.against}: {d.mean():+.2f} ± {d.std(ddof=1) / np.sqrt(n):.2f} (paired)")


if __name__ == "__main__":
    main()
