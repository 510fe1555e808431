"""Iwoki behind the engines' protocol (``engines.protocol.Engine``).

A state is the engine's state vector; an action is an option (kind, hand index, gap,
orientation, points) as ``engine.options`` lists it, the simulator's order. The chance
outcome fixed up front is the deal (hands and piles).

>>> import numpy as np
>>> s = ENGINE.new_game(np.random.default_rng(1), {})
>>> ENGINE.apply(s, ENGINE.legal_actions(s)[0]), ENGINE.to_move(s)
(0, 1)
"""
from __future__ import annotations

import time

import numpy as np

from scorebook.engines.protocol import Engine, Played

from . import agents as A, engine as E
from .metadata import (GAME_ID, HEX_GAP_NAMES, RULE_SETS, SMALL_GAP_NAMES, TO_MOVE,
                       hex_name, small_name)


class IwokiEngine(Engine):
    game_id = GAME_ID

    def new_game(self, rng: np.random.Generator, options: dict) -> np.ndarray:
        """A shuffled deal under the rule set of ``options``."""
        return A.deal(rng, RULE_SETS.index(options.get("rules") or RULE_SETS[0]))

    def initial_state(self, setup: np.ndarray) -> np.ndarray:
        return setup.copy()

    def legal_actions(self, s: np.ndarray) -> list:
        return [] if E.game_over(s) else [tuple(int(v) for v in o) for o in E.options(s)]

    def apply(self, s: np.ndarray, action) -> int:
        """An option as ``legal_actions`` lists it (kind, hand index, gap, orientation, points),
        or a record's action by its tile: (kind, tile number, gap, orientation), -1 where the
        kind takes none (draw, pass)."""
        if len(action) == 4:  # action_code refuses any action after the end first
            kind, tile, gap, orient = map(int, action)
            code, points = E.action_code(s, kind, tile, gap, orient)
            if code == E.OK:
                E.apply_action(s, kind, tile, gap, orient, points)
            return code
        if E.game_over(s):
            return E.ACTION_AFTER_END
        if tuple(action) not in self.legal_actions(s):
            kind = action[0]
            return (E.action_code(s, kind)[0] or E.ILLEGAL_PLACEMENT) if kind in (E.DRAW, E.PASS) \
                else E.ILLEGAL_PLACEMENT
        E.apply_option(s, np.array(action, np.int64))
        return E.OK

    def code_name(self, code: int) -> str:
        return E.CODE_NAMES[code]

    def explain(self, s: np.ndarray, action, code: int) -> str:
        """The rule's message, naming the tile and gap of a record's action (by its tile)."""
        fill = {"tile": "the tile", "seat": int(s[TO_MOVE]), "gap": "the gap"}
        if len(action) == 4 and action[0] in (E.SMALL, E.HEX):
            kind, tile, gap, _ = (int(v) for v in action)
            small = kind == E.SMALL
            if tile >= 0:  # a record's tile of the other kind is no tile here
                fill["tile"] = small_name(tile) if small else hex_name(tile)
            names = SMALL_GAP_NAMES if small else HEX_GAP_NAMES
            fill["gap"] = names[gap] if 0 <= gap < len(names) else str(gap)
        return E.CODE_MESSAGES.get(code, "illegal move").format(**fill)

    def refused_part(self, s: np.ndarray, action, code: int) -> int:
        """A placement is judged by its tile first (part 0), then by its gap and orientation (part 1)."""
        return 0 if code in (E.ACTION_AFTER_END, E.TILE_NOT_IN_HAND) or len(action) != 4 \
            or action[0] not in (E.SMALL, E.HEX) else 1

    def is_terminal(self, s: np.ndarray) -> bool:
        return bool(E.game_over(s))

    def to_move(self, s: np.ndarray) -> int:
        return int(s[TO_MOVE])

    def score(self, s: np.ndarray) -> dict:
        return E.final_tally(s)

    # ---- bots

    def warm_up(self, bots, options: dict) -> None:
        warm = A.deal(np.random.default_rng(0), RULE_SETS.index(options.get("rules") or RULE_SETS[0]))
        A.choose(warm, A.GREEDY, 1, 10, 1, np.zeros(2, np.int64))

    def play(self, setup: np.ndarray, bots, seed: int, options: dict) -> Played:
        """Agents at their seats; each decision timed. Returns the options played (as
        ``legal_actions`` lists them: kind, hand index, gap, orientation, points), and per
        seat: decisions, mean seconds a decision, nodes searched."""
        s = setup.copy()
        A.seed_numba(seed)
        time_limit = options.get("time-limit")
        moves, times, nodes, states = [], [[], []], [0, 0], [s.copy()]
        start = time.perf_counter()
        while not E.game_over(s) and len(moves) < 400:
            seat = int(s[TO_MOVE])
            bot = bots[seat]
            code = A.AGENT_NAMES[bot.name]
            arg = bot.number if bot.number is not None else 0
            stats = np.zeros(2, np.int64)
            t0 = time.perf_counter()
            if code in (A.MINIMAX, A.MINIMAX_SIM) and time_limit:
                opt = _minimax_timed(s, arg, time_limit, stats)
            else:
                opt = A.choose(s, code, arg, 1 << 40, arg if code == A.SAMPLER else 16, stats)
            times[seat].append(time.perf_counter() - t0)
            nodes[seat] += int(stats[0])
            moves.append(tuple(int(v) for v in opt))
            E.apply_option(s, opt)
            states.append(s.copy())
        seconds = time.perf_counter() - start
        return Played(moves, seconds, {"decisions": [len(t) for t in times],
                                       "decision_seconds": [sum(t) / len(t) if t else None for t in times],
                                       "nodes": nodes}, states)


def _minimax_timed(s, depth: int, limit: float, stats) -> np.ndarray:
    """Iterative deepening within a time limit per decision (the deepest finished search)."""
    opts = E.options(s)
    best = opts[A.greedy_index(opts)]
    start = time.perf_counter()
    for d in range(1, depth + 1):
        i, _ = A.minimax(s, d, 1 << 40, stats, False)
        best = opts[i]
        if time.perf_counter() - start >= limit:
            break
    return best


ENGINE = IwokiEngine()
