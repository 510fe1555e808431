"""Packages: the checkout keeps the design card's top-level layer folders, the distribution
imports them as ``scorebook.<layer>``. Sub-packages (a game's engine folder) are found here,
so adding a game needs no packaging edit. Everything else is in ``pyproject.toml``."""
from setuptools import find_packages, setup

LAYERS = ("cli", "records", "engines", "analyze", "tournaments", "service")

setup(
    package_dir={"scorebook": "scorebook", **{f"scorebook.{layer}": layer for layer in LAYERS}},
    packages=["scorebook"] + [f"scorebook.{layer}" + (f".{sub}" if sub else "")
                              for layer in LAYERS for sub in [""] + find_packages(layer)],
)
