"""The game registry: every game's declaration is checked when loaded, every layer finds a
game through it, and an unknown or unbuilt game is one clear error, never a fall-through."""
from __future__ import annotations

import json
from importlib import resources

import pytest
from hypothesis import given, settings, strategies as st

from scorebook import registry
from scorebook.errors import UnknownGame

from .conftest import cli_json


def _declaration(game_id: str) -> dict:
    package = registry.get_game(game_id).engine_module.rsplit(".", 1)[0]
    return json.loads(resources.files(package).joinpath("game.json").read_text())


@pytest.mark.parametrize("game", registry.game_ids())
def test_every_game_declares_itself_once(game):
    g = registry.get_game(game)
    assert g.info.id == game and g.info.players.min >= 1 and g.info.bots
    # the three modules the registration names are there, with their protocol objects
    assert g.engine.game_id == g.notation.game_id == g.analysis.game_id == game
    # each foreign format it reads is its own module's FORMAT, under the name it declares
    assert {f: fmt.name for f, fmt in g.formats.items()} == {f: f for f in g.info.formats.read if f != "pgn"}
    # every analysis option and threshold is data, and the bot name covers them
    assert g.analysis.bot_name(dict(g.info.analysis.options))
    # a game's standings are declared where they are found without loading its code
    assert g.info.analysis.tournaments == (g.tournament is not None)


@pytest.mark.parametrize("change, complaint", [
    (lambda d: d["game"].pop("players"), "missing players"),
    (lambda d: d["game"].update(chance="yes"), "game.chance: 'yes': Input should be a valid boolean"),
    (lambda d: d["game"]["bots"][1].update(min="1"), "game.bots.1.min: '1': Input should be a valid integer"),
    (lambda d: d["game"].update(colour="red"), "unknown key(s) colour"),
    (lambda d: d["game"]["formats"].update(write=["pgn", "sgf"]), "writes only formats it reads"),
    (lambda d: d["game"]["players"].update(min=3, max=2), "1 <= min <= max"),
    (lambda d: d["game"]["analysis"].update(scale="odds"), "scale must be one of margin, share, score"),
])
def test_a_wrong_declaration_is_refused(change, complaint):
    data = _declaration("game-of-islands")
    change(data)
    with pytest.raises(ValueError, match=complaint.replace("(", r"\(").replace(")", r"\)")):
        registry.load_info(data, "game.json")


def test_unknown_and_planned_games(monkeypatch):
    """Every game of the CLI contract is built now (others may join them); a planned one would be
    refused as such."""
    assert {"tiny-islands", "game-of-islands", "iwoki", "patchwork", "tsuro"} <= set(registry.game_ids())
    monkeypatch.setitem(registry.PLANNED, "go", "Go")
    with pytest.raises(UnknownGame, match="unknown game 'chess'"):
        registry.get_game("chess")
    with pytest.raises(UnknownGame, match="not supported yet") as err:
        registry.get_game("go")
    assert err.value.planned


def test_the_cli_refuses_unknown_games(run_cli, monkeypatch):
    monkeypatch.setitem(registry.PLANNED, "go", "Go")
    for args in (["play", "chess", "--players", "a,b"], ["list", "--game", "chess"]):
        result = run_cli(*args)
        assert result.exit_code == 2 and "unknown game 'chess'" in result.output
    doc = cli_json(run_cli("ingest", "-", "--json", input='[Game "chess"]\n\n1. e4 *\n'))
    err = doc["records"][0]["errors"][0]
    assert (err["code"], err["line"], err["column"], err["token"]) == ("unsupported-game", 1, 1, "chess")
    for planned in registry.PLANNED:
        doc = cli_json(run_cli("ingest", "-", "--json", input=f'[Game "{planned}"]\n\n*\n'))
        assert "not supported yet" in doc["records"][0]["errors"][0]["message"]


def test_formats_are_found_by_their_games_patterns():
    from scorebook.records.formats import detect_format
    owners = {fmt: registry.format_owner(fmt).id for fmt in registry.formats()[1:]}
    assert len(owners) == len(set(owners)) and owners  # each foreign format belongs to one game
    assert detect_format('{"kind":"header"}\n') == registry.detect_foreign('{"kind":"header"}')
    assert detect_format("[Event \"x\"]\n") == "pgn" and detect_format("hello\n") is None


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["\n", " ", "\t", "\r", "\u3000", ";", "[", "{", "x", "1.", '"'])).map("".join))
def test_a_format_is_found_by_reading_only_the_first_lines(text):
    """What detection reads a line at a time (``_lines``) and its test for a blank text
    (``blank``) are what splitting and stripping the whole text gave."""
    from scorebook.records.formats import _lines, blank
    assert list(_lines(text)) == text.split("\n")
    assert blank(text) == (not text.strip())
