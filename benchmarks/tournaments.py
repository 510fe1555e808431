"""How fast a director's tournament is paired and ranked, against issue 82's targets, side by
side in one run: a Swiss round of 200 players by the FIDE Dutch system (py4swiss), of 500
(where the weighted matching grows past the target) and of 2,000 (the fold, ``fast_swiss``),
the seating of 200 at tables of 4, and the standings of a 500-player 9-round event read from
the store. Each a simulated event (results drawn from ratings), seconds for the last round
paired (the hardest: most history), the median of ``--repeat`` runs.

    python benchmarks/tournaments.py [--write] [--repeat 3]
"""
from __future__ import annotations

import argparse
import platform
import statistics
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT))

from _report import publish  # noqa: E402

from scorebook.records.store import Store  # noqa: E402
from scorebook.tournaments import director, pairing  # noqa: E402
from scorebook.tournaments.standings import totals  # noqa: E402
from tests.test_tournament_pairing import simulate  # noqa: E402


def timed(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def pairing_case(n: int, rounds: int, repeat: int, fmt: str = "swiss", size: int = 2) -> float:
    """Seconds to pair round ``rounds`` after ``rounds - 1`` simulated ones."""
    t = simulate(n, rounds - 1, 5, fmt=fmt, size=size)  # above FAST_ABOVE its history is the fold's too
    t.rounds = rounds
    return timed(lambda: pairing.pair_round(t, rounds, totals(t)), repeat)


def dutch_case(n: int, rounds: int, repeat: int) -> float:
    """The Dutch system's matching at ``n`` players (above the fold's threshold, forced)."""
    saved = pairing.FAST_ABOVE
    pairing.FAST_ABOVE = 10 ** 9
    try:
        t = simulate(n, rounds - 1, 5)
        t.rounds = rounds
        return timed(lambda: pairing.pair_round(t, rounds, totals(t)), repeat)
    finally:
        pairing.FAST_ABOVE = saved


def standings_case(n: int, rounds: int, repeat: int) -> float:
    t = simulate(n, rounds, 9)
    with tempfile.TemporaryDirectory() as folder:
        store = Store(str(Path(folder) / "t.db"))
        with store.atomic():
            store.save_planned_tournament(t.model_dump())
        reader = Store(str(Path(folder) / "t.db"), write=False)
        return timed(lambda: director.standings_of(reader, t.event), repeat)


def cli_case(repeat: int) -> tuple[float, float]:
    """``scorebook standings EVENT --json`` of 500 players after 9 rounds, a process from start to
    end, and ``scorebook --help`` (what any command costs to start) beside it."""
    import subprocess
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "cli.db")
        t = simulate(500, 9, 9)
        store = Store(path)
        with store.atomic():
            store.save_planned_tournament(t.model_dump())
        store.close()
        run = lambda *args: subprocess.run([sys.executable, "-m", "scorebook", *args], capture_output=True,  # noqa: E731
                                           check=True)
        return (timed(lambda: run("--db", path, "standings", t.event, "--json"), repeat),
                timed(lambda: run("--help"), repeat))


def served_cases(repeat: int) -> list[tuple[str, float, float]]:
    """The served page at 10 and at 500 players after 9 rounds: (what, seconds at 10, at 500) for
    the poll's version, the page once drawn (each visitor), and its drawing (once a change)."""
    from scorebook.service import tournaments as served
    out = {}
    with tempfile.TemporaryDirectory() as folder:
        for n in (10, 500):
            path = str(Path(folder) / f"t{n}.db")
            t = simulate(n, 9, 9)
            store = Store(path)
            with store.atomic():
                store.save_planned_tournament(t.model_dump())
            store.close()
            version = timed(lambda: served.reading(path, lambda st: st.tournament_version(t.event)), repeat)
            served.page_body(path, t.event, None)
            cached = timed(lambda: served.page_body(path, t.event, None), repeat)
            drawn = timed(lambda: served._drawn.__wrapped__(path, t.event, None, "x"), repeat)
            out[n] = (version, cached, drawn)
    labels = ("the poll: the tournament's version", "a visitor's page (drawn once a change)",
              "drawing the page after a change")
    return [(label, out[10][k], out[500][k]) for k, label in enumerate(labels)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="put the figures into BENCHMARKS.md")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    cases = [
        ("Swiss round 9 of 200 players (FIDE Dutch, py4swiss)", lambda: pairing_case(200, 9, args.repeat), 1.0),
        ("Swiss round 5 of 500 players, FIDE Dutch forced", lambda: dutch_case(500, 5, 1), 1.0),
        (f"Swiss round 9 of 2,000 players (the fold above {pairing.FAST_ABOVE})",
         lambda: pairing_case(2000, 9, args.repeat), 10.0),
        ("Tables of 4: round 5 of 200 players (Swiss seating)",
         lambda: pairing_case(200, 5, args.repeat, fmt="tables", size=4), 1.0),
        ("Standings of 500 players after 9 rounds (from the store)", lambda: standings_case(500, 9, args.repeat), 0.5),
    ]
    rows = []
    for label, run, target in cases:
        seconds = run()
        rows.append(f"| {label} | {seconds:.2f} | {target:g} | {seconds / target:.2f} |")
        print(rows[-1], flush=True)
    cli_seconds, start_seconds = cli_case(args.repeat)
    rows.append(f"| `scorebook standings EVENT --json`, 500 players after 9 rounds, a whole process "
                f"(`scorebook --help` alone: {start_seconds:.2f} s) | {cli_seconds:.2f} | 0.5 | {cli_seconds / 0.5:.2f} |")
    print(rows[-1], flush=True)
    served_rows = [f"| {label} | {small * 1000:.3f} | {large * 1000:.3f} | {large / small:.1f} |"
                   for label, small, large in served_cases(args.repeat)]
    print("\n".join(served_rows))
    report = "\n".join([
        f"### Tournaments: pairing and standings ({date.today()}, {platform.machine()}, "
        f"{__import__('os').cpu_count()} cores, Python {platform.python_version()})",
        "",
        f"`python benchmarks/tournaments.py --write` (median of {args.repeat} runs; the forced Dutch at 500 once). "
        "Seconds for the last round of a simulated event; the ratio is to issue 82's target (below 1 meets it).",
        "",
        "| case | seconds | target | ratio |",
        "| --- | ---: | ---: | ---: |",
        *rows,
        "",
        "The served tournament page (`service/tournaments.py`), 10 against 500 players after 9 rounds, milliseconds:",
        "",
        "| request | 10 players | 500 players | ratio |",
        "| --- | ---: | ---: | ---: |",
        *served_rows,
    ])
    publish("### Tournaments: pairing and standings", report, args.write)


if __name__ == "__main__":
    main()
