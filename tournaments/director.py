"""The director's library calls, one a CLI command (``scorebook tournament ...``): each reads the
tournament from the store, changes it, and keeps it whole in one transaction (two directors
pairing at once make one pairing: the second reads the first's round). A command refuses
bad input with one UsageError line before it writes anything."""
from __future__ import annotations

import re
from pathlib import Path

from pydantic import ValidationError

from scorebook import registry
from scorebook.errors import NotFound, UnknownGame, UsageError

from . import pairing, standings, trf
from .model import DEFAULT_TIEBREAKS, FORMATS, TWO_SEATS, Entrant, Table, Tournament, seats_of

RESULTS = {"1-0": [1, 2], "0-1": [2, 1], "1/2-1/2": [1, 1], "+-": [1, 2], "-+": [2, 1]}
MAX_ENTRANTS = 10_000
MAX_ROUNDS = 99  # TRF's round blocks (and a director's patience)


def _game(game_id: str):
    try:
        return registry.get_game(game_id)
    except UnknownGame:
        raise UsageError(f"unknown game {game_id!r}; choose from {', '.join(registry.game_ids())}") from None


def load(store, event: str) -> Tournament:
    data = store.planned_tournament(event)
    if data is None:
        raise NotFound(f"no tournament named {event!r} (scorebook tournament create EVENT --game G)")
    return Tournament.model_validate(data)


def _save(store, t: Tournament) -> None:
    store.save_planned_tournament(t.model_dump())


def create(store, event: str, game_id: str, format_: str | None = None, *, rounds: int | None = None,
           table_size: int | None = None, bye_points: float | None = None, placement: list[float] | None = None,
           options: dict | None = None, tiebreaks: list[str] | None = None, seed: int = 0,
           first_seat: str = "white1", forbidden: list[tuple[str, str]] | None = None) -> Tournament:
    """A new tournament under ``event``: its game and format (by default Swiss for a game of two,
    tables for more, duplicate for one) and planned rounds (a round robin's come from its
    entrants when first paired)."""
    from scorebook.records.play import play_options
    game = _game(game_id)
    event = event.strip()
    if not event or len(event) > 200 or any(ord(c) < 32 for c in event):
        raise UsageError("an event name is 1 to 200 printable characters")
    low, high = game.info.players.min, game.info.players.max
    format_ = format_ or ("duplicate" if high == 1 else "swiss" if low <= 2 <= high else "tables")
    if format_ not in FORMATS:
        raise UsageError(f"unknown format {format_!r}; choose from {', '.join(FORMATS)}")
    seats = seats_of(format_, table_size)
    if format_ == "tables" and not 3 <= seats <= 8:
        raise UsageError("tables seat 3 to 8 players (--table-size)")
    if not low <= seats <= high or (format_ == "tables" and not low <= seats - 1):
        raise UsageError(f"{game.id} seats {low} to {high} players: no {format_} tournament"
                         + (f" of tables of {seats}" if format_ == "tables" else ""))
    if format_ in ("swiss", "tables", "duplicate") and not rounds:
        raise UsageError(f"a {format_} tournament needs its rounds (--rounds N)")
    if rounds is not None and not 1 <= rounds <= MAX_ROUNDS:
        raise UsageError(f"--rounds: 1 to {MAX_ROUNDS}")
    chain = list(tiebreaks or _default_chain(game, format_))
    unknown = [c for c in chain if c not in standings.TIEBREAKS]
    if unknown or chain[0] != "points":
        raise UsageError(f"tiebreaks start with points and use {', '.join(standings.TIEBREAKS)}")
    opts = play_options(game, {**game.engine.seat_options(seats), **(options or {})})
    with store.atomic():
        if store.planned_tournament(event) is not None:
            raise UsageError(f"a tournament named {event!r} exists already")
        t = Tournament(event=event, game=game.id, options=opts, format=format_, rounds=rounds or 0,
                       table_size=seats, bye_points=(0.0 if format_ in ("round-robin", "double-round-robin") else 1.0)
                       if bye_points is None else bye_points,
                       placement=list(placement or _default_placement(seats)), tiebreaks=chain, seed=seed,
                       first_seat=first_seat, forbidden=list(forbidden or []))
        _save(store, t)
    return t


