"""Tournament standings: match points, then a tiebreak chain (spec: the Game of Islands'
§6-7 and the tournament file of ``shared/data/goi/README.md``).

The ranking is game-neutral: a match is two players, their totals and its result. Which
records are matches, the result rule and the default chain are the game's (its analysis
module's ``tournament``: The Game of Islands' triads, |margin| >= 2 wins). Match points (a
win 1, a draw 1/2), then by default OMB (sum of signed margins), P-Zero (match points among
the players still tied), G-score (points over all games) and seniority (previous rank, lower
is better, missing last). Players still tied after the chain share a rank.

>>> m = [Match("1", ("A", "B"), (20, 10), "1-0"), Match("2", ("B", "C"), (12, 11), "1/2-1/2"),
...      Match("3", ("C", "A"), (15, 9), "1-0")]
>>> chain = ["points", "omb", "p_zero", "g_score", "seniority"]
>>> [(r["rank"], r["player"], r["points"], r["omb"]) for r in standings(["A", "B", "C"], m, chain)["standings"]]
[(1, 'C', 1.5, 5), (2, 'A', 1.0, 4), (3, 'B', 0.5, -9)]
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from scorebook import registry
from scorebook.errors import NotFound, RecordRejected, UsageError
from scorebook.records.formats import decode
from scorebook.records.limits import MAX_FILE_BYTES

TIEBREAKS = ("points", "omb", "p_zero", "g_score", "seniority")


@dataclass(frozen=True)
class Match:
    match: str
    players: tuple[str, str]
    totals: tuple[int, int]  # from the side of players[0]
    result: str  # "1-0", "0-1" or "1/2-1/2", from the side of players[0]
    record: str | None = None  # the id of the record that holds it (as ingest gives it)

    @property
    def margin(self) -> int:
        return self.totals[0] - self.totals[1]

    def points_of(self, player: str) -> float:
        r = self.result
        if r == "1/2-1/2":
            return 0.5
        return 1.0 if (r == "1-0") == (player == self.players[0]) else 0.0

    def margin_of(self, player: str) -> int:
        return self.margin if player == self.players[0] else -self.margin

    def g_of(self, player: str) -> int:
        return self.totals[0] if player == self.players[0] else self.totals[1]


def tournament_game(name: str | None = None):
    """The game whose tournament a file or an event is (``name``, or the one game that has tournaments)."""
    if name is not None:
        game = registry.get_game(name)
        if not game.has_tournaments:
            raise UsageError(f"{name} has no tournament standings")
        return game
    with_tournaments = [g for g in registry.games() if g.has_tournaments]
    if len(with_tournaments) != 1:
        raise UsageError("name the game of the tournament (\"game\" in the tournament file)")
    return with_tournaments[0]


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore")


class TournamentPlayer(_Strict):
    name: str
    seniority: int | None = None


class TournamentMatch(_Strict):
    """A match: its file (or its PGN inline), and optionally its two players (the file's
    order) and the Match tag that picks it out of a file of several."""
    file: str | None = None
    pgn: str | None = None
    players: Annotated[list[str], Field(min_length=2, max_length=2)] | None = None
    match: str | None = None

    @model_validator(mode="after")
    def _names_its_games(self):
        if self.file is None and self.pgn is None:
            raise ValueError("a match names its file or holds its pgn")
        return self


class TournamentFile(_Strict):
    """A tournament file (shared/data/goi/README.md): the event, its game, the players (names,
    or objects with a seniority), the tiebreak chain, and its matches or record files."""
    event: str | None = None
    game: str | None = None
    tiebreaks: list[str] | None = None
    records: list[str] = []
    players: list[str | TournamentPlayer] = []
    matches: list[TournamentMatch] = []

    @model_validator(mode="after")
    def _has_games(self):
        if not self.matches and not self.records:
            raise ValueError("it has no matches and no records")
        return self


_SHAPES = {"TournamentFile": "a JSON object with players and matches or records",
           "TournamentPlayer": "a name, or an object with a name and a seniority",
           "TournamentMatch": "an object naming its file or holding its pgn"}


def _check_tournament(spec, path: str) -> None:
    """The tournament file's shape, or one clear error naming where in it."""
    try:
        TournamentFile.model_validate(spec)
    except ValidationError as exc:
        first = max(exc.errors(), key=lambda e: len(e["loc"]))  # the deepest: a union's member that came closest
        where = ".".join(str(p) for p in first["loc"] if p != "str" and not str(p).startswith("Tournament"))
        why = first["msg"].removeprefix("Value error, ")
        for model, shape in _SHAPES.items():
            if why.endswith(f"instance of {model}"):
                why = f"expected {shape}"
        raise UsageError(f"{path}: not a tournament file: {where + ': ' if where else ''}{why}") from None


