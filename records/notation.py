"""The records layer's protocol: what every game's notation module provides, and the typed
record the store takes.

A game's ``records/<game>.py`` defines ``NOTATION``, a :class:`Notation`: the one owner of
its action <-> text, its PGN-style visitor (strict or lenient through the error policy), its
foreign formats (TinyBot lines, Iwoki logs), the canonical text the store hashes, and a
record's games as setups and steps, from which the one replay walk (``replay.py``) gives the
positions after every move for ``show``, the reports and the analysis.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from scorebook import registry
from scorebook.errors import STRICT, ErrorPolicy, IllegalMove, RecordRejected, UsageError

from . import pgn, replay
from .replay import Position, Step, Trace  # noqa: F401 - the records' protocol names them


@dataclass
class Item:
    """One record read from a source, or the reason it could not be read."""
    index: int  # 1-based position in the source (line, or game number)
    format: str
    game: str | None
    record: object | None = None
    error: RecordRejected | None = None
    line: int = 1


class Canonical(NamedTuple):
    """What a game's notation makes of a replayed record for the store."""
    text: str  # the normalised Scorebook notation: the record's identity is its SHA-256
    moves: Sequence[tuple]  # (game, ply, player, move text, annotation): a list, or compiled.MovesRows
    score: dict  # the replayed score, in the game's shape (shared/specs/cli.md)
    recorded: dict | None  # the score the record states, same shape, or None
    score_rows: list[tuple]  # (seat, category, points)
    players: list[str]
    tags: dict[str, str]
    finished: bool
    total: int | None = None  # a one-number score, where the game has one
    rules: str | None = None
    deck: str | None = None
    warnings: list[str] = []


class PreparedRecord(NamedTuple):
    """A replayed record ready for the store: typed, immutable, and a plain tuple underneath
    (``tuple(p)`` crosses process boundaries by marshal; ``PreparedRecord._make`` reads it back)."""
    id: str
    hash: str
    game: str
    rules: str | None
    deck: str | None
    format: str
    source: str
    index: int
    text: str
    tags: dict[str, str]
    score: dict
    recorded: dict | None
    total: int | None
    finished: bool
    warnings: list[str]
    players: list[str]
    scores: list[tuple]
    #: the tags, the score, the stated score and the moves (rows: game, ply, seat, move, note) as
    #: the store's columns hold them (JSON), made where the record is prepared: a reader process,
    #: beside the writer (a move list crosses to the writer at twice the cost of its text)
    columns_json: tuple[str, str, str | None, str]
    # what browsing shows, as the game decides it: the result text, each seat's points and outcome
    result: str = ""
    points: list[float] = []
    outcomes: list[str | None] = []


class Format(ABC):
    """A foreign format one game reads and writes (PGN-style text is shared by every game).
    Ingest recognises it by the pattern its game declares (``formats.detect`` in game.json).
    Each is ``FORMAT`` in its own module, ``records/<name>.py``, which imports its game's
    notation (never the other way round)."""
    name: str
    one_record_a_line: bool = False  # then ``read_lines`` reads any slice of a file's lines

    @abstractmethod
    def read(self, text: str, policy: ErrorPolicy) -> list[Item]:
        """Every record of a text; never raises for bad content (errors go into the items)."""

    @abstractmethod
    def write(self, record) -> tuple[str, list[str]]:
        """The record in this format, and what the format cannot carry and was dropped."""

    def read_trace(self, text: str, index: int) -> Trace | None:
        """Record ``index`` (``Item.index``) of a text, walked as it is read: one its reader
        refuses, up to its first error (``show FILE``). None where the reader does not walk (its
        records are replayed from the record read, and walked from it)."""
        return None


