"""Let bots play and keep their games as records (through the normal ingest path).

>>> from records.store import Store
>>> games = play_tiny_islands(Store(":memory:"), "random", games=2, seed=5)
>>> [g["status"] for g in games]
['ingested', 'ingested']
"""
from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from engines.tiny_islands.deck import offers_for
from engines.tiny_islands.players import random_game

from . import tiny_islands
from .errors import UsageError
from .formats import read_text
from .ingest import ingest_text
from .store import Store

TINY_ISLANDS_BOTS = {"random": random_game}


def shuffles_from(text: str, source: str) -> list[np.ndarray]:
    """Deck orders (offers) of every readable Tiny Islands record in a file."""
    out = []
    for item in read_text(text, source):
        if item.record is None or item.game != tiny_islands.GAME:
            raise UsageError(f"{source}: record {item.index} gives no shuffle"
                             + (f" ({item.error.describe()})" if item.error else ""))
        rec = item.record
        if len(rec.offers) != tiny_islands.TURNS:
            raise UsageError(f"{source}: record {item.index} is unfinished and gives no full shuffle")
        out.append(np.array([[o.tile1, o.zone1, o.tile2, o.zone2] for o in rec.offers], np.int64))
    return out


def play_tiny_islands(store: Store, bot: str, *, games: int = 1, seed: int = 0, deck: str = "two-deck",
                      rules: str = "published", shuffles: list[np.ndarray] | None = None,
                      out_dir: str | None = None, progress=None) -> list[dict]:
    """Play ``games`` games (one per shuffle when ``shuffles`` is given); store each record."""
    if bot not in TINY_ISLANDS_BOTS:
        raise UsageError(f"unknown Tiny Islands bot {bot!r}; choose one of {', '.join(TINY_ISLANDS_BOTS)}")
    player = TINY_ISLANDS_BOTS[bot]
    count = len(shuffles) if shuffles is not None else games
    results = []
    player(offers_for(deck, np.random.default_rng(0)), 0)  # load the compiled bot before timing
    for g in range(count):
        rng = np.random.default_rng([seed, g])
        offers = shuffles[g] if shuffles is not None else offers_for(deck, rng)
        start = time.perf_counter()
        # the bot gets the whole array but reads offers[t] only at turn t (see players.py)
        placements, traces, lens = player(offers, int(rng.integers(2**31)))
        seconds = time.perf_counter() - start
        record = tiny_islands.from_arrays(offers, placements, traces, lens, rules=rules,
                                          deck=None if shuffles is not None else deck,
                                          tags={"Event": f"scorebook play seed {seed}", "Round": str(g + 1),
                                                "Player": bot})
        result = tiny_islands.replay(record)
        record.recorded = result.score if record.finished else None
        text = tiny_islands.write_pgn(record, result)
        source = f"play:{bot}:seed={seed}:game={g + 1}"
        if out_dir:
            path = Path(out_dir) / f"tiny-islands-{bot}-s{seed}-{g + 1:04d}.pgn"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
            source = str(path)
        outcome = ingest_text(store, text, source, "pgn")[0]
        outcome["seconds"] = round(seconds, 4)
        results.append(outcome)
        if progress:
            progress(1)
    return results
