"""Whether each game's analysis values agree from one move to the next (analyze/consistency.py):
the breaks between consecutive plies, in points and in standard errors, on the project's bot
games (``samples/``) and the third-party records (``../shared/data``, where present).

    python benchmarks/consistency.py [--write] [--games tsuro,iwoki] [--bot patchwork=searched:0]

Each record is analysed with its game's default analysis bot (``--bot GAME=SPEC`` changes one
game's options, e.g. ``patchwork=searched:0`` for the value-guided play-outs alone). A table row
per game and source: the pairs of moves compared, the median and the largest break (points),
the median and the largest in standard errors, the mean break (where draws come between moves,
only the mean is expected to be 0), and the faults beyond the game's declared horizon.
"""
from __future__ import annotations

import argparse
import platform
import sys
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from _report import publish  # noqa: E402

from scorebook import registry  # noqa: E402
from scorebook.analyze import consistency as C  # noqa: E402
from scorebook.analyze.loss import analyze_record  # noqa: E402
from scorebook.records.formats import read_text  # noqa: E402

SHARED = ROOT.parent / "shared" / "data"
SOURCES = {  # game: (bot games of the project's own, third-party records)
    "tiny-islands": (["tiny-islands/tiny-islands-mc4-s9-0001.pgn", "tiny-islands/tiny-islands-random-s7-0001.pgn"],
                     [("tinyislands/tinybot-samples.txt", 3)]),
    "game-of-islands": (["game-of-islands/game-of-islands-greedy-random-10-s12-0001.pgn",
                         "game-of-islands/game-of-islands-search-greedy-triad-s11-0001.pgn"],
                        [("goi/greedy-10x10.pgn", 2), ("goi/triad-clocks.pgn", 1)]),
    "iwoki": (["iwoki/iwoki-minimax2-greedy-s5-0001.pgn", "iwoki/iwoki-minimax2-greedy-s5-0002.pgn"],
              [("iwoki/samples/iwoki_gr_60069.jsonl", 1), ("iwoki/samples/iwoki_m2r_9003.jsonl", 1)]),
    "patchwork": (["patchwork/patchwork-best2-vbrz-two-player-s6-0001.pgn",
                   "patchwork/patchwork-best2-vbrz-two-player-s6-0002.pgn",
                   "patchwork/patchwork-rule-based-real-s5-0001.pgn"], []),
    "tsuro": (["tsuro/tsuro-simple-random-s5-0001.pgn", "tsuro/tsuro-simple-random-s5-0002.pgn",
               "tsuro/tsuro-handwritten.pgn"], []),
}


def records(path: Path, limit: int | None = None) -> list:
    items = [i for i in read_text(path.read_text(), str(path)) if i.error is None]
    return items[:limit] if limit else items


def options_of(spec: str | None) -> dict[str, int]:
    """``key:N,key:N`` as options, 0 allowed (the analysis' own switches: Patchwork's
    ``searched:0`` for the value-guided play-outs alone, ``solve:0``)."""
    return {k: int(v) for k, _, v in (part.partition(":") for part in (spec or "").split(",") if part)}


def measure(game: str, items: list, spec: str | None) -> tuple[list, list[str], float]:
    g = registry.get_game(game)
    decl = g.info.analysis
    found, faults, started = [], [], time.perf_counter()
    for item in items:
        options = options_of(spec)
        report = analyze_record(game, g.notation.trace(item.record), seed=1, options=options)
        seats = len(item.record.players) if getattr(item.record, "players", None) else 1
        mine = C.breaks(report, decl.scale, seats)
        found += mine
        faults += C.faults(mine, decl.horizon, decl.drawn_between, decl.exact_horizon)
    return found, faults, time.perf_counter() - started


def row(game: str, source: str, found: list, faults: list[str], seconds: float) -> str:
    f = C.figures(found)
    num = lambda v, d=2: "-" if v is None else f"{v:.{d}f}"  # noqa: E731
    return (f"| {game} | {source} | {f['pairs']} | {num(f['median'])} | {num(f['largest'])} | {num(f['median_z'])} "
            f"| {num(f['largest_z'])} | {num(f['mean'])} | {len(faults)} | {seconds:.0f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true", help="put the table into BENCHMARKS.md")
    ap.add_argument("--games", default=",".join(SOURCES))
    ap.add_argument("--bot", action="append", default=[], help="GAME=SPEC: that game's analysis options")
    args = ap.parse_args()
    specs = dict(b.split("=", 1) for b in args.bot)
    lines = []
    for game in args.games.split(","):
        own, shared = SOURCES[game]
        decl = registry.get_game(game).info.analysis
        bot = registry.get_game(game).analysis.bot_name({**decl.options, **options_of(specs.get(game))})
        items = [i for p in own for i in records(ROOT / "samples" / p)]
        found, faults, s = measure(game, items, specs.get(game))
        lines.append(row(game, f"{len(items)} bot games", found, faults, s) + f" {bot}; horizon {decl.horizon:g}"
                     + (f", between exact values {decl.exact_horizon:g}" if decl.exact_horizon else "")
                     + ("; draws between moves" if decl.drawn_between else "") + " |")
        for f in faults:
            print(f"  {game}: {f}", file=sys.stderr)
        here = [(SHARED / p, n) for p, n in shared if (SHARED / p).exists()]
        if here:
            items = [i for p, n in here for i in records(p, n)]
            found, faults, s = measure(game, items, specs.get(game))
            lines.append(row(game, f"{len(items)} shared records", found, faults, s) + " |")
            for f in faults:
                print(f"  {game} (shared): {f}", file=sys.stderr)
        print(lines[-1], file=sys.stderr, flush=True)
    report = (f"### Analysis: values consistent ply to ply ({date.today()}, {platform.machine()}, "
              f"{len(__import__('os').sched_getaffinity(0))} cores, Python {platform.python_version()})\n\n"
              "`python benchmarks/consistency.py`: each record analysed with its game's default bot; a *break* is the "
              "value of the move played (its mover's side) less the next position's best from the same side "
              "(analyze/consistency.py). Points, then standard errors (z) of the two values; the mean break is the "
              "one expected to be 0 where a draw comes between moves; faults: pairs beyond 4 s.e. and the game's "
              "declared horizon (docs/games.md).\n\n"
              "| game | records | pairs | median break | largest | median z | largest z | mean | faults | s | bot |\n"
              "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n" + "\n".join(lines))
    publish("### Analysis: values consistent ply to ply", report, args.write)


if __name__ == "__main__":
    main()