def read_tournament(path: str, text: str | None = None) -> dict:
    """A tournament file (its ``text`` when already read) and every file it names, read
    once: the snapshot that ``ingest`` keeps, from which ``tournament_of`` ranks without the
    files (``{"event", "spec", "texts"}``)."""
    from scorebook.records.ingest import read_source
    base = Path(path).parent
    try:
        spec = json.loads(decode(read_source(path)) if text is None else text)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise UsageError(f"{path}: not a readable tournament file ({exc})") from None
    except RecordRejected as err:
        raise UsageError(f"{path}: {err.message}") from None
    _check_tournament(spec, path)
    texts: dict[str, str] = {}
    size = 0
    for name in [*spec.get("records", []), *(m["file"] for m in spec.get("matches", []) if "pgn" not in m)]:
        if name not in texts:
            try:
                texts[name] = decode(read_source(str(base / name)))
            except RecordRejected as err:
                raise UsageError(f"{path}: cannot read {name}: {err.message}") from None
            size += len(texts[name])
            if size > MAX_FILE_BYTES:  # what one file may hold, for the files of a tournament together
                raise UsageError(f"{path}: the files it names hold more than {MAX_FILE_BYTES:,} characters")
    return {"event": spec.get("event", Path(path).stem), "spec": spec, "texts": texts}


def tournament_of(snapshot: dict, where: str, identify: bool = False) -> dict:
    """The tournament of a snapshot (``read_tournament``'s): {game, event, players,
    seniority, tiebreaks, matches}; a rejected record or a match that does not fit is a
    UsageError naming ``where``. ``identify``: each match with its record's id once ingested."""
    spec = snapshot["spec"]
    game = tournament_game(spec.get("game"))
    tournament = game.tournament
    players = spec.get("players") or []
    names = [p["name"] if isinstance(p, dict) else str(p) for p in players]
    seniority = {p["name"]: p.get("seniority") for p in players if isinstance(p, dict)}
    chain = spec.get("tiebreaks") or tournament.default_tiebreaks
    unknown = [t for t in chain if t not in TIEBREAKS]
    if unknown or not chain or chain[0] != "points":
        raise UsageError(f"{where}: tiebreaks start with points and use {', '.join(TIEBREAKS)}")
    matches = _spec_matches(spec, snapshot["texts"], tournament, where, identify)
    names += [p for p in dict.fromkeys(p for m in matches for p in m.players) if p not in names]
    return {"game": game, "event": snapshot["event"], "players": names, "seniority": seniority,
            "tiebreaks": list(chain), "matches": matches}


def _spec_matches(spec: dict, texts: dict, tournament, where: str, identify: bool) -> list:
    """The matches a tournament file names: every match of its ``records``, then each of its
    ``matches`` (a file, or a PGN text; ``match`` picks one of several)."""
    matches: list[Match] = []
    for name in spec.get("records", []):
        matches += [tournament.match_of(rec, name, identify=identify)
                    for rec in tournament.match_records(texts[name], name)]
    for k, entry in enumerate(spec.get("matches", []), 1):
        place = entry.get("file", f"matches[{k}]")
        found = tournament.match_records(entry["pgn"] if "pgn" in entry else texts[entry["file"]], place)
        if "match" in entry:
            found = [t for t in found if tournament.match_id(t) == entry["match"]]
        if len(found) != 1:
            raise UsageError(f"{where}: {place} holds {len(found)} matches; name one with \"match\"")
        matches.append(tournament.match_of(found[0], place, entry.get("players"), identify=identify))
    return matches


def load_tournament(path: str, text: str | None = None) -> dict:
    """Read a tournament file (its ``text`` when already read): {game, event, players,
    seniority, tiebreaks, matches}."""
    return tournament_of(read_tournament(path, text), path)


