"""Fixtures every game's tests share. Third-party records are read from ../shared (never
copied here); each game's own fixtures are in its folder's conftest.py."""
from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from scorebook.records.store import Store

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
SHARED = ROOT.parent / "shared"


def shared_file(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"{path} is absent: the shared third-party data is not beside this checkout")
    return path


def benchmark_script(name: str):
    """A script of ``benchmarks/`` loaded as a module (its functions tested on tiny budgets), or
    the test skipped where the benchmarks are not beside this checkout."""
    path = ROOT / "benchmarks" / f"{name}.py"
    if not path.exists():
        pytest.skip(f"{path} is absent: the benchmarks are not beside this checkout")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    # importable by name: numba's cache of a jitted function in the script names its module,
    # and a later process (a warm run) imports that name to load it
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _engine_folders(game) -> list[Path]:
    """The folders of the game's engine package, found without importing it."""
    return [Path(f) for f in importlib.util.find_spec(game.engine_module.rsplit(".", 1)[0]).submodule_search_locations]


def _nothing_cached(game) -> bool:
    """No machine code of the game's engine package in numba's cache beside its sources; told
    without importing it (an engine that compiles a function as it is imported would look warm)."""
    return not any(next((folder / "__pycache__").glob("*.nbi"), None) for folder in _engine_folders(game))


def _engine_bytes(game) -> int:
    return sum(f.stat().st_size for folder in _engine_folders(game) for f in folder.glob("*.py"))


def pytest_sessionstart(session):
    """With workers (pytest-xdist), the games none of whose jitted code is cached yet (a fresh
    checkout) are compiled once before they start, a game a process, as many at once as there
    are workers (``scorebook warm-up``): left to them, each worker would compile it all for
    itself, and a cold run would take twice the compiling. One process compiles as it goes,
    once, and skips this; so does a warm checkout (a function edited since is compiled again
    where it is used)."""
    import os
    import subprocess
    import time
    from concurrent.futures import ThreadPoolExecutor

    from scorebook import registry
    config = session.config
    workers = getattr(config.option, "numprocesses", None)
    if hasattr(config, "workerinput") or not isinstance(workers, int) or workers < 2:
        return
    # the biggest engines first (their compiling takes the longest): the cores finish together
    games = [g.id for g in sorted(registry.games(), key=_engine_bytes, reverse=True) if _nothing_cached(g)]
    if not games:
        return
    say = config.pluginmanager.get_plugin("terminalreporter").write_line
    # LLVM's -O1 (NUMBA_OPT, 3 by default): 14% less compiling, the same results (no fast-math
    # anywhere: the stored set's numbers are byte-identical), the tests' games as fast within
    # this machine's noise (benchmarks/history/ci-time-2026-11-28.md)
    env = dict(os.environ)
    env.setdefault("NUMBA_OPT", "1")
    start = time.perf_counter()

    def warm(game: str) -> str:
        done = subprocess.run([sys.executable, "-m", "scorebook", "warm-up", game, "--json"], capture_output=True,
                              text=True, timeout=1200, env=env)
        return f"{game} {'compiled' if done.returncode == 0 else 'failed: ' + done.stderr.strip()[-200:]}"
    say(f"compiling {', '.join(games)} before {workers} workers start (scorebook warm-up)...")
    with ThreadPoolExecutor(workers) as pool:
        outcomes = list(pool.map(warm, games))
    say(f"{'; '.join(outcomes)} ({time.perf_counter() - start:.0f} s)")


@pytest.fixture(autouse=True, scope="session")
def _own_data_dir(tmp_path_factory):
    """No test sees a network the user fetched (``scorebook net fetch``): Scorebook's data
    folder is the session's own, empty; subprocesses inherit it."""
    import os
    before = os.environ.get("SCOREBOOK_DATA")
    os.environ["SCOREBOOK_DATA"] = str(tmp_path_factory.mktemp("scorebook-data"))
    yield
    if before is None:
        os.environ.pop("SCOREBOOK_DATA", None)
    else:
        os.environ["SCOREBOOK_DATA"] = before


@pytest.fixture(scope="session")
def browser(tmp_path_factory):
    """One headless Chromium for the worker's pages (a launch costs a second or more), driven
    over its DevTools pipe; the test skipped where Chromium is not installed."""
    from .browser import CHROMIUM, FLAGS, Browser
    if CHROMIUM is None:
        pytest.skip("Debian's chromium is not installed (bash .ci/run installs it)")
    shared = Browser(CHROMIUM, FLAGS, str(tmp_path_factory.mktemp("chromium-profile")))
    yield shared
    shared.close()


@pytest.fixture
def store(tmp_path) -> Store:
    return Store(str(tmp_path / "test.db"))


@pytest.fixture
def run_cli(tmp_path):
    """Invoke the CLI against a temporary database; returns the click Result."""
    from scorebook.cli.main import main
    runner = CliRunner()
    db = str(tmp_path / "cli.db")

    def run(*args, input=None):
        return runner.invoke(main, ["--db", db, *args], input=input, catch_exceptions=False)
    run.db = db
    return run


def cli_json(result) -> dict:
    """The JSON document a command printed (a click Result or a finished subprocess)."""
    output = result.output if hasattr(result, "output") else result.stdout + result.stderr
    assert "Traceback" not in output
    return json.loads(result.stdout)
