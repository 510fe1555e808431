"""Ratings from the archive: who is strongest, in every game, players and bots alike.

Every finished record of two or more seats rates its players by their finishing places (a
two-player game by its result, Tsuro by the winners then the turn each was eliminated, seats
that tie sharing a place: ``Notation.seat_ranks``), with openskill's Plackett-Luce model (the
Weng-Lin Bayesian rating, a multi-player TrueSkill; its update computed to openskill's floats by
``plackett_luce``): each player a skill ``mu`` and its
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
from dataclasses import dataclass, field

from scorebook import registry

from . import plackett_luce

MU, SIGMA = plackett_luce.MU, plackett_luce.SIGMA  # a new player
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
    key: int = 0  # the stored record's key (the order it was stored in)


def _day(date: str | None, ingested_at: str) -> str:
    """The day a game was played: the store's reading of its Date tag (its ``date`` column,
    YYYY.MM.DD when the whole date is known, which ``results(from_date=...)`` selects by) as
    YYYY-MM-DD, else the day it was ingested."""
    return date.replace(".", "-") if date else (ingested_at or "")[:10]


def results(store, game: str | None = None, event: str | None = None, since: str | None = None, *,
            after_key: int | None = None, from_date: str | None = None,
            through_key: int | None = None) -> list[Result]:
    """The finished records of the store as results, in the order they were played
    (``after_key``, ``through_key``: only those stored after, and up to, those records;
    ``from_date``, YYYY-MM-DD: only those played that day or later, by the index of the
    records' dates, and those of a day not known)."""
    out = []
    notations: dict = {}
    for row in store.finished_results(game, event, after_key, from_date and from_date.replace("-", "."), through_key):
        rid, g, date, round_, score, ev, ingested_at, names, key = row
        notation = notations.get(g)
        if notation is None:
            try:
                notation = notations[g] = registry.get_game(g).notation
            except Exception:  # noqa: BLE001 - a game no longer registered is not rated
                continue
        day = _day(date, ingested_at)
        if since and day < since:
            continue
        score = json.loads(score)
        players = names.split("\x1f") if names else []
        places = notation.seat_ranks(score)
        round_ = "" if round_ is None else str(round_)
        if places is None:
            points = notation.seat_points(score)
            if not players or not points:
                continue
            out.append(Result(g, rid, day, players[:1], None, float(points[0]), ev or "", round_, key))
        elif len(players) == len(places):
            out.append(Result(g, rid, day, players, places, None, ev or "", round_, key))
    out.sort(key=_order)
    return out


def _round_key(text: str) -> tuple:
    return tuple(int(p) if p.isdigit() else 0 for p in text.split(".")) if text else ()


def _order(r: Result) -> tuple:
    """A result's place in the order games were played: date, event, round, id."""
    return (r.date, r.event, _round_key(r.round), r.id)


class Ledger:
    """The running ratings of results applied in the order played: per (game, player) an
    rating ``(mu, sigma)`` with its record (games, wins, shared, losses), or a solo player's totals
    (count, sum, sum of squares, best). Kept in the store between updates (``update``)."""

    def __init__(self):
        self.ratings: dict = {}  # (game, player) -> (mu, sigma)
        self.counts: dict = {}  # (game, player) -> [games, wins, shared, losses]
        self.solo: dict = {}  # (game, player) -> [games, sum, sum of squares, best]
        self.changed: set = set()  # (kind, game, player) changed since loaded

    def apply(self, r: Result) -> None:
        if r.places is None:
            k = (r.game, r.players[0])
            t = self.solo.setdefault(k, [0, 0.0, 0.0, r.total])
            t[0], t[1], t[2], t[3] = t[0] + 1, t[1] + r.total, t[2] + r.total * r.total, max(t[3], r.total)
            self.changed.add(("solo",) + k)
            return
        keys = [(r.game, name) for name in r.players]
        if len(set(keys)) != len(keys):  # a player at two seats of one game is not rated by it
            return
        rated = plackett_luce.rate([self.ratings.get(k, (MU, SIGMA)) for k in keys], r.places)
        best = min(r.places)
        for k, rating, place in zip(keys, rated, r.places):
            self.ratings[k] = rating
            c = self.counts.setdefault(k, [0, 0, 0, 0])
            c[0] += 1
            first_alone = place == best and r.places.count(best) == 1
            c[1 if first_alone else 2 if place == best else 3] += 1
            self.changed.add(("rating",) + k)

    def load(self, rows: list[dict] | dict) -> None:
        """The kept rows of ``Store.ratings_kept``, or a checkpoint (``snapshot``'s, or the rows
        a checkpoint held before schema COMPACT_CHECKPOINTS)."""
        if isinstance(rows, dict):
            for game, player, mu, sigma, *counts in rows["ratings"]:
                self.ratings[(game, player)] = (mu, sigma)
                self.counts[(game, player)] = counts
            for game, player, *totals in rows["solo"]:
                self.solo[(game, player)] = totals
            return
        for row in rows:
            k = (row["game"], row["player"])
            if row["kind"] == "solo":
                self.solo[k] = [row["games"], row["total_sum"], row["total_squares"], row["best"]]
            else:
                self.ratings[k] = (row["mu"], row["sigma"])
                self.counts[k] = [row["games"], row["wins"], row["shared"], row["losses"]]

    def rows(self, changed_only: bool = False) -> list[dict]:
        """The rows the store keeps."""
        out = []
        for k, (mu, sigma) in self.ratings.items():
            if not changed_only or ("rating",) + k in self.changed:
                games, wins, shared, losses = self.counts[k]
                out.append({"game": k[0], "player": k[1], "kind": "rating", "mu": mu, "sigma": sigma,
                            "games": games, "wins": wins, "shared": shared, "losses": losses})
        for k, (n, total, squares, best) in self.solo.items():
            if not changed_only or ("solo",) + k in self.changed:
                out.append({"game": k[0], "player": k[1], "kind": "solo", "games": n, "total_sum": total,
                            "total_squares": squares, "best": best})
        return out

    def snapshot(self) -> dict:
        """What a checkpoint keeps: every player's values as rows of values (``load`` reads it
        back), half the JSON of ``rows``' objects and half the time to write, 17 times an
        ingest of 10,000 records."""
        return {"ratings": [[*k, mu, sigma, *self.counts[k]] for k, (mu, sigma) in self.ratings.items()],
                "solo": [[*k, *totals] for k, totals in self.solo.items()]}

    def document(self) -> dict:
        """``{"ratings": [...], "solo": [...]}``, each list by game, best first."""
        rows = []
        for (g, name), (mu, sigma) in self.ratings.items():
            games_, wins, shared, losses = self.counts[(g, name)]
            rows.append({"game": g, "player": name, "rating": round(mu - 3 * sigma, 2),
                         "mu": round(mu, 2), "sigma": round(sigma, 2), "games": games_,
                         "wins": wins, "shared": shared, "losses": losses})
        rows.sort(key=lambda row: (row["game"], -row["rating"], row["player"]))
        _rank(rows)
        summaries = []
        for (g, name), (n, total, squares, best) in self.solo.items():
            mean = total / n
            se = math.sqrt(max(0.0, squares - total * total / n) / (n - 1) / n) if n > 1 else None
            summaries.append({"game": g, "player": name, "mean": round(mean, 2),
                              "stderr": None if se is None else round(se, 2), "best": best, "games": n})
        summaries.sort(key=lambda row: (row["game"], -row["mean"], row["player"]))
        _rank(summaries)
        return {"ratings": rows, "solo": summaries}


def rate(games: list[Result]) -> dict:
    """Ratings of every player of every paired game, and the solo summaries, from results in
    the order played: ``{"ratings": [...], "solo": [...]}``, each list by game, best first."""
    ledger = Ledger()
    for r in games:
        ledger.apply(r)
    return ledger.document()


def _rank(rows: list[dict]) -> None:
    """Each row's place within its game (rows sorted by game, best first)."""
    place, game = 0, None
    for row in rows:
        place = 1 if row["game"] != game else place + 1
        game = row["game"]
        row["rank"] = place


CHECKPOINT_EVERY = 20_000  # games of a game between two kept checkpoints of its ratings
# and, among its last RECENT_SPAN games, between two kept checkpoints: a game that arrives late
# is most often recent (a month's casual games after its events), and is rated again from a
# checkpoint at most RECENT_EVERY games before it, not from up to CHECKPOINT_EVERY; older
# recent checkpoints are thinned to CHECKPOINT_EVERY as the game goes on
RECENT_EVERY, RECENT_SPAN = 1_000, 10_000


@dataclass
class CaughtUp:
    """A game's ledger brought up to the stored records, and what ``update`` keeps of it."""
    ledger: Ledger
    mark: tuple[int, str, int]  # (the last record's key, the order of the latest game rated, games rated)
    whole: bool  # rated again (from a checkpoint or the first game): every row is kept anew
    kept: tuple | None  # the mark as it was kept
    checkpoints: list = field(default_factory=list)  # (games, order, rows) reached on the way
    checkpoints_after: int | None = None  # kept checkpoints past this many games are stale


def _caught_up(store, game: str, *, checkpoints: bool = False) -> CaughtUp:
    """A game's ledger as kept, brought up to the records stored since. A game played before
    the latest one rated (a record dated earlier, arriving later) rates the game again from
    the last checkpoint before it (or from the first game), in order. ``checkpoints``: collect
    the checkpoints passed on the way (the writer keeps them; a reader does not)."""
    kept, rows = store.ratings_kept(game)
    through, last, count = kept if kept else (0, None, 0)
    last = None if last == "null" else last
    fresh = results(store, game, after_key=through)
    through = max([through] + [r.key for r in fresh])
    out = CaughtUp(Ledger(), (0, "null", 0), kept is None, kept)
    if last is not None and fresh and _order(fresh[0]) < _from_json(last):
        count, fresh = _from_checkpoint(store, game, out.ledger, _order(fresh[0]), fresh, kept[0])
        out.whole, out.checkpoints_after = True, count
    else:
        out.ledger.load(rows)
    count = _apply(out.ledger, fresh, count, out.checkpoints if checkpoints else None)
    if fresh:
        last = json.dumps(_order(fresh[-1]))
    out.mark = (through, last or "null", count)
    return out


def _apply(ledger: Ledger, chosen: list[Result], count: int, checkpoints: list | None) -> int:
    """Apply results in order to a ledger that has rated ``count`` games; every
    CHECKPOINT_EVERY games, and every RECENT_EVERY among the last RECENT_SPAN, a checkpoint
    into ``checkpoints`` (when given). The games rated."""
    recent_from = count + len(chosen) - RECENT_SPAN
    for r in chosen:
        ledger.apply(r)
        count += 1
        if checkpoints is not None and (count % CHECKPOINT_EVERY == 0
                                        or count % RECENT_EVERY == 0 and count > recent_from):
            checkpoints.append((count, json.dumps(_order(r)), ledger.snapshot()))
    return count


def _from_checkpoint(store, game: str, ledger: Ledger, order: tuple, fresh: list[Result],
                     through: int) -> tuple[int, list]:
    """Load ``ledger`` with the last checkpoint before ``order`` (none: empty); (the games it
    counts, every result of the game played after it, in order). The results stored up to
    ``through`` are read here, the ``fresh`` ones since (all played after the checkpoint) are
    merged in: not read twice."""
    before = [(n, o) for n, o in store.ratings_checkpoints(game) if _from_json(o) < order]
    if not before:
        return 0, sorted(results(store, game, through_key=through) + fresh, key=_order)
    n, o = before[-1]
    ledger.load(store.ratings_checkpoint(game, n))
    since = _from_json(o)
    old = [r for r in results(store, game, from_date=since[0], through_key=through) if _order(r) > since]
    return n, sorted(old + fresh, key=_order)


def _from_json(text: str) -> tuple:
    date, event, round_, rid = json.loads(text)
    return (date, event, tuple(round_), rid)


def update(store, games=None, *, alongside: bool = False) -> int:
    """Keep every game's ratings (or these games') up to the stored records: what ingest,
    play and the service call after they store games. The games rated since. ``alongside``
    (ingest, after many records): the games shared with a forked process, each keeping the
    next game as it is free, those with the most records to rate first: the games are rated
    independently, and the second core is otherwise idle once the records are written."""
    games = list(games or [g.id for g in registry.games()])
    from scorebook.records.ingest import alongside as shared, gc_paused
    with gc_paused():
        if alongside and len(games) > 1 and store.path != ":memory:":
            games.sort(key=store.ratings_pending, reverse=True)
            return sum(shared(games, lambda game: _update_game(store, game),
                              lambda game: _update_game(_own_store(store.path), game)))
        return sum(_update_game(store, game) for game in games)


_STORES: dict = {}  # a forked process's own connection to the parent's database


def _own_store(path: str):
    """The forked process's connection, opened at its first game. Its first act is to copy
    the log back (what the ingest just wrote) while the parent rates: the parent's close,
    on one core once the ratings are kept, has only the ratings' own pages left to copy."""
    from scorebook.records.store import Store
    if path not in _STORES:
        _STORES[path] = Store(path, checked=True)  # the parent's own open checked it
        _STORES[path].copy_log_back()
    return _STORES[path]


def _update_game(store, game: str) -> int:
    """One game's kept ratings brought up to the stored records; the games rated since."""
    c = _caught_up(store, game, checkpoints=True)
    if c.kept is None or tuple(c.mark) != tuple(c.kept):
        store.keep_ratings(game, c.mark, c.ledger.rows(changed_only=not c.whole), whole=c.whole,
                           checkpoints=c.checkpoints, checkpoints_after=c.checkpoints_after,
                           thinned=(c.mark[2] - RECENT_SPAN, CHECKPOINT_EVERY))
        return c.mark[2] - (0 if c.whole or c.kept is None else c.kept[2])
    return 0


def rebuild(store) -> int:
    """``ratings --rebuild``: every game rated again from its first game; the games rated."""
    done = 0
    for game in [g.id for g in registry.games()]:
        ledger, checkpoints = Ledger(), []
        chosen = results(store, game)
        _apply(ledger, chosen, 0, checkpoints)
        mark = (max([0] + [r.key for r in chosen]), json.dumps(_order(chosen[-1])) if chosen else "null", len(chosen))
        store.keep_ratings(game, mark, ledger.rows(), whole=True, checkpoints=checkpoints, checkpoints_after=0)
        done += len(chosen)
    return done


def ratings(store, game: str | None = None, event: str | None = None, since: str | None = None) -> dict:
    """``scorebook ratings``: every stored finished game rated, as ``rate`` returns, with the
    filters that chose the games. Unfiltered, the kept ratings, brought up to the records
    stored since they were kept (in memory: a reader writes nothing); filtered by event or
    date, the chosen games rated from the start."""
    if game:
        registry.get_game(game)  # an unknown game is a usage error
    if since and not _DATE.fullmatch(since):
        from scorebook.errors import UsageError
        raise UsageError(f"--since {since!r}: a date, YYYY-MM-DD")
    since = "-".join(_DATE.fullmatch(since).groups()) if since else None
    if event or since:
        chosen = results(store, game, event, since)
        out, count = rate(chosen), len(chosen)
    else:
        merged, count = Ledger(), 0
        for g in [game] if game else [g.id for g in registry.games()]:
            c = _caught_up(store, g)
            merged.ratings.update(c.ledger.ratings)
            merged.counts.update(c.ledger.counts)
            merged.solo.update(c.ledger.solo)
            count += c.mark[2]
        out = merged.document()
    out.update({"games": count, "filters": {"game": game, "event": event, "since": since}})
    return out


def ladder(store, game_id: str, specs: list[str], *, games: int = 1, seed: int = 0, progress=None,
           **play_args) -> dict:
    """A bot ladder: the matches of ``ladder_matches``, each ``games`` games with seats rotating
    (every match on the same seeds), stored under the Event "scorebook ladder seed S", then
    rated from those games alone. Returns ``{"matches": [summary, ...], "ratings": ...}``."""
    from scorebook.records.play import ladder_matches, parse_bots, play  # the bots: not for reading ratings (0.3 s)
    game = registry.get_game(game_id)
    for spec in specs:
        parse_bots(game, [spec] * game.info.players.min)  # every bot checked before a game is played
    event = f"scorebook ladder seed {seed}"
    summaries, ids = [], set()
    matches = ladder_matches(game, specs, play_args.get("options"))
    for k, players in enumerate(matches):
        # progress over the whole ladder, not restarting at each match (every match plays as many games)
        counted = None if progress is None else (
            lambda outcome, done, total, k=k: progress(dict(outcome, round=k * total + outcome["round"]),
                                                       k * total + done, len(matches) * total))
        done = play(store, game_id, players, games=games, seed=seed, progress=counted, event=event, **play_args)
        summaries.append(done["summary"])
        ids.update(g["id"] for g in done["games"] if g.get("id"))
    chosen = [r for r in results(store, game.id, event) if r.id in ids]
    return {"matches": summaries, "ratings": rate(chosen), "games": len(chosen), "event": event}
