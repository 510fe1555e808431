"""What the Game of Islands analysis's values leave out of the final margin, measured.

A line's value is the margin as far as the search sees: while more than 400 lines are legal, one
line ahead and then the islands open to both shared out (``bots.shared_out_margin``); two lines
ahead after that; exact once the search reaches the end. Here lines are played on to the end of
the grid instead: on the empty
grid and from positions of greedy games (seeds fixed), greedy's line and random legal lines are each played on
``--playouts`` times (greedy, ties at random, and exact from 28 legal lines left: the analysis's
own endgame), and the mover's mean margin is set against the analysis's value of the line. The
spread of the difference between the lines of a position (less the play-outs' own noise; method
of moments pooled over positions, a bootstrap over positions for the 90% interval) is what the
values miss when they rank lines; its mean, what they miss of the margin itself.

    python benchmarks/game_of_islands_values.py [--sizes 10 12 14] [--stages start opening middle]
        [--positions 8] [--lines 5] [--playouts 80] [--jobs 2] [--write]
"""
from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from datetime import date
from pathlib import Path

import numpy as np
from numba import njit

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _report import publish  # noqa: E402

from scorebook import registry  # noqa: E402
from scorebook.analyze.game_of_islands import DEEP_BELOW, SOLVE_BELOW, position_values  # noqa: E402
from scorebook.engines.game_of_islands import bots as B  # noqa: E402
from scorebook.engines.game_of_islands.engine import (apply_line, claim_near, count_legal_lines,  # noqa: E402
                                                      legal_lines, new_state)

OPTIONS = registry.get_game("game-of-islands").info.analysis.options  # the analysis's depth and budget


@njit(cache=True)
def playout_margin(n, used0, diag0, owner0, seed, solve_below, budget):
    """The margin of the rest of the grid for the player to move, both sides playing greedily
    (ties at random) until ``solve_below`` legal lines are left, then exactly."""
    np.random.seed(seed)
    used = used0.copy()
    diag = diag0.copy()
    owner = owner0.copy()
    sgn = 1
    total = 0
    player = 0
    while True:
        left = count_legal_lines(n, used, diag)
        if left == 0:
            return total
        if left <= solve_below:
            value, _, complete = B.solve(n, used, diag, owner, budget)
            if complete:
                return total + sgn * value
        x1, y1, x2, y2 = B.greedy_line(n, used, diag, owner)
        total += sgn * B.move_gain(n, used, diag, owner, x1, y1, x2, y2)
        apply_line(n, used, diag, x1, y1, x2, y2)
        claim_near(n, used, diag, owner, player, x1, y1, x2, y2)
        sgn = -sgn
        player = 1 - player


def position(n: int, seed: int, plies: int):
    """The grid after ``plies`` lines of a greedy game (-1: until ``DEEP_BELOW`` lines or fewer
    are legal, where the analysis starts to look two lines ahead), and the lines drawn."""
    used, diag, owner = new_state(n)
    drawn = 0
    for line in B.play_game(n, B.GREEDY, B.GREEDY, seed, 0, 0):
        if drawn == plies or (plies < 0 and count_legal_lines(n, used, diag) <= DEEP_BELOW):
            break
        apply_line(n, used, diag, *map(int, line))
        claim_near(n, used, diag, owner, drawn % 2, *map(int, line))
        drawn += 1
    return used, diag, owner, drawn


def position_task(task):
    """One position's candidate lines: (legal lines, [(mean less the analysis's value, s.e.,
    s.d.), ...], seconds, play-outs)."""
    n, seed, plies, lines, playouts = task
    used, diag, owner, drawn = position(n, seed, plies)
    legal = legal_lines(n, used, diag)
    rng = np.random.default_rng(seed)
    candidates = [tuple(map(int, B.greedy_line(n, used, diag, owner)))]
    candidates += [tuple(map(int, legal[i])) for i in rng.choice(legal.shape[0], lines - 1, replace=False)]
    value_of = {}
    for line in candidates:  # each valued as the analysis values the line played
        valued, values, _ = position_values(n, used, diag, owner, line, OPTIONS["depth"], OPTIONS["budget"])
        value_of[line] = int(values[[tuple(map(int, each)) for each in valued].index(line)])
    start = time.perf_counter()
    out = []
    for line in candidates:
        u, d, o = used.copy(), diag.copy(), owner.copy()
        gain = B.move_gain(n, u, d, o, *line)
        apply_line(n, u, d, *line)
        claim_near(n, u, d, o, drawn % 2, *line)
        margins = np.array([gain - playout_margin(n, u, d, o, 1000 * seed + k, SOLVE_BELOW, OPTIONS["budget"])
                            for k in range(playouts)], float)
        out.append((margins.mean() - value_of[line], margins.std(ddof=1) / np.sqrt(playouts), margins.std(ddof=1)))
    return legal.shape[0], out, time.perf_counter() - start, playouts * len(candidates)


