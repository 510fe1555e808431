"""Patchwork behind the engines' protocol (``engines.protocol.Engine``).

A setup is ``(variant, circle)``: the rule set (``pieces.REAL``, ``SIM``, ``TWO_PLAYER``)
and, for two players, the patch circle (the chance outcome: 32 patches shuffled, the 1x2
patch last). A state is ``rules``' state vector; an action is ``(kind, a, b)`` as
``rules.apply`` takes it.

>>> import numpy as np
>>> setup = ENGINE.new_game(np.random.default_rng(1), {"variant": "two-player"})
>>> s = ENGINE.initial_state(setup)
>>> len(ENGINE.legal_actions(s)) > 1, ENGINE.to_move(s), setup[1][-1]
(True, 0, 0)
"""
from __future__ import annotations

import time

import numpy as np

from scorebook.engines.protocol import BotSpec, Engine, Played

from . import bots as B, pieces as P, planner as PL, rules as R, search as S


def explain_refusal(code: int, s: np.ndarray, kind: int, a: int) -> str:
    """The reason of a refusal, for people (``rules.apply``'s code for a move of ``kind`` on ``a``)."""
    seat = int(s[R.TO_MOVE])
    b = R.SEAT_SIZE * seat
    t = int(s[R.TIME + b])
    if code == R.SKIP_PAST_END:
        return f"the token is on space {t}: {P.LAST_SPACE - t} spaces are left"
    if code == R.UNAFFORDABLE:
        return f"patch {a} costs {int(P.COST[a])} buttons; the player has {int(s[R.BUTTONS + b])}"
    if code == R.NOT_IN_WINDOW:
        w = np.empty(R.WINDOW, np.int64)
        n = R.window(s, w)
        return "only the next three patches of the circle can be bought: " + ", ".join(str(int(x)) for x in w[:n])
    return {R.MOVE_AFTER_END: "the game is over", R.NO_LEATHER_DUE: "no leather patch is due",
            R.LEATHER_LOST_NOT_FULL: "a leather patch is lost only when the quilt is full",
            R.OVERLAP: "a square it needs is already covered",
            R.LEATHER_DUE: f"a leather patch is due first ({int(s[R.DUE])})",
            R.BAD_SKIP: "a skip is of one space or more", R.UNKNOWN_PATCH: f"patches are 0 to {P.N_PATCHES - 1}",
            R.ALREADY_BOUGHT: "the patch was bought before",
            R.PLACEMENT_MISSING: "a patch bought on the quilt needs its placement (@c3r0)",
            R.OFF_BOARD: "part of it lies off the quilt",
            R.PLACEMENT_IN_SIM: "the simulated variant has no placements",
            R.NO_ROOM: f"the patch has {int(P.SIZE[a]) if 0 <= a < P.N_PATCHES else 0} squares; "
                       f"{P.CELLS - int(s[R.SQUARES + b])} are not bought",
            R.NOT_THIS_VARIANT: "not a move of this kind of record"}.get(code, "illegal move")


def variant_of(options: dict) -> int:
    return P.VARIANTS.index(options.get("variant") or P.VARIANTS[0])


