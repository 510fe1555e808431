"""Analysis figures: on the 4 TinyBot sample games (../shared), how often the bot's best
placement is TinyBot's, TinyBot's mean loss per placement, and the same for a random-move
game over the same shuffle; wall time to analyse one game of each kind and the standard
errors reached.

    python benchmarks/analysis.py [--rollouts 24] [--max-rollouts 4096] [--write]
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
sys.path.insert(0, str(ROOT / "benchmarks"))

from _report import publish  # noqa: E402
SHARED = ROOT.parent / "shared" / "data"

from scorebook.analyze.loss import analyze_record  # noqa: E402
from scorebook.engines.tiny_islands.players import random_game  # noqa: E402
from scorebook.records import tiny_islands, tinybot  # noqa: E402
from scorebook.records.tiny_islands import NOTATION  # noqa: E402


def placement_stats(report) -> tuple[float, float, float, float, int, int]:
    """Agreement %, mean loss a placement, mean and max standard error, moves over the 0.25
    target, most futures behind one move."""
    placements = [m for m in report["moves"] if not m["played"].startswith("(")]
    agree = np.mean([m["rank"] == 1 for m in placements])
    loss = np.mean([m["loss"] for m in placements])
    se = [m["stderr"] for m in report["moves"] if m["stderr"] is not None]
    over = sum(1 for x in se if x > 0.25)
    most = max(m.get("futures") or 0 for m in report["moves"])
    return 100 * agree, loss, float(np.mean(se)) if se else 0.0, float(np.max(se)) if se else 0.0, over, most


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rollouts", type=int, default=24)
    parser.add_argument("--max-rollouts", type=int, default=4096)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    opts = {"rollouts": args.rollouts, "candidates": 8, "max-rollouts": args.max_rollouts}
    out = []
    lines = (SHARED / "tinyislands" / "tinybot-samples.txt").read_text().splitlines()
    # warm up (compile) on a random game
    first = tinybot.parse_line(lines[0])
    offers = np.array([(o.tile1, o.zone1, o.tile2, o.zone2) for o in first.offers], np.int64)
    warm = tiny_islands.from_arrays(offers, *random_game(offers, 0))
    analyze_record("tiny-islands", NOTATION.trace(warm), players=["x"], options={"rollouts": 1, "candidates": 1})
    rows = []
    times = []
    for n, line in enumerate(lines, 1):
        rec = tinybot.parse_line(line, n)
        start = time.perf_counter()
        rep = analyze_record("tiny-islands", NOTATION.trace(rec), players=["TinyBot"], seed=n, options=opts)
        times.append(time.perf_counter() - start)
        offers = np.array([(o.tile1, o.zone1, o.tile2, o.zone2) for o in rec.offers], np.int64)
        rnd = tiny_islands.from_arrays(offers, *random_game(offers, n), rules="tinybot")
        rrep = analyze_record("tiny-islands", NOTATION.trace(rnd), players=["random"], seed=n, options=opts)
        rows.append((n, rec.recorded["total"], placement_stats(rep), tiny_islands.replay(rnd).score["total"],
                     placement_stats(rrep)))
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    out += [f"### Analysis ({date.today().isoformat()}, {machine})", "",
            f"`python benchmarks/analysis.py --rollouts {args.rollouts} --max-rollouts {args.max_rollouts}` — Tiny "
            f"Islands: the heuristic bot, {args.rollouts} futures per candidate, 8 candidates plus the move played; "
            f"the best and the played move topped up while the loss's standard error is above 0.25, up to "
            f"{args.max_rollouts} futures.", "",
            "| sample | TinyBot total | agreement | TinyBot mean loss | mean / max s.e. | moves over 0.25 | most futures "
            "| s | random total | random agreement | random mean loss |",
            "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for (n, total, (ag, loss, se, mx, over, most), rtotal, (rag, rloss, *_)), took in zip(rows, times):
        out.append(f"| {n} | {total} | {ag:.0f}% | {loss:.2f} | {se:.2f} / {mx:.2f} | {over} | {most} | {took:.1f} "
                   f"| {rtotal} | {rag:.0f}% | {rloss:.2f} |")
    ag = np.mean([r[2][0] for r in rows])
    out += ["", f"Mean agreement with TinyBot {ag:.0f}%, TinyBot's mean loss {np.mean([r[2][1] for r in rows]):.2f} "
            f"points a placement against {np.mean([r[4][1] for r in rows]):.2f} for the random games; "
            f"{np.mean(times):.1f} s to analyse one TinyBot game."]
    # every game's seconds a game, cold and warm: benchmarks/analysis_times.py
    report = "\n".join(out) + "\n"
    publish("### Analysis (", report, args.write)


if __name__ == "__main__":
    main()
