"""Game of Islands speed: random playouts per second on 10, 12 and 14 grids, jitted next to
the plain-Python reference in the same run; bot move times; the largest endgame (legal lines
left) the search solves exactly within 1 s.

    python benchmarks/game_of_islands.py [--write]
"""
from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from datetime import date
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from _report import publish  # noqa: E402

from scorebook.engines.game_of_islands import engine as E  # noqa: E402
from scorebook.engines.game_of_islands import reference as R  # noqa: E402
from scorebook.engines.game_of_islands.bots import GREEDY, RANDOM, SEARCH, play_game, solve  # noqa: E402


def playouts(n: int, seconds: float = 3.0) -> tuple[float, float]:
    E.random_playouts(n, 5, 0)
    count = 200
    while True:
        start = time.perf_counter()
        E.random_playouts(n, count, 1)
        took = time.perf_counter() - start
        if took > seconds / 2:
            jit = count / took
            break
        count *= 4
    start = time.perf_counter()
    k = 0
    while time.perf_counter() - start < seconds:
        R.playout(n, random.Random(k))
        k += 1
    return jit, k / (time.perf_counter() - start)


def endgame_position(n: int, lines_left: int, seed: int):
    """A random position with about ``lines_left`` legal lines left."""
    np.random.seed(seed)
    used, diag, owner = E.new_state(n)
    while E.count_legal_lines(n, used, diag) > lines_left:
        x1, y1, x2, y2 = E.random_line(n, used, diag)
        E.apply_line(n, used, diag, x1, y1, x2, y2)
        E.claim_near(n, used, diag, owner, 0, x1, y1, x2, y2)
    return used, diag, owner


def largest_solved(n: int = 14, limit: float = 1.0, positions: int = 5) -> list[tuple[int, float, float]]:
    """(lines left, median seconds, max seconds) of exact solves, growing until the median passes ``limit``."""
    solve(4, *E.new_state(4), 10**6)
    rows = []
    for left in range(8, 80, 2):
        times = []
        for seed in range(positions):
            used, diag, owner = endgame_position(n, left, seed)
            actual = E.count_legal_lines(n, used, diag)
            start = time.perf_counter()
            value, work, complete = solve(n, used, diag, owner, 10**12)
            times.append(time.perf_counter() - start)
            assert complete
        rows.append((left, float(np.median(times)), max(times), actual))
        if np.median(times) > limit:
            break
    return rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    rows = [(n, *playouts(n)) for n in (10, 12, 14)]
    bots = []
    for n in (10, 14):
        for label, a, b in (("greedy vs random", GREEDY, RANDOM), ("search vs greedy", SEARCH, GREEDY)):
            play_game(n, a, b, 0, 4, 300_000)
            start = time.perf_counter()
            lines = play_game(n, a, b, 1, 4, 300_000)
            bots.append((n, label, len(lines), (time.perf_counter() - start) / len(lines)))
    solved = largest_solved()
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    out = [f"### Game of Islands ({date.today().isoformat()}, {machine})", "",
           "`python benchmarks/game_of_islands.py` — random playouts from the empty grid, each player claiming "
           "every island at once.", "",
           "| grid | jitted playouts/s | plain Python playouts/s | ratio |", "|---|---:|---:|---:|"]
    out += [f"| {n} x {n} | {j:,.0f} | {p:,.1f} | {j / p:,.0f}x |" for n, j, p in rows]
    out += ["", "Bot move time (one game each, budget 300,000 line evaluations a move for search), seconds a line: "
            + "; ".join(f"{n} x {n} {label} {s:.4f} ({k} lines)" for n, label, k, s in bots) + "."]
    within = [r for r in solved if r[1] <= 1.0]
    best = within[-1] if within else None
    slowest = solved[-1]
    out += ["", "Exact endgame solving on 14 x 14 (5 random positions per size, alpha-beta with a transposition "
            "table): " + (f"the largest solved within 1 s (median) has {best[0]} legal lines left" if best else
                          "none solved within 1 s") +
            f" ({slowest[0]} lines: median {slowest[1]:.1f} s, slowest {slowest[2]:.0f} s)."]
    report = "\n".join(out) + "\n"
    publish("### Game of Islands (", report, args.write)


if __name__ == "__main__":
    main()
