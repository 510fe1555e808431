"""The service: submissions a second over HTTP, and the time from asking for an analysis to
its page showing it.

    python benchmarks/service.py [--records 200] [--write]

Plays distinct Tsuro and Tiny Islands games into a scratch database for their texts, starts
``scorebook serve --writes`` on loopback over an empty one, and POSTs them to
``/-/scorebook/api/records`` with a token: first from one client, one after another, then
from four clients at once (different records: each one is stored, none a duplicate). Then it
asks for the analysis of two stored Tiny Islands records with the default bot, one after the
other, and times each from the POST to the record's page showing the analysis chart: the first
in a server that has analysed nothing yet (its jitted code loaded from the cache), the second
warm.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from _report import publish  # noqa: E402


def scorebook(db: str, *args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "scorebook", "--db", db, *args], capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(done.stderr)
    return done.stdout


def texts(db: str, game: str, players: str, games: int, seed: int) -> list[str]:
    scorebook(db, "play", game, "--players", players, "--games", str(games), "--seed", str(seed), "--jobs", "1")
    with sqlite3.connect(db) as conn:
        return [t for (t,) in conn.execute("SELECT text FROM records WHERE game = ? ORDER BY key", [game])]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(base: str, method: str, path: str, body: bytes | None, token: str) -> tuple[int, dict]:
    request = urllib.request.Request(base + path, data=body, method=method,
                                     headers={"Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request, timeout=600) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as err:
        return err.code, {}


def submit_all(base: str, token: str, records: list[str], clients: int) -> float:
    def one(text: str) -> int:
        return call(base, "POST", "/-/scorebook/api/records", text.encode(), token)[0]
    start = time.perf_counter()
    with ThreadPoolExecutor(clients) as pool:
        statuses = list(pool.map(one, records))
    seconds = time.perf_counter() - start
    if set(statuses) != {201}:
        raise SystemExit(f"not every submission was stored: {sorted(set(statuses))}")
    return seconds


def analysis_to_page(base: str, token: str, rid: str) -> float:
    start = time.perf_counter()
    status, job = call(base, "POST", f"/-/scorebook/api/records/{rid}/analyses", b"{}", token)
    if status != 202:
        raise SystemExit(f"asking for an analysis answered {status}")
    while True:
        page = urllib.request.urlopen(base + f"/-/scorebook/record/{rid}", timeout=60).read().decode()
        if 'id="chart"' in page:
            return time.perf_counter() - start
        if "failed" in call(base, "GET", f"/-/scorebook/api/jobs/{job['job']}", None, token)[1].get("status", ""):
            raise SystemExit("the analysis failed")
        time.sleep(0.1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--records", type=int, default=200, help="records a run of submissions (half of each game)")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        made = os.path.join(scratch, "made.db")
        pool = texts(made, "tsuro", "random,random,random", args.records, 1) + \
            texts(made, "tiny-islands", "random", args.records, 2)
        one_client, four_clients = pool[0::2], pool[1::2]  # each run: both games, different records
        served = os.path.join(scratch, "served.db")
        scorebook(served, "ingest", str(ROOT / "samples" / "tiny-islands" / "tiny-islands-random-s7-0001.pgn"),
                  str(ROOT / "samples" / "tiny-islands" / "tiny-islands-random-s7-0002.pgn"))
        ids = [r["id"] for r in json.loads(scorebook(served, "list", "--json"))["records"]]
        token = json.loads(scorebook(served, "token", "create", "bench", "--can", "submit", "--can", "analyze",
                                     "--json"))["token"]
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        server = subprocess.Popen([sys.executable, "-m", "scorebook", "--db", served, "serve", "--port", str(port),
                                   "--writes"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for _ in range(300):
                try:
                    urllib.request.urlopen(base + "/", timeout=2).read()
                    break
                except OSError:
                    time.sleep(0.1)
            cold = analysis_to_page(base, token, ids[0])
            warm = analysis_to_page(base, token, ids[1])
            one = submit_all(base, token, one_client, 1)
            four = submit_all(base, token, four_clients, 4)
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(30)
    day = date.today().isoformat()
    where = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    report = f"""### The service over HTTP ({day}, {where})

`python benchmarks/service.py --records {args.records}`: `scorebook serve --writes` on loopback, a
token, distinct random Tsuro (3 players) and Tiny Islands records POSTed to
`/-/scorebook/api/records`, each stored (201) in its own transaction.

| clients | records | seconds | submissions a second | ratio |
|---:|---:|---:|---:|---:|
| 1 | {len(one_client)} | {one:.2f} | {len(one_client) / one:.1f} | 1.00 |
| 4 | {len(four_clients)} | {four:.2f} | {len(four_clients) / four:.1f} | {(len(four_clients) / four) / (len(one_client) / one):.2f} |

Each submission is read and replayed on one of the server's reading threads (four), then
written by its one writer in a short transaction: four clients overlap the reading of one with
the writing of another, under the one interpreter lock ({(len(four_clients) / four) / (len(one_client) / one):.2f}x one client's rate).

From asking for a Tiny Islands analysis (default bot, a random game) to the record's page
showing it: {cold:.1f} s for the server's first analysis (its jitted code loaded from the
cache), {warm:.1f} s for the next.
"""
    publish("### The service over HTTP", report, args.write)


if __name__ == "__main__":
    main()
