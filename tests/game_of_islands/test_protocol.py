"""The Game of Islands through the engines' protocol: illegal turns are refused with their code
and change nothing (random grids read back as records: tests/test_round_trip.py)."""
from __future__ import annotations

import numpy as np

from scorebook.engines.game_of_islands import engine as E
from scorebook.engines.game_of_islands.game import ENGINE
from scorebook.engines.protocol import OK
from scorebook.errors import STRICT
from scorebook.records.game_of_islands import NOTATION


def test_illegal_turns_are_refused_and_change_nothing():
    grid = ENGINE.initial_state({"grids": [6]})
    assert ENGINE.apply(grid, ("line", (0, 0, 2, 2), ())) == OK
    used, owner = grid.used.copy(), grid.owner.copy()
    for action, code in ((("line", (0, 2, 2, 0), ()), "dot-used"), (("line", (0, 1, 1, 0), ()), "crossing"),
                         (("line", (3, 3, 3, 3), ()), "same-dot"), (("line", (4, 4, 6, 6), ()), "off-grid"),
                         (("pass", None, ()), "pass-not-allowed"), (("time", None, (5,)), "bad-token"),
                         (("line", (5, 0, 5, 5), (35,)), "claim-used-dot"),
                         (("line", (5, 0, 5, 5), (21,)), "claim-not-island")):
        assert ENGINE.code_name(ENGINE.apply(grid, action)) == code, action
        assert (grid.used == used).all() and (grid.owner == owner).all() and grid.ply == 1
    assert E.OK == OK


def test_a_turn_may_claim_fewer_islands_than_its_line_makes():
    """The protocol lists each line with every claim it allows; a subset is legal too, and a
    grid written with fewer claims reads back with the engine's score."""
    rng = np.random.default_rng(5)
    for n in (4, 6, 7):
        grid, actions = ENGINE.initial_state({"grids": [n]}), []
        while not ENGINE.is_terminal(grid):
            legal = ENGINE.legal_actions(grid)
            kind, line, claims = legal[int(rng.integers(len(legal)))]
            action = (kind, line, claims[:int(rng.integers(len(claims) + 1))])
            assert ENGINE.apply(grid, action) == OK
            actions.append(action)
        text = NOTATION.write_game({"grids": [n]}, actions, ["A", "B"], {})
        record = NOTATION.read_pgn(text, STRICT)[0]
        assert record.score == ENGINE.score(grid) and record.finished
