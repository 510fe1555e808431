"""Whether an analysis' values agree from one move to the next.

The value of the move played (for its mover) is what the game is worth once it is made, and
so, within the errors of the values, the value of the best move of the next position for the
same side: the same mover's, the other seat's read from the first seat's side in a two-player
game (a margin negated, a share of a win taken from 100; a Game of Islands value with the
points in hand added), or, where a chance outcome comes between the two moves (a tile drawn),
the mean over the draws. A *break* is the difference: the value of the move played less the
next position's best, both from the first seat's side (one seat: the mover's).

Each game declares (game.json, ``analysis``) whether a draw may come between two moves and
the ``horizon``: the points by which its bot's own reach may leave the two apart beyond their
errors (a depth-limited search values the next position deeper than the last; a play-out's
player is weaker than the best move found by weighing candidates). A pair of moves fails the
check where its break is more than ``Z`` standard errors and the horizon; with draws between
them, the mean break over the record does.

>>> report = {"moves": [
...     {"ply": 1, "player": 0, "played": "a", "best": "a", "value_best": 3.0, "value_played": 3.0},
...     {"ply": 2, "player": 1, "played": "b", "best": "c", "value_best": -2.0, "value_played": -4.0}]}
>>> [(b.ply, b.points) for b in breaks(report, "margin", 2)]
[(1, 1.0)]
"""
from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

from .loss import seen_from_first_seat

Z = 4.0  # standard errors a break may reach before the horizon counts against it


@dataclass(frozen=True)
class Break:
    ply: int  # the first of the two moves
    game: int  # of a record of several games (a triad): breaks never cross from one game to the next
    points: float  # the move played's value less the next position's best, from one side
    stderr: float | None  # of that difference (the two values sampled apart), None where both are exact
    exact: bool = False  # both values searched to the game's end (``exact`` in the report)

    @property
    def z(self) -> float | None:
        return abs(self.points) / self.stderr if self.stderr else None


def value_stderr(move: dict, name: str) -> float | None:
    """The standard error of one candidate's value: from the move's ``top``, else the largest
    there (a move outside the three best), else the loss's own; None where values are exact."""
    top = move.get("top") or []
    errors = [t.get("stderr") for t in top if t.get("stderr") is not None]
    own = next((t.get("stderr") for t in top if t["move"] == name and t.get("stderr") is not None), None)
    if own is not None:
        return own
    if errors:
        return max(errors)
    return move.get("stderr")


def breaks(report: dict, scale: str, players: int) -> list[Break]:
    """Every pair of consecutive moves of a report whose values can be read from one side: in
    a game of three or more seats, only a mover's two moves in a row."""
    out = []
    moves = report["moves"]
    for a, b in zip(moves, moves[1:]):
        if a.get("game", 1) != b.get("game", 1):
            continue
        if players == 1 or a["player"] == b["player"]:
            played, best = a["value_played"] + a.get("so_far", 0), b["value_best"] + b.get("so_far", 0)
        elif players == 2 and scale in ("margin", "share"):
            played, best = seen_from_first_seat(a, scale)[1], seen_from_first_seat(b, scale)[0]
        else:
            continue
        errors = [e for e in (value_stderr(a, a["played"]), value_stderr(b, b["best"])) if e is not None]
        se = math.sqrt(sum(e * e for e in errors)) if errors else None
        out.append(Break(a["ply"], a.get("game", 1), played - best, se, bool(a.get("exact") and b.get("exact"))))
    return out


def faults(found: list[Break], horizon: float, drawn_between: bool, exact_horizon: float = 0.0) -> list[str]:
    """The breaks beyond ``Z`` standard errors and the horizon, each said in a line (two exact
    values: beyond ``exact_horizon``); where draws come between moves, the mean break instead
    (the expectation over the draws)."""
    if not found:
        return []
    exact = [f"ply {b.ply} (game {b.game}): break {b.points:+.2f} between exact values, beyond {exact_horizon:g}"
             for b in found if b.exact and abs(b.points) > exact_horizon + 1e-9]
    found = [b for b in found if not b.exact]
    if not found:
        return exact
    if drawn_between:
        mean = statistics.fmean(b.points for b in found)
        spread = statistics.stdev(b.points for b in found) if len(found) > 1 else 0.0
        se = spread / math.sqrt(len(found))
        if abs(mean) > Z * se + horizon:
            return exact + [f"mean break {mean:+.2f} over {len(found)} pairs of moves, beyond {Z:g} x {se:.2f} + "
                            f"{horizon:g}"]
        return exact
    return exact + [f"ply {b.ply} (game {b.game}): break {b.points:+.2f}, beyond {Z:g} x {b.stderr or 0:.2f} + "
                    f"{horizon:g}" for b in found if abs(b.points) > Z * (b.stderr or 0.0) + horizon]


def figures(found: list[Break]) -> dict:
    """The largest and the median break, in points and in standard errors."""
    points = [abs(b.points) for b in found]
    zs = [b.z for b in found if b.z is not None]
    return {"pairs": len(found), "median": statistics.median(points) if points else None,
            "largest": max(points, default=None), "median_z": statistics.median(zs) if zs else None,
            "largest_z": max(zs, default=None),
            "mean": statistics.fmean(b.points for b in found) if found else None}
