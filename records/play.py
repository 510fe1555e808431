"""Bots play; their games are kept as records, through the normal ingest path (so every bot
game is replayed and checked like any record). One match loop for every game:

* the bots and the game's options are read against the game's declaration (game.json);
* game g gets random numbers from ``[seed, g]``: the engine sets it up (a shuffle, a deal),
  the bots play it (``Engine.play``), the notation writes it (``Notation.write_played``);
* seats rotate from game to game (player i sits at seat ``(i - g) mod n``);
* every outcome has one shape, and the statistics are computed here, from each player's
  side: the first player's total (one player) or margin over the second (two players).

>>> from scorebook.records.store import Store
>>> out = play(Store(":memory:"), "tiny-islands", ["random"], games=2, seed=5)
>>> [g["status"] for g in out["games"]], out["summary"]["games"]
(['ingested', 'ingested'], 2)
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from scorebook import batch, registry
from scorebook.engines.protocol import BotSpec

from . import user_files
from scorebook.errors import Unavailable, UsageError
from .ingest import ingest_text
from .store import Store


def parse_bots(game: registry.Game, specs: list[str]) -> list[BotSpec]:
    """``["mc:16"]`` -> the bots, checked against the game's declaration."""
    info = game.info
    menu = ", ".join(b.name + (f":{b.argument.upper()}" if b.argument else "") for b in info.bots)
    players = info.players
    if not players.min <= len(specs) <= players.max:
        count = str(players.min) if players.min == players.max else f"{players.min} to {players.max}"
        raise UsageError(f"{game.id} needs {count} players, comma separated, from: {menu}")
    bots = []
    for spec in specs:
        name, colon, arg = spec.strip().partition(":")
        bot = info.bot(name)
        if bot is None or (colon and (bot.argument is None or not arg.isdigit() or len(arg) > 9)):
            raise UsageError(f"unknown {info.name} bot {spec.strip()!r}; choose {menu}")
        number = int(arg) if arg else bot.default
        if bot.argument is not None and (number < bot.min or (bot.max is not None and number > bot.max)):
            raise UsageError(f"{name}:{number}: {bot.argument} must be at least {bot.min}"
                             + (f" and at most {bot.max}" if bot.max is not None else ""))
        bots.append(BotSpec(name, number))
    return bots


def player_names(specs: list[str]) -> list[str]:
    """The bots' names as players; the same bot twice is told apart as ``greedy-1``, ``greedy-2``."""
    names = [s.strip() for s in specs]
    return [f"{n}-{i + 1}" if names.count(n) > 1 else n for i, n in enumerate(names)]


def play_options(game: registry.Game, given: dict) -> dict:
    """The game's play options with defaults, the given ones checked (an option another game
    declares, or none does, is a usage error)."""
    declared = {o.name: o for o in game.info.play_options}
    out = {o.name: o.default for o in declared.values()}
    for name, value in given.items():
        if value is None:
            continue
        o = declared.get(name)
        if o is None:
            raise UsageError(f"--{name} is not an option of {game.id}")
        if o.kind == "choice" and value not in o.choices:
            raise UsageError(f"--{name} for {game.id}: {' or '.join(o.choices)}")
        if o.kind in ("int", "float") and ((o.min is not None and value < o.min) or (o.max is not None and value > o.max)):
            raise UsageError(f"--{name} for {game.id} must be from {o.min:g} to {o.max:g}" if o.max is not None
                             else f"--{name} for {game.id} must be at least {o.min:g}")
        out[name] = value
    return out


def check_out_dir(out_dir: str | None) -> None:
    """Before any game is played: can records be written to ``out_dir``? (Unavailable if not.)"""
    if not out_dir:
        return
    try:
        os.makedirs(out_dir, exist_ok=True)
        probe = os.path.join(out_dir, ".scorebook-write-test")
        open(probe, "w").close()
        os.remove(probe)
    except OSError as exc:
        raise Unavailable(f"cannot write records to {out_dir}: {exc.strerror or exc}") from None


def _store_game(store: Store, text: str, source: str, out_dir: str | None, filename: str) -> dict:
    """Write a bot's record to ``out_dir`` (when given) and ingest it like any other record."""
    if out_dir:
        path = Path(out_dir) / filename
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        source = str(path)
    return ingest_text(store, text, source, "pgn")[0]


@dataclass(frozen=True)
class Match:
    """What a worker needs to play any game of a match: everything but the store."""
    game_id: str
    bots: tuple
    names: tuple
    options: dict
    seed: int
    event: str = ""  # the records' Event tag (default: "scorebook play seed S")
    tags: tuple[tuple[str, str], ...] = ()  # more tags, or others in place of the default ones (a table's Round)


_WARM: set = set()  # the matches whose bots this process has loaded


def seated(items: list, g: int) -> list:
    """Players (or their bots) in seat order for game ``g``: they rotate from game to game."""
    shift = g % len(items)
    return items[shift:] + items[:shift]


