"""A plain-Python Patchwork, written apart from the jitted rules (sets of squares, no
bitboards, no shared code but the facts in game.json): the tests replay random games through
both and compare every state and score; the benchmarks time both side by side.

>>> game = Game("real")
>>> game.play(("skip", 3)); game.play(("buy", 28, placements(28, set())[0])); (game.time, game.buttons, game.income)
(9, 3, 3)
"""
from __future__ import annotations

import json
import random
from importlib import resources

FACTS = json.loads(resources.files(__package__).joinpath("game.json").read_text())
PATCHES = [{"cost": c, "time": t, "income": i, "shape": shape.split("/")} for c, t, i, shape in FACTS["patches"]]
LAST = FACTS["time_track"]["last"]
INCOME_SPACES = set(FACTS["time_track"]["income"])
LEATHER_SPACES = sorted(FACTS["time_track"]["leather"])
SIDE = 9


def shape_cells(patch: int, code: int) -> frozenset:
    """Cells (row, column) of a patch turned by a notation code, normalised to the origin."""
    rows = PATCHES[patch]["shape"]
    if code >= 4:
        rows = [row[::-1] for row in rows]
    for _ in range(code % 4):  # a quarter turn clockwise: column j read bottom-up becomes row j
        rows = ["".join(row[j] for row in reversed(rows)) for j in range(len(rows[0]))]
    return frozenset((r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#")


def placements(patch: int, covered: set) -> list[frozenset]:
    """Every distinct set of squares the patch can cover on a quilt with ``covered`` taken."""
    out, seen = [], set()
    for code in range(8):
        cells = shape_cells(patch, code)
        h = 1 + max(r for r, _ in cells)
        w = 1 + max(c for _, c in cells)
        for r in range(SIDE - h + 1):
            for c in range(SIDE - w + 1):
                squares = frozenset((r + dr, c + dc) for dr, dc in cells)
                if squares not in seen and not squares & covered:
                    seen.add(squares)
                    out.append(squares)
    return out


class Game:
    """One player (``real`` or ``sim``) or two (``two-player``, with its circle). A move is
    ``("buy", patch, squares or None)``, ``("skip", k)``, ``("advance",)`` or
    ``("leather", (row, col) or None)``."""

    def __init__(self, variant: str, circle: list[int] | None = None):
        self.variant = variant
        self.n = 2 if variant == "two-player" else 1
        self.times = [0] * self.n
        self.buttonss = [5] * self.n
        self.incomes = [0] * self.n
        self.quilts = [set() for _ in range(self.n)]
        self.bought_squares = [0] * self.n
        self.patch_counts = [0] * self.n
        self.leathers = [0] * self.n
        self.bought: set[int] = set()
        self.leather_left = list(LEATHER_SPACES)
        self.due = 0
        self.mover = 0
        self.last_arrival = 0  # who is on top when both stand on one space
        self.first_at_end = None
        self.special = None
        self.circle = list(circle or [])
        self.neutral = len(self.circle) - 1

    # one player's view
    time = property(lambda self: self.times[0])
    buttons = property(lambda self: self.buttonss[0])
    income = property(lambda self: self.incomes[0])

    def over(self) -> bool:
        return self.due == 0 and all(t == LAST for t in self.times)

    def window(self) -> list[int]:
        out, i = [], self.neutral
        for _ in range(len(self.circle)):
            i = (i + 1) % len(self.circle)
            if self.circle[i] not in self.bought:
                out.append(self.circle[i])
                if len(out) == 3:
                    break
        return out

    def _cover(self, p: int, squares) -> None:
        self.quilts[p] |= set(squares)
        if self.n == 2 and self.special is None and any(
                all((r0 + i, c0 + j) in self.quilts[p] for i in range(7) for j in range(7))
                for r0 in range(3) for c0 in range(3)):
            self.special = p

    def _walk(self, p: int, spaces: int) -> None:
        start = self.times[p]
        end = min(LAST, start + spaces)
        self.buttonss[p] += self.incomes[p] * sum(1 for t in range(start + 1, end + 1) if t in INCOME_SPACES)
        taken = [t for t in self.leather_left if t <= end]
        self.leather_left = [t for t in self.leather_left if t > end]
        self.times[p] = end
        if self.variant == "sim":
            self.leathers[p] += len(taken)
        else:
            self.due = len(taken)
        if self.n == 2 and self.times[0] == self.times[1]:
            self.last_arrival = p
        if end == LAST and self.first_at_end is None:
            self.first_at_end = p
        if not self.due:
            self._next()

    def _next(self) -> None:
        if self.n == 2:
            t0, t1 = self.times
            self.mover = 0 if t0 < t1 else 1 if t1 < t0 else self.last_arrival

    def play(self, move) -> None:
        """Play a legal move (``legal`` lists them; an illegal one raises ValueError)."""
        p = self.mover
        kind = move[0]
        if self.over():
            raise ValueError("the game is over")
        if kind == "leather":
            if not self.due:
                raise ValueError("no leather patch is due")
            if move[1] is None:
                if len(self.quilts[p]) < SIDE * SIDE:
                    raise ValueError("a leather patch is lost only on a full quilt")
            else:
                if move[1] in self.quilts[p]:
                    raise ValueError("the square is taken")
                self._cover(p, [move[1]])
                self.leathers[p] += 1
            self.due -= 1
            if not self.due:
                self._next()
            return
        if self.due:
            raise ValueError("a leather patch is due")
        if kind == "skip" and self.n == 1:
            if not 1 <= move[1] <= LAST - self.times[p]:
                raise ValueError("bad skip")
            self.buttonss[p] += move[1]
            self._walk(p, move[1])
        elif kind == "advance" and self.n == 2:
            spaces = min(LAST, self.times[1 - p] + 1) - self.times[p]
            self.buttonss[p] += spaces
            self._walk(p, spaces)
        elif kind == "buy":
            patch, squares = move[1], move[2]
            info = PATCHES[patch]
            if patch in self.bought or info["cost"] > self.buttonss[p]:
                raise ValueError("not for sale")
            if self.n == 2 and patch not in self.window():
                raise ValueError("not in the window")
            size = sum(row.count("#") for row in info["shape"])
            if self.variant == "sim":
                if squares is not None or size > SIDE * SIDE - self.bought_squares[p]:
                    raise ValueError("no room")
            elif squares is None or frozenset(squares) not in set(placements(patch, self.quilts[p])):
                raise ValueError("it does not fit there")
            self.buttonss[p] -= info["cost"]
            self.bought.add(patch)
            if self.n == 2:
                self.neutral = self.circle.index(patch)
            if squares is not None:
                self._cover(p, squares)
            self.bought_squares[p] += size
            self.incomes[p] += info["income"]
            self.patch_counts[p] += 1
            self._walk(p, info["time"])
        else:
            raise ValueError(f"no such move {move!r}")

    def legal(self) -> list:
        """Every legal move (placements as sets of squares)."""
        if self.over():
            return []
        p = self.mover
        if self.due:
            free = [(r, c) for r in range(SIDE) for c in range(SIDE) if (r, c) not in self.quilts[p]]
            return [("leather", sq) for sq in free] or [("leather", None)]
        moves = []
        if self.n == 1:
            moves += [("skip", k) for k in range(1, LAST - self.times[p] + 1)]
        else:
            moves.append(("advance",))
        for patch in (self.window() if self.n == 2 else range(len(PATCHES))):
            if patch in self.bought or PATCHES[patch]["cost"] > self.buttonss[p]:
                continue
            if self.variant == "sim":
                if sum(r.count("#") for r in PATCHES[patch]["shape"]) <= SIDE * SIDE - self.bought_squares[p]:
                    moves.append(("buy", patch, None))
            else:
                moves += [("buy", patch, sq) for sq in placements(patch, self.quilts[p])]
        return moves

    def empty(self, p: int) -> int:
        if self.variant == "sim":
            return max(SIDE * SIDE - self.bought_squares[p] - len(LEATHER_SPACES), 0)
        return SIDE * SIDE - len(self.quilts[p])

    def total(self) -> int:
        """One player: thesis Eq. 1."""
        e = self.empty(0)
        return self.buttonss[0] + (7 if e == 0 else -2 * e)

    def finals(self) -> list[int]:
        return [self.buttonss[p] - 2 * self.empty(p) + (7 if self.special == p else 0) for p in range(2)]


def random_game(variant: str, rng: random.Random, weighted: bool = True, circle=None) -> Game:
    """The thesis's random players, in plain Python: a uniform fitting placement (weighted) or
    a uniform fitting patch then one of its placements, after the fewest skips that afford it
    (income on the way counted); nothing fits: skip to the end. Leather on a uniform free square.
    Two players: a uniform affordable move of the window, else advance."""
    game = Game(variant, circle)
    while not game.over():
        p = game.mover
        if game.due:
            game.play(rng.choice(game.legal()))
            continue
        if game.n == 2:
            buys = [m for m in game.legal() if m[0] == "buy"]
            game.play(rng.choice(buys) if buys else ("advance",))
            continue
        options = []  # (patch, squares) that fit and can be afforded by skipping
        for patch in range(len(PATCHES)):
            if patch in game.bought or skips_to_afford(game, patch) is None:
                continue
            if variant == "sim":
                if sum(r.count("#") for r in PATCHES[patch]["shape"]) <= SIDE * SIDE - game.bought_squares[p]:
                    options.append([(patch, None)])
            else:
                places = placements(patch, game.quilts[p])
                if places:
                    options.append([(patch, sq) for sq in places])
        if not options:
            game.play(("skip", LAST - game.time))
            continue
        patch, squares = rng.choice([o for opts in options for o in opts]) if weighted else rng.choice(rng.choice(options))
        k = skips_to_afford(game, patch)
        if k:
            game.play(("skip", k))
            if game.due:
                continue  # a leather patch first; the choice is made afresh
        game.play(("buy", patch, squares))
    return game


def skips_to_afford(game: Game, patch: int) -> int | None:
    """The fewest spaces to skip before ``patch`` is affordable (0 if it is), or None when
    skipping to the last space but one does not do it."""
    buttons, t = game.buttons, game.time
    for k in range(0, LAST - t):
        if k:
            buttons += 1 + (game.income if t + k in INCOME_SPACES else 0)
        if buttons >= PATCHES[patch]["cost"]:
            return k
    return None
