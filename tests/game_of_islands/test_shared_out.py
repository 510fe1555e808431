"""The opening value: one line ahead, then the islands open to both shared out (each side in
turn takes the line that makes the most, each free to stop), held against a plain-Python
reference on random grids; and what it changes for the player: on the empty grid a corner
island taken at once is worth what a quiet line is, and with three left, taking one is worth
two points more."""
from __future__ import annotations

import numpy as np
import pytest

from scorebook.analyze.game_of_islands import DEEP_BELOW, position_values
from scorebook.engines.game_of_islands import bots, engine as E
from scorebook.engines.game_of_islands.reference import STEPS, Grid

FORWARD = STEPS[:4]  # each step once: right, up and the two diagonals


def reference_lines(grid: Grid):
    """Every legal line once, in the engine's order (rows, then dots, then directions, shortest first)."""
    for y in range(grid.n):
        for x in range(grid.n):
            if (x, y) in grid.used:
                continue
            for dx, dy in FORWARD:
                cx, cy = x, y
                while grid.step_ok(cx, cy, dx, dy):
                    cx, cy = cx + dx, cy + dy
                    yield x, y, cx, cy


def copy(grid: Grid) -> Grid:
    other = Grid(grid.n)
    other.used, other.diagonals = set(grid.used), set(grid.diagonals)
    return other


def reference_gain(grid: Grid, claimed: set, line) -> tuple[int, set]:
    """The islands a line makes (5 more if it is the last), and the dots it claims."""
    after = copy(grid)
    x1, y1, x2, y2 = line
    after.draw((x1, y1), (x2, y2))
    made = {(x + i, y + j) for x in range(min(x1, x2), max(x1, x2) + 1) for y in range(min(y1, y2), max(y1, y2) + 1)
            for i in (-1, 0, 1) for j in (-1, 0, 1)}
    made = {d for d in made if after.on(*d) and d not in claimed and after.is_island(d)}
    last = not any(after.step_ok(x, y, dx, dy) for x in range(after.n) for y in range(after.n) for dx, dy in FORWARD)
    return len(made) + (5 if last else 0), made


def reference_shared_out(grid: Grid, claimed: set) -> int:
    grid, claimed, taken = copy(grid), set(claimed), []
    while True:
        top, best = 0, None
        for line in reference_lines(grid):
            gain, made = reference_gain(grid, claimed, line)
            if gain > top:
                top, best = gain, (line, made)
        if best is None:
            break
        (x1, y1, x2, y2), made = best
        grid.draw((x1, y1), (x2, y2))
        claimed |= made
        taken.append(top)
    margin = 0
    for gain in reversed(taken):  # each side takes, or stops where stopping is better
        margin = max(0, gain - margin)
    return margin


def random_grid(n: int, lines: int, seed: int):
    """The engine's state and the reference's after ``lines`` random lines, each mover claiming."""
    rng = np.random.default_rng(seed)
    used, diag, owner = E.new_state(n)
    grid = Grid(n)
    for k in range(lines):
        legal = E.legal_lines(n, used, diag)
        x1, y1, x2, y2 = map(int, legal[rng.integers(len(legal))])
        E.apply_line(n, used, diag, x1, y1, x2, y2)
        E.claim_near(n, used, diag, owner, k % 2, x1, y1, x2, y2)
        grid.draw((x1, y1), (x2, y2))
    claimed = {(d % n, d // n) for d in range(n * n) if owner[d] >= 0}
    return used, diag, owner, grid, claimed


@pytest.mark.slow
@pytest.mark.parametrize("n,lines", [(6, 2), (7, 3), (8, 6)])
def test_shared_out_margin_and_values_agree_with_the_reference(n, lines):
    # small grids: the islands shared out often reach the end of the grid and its bonus
    margins = []
    for seed in range(5):
        used, diag, owner, grid, claimed = random_grid(n, lines, seed)
        before = (used.copy(), diag.copy(), owner.copy())
        margins.append(bots.shared_out_margin(n, used, diag, owner))
        assert margins[-1] == reference_shared_out(grid, claimed), (n, lines, seed)
        played = next(reference_lines(grid))
        found, values, i = bots.shared_out_values(n, used, diag, owner, *played)
        assert tuple(found[i]) == played
        for line, value in zip(found, values):  # the line played and every line that makes an island: in full
            line = tuple(map(int, line))
            gain, made = reference_gain(grid, claimed, line)
            if gain > 0 or line == played:
                after = copy(grid)
                after.draw(line[:2], line[2:])
                assert value == gain - reference_shared_out(after, claimed | made), (n, lines, seed, line)
        assert all((a == b).all() for a, b in zip(before, (used, diag, owner)))  # the grid restored
    assert any(margins)  # islands open to both were met


def _value(n, used, diag, owner, line):
    lines, values, exact = position_values(n, used, diag, owner, line, 2, 2_000_000)
    assert not exact
    return int(values[[tuple(map(int, each)) for each in lines].index(line)])


@pytest.mark.parametrize("n", [10, 12, 14])
def test_a_corner_island_left_for_both_is_worth_its_parity(n):
    used, diag, owner = E.new_state(n)
    assert E.count_legal_lines(n, used, diag) > DEEP_BELOW  # the opening's valuation
    corner, quiet = (0, 1, 1, 0), (n // 2, n // 2, n // 2 + 1, n // 2)  # A2-B1 makes A1 an island
    assert bots.move_gain(n, used, diag, owner, *corner) == 1
    # four corners open: taking one leaves three to share, which give the opponent one back
    assert _value(n, used, diag, owner, corner) == _value(n, used, diag, owner, quiet) == 0
    E.apply_line(n, used, diag, *corner)
    E.claim_near(n, used, diag, owner, 0, *corner)
    # three open: whoever moves takes the odd one; leaving it to the opponent costs two points
    other = (n - 2, 0, n - 1, 1)
    assert _value(n, used, diag, owner, other) == 1 and _value(n, used, diag, owner, quiet) == -1
