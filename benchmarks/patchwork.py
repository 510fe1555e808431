"""Patchwork against the thesis (shared/seeds, a Leiden thesis; its tables in
shared/specs/patchwork.md section 5), in one run:

* speed, jitted next to the plain-Python reference (engines/patchwork/reference.py): fitting
  placements generated per second, random one-player games per second;
* Table 1: the three random players over N games each, side by side with the thesis's;
* Table 4: simulated pure Monte Carlo at 1-1,000 play-outs a move;
* ``best`` on the real and the simulated variant: mean ± s.e. and seconds a game over seeds
  (the one-player game has no chance: seeds vary the planner's ranking), the best game's record;
* two players: a ladder (random, vbrz, mc, best) over seeded circles, seats alternating.

    python benchmarks/patchwork.py [--write] [--quick]
"""
from __future__ import annotations

import argparse
import math
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

THESIS_TABLE1 = {  # player: avg S, sd S, min, max, avg O, avg T, avg B, s a game (C++, Ryzen 9 5900X)
    "random weighted (real)": (-6.62, 11.65, -54, 29, 18.29, 18.53, 13.09, 0.0257),
    "random non-weighted (real)": (1.90, 11.81, -45, 41, 16.33, 18.21, 13.37, 0.0088),
    "random simulated": (12.88, 16.02, -50, 56, 13.90, 18.35, 15.48, 0.0003),
}
THESIS_TABLE4 = {1: (43.19, 65, 0.0048), 10: (66.32, 75, 0.050), 100: (70.63, 78, 0.47), 1000: (71.07, 76, 4.32)}


class Spec:
    def __init__(self, text: str):
        name, _, number = text.partition(":")
        self.name, self.number = name, int(number) if number else None
        self.text = text


def mean_se(xs) -> tuple[float, float]:
    xs = np.asarray(xs, float)
    return float(xs.mean()), float(xs.std(ddof=1) / math.sqrt(len(xs))) if len(xs) > 1 else 0.0


def speed(lines: list[str], quick: bool) -> None:
    from scorebook.engines.patchwork import bots as B, pieces as P, reference as REF, rules as R
    # quilts of random games part-way through
    states = []
    rng = random.Random(1)
    for g in range(20):
        s = R.new_state(P.REAL, np.zeros(0, np.int64))
        moves = np.zeros((B.MAX_MOVES, 3), np.int64)
        n = B.play_solo(s.copy(), B.RANDOM, 0, g, moves)
        t = R.new_state(P.REAL, np.zeros(0, np.int64))
        for m in moves[:rng.randrange(1, n)]:
            R.apply(t, *m)
        states.append(t)
    out = np.empty(P.N_PLACEMENTS, np.int64)
    B.fitting_placements(states[0], 0, out)
    t0 = time.perf_counter()
    count = 0
    reps = 20 if quick else 200
    for _ in range(reps):
        for s in states:
            for p in range(P.N_PATCHES):
                count += B.fitting_placements(s, p, out)
    jit_rate = count / (time.perf_counter() - t0)
    t0 = time.perf_counter()
    ref_count = 0
    for s in states:
        covered = {divmod(c, 9) for c in range(81) if R.board_cells(s, 0) >> c & 1}
        for p in range(P.N_PATCHES):
            ref_count += len(REF.placements(p, covered))
    ref_rate = ref_count / (time.perf_counter() - t0)
    assert ref_count * reps == count
    games = 2000 if quick else 20000
    res = np.zeros((games, 5), np.int64)
    B.random_games(P.REAL, True, 10, 0, res)
    t0 = time.perf_counter()
    B.random_games(P.REAL, True, games, 0, res)
    jit_game = (time.perf_counter() - t0) / games
    t0 = time.perf_counter()
    ref_games = 10 if quick else 50
    for g in range(ref_games):
        REF.random_game("real", random.Random(g), True)
    ref_game = (time.perf_counter() - t0) / ref_games
    lines += ["| measure | jitted | plain Python (reference.py) | ratio |", "|---|---|---|---|",
              f"| fitting placements generated per second | {jit_rate:,.0f} | {ref_rate:,.0f} | {jit_rate / ref_rate:,.0f}x |",
              f"| weighted random real games per second | {1 / jit_game:,.0f} ({jit_game * 1000:.3f} ms a game) | "
              f"{1 / ref_game:,.1f} ({ref_game * 1000:.0f} ms a game) | {ref_game / jit_game:,.0f}x |", "",
              f"The thesis's C++: {THESIS_TABLE1['random weighted (real)'][7] * 1000:.1f} ms a weighted random real game "
              f"on its Ryzen 9 5900X (ours, on this VM, is {THESIS_TABLE1['random weighted (real)'][7] / jit_game:,.0f} "
              "times faster).", ""]


