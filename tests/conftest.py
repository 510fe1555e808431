"""Shared fixtures. Third-party records are read from ../shared (never copied here)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from scorebook.engines.tiny_islands.deck import two_deck_offers
from scorebook.engines.tiny_islands.players import random_game
from scorebook.records import tiny_islands, tinybot
from scorebook.records.store import Store

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
TINYBOT_SAMPLES = SHARED / "data" / "tinyislands" / "tinybot-samples.txt"


def shared_file(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"{path} is absent: the shared third-party data is not beside this checkout")
    return path


@pytest.fixture
def tinybot_sample_lines() -> list[str]:
    return shared_file(TINYBOT_SAMPLES).read_text().splitlines()


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


def random_record(seed: int, rules: str = "published") -> tiny_islands.TinyIslandsRecord:
    """A finished random legal game with its replayed score as the stated one."""
    offers = two_deck_offers(np.random.default_rng(seed))
    placements, traces, lens = random_game(offers, seed)
    record = tiny_islands.from_arrays(offers, placements, traces, lens, rules=rules)
    record.recorded = tiny_islands.replay(record).score
    return record


def random_tinybot_line(seed: int) -> str:
    return tinybot.write_line(random_record(seed, "tinybot"))


def cli_json(result) -> dict:
    assert "Traceback" not in result.output
    return json.loads(result.stdout)