def _default_chain(game, format_: str) -> list[str]:
    if format_ in TWO_SEATS and game.has_tournaments:  # the game's own chain (The Game of Islands': OMB)
        return list(game.tournament.default_tiebreaks)
    return DEFAULT_TIEBREAKS[format_]


def _default_placement(seats: int) -> list[float]:
    """Points by place at a table: 4/2/1/0 at four, in general the last 0, the first the most."""
    return [float(2 ** (seats - 2 - k)) if k < seats - 1 else 0.0 for k in range(seats)]


def _finished(t: Tournament) -> bool:
    return t.rounds > 0 and t.paired_rounds >= t.rounds and not t.unreported(t.paired_rounds)


def join(store, event: str, names: list[str], rating: int | None = None) -> Tournament:
    """Add players; after round 1 is paired a player is a late entry (paired from the next round)."""
    clean = [n.strip() for n in names]
    if any(not n or len(n) > 100 or any(ord(c) < 32 for c in n) for n in clean):
        raise UsageError("a player's name is 1 to 100 printable characters")
    if len(set(clean)) != len(clean):
        raise UsageError("a player is named twice")
    with store.atomic():
        t = load(store, event)
        if _finished(t):
            raise UsageError(f"{event}: the tournament is finished")
        if t.format in ("round-robin", "double-round-robin") and t.paired_rounds:
            raise UsageError(f"{event}: a round robin takes no player once paired")
        there = [n for n in clean if t.entrant(n) is not None]
        if there:
            raise UsageError(f"{event}: {', '.join(there)} joined already")
        if len(t.entrants) + len(clean) > MAX_ENTRANTS:
            raise UsageError(f"{event}: at most {MAX_ENTRANTS:,} players")
        t.entrants += [Entrant(name=n, rating=rating, joined=t.paired_rounds + 1) for n in clean]
        _save(store, t)
    return t


def withdraw(store, event: str, name: str) -> int:
    """A player leaves: not paired from the next round on (their results stay). The round."""
    with store.atomic():
        t = load(store, event)
        e = _entrant(t, name)
        if e.withdrawn is not None:
            raise UsageError(f"{event}: {name} withdrew already")
        e.withdrawn = t.paired_rounds + 1
        _save(store, t)
    return e.withdrawn


def absent(store, event: str, name: str, round_: int) -> None:
    """A player sits out a round not yet paired."""
    with store.atomic():
        t = load(store, event)
        e = _entrant(t, name)
        if round_ <= t.paired_rounds or (t.rounds and round_ > t.rounds):
            raise UsageError(f"{event}: round {round_} is not a round still to pair")
        if round_ not in e.absent:
            e.absent.append(round_)
        _save(store, t)


def _entrant(t: Tournament, name: str) -> Entrant:
    e = t.entrant(name)
    if e is None:
        raise UsageError(f"{t.event}: no player named {name!r}")
    return e


def pair(store, event: str, *, force: bool = False) -> dict:
    """Pair the next round: ``{"round", "tables": [{"table", "players"}], "byes": [names]}``.
    Refused while the round before has a table without a result (unless ``force``: such a
    game then counts as a draw for the pairing), once every planned round is paired, and with
    fewer players than a table."""
    with store.atomic():
        t = load(store, event)
        r = t.paired_rounds + 1
        if t.format in ("round-robin", "double-round-robin") and not t.rounds:
            t.rounds = pairing.planned_rounds(t.format, len(t.entrants))
        if t.rounds and r > t.rounds:
            raise UsageError(f"{event}: the tournament is finished: all {t.rounds} rounds are paired")
        open_tables = t.unreported(r - 1) if r > 1 else []
        if open_tables and not force:
            raise UsageError(f"{event}: round {r - 1} has no result yet at table(s) "
                             f"{', '.join(str(x.table) for x in open_tables)} (pair --force to pair anyway)")
        playing = [e for e in t.entrants if e.plays_in(r)]
        if len(playing) < (1 if t.seats == 1 else 2):  # a table of tables may be one seat short, or more
            raise UsageError(f"{event}: {len(playing)} player(s) to pair in round {r}: too few")
        tables = pairing.pair_round(t, r, standings.totals(t))
        t.tables += tables
        _save(store, t)
    return round_doc(t, r)


