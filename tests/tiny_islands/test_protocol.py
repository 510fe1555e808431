"""Tiny Islands through the engines' protocol: random games agree with the jitted batch replay;
illegal actions are refused with their code and change nothing (random games read back as
records: tests/test_round_trip.py)."""
from __future__ import annotations

import numpy as np

from scorebook.engines.protocol import OK
from scorebook.engines.tiny_islands import engine as E
from scorebook.engines.tiny_islands.game import ENGINE


def random_protocol_game(seed: int):
    rng = np.random.default_rng(seed)
    setup = ENGINE.new_game(rng, {"deck": "one-deck" if seed % 2 else "two-deck"})
    s = ENGINE.initial_state(setup)
    placements, drawings = [], []
    while not ENGINE.is_terminal(s):
        actions = ENGINE.legal_actions(s)
        a = actions[int(rng.integers(len(actions)))]
        assert ENGINE.apply(s, a) == OK
        (drawings if a[0] == "draw" else placements).append(a)
    return setup, s, placements, drawings


def test_protocol_games_agree_with_the_jitted_replay():
    for seed in range(6):
        setup, s, placements, drawings = random_protocol_game(seed)
        arr = np.array([(tile, cell) for _, tile, cell in placements], np.int64)
        traces = np.zeros((3, 81), np.int64)
        lens = np.zeros(3, np.int64)
        for d, (_, cells) in enumerate(drawings):
            traces[d, :len(cells)] = cells
            lens[d] = len(cells)
        code, *_, breakdown = E.replay(setup["offers"], arr, traces, lens, np.ones(3, np.bool_), len(arr), 0)
        assert code == E.OK
        score = ENGINE.score(s)
        assert list(score.values()) == breakdown.tolist()


def test_illegal_actions_are_refused_and_change_nothing():
    rng = np.random.default_rng(3)
    s = ENGINE.initial_state(ENGINE.new_game(rng, {}))
    _, tile, cell = ENGINE.legal_actions(s)[0]
    assert ENGINE.apply(s, ("place", tile, cell)) == OK
    before = (s.tiles.copy(), s.land.copy(), s.turn)
    offer = s.offers[s.turn]
    assert ENGINE.code_name(ENGINE.apply(s, ("place", int(offer[0]), cell))) in ("cell-occupied", "placement-outside-zone")
    assert ENGINE.code_name(ENGINE.apply(s, ("draw", (0, 1)))) == "drawing-out-of-place"
    not_offered = next(t for t in range(1, 8) if t not in (offer[0], offer[2]))
    assert ENGINE.code_name(ENGINE.apply(s, ("place", not_offered, 40))) == "tile-not-offered"
    assert (s.tiles == before[0]).all() and (s.land == before[1]).all() and s.turn == before[2]
    while not s.drawing_due:  # to the first drawing: a placement now is refused
        assert ENGINE.apply(s, ENGINE.legal_actions(s)[0]) == OK
    assert ENGINE.code_name(ENGINE.apply(s, ("place", 1, 0))) == "missing-drawing"
    assert ENGINE.code_name(ENGINE.apply(s, ("draw", (0, 2)))) == "drawing-disconnected"
    assert not s.land.any()


def test_an_unfinished_records_setup_offers_nothing_past_its_last_offer():
    """A record that stops early gives its engine only the offers it shows: past them the game
    is not over, nothing is legal, and a placement is refused (the trace of such a record is
    walked from that setup)."""
    setup = ENGINE.new_game(np.random.default_rng(4), {})
    setup["offers"] = setup["offers"][:2]
    s = ENGINE.initial_state(setup)
    for _ in range(2):
        assert ENGINE.apply(s, ENGINE.legal_actions(s)[0]) == OK
    assert not ENGINE.is_terminal(s) and ENGINE.legal_actions(s) == []
    assert ENGINE.code_name(ENGINE.apply(s, ("place", 1, 40))) == "tile-not-offered" and s.turn == 2
