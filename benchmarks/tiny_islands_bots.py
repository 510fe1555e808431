"""Tiny Islands bot strength and speed: mean score ± standard error and seconds a game over
naive two-deck shuffles (fixed seed) and over the 4 shared sample shuffles (../shared), for
each strength; and the analysis of one game (wall time, standard errors reached).

    python benchmarks/tiny_islands_bots.py [--games 200] [--mc-games 50] [--write]
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

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from _report import write_section  # noqa: E402

from engines.tiny_islands import bots, engine as E  # noqa: E402
from engines.tiny_islands.deck import two_deck_offers  # noqa: E402

SAMPLES = ROOT.parent / "shared" / "data" / "tinyislands" / "tinybot-samples.txt"


def run(bot: int, rollouts: int, shuffles: list[np.ndarray]) -> tuple[float, float, float]:
    scores, start = [], time.perf_counter()
    for g, offers in enumerate(shuffles):
        placements, regions, lens = bots.play(offers, bot, rollouts, g, 0)
        res = E.replay(offers, placements, regions, lens, np.ones(3, np.bool_), 26, 0)
        assert res[0] == E.OK
        scores.append(res[7][8])
    s = np.array(scores, float)
    return s.mean(), s.std(ddof=1) / np.sqrt(len(s)) if len(s) > 1 else 0.0, (time.perf_counter() - start) / len(s)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--mc-games", type=int, default=50)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    naive = [two_deck_offers(np.random.default_rng([2026, g])) for g in range(max(args.games, args.mc_games))]
    shared = []
    if SAMPLES.exists():
        from records import tinybot
        for n, line in enumerate(SAMPLES.read_text().splitlines(), 1):
            r = tinybot.parse_line(line, n)
            shared.append(np.array([(o.tile1, o.zone1, o.tile2, o.zone2) for o in r.offers], np.int64))
    bots.play(naive[0], bots.MC, 1, 0, 0)
    rows = []
    for label, bot, rollouts, n in (("heuristic", bots.HEURISTIC, 0, args.games), ("mc:4", bots.MC, 4, args.mc_games)):
        m, se, sec = run(bot, rollouts, naive[:n])
        sm = run(bot, rollouts, shared) if shared else None
        rows.append((label, n, m, se, sec, sm))
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    out = [f"### Tiny Islands bots ({date.today().isoformat()}, {machine})", "",
           "`python benchmarks/tiny_islands_bots.py` — naive two-deck shuffles from seed 2026; the published "
           "rules' scoring.", "",
           "| bot | shuffles | mean ± s.e. | s a game | 4 shared shuffles: mean ± s.e. |", "|---|---:|---:|---:|---:|"]
    for label, n, m, se, sec, sm in rows:
        shared_col = f"{sm[0]:.1f} ± {sm[1]:.1f}" if sm else "-"
        out.append(f"| {label} | {n} | {m:.1f} ± {se:.1f} | {sec:.2f} | {shared_col} |")
    report = "\n".join(out) + "\n"
    print(report)
    if args.write:
        write_section("### Tiny Islands bots (", report)


if __name__ == "__main__":
    main()
