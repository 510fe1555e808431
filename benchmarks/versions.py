"""This checkout against an older one, side by side in one run: ingest throughput, analysis
time (with a hash of the numbers, which must be the same), and heuristic Tiny Islands games
(the placement generator and the scoring the bots run millions of times).

    git worktree add /tmp/old <commit>
    python benchmarks/versions.py --old /tmp/old [--rounds 3] [--write]

Each measurement runs in a fresh process, the two versions alternating, warmed up first
(numba's cache loaded); the best and the median of ``--rounds`` are reported (a VM's speed
drifts by a third within minutes: the median ratio is the figure to read). The older checkout may predate the
``scorebook`` package (top-level ``records``, ``analyze``, ``engines``).
"""
from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from _checkout import USE_CHECKOUT, run_task  # noqa: E402
from _report import publish  # noqa: E402

SHARED_LINES = ROOT.parent / "shared" / "data" / "tinyislands" / "tinybot-samples.txt"
ANALYSED = {  # a sample of each game (the same file in both checkouts)
    "tiny-islands": "samples/tiny-islands/tiny-islands-mc4-s9-0001.pgn",
    "game-of-islands": "samples/game-of-islands/game-of-islands-greedy-random-10-s12-0001.pgn",
    "iwoki": "samples/iwoki/iwoki-minimax2-greedy-s5-0001.pgn",
    "tsuro": "samples/tsuro/tsuro-random-1-simple-2-random-3-simple-4-random-5-s2-0001.pgn",
    "patchwork": "samples/patchwork/patchwork-best2-vbrz-two-player-s6-0001.pgn",
}
PGN_SAMPLES = ["samples/tsuro/tsuro-simple-random-s5-0001.pgn", "samples/patchwork/patchwork-best2-real-s3-0001.pgn",
               "samples/game-of-islands/game-of-islands-greedy-random-10-s12-0001.pgn",
               "samples/tiny-islands/tiny-islands-mc4-s9-0001.pgn", "samples/iwoki/iwoki-minimax2-greedy-s5-0001.pgn"]

TASK = USE_CHECKOUT + r'''
import hashlib, importlib, json, tempfile, time
task, arg, root = sys.argv[1], sys.argv[2], sys.argv[3]
prefix = "scorebook." if use_checkout(root) else ""
ingest = importlib.import_module(prefix + "records.ingest")
Store = importlib.import_module(prefix + "records.store").Store
tmp = tempfile.mkdtemp()
if task == "ingest":
    text = Path(arg).read_text()
    ingest.ingest_text(Store(tmp + "/w.db"), "\n".join(text.splitlines()[:8]) + "\n", "warm.txt")
    store = Store(tmp + "/b.db")
    start = time.perf_counter()
    out = ingest.ingest_text(store, text, "bench.txt")
    seconds = time.perf_counter() - start
    assert all(o["status"] == "ingested" for o in out)
    print(json.dumps({"seconds": seconds, "records": len(out)}))
elif task == "analyze":
    run = importlib.import_module(prefix + "analyze.run")
    store = Store(tmp + "/a.db")
    rid = ingest.ingest_text(store, (Path(root) / arg).read_text(), "a.pgn")[0]["id"]
    game = store.get(rid)["game"]
    cheap = {"tiny-islands": "rollouts:1,candidates:1,max-rollouts:1", "game-of-islands": "depth:1",
             "iwoki": "samples:1", "tsuro": "samples:1", "patchwork": "playouts:1"}[game]
    run.analyze_one(store, rid, cheap, 1)  # load the compiled code
    start = time.perf_counter()
    report = run.analyze_one(store, rid, None, 0)
    seconds = time.perf_counter() - start
    numbers = json.dumps([[m["value_best"], m["value_played"], m["loss"], m["stderr"]] for m in report["moves"]])
    print(json.dumps({"seconds": seconds, "hash": hashlib.sha256(numbers.encode()).hexdigest()[:12]}))
elif task == "heuristic":
    import numpy as np
    bots = importlib.import_module(prefix + "engines.tiny_islands.bots")
    deck = importlib.import_module(prefix + "engines.tiny_islands.deck")
    offers = [deck.two_deck_offers(np.random.default_rng([7, g])) for g in range(int(arg))]
    bots.play(offers[0], bots.HEURISTIC, 0, 0, 0, 0)
    start = time.perf_counter()
    totals = []
    for g, o in enumerate(offers):
        placements, traces, lens = bots.play(o, bots.HEURISTIC, 0, g, 0, 0)
        totals.append(int(placements[:, 1].sum()) + int(lens.sum()))
    seconds = time.perf_counter() - start
    print(json.dumps({"seconds": seconds, "hash": hashlib.sha256(str(totals).encode()).hexdigest()[:12]}))
'''


