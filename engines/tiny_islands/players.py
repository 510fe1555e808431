"""Tiny Islands players. The random legal player is jitted end to end.

A player sees each offer only when it is drawn: ``random_game`` reads ``offers[t]`` at
turn ``t`` and nothing later.

>>> import numpy as np
>>> from scorebook.engines.tiny_islands.deck import two_deck_offers
>>> offers = two_deck_offers(np.random.default_rng(3))
>>> placements, traces, lens = random_game(offers, 7)
>>> placements.shape, bool((lens > 0).all())
((26, 2), True)
"""
from __future__ import annotations

import numpy as np
from scorebook.engines.jit import njit

from .engine import OK, drawing_due, drawing_region, legal_placements
from .metadata import CELLS, SIZE, TURNS


@njit(cache=True)
def random_placement(tiles, offer):
    """A uniformly random legal (tile, cell) for this offer, or (-1, -1) when stuck."""
    options = legal_placements(tiles, offer)
    n = options.shape[0]
    if n == 0:
        return -1, -1
    i = np.random.randint(n)
    return options[i, 0], options[i, 1]


@njit(cache=True)
def random_drawing(land, max_extra):
    """A random legal drawing as a trace (TinyBot semantics: a first cell on water next to
    land surrounds that land). Returns (trace, length); length 0 if none was found."""
    trace = np.zeros(CELLS, np.int64)
    frontier = np.empty(CELLS, np.int64)
    for attempt in range(400 + CELLS):
        # random first cells, then every cell in turn so a legal one is always found
        start = np.random.randint(CELLS) if attempt < 400 else attempt - 400
        trace[0] = start
        code, region, _ = drawing_region(land, trace, 1)
        if code != OK:
            continue
        k = 1
        target = np.random.randint(max_extra + 1)
        tries = 0
        while k - 1 < target and tries < 4 * target + 8:
            tries += 1
            nf = 0
            for z in range(CELLS):
                if region[z]:
                    continue
                r, c = divmod(z, SIZE)
                if ((r > 0 and region[z - SIZE]) or (r < SIZE - 1 and region[z + SIZE])
                        or (c > 0 and region[z - 1]) or (c < SIZE - 1 and region[z + 1])):
                    frontier[nf] = z
                    nf += 1
            if nf == 0:
                break
            trace[k] = frontier[np.random.randint(nf)]
            code, grown, _ = drawing_region(land, trace, k + 1)
            if code == OK:
                region = grown
                k += 1
        return trace, k
    return trace, 0


@njit(cache=True)
def random_game(offers, seed):
    """Play every turn at random among legal moves; returns (placements, traces, lengths).

    A stuck turn (no empty cell in either zone) leaves placement (-1, -1) and stops the game.
    """
    np.random.seed(seed)
    tiles = np.zeros(CELLS, np.int64)
    land = np.zeros(CELLS, np.bool_)
    placements = np.full((TURNS, 2), -1, np.int64)
    traces = np.zeros((3, CELLS), np.int64)
    lens = np.zeros(3, np.int64)
    d = 0
    for t in range(TURNS):
        tile, cell = random_placement(tiles, offers[t])
        if tile < 0:
            break
        placements[t, 0] = tile
        placements[t, 1] = cell
        tiles[cell] = tile
        if drawing_due(t + 1):
            trace, n = random_drawing(land, 20)
            if n == 0:
                break
            traces[d] = trace
            lens[d] = n
            _, region, _ = drawing_region(land, trace, n)
            land ^= region
            d += 1
    return placements, traces, lens
