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

import numpy as np
from scorebook.engines.jit import njit

from .metadata import (DECK_SIZE, ONE_DECK_TILE, ONE_DECK_ZONE, TILE_COUNT, TURNS, ZONE_COPIES, ZONE_MASK,
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


@njit(cache=True)
def _one_deck_check(arr, card_count, turns):
    """(ok, first bad turn or -1): the jitted body of one_deck_consistent."""
    n = arr.shape[0]
    tiles, zones = card_count.shape
    for t in range(n):
        for j in range(4):
            if arr[t, j] < 0 or arr[t, j] >= (tiles if j % 2 == 0 else zones):
                return False, t
    left = card_count.copy()
    for t in range(1, n):  # the cards seen whole: the tile of turn t-1, the zone of turn t, same slot
        for slot in range(2):
            tile, zone = arr[t - 1, 2 * slot], arr[t, 2 * slot + 1]
            left[tile, zone] -= 1
            if left[tile, zone] < 0:
                return False, t
    if n < turns or n == 0:
        return True, -1  # an unfinished record: the half-seen cards are still open
    rest_tile = np.empty(tiles * zones * 2, np.int64)
    rest_zone = np.empty(tiles * zones * 2, np.int64)
    m = 0
    for tile in range(tiles):
        for zone in range(zones):
            for _ in range(left[tile, zone]):
                rest_tile[m] = tile
                rest_zone[m] = zone
                m += 1
    # the zones of turn 1 and the tiles of the last turn are four different cards left over
    for a in range(m):
        if rest_zone[a] != arr[0, 1]:
            continue
        for b in range(m):
            if b == a or rest_zone[b] != arr[0, 3]:
                continue
            for c in range(m):
                if c == a or c == b or rest_tile[c] != arr[n - 1, 0]:
                    continue
                for d in range(m):
                    if d != a and d != b and d != c and rest_tile[d] == arr[n - 1, 2]:
                        return True, -1
    return False, n - 1


def one_deck_consistent(offers) -> tuple[bool, int | None]:
    """Could these offers come from the real deck? Returns (ok, first bad 0-based turn).

    Each tile of turn k pairs with the zone of the same slot on turn k+1 as one card; the
    zones of the first turn and the tiles of the last turn are half-seen cards that must fit
    the cards left over.
    """
    arr = np.ascontiguousarray(np.asarray(offers, np.int64).reshape(-1, 4))
    ok, turn = _one_deck_check(arr, _CARD_COUNT, TURNS)
    return bool(ok), None if ok else int(turn)


# ---------------------------------------------------------------- futures the bots sample

TWO_DECK, ONE_DECK = 0, 1  # deck models, as in metadata.DECK_MODELS
N_ZONES = ZONE_MASK.shape[0]


@njit(cache=True)
def _take_card(free, tile, zone):
    """Mark a free card with this tile (-1: any) and zone (-1: any) used, chosen at random
    among the matches; returns its index or -1."""
    n = 0
    for c in range(DECK_SIZE):
        if free[c] and (tile < 0 or ONE_DECK_TILE[c] == tile) and (zone < 0 or ONE_DECK_ZONE[c] == zone):
            n += 1
    if n == 0:
        return -1
    pick = np.random.randint(n)
    for c in range(DECK_SIZE):
        if free[c] and (tile < 0 or ONE_DECK_TILE[c] == tile) and (zone < 0 or ONE_DECK_ZONE[c] == zone):
            if pick == 0:
                free[c] = False
                return c
            pick -= 1
    return -1


@njit(cache=True)
def _sample_future_one_deck(offers, t, out):
    """Offers for turns after t under the real one-deck pattern (spec §7): the tile of slot i
    on turn k and the zone of slot i on turn k+1 are one card. Cards seen whole are out of the
    deck; the zones of turn 1 and the tiles of turn t are half-seen cards, completed at random
    from the cards that fit; the rest are shuffled. False when the offers fit no such deck."""
    out[:t + 1] = offers[:t + 1]
    whole = np.ones(DECK_SIZE, np.bool_)
    for k in range(t):
        for i in range(2):
            if _take_card(whole, offers[k, 2 * i], offers[k + 1, 2 * i + 1]) < 0:
                return False
    # the half-seen cards compete for the same few cards late in a game: retry the random picks
    for attempt in range(32):
        free = whole.copy()
        done = True
        for i in range(2):
            if _take_card(free, np.int64(-1), offers[0, 2 * i + 1]) < 0:
                done = False
        for i in range(2):
            c = _take_card(free, offers[t, 2 * i], np.int64(-1))
            if c < 0:
                done = False
            elif t + 1 < TURNS:
                out[t + 1, 2 * i + 1] = ONE_DECK_ZONE[c]
        if done:
            break
    if not done:
        return False
    rest = np.flatnonzero(free)
    order = np.random.permutation(rest)
    j = 0
    for k in range(t + 1, TURNS):
        for i in range(2):
            c = order[j]
            j += 1
            out[k, 2 * i] = ONE_DECK_TILE[c]
            if k + 1 < TURNS:
                out[k + 1, 2 * i + 1] = ONE_DECK_ZONE[c]
    return True


@njit(cache=True)
def _sample_future(offers, t, out, deck_model):
    """Offers for turns after t drawn from the cards not seen yet: under the one-deck pattern
    when ``deck_model`` is ONE_DECK and the offers fit it, else the two-deck model."""
    if deck_model == ONE_DECK and _sample_future_one_deck(offers, t, out):
        return
    out[:t + 1] = offers[:t + 1]
    tiles_left = np.empty(64, np.int64)
    zones_left = np.empty(64, np.int64)
    seen_t = np.zeros(8, np.int64)
    seen_z = np.zeros(N_ZONES, np.int64)
    for k in range(t + 1):
        seen_t[offers[k, 0]] += 1
        seen_t[offers[k, 2]] += 1
        seen_z[offers[k, 1]] += 1
        seen_z[offers[k, 3]] += 1
    nt = 0
    for tile in range(1, 8):
        for _ in range(TILE_COUNT[tile] - seen_t[tile]):
            tiles_left[nt] = tile
            nt += 1
    nz = 0
    for zone in range(N_ZONES):
        for _ in range(ZONE_COPIES - seen_z[zone]):
            zones_left[nz] = zone
            nz += 1
    pt = np.random.permutation(tiles_left[:nt])
    pz = np.random.permutation(zones_left[:nz])
    i = 0
    for k in range(t + 1, TURNS):
        out[k, 0] = pt[i]
        out[k, 1] = pz[i]
        out[k, 2] = pt[i + 1]
        out[k, 3] = pz[i + 1]
        i += 2
