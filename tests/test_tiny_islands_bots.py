"""Tiny Islands bots: legal games, better than random, and blind to offers not drawn yet."""
from __future__ import annotations

import numpy as np

from engines.tiny_islands import bots
from engines.tiny_islands import engine as E
from engines.tiny_islands.deck import two_deck_offers
from engines.tiny_islands.players import random_game

from .conftest import cli_json


def total(offers, placements, traces, lens, as_region):
    res = E.replay(offers, placements, traces, lens, np.full(3, as_region), 26, 0)
    assert res[0] == E.OK
    return res[7][8]


def test_heuristic_games_are_legal_and_beat_random():
    ours, rand = [], []
    for g in range(20):
        offers = two_deck_offers(np.random.default_rng([1, g]))
        ours.append(total(offers, *bots.play(offers, bots.HEURISTIC, 0, g, 0), True))
        rand.append(total(offers, *random_game(offers, g), False))
    assert np.mean(ours) > np.mean(rand) + 40


def test_the_planner_draws_legal_regions():
    offers = two_deck_offers(np.random.default_rng(3))
    placements, regions, lens = bots.play(offers, bots.HEURISTIC, 0, 3, 0)
    for d in range(3):
        assert 1 <= lens[d]  # replay above checks each region; here: an island of some size first
    assert lens[0] >= 4


def test_bots_never_read_offers_not_yet_drawn():
    offers = two_deck_offers(np.random.default_rng(8))
    for bot, rollouts in ((bots.HEURISTIC, 0), (bots.MC, 1)):
        full, _, _ = bots.play(offers, bot, rollouts, 5, 0)
        for t in (4, 12):
            changed = offers.copy()
            changed[t + 1:] = two_deck_offers(np.random.default_rng(99))[t + 1:]
            part, _, _ = bots.play(changed, bot, rollouts, 5, 0)
            assert (part[:t + 1] == full[:t + 1]).all(), (bot, t)


def test_cli_play_with_shuffles_and_bots(run_cli, tmp_path):
    from records import tinybot, tiny_islands
    offers = two_deck_offers(np.random.default_rng(4))
    rec = tiny_islands.from_arrays(offers, *random_game(offers, 4), rules="tinybot")
    (tmp_path / "s.txt").write_text(tinybot.write_line(rec) + "\n")
    doc = cli_json(run_cli("play", "tiny-islands", "--players", "heuristic", "--shuffles", str(tmp_path / "s.txt"),
                           "--json"))
    assert len(doc["games"]) == 1 and doc["games"][0]["status"] == "ingested"
    assert run_cli("play", "tiny-islands", "--players", "mc:x").exit_code == 2
