"""How long ``scorebook serve --writes`` takes to answer its first page, and the CPU its process
spends until then, for this checkout and an older one, side by side in one run.

    git worktree add /tmp/old <commit>
    python benchmarks/serve_start.py --before /tmp/old [--rounds 9] [--write]

Each checkout runs its own code (``_checkout.py``'s launcher; Datasette finds the checkout's
plugin through the installed entry point, which the launcher maps to the checkout), on a
database of the samples with an accounts file, as its README configures a club's server. The
two versions alternate, one start each a round, after a start of each that is not timed (the
operating system's file cache). Figures are medians over the rounds; the ratio is after over
before: below 1 is faster.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from _checkout import USE_CHECKOUT  # noqa: E402
from _report import publish  # noqa: E402

LAUNCHER = USE_CHECKOUT + r'''
root = Path(sys.argv[1])
sys.argv = ["scorebook"] + sys.argv[2:]
use_checkout(root)
from scorebook.cli.main import run
run()
'''
TICKS = os.sysconf("SC_CLK_TCK")


def _cpu_seconds(pid: int) -> float:
    """The user and system CPU of a running process so far (``/proc/PID/stat``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def start_once(launcher: Path, root: Path, db: str, config: Path) -> tuple[float, float]:
    """One start: seconds until the first page answers, and the server's CPU seconds by then."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    begun = time.perf_counter()
    server = subprocess.Popen([sys.executable, str(launcher), str(root), "--db", db, "serve", "--port", str(port),
                               "--writes", "--config", str(config)], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        for _ in range(1200):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2).read()
                return time.perf_counter() - begun, _cpu_seconds(server.pid)
            except OSError:
                time.sleep(0.02)
        raise SystemExit(f"{root}: the server did not start")
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(30)


def prepare(launcher: Path, root: Path, scratch: Path, label: str) -> tuple[str, Path]:
    db = str(scratch / f"{label}.db")

    def cli(*args: str, stdin: str | None = None) -> None:
        subprocess.run([sys.executable, str(launcher), str(root), "--db", db, *args], capture_output=True, text=True,
                       input=stdin, check=True)
    cli("ingest", str(ROOT / "samples"))
    accounts = scratch / f"{label}.accounts"
    cli("account", "set", "alice", "--file", str(accounts), "--password-stdin", stdin="correct horse\n")
    config = scratch / f"{label}.json"
    config.write_text(json.dumps({"scorebook": {"accounts": str(accounts), "submit": {"id": "alice"}}}))
    return db, config


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", required=True, help="a checkout before the change (git worktree add)")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    versions = {"before": Path(args.before).resolve(), "after": ROOT}
    with tempfile.TemporaryDirectory() as folder:
        scratch = Path(folder)
        launcher = scratch / "launch.py"
        launcher.write_text(LAUNCHER)
        setups = {label: prepare(launcher, root, scratch, label) for label, root in versions.items()}
        times: dict[str, list[tuple[float, float]]] = {label: [] for label in versions}
        for round_ in range(args.rounds + 1):
            for label, root in versions.items():
                measured = start_once(launcher, root, *setups[label])
                if round_:  # the first round only warms the file cache
                    times[label].append(measured)
    wall = {k: statistics.median(t for t, _ in v) for k, v in times.items()}
    cpu = {k: statistics.median(c for _, c in v) for k, v in times.items()}
    before_commit = subprocess.run(["git", "-C", args.before, "rev-parse", "--short", "HEAD"], capture_output=True,
                                   text=True).stdout.strip()
    after_commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                                  text=True).stdout.strip()
    where = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    report = f"""### `serve` start, before and after ({date.today().isoformat()}, {where})

`python benchmarks/serve_start.py --before <checkout of {before_commit}> --rounds {args.rounds}` (after:
{after_commit}): `serve --writes` with an accounts file, on the samples; medians of {args.rounds}
alternating starts. Ratio: after / before.

| measure | before ({before_commit}) | after ({after_commit}) | ratio |
|---|---:|---:|---:|
| seconds to the first page | {wall['before']:.2f} | {wall['after']:.2f} | {wall['after'] / wall['before']:.2f} |
| the server's CPU seconds by then | {cpu['before']:.2f} | {cpu['after']:.2f} | {cpu['after'] / cpu['before']:.2f} |
"""
    publish("### `serve` start, before and after", report, args.write)


if __name__ == "__main__":
    main()
