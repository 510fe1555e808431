"""Tiny Islands games played by TinyBot's network, many at once in lockstep, jitted.

A batch of games (``Games``) advances together: each step the games that wait on the net are
encoded into one batch, the net is run once, and every game plays the legal move with the
largest logit, then goes on by itself through what needs no decision (an offer taken, a single
legal move, the last drawing when the planner draws it) to its next decision. The same code
plays a whole game for the ``net`` bot (a batch of one) and the search's play-outs (a batch of
candidates times futures).

Placements and the first two shorelines are the net's (shorelines through TinyBot's drawing
interface, ``drawing_interface``); the last shoreline is Scorebook's planner's
(``bots.last_drawing``), or the net's with ``third_by_net``.

A game's state is a row of each array of ``Games``; ``phase`` says what it waits on.
"""
from __future__ import annotations

import numpy as np
from scorebook.engines.jit import njit

from . import drawing_interface as D
from .bots import WEIGHTS, last_drawing
from .engine import drawing_due, listed_region, placements_into, MAX_PLACEMENTS, score_board
from .metadata import CELLS, TURNS
from .net_encoding import GLOBAL, LOCAL, N_ZONES, best_of, encode_drawing, encode_placement, take_offer

# phases
PLACE, DRAW, OVER = 0, 1, 2
# gmeta fields: placements made, drawings done, phase, stuck, the offer of this turn taken
TURN, DRAWINGS, PHASE, STUCK, TAKEN = 0, 1, 2, 3, 4
GMETA = 5
STUCK_PENALTY = 100  # TinyBot's: a stuck game scores as if it lost this many points
MOVES = MAX_PLACEMENTS if MAX_PLACEMENTS > CELLS + 1 else CELLS + 1


class Games:
    """``n`` games in lockstep: their shuffles and states (numpy arrays, a row a game)."""

    def __init__(self, n: int, wave_rule: int, third_by_net: bool = False):
        self.n = n
        self.wave_rule = wave_rule
        self.third_by_net = third_by_net
        self.offers = np.zeros((n, TURNS, 4), np.int64)
        self.tiles = np.zeros((n, CELLS), np.int64)
        self.land_id = np.zeros((n, CELLS), np.int64)
        self.region = np.zeros((n, CELLS), np.bool_)
        self.prio = np.zeros((n, CELLS), np.float64)
        self.dmeta = np.zeros((n, D.META), np.int64)
        self.gmeta = np.zeros((n, GMETA), np.int64)
        self.tile_drawn = np.zeros((n, 8), np.int64)
        self.zone_drawn = np.zeros((n, N_ZONES), np.int64)
        self.placed = np.full((n, TURNS, 2), -1, np.int64)  # the record: (tile, cell) a turn
        self.drawn = np.zeros((n, 3, CELLS), np.bool_)  # and the regions drawn
        self.local = np.zeros((n, LOCAL), np.float32)
        self.glob = np.zeros((n, GLOBAL), np.float32)

    def arrays(self):
        return (self.offers, self.tiles, self.land_id, self.region, self.prio, self.dmeta, self.gmeta,
                self.tile_drawn, self.zone_drawn, self.placed, self.drawn)

    def copy_row(self, src: "Games", i: int, rows) -> None:
        """Every row in ``rows`` becomes game ``i`` of ``src``."""
        for mine, theirs in zip(self.arrays(), src.arrays()):
            mine[rows] = theirs[i]


@njit(cache=True)
def _land(land_id):
    return land_id > 0