def spread(rows: np.ndarray) -> float:
    """The variance, within a position, of what the lines' play-outs give beyond the analysis's
    values: the observed variance of the means less their mean squared standard error, pooled
    over positions."""
    means, errors = rows[:, :, 0], rows[:, :, 1]
    return float(np.mean(means.var(axis=1, ddof=1) - (errors ** 2).mean(axis=1)))


STAGES = {"start": 0, "opening": 4, "middle": -1}  # lines drawn before the position (-1: see ``position``)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 12, 14])
    parser.add_argument("--stages", nargs="+", choices=list(STAGES), default=list(STAGES))
    parser.add_argument("--positions", type=int, default=8, help="positions a grid size and stage")
    parser.add_argument("--lines", type=int, default=5, help="lines a position: greedy's and random ones")
    parser.add_argument("--playouts", type=int, default=80, help="play-outs a line")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    tasks = [(n, seed, STAGES[stage], args.lines, args.playouts)
             for stage in args.stages for n in args.sizes for seed in range(1, args.positions + 1)]
    start = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(position_task, tasks))
    wall = time.perf_counter() - start
    table = []
    rng = np.random.default_rng(0)
    for stage in args.stages:
        for n in args.sizes:
            mine = [r for t, r in zip(tasks, results) if t[0] == n and t[2] == STAGES[stage]]
            rows = np.array([r[1] for r in mine])  # position, line, (mean less value, s.e., s.d.)
            boot = [spread(rows[rng.integers(0, len(rows), len(rows))]) for _ in range(2000)]
            lo, hi = (np.sqrt(max(v, 0.0)) for v in np.percentile(boot, [5, 95]))
            sd_lines = np.sqrt(max(spread(rows), 0.0))
            bias, bias_se = rows[:, :, 0].mean(), rows[:, :, 0].mean(axis=1).std(ddof=1) / np.sqrt(len(rows))
            per_playout = sum(r[2] for r in mine) / sum(r[3] for r in mine)
            greedy_edge = float((rows[:, 0, 0] - rows[:, 1:, 0].mean(axis=1)).mean())
            table.append(f"| {stage} | {n}x{n} | {int(np.mean([r[0] for r in mine]))} | {len(mine)} x {args.lines} | "
                         f"{float(rows[:, :, 2].mean()):.1f} | **{sd_lines:.2f}** ({lo:.2f} to {hi:.2f}) | "
                         f"{bias:+.2f} ± {bias_se:.2f} | {greedy_edge:+.2f} | {per_playout:.3f} |")
            print(table[-1], flush=True)
    day = date.today().isoformat()
    where = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    report = f"""### The Game of Islands analysis: what its values leave out ({day}, {where})

`python benchmarks/game_of_islands_values.py --playouts {args.playouts} --positions {args.positions} --lines {args.lines}`
({wall / 60:.0f} min on {args.jobs} processes): positions of greedy games (fixed seeds): the empty grid, where
four corner islands can be taken at once, the opening (4 lines drawn; in both the analysis looks one
line ahead, then shares out the islands open to both) and the middle game (the first position
with {DEEP_BELOW} legal lines or fewer; two lines ahead). Greedy's line and random legal lines are each
played on to the end of the grid {args.playouts} times (greedy, ties at random; exact from {SOLVE_BELOW} legal lines
left, the analysis's own endgame), and the mover's mean margin is set against the analysis's value of
the line. What the value leaves out: its spread between the lines of a position (s.d., less the
play-outs' noise; 90% bootstrap interval over positions) and its mean.

| stage | grid | legal lines | positions x lines | s.d. of one play-out | s.d. left out, between lines | mean left out | left out of greedy's line, less the others' | seconds a play-out |
|---|---|---:|---:|---:|---:|---:|---:|---:|
{chr(10).join(table)}

On the empty grid greedy's line takes a corner island, and the values count what that leaves to
both: played on, its lead over random lines is what the values give it, within a quarter of a point
(the last column). Between lines the values leave out a quarter of a point or less (s.d.) in the
opening, except on the empty 10x10 grid (0.69, the interval reaching 0), and under half a point in
the middle game, where the two-line values are 0.4 low on average (the mover's next line is not
counted), alike for every line. Before the islands open to both were shared out (one line ahead,
an island taken at once a full point), the empty grid's rows were 0.85, 0.67 and 0.45, the mean
-0.18 to -0.48, and greedy's lead 0.5 to 1 point smaller than its values
(benchmarks/history/goi-analysis-playouts-2026-11-27.md).
"""
    publish("### The Game of Islands analysis: what its values leave out", report, args.write)


if __name__ == "__main__":
    main()
