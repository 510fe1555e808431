"""Ratings from the archive: who is strongest, in every game, players and bots alike.

Every finished record of two or more seats rates its players by their finishing places (a
two-player game by its result, Tsuro by the winners then the turn each was eliminated, seats
that tie sharing a place: ``Notation.seat_ranks``), with openskill's Plackett-Luce model (the
Weng-Lin Bayesian rating, a multi-player TrueSkill): each player a skill ``mu`` and its
uncertainty ``sigma``, shown as ``rating = mu - 3 sigma`` (the conservative estimate a ladder
ranks by). A bot is a player named by its spec (``mc:16``). Solo games (Tiny Islands,
Patchwork for one) are not paired: their players get a summary of their totals instead.

Ratings are recomputed from the records every time, never entered by hand, in the order the
games were played: the record's ``Date`` tag (else the day it was ingested), then its event,
round and id, so that the same archive ingested in another order rates the same. One update a
game: linear in the games. ``ladder`` has bots play one another (``records.play``) and rates
them from those games alone.

>>> games = [Result("tsuro", "r1", "2024-01-01", ["A", "B", "C"], [1, 2, 2])] * 3
>>> [(r["player"], r["games"]) for r in rate(games)["ratings"]]
[('A', 3), ('B', 3), ('C', 3)]
"""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass

from scorebook import registry
from scorebook.records.play import ladder_matches, parse_bots, play

MU, SIGMA = 25.0, 25.0 / 3  # openskill's defaults: a new player
_DATE = re.compile(r"(\d{4})[.\-/](\d{2})[.\-/](\d{2})")


@dataclass(frozen=True)
class Result:
    """One finished game: the players by seat and their places (1 best), or the totals of a
    solo game (``places`` None, ``total`` set)."""
    game: str
    id: str
    date: str
    players: list
    places: list | None
    total: float | None = None
    event: str = ""
    round: str = ""


def _model():
    try:
        from openskill.models import PlackettLuce
    except ImportError:  # a declared dependency; said plainly if an install lost it
        from scorebook.errors import UsageError
        raise UsageError("ratings need the openskill package: pip install openskill") from None
    return PlackettLuce(mu=MU, sigma=SIGMA)


def _day(tags: dict, ingested_at: str) -> str:
    """The day a game was played: its Date tag (PGN's 2024.05.01, or ISO), else the day it was
    ingested; a partly unknown date (????.??.??) counts as unknown."""
    m = _DATE.match(tags.get("Date") or "")
    if m:
        return "-".join(m.groups())
    return (ingested_at or "")[:10]


def results(store, game: str | None = None, event: str | None = None, since: str | None = None) -> list[Result]:
    """The finished records of the store as results, in the order they were played."""
    out = []
    for row in store.finished_results(game, event):
        rid, g, tags, score, ev, ingested_at, names = row
        try:
            notation = registry.get_game(g).notation
        except Exception:  # noqa: BLE001 - a game no longer registered is not rated
            continue
        tags = json.loads(tags)
        day = _day(tags, ingested_at)
        if since and day < since:
            continue
        score = json.loads(score)
        players = names.split("\x1f") if names else []
        places = notation.seat_ranks(score)
        if places is None:
            points = notation.seat_points(score)
            if not players or not points:
                continue
            out.append(Result(g, rid, day, players[:1], None, float(points[0]), ev or "", tags.get("Round", "")))
        elif len(players) == len(places):
            out.append(Result(g, rid, day, players, places, None, ev or "", tags.get("Round", "")))
    out.sort(key=lambda r: (r.date, r.event, _round_key(r.round), r.id))
    return out


def _round_key(text: str) -> tuple:
    return tuple(int(p) if p.isdigit() else 0 for p in text.split(".")) if text else ()