@njit(cache=True)
def apply_move(i, move, offers, tiles, land_id, region, prio, dmeta, gmeta, tile_drawn, zone_drawn, placed, drawn, wave_rule,
               third_by_net):
    """Play ``move`` in game ``i`` (a placement ``tile * 81 + cell``, a drawn cell or the pass)."""
    if gmeta[i, PHASE] == PLACE:
        tiles[i, move % CELLS] = move // CELLS
        placed[i, gmeta[i, TURN], 0] = move // CELLS
        placed[i, gmeta[i, TURN], 1] = move % CELLS
        gmeta[i, TURN] += 1
        gmeta[i, TAKEN] = 0
        if drawing_due(gmeta[i, TURN]):
            d = gmeta[i, DRAWINGS]
            if d == 2 and not third_by_net:
                cells, n = last_drawing(tiles[i], _land(land_id[i]), wave_rule, WEIGHTS)
                _, reg = listed_region(_land(land_id[i]), cells, n)
                region[i] = reg
                drawn[i, d] = reg
                D.finish_drawing(land_id[i], region[i], d)
                gmeta[i, DRAWINGS] = 3
                gmeta[i, PHASE] = OVER
            else:
                D.begin_drawing(land_id[i], region[i], prio[i], dmeta[i], d)
                gmeta[i, PHASE] = DRAW
    elif move == D.PASS:
        d = gmeta[i, DRAWINGS]
        drawn[i, d] = region[i]
        D.finish_drawing(land_id[i], region[i], d)
        region[i] = False
        gmeta[i, DRAWINGS] = d + 1
        gmeta[i, PHASE] = OVER if d + 1 == 3 else PLACE
    else:
        D.draw_cell(land_id[i], region[i], prio[i], dmeta[i], move)


@njit(cache=True)
def apply_region(i, cells, n, offers, tiles, land_id, region, prio, dmeta, gmeta, tile_drawn, zone_drawn, placed, drawn,
                 wave_rule, third_by_net):
    """Draw a whole shoreline in game ``i`` at once: the region of ``cells[:n]`` (a record's
    shoreline, which TinyBot's interface need not be able to draw)."""
    d = gmeta[i, DRAWINGS]
    region[i] = False
    for k in range(n):
        region[i, cells[k]] = True
    drawn[i, d] = region[i]
    D.finish_drawing(land_id[i], region[i], d)
    region[i] = False
    gmeta[i, DRAWINGS] = d + 1
    gmeta[i, PHASE] = OVER if d + 1 == 3 else PLACE


@njit(cache=True)
def legal(i, offers, tiles, land_id, region, prio, dmeta, gmeta, out, scratch):
    """The legal moves of game ``i`` into ``out`` (policy indexes); returns how many."""
    if gmeta[i, PHASE] == PLACE:
        n = placements_into(tiles[i], offers[i, gmeta[i, TURN]], scratch)
        m = 0
        for k in range(n):
            move = scratch[k, 0] * CELLS + scratch[k, 1]
            seen = False
            for j in range(m):
                if out[j] == move:
                    seen = True
            if not seen:
                out[m] = move
                m += 1
        return m
    if gmeta[i, PHASE] == DRAW:
        return D.legal_moves(land_id[i], region[i], prio[i], dmeta[i], tiles[i], out)
    return 0


@njit(cache=True)
def settle(i, offers, tiles, land_id, region, prio, dmeta, gmeta, tile_drawn, zone_drawn, placed, drawn, wave_rule,
           third_by_net, drawing_only, out, scratch):
    """Carry game ``i`` to its next decision: take the turn's offer, play single legal moves.
    Returns the number of legal moves there (0: the game is over, or with ``drawing_only``
    its drawing is, before the next offer is seen)."""
    while True:
        if gmeta[i, PHASE] == OVER or (drawing_only and gmeta[i, PHASE] != DRAW):
            return 0
        if gmeta[i, PHASE] == PLACE and gmeta[i, TAKEN] == 0:
            take_offer(offers[i, gmeta[i, TURN]], tile_drawn[i], zone_drawn[i])
            gmeta[i, TAKEN] = 1
        n = legal(i, offers, tiles, land_id, region, prio, dmeta, gmeta, out, scratch)
        if n == 0:  # stuck: no empty cell in either zone
            gmeta[i, STUCK] = 1
            gmeta[i, PHASE] = OVER
            return 0
        if n > 1:
            return n
        apply_move(i, out[0], offers, tiles, land_id, region, prio, dmeta, gmeta, tile_drawn, zone_drawn, placed, drawn, wave_rule,
                   third_by_net)


