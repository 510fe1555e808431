"""One replay for every game (lichess scalachess's ``Replay``): the engine owns the rules, the
walk owns the loop. A game's notation turns text into actions and hands each one on with the
place it was written (python-chess's reader owns the board and hands ``(board, move)`` on);
the walk applies it through the engine's protocol and, at the first action the rules refuse,
raises :class:`IllegalMove` with that place, the engine's code and the engine's reason.

The same walk gives ``show`` and the reports their positions (:func:`positions`), from the
steps a record holds: what was played, seat by seat, with how the record wrote it.

>>> from scorebook import registry
>>> engine = registry.get_game("patchwork").engine
>>> walk = Replay(engine, (0, []))  # the real one-player variant: (variant, circle)
>>> walk.play((1, 2, 0), Place(line=3, column=1, token="S2"))  # skip two spaces
>>> walk.play((0, 99, 0), Place(line=3, column=4, token="B99"))
Traceback (most recent call last):
...
scorebook.errors.IllegalMove: line 3, column 4, ply 2, token B99: unknown-patch: patches are 0 to 32
"""
from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple

from scorebook.engines.protocol import OK, Engine
from scorebook.errors import IllegalMove, RecordRejected


@dataclass(frozen=True)
class Position:
    """The position after one move of a record, for ``show``, the reports and the analysis."""
    ply: int
    player: int
    move: str  # the move as the record writes it
    annotation: str | None
    state: object  # what the boards draw of the state after the move (the game's view of it)
    before: object  # the same of the state before the move
    game: int = 1  # the game of a multi-game record (a triad)
    action: object = None  # the engine's action that led here
    place: object = None  # where the record writes the move (a Place, or one for each part), when known


class Place(NamedTuple):
    """Where a move is written: what a rejection points at (a tuple: one is made a move)."""
    line: int | None = None
    column: int | None = None
    token: str | None = None


@dataclass(frozen=True)
class Step:
    """One move of a record: the engine's action, the seat that played it, and the record's
    own writing of it (its text and annotation)."""
    action: object
    seat: int
    move: str
    annotation: str | None = None
    place: object = None  # where the record writes it (a Place, or one for each part), when read


@dataclass(frozen=True)
class Trace:
    """A record walked: what ``show``, the analysis and the report take, carried from the one
    read to the last render (nothing walks the record again). ``positions``: after every move
    of every game, in order. A record that does not read or replay carries its first rejection
    as ``error``, with the positions before it (``Notation.trace_games``, ``trace_until_refused``)."""
    record: object  # None for a record that does not read: the positions are then those before its error
    players: list[str]
    positions: list[Position]
    error: RecordRejected | None = None  # the first rejection (lichess's Replay gives it as a value too)
    score: dict | None = None  # the replay's score, in the game's shape; None where the walk stopped short
    #: each game's setup, as its engine starts from it (``Engine.initial_state``): the chance
    #: outcomes the record fixes (a deal, a shuffle, the offers); of a record refused midway,
    #: those of the games its walk began
    setups: tuple = ()


class Replay:
    """A game walked from its setup through its engine, one action at a time."""

    def __init__(self, engine: Engine, setup, kept_in: list | None = None):
        """``kept_in``: a list the walk adds itself to, keeping a copy of its state before the
        first action and after each one (``kept``), so that a reader's walk gives the positions
        it passed through (``Notation.trace``) instead of a second walk; None for a walk that
        only checks (ingest)."""
        self.engine, self.setup = engine, setup
        self.state = engine.initial_state(setup)
        self.ply = 0  # actions played
        self.kept = None if kept_in is None else [copy.deepcopy(self.state)]
        #: the steps played, as written (their places' words): a record refused midway has no
        #: steps of its own, and its positions before the refusal are these
        self.steps: list[Step] | None = None if kept_in is None else []
        if kept_in is not None:
            kept_in.append(self)

    def play(self, action, place: Place | Sequence[Place] | None = None) -> None:
        """Apply ``action``, or raise IllegalMove at ``place`` (the state is then unchanged).
        A move written in parts gives a place for each; the rejection points at the part the
        engine refuses (``Engine.refused_part``)."""
        seat = None if self.kept is None else self.engine.to_move(self.state)
        code = self.engine.apply(self.state, action)
        if code != OK:
            raise self._refusal(action, code, place)
        self.ply += 1
        if self.kept is not None:
            self.kept.append(copy.deepcopy(self.state))
            self.steps.append(Step(action, seat, _written(place), None, place))

    def play_all(self, actions: list, places: Sequence[Place | Sequence[Place] | None] = ()) -> None:
        """Apply ``actions`` in order (``Engine.play_all``: at once where the engine can), or
        raise IllegalMove at the first one refused, at its place in ``places``; the state is
        then as after the ones before it. A walk that keeps its states plays them one by one."""
        if self.kept is not None:
            for index in range(len(actions)):
                self.play(actions[index], places[index] if index < len(places) else None)
            return
        code, index = self.engine.play_all(self.state, actions)
        self.ply += index
        if code != OK:
            raise self._refusal(actions[index], code, places[index] if index < len(places) else None)

    def _refusal(self, action, code: int, place) -> IllegalMove:
        part = self.engine.refused_part(self.state, action, code)
        if place is not None and not isinstance(place, Place):  # a place for each part
            place = place[min(part, len(place) - 1)] if len(place) else None
        place = place or Place()
        refusal = IllegalMove(self.engine.code_name(code), self.engine.explain(self.state, action, code),
                              line=place.line, column=place.column, ply=self.ply + 1, token=place.token)
        refusal.part = part
        return refusal


