"""A realistic club archive, made up: the records ``benchmarks/scale.py`` ingests.

    python benchmarks/scale_archive.py OUT_DIR --records 100000 [--seed 1]

The five games in a club's mix (Tiny Islands 30%, Tsuro 25%, and 15% each of The Game of
Islands, Iwoki and two-player Patchwork), 3,000 players of whom a few play most of the games
(Zipf weights), dates over five years, half the records in weekly events with rounds, the rest
casual games; one file a game and month (PGN-style), plus TinyBot logs (one record a line)
for a tenth of the Tiny Islands games. Every record is a legal game: a pool of games played by
the random bots is dressed with players, dates and events, so each record's text, and so its
id, is its own, and ingest replays every one.
"""
from __future__ import annotations

import argparse
import random
import re
import sys
from datetime import date, timedelta
from itertools import accumulate
from pathlib import Path

MIX = [("tiny-islands", 0.30, 1), ("tsuro", 0.25, 0), ("game-of-islands", 0.15, 2), ("iwoki", 0.15, 2),
       ("patchwork", 0.15, 2)]  # (game, share, players; 0: two to six)
PLAYERS = 3000
POOL = 150  # games played per game and player count, dressed again and again
FIRST_DAY, DAYS = date(2021, 12, 1), 5 * 365
PLACEHOLDER = re.compile(r"\bPlyr([1-8])\b")


def played_pool(game_id: str, seats: int, count: int, seed: int, triads: bool = False) -> list[str]:
    """``count`` games of random bots, their players named Plyr1..PlyrN (``triads``: Game of
    Islands records of three games each, as events play them)."""
    from scorebook import registry
    from scorebook.records.play import Match, parse_bots, play_options, play_task
    game = registry.get_game(game_id)
    options = {"variant": "two-player"} if game_id == "patchwork" else {"triad": True} if triads else {}
    bots = tuple(parse_bots(game, ["random"] * seats))
    match = Match(game.id, bots, tuple(f"Plyr{i + 1}" for i in range(seats)), play_options(game, options), seed)
    setups = game.notation.fixed_setups(match.options)
    return [play_task((match, g, setups[g % len(setups)] if setups else None))["text"] for g in range(count)]


def tinybot_pool(count: int, seed: int) -> list[str]:
    """``count`` TinyBot log lines (Tiny Islands played by the random bot)."""
    import numpy as np

    from scorebook.engines.tiny_islands.deck import two_deck_offers
    from scorebook.engines.tiny_islands.players import random_game
    from scorebook.records import tiny_islands, tinybot
    lines = []
    for s in range(count):
        offers = two_deck_offers(np.random.default_rng([seed, s]))
        record = tiny_islands.from_arrays(offers, *random_game(offers, seed * 100003 + s), rules="tinybot")
        record.recorded = tiny_islands.replay(record).score
        lines.append(tinybot.write_line(record))
    return lines


def dressed(text: str, names: list[str], when: date, event: str, round_: str) -> str:
    """A pool game with its players, date, event and round (in each game of a triad, which
    also gets a Match of its own)."""
    text = PLACEHOLDER.sub(lambda m: names[int(m.group(1)) - 1], text)
    text = re.sub(r'^\[Event "[^"]*"\]$', f'[Event "{event}"]\n[Date "{when:%Y.%m.%d}"]', text, flags=re.M)
    text = re.sub(r'^\[Match "[^"]*"\]$', f'[Match "{event} {round_}"]', text, flags=re.M)
    return re.sub(r'^\[Round "[^"]*"\]$', f'[Round "{round_}"]', text, flags=re.M)


def build(out: Path, records: int, seed: int = 1) -> dict:
    """Write the archive's files under ``out``; returns how many records of each game."""
    rng = random.Random(seed)
    names = [f"{rng.choice(FIRSTS)}{rng.choice(LASTS)}{i}" for i in range(PLAYERS)]
    weights = list(accumulate(1 / (i + 1) ** 0.8 for i in range(PLAYERS)))  # cumulative: drawn by bisection
    pools: dict = {}
    tinybots = tinybot_pool(POOL, seed)

    def pool(game_id: str, seats: int, event: bool = False) -> list[str]:
        triads = event and game_id == "game-of-islands"  # an event's matches are triads (standings rank them)
        if (game_id, seats, triads) not in pools:
            pools[game_id, seats, triads] = played_pool(game_id, seats, POOL // 3 if triads else POOL, seed, triads)
        return pools[game_id, seats, triads]

    files: dict[Path, list[str]] = {}
    counts: dict[str, int] = {}
    casual = 0
    for game_id, share, seats in MIX:
        n = round(records * share)
        counts[game_id] = n
        made = 0
        week = 0
        while made < n:
            week += 1
            day = FIRST_DAY + timedelta(days=rng.randrange(DAYS))
            in_event = made < n // 2
            k = seats or rng.randint(2, 6)
            if game_id == "tiny-islands" and not in_event and rng.random() < 0.2:
                line = rng.choice(tinybots)
                files.setdefault(out / "bots" / f"{day:%Y-%m}-tinybot.txt", []).append(line)
                made += 1
                continue
            if in_event:  # a weekly event: rounds of the same players
                table = rng.sample(range(PLAYERS), min(PLAYERS, max(k, 8)))
                event = f"{GAME_NAMES[game_id]} club night {day:%Y-%m-%d} #{week}"
                path = out / "events" / game_id / f"{day:%Y-%m-%d}-{week}.pgn"
                for r in range(1, 5):
                    for t in range(0, len(table) - k + 1, k):
                        seated = [names[p] for p in table[t:t + k]]
                        files.setdefault(path, []).append(
                            dressed(rng.choice(pool(game_id, k, True)), seated, day, event, f"{r}.{t // k + 1}"))
                        made += 1
                    rng.shuffle(table)
            else:
                casual += 1
                seated = [names[p] for p in _distinct(rng, weights, k)]
                path = out / "casual" / game_id / f"{day:%Y-%m}.pgn"
                files.setdefault(path, []).append(
                    dressed(rng.choice(pool(game_id, k)), seated, day, "Casual", str(casual)))
                made += 1
    for path, texts in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(texts) + "\n")
    return counts


def _distinct(rng: random.Random, cum_weights: list[float], k: int) -> list[int]:
    chosen: list[int] = []
    while len(chosen) < k:
        p = rng.choices(range(len(cum_weights)), cum_weights=cum_weights)[0]
        if p not in chosen:
            chosen.append(p)
    return chosen


FIRSTS = ["Ada", "Bo", "Cai", "Dee", "Eli", "Fen", "Gus", "Hana", "Ivo", "Jun", "Kit", "Lea", "Mo", "Nia", "Oz"]
LASTS = ["Okafor", "Berg", "Lindqvist", "Moreau", "Tanaka", "Silva", "Novak", "Reyes", "Khan", "Ferrer"]
GAME_NAMES = {"tiny-islands": "Tiny Islands", "tsuro": "Tsuro", "game-of-islands": "Islands", "iwoki": "Iwoki",
              "patchwork": "Patchwork"}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--records", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    counts = build(args.out, args.records, args.seed)
    print(counts, file=sys.stderr)


if __name__ == "__main__":
    main()
