"""Iwoki agents, jitted: the paper's Random, Greedy and Minimax, and a sampling agent for the
hidden-information game. A whole game between two agents runs inside numba.

* Random: uniform over the option list (duplicates included), as the simulator.
* Greedy: the first option with the strictly highest points (so ties go to '-' small tiles,
  then '+', then hex, then draw, then pass), as the simulator.
* Minimax: alpha-beta over the option list, depth d, leaf value = the final-tally margin of
  the searching player as if the game ended there. Unlike the simulator's tree, a draw keeps
  the turn (the drawer moves again) and a game ended inside the tree is tallied once.
  The first best root option wins ties. It sees the whole state (perfect information).
* Minimax-sim: the same search with the simulator's tree: levels alternate MAX/min strictly,
  even after a draw (in the game the drawer moves again), to replicate the paper's figures.
* Sampler: for the hidden game. It sees only its own hand and what is on the table: it deals
  the unseen small tiles into many possible opponent hands and pile orders, plays every
  option out Greedy against Greedy on each, and plays the best mean final margin.

>>> import numpy as np
>>> from scorebook.engines.iwoki.engine import new_state
>>> rng = np.random.default_rng(1)
>>> s = deal(rng, 0)
>>> actions, stats = play_game(s, GREEDY, RANDOM, 0, 0, 5, INF, 16)
>>> bool(actions.shape[0] > 10), stats.shape
(True, (2, 3))
"""
from __future__ import annotations

import numpy as np
from scorebook.engines.jit import njit

from . import engine as E
from .metadata import (HAND_SMALL, INITIAL_HEX, INITIAL_SMALL, N_HAND_SMALL, N_HEX_TILES, N_SMALL_TILES,
                       SCORE, SMALL_PILE, SMALL_PILE_LEN, SMALL_PILE_TOP, STATE_SIZE, TO_MOVE)

RANDOM, GREEDY, MINIMAX, SAMPLER, MINIMAX_SIM = 0, 1, 2, 3, 4
AGENT_NAMES = {"random": RANDOM, "greedy": GREEDY, "minimax": MINIMAX, "sampler": SAMPLER, "minimax-sim": MINIMAX_SIM}
INF = 1 << 40


def deal(rng: np.random.Generator, rules: int) -> np.ndarray:
    """A shuffled deal: 9 small and 3 hex tiles each, the rest in the piles."""
    small = rng.permutation(N_SMALL_TILES)
    hexes = rng.permutation(N_HEX_TILES)
    hands_small = [small[:INITIAL_SMALL].tolist(), small[INITIAL_SMALL:2 * INITIAL_SMALL].tolist()]
    hands_hex = [hexes[:INITIAL_HEX].tolist(), hexes[INITIAL_HEX:2 * INITIAL_HEX].tolist()]
    return E.new_state(hands_small, hands_hex, small[2 * INITIAL_SMALL:].tolist(), hexes[2 * INITIAL_HEX:].tolist(), rules)


@njit(cache=True)
def greedy_index(opts):
    best = 0
    for i in range(1, opts.shape[0]):
        if opts[i, 4] > opts[best, 4]:
            best = i
    return best


@njit(cache=True, nogil=True)  # long: releases the GIL (an interrupt is served at once)
def minimax(s, depth, budget, stats, alternate):
    """(index of the best root option, its value) for the player to move, alpha-beta to
    ``depth`` plies on an explicit stack. ``stats[0]`` counts nodes; ``stats[1]`` is set when
    ``budget`` nodes ran out (the answer is then the best found so far)."""
    root = s[TO_MOVE]
    states = np.empty((depth + 1, STATE_SIZE), np.int64)
    states[0] = s
    cap = 4096
    buf = np.empty((cap, 5), np.int64)
    first = np.zeros(depth + 2, np.int64)
    count = np.zeros(depth + 1, np.int64)
    pos = np.zeros(depth + 1, np.int64)
    alpha = np.zeros(depth + 1, np.int64)
    beta = np.zeros(depth + 1, np.int64)
    best = np.zeros(depth + 1, np.int64)
    maxing = np.zeros(depth + 1, np.bool_)
    sp = 0
    alpha[0] = -INF
    beta[0] = INF
    best_root = 0
    entering = True
    while True:
        if entering:
            opts = E.options(states[sp])
            k = opts.shape[0]
            top = first[sp]
            while top + k > cap:
                cap *= 2
                bigger = np.empty((cap, 5), np.int64)
                bigger[:top] = buf[:top]
                buf = bigger
            buf[top:top + k] = opts
            count[sp] = k
            pos[sp] = 0
            maxing[sp] = (sp % 2 == 0) if alternate else states[sp][TO_MOVE] == root
            best[sp] = -INF if maxing[sp] else INF
            first[sp + 1] = top + k
            stats[0] += 1
            entering = False
        if stats[0] > budget:
            stats[1] = 1
            return best_root, best[0]
        if pos[sp] < count[sp] and alpha[sp] < beta[sp]:
            child = states[sp + 1]
            child[:] = states[sp]
            E.apply_option(child, buf[first[sp] + pos[sp]])
            if sp + 1 < depth and not E.game_over(child):
                alpha[sp + 1] = alpha[sp]
                beta[sp + 1] = beta[sp]
                sp += 1
                entering = True
                continue
            value = E.tally_margin(child, root)
        else:  # frame done
            value = best[sp]
            if sp == 0:
                return best_root, value
            sp -= 1
        # hand ``value`` to frame sp for its option at pos[sp]
        if maxing[sp]:
            if value > best[sp]:
                best[sp] = value
                if sp == 0:
                    best_root = pos[0]
            if best[sp] > alpha[sp]:
                alpha[sp] = best[sp]
        else:
            if value < best[sp]:
                best[sp] = value
            if best[sp] < beta[sp]:
                beta[sp] = best[sp]
        pos[sp] += 1