class PatchworkEngine(Engine):
    game_id = P.GAME_ID

    def new_game(self, rng: np.random.Generator, options: dict):
        variant = variant_of(options)
        if variant != P.TWO_PLAYER:
            return variant, []
        return variant, [int(p) for p in rng.permutation(np.arange(1, P.N_PATCHES))] + [0]

    def initial_state(self, setup) -> np.ndarray:
        variant, circle = setup
        return R.new_state(variant, np.array(circle, np.int64))

    def legal_actions(self, s: np.ndarray) -> list:
        """Every legal move (``search.legal_options``)."""
        return [tuple(int(v) for v in row) for row in S.options_of(s)]

    def apply(self, s: np.ndarray, action) -> int:
        kind, a, b = action
        return int(R.apply(s, kind, a, b))

    def code_name(self, code: int) -> str:
        return R.CODE_NAMES[code]

    def explain(self, s: np.ndarray, action, code: int) -> str:
        kind, a, _ = action
        return explain_refusal(code, s, kind, a)

    def is_terminal(self, s: np.ndarray) -> bool:
        return bool(R.is_over(s))

    def to_move(self, s: np.ndarray) -> int:
        return int(s[R.TO_MOVE])

    def score(self, s: np.ndarray) -> dict:
        return R.score(s)

    # ---- bots

    def seat_options(self, seats: int) -> dict:
        return {"variant": P.VARIANTS[P.TWO_PLAYER]} if seats == 2 else {}

    def check_play(self, bots, options: dict) -> str | None:
        variant = variant_of(options)
        seats = 2 if variant == P.TWO_PLAYER else 1
        if len(bots) != seats:
            return (f"patchwork --variant {P.VARIANTS[variant]} is a game of {seats} player"
                    + ("s" if seats > 1 else "") + f": give {seats} bot" + ("s" if seats > 1 else ""))
        return None

    def warm_up(self, bots, options: dict) -> None:
        s = R.new_state(P.REAL, np.zeros(0, np.int64))
        B.play_solo(s, B.RANDOM, 0, 0, np.zeros((B.MAX_MOVES, 3), np.int64))

    def play(self, setup, bots, seed: int, options: dict) -> Played:
        """The bots at their seats; returns the moves ``(kind, a, b)`` and, per seat, the
        decisions taken and the mean seconds a decision."""
        s = self.initial_state(setup)
        moves: list[tuple[int, int, int]] = []
        states = [s.copy()]
        decisions, seconds = [0] * len(bots), [0.0] * len(bots)
        players = [_player(bot, seed, i) for i, bot in enumerate(bots)]
        start = time.perf_counter()
        while not R.is_over(s) and len(moves) < B.MAX_MOVES:
            seat = int(s[R.TO_MOVE])
            t0 = time.perf_counter()
            chosen = players[seat](s)
            seconds[seat] += time.perf_counter() - t0
            decisions[seat] += 1
            for j, (kind, a, b) in enumerate(chosen):
                if j == 1 and s[R.DUE] > 0:
                    break  # a leather patch became due: placed, then the choice is made afresh
                code = R.apply(s, kind, a, b)
                assert code == R.OK, (R.CODE_NAMES.get(int(code)), kind, a, b)
                moves.append((int(kind), int(a), int(b)))
                states.append(s.copy())
        return Played(moves, time.perf_counter() - start,
                      {"decisions": decisions,
                       "decision_seconds": [t / d if d else None for t, d in zip(seconds, decisions)]}, states)


def _player(bot, seed: int, seat: int):
    """A decision function ``state -> [(kind, a, b), ...]`` for a bot at a seat."""
    code = B.BOT_CODES[bot.name]
    arg = bot.number or 0
    decisions = [0]

    def decision_seed() -> int:
        decisions[0] += 1
        return seed * 7919 + seat * 1_000_003 + decisions[0]

    if code in (B.RANDOM, B.RANDOM_PATCH, B.VBRZ, B.RULE_BASED):
        out = np.empty((2, 3), np.int64)
        rng = B.new_rng(seed, 1000 + seat)

        def cheap(s):
            n = B.cheap_choice(s, code, arg, rng, out)
            return [tuple(int(v) for v in out[j]) for j in range(n)]
        return cheap
    if code in (B.MC, B.MC_GREEDY):
        return lambda s: S.mc_choice(s, arg, code == B.MC_GREEDY, decision_seed())
    if code in (B.MCTS, B.MCTS_RAW):
        return lambda s: S.mcts_choice(s, arg, code == B.MCTS, decision_seed())
    return BestPlayer(arg, seed)


class BestPlayer:
    """``best:EFFORT``. One player: plan the whole game (``planner.make_plan``, a beam of
    EFFORT thousand states a step) and follow the plan while the game goes as planned (it
    always does: the game has no chance); re-plan otherwise. Two players: Monte Carlo over
    the advance and each window patch's snuggest placements, 8 x EFFORT value-guided
    play-outs each (``search.duel_choice``)."""

    def __init__(self, effort: int, seed: int):
        self.effort, self.seed = effort, seed
        self.expected: list[np.ndarray] = []
        self.moves: list[tuple[int, int, int]] = []
        self.decisions = 0
        self.fallback = _player(BotSpec("rule-based", B.RULE_BASED_TCM), seed, 0)  # when no plan tiles

    def fill_weight(self) -> float:
        """Seeds other than 0 vary the planner's ranking a little, so that another seed may
        find another plan (from the start position every seed measured finds the same)."""
        if self.seed == 0:
            return PL.FILL_WEIGHT
        return PL.FILL_WEIGHT * (0.8 + 0.4 * np.random.default_rng(self.seed).random())

    def __call__(self, s: np.ndarray):
        self.decisions += 1
        if s[R.PLAYERS] == 2:
            return S.duel_choice(s, 8 * self.effort, self.seed * 7919 + self.decisions)
        if not (self.expected and np.array_equal(self.expected[0], s)):
            plan = PL.make_plan(s, 1000 * self.effort, self.seed, self.fill_weight())
            if plan is None:  # no tiling found: the rule-based player's move
                return self.fallback(s)
            self.moves, self.expected = list(plan.moves), []
            t = s.copy()
            for m in self.moves:
                self.expected.append(t.copy())
                R.apply(t, *m)
        self.expected.pop(0)
        return [self.moves.pop(0)]


ENGINE = PatchworkEngine()
