"""``python -m scorebook``: the same command line as ``scorebook``."""
from scorebook.cli.main import run

run()
