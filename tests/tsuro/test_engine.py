"""Tsuro's engine: its tiles against the shared tile set, the spec's example game, random
games against the plain-Python reference turn by turn, the tiles always all accounted for,
and the simple AI's choice exactly as spec section 3 orders it."""
from __future__ import annotations

import json
import random

import numpy as np
import pytest

from scorebook.engines.tsuro import bots as B, reference as REF, rules as R

from ..conftest import SHARED, shared_file

SPEC_DECK = [13, 5, 17, 3, 9, 19, 30, 16, 6, 33, 4, 2, 1, 24, 21, 12, 18, 15, 22, 25, 10, 28, 32, 31, 20, 11, 23,
             34, 29, 7, 27, 14, 26, 0, 8]


def test_tiles_match_the_shared_set():
    data = json.loads(shared_file(SHARED / "data" / "tsuro" / "tiles.json").read_text())
    assert [sorted(map(sorted, t["paths"])) for t in data["tiles"]] == [sorted(map(sorted, p)) for p in R.FACTS["tiles"]]
    assert {int(k): v for k, v in data["neighbour_port"].items()} == dict(enumerate(R.NB.tolist()))
    edge = [(e["square"], e["port"]) for e in data["edge_ports"]]
    ours = {(R.square_name(sq), port) for sq in range(R.SQUARES) for port in range(8) if R.is_edge_point(sq, port)}
    assert len(edge) == 48 and set(edge) == ours


def test_the_tiles_are_every_pairing_up_to_rotation():
    """35 tiles = the 105 pairings of 8 ports up to rotation, each class once (spec 1)."""
    def pairings(ports):
        if not ports:
            yield ()
            return
        a = ports[0]
        for b in ports[1:]:
            rest = [p for p in ports if p not in (a, b)]
            for more in pairings(rest):
                yield ((a, b),) + more

    def canonical(paths):
        return min(tuple(sorted(tuple(sorted(((a + 2 * k) % 8, (b + 2 * k) % 8))) for a, b in paths)) for k in range(4))

    classes = {canonical(p) for p in pairings(list(range(8)))}
    assert len(list(pairings(list(range(8))))) == 105 and len(classes) == 35
    assert {canonical(t) for t in R.FACTS["tiles"]} == classes


def test_the_spec_example_opening():
    s = R.new_state(3, np.array([0 * 8 + 0, 24 * 8 + 6, 34 * 8 + 5]), np.array(SPEC_DECK), 0, 1)
    events = np.zeros((64, 3), np.int64)
    said = [((13, 0), "b1.6", 33), ((16, 0), "a6.1", 4), ((17, 2), "f6.7", 2)]
    for seat, ((tile, rot), end, drawn) in enumerate(said):
        assert R.turn(s, tile, rot, R.NO_ORDER, events) == R.OK
        assert R.point_name(int(s[R.POS + seat])) == end
        assert [tuple(int(v) for v in e) for e in events[1:s[R.N_EVENTS]]] == [(R.DRAW, seat, drawn)]