@njit(cache=True)
def _unseen_small(s, player):
    """Small tiles the player cannot see: the opponent's hand and the rest of the pile."""
    seen = np.zeros(N_SMALL_TILES, np.bool_)
    for i in range(s[N_HAND_SMALL + player]):
        seen[s[HAND_SMALL + player * N_SMALL_TILES + i]] = True
    out = np.empty(N_SMALL_TILES, np.int64)
    k = 0
    other = 1 - player
    for i in range(s[N_HAND_SMALL + other]):
        out[k] = s[HAND_SMALL + other * N_SMALL_TILES + i]
        k += 1
    for i in range(s[SMALL_PILE_TOP], s[SMALL_PILE_LEN]):
        out[k] = s[SMALL_PILE + i]
        k += 1
    return out[:k]


@njit(cache=True)
def _redeal(s, p, unseen, guess):
    """``guess`` := ``s`` with the unseen small tiles shuffled into the opponent's hand and the pile."""
    other = 1 - p
    n_hand = s[N_HAND_SMALL + other]
    perm = np.random.permutation(unseen)
    guess[:] = s
    for i in range(n_hand):
        guess[HAND_SMALL + other * N_SMALL_TILES + i] = perm[i]
    for i in range(perm.shape[0] - n_hand):
        guess[SMALL_PILE + s[SMALL_PILE_TOP] + i] = perm[n_hand + i]


@njit(cache=True)
def greedy_to_end(s, player):
    """Greedy against Greedy from ``s`` (changed in place) to the end; the final-tally margin of ``player``."""
    while not E.game_over(s):
        opts = E.options(s)
        E.apply_option(s, opts[greedy_index(opts)])
    return E.tally_margin(s, player)


@njit(cache=True)
def _playout_values(s, opts, samples):
    """float64[k, samples]: the mover's final margin after each option, on ``samples`` redeals
    of the unseen small tiles (the same redeals for every option), Greedy against Greedy."""
    k = opts.shape[0]
    out = np.zeros((k, samples), np.float64)
    p = s[TO_MOVE]
    unseen = _unseen_small(s, p)
    guess = s.copy()
    child = s.copy()
    for r in range(samples):
        _redeal(s, p, unseen, guess)
        for j in range(k):
            child[:] = guess
            E.apply_option(child, opts[j])
            out[j, r] = greedy_to_end(child, p)
    return out


@njit(cache=True)
def sampler_index(s, samples, stats):
    """The option with the best mean final margin over ``samples`` redeals of the unseen
    small tiles, each option played out Greedy against Greedy (the same redeals for all)."""
    opts = E.options(s)
    k = opts.shape[0]
    if k == 1:
        return 0
    totals = _playout_values(s, opts, samples).sum(axis=1)
    stats[0] += k * samples
    best = 0
    for j in range(1, k):
        if totals[j] > totals[best]:
            best = j
    return best


@njit(cache=True, nogil=True)  # long: releases the GIL (an interrupt is served at once)
def choose(s, agent, depth, budget, samples, stats):
    opts = E.options(s)
    if agent == RANDOM:
        return opts[np.random.randint(opts.shape[0])]
    if agent == GREEDY:
        return opts[greedy_index(opts)]
    if agent == MINIMAX or agent == MINIMAX_SIM:
        i, _ = minimax(s, depth, budget, stats, agent == MINIMAX_SIM)
        return opts[i]
    return opts[sampler_index(s, samples, stats)]


