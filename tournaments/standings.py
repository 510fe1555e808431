"""Standings of a tournament a director runs, recomputed from its tables' results: points by
the format (``Tournament.seat_points``), then the tie-break chain. Every tie-break is computed
here, from the results alone:

- ``buchholz``: the sum of the points of the opponents met over the board (a bye, an absence or
  a forfeit meets no one); ``buchholz_cut1``: the same less the lowest of them;
- ``sonneborn_berger``: for each game, the points scored in it times the opponent's points;
- ``direct`` (``p_zero``): the points scored in the games among the players still tied,
  recomputed inside each tied group;
- ``wins``: games won over the board;
- ``omb``: the sum of signed game margins (The Game of Islands' Overall Margin Balance);
  ``g_score``: game points over all games played; ``seniority``: the starting number (lower
  is better);
- ``game_score`` (tables): game points over all games; ``opponents_points``: the points of
  everyone met at a table, summed over the tables;
- ``best_round`` (duplicate): the best single round's score.

Players still tied after the chain share a rank.
"""
from __future__ import annotations

from collections import defaultdict

from . import trf
from .model import Tournament

TIEBREAKS = ("points", "buchholz_cut1", "buchholz", "sonneborn_berger", "direct", "p_zero", "wins", "omb",
             "g_score", "seniority", "game_score", "opponents_points", "best_round")
LOWER_IS_BETTER = {"seniority"}
GROUP_TIEBREAKS = {"direct", "p_zero"}


def _games(t: Tournament) -> list[tuple]:
    """(table, each seat's tournament points) of every reported game over the board."""
    return [(x, t.seat_points(x)) for x in t.tables
            if x.kind == "game" and x.places is not None and x.source != "forfeit"]


def totals(t: Tournament) -> dict[str, float]:
    """Each entrant's points."""
    points = {e.name: 0.0 for e in t.entrants}
    for x in t.tables:
        if x.reported:
            for name, value in zip(x.seats, t.seat_points(x)):
                points[name] = points.get(name, 0.0) + value
    return points


def compute(t: Tournament, chain: list[str] | None = None) -> dict:
    """``standings --json``'s document: {event, tiebreaks, standings: [{rank, player, points,
    <one key a tie-break>, played}]}."""
    chain = list(chain or t.tiebreaks)
    points = totals(t)
    start = {e.name: k for k, e in enumerate(trf.numbering(t), 1)}
    games = _games(t)
    values: dict[str, dict[str, float]] = {name: defaultdict(float) for name in points}
    met: dict[str, list[str]] = defaultdict(list)
    played = defaultdict(int)
    for x, seat_points in games:
        for i, name in enumerate(x.seats):
            v = values[name]
            played[name] += 1
            others = [o for o in x.seats if o != name]
            met[name] += others
            if len(x.seats) == 2:
                other = others[0]
                v["sonneborn_berger"] += seat_points[i] * points[other]
                if x.scores and None not in x.scores:
                    v["omb"] += x.scores[i] - x.scores[1 - i]
            won = x.places[i] == 1 and x.places.count(1) == 1
            v["wins"] += 1 if won else 0
            v["drawn"] += 1 if x.places[i] == 1 and not won else 0
            v["lost"] += 1 if x.places[i] > 1 else 0
            if x.scores and x.scores[i] is not None:
                v["g_score"] += x.scores[i]
                v["game_score"] += x.scores[i]
                v["best_round"] = max(v["best_round"], x.scores[i]) if played[name] > 1 else x.scores[i]
            v["opponents_points"] += sum(points[o] for o in others)
    for name, v in values.items():
        opponents = sorted(points[o] for o in met[name])
        v["buchholz"] = sum(opponents)
        v["buchholz_cut1"] = sum(opponents[1:])
        v["seniority"] = start.get(name, len(start) + 1)
        v["points"] = points[name]
    ordered = _rank(list(points), chain, values, games, t)
    rows, rank = [], 0
    for k, name in enumerate(ordered):
        key = [values[name][c] for c in chain if c not in GROUP_TIEBREAKS]
        prev = ordered[k - 1] if k else None
        same = prev is not None and [values[prev][c] for c in chain if c not in GROUP_TIEBREAKS] == key and all(
            values[prev][c] == values[name][c] for c in chain if c in GROUP_TIEBREAKS)
        rank = rank if same else k + 1
        row = {"rank": rank, "player": name}
        for c in chain:
            value = values[name][c]
            # counts and game points whole numbers, as the contract writes them (``"omb": 7``)
            whole = c in ("wins", "seniority") or (c in ("omb", "g_score", "game_score") and float(value).is_integer())
            row[c] = int(value) if whole else round(value, 4)
        rows.append(row)
    # each player's games over the board, won, drawn and lost: beside the contract's rows (a
    # row holds its rank, its player and one key a tie-break)
    games = {name: {"games": played[name], "won": int(values[name]["wins"]), "drawn": int(values[name]["drawn"]),
                    "lost": int(values[name]["lost"])} for name in ordered}
    return {"event": t.event, "tiebreaks": chain, "standings": rows, "games": games}


def _rank(names: list[str], chain: list[str], values: dict, games: list, t: Tournament) -> list[str]:
    """The names in order: the chain's criteria in turn, a group tie-break recomputed inside
    each group still tied at its place in the chain."""
    def key_of(name: str, upto: int) -> tuple:
        return tuple(values[name][c] if c in LOWER_IS_BETTER else -values[name][c]
                     for c in chain[:upto] if c not in GROUP_TIEBREAKS)

    def order(group: list[str], depth: int) -> list[str]:
        if depth >= len(chain) or len(group) < 2:
            return sorted(group, key=lambda n: values[n]["seniority"])
        c = chain[depth]
        if c in GROUP_TIEBREAKS:
            inside = set(group)
            for name in group:
                values[name][c] = 0.0
            for x, seat_points in games:
                if len(x.seats) == 2 and set(x.seats) <= inside:
                    for i, name in enumerate(x.seats):
                        values[name][c] += seat_points[i]
            value = {n: -values[n][c] for n in group}
        else:
            value = {n: values[n][c] if c in LOWER_IS_BETTER else -values[n][c] for n in group}
        out = []
        for v in sorted(set(value.values())):
            out += order([n for n in group if value[n] == v], depth + 1)
        return out

    return order(names, 0)
