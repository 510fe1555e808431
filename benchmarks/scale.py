"""A million records: ingest and every command and page of the archive, at 100,000 and
1,000,000 records side by side.

    python benchmarks/scale.py [--sizes 100000,1000000] [--work DIR] [--write]

For each size: make a club's archive (``scale_archive.py``: the five games, skewed players,
dates over five years, weekly events with rounds), ingest it with ``scorebook ingest`` in ten
slices (records a second into an empty archive, the first slice, and into the full one, the
last), then time every command (median of three runs, less the CLI's own start-up) and, with
``scorebook serve`` on the archive, every page (median of five requests; a page that fails or
whose query was interrupted is marked). ``--work`` keeps the archives and databases there (a
million records take about 3.5 GB) so that a second run only times.
"""
from __future__ import annotations

import argparse
import os
import platform
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from _checkout import byte_compiled  # noqa: E402
from _report import publish  # noqa: E402
from scale_archive import build  # noqa: E402

SLICES = 10


def scorebook(db: Path, *args: str, check: bool = True) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "scorebook", "--db", str(db), *args], capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if check and done.returncode:
        raise SystemExit(f"scorebook {' '.join(args)}: {done.stderr.strip()[-500:]}")
    return seconds, done.stdout


def ingest(folder: Path, db: Path) -> dict:
    """Ingest the archive's files in slices (in order): records a second of each slice."""
    # in the order of the days they hold (each file's name starts with its date), as a club's
    # archive grows: each slice a mix of every game and format
    files = [str(p) for p in sorted((p for p in folder.rglob("*") if p.is_file()), key=lambda p: (p.name, str(p)))]
    rates = []
    total_start = time.perf_counter()
    for k in range(SLICES):
        part = files[k * len(files) // SLICES:(k + 1) * len(files) // SLICES]
        before = count(db)
        seconds, _ = scorebook(db, "ingest", "--json", *part)
        rates.append((count(db) - before) / seconds)
        print(f"  slice {k + 1}/{SLICES}: {rates[-1]:.0f} records/s, {count(db):,} stored", flush=True)
    return {"seconds": time.perf_counter() - total_start, "first": rates[0], "last": rates[-1],
            "records": count(db)}


def count(db: Path) -> int:
    if not db.exists():
        return 0
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT max(key) FROM records").fetchone()[0] or 0


def samples(db: Path) -> dict:
    """A record, a busy player, an event, a word to search: what the commands and pages ask for."""
    with sqlite3.connect(db) as conn:
        record_key, record_id = conn.execute("SELECT key, id FROM records WHERE key = (SELECT max(key) / 2 "
                                             "FROM records)").fetchone()
        player_id, player = conn.execute("SELECT p.id, p.name FROM players p WHERE p.id = (SELECT player_id FROM "
                                         "record_players WHERE record_key = ? LIMIT 1)", [record_key]).fetchone()
        event_id, event = conn.execute("SELECT id, name FROM events WHERE name LIKE 'Islands club night%' "
                                       "ORDER BY id DESC LIMIT 1").fetchone()
        # the player of the most records: the pages a busy player opens first are the slowest
        busiest = conn.execute("SELECT name FROM players WHERE id = (SELECT player_id FROM record_players "
                               "GROUP BY player_id ORDER BY count(*) DESC LIMIT 1)").fetchone()[0]
        tables = [r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'records_fts%' "
            "AND name NOT LIKE 'sqlite_%' AND name NOT IN ('api_tokens', 'analysis_jobs') ORDER BY type, name")]
    return {"key": record_key, "id": record_id, "player_id": player_id, "player": player, "event_id": event_id,
            "event": event, "tables": tables, "word": player.rstrip("0123456789"), "busiest": busiest}


def commands(db: Path, s: dict) -> list[tuple[str, float]]:
    start_up = statistics.median(scorebook(db, "--version")[0] for _ in range(3))
    asks = [("list", ["list"]), ("list --player NAME", ["list", "--player", s["player"]]),
            ("list --player NAME, the busiest player", ["list", "--player", s["busiest"]]),
            ("list --game tsuro --order 'date desc' --limit 20",
             ["list", "--game", "tsuro", "--order", "date desc", "--limit", "20"]),
            ("show ID", ["show", s["id"]]), ("export ID", ["export", s["id"]]), ("events", ["events"]),
            ("standings EVENT", ["standings", s["event"]]), ("ratings", ["ratings"]),
            ("ratings --game tsuro", ["ratings", "--game", "tsuro"])]
    out = [("CLI start-up (`scorebook --version`)", start_up)]
    for label, argv in asks:
        out.append((label, statistics.median(scorebook(db, *argv)[0] for _ in range(3)) - start_up))
    return out


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def pages(db: Path, s: dict) -> list[tuple[str, float, str]]:
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "scorebook", "--db", str(db), "serve", "--port", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{port}"
    name = db.stem
    try:
        deadline = time.monotonic() + 120
        while not get(base + "/")[0] == 200:
            if time.monotonic() > deadline or server.poll() is not None:
                raise SystemExit("the server did not start: " + (server.stderr.read() if server.poll() else ""))
            time.sleep(0.5)
        q = urllib.parse.quote
        asks = [("home page", "/"), ("database page", f"/{name}")]
        asks += [(f"table {t}", f"/{name}/{t}") for t in s["tables"]]
        asks += [("a record (row)", f"/{name}/records/{s['key']}"), ("a record (page)", f"/-/scorebook/record/{s['id']}"),
                 ("a player (row)", f"/{name}/players/{s['player_id']}"),
                 ("an event (row)", f"/{name}/events/{s['event_id']}"),
                 ("full-text search", f"/{name}/records?_search={q(s['word'])}"),
                 ("facet by game", f"/{name}/records?_facet=game"),
                 ("player's results (filter)", f"/{name}/player_results?player={q(s['player'])}"),
                 ("the busiest player's results (filter)", f"/{name}/player_results?player={q(s['busiest'])}"),
                 ("the busiest player's games (contains)", f"/{name}/games?players__contains={q(s['busiest'])}"),
                 ("full-text search of the busiest player", f"/{name}/records?_search={q(s['busiest'])}"),
                 ("games by date (sort)", f"/{name}/games?_sort_desc=date"),
                 ("an event's games (filter)", f"/{name}/games?event={q(s['event'])}"),
                 ("ratings page", "/-/scorebook/ratings"), ("ratings page, one game", "/-/scorebook/ratings?game=tsuro")]
        out = []
        for label, path in asks:
            times, fault = [], ""
            for _ in range(5):
                status, seconds, body = get(base + path)
                times.append(seconds)
                if status != 200:
                    fault = f"HTTP {status}"
                elif "interrupted" in body.lower():
                    fault = "interrupted"
            out.append((label, statistics.median(times), fault))
        return out
    finally:
        server.terminate()
        server.wait()


