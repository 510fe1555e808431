"""What numba's compilation costs a CLI user, per game: a whole ``scorebook`` process ingesting
the game's samples and one playing a short game, cold (an empty numba cache: everything the
command touches is compiled) and warm (the cache filled by the cold run), side by side.
With ``--baseline DIR`` (a folder holding another version's ``scorebook`` package, put first on
PYTHONPATH), each command runs under that version too, and the table gives both and their ratio.

    python benchmarks/compile_costs.py [--baseline DIR] [--only GAME] [--write]
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

from _report import publish  # noqa: E402

COMMANDS = {  # game: (ingest, play)
    "tiny-islands": (["ingest", "samples/tiny-islands"], ["play", "tiny-islands", "--players", "heuristic"]),
    "game-of-islands": (["ingest", "samples/game-of-islands"],
                        ["play", "game-of-islands", "--players", "greedy,random", "--grid", "6"]),
    "iwoki": (["ingest", "samples/iwoki"], ["play", "iwoki", "--players", "greedy,random"]),
    "patchwork": (["ingest", "samples/patchwork"], ["play", "patchwork", "--variant", "real", "--players", "best:1"]),
    "tsuro": (["ingest", "samples/tsuro"], ["play", "tsuro", "--players", "mc:2,simple,random"]),
}


def timed(args: list[str], cache: str, db: str, package: str | None = None) -> float:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    # another version: its folder first on sys.path, ahead of this checkout (the working folder)
    start = (["-c", f"import runpy, sys; sys.path.insert(0, {package!r}); "
                    "runpy.run_module('scorebook', run_name='__main__', alter_sys=True)"] if package
             else ["-m", "scorebook"])
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, *start, "--db", db, *args], cwd=ROOT, env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--baseline", metavar="DIR", help="another version's package folder, timed beside this one")
    ap.add_argument("--only", metavar="GAME", choices=sorted(COMMANDS))
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    lines = ["### Compile costs: cold and warm starts (benchmarks/compile_costs.py)", "",
             f"{date.today().isoformat()}, {platform.machine()}, {os.cpu_count()} cores, Python "
             f"{platform.python_version()}. A whole process each; cold: an empty numba cache (NUMBA_CACHE_DIR), "
             "so every jitted function the command reaches compiles; warm: the same command again.", "",
             "| game | command | cold (s) | warm (s) | compile share |", "|---|---|---:|---:|---:|"]
    if args.baseline:
        lines[2] += f" Baseline: the package in {args.baseline}, run just before this checkout's, command by command."
        lines[-2:] = ["| game | command | cold, baseline (s) | cold (s) | cold: baseline / this | warm, baseline (s) "
                      "| warm (s) |", "|---|---|---:|---:|---:|---:|---:|"]
    for game, commands in COMMANDS.items():
        if args.only and game != args.only:
            continue
        for command in commands:
            times = []
            for package in ([args.baseline] if args.baseline else []) + [None]:
                with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as work:
                    cold = timed(command, cache, str(Path(work) / "a.db"), package)
                    warm = timed(command, cache, str(Path(work) / "b.db"), package)
                times.append((cold, warm))
            (cold, warm) = times[-1]
            if args.baseline:
                (cold0, warm0) = times[0]
                lines.append(f"| {game} | `scorebook {' '.join(command)}` | {cold0:.1f} | {cold:.1f} | "
                             f"{cold0 / cold:.2f}x | {warm0:.1f} | {warm:.1f} |")
            else:
                lines.append(f"| {game} | `scorebook {' '.join(command)}` | {cold:.1f} | {warm:.1f} | "
                             f"{(cold - warm) / cold:.0%} |")
            print(lines[-1], file=sys.stderr, flush=True)
    report = "\n".join(lines) + "\n"
    publish("### Compile costs", report, args.write)


if __name__ == "__main__":
    main()
