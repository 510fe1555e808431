"""The Game of Islands behind the engines' protocol (``engines.protocol.Engine``).

A state is one grid (``engine.Grid``, every rule of a turn). An action is a turn:
``("line", (x1, y1, x2, y2), claims)``, ``("pass", None, claims)`` (the final claim-only
turn) or ``("time", None, ())`` (out of time); claims are dot numbers ``y * n + x``. Nothing
is left to chance; a game set up for ``play`` is a grid or a triad's three grids.

>>> g = ENGINE.initial_state({"grids": [4]})
>>> ENGINE.apply(g, ("line", (0, 0, 3, 0), ())), ENGINE.to_move(g)
(0, 1)
"""
from __future__ import annotations

import copy
import time

import numpy as np

from scorebook.engines.protocol import Engine, Played

from . import engine as E


def claimed_turns(n: int, lines) -> tuple[list[tuple[str, tuple[int, int, int, int], tuple[int, ...]]], list[E.Grid]]:
    """The turns of a bot game from its lines: each mover claims at once the islands its line
    makes (the bots' way), First moving first. The turns as actions, ``("line", line, claims)``,
    and the grid's states before the first turn and after each (copies), which the game's
    writer reads."""
    grid = E.Grid(n)
    turns, states = [], [copy.deepcopy(grid)]
    for x1, y1, x2, y2 in lines:
        before = grid.owner.copy()
        line = (int(x1), int(y1), int(x2), int(y2))
        grid.draw(*line)
        E.claim_near(n, grid.used, grid.diag, grid.owner, grid.mover, *line)
        claims = tuple(int(d) for d in np.flatnonzero(grid.owner != before))
        grid.end_turn(E.LINE, claims)
        turns.append((E.LINE, line, claims))
        states.append(copy.deepcopy(grid))
    return turns, states