@njit(cache=True)
def encode(i, row, offers, tiles, land_id, region, prio, dmeta, gmeta, tile_drawn, zone_drawn, local, glob):
    """The net's inputs for game ``i``'s decision, into batch row ``row``."""
    t = gmeta[i, TURN]
    if gmeta[i, PHASE] == PLACE:
        encode_placement(tiles[i], land_id[i], offers[i, t], tile_drawn[i], zone_drawn[i], t, gmeta[i, DRAWINGS],
                         local[row], glob[row])
    else:
        encode_drawing(tiles[i], land_id[i], region[i], prio[i], dmeta[i], tile_drawn[i], zone_drawn[i], t,
                       gmeta[i, DRAWINGS], local[row], glob[row])


@njit(cache=True)
def look(i, offers, tiles, land_id, region, prio, dmeta, gmeta, tile_drawn, zone_drawn, placed, drawn, local, glob):
    """Game ``i``'s decision as it stands (its offer taken, nothing played for it), encoded
    into batch row 0: how a record's position is shown to the net."""
    if gmeta[i, PHASE] == PLACE and gmeta[i, TAKEN] == 0:
        take_offer(offers[i, gmeta[i, TURN]], tile_drawn[i], zone_drawn[i])
        gmeta[i, TAKEN] = 1
    encode(i, 0, offers, tiles, land_id, region, prio, dmeta, gmeta, tile_drawn, zone_drawn, local, glob)


@njit(cache=True)
def prepare(active, offers, tiles, land_id, region, prio, dmeta, gmeta, tile_drawn, zone_drawn, placed, drawn, wave_rule,
            third_by_net, drawing_only, local, glob):
    """Settle every game in ``active`` and encode those still waiting on the net, in order, into
    the batch's first rows; returns how many wait (``active`` is rewritten with them first)."""
    out = np.empty(MOVES, np.int64)
    scratch = np.empty((MAX_PLACEMENTS, 2), np.int64)
    m = 0
    for k in range(active.shape[0]):
        i = active[k]
        if settle(i, offers, tiles, land_id, region, prio, dmeta, gmeta, tile_drawn, zone_drawn, placed, drawn, wave_rule,
                  third_by_net, drawing_only, out, scratch) > 0:
            encode(i, m, offers, tiles, land_id, region, prio, dmeta, gmeta, tile_drawn, zone_drawn, local, glob)
            active[m] = i
            m += 1
    return m


@njit(cache=True)
def play_best(active, m, logits, offers, tiles, land_id, region, prio, dmeta, gmeta, tile_drawn, zone_drawn,
              placed, drawn, wave_rule, third_by_net, chosen):
    """Every waiting game plays its legal move with the largest logit (row k of ``logits`` is
    game ``active[k]``'s); ``chosen[k]`` gets the move."""
    out = np.empty(MOVES, np.int64)
    scratch = np.empty((MAX_PLACEMENTS, 2), np.int64)
    for k in range(m):
        i = active[k]
        n = legal(i, offers, tiles, land_id, region, prio, dmeta, gmeta, out, scratch)
        move = best_of(logits[k], out, n)
        chosen[k] = move
        apply_move(i, move, offers, tiles, land_id, region, prio, dmeta, gmeta, tile_drawn, zone_drawn, placed, drawn, wave_rule,
                   third_by_net)


@njit(cache=True)
def totals(tiles, land_id, gmeta, wave_rule):
    """Each game's total as it stands (a stuck game less ``STUCK_PENALTY``)."""
    n = tiles.shape[0]
    out = np.zeros(n, np.float64)
    for i in range(n):
        out[i] = score_board(tiles[i], _land(land_id[i]), wave_rule)[8] - STUCK_PENALTY * gmeta[i, STUCK]
    return out


def run(games: Games, net, active=None, drawing_only: bool = False) -> int:
    """Play ``games`` (the rows in ``active``, default all) by the net's best moves to the end,
    or with ``drawing_only`` to the end of their drawing. Returns the positions evaluated."""
    active = np.arange(games.n, dtype=np.int64) if active is None else np.array(active, np.int64)
    chosen = np.zeros(games.n, np.int64)
    state = games.arrays()
    evaluated = 0
    while True:
        m = prepare(active, *state, games.wave_rule, games.third_by_net, drawing_only, games.local, games.glob)
        if m == 0:
            return evaluated
        active = active[:m]
        logits = net.policy(games.local[:m], games.glob[:m])
        evaluated += m
        play_best(active, m, logits, *state, games.wave_rule, games.third_by_net, chosen)
