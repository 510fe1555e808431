"""Tiny Islands bots on TinyBot's network: ``net`` and ``netsearch:N``.

* ``net``: at every decision the legal move with the largest logit (TinyBot's "autopilot"):
  placements, the first two shorelines through TinyBot's drawing interface, the last one by
  Scorebook's planner (the net draws it as well, within noise, and the planner is cheaper:
  BENCHMARKS.md).
* ``netsearch:N``: ``net``, except at the first two shorelines, where the greedy shoreline and
  its closest alternatives (at each of the ``VARIANTS`` steps where the net's first and second
  choices are nearest, the second choice, then greedy) are each played out by ``net`` over the
  same N futures drawn from the cards not seen yet, under the game's deck model; the best mean
  is drawn when it leads the net's own by ``SWITCH_Z`` standard errors. Play-outs at the
  placements gained nothing measurable (BENCHMARKS.md), so the budget goes to the shorelines.

A bot reads an offer only when it is drawn: the game's shuffle is in ``Games.offers``, but a
decision reads the offers up to the current turn, and the futures replace the rest.
"""
from __future__ import annotations

import numpy as np
from scorebook.engines.jit import njit

from .deck import _sample_future
from .drawing_interface import INK, INK_BEFORE
from .metadata import CELLS, TURNS
from . import net_play as NP

VARIANTS = 8  # alternative shorelines weighed beside the greedy one
SWITCH_Z = 1.0  # an alternative replaces the net's own shoreline when it leads by this many standard errors


@njit(cache=True)
def sample_futures(offers, t, n, deck_model, seed):
    """n shuffles that agree with ``offers`` up to turn t, the rest drawn from the cards not
    seen yet (``deck_model``: 0 two-deck, 1 one-deck)."""
    np.random.seed(seed)
    out = np.zeros((n, TURNS, 4), np.int64)
    for k in range(n):
        _sample_future(offers, t, out[k], deck_model)
    return out


def _ranked_moves(games: NP.Games, i: int, logits: np.ndarray) -> np.ndarray:
    out = np.empty(NP.MOVES, np.int64)
    scratch = np.empty((NP.MAX_PLACEMENTS, 2), np.int64)
    n = NP.legal(i, games.offers, games.tiles, games.land_id, games.region, games.prio, games.dmeta, games.gmeta,
                 out, scratch)
    moves = out[:n]
    return moves[np.argsort(-logits[moves], kind="stable")]


def _apply(games: NP.Games, i: int, move: int) -> None:
    NP.apply_move(i, move, *games.arrays(), games.wave_rule, games.third_by_net)


def _decision(games: NP.Games) -> bool:
    """Carry game 0 to its next decision (its inputs encoded); False when it is over."""
    return NP.prepare(np.zeros(1, np.int64), *games.arrays(), games.wave_rule, games.third_by_net, False,
                      games.local, games.glob) > 0


def drawing_candidates(root: NP.Games, net, variants: int) -> NP.Games:
    """Rows of distinct shorelines, each drawn to its end from game 0 of ``root`` (at the start
    of a drawing): the net's greedy one first, then its one-step variants."""
    probe = NP.Games(1, root.wave_rule, root.third_by_net)
    probe.copy_row(root, 0, [0])
    trace, alternatives = [], []
    while probe.gmeta[0, NP.PHASE] == NP.DRAW:
        if NP.prepare(np.zeros(1, np.int64), *probe.arrays(), probe.wave_rule, probe.third_by_net, True,
                      probe.local, probe.glob) == 0:
            break
        logits = net.policy(probe.local[:1], probe.glob[:1])[0]
        ranked = _ranked_moves(probe, 0, logits)
        if len(ranked) > 1:
            alternatives.append((float(logits[ranked[0]] - logits[ranked[1]]), len(trace), int(ranked[1])))
        trace.append(int(ranked[0]))
        _apply(probe, 0, int(ranked[0]))
    alternatives.sort()
    starts = [trace] + [trace[:step] + [move] for _, step, move in alternatives[:variants]]
    rows = NP.Games(len(starts), root.wave_rule, root.third_by_net)
    rows.copy_row(root, 0, np.arange(len(starts)))
    for r, moves in enumerate(starts):
        for move in moves:
            _apply(rows, r, move)
    NP.run(rows, net, drawing_only=True)
    d = root.gmeta[0, NP.DRAWINGS]
    distinct, seen = [], set()
    for r in range(rows.n):
        key = rows.drawn[r, d].tobytes()
        if key not in seen:
            seen.add(key)
            distinct.append(r)
    out = NP.Games(len(distinct), root.wave_rule, root.third_by_net)
    for k, r in enumerate(distinct):
        out.copy_row(rows, r, [k])
    return out


