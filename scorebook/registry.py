"""The game registry: every game declares itself once, as data, and every layer dispatches
through it (OpenSpiel's ``_GAME_TYPE`` / ``_GAME_INFO`` and ``register_game`` are the model).

A game is three modules and one registration line (at the bottom of this file):

* ``engines/<game>/``: ``game.json`` (the declaration under ``"game"``, one schema for every
  game, checked here; the game's own facts beside it) and the rules, whose ``ENGINE`` object
  follows :class:`scorebook.engines.protocol.Engine`;
* ``records/<game>.py``: its notation, ``NOTATION`` (:class:`scorebook.records.notation.Notation`);
* ``analyze/<game>.py``: its evaluator and boards, ``ANALYSIS``
  (:class:`scorebook.analyze.protocol.Analysis`);
* and, for each foreign format it reads, ``records/<format>.py``: ``FORMAT``
  (:class:`scorebook.records.notation.Format`).

Modules are imported on first use, so a command touching one game never loads (or compiles)
another's engine.

>>> get_game("iwoki").info.players
Players(min=2, max=2)
>>> get_game("chess")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
scorebook.errors.UnknownGame: unknown game 'chess'; games: ...
"""
from __future__ import annotations

import importlib
import json
import re
from dataclasses import dataclass, field
from functools import cached_property
from importlib import resources

from pydantic import ConfigDict, TypeAdapter, ValidationError, with_config

from scorebook.errors import UnknownGame

# every part of the declaration: typed strictly, no key it does not name
_STRICT = with_config(ConfigDict(strict=True, extra="forbid"))

# ---------------------------------------------------------------- the declaration schema


@_STRICT
@dataclass(frozen=True)
class Players:
    min: int
    max: int


@_STRICT
@dataclass(frozen=True)
class Formats:
    read: tuple[str, ...]
    write: tuple[str, ...]
    # a foreign format's first non-blank line, as a regular expression: how ingest recognises it
    detect: dict[str, str] = field(default_factory=dict)


@_STRICT
@dataclass(frozen=True)
class Bot:
    """A bot of ``play``: ``name`` or ``name:N`` when it takes a number (``argument``);
    ``needs``: the user file it plays with (``UserFile.name``)."""
    name: str
    about: str
    argument: str | None = None  # what N means, e.g. "rollouts"
    default: int | None = None
    min: int = 1
    max: int | None = None
    needs: str | None = None


@_STRICT
@dataclass(frozen=True)
class Fetch:
    """Where ``scorebook NAME fetch`` downloads a user file from (its publisher's copy), the
    SHA-256 the bytes must have, and its licence (named, and where its text is)."""
    url: str
    sha256: str
    licence: str
    licence_url: str


@_STRICT
@dataclass(frozen=True)
class UserFile:
    """A file the user supplies to the game's engine (a trained network), never shipped with
    Scorebook: ``--NAME PATH`` on ``play`` and ``analyze``, the environment variable ``env``,
    or the copy ``scorebook NAME fetch`` stored (when ``fetch`` says where to get it)."""
    name: str
    env: str
    help: str
    fetch: Fetch | None = None


@_STRICT
@dataclass(frozen=True)
class PlayOption:
    """A game-specific option of ``play`` (``--grid 12``): ``kind`` is choice, int, float,
    flag or file."""
    name: str
    kind: str
    help: str
    choices: tuple[str, ...] = ()
    default: str | int | float | bool | None = None
    min: float | None = None
    max: float | None = None


@_STRICT
@dataclass(frozen=True)
class Analysis:
    """How ``analyze`` judges a move: the bot and its options (``--bot key:N``), what a value
    is, and the loss thresholds of the classes, mildest first."""
    bot: str
    value: str
    unit: str
    options: dict[str, int]
    thresholds: dict[str, float]
    # the most a request to the service (``serve --writes``) may ask of each option: a job's
    # work is bounded before it is queued (an option not named here: 4x its default)
    served: dict[str, int] = field(default_factory=dict)
    # with this user file configured, the analysis judges with these options instead
    uses: str | None = None
    options_with_file: dict[str, int] = field(default_factory=dict)
    # what a value is, for reading it from another seat's side (the report's one perspective):
    # "margin" (the other seat's is its negation), "share" (of a win, in %: 100 less it), "score"
    scale: str = "margin"
    # how consecutive moves' values agree (analyze/consistency.py): whether a chance outcome
    # may come between two moves (a tile drawn: then only the mean over the draws agrees), and
    # the points by which the bot's own horizon may leave a move's value from the next
    # position's best beyond their standard errors (docs/games.md says why, game by game)
    drawn_between: bool = False
    horizon: float = 0.0
    exact_horizon: float = 0.0  # the same between two values searched to the end (a solve of some moves only)
    # the analysis ranks the game's events (``standings``; ``Game.tournament``, a module of
    # its own): told here so that finding the game of an event loads no game's code
    tournaments: bool = False


