"""Tsuro in one run: placements evaluated per second (the inner loop of every bot), jitted
next to the plain-Python reference board (engines/tsuro/reference.py); whole games per
second; and the bots against each other (share of the win of the first bot, seats rotating,
95% interval).

    python benchmarks/tsuro.py [--write] [--games 200] [--samples 16]
"""
from __future__ import annotations

import argparse
import math
import platform
import sys
import time
from datetime import date
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from _report import publish  # noqa: E402


class Spec:
    def __init__(self, text: str):
        name, _, number = text.partition(":")
        self.name, self.number = name, int(number) if number else None


def positions(count: int):
    from scorebook.engines.tsuro import bots as B, rules as R
    from scorebook.engines.tsuro.game import ENGINE
    out = []
    for g in range(count):
        setup = ENGINE.new_game(np.random.default_rng(g), {})
        s = ENGINE.initial_state(setup, 2 + g % 7)
        rng = B.new_rng(g, 0)
        events = np.zeros((B.EVENTS, 3), np.int64)
        for _ in range(3 + g % 15):
            if s[R.OVER]:
                break
            t, r = B.cheap_choice(s, B.RANDOM, rng)
            R.turn(s, t, r, R.NO_ORDER, events)
        if not s[R.OVER]:
            out.append(s)
    return out


def speed(lines: list[str]) -> None:
    from scorebook.engines.tsuro import bots as B, reference as REF, rules as R
    states = positions(60)
    boards = []
    for s in states:
        names = [f"p{q}" for q in range(int(s[R.N]))]
        board = REF.Board({names[q]: (R.square_name(int(s[R.POS + q]) // 8), int(s[R.POS + q]) % 8)
                           if s[R.POS + q] >= 0 else "edge" for q in range(int(s[R.N]))})
        board.tiles = {divmod(sq, R.COLS): (int(s[R.BOARD + sq]), int(s[R.ROT + sq]))
                       for sq in range(R.SQUARES) if s[R.BOARD + sq] >= 0}
        boards.append((board, names[int(s[R.TO_MOVE])], R.hand(s, int(s[R.TO_MOVE]))))
    from numba import njit

    @njit
    def evaluate_all(stack: np.ndarray, reps: int) -> int:  # the loop in numba too, as the bots run it
        n = 0
        for _ in range(reps):
            for i in range(stack.shape[0]):
                s = stack[i]
                p = s[R.TO_MOVE]
                for k in range(R.HAND):
                    t = s[R.HANDS + R.HAND * p + k]
                    if t >= 0:
                        for r in range(4):
                            R.eliminates_mover(s, t, r)
                            n += 1
        return n

    stack = np.array(states)
    evaluate_all(stack, 1)
    t0 = time.perf_counter()
    n = evaluate_all(stack, 200)
    jit = n / (time.perf_counter() - t0)
    t0 = time.perf_counter()
    m = 0
    for _ in range(5):
        for board, who, hand in boards:
            for t in hand:
                for r in range(4):
                    board.outcome(who, t, r)
                    m += 1
    ref = m / (time.perf_counter() - t0)
    from scorebook.engines.tsuro.game import ENGINE
    s = ENGINE.initial_state(ENGINE.new_game(np.random.default_rng(0), {}), 4)
    B.play_out(s.copy(), B.SIMPLE, B.new_rng(0, 0))
    t0 = time.perf_counter()
    games = 2000
    for g in range(games):
        s = ENGINE.initial_state(ENGINE.new_game(np.random.default_rng(g), {}), 4)
        B.play_out(s, B.SIMPLE, B.new_rng(g, 0))
    per_game = (time.perf_counter() - t0) / games
    lines += ["| measure | jitted | plain Python (reference.py) | ratio |", "|---|---|---|---|",
              f"| placements evaluated per second (tile, paths followed, eliminations) | {jit:,.0f} | {ref:,.0f} | "
              f"{jit / ref:,.0f}x |",
              f"| whole 4-player games of the simple AI per second (setup in Python) | {1 / per_game:,.0f} | | |", ""]


def match(lines: list[str], a: str, others: list[str], games: int) -> None:
    from scorebook.engines.tsuro.game import ENGINE
    from scorebook.engines.tsuro.rules import score as score_of
    names = [a] + others
    n = len(names)
    shares, t0 = [], time.perf_counter()
    for g in range(games):
        setup = ENGINE.new_game(np.random.default_rng([2026, g]), {})
        shift = g % n
        seated = names[shift:] + names[:shift]
        played = ENGINE.play(setup, [Spec(x) for x in seated], g, {})
        s = ENGINE.initial_state(setup, n)
        for move in played.moves:
            ENGINE.apply(s, move)
        winners = score_of(s, seated)["winners"]
        seat = (0 - shift) % n
        shares.append(1 / len(winners) if seat in winners else 0.0)
    p = float(np.mean(shares))
    half = 1.96 * float(np.std(shares, ddof=1)) / math.sqrt(games)
    lines.append(f"| {a} | {', '.join(others)} | {games} | {p:.3f} ({max(0, p - half):.3f}-{min(1, p + half):.3f}) | "
                 f"{1 / n:.3f} | {(time.perf_counter() - t0) / games:.2f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--samples", type=int, default=16)
    args = ap.parse_args()
    lines = ["### Tsuro (benchmarks/tsuro.py)", "",
             f"{date.today().isoformat()}, {platform.machine()}, {platform.python_version()}, one thread.", "",
             "**Speed, jitted next to plain Python**", ""]
    speed(lines)
    mc = f"mc:{args.samples}"
    lines += [f"**Bots** ({args.games} games a row, seeds 2026/0-{args.games - 1}, seats rotating; the share of the "
              "win of the first bot, a shared win of k counting 1/k; 95% interval)", "",
              "| bot | against | games | share of the win (95% CI) | an equal share | s a game |",
              "|---|---|---|---|---|---|"]
    for a, others, games in (("simple", ["random"], args.games), ("simple", ["random"] * 3, args.games),
                             (mc, ["random"], args.games // 2), (mc, ["simple"], args.games // 2),
                             (mc, ["simple"] * 3, args.games // 2)):
        match(lines, a, others, games)
        print(lines[-1], file=sys.stderr, flush=True)
    report = "\n".join(lines) + "\n"
    publish("### Tsuro", report, args.write)


if __name__ == "__main__":
    main()