class GameOfIslandsEngine(Engine):
    game_id = E.GAME_ID

    def new_game(self, rng: np.random.Generator, options: dict) -> dict:
        """The grids to play (one, or a triad's), with the seed of each grid's bots."""
        grids = list(E.TRIAD_GRIDS) if options.get("triad") else [options.get("grid") or 10]
        return {"grids": grids, "seeds": [int(rng.integers(2**31)) for _ in grids]}

    def initial_state(self, setup: dict) -> E.Grid:
        """The first grid of ``setup``; a record's later grid of a triad also says who ran out
        of time on an earlier one (``out_of_time``: First's, Second's)."""
        return E.Grid(setup["grids"][0], tuple(setup.get("out_of_time", (False, False))))

    def legal_actions(self, grid: E.Grid) -> list:
        """Every legal line, each claiming every unclaimed island once it is drawn (a
        representative set: any subset of claims is legal too), and the final claim-only turn
        when it is due."""
        if self.is_terminal(grid):
            return []
        if grid.turn_code(E.LINE) == E.OK:
            out = []
            for x1, y1, x2, y2 in E.legal_lines(grid.n, grid.used, grid.diag):
                E.apply_line(grid.n, grid.used, grid.diag, x1, y1, x2, y2)
                out.append(("line", (int(x1), int(y1), int(x2), int(y2)), self._unclaimed(grid)))
                E.undo_line(grid.n, grid.used, grid.diag, x1, y1, x2, y2)
            return out
        if grid.turn_code(E.PASS) == E.OK:
            return [("pass", None, self._unclaimed(grid))]
        return [("time", None, ())] if grid.turn_code(E.TIME) == E.OK else []

    @staticmethod
    def _unclaimed(grid: E.Grid) -> tuple:
        islands = E.island_mask(grid.n, grid.used, grid.diag)
        return tuple(int(d) for d in np.flatnonzero(islands & (grid.owner < 0)))

    def apply(self, grid: E.Grid, action) -> int:
        kind, line, claims = action
        code = grid.turn_code(kind)
        if code != E.OK:
            return code
        if kind == E.TIME and claims:
            return E.TIME_CLAIMS
        if kind == E.LINE:
            if line is None:
                return E.NO_LINE
            if not (grid.on_grid(line[0], line[1]) and grid.on_grid(line[2], line[3])):
                return E.OFF_GRID
            code = grid.line_code(*line)
            if code != E.OK:
                return code
            E.apply_line(grid.n, grid.used, grid.diag, *line)
        code = self._refused_claim(grid, claims)[1]
        if code != E.OK:
            if kind == E.LINE:
                E.undo_line(grid.n, grid.used, grid.diag, *line)
            return code
        if kind == E.LINE:
            grid.last_line_by = grid.mover
        grid.end_turn(kind, claims)
        return E.OK

    def code_name(self, code: int) -> str:
        return E.TURN_CODE_NAMES[code]

    def explain(self, grid: E.Grid, action, code: int) -> str:
        """The rule's message, naming the player to move and, for a refused claim, its dot."""
        kind, line, claims = action
        dot = "the dot"
        refused = self.refused_part(grid, action, code)
        if code == E.OFF_GRID:
            dot = self._off_grid_end(grid, line) if refused == 0 else "the dot"
            return f"{dot} is off the {grid.n} x {grid.n} grid"
        if refused > 0 and 0 <= claims[refused - 1] < grid.n * grid.n:
            dot = E.dot_name(grid.n, claims[refused - 1])
        return E.TURN_CODE_MESSAGES.get(code, "illegal move").format(player=("First", "Second")[grid.mover], dot=dot)

    @staticmethod
    def _off_grid_end(grid: E.Grid, line) -> str:
        x, y = (line[0], line[1]) if not grid.on_grid(line[0], line[1]) else (line[2], line[3])
        return chr(ord("A") + x) + str(y + 1) if 0 <= x < 26 and y >= -1 else "a dot"

    def refused_part(self, grid: E.Grid, action, code: int) -> int:
        """0 for the turn and its line; k for its k-th claim, found as ``apply`` checks them
        (after the turn's line is drawn)."""
        kind, line, claims = action
        if code == E.TIME_CLAIMS:
            return 1
        if code not in (E.OFF_GRID, *E.CLAIM_CODES) or grid.turn_code(kind) != E.OK:
            return 0
        drawn = kind == E.LINE and grid.on_grid(line[0], line[1]) and grid.on_grid(line[2], line[3]) \
            and grid.line_code(*line) == E.OK
        if kind == E.LINE and not drawn:
            return 0  # the line itself is refused
        if drawn:
            E.apply_line(grid.n, grid.used, grid.diag, *line)
        refused = self._refused_claim(grid, claims)[0]
        if drawn:
            E.undo_line(grid.n, grid.used, grid.diag, *line)
        return refused

    @staticmethod
    def _refused_claim(grid: E.Grid, claims) -> tuple[int, int]:
        """(k, code) of the first of a turn's claims the rules refuse, counted from 1, with the
        turn's line drawn; (0, OK) when they take them all."""
        seen: set[int] = set()
        for k, d in enumerate(claims, 1):
            code = E.OFF_GRID if not 0 <= d < grid.n * grid.n else grid.claim_code(d, seen)
            if code != E.OK:
                return k, code
            seen.add(d)
        return 0, E.OK

    def is_terminal(self, grid: E.Grid) -> bool:
        """Both players out of time, or no line left and the final claim-only turn taken or not due."""
        return all(grid.turn_code(kind) != E.OK for kind in (E.LINE, E.PASS, E.TIME))

    def to_move(self, grid: E.Grid) -> int:
        return grid.mover

    def score(self, grid: E.Grid) -> dict:
        points, islands, bonus = grid.score()
        return {"grid": grid.n, "points": points, "islands": islands, "bonus": bonus}

    # ---- bots

    def warm_up(self, bots, options: dict) -> None:
        from .bots import BOT_NAMES, play_game
        play_game(4, BOT_NAMES[bots[0].name], BOT_NAMES[bots[1].name], 0, 1, 100)

    def play(self, setup: dict, bots, seed: int, options: dict) -> Played:
        """The grids in order, First alternating from grid to grid (``bots[0]`` moves first in
        the first); each mover claims the islands its line makes at once. Returns the grid's
        turns and states; a triad's, a list a grid."""
        from .bots import BOT_NAMES, play_game
        depth, budget = options.get("depth") or 4, options.get("budget") or 300_000
        start = time.perf_counter()
        grids, states = [], []
        for k, (n, grid_seed) in enumerate(zip(setup["grids"], setup["seeds"])):
            first = k % 2
            lines = play_game(n, BOT_NAMES[bots[first].name], BOT_NAMES[bots[1 - first].name], grid_seed, depth,
                              budget)
            turns, grid_states = claimed_turns(n, lines)
            grids.append(turns)
            states.append(grid_states)
        if len(grids) == 1:
            return Played(grids[0], time.perf_counter() - start, states=states[0])
        return Played(grids, time.perf_counter() - start, states=states)


ENGINE = GameOfIslandsEngine()