def rate(games: list[Result]) -> dict:
    """Ratings of every player of every paired game, and the solo summaries, from results in
    the order played: ``{"ratings": [...], "solo": [...]}``, each list by game, best first."""
    model = _model()
    ratings: dict = {}  # (game, player) -> openskill rating
    counts: dict = {}  # (game, player) -> [games, wins, shared, losses]
    solo: dict = {}  # (game, player) -> totals
    for r in games:
        if r.places is None:
            solo.setdefault((r.game, r.players[0]), []).append(r.total)
            continue
        keys = [(r.game, name) for name in r.players]
        if len(set(keys)) != len(keys):  # a player at two seats of one game is not rated by it
            continue
        teams = [[ratings.get(k) or model.rating(name=k[1])] for k in keys]
        rated = model.rate(teams, ranks=list(r.places))
        best = min(r.places)
        for k, team, place in zip(keys, rated, r.places):
            ratings[k] = team[0]
            c = counts.setdefault(k, [0, 0, 0, 0])
            c[0] += 1
            first_alone = place == best and r.places.count(best) == 1
            c[1 if first_alone else 2 if place == best else 3] += 1
    rows = []
    for (g, name), rating in ratings.items():
        games_, wins, shared, losses = counts[(g, name)]
        rows.append({"game": g, "player": name, "rating": round(rating.mu - 3 * rating.sigma, 2),
                     "mu": round(rating.mu, 2), "sigma": round(rating.sigma, 2), "games": games_,
                     "wins": wins, "shared": shared, "losses": losses})
    rows.sort(key=lambda row: (row["game"], -row["rating"], row["player"]))
    _rank(rows)
    summaries = []
    for (g, name), totals in solo.items():
        n = len(totals)
        mean = sum(totals) / n
        se = math.sqrt(sum((t - mean) ** 2 for t in totals) / (n - 1) / n) if n > 1 else None
        summaries.append({"game": g, "player": name, "mean": round(mean, 2),
                          "stderr": None if se is None else round(se, 2), "best": max(totals), "games": n})
    summaries.sort(key=lambda row: (row["game"], -row["mean"], row["player"]))
    _rank(summaries)
    return {"ratings": rows, "solo": summaries}


def _rank(rows: list[dict]) -> None:
    """Each row's place within its game (rows sorted by game, best first)."""
    place, game = 0, None
    for row in rows:
        place = 1 if row["game"] != game else place + 1
        game = row["game"]
        row["rank"] = place


def ratings(store, game: str | None = None, event: str | None = None, since: str | None = None) -> dict:
    """``scorebook ratings``: every stored finished game rated, as ``rate`` returns, with the
    filters that chose the games."""
    if game:
        registry.get_game(game)  # an unknown game is a usage error
    if since and not _DATE.fullmatch(since):
        from scorebook.errors import UsageError
        raise UsageError(f"--since {since!r}: a date, YYYY-MM-DD")
    since = "-".join(_DATE.fullmatch(since).groups()) if since else None
    chosen = results(store, game, event, since)
    out = rate(chosen)
    out.update({"games": len(chosen), "filters": {"game": game, "event": event, "since": since}})
    return out


def ladder(store, game_id: str, specs: list[str], *, games: int = 1, seed: int = 0, progress=None,
           **play_args) -> dict:
    """A bot ladder: the matches of ``ladder_matches``, each ``games`` games with seats rotating
    (every match on the same seeds), stored under the Event "scorebook ladder seed S", then
    rated from those games alone. Returns ``{"matches": [summary, ...], "ratings": ...}``."""
    game = registry.get_game(game_id)
    for spec in specs:
        parse_bots(game, [spec] * game.info.players.min)  # every bot checked before a game is played
    event = f"scorebook ladder seed {seed}"
    summaries, ids = [], set()
    for players in ladder_matches(game, specs, play_args.get("options")):
        done = play(store, game_id, players, games=games, seed=seed, progress=progress, event=event, **play_args)
        summaries.append(done["summary"])
        ids.update(g["id"] for g in done["games"] if g.get("id"))
    chosen = [r for r in results(store, game.id, event) if r.id in ids]
    return {"matches": summaries, "ratings": rate(chosen), "games": len(chosen), "event": event}
