"""Reading records, game by game: this checkout against an older one, side by side in one run.

    git worktree add /tmp/old <commit>
    python benchmarks/reading.py --old /tmp/old [--records 5000] [--rounds 3] [--write]

A club's archive (``scale_archive.py``: the five games in their mix) is split by what its files
hold: Tsuro, The Game of Islands' triads (events) and single grids (casual games), Iwoki,
Patchwork, Tiny Islands in Scorebook notation and as TinyBot lines. For each group, each
checkout, in a fresh process (numba's cache loaded first, on one file): **read** is every file
read, replayed and made ready for the store (``prepare_bytes``: split, parse, replay, check,
canonical text, hash), one process, one core; **ingest** is the same files ingested into a new
database (``ingest_text``: reading and writing, in a transaction a file). Records a second;
the two checkouts alternate, ``--rounds`` times, and the median is the figure (best beside it).
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
from scale_archive import build  # noqa: E402

GROUPS = [  # (label, which files: a test on the path relative to the archive)
    ("Tsuro", lambda p: p.parts[1] == "tsuro"),
    ("The Game of Islands, triads", lambda p: p.parts[:2] == ("events", "game-of-islands")),
    ("The Game of Islands, single grids", lambda p: p.parts[:2] == ("casual", "game-of-islands")),
    ("Iwoki", lambda p: p.parts[1] == "iwoki"),
    ("Patchwork", lambda p: p.parts[1] == "patchwork"),
    ("Tiny Islands, Scorebook notation", lambda p: p.parts[1] == "tiny-islands"),
    ("Tiny Islands, TinyBot lines", lambda p: p.parts[0] == "bots"),
]

TASK = USE_CHECKOUT + r'''
import importlib, json, tempfile, time
task, listing, root = sys.argv[1], sys.argv[2], sys.argv[3]
prefix = "scorebook." if use_checkout(root) else ""
ingest = importlib.import_module(prefix + "records.ingest")
Store = importlib.import_module(prefix + "records.store").Store
files = [Path(p) for p in Path(listing).read_text().split("\n") if p]
data = [(p.read_bytes(), str(p)) for p in files]
tmp = tempfile.mkdtemp()
ingest.ingest_text(Store(tmp + "/warm.db"), data[0][0].decode(), "warm.pgn")  # numba's cache loaded
if task == "read":
    start = time.perf_counter()
    pairs = [pair for d, source in data for pair in ingest.prepare_bytes(d, source)]
    seconds = time.perf_counter() - start
    assert all(p is not None for _, p in pairs), [o for o, p in pairs if p is None][:1]
    records = len(pairs)
else:
    store = Store(tmp + "/b.db")
    start = time.perf_counter()
    out = [o for d, source in data for o in ingest.ingest_text(store, d.decode(), source)]
    seconds = time.perf_counter() - start
    # a TinyBot line names no player: a line the archive holds twice is one record, a duplicate
    assert all(o["status"] in ("ingested", "duplicate") for o in out), [o for o in out if "errors" in o][:1]
    records = len(out)
print(json.dumps({"seconds": seconds, "records": records}))
'''


def run(checkout: Path | None, task: str, listing) -> dict:
    return run_task(TASK, checkout, task, str(listing))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--old", type=Path, required=True, help="a checkout of the older commit")
    ap.add_argument("--records", type=int, default=5000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--write", action="store_true", help="put the figures in BENCHMARKS.md")
    args = ap.parse_args()
    old = args.old.resolve()
    commit = subprocess.run(["git", "-C", str(old), "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    work = Path(tempfile.mkdtemp())
    build(work / "archive", args.records)
    files = sorted(p.relative_to(work / "archive") for p in (work / "archive").rglob("*") if p.is_file())
    rows = []
    for label, wanted in GROUPS:
        listing = work / f"{len(rows)}.txt"
        listing.write_text("\n".join(str(work / "archive" / p) for p in files if wanted(p)))
        row = [label]
        for task in ("read", "ingest"):
            rates: dict[str, list[float]] = {"old": [], "new": []}
            for _ in range(args.rounds):
                for name, checkout in (("old", old), ("new", None)):
                    out = run(checkout, task, listing)
                    rates[name].append(out["records"] / out["seconds"])
            median = {k: sorted(v)[len(v) // 2] for k, v in rates.items()}
            row += [out["records"], median["old"], median["new"], median["new"] / median["old"],
                    max(rates["new"]) / max(rates["old"])]
        rows.append(row)
        print(f"{label}: read {row[2]:,.0f} -> {row[3]:,.0f} records/s ({row[4]:.1f}x); "
              f"ingest {row[7]:,.0f} -> {row[8]:,.0f} ({row[9]:.1f}x)", flush=True)
    table = "\n".join(f"| {r[0]} | {r[1]:,} | {r[2]:,.0f} | {r[3]:,.0f} | **{r[4]:.1f}x** ({r[5]:.1f}x) "
                      f"| {r[7]:,.0f} | {r[8]:,.0f} | **{r[9]:.1f}x** ({r[10]:.1f}x) |" for r in rows)
    report = f"""### Reading records, game by game ({date.today()})

`python benchmarks/reading.py --old <checkout of {commit}> --records {args.records} --rounds {args.rounds}`;
machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}. A
{args.records:,}-record club archive (`scale_archive.py`) split by what its files hold; each
figure records a second in one process on one core, the median of {args.rounds} rounds, the two
checkouts alternating, each in a fresh process with numba's cache loaded. **read**: split, parse,
replay, check, canonical text and hash (`prepare_bytes`); **ingest**: the same files ingested
into a new database, reading and writing (`ingest_text`). Speed-ups: medians (best of each in
brackets).

| records | count | read {commit} | read now | read speed-up | ingest {commit} | ingest now | ingest speed-up |
|---|---:|---:|---:|---:|---:|---:|---:|
{table}
"""
    publish("### Reading records, game by game", report, args.write)


if __name__ == "__main__":
    main()