@_STRICT
@dataclass(frozen=True)
class GameInfo:
    """A game's declaration: the ``"game"`` object of its ``game.json``."""
    id: str
    name: str
    players: Players
    chance: bool
    hidden_information: bool
    max_length: int  # plies of one record, at most
    formats: Formats
    bots: tuple[Bot, ...]
    play_options: tuple[PlayOption, ...] = ()
    rule_sets: tuple[str, ...] = ()
    identifying_tags: tuple[str, ...] = ()  # container tags that name the game when Game is absent
    aliases: tuple[str, ...] = ()  # other values of the Game tag that name the game (patchwork-solo)
    analysis: Analysis | None = None
    user_files: tuple[UserFile, ...] = ()

    def bot(self, name: str) -> Bot | None:
        return next((b for b in self.bots if b.name == name), None)

    def user_file(self, name: str) -> UserFile | None:
        return next((f for f in self.user_files if f.name == name), None)


KINDS = ("choice", "int", "float", "flag", "file")
SCALES = ("margin", "share", "score")


_DECLARATION = TypeAdapter(GameInfo)


def _fault(error: dict, where: str) -> str:
    """One of pydantic's errors, said with its place in the declaration."""
    *path, last = ("game", *(str(p) for p in error["loc"])) if error["loc"] else ("game",)
    place = ".".join(path) if path else last
    if error["type"] == "missing":
        return f"{where}: {place}: missing {last}"
    if error["type"] in ("extra_forbidden", "unexpected_keyword_argument"):
        return f"{where}: {place}: unknown key(s) {last}"
    return f"{where}: {'.'.join([*path, last])}: {error['input']!r}: {error['msg']}"


def load_info(facts: dict, where: str) -> GameInfo:
    """Check a game's declaration (the ``"game"`` object of ``game.json``); ValueError if it is wrong."""
    try:  # JSON mode: lists read as the tuples the declaration holds, nothing else converted
        info = _DECLARATION.validate_json(json.dumps(facts.get("game")))
    except ValidationError as exc:
        raise ValueError(_fault(exc.errors()[0], where)) from None
    for fault in (_players_fault(info), _options_fault(info), _analysis_fault(info), _formats_fault(info),
                  _files_fault(info)):
        if fault:
            raise ValueError(f"{where}: {fault}")
    return info


def _players_fault(info: GameInfo) -> str | None:
    return None if 1 <= info.players.min <= info.players.max else "players must satisfy 1 <= min <= max"


def _options_fault(info: GameInfo) -> str | None:
    for o in info.play_options:
        if o.kind not in KINDS:
            return f"play option {o.name}: kind must be one of {', '.join(KINDS)}"
        if o.kind == "choice" and o.default is not None and o.default not in o.choices:
            return f"play option {o.name}: default {o.default!r} is not a choice"
    return None


def _analysis_fault(info: GameInfo) -> str | None:
    a = info.analysis
    if a is None:
        return None
    if a.scale not in SCALES:
        return f"analysis scale must be one of {', '.join(SCALES)}"
    options = {**a.options, **a.options_with_file}
    wrong = [k for k, cap in a.served.items() if k not in options or cap < options[k]]
    if wrong:
        return f"analysis served caps an option it does not have, or below its default: {', '.join(wrong)}"
    return None


def _formats_fault(info: GameInfo) -> str | None:
    if "pgn" not in info.formats.read or not set(info.formats.write) <= set(info.formats.read):
        return "every game reads pgn, and writes only formats it reads"
    if set(info.formats.detect) != set(info.formats.read) - {"pgn"}:
        return "formats.detect gives a pattern for every foreign format it reads"
    return None


def _files_fault(info: GameInfo) -> str | None:
    files = {f.name for f in info.user_files}
    needed = {b.needs for b in info.bots if b.needs} | ({info.analysis.uses} if info.analysis and info.analysis.uses
                                                         else set())
    return None if needed <= files else "a bot or the analysis needs a user file the game does not declare"


# ---------------------------------------------------------------- registration


@dataclass
class Game:
    """A registered game: its declaration, its facts, and its three modules."""
    info: GameInfo
    facts: dict = field(repr=False)
    engine_module: str
    records_module: str
    analysis_module: str

    @property
    def id(self) -> str:
        return self.info.id

    @cached_property
    def engine(self):
        """The rules (``engines.protocol.Engine``)."""
        return importlib.import_module(self.engine_module).ENGINE

    @cached_property
    def notation(self):
        """Records of the game (``records.notation.Notation``)."""
        return importlib.import_module(self.records_module).NOTATION

    @cached_property
    def formats(self) -> dict:
        """The foreign formats it reads, by name (``records.notation.Format``): each is the
        ``FORMAT`` of its own module, ``scorebook.records.<name>`` (dashes as underscores)."""
        return {f: importlib.import_module(f"scorebook.records.{f.replace('-', '_')}").FORMAT
                for f in self.info.formats.read if f != "pgn"}

    @cached_property
    def analysis(self):
        """Evaluator and boards (``analyze.protocol.Analysis``)."""
        return importlib.import_module(self.analysis_module).ANALYSIS

    @property
    def has_tournaments(self) -> bool:
        """Whether its events are ranked (``standings``), as its analysis declares: told without
        loading any of its code."""
        return bool(self.info.analysis and self.info.analysis.tournaments)

    @cached_property
    def tournament(self):
        """How its events are ranked, where it has tournaments: the ``TOURNAMENT`` of its own
        module, the analysis module's name with ``_tournament`` (loaded without the analysis,
        its rules or its bots); else None."""
        if not self.has_tournaments:
            return None
        return importlib.import_module(self.analysis_module + "_tournament").TOURNAMENT


