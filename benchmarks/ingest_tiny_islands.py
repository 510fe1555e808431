"""Tiny Islands ingest speed: end to end (parse -> replay -> SQLite), jitted engine next to
the plain-Python reference replayer in the same run, plus the CLI's cold and warm start.

    python benchmarks/ingest_tiny_islands.py [--records 5000] [--write]

Records: the 4 shared TinyBot lines (../shared), each copy relabelled so every record is
distinct (real-sized lines, ~2.8 KB with visit lists); without ../shared, random legal games
with synthetic visit lists of the same size. ``--write`` puts the figures in BENCHMARKS.md.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from _report import publish  # noqa: E402

from scorebook.engines.tiny_islands import reference  # noqa: E402
from scorebook.engines.tiny_islands.metadata import CELLS, DRAWING_AFTER_TURN, TILE_LETTERS, ZONE_CELLS  # noqa: E402
from scorebook.records import tiny_islands, tinybot  # noqa: E402
from scorebook.records.ingest import ingest_text  # noqa: E402
from scorebook.records.store import Store  # noqa: E402

SAMPLES = ROOT.parent / "shared" / "data" / "tinyislands" / "tinybot-samples.txt"


def make_lines(n: int) -> tuple[list[str], str]:
    if SAMPLES.exists():
        base = SAMPLES.read_text().splitlines()
        return [base[i % len(base)].rsplit(" #", 1)[0] + f" #bench-{i}" for i in range(n)], \
            "the 4 shared TinyBot lines, relabelled"
    from scorebook.engines.tiny_islands.deck import two_deck_offers
    from scorebook.engines.tiny_islands.players import random_game
    rng = np.random.default_rng(0)

    def visits(k):
        return ",".join(f"{m}:{v}" for m, v in zip(rng.integers(0, 648, k), rng.integers(2, 4096, k)))
    lines = []
    for s in range(n):
        offers = two_deck_offers(rng)
        rec = tiny_islands.from_arrays(offers, *random_game(offers, s), rules="tinybot")
        rec.recorded = tiny_islands.replay(rec).score
        for p in rec.placements:
            p.visits = visits(12)
        for d in rec.drawings:
            d.visits = [visits(3) for _ in range(len(d.trace) + 1)]
        lines.append(tinybot.write_line(rec))
    return lines, "random legal games with synthetic visit lists"


def reference_replay(record):
    """The plain-Python path: the same record checks, replayed by engines/tiny_islands/reference.py."""
    tiny_islands._check_shape(record)
    deck = tiny_islands.resolve_deck(record)
    zone = [{divmod(int(z), 9) for z in ZONE_CELLS[k]} for k in range(ZONE_CELLS.shape[0])]
    offers = [(TILE_LETTERS[o.tile1], zone[o.zone1], TILE_LETTERS[o.tile2], zone[o.zone2]) for o in record.offers]
    placements = [(TILE_LETTERS[p.tile], divmod(p.cell, 9)) for p in record.placements]
    traces = [[divmod(z, 9) for z in d.trace] for d in record.drawings]
    tiles: dict = {}
    land: set = set()
    regions = np.zeros((3, CELLS), np.bool_)
    for t, ((t1, z1, t2, z2), (tile, cell)) in enumerate(zip(offers, placements)):
        if not ((tile == t1 and cell in z1) or (tile == t2 and cell in z2)) or cell in tiles:
            raise ValueError("illegal placement")
        tiles[cell] = tile
        if t + 1 in DRAWING_AFTER_TURN:
            d = DRAWING_AFTER_TURN.index(t + 1)
            code, region = reference.drawing_region(land, traces[d])
            if code != "ok":
                raise ValueError(code)
            land ^= region
            for r, c in region:
                regions[d, r * 9 + c] = True
    score = reference.score(tiles, land, record.rules)
    return tiny_islands.TinyIslandsReplay(np.array([score[k] for k in reference.CATEGORIES]), None, None,
                                          regions, np.zeros(3, np.bool_), deck)


def timed_ingest(text: str, replay_fn=None, workers: bool = True) -> float:
    """Seconds for ingest_text of the whole text into a new database file; ``workers``: let
    large files be read by forked workers (the default), else in this process only."""
    import scorebook.records.ingest as ingest
    original, parallel_min = tiny_islands.replay, ingest.PARALLEL_MIN_LINES
    if replay_fn is not None:
        tiny_islands.replay = replay_fn
    if not workers:
        ingest.PARALLEL_MIN_LINES = 1 << 62
    try:
        with tempfile.TemporaryDirectory() as tmp:
            store = Store(str(Path(tmp) / "bench.db"))
            start = time.perf_counter()
            out = ingest_text(store, text, "bench.txt")
            seconds = time.perf_counter() - start
            assert all(o["status"] == "ingested" for o in out), out[0]
            return seconds
    finally:
        tiny_islands.replay, ingest.PARALLEL_MIN_LINES = original, parallel_min


def cli_start(lines: list[str]) -> dict[str, float]:
    """Wall time of `scorebook ingest` on a 4-record file: numba cache empty, then warm."""
    env = dict(os.environ)
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "four.txt"
        data.write_text("\n".join(lines[:4]) + "\n")
        env["NUMBA_CACHE_DIR"] = str(Path(tmp) / "numba-cache")
        for label in ("cold", "warm"):
            db = Path(tmp) / f"{label}.db"
            start = time.perf_counter()
            proc = subprocess.run([sys.executable, "-m", "scorebook", "--db", str(db), "ingest", str(data), "--json"],
                                  cwd=ROOT, env=env, capture_output=True, text=True)
            out[label] = time.perf_counter() - start
            assert proc.returncode == 0, proc.stderr
            assert json.loads(proc.stdout)["summary"]["ingested"] == 4
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "scorebook", "--help"], cwd=ROOT, env=env, capture_output=True)
        out["help"] = time.perf_counter() - start
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--records", type=int, default=5000)
    parser.add_argument("--write", action="store_true", help="write the figures into BENCHMARKS.md")
    args = parser.parse_args()
    lines, kind = make_lines(args.records)
    text = "\n".join(lines) + "\n"
    records = [tinybot.parse_line(l, i) for i, l in enumerate(lines, 1)]
    tiny_islands.replay(records[0])  # load the compiled engine before timing
    ingest_text(Store(":memory:"), lines[0], "warm-up")

    jit_s = min(timed_ingest(text) for _ in range(3))
    serial_s = min(timed_ingest(text, workers=False) for _ in range(3))
    ref_n = min(len(lines), 1000)
    ref_s = timed_ingest("\n".join(lines[:ref_n]) + "\n", reference_replay, workers=False)
    start = time.perf_counter()
    for r in records:
        tiny_islands.replay(r)
    replay_jit = len(records) / (time.perf_counter() - start)
    start = time.perf_counter()
    for r in records[:ref_n]:
        reference_replay(r)
    replay_ref = ref_n / (time.perf_counter() - start)
    for a, b in zip(records[:50], records[:50]):
        assert tiny_islands.replay(a).score == reference_replay(b).score
    start_times = cli_start(lines)

    rows = {
        "records": len(lines), "kind": kind, "mean_chars": len(text) / len(lines),
        "ingest_jit": len(lines) / jit_s, "ingest_serial": len(lines) / serial_s, "ingest_python": ref_n / ref_s,
        "replay_jit": replay_jit, "replay_python": replay_ref, **{f"cli_{k}": v for k, v in start_times.items()},
    }
    from scorebook.records.ingest import _workers
    workers = _workers()
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    report = f"""### Tiny Islands ingest ({date.today().isoformat()}, {machine})

