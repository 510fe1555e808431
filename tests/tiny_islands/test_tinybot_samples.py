"""The 4 published TinyBot records: replay, recorded breakdowns, round trips, ingest."""
from __future__ import annotations

from scorebook.engines.tiny_islands.metadata import CATEGORIES
from scorebook.records import tinybot, tiny_islands
from scorebook.records.ingest import ingest_text

from ..conftest import cli_json, shared_file
from .conftest import TINYBOT_SAMPLES


def test_every_sample_replays_to_its_recorded_breakdown(tinybot_sample_lines):
    assert len(tinybot_sample_lines) == 4
    for n, line in enumerate(tinybot_sample_lines, 1):
        record = tinybot.parse_line(line, n)
        result = tiny_islands.replay(record)
        assert set(record.recorded) == set(CATEGORIES)
        assert result.score == record.recorded, f"line {n}"
        assert tiny_islands.score_mismatch(record, result) is None


def test_sample_facts_from_the_spec(tinybot_sample_lines):
    records = [tinybot.parse_line(l, n) for n, l in enumerate(tinybot_sample_lines, 1)]
    results = [tiny_islands.replay(r) for r in records]
    sizes = [[int(res.regions[d].sum()) for d in range(3)] for res in results]
    # original line 7: drawing 2 a one-cell island (i6), drawing 3 twelve cells
    assert sizes[0][1] == 1 and sizes[0][2] == 12
    assert tiny_islands.cell_name(int(results[0].regions[1].nonzero()[0][0])) == "i6"
    # original line 9: an early one-cell lake as drawing 2, a bare "c3" token
    assert sizes[1][1] == 1 and records[1].drawings[1].visits is None
    assert results[1].land[tiny_islands.parse_cell("c3")] == False  # noqa: E712 (lake)
    # original line 11: drawing 3 chosen among 15 tied ":1" alternatives
    assert sizes[2][2] == 1 and records[2].drawings[2].visits[0].count(":1") == 15
    # none of them uses a surrounding drawing; all four fit the real one-deck pattern
    assert not any(res.indirect.any() for res in results)
    assert [res.deck for res in results] == ["one-deck"] * 4


def test_tinybot_line_round_trips_through_both_formats(tinybot_sample_lines):
    for n, line in enumerate(tinybot_sample_lines, 1):
        record = tinybot.parse_line(line, n)
        assert tinybot.write_line(record) == line
        text = tiny_islands.write_pgn(record)
        again = tiny_islands.parse_pgn(text)[0]
        assert tiny_islands.write_pgn(again) == text
        assert tinybot.write_line(again) == line
        assert tiny_islands.replay(again).score == record.recorded


def test_samples_ingest_then_are_duplicates(store, tinybot_sample_lines):
    text = "\n".join(tinybot_sample_lines) + "\n"
    first = ingest_text(store, text, "samples.txt")
    assert [o["status"] for o in first] == ["ingested"] * 4
    assert all(o["score"] == o["recorded"] for o in first)
    assert [o["index"] for o in first] == [1, 2, 3, 4]
    second = ingest_text(store, text, "samples.txt")
    assert [o["status"] for o in second] == ["duplicate"] * 4
    assert store.count() == 4
    rules = {r["rules"] for r in store.list()}
    assert rules == {"tinybot"}


def test_cli_ingest_json_contract(run_cli):
    path = str(shared_file(TINYBOT_SAMPLES))
    doc = cli_json(run_cli("ingest", path, "--json"))
    assert doc["summary"] == {"ingested": 4, "duplicates": 0, "rejected": 0}
    for rec in doc["records"]:
        assert rec["status"] == "ingested" and rec["game"] == "tiny-islands"
        assert rec["score"] == rec["recorded"]
        assert list(rec["score"]) == list(CATEGORIES)