def table1(lines: list[str], quick: bool) -> None:
    from scorebook.engines.patchwork import bots as B, pieces as P
    games = 2000 if quick else 20000
    lines += [f"{games:,} games each (seed 2026); T counts the leather patches, as the thesis prints it.", "",
              "| player | | avg S | sd S | min S | max S | avg O | avg T | avg B | s a game |",
              "|---|---|---|---|---|---|---|---|---|---|"]
    for label, variant, weighted in (("random weighted (real)", P.REAL, True),
                                     ("random non-weighted (real)", P.REAL, False),
                                     ("random simulated", P.SIM, True)):
        out = np.zeros((games, 5), np.int64)
        B.random_games(variant, weighted, 10, 0, out)
        t0 = time.perf_counter()
        B.random_games(variant, weighted, games, 2026, out)
        per = (time.perf_counter() - t0) / games
        s = out[:, 0]
        # shape-less empty squares as the thesis counts them: 81 - bought (the five leather patches not placed)
        empty = out[:, 1] + (5 if variant == P.SIM else 0)
        t = out[:, 2] + out[:, 3]
        th = THESIS_TABLE1[label]
        lines.append(f"| {label} | ours | {s.mean():.2f} | {s.std(ddof=1):.2f} | {s.min()} | {s.max()} | "
                     f"{empty.mean():.2f} | {t.mean():.2f} | {out[:, 4].mean():.2f} | {per:.6f} |")
        lines.append(f"| | thesis | {th[0]} | {th[1]} | {th[2]} | {th[3]} | {th[4]} | {th[5]} | {th[6]} | {th[7]} |")
    lines.append("")


