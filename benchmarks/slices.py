"""This checkout against an older one, side by side in one run: a club's archive ingested from
empty in ten slices (or its first alone), each by a ``scorebook ingest`` process of its own, as ``scale.py`` does;
what each process pays to start (the interpreter, numba, the games' code, the ratings'
upkeep, the log copied back) is in every slice's time.

    git worktree add /tmp/old <commit>
    python benchmarks/slices.py --old /tmp/old [--records 100000] [--rounds 2] [--first-only] [--work DIR] [--write]

The two versions alternate, a fresh database each round, their modules byte-compiled (as an
install by pip leaves them: ``_checkout.byte_compiled``) and their numba caches warmed first;
each slice's records a second (new records over the command's time), and the median of the
rounds is reported, first tenth, last tenth and the whole (a VM's speed drifts by a sixth
within minutes: the ratio is the figure to read).
"""
from __future__ import annotations

import argparse
import platform
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from _checkout import USE_CHECKOUT, byte_compiled  # noqa: E402
from _report import publish  # noqa: E402
from scale_archive import build  # noqa: E402

SLICES = 10
# the CLI of the checkout given last on the command line, with the arguments before it
INGEST = USE_CHECKOUT + r'''
use_checkout(sys.argv[-1])
from scorebook.cli.main import run
sys.argv = ["scorebook", *sys.argv[1:-1]]
run()
'''


def ingest(checkout: Path, db: Path, files: list[str]) -> float:
    """One ``scorebook ingest`` of ``files`` by ``checkout``'s code: its seconds."""
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as cwd:  # not a checkout: its folders must not import
        done = subprocess.run([sys.executable, "-c", INGEST, "--db", str(db), "ingest", "--json", *files,
                               str(checkout)], cwd=cwd, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode not in (0, 1):  # 1: some records rejected, which the archive has none of
        raise SystemExit(f"ingest by {checkout} failed:\n{done.stderr[-2000:]}")
    return seconds


def count(db: Path) -> int:
    if not db.exists():
        return 0
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT count(*) FROM records").fetchone()[0]


def whole(checkout: Path, db: Path, slices: list[list[str]]) -> dict:
    for suffix in ("", "-wal", "-shm"):
        Path(str(db) + suffix).unlink(missing_ok=True)
    rates, seconds = [], 0.0
    for files in slices:
        before = count(db)
        took = ingest(checkout, db, files)
        seconds += took
        rates.append((count(db) - before) / took)
    return {"first": rates[0], "last": rates[-1], "average": count(db) / seconds, "seconds": seconds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", required=True, help="an older checkout (git worktree add /tmp/old COMMIT)")
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--first-only", action="store_true", help="the first tenth alone (a million's: 95,000 records)")
    parser.add_argument("--work", help="keep the archive here (made once)")
    parser.add_argument("--write", action="store_true", help="put the report into BENCHMARKS.md")
    args = parser.parse_args()
    work = Path(args.work or tempfile.mkdtemp(prefix="scorebook-slices-"))
    work.mkdir(parents=True, exist_ok=True)
    folder = work / f"archive-{args.records}"
    if not folder.exists():
        print(f"making {args.records:,} records in {folder}", flush=True)
        build(folder, args.records)
    files = [str(p) for p in sorted((p for p in folder.rglob("*") if p.is_file()), key=lambda p: (p.name, str(p)))]
    slices = [files[k * len(files) // SLICES:(k + 1) * len(files) // SLICES] for k in range(SLICES)]
    if args.first_only:
        slices = slices[:1]
    versions = {"old": Path(args.old).resolve(), "this": ROOT}
    for name, checkout in versions.items():  # its bytecode written, numba's cache loaded or made
        byte_compiled(checkout)
        ingest(checkout, work / f"warm-{name}.db", [str(ROOT / "samples")])
    runs: dict = {name: [] for name in versions}
    for r in range(args.rounds):
        for name, checkout in versions.items():
            runs[name].append(whole(checkout, work / f"{name}.db", slices))
            got = runs[name][-1]
            print(f"  round {r + 1} {name}: {got['average']:.0f} records a second, {got['seconds']:.1f} s", flush=True)
    med = {name: {k: statistics.median(run[k] for run in rs) for k in rs[0]} for name, rs in runs.items()}
    old_commit = subprocess.run(["git", "-C", str(versions["old"]), "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True).stdout.strip() or str(versions["old"])
    this_commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                                 capture_output=True, text=True).stdout.strip()
    what = "its first tenth" if args.first_only else "in ten slices"
    marker = f"### Ingest of {args.records:,} records {what}, side by side"
    lines = [f"{marker} ({date.today()}; {platform.machine()}, {__import__('os').cpu_count()} cores, "
             f"Python {platform.python_version()})", "",
             f"`python benchmarks/slices.py --old <checkout of {old_commit}> --records {args.records} "
             f"--rounds {args.rounds}{' --first-only' if args.first_only else ''}` at {this_commit}: the "
             f"{args.records:,}-record archive of `scale_archive.py` ingested from empty, {what}, each a "
             "`scorebook ingest` process, the two checkouts alternating; records a second, the median of the rounds.",
             "", f"| | {old_commit} | {this_commit} | ratio |", "|---|---:|---:|---:|"]
    shown = (("first", "into the empty archive (first tenth)"),) if args.first_only else (
        ("first", "into the empty archive (first tenth)"), ("last", "into the last tenth"),
        ("average", "the whole archive"))
    for key, label in shown:
        lines.append(f"| {label} | {med['old'][key]:,.0f} | {med['this'][key]:,.0f} | "
                     f"{med['this'][key] / med['old'][key]:.2f}x |")
    lines.append(f"| seconds | {med['old']['seconds']:.1f} | {med['this']['seconds']:.1f} | "
                 f"{med['old']['seconds'] / med['this']['seconds']:.2f}x |")
    publish(marker, "\n".join(lines) + "\n", args.write)


if __name__ == "__main__":
    main()
