"""Scorebook: game records for small modern board games, proven legal by replay.

The distribution imports as ``scorebook``; its layers keep the design card's top-level
folders in the checkout (``engines/``, ``records/``, ``analyze/``, ``cli/``), mapped to
``scorebook.engines`` and so on by ``pyproject.toml``. Layers depend one way:
engines <- records <- analyze <- cli.
"""
from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("scorebook")
except PackageNotFoundError:  # imported from a checkout that was never installed
    __version__ = "0+unknown"