def get(url: str) -> tuple[int, float, str]:
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(url, timeout=60) as r:
            body = r.read().decode(errors="replace")
            return r.status, time.perf_counter() - start, body
    except urllib.error.HTTPError as err:
        return err.code, time.perf_counter() - start, ""
    except (urllib.error.URLError, ConnectionError):
        return 0, time.perf_counter() - start, ""


def measure(size: int, work: Path) -> dict:
    folder, db = work / f"archive-{size}", work / f"scale{size}.db"
    if not folder.exists():
        print(f"making {size:,} records in {folder}", flush=True)
        start = time.perf_counter()
        build(folder, size)
        print(f"  made in {time.perf_counter() - start:.0f} s", flush=True)
    result = {"records": size}
    if not db.exists():
        print("compiling the engines (the samples into a scratch database)", flush=True)
        scorebook(work / "warm.db", "ingest", "--json", str(ROOT / "samples"), check=False)  # no slice pays for it
        print(f"ingesting into {db}", flush=True)
        result["ingest"] = ingest(folder, db)
    s = samples(db)
    result["db_bytes"] = db.stat().st_size
    print("timing commands", flush=True)
    result["commands"] = commands(db, s)
    print("timing pages", flush=True)
    result["pages"] = pages(db, s)
    return result


def fmt_s(seconds: float) -> str:
    return f"{seconds:.2f} s" if seconds >= 0.995 else f"{seconds * 1000:.0f} ms"


def report(results: list[dict], argv: str) -> str:
    sizes = [f"{r['records']:,}" for r in results]
    head = "| | " + " | ".join(sizes) + (" | growth |" if len(results) > 1 else " |")
    rule = "|---" * (len(results) + 1 + (len(results) > 1)) + "|"
    lines = [f"### A million records ({date.today()})", "",
             f"`python benchmarks/scale.py {argv}` ({platform.machine()}, {os.cpu_count()} cores, "
             f"Python {platform.python_version()}). Commands: the median of three runs less the CLI's start-up; "
             "pages: the median of five requests to `scorebook serve` on loopback. "
             "Targets at a million: a command within 0.5 s of start-up, a page's median within 0.5 s, none "
             "interrupted.", "", head, rule]

    def row(label, values, unit=fmt_s, grow=True):
        cells = [unit(v) if v is not None else "-" for v in values]
        g = ""
        if len(values) > 1 and grow:
            g = f" | {values[-1] / values[0]:.1f}x" if values[0] and values[-1] is not None else " | -"
        elif len(values) > 1:
            g = " | "
        lines.append(f"| {label} | " + " | ".join(cells) + g + " |")

    if all("ingest" in r for r in results):
        row("ingest, records a second into an empty archive", [r["ingest"]["first"] for r in results],
            lambda v: f"{v:,.0f}", grow=False)
        row("ingest, records a second into the full archive (last tenth)", [r["ingest"]["last"] for r in results],
            lambda v: f"{v:,.0f}", grow=False)
        row("ingest, the whole archive", [r["ingest"]["seconds"] for r in results], lambda v: f"{v / 60:.1f} min")
    row("database size", [r["db_bytes"] for r in results], lambda v: f"{v / 2**30:.2f} GiB")
    for i, (label, _) in enumerate(results[0]["commands"]):
        row(f"`{label}`" if i else label, [r["commands"][i][1] for r in results])
    for i, (label, _, _) in enumerate(results[0]["pages"]):
        faults = [r["pages"][i][2] for r in results]
        mark = " (" + ", ".join(f"{f} at {r['records']:,}" for f, r in zip(faults, results) if f) + ")" \
            if any(faults) else ""
        row(label + mark, [r["pages"][i][1] for r in results])
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="100000,1000000")
    ap.add_argument("--work", type=Path)
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    byte_compiled(ROOT)  # the installed checkout's modules load as an install by pip leaves them
    with tempfile.TemporaryDirectory() as tmp:
        work = args.work or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        results = [measure(size, work) for size in sizes]
    publish("### A million records", report(results, f"--sizes {args.sizes}"), args.write)


if __name__ == "__main__":
    main()