def standings(players: list[str], matches: list[Match], chain: list[str],
              seniority: dict[str, int | None] | None = None, event: str | None = None) -> dict:
    chain = list(chain)
    seniority = seniority or {}
    values = {p: {"points": 0.0, "omb": 0, "p_zero": 0.0, "g_score": 0, "seniority": seniority.get(p)}
              for p in players}
    for m in matches:
        for p in m.players:
            values[p]["points"] += m.points_of(p)
            values[p]["omb"] += m.margin_of(p)
            values[p]["g_score"] += m.g_of(p)

    def sort_key(crit, p):
        v = values[p][crit]
        if crit == "seniority":
            return (v is None, v if v is not None else 0)
        return (-v,)

    groups = [list(players)]
    for crit in chain:
        split = []
        for group in groups:
            if crit == "p_zero":  # direct encounters inside the group still tied
                inside = set(group)
                for p in group:
                    values[p]["p_zero"] = sum(m.points_of(p) for m in matches
                                              if p in m.players and set(m.players) <= inside) if len(group) > 1 else 0.0
            ordered = sorted(group, key=lambda p: sort_key(crit, p))
            run = [ordered[0]]
            for p in ordered[1:]:
                if sort_key(crit, p) == sort_key(crit, run[0]):
                    run.append(p)
                else:
                    split.append(run)
                    run = [p]
            split.append(run)
        groups = split
    table = []
    rank = 1
    for group in groups:
        for p in sorted(group):
            row = {"rank": rank, "player": p}
            row.update({crit: values[p][crit] for crit in chain})
            table.append(row)
        rank += len(group)
    return {"event": event, "tiebreaks": chain, "standings": table,
            "matches": [{"match": m.match, "players": list(m.players), "totals": list(m.totals),
                         "margin": m.margin, "result": m.result} for m in sorted(matches, key=_match_order)]}


def _match_order(m: Match) -> tuple:
    """Matches in round order: a Match tag read as numbers (``21.1`` before ``22.1``, ``3.2``
    before ``10.1``), a tag that is not after them in its own order, none last as they came."""
    if m.match is None:
        return (2,)
    parts = m.match.split(".")
    if all(p.isdigit() for p in parts):
        return (0, tuple(int(p) for p in parts))
    return (1, m.match)


def match_results(doc: dict) -> dict:
    """Each player's matches played, won, drawn and lost, from a standings document's matches
    (the document itself stays as the contract gives it)."""
    results = {r["player"]: {"games": 0, "won": 0, "drawn": 0, "lost": 0} for r in doc["standings"]}
    for m in doc.get("matches", []):
        for seat, p in enumerate(m["players"]):
            r = results.setdefault(p, {"games": 0, "won": 0, "drawn": 0, "lost": 0})
            r["games"] += 1
            won = {"1-0": 0, "0-1": 1}.get(m["result"])
            r["drawn" if won is None else "won" if won == seat else "lost"] += 1
    return results


def standings_of(event: str, open_store) -> tuple[dict, object]:
    """``standings EVENT``: (the standings document, the store or None): a tournament file, the
    folder that holds one, or a stored event (the store opened by ``open_store()``)."""
    if os.path.isdir(event):
        return standings_from_file(*tournament_file_in(event)), None
    if os.path.isfile(event):
        return standings_from_file(event), None
    store = open_store()
    return standings_from_store(store, event), store


def standing_rows(doc: dict) -> list[dict]:
    """A row a player: the ranking with its tiebreaks, the matches won, drawn and lost, and
    each match from the player's side (``vs Bob +3 (1)``)."""
    results = match_results(doc)
    return [dict(r, **results.get(r["player"], {}),
                 matches="; ".join(_match_text(r["player"], m) for m in doc.get("matches", [])
                                   if r["player"] in m["players"]))
            for r in doc["standings"]]


def _match_text(player: str, m: dict) -> str:
    seat = m["players"].index(player)
    other = m["players"][1 - seat]
    margin = m["margin"] if seat == 0 else -m["margin"]
    points = {"1-0": ("1", "0"), "0-1": ("0", "1")}.get(m["result"], ("1/2", "1/2"))[seat]
    return f"vs {other} {margin:+d} ({points})"


def standings_from_file(path: str, text: str | None = None) -> dict:
    t = load_tournament(path, text)
    return standings(t["players"], t["matches"], t["tiebreaks"], t["seniority"], t["event"])


