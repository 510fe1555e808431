"""``scorebook net fetch``: TinyBot's network downloaded (from a local HTTP server here: no
test reaches the network), checked against the SHA-256 Scorebook knows, stored where --net
finds it by default, its licence shown; wrong bytes and an unreachable server store nothing."""
from __future__ import annotations

import functools
import http.server
import os
import shutil
import subprocess
import sys
import threading

import pytest

from scorebook import registry
from scorebook.records import user_files

from .conftest import SHARED, shared_file

NET = SHARED / "data" / "tinyislands" / "tinybot-net"


@pytest.fixture
def server(tmp_path):
    """A local HTTP server over ``tmp_path / "www"``; yields its base URL."""
    root = tmp_path / "www"
    root.mkdir()
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", root
    httpd.shutdown()


def fetch_cli(tmp_path, *args):
    env = dict(os.environ, SCOREBOOK_DATA=str(tmp_path / "data"))
    env.pop("SCOREBOOK_TINYBOT_NET", None)
    return subprocess.run([sys.executable, "-m", "scorebook", "net", "fetch", *args], capture_output=True, text=True,
                          env=env, timeout=120)


def test_the_network_is_fetched_checked_and_found_by_default(tmp_path, server, monkeypatch):
    base, root = server
    shutil.copy(shared_file(NET / "tb10_1.onnx"), root / "tb10_1.onnx")
    shutil.copy(shared_file(NET / "LICENSE"), root / "LICENSE")
    done = fetch_cli(tmp_path, "--from", f"{base}/tb10_1.onnx")
    assert done.returncode == 0, done.stderr
    stored = tmp_path / "data" / "tiny-islands" / "tb10_1.onnx"
    assert stored.read_bytes() == (NET / "tb10_1.onnx").read_bytes()
    assert "Copyright (c) Xom" in done.stdout and "MIT" in done.stdout
    monkeypatch.setenv("SCOREBOOK_DATA", str(tmp_path / "data"))
    monkeypatch.delenv("SCOREBOOK_TINYBOT_NET", raising=False)
    assert user_files.configured(registry.get_game("tiny-islands"), "net", None) == str(stored)
    again = fetch_cli(tmp_path, "--from", f"{base}/nothing-there")  # already stored: no download
    assert again.returncode == 0 and "already stored" in again.stdout


def test_wrong_bytes_are_not_stored(tmp_path, server):
    base, root = server
    (root / "tb10_1.onnx").write_bytes(b"not the network" * 1000)
    done = fetch_cli(tmp_path, "--from", f"{base}/tb10_1.onnx")
    assert done.returncode == 1
    assert "SHA-256" in done.stderr and "not stored" in done.stderr and "Traceback" not in done.stderr
    folder = tmp_path / "data" / "tiny-islands"
    assert not folder.exists() or not any(folder.iterdir())


@pytest.mark.parametrize("where", ["closed port", "missing file"])
def test_an_unreachable_source_is_one_line(tmp_path, server, where):
    base, _ = server
    url = "http://127.0.0.1:9/tb10_1.onnx" if where == "closed port" else f"{base}/tb10_1.onnx"
    done = fetch_cli(tmp_path, "--from", url)
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert lines[-1].startswith("scorebook: cannot download") and "--net PATH" in lines[-1]
    assert "Traceback" not in done.stderr and not (tmp_path / "data" / "tiny-islands" / "tb10_1.onnx").exists()


def test_a_folder_it_cannot_write_is_said_before_the_download(tmp_path):
    """``--to`` a folder this process cannot write (immutable, for root too): the reason is the
    folder, said before any download (it said 'cannot download')."""
    folder = tmp_path / "locked"
    folder.mkdir()
    if shutil.which("chattr") is None or subprocess.run(["chattr", "+i", str(folder)],
                                                        capture_output=True).returncode:
        pytest.skip("this file system does not take chattr +i")
    try:
        done = fetch_cli(tmp_path, "--from", "http://127.0.0.1:9/tb10_1.onnx", "--to", str(folder / "net.onnx"))
    finally:
        subprocess.run(["chattr", "-i", str(folder)], capture_output=True)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("scorebook: cannot write") and str(folder) in lines[0]
