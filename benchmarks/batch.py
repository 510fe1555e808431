"""Batch analysis through the executor seam (scorebook/batch.py), side by side in one run:

1. games a minute for ``analyze --all`` on 1 and 2 local worker processes and on a 2-worker
   Dask LocalCluster (one thread each), over the same Game of Islands records and seed;
2. the per-task overhead: a trivial task through the very same path (submit, run, result);
3. the cost as the queue grows: planning a batch of 1k / 10k / 100k pending records (the
   pending query and reading every record as the window moves on) and writing a result a
   record, each in its own transaction, as the batch does.

    python benchmarks/batch.py [--records 24] [--bot depth:3,budget:1000] [--write]

The local pool starts its processes (and loads the jitted code) within each timed run, as
``analyze --all`` does; the cluster is long-lived, as a cluster is, and is warmed by one
untimed batch first.
"""
from __future__ import annotations

import argparse
import os
import platform
import shutil
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from _report import publish  # noqa: E402

from scorebook import batch  # noqa: E402
from scorebook.analyze.loss import ENGINE_VERSION  # noqa: E402
from scorebook.analyze.run import analyze_all, resolve  # noqa: E402
from scorebook.engines.game_of_islands.bots import GREEDY, RANDOM, play_game  # noqa: E402
from scorebook.records.game_of_islands import bot_grid_text  # noqa: E402
from scorebook.records.ingest import ingest_text  # noqa: E402
from scorebook.records.store import Store  # noqa: E402

GAME = "game-of-islands"


def make_records(path: str, count: int) -> None:
    store = Store(path)
    for seed in range(count):
        lines = play_game(6, GREEDY, RANDOM if seed % 2 else GREEDY, 1000 + seed, 2, 1000)
        text, _ = bot_grid_text(6, lines, {"Grid": "6", "First": "A", "Second": "B"})
        ingest_text(store, text, f"g{seed}.pgn")
    store.db.conn.close()


def throughput(template: str, work: str, bot: str, records: int, scheduler: str | None) -> list[tuple]:
    rows = []
    for label, kind, jobs in [("local, 1 process", "local", 1), ("local, 2 processes", "local", 2),
                              ("Dask LocalCluster, 2 workers x 1 thread", "dask", None)]:
        if kind == "dask" and scheduler is None:
            continue
        path = os.path.join(work, f"t-{kind}-{jobs}.db")
        shutil.copy(template, path)
        store = Store(path)
        started = time.perf_counter()
        reports = analyze_all(store, bot, 3, jobs=jobs, executor=kind, scheduler=scheduler)
        seconds = time.perf_counter() - started
        assert len(reports) == records and not [r for r in reports if "error" in r], reports[:1]
        rows.append((label, records / seconds * 60, seconds))
        print(f"{label}: {records} records in {seconds:.1f} s", flush=True)
    return rows


def overhead(scheduler: str | None, tasks: int) -> list[tuple]:
    rows = []
    for label, kind, jobs in [("inline (1 local job)", "local", 1), ("local pool, 2 processes", "local", 2),
                              ("Dask LocalCluster, 2 workers", "dask", None)]:
        if kind == "dask" and scheduler is None:
            continue
        with batch.executor(kind, jobs=jobs, scheduler=scheduler) as pool:
            list(batch.run_tasks(pool, abs, range(50)))  # the pool's start is not a task's cost
            started = time.perf_counter()
            done = sum(1 for _ in batch.run_tasks(pool, abs, range(tasks)))
            seconds = time.perf_counter() - started
        assert done == tasks
        rows.append((label, seconds / tasks * 1e6))
        print(f"{label}: {seconds / tasks * 1e6:.0f} us a task", flush=True)
    return rows


