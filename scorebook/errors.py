"""The flat set of named exceptions. Every rejection carries its position.

>>> e = IllegalMove("cell-occupied", "the cell already holds a tile", line=1, column=40, ply=3, token="hc8")
>>> str(e)
'line 1, column 40, ply 3, token hc8: cell-occupied: the cell already holds a tile'
"""
from __future__ import annotations


MAX_SHOWN = 40  # characters of a token a rejection shows


class ScorebookError(Exception):
    """Base of every error Scorebook reports to a user as one line."""


class UsageError(ScorebookError):
    """Bad arguments: unknown format, missing record, unreadable file."""


class UnknownGame(UsageError):
    """A game id that no registered game has (``planned``: named by the contract, not built yet)."""

    def __init__(self, message: str, game_id: str, *, planned: bool = False):
        super().__init__(message)
        self.game_id = game_id
        self.planned = planned


class UserFileError(ScorebookError):
    """A file the user supplies to an engine (``--net``) that cannot be used: missing,
    unreadable, not the model the engine drives, or its package not installed."""


class NotFound(ScorebookError):
    """What a command names is not there: no record with that id (exit 1, as a failed check)."""


class Unavailable(ScorebookError):
    """Something a command needs from the machine is not available (a port in use)."""


class DatabaseError(ScorebookError):
    """The database cannot be used: damaged, not a database, locked past patience."""


class RecordRejected(ScorebookError):
    """A record that cannot be stored; ``code`` is stable, ``message`` is for people."""

    def __init__(self, code: str, message: str, *, line: int | None = None,
                 column: int | None = None, ply: int | None = None, token: str | None = None,
                 move: int | None = None):
        self.code = code
        self.message = message
        self.line = line
        self.column = column
        self.ply = ply
        # a token is shown within a bound: a 5,000-digit number is not echoed whole
        self.token = token if token is None or len(token) <= MAX_SHOWN else token[:MAX_SHOWN - 1] + "…"
        self.move = move
        super().__init__(self.describe())

    def describe(self) -> str:
        where = []
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.column is not None:
            where.append(f"column {self.column}")
        if self.ply is not None:
            where.append(f"ply {self.ply}")
        if self.token is not None:
            where.append(f"token {self.token}")
        prefix = ", ".join(where)
        return f"{prefix}: {self.code}: {self.message}" if prefix else f"{self.code}: {self.message}"

    def as_dict(self) -> dict:
        out = {"line": self.line, "column": self.column, "ply": self.ply, "token": self.token,
               "code": self.code, "message": self.message}
        if self.move is not None:
            out["move"] = self.move
        return out


class ParseError(RecordRejected):
    """The text does not follow the format's grammar."""


class IllegalMove(RecordRejected):
    """The text parses but replay finds a move the rules forbid."""
    part = 0  # the part of a move written in parts that the rules refuse (``Engine.refused_part``)


class ScoreMismatch(RecordRejected):
    """The score the record states differs from the replayed one."""


class ErrorPolicy:
    """What a reader does with an error it could step over: strict raises every error;
    lenient keeps a stated score that differs from the replay as a warning (the record is
    stored) and raises everything else. Readers call ``handle`` instead of threading a flag.

    >>> warnings = []
    >>> LENIENT.handle(ScoreMismatch("score-mismatch", "stated 5, replay 6"), warnings)
    >>> warnings
    ['score-mismatch: stated 5, replay 6']
    """

    def __init__(self, name: str, keeps: tuple[type[RecordRejected], ...]):
        self.name = name
        self.keeps = keeps

    def handle(self, error: RecordRejected, warnings: list[str]) -> None:
        if isinstance(error, self.keeps):
            warnings.append(error.describe())
            return
        raise error

    def __repr__(self) -> str:
        return f"ErrorPolicy({self.name!r})"


STRICT = ErrorPolicy("strict", ())
LENIENT = ErrorPolicy("lenient", (ScoreMismatch,))
