"""The Game of Islands through the engines' protocol: random grids read back as records with
the same score; illegal turns are refused with their code and change nothing."""
from __future__ import annotations

import numpy as np

from scorebook.engines.game_of_islands import engine as E
from scorebook.engines.game_of_islands.game import ENGINE
from scorebook.engines.protocol import OK
from scorebook.records import game_of_islands as goi, pgn


def test_protocol_grids_read_back_with_the_same_score():
    rng = np.random.default_rng(5)
    for n in (4, 5, 6, 7):
        grid = ENGINE.initial_state({"grids": [n]})
        words = []
        while not ENGINE.is_terminal(grid):
            actions = ENGINE.legal_actions(grid)
            kind, line, claims = actions[int(rng.integers(len(actions)))]
            claims = claims[:int(rng.integers(len(claims) + 1))]  # claiming fewer is legal too
            if grid.ply % 2 == 0:
                words.append(f"{grid.ply // 2 + 1}.")
            words.append(goi.turn_text(n, goi.Turn(kind, line, list(claims))))
            assert ENGINE.apply(grid, (kind, line, claims)) == OK
        score = ENGINE.score(grid)
        text = pgn.write_tags({"Grid": str(n), "First": "A", "Second": "B"}) + "\n\n" + " ".join(words) + \
            f" {score['points'][0]}-{score['points'][1]}\n"
        record = goi.read_group(pgn.split_games(text))
        assert record.score == score and record.finished


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