def round_doc(t: Tournament, r: int) -> dict:
    tables = t.round_tables(r)
    return {"round": r, "tables": [{"table": x.table, "players": list(x.seats)} for x in tables if x.kind == "game"],
            "byes": [x.seats[0] for x in tables if x.kind == "bye"],
            "absent": [x.seats[0] for x in tables if x.kind == "absent"]}


def result(store, event: str, round_: int, table: int, outcome: str, *, replace: bool = False) -> Table:
    """The director's result for a table: ``1-0``, ``0-1``, ``1/2-1/2``, ``+-``/``-+`` (a
    forfeit) for two seats; the places in seat order (``1,3,2,4``) at a table of more; the
    score (``57``) of a duplicate round. Marked as entered (or forfeit), without a record."""
    with store.atomic():
        t = load(store, event)
        x = next((x for x in t.round_tables(round_) if x.table == table), None)
        if x is None:
            raise UsageError(f"{event}: round {round_} has no table {table}")
        if x.kind != "game":
            raise UsageError(f"{event}: round {round_} table {table} is a {x.kind}, not a game")
        if x.places is not None and not replace:
            held = f"record {x.record}" if x.record else "a result"
            raise UsageError(f"{event}: round {round_} table {table} has {held} already (--replace to change it)")
        x.places, x.scores, x.record, x.source = _places(t, x, outcome), None, None, "director"
        if outcome in ("+-", "-+"):
            x.source = "forfeit"
        if t.format == "duplicate":
            x.scores = [float(outcome)]
        _save(store, t)
    return x


def _places(t: Tournament, x: Table, outcome: str) -> list[int]:
    outcome = outcome.strip()
    if t.format == "duplicate":
        if not re.fullmatch(r"-?\d+(\.\d+)?", outcome):
            raise UsageError("a duplicate round's result is its score (a number)")
        return [1]
    if len(x.seats) == 2:
        if outcome not in RESULTS:
            raise UsageError(f"a result of two seats is one of {', '.join(RESULTS)}")
        return list(RESULTS[outcome])
    try:
        places = [int(p) for p in outcome.split(",")]
    except ValueError:
        places = []
    if len(places) != len(x.seats) or any(p != 1 + sum(q < p for q in places) for p in places):
        raise UsageError(f"a table of {len(x.seats)}: its places in seat order, 1 to {len(x.seats)} "
                         "(1,3,2,4); seats that tie share a place, the next place after them as many lower (1,1,3)")
    return places


def show(store, event: str) -> dict:
    """The tournament: plan, entrants, every round's tables and results."""
    return _shown(load(store, event))


def _shown(t: Tournament) -> dict:
    return {"event": t.event, "game": t.game, "options": t.options, "format": t.format, "rounds": t.rounds,
            "paired": t.paired_rounds, "finished": _finished(t), "table_size": t.seats,
            "bye_points": t.bye_points, "placement": t.placement, "tiebreaks": t.tiebreaks,
            "entrants": [e.model_dump() for e in t.entrants],
            "tables": [dict(x.model_dump(), points=t.seat_points(x) if x.reported else None) for x in t.tables]}


def standings_of(store, event: str) -> dict:
    return _ranked(load(store, event))


def _ranked(t: Tournament) -> dict:
    doc = standings.compute(t)
    doc["game"], doc["format"], doc["matches"] = t.game, t.format, []
    return doc


def page_doc(store, event: str) -> dict:
    """What the tournament's page shows: its standings, the tournament, and which of its
    records are analysed (the tournament read once)."""
    t = load(store, event)
    summaries = store.latest_summaries([x.record for x in t.tables if x.record])
    return {"standings": _ranked(t), "tournament": _shown(t), "analysed": sorted(summaries),
            "accuracy": accuracy(summaries)}


