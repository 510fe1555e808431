"""Peak memory and speed of ingesting a 30 MB file: a PGN-style file of the samples' records
(Tsuro, Tiny Islands, Patchwork, each made distinct by its Event tag) and a TinyBot file of
random games, each read a batch of records at a time (streaming, as ingest does) and all at
once (as it did before), side by side in one run, each in a fresh process.

    python benchmarks/ingest_memory.py [--megabytes 30] [--write]
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

from _report import publish  # noqa: E402

SAMPLES = ROOT / "samples"
# one ingest in a fresh process; argv: path, database, batch (0: all at once)
RUN = """
import resource, sys, time
import scorebook.records.ingest as ingest
from scorebook.records.store import Store
path, db, batch = sys.argv[1], sys.argv[2], int(sys.argv[3])
ingest._STREAM_BATCH = batch or 10**9
start = time.perf_counter()
out = ingest.ingest_file(Store(db), path)
seconds = time.perf_counter() - start
print(len(out), seconds, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def pgn_file(path: Path, size: int) -> int:
    texts = [p.read_text().strip() for folder in ("tsuro", "tiny-islands", "patchwork")
             for p in sorted((SAMPLES / folder).glob("*.pgn")) if p.read_text().count("[Game") == 1]
    out, total, i = [], 0, 0
    while total < size:
        t = texts[i % len(texts)]
        rec = t.replace("[Event \"", f"[Event \"bulk {i} ", 1) if "[Event" in t else \
            t.replace("[Game ", f"[Event \"bulk {i}\"]\n[Game ", 1)
        out.append(rec)
        total += len(rec) + 2
        i += 1
    path.write_text("\n\n".join(out) + "\n")
    return i


def tinybot_file(path: Path, size: int) -> int:
    sys.path.insert(0, str(ROOT))
    from tests.tiny_islands.conftest import random_tinybot_line
    lines, total, i = [], 0, 0
    while total < size:
        line = random_tinybot_line(i) + f" #bulk{i}"
        lines.append(line)
        total += len(line) + 1
        i += 1
    path.write_text("\n".join(lines) + "\n")
    return i


def measure(path: Path, batch: int, tmp: str) -> tuple[int, float, int]:
    db = os.path.join(tmp, f"m{batch}-{path.stem}.db")
    done = subprocess.run([sys.executable, "-c", RUN, str(path), db, str(batch)], capture_output=True, text=True,
                          check=True)
    n, seconds, kb = done.stdout.split()
    os.remove(db)
    return int(n), float(seconds), int(kb)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--megabytes", type=float, default=30)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    size = int(args.megabytes * 1_000_000)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        files = {"PGN-style (Tsuro, Tiny Islands, Patchwork)": Path(tmp) / "bulk.pgn",
                 "TinyBot lines": Path(tmp) / "bulk.txt"}
        pgn_file(files["PGN-style (Tsuro, Tiny Islands, Patchwork)"], size)
        tinybot_file(files["TinyBot lines"], size)
        for name, path in files.items():
            mb = path.stat().st_size / 1e6
            for label, batch in (("a batch at a time (256 records)", 256), ("all at once (before)", 0)):
                n, seconds, kb = measure(path, batch, tmp)
                rows.append((name, mb, label, n, seconds, kb / 1024))
                print(rows[-1], flush=True)
    heading = "### Ingest: peak memory of a 30 MB file ("
    out = [f"{heading}{date.today().isoformat()}, {platform.machine()}, {os.cpu_count()} cores, "
           f"Python {platform.python_version()})", "",
           f"`python benchmarks/ingest_memory.py --megabytes {args.megabytes:g}`: each ingest in a fresh process "
           "into a new database; peak resident memory of the process (its forked readers not counted).", "",
           "| file | MB | read | records | seconds | records/s | peak MB | peak / file size |",
           "|---|---:|---|---:|---:|---:|---:|---:|"]
    for name, mb, label, n, seconds, peak in rows:
        out.append(f"| {name} | {mb:.1f} | {label} | {n:,} | {seconds:.1f} | {n / seconds:,.0f} | {peak:,.0f} | "
                   f"{peak / mb:.1f}x |")
    out.append("")
    text = "\n".join(out)
    publish(heading, text, args.write)


if __name__ == "__main__":
    main()
