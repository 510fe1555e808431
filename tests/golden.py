"""Shared by the games' golden tests: ingest a sample record of the project, check its id and
score, and export it in every format its game writes and read it back as the same record."""
from __future__ import annotations

from scorebook import registry
from scorebook.errors import UsageError
from scorebook.records.export import export_record
from scorebook.records.ingest import ingest_file, ingest_text

from .conftest import SAMPLES


def golden_check(store, path: str, index: int, record_id: str) -> dict:
    """The outcome of the record ``index`` of a sample file, checked to be ``record_id``,
    ingested, and stable through every export."""
    outcomes = ingest_file(store, str(SAMPLES / path))
    out = outcomes[index - 1]
    assert (out["status"], out["index"], out["id"]) == ("ingested", index, record_id), out
    row = store.get(record_id)
    for fmt in registry.get_game(row["game"]).info.formats.write:
        try:
            text, dropped = export_record(row, fmt)
        except UsageError as err:  # a format that holds finished games only
            assert not out["finished"] and "finished" in str(err), (fmt, err)
            continue
        again = ingest_text(store, text, f"export.{fmt}")
        if not dropped:
            assert [o["status"] for o in again] == ["duplicate"], (fmt, again)
        assert again[0]["score"] == out["score"], fmt
    return out
