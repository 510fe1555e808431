"""``benchmarks/_report.write_section``: a benchmark run with ``--write`` replaces its own
section of BENCHMARKS.md where it stands and leaves the others as they were."""
from __future__ import annotations

import pytest

from .conftest import benchmark_script


@pytest.fixture
def report(tmp_path, monkeypatch):
    module = benchmark_script("_report")
    monkeypatch.setattr(module, "BENCHMARKS", tmp_path / "BENCHMARKS.md")
    return module


def test_a_section_is_replaced_where_it_stands(report):
    report.BENCHMARKS.write_text("# Benchmarks\n\n### A (old)\n\nold a\n\n### B\n\nb\n")
    report.write_section("### A", "### A (new)\n\nnew a\n")
    assert report.BENCHMARKS.read_text() == "# Benchmarks\n\n### A (new)\n\nnew a\n\n### B\n\nb\n"


def test_the_last_section_is_replaced_and_a_new_one_goes_at_the_end(report):
    report.BENCHMARKS.write_text("# Benchmarks\n\n### A\n\na\n\n### B (old)\n\nold b\n")
    report.write_section("### B", "### B (new)\n\nnew b\n")
    report.write_section("### C", "### C\n\nc\n")
    assert report.BENCHMARKS.read_text() == "# Benchmarks\n\n### A\n\na\n\n### B (new)\n\nnew b\n\n### C\n\nc\n"


def test_a_missing_file_is_started(report):
    report.write_section("### A", "### A\n\na\n")
    text = report.BENCHMARKS.read_text()
    assert text.startswith("# Benchmarks\n") and text.endswith("\n\n### A\n\na\n")


def test_a_section_ends_at_a_group_heading_too(report):
    report.BENCHMARKS.write_text("# Benchmarks\n\n## Group\n\n### A (old)\n\nold a\n\n## Next group\n\n### B\n\nb\n")
    report.write_section("### A", "### A (new)\n\nnew a")
    assert report.BENCHMARKS.read_text() == ("# Benchmarks\n\n## Group\n\n### A (new)\n\nnew a\n\n## Next group\n\n"
                                             "### B\n\nb\n")
