"""A plain-Python Tsuro board, written apart from the jitted rules (dicts and tuples, no
state vector, nothing shared but the facts in game.json): placing a tile, following every
path, edge and collision eliminations, and the self-elimination rule. The tests replay
random games through both and compare every token after every turn; the benchmarks time both.

>>> board = Board({"A": ("a1", 0), "B": ("f6", 4)})
>>> board.place("A", 13, 0)
{'A': ('b1', 6)}
"""
from __future__ import annotations

import json
from importlib import resources

FACTS = json.loads(resources.files(__package__).joinpath("game.json").read_text())
SIDE = FACTS["board"]["rows"]
NEIGHBOUR = FACTS["neighbour_port"]
STEPS = {0: (-1, 0), 1: (0, 1), 2: (1, 0), 3: (0, -1)}  # the square across side port // 2


def partner(tile: int, rotation: int, port: int) -> int:
    """The port at the other end of the path from ``port`` of a tile turned ``rotation`` times."""
    for a, b in FACTS["tiles"][tile]:
        a, b = (a + 2 * rotation) % 8, (b + 2 * rotation) % 8
        if port == a:
            return b
        if port == b:
            return a
    raise ValueError(port)


def square_at(name: str) -> tuple[int, int]:
    return int(name[1]) - 1, "abcdef".index(name[0])


def name_of(r: int, c: int) -> str:
    return "abcdef"[c] + str(r + 1)


class Board:
    """Tiles by square, tokens by player: (the square they face, its port); an eliminated
    token's entry is "edge" or "collision"."""

    def __init__(self, tokens: dict[str, tuple[str, int]]):
        self.tiles: dict[tuple[int, int], tuple[int, int]] = {}
        self.tokens: dict[str, object] = dict(tokens)

    def route(self, square: tuple[int, int], port: int, others: set[int]):
        """Follow from (square, port) into its tile: the end point, "edge", or "collision"
        when the route reaches one of ``others`` (ports of the starting square)."""
        start = square
        while True:
            if square == start and port in others:
                return "collision"
            tile, rotation = self.tiles[square]
            out = partner(tile, rotation, port)
            if square == start and out in others:
                return "collision"
            dr, dc = STEPS[out // 2]
            r, c = square[0] + dr, square[1] + dc
            if not (0 <= r < SIDE and 0 <= c < SIDE):
                return "edge"
            square, port = (r, c), NEIGHBOUR[out]
            if square not in self.tiles:
                return name_of(*square), port

    def outcome(self, player: str, tile: int, rotation: int) -> dict:
        """What placing would do, the board unchanged: every moved player's end."""
        name, _ = self.tokens[player]
        square = square_at(name)
        self.tiles[square] = (tile, rotation)
        movers = {p: port for p, where in self.tokens.items()
                  if isinstance(where, tuple) and where[0] == name for port in [where[1]]}
        ends = {p: self.route(square, port, {q for o, q in movers.items() if o != p}) for p, port in movers.items()}
        del self.tiles[square]
        return ends

    def safe(self, player: str, hand: list[int]) -> bool:
        return any(isinstance(self.outcome(player, t, r)[player], tuple) for t in hand for r in range(4))

    def legal(self, player: str, tile: int, rotation: int, hand: list[int]) -> bool:
        return isinstance(self.outcome(player, tile, rotation)[player], tuple) or not self.safe(player, hand)

    def place(self, player: str, tile: int, rotation: int) -> dict:
        ends = self.outcome(player, tile, rotation)
        self.tiles[square_at(self.tokens[player][0])] = (tile, rotation)
        self.tokens.update(ends)
        return ends
