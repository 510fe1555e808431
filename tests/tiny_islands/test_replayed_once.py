"""A Tiny Islands record is replayed once: its canonical text, its steps, its score and its
TinyBot line all read the replay ``tiny_islands.replayed`` keeps on the record."""
from __future__ import annotations

from pathlib import Path

from scorebook.errors import STRICT
from scorebook.records import tinybot, tiny_islands

SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "tiny-islands" / "random-games.tinybot.txt"


def test_every_reader_of_a_record_takes_its_one_replay(monkeypatch):
    calls = []
    original = tiny_islands.replay
    monkeypatch.setattr(tiny_islands, "replay", lambda record: calls.append(record) or original(record))
    notation = tiny_islands.NOTATION
    for n, line in enumerate(SAMPLE.read_text().splitlines()[:3], 1):
        record = tinybot.parse_line(line, n)  # TinyBot's traces: the regions come from the replay
        calls.clear()
        canonical = notation.canonical(record, STRICT)
        steps = notation.games(record)[0][1]
        written = tinybot.write_line(record)
        assert notation.replayed_score(record, []) == canonical.score
        assert len(calls) == 1, f"line {n} replayed {len(calls)} times"
        assert written == line.rstrip()  # what the one replay gave is what the record is
        assert [s.action[0] for s in steps].count("draw") == len(record.drawings)
