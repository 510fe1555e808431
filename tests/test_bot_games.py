"""A bot's game, for every registered game: its play keeps the states it walked through, and
the notation writes the record from them (``write_walked``) without walking the game again;
reading the record back (ingest) walks each of its games once. A game whose bots are jitted
whole games that return their moves alone (Tiny Islands) keeps no states: its writer walks
the game once, at once. Nothing here names a game."""
from __future__ import annotations

import pytest

from scorebook import registry
from scorebook.errors import STRICT
from scorebook.records import replay
from scorebook.records.ingest import ingest_text
from scorebook.records.play import Match, parse_bots, play_options, play_task, player_names

SMALL = {"grid": 5}  # a small Game of Islands grid keeps the game quick


def _cheap_match(game: registry.Game) -> Match:
    """The first bot the game declares (at its least setting) in every seat of a game of the
    fewest players it takes, two where it takes two."""
    bot = game.info.bots[0]
    spec = bot.name + (f":{bot.min}" if bot.argument else "")
    seats = max(game.info.players.min, min(2, game.info.players.max))
    specs = [spec] * seats
    options = play_options(game, {k: v for k, v in SMALL.items() if k in {o.name for o in game.info.play_options}})
    return Match(game.id, tuple(parse_bots(game, specs)), tuple(player_names(specs)), options, 3)


@pytest.mark.parametrize("game_id", registry.game_ids())
def test_a_bot_game_is_walked_when_played_and_when_read_back_not_to_be_written(game_id, store, monkeypatch):
    game = registry.get_game(game_id)
    walks, applied, plays = [], [], []
    original_init, original_apply, original_play = replay.Replay.__init__, type(game.engine).apply, \
        type(game.engine).play

    def counting_init(self, engine, setup, kept_in=None):
        walks.append(self)
        original_init(self, engine, setup, kept_in)
    monkeypatch.setattr(replay.Replay, "__init__", counting_init)
    monkeypatch.setattr(type(game.engine), "apply", lambda self, s, a: applied.append(a) or original_apply(self, s, a))
    monkeypatch.setattr(type(game.engine), "play", lambda self, *args: plays.append(original_play(self, *args))
                        or plays[-1])
    match = _cheap_match(game)
    text = play_task((match, 0, None))["text"]
    played = plays[-1]
    if played.states:
        assert walks == [] and applied == [], "the writer walked a game whose play kept its states"
    else:
        assert len(walks) == 1  # the writer's one walk, at once
    games_of_record = len(game.notation.games(game.notation.read_pgn(text, STRICT)[0]))
    walks.clear()
    visitor, compiled = type(game.notation.visitor(STRICT)), []
    read_compiled = visitor.read_compiled
    monkeypatch.setattr(visitor, "read_compiled", lambda self, games: compiled.append(read_compiled(self, games))
                        or compiled[-1])
    outcome = ingest_text(store, text, "bot game", "pgn")[0]
    assert outcome["status"] == "ingested", outcome
    if any(r is not None for r in compiled):  # read back by one compiled call, which replays it: no walk besides
        assert len(walks) <= games_of_record
    else:
        assert len(walks) == games_of_record  # read back: each game walked once


@pytest.mark.parametrize("game_id", registry.game_ids())
def test_every_game_writes_its_bot_games_by_its_one_writer(game_id, monkeypatch):
    """No game writes its bot games its own way: the shared ``write_played`` hands the actions
    and states the play kept to the game's ``write_walked``, the one writer of any game."""
    from scorebook.records.notation import Notation
    game = registry.get_game(game_id)
    assert type(game.notation).write_played is Notation.write_played
    calls = []
    original = type(game.notation).write_walked
    monkeypatch.setattr(type(game.notation), "write_walked",
                        lambda self, *args: calls.append(args) or original(self, *args))
    text = play_task((_cheap_match(game), 0, None))["text"]
    assert len(calls) == 1 and text == original(game.notation, *calls[0])
