"""Tiny Islands on TinyBot's network: the net bots beside Scorebook's own, game by game on the
same shuffles, and the analysis with the net against TinyBot's recorded moves.

    python benchmarks/tiny_islands_net.py play [--levels net,netsearch:24,halving:128] [--deck one-deck]
                                               [--shuffles 200] [--first N] --log F
    python benchmarks/tiny_islands_net.py report LOG [LOG ...] [--write]
    python benchmarks/tiny_islands_net.py agreement [--write]

``play`` plays each level on the shuffles of seed 2026 (``[2026, g]``, the shuffles of
``tiny_islands_bots.py``), one game at a time, and appends a JSON line a game to the log (a
stopped run is taken up with ``--first``). ``report`` pairs the levels of the logs game by
game, per deck. ``agreement`` analyses TinyBot's 4 shared records with the net and counts how
often the analysis bot's best move is TinyBot's recorded one, by phase. The network is
``--net PATH``, else ``$SCOREBOOK_TINYBOT_NET``, else ../shared's copy.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from datetime import date
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from _report import publish  # noqa: E402

from scorebook.engines.tiny_islands import bots, engine as E, net_bots  # noqa: E402
from scorebook.engines.tiny_islands.deck import offers_for  # noqa: E402
from scorebook.engines.tiny_islands.metadata import TURNS  # noqa: E402
from scorebook.engines.tiny_islands.net import load_net  # noqa: E402

SHARED_NET = ROOT.parent / "shared" / "data" / "tinyislands" / "tinybot-net" / "tb10_1.onnx"
SAMPLES = ROOT.parent / "shared" / "data" / "tinyislands" / "tinybot-samples.txt"
CATEGORIES = ["penalties", "Forests", "Houses", "Sand", "Waves", "Mountains", "Churches", "Boats", "total"]


def net_path(given: str | None) -> Path:
    return Path(given or os.environ.get("SCOREBOOK_TINYBOT_NET") or SHARED_NET)


def machine() -> str:
    return f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"


def one_game(level: str, offers: np.ndarray, deck_model: int, g: int, net) -> tuple[np.ndarray, float]:
    """(the final breakdown, seconds) of a level's game, replayed by the engine."""
    name, _, number = level.partition(":")
    start = time.perf_counter()
    if name in ("net", "netsearch"):
        game = net_bots.play(offers, net, 0, deck_model, int(number) if name == "netsearch" else 0, g)
        placements, regions, lens = net_bots.record_of(game)
    else:
        placements, regions, lens = bots.play(offers, bots.BOT_NAMES[name], int(number), g, 0, deck_model)
    seconds = time.perf_counter() - start
    res = E.replay(offers, placements, regions, lens, np.ones(3, np.bool_), TURNS, 0)
    assert res[0] == E.OK
    return np.array(res[7], float), seconds


def play(args) -> None:
    net = load_net(net_path(args.net).read_bytes(), threads=min(os.cpu_count() or 1, 4))
    deck_model = 1 if args.deck == "one-deck" else 0
    shuffles = [offers_for(args.deck, np.random.default_rng([2026, g])) for g in range(args.shuffles)]
    for level in args.levels.split(","):
        one_game(level if not level.startswith("netsearch") else "netsearch:1", shuffles[0], deck_model, 0, net)  # compile
        for g in range(args.first, args.shuffles):
            breakdown, seconds = one_game(level, shuffles[g], deck_model, g, net)
            with open(args.log, "a") as f:
                f.write(json.dumps({"level": level, "deck": args.deck, "shuffle": g,
                                    "breakdown": [int(x) for x in breakdown], "seconds": round(seconds, 3)}) + "\n")
            print(level, args.deck, g, int(breakdown[8]), f"{seconds:.2f} s", flush=True)


def read_logs(paths: list[Path]) -> dict:
    """{deck: {level: {shuffle: (breakdown, seconds)}}}, levels in the order first met."""
    out: dict = {}
    for path in paths:
        for line in path.read_text().splitlines():
            game = json.loads(line)
            out.setdefault(game["deck"], {}).setdefault(game["level"], {})[game["shuffle"]] = (
                np.array(game["breakdown"], float), game["seconds"])
    return out


def _mean_se(values) -> str:
    v = np.asarray(values, float)
    return f"{v.mean():.2f} ± {v.std(ddof=1) / np.sqrt(len(v)):.2f}" if len(v) > 1 else f"{v.mean():.2f}"