def play_outs(candidates: NP.Games, net, futures: np.ndarray) -> np.ndarray:
    """Final totals [futures, candidates]: every candidate row played out by the net over every
    future (the same futures for every candidate)."""
    k, f = candidates.n, len(futures)
    games = NP.Games(k * f, candidates.wave_rule, candidates.third_by_net)
    for j in range(f):
        rows = np.arange(j * k, (j + 1) * k)
        for c in range(k):
            games.copy_row(candidates, c, [j * k + c])
        games.offers[rows] = futures[j]
    NP.run(games, net)
    return NP.totals(games.tiles, games.land_id, games.gmeta, games.wave_rule).reshape(f, k)


def _chosen(totals: np.ndarray, z: float) -> int:
    """The candidate with the best mean, unless it beats the first (the net's own choice) by
    less than ``z`` standard errors of the paired difference."""
    means = totals.mean(axis=0)
    best = int(np.argmax(means))
    if best == 0 or len(totals) < 2:
        return best
    diff = totals[:, best] - totals[:, 0]
    se = diff.std(ddof=1) / np.sqrt(len(diff))
    return best if diff.mean() > z * se else 0


def play_outs_of(jobs: list, net, wave_rule: int) -> np.ndarray:
    """Final totals of many play-outs at once, one a job ``(games, row, shuffle)``: row ``row``
    of ``games`` played out by the net on that shuffle (big batches: the net runs them together)."""
    games = NP.Games(len(jobs), wave_rule)
    for j, (src, row, shuffle) in enumerate(jobs):
        games.copy_row(src, row, [j])
        games.offers[j] = shuffle
    NP.run(games, net)
    return NP.totals(games.tiles, games.land_id, games.gmeta, wave_rule)


def play(offers: np.ndarray, net, wave_rule: int, deck_model: int, futures: int, seed: int,
         z: float = SWITCH_Z) -> NP.Games:
    """A whole game on this shuffle: ``net`` when ``futures`` is 0, else ``netsearch:futures``.
    Returns the finished game (row 0: its placements, regions and state)."""
    game = NP.Games(1, wave_rule)
    game.offers[0] = offers
    while _decision(game):
        i = 0
        if futures and game.gmeta[i, NP.PHASE] == NP.DRAW and game.dmeta[i, INK] == INK_BEFORE \
                and game.gmeta[i, NP.DRAWINGS] < 2:
            candidates = drawing_candidates(game, net, VARIANTS)
            if candidates.n > 1:
                t = int(game.gmeta[i, NP.TURN]) - 1  # the offers seen: up to the last turn played
                future = sample_futures(game.offers[i], t, futures, deck_model,
                                        seed * 7 + int(game.gmeta[i, NP.DRAWINGS]))
                best = _chosen(play_outs(candidates, net, future), z)
            else:
                best = 0
            game.copy_row(candidates, best, [i])
            continue
        logits = net.policy(game.local[:1], game.glob[:1])[0]
        _apply(game, i, int(_ranked_moves(game, i, logits)[0]))
    return game


def record_of(game: NP.Games) -> tuple:
    """(placements [26, 2], regions as cell lists [3, 81], lengths [3]) of game 0, as the other
    bots hand a game on; a stuck game's placements end with (-1, -1)."""
    placements = game.placed[0].copy()
    cells = np.zeros((3, CELLS), np.int64)
    lens = np.zeros(3, np.int64)
    for d in range(3):
        z = np.flatnonzero(game.drawn[0, d])
        cells[d, :len(z)] = z
        lens[d] = len(z)
    return placements, cells, lens
