"""The exact endgame search with its transposition table gives the value the plain search
gives (a grid reached by lines in another order is the same grid): random endgames of several
sizes, and every line's value at the end of a grid, against a search without the table."""
from __future__ import annotations

import numpy as np
import pytest

from scorebook.engines.game_of_islands import bots, engine as E


def _endgame(n: int, left: int, seed: int):
    """A grid played at random, each mover claiming what its line makes, until about ``left``
    legal lines are left."""
    np.random.seed(seed)
    used, diag, owner = E.new_state(n)
    player = 0
    while E.count_legal_lines(n, used, diag) > left:
        x1, y1, x2, y2 = E.random_line(n, used, diag)
        E.apply_line(n, used, diag, x1, y1, x2, y2)
        E.claim_near(n, used, diag, owner, player, x1, y1, x2, y2)
        player = 1 - player
    return used, diag, owner


@pytest.mark.parametrize("n,left", [(6, 12), (8, 14), (10, 16), (12, 16), (14, 18)])
def test_the_table_changes_no_exact_value(n, left):
    for seed in range(6):
        used, diag, owner = _endgame(n, left, seed)
        before = (used.copy(), diag.copy(), owner.copy())
        with_table = bots.solve_with_table(n, used, diag, owner, 10**8, 16)
        plain = bots.solve_with_table(n, used, diag, owner, 10**8, -1)
        assert with_table[2] and plain[2]
        assert with_table[0] == plain[0], (n, left, seed)
        assert with_table[1] <= plain[1]  # no more lines evaluated than without it
        assert all((a == b).all() for a, b in zip(before, (used, diag, owner)))  # the grid restored


def test_every_line_valued_to_the_end_agrees_with_solving_after_it():
    n = 8
    used, diag, owner = _endgame(n, 12, 3)
    lines, values, exact = bots.line_values(n, used, diag, owner, n * n * 4, 10**8)
    assert exact and len(lines) > 1
    for (x1, y1, x2, y2), value in zip(lines, values):
        gain = bots.move_gain(n, used, diag, owner, x1, y1, x2, y2)
        E.apply_line(n, used, diag, x1, y1, x2, y2)
        reply = bots.solve_with_table(n, used, diag, owner, 10**8, -1)[0] if E.has_legal_line(n, used, diag) else 0
        E.undo_line(n, used, diag, x1, y1, x2, y2)
        assert value == gain - reply
    assert int(values.max()) == bots.solve(n, used, diag, owner, 10**8)[0]
