"""A folder read by forked workers, a file each: the same outcomes, statuses and stored rows
as one process reading the files in turn, and workers that die with their parent."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time

import pytest

import scorebook.records.ingest as ingest
from scorebook.analyze.standings import ingest_tournament
from scorebook.records.ingest import IngestPlan
from scorebook.records.store import Store

from .conftest import ROOT

pytestmark = pytest.mark.skipif("fork" not in ingest.multiprocessing.get_all_start_methods(),
                                reason="forked workers need the fork start method")


def _folder(tmp_path):
    """The samples of every game and format, a file rejected, a file of duplicates."""
    folder = tmp_path / "archive"
    shutil.copytree(ROOT / "samples", folder)
    first = sorted(folder.rglob("*.pgn"))[0]
    (folder / "zz-again.pgn").write_text(first.read_text())  # every record a duplicate
    (folder / "aa-broken.pgn").write_text('[Game "tsuro"]\n[Players "a b"]\n\n1. a 99r9@z9\n')
    return folder


def _run(folder, db, strict):
    plan = IngestPlan.of([str(folder)])
    doc = plan.run(Store(str(db)), strict=strict, take_tournament=ingest_tournament)
    rows = Store(str(db)).db.execute("SELECT key, id, source, tags FROM records ORDER BY key").fetchall()
    moves = Store(str(db)).db.execute("SELECT count(*), sum(ply) FROM moves").fetchone()
    return doc, rows, moves


def _serial_and_by_workers(path, tmp_path, monkeypatch, strict: bool, **settings):
    """``path`` ingested by this process alone, then by two forked workers (``settings``: the
    ingest module's values for the second run); both runs' (document, rows, moves)."""
    monkeypatch.setattr(ingest, "_can_fork", lambda: False)
    serial = _run(path, tmp_path / "serial.db", strict)
    monkeypatch.undo()
    monkeypatch.setattr(ingest, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(ingest, "_workers", lambda: 2)
    for name, value in settings.items():
        monkeypatch.setattr(ingest, name, value)
    pools = []
    real_pool = ingest._pool
    monkeypatch.setattr(ingest, "_pool", lambda n: pools.append(n) or real_pool(n))
    parallel = _run(path, tmp_path / "parallel.db", strict)
    assert pools == [2], "read by the workers"
    return serial, parallel


@pytest.mark.parametrize("strict", [False, True])
def test_a_folder_read_by_workers_gives_what_one_process_gives(tmp_path, monkeypatch, strict):
    serial, parallel = _serial_and_by_workers(_folder(tmp_path), tmp_path, monkeypatch, strict)
    assert parallel == serial
    statuses = {o["status"] for o in parallel[0]["records"]}
    assert statuses == {"ingested", "duplicate", "rejected"}


_HAPPENED: list = []  # the files read in this process, and "pool" where the workers were forked
_READ = ingest._read_file_pairs


def _recorded_read(job):
    """A file read (here, or in a worker: a worker's list is its own)."""
    _HAPPENED.append(job[0])
    return _READ(job)


def test_the_writer_reads_a_record_of_each_game_before_the_workers_are_forked(tmp_path, monkeypatch):
    """The first record of the first file of each game (its Game tag, or its foreign format) is
    read by the writer, before the pool: the workers start with the games' code loaded. Every
    file is then read by the workers, and every record stored as one process stores it. A FIFO
    among the files is not waited on."""
    folder = _folder(tmp_path)
    alone = _run(folder, tmp_path / "serial.db", False)
    os.mkfifo(folder / "aa-pipe.pgn")
    monkeypatch.setattr(ingest, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(ingest, "_workers", lambda: 2)
    happened = _HAPPENED
    happened.clear()
    real_pool, real_first = ingest._pool, ingest._first_record_read
    monkeypatch.setattr(ingest, "_pool", lambda n: happened.append("pool") or real_pool(n))
    monkeypatch.setattr(ingest, "_first_record_read",
                        lambda path, fmt, lenient: happened.append(("first", path)) or real_first(path, fmt, lenient))
    monkeypatch.setattr(ingest, "_read_file_pairs", _recorded_read)
    files = IngestPlan.of([str(folder)]).files
    doc, rows, moves = _run(folder, tmp_path / "parallel.db", False)
    read_here = happened[:happened.index("pool")]
    assert happened[-1] == "pool"  # every file was read by the workers
    kinds = {}
    for path in files:
        head = open(path, errors="replace").read(4096) if os.path.isfile(path) else ""
        tag = ingest._GAME_TAG.search(head)
        kind = tag.group(1) if tag else ingest.detect_format(head)
        if kind and kind != "pgn":
            kinds.setdefault(kind, path)
    assert read_here == [("first", path) for path in kinds.values()] and len(kinds) >= 5
    assert (rows, moves) == alone[1:] and doc["summary"]["ingested"] == alone[0]["summary"]["ingested"]


def test_a_long_pgn_file_read_by_workers_gives_what_one_process_gives(tmp_path, monkeypatch):
    """Every PGN sample in one file, a triad's games spread through it (its record stands at
    its first game's place), a broken record among them: read by forked workers a batch of
    records each, the same outcomes and stored rows as read by this process alone."""
    texts = [p.read_text() for p in sorted(ROOT.joinpath("samples").rglob("*.pgn"))]
    triad = next(t for t in texts if "[Match " in t)
    parts = triad.split("\n[Game ")
    games = [parts[0]] + ["[Game " + part for part in parts[1:]]
    assert len(games) == 3
    others = [t for t in texts if t is not triad]
    mixed = [games[0]] + others[:5] + [games[1]] + others[5:] + ['[Game "tsuro"]\n[Players "a b"]\n\n1. a 99r9@z9\n']
    mixed += games[2:]
    path = tmp_path / "all.pgn"
    path.write_text("\n\n".join(t.strip() for t in mixed) + "\n")
    serial, parallel = _serial_and_by_workers(path, tmp_path, monkeypatch, False, _STREAM_BATCH=3)  # several batches
    assert parallel == serial
    statuses = [o["status"] for o in parallel[0]["records"]]
    assert "rejected" in statuses and statuses.count("ingested") >= 20
    spread = next(o for o in parallel[0]["records"] if o["index"] == 1)  # the triad, at its first game's place
    assert spread["status"] == "ingested" and len(spread["score"]["games"]) == 3


def test_a_large_file_is_read_by_the_writer_between_pooled_ones(tmp_path, monkeypatch):
    folder = _folder(tmp_path)
    monkeypatch.setattr(ingest, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(ingest, "POOLED_MAX_BYTES", 2000)  # the larger sample files are "large"
    monkeypatch.setattr(ingest, "_workers", lambda: 2)
    parallel = _run(folder, tmp_path / "parallel.db", False)
    monkeypatch.setattr(ingest, "_can_fork", lambda: False)
    assert _run(folder, tmp_path / "serial.db", False) == parallel


def test_busy_workers_die_with_their_parent_even_by_kill_9(tmp_path):
    script = textwrap.dedent("""
        import time
        import scorebook.records.ingest as ingest
        pool = ingest._pool(2)
        busy = [pool.apply_async(time.sleep, (60,)) for _ in range(2)]  # a worker mid-file, as when killed
        print(" ".join(str(w.pid) for w in pool._pool), flush=True)
        time.sleep(60)
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    workers = [int(p) for p in proc.stdout.readline().split()]
    assert len(workers) == 2
    time.sleep(0.5)  # the workers have run their initializer
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 3
    alive = workers
    while alive and time.monotonic() < deadline:
        alive = [w for w in workers if _alive(w)]
        time.sleep(0.05)
    assert not alive, f"workers {alive} outlived their parent"


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _sigterm_handler(signum, frame):  # the CLI's, as a worker would inherit it
    raise AssertionError("not in a worker")


def test_a_worker_stopped_before_its_initializer_ends_by_the_default_action():
    """SIGTERM sent while a worker is still starting (before ``_worker_init`` restored the
    default action) ends it as SIGTERM does, never by its parent's handler: a handler that
    raises, run there, could leave the pool waiting for a worker that never ends. The
    initializer is slowed so that the pool's SIGTERM always comes first."""
    script = textwrap.dedent("""
        import signal, time
        import scorebook.records.ingest as ingest
        def handler(signum, frame):
            raise AssertionError("the parent's handler ran in a worker")
        signal.signal(signal.SIGTERM, handler)
        original = ingest._worker_init
        def slow(parent):
            time.sleep(0.5)
            original(parent)
        ingest._worker_init = slow
        pool = ingest._pool(2)
        workers = list(pool._pool)
        time.sleep(0.1)  # forked, not yet initialised
        pool.terminate()
        print(" ".join(str(w.exitcode) for w in workers))
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(-signal.SIGTERM)] * 2, (done.stdout, done.stderr)
    assert "handler ran" not in done.stderr


def test_workers_end_on_sigterm_whatever_handler_their_parent_has():
    """The pool stops its workers with SIGTERM: a worker must not keep the CLI's handler (it
    printed "interrupted", and a worker forked from the command thread could hang the pool)."""
    before = signal.signal(signal.SIGTERM, _sigterm_handler)
    try:
        pool = ingest._pool(2)
        try:
            assert pool.apply(signal.getsignal, (signal.SIGTERM,)) == signal.SIG_DFL
        finally:
            pool.terminate()
    finally:
        signal.signal(signal.SIGTERM, before)


def _pid_after(seconds: float):
    def work(item):
        time.sleep(seconds)
        return (item, os.getpid())
    return work


def test_work_alongside_a_worker_is_shared_and_comes_back_in_order(monkeypatch):
    """Each side takes the next item as it is free: both do some, and the results come back in
    the items' order, each done once. This side's first item waits for the worker's first (a
    worker slow to start on a busy machine would otherwise find every item taken)."""
    monkeypatch.setattr(ingest, "_workers", lambda: 2)
    worker_began = ingest.multiprocessing.get_context("fork").Event()  # inherited by the fork

    def here(item):
        assert worker_began.wait(30)
        return _pid_after(0.01)(item)

    def there(item):
        worker_began.set()
        return _pid_after(0.05)(item)
    results = ingest.alongside(list(range(8)), here, there)
    assert [item for item, _ in results] == list(range(8))
    pids = {pid for _, pid in results}
    assert os.getpid() in pids and len(pids) == 2


def test_what_the_worker_took_and_did_not_finish_is_done_here(monkeypatch):
    monkeypatch.setattr(ingest, "_workers", lambda: 2)

    def there(item):
        time.sleep(0.05)
        if item == 1:
            raise RuntimeError("the worker fails")
        return (item, os.getpid())
    results = ingest.alongside(list(range(6)), _pid_after(0.05), there)
    assert [item for item, _ in results] == list(range(6))
    assert dict(results)[1] == os.getpid()


def test_ratings_kept_alongside_a_worker_are_those_kept_here(tmp_path, monkeypatch):
    """Ingest's upkeep shares the games with a forked process, each on its own connection: the
    kept ratings, marks and checkpoints are those of one process keeping every game."""
    from scorebook.analyze import ratings as ratings_module
    from scorebook.analyze.ratings import update
    monkeypatch.setattr(ratings_module, "CHECKPOINT_EVERY", 4)
    monkeypatch.setattr(ingest, "_workers", lambda: 2)
    kept = {}
    for name, together in (("here", False), ("alongside", True)):
        store = Store(str(tmp_path / f"{name}.db"))
        IngestPlan.of([str(ROOT / "samples")]).run(store, take_tournament=ingest_tournament)
        shared = []
        real = ingest.alongside
        monkeypatch.setattr(ingest, "alongside", lambda items, here, there: shared.append(items) or
                            real(items, here, there))
        assert update(store, alongside=together) > 0
        monkeypatch.setattr(ingest, "alongside", real)
        assert bool(shared) == together and (not shared or len(shared[0]) == len(set(shared[0])) >= 2)
        kept[name] = {table: store.db.execute(f"SELECT * FROM {table} ORDER BY 1, 2, 3").fetchall()
                      for table in ("ratings", "ratings_marks", "ratings_checkpoints")}
        store.close()
    assert kept["here"]["ratings"] and kept["here"]["ratings_checkpoints"]
    assert kept["alongside"] == kept["here"]


def test_the_ratings_worker_copies_the_ingests_log_back_first(tmp_path, monkeypatch):
    """The forked ratings worker copies the log the ingest wrote back into the file, on its own
    connection, while this process rates: this process's close is left only the ratings'
    pages to copy. It does not read the file whole again (``quick_check``: this process
    checked it when it opened it)."""
    from scorebook.analyze import ratings as ratings_module
    from scorebook.analyze.ratings import update
    monkeypatch.setattr(ingest, "_workers", lambda: 2)
    store = Store(str(tmp_path / "a.db"))
    IngestPlan.of([str(ROOT / "samples")]).run(store, take_tournament=ingest_tournament)
    copiers = tmp_path / "copiers"
    real, real_update, parent = Store.copy_log_back, ratings_module._update_game, os.getpid()

    def copy_log_back(self):
        with open(copiers, "a") as out:  # the forked worker's writes are seen here
            out.write(f"{os.getpid()}\n")
        real(self)

    def update_game(store, game):  # this side waits for the worker's first game (however slow to start)
        deadline = time.monotonic() + 30
        while os.getpid() == parent and not copiers.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        return real_update(store, game)
    checkers, real_check = tmp_path / "checkers", Store._check_intact

    def check_intact(self):
        with open(checkers, "a") as out:
            out.write(f"{os.getpid()}\n")
        real_check(self)
    monkeypatch.setattr(Store, "copy_log_back", copy_log_back)
    monkeypatch.setattr(Store, "_check_intact", check_intact)
    monkeypatch.setattr(ratings_module, "_update_game", update_game)
    assert os.path.getsize(store.path + "-wal") > 0
    assert update(store, alongside=True) > 0
    assert [int(pid) for pid in copiers.read_text().split()] not in ([], [os.getpid()])
    assert not checkers.exists()
    store.close()


def test_files_read_ahead_are_bounded_by_count_and_by_bytes(tmp_path, monkeypatch):
    """The workers are kept AHEAD_FILES files a worker ahead of the writer, fewer where the
    files pending already hold AHEAD_BYTES (never fewer than two a worker): each file is
    submitted only once the writer has taken enough of those before it."""
    folder = _folder(tmp_path)
    paths = [str(p) for p in sorted(folder.rglob("*.pgn"))]
    sizes = [os.path.getsize(p) for p in paths]
    monkeypatch.setattr(ingest, "_workers", lambda: 2)
    monkeypatch.setattr(ingest, "PARALLEL_MIN_BYTES", 1)
    submitted: list[str] = []
    real_pool = ingest._pool

    class Counted:
        def __init__(self, workers):
            self.pool = real_pool(workers)

        def apply_async(self, fn, args):
            submitted.append(args[0][0])
            return self.pool.apply_async(fn, args)

        def terminate(self):
            self.pool.terminate()
    monkeypatch.setattr(ingest, "_pool", Counted)
    for files, budget in ((3, 10 ** 9), (8, 1500)):  # the count binds, then the bytes
        monkeypatch.setattr(ingest, "AHEAD_FILES", files)
        monkeypatch.setattr(ingest, "AHEAD_BYTES", budget)
        submitted.clear()
        most = 0
        for taken, (path, pairs) in enumerate(ingest._pooled_files(paths, sizes, "auto", False)):
            assert path == paths[taken] and pairs is not None
            ahead = submitted[taken + 1:]  # pending once the writer has this one
            most = max(most, len(ahead))
            assert len(ahead) <= 2 * files
            if len(ahead) > 4:  # beyond two a worker only while under the budget
                assert sum(sizes[paths.index(p)] for p in ahead[:-1]) < budget
        assert submitted == paths
        assert (most == 2 * files) if budget > sum(sizes) else (4 <= most < 2 * files)


@pytest.mark.parametrize("enabled", [True, False])
def test_the_collector_is_paused_while_the_files_are_written_and_left_as_found(tmp_path, monkeypatch, enabled):
    """The writer makes no cycles, and a full collection walks every object the games' code
    loaded: the cyclic collector is paused while a folder's files are written, and after
    the ingest it is as it was (a long-lived process, the service, keeps collecting)."""
    import gc
    monkeypatch.setattr(ingest, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(ingest, "_workers", lambda: 2)
    seen = []
    real_write = ingest._write_pairs
    monkeypatch.setattr(ingest, "_write_pairs", lambda *a, **k: seen.append(gc.isenabled()) or real_write(*a, **k))
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        doc, _, _ = _run(_folder(tmp_path), tmp_path / "gc.db", False)
        after = gc.isenabled()
    finally:
        (gc.enable if was else gc.disable)()
    assert doc["summary"]["ingested"] > 0 and seen and not any(seen)
    assert after is enabled
