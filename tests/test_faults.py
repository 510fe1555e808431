"""Faults and concurrency: writers wait for each other and never lose or double a record;
a damaged database, a FIFO, a device, an unlistable folder, an oversized input and odd ids
each give one clean line (a rejection or an error), never a traceback or a hang."""
from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from scorebook.records.ingest import expand_paths, ingest_file
from scorebook.records.limits import MAX_FILE_BYTES
from scorebook.records.store import Store

from .conftest import cli_json
from .tiny_islands.conftest import random_tinybot_line


def scorebook(db, *args, input=None, timeout=300):
    return subprocess.run([sys.executable, "-m", "scorebook", "--db", str(db), *args], input=input,
                          capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def overlapping_files(tmp_path_factory):
    """4 files of 20 TinyBot lines, neighbours sharing half; and the number of distinct records."""
    folder = tmp_path_factory.mktemp("files")
    pool = [random_tinybot_line(seed) for seed in range(50)]
    paths = []
    for k in range(4):
        path = folder / f"part{k}.txt"
        path.write_text("\n".join(pool[k * 10:k * 10 + 20]) + "\n")
        paths.append(path)
    return paths, 50


@pytest.mark.slow
def test_concurrent_writers_store_every_record_once(tmp_path, overlapping_files):
    paths, distinct = overlapping_files
    for round_ in range(2):
        db = tmp_path / f"new{round_}.db"  # a new database each round: creation races too
        procs = [subprocess.Popen([sys.executable, "-m", "scorebook", "--db", str(db), "ingest",
                                   *map(str, paths[p:] + paths[:p])], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE, text=True) for p in range(4)]
        errors = [p.communicate(timeout=300)[1] for p in procs]
        assert [p.returncode for p in procs] == [0] * 4, errors
        with sqlite3.connect(db) as con:
            assert con.execute("SELECT count(*), count(DISTINCT hash) FROM records").fetchone() == (distinct, distinct)


@pytest.mark.slow
def test_a_writer_waits_for_a_long_held_lock(tmp_path):
    db = tmp_path / "busy.db"
    Store(str(db))
    holder = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")
    threading.Timer(6.0, lambda: holder.execute("COMMIT")).start()  # longer than SQLite's 5 s default
    start = time.monotonic()
    done = scorebook(db, "ingest", "-", input=random_tinybot_line(1) + "\n")
    assert done.returncode == 0 and "1 ingested" in done.stdout, done.stderr
    assert "waiting for another process" in done.stderr and time.monotonic() - start >= 5.5
    holder.close()


def _damaged(tmp_path):
    """A database of 40 records with every page but the schema's scribbled over."""
    db = tmp_path / "bad.db"
    store = Store(str(db))
    from scorebook.records.ingest import ingest_text
    ingest_text(store, "\n".join(random_tinybot_line(s) for s in range(40)) + "\n", "x.txt")
    store.db.conn.close()
    data = bytearray(db.read_bytes())
    for page in range(2, len(data) // 4096):  # scribble over every page but the schema's
        data[page * 4096 + 8:(page + 1) * 4096] = b"\xff" * (4096 - 8)
    db.write_bytes(bytes(data))
    return db


def test_a_damaged_database_too_large_to_check_whole_fails_its_write_in_one_line(tmp_path, monkeypatch):
    """Past WHOLE_CHECK_MAX_BYTES a writer does not read the whole file when it opens it (4.5 s
    at a million records): the first damaged page its write reaches fails it, in one line, and
    nothing is written."""
    import scorebook.records.store as store_module
    from click.testing import CliRunner
    from scorebook.cli.main import main
    db = _damaged(tmp_path)
    before = db.read_bytes()
    monkeypatch.setattr(store_module, "WHOLE_CHECK_MAX_BYTES", 0)
    result = CliRunner().invoke(main, ["--db", str(db), "ingest", "-"], input=random_tinybot_line(99) + "\n")
    assert result.exit_code == 1 and "is damaged" in result.stderr and result.stderr.count("\n") == 1, result.stderr
    wal = str(db) + "-wal"
    assert db.read_bytes() == before and (not os.path.exists(wal) or os.path.getsize(wal) == 0)


def test_a_damaged_database_is_one_line(tmp_path):
    db = _damaged(tmp_path)
    done = scorebook(db, "ingest", "-", input="")  # a writer checks the database when it opens it
    assert done.returncode == 1 and done.stderr.count("\n") == 1 and "is damaged" in done.stderr, done.stderr
    failures = 0
    for args in (["list"], ["show", "0"], ["export", "1"]):  # a reader fails when it reads a damaged page
        done = scorebook(db, *args)
        assert done.returncode in (0, 1) and "Traceback" not in done.stderr, (args, done.stderr)
        if done.returncode:
            failures += 1
            assert done.stderr.count("\n") == 1 and "database error" in done.stderr, done.stderr
    assert failures


def test_special_files_are_refused_without_reading(tmp_path, store):
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    for path, code, why in ((str(fifo), "unreadable-file", "a FIFO"), ("/dev/zero", "unreadable-file", "a device"),
                            (str(tmp_path / "none.txt"), "unreadable-file", "No such file")):
        out = ingest_file(store, path)[0]
        err = out["errors"][0]
        assert (out["status"], err["code"], err["line"], err["column"]) == ("rejected", code, 1, 1)
        assert why in err["message"]
    # a FIFO found in a folder is listed, then refused the same way: ingest never blocks on it
    files, problems, _ = expand_paths([str(tmp_path)])
    assert str(fifo) in files and problems == []
    done = scorebook(tmp_path / "s.db", "ingest", str(tmp_path), "--json", timeout=60)
    assert cli_json(done)["records"][0]["errors"][0]["code"] == "unreadable-file"


def test_an_unlistable_folder_is_reported(tmp_path, monkeypatch):
    # os.walk's error callback is what reports it: a folder that vanishes while being walked
    def walk(top, onerror=None):
        onerror(PermissionError(13, "Permission denied", str(tmp_path / "gone")))
        return iter([])
    monkeypatch.setattr(os, "walk", walk)
    files, problems, _ = expand_paths([str(tmp_path)])
    err = problems[0]["errors"][0]
    assert problems[0]["source"].endswith("gone") and err["code"] == "unreadable-file" and err["line"] == 1


def test_oversized_input_is_refused_before_it_is_read(tmp_path, store):
    big = tmp_path / "big.txt"
    with open(big, "wb") as fh:
        fh.truncate(MAX_FILE_BYTES + 1)  # sparse: nothing is written, and nothing may be read
    err = ingest_file(store, str(big))[0]["errors"][0]
    assert err["code"] == "too-large" and f"{MAX_FILE_BYTES:,}" in err["message"]
    done = subprocess.run(f"head -c {MAX_FILE_BYTES + 10} /dev/zero | {sys.executable} -m scorebook --db "
                          f"{tmp_path / 's.db'} ingest - --json", shell=True, capture_output=True, text=True,
                          timeout=120)
    assert cli_json(done)["records"][0]["errors"][0]["code"] == "too-large"  # stdin: read up to the limit only


def test_ids_are_matched_exactly_and_schemas_checked(tmp_path, run_cli):
    cli_json(run_cli("ingest", "-", "--json", input=random_tinybot_line(2) + "\n"))
    for ref in ("%", "_", "' OR 1=1 --"):
        result = run_cli("show", ref)
        assert result.exit_code == 1 and "no record with id" in result.output  # a failed check (cli.md)
    db = tmp_path / "odd.db"
    with sqlite3.connect(db) as con:
        con.execute("PRAGMA user_version = -1")
    done = scorebook(db, "list")
    assert done.returncode == 2 and "not a Scorebook database" in done.stderr


def _living(marker: str) -> list[int]:
    """Processes whose command line holds ``marker`` (from /proc)."""
    out = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            try:
                with open(f"/proc/{entry.name}/cmdline", "rb") as f:
                    if marker.encode() in f.read():
                        out.append(int(entry.name))
            except OSError:
                continue
    return out


@pytest.mark.slow
@pytest.mark.parametrize("signum", [2, 15])  # SIGINT (Ctrl-C) and SIGTERM
def test_an_interrupted_batch_leaves_no_worker_behind(tmp_path, signum):
    """play --jobs 2 (a pool of worker processes) stopped mid-game: one line, exit 130, and
    every worker gone with it (none left running with parent 1)."""
    db = tmp_path / f"stopped-{signum}.db"
    proc = subprocess.Popen([sys.executable, "-m", "scorebook", "--db", str(db), "play", "tiny-islands", "--players",
                             "halving:64", "--games", "6", "--jobs", "2"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    for _ in range(300):  # until both workers run
        time.sleep(0.1)
        if len(_living(str(db))) >= 3:
            break
    assert len(_living(str(db))) >= 3, "the pool's workers did not start"
    proc.send_signal(signum)
    err = proc.communicate(timeout=60)[1]
    assert proc.returncode == 130 and err.strip().splitlines()[-1] == "scorebook: interrupted"
    assert "Traceback" not in err
    time.sleep(0.5)
    assert _living(str(db)) == []


@pytest.mark.slow
def test_a_record_whose_text_was_altered_is_refused_by_its_id(tmp_path):
    """One flipped byte in a stored text: quick_check passes, but show, export and analyze
    refuse the record (its text no longer hashes to its id) instead of serving another game."""
    db = tmp_path / "flipped.db"
    out = scorebook(db, "ingest", "-", "--json", input=random_tinybot_line(11) + "\n")
    rid = json.loads(out.stdout)["records"][0]["id"]
    with sqlite3.connect(db) as con:
        text = con.execute("SELECT text FROM records").fetchone()[0]
        con.execute("UPDATE records SET text = ?", [text.replace("[Result", "[Resulu", 1)])
    for command in (("show", rid), ("export", rid, "--format", "pgn"), ("analyze", rid)):
        done = scorebook(db, *command)
        assert done.returncode == 1 and f"record {rid} in" in done.stderr and "damaged" in done.stderr
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


@pytest.mark.slow
def test_an_empty_file_is_not_made_a_database(tmp_path):
    db = tmp_path / "empty.db"
    db.touch()
    done = scorebook(db, "ingest", "-", input=random_tinybot_line(12) + "\n")
    assert done.returncode == 1 and "empty file, not a Scorebook database" in done.stderr
    assert db.stat().st_size == 0


def test_an_undecodable_column_is_one_short_line(tmp_path):
    db = tmp_path / "garbled.db"
    out = scorebook(db, "ingest", "-", "--json", input=random_tinybot_line(13) + "\n")
    rid = json.loads(out.stdout)["records"][0]["id"]
    with sqlite3.connect(db) as con:
        con.execute("UPDATE records SET tags = '{not json'")
    done = scorebook(db, "show", rid)
    assert done.returncode == 1 and done.stderr.count("\n") == 1 and len(done.stderr) < 300


@pytest.mark.slow
def test_hostile_analysis_fields_from_another_database_are_inert_in_the_report(tmp_path):
    """A database from elsewhere whose stored analysis holds markup in every field: the record
    page escapes all of it."""
    from scorebook.service.pages import record_page
    db = tmp_path / "hostile.db"
    out = scorebook(db, "ingest", "-", "--json", input=random_tinybot_line(14) + "\n")
    rid = json.loads(out.stdout)["records"][0]["id"]
    assert scorebook(db, "analyze", rid, "--bot", "rollouts:1,candidates:1,max-rollouts:1").returncode == 0
    payload = "<script>alert(1)</script>"
    with sqlite3.connect(db) as con:
        con.execute("UPDATE analysis_moves SET class = ?, played = ?, best = ?", [payload] * 3)
        con.execute("UPDATE analyses SET engine_version = ?, seed = ?", [payload, payload])
    page = record_page(str(db), rid)
    assert payload not in page and "&lt;script&gt;" in page


def test_a_writing_process_leaves_its_records_in_the_database_file(tmp_path):
    """A command that wrote leaves no log behind at its exit (its connection closed, the log
    copied back into the file), so the database file alone, copied elsewhere, holds every
    record it stored; the exit skips collecting the process's objects (``cli.main.run``), not
    closing its stores."""
    db = tmp_path / "a.db"
    samples = Path(__file__).resolve().parent.parent / "samples"
    done = scorebook(db, "ingest", "--json", str(samples))
    assert done.returncode == 0, done.stderr
    stored = json.loads(done.stdout)["summary"]["ingested"]
    assert stored > 0 and not os.path.exists(str(db) + "-wal")
    alone = tmp_path / "copy" / "a.db"
    alone.parent.mkdir()
    alone.write_bytes(db.read_bytes())
    with sqlite3.connect(alone) as conn:
        assert conn.execute("SELECT count(*) FROM records").fetchone()[0] == stored
