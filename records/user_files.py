"""Files the user supplies to an engine (a trained network: Tiny Islands' ``--net``).

Such a file is the user's, never shipped with Scorebook. A command names it (``--net PATH``,
else the game's environment variable, else the copy :func:`fetch` stored under
:func:`data_dir`), and :func:`open_file` reads and checks it before any
work starts: a missing, unreadable, oversized or wrong file is one line (``UserFileError``,
exit 1). What travels to a worker (a local process or a Dask worker) is a small
:class:`UserFileRef`, the path and the SHA-256; each process loads the file once
(:func:`resolved`) and refuses it if its bytes changed. A Dask worker reads the same path, so
the file must be there on every worker machine.
"""
from __future__ import annotations

import hashlib
import http.client
import os
import stat
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from scorebook import registry

from scorebook.errors import Unavailable, UsageError, UserFileError

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
    """The path of user file ``name``: as given, else from the game's environment variable,
    else the copy ``scorebook NAME fetch`` stored, when there is one."""
    declared = game.info.user_file(name)
    if declared is None:
        return None
    stored = fetched_path(game, name)
    return given or os.environ.get(declared.env) or (str(stored) if stored and stored.is_file() else None)


def data_dir() -> Path:
    """Where Scorebook keeps the files it fetched: ``$SCOREBOOK_DATA``, else
    ``$XDG_DATA_HOME/scorebook``, else ``~/.local/share/scorebook``."""
    if os.environ.get("SCOREBOOK_DATA"):
        return Path(os.environ["SCOREBOOK_DATA"])
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "scorebook"


def fetched_path(game: registry.Game, name: str) -> Path | None:
    """Where ``scorebook NAME fetch`` stores user file ``name`` of ``game`` (None: not fetchable)."""
    declared = game.info.user_file(name)
    if declared is None or declared.fetch is None:
        return None
    return data_dir() / game.id / declared.fetch.url.rsplit("/", 1)[-1]


LICENCE_MAX_BYTES = 64 * 1024


def fetch(game: registry.Game, name: str, *, url: str | None = None, dest: str | None = None,
          timeout: float = 60, started=None) -> dict:
    """Download user file ``name`` from its publisher (or ``url``), check its SHA-256 against
    the one the game declares, and store it where ``--NAME`` finds it by default (or at
    ``dest``), with its licence beside it. A copy already there with the right bytes is kept.
    Nothing is stored unless the whole file arrived with the right SHA-256. ``started(url)``:
    called as the download starts, once the place it goes is known to be writable."""
    declared = game.info.user_file(name)
    if declared is None or declared.fetch is None:
        raise UsageError(f"{game.id} has no {name} that Scorebook can fetch")
    spec = declared.fetch
    target = Path(dest) if dest else fetched_path(game, name)
    if target.is_file() and _sha256_of(target) == spec.sha256:
        return {"path": str(target), "sha256": spec.sha256, "bytes": target.stat().st_size, "downloaded": False,
                "licence": spec.licence, "licence_text": _stored_licence(target)}
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise Unavailable(f"cannot write {target.parent}: {exc.strerror or exc}") from None
    source = url or spec.url
    size = _download(source, target, spec.sha256, timeout, started)
    licence = _licence_text(url.rsplit("/", 1)[0] + "/LICENSE" if url else spec.licence_url, timeout)
    if licence:
        (target.parent / f"{target.name}.LICENSE").write_text(licence)
    return {"path": str(target), "sha256": spec.sha256, "bytes": size, "downloaded": True, "licence": spec.licence,
            "licence_text": licence}


def _download(url: str, target: Path, sha256: str, timeout: float, started=None) -> int:
    """Stream ``url`` into a file beside ``target``, at most MAX_USER_FILE_BYTES, and move it
    into place only when its SHA-256 is ``sha256``; returns its size."""
    part = target.with_name(target.name + ".part")
    digest, size = hashlib.sha256(), 0
    try:  # where it goes is tried before the download: a folder it cannot write is said as such
        out = open(part, "wb")
    except OSError as exc:
        raise Unavailable(f"cannot write {part}: {exc.strerror or exc}") from None
    if started:
        started(url)
    try:
        with out, urllib.request.urlopen(url, timeout=timeout) as response:
            while chunk := response.read(1 << 20):
                size += len(chunk)
                if size > MAX_USER_FILE_BYTES:
                    raise UserFileError(f"{url}: more than {MAX_USER_FILE_BYTES:,} bytes; not stored")
                digest.update(chunk)
                out.write(chunk)
    except (urllib.error.URLError, http.client.HTTPException, OSError) as exc:
        part.unlink(missing_ok=True)
        reason = getattr(exc, "reason", None) or exc
        raise Unavailable(f"cannot download {url}: {reason} (offline? download it yourself and name it with "
                          "--net PATH)") from None
    except BaseException:
        part.unlink(missing_ok=True)
        raise
    if digest.hexdigest() != sha256:
        part.unlink(missing_ok=True)
        raise UserFileError(f"{url}: its SHA-256 is {digest.hexdigest()}, not the {sha256} Scorebook knows; "
                            "not stored")
    os.replace(part, target)
    return size


def _licence_text(url: str, timeout: float) -> str | None:
    """The licence's text, when it can be had (at most LICENCE_MAX_BYTES, printable text)."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            data = response.read(LICENCE_MAX_BYTES + 1)
    except (urllib.error.URLError, http.client.HTTPException, OSError):
        return None
    text = data[:LICENCE_MAX_BYTES].decode("utf-8", "replace")
    return "".join(c for c in text if c.isprintable() or c in "\n\t") or None


def _stored_licence(target: Path) -> str | None:
    try:
        return (target.parent / f"{target.name}.LICENSE").read_text()
    except OSError:
        return None


def _sha256_of(path: Path) -> str | None:
    try:
        return hashlib.sha256(_read("file", str(path))).hexdigest()
    except UserFileError:
        return None


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
