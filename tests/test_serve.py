"""``scorebook serve``: Datasette over the archive with Scorebook's plugin and metadata. A
server on a free local port; its home page, a record page of every game (the boards' SVG in
the DOM) and a search, loaded in headless Chromium with no console error; then stopped."""
from __future__ import annotations

import importlib.util
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from .conftest import SAMPLES, cli_json
from .browser import CHROMIUM

pytestmark = [pytest.mark.browser, pytest.mark.skipif(importlib.util.find_spec("datasette") is None,
                                 reason="Datasette is not installed (pip install -e '.[test]' installs it)"),
              pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (bash .ci/run installs it)")]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_shows_records_boards_and_search(run_cli, browser):
    cli_json(run_cli("ingest", str(SAMPLES), "--json"))
    listed = cli_json(run_cli("list", "--json"))["records"]
    one_of_each = {}
    for r in listed:
        one_of_each.setdefault(r["game"], r["id"])
    assert len(one_of_each) == 5
    cli_json(run_cli("analyze", one_of_each["iwoki"], "--bot", "samples:2", "--json"))  # its page shows the analysis
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "scorebook", "--db", run_cli.db, "serve", "--port", str(port)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/", timeout=2).read()
                break
            except OSError:
                time.sleep(0.2)
        pages = {"home": "/", "search": "/cli/records?_search=simple",
                 **{game: f"/-/scorebook/record/{rid}" for game, rid in one_of_each.items()}}
        for name, path in pages.items():
            browser.open(base + path)
            if name in ("home", "iwoki"):  # drawn to pixels: the home page and a page with a chart
                assert len(browser.screenshot(1200, 1400)) > 5_000, name
            assert browser.console_errors() == [], name
            dom = browser.html()
            if name == "home":
                assert "Scorebook" in dom and "records" in dom
            elif name == "search":
                hits = re.findall(r'href="/-/scorebook/record/([0-9a-f]+)"', dom)
                assert hits and len(set(hits)) < len(listed)  # the search narrows, and ids link to their pages
            else:
                assert dom.count('class="board"') >= 1 and "<svg" in dom and one_of_each[name] in dom, name
                assert ('id="chart"' in dom) == (name == "iwoki"), name
                # inside Datasette's own page, with a way back to the record's row
                assert "<header><nav>" in dom and "app.css" in dom and 'id="record"' in dom, name
                assert f'/records?id={one_of_each[name]}"' in dom, name
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
    assert server.returncode in (0, 130, -2), server.stderr.read()[-2000:]


def test_serve_needs_an_existing_database(run_cli):
    result = run_cli("serve", "--port", "0")
    assert result.exit_code == 2 and "no database" in result.output
