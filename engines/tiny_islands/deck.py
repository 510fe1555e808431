"""Deck models (spec §7): how offers come out of the shuffled cards.

* ``two-deck`` (naive, what TinyBot was trained on): tiles and zones shuffled apart.
* ``one-deck`` (the real game): 54 cards, a tile on one side and a zone on the other;
  the tiles offered on turn k are flipped and become the zones of turn k+1, same slot order.

Offers are int arrays ``(turns, 4)`` of (tile1, zone1, tile2, zone2).

>>> import numpy as np
>>> offers = one_deck_offers(np.random.default_rng(1))
>>> offers.shape, one_deck_consistent(offers)
((26, 4), (True, None))
"""
from __future__ import annotations

from itertools import permutations

import numpy as np

from .metadata import (DECK_SIZE, ONE_DECK_TILE, ONE_DECK_ZONE, TILE_COUNT, TURNS, ZONE_COPIES,
                       ZONE_LETTERS)

TILE_DECK = np.repeat(np.arange(len(TILE_COUNT)), TILE_COUNT)  # 54 tile channels
ZONE_DECK = np.repeat(np.arange(len(ZONE_LETTERS)), ZONE_COPIES)  # 54 zone ids
_CARD_COUNT = np.zeros((len(TILE_COUNT), len(ZONE_LETTERS)), np.int64)  # [tile, zone] -> cards
np.add.at(_CARD_COUNT, (ONE_DECK_TILE, ONE_DECK_ZONE), 1)


def two_deck_offers(rng: np.random.Generator) -> np.ndarray:
    tiles = rng.permutation(TILE_DECK)
    zones = rng.permutation(ZONE_DECK)
    offers = np.empty((TURNS, 4), np.int64)
    offers[:, 0], offers[:, 2] = tiles[0:2 * TURNS:2], tiles[1:2 * TURNS:2]
    offers[:, 1], offers[:, 3] = zones[0:2 * TURNS:2], zones[1:2 * TURNS:2]
    return offers


def one_deck_offers(rng: np.random.Generator) -> np.ndarray:
    """Turn k (1-based) shows the zones of cards 2k-1, 2k and the tiles of cards 2k+1, 2k+2."""
    order = rng.permutation(DECK_SIZE)
    offers = np.empty((TURNS, 4), np.int64)
    for t in range(TURNS):
        offers[t, 1], offers[t, 3] = ONE_DECK_ZONE[order[2 * t]], ONE_DECK_ZONE[order[2 * t + 1]]
        offers[t, 0], offers[t, 2] = ONE_DECK_TILE[order[2 * t + 2]], ONE_DECK_TILE[order[2 * t + 3]]
    return offers


def offers_for(deck: str, rng: np.random.Generator) -> np.ndarray:
    return one_deck_offers(rng) if deck == "one-deck" else two_deck_offers(rng)


def _complete_cards(arr: np.ndarray) -> np.ndarray:
    """Count matrix [tile, zone] of the cards fully seen: tile of turn k, zone of turn k+1."""
    seen = np.zeros_like(_CARD_COUNT)
    np.add.at(seen, (arr[:-1, 0], arr[1:, 1]), 1)
    np.add.at(seen, (arr[:-1, 2], arr[1:, 3]), 1)
    return seen


def one_deck_consistent(offers) -> tuple[bool, int | None]:
    """Could these offers come from the real deck? Returns (ok, first bad 0-based turn).

    Each tile of turn k pairs with the zone of the same slot on turn k+1 as one card; the
    zones of the first turn and the tiles of the last turn are half-seen cards that must fit
    the cards left over.
    """
    arr = np.asarray(offers, np.int64).reshape(-1, 4)
    n = len(arr)
    if n == 0:
        return True, None
    left = _CARD_COUNT - _complete_cards(arr)
    if (left < 0).any():  # find the first turn that overdraws a card
        for t in range(1, n):
            if (_CARD_COUNT - _complete_cards(arr[:t + 1]) < 0).any():
                return False, t
    if n < TURNS:
        return True, None  # an unfinished record: the half-seen cards are still open
    rest = [(int(t), int(z)) for t, z in zip(*np.nonzero(left)) for _ in range(left[t, z])]
    first_zones = [int(arr[0, 1]), int(arr[0, 3])]
    last_tiles = [int(arr[-1, 0]), int(arr[-1, 2])]
    for pick in permutations(range(len(rest)), 4):
        if (rest[pick[0]][1] == first_zones[0] and rest[pick[1]][1] == first_zones[1]
                and rest[pick[2]][0] == last_tiles[0] and rest[pick[3]][0] == last_tiles[1]):
            return True, None
    return False, n - 1