`python benchmarks/ingest_tiny_islands.py --records {len(lines)}` — {kind}, {rows['mean_chars']:.0f} characters a line.

| path | records/s | ratio |
|---|---:|---:|
| end to end (parse, replay, SQLite), jitted engine, {workers} workers reading | {rows['ingest_jit']:,.0f} | {rows['ingest_jit'] / rows['ingest_python']:.1f}x |
| end to end, jitted engine, one process | {rows['ingest_serial']:,.0f} | {rows['ingest_serial'] / rows['ingest_python']:.1f}x |
| end to end, plain-Python reference replay, one process | {rows['ingest_python']:,.0f} | 1.0x |
| replay only, jitted engine | {rows['replay_jit']:,.0f} | {rows['replay_jit'] / rows['replay_python']:.1f}x |
| replay only, plain-Python reference | {rows['replay_python']:,.0f} | 1.0x |

CLI start (`scorebook ingest` of a 4-record file, whole process): cold, numba cache empty
(compiles the engine) {rows['cli_cold']:.1f} s; warm, cache filled {rows['cli_warm']:.2f} s;
`scorebook --help` {rows['cli_help']:.2f} s. End-to-end figures are the best of 3 runs of one
{len(lines)}-line file (one transaction), final commit included; the reference path reads 1,000 lines.
"""
    publish("### Tiny Islands ingest", report, args.write)


if __name__ == "__main__":
    main()