def queue_growth(template: str, work: str, sizes: list[int], bot: str) -> list[tuple]:
    """A database of ``n`` pending copies of one record (fresh ids), then the batch's own
    steps without the analysis: plan (the pending ids, each record read back) and write a
    stored report a record."""
    source = Store(template)
    first = next(source.list())
    report = analyze_all(source, bot, 5, jobs=1)[0]
    source.db.conn.close()
    name = resolve(GAME, bot)[0]
    rows = []
    for n in sizes:
        path = os.path.join(work, f"q{n}.db")
        store = Store(path)
        store.db.execute("ATTACH DATABASE ? AS src", [template])
        with store.atomic():
            store.db.execute(
                "WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < ?) "
                "INSERT INTO records (id, hash, game, rules, deck, format, source, source_index, text, tags, score, "
                "recorded, total, finished, warnings, event_id, engine_version, ingested_at, players, event, result) "
                "SELECT printf('%016x', i), printf('%064x', i), r.game, r.rules, r.deck, r.format, r.source, i, "
                "r.text, r.tags, r.score, r.recorded, r.total, r.finished, r.warnings, NULL, r.engine_version, "
                "r.ingested_at, r.players, r.event, r.result FROM k, src.records r WHERE r.id = ?", [n, first["id"]])
        store.db.execute("DETACH DATABASE src")
        started = time.perf_counter()
        todo = store.unanalysed({GAME: name}, 5, ENGINE_VERSION)
        texts = sum(len(store.get(rid)["text"]) for rid in todo)
        plan = time.perf_counter() - started
        assert len(todo) == n and texts > 0
        started = time.perf_counter()
        for rid in todo:
            store.save_analysis(rid, report)
        write = time.perf_counter() - started
        assert store.unanalysed({GAME: name}, 5, ENGINE_VERSION) == []
        store.db.conn.close()
        os.remove(path)
        rows.append((n, plan, write))
        print(f"{n} pending: plan {plan:.2f} s, write {write:.2f} s", flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--records", type=int, default=24)
    parser.add_argument("--bot", default="depth:3,budget:1000")
    parser.add_argument("--tasks", type=int, default=2000, help="trivial tasks for the overhead")
    parser.add_argument("--queue", default="1000,10000,100000", help="pending-record counts, comma separated")
    parser.add_argument("--no-dask", action="store_true")
    parser.add_argument("--write", action="store_true", help="write the figures into BENCHMARKS.md")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="scorebook-batch-")
    template = os.path.join(work, "template.db")
    make_records(template, args.records)
    cluster = None
    scheduler = None
    if not args.no_dask:
        from distributed import LocalCluster
        os.environ.setdefault("SCOREBOOK_WORKER_CACHE", os.path.join(work, "worker-caches"))
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                               silence_logs=40)
        scheduler = cluster.scheduler_address
        warm = os.path.join(work, "warm.db")
        make_records(warm, 4)
        analyze_all(Store(warm), args.bot, 99, executor="dask", scheduler=scheduler)  # the cluster warms once
    try:
        speed = throughput(template, work, args.bot, args.records, scheduler)
        costs = overhead(scheduler, args.tasks)
    finally:
        if cluster is not None:
            cluster.close()
    growth = queue_growth(template, work, [int(x) for x in args.queue.split(",")], args.bot)
    shutil.rmtree(work, ignore_errors=True)

    base = speed[0][1]
    lines = ["### Batch analysis: local processes and Dask (benchmarks/batch.py)\n",
             f"{date.today().isoformat()}, {platform.machine()}, {os.cpu_count()} cores, Python "
             f"{platform.python_version()}. `python benchmarks/batch.py --records {args.records} --bot {args.bot}`: "
             f"{args.records} Game of Islands records (6x6, greedy against greedy or random), `analyze --all --bot "
             f"{args.bot}`, the same seed on every path; every path stored the same rows (tests/test_dask.py checks "
             "that on a LocalCluster).\n",
             "| executor | games a minute | seconds | vs 1 local process |", "|---|---:|---:|---:|"]
    lines += [f"| {label} | {rate:.1f} | {seconds:.1f} | {rate / base:.2f}x |" for label, rate, seconds in speed]
    lines += ["", f"Per-task overhead of the seam ({args.tasks} trivial tasks, the pool started): "
              + ", ".join(f"{us:,.0f} µs {label}" for label, us in costs) + ".\n"]
    lines += ["", "As the queue grows: n pending records (copies of one record), the batch's own steps without "
              "the analysis. Plan: the pending query and every record read back by id; write: one report a "
              "record, each in its own transaction.\n",
              "| pending | plan (s) | plan per record (us) | write (s) | write per record (ms) |",
              "|---:|---:|---:|---:|---:|"]
    lines += [f"| {n:,} | {plan:.2f} | {plan / n * 1e6:.0f} | {write:.1f} | {write / n * 1e3:.2f} |"
              for n, plan, write in growth]
    report = "\n".join(lines) + "\n"
    publish("### Batch analysis: local processes and Dask", report, args.write)


if __name__ == "__main__":
    main()
