"""Files the user supplies to an engine (a trained network: Tiny Islands' ``--net``).

Such a file is the user's, never shipped with Scorebook. A command names it (``--net PATH``,
else the game's environment variable), and :func:`open_file` reads and checks it before any
work starts: a missing, unreadable, oversized or wrong file is one line (``UserFileError``,
exit 1). What travels to a worker (a local process or a Dask worker) is a small
:class:`UserFileRef`, the path and the SHA-256; each process loads the file once
(:func:`resolved`) and refuses it if its bytes changed. A Dask worker reads the same path, so
the file must be there on every worker machine.
"""
from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass

from scorebook import registry

from scorebook.errors import UsageError, UserFileError

MAX_USER_FILE_BYTES = 256 * 1024 * 1024


@dataclass(frozen=True)
class UserFileRef:
    """A checked user file: which game and file it is, where, and its SHA-256."""
    game: str
    name: str
    path: str
    sha256: str

    def __repr__(self) -> str:  # short: it is part of the keys that tell matches apart
        return f"{self.name}:{self.sha256[:16]}"


_LOADED: dict[tuple, object] = {}  # (game, name, path, sha256) -> the engine's object, this process


def _read(name: str, path: str) -> bytes:
    def refuse(why: str) -> UserFileError:
        return UserFileError(f"--{name} {path}: {why}")
    try:
        info = os.stat(path)
    except OSError as exc:
        raise refuse(exc.strerror or str(exc)) from None
    if not stat.S_ISREG(info.st_mode):
        raise refuse("not a regular file")
    if info.st_size > MAX_USER_FILE_BYTES:
        raise refuse(f"{info.st_size:,} bytes, more than the {MAX_USER_FILE_BYTES:,} read")
    try:
        with open(path, "rb") as fh:
            return fh.read(MAX_USER_FILE_BYTES + 1)
    except OSError as exc:
        raise refuse(exc.strerror or str(exc)) from None


def _load(game_id: str, name: str, path: str, data: bytes, sha: str):
    key = (game_id, name, path, sha)
    if key not in _LOADED:
        engine = registry.get_game(game_id).engine
        try:
            _LOADED[key] = engine.load_user_file(name, data)
        except ImportError as exc:
            raise UserFileError(f"--{name}: {exc}") from None
        except ValueError as exc:
            raise UserFileError(f"--{name} {path}: {exc}") from None
    return _LOADED[key]


def configured(game: registry.Game, name: str, given: str | None) -> str | None:
    """The path of user file ``name``: as given, else from the game's environment variable."""
    declared = game.info.user_file(name)
    if declared is None:
        return None
    return given or os.environ.get(declared.env) or None


def open_file(game: registry.Game, name: str, path: str) -> UserFileRef:
    """Read and check user file ``name`` at ``path`` (loaded into this process's cache)."""
    data = _read(name, path)
    sha = hashlib.sha256(data).hexdigest()
    _load(game.id, name, os.path.abspath(path), data, sha)
    return UserFileRef(game.id, name, os.path.abspath(path), sha)


def needed(game: registry.Game, name: str, given: str | None, why: str) -> UserFileRef:
    """The checked user file a bot or an analysis needs; a usage error when none is named."""
    path = configured(game, name, given)
    if path is None:
        declared = game.info.user_file(name)
        raise UsageError(f"{why} needs --{name} PATH (or ${declared.env}): {declared.help}")
    return open_file(game, name, path)


def resolved(options: dict) -> dict:
    """``options`` with every UserFileRef replaced by the engine's loaded object (loaded once
    a process; a file whose bytes changed since it was checked is refused)."""
    if not any(isinstance(v, UserFileRef) for v in options.values()):
        return options
    out = dict(options)
    for key, ref in options.items():
        if isinstance(ref, UserFileRef):
            if (ref.game, ref.name, ref.path, ref.sha256) not in _LOADED:
                data = _read(ref.name, ref.path)
                if hashlib.sha256(data).hexdigest() != ref.sha256:
                    raise UserFileError(f"--{ref.name} {ref.path}: the file changed since it was checked")
                _load(ref.game, ref.name, ref.path, data, ref.sha256)
            out[key] = _LOADED[(ref.game, ref.name, ref.path, ref.sha256)]
    return out
