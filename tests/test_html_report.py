"""The HTML report renders in headless Chromium: a screenshot is taken and the DOM checked.
Skips with a reason where Chromium is not installed (.ci/run installs it)."""
from __future__ import annotations

import shutil
import subprocess

import pytest

from scorebook.engines.game_of_islands.bots import GREEDY, RANDOM, play_game
from scorebook.records.game_of_islands import bot_grid_text

from .conftest import cli_json

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (bash .ci/run installs it)")
def test_report_renders_in_chromium(run_cli, tmp_path):
    lines = play_game(6, GREEDY, RANDOM, 5, 2, 1000)
    text, _ = bot_grid_text(6, lines, {"Grid": "6", "First": "Greedy", "Second": "Random"})
    rid = cli_json(run_cli("ingest", "-", "--json", input=text))["records"][0]["id"]
    page = tmp_path / "report.html"
    doc = cli_json(run_cli("analyze", rid, "--json", "--html", str(page)))
    profile = ["--user-data-dir=" + str(tmp_path / "profile")]
    shot = tmp_path / "shot.png"
    subprocess.run([CHROMIUM, *FLAGS, *profile, f"--screenshot={shot}", "--window-size=1000,1400",
                    page.as_uri()], capture_output=True, timeout=120)
    assert shot.exists() and shot.stat().st_size > 10_000
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    dom = subprocess.run([CHROMIUM, *FLAGS, *profile, "--dump-dom", page.as_uri()], capture_output=True,
                         text=True, timeout=120).stdout
    assert dom.count('class="board"') == len(doc["moves"])
    assert 'id="chart"' in dom and 'id="summary"' in dom
    assert dom.count('class="mark"') >= len(doc["moves"])  # the played (and best) move marked on every board
    assert "Greedy" in dom and "Random" in dom
