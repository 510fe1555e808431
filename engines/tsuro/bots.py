"""Tsuro's bots, jitted: ``random``, ``simple`` (the seed's AI as spec section 3 makes it
precise) and ``mc:N`` (determinized Monte Carlo: the seat knows its hand, the board and the
tiles gone; the unseen tiles are dealt anew N times, each placement played out by the
simple AI for every seat, the best mean share of the win).

>>> import numpy as np
>>> from .rules import new_state, OVER
>>> s = new_state(3, np.array([0, 17, 100]), np.arange(35), 0, 5)
>>> n = play_out(s, SIMPLE, new_rng(5, 0))
>>> bool(s[OVER]), n > 0
(True, True)
"""
from __future__ import annotations

import numpy as np
from scorebook.engines.jit import njit

from .rules import (DECK, DECK_N, EVENTS, HAND, HANDS, MAX_PLAYERS, N, N_TILES, NO_ORDER, OK, OVER, POS, SEED, TO_MOVE,
                    edge_distance, eliminates_mover, has_safe, outcome, turn, win_share)

RANDOM, SIMPLE, MC = range(3)
BOT_CODES = {"random": RANDOM, "simple": SIMPLE, "mc": MC}


@njit(cache=True)
def new_rng(seed: np.int64, stream: np.int64) -> np.ndarray:
    r = np.empty(1, np.uint64)
    r[0] = np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15) ^ (np.uint64(stream) * np.uint64(0xD1B54A32D192ED03))
    return r


@njit(cache=True)
def below(rng: np.ndarray, n: np.int64) -> np.int64:
    rng[0] += np.uint64(0x9E3779B97F4A7C15)
    z = rng[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return np.int64(z % np.uint64(n))


@njit(cache=True)
def legal(s: np.ndarray, out: np.ndarray) -> np.int64:
    """The mover's legal (tile, rotation) pairs, hand slot then rotation; how many."""
    p = s[TO_MOVE]
    safe = has_safe(s)
    n = 0
    for k in range(HAND):
        t = s[HANDS + HAND * p + k]
        if t < 0:
            continue
        for r in range(4):
            if not safe or not eliminates_mover(s, t, r):
                out[n, 0], out[n, 1] = t, r
                n += 1
    return n


@njit(cache=True)
def simple_choice(s: np.ndarray) -> tuple:
    """Spec 3: among placements that keep the mover (all, if none does), most opponents
    eliminated, then the smallest summed distance to the rim of the tokens left, then the
    lowest hand slot, then the lowest rotation."""
    p = s[TO_MOVE]
    ends = np.empty(MAX_PLAYERS, np.int64)
    best_t, best_r = -1, 0
    best_dead, best_kills, best_dist = True, -1, 1 << 30
    for k in range(HAND):
        t = s[HANDS + HAND * p + k]
        if t < 0:
            continue
        for r in range(4):
            outcome(s, t, r, ends)
            dead = ends[p] < 0 and ends[p] != -3
            kills = 0
            for q in range(s[N]):
                if q != p and ends[q] != -3 and ends[q] < 0:
                    kills += 1
            dist = 0
            for q in range(s[N]):  # the tokens still on the board after the move, where they stand
                if ends[q] >= 0:
                    dist += edge_distance(ends[q])
                elif ends[q] == -3 and s[POS + q] >= 0:
                    dist += edge_distance(s[POS + q])
            better = False
            if best_t < 0:
                better = True
            elif dead != best_dead:
                better = not dead
            elif kills != best_kills:
                better = kills > best_kills
            elif dist != best_dist:
                better = dist < best_dist
            if better:
                best_t, best_r, best_dead, best_kills, best_dist = t, r, dead, kills, dist
    return best_t, best_r


@njit(cache=True)
def cheap_choice(s: np.ndarray, bot: np.int64, rng: np.ndarray) -> tuple:
    if bot == SIMPLE:
        return simple_choice(s)
    out = np.empty((3 * HAND * 4, 2), np.int64)
    n = legal(s, out)
    i = below(rng, n)
    return out[i, 0], out[i, 1]


@njit(cache=True)
def play_out(s: np.ndarray, bot: np.int64, rng: np.ndarray) -> np.int64:
    """Every seat plays ``bot`` to the end (shuffles from the state's seed); turns played."""
    events = np.empty((EVENTS, 3), np.int64)
    n = 0
    while s[OVER] == 0:
        t, r = cheap_choice(s, bot, rng)
        if turn(s, t, r, NO_ORDER, events) != OK:
            break
        n += 1
    return n


@njit(cache=True)
def determinize(s: np.ndarray, seat: np.int64, rng: np.ndarray) -> np.ndarray:
    """A copy of ``s`` as ``seat`` might imagine it: the tiles it cannot see (the deck and the
    other hands) shuffled and dealt back into the same places; a fresh shuffle seed."""
    t = s.copy()
    unseen = np.empty(N_TILES, np.int64)
    m = 0
    for q in range(s[N]):
        if q != seat:
            for k in range(HAND):
                if t[HANDS + HAND * q + k] >= 0:
                    unseen[m] = t[HANDS + HAND * q + k]
                    m += 1
    for i in range(t[DECK_N]):
        unseen[m] = t[DECK + i]
        m += 1
    for i in range(m - 1, 0, -1):
        j = below(rng, i + 1)
        unseen[i], unseen[j] = unseen[j], unseen[i]
    m = 0
    for q in range(s[N]):
        if q != seat:
            for k in range(HAND):
                if t[HANDS + HAND * q + k] >= 0:
                    t[HANDS + HAND * q + k] = unseen[m]
                    m += 1
    for i in range(t[DECK_N]):
        t[DECK + i] = unseen[m]
        m += 1
    t[SEED] = np.int64(below(rng, 1 << 62))
    return t


@njit(cache=True, nogil=True)
def option_values(s: np.ndarray, options: np.ndarray, n: np.int64, samples: np.int64, seed: np.int64,
                  values: np.ndarray) -> None:
    """``values[i, j]``: the mover's share of the win after option i in deal j (deal j the
    same for every option: common random numbers)."""
    seat = s[TO_MOVE]
    events = np.empty((EVENTS, 3), np.int64)
    for j in range(samples):
        world = determinize(s, seat, new_rng(seed, j))
        for i in range(n):
            t = world.copy()
            if turn(t, options[i, 0], options[i, 1], NO_ORDER, events) != OK:
                values[i, j] = -1.0
                continue
            play_out(t, SIMPLE, new_rng(seed, 1_000_000 + j))
            values[i, j] = win_share(t, seat)


def options_of(s: np.ndarray) -> np.ndarray:
    out = np.empty((3 * HAND * 4, 2), np.int64)
    return out[:legal(s, out)].copy()


def mc_choice(s: np.ndarray, samples: int, seed: int) -> tuple[int, int]:
    options = options_of(s)
    if options.shape[0] == 1:
        return int(options[0, 0]), int(options[0, 1])
    values = np.empty((options.shape[0], samples))
    option_values(s, options, options.shape[0], samples, seed, values)
    i = int(np.argmax(values.mean(axis=1)))
    return int(options[i, 0]), int(options[i, 1])
