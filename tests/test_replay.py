"""The one replay walk (``records/replay.py``): every game's records walk through its engine's
protocol, move for move as its reader read them, and a move the rules refuse is raised at the
place it was written with the engine's code and reason."""
from __future__ import annotations

import pickle

import pytest

from scorebook import registry
from scorebook.errors import STRICT, IllegalMove
from scorebook.records.formats import read_text
from scorebook.records.replay import Place, Replay

from .conftest import SAMPLES


def _records(game: str) -> list:
    found = []
    for path in sorted((SAMPLES / game).rglob("*")):
        if path.is_file():
            found += [i.record for i in read_text(path.read_text(), str(path)) if i.error is None and i.game == game]
    return found


@pytest.mark.parametrize("game", registry.game_ids())
def test_every_sample_walks_through_its_engine(game):
    """As many positions as the record has moves, each the engine's own after the move: the
    walk's last state scores as the reader's replay did (the same score rows)."""
    notation, engine = registry.get_game(game).notation, registry.get_game(game).engine
    records = _records(game)
    if not records:
        pytest.skip(f"no sample records of {game} in samples/")
    for record in records:
        canonical = notation.canonical(record, STRICT)
        positions = notation.trace(record).positions
        assert len(positions) == len(canonical.moves)
        assert [(p.game, p.ply) for p in positions] == [(m[0], m[1]) for m in canonical.moves]
        for number, (setup, steps) in enumerate(notation.games(record), 1):
            walk = Replay(engine, setup)
            for step in steps:
                walk.play(step.action)
            assert walk.ply == sum(1 for m in canonical.moves if m[0] == number)


@pytest.mark.parametrize("game", registry.game_ids())
def test_a_refused_move_is_raised_at_its_place_with_the_engines_reason(game):
    """A move played again where the rules forbid it (a tile no longer in hand, a line through
    used dots, a patch bought twice): IllegalMove at the place given, the next ply, the
    engine's code name and its reason in words."""
    notation, engine = registry.get_game(game).notation, registry.get_game(game).engine
    records = _records(game)
    if not records:
        pytest.skip(f"no sample records of {game} in samples/")
    setup, steps = notation.games(records[0])[0]
    for k in range(len(steps)):
        walk = Replay(engine, setup)
        for step in steps[:k + 1]:
            walk.play(step.action)
        state_before = pickle.dumps(walk.state)
        try:
            walk.play(steps[k].action, Place(line=7, column=3, token="again"))
        except IllegalMove as err:
            assert (err.line, err.column, err.token, err.ply) == (7, 3, "again", k + 2)
            assert err.code in {engine.code_name(c) for c in range(64) if _named(engine, c)}
            assert err.message and err.message != "illegal move"
            assert pickle.dumps(walk.state) == state_before  # a refusal changes nothing
            assert walk.ply == k + 1
            return
    pytest.fail(f"no move of {game}'s first sample is refused when played again")


def _named(engine, code: int) -> bool:
    try:
        return bool(engine.code_name(code))
    except (KeyError, IndexError):
        return False


def test_a_move_written_in_parts_is_refused_at_the_part_the_engine_names():
    """A Game of Islands turn is its line and the dots it claims, each written at its own
    place: the walk points a refusal at the part the engine refuses (``refused_part``), a
    claim after a legal line at that claim's place, and leaves the grid as it was."""
    engine = registry.get_game("game-of-islands").engine
    walk = Replay(engine, {"grids": [10]})
    places = [Place(1, 4, "I1-J2"), Place(1, 11, "J1"), Place(1, 15, "A5")]
    with pytest.raises(IllegalMove) as refused:  # J1 is an island once I1-J2 is drawn; A5 is not
        walk.play(("line", (8, 0, 9, 1), (9, 40)), places)
    assert (refused.value.code, refused.value.column, refused.value.token) == ("claim-not-island", 15, "A5")
    assert "A5" in refused.value.message
    with pytest.raises(IllegalMove) as refused:  # the line itself: its place, the turn's first
        walk.play(("line", (8, 0, 9, 2), (9, 0)), places)
    assert (refused.value.code, refused.value.column) == ("not-straight", 4)
    walk.play(("line", (8, 0, 9, 1), (9,)), places)
    assert walk.ply == 1 and int(walk.state.owner[9]) == 0
