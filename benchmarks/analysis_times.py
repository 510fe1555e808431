"""Seconds to analyse one game of every game with its default analysis bot, cold and warm.

    python benchmarks/analysis_times.py [--write]

For each game a sample record of the project's own (``samples/``) is ingested into a scratch
database, then ``scorebook analyze ID --force`` is run three times, each a fresh process:
cold (an empty numba cache: every jitted function it needs is compiled), warm (the cache that
run filled: loaded, not compiled), and warm again. Side by side in one run, one game at a time.
Tiny Islands is judged by Scorebook's own bot (no ``--net``).
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

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from _report import publish  # noqa: E402

SAMPLES = {  # game: a record of the project's own, what it is
    "tiny-islands": ("tiny-islands/tiny-islands-mc4-s9-0001.pgn", "26 placements and 3 drawings"),
    "game-of-islands": ("game-of-islands/bot-round-robin/game-of-islands-search-greedy-triad-s21-0001.pgn",
                        "a triad (10, 12, 14)"),
    "iwoki": ("iwoki/iwoki-minimax2-greedy-s5-0002.pgn", "a whole game"),
    "patchwork": ("patchwork/patchwork-best2-real-85.pgn", "one player, real quilt"),
    "patchwork (two players)": ("patchwork/patchwork-best2-vbrz-two-player-s6-0001.pgn", "two players"),
    "tsuro": ("tsuro/tsuro-random-1-simple-2-random-3-simple-4-random-5-s2-0001.pgn", "five players"),
}


def run(db: str, *args: str, env: dict) -> tuple[float, dict]:
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "scorebook", "--db", db, *args], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=3600)
    seconds = time.perf_counter() - t0
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed: {done.stderr[-500:]}")
    return seconds, json.loads(done.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true", help="put the figures into BENCHMARKS.md")
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        db = os.path.join(scratch, "bench.db")
        for game, (path, what) in SAMPLES.items():
            env = dict(os.environ, NUMBA_CACHE_DIR=os.path.join(scratch, f"cache-{len(rows)}"))
            env.pop("SCOREBOOK_TINYBOT_NET", None)
            _, out = run(db, "ingest", str(ROOT / "samples" / path), "--json", env=env)
            rid = out["records"][0]["id"]
            cold, report = run(db, "analyze", rid, "--force", "--json", env=env)
            warm, _ = run(db, "analyze", rid, "--force", "--json", env=env)
            again, _ = run(db, "analyze", rid, "--force", "--json", env=env)
            rows.append((game, what, report["bot"], len(report["moves"]), cold, warm, again))
            print(f"{game}: cold {cold:.1f} s, warm {warm:.1f} s, {again:.1f} s", file=sys.stderr, flush=True)
    lines = [f"### Analysis: seconds a game, cold and warm ({date.today().isoformat()}, {platform.machine()}, "
             f"{os.cpu_count()} cores, Python {platform.python_version()})", "",
             "`python benchmarks/analysis_times.py`: `scorebook analyze ID --force` on a sample of each game, "
             "each run a fresh process: cold (an empty numba cache, so the first run compiles), then warm twice "
             "(the cache filled). Default analysis settings; Tiny Islands without `--net`.", "",
             "| game | record | bot | moves | cold s | warm s | warm again s | compiling |",
             "|---|---|---|---:|---:|---:|---:|---:|"]
    for game, what, bot, moves, cold, warm, again in rows:
        lines.append(f"| {game} | {what} | {bot} | {moves} | {cold:.1f} | {warm:.1f} | {again:.1f} | "
                     f"{cold - min(warm, again):.1f} |")
    report = "\n".join(lines) + "\n"
    publish("### Analysis: seconds a game, cold and warm", report, args.write)


if __name__ == "__main__":
    main()
