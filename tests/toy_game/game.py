"""Count to Ten, a toy game for the tests: two players add 1 or 2 in turn to a running total
from 0; whoever reaches exactly 10 wins. A state is (total, plies); an action the step."""
from __future__ import annotations

import copy
import json
import time
from importlib import resources

import numpy as np

from scorebook.engines.protocol import Engine, Played

FACTS = json.loads(resources.files(__package__).joinpath("game.json").read_text())
TARGET, STEPS = FACTS["target"], tuple(FACTS["steps"])
OK, NOT_A_STEP, PAST_THE_TARGET, GAME_OVER = 0, 1, 2, 3
CODE_NAMES = {NOT_A_STEP: "not-a-step", PAST_THE_TARGET: "past-the-target", GAME_OVER: "move-after-end"}


class State:
    def __init__(self):
        self.total = 0
        self.plies = 0


def perfect_step(total: int) -> int:
    """The step that leaves a multiple of three to go, or 1 when none does."""
    return next((s for s in STEPS if total + s <= TARGET and (TARGET - total - s) % 3 == 0), 1)


class CountToTen(Engine):
    game_id = FACTS["game"]["id"]

    def new_game(self, rng, options):
        return None

    def initial_state(self, setup):
        return State()

    def legal_actions(self, s):
        return [] if self.is_terminal(s) else [k for k in STEPS if s.total + k <= TARGET]

    def apply(self, s, action) -> int:
        if self.is_terminal(s):
            return GAME_OVER
        if action not in STEPS:
            return NOT_A_STEP
        if s.total + action > TARGET:
            return PAST_THE_TARGET
        s.total += action
        s.plies += 1
        return OK

    def code_name(self, code):
        return CODE_NAMES[code]

    def explain(self, s, action, code):
        return "that step is not allowed"

    def is_terminal(self, s):
        return s.total == TARGET

    def to_move(self, s):
        return s.plies % 2

    def score(self, s):
        winner = (s.plies - 1) % 2 if self.is_terminal(s) else None
        return {"total": s.total, "winner": winner}

    def play(self, setup, bots, seed, options) -> Played:
        rng = np.random.default_rng(seed)
        s, steps = State(), []
        states = [copy.copy(s)]
        start = time.perf_counter()
        while not self.is_terminal(s):
            legal = self.legal_actions(s)
            bot = bots[self.to_move(s)]
            step = perfect_step(s.total) if bot.name == "perfect" else int(rng.choice(legal))
            assert self.apply(s, step) == OK
            steps.append(step)
            states.append(copy.copy(s))
        return Played(steps, time.perf_counter() - start, states=states)


ENGINE = CountToTen()
