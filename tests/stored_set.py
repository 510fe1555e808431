"""What the project's samples give, to compare with a stored set made by an earlier commit
(``tests/data/stored-set.json``): each record's id (the hash of its canonical text), the
SHA-256 of each export, and of a cheap analysis's numbers. Imports only ``scorebook``, so
that an older checkout's package can make the set (see ``python tests/stored_set.py --help``)."""
from __future__ import annotations

import hashlib
import json
import sys
import tempfile
from pathlib import Path

SAMPLES = Path(__file__).resolve().parent.parent / "samples"


def cheap(options) -> str:
    """Every analysis option at 1: the fastest analysis each game takes."""
    return ",".join(f"{name}:1" for name in options)


def outputs(folder: str = "") -> dict:
    """The outputs of every sample, or of those under ``samples/folder`` (a game's)."""
    from scorebook import registry
    from scorebook.analyze.run import analyze_one
    from scorebook.records.export import export_record
    from scorebook.records.ingest import ingest_file
    from scorebook.records.store import Store
    from scorebook.errors import UsageError
    store = Store(tempfile.mkdtemp() + "/set.db")
    out = {}
    for path in sorted(p for p in (SAMPLES / folder).rglob("*") if p.is_file() and p.suffix != ".json"):
        for outcome in ingest_file(store, str(path)):
            if outcome["status"] != "ingested":
                continue
            row = store.get(outcome["id"])
            game = registry.get_game(row["game"])
            exports = {}
            for fmt in game.info.formats.write:
                try:
                    text, _ = export_record(row, fmt)
                except UsageError:
                    continue
                exports[fmt] = hashlib.sha256(text.encode()).hexdigest()
            report = analyze_one(store, row["id"], cheap(game.info.analysis.options), 7)
            numbers = json.dumps([[m["best"], m["value_best"], m["value_played"], m["loss"], m["stderr"]]
                                  for m in report["moves"]])
            out[row["id"]] = {"sample": str(path.relative_to(SAMPLES)), "exports": exports,
                              "analysis": hashlib.sha256(numbers.encode()).hexdigest()}
    return out


if __name__ == "__main__":
    if sys.argv[1:2] != ["--print"]:
        raise SystemExit("python tests/stored_set.py --print: the set this checkout's package makes, as JSON "
                         "(run it with an older checkout's package first on the path to make the stored set)")
    print(json.dumps(outputs(), indent=1, sort_keys=True))
