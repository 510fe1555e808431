"""Several ingest processes on one new database at once, files overlapping: every record must
be stored exactly once and no process may fail (they wait for each other's write lock).

    python benchmarks/concurrent_ingest.py [--processes 4] [--repeats 20] [--lines 60] [--write]
"""
from __future__ import annotations

import argparse
import os
import platform
import sqlite3
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from _report import publish  # noqa: E402


def make_files(folder: Path, lines: int, files: int) -> tuple[list[Path], int]:
    """``files`` files of TinyBot lines, each overlapping its neighbours by half; returns the
    files and the number of distinct records in them."""
    import numpy as np

    from scorebook.engines.tiny_islands.deck import two_deck_offers
    from scorebook.engines.tiny_islands.players import random_game
    from scorebook.records import tiny_islands, tinybot
    pool = []
    for seed in range(lines * (files + 1) // 2):
        offers = two_deck_offers(np.random.default_rng(seed))
        record = tiny_islands.from_arrays(offers, *random_game(offers, seed), rules="tinybot")
        record.recorded = tiny_islands.replay(record).score
        pool.append(tinybot.write_line(record))
    paths = []
    for k in range(files):
        path = folder / f"part{k}.txt"
        path.write_text("\n".join(pool[k * lines // 2:k * lines // 2 + lines]) + "\n")
        paths.append(path)
    return paths, len(set(pool[:(files - 1) * lines // 2 + lines]))


def one_round(paths: list[Path], distinct: int, processes: int, folder: Path) -> tuple[bool, str, float]:
    db = folder / f"new-{time.monotonic_ns()}.db"
    start = time.perf_counter()
    procs = []
    for p in range(processes):
        order = paths[p % len(paths):] + paths[:p % len(paths)]  # each starts elsewhere: overlaps collide
        procs.append(subprocess.Popen([sys.executable, "-m", "scorebook", "--db", str(db), "ingest",
                                       *map(str, order)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                      text=True))
    errors = [p.communicate()[1] for p in procs]
    seconds = time.perf_counter() - start
    failed = [e for p, e in zip(procs, errors) if p.returncode != 0]
    with sqlite3.connect(db) as con:
        stored = con.execute("SELECT count(*), count(DISTINCT hash) FROM records").fetchone()
    ok = not failed and stored == (distinct, distinct)
    return ok, f"stored {stored[0]} ({stored[1]} distinct) of {distinct}" + (
        f"; a process failed: {failed[0].strip()[-300:]}" if failed else ""), seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--processes", type=int, default=4)
    ap.add_argument("--repeats", type=int, default=20)
    ap.add_argument("--lines", type=int, default=60)
    ap.add_argument("--files", type=int, default=4)
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        paths, distinct = make_files(folder, args.lines, args.files)
        passed, times = 0, []
        for r in range(args.repeats):
            ok, what, seconds = one_round(paths, distinct, args.processes, folder)
            passed += ok
            times.append(seconds)
            print(f"round {r + 1}: {'ok' if ok else 'FAILED'}, {what}, {seconds:.1f} s", flush=True)
    report = f"""### Concurrent ingest ({date.today()})

`python benchmarks/concurrent_ingest.py --processes {args.processes} --repeats {args.repeats}`
({platform.machine()}, {os.cpu_count()} cores): {args.processes} `scorebook ingest` processes start
together on a new database, each on the same {args.files} files of {args.lines} TinyBot lines
(neighbouring files share half their lines) in a different order. **{passed} of {args.repeats} rounds**
stored every one of the {distinct} distinct records exactly once with no process failing;
{min(times):.1f}-{max(times):.1f} s a round.
"""
    publish("### Concurrent ingest", report, args.write)


if __name__ == "__main__":
    main()
