"""Ratings: how fast an archive is rated, and the bot ladders of every game.

    python benchmarks/ratings.py speed [--games 100000] [--old CHECKOUT] [--write]
    python benchmarks/ratings.py ladders [--write]

``speed`` rates 100,000 made-up results (two-player games and five-player ones, 2,000
players), then reads and rates an archive of 20,000 stored records, the time of each step
side by side; ``--old``: the made-up results rated by an older checkout too, alternating, the
best of three each (its document must be the same). ``ladders`` plays
``scorebook play GAME --ladder ...`` for each game's bots into a scratch database and prints
the ratings with their uncertainty.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import random
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from _checkout import USE_CHECKOUT, run_task  # noqa: E402
from _report import publish  # noqa: E402

from scorebook.analyze.ratings import Result, rate, results  # noqa: E402

LADDERS = [  # (game, bots, games a match, extra options)
    ("tsuro", "random,simple,mc:4,mc:16", 200, []),  # four at one table: fewer games leave the ranks to chance
    ("iwoki", "random,greedy,minimax:2,sampler:8", 20, []),
    ("game-of-islands", "random,greedy,search", 10, []),
    ("patchwork", "random,vbrz:60,rule-based:60,best", 6, ["--variant", "two-player"]),
]


def machine() -> str:
    return f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"


def made_up(n: int, seed: int = 1) -> list[Result]:
    rng = random.Random(seed)
    players = [f"p{i}" for i in range(2000)]
    out = []
    for i in range(n):
        k = 2 if i % 3 else 5
        seats = rng.sample(players, k)
        places = [1 + sum(rng.random() < 0.5 for _ in range(j)) for j in range(k)]
        out.append(Result("tsuro" if k == 5 else "iwoki", f"r{i:07d}", f"2026-{1 + i % 12:02d}-01", seats, places))
    return out


def stored_archive(path: str, n: int) -> None:
    """An archive of n two-player records, written straight into the store's tables (the
    ratings read only the records, their players and scores)."""
    from scorebook.records.store import Store
    store = Store(path)
    rng = random.Random(2)
    conn = store.db.conn
    names = [f"p{i}" for i in range(500)]
    with store.atomic():
        conn.executemany("INSERT INTO players (id, name) VALUES (?, ?)", list(enumerate(names, 1)))
        for i in range(n):
            a, b = rng.sample(range(1, 501), 2)
            final = [rng.randint(0, 40), rng.randint(0, 40)]
            score = {"before_tally": final, "penalties": [0, 0], "final": final,
                     "winner": 0 if final[0] > final[1] else 1 if final[1] > final[0] else None}
            conn.execute("INSERT INTO records (key, id, hash, game, format, text, tags, score, finished, "
                         "engine_version, ingested_at) VALUES (?, ?, ?, 'iwoki', 'pgn', '', ?, ?, 1, '0', ?)",
                         [i + 1, f"{i:016x}", f"{i:064x}", json.dumps({"Date": f"2026.{1 + i % 12:02d}.01"}),
                          json.dumps(score), "2026-11-27T00:00:00"])
            conn.executemany("INSERT INTO record_players (record_key, seat, player_id) VALUES (?, ?, ?)",
                             [(i + 1, 0, a), (i + 1, 1, b)])
    store.close()


# the made-up results rated by the checkout given last (``--old``): its seconds and document
RATE_MADE_UP = USE_CHECKOUT + r'''
use_checkout(sys.argv[-1])
import json, time
sys.path.insert(0, sys.argv[-3])
from ratings import made_up
from scorebook.analyze.ratings import rate
games = made_up(int(sys.argv[-2]))
start = time.perf_counter()
doc = rate(games)
print(json.dumps({"seconds": time.perf_counter() - start, "doc": doc}))
'''


def speed(args) -> None:
    games = made_up(args.games)
    start = time.perf_counter()
    doc = rate(games)
    rated = time.perf_counter() - start
    old = []
    old_name = "the checkout of " + subprocess.run(["git", "-C", args.old, "rev-parse", "--short", "HEAD"],
                                                   capture_output=True, text=True).stdout.strip() if args.old else ""
    for _ in range(3 if args.old else 0):  # each checkout in a fresh process, alternating
        theirs = run_task(RATE_MADE_UP, Path(args.old).resolve(), str(ROOT / "benchmarks"), str(args.games))
        if theirs["doc"] != doc:
            raise SystemExit(f"{args.old} rates the made-up results differently")
        old.append(theirs["seconds"])
        start = time.perf_counter()
        rate(games)
        rated = min(rated, time.perf_counter() - start)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "archive.db")
        stored_archive(path, args.stored)
        from scorebook.records.store import Store
        store = Store(path, write=False)
        start = time.perf_counter()
        chosen = results(store)
        read = time.perf_counter() - start
        start = time.perf_counter()
        rate(chosen)
        rated_stored = time.perf_counter() - start
    heading = "### Ratings: speed ("
    text = "\n".join([
        f"{heading}{date.today().isoformat()}, {machine()})", "",
        f"`python benchmarks/ratings.py speed{f' --old <{old_name}>' if old else ''}`: Plackett-Luce "
        "(`analyze/plackett_luce.py`, openskill's floats), one update a game.", "",
        "| step | games | seconds | microseconds a game |", "|---|---:|---:|---:|",
        f"| rate made-up results (2 and 5 players, 2,000 players) | {len(games):,} | {rated:.2f} | "
        f"{1e6 * rated / len(games):.0f} |",
        *([f"| the same, by {old_name} (the same ratings) | {len(games):,} | {min(old):.2f} | "
           f"{1e6 * min(old) / len(games):.0f} |", f"| ratio | | **{min(old) / rated:.2f}x** | |"] if old else []),
        f"| read a stored archive's results | {len(chosen):,} | {read:.2f} | {1e6 * read / len(chosen):.0f} |",
        f"| rate them | {len(chosen):,} | {rated_stored:.2f} | {1e6 * rated_stored / len(chosen):.0f} |", "",
        f"{len(doc['ratings']):,} players rated from the made-up games. Both steps are linear in the games.", ""])
    publish(heading, text, args.write)


def ladders(args) -> None:
    heading = "### Ratings: bot ladders ("
    out = [f"{heading}{date.today().isoformat()}, {machine()})", "",
           "`python benchmarks/ratings.py ladders`: `scorebook play GAME --ladder BOTS --games N --seed 1` each "
           "(every pair of bots N games, seats rotating; Tsuro's bots all at one table), rated from those games "
           "alone: rating = mu - 3 sigma, ± sigma.", ""]
    out += ["| game | rank | bot | rating | mu ± sigma | won | shared | lost |",
            "|---|---:|---|---:|---:|---:|---:|---:|"]
    with tempfile.TemporaryDirectory() as tmp:
        for game, bots, n, extra in LADDERS:
            start = time.perf_counter()
            done = subprocess.run([sys.executable, "-m", "scorebook", "--db", os.path.join(tmp, f"{game}.db"),
                                   "play", game, "--ladder", bots, "--games", str(n), "--seed", "1", *extra,
                                   "--json"], capture_output=True, text=True)
            seconds = time.perf_counter() - start
            if done.returncode != 0:
                out.append(f"| {game} | failed: {done.stderr.strip().splitlines()[-1:]} | | | | | | |")
                continue
            doc = json.loads(done.stdout)
            label = f"{game} ({' '.join(extra)}{' ' if extra else ''}{doc['games']} games, {seconds:.0f} s)"
            for r in doc["ratings"]["ratings"]:
                out.append(f"| {label if r['rank'] == 1 else ''} | {r['rank']} | {r['player']} | {r['rating']:.1f} | "
                           f"{r['mu']:.1f} ± {r['sigma']:.1f} | {r['wins']} | {r['shared']} | {r['losses']} |")
    out.append("")
    text = "\n".join(out)
    publish(heading, text, args.write)


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("speed")
    s.add_argument("--games", type=int, default=100_000)
    s.add_argument("--stored", type=int, default=20_000)
    s.add_argument("--old", help="an older checkout to rate the made-up results too (git worktree add /tmp/old REV)")
    s.add_argument("--write", action="store_true")
    ladder = sub.add_parser("ladders")
    ladder.add_argument("--write", action="store_true")
    args = parser.parse_args()
    {"speed": speed, "ladders": ladders}[args.command](args)


if __name__ == "__main__":
    main()
