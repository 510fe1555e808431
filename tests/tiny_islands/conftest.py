"""Tiny Islands fixtures: random legal games, bot games, TinyBot's shared lines."""
from __future__ import annotations

import numpy as np
import pytest

from scorebook.engines.tiny_islands import bots as TB
from scorebook.engines.tiny_islands.deck import two_deck_offers
from scorebook.engines.tiny_islands.players import random_game
from scorebook.records import tiny_islands, tinybot

from ..conftest import SHARED, shared_file

TINYBOT_SAMPLES = SHARED / "data" / "tinyislands" / "tinybot-samples.txt"


@pytest.fixture
def tinybot_sample_lines() -> list[str]:
    return shared_file(TINYBOT_SAMPLES).read_text().splitlines()


def random_record(seed: int, rules: str = "published") -> tiny_islands.TinyIslandsRecord:
    """A finished random legal game with its replayed score as the stated one."""
    offers = two_deck_offers(np.random.default_rng(seed))
    placements, traces, lens = random_game(offers, seed)
    record = tiny_islands.from_arrays(offers, placements, traces, lens, rules=rules)
    record.recorded = tiny_islands.replay(record).score
    return record


def random_tinybot_line(seed: int) -> str:
    return tinybot.write_line(random_record(seed, "tinybot"))


def bot_record(seed=4):
    """(offers, the heuristic bot's game on them)."""
    offers = two_deck_offers(np.random.default_rng(seed))
    return offers, tiny_islands.from_arrays(offers, *TB.play(offers, TB.HEURISTIC, 0, seed, 0, TB.TWO_DECK),
                                            regions=True)
