"""Batch analysis on a Dask cluster (``--executor dask``): the same rows as the local path for
the same seeds, and a worker killed mid-task costs nothing but time. A real
``distributed.LocalCluster`` of two worker processes, one thread each."""
from __future__ import annotations

import json
import os
import signal
import sqlite3
import threading
import time

import pytest

from scorebook.analyze.run import analyze_all
from scorebook.engines.game_of_islands.bots import GREEDY, RANDOM, play_game
from scorebook.records.game_of_islands import bot_grid_text
from scorebook.records.ingest import ingest_text
from scorebook.records.store import Store

distributed = pytest.importorskip("distributed", reason="Dask is not installed (pip install 'scorebook[dask]')")

BOT = "depth:3,budget:1000"  # about a second a record: long enough to be caught mid-task

pytestmark = pytest.mark.cluster


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    cache = tmp_path_factory.mktemp("worker-caches")
    before = os.environ.get("SCOREBOOK_WORKER_CACHE")
    os.environ["SCOREBOOK_WORKER_CACHE"] = str(cache)  # the workers inherit it
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=40) as c:
        c.worker_caches = cache
        yield c
    if before is None:
        os.environ.pop("SCOREBOOK_WORKER_CACHE", None)
    else:
        os.environ["SCOREBOOK_WORKER_CACHE"] = before


def _records(path, count: int) -> Store:
    store = Store(str(path))
    for seed in range(count):
        lines = play_game(6, GREEDY, RANDOM if seed % 2 else GREEDY, seed, 2, 1000)
        text, _ = bot_grid_text(6, lines, {"Grid": "6", "First": "A", "Second": "B"})
        ingest_text(store, text, f"g{seed}.pgn")
    return store


def _stored(path) -> list[tuple]:
    """Every stored analysis and move row, without the row ids and times."""
    db = sqlite3.connect(path)
    heads = db.execute("SELECT r.id, a.bot, a.seed, a.engine_version, a.settings, a.thresholds, a.summary "
                       "FROM analyses a JOIN records r ON r.key = a.record_key ORDER BY r.id").fetchall()
    moves = db.execute("SELECT r.id, m.* FROM analysis_moves m JOIN analyses a ON a.id = m.analysis_id "
                       "JOIN records r ON r.key = a.record_key ORDER BY r.id, m.game, m.ply").fetchall()
    db.close()
    return heads + [row[:1] + row[2:] for row in moves]  # m.analysis_id differs from database to database


def test_a_cluster_stores_exactly_the_rows_the_local_path_stores(tmp_path, cluster):
    local = _records(tmp_path / "local.db", 6)
    assert len(analyze_all(local, BOT, 7, jobs=1)) == 6
    remote = _records(tmp_path / "remote.db", 6)
    reports = analyze_all(remote, BOT, 7, executor="dask", scheduler=cluster.scheduler_address)
    assert len(reports) == 6 and not [r for r in reports if "error" in r]
    assert _stored(tmp_path / "remote.db") == _stored(tmp_path / "local.db")
    # resumable like the local path: nothing left to do
    assert analyze_all(remote, BOT, 7, executor="dask", scheduler=cluster.scheduler_address) == []
    # each worker has its own numba cache, seeded from the package's, none shared
    folders = [p for p in cluster.worker_caches.iterdir() if p.is_dir()]
    assert len(folders) == 2 and all(any(p.rglob("*.nbi")) for p in folders)


def test_a_worker_killed_mid_task_loses_nothing(tmp_path, cluster):
    expected = _records(tmp_path / "local.db", 6)
    analyze_all(expected, BOT, 11, jobs=1)
    store = _records(tmp_path / "remote.db", 6)
    with distributed.Client(cluster.scheduler_address, set_as_default=False) as watcher:
        pids = watcher.run(os.getpid)
        outcome: dict = {}
        batch = threading.Thread(target=lambda: outcome.update(reports=analyze_all(
            Store(str(tmp_path / "remote.db")), BOT, 11, executor="dask", scheduler=cluster.scheduler_address)))
        batch.start()
        killed = None
        deadline = time.monotonic() + 120
        while killed is None and time.monotonic() < deadline and batch.is_alive():
            busy = [address for address, keys in watcher.processing().items() if keys and address in pids]
            if busy:
                killed = busy[0]
                os.kill(pids[killed], signal.SIGKILL)
            time.sleep(0.02)
        batch.join(300)
    assert killed is not None, "no worker was ever caught holding a task"
    reports = outcome["reports"]
    assert len(reports) == 6 and not [r for r in reports if "error" in r]
    assert store.db.execute("SELECT count(*) FROM analyses").fetchone()[0] == 6  # each record once
    assert _stored(tmp_path / "remote.db") == _stored(tmp_path / "local.db")


def test_the_cli_reaches_the_cluster_named_by_the_environment(run_cli, cluster, monkeypatch):
    from tests.conftest import cli_json
    local = cli_json(run_cli("play", "game-of-islands", "--players", "greedy,random", "--grid", "6", "--games", "4",
                             "--seed", "5", "--json"))
    monkeypatch.setenv("SCOREBOOK_SCHEDULER", cluster.scheduler_address)
    # the same games on the cluster: the same records (ingest finds them already stored)
    remote = cli_json(run_cli("play", "game-of-islands", "--players", "greedy,random", "--grid", "6", "--games", "4",
                              "--seed", "5", "--executor", "dask", "--json"))
    assert [g["id"] for g in remote["games"]] == [g["id"] for g in local["games"]]
    assert {g["status"] for g in remote["games"]} == {"duplicate"}
    batch = cli_json(run_cli("analyze", "--all", "--executor", "dask", "--json"))
    assert len(batch["analyses"]) == 4 and batch["errors"] == []


def test_dask_without_a_scheduler_is_a_usage_error(run_cli, monkeypatch):
    monkeypatch.delenv("SCOREBOOK_SCHEDULER", raising=False)
    result = run_cli("analyze", "--all", "--executor", "dask")
    assert result.exit_code == 2 and "--scheduler" in result.output


def test_the_server_runs_requested_analyses_on_the_cluster(tmp_path, cluster, run_cli):
    """``serve --writes --executor dask``: an analysis asked for over HTTP runs on a worker of
    the cluster and is stored by the server as the local path stores it."""
    pytest.importorskip("datasette", reason="Datasette is not installed (pip install -e '.[test]' installs it)")
    from tests.conftest import cli_json
    from tests.test_service import Server
    expected = _records(tmp_path / "local.db", 1)
    analyze_all(expected, BOT, 3, jobs=1)
    _records(run_cli.db, 1).close()
    rid = cli_json(run_cli("list", "--json"))["records"][0]["id"]
    token = cli_json(run_cli("token", "create", "club", "--can", "analyze", "--json"))["token"]
    server = Server(run_cli.db, "--writes", "--executor", "dask", "--scheduler", cluster.scheduler_address)
    try:
        status, job = server.call("POST", f"/-/scorebook/api/records/{rid}/analyses",
                                  json.dumps({"bot": BOT, "seed": 3}).encode(), token)
        assert status == 202
        assert server.wait_done(job["job"])["status"] == "done"
    finally:
        server.stop()
    assert _stored(run_cli.db) == _stored(tmp_path / "local.db")
