"""Shared by the benchmark scripts: put a section into BENCHMARKS.md, replacing the last run's."""
from __future__ import annotations

from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent.parent / "BENCHMARKS.md"


def write_section(marker: str, report: str) -> None:
    """Replace the section whose heading starts with ``marker`` (up to the next ### heading)."""
    text = BENCHMARKS.read_text() if BENCHMARKS.exists() else "# Benchmarks\n\nFigures written by the scripts in `benchmarks/`.\n"
    if marker in text:
        before, _, after = text.partition(marker)
        rest = after.split("\n### ", 1)
        text = before + (("### " + rest[1]) if len(rest) > 1 else "")
    BENCHMARKS.write_text(text.rstrip() + "\n\n" + report)