class Notation(ABC):
    """A game's records: read, replay (through its engine), write, show."""
    game_id: str

    @abstractmethod
    def visitor(self, policy: ErrorPolicy) -> pgn.Visitor:
        """A fresh visitor for one record of the PGN-style container."""

    def group_key(self, game: pgn.PgnGame) -> str | None:
        """Games of one file sharing a key form one record (The Game of Islands' triads)."""
        return None

    @abstractmethod
    def canonical(self, record, policy: ErrorPolicy) -> Canonical:
        """Replay (where reading did not) and the canonical form; raises RecordRejected."""

    def trace(self, record, walks: list | None = None) -> Trace:
        """The record walked (``Trace``): the players, the position after every move and the
        replay's score. The walks its reader kept (``read_trace``) give the positions where they
        are the record's games, one each; otherwise the shared walk gives them, up to a step the
        rules refuse (the trace's ``error``: a record read without a replay, whose replay fails)."""
        games = self.games(record)
        found = None if walks is None else replay.positions_passed(
            games, walks, lambda state, before, step: self.view(record, state, before, step))
        error = None
        if found is None:
            found, error = self.walk(record, games)
        return Trace(record, self.players(record), self.finish_positions(record, found), error,
                     None if error is not None else self.replayed_score(record, found),
                     tuple(setup for setup, _ in games))

    def read_trace(self, text: str) -> Trace:
        """A stored record (its canonical text), read and walked once (``trace_games``)."""
        return self.trace_games(pgn_groups(pgn.split_games(text), self.group_key)[0])

    def trace_games(self, games: list[pgn.PgnGame], policy: ErrorPolicy = STRICT) -> Trace:
        """One record's games of a PGN-style text, read and walked once: the reader's own walk,
        its states kept, gives the positions. A record that does not read is a trace too: its
        first rejection as ``error``, with the positions its walk reached before it (none when
        the reading stopped before the walk began, or the game walks only at the end)."""
        walks: list = []
        visitor = self.visitor(policy)
        visitor.walks = walks
        try:
            record = pgn.read_record(games, visitor)
        except RecordRejected as err:
            return self.refused_trace(walks, visitor.seat_names() if walks else [], err)
        return self.trace(record, walks)

    def refused_trace(self, walks: list, names: list[str], error: RecordRejected) -> Trace:
        """A record its reader refused: ``error``, and the positions its kept walks reached
        before it, the seats named ``names`` (read from its tags)."""
        seen = _Refused(names)
        return Trace(None, names, replay.positions_kept(
            walks, lambda state, before, step: self.view(seen, state, before, step)), error,
                     setups=tuple(walk.setup for walk in walks))

    def trace_until_refused(self, record, error: RecordRejected) -> Trace:
        """A record read but refused when replayed or checked (``canonical``: a TinyBot line, a
        stated score that differs): the shared walk's positions up to the first step the rules
        refuse, and ``error``, the refusal as reading it found it (with its place)."""
        games = self.games_as_read(record)
        found, refusal = self.walk(record, games)
        return Trace(record, self.players(record), found, error, None if refusal is not None else
                     self.replayed_score(record, found), tuple(setup for setup, _ in games))

    def replayed_score(self, record, positions: list[Position]) -> dict:
        """The score the replay gives a record that replays (``Trace.score``), in the game's
        shape, from the positions walked: by default the one its reader's walk left on it."""
        return record.score

    def games_as_read(self, record) -> list[tuple[object, list[Step]]]:
        """``games``, of a record that may not replay (nothing of a replay is asked for)."""
        return self.games(record)

    def walk(self, record, games: list[tuple[object, list[Step]]]) -> tuple[list[Position], IllegalMove | None]:
        """The shared walk (``replay.positions_until_refused``) over a record's ``games`` (its
        setups and steps), through the game's engine: the positions, and the first step refused."""
        return replay.positions_until_refused(self._engine(), games,
                                              lambda state, before, step: self.view(record, state, before, step))

    def finish_positions(self, record, positions: list[Position]) -> list[Position]:
        """What the boards draw beside the states, added once the walk is done (Tiny Islands:
        the offer before a placement); the positions as walked by default."""
        return positions

    @abstractmethod
    def games(self, record) -> list[tuple[object, list[Step]]]:
        """Each game of a record: the engine's setup and the steps played (what the record
        says, read: no replay here)."""

    def view(self, record, state, before, step: Step | None):
        """What the boards draw of a record's state after ``step`` (None: before the first
        move), given the view before it: by default a copy of the engine's state. Of a record
        refused midway (``trace_games``), ``record`` holds only its ``players``."""
        return state.copy()

    def players(self, record) -> list[str]:
        """The players' names, by seat (of the record's first game): every game's record
        carries them as ``players``."""
        return list(record.players)

    # ---- writing: actions as text

    @abstractmethod
    def action_text(self, state, action) -> str:
        """An action as the record's movetext writes it, given the engine's state before it
        (OpenSpiel's ``action_to_string``): the text the game's reader parses back into the
        same move. The game's one writer of a move: its canonical text, its steps and the games
        it writes use the same function."""

    def write_game(self, setup, actions: list, players: list[str], tags: dict[str, str]) -> str:
        """One game as Scorebook notation from the engine's setup and the actions played (as
        ``legal_actions`` lists them), walked once through the engine (``replay.walked``), the
        result its score: any game played through the protocol becomes a record this way."""
        actions = list(actions)
        return self.write_walked(setup, actions, replay.walked(self._engine(), setup, actions), players, tags)

    @abstractmethod
    def write_walked(self, setup, actions: list, states: list, players: list[str], tags: dict[str, str]) -> str:
        """One game as Scorebook notation from the engine's setup, the actions played and the
        states the walk passed through (before the first action and after each): written from
        them, not walked again, each move by ``action_text`` in the state before it, the result
        the last state's score. ``players``: the names by seat. A record of several games (a
        triad, as ``Engine.play`` keeps it) has a list of actions and of states a game."""

    def _engine(self):
        return registry.get_game(self.game_id).engine

    # ---- bot games (``play``)

    def fixed_setups(self, options: dict) -> list | None:
        """The games the options give (Tiny Islands' ``--shuffles``), or None: each game is set
        up anew by the engine."""
        return None

    def write_played(self, setup, played, seats: list[tuple[str, object]], tags: dict[str, str],
                     context: dict) -> str:
        """A bot game (``Engine.play``) as Scorebook notation, ingested then like any record:
        every game's, written by the game's one writer (``write_walked``) from the actions
        played and the states its play kept, the game not walked again (walked once here when
        the bots kept none). ``seats``: (player name, BotSpec) per seat; ``context``: seed,
        game (0-based), options; what the record says of them beyond the names, its
        ``bot_tags``."""
        states = played.states
        if states is None:
            states = replay.walked(self._engine(), setup, played.moves)
        return self.write_walked(setup, played.moves, states, [name for name, _ in seats],
                                 {**tags, **self.bot_tags(setup, seats, context)})

    def bot_tags(self, setup, seats: list[tuple[str, object]], context: dict) -> dict[str, str]:
        """The tags a bot game's record carries beyond the match's (the agents at the seats, the
        game's seed, a triad's Match), which ``write_walked`` writes as any tag it is given or
        reads its header from; none by default."""
        return {}

    @abstractmethod
    def seat_points(self, score: dict) -> list[float]:
        """Each seat's points in a replayed score (the seats of the record's first game)."""

    def seat_outcomes(self, score: dict) -> list[str | None]:
        """Each seat's outcome in a replayed score: ``win``, ``loss`` or ``shared`` (the most
        points, alone or not); None for a game of one seat. A game whose match is decided by
        another rule than the most points says so here."""
        points = self.seat_points(score)
        if len(points) < 2:
            return [None] * len(points)
        best = max(points)
        return ["loss" if v < best else "shared" if points.count(best) > 1 else "win" for v in points]

    def seat_ranks(self, score: dict) -> list[int] | None:
        """Each seat's finishing place in a finished game (1 best; seats that tie share a place),
        what ratings are computed from; None for a game of one seat. By default the outcomes
        (two seats), else the most points."""
        points = self.seat_points(score)
        if len(points) < 2:
            return None
        if len(points) == 2:
            outcomes = self.seat_outcomes(score)
            return [2 if o == "loss" else 1 for o in outcomes]
        return [1 + sum(other > mine for other in points) for mine in points]

    def score_lines(self, score: dict, players: list[str]) -> list[str]:
        """The score as a person reads it (``show``): a line or a few, with the players' names."""
        return [", ".join(f"{k} {v}" for k, v in score.items())]

    def game_headers(self, record) -> dict[int, dict[str, str]]:
        """The tags of each game of a record of several games (a triad), by game number, for
        ``show`` to print before each game; empty for a record of one game."""
        return {}

    def file_label(self, options: dict) -> str:
        """What a bot game's file name says beside the players (``triad``, a grid size)."""
        return ""

    def read_pgn(self, text: str, policy: ErrorPolicy, walks: list | None = None) -> list:
        """Records of a PGN-style text of this game (stored records read back); raises the first
        error. ``walks``: where the readers' walks keep their states (``Replay(kept_in=)``)."""
        out = []
        for group in pgn_groups(pgn.split_games(text), self.group_key):
            visitor = self.visitor(policy)
            visitor.walks = walks
            out.append(pgn.read_record(group, visitor))
        return out

    def export(self, text: str, fmt: str, policy: ErrorPolicy) -> tuple[str, list[str]]:
        """A stored record (its canonical text) in a foreign format ``fmt``; what the format
        dropped. (In Scorebook notation, ``pgn``, it is the canonical text: ``export_record``.)"""
        formats = registry.get_game(self.game_id).formats
        if fmt not in formats:
            raise UsageError(f"{self.game_id} records cannot be written as {fmt}")
        return formats[fmt].write(self.read_pgn(text, policy)[0])


