"""A toy game registered from the tests (tests/toy_game: its game.json, engine, notation and
analysis, and one registration) goes through ingest, show, export, play and analyze: the
protocol of every layer is complete, and a new game needs nothing else."""
from __future__ import annotations

import pytest

from scorebook import registry

from .conftest import cli_json

GAME = "count-to-ten"
RECORD = """[Game "count-to-ten"]
[First "Ann"]
[Second "Bob"]
[Result "1-0"]

1. +1 +2 2. +1 +2 3. +1 +2 4. +1 1-0
"""
# Ann's first +2 leaves 8 to go, not a multiple of three (+1 was the winning move); Bob then
# plays perfectly and wins
BLUNDERED = RECORD.replace("[Result \"1-0\"]", "[Result \"0-1\"]").replace(
    "1. +1 +2 2. +1 +2 3. +1 +2 4. +1 1-0", "1. +2 +2 2. +1 +2 3. +1 +2 0-1")


@pytest.fixture
def toy():
    game = registry.register_game("tests.toy_game", engine="tests.toy_game.game", records="tests.toy_game.records",
                                  analysis="tests.toy_game.analysis")
    yield game
    registry.unregister_game(game.id)


def test_ingest_show_export_through_the_registry(toy, run_cli):
    doc = cli_json(run_cli("ingest", "-", "--json", input=RECORD))
    out = doc["records"][0]
    assert out["status"] == "ingested" and out["game"] == GAME
    assert out["score"] == {"total": 10, "winner": 0} and out["recorded"] == {"result": "1-0"}
    rid = out["id"]
    shown = cli_json(run_cli("show", rid, "--json"))
    assert [m["state"]["total"] for m in shown["moves"]] == [1, 3, 4, 6, 7, 9, 10]
    assert "total 10 of 10" in run_cli("show", rid).output
    exported = run_cli("export", rid).output
    assert exported == RECORD
    again = cli_json(run_cli("ingest", "-", "--json", input=exported))
    assert again["records"][0]["status"] == "duplicate"
    listed = cli_json(run_cli("list", "--game", GAME, "--json"))["records"]
    assert [r["players"] for r in listed] == [["Ann", "Bob"]]


def test_rejections_carry_the_engines_codes(toy, run_cli):
    cases = {"1. +1 +3": ("not-a-step", 2), "1. +1 +x": ("bad-token", 2), "1. +2 +2 2. +2 +2 3. +1 +2": ("past-the-target", 6)}
    for moves, (code, ply) in cases.items():
        text = RECORD.replace("1. +1 +2 2. +1 +2 3. +1 +2 4. +1 1-0", moves + " *")
        doc = cli_json(run_cli("ingest", "-", "--json", input=text))
        err = doc["records"][0]["errors"][0]
        assert (err["code"], err["ply"]) == (code, ply), (moves, err)
    wrong = RECORD.replace("[Result \"1-0\"]", "[Result \"0-1\"]").replace(" 1-0\n", " 0-1\n")
    assert cli_json(run_cli("ingest", "-", "--json", input=wrong))["records"][0]["errors"][0]["code"] == "score-mismatch"
    kept = cli_json(run_cli("ingest", "-", "--json", "--lenient", input=wrong))["records"][0]
    assert kept["status"] == "ingested" and "score-mismatch" in kept["warnings"][0]


def test_play_and_analyze(toy, run_cli):
    doc = cli_json(run_cli("play", GAME, "--players", "perfect,random", "--games", "4", "--seed", "1", "--json"))
    assert [g["status"] for g in doc["games"]] == ["ingested"] * 4
    # perfect moves first in games 1 and 3 (seats rotate) and then always wins
    assert [g["players"][0] for g in doc["games"]] == ["perfect", "random", "perfect", "random"]
    assert doc["games"][0]["value"] == doc["games"][2]["value"] == 1
    assert doc["summary"]["wins"] >= 2 and doc["mean"] == sum(g["value"] for g in doc["games"]) / 4
    rid = cli_json(run_cli("ingest", "-", "--json", input=BLUNDERED))["records"][0]["id"]
    report = cli_json(run_cli("analyze", rid, "--json"))
    assert report["bot"] == "perfect depth:10"
    losses = [m["loss"] for m in report["moves"]]
    assert losses[0] == 2.0 and report["moves"][0]["class"] == "blunder"  # Ann's 1. +2 handed over the game
    assert report["moves"][0]["best"] == "+1" and sum(losses) == 2.0
    assert report["summary"]["Bob"]["accuracy"] == 100.0
    batch = cli_json(run_cli("analyze", "--all", "--json", "--jobs", "1"))
    assert batch["errors"] == [] and len(batch["analyses"]) == 4  # the played games; the blunder is done


def test_an_unregistered_game_is_one_clear_error(toy, run_cli):
    registry.unregister_game(GAME)
    out = cli_json(run_cli("ingest", "-", "--json", input=RECORD))["records"][0]
    assert out["errors"][0]["code"] == "unsupported-game" and "not a known game" in out["errors"][0]["message"]
    result = run_cli("play", GAME, "--players", "perfect,random")
    assert result.exit_code == 2 and "unknown game" in result.output