@pytest.mark.parametrize("players, seed, refill", [(2, 1, 0), (3, 2, 1), (5, 3, 0), (8, 4, 1), (8, 5, 0)])
def test_random_games_agree_with_the_reference(players, seed, refill):
    rng = random.Random(seed)
    edge = [sq * 8 + p for sq in range(R.SQUARES) for p in range(8) if R.is_edge_point(sq, p)]
    starts = rng.sample(edge, players)
    deck = rng.sample(range(R.N_TILES), R.N_TILES)
    s = R.new_state(players, np.array(starts), np.array(deck), refill, seed)
    names = [f"p{i}" for i in range(players)]
    board = REF.Board({n: (R.square_name(p // 8), p % 8) for n, p in zip(names, starts)})
    events = np.zeros((256, 3), np.int64)
    while not s[R.OVER]:
        p = int(s[R.TO_MOVE])
        hand = R.hand(s, p)
        legal = B.options_of(s)
        assert {(int(t), int(r)) for t, r in legal} == {(t, r) for t in hand for r in range(4)
                                                        if board.legal(names[p], t, r, hand)}
        tile, rot = legal[rng.randrange(len(legal))]
        board.place(names[p], int(tile), int(rot))
        assert R.turn(s, tile, rot, R.NO_ORDER, events) == R.OK
        for q in range(players):
            where = board.tokens[names[q]]
            if isinstance(where, tuple):
                assert R.point_name(int(s[R.POS + q])) == f"{where[0]}.{where[1]}"
            else:
                assert s[R.POS + q] < 0 and (None, "edge", "collision")[int(s[R.CAUSE + q])] == where
        # every tile is on the board, in a hand or in the deck, once
        held = [t for q in range(players) for t in R.hand(s, q)]
        placed = [int(t) for t in s[R.BOARD:R.BOARD + R.SQUARES] if t >= 0]
        assert sorted(held + placed + R.deck(s)) == list(range(R.N_TILES))
        assert len(placed) == s[R.PLACED] and all(len(R.hand(s, q)) <= 3 for q in range(players))
        if s[R.DRAGON] >= 0 and not s[R.OVER]:  # (the last turn settles nothing more)
            assert R.deck(s) == [] and R.live(s, int(s[R.DRAGON]))
    live = [q for q in range(players) if s[R.POS + q] >= 0]
    assert len(live) <= 1 or s[R.PLACED] == R.N_TILES
    assert R.score(s, names)["winners"] == (live or R.winners(s))


def _engine_events(events: np.ndarray, n: int) -> list:
    """The engine's events of a turn in the reference's shape (moves left out, the new deck
    order as one event)."""
    out, order = [], None
    for kind, seat, value in (tuple(int(v) for v in row) for row in events[:n]):
        if kind == R.SHUFFLE:
            order = (order or []) + [value]
        elif kind != R.MOVE:
            name = {R.DRAW: "draw", R.DRAGON_TAKEN: "dragon", R.RETURN: "return", R.REFILL_DRAW: "refill",
                    R.PASS: "pass"}[kind]
            out.append((name, seat) if name in ("dragon", "pass") else (name, seat, value))
    return out + ([("deck", order)] if order is not None else [])


def _by_kind(events: list) -> dict:
    """Events compared kind by kind: in the order they happened, returns as a set."""
    kinds = {}
    for e in events:
        kinds.setdefault(e[0], []).append(e[1:])
    if "return" in kinds:
        kinds["return"] = sorted(kinds["return"])
    return kinds


def _cross_check(players: int, seed: int, refill: str) -> tuple[int, int]:
    """One random game through the engine and the plain-Python reference game, compared after
    every turn: tokens, hands, the deck, the dragon and every event. Returns (turns, turns on
    which the dragon was held)."""
    rng = random.Random(seed)
    edge = [sq * 8 + p for sq in range(R.SQUARES) for p in range(8) if R.is_edge_point(sq, p)]
    starts = rng.sample(edge, players)
    deck = rng.sample(range(R.N_TILES), R.N_TILES)
    s = R.new_state(players, np.array(starts), np.array(deck), R.REFILLS.index(refill), seed)
    names = [f"p{i}" for i in range(players)]
    game = REF.Game(names, [(R.square_name(p // 8), p % 8) for p in starts], deck, refill)
    events = np.zeros((256, 3), np.int64)
    turns = held = 0
    while not s[R.OVER]:
        assert int(s[R.TO_MOVE]) == game.to_move and not game.over
        legal = B.options_of(s)
        tile, rot = (int(v) for v in legal[rng.randrange(len(legal))])
        assert R.turn(s, tile, rot, R.NO_ORDER, events) == R.OK
        mine = _engine_events(events, int(s[R.N_EVENTS]))
        order = next((e[1] for e in mine if e[0] == "deck"), None)
        theirs = game.turn(tile, rot, order)
        assert _by_kind(mine) == _by_kind(theirs), (turns, mine, theirs)
        turns += 1
        if s[R.OVER]:
            break
        for q in range(players):
            assert R.hand(s, q) == game.hands[names[q]]
            where = game.board.tokens[names[q]]
            assert (R.point_name(int(s[R.POS + q])) == f"{where[0]}.{where[1]}" if isinstance(where, tuple)
                    else s[R.POS + q] < 0)
        assert R.deck(s) == game.deck
        holder = int(s[R.DRAGON])
        assert (holder if holder >= 0 else None) == game.dragon
        if holder >= 0:  # the dragon's holder is always short of tiles, and the deck empty
            held += 1
            assert len(R.hand(s, holder)) < 3 and R.deck(s) == [] and R.live(s, holder)
    assert game.over
    return turns, held


@pytest.mark.parametrize("refill", R.REFILLS)
def test_random_games_agree_with_the_reference_game_under_both_refill_rules(refill):
    """300 random games of 2 to 8 players under each refill rule, engine against reference."""
    turns = held = 0
    for g in range(300):
        t, h = _cross_check(2 + g % 7, 1000 * R.REFILLS.index(refill) + g, refill)
        turns, held = turns + t, held + h
    assert held > 100  # the dragon was in play: the rules under test were exercised


def test_a_holder_who_fills_up_with_the_last_tile_gives_the_dragon_on():
    """holder_first (spec 4): the holder that reaches 3 tiles, even with the deck's last
    tile, no longer holds the dragon: the first player short of tiles after it does."""
    game = REF.Game(["A", "B", "C"], [("a1", 0), ("c1", 0), ("f6", 4)], list(range(35)), "holder_first")
    game.deck = [30]
    game.hands = {"A": [10, 11], "B": [12], "C": [13, 14, 15]}
    game.dragon = 0
    assert game._refill() == [("refill", 0, 30), ("dragon", 1)]
    assert game.dragon == 1 and game.hands["A"] == [10, 11, 30]
    game.deck, game.hands["B"], game.dragon = [], [12], 1  # short when the deck runs out: takes it again
    game.deck = [31]
    game.hands["B"] = []
    assert game._refill() == [("refill", 1, 31), ("dragon", 1)]


def test_simple_ai_prefers_kills_then_the_rim_then_slot_and_rotation():
    s = R.new_state(2, np.array([0 * 8 + 0, 24 * 8 + 6]), np.array(SPEC_DECK), 0, 1)
    tile, rot = B.simple_choice(s)
    ends = np.empty(8, np.int64)
    best = None
    for k, t in enumerate(R.hand(s, 0)):
        for r in range(4):
            c = s.copy()
            R.place(c, t, r, ends)
            dead = ends[0] < 0
            dist = sum(int(R.edge_distance(int(c[R.POS + q]))) for q in range(2) if ends[q] >= 0 or ends[q] == -3)
            key = (dead, -int(sum(1 for q in (1,) if -3 < ends[q] < 0)), dist, k, r)
            if best is None or key < best[0]:
                best = (key, (t, r))
    assert (int(tile), int(rot)) == best[1]


def test_edge_distance():
    assert R.edge_distance(0 * 8 + 0) == 0  # a1's top side: the rim
    assert R.edge_distance((2 * 6 + 2) * 8 + 0) == 2  # c3's top side: the line y = 2 between columns c and d
    assert R.edge_distance((2 * 6 + 2) * 8 + 2) == 2  # c3's right side: x = 3
    assert R.edge_distance((0 * 6 + 2) * 8 + 4) == 1  # c1's bottom side: y = 1
