"""``scorebook serve`` guarded: read-only (the file unchanged), no arbitrary SQL unless asked,
no CSV stream of a whole table, SQLite lengths capped, the Host header checked on loopback,
a non-loopback address only with --public, a busy port one line; stopped by SIGTERM (what a
service manager sends) it leaves no process behind."""
from __future__ import annotations

import hashlib
import importlib.util
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from urllib.parse import quote

import pytest

from .conftest import SAMPLES, cli_json

pytestmark = [pytest.mark.slow, pytest.mark.skipif(importlib.util.find_spec("datasette") is None,
                                                   reason="Datasette is not installed (pip install -e '.[test]' installs it)")]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str, host: str | None = None) -> tuple[int, str]:
    request = urllib.request.Request(url, headers={"Host": host} if host else {})
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode()


def _processes_naming(text: str) -> list[int]:
    """Live processes whose command line names ``text`` (from /proc)."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            if text in cmdline and int(entry.name) != os.getpid():
                out.append(int(entry.name))
    return out


@pytest.fixture
def served(run_cli):
    """A server on the samples' database, yielded as (base url, the server process, db path);
    stopped with SIGTERM after the test, which then checks that nothing it started is left."""
    cli_json(run_cli("ingest", str(SAMPLES), "--json"))
    port = free_port()
    before = hashlib.sha256(Path(run_cli.db).read_bytes()).hexdigest()
    server = subprocess.Popen([sys.executable, "-m", "scorebook", "--db", run_cli.db, "serve", "--port", str(port)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{port}"
    for _ in range(150):
        try:
            urllib.request.urlopen(base + "/", timeout=2).read()
            break
        except OSError:
            time.sleep(0.2)
    yield base, server, run_cli.db
    server.send_signal(signal.SIGTERM)
    server.wait(timeout=20)
    assert server.returncode == 130 and "interrupted" in server.stderr.read()
    time.sleep(0.3)
    assert _processes_naming(run_cli.db) == []  # no server child left serving the database
    assert hashlib.sha256(Path(run_cli.db).read_bytes()).hexdigest() == before  # nothing written


def test_served_read_only_and_guarded(served):
    base, _, db = served
    name = Path(db).stem
    status, page = _get(base + f"/{name}/records")
    assert status == 200 and "records" in page
    assert _get(base + f"/{name}.json?sql=select+1")[0] == 403  # no arbitrary SQL
    assert _get(base + f"/{name}/moves.csv?_stream=on")[0] != 200 or "_stream" not in page  # no whole-table stream
    assert _get(base + "/", host="attacker.example")[0] == 421  # DNS rebinding: another site's name
    assert _get(base + "/-/scorebook/ratings")[0] == 200


def test_the_moves_view_is_counted_a_record_at_a_time(served):
    """The moves view reads every record's moves column: its page is not counted whole (it
    would be on every visit), only filtered to one record by its key."""
    import json
    base, _, db = served
    name = Path(db).stem
    status, whole = _get(base + f"/{name}/moves.json?_size=5")
    assert status == 200 and json.loads(whole)["filtered_table_rows_count"] is None and json.loads(whole)["rows"]
    status, one = _get(base + f"/{name}/moves.json?record_key=1")
    doc = json.loads(one)
    assert status == 200 and doc["filtered_table_rows_count"] == len(doc["rows"]) > 0


def test_the_player_results_view_is_counted_for_a_player_or_a_record(served):
    """player_results joins every seat of every record: its page is not counted whole, only
    filtered to a player or a record (each found by its index)."""
    import json
    base, _, db = served
    name = Path(db).stem
    status, whole = _get(base + f"/{name}/player_results.json?_size=5")
    doc = json.loads(whole)
    assert status == 200 and doc["filtered_table_rows_count"] is None and doc["rows"]
    first = dict(zip(doc["columns"], doc["rows"][0]))
    player, record = first["player"], first["record"]
    for query in (f"player={quote(player)}", f"player__exact={quote(player)}", f"record={record}"):
        status, some = _get(base + f"/{name}/player_results.json?{query}")
        doc = json.loads(some)
        assert status == 200 and doc["filtered_table_rows_count"] == len(doc["rows"]) > 0, query


def test_sql_only_when_asked_and_lengths_capped(run_cli):
    cli_json(run_cli("ingest", str(SAMPLES / "tsuro"), "--json"))
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "scorebook", "--db", run_cli.db, "serve", "--port", str(port),
                               "--sql"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{port}/{Path(run_cli.db).stem}.json?sql="
    try:
        for _ in range(150):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2).read()
                break
            except OSError:
                time.sleep(0.2)
        status, body = _get(base + "select+count(*)+from+records")
        assert status == 200 and '"rows"' in body
        status, body = _get(base + "select+length(printf('%25.*c',+90000000,+'x'))")
        assert status != 200 or '"rows": [[null]]' in body  # past SQLite's length cap: no 90 MB string kept
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=20)


def test_a_busy_port_a_remote_address_and_a_missing_database(run_cli):
    cli_json(run_cli("ingest", str(SAMPLES / "tsuro"), "--json"))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        busy = run_cli("serve", "--port", str(s.getsockname()[1]))
    assert busy.exit_code == 1 and busy.stderr.strip().count("\n") == 0 and "in use" in busy.stderr
    remote = run_cli("serve", "--host", "0.0.0.0", "--port", str(free_port()))
    assert remote.exit_code == 2 and "--public" in remote.stderr
    assert run_cli("--db", "nowhere.db", "serve").exit_code == 2


def test_a_stored_events_standings_link_each_match_to_its_record(served):
    """The served standings of an event (an event's name in the events table links there):
    its crosstable, each match a link to its record's page, which answers."""
    base, _, _ = served
    event = "Scorebook bot round robin"  # the samples' tournament file, its triads stored beside it
    status, page = _get(base + "/-/scorebook/standings?event=" + urllib.parse.quote(event))
    assert status == 200 and "Crosstable" in page
    links = re.findall(r"href='(/-/scorebook/record/[0-9a-f]{16})'", page)
    assert len(links) >= 6  # each match twice, once from each player's row
    assert all(_get(base + link)[0] == 200 for link in set(links))
    assert _get(base + "/-/scorebook/standings?event=No+such")[0] == 404
    assert _get(base + "/-/scorebook/standings")[0] == 400
    assert _get(base + "/-/scorebook/standings?event=" + "x" * 300)[0] == 400


def test_datasette_starts_without_importing_dask_which_a_cluster_still_finds():
    """Datasette's vendored pint imports ``dask.array`` where Dask is installed, 0.5-0.7 s of
    every start: the server imports Datasette with Dask unseen, and Dask imports afterwards."""
    pytest.importorskip("dask.array", reason="Dask is not installed (pip install '.[test]')")
    probe = ("import sys; from scorebook.service.server import _import_datasette; _import_datasette(); "
             "seen = 'dask.array' in sys.modules; import dask.array; print(seen, 'dask.array' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert done.stdout.split() == ["False", "True"], done.stderr