class _Refused(NamedTuple):
    """What the views see of a record refused midway: the names its tags gave the seats."""
    players: list[str]


def pgn_groups(games: list[pgn.PgnGame], key_of) -> list[list[pgn.PgnGame]]:
    """Games in file order, those sharing a non-None key together, each group at the place of
    its first game."""
    groups: list[list[pgn.PgnGame]] = []
    by_key: dict = {}
    for g in games:
        key = key_of(g)
        if key is None:
            groups.append([g])
        elif key in by_key:
            by_key[key].append(g)
        else:
            by_key[key] = [g]
            groups.append(by_key[key])
    return groups


def browsing(notation: "Notation", score: dict, finished: bool) -> tuple[str, list[float], list[str | None]]:
    """A record's result as the CLI writes it (`` *`` unfinished), each seat's points and each
    seat's outcome (win, loss, shared) as its game decides them."""
    return (score_text(score) + ("" if finished else " *"), notation.seat_points(score),
            notation.seat_outcomes(score))


def score_text(score) -> str:
    """A score in a few characters: a total, a pair of points, a triad's totals and result."""
    if not score:
        return "-"
    if "total" in score:
        return str(score["total"])
    if "final" in score:
        return f"{score['final'][0]}-{score['final'][1]}"
    if "totals" in score:
        return f"{score['totals'][0]}-{score['totals'][1]} ({score['result']})"
    if "points" in score:
        return f"{score['points'][0]}-{score['points'][1]}"
    if "winners" in score:
        return "won: " + (" ".join(score["players"][p] for p in score["winners"]) or "-")
    return ", ".join(f"{k} {v}" for k, v in score.items())
