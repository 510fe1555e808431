"""Every rule of Tsuro (shared/specs/tsuro.md section 2), jitted: placement, path following,
edge and collision eliminations, the self-elimination rule, hands returned and the deck
reshuffled, draws, the dragon under both refill rules, passes, the end and the winners.

A state is an int64 vector (offsets below). A token stands on a point, written as the
empty square it faces and that square's port: ``square * 8 + port`` (squares row by row,
0..35). A turn is ``(tile, rotation)``, placed on the square the mover's token faces.
``turn`` plays one and writes what happened into an events array (rows ``kind, seat,
value``): the moves, then the draws, returns, the new deck, dragon hand-offs and passes;
the records read and write those.

The first turn of the spec's example game (P1 on a1.0 places 13 unturned on a1):

>>> import numpy as np
>>> deck = [13, 5, 17, 3, 9, 19, 30, 16, 6, 33, 4, 2, 1, 24, 21, 12, 18, 15, 22, 25, 10, 28, 32, 31, 20, 11,
...         23, 34, 29, 7, 27, 14, 26, 0, 8]
>>> s = new_state(3, np.array([0 * 8 + 0, 24 * 8 + 6, 34 * 8 + 5]), np.array(deck), 0, 1)
>>> hand(s, 0), hand(s, 1), hand(s, 2)
([13, 3, 30], [5, 9, 16], [17, 19, 6])
>>> events = np.zeros((64, 3), np.int64)
>>> turn(s, 13, 0, NO_ORDER, events), [tuple(int(v) for v in e) for e in events[:s[N_EVENTS]]]
(0, [(0, 0, 14), (1, 0, 33)])
>>> point_name(int(s[POS])), int(s[TO_MOVE])
('b1.6', 1)
"""
from __future__ import annotations

import json
from importlib import resources

import numpy as np
from scorebook.engines.jit import njit

FACTS = json.loads(resources.files(__package__).joinpath("game.json").read_text())
GAME_ID = FACTS["game"]["id"]
REFILLS = tuple(FACTS["game"]["rule_sets"])  # round_robin, holder_first
ROWS, COLS = FACTS["board"]["rows"], FACTS["board"]["columns"]
SQUARES = ROWS * COLS
N_TILES = len(FACTS["tiles"])
HAND = FACTS["hand_size"]
MAX_PLAYERS = FACTS["game"]["players"]["max"]
NB = np.array(FACTS["neighbour_port"], np.int64)
PARTNER = np.zeros((N_TILES, 8), np.int64)  # the other end of the path from a port, rotation 0
for _t, _paths in enumerate(FACTS["tiles"]):
    for _a, _b in _paths:
        PARTNER[_t, _a], PARTNER[_t, _b] = _b, _a
STEP = np.array([[-1, 0], [0, 1], [1, 0], [0, -1]], np.int64)  # the neighbour across side port // 2

# ---- the state vector
N, TO_MOVE, PLACED, DRAGON, REFILL, DECK_N, OVER, SEED, N_EVENTS = range(9)
EVENTS = 256  # rows of one turn's events buffer (kind, seat, value), at most
BOARD = 9  # 36 tiles (-1 empty)
ROT = BOARD + SQUARES
POS = ROT + SQUARES  # a point per seat (-1 off the board)
ELIM_TURN = POS + MAX_PLAYERS  # the turn a seat was eliminated on (0: live)
CAUSE = ELIM_TURN + MAX_PLAYERS  # 0 live, EDGE, COLLISION
HANDS = CAUSE + MAX_PLAYERS  # 3 slots a seat (-1 empty)
DECK = HANDS + HAND * MAX_PLAYERS  # the deck, top first
STATE_SIZE = DECK + N_TILES

EDGE, COLLISION = 1, 2
OFF, MET = -1, -2  # a move's end: off the edge, collision
# ---- events
MOVE, DRAW, DRAGON_TAKEN, RETURN, SHUFFLE, REFILL_DRAW, PASS = range(7)
NO_ORDER = np.full(1, -1, np.int64)
# ---- codes (the records' names)
OK, GAME_OVER, NOT_IN_HAND, SELF_ELIMINATION, MISSING_DECK, DECK_MISMATCH = range(6)
CODE_NAMES = {GAME_OVER: "move-after-end", NOT_IN_HAND: "tile-not-in-hand", SELF_ELIMINATION: "self-elimination",
              MISSING_DECK: "missing-deck", DECK_MISMATCH: "deck-mismatch"}


