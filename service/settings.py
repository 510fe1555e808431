"""The server's configuration (``serve --config FILE``) and the bodies its API takes, as
pydantic models: every field bounded, anything unknown refused.

    {"scorebook": {"submit": {"id": ["alice", "bob"]}, "analyze": {"id": "alice"},
                   "admin": {"id": "alice"}, "accounts": "/etc/scorebook/accounts",
                   "max_queued": 10, "job_seconds": 300, "max_submission_bytes": 1048576},
     "plugins": {...}}

A password hash or any other secret never sits in this file: accounts live in a file of
their own (``scorebook account set``), and another plugin's secret is given as
``{"$env": "NAME"}`` or ``{"$file": "PATH"}`` (Datasette reads it; no page shows it).
"""
from __future__ import annotations

import json
import re
from typing import Any, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from scorebook.errors import UsageError
from scorebook.records.limits import MAX_FILE_BYTES

# a Datasette allow block: true/false, or {"id": NAME or [NAMES], ...}
Allow = Union[bool, dict[str, Union[str, list[str]]]]
SECRET_WORDS = re.compile(r"hash|password|secret|token|key|credential", re.IGNORECASE)


class Limits(BaseModel):
    """What one client may cost the server: the defaults hold behind a proxy or without one."""
    model_config = ConfigDict(extra="forbid")
    max_queued: int = Field(10, ge=1, le=1000, description="jobs one actor may have queued or running")
    job_seconds: int = Field(300, ge=5, le=86400, description="the longest one analysis job may run")
    max_submission_bytes: int = Field(1024 * 1024, ge=1024, le=MAX_FILE_BYTES,
                                      description="the largest submission (one request: a file or a form's text)")
    header_seconds: float = Field(10.0, gt=0, le=120, description="a connection's time to send a request's headers")
    body_seconds: float = Field(30.0, gt=0, le=600, description="a request's time to send its whole body")
    max_connections: int = Field(4096, ge=8, le=100000, description="open connections at once (at most the "
                                                                      "open files allowed, less 128); past it, 503")
    max_connections_per_address: int = Field(256, ge=1, le=100000, description="open connections from one address "
                                                                               "at once; past it, closed at once")
    login_attempts: int = Field(5, ge=1, le=1000, description="failed sign-ins to an account from one address "
                                                              "in login_window seconds (an address: four times it)")
    login_window: int = Field(900, ge=1, le=86400)
    session_seconds: int = Field(14 * 86400, ge=60, le=366 * 86400, description="how long a sign-in lasts, at most")


class ScorebookConfig(Limits):
    submit: Allow | None = None
    analyze: Allow | None = None
    tournament: Allow | None = None  # who directs tournaments: create, join, pair, results, analyses of a round
    admin: Allow | None = None  # who may cancel any actor's job (an owner may always cancel their own)
    accounts: str | None = None  # the accounts file: NAME:HASH lines (scorebook account set)


class ServeConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")
    scorebook: ScorebookConfig = ScorebookConfig()
    plugins: dict[str, dict[str, Any]] = {}

    @field_validator("plugins")
    @classmethod
    def _no_inline_secret(cls, plugins: dict) -> dict:
        for plugin, settings in plugins.items():
            for key, value in settings.items():
                if SECRET_WORDS.search(key) and not (isinstance(value, dict) and set(value) <= {"$env", "$file"}):
                    raise ValueError(f'plugins.{plugin}.{key} looks like a secret: give it as {{"$env": "NAME"}} or '
                                     f'{{"$file": "PATH"}}, never in the file itself')
        return plugins


def read_config(path: str | None) -> ServeConfig:
    """``serve --config``: the file read (at most 1 MiB) and checked, or the defaults."""
    if path is None:
        return ServeConfig()
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read(1024 * 1024 + 1)
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"--config {path}: cannot be read ({exc})") from None
    if len(text) > 1024 * 1024:
        raise UsageError(f"--config {path}: larger than 1 MiB")
    try:
        return ServeConfig.model_validate(json.loads(text))
    except ValueError as exc:  # JSONDecodeError and ValidationError alike
        raise UsageError(f"--config {path}: {_first_error(exc)}") from None


def _first_error(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        e = exc.errors()[0]
        where = ".".join(str(p) for p in e["loc"])
        return f"{where}: {e['msg']}" if where else e["msg"]
    return f"not JSON ({exc})"


class AnalysisAsk(BaseModel):
    """``POST /-/scorebook/api/records/ID/analyses``: both optional. The bot's options are
    checked against its game's caps when the record is known (``analyze.run.resolve``)."""
    model_config = ConfigDict(extra="forbid", strict=True)
    bot: str | None = Field(None, max_length=200)
    seed: int = Field(0, ge=0, lt=10 ** 9)


def analysis_ask(body: bytes) -> AnalysisAsk:
    """The body read (empty: the defaults); UsageError for anything else."""
    try:
        return AnalysisAsk.model_validate_json(body or b"{}")
    except ValidationError:
        raise UsageError('the body is JSON: {"bot": "KEY:N,...", "seed": N}, both optional') from None
