"""A Tiny Islands record replayed at once (``Engine.play_all`` on :class:`RecordActions`, the
jitted batch replay) is the same walk as its actions applied one at a time through the
protocol: the same first refusal at the same index, the same board, shorelines and deck
counts after it, for random games and for games with one action spoiled."""
from __future__ import annotations

import numpy as np
import pytest

from scorebook.engines.protocol import Engine
from scorebook.engines.tiny_islands.game import ENGINE, RecordActions

from .test_protocol import random_protocol_game


def _packed(placements, drawings) -> RecordActions:
    arr = np.array([(tile, cell) for _, tile, cell in placements], np.int64).reshape(-1, 2)
    traces = np.zeros((3, 81), np.int64)
    lens = np.zeros(3, np.int64)
    for d, (_, cells) in enumerate(drawings):
        traces[d, :len(cells)] = cells
        lens[d] = len(cells)
    return RecordActions(arr, traces, lens, np.ones(3, np.bool_))


def _state(s) -> tuple:
    ENGINE._counts(s)  # the batch replay leaves the deck's counts to be taken when needed
    return (s.tiles.tolist(), s.land.tolist(), s.regions.tolist(), s.turn, s.drawings, s.tile_drawn.tolist(),
            s.zone_drawn.tolist(), s.offer_checked)


@pytest.mark.parametrize("seed", range(8))
def test_at_once_and_one_at_a_time_agree(seed):
    setup, _, placements, drawings = random_protocol_game(seed)
    packed = _packed(placements, drawings)
    rng = np.random.default_rng(seed)
    spoilt = [list(packed)]
    for _ in range(6):  # one placement moved to a random cell, or a shoreline's cell changed
        actions = list(packed)
        i = int(rng.integers(len(actions)))
        if actions[i][0] == "place":
            actions[i] = ("place", actions[i][1], int(rng.integers(81)))
        else:
            cells = list(actions[i][1])
            cells[int(rng.integers(len(cells)))] = int(rng.integers(81))
            actions[i] = ("draw", tuple(cells))
        spoilt.append(actions)
    refused = 0
    for actions in spoilt:
        arr = [a[1:] for a in actions if a[0] == "place"]
        shores = [a for a in actions if a[0] == "draw"]
        at_once, one_by_one = ENGINE.initial_state(setup), ENGINE.initial_state(setup)
        packed_again = _packed([("place", *p) for p in arr], shores)
        assert list(packed_again) == actions
        result = ENGINE.play_all(at_once, packed_again)
        assert result == Engine.play_all(ENGINE, one_by_one, actions)
        assert _state(at_once) == _state(one_by_one)
        assert ENGINE.score(at_once) == ENGINE.score(one_by_one)
        refused += result[0] != 0
    assert refused  # the spoilt games are refused somewhere, at the same action both ways