def accuracy(summaries: dict[str, dict]) -> list[dict]:
    """Each player's accuracy and mean loss over the event's analysed games (their latest
    analyses' per-player summaries, weighted by moves), the most accurate first."""
    totals: dict[str, list[float]] = {}
    for summary in summaries.values():
        for player, s in summary.items():
            t = totals.setdefault(player, [0, 0, 0.0, 0.0])
            t[0] += 1
            t[1] += s["moves"]
            t[2] += s["accuracy"] * s["moves"] / 100
            t[3] += s["total_loss"]
    rows = [{"player": p, "games": g, "moves": m, "accuracy": round(100 * good / m, 1) if m else 0.0,
             "mean_loss": round(loss / m, 3) if m else 0.0} for p, (g, m, good, loss) in totals.items()]
    return sorted(rows, key=lambda r: (-r["accuracy"], r["mean_loss"], r["player"]))


def export(store, event: str, fmt: str = "trf") -> tuple[str, list[str]]:
    """(text, what the format dropped): TRF16 for a two-seat event, or the tournament as JSON."""
    t = load(store, event)
    if fmt == "json":
        return t.model_dump_json(indent=2) + "\n", []
    if t.format not in TWO_SEATS:
        raise UsageError(f"{event}: TRF holds two-seat events; this is {t.format} (--format json)")
    dropped = ["the game and its options", "each game's points and record"]
    if any(len(e.name) > trf.NAME_WIDTH for e in t.entrants):
        dropped.append(f"names beyond {trf.NAME_WIDTH} characters")
    return trf.write(t), dropped


def import_trf(store, path: str, game_id: str, options: dict | None = None) -> tuple[Tournament, bool]:
    """A TRF16 file as a stored two-seat Swiss tournament of ``game_id``, named by its 012 line;
    whether it is new (the same file again changes nothing)."""
    from scorebook.records.ingest import read_source
    from scorebook.records.formats import decode
    from scorebook.errors import RecordRejected
    from scorebook.records.play import play_options
    game = _game(game_id)
    if not game.info.players.min <= 2 <= game.info.players.max:
        raise UsageError(f"{game.id} is not a game of two: TRF holds two-seat events")
    try:
        text = decode(read_source(path))
    except RecordRejected as err:
        raise UsageError(f"{path}: {err.message}") from None
    try:
        t = trf.read(text, game.id, play_options(game, {**game.engine.seat_options(2), **(options or {})}),
                     where=Path(path).name if path != "-" else "<stdin>")
    except ValidationError as exc:
        raise UsageError(f"{path}: not a tournament: {exc.errors()[0]['msg']}") from None
    t.tiebreaks = _default_chain(game, "swiss")
    with store.atomic():
        kept = store.planned_tournament(t.event)
        if kept is not None:
            if Tournament.model_validate(kept) == t:  # the same file again: nothing to do
                return t, False
            raise UsageError(f"a tournament named {t.event!r} exists already, not as this file has it")
        _save(store, t)
    return t, True


# ------------------------------------------------------------------ bots play a round


def bot_spec(game, name: str) -> str | None:
    """The bot a player's name is (``mc:8``, or ``mc:8-2`` for a second of it), or None."""
    from scorebook.records.play import parse_bots
    for spec in (name, re.sub(r"-\d+$", "", name)):
        try:
            parse_bots(game, [spec] * game.info.players.min)  # the fewest players a game takes
            return spec
        except UsageError:
            continue
    return None


def play_round(store, event: str, progress=None) -> list[dict]:
    """Bots play every table of the current round whose seats are all bots and that has no
    result; their records attach as any record does. One outcome a table played."""
    from scorebook.records.play import play_seated
    t = load(store, event)
    r = t.paired_rounds
    if r == 0:
        raise UsageError(f"{event}: no round is paired yet (scorebook tournament pair {event!r})")
    game = _game(t.game)
    seated = [(x, [(s, bot_spec(game, s)) for s in x.seats]) for x in t.unreported(r)]
    todo = [(x, bots) for x, bots in seated if all(spec for _, spec in bots)]
    out = []
    for x, bots in todo:
        tags = {"Event": t.event, "Round": str(r), "Table": str(x.table)}
        deal = [t.seed, r] if t.format == "duplicate" else None
        outcome = play_seated(store, game.id, bots, t.options,
                              seed=t.seed * 1_000_003 + r * 1009 + x.table, tags=tags, deal=deal)
        outcome["table"] = x.table
        out.append(outcome)
        if progress:
            progress(outcome, len(out), len(todo))
    return out