def square_name(square: int) -> str:
    return "abcdef"[square % COLS] + str(square // COLS + 1)


def point_name(point: int) -> str:
    return f"{square_name(point // 8)}.{point % 8}"


def is_edge_point(square: int, port: int) -> bool:
    """Is (square, port) on the rim (a start point)?"""
    r, c = divmod(square, COLS)
    dr, dc = STEP[port // 2]
    return not (0 <= r + dr < ROWS and 0 <= c + dc < COLS)


@njit(cache=True)
def new_state(players: np.int64, starts: np.ndarray, deck: np.ndarray, refill: np.int64, seed: np.int64) -> np.ndarray:
    """Tokens on their start points, the deck (top first) dealt three rounds in seat order."""
    s = np.zeros(STATE_SIZE, np.int64)
    s[N], s[REFILL], s[SEED], s[DRAGON] = players, refill, seed, -1
    s[BOARD:BOARD + SQUARES] = -1
    s[POS:POS + MAX_PLAYERS] = -1
    s[HANDS:HANDS + HAND * MAX_PLAYERS] = -1
    for p in range(players):
        s[POS + p] = starts[p]
    for i in range(deck.shape[0]):
        s[DECK + i] = deck[i]
    s[DECK_N] = deck.shape[0]
    for _ in range(HAND):
        for p in range(players):
            _draw(s, p)
    return s


@njit(cache=True)
def _draw(s: np.ndarray, p: np.int64) -> np.int64:
    """The top tile of the deck into seat p's first empty slot; the tile (-1: deck empty)."""
    if s[DECK_N] == 0:
        return -1
    t = s[DECK]
    for i in range(s[DECK_N] - 1):
        s[DECK + i] = s[DECK + i + 1]
    s[DECK_N] -= 1
    s[DECK + s[DECK_N]] = 0
    for k in range(HAND):
        if s[HANDS + HAND * p + k] < 0:
            s[HANDS + HAND * p + k] = t
            break
    return t


@njit(cache=True)
def hand_count(s: np.ndarray, p: np.int64) -> np.int64:
    n = 0
    for k in range(HAND):
        if s[HANDS + HAND * p + k] >= 0:
            n += 1
    return n


@njit(cache=True)
def live(s: np.ndarray, p: np.int64) -> bool:
    return s[POS + p] >= 0


@njit(cache=True)
def live_count(s: np.ndarray) -> np.int64:
    n = 0
    for p in range(s[N]):
        if s[POS + p] >= 0:
            n += 1
    return n


@njit(cache=True)
def follow(s: np.ndarray, square: np.int64, port: np.int64, new_square: np.int64, others: np.ndarray,
           n_others: np.int64) -> np.int64:
    """Where a token at (square, port), facing a tile, ends: a point facing an empty square,
    OFF (the rim), or MET (its route reaches one of ``others``, points on ``new_square``)."""
    sq, pt = square, port
    for _ in range(4 * SQUARES + 8):
        for j in range(n_others):
            if sq == new_square and others[j] == pt:
                return MET
        tile = s[BOARD + sq]
        k = s[ROT + sq]
        out = (PARTNER[tile, (pt - 2 * k) % 8] + 2 * k) % 8
        for j in range(n_others):
            if sq == new_square and others[j] == out:
                return MET
        r, c = sq // COLS + STEP[out // 2, 0], sq % COLS + STEP[out // 2, 1]
        if r < 0 or r >= ROWS or c < 0 or c >= COLS:
            return OFF
        sq, pt = r * COLS + c, NB[out]
        if s[BOARD + sq] < 0:
            return sq * 8 + pt
    return OFF  # unreachable: routes cannot loop


@njit(cache=True)
def outcome(s: np.ndarray, tile: np.int64, rot: np.int64, ends: np.ndarray) -> None:
    """Steps 1-3 as they would go, ``s`` left as it was (the bots weigh every placement this
    way, without copying the state): ``ends[p]`` each seat's new point, OFF, MET, or -3 (it
    would not move)."""
    p = s[TO_MOVE]
    square = s[POS + p] // 8
    was_tile, was_rot = s[BOARD + square], s[ROT + square]
    s[BOARD + square], s[ROT + square] = tile, rot
    others = np.empty(MAX_PLAYERS, np.int64)
    seats = np.empty(MAX_PLAYERS, np.int64)
    m = 0
    for q in range(s[N]):
        ends[q] = -3
        if s[POS + q] >= 0 and s[POS + q] // 8 == square:
            others[m], seats[m] = s[POS + q] % 8, q
            m += 1
    rest = np.empty(MAX_PLAYERS, np.int64)
    for i in range(m):
        n = 0
        for j in range(m):
            if j != i:
                rest[n] = others[j]
                n += 1
        ends[seats[i]] = follow(s, square, others[i], square, rest, n)
    s[BOARD + square], s[ROT + square] = was_tile, was_rot


@njit(cache=True)
def place(s: np.ndarray, tile: np.int64, rot: np.int64, ends: np.ndarray) -> None:
    """Steps 1-3 on ``s``: the tile on the mover's square, every token facing it moved;
    ``ends`` as ``outcome`` gives them."""
    square = s[POS + s[TO_MOVE]] // 8
    outcome(s, tile, rot, ends)
    s[BOARD + square], s[ROT + square] = tile, rot
    for q in range(s[N]):
        if ends[q] >= 0:
            s[POS + q] = ends[q]


@njit(cache=True)
def eliminates_mover(s: np.ndarray, tile: np.int64, rot: np.int64) -> bool:
    ends = np.empty(MAX_PLAYERS, np.int64)
    outcome(s, tile, rot, ends)
    return ends[s[TO_MOVE]] < 0 and ends[s[TO_MOVE]] != -3


@njit(cache=True)
def has_safe(s: np.ndarray) -> bool:
    """Does the mover hold a tile with a rotation that keeps its token on the board?"""
    p = s[TO_MOVE]
    for k in range(HAND):
        t = s[HANDS + HAND * p + k]
        if t >= 0:
            for r in range(4):
                if not eliminates_mover(s, t, r):
                    return True
    return False


@njit(cache=True)
def _log(events: np.ndarray, n: np.int64, kind: np.int64, seat: np.int64, value: np.int64) -> np.int64:
    events[n, 0], events[n, 1], events[n, 2] = kind, seat, value
    return n + 1


@njit(cache=True)
def _shuffle(s: np.ndarray, turn_no: np.int64) -> None:
    """The deck in a new random order (play): splitmix64 from the state's seed and the turn."""
    x = np.uint64(s[SEED]) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(turn_no)
    for i in range(s[DECK_N] - 1, 0, -1):
        x += np.uint64(0x9E3779B97F4A7C15)
        z = x
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
        j = np.int64(z % np.uint64(i + 1))
        a = s[DECK + i]
        s[DECK + i] = s[DECK + j]
        s[DECK + j] = a


@njit(cache=True)
def turn(s: np.ndarray, tile: np.int64, rot: np.int64, order: np.ndarray, events: np.ndarray) -> np.int64:
    """Play the mover's turn: OK (``events`` filled from row 0, their count in
    ``s[N_EVENTS]``) or a code, the state unchanged then. ``order``: the deck's new order
    should tiles come back (a record's ``deck`` event), NO_ORDER (a random shuffle: play), or
    ``[-2]`` (a record without a ``deck`` event: MISSING_DECK if tiles come back)."""
    if s[OVER] == 1:
        return GAME_OVER
    p = s[TO_MOVE]
    slot = -1
    for k in range(HAND):
        if s[HANDS + HAND * p + k] == tile:
            slot = k
    if slot < 0 or rot < 0 or rot > 3:
        return NOT_IN_HAND
    if eliminates_mover(s, tile, rot) and has_safe(s):
        return SELF_ELIMINATION
    t = s.copy()
    n = _turn(t, p, slot, tile, rot, order, events)
    if n < 0:
        return -n
    s[:] = t
    s[N_EVENTS] = n
    return OK


@njit(cache=True)
def move_value(start: np.int64, end: np.int64) -> np.int64:
    """A MOVE event's value: ``start * 1000 + end`` (end 901 off the edge, 902 a collision)."""
    return start * 1000 + (end if end >= 0 else 900 - end)


@njit(cache=True)
def _turn(s, p, slot, tile, rot, order, events) -> np.int64:
    before = np.empty(MAX_PLAYERS, np.int64)
    for q in range(s[N]):
        before[q] = s[POS + q]
    ends = np.empty(MAX_PLAYERS, np.int64)
    # a hand is a list: the tile leaves it and the others move up; a drawn tile goes last
    for k in range(slot, HAND - 1):
        s[HANDS + HAND * p + k] = s[HANDS + HAND * p + k + 1]
    s[HANDS + HAND * p + HAND - 1] = -1
    place(s, tile, rot, ends)
    s[PLACED] += 1
    turn_no = s[PLACED]
    n = 0
    # the moves: the placer's first, then the others in seat order
    n = _log(events, n, MOVE, p, move_value(before[p], ends[p]))
    for q in range(s[N]):
        if q != p and ends[q] != -3:
            n = _log(events, n, MOVE, q, move_value(before[q], ends[q]))
    gone = np.zeros(MAX_PLAYERS, np.bool_)
    for q in range(s[N]):
        if ends[q] == OFF or ends[q] == MET:
            gone[q] = True
            s[POS + q] = -1
            s[ELIM_TURN + q] = turn_no
            s[CAUSE + q] = EDGE if ends[q] == OFF else COLLISION
    if live_count(s) <= 1 or s[PLACED] == N_TILES:
        s[OVER] = 1
        return n
    # step 5: hands back, the dragon handed on, the deck reshuffled
    returned = 0
    for q in range(s[N]):
        if gone[q]:
            for k in range(HAND):
                t = s[HANDS + HAND * q + k]
                if t >= 0:
                    s[DECK + s[DECK_N]] = t
                    s[DECK_N] += 1
                    s[HANDS + HAND * q + k] = -1
                    n = _log(events, n, RETURN, q, t)
                    returned += 1
    if s[DRAGON] >= 0 and gone[s[DRAGON]]:
        holder = s[DRAGON]
        s[DRAGON] = -1
        for i in range(1, s[N]):
            q = (holder + i) % s[N]
            if live(s, q) and hand_count(s, q) < HAND:
                s[DRAGON] = q
                n = _log(events, n, DRAGON_TAKEN, q, 0)
                break
    if returned > 0:
        if order[0] == -2:
            return -MISSING_DECK
        if order[0] == -1:
            _shuffle(s, turn_no)
        else:
            if order.shape[0] != s[DECK_N]:
                return -DECK_MISMATCH
            want = np.zeros(N_TILES, np.int64)
            for i in range(s[DECK_N]):
                want[s[DECK + i]] += 1
            for i in range(order.shape[0]):
                if order[i] < 0 or order[i] >= N_TILES or want[order[i]] == 0:
                    return -DECK_MISMATCH
                want[order[i]] -= 1
            for i in range(order.shape[0]):
                s[DECK + i] = order[i]
        for i in range(s[DECK_N]):  # the new order, top first: one row a tile
            n = _log(events, n, SHUFFLE, -1, s[DECK + i])
    elif order[0] >= 0:
        return -DECK_MISMATCH  # a new deck order where no tile came back
    # step 6: draws
    if s[DRAGON] >= 0 and s[DECK_N] > 0:
        n = _refill(s, n, events)
    elif live(s, p):
        if s[DECK_N] > 0:
            n = _log(events, n, DRAW, p, _draw(s, p))
        elif s[DRAGON] < 0:
            s[DRAGON] = p
            n = _log(events, n, DRAGON_TAKEN, p, 0)
    # step 7: the next live player; one with an empty hand passes
    q = p
    for _ in range(s[N] + 1):
        q = (q + 1) % s[N]
        if not live(s, q):
            continue
        if hand_count(s, q) > 0:
            break
        n = _log(events, n, PASS, q, 0)
    s[TO_MOVE] = q
    return n


@njit(cache=True)
def _refill(s, n, events) -> np.int64:
    """Dragon-led draws (spec 2 step 6 and 4, both rules). Every time the dragon goes to a
    player is a ``DRAGON_TAKEN`` event; its holder always has fewer than 3 tiles."""
    holder = s[DRAGON]
    players = s[N]
    last = holder
    if s[REFILL] == 1:  # holder_first: the holder fills up first
        while hand_count(s, holder) < HAND and s[DECK_N] > 0:
            n = _log(events, n, REFILL_DRAW, holder, _draw(s, holder))
        if s[DECK_N] == 0 and hand_count(s, holder) < HAND:  # still short: it takes the dragon again
            return _log(events, n, DRAGON_TAKEN, holder, 0)
        # full (even with the deck's last tile): the dragon goes back; the others draw in turn,
        # and if the deck is dry already it goes to the first short player after the holder
        s[DRAGON] = -1
        start = 1
    else:
        start = 0
    returned = s[REFILL] == 1
    while s[DECK_N] > 0:
        drew = False
        for i in range(start, players):
            q = (holder + i) % players
            if s[DECK_N] == 0:
                break
            if live(s, q) and hand_count(s, q) < HAND:
                n = _log(events, n, REFILL_DRAW, q, _draw(s, q))
                last = q
                drew = True
                if q == holder and not returned:
                    s[DRAGON] = -1
                    returned = True
        if not drew:
            break
    if not returned:
        s[DRAGON] = -1
    if s[DECK_N] == 0:  # ran dry: the dragon to the first still short after the last who drew
        for i in range(1, players + 1):
            q = (last + i) % players
            if live(s, q) and hand_count(s, q) < HAND:
                s[DRAGON] = q
                n = _log(events, n, DRAGON_TAKEN, q, 0)
                break
    return n


def hand(s: np.ndarray, p: int) -> list[int]:
    return [int(t) for t in s[HANDS + HAND * p:HANDS + HAND * (p + 1)] if t >= 0]


def deck(s: np.ndarray) -> list[int]:
    return [int(t) for t in s[DECK:DECK + int(s[DECK_N])]]


@njit(cache=True)
def win_share(s: np.ndarray, seat: np.int64) -> np.float64:
    """A finished game's share of the win for ``seat``: 1/k among its k winners, else 0. The
    winners are the survivors; none left: every token eliminated on the last turn."""
    alive = live_count(s)
    if alive > 0:
        return 1.0 / alive if s[POS + seat] >= 0 else 0.0
    last = 0
    for q in range(s[N]):
        last = max(last, s[ELIM_TURN + q])
    k = 0
    for q in range(s[N]):
        if s[ELIM_TURN + q] == last:
            k += 1
    return 1.0 / k if s[ELIM_TURN + seat] == last else 0.0


def winners(s: np.ndarray) -> list[int]:
    return [p for p in range(int(s[N])) if win_share(s, p) > 0]


def score(s: np.ndarray, names: list[str]) -> dict:
    """The score in cli.md's shape; ``names`` by seat."""
    n = int(s[N])
    return {"players": list(names), "winners": winners(s) if s[OVER] else [],
            "eliminated_turn": [int(s[ELIM_TURN + p]) or None for p in range(n)],
            "cause": [(None, "edge", "collision")[int(s[CAUSE + p])] for p in range(n)],
            "tiles_placed": int(s[PLACED]), "turns": int(s[PLACED])}


@njit(cache=True)
def edge_distance(point: np.int64) -> np.int64:
    """Spec 3: whole squares between a point's grid line segment and the nearest rim."""
    sq, port = point // 8, point % 8
    r, c = sq // COLS, sq % COLS
    side = port // 2
    if side == 0 or side == 2:  # a horizontal line y between columns c and c + 1
        y = r if side == 0 else r + 1
        return min(min(y, ROWS - y), min(c, COLS - 1 - c))
    x = c + 1 if side == 1 else c
    return min(min(x, COLS - x), min(r, ROWS - 1 - r))