def user_file_names() -> list[str]:
    """Every user file some game declares (the ``--NAME`` options of play and analyze)."""
    return list(dict.fromkeys(f.name for g in _GAMES.values() for f in g.info.user_files))


_GAMES: dict[str, Game] = {}
_DETECT: list[tuple[re.Pattern, str]] = []  # (first-line pattern, foreign format), registration order
_ALIASES: dict[str, str] = {}  # Game tag -> game id
# Named by the CLI contract but not built yet: refused as "not supported yet", not "unknown".
PLANNED: dict[str, str] = {}


def register_game(package: str, *, engine: str | None = None, records: str | None = None,
                  analysis: str | None = None) -> Game:
    """Register the game whose facts are ``<package>/game.json``. The engine object is
    ``<package>.game.ENGINE``; the notation and analysis modules default to
    ``scorebook.records.<name>`` and ``scorebook.analyze.<name>``, ``name`` the package's last
    part. Registering an id again replaces the earlier registration (tests register toy games)."""
    name = package.rsplit(".", 1)[-1]
    where = f"{package}/game.json"
    facts = json.loads(resources.files(package).joinpath("game.json").read_text())
    info = load_info(facts, where)
    game = Game(info, facts, engine or f"{package}.game", records or f"scorebook.records.{name}",
                analysis or f"scorebook.analyze.{name}")
    owners = {f: g.id for g in _GAMES.values() if g.id != info.id for f in g.info.formats.read if f != "pgn"}
    clash = [f for f in info.formats.read if f in owners]
    if clash:
        raise ValueError(f"{where}: format {clash[0]} is already read by {owners[clash[0]]}")
    _GAMES[info.id] = game
    PLANNED.pop(info.id, None)
    _index_formats()
    return game


def _index_formats() -> None:
    _DETECT[:] = [(re.compile(pattern), fmt) for g in _GAMES.values() for fmt, pattern in g.info.formats.detect.items()]
    _ALIASES.clear()
    _ALIASES.update({alias: g.id for g in _GAMES.values() for alias in g.info.aliases})


def unregister_game(game_id: str) -> None:
    _GAMES.pop(game_id, None)
    _index_formats()


def get_game(game_id: str) -> Game:
    """The registered game, or UnknownGame (a planned game: "not supported yet")."""
    game = _GAMES.get(game_id)
    if game is None:
        if game_id in PLANNED:
            raise UnknownGame(f"game {game_id!r} is not supported yet", game_id, planned=True)
        raise UnknownGame(f"unknown game {game_id!r}; games: {', '.join(_GAMES)}", game_id)
    return game


def games() -> list[Game]:
    """Every registered game, in registration order."""
    return list(_GAMES.values())


def game_ids() -> list[str]:
    return list(_GAMES)


def game_for_tags(tags: dict[str, str]) -> str | None:
    """The game a container record names: its Game tag, else a game's identifying tag."""
    if "Game" in tags:
        return _ALIASES.get(tags["Game"], tags["Game"])
    return next((g.id for g in _GAMES.values() if any(t in tags for t in g.info.identifying_tags)), None)


def format_owner(fmt: str) -> Game | None:
    """The game that reads a foreign format (None for pgn, which every game reads, or an unknown name)."""
    return next((g for g in _GAMES.values() if fmt != "pgn" and fmt in g.info.formats.read), None)


def formats() -> list[str]:
    """Every format some game reads: pgn first."""
    return ["pgn"] + [f for g in _GAMES.values() for f in g.info.formats.read if f != "pgn"]


def detect_foreign(line: str) -> str | None:
    """The foreign format whose pattern matches a record's first non-blank line."""
    return next((fmt for pattern, fmt in _DETECT if pattern.match(line)), None)


# ---------------------------------------------------------------- the games Scorebook ships
# One line each. A new game: its three modules (see the module docstring) and a line here.

register_game("scorebook.engines.tiny_islands")
register_game("scorebook.engines.game_of_islands")
register_game("scorebook.engines.iwoki")
register_game("scorebook.engines.patchwork")
register_game("scorebook.engines.tsuro")
