"""A tournament as data: the event, its game and options, its format and planned rounds, its
entrants, and every table of every round with its result once reported. What the store keeps
(``records/store/tournaments.py``) and what pairing and standings read; no rules of any game.

A table's result is what its record (or the director) says: each seat's finishing place (1 is
best, seats that tie share a place) and, from a record, each seat's game points. The format
turns places into points (``seat_points``)."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

# the formats, and the seats a table of each holds (tables: the size the director asks)
FORMATS = ("swiss", "round-robin", "double-round-robin", "tables", "duplicate")
TWO_SEATS = ("swiss", "round-robin", "double-round-robin")
SOURCES = ("record", "forfeit", "director")

# each format's default tie-break chain (points first); The Game of Islands' two-seat events
# rank by its own chain (margin, OMB: its game.json)
DEFAULT_TIEBREAKS = {
    "swiss": ["points", "buchholz_cut1", "buchholz", "sonneborn_berger", "direct", "wins"],
    "round-robin": ["points", "sonneborn_berger", "direct", "wins"],
    "double-round-robin": ["points", "sonneborn_berger", "direct", "wins"],
    "tables": ["points", "game_score", "opponents_points"],
    "duplicate": ["points", "best_round"],
}


def seats_of(format_: str, table_size: int | None) -> int:
    """The seats at a table of a format: a duplicate's one, two, or the tables' size (4 unless asked)."""
    return 1 if format_ == "duplicate" else 2 if format_ in TWO_SEATS else (table_size or 4)


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Entrant(_Model):
    """A player of the tournament: ``joined`` is the first round they can be paired in (a late
    entry's is later than 1), ``absent`` the rounds they asked to sit out, ``withdrawn`` the
    first round they are no longer paired in (None: still playing)."""
    name: str
    rating: int | None = None
    joined: int = 1
    absent: list[int] = Field(default_factory=list)
    withdrawn: int | None = None

    def plays_in(self, round_: int) -> bool:
        return (self.joined <= round_ and round_ not in self.absent
                and (self.withdrawn is None or round_ < self.withdrawn))


class Table(_Model):
    """A table of a round: its seats in order (the first seat first), its kind (``game``, a
    pairing-allocated ``bye``, or ``absent``: a player not paired that round), and, once
    reported, each seat's place and game points, where the result came from, and its record."""
    round: int
    table: int
    seats: list[str]
    kind: Literal["game", "bye", "absent"] = "game"
    places: list[int] | None = None
    scores: list[float] | None = None
    source: Literal["record", "forfeit", "director"] | None = None
    record: str | None = None
    deal: str | None = None  # a duplicate round: the deal its record was played on

    @property
    def reported(self) -> bool:
        return self.kind != "game" or self.places is not None


class Tournament(_Model):
    """Everything about a tournament; ``tables`` of every round paired so far."""
    event: str
    game: str
    options: dict = Field(default_factory=dict)
    format: Literal["swiss", "round-robin", "double-round-robin", "tables", "duplicate"]
    rounds: int
    table_size: int = 2
    bye_points: float = 1.0  # a pairing-allocated bye's points (the director's)
    win_draw_loss: tuple[float, float, float] = (1.0, 0.5, 0.0)  # two seats: a game's points (a TRF's XXS)
    placement: list[float] = Field(default_factory=list)  # tables: points by place (4/2/1/0)
    first_seat: Literal["white1", "black1"] = "white1"  # TRF XXC: the first entrant's seat in round 1
    # the starting order (TRF's starting numbers): by rating, or as entered (an imported file's own)
    starting_order: Literal["rating", "entry"] = "rating"
    forbidden: list[tuple[str, str]] = Field(default_factory=list)
    tiebreaks: list[str] = Field(default_factory=list)
    seed: int = 0  # the deals of a duplicate event and the bots' games
    entrants: list[Entrant] = Field(default_factory=list)
    tables: list[Table] = Field(default_factory=list)

    @property
    def seats(self) -> int:
        return seats_of(self.format, self.table_size)

    @property
    def paired_rounds(self) -> int:
        return max((t.round for t in self.tables), default=0)

    def entrant(self, name: str) -> Entrant | None:
        return next((e for e in self.entrants if e.name == name), None)

    def round_tables(self, round_: int) -> list[Table]:
        return [t for t in self.tables if t.round == round_]

    def unreported(self, round_: int) -> list[Table]:
        return [t for t in self.round_tables(round_) if not t.reported]

    def seat_points(self, table: Table) -> list[float]:
        """Each seat's tournament points at a reported table, by the format: two seats a win 1,
        a draw 1/2 (a shared place), a loss 0; tables the director's points by place (seats
        sharing a place share its points and the next ones'); a duplicate round its score; a
        bye its points; an absence 0."""
        if table.kind == "bye":
            return [self.bye_points]
        if table.kind == "absent":  # an absence scores nothing, unless granted points (a TRF's F or H)
            return [float(table.scores[0]) if table.scores else 0.0]
        if table.places is None:
            return [0.0] * len(table.seats)
        if self.format == "duplicate":
            return [float(table.scores[0]) if table.scores else 0.0]
        if len(table.seats) == 2 and self.format in TWO_SEATS:
            win, draw, loss = self.win_draw_loss
            return [win if p == 1 and table.places.count(1) == 1 else draw if p == 1 else loss for p in table.places]
        points = list(self.placement) + [0.0] * len(table.seats)
        out = []
        for p in table.places:
            sharing = table.places.count(p)
            out.append(sum(points[p - 1:p - 1 + sharing]) / sharing)
        return out