@njit(cache=True, nogil=True)  # long: releases the GIL (an interrupt is served at once)
def play_game(s, agent0, agent1, depth0, depth1, seed, budget, samples):
    """Play from ``s`` (copied) to the end. Returns (options played, int64[k, 6]: the option
    and the seat) and stats int64[2, 3] per seat: decisions, nodes searched, final tally."""
    np.random.seed(seed)
    s = s.copy()
    out = np.empty((400, 6), np.int64)
    stats = np.zeros((2, 3), np.int64)
    nodes = np.zeros(2, np.int64)
    k = 0
    while not E.game_over(s) and k < 400:
        p = s[TO_MOVE]
        agent = agent0 if p == 0 else agent1
        depth = depth0 if p == 0 else depth1
        nodes[0] = 0
        nodes[1] = 0
        opt = choose(s, agent, depth, budget, samples, nodes)
        out[k, :5] = opt
        out[k, 5] = p
        k += 1
        stats[p, 0] += 1
        stats[p, 1] += nodes[0]
        E.apply_option(s, opt)
    pen = E.penalties(s)
    stats[0, 2] = s[SCORE] - pen[0]
    stats[1, 2] = s[SCORE + 1] - pen[1]
    return out[:k], stats


@njit(cache=True, nogil=True)  # long: releases the GIL (an interrupt is served at once)
def many_games(agent0, agent1, depth0, depth1, games, seed, rules):
    """Mean first-seat margin over ``games`` random deals (benchmarks); seats alternate."""
    np.random.seed(seed)
    total = 0
    for g in range(games):
        small = np.random.permutation(N_SMALL_TILES)
        hexes = np.random.permutation(N_HEX_TILES)
        s = np.zeros(STATE_SIZE, np.int64)
        _fill(s, small, hexes, rules)
        if g % 2 == 0:
            _, st = play_game(s, agent0, agent1, depth0, depth1, g + seed, INF, 16)
            total += st[0, 2] - st[1, 2]
        else:
            _, st = play_game(s, agent1, agent0, depth1, depth0, g + seed, INF, 16)
            total += st[1, 2] - st[0, 2]
    return total / games


@njit(cache=True)
def _fill(s, small, hexes, rules):
    """new_state inside numba (the Python one takes lists)."""
    from_ = 0
    s[:] = 0
    for i in range(E.HEXVAL, E.HEXVAL + E.N_HEX_GAPS * 6):
        s[i] = -1
    for i in range(E.SLOTVAL, E.SLOTVAL + E.N_SMALL_GAPS * 3):
        s[i] = -1
    for p in range(2):
        for i in range(INITIAL_SMALL):
            s[HAND_SMALL + p * N_SMALL_TILES + i] = small[from_ + i]
        from_ += INITIAL_SMALL
        s[N_HAND_SMALL + p] = INITIAL_SMALL
        for i in range(INITIAL_HEX):
            s[E.HAND_HEX + p * N_HEX_TILES + i] = hexes[p * INITIAL_HEX + i]
        s[E.N_HAND_HEX + p] = INITIAL_HEX
    rest = N_SMALL_TILES - from_
    for i in range(rest):
        s[SMALL_PILE + i] = small[from_ + i]
    s[SMALL_PILE_LEN] = rest
    for i in range(N_HEX_TILES - 2 * INITIAL_HEX):
        s[E.HEX_PILE + i] = hexes[2 * INITIAL_HEX + i]
    s[E.HEX_PILE_LEN] = N_HEX_TILES - 2 * INITIAL_HEX
    s[E.FIRST] = 1
    s[E.RULES] = rules


@njit(cache=True)
def seed_numba(seed):
    """Numba keeps its own random generator: seed it for reproducible Random and Sampler agents."""
    np.random.seed(seed)


@njit(cache=True, nogil=True)  # long: releases the GIL (an interrupt is served at once)
def option_values(s, samples, seed):
    """Expected final-tally margin of each option for the player to move: the unseen small
    tiles (opponent's hand, pile order) redealt ``samples`` times, each option followed by a
    Greedy-vs-Greedy game to the end; the same redeals for every option.
    Returns (options, float64[k, samples])."""
    np.random.seed(seed)
    opts = E.options(s)
    return opts, _playout_values(s, opts, samples)
