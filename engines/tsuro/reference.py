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


class Game:
    """A whole game written plainly: seats, hands, the deck (top first), the dragon and both
    refill rules (spec 2 steps 5-7 and 4), on a :class:`Board`. A shuffle's new order is
    given (a record's ``deck`` event, or the engine's), so two implementations can be run
    side by side. ``turn`` returns what happened besides the moves, as the records write it:
    ``("draw", seat, tile)``, ``("dragon", seat)``, ``("return", seat, tile)``,
    ``("deck", order)``, ``("refill", seat, tile)``, ``("pass", seat)``.

    The spec's example game, its first turn:

    >>> deck = [13, 5, 17, 3, 9, 19, 30, 16, 6, 33, 4, 2, 1, 24, 21, 12, 18, 15, 22, 25, 10, 28, 32, 31, 20, 11,
    ...         23, 34, 29, 7, 27, 14, 26, 0, 8]
    >>> g = Game(["P1", "P2", "P3"], [("a1", 0), ("a5", 6), ("e6", 5)], deck, "round_robin")
    >>> g.turn(13, 0), g.hands["P1"], g.board.tokens["P1"]
    ([('draw', 0, 33)], [3, 30, 33], ('b1', 6))
    """

    def __init__(self, names: list[str], starts: list[tuple[str, int]], deck: list[int], refill: str):
        self.names = names
        self.board = Board(dict(zip(names, starts)))
        self.deck = list(deck)
        self.hands: dict[str, list[int]] = {n: [] for n in names}
        for _ in range(3):
            for n in names:
                self.hands[n].append(self.deck.pop(0))
        self.refill_rule = refill
        self.dragon: int | None = None
        self.to_move = 0
        self.placed = 0
        self.over = False
        self.eliminated_on: dict[int, int] = {}

    def live(self, seat: int) -> bool:
        return isinstance(self.board.tokens[self.names[seat]], tuple)

    def short(self, seat: int) -> bool:
        return self.live(seat) and len(self.hands[self.names[seat]]) < 3

    def turn(self, tile: int, rotation: int, new_order: list[int] | None = None) -> list:
        seat = self.to_move
        name = self.names[seat]
        self.hands[name].remove(tile)
        ends = self.board.place(name, tile, rotation)
        self.placed += 1
        gone = sorted(self.names.index(p) for p, end in ends.items() if not isinstance(end, tuple))
        for q in gone:
            self.eliminated_on[q] = self.placed
        n = len(self.names)
        if sum(self.live(q) for q in range(n)) <= 1 or self.placed == 35:
            self.over = True
            return []
        events = []
        back = 0
        for q in gone:  # step 5: hands back to the deck
            for t in self.hands[self.names[q]]:
                self.deck.append(t)
                events.append(("return", q, t))
                back += 1
            self.hands[self.names[q]] = []
        if self.dragon in gone:  # to the next live seat short of tiles, or set aside
            holder, self.dragon = self.dragon, None
            for i in range(1, n):
                if self.short((holder + i) % n):
                    self.dragon = (holder + i) % n
                    events.append(("dragon", self.dragon))
                    break
        if back:
            assert sorted(new_order) == sorted(self.deck), "a new order is a permutation of the deck"
            self.deck = list(new_order)
            events.append(("deck", list(new_order)))
        if self.dragon is not None and self.deck:  # step 6: the dragon's holder leads a refill
            events += self._refill()
        elif self.live(seat):
            if self.deck:
                events.append(("draw", seat, self._draw(seat)))
            elif self.dragon is None:
                self.dragon = seat
                events.append(("dragon", seat))
        q = seat  # step 7: the next live seat; one with an empty hand passes
        for _ in range(n + 1):
            q = (q + 1) % n
            if not self.live(q):
                continue
            if self.hands[self.names[q]]:
                break
            events.append(("pass", q))
        self.to_move = q
        return events

    def _draw(self, seat: int) -> int:
        t = self.deck.pop(0)
        self.hands[self.names[seat]].append(t)
        return t

    def _refill(self) -> list:
        n = len(self.names)
        holder, out = self.dragon, []
        order = [(holder + i) % n for i in range(n)]  # the drawing order: the holder, then by seat
        if self.refill_rule == "holder_first":
            while self.short(holder) and self.deck:
                out.append(("refill", holder, self._draw(holder)))
            if not self.deck and self.short(holder):
                out.append(("dragon", holder))  # it takes the dragon again; nobody else draws
                return out
            order = order[1:]
        self.dragon = None  # given back when the holder draws (round robin) or is full (holder first)
        last = holder
        while self.deck and any(self.short(q) for q in order):
            for q in order:
                if self.deck and self.short(q):
                    out.append(("refill", q, self._draw(q)))
                    last = q
        if not self.deck:  # ran dry: to the first short seat after the last who drew, in drawing order
            for i in range(1, n + 1):
                if self.short((last + i) % n):
                    self.dragon = (last + i) % n
                    out.append(("dragon", self.dragon))
                    break
        return out
