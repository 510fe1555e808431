"""The engines' protocol: one interface over every game's rules (OpenSpiel's ``State`` is the
model). A game's engine package defines ``ENGINE`` (in its ``game.py``), an :class:`Engine`.

* the transition: ``initial_state`` (from the chance outcomes fixed up front, ``new_game``),
  ``legal_actions``, ``apply`` (OK, or the code of the rule an illegal action breaks; the
  state is unchanged then; ``play_all`` many at once), ``is_terminal``, ``to_move``, ``score``;
* for records: ``code_name``, ``explain`` and ``refused_part`` say what a refusal means and
  which part of a move written in parts it points at;
* bots: ``play`` runs a whole game between bots at their seats (jitted where the work is) and
  returns what was played, which the game's notation writes as a record.

Engines import nothing above this layer and do no I/O. Actions are the game's own small
tuples; the game's notation (``records/<game>.py``) owns their text.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # only named in annotations: the records layer imports this module at every start
    import numpy as np

OK = 0


@dataclass(frozen=True)
class BotSpec:
    """A bot at a seat: its name (one the game declares) and its number (``mc:16``), if any."""
    name: str
    number: int | None = None

    def __str__(self) -> str:
        return self.name if self.number is None else f"{self.name}:{self.number}"


@dataclass
class Played:
    """What ``Engine.play`` returns: the actions played (``moves``, as ``legal_actions`` lists
    them; a record of several games, a triad, a list a game), the seconds the bots took,
    per-seat statistics the engine keeps (``info``), and the states the play's walk passed
    through (``states``: before the first move and after each, copies; a list a game for a
    record of several), so that the notation writes the game without walking it again; None
    where the bots keep no states (jitted whole games): the writer walks the game once."""
    moves: object
    seconds: float
    info: dict = field(default_factory=dict)
    states: list | None = field(default_factory=list)


class Engine(ABC):
    game_id: str

    # ---- chance: the outcomes fixed before the first move (a shuffle, a deal), or None

    @abstractmethod
    def new_game(self, rng: np.random.Generator, options: dict):
        """The chance outcomes of a new game, drawn from ``rng``."""

    # ---- the transition

    @abstractmethod
    def initial_state(self, setup):
        """The state before the first move."""

    @abstractmethod
    def legal_actions(self, state) -> list:
        """The legal actions of the player to move. Where they are too many to list (Tiny
        Islands' shorelines, claim sets), a documented representative set; ``apply`` takes
        any legal action."""

    @abstractmethod
    def apply(self, state, action) -> int:
        """Play ``action``: OK, or the code of the rule it breaks (``code_name``) and the state unchanged."""

    @abstractmethod
    def code_name(self, code: int) -> str:
        """The stable public name of an error code (the records' rejection codes)."""

    def explain(self, state, action, code: int) -> str:
        """Why ``action`` breaks rule ``code`` in ``state`` (unchanged by the refusal), for people."""
        return "illegal move"

    def play_all(self, state, actions: list) -> tuple[int, int]:
        """Play ``actions`` in order: (OK, how many), or the code of the first one refused and
        its index, the state then as after the ones before it. The same as ``apply`` one at a
        time; an engine whose rules replay a whole record faster at once (jitted) overrides it."""
        for index, action in enumerate(actions):
            code = self.apply(state, action)
            if code != OK:
                return code, index
        return OK, len(actions)

    def refused_part(self, state, action, code: int) -> int:
        """Which part of ``action`` rule ``code`` refuses, for a record that writes a move in
        parts (a line and the dots it claims): 0 the move itself or its first part, k its k-th
        part; a reader points the rejection at that part's place."""
        return 0

    @abstractmethod
    def is_terminal(self, state) -> bool:
        ...

    @abstractmethod
    def to_move(self, state) -> int:
        """The seat (0-based) to move."""

    @abstractmethod
    def score(self, state) -> dict:
        """The score as the game ends (or would end now), in the game's shape (shared/specs/cli.md)."""

    # ---- bots

    def seat_options(self, seats: int) -> dict:
        """The play options under which a game seats ``seats`` players (a tournament's tables):
        none by default, a rule set that changes the count of players where there is one."""
        return {}

    def check_play(self, bots: list[BotSpec], options: dict) -> str | None:
        """Why these bots cannot play a game under these options (a usage error), or None:
        e.g. one bot for a rule set of two players."""
        return None

    def warm_up(self, bots: list[BotSpec], options: dict) -> None:
        """Load (or compile) the bots' code before any game is timed."""

    def load_user_file(self, name: str, data: bytes):
        """The user file ``name`` the game declares (a trained network), from its bytes (the
        layers above read it: engines do no I/O), ready for ``options[name]``; raises
        ValueError with the reason when the bytes are not what the engine drives, ImportError
        when a package it needs is not installed."""
        raise ValueError(f"{self.game_id} takes no file {name!r}")

    @abstractmethod
    def play(self, setup, bots: list[BotSpec], seed: int, options: dict) -> Played:
        """A whole game: ``bots[i]`` at seat i (seats rotate between games in the match loop),
        random numbers from ``seed``; the states it walked through kept in ``Played.states``
        (none where the bots are jitted whole games that return their moves alone: the
        writer then walks the game once)."""
