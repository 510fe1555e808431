"""Random-playout invariants, the player's blindness to future offers, and the deck models."""
from __future__ import annotations

from collections import Counter

import numpy as np

from scorebook.engines.tiny_islands import engine as E
from scorebook.engines.tiny_islands.deck import (one_deck_consistent, one_deck_offers, two_deck_offers)
from scorebook.engines.tiny_islands.metadata import TILE_COUNT, TURNS
from scorebook.engines.tiny_islands.players import random_game


def test_random_playout_invariants():
    rng = np.random.default_rng(4)
    for seed in range(500):
        offers = (one_deck_offers if seed % 2 else two_deck_offers)(rng)
        placements, traces, lens = random_game(offers, seed)
        assert (placements[:, 0] >= 1).all() and len(set(placements[:, 1].tolist())) == TURNS
        assert (lens > 0).all()
        code, _, _, tiles, land, regions, _, breakdown = E.replay(
            offers, placements, traces, lens, np.zeros(3, np.bool_), TURNS, 0)
        assert code == E.OK
        assert (tiles > 0).sum() == TURNS
        assert (land == (regions[0] ^ regions[1] ^ regions[2])).all()
        for d in range(3):
            assert 1 <= regions[d].sum() and E.shoreline_length(regions[d]) <= 24
        assert breakdown[8] == breakdown[1:8].sum() - breakdown[0]
        assert breakdown[0] % 5 == 0


def test_the_player_reads_an_offer_only_when_it_is_drawn():
    rng = np.random.default_rng(8)
    offers = two_deck_offers(rng)
    full, _, _ = random_game(offers, 99)
    for t in (3, 10, 20):
        future_changed = offers.copy()
        future_changed[t + 1:] = two_deck_offers(rng)[t + 1:]
        changed, _, _ = random_game(future_changed, 99)
        assert (changed[:t + 1] == full[:t + 1]).all()


def test_two_deck_shuffles_draw_from_the_decks():
    rng = np.random.default_rng(1)
    for _ in range(200):
        offers = two_deck_offers(rng)
        tiles = Counter(offers[:, 0].tolist() + offers[:, 2].tolist())
        zones = Counter(offers[:, 1].tolist() + offers[:, 3].tolist())
        assert all(tiles[t] <= TILE_COUNT[t] for t in tiles) and max(zones.values()) <= 2
        assert sum(tiles.values()) == 52


def test_one_deck_shuffles_are_consistent_and_naive_ones_are_not():
    rng = np.random.default_rng(2)
    assert all(one_deck_consistent(one_deck_offers(rng))[0] for _ in range(200))
    assert not any(one_deck_consistent(two_deck_offers(rng))[0] for _ in range(200))


def test_one_deck_flips_tiles_into_the_next_zones():
    # a tile of turn t-1 and the zone of the same slot on turn t are one card: swapping turn t's
    # zones pairs each tile with the other zone, and where that makes a card the real deck does
    # not have, the shuffle is refused at that very turn (a swap that happens to make two real
    # cards may still fit, so only the impossible ones are asserted)
    from scorebook.engines.tiny_islands.deck import _CARD_COUNT
    rng = np.random.default_rng(3)
    checked = 0
    for _ in range(60):
        offers = one_deck_offers(rng)
        assert one_deck_consistent(offers) == (True, None)
        for t in (1, 5, 17, 25):
            bad = offers.copy()
            bad[t, 1], bad[t, 3] = offers[t, 3], offers[t, 1]
            if _CARD_COUNT[bad[t - 1, 0], bad[t, 1]] == 0 or _CARD_COUNT[bad[t - 1, 2], bad[t, 3]] == 0:
                assert one_deck_consistent(bad) == (False, t)
                checked += 1
    assert checked >= 100
