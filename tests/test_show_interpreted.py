"""``scorebook show ID`` runs its one walk with the engines interpreted (``engines/jit.py``):
numba is never started, and every position, board and score is the compiled engines' own.
Held on every sample record (each game, each variant the samples have), in a process of its own,
against this process's compiled walk, and on the command itself run from its entry point."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from scorebook import registry
from scorebook.analyze.boards import show_lines

from .conftest import ROOT, cli_json

SAMPLES = ROOT / "samples"
SAMPLE_FILES = sorted(str(p) for game_id in registry.game_ids() for p in (SAMPLES / game_id).iterdir() if p.is_file())

# every sample's records walked as ``show`` walks them: the lines it prints, each position's state
WALK = r"""
import json, sys
from scorebook.engines import jit
jit.interpret()
from scorebook.analyze.boards import show_lines
from scorebook.records.preview import file_record
out = {}
for path in sys.argv[1:]:
    found = file_record(path, 1)
    for k in range(1, found.count + 1):
        found = file_record(path, k)
        out[f"{path}#{k}"] = list(show_lines(found.row, found.trace))
print(json.dumps({"walks": out, "numba": "numba" in sys.modules}))
"""


def _in_a_process(code: str, *args: str, cwd=ROOT) -> subprocess.CompletedProcess:
    """``code`` run by a new Python with ``args``; it must succeed."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env,
                          timeout=300, cwd=cwd)
    assert done.returncode == 0, done.stderr[-2000:]
    return done


def test_every_sample_walks_interpreted_as_compiled():
    from scorebook.records.preview import file_record
    walked = json.loads(_in_a_process(WALK, *SAMPLE_FILES).stdout)
    assert walked["numba"] is False
    compiled = {}
    for path in SAMPLE_FILES:
        count = file_record(path, 1).count
        for k in range(1, count + 1):
            found = file_record(path, k)
            compiled[f"{path}#{k}"] = list(show_lines(found.row, found.trace))
    assert walked["walks"] == compiled


SHOW = r"""
import atexit, sys
atexit.register(lambda: print("numba" in sys.modules, file=sys.stderr))
sys.argv = ["scorebook"] + sys.argv[1:]
from scorebook.cli.main import run
run()
"""


def _shown(*args: str, cwd=ROOT) -> tuple[str, bool]:
    """What ``scorebook ARGS`` printed, run from its entry point, and whether numba was imported."""
    done = _in_a_process(SHOW, *args, cwd=cwd)
    return done.stdout, done.stderr.strip().splitlines()[-1] == "True"


@pytest.mark.parametrize("game_id", registry.game_ids())
def test_show_id_never_starts_numba_and_prints_what_the_compiled_walk_prints(game_id, tmp_path, run_cli):
    path = next(p for p in sorted((SAMPLES / game_id).glob("*.pgn")))
    outcome = cli_json(run_cli("ingest", str(path), "--json"))["records"][0]
    assert outcome["status"] == "ingested", outcome
    db = run_cli.db
    printed, numba = _shown("--db", str(db), "show", outcome["id"], cwd=tmp_path)
    assert not numba
    compiled = run_cli("--db", str(db), "show", outcome["id"])
    assert compiled.exit_code == 0
    assert printed == compiled.stdout


@pytest.mark.parametrize("game_id", registry.game_ids())
def test_show_of_a_small_file_never_starts_numba_and_prints_what_the_compiled_walk_prints(game_id, run_cli):
    """A file of up to SHOWN_AS_PYTHON_MAX_BYTES is read and walked as Python; a larger one by
    the compiled readers (numba then starts: reading many records as Python would cost more)."""
    from scorebook.cli.archive import SHOWN_AS_PYTHON_MAX_BYTES
    path = next(p for p in sorted((SAMPLES / game_id).glob("*.pgn")))
    assert path.stat().st_size <= SHOWN_AS_PYTHON_MAX_BYTES
    printed, numba = _shown("show", str(path))
    assert not numba
    assert printed == run_cli("show", str(path)).stdout


def test_show_of_a_large_file_reads_it_compiled(tmp_path):
    from scorebook.cli.archive import SHOWN_AS_PYTHON_MAX_BYTES
    text = (SAMPLES / "tsuro" / "tsuro-simple-random-s5-0001.pgn").read_text()
    big = tmp_path / "big.pgn"
    big.write_text("\n".join([text] * (SHOWN_AS_PYTHON_MAX_BYTES // len(text) + 2)))
    _, numba = _shown("show", f"{big}#2", cwd=tmp_path)
    assert numba
