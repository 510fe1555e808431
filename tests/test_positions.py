"""A record's positions are walked once and shared: an analysis and its report, or two
analyses of the same record in one process, read the same positions, so no judge may change
them (a judge that searched on the board it was handed spoilt the next analysis)."""
from __future__ import annotations

import pickle

import pytest

from scorebook import registry
from scorebook.analyze.run import analyze_one, record_of
from scorebook.errors import STRICT

from .conftest import SAMPLES


def _first_sample(game: str):
    for path in sorted((SAMPLES / game).rglob("*.pgn")):
        return path
    return None


@pytest.mark.parametrize("game", registry.game_ids())
def test_analyses_leave_the_shared_positions_as_they_found_them(game, store):
    path = _first_sample(game)
    if path is None:
        pytest.skip(f"no sample of {game} in samples/")
    from scorebook.records.ingest import ingest_text
    outcome = ingest_text(store, path.read_text(), path.name)[0]
    if outcome["status"] != "ingested":
        pytest.skip(f"{path.name}: {outcome}")
    notation = registry.get_game(game).notation
    record = record_of(store.get(outcome["id"]))
    before = pickle.dumps(list(notation.positions(record)))
    # the cheapest settings the game takes: every option 1
    cheap = ",".join(f"{name}:1" for name in registry.get_game(game).info.analysis.options)
    first = analyze_one(store, outcome["id"], cheap, 3)
    assert pickle.dumps(list(notation.positions(record))) == before
    again = analyze_one(store, outcome["id"], cheap, 3, force=True)
    assert [m["loss"] for m in again["moves"]] == [m["loss"] for m in first["moves"]]


@pytest.mark.parametrize("game", registry.game_ids())
def test_a_stored_record_is_walked_once_its_reader_walk_gives_the_positions(game, store, monkeypatch):
    """``show`` and ``analyze`` read a stored record (its reader's walk is the check) and draw
    its positions from that same walk: the same positions as a walk of their own, and no
    second walk where the reader walked."""
    from scorebook.analyze import run
    from scorebook.records import replay
    from scorebook.records.ingest import ingest_text
    path = _first_sample(game)
    if path is None:
        pytest.skip(f"no sample of {game} in samples/")
    outcome = ingest_text(store, path.read_text(), path.name)[0]
    notation = registry.get_game(game).notation
    row = store.get(outcome["id"])
    fresh = pickle.dumps(list(notation.walk(notation.read_pgn(row["text"], STRICT)[0])))
    run._read_stored.cache_clear()
    walks = []
    original = replay.Replay.__init__

    def counting(self, engine, setup):
        walks.append(self)
        original(self, engine, setup)
    monkeypatch.setattr(replay.Replay, "__init__", counting)
    record = record_of(row)
    read_walks = len(walks)
    assert pickle.dumps(list(notation.positions(record))) == fresh
    assert len(walks) == read_walks or read_walks == 0  # walked again only where reading did not walk