def standings_from_store(store, event: str, links: dict | None = None) -> dict:
    """Standings of a stored event: the tournament ingested under its name (its players,
    seniority, tiebreaks and matches, as the file ranks them), and every other finished
    match stored under its Event tag (by Match tag), from what its replay stored; without a
    tournament, the stored matches alone, with the default tiebreak chain. ``links``, where
    given, gets each match whose record is stored: {match: record id} (the document keeps
    the contract's shape)."""
    kept = store.tournament(event)
    if kept is not None:
        t = tournament_of(kept[1], f"the tournament kept for {event!r}", identify=links is not None)
        game, matches, players = t["game"], list(t["matches"]), list(t["players"])
        chain, seniority = t["tiebreaks"], t["seniority"]
    else:
        game, matches, players, chain, seniority = tournament_game(), [], [], None, {}
    tournament = game.tournament
    known = {m.match for m in matches}
    for row in store.event_rows(event, game.id):
        m = tournament.stored_match(row)
        if m is not None and m.match not in known:
            matches.append(m)
            players += [p for p in m.players if p not in players]
    if not matches:
        raise NotFound(f"no tournament file and no finished stored matches of event {event!r} "
                       "(scorebook events lists the stored events)")
    if links is not None:
        stored = store.existing_ids([m.record for m in matches if m.record])
        links.update({m.match: m.record for m in matches if m.record in stored})
    return standings(players, matches, list(chain or tournament.default_tiebreaks), seniority, event)


def tournament_file_in(folder: str) -> tuple[str, str]:
    """(path, text) of the one tournament file directly inside ``folder`` (``standings
    FOLDER``); a UsageError names what was found when there is none or more than one."""
    from scorebook.records.ingest import tournament_file_text
    try:
        names = sorted(n for n in os.listdir(folder) if not n.startswith("."))
    except OSError as err:
        raise UsageError(f"cannot list the folder {folder}: {err.strerror or err}") from None
    found = [(path, text) for path in (os.path.join(folder, n) for n in names)
             if (text := tournament_file_text(path, strict=True)) is not None]
    if not found:
        raise UsageError(f"{folder}: no tournament file directly inside it (a .json file with matches or records)")
    if len(found) > 1:
        raise UsageError(f"{folder}: {len(found)} tournament files ({', '.join(p for p, _ in found)}): name one")
    return found[0]


def ingest_tournament(store, path: str, text: str, *, strict: bool = False, lenient: bool = False,
                      also_ingested: frozenset[str] = frozenset()) -> tuple[list[dict], dict]:
    """Ingest a tournament file (``text``, as ``tournament_file_text`` read it) atomically:
    every record it names (the files it names, but for those in ``also_ingested``, which the
    same run ingests by themselves; its inline matches, as ``PATH#matches[K]``) and its
    snapshot, kept under its event so that ``standings EVENT`` ranks as ``standings PATH``
    does. Returns (the records' outcomes, the tournament's: ``{"source", "event", "game",
    "status", "matches", "players"}``); a tournament that cannot be ranked is one rejected
    outcome (code ``bad-tournament``) and writes nothing."""
    from scorebook.records.ingest import file_rejection, ingest_text
    try:
        snapshot = read_tournament(path, text)
        t = tournament_of(snapshot, path)
    except UsageError as exc:
        why = RecordRejected("bad-tournament", str(exc).removeprefix(f"{path}: "), line=1, column=1)
        return [file_rejection(path, why)], {"source": path, "status": "rejected"}
    base = Path(path).parent
    outcomes: list[dict] = []
    with store.atomic():
        for name, named_text in snapshot["texts"].items():
            source = str(base / name)
            if os.path.abspath(source) not in also_ingested:
                outcomes += ingest_text(store, named_text, source, strict=strict, lenient=lenient)
        for k, entry in enumerate(snapshot["spec"].get("matches", []), 1):
            if "pgn" in entry:
                outcomes += ingest_text(store, entry["pgn"], f"{path}#matches[{k}]", strict=strict, lenient=lenient)
        status = store.save_tournament(t["event"], t["game"].id, snapshot, path)
    return outcomes, {"source": path, "event": t["event"], "game": t["game"].id, "status": status,
                      "matches": len(t["matches"]), "players": len(t["players"])}