def replay_read(engine: Engine, setup, actions: Sequence, places: Sequence = (), kept_in: list | None = None,
                play_one=None) -> Replay:
    """The walk of a record read whole before it is replayed (Iwoki, Tiny Islands), from
    ``setup``, every action played: at once (``Replay.play_all``, raising at the first refused,
    at its place in ``places``), or through the game's ``play_one(walk, index, action)`` where
    the record states facts of each action checked against the state it leaves (Iwoki's seats
    and points). The loop is this one; the game gives the hook."""
    walk = Replay(engine, setup, kept_in)
    if play_one is None:
        walk.play_all(actions, places)
    else:
        for index, action in enumerate(actions):
            play_one(walk, index, action)
    return walk


def walked(engine: Engine, setup, actions: Iterable) -> list:
    """The states a game played through the protocol passes through, before the first action
    and after each (copies), what its writer writes from (``Notation.write_walked``): the
    shared walk of a game whose play kept no states."""
    walk = Replay(engine, setup, kept_in=[])
    for action in actions:
        walk.play(action)  # an action the rules refuse is a bug of the caller: raised, never written
    return walk.kept


def _written(place) -> str:
    """A step's text as its record writes it: the words of its place (of each part's place)."""
    parts = [place] if place is None or isinstance(place, Place) else place
    return " ".join(p.token for p in parts if p is not None and p.token)


def _positions_of(number: int, steps: Iterable[Step], states: Iterator,
                  view: Callable[[object, object, Step | None], object]) -> Iterator[Position]:
    """Game ``number``'s positions from its steps and the states before the first and after
    each (taken one by one: a walk's state may be the same object, changed move after move)."""
    before = view(next(states), None, None)
    for ply, step in enumerate(steps, 1):
        after = view(next(states), before, step)
        yield Position(ply=ply, player=step.seat, move=step.move, annotation=step.annotation,
                       state=after, before=before, game=number, action=step.action, place=step.place)
        before = after


def positions_passed(games: list[tuple[object, list[Step]]], walks: list,
                     view: Callable[[object, object, Step | None], object]) -> list[Position] | None:
    """The positions of walks that kept their states (``Replay(kept_in=)``), one walk a game
    and a state a step: the same as ``positions`` gives, without walking again, each step
    at the place the walk played it from; None where the walks kept are not the record's games."""
    if len(walks) != len(games) or any(walk.kept is None or len(walk.kept) != len(steps) + 1
                                       for (_, steps), walk in zip(games, walks)):
        return None
    return [p for number, ((_, steps), walk) in enumerate(zip(games, walks), 1)
            for p in _positions_of(number, [step if step.place is not None else replace(step, place=played.place)
                                            for step, played in zip(steps, walk.steps)], iter(walk.kept), view)]


def positions_kept(walks: list, view: Callable[[object, object, Step | None], object]) -> list[Position]:
    """The positions walks kept (``Replay(kept_in=)``) reached, each walk a game, up to where
    each stopped: those of a record refused midway, before its refusal; each move is its words."""
    return [p for number, walk in enumerate(walks, 1)
            for p in _positions_of(number, walk.steps, iter(walk.kept), view)]


def positions_until_refused(engine: Engine, games: Iterable[tuple[object, Iterable[Step]]],
                            view: Callable[[object, object, Step | None], object]
                            ) -> tuple[list[Position], IllegalMove | None]:
    """``positions`` up to the first step the rules refuse, and that refusal (None: none)."""
    out: list[Position] = []
    try:
        for p in positions(engine, games, view):
            out.append(p)
    except IllegalMove as refusal:
        return out, refusal
    return out, None


def positions(engine: Engine, games: Iterable[tuple[object, Iterable[Step]]],
              view: Callable[[object, object, Step | None], object]) -> Iterator[Position]:
    """The position after every move of every game of a record (``games``: each its setup and
    its steps, in order). ``view(state, previous view, step)`` is what the boards draw of a
    state (called with no step for the state before the first move); the engine's state is
    reused move after move, so a view copies what it keeps."""
    for number, (setup, steps) in enumerate(games, 1):
        steps = list(steps)  # read twice: played by the walk, written into the positions
        yield from _positions_of(number, steps, _walked(Replay(engine, setup), steps), view)


def _walked(walk: Replay, steps: Iterable[Step]) -> Iterator:
    """The walk's state before the first step and after each, the steps played as it goes."""
    yield walk.state
    for step in steps:
        walk.play(step.action)
        yield walk.state
