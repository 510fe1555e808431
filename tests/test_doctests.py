"""Every docstring example in the package runs, imported under its real name
(``scorebook.records.pgn``), not as a file path: pytest's --doctest-modules would import the
layer folders a second time as top-level packages."""
from __future__ import annotations

import doctest
import importlib
import importlib.util
import pkgutil
from pathlib import Path

import pytest

LAYERS = ("cli", "records", "engines", "analyze")


def _modules() -> list[str]:
    names = ["scorebook"]
    top = importlib.import_module("scorebook")  # its own modules (registry, errors, batch), never __main__
    names += [m.name for m in pkgutil.iter_modules(top.__path__, prefix="scorebook.")
              if not m.ispkg and m.name != "scorebook.__main__"]
    for layer in LAYERS:
        package = importlib.import_module(f"scorebook.{layer}")
        names.append(package.__name__)
        names += [m.name for m in pkgutil.walk_packages(package.__path__, prefix=f"{package.__name__}.")]
    # only modules with examples: a module without any would pass without testing anything
    return sorted(n for n in names if ">>>" in Path(importlib.util.find_spec(n).origin).read_text())


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples(name):
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    out: list[str] = []
    for test in finder.find(module, name):
        runner.run(test, out=out.append)
    assert runner.failures == 0, "".join(out)