def table4(lines: list[str], quick: bool) -> None:
    from scorebook.engines.patchwork import pieces as P, rules as R, search as S
    lines += ["| play-outs a move | games | avg S (ours) | max S | sd S | s a game | thesis avg | thesis max | thesis s |",
              "|---|---|---|---|---|---|---|---|---|"]
    S.mc_choice(R.new_state(P.SIM, np.zeros(0, np.int64)), 1, False, 0)
    for playouts, reps in ((1, 100), (10, 100), (100, 30), (1000, 10)):
        if quick:
            reps = max(3, reps // 10)
        scores, t0 = [], time.perf_counter()
        for g in range(reps):
            s = R.new_state(P.SIM, np.zeros(0, np.int64))
            d = 0
            while not R.is_over(s):
                d += 1
                for move in S.mc_choice(s, playouts, False, g * 100_003 + d):
                    R.apply(s, *move)
            scores.append(int(R.solo_total(s)))
        per = (time.perf_counter() - t0) / reps
        th = THESIS_TABLE4[playouts]
        lines.append(f"| {playouts:,} | {reps} | {np.mean(scores):.2f} | {max(scores)} | {np.std(scores, ddof=1):.2f} | "
                     f"{per:.3f} | {th[0]} | {th[1]} | {th[2]} |")
    lines.append("")


def best_solo(lines: list[str], quick: bool, effort_real: int, effort_sim: int) -> None:
    from scorebook.engines.patchwork.game import ENGINE
    from scorebook.records.patchwork import NOTATION
    lines += ["| variant | bot | games (seeds) | mean ± s.e. | min | max | s a game | target | thesis |",
              "|---|---|---|---|---|---|---|---|---|"]
    best_record = None
    for variant, effort, target, thesis in (("sim", effort_sim, "≥ 80 at ≤ 60 s", "78.32 (MCTS 80,000 + perfect finish, 28 min)"),
                                            ("real", effort_real, "≥ 75 at ≤ 15 min", "best single game 74 (about 10 h, 24 threads)")):
        games = 3 if quick else (20 if variant == "sim" else 10)
        bots = [Spec(f"best:{effort}")]
        options = {"variant": variant}
        ENGINE.warm_up(bots, options)
        scores, seconds = [], []
        for seed in range(games):
            setup, played, total = played_solo(ENGINE, bots, seed, options)
            scores.append(total)
            seconds.append(played.seconds)
            if variant == "real" and (best_record is None or total > best_record[0]):
                best_record = (total, NOTATION.write_played(setup, played, [(f"best:{effort}", None)],
                                                            {"Event": "benchmarks/patchwork.py", "Round": str(seed)}, None))
        m, se = mean_se(scores)
        lines.append(f"| {variant} | best:{effort} | {games} | {m:.2f} ± {se:.2f} | {min(scores)} | {max(scores)} | "
                     f"{np.mean(seconds):.1f} | {target} | {thesis} |")
    moves = " ".join(line for line in best_record[1].splitlines() if line and not line.startswith("["))
    lines += ["", f"The best real game found ({best_record[0]}), its moves: `{moves}`", ""]


def played_solo(engine, bots, seed: int, options: dict):
    """One game of one player from ``seed``'s setup: (setup, what was played, its final score
    as the rules count it)."""
    setup = engine.new_game(np.random.default_rng(seed), options)
    played = engine.play(setup, bots, seed, options)
    s = engine.initial_state(setup)
    for move in played.moves:
        engine.apply(s, move)
    return setup, played, engine.score(s)["total"]


def mcts_solo(lines: list[str], quick: bool) -> None:
    """UCT on the real quilt by its play-outs a move, beside random-patch, its play-out policy:
    the same shuffles (the quilt has none: the seeds drive the random choices)."""
    from scorebook.engines.patchwork.game import ENGINE
    levels = ["random-patch", "mcts:1", "mcts:10", "mcts:100", "mcts:300", "mcts-raw:100"]
    lines += ["| bot | games | mean ± s.e. | min | max | s a game |", "|---|---|---|---|---|---|"]
    options = {"variant": "real"}
    for level in levels:
        games = 4 if quick else (20 if level.endswith(":300") else 40)
        bots = [Spec(level)]
        ENGINE.warm_up(bots, options)
        scores, seconds = [], []
        for seed in range(games):
            _, played, total = played_solo(ENGINE, bots, seed, options)
            scores.append(total)
            seconds.append(played.seconds)
        m, se = mean_se(scores)
        lines.append(f"| {level} | {games} | {m:.2f} ± {se:.2f} | {min(scores)} | {max(scores)} | "
                     f"{np.mean(seconds):.3f} |")
    lines.append("")


def ladder(lines: list[str], quick: bool, circles: int, mc: int) -> None:
    from scorebook.engines.patchwork.game import ENGINE
    pairs = [("vbrz", "random"), (f"mc:{mc}", "vbrz"), ("best:2", f"mc:{mc}"), ("best:2", "vbrz")]
    if quick:
        circles = 10
    lines += [f"{circles} circles (seeds 0-{circles - 1}), each played twice with the seats swapped; a win is the "
              "higher final (a tie: who reached 53 first); 95% interval by the normal approximation.", "",
              "| A | B | games | A wins | win rate of A (95% CI) | mean margin of A ± s.e. | s a game |",
              "|---|---|---|---|---|---|---|"]
    options = {"variant": "two-player"}
    for a, b in pairs:
        wins, margins, t0 = 0, [], time.perf_counter()
        for c in range(circles):
            setup = ENGINE.new_game(np.random.default_rng([2026, c]), options)
            for seat_a in (0, 1):
                bots = [Spec(a), Spec(b)] if seat_a == 0 else [Spec(b), Spec(a)]
                played = ENGINE.play(setup, bots, c, options)
                s = ENGINE.initial_state(setup)
                for move in played.moves:
                    ENGINE.apply(s, move)
                score = ENGINE.score(s)
                wins += score["winner"] == seat_a
                margins.append(score["final"][seat_a] - score["final"][1 - seat_a])
        n = 2 * circles
        p = wins / n
        half = 1.96 * math.sqrt(p * (1 - p) / n)
        m, se = mean_se(margins)
        lines.append(f"| {a} | {b} | {n} | {wins} | {p:.3f} ({max(0, p - half):.3f}-{min(1, p + half):.3f}) | "
                     f"{m:+.2f} ± {se:.2f} | {(time.perf_counter() - t0) / n:.2f} |")
    lines.append("")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true", help="put the figures into BENCHMARKS.md")
    ap.add_argument("--quick", action="store_true", help="a small run (minutes), to check the script")
    ap.add_argument("--only", default="speed,best,mcts",
                    help="parts to run, of speed,table1,table4,best,mcts,ladder (the thesis's tables and the "
                    "ladder: their last figures are in benchmarks/history/)")
    ap.add_argument("--effort-real", type=int, default=8)
    ap.add_argument("--effort-sim", type=int, default=8)
    ap.add_argument("--circles", type=int, default=200)
    ap.add_argument("--mc", type=int, default=4)
    args = ap.parse_args()
    only = set(args.only.split(","))
    lines = [f"### Patchwork (benchmarks/patchwork.py{' --quick' if args.quick else ''})", "",
             f"{date.today().isoformat()}, {platform.machine()} {platform.processor() or ''}, "
             f"{platform.python_version()}, one thread.", ""]
    sections = [("speed", "Speed, jitted next to plain Python", lambda: speed(lines, args.quick)),
                ("table1", "Thesis Table 1: random players", lambda: table1(lines, args.quick)),
                ("table4", "Thesis Table 4: simulated pure Monte Carlo", lambda: table4(lines, args.quick)),
                ("best", "best against the thesis's headlines",
                 lambda: best_solo(lines, args.quick, args.effort_real, args.effort_sim)),
                ("mcts", "UCT on the real quilt, beside its play-out policy",
                 lambda: mcts_solo(lines, args.quick)),
                ("ladder", "Two players: a ladder", lambda: ladder(lines, args.quick, args.circles, args.mc))]
    for key, title, run in sections:
        if key in only:
            t0 = time.perf_counter()
            lines += [f"**{title}**", ""]
            run()
            print(f"{key}: {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    report = "\n".join(lines) + "\n"
    publish("### Patchwork", report, args.write)


if __name__ == "__main__":
    main()
