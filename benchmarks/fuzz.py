"""Mutation fuzzing of every reader through the ingest path (tests/fuzzing.py), for as long
as asked: mutations, crashes, hangs, unpositioned rejections, round-trip failures and rate,
per format. Failing inputs are written to ``--out`` (one file each) to be added to the
regression corpus.

    python benchmarks/fuzz.py --minutes 20 [--seed 1] [--out fuzz-failures] [--write]
"""
from __future__ import annotations

import argparse
import hashlib
import os
import platform
import random
import sys
import time
from collections import Counter
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from _report import publish  # noqa: E402
from tests.fuzzing import FAILURES, check, mutate, seeds  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--minutes", type=float, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=Path("fuzz-failures"))
    ap.add_argument("--write", action="store_true", help="put the figures in BENCHMARKS.md")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    corpus = seeds()
    formats = sorted(corpus)
    counts = {f: Counter() for f in formats}
    seconds = Counter()
    examples: dict[str, str] = {}
    end = time.monotonic() + 60 * args.minutes
    last = time.monotonic()
    n = 0
    while time.monotonic() < end:
        fmt = formats[n % len(formats)]
        n += 1
        text = mutate(rng.choice(corpus[fmt]), rng)
        start = time.perf_counter()
        kind, detail = check(text)
        seconds[fmt] += time.perf_counter() - start
        counts[fmt]["mutations"] += 1
        counts[fmt][kind] += 1
        if kind in FAILURES:
            args.out.mkdir(exist_ok=True)
            name = hashlib.sha256(text.encode()).hexdigest()[:16]
            (args.out / f"{kind}-{fmt}-{name}.txt").write_text(text)
            key = f"{kind}: {detail[:160]}"
            if key not in examples:
                examples[key] = name
                print(f"{kind} ({fmt}) {detail[:300]}  -> {args.out}/{kind}-{fmt}-{name}.txt", flush=True)
        if time.monotonic() - last > 60:
            last = time.monotonic()
            print(f"{n} mutations, " + ", ".join(f"{k} {sum(c[k] for c in counts.values())}" for k in FAILURES),
                  flush=True)
    rows = []
    for fmt in formats:
        c = counts[fmt]
        rows.append(f"| {fmt} | {c['mutations']:,} | {c['ok']:,} | {c['rejected']:,} | "
                    + " | ".join(str(c[k]) for k in FAILURES) + f" | {c['mutations'] / max(seconds[fmt], 1e-9):,.0f} |")
    total = sum((c for c in counts.values()), Counter())
    report = f"""### Fuzzing the readers ({date.today()})

`python benchmarks/fuzz.py --minutes {args.minutes:g} --seed {args.seed}` ({platform.machine()},
{os.cpu_count()} cores, Python {platform.python_version()}): mutations of the project's records
(`samples/`) through `ingest_text`, each accepted record exported in every format its game
writes and read back. {total['mutations']:,} inputs; failures: {', '.join(f'{k} {total[k]}' for k in FAILURES)}.

| format | mutations | accepted | rejected | crashes | hangs | unpositioned | round-trip failures | inputs/s |
|---|---:|---:|---:|---:|---:|---:|---:|---:|
""" + "\n".join(rows) + "\n"
    publish("### Fuzzing the readers", report, args.write)
    sys.exit(1 if any(total[k] for k in FAILURES) else 0)


if __name__ == "__main__":
    main()
