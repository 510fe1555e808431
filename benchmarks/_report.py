"""Shared by the benchmark scripts: put a section into BENCHMARKS.md, replacing the last run's."""
from __future__ import annotations

import re
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent.parent / "BENCHMARKS.md"


def write_section(marker: str, report: str) -> None:
    """Replace the section whose heading starts with ``marker`` (up to the next ## or ### heading)
    where it stands, so that the file keeps its order; a new section goes at the end."""
    text = BENCHMARKS.read_text() if BENCHMARKS.exists() else "# Benchmarks\n\nFigures written by the scripts in `benchmarks/`.\n"
    section = report.strip() + "\n"
    if marker in text:
        before, _, after = text.partition(marker)
        nxt = re.search(r"\n(?=##+ )", after)  # the next section or group heading
        text = before + section + ("\n" + after[nxt.end():] if nxt else "")
    else:
        text = text.rstrip() + "\n\n" + section
    BENCHMARKS.write_text(text)


def publish(marker: str, report: str, write: bool) -> None:
    """Print a run's report and, with ``--write``, put it into BENCHMARKS.md (``write_section``)."""
    print(report)
    if write:
        write_section(marker, report)
