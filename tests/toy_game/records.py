"""Count to Ten records: ``[Game "count-to-ten"] [First "A"] [Second "B"] 1. +2 +1 2. ... 1-0``."""
from __future__ import annotations

import re

from scorebook.records import pgn
from scorebook.errors import ParseError, ScoreMismatch
from scorebook.records.notation import Canonical, Notation
from scorebook.records.replay import Place, Step

from .game import ENGINE, GAME_OVER

GAME = ENGINE.game_id


class Record:
    def __init__(self, tags, steps, score, recorded, warnings):
        self.tags, self.steps, self.score, self.recorded, self.warnings = tags, steps, score, recorded, warnings
        self.players = [tags.get("First", "?"), tags.get("Second", "?")]


def result_text(score) -> str:
    return "*" if score["winner"] is None else ("1-0" if score["winner"] == 0 else "0-1")


class CountVisitor(pgn.Visitor):
    result_pattern = re.compile(r"1-0|0-1|\*")
    engine = ENGINE  # the reader walks each game through it, from ``setup``

    def begin_game(self, game):
        self.tags = {k: v for k, v in game.tags.items() if k not in ("Game", "Result")}
        self.steps = []

    def setup(self):
        return None  # no chance, no options: every game starts alike

    @property
    def state(self):
        return self.walk.state

    def ply(self):
        return self.state.plies + 1

    def expected_move_number(self):
        return self.state.plies // 2 + 1

    def visit_move(self, token):
        if not re.fullmatch(r"\+\d", token.text):
            raise self.token_error(token, "bad-token", "a move is +1 or +2")
        self.walk.play(int(token.text[1:]), Place(token.line, token.column, token.text))
        self.steps.append(int(token.text[1:]))

    def end_game(self, game, result):
        stated = game.tags.get("Result") or (result.text if result else None)
        self.score = ENGINE.score(self.state)
        if stated is None:
            raise ParseError("missing-result", "the movetext ends with the result", line=game.line, column=1)
        if stated != result_text(self.score):
            self.handle_error(ScoreMismatch("score-mismatch", f"stated {stated}, replay {result_text(self.score)}",
                                            line=game.line, column=1, token=stated))
        self.recorded = None if stated == "*" else {"result": stated}

    def result(self):
        return Record(self.tags, self.steps, self.score, self.recorded, self.warnings)


class CountNotation(Notation):
    game_id = GAME

    def visitor(self, policy):
        return CountVisitor(policy)

    def action_text(self, state, action):
        return f"+{action}"  # the step alone: no state needed

    def write_walked(self, setup, actions, states, players, tags):
        words = []
        for i, (step, before) in enumerate(zip(actions, states)):
            if i % 2 == 0:
                words.append(f"{i // 2 + 1}.")
            words.append(self.action_text(before, step))
        words.append(result_text(ENGINE.score(states[-1])))
        tags = {"Game": GAME, **tags, "First": players[0], "Second": players[1], "Result": words[-1]}
        return pgn.write_tags(tags) + "\n\n" + " ".join(words) + "\n"

    def canonical(self, record, policy):
        rows = [(1, ply, step.seat, step.move, None) for ply, step in enumerate(self.games(record)[0][1], 1)]
        return Canonical(text=self.write_game(None, record.steps, record.players, record.tags), moves=rows,
                         score=record.score, recorded=record.recorded,
                         score_rows=[(seat, "won", int(record.score["winner"] == seat)) for seat in (0, 1)],
                         players=record.players, tags=record.tags, finished=record.score["winner"] is not None,
                         warnings=record.warnings)

    def games(self, record):
        return [(None, [Step(step, i % 2, self.action_text(None, step)) for i, step in enumerate(record.steps)])]

    def view(self, record, state, before, step):
        return state.total

    def seat_points(self, score):
        return [int(score["winner"] == 0), int(score["winner"] == 1)]


NOTATION = CountNotation()
assert GAME_OVER  # the engine's codes are the records' codes
