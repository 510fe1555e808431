"""Iwoki speed and strength, in one run: Greedy-vs-Random games per second and Minimax
decision times at depths 1-4, jitted next to the same code run as plain Python
(NUMBA_DISABLE_JIT=1, in a child process); and the paper's Table 1 rows (Minimax depth 1-3
against Random and Greedy, 100 games each), for both search trees.

    python benchmarks/iwoki.py [--write] [--games 100]

The reference simulator, measured on this machine by the issue's author: 11.8 Greedy-vs-Random
games/s and 13.2 s per depth-3 decision.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from _report import publish  # noqa: E402

REFERENCE_GAMES_PER_S = 11.8
REFERENCE_DEPTH3_S = 13.2
PAPER = {  # Table 1: (depth, opponent) -> wins, losses, draws, mean difference, decision time s, nodes
    (1, "random"): (100, 0, 0, 24.5, 0.22, "339"), (2, "random"): (100, 0, 0, 26.94, 1.97, "3,498"),
    (3, "random"): (100, 0, 0, 26.5, 16.13, "44,200"), (1, "greedy"): (47, 49, 4, 0.7, 0.3, "455"),
    (2, "greedy"): (71, 25, 4, 5.29, 3.54, "6,315"), (3, "greedy"): (90, 8, 2, 7.5, 50.27, "140,505"),
}


def positions(count: int = 8):
    from scorebook.engines.iwoki import agents as A
    from scorebook.engines.iwoki import engine as E
    out = []
    for g in range(count):
        s = A.deal(np.random.default_rng([11, g]), 0)
        acts, _ = A.play_game(s, A.GREEDY, A.GREEDY, 0, 0, g, 1 << 40, 16)
        for o in acts[:4 + g % 4]:
            E.apply_option(s, o[:5])
        out.append(s)
    return out


def measure(jit_games: int, depths: list[int], python_budget: float) -> dict:
    """Runs in this process (jitted) or in a child with NUMBA_DISABLE_JIT=1 (plain Python)."""
    from scorebook.engines.iwoki import agents as A
    out = {}
    A.many_games(A.GREEDY, A.RANDOM, 0, 0, 2, 1, 0)
    start = time.perf_counter()
    n = 0
    while True:
        A.many_games(A.GREEDY, A.RANDOM, 0, 0, jit_games, 1 + n, 0)
        n += jit_games
        if time.perf_counter() - start > python_budget / 4:
            break
    out["games_per_s"] = n / (time.perf_counter() - start)
    A.minimax(positions(1)[0], 2, 1 << 40, np.zeros(2, np.int64), False)  # load the compiled search first
    for d in depths:
        times, nodes = [], []
        start = time.perf_counter()
        for s in positions():
            stats = np.zeros(2, np.int64)
            t = time.perf_counter()
            A.minimax(s, d, 1 << 40, stats, False)
            times.append(time.perf_counter() - t)
            nodes.append(int(stats[0]))
            if time.perf_counter() - start > python_budget:
                break
        out[f"depth{d}"] = (float(np.mean(times)), float(np.mean(nodes)), len(times))
    return out


def table1(games: int, sim_tree: bool = False) -> list[dict]:
    from scorebook.engines.iwoki import agents as A
    rows = []
    trees = (("minimax", A.MINIMAX),) + ((("minimax-sim", A.MINIMAX_SIM),) if sim_tree else ())
    for tree, code in trees:
        for opponent, ocode in (("random", A.RANDOM), ("greedy", A.GREEDY)):
            for depth in (1, 2, 3):
                diffs, decisions, nodes = [], 0, 0
                start = time.perf_counter()
                for g in range(games):
                    s = A.deal(np.random.default_rng([2021, g]), 0)
                    if g % 2 == 0:
                        _, st = A.play_game(s, code, ocode, depth, 0, g, 1 << 40, 16)
                        me, other = 0, 1
                    else:
                        _, st = A.play_game(s, ocode, code, 0, depth, g, 1 << 40, 16)
                        me, other = 1, 0
                    diffs.append(int(st[me, 2] - st[other, 2]))
                    decisions += int(st[me, 0])
                    nodes += int(st[me, 1])
                seconds = time.perf_counter() - start
                d = np.array(diffs)
                rows.append({"tree": tree, "opponent": opponent, "depth": depth, "games": games,
                             "wins": int((d > 0).sum()), "losses": int((d < 0).sum()), "draws": int((d == 0).sum()),
                             "difference": float(d.mean()), "decision_s": seconds / max(decisions, 1),
                             "nodes": nodes / games})
    return rows


def hidden(games: int = 40, samples: int = 8) -> tuple[int, int, int, float, float, float]:
    """The sampling agent (sees only its own hand) against Greedy, seats alternating."""
    from scorebook.engines.iwoki import agents as A
    diffs, start = [], time.perf_counter()
    for g in range(games):
        s = A.deal(np.random.default_rng([77, g]), 0)
        if g % 2 == 0:
            _, st = A.play_game(s, A.SAMPLER, A.GREEDY, 0, 0, g, 1 << 40, samples)
            diffs.append(int(st[0, 2] - st[1, 2]))
        else:
            _, st = A.play_game(s, A.GREEDY, A.SAMPLER, 0, 0, g, 1 << 40, samples)
            diffs.append(int(st[1, 2] - st[0, 2]))
    d = np.array(diffs)
    return (int((d > 0).sum()), int((d < 0).sum()), int((d == 0).sum()), float(d.mean()),
            float(d.std(ddof=1) / np.sqrt(len(d))), (time.perf_counter() - start) / games)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--sim-tree", action="store_true", help="Table 1 with the simulator's tree too")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:  # plain Python: the same code with the jit off
        print(json.dumps(measure(2, [1, 2, 3], 60.0)))
        return
    jit = measure(2000, [1, 2, 3, 4], 20.0)
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    child = subprocess.run([sys.executable, __file__, "--child"], env=env, capture_output=True, text=True, cwd=ROOT)
    py = json.loads(child.stdout.strip().splitlines()[-1]) if child.returncode == 0 else {}
    rows = table1(args.games, args.sim_tree)
    hw, hl, hd, hm, hse, hs = hidden()
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    out = [f"### Iwoki ({date.today().isoformat()}, {machine})", "",
           "`python benchmarks/iwoki.py` — jitted next to the same code with `NUMBA_DISABLE_JIT=1` (plain Python), "
           "and the reference simulator's figures measured by the issue's author.", "",
           "| measure | jitted | plain Python | ratio | reference simulator | vs reference |", "|---|---:|---:|---:|---:|---:|"]
    g_py = py.get("games_per_s")
    out.append(f"| Greedy vs Random, games/s | {jit['games_per_s']:,.0f} | {g_py:,.2f} | {jit['games_per_s'] / g_py:,.0f}x "
               f"| {REFERENCE_GAMES_PER_S} | {jit['games_per_s'] / REFERENCE_GAMES_PER_S:,.0f}x |" if g_py else
               f"| Greedy vs Random, games/s | {jit['games_per_s']:,.0f} | - | - | {REFERENCE_GAMES_PER_S} | "
               f"{jit['games_per_s'] / REFERENCE_GAMES_PER_S:,.0f}x |")
    for d in (1, 2, 3, 4):
        t, nodes, k = jit[f"depth{d}"]
        p = py.get(f"depth{d}")
        ref = f"| {REFERENCE_DEPTH3_S} | {REFERENCE_DEPTH3_S / t:,.0f}x |" if d == 3 else "| - | - |"
        pcol = f"{p[0]:.3f} | {p[0] / t:,.0f}x" if p else "- | -"
        out.append(f"| Minimax depth {d}, s a decision ({nodes:,.0f} nodes, {k} positions) | {t:.4f} | {pcol} {ref}")
    out += ["", f"Table 1 replicated ({args.games} games a row, seats alternating, simulator-2021 rules, perfect "
            "information). `minimax`: a draw keeps the turn in the tree (the simulator's tree, levels "
            "alternating strictly, is `minimax-sim`: `--sim-tree`). Decision time is pure search time per Minimax decision (the paper's "
            "column is game time per move, spec §10.12).", "",
            "| agent | vs | depth | W-L-D | mean difference | s a decision | nodes a game | paper W-L-D | paper difference |",
            "|---|---|---:|---|---:|---:|---:|---|---:|"]
    for r in rows:
        pw = PAPER.get((r["depth"], r["opponent"]))
        paper = f"{pw[0]}-{pw[1]}-{pw[2]} | {pw[3]}" if pw else "- | -"
        out.append(f"| {r['tree']} | {r['opponent']} | {r['depth']} | {r['wins']}-{r['losses']}-{r['draws']} | "
                   f"{r['difference']:+.2f} | {r['decision_s']:.4f} | {r['nodes']:,.0f} | {paper} |")
    out += ["", f"Hidden information: `sampler:8` (sees only its own hand; 8 redeals of the unseen tiles, every "
            f"option played out Greedy against Greedy) against Greedy, 40 games: {hw}-{hl}-{hd}, mean difference "
            f"{hm:+.2f} ± {hse:.2f}, {hs:.2f} s a game."]
    report = "\n".join(out) + "\n"
    publish("### Iwoki (", report, args.write)


if __name__ == "__main__":
    main()
