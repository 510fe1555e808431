"""The analysis layer's protocol: what every game's ``analyze/<game>.py`` provides.

``ANALYSIS`` is an :class:`Analysis`: the evaluator behind ``analyze`` (per move, the value
of the bot's best move and of the move played, from the mover's side, in the game's points),
and the boards of ``show`` (text and JSON) and of the HTML report (SVG). What is the same
for every game (top-up of sampled values, classes, summaries, the page) stays in
``analyze/loss.py`` and ``analyze/html.py``.
"""
from __future__ import annotations

import re
from abc import ABC, abstractmethod


SEATS = ("First", "Second", "Third", "Fourth", "Fifth", "Sixth", "Seventh", "Eighth")


def seat_name(players, seat: int) -> str:
    """A seat as the record names its player, or as the seats are counted where it names none
    (``First``, ``Second``, ...).

    >>> seat_name(("ann", "bob"), 1), seat_name((), 0)
    ('bob', 'First')
    """
    return players[seat] if seat < len(players) and players[seat] else SEATS[seat]


class Analysis(ABC):
    game_id: str

    @abstractmethod
    def bot_name(self, options: dict[str, int]) -> str:
        """The analysing bot with its options, as stored with a report (and looked up by)."""

    def evaluate(self, trace, *, seed: int, options: dict[str, int], progress=None, kept: list | None = None):
        """(rows: list[loss.MoveRow], settings: dict) for every move of a walked record (a
        ``records.replay.Trace``); ``options`` are the game's analysis options (game.json),
        ``progress()`` is called once a move.

        The shared evaluate walk: every position of the trace judged by the game's ``judge``;
        ``memo`` is the walk's own dict, for what a judgement carries to the next move (a plan);
        it starts with ``setups``, the trace's (each game's chance outcomes: a deck, the offers).
        ``kept``: the list the rows go into as each is judged (a job stopped midway keeps them)."""
        record = trace.record
        rows = kept if kept is not None else []
        memo: dict = {"setups": trace.setups}
        batched = self.batched(options)
        for position in trace.positions:
            row = self.judge(record, position, seed=seed, options=options, memo=memo)
            if row is not None:
                rows.append(row)
            if progress and not batched:
                progress()
        rows += self.finish(record, seed=seed, options=options, memo=memo, progress=progress)
        return rows, self.settings(record, options, memo)

    def batched(self, options: dict[str, int]) -> bool:
        """Whether ``judge`` only gathers each move's candidates and ``finish`` values them all
        together (a bot that runs every move's play-outs in one batch)."""
        return False

    def finish(self, record, *, seed: int, options: dict[str, int], memo: dict, progress=None) -> list:
        """The rows a batched evaluator values once the walk is done, in ply order, calling
        ``progress()`` once a move; none by default."""
        return []

    def judge(self, record, position, *, seed: int, options: dict[str, int], memo: dict):
        """The row (``loss.MoveRow``) of the move that led to ``position`` (its ``before`` is
        the position the move was made in, its ``action`` the move), or None for a move that
        is not judged (a claim-only turn). ``memo`` lives as long as one record's walk."""
        raise NotImplementedError(f"{self.game_id}: judge() or evaluate()")

    def settings(self, record, options: dict[str, int], memo: dict) -> dict:
        """What the report stores of the options the moves were judged with (``memo``: what
        the walk's judgements kept)."""
        return dict(options)

    @abstractmethod
    def text_board(self, state, players: tuple[str, ...] = ()) -> str:
        """A position (``records.notation.Position.state``) as text, for ``show``; ``players``:
        the record's players by seat, where a board names a seat (a hand)."""

    @abstractmethod
    def state_json(self, state) -> dict:
        """A position as plain data, for ``show --json``."""

    def show_extra(self, position) -> dict:
        """Keys beside ply, move and annotation in ``show`` (e.g. which game of a triad)."""
        return {}

    def heading(self, position) -> str:
        """Text before ``ply N`` in ``show`` (e.g. ``game 2 (12x12), ``)."""
        return ""

    def move_mark(self, position) -> str:
        """A position's move as ``svg_board`` marks it: the move the record writes, less its
        number (``12.``, ``12...``)."""
        return re.sub(r"^\d+\.(\.\.)?\s*", "", position.move)

    @abstractmethod
    def svg_board(self, state, played: str | None = None, best: str | None = None,
                  players: tuple[str, ...] = ()) -> str:
        """The position before a move in SVG (``analyze/svg.py``), with coordinates, the move
        played and the bot's best marked (class ``mark``); ``players`` as ``text_board``'s."""

    @abstractmethod
    def legend(self, players: tuple[str, ...] = ()) -> str:
        """The legend of the game's boards in SVG (``svg.legend``), a seat's colour named by
        its player (``players``, by seat) where the record names them."""
