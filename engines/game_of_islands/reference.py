"""A plain-Python Game of Islands: the rules again with sets, no numpy and no numba, to hold
the jitted engine against and to measure what the jit buys.

>>> g = Grid(10); g.draw((8, 0), (9, 1)); g.is_island((9, 0))
True
"""
from __future__ import annotations

import random

STEPS = ((1, 0), (0, 1), (1, 1), (1, -1), (-1, 0), (0, -1), (-1, -1), (-1, 1))


class Grid:
    def __init__(self, n: int):
        self.n = n
        self.used: set[tuple[int, int]] = set()
        self.diagonals: set[frozenset] = set()  # each drawn diagonal step as its two dots

    def on(self, x, y):
        return 0 <= x < self.n and 0 <= y < self.n

    def step_ok(self, x, y, dx, dy) -> bool:
        a, b = (x, y), (x + dx, y + dy)
        if not self.on(*b) or a in self.used or b in self.used:
            return False
        if dx and dy:  # the other diagonal of the same square
            if frozenset({(x + dx, y), (x, y + dy)}) in self.diagonals:
                return False
        return True

    def is_island(self, dot) -> bool:
        x, y = dot
        return dot not in self.used and not any(self.step_ok(x, y, dx, dy) for dx, dy in STEPS)

    def draw(self, a, b):
        (x1, y1), (x2, y2) = a, b
        sx = (x2 > x1) - (x2 < x1)
        sy = (y2 > y1) - (y2 < y1)
        dots = [(x1 + k * sx, y1 + k * sy) for k in range(max(abs(x2 - x1), abs(y2 - y1)) + 1)]
        self.used.update(dots)
        if sx and sy:
            self.diagonals.update(frozenset(p) for p in zip(dots, dots[1:]))

    def legal_steps(self):
        return [(x, y, dx, dy) for x in range(self.n) for y in range(self.n) for dx, dy in STEPS[:4]
                if self.step_ok(x, y, dx, dy)]


def playout(n: int, rng: random.Random) -> list[int]:
    """Random lines to the end, islands claimed at once, 5 for the last line."""
    g = Grid(n)
    claimed: set = set()
    points = [0, 0]
    player = 0
    while True:
        steps = g.legal_steps()
        if not steps:
            return points
        x, y, dx, dy = rng.choice(steps)
        ex, ey = x + dx, y + dy
        while rng.random() < 0.5 and g.step_ok(ex, ey, dx, dy):
            ex, ey = ex + dx, ey + dy
        g.draw((x, y), (ex, ey))
        near = {(a + i, b + j) for a in range(min(x, ex), max(x, ex) + 1) for b in range(min(y, ey), max(y, ey) + 1)
                for i in (-1, 0, 1) for j in (-1, 0, 1)}
        for dot in near:
            if g.on(*dot) and dot not in claimed and g.is_island(dot):
                claimed.add(dot)
                points[player] += 1
        if not g.legal_steps():
            points[player] += 5
            return points
        player = 1 - player
