"""Every registered game, one round trip through the protocols alone (OpenSpiel's random
simulation, python-chess's write-then-read): a random game played by the engine's legal
actions, written by the notation's ``write_game``, ingested as any record, gives the engine's
score; read back from the store, the record's steps are the moves as ``action_text`` wrote
them and replay ply by ply to the engine's own scores; its canonical text writes itself again.
A new game is covered by registering it: nothing here names one."""
from __future__ import annotations

import json

import numpy as np
import pytest

from scorebook import registry
from scorebook.engines.protocol import OK
from scorebook.errors import STRICT
from scorebook.records.ingest import ingest_text
from scorebook.records.replay import Replay

SMALL = {"grid": 5}  # a small Game of Islands grid keeps the games quick
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]  # one word each: Tsuro's tag lists them


def option_sets(game) -> list[dict]:
    """The play options' defaults, then each choice of each option with choices (the rule
    sets, decks, variants a game declares), the others at their defaults."""
    defaults = {o.name: o.default for o in game.info.play_options}
    defaults.update({k: v for k, v in SMALL.items() if k in defaults})
    sets = [defaults]
    for o in game.info.play_options:
        sets += [dict(defaults, **{o.name: c}) for c in o.choices if c != defaults[o.name]]
    return sets


def random_game(engine, notation, setup, rng):
    """Legal actions at random to the end: the actions, their texts as written before each,
    the score after each, and the seats that moved."""
    state = engine.initial_state(setup)
    actions, texts, scores, seats = [], [], [], set()
    while not engine.is_terminal(state):
        legal = engine.legal_actions(state)
        action = legal[int(rng.integers(len(legal)))]
        texts.append(notation.action_text(state, action))
        seats.add(engine.to_move(state))
        assert engine.apply(state, action) == OK
        actions.append(action)
        scores.append(engine.score(state))
    return actions, texts, scores, seats


def plain(value):
    """A score as the store's JSON gives it back (tuples as lists, numpy numbers as numbers)."""
    return json.loads(json.dumps(value, default=lambda v: v.item() if hasattr(v, "item") else list(v)))


@pytest.mark.parametrize("game_id", registry.game_ids())
def test_a_random_game_round_trips_through_the_protocols(game_id, store):
    round_trip(registry.get_game(game_id), store)


def test_a_game_registered_later_round_trips(store):
    """The toy game registered from the tests, through the same round trip: it writes its
    move grammar once (``action_text``), and its games, canonical text and steps use it."""
    game = registry.register_game("tests.toy_game", engine="tests.toy_game.game", records="tests.toy_game.records",
                                  analysis="tests.toy_game.analysis")
    try:
        round_trip(game, store)
    finally:
        registry.unregister_game(game.id)


def round_trip(game, store) -> None:
    game_id = game.id
    engine, notation = game.engine, game.notation
    for k, options in enumerate(option_sets(game)):
        rng = np.random.default_rng(100 + k)
        setup = engine.new_game(rng, options)
        actions, texts, scores, seats = random_game(engine, notation, setup, rng)
        players = NAMES[:max(max(seats) + 1, game.info.players.min)]
        text = notation.write_game(setup, actions, players, {"Event": f"round trip {k}"})

        out = ingest_text(store, text, f"{game_id}-{k}.pgn")[0]
        assert out["status"] == "ingested", (options, out)
        expected = plain(scores[-1])
        if "players" in expected:  # the engine's state knows seats, not names (Tsuro's score names them)
            expected["players"] = players
        assert out["score"] == expected, options

        stored = store.get(out["id"])["text"]
        record = notation.read_pgn(stored, STRICT)[0]
        assert notation.players(record) == players
        (first_setup, steps), = notation.games(record)
        assert len(steps) == len(actions), options
        for ply, (step, written) in enumerate(zip(steps, texts), 1):
            assert written in step.move, (options, ply, written, step.move)
        walk = Replay(engine, first_setup)
        for ply, (step, score) in enumerate(zip(steps, scores), 1):
            walk.play(step.action)
            assert plain(engine.score(walk.state)) == plain(score), (options, ply)
        assert notation.canonical(record, STRICT).text == stored