def report_lines(decks: dict, baseline: str = "halving:128") -> list[str]:
    out = []
    for deck, levels in decks.items():
        names = list(levels)
        out += [f"{deck} shuffles of seed 2026:", "",
                "| level | games | mean ± s.e. | s a game | " + " | ".join(f"vs {b}, paired" for b in (baseline, "net")
                                                                     if b in levels) + " |",
                "|---|---:|---:|---:|" + "---:|" * sum(b in levels for b in (baseline, "net"))]
        for name in names:
            games = levels[name]
            row = [name, str(len(games)), _mean_se([b[8] for b, _ in games.values()]),
                   f"{np.mean([s for _, s in games.values()]):.2f}"]
            for other in (baseline, "net"):
                if other not in levels:
                    continue
                both = sorted(games.keys() & levels[other].keys())
                if other == name or len(both) < 2:
                    row.append("-")
                else:
                    row.append(f"{_mean_se([games[g][0][8] - levels[other][g][0][8] for g in both])} ({len(both)})")
            out.append("| " + " | ".join(row) + " |")
        out += ["", "Points per category (penalties as points lost):", "",
                "| category | " + " | ".join(names) + " |", "|---|" + "---:|" * len(names)]
        for k, cat in enumerate(CATEGORIES):
            sign = -1.0 if k == 0 else 1.0
            out.append(f"| {cat} | " + " | ".join(f"{sign * np.mean([b[k] for b, _ in levels[n].values()]) + 0.0:.2f}"
                                                   for n in names) + " |")
        out.append("")
    return out


def report(args) -> None:
    lines = report_lines(read_logs(args.logs))
    heading = "### Tiny Islands on TinyBot's network ("
    text = "\n".join([f"{heading}{date.today().isoformat()}, {machine()})", "",
                      "`python benchmarks/tiny_islands_net.py play --levels ... --deck D --log F` then "
                      "`report F`: each level on the same shuffles, one game at a time, published scoring.",
                      ""] + lines) + "\n"
    publish(heading, text, args.write)


def agreement(args) -> None:
    """The analysis bot with the net on TinyBot's 4 shared records: how often its best move is
    the recorded one, by phase, and the seconds an analysis takes."""
    from scorebook.analyze.loss import analyze_record
    from scorebook.engines.tiny_islands.game import ENGINE
    from scorebook.records import tinybot
    from scorebook.records.tiny_islands import NOTATION
    net = ENGINE.load_user_file("net", net_path(args.net).read_bytes())
    phases = {"placements 1-9": [], "placements 10-18": [], "placements 19-26": [], "drawings": []}
    seconds = []
    lines = SAMPLES.read_text().splitlines()
    for n, line in enumerate(lines, 1):
        record = tinybot.parse_line(line, n)
        start = time.perf_counter()
        report = analyze_record("tiny-islands", NOTATION.trace(record), players=["TinyBot"], seed=0, options={"net": net})
        seconds.append(time.perf_counter() - start)
        placements = [m for m in report["moves"] if not m["played"].startswith("(")]
        for t, m in enumerate(placements):
            phases["placements 1-9" if t < 9 else "placements 10-18" if t < 18 else "placements 19-26"].append(
                m["best"] == m["played"])
        phases["drawings"] += [m["best"] == m["played"] for m in report["moves"] if m["played"].startswith("(")]
    heading = "### Tiny Islands analysis with the net against TinyBot's own moves ("
    out = [f"{heading}{date.today().isoformat()}, {machine()})", "",
           "`python benchmarks/tiny_islands_net.py agreement`: TinyBot's 4 shared records analysed with the net "
           "(default settings, seed 0); how often the analysis bot's best move is TinyBot's recorded move.", "",
           "| phase | moves | best = TinyBot's |", "|---|---:|---:|"]
    for phase, same in phases.items():
        out.append(f"| {phase} | {len(same)} | {100 * np.mean(same):.0f}% |")
    out += ["", f"Seconds an analysis: {np.mean(seconds):.1f} (each of the {len(lines)} records: "
            + ", ".join(f"{s:.1f}" for s in seconds) + "), warm, on all cores.", ""]
    text = "\n".join(out)
    publish(heading, text, args.write)


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play")
    p.add_argument("--levels", default="net,netsearch:24,halving:128")
    p.add_argument("--deck", choices=["two-deck", "one-deck"], default="two-deck")
    p.add_argument("--shuffles", type=int, default=200)
    p.add_argument("--first", type=int, default=0)
    p.add_argument("--log", type=Path, required=True)
    p.add_argument("--net")
    r = sub.add_parser("report")
    r.add_argument("logs", type=Path, nargs="+")
    r.add_argument("--write", action="store_true")
    a = sub.add_parser("agreement")
    a.add_argument("--net")
    a.add_argument("--write", action="store_true")
    args = parser.parse_args()
    {"play": play, "report": report, "agreement": agreement}[args.command](args)


if __name__ == "__main__":
    main()
