"""A record's positions are walked once and carried (``Trace``): an analysis and its report
read the same positions, so no judge may change them (a judge that searched on the board it
was handed spoilt the next analysis); a command reads and walks a stored record once."""
from __future__ import annotations

import dataclasses

import pickle

import pytest

from scorebook import registry
from scorebook.analyze.run import analyze_one, trace_of
from scorebook.errors import STRICT

from .conftest import SAMPLES


def _first_sample(game: str):
    for path in sorted((SAMPLES / game).rglob("*.pgn")):
        return path
    return None


@pytest.mark.slow
@pytest.mark.parametrize("game", registry.game_ids())
def test_analyses_leave_the_shared_positions_as_they_found_them(game, store):
    path = _first_sample(game)
    if path is None:
        pytest.skip(f"no sample of {game} in samples/")
    from scorebook.records.ingest import ingest_text
    outcome = ingest_text(store, path.read_text(), path.name)[0]
    if outcome["status"] != "ingested":
        pytest.skip(f"{path.name}: {outcome}")
    trace = trace_of(store.get(outcome["id"]))
    before = pickle.dumps(trace.positions)
    # the cheapest settings the game takes: every option 1
    cheap = ",".join(f"{name}:1" for name in registry.get_game(game).info.analysis.options)
    first = analyze_one(store, outcome["id"], cheap, 3, trace=trace)
    assert pickle.dumps(trace.positions) == before
    again = analyze_one(store, outcome["id"], cheap, 3, force=True, trace=trace)
    assert [m["loss"] for m in again["moves"]] == [m["loss"] for m in first["moves"]]


@pytest.mark.parametrize("game", registry.game_ids())
def test_a_stored_record_is_walked_once_its_reader_walk_gives_the_positions(game, store, monkeypatch):
    """A stored record's trace comes from its reader's own walk (the check): the same
    positions as a walk of their own, and no second walk where the reader walked."""
    from scorebook.records import replay
    from scorebook.records.ingest import ingest_text
    path = _first_sample(game)
    if path is None:
        pytest.skip(f"no sample of {game} in samples/")
    outcome = ingest_text(store, path.read_text(), path.name)[0]
    notation = registry.get_game(game).notation
    row = store.get(outcome["id"])
    record = notation.read_pgn(row["text"], STRICT)[0]
    walked, refused = notation.walk(record, notation.games(record))  # a walk of its own
    assert refused is None
    fresh = notation.finish_positions(record, walked)
    walks = []
    original = replay.Replay.__init__

    def counting(self, engine, setup, kept_in=None):
        walks.append(self)
        original(self, engine, setup, kept_in)
    monkeypatch.setattr(replay.Replay, "__init__", counting)
    notation.read_pgn(row["text"], STRICT)
    read_walks = len(walks)
    walks.clear()
    trace = trace_of(row)
    # the same positions, the reader's walk adding where each move is written
    assert pickle.dumps([dataclasses.replace(p, place=None) for p in trace.positions]) == \
        pickle.dumps([dataclasses.replace(p, place=None) for p in fresh])
    assert all(p.place is not None for p in trace.positions)
    assert trace.players == notation.players(record)
    # walked again only where reading did not walk (a Tiny Islands reader only parses), once a game
    assert len(walks) == (read_walks or len(notation.games(record)))


def test_analyze_with_its_report_reads_and_walks_the_record_once(tmp_path, monkeypatch):
    """``analyze ID --html``: the table's names, the analysis and the page take one trace."""
    from click.testing import CliRunner

    from scorebook.cli.main import main
    from scorebook.records import notation as notation_module
    path = _first_sample("patchwork")
    db = str(tmp_path / "a.db")
    runner = CliRunner()
    assert runner.invoke(main, ["ingest", str(path), "--db", db]).exit_code == 0
    rid = runner.invoke(main, ["list", "--db", db, "--json"]).output.split('"id": "')[1].split('"')[0]
    reads = []
    original = notation_module.Notation.read_trace
    monkeypatch.setattr(notation_module.Notation, "read_trace",
                        lambda self, text: reads.append(text) or original(self, text))
    result = runner.invoke(main, ["analyze", rid, "--db", db, "--bot", "effort:1,playouts:1",
                                  "--html", str(tmp_path / "r.html")])
    assert result.exit_code == 0, result.output
    assert len(reads) == 1


@pytest.mark.parametrize("game", registry.game_ids())
def test_a_trace_carries_each_games_setup_its_moves_replay_from(game, store):
    """The trace's setups are where its engine starts each game: its moves, played from them,
    end where the record's own games, walked from the setups it reads, end."""
    from scorebook.records.ingest import ingest_text
    from scorebook.records.replay import Replay
    path = _first_sample(game)
    if path is None:
        pytest.skip(f"no sample of {game} in samples/")
    row = store.get(ingest_text(store, path.read_text(), path.name)[0]["id"])
    game_of = registry.get_game(game)
    trace = trace_of(row)
    read = game_of.notation.games(trace.record)
    assert len(trace.setups) == len(read)
    for number, (setup, (own_setup, steps)) in enumerate(zip(trace.setups, read), 1):
        walk, own = Replay(game_of.engine, setup), Replay(game_of.engine, own_setup)
        for position in (p for p in trace.positions if p.game == number):
            walk.play(position.action)
        for step in steps:
            own.play(step.action)
        assert game_of.engine.is_terminal(walk.state) == game_of.engine.is_terminal(own.state)
        assert game_of.engine.score(walk.state) == game_of.engine.score(own.state)