def run(checkout: Path | None, task: str, arg) -> dict:
    return run_task(TASK, checkout, task, str(arg))


def bench_lines(n: int) -> Path:
    """n distinct real-sized TinyBot lines (the shared samples, relabelled)."""
    base = SHARED_LINES.read_text().splitlines()
    path = Path(tempfile.mkdtemp()) / "lines.txt"
    path.write_text("\n".join(base[i % len(base)].rsplit(" #", 1)[0] + f" #bench-{i}" for i in range(n)) + "\n")
    return path


def bench_pgn(copies: int) -> Path:
    """Scorebook notation of every game, each sample ``copies`` times, each copy made distinct by a tag."""
    texts = [(ROOT / p).read_text().strip() for p in PGN_SAMPLES]
    path = Path(tempfile.mkdtemp()) / "records.pgn"
    path.write_text("\n\n".join(f'[BenchCopy "{i}"]\n' + t for i in range(copies) for t in texts) + "\n")
    return path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--old", type=Path, required=True, help="a checkout of the older commit")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--records", type=int, default=5000)
    ap.add_argument("--heuristic-games", type=int, default=40)
    ap.add_argument("--write", action="store_true", help="put the figures in BENCHMARKS.md")
    args = ap.parse_args()
    old = args.old.resolve()
    commit = subprocess.run(["git", "-C", str(old), "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    lines = bench_lines(args.records)
    tasks = [("ingest", str(lines), f"ingest {args.records} TinyBot lines (records/s)"),
             ("ingest", str(bench_pgn(args.records // 10 // len(PGN_SAMPLES))),
              f"ingest {args.records // 10 // len(PGN_SAMPLES) * len(PGN_SAMPLES)} records of the five games in "
              "Scorebook notation (records/s)")]
    tasks += [("analyze", path, f"analyze a {game} sample, default bot (s)") for game, path in ANALYSED.items()]
    tasks += [("heuristic", str(args.heuristic_games), f"{args.heuristic_games} heuristic Tiny Islands games (s)")]
    rows = []
    for task, arg, label in tasks:
        values = {"old": [], "new": []}
        hashes = {"old": set(), "new": set()}
        for _ in range(args.rounds):
            for name, checkout in (("old", old), ("new", None)):
                out = run(checkout, task, arg)
                values[name].append(out["records"] / out["seconds"] if task == "ingest" else out["seconds"])
                hashes[name].add(out.get("hash"))
        same = hashes["old"] == hashes["new"] and len(hashes["new"]) == 1
        pick = max if task == "ingest" else min
        best = {k: pick(v) for k, v in values.items()}
        median = {k: sorted(v)[len(v) // 2] for k, v in values.items()}
        speed = (lambda o, n: n / o) if task == "ingest" else (lambda o, n: o / n)
        rows.append((label, best["old"], best["new"], speed(best["old"], best["new"]), median["old"], median["new"],
                     speed(median["old"], median["new"]), "-" if task == "ingest" else ("yes" if same else "NO")))
        print(f"{label}: best old {best['old']:.2f} new {best['new']:.2f}; median old {median['old']:.2f} "
              f"new {median['new']:.2f} ({rows[-1][6]:.2f}x); same numbers: {rows[-1][7]}", flush=True)
    table = "\n".join(f"| {r[0]} | {r[1]:,.2f} | {r[2]:,.2f} | {r[3]:.2f}x | {r[4]:,.2f} | {r[5]:,.2f} | {r[6]:.2f}x "
                      f"| {r[7]} |" for r in rows)
    report = f"""### This checkout against an older commit ({date.today()})

`python benchmarks/versions.py --old <checkout of {commit}> --rounds {args.rounds}`; machine:
{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}. Fresh process per
measurement, the two versions alternating, warmed up, {args.rounds} rounds. Speed ratio > 1:
this checkout is faster. "Same numbers": the analysis values (and the bots' games) hash alike.

| measurement | best {commit} | best now | speed | median {commit} | median now | speed | same numbers |
|---|---:|---:|---:|---:|---:|---:|---|
{table}
"""
    publish("### This checkout against an older commit", report, args.write)


if __name__ == "__main__":
    main()
