"""Tsuro behind the engines' protocol (``engines.protocol.Engine``).

A setup is ``(starts, deck, refill, seed)``: an edge start for each of up to eight seats
(the first n are used), the deck order (top first), the dragon refill rule, and the seed of
the reshuffles when hands come back. An action is ``(tile, rotation)``.

>>> import numpy as np
>>> setup = ENGINE.new_game(np.random.default_rng(1), {})
>>> s = ENGINE.initial_state(setup)
>>> len(ENGINE.legal_actions(s)) > 0, ENGINE.to_move(s), len(setup[1])
(True, 0, 35)
"""
from __future__ import annotations

import time

import numpy as np

from scorebook.engines.protocol import Engine, Played

from . import bots as B, rules as R

EDGE_POINTS = [sq * 8 + port for sq in range(R.SQUARES) for port in range(8) if R.is_edge_point(sq, port)]


class TsuroEngine(Engine):
    game_id = R.GAME_ID

    def new_game(self, rng: np.random.Generator, options: dict):
        starts = [int(p) for p in rng.choice(EDGE_POINTS, R.MAX_PLAYERS, replace=False)]
        deck = [int(t) for t in rng.permutation(R.N_TILES)]
        refill = R.REFILLS.index(options.get("refill") or R.REFILLS[0])
        return starts, deck, refill, int(rng.integers(2**31))

    def initial_state(self, setup, players: int = 2) -> np.ndarray:
        """A record's setup names its players too: ``(starts, deck, refill, seed, players)``."""
        starts, deck, refill, seed = setup[:4]
        players = setup[4] if len(setup) > 4 else players
        return R.new_state(players, np.array(starts[:players], np.int64), np.array(deck, np.int64), refill, seed)

    def legal_actions(self, s: np.ndarray) -> list:
        if s[R.OVER]:
            return []
        return [(int(t), int(r)) for t, r in B.options_of(s)]

    def apply(self, s: np.ndarray, action) -> int:
        """``(tile, rotation)``: tiles that come back are shuffled into the deck by the game's
        seed; ``(tile, rotation, order)``: a record's turn, the new deck order as it states it
        (None where it states none: then no tile may come back; ``R.NO_ORDER``: shuffled).
        ``(tile, rotation, order, events)``: the same, the turn's events written into
        ``events`` (rows of kind, seat, value; their count in ``s[R.N_EVENTS]``), for a record
        to check what it says happened. On a refusal for the deck order the moves, which come
        first, are written all the same."""
        order = R.NO_ORDER if len(action) < 3 else action[2] if isinstance(action[2], np.ndarray) \
            else np.array(action[2] if action[2] is not None else [-2], np.int64)
        events = action[3] if len(action) > 3 else np.zeros((B.EVENTS, 3), np.int64)
        return int(R.turn(s, action[0], action[1], order, events))

    def code_name(self, code: int) -> str:
        return R.CODE_NAMES[code]

    def explain(self, s: np.ndarray, action, code: int) -> str:
        seat = int(s[R.TO_MOVE])
        return {R.GAME_OVER: "the game is over",
                R.NOT_IN_HAND: f"tile {int(action[0])} is not in P{seat + 1}'s hand",
                R.SELF_ELIMINATION: "this placement eliminates the player's own token while another tile or "
                                    "rotation in hand does not",
                R.MISSING_DECK: "tiles came back: the record must give the new deck order, a permutation of the "
                                "deck and the returned tiles",
                R.DECK_MISMATCH: "the new deck order is not the deck and the returned tiles (or no tile came back)"
                }.get(code, "illegal move")

    def is_terminal(self, s: np.ndarray) -> bool:
        return bool(s[R.OVER])

    def to_move(self, s: np.ndarray) -> int:
        return int(s[R.TO_MOVE])

    def score(self, s: np.ndarray) -> dict:
        return R.score(s, [f"P{p + 1}" for p in range(int(s[R.N]))])

    def warm_up(self, bots, options: dict) -> None:
        s = self.initial_state(self.new_game(np.random.default_rng(0), options), 3)
        B.play_out(s, B.SIMPLE, B.new_rng(0, 0))
        if any(b.name == "mc" for b in bots):
            s = self.initial_state(self.new_game(np.random.default_rng(0), options), 3)
            B.mc_choice(s, 1, 0)

    def play(self, setup, bots, seed: int, options: dict) -> Played:
        s = self.initial_state(setup, len(bots))
        moves, states = [], [s.copy()]
        decisions, seconds = [0] * len(bots), [0.0] * len(bots)
        rng = B.new_rng(seed, 1)
        start = time.perf_counter()
        while not s[R.OVER]:
            p = int(s[R.TO_MOVE])
            t0 = time.perf_counter()
            bot = bots[p]
            if bot.name == "mc":
                tile, rot = B.mc_choice(s, bot.number or 16, seed * 101 + len(moves))
            else:
                tile, rot = B.cheap_choice(s, B.BOT_CODES[bot.name], rng)
            seconds[p] += time.perf_counter() - t0
            decisions[p] += 1
            events = np.zeros((B.EVENTS, 3), np.int64)  # the turn's own: its writer reads them
            code = R.turn(s, tile, rot, R.NO_ORDER, events)
            assert code == R.OK, (R.CODE_NAMES.get(int(code)), tile, rot)
            moves.append((int(tile), int(rot), R.NO_ORDER, events))
            states.append(s.copy())
        return Played(moves, time.perf_counter() - start,
                      {"decisions": decisions,
                       "decision_seconds": [t / d if d else None for t, d in zip(seconds, decisions)]}, states)


ENGINE = TsuroEngine()
