"""What numba's compilation costs a CLI user, per game: a whole ``scorebook`` process ingesting
the game's samples and one playing a short game, cold (an empty numba cache: everything the
command touches is compiled) and warm (the cache filled by the cold run), side by side.

    python benchmarks/compile_costs.py [--write]
"""
from __future__ import annotations

import argparse
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

from _report import write_section  # noqa: E402

COMMANDS = {  # game: (ingest, play)
    "tiny-islands": (["ingest", "samples/tiny-islands"], ["play", "tiny-islands", "--players", "heuristic"]),
    "game-of-islands": (["ingest", "samples/game-of-islands"],
                        ["play", "game-of-islands", "--players", "greedy,random", "--grid", "6"]),
    "iwoki": (["ingest", "samples/iwoki"], ["play", "iwoki", "--players", "greedy,random"]),
    "patchwork": (["ingest", "samples/patchwork"], ["play", "patchwork", "--variant", "real", "--players", "best:1"]),
    "tsuro": (["ingest", "samples/tsuro"], ["play", "tsuro", "--players", "mc:2,simple,random"]),
}


def timed(args: list[str], cache: str, db: str) -> float:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "scorebook", "--db", db, *args], cwd=ROOT, env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    lines = ["### Compile costs: cold and warm starts (benchmarks/compile_costs.py)", "",
             f"{date.today().isoformat()}, {platform.machine()}, {os.cpu_count()} cores, Python "
             f"{platform.python_version()}. A whole process each; cold: an empty numba cache (NUMBA_CACHE_DIR), "
             "so every jitted function the command reaches compiles; warm: the same command again.", "",
             "| game | command | cold (s) | warm (s) | compile share |", "|---|---|---:|---:|---:|"]
    for game, commands in COMMANDS.items():
        for command in commands:
            with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as work:
                cold = timed(command, cache, str(Path(work) / "a.db"))
                warm = timed(command, cache, str(Path(work) / "b.db"))
            lines.append(f"| {game} | `scorebook {' '.join(command)}` | {cold:.1f} | {warm:.1f} | "
                         f"{(cold - warm) / cold:.0%} |")
            print(lines[-1], file=sys.stderr, flush=True)
    report = "\n".join(lines) + "\n"
    print(report)
    if args.write:
        write_section("### Compile costs", report)


if __name__ == "__main__":
    main()
