"""The distribution: the wheel holds every module and every data file the games load, and,
installed outside the checkout, imports as ``scorebook`` and runs every game."""
from __future__ import annotations

import os
import site
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

from scorebook import registry

from .conftest import ROOT, SAMPLES

LAYERS = ("cli", "records", "engines", "analyze", "service")

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                           "-w", str(out), str(ROOT)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return next(out.glob("scorebook-*.whl"))


def test_the_wheel_holds_every_module_and_data_file(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = {f"scorebook/{p.name}" for p in (ROOT / "scorebook").glob("*.py")}
    for layer in LAYERS:
        for path in (ROOT / layer).rglob("*"):
            if path.suffix in (".py", ".json", ".html") and "__pycache__" not in path.parts:
                expected.add(f"scorebook/{path.relative_to(ROOT).as_posix()}")
    assert expected - names == set()
    # every file a game loads: its declaration and facts
    for game in registry.games():
        package = game.engine_module.rsplit(".", 1)[0]
        if package.startswith("scorebook."):
            assert package.replace(".", "/") + "/game.json" in names, game.id
    # and nothing at the top level but the package
    assert {n.split("/")[0] for n in names if not n.startswith("scorebook-")} == {"scorebook"}


def test_installed_outside_the_checkout_runs_every_game(wheel, tmp_path):
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    # the dependencies come from the environment running the tests (a virtualenv or the system's):
    # its site-packages are on the new one's path, their .pth files not read, so that an editable
    # install of the checkout there is not seen
    outer = [p for p in site.getsitepackages() + [site.getusersitepackages()] if os.path.isdir(p)]
    inner = next(env_dir.glob("lib/python*/site-packages"))
    (inner / "outer-environment.pth").write_text("\n".join(outer) + "\n")
    python = str(env_dir / "bin" / "python")
    done = subprocess.run([python, "-m", "pip", "install", "-q", "--no-deps", str(wheel)], capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    work = tmp_path / "elsewhere"
    work.mkdir()
    # the packaging is under test, not the compiled code: numba runs the engines as Python
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONPATH="")

    def scorebook(*args):
        done = subprocess.run([python, "-m", "scorebook", "--db", str(work / "s.db"), *args], cwd=work,
                              capture_output=True, text=True, timeout=600, env=env)
        assert done.returncode == 0 and "Traceback" not in done.stderr, (args, done.stderr[-3000:])
        return done.stdout

    where = subprocess.run([python, "-c", "import scorebook.records, sys; print(scorebook.records.__file__)"],
                           cwd=work, capture_output=True, text=True, env=env).stdout
    assert str(env_dir) in where and str(ROOT) not in where
    firsts = [str(sorted((SAMPLES / game).rglob("*.pgn"))[0]) for game in
              ("tiny-islands", "game-of-islands", "iwoki", "patchwork", "tsuro")]
    assert " 0 rejected" in scorebook("ingest", *firsts)  # a record of each game (the engines run as Python: slow)
    scorebook("play", "tiny-islands", "--players", "random", "--games", "1")
    scorebook("play", "game-of-islands", "--players", "greedy,random", "--grid", "5")
    scorebook("play", "iwoki", "--players", "greedy,random")
    scorebook("play", "patchwork", "--variant", "sim", "--players", "random")
    scorebook("play", "tsuro", "--players", "simple,random,random")
    ids = {line.split(",")[1]: line.split(",")[0] for line in scorebook("list", "--csv", "--no-headers").splitlines()}
    assert {"tiny-islands", "game-of-islands", "iwoki", "patchwork", "tsuro"} <= set(ids)
    scorebook("analyze", ids["game-of-islands"], "--bot", "depth:1")
    # the service's page templates travel in the wheel too
    templates = subprocess.run([python, "-c", "from scorebook.service.pages import _template_text; "
                                "print(all('{% block content %}' in _template_text(n) for n in "
                                "('scorebook_record.html', 'scorebook_submit.html', 'scorebook_login.html')))"],
                               cwd=work, capture_output=True, text=True, env=env)
    assert templates.stdout.strip() == "True", templates.stderr[-2000:]