def seats_of_players(n: int, g: int) -> list[int]:
    """The seat of each of ``n`` players in game ``g``: the inverse of ``seated``."""
    return [(i - g) % n for i in range(n)]


def play_task(task: tuple) -> dict:
    """Game ``g`` of a match, wherever the executor runs it: ``(match, g, setup)`` -> its
    record's text and what the engine counted. Game g draws its random numbers from
    ``[seed, g]``, so it is the same game on any worker, and again when retried."""
    match, g, setup = task
    game = registry.get_game(match.game_id)
    engine, notation = game.engine, game.notation
    options = warm_bots(match)
    rng = np.random.default_rng([match.seed, g])
    if setup is None:
        setup = engine.new_game(rng, match.options)
    seats = list(zip(seated(list(match.names), g), seated(list(match.bots), g)))
    played = engine.play(setup, [bot for _, bot in seats], int(rng.integers(2**31)), options)
    tags = {"Event": match.event or f"scorebook play seed {match.seed}", "Round": str(g + 1), **dict(match.tags)}
    text = notation.write_played(setup, played, seats, tags, {"seed": match.seed, "game": g, "options": match.options})
    return {"text": text, "seconds": played.seconds, "info": played.info}


def warm_bots(match: Match) -> dict:
    """Load (or compile) the match's bots in this process before any game is timed: a game
    of their cheapest settings, once a process. Returns the options with the user files read
    (a network loaded once a process)."""
    game = registry.get_game(match.game_id)
    options = user_files.resolved(match.options)
    key = (match.game_id, match.bots, repr(sorted(match.options.items())))
    if key not in _WARM:
        cheapest = [BotSpec(b.name, game.info.bot(b.name).min) if b.number is not None else b for b in match.bots]
        game.engine.play(game.engine.new_game(np.random.default_rng(0), options), cheapest, 0, options)
        _WARM.add(key)
    return options


def bot_files(game: registry.Game, bots: list[BotSpec], given: dict | None) -> dict:
    """The user files the bots need (``Bot.needs``), read and checked: {name: UserFileRef}.
    ``given``: the paths the command names ({name: path or None}); else the environment's."""
    out = {}
    for bot in bots:
        name = game.info.bot(bot.name).needs
        if name and name not in out:
            out[name] = user_files.needed(game, name, (given or {}).get(name), f"bot {bot}")
    return out


def play(store: Store, game_id: str, specs: list[str], *, games: int = 1, seed: int = 0,
         options: dict | None = None, out_dir: str | None = None, progress=None, jobs: int = 1,
         executor: str = "local", scheduler: str | None = None, files: dict | None = None,
         event: str = "") -> dict:
    """Play ``games`` games (or one per game the options give, as Tiny Islands' shuffles),
    one task a game on the executor (``scorebook.batch``; by default here, one after the
    other, so that the seconds a game are a lone process's); store each record as it ends.
    ``progress(outcome, done, total)`` after each game. Returns ``{"games": [outcome, ...],
    "summary": {...}}``, the games in their order. ``files``: the user files named ({name: path}),
    read where a bot needs one."""
    game = registry.get_game(game_id)
    engine, notation = game.engine, game.notation
    bots = parse_bots(game, specs)
    names = player_names(specs)
    opts = play_options(game, options or {})
    problem = engine.check_play(bots, opts)
    if problem:
        raise UsageError(problem)
    opts.update(bot_files(game, bots, files))
    store.check_writable()  # before the first game, not after it: each is stored as it ends
    setups = notation.fixed_setups(opts)
    count = len(setups) if setups is not None else games
    n = len(bots)
    match = Match(game.id, tuple(bots), tuple(names), opts, seed, event)
    measure = measure_of(game, len(bots))
    label = notation.file_label(opts)
    tasks = ((match, g, setups[g] if setups is not None else None) for g in range(count))
    outcomes = []
    if executor == "local" and min(jobs, count) > 1:
        warm_bots(match)  # compiled here once (one notice), not in every worker: they fork from this process
    with batch.executor(executor, jobs=min(jobs, count), scheduler=scheduler) as pool:
        for (_, g, _), done in batch.run_tasks(pool, play_task, tasks):
            if isinstance(done, BaseException):
                raise UsageError(f"game {g + 1} could not be played: {type(done).__name__}: {done}")
            filename = "-".join([game.id, *(name.replace(":", "") for name in names), *([label] if label else []),
                                 f"s{seed}", f"{g + 1:04d}"]) + ".pgn"
            outcome = _store_game(store, done["text"], f"play:{'-'.join(names)}:seed={seed}:game={g + 1}", out_dir,
                                  filename)
            seat_of = seats_of_players(n, g)
            outcome["seconds"] = round(done["seconds"], 4)
            outcome["players"] = seated(names, g)
            score = outcome.get("score")
            points = notation.seat_points(score) if score else None
            # one measure a game, whatever the seats: a margin over the second of two, a share of
            # the win (Tsuro's, two players or eight), else the first player's points
            outcome["value"] = None if points is None else (
                points[seat_of[0]] - points[seat_of[1]] if n == 2 and measure == "margin" else points[seat_of[0]])
            for key, per_seat in done["info"].items():
                outcome[key] = [per_seat[seat_of[i]] for i in range(n)]  # in the players' order
            outcome["round"] = g + 1
            outcomes.append(outcome)
            if progress:
                progress(outcome, len(outcomes), count)
    outcomes.sort(key=lambda o: o.pop("round"))
    return {"games": outcomes, "summary": summarize(outcomes, names, measure)}


