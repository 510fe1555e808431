"""Every registered game's engine through the protocol alone (OpenSpiel's random simulation
test): from a new game, legal actions apply with OK until the game ends within its declared
length, the player to move is a seat, and the score has the game's shape."""
from __future__ import annotations

import numpy as np
import pytest

from scorebook import registry
from scorebook.engines.protocol import OK

SMALL = {"grid": 5}  # a small Game of Islands grid keeps the simulation quick


@pytest.mark.parametrize("game_id", registry.game_ids())
def test_random_simulations(game_id):
    game = registry.get_game(game_id)
    engine = game.engine
    options = {o.name: o.default for o in game.info.play_options}
    options.update({k: v for k, v in SMALL.items() if k in options})
    rng = np.random.default_rng(11)
    lengths = []
    for _ in range(3):
        state = engine.initial_state(engine.new_game(rng, options))
        plies = 0
        while not engine.is_terminal(state):
            assert engine.to_move(state) in range(game.info.players.max)
            actions = engine.legal_actions(state)
            assert actions, "a state that is not terminal has a legal action"
            assert engine.apply(state, actions[int(rng.integers(len(actions)))]) == OK
            plies += 1
            assert plies <= game.info.max_length
        assert engine.legal_actions(state) == []
        score = engine.score(state)
        assert isinstance(score, dict) and score
        lengths.append(plies)
    assert min(lengths) > 0