def measure_of(game: registry.Game, seats: int) -> str:
    """What a game's value is in ``play``: ``total`` (one player), ``share`` (of a win, a game
    whose analysis values shares: Tsuro, whatever the seats), ``margin`` (over the second of
    two players), else ``points`` (the first player's)."""
    if seats == 1:
        return "total"
    scale = game.info.analysis.scale if game.info.analysis else "margin"
    return "share" if scale == "share" else "margin" if seats == 2 else "points"


def summarize(outcomes: list[dict], names: list[str], measure: str = "margin") -> dict:
    """Mean and standard error of the games' values (``measure``: the first player's total,
    share or points, or margin over the second); wins, losses and draws of the first of two
    players; per-player means of what the engine counted (decisions, seconds a decision, nodes)."""
    values = [o["value"] for o in outcomes if o.get("value") is not None]
    mean, stderr = _mean_and_stderr(values)
    out = {"players": names, "games": len(outcomes), "mean": mean, "stderr": stderr, "measure": measure}
    if len(names) == 2:
        even = 0.5 if measure == "share" else 0.0  # a shared win, or a level margin
        out.update({"wins": sum(v > even for v in values), "losses": sum(v < even for v in values),
                    "draws": sum(v == even for v in values)})
    out.update(_engine_means(outcomes, len(names)))
    seconds = [o["seconds"] for o in outcomes]
    out["mean_seconds"] = sum(seconds) / len(seconds) if seconds else None
    return out


def _mean_and_stderr(values: list[float]) -> tuple[float | None, float | None]:
    k = len(values)
    mean = sum(values) / k if k else None
    return mean, math.sqrt(sum((v - mean) ** 2 for v in values) / (k - 1) / k) if k > 1 else None


_OUTCOME_KEYS = ("source", "index", "status", "game", "id", "score", "recorded", "finished", "warnings", "errors",
                 "seconds", "players", "value")


def _engine_means(outcomes: list[dict], players: int) -> dict:
    """``mean_KEY``: each player's mean of what the engine counted a game (KEY: a list by player)."""
    out = {}
    for key in [k for k in (outcomes[0] if outcomes else {}) if k not in _OUTCOME_KEYS]:
        per_player = []
        for i in range(players):
            vals = [o[key][i] for o in outcomes if o.get(key) and o[key][i] is not None]
            per_player.append(sum(vals) / len(vals) if vals else None)
        out["mean_" + key] = per_player
    return out


def ladder_matches(game: registry.Game, specs: list[str], options: dict | None = None) -> list[list[str]]:
    """The matches of a ladder: every bot alone (a solo game, under these options), all of them
    together (a game that seats them all, of more than two), else every pair."""
    specs = [s.strip() for s in specs]
    if len(set(specs)) != len(specs) or len(specs) < 2:
        raise UsageError("--ladder names two or more different bots, comma separated")
    players = game.info.players
    opts = play_options(game, options or {})
    if players.min == 1 and game.engine.check_play(parse_bots(game, specs[:1]), opts) is None:
        return [[s] for s in specs]
    if len(specs) > 2 and players.min <= len(specs) <= players.max:
        return [specs]
    return [[a, b] for i, a in enumerate(specs) for b in specs[i + 1:]]


def play_seated(store: Store, game_id: str, seats: list[tuple[str, str]], options: dict, *, seed: int,
                tags: dict, deal: list[int] | None = None) -> dict:
    """One game of bots in the seats given (``(player name, bot spec)`` in seat order), its
    record tagged with ``tags`` (a tournament's Event, Round and Table) and stored as any
    record is: its outcome. ``deal``: the setup drawn from this seed instead (a duplicate
    round: every table of it the same deal)."""
    game = registry.get_game(game_id)
    engine = game.engine
    bots = parse_bots(game, [spec for _, spec in seats])
    names = [name for name, _ in seats]
    opts = play_options(game, options)
    problem = engine.check_play(bots, opts)
    if problem:
        raise UsageError(problem)
    store.check_writable()
    match = Match(game.id, tuple(bots), tuple(names), opts, seed, tags.get("Event", ""), tuple(tags.items()))
    setup = engine.new_game(np.random.default_rng(deal), opts) if deal is not None else None
    done = play_task((match, 0, setup))  # game 0 of a match of one game: the seats as given
    return ingest_text(store, done["text"], f"tournament:{tags.get('Event', '')}:round={tags.get('Round', '')}",
                       "pgn")[0]
