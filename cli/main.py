"""``scorebook``: a thin click façade over the library (contract: shared/specs/cli.md).

Every command takes ``--json`` and then prints exactly one JSON document on stdout (an error
too: ``{"error": {...}}``); the commands that print rows take sqlite-utils' output options
(``cli/output.py``). Exit codes: 0 success, 1 some input rejected or a check failed, 2 usage
error; 130 interrupted. No tracebacks for bad input. ``--db`` goes before or after the command.
"""
from __future__ import annotations

import json
import os
import shlex
import signal
import sqlite3
import sys
import threading

import click

from scorebook import registry
from scorebook.errors import ScorebookError, UnknownGame, UsageError
from scorebook.records.notation import score_text

from .output import emit_json, json_option, output_options, safe


class GameType(click.ParamType):
    """A game id, checked against the registry when the command runs (so a game registered
    later, a test's toy game, is a valid argument too)."""
    name = "GAME"

    def convert(self, value, param, ctx):
        try:
            return registry.get_game(value).id
        except UnknownGame as err:
            raise click.UsageError(str(err), ctx) from None

    def get_metavar(self, param, ctx=None):
        return "[" + "|".join(registry.game_ids()) + "]"


GAME = GameType()


_REQUEST = {"json": False}  # set from the command line before anything can fail


def _wants_json() -> bool:
    return _REQUEST["json"]


def _fail(err: Exception, code: int | None = None) -> None:
    """One line on stderr (and, under --json, an error document on stdout) and the exit code:
    2 for a usage error, 1 for anything the data or the database did (an SQLite error too)."""
    message = str(err) if isinstance(err, (ScorebookError, click.ClickException)) else f"database error: {err}"
    code = code if code is not None else 2 if isinstance(err, UsageError) else 1
    click.echo(f"scorebook: {message}", err=True)
    if _wants_json():
        emit_json({"error": {"message": message, "exit": code, "usage": code == 2}})
    sys.exit(code)


class _Group(click.Group):
    def main(self, args=None, prog_name=None, **kwargs):
        """click's own usage errors answer under --json too, with a JSON document."""
        argv = list(sys.argv[1:] if args is None else args)
        _REQUEST["json"] = "--json" in argv
        kwargs.pop("standalone_mode", None)
        try:
            return super().main(argv, prog_name=prog_name, standalone_mode=False, **kwargs)
        except click.exceptions.NoArgsIsHelpError as exc:
            click.echo(exc.ctx.get_help())
            sys.exit(2)
        except click.UsageError as exc:  # one line, with where to read more
            command = exc.ctx.command_path.replace("main", "scorebook", 1) if exc.ctx is not None else "scorebook"
            _fail(click.UsageError(f"{exc.format_message()} (see {command} --help)"), 2)
        except click.ClickException as exc:
            _fail(exc, exc.exit_code)
        except click.exceptions.Exit as exc:
            sys.exit(exc.exit_code)
        except click.exceptions.Abort:
            click.echo("scorebook: interrupted", err=True)
            sys.exit(130)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except (ScorebookError, sqlite3.Error) as err:
            _fail(err)
        except BrokenPipeError:
            sys.exit(0)
        except KeyboardInterrupt:
            click.echo("scorebook: interrupted", err=True)
            sys.exit(130)


def _set_db(ctx, param, value):
    if value is not None:
        ctx.find_root().obj["db"] = value


def db_option(fn):
    """``--db`` after the command as well as before it."""
    return click.option("--db", expose_value=False, callback=_set_db, is_eager=True, metavar="PATH",
                        help="SQLite database (as before the command).")(fn)


def _store(ctx, write: bool = True):
    """The database; a command that only reads never creates one."""
    from scorebook.records.store import Store
    return Store(ctx.find_root().obj["db"], write=write,
                 on_wait=lambda message: click.echo(f"scorebook: {message}", err=True))


def _write_file(path: str, text: str) -> None:
    """Write a file the user named; a missing folder or a refusal is one line, exit 1."""
    from scorebook.errors import Unavailable
    try:
        with open(path, "w") as fh:
            fh.write(text)
    except OSError as exc:
        raise Unavailable(f"cannot write {path}: {exc.strerror or exc}") from None


def _check_writable(path: str | None) -> None:
    """Before the work: can the file the user named be written? (A missing folder or a refusal
    is one line, exit 1, at once rather than after the work.)"""
    if not path:
        return
    from scorebook.errors import Unavailable
    existed = os.path.exists(path)
    try:
        with open(path, "a"):
            pass
    except OSError as exc:
        raise Unavailable(f"cannot write {path}: {exc.strerror or exc}") from None
    if not existed:
        os.remove(path)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--db", default=lambda: os.environ.get("SCOREBOOK_DB", "scorebook.db"), show_default="./scorebook.db",
              metavar="PATH", help="SQLite database (or $SCOREBOOK_DB).")
@click.version_option(package_name="scorebook")
@click.pass_context
def main(ctx, db):
    """Scorebook: game records, move-by-move validation, storage and analysis for Tiny Islands,
    The Game of Islands, Iwoki, Patchwork and Tsuro.

    Example: scorebook ingest samples/ && scorebook list"""
    ctx.obj = {"db": db}
    from scorebook.analyze.warm import announce_compiling
    announce_compiling(lambda line: click.echo(f"scorebook: {line}", err=True))  # once a process


class _Progress:
    """Progress on stderr: a bar on a terminal; elsewhere (a log, a pipe) a line at every tenth
    of the way, ``scorebook: analysing: 12 of 29 moves``; nothing under --json."""

    def __init__(self, length: int, label: str, shown: bool, unit: str = "", lines: bool = False):
        self.bar = click.progressbar(length=length, label=label, file=sys.stderr) if shown and length > 1 else None
        self.lines = lines and self.bar is None and length > 1
        self.length, self.label, self.unit, self.done, self.said = length, label, unit, 0, 0

    def __enter__(self):
        if self.bar is not None:
            self.bar.__enter__()
        return self

    def update(self, n: int = 1) -> None:
        if self.bar is not None:
            self.bar.update(n)
        self.done += n
        if self.lines and self.done * 10 // self.length > self.said:
            self.said = self.done * 10 // self.length
            click.echo(f"scorebook: {self.label}: {min(self.done, self.length)} of {self.length} {self.unit}".rstrip(),
                       err=True)

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.__exit__(*exc)
        return False


# ------------------------------------------------------------------ ingest

INGEST_COLUMNS = [("source", "source"), ("index", "record"), ("status", "status"), ("game", "game"), ("id", "id"),
                  ("score", "score"), ("code", "code")]


@main.command(short_help="Read, validate by replay, and store records.")
@click.argument("paths", nargs=-1, required=True)
@click.option("--format", "fmt", default="auto", type=click.Choice(["auto", *registry.formats()]),
              help="Force a format instead of detecting it from content.")
@click.option("--strict", is_flag=True, help="Reject a whole file when any of its records is rejected.")
@click.option("--lenient", is_flag=True, help="Store records whose stated score differs, with a warning.")
@db_option
@output_options
@click.pass_context
def ingest(ctx, paths, fmt, strict, lenient, out):
    """Read, validate by replay, and store records from files, folders (recursively) or - (stdin),
    in any format a game reads (detected from the content). A file is stored whole or not at all;
    a record already stored is reported as a duplicate; a rejected one is one line on stderr.

    Example: scorebook ingest games.txt tournament/ -"""
    from scorebook.analyze.standings import ingest_tournament
    from scorebook.records.ingest import GAME_FILES, IngestPlan, kept_code, rejection_line
    store = _store(ctx)
    plan = IngestPlan.of(paths, fmt)
    if plan.skipped:
        shown = ", ".join(plan.skipped[:5]) + (f" and {len(plan.skipped) - 5} more" if len(plan.skipped) > 5 else "")
        read = " ".join(GAME_FILES) + (" and tournament .json files" if fmt == "auto" else "")
        click.echo(f"scorebook: skipped {len(plan.skipped)} file(s) that are not records (folders are read for "
                   f"{read}): {shown}", err=True)
    with _Progress(len(plan.files), "ingesting", not out.json and sys.stderr.isatty()) as bar:
        doc = plan.run(store, strict=strict, lenient=lenient, take_tournament=ingest_tournament, progress=bar.update)
    summary = doc["summary"]
    _rate_new(store, {o.get("game") for o in doc["records"] if o["status"] == "ingested"})
    for o in doc["records"]:
        if o["status"] == "rejected":
            click.echo(rejection_line(o), err=True)
        for w in o.get("warnings", []):
            click.echo(f"{o['source']}: record {o['index']}: warning: {w}", err=True)
    rows = [{"source": o["source"], "index": o["index"], "status": o["status"], "game": o.get("game"),
             "id": o.get("id"), "score": score_text(o.get("score")) if o.get("score") else None,
             "code": o["errors"][0]["code"] if o.get("errors") else kept_code(o.get("warnings"))}
            for o in doc["records"]]
    if out.human and len(rows) > 40:  # a long run: the records that were not simply ingested
        rows = [r for r in rows if r["status"] != "ingested"][:40]
    out.rows(INGEST_COLUMNS, rows, doc)
    if out.human:
        for t in doc["tournaments"]:
            if t["status"] != "rejected":
                click.echo(f"tournament {t['event']!r} ({t['game']}): {t['matches']} matches, {t['players']} players, "
                           f"{t['status']}; rank it with: scorebook standings {shlex.quote(t['event'])}")
        db = ctx.find_root().obj["db"]
        click.echo(f"{summary['ingested']} ingested, {summary['duplicates']} duplicates, "
                   f"{summary['rejected']} rejected; database {db if len(db) <= 50 else '…' + db[-49:]}")
    if summary["rejected"]:
        sys.exit(1)


def _rate_new(store, games) -> None:
    """The kept ratings brought up to the games just stored (ratings reads them)."""
    from scorebook.analyze.ratings import update
    games = sorted(g for g in games if g)
    if games:
        update(store, games)


# ------------------------------------------------------------------ list, show, export

TABLE_LIMIT = 100  # records the table shows unless --limit says otherwise

@main.command("list", short_help="List stored records.")
@click.option("--game", type=GAME, help="Only records of this game.")
@click.option("--player", help="Only records with this player (any case; * matches any text).")
@click.option("--where", "where_sql", metavar="SQL", help="An SQL condition over the columns id, game, date, event, "
              "players, result, total, rules, deck, finished, source: \"event = 'Autumn Open'\".")
@click.option("--order", metavar="SQL", help="Order by these columns: \"date desc, id\" (default: as ingested).")
@click.option("--limit", type=click.IntRange(0), help=f"At most this many records (0: all; the table shows "
              f"{TABLE_LIMIT} unless told, the other formats all).")
@click.option("--offset", type=click.IntRange(0), help="Skip this many records first.")
@db_option
@output_options
@click.pass_context
def list_(ctx, game, player, where_sql, order, limit, offset, out):
    """List stored records, oldest first, with sqlite-utils' row controls: every filter, the
    order and the limit in one query, printed as they come.

    Example: scorebook list --game tsuro --where "date >= '2026.01.01'" --order "date desc" --limit 20"""
    shown = (TABLE_LIMIT if out.human else None) if limit is None else (limit or None)
    # one more than shown: whether there are more to say so
    stored = _store(ctx, write=False).list(game, player, where_sql=where_sql, order=order,
                                           limit=None if shown is None else shown + 1, offset=offset)
    more = []

    def pairs():
        for n, r in enumerate(stored):
            if shown is not None and n == shown:
                more.append(r)
                return
            yield ({"id": r["id"], "game": r["game"], "date": r["tags"].get("Date"), "event": r["event"],
                    "players": r["players"], "score": r["result"], "rules": r["rules"], "deck": r["deck"],
                    "source": f"{r['source']}#{r['source_index']}"},
                   {"id": r["id"], "game": r["game"], "players": r["players"].split(" / ") if r["players"] else [],
                    "score": r["score"], "recorded": r["recorded"], "rules": r["rules"], "deck": r["deck"],
                    "finished": bool(r["finished"]), "source": r["source"], "index": r["source_index"],
                    "tags": r["tags"]})
    # the table shows the label columns the store keeps (the browsing views show the same)
    n = out.stream([("id", "id"), ("game", "game"), ("date", "date"), ("event", "event"), ("players", "players"),
                    ("score", "score"), ("rules", "rules"), ("deck", "deck"), ("source", "source")], pairs(), "records")
    if out.human:
        click.echo(f"{n} records" + (f"; more follow: --limit N or --offset {(offset or 0) + n} for the next, "
                                     "--limit 0 for all" if more else ""))


@main.command(short_help="List the events of the stored records.")
@db_option
@output_options
@click.pass_context
def events(ctx, out):
    """The events of the stored records (their Event tag), with their games, records and players,
    and whether a tournament file is kept for the event (what standings EVENT ranks).

    Example: scorebook events --csv"""
    rows = _store(ctx, write=False).events()
    out.rows([("event", "event"), ("game", "game"), ("records", "records"), ("players", "players"),
              ("first", "first date"), ("last", "last date"), ("tournament", "tournament")], rows, {"events": rows})
    if out.human:
        click.echo(f"{len(rows)} events")


@main.command(short_help="Show a record with a text board after each move.")
@click.argument("record_id")
@db_option
@json_option
@click.pass_context
def show(ctx, record_id, as_json):
    """Show a record: its tags, a text board after each move, its score.

    Example: scorebook show 3f2a --json"""
    from scorebook.analyze.boards import record_states
    from scorebook.analyze.run import record_of
    row = _store(ctx, write=False).get(record_id)
    states = record_states(row)
    if as_json:
        emit_json({"id": row["id"], "game": row["game"], "tags": row["tags"], "rules": row["rules"],
                   "deck": row["deck"], "score": row["score"], "recorded": row["recorded"],
                   "moves": [{k: s[k] for k in ("game", "ply", "move", "annotation", "state") if k in s}
                             for s in states]})
        return
    notation = registry.get_game(row["game"]).notation
    record = record_of(row)
    headers = notation.game_headers(record)
    players = notation.players(record)
    click.echo(safe("  ".join([row["id"], row["game"]] + [f"{k} {row[k]}" for k in ("rules", "deck") if row[k]])))
    if headers:  # a triad: the match, then each game's own tags before its moves
        click.echo(safe(f"  players: {' / '.join(players)}"))
    else:
        for k, v in row["tags"].items():
            click.echo(safe(f"  {k}: {v}"))
    shown = None
    for s in states:
        if headers and s.get("game") != shown:
            shown = s.get("game")
            click.echo(safe(f"\ngame {shown}: " + ", ".join(f"{k} {v}" for k, v in headers.get(shown, {}).items())))
        click.echo(safe(f"\n{s['heading']}ply {s['ply']}: {s['move']}"))
        click.echo(s["board"])
    click.echo("")
    for k, line in enumerate(notation.score_lines(row["score"], players)):
        click.echo(safe(f"{'score:' if k == 0 else '      '} {line}"))


@main.command(short_help="Export a stored record in a format its game writes.")
@click.argument("record_id")
@click.option("--format", "fmt", default="pgn", show_default=True, type=click.Choice(registry.formats()),
              help="pgn, or a format of the record's game.")
@click.option("--out", "out_path", type=click.Path(dir_okay=False), help="Write to this file instead of stdout.")
@db_option
@json_option
@click.pass_context
def export(ctx, record_id, fmt, out_path, as_json):
    """Export a stored record in any format its game writes. A format that cannot carry all of
    the record says on stderr what it dropped (the export then reads back as another record).

    Example: scorebook export 3f2a --format tinybot --out game.txt"""
    from scorebook.records.export import export_record
    _check_writable(out_path)
    row = _store(ctx, write=False).get(record_id)
    text, dropped = export_record(row, fmt)
    if dropped:
        click.echo(f"scorebook: {fmt} cannot carry all of record {row['id']}: it drops " + "; ".join(dropped)
                   + " (read back, it is another record)", err=True)
    if out_path:
        _write_file(out_path, text)
    if as_json:
        emit_json({"id": row["id"], "format": fmt, "text": text, "dropped": dropped})
    elif not out_path:
        click.echo(text, nl=False)


# ------------------------------------------------------------------ play

def _play_options(fn):
    """One click option per play option any game declares (game.json), each checked per game
    by the library; the help says which game takes it."""
    by_name: dict = {}
    for game in registry.games():
        for o in game.info.play_options:
            by_name.setdefault(o.name, []).append((game.id, o))
    for name, uses in reversed(list(by_name.items())):
        kinds = {o.kind for _, o in uses}
        if len(kinds) > 1:
            raise RuntimeError(f"play option {name} has different kinds in different games")
        kind = kinds.pop()
        help_text = "; ".join(f"{gid}: {o.help}" + (f" ({'|'.join(o.choices)}, default {o.default})" if o.choices
                                                       else f" (default {o.default})" if o.default not in (None, False)
                                                       else "") for gid, o in uses)
        types = {"int": int, "float": float, "choice": str, "file": click.Path(exists=True, dir_okay=False)}
        if kind == "flag":
            fn = click.option(f"--{name}", is_flag=True, default=None, help=help_text)(fn)
        else:
            fn = click.option(f"--{name}", type=types[kind], default=None, help=help_text)(fn)
    return fn


def user_file_options(fn):
    """``--NAME PATH`` for every user file a game declares (``--net``: TinyBot's network),
    gathered into the command's ``files`` argument; the library reads and checks the file."""
    declared: dict = {}
    for game in registry.games():
        for f in game.info.user_files:
            declared.setdefault(f.name, []).append((game.id, f))
    for name, uses in reversed(list(declared.items())):
        help_text = "; ".join(f"{gid}: {f.help} (or ${f.env})" for gid, f in uses)
        fn = click.option(f"--{name}", f"file_{name}", metavar="PATH", default=None, help=help_text)(fn)
    return fn


def _files(kwargs: dict) -> dict:
    """The user files named on the command line: {name: path}, taken out of ``kwargs``."""
    return {key[len("file_"):]: kwargs.pop(key) for key in [k for k in kwargs if k.startswith("file_")]}


def executor_options(default_jobs: str):
    """Where a batch's tasks (one a game) run: ``--jobs`` local processes, or the workers of
    a Dask cluster (``--executor dask --scheduler ADDRESS``)."""
    def decorate(fn):
        fn = click.option("--scheduler", metavar="ADDRESS", envvar="SCOREBOOK_SCHEDULER", show_envvar=True,
                          help="The Dask scheduler, tcp://HOST:PORT (with --executor dask).")(fn)
        fn = click.option("--executor", type=click.Choice(["local", "dask"]), default="local", show_default=True,
                          help="local: processes on this machine; dask: the workers of a Dask cluster "
                               "(pip install 'scorebook[dask]').")(fn)
        return click.option("--jobs", type=click.IntRange(1, 256), default=None,
                            help=f"Local worker processes (default: {default_jobs}).")(fn)
    return decorate


def _bots_help() -> str:
    return "Bots, comma separated. " + "; ".join(
        f"{g.id}: " + ", ".join(b.name + (f":{b.argument.upper()}" if b.argument else "") for b in g.info.bots)
        for g in registry.games()) + "."


@main.command(short_help="Let bots play; their records are stored.")
@click.argument("game", type=GAME)
@click.option("--players", help=_bots_help())
@click.option("--ladder", metavar="BOT,BOT,...", help="A seat-rotated round robin of these bots (every pair, or all "
              "together where the game seats them all; each bot alone in a solo game), --games games a match, then "
              "their ratings from those games.")
@click.option("--games", "n_games", default=1, show_default=True, type=click.IntRange(1, 1_000_000),
              help="Games to play (a ladder: games a match); seats rotate from game to game.")
@click.option("--seed", default=0, show_default=True, type=int,
              help="Random seed: game g draws from [seed, g], so the same seed plays the same games.")
@_play_options
@user_file_options
@click.option("--out", "out_dir", metavar="FOLDER", help="Also write each record to this folder.")
@executor_options("1, one game after another in this process, so a game's seconds are a lone bot's")
@db_option
@output_options
@click.pass_context
def play(ctx, game, players, ladder, n_games, seed, out_dir, jobs, executor, scheduler, out, **game_options):
    """Let bots play; their records go to the database (each game is committed as it ends).

    Example: scorebook play tsuro --players mc:16,simple --games 100 --seed 1"""
    from scorebook.records.play import play as play_games
    if bool(players) == bool(ladder):
        raise UsageError("give --players or --ladder")
    files = _files(game_options)
    options = {name.replace("_", "-"): value for name, value in game_options.items() if value is not None}
    if out_dir:
        try:
            os.makedirs(out_dir, exist_ok=True)
            probe = os.path.join(out_dir, ".scorebook-write-test")
            open(probe, "w").close()
            os.remove(probe)
        except OSError as exc:
            from scorebook.errors import Unavailable
            raise Unavailable(f"cannot write records to {out_dir}: {exc.strerror or exc}") from None
    store = _store(ctx)

    def progress(outcome: dict, done: int, total: int) -> None:  # one line a game: long games are not silent
        click.echo(f"game {done}/{total}: {' / '.join(outcome['players'])}, {outcome['status']}, score "
                   f"{score_text(outcome.get('score'))}, {outcome['seconds']:.1f} s", err=True)

    if ladder:
        from scorebook.analyze.ratings import ladder as play_ladder
        click.echo(f"scorebook: ladder of {game}: {ladder}", err=True)
        done = play_ladder(store, game, ladder.split(","), games=n_games, seed=seed, options=options,
                           out_dir=out_dir, progress=progress, jobs=jobs or 1, executor=executor,
                           scheduler=scheduler, files=files)
        _rate_new(store, [game])
        doc = done["ratings"]
        if out.json:
            out.rows([], [], done)
        else:
            if doc["ratings"]:
                out.rows(RATING_COLUMNS, doc["ratings"])
            if doc["solo"]:
                out.rows(SOLO_COLUMNS, doc["solo"])
            if out.human:
                click.echo(f"{done['games']} games, event {done['event']!r}")
        return
    from scorebook.records.play import parse_bots
    parse_bots(registry.get_game(game), players.split(","))  # a typo is refused before anything is said
    click.echo(f"scorebook: playing {game}: {players}", err=True)
    result = play_games(store, game, players.split(","), games=n_games, seed=seed, options=options, out_dir=out_dir,
                        progress=progress, jobs=jobs or 1, executor=executor, scheduler=scheduler, files=files)
    _rate_new(store, [game])
    games, summary = result["games"], result["summary"]
    names = summary["players"]
    value = "total" if len(names) == 1 else f"margin ({names[0]})" if len(names) == 2 else f"share ({names[0]})"
    rows = [{"game": i + 1, "id": g.get("id"), "status": g["status"], "players": " / ".join(g["players"]),
             "score": score_text(g.get("score")), "value": g.get("value"), "seconds": g["seconds"]}
            for i, g in enumerate(games)]
    out.rows([("game", "game"), ("id", "id"), ("status", "status"), ("players", "players"), ("score", "score"),
              ("value", value), ("seconds", "seconds")], rows,
             {"games": [{k: v for k, v in g.items() if k not in ("source", "index", "game")} for g in games],
              "mean": summary["mean"], "stderr": summary["stderr"], "players": names, "summary": summary})
    if out.human and summary["mean"] is not None:
        se = f" ± {summary['stderr']:.2f} (standard error)" if summary["stderr"] is not None else ""
        if len(names) == 2:
            click.echo(f"{names[0]} vs {names[1]}: {summary['wins']} wins, {summary['losses']} losses, "
                       f"{summary['draws']} draws; mean margin {summary['mean']:+.2f}{se} over {summary['games']} games")
        else:
            click.echo(f"mean {summary['mean']:.2f}{se} over {summary['games']} games")


# ------------------------------------------------------------------ serve

@main.command(short_help="Browse the archive in Datasette; with --writes, take submissions.")
@click.option("--port", type=click.IntRange(0, 65535), default=8001, show_default=True)
@click.option("--host", default="127.0.0.1", show_default=True, help="Listen here (127.0.0.1: this machine only).")
@click.option("--public", is_flag=True, help="Needed to listen on an address other machines reach: everyone who "
                                             "reaches it reads the whole archive.")
@click.option("--sql", "allow_sql", is_flag=True, help="Let visitors run their own SQL queries (off by default).")
@click.option("--upgrade", is_flag=True, help="Bring an older database's schema up to date first (the one write "
                                              "serve may make).")
@click.option("--writes", is_flag=True, help="Take submissions and analysis requests (HTTP API, forms) from those "
                                             "permitted: tokens (scorebook token create) or --config's accounts.")
@click.option("--config", "config_path", type=click.Path(dir_okay=False, exists=True),
              help="A JSON file: who may submit, analyze and administer, the accounts file, the limits "
                   "(docs/commands.md, \"The service\"); other plugins' settings under \"plugins\".")
@click.option("--executor", type=click.Choice(["local", "dask"]), default="local", show_default=True,
              help="Where requested analyses run: local: in the server's process, one at a time; dask: on the "
                   "workers of a Dask cluster (pip install 'scorebook[dask]').")
@click.option("--scheduler", metavar="ADDRESS", envvar="SCOREBOOK_SCHEDULER", show_envvar=True,
              help="The Dask scheduler, tcp://HOST:PORT (with --executor dask).")
@db_option
@click.pass_context
def serve(ctx, port, host, public, allow_sql, upgrade, writes, config_path, executor, scheduler):
    """Browse the archive in Datasette: views, search, every record's boards and analysis, the
    ratings (pip install 'scorebook[web]'); read-only unless --writes, when programs with a
    token and signed-in accounts --config permits submit records and ask for analyses, an
    analysis worker running in this process. Runs until stopped (Ctrl-C, SIGTERM).

    Example: scorebook serve --port 8001 --writes --config serve.json"""
    import importlib.util
    if importlib.util.find_spec("datasette") is None:
        raise UsageError("serve needs Datasette: pip install 'scorebook[web]'")
    from scorebook.service.server import plan, serve as run_server
    from scorebook.service.settings import read_config
    p = plan(lambda: _store(ctx, write=upgrade), host, port, public=public, writes=writes, allow_sql=allow_sql,
             config=read_config(config_path), executor=executor, scheduler=scheduler)
    if public:
        click.echo(f"scorebook: warning: serving to the network on {host}:{port}: anyone who reaches it reads "
                   "the whole archive", err=True)
    run_server(p, executor=executor, scheduler=scheduler,
               on_start=lambda url: click.echo(f"scorebook: serving {p.path} {p.mode} at {url} (Ctrl-C stops)",
                                               err=True))


# ------------------------------------------------------------------ jobs

@main.group(short_help="The analyses asked for over HTTP: list them, cancel one.")
def jobs():
    """The queue of analyses that a served archive (scorebook serve --writes) takes over HTTP.

    Example: scorebook jobs list --status queued"""


@jobs.command("list", short_help="Jobs, newest first.")
@click.option("--status", type=click.Choice(["queued", "running", "done", "failed", "cancelled"]))
@click.option("--actor", help="Only this actor's.")
@click.option("--limit", type=click.IntRange(1, 100000), default=100, show_default=True)
@db_option
@output_options
@click.pass_context
def jobs_list(ctx, status, actor, limit, out):
    """The jobs, newest first: id, record, bot, seed, actor, status, progress or reason.

    Example: scorebook jobs list --status running"""
    from scorebook.service.jobs import job_doc
    docs = [job_doc(r) for r in _store(ctx, write=False).jobs(status, actor, limit)]
    rows = [dict(d, progress=f"{d['progress']['moves']}/{d['progress']['of']}" if "progress" in d else
                 d.get("error") or "") for d in docs]
    out.rows([("job", "job"), ("record", "record"), ("bot", "bot"), ("seed", "seed"), ("actor", "actor"),
              ("status", "status"), ("progress", "progress or reason")], rows, {"jobs": docs})


@jobs.command("cancel", short_help="Cancel a queued or running job.")
@click.argument("job_id", type=click.IntRange(1, 10 ** 12))
@db_option
@click.pass_context
def jobs_cancel(ctx, job_id):
    """Cancel a job, queued or running (a running one stops after the move it is on).

    Example: scorebook jobs cancel 12"""
    from scorebook.service.jobs import cancel
    doc = cancel(_store(ctx), job_id, None)
    click.echo(f"job {job_id}: {doc['status']}")


# ------------------------------------------------------------------ accounts

@main.group(short_help="Accounts that sign in to a served archive with a password.")
def account():
    """Accounts for people who submit from a browser: a file of names and password hashes,
    kept apart from serve's configuration (its "accounts" names the file).

    Example: scorebook account set alice --file /etc/scorebook/accounts"""


@account.command("set", short_help="Add an account, or change its password.")
@click.argument("name")
@click.option("--file", "path", required=True, type=click.Path(dir_okay=False), help="The accounts file.")
@click.option("--password-stdin", is_flag=True, help="Read the password from standard input (one line).")
def account_set(name, path, password_stdin):
    """Add NAME to the accounts file, or change its password (asked twice, never shown;
    only its PBKDF2 hash is written). The file is written with mode 600.

    Example: scorebook account set alice --file accounts"""
    from scorebook.service.accounts import set_account
    if password_stdin:
        password = sys.stdin.readline(2048).rstrip("\n")
    else:
        password = click.prompt("Password", hide_input=True, confirmation_prompt=True)
    was = set_account(path, name, password)
    click.echo(f"account {name} {'changed' if was else 'added'} in {path}")


@account.command("remove", short_help="Remove an account.")
@click.argument("name")
@click.option("--file", "path", required=True, type=click.Path(dir_okay=False, exists=True), help="The accounts file.")
def account_remove(name, path):
    """Remove NAME from the accounts file (a signed-in browser keeps its cookie until the
    server's secret changes).

    Example: scorebook account remove alice --file accounts"""
    from scorebook.errors import NotFound
    from scorebook.service.accounts import set_account
    if not set_account(path, name, None):
        raise NotFound(f"no account {name!r} in {path}")
    click.echo(f"account {name} removed from {path}")


# ------------------------------------------------------------------ tokens

@main.group(short_help="Tokens for programs that submit records or ask for analyses.")
def token():
    """Tokens for programs that write to a served archive (scorebook serve --writes) over HTTP:
    Authorization: Bearer TOKEN. The database keeps a hash of each, never the token.

    Example: scorebook token create club-bot --can submit --can analyze"""


@token.command("create", short_help="Print a new token for ACTOR (shown once).")
@click.argument("actor")
@click.option("--can", "permissions", multiple=True, type=click.Choice(["submit", "analyze"]), required=True,
              help="What it may do (repeat for both).")
@db_option
@output_options
@click.pass_context
def token_create(ctx, actor, permissions, out):
    """Print a new token for ACTOR with these permissions; only its hash is kept, so it is
    shown this once.

    Example: scorebook token create club-bot --can submit"""
    from scorebook.records.tokens import create
    made = create(_store(ctx), actor, list(permissions))
    if out.json:
        click.echo(json.dumps({"token": made, "id": made.split("_")[1], "actor": actor,
                               "permissions": sorted(set(permissions))}))
    else:
        click.echo(made)


@token.command("revoke", short_help="End a token, by its id.")
@click.argument("token_id")
@db_option
@click.pass_context
def token_revoke(ctx, token_id):
    """End a token at once: its id is the part after sbk_ (scorebook token list shows them).

    Example: scorebook token revoke 3f2a9c0d1e4b5a67"""
    from scorebook.records.tokens import revoke
    revoke(_store(ctx), token_id.removeprefix("sbk_").split("_")[0])
    click.echo(f"token {token_id[:20]} revoked")


@token.command("list", short_help="The tokens: id, actor, permissions, created, revoked.")
@db_option
@output_options
@click.pass_context
def token_list(ctx, out):
    """Every token with its actor and permissions (never a secret).

    Example: scorebook token list"""
    from scorebook.records.tokens import listed
    rows = listed(_store(ctx, write=False))
    out.rows([("id", "id"), ("actor", "actor"), ("permissions", "permissions"), ("created_at", "created"),
              ("revoked_at", "revoked")], [dict(r, permissions=",".join(r["permissions"])) for r in rows],
             {"tokens": rows})


# ------------------------------------------------------------------ standings

@main.command(short_help="Tournament standings of a file, folder or stored event.")
@click.argument("event")
@click.option("--html", "html_path", type=click.Path(dir_okay=False),
              help="Also write the standings as one self-contained page (ranking, tiebreaks, crosstable).")
@db_option
@output_options
@click.pass_context
def standings(ctx, event, html_path, out):
    """Tournament standings from a tournament file (or the folder that holds one) or a stored
    event name (scorebook events lists them): match points and the tiebreaks, each player's
    matches won, drawn and lost, and the matches.

    Example: scorebook standings 'Autumn Open' --html standings.html"""
    from scorebook.analyze.standings import standings_from_file, standings_from_store, tournament_file_in
    _check_writable(html_path)
    if os.path.isdir(event):
        doc = standings_from_file(*tournament_file_in(event))
    elif os.path.isfile(event):
        doc = standings_from_file(event)
    else:
        store = _store(ctx, write=False)
        doc = standings_from_store(store, event)
    if html_path:
        from scorebook.analyze.html import render_standings
        page = doc
        if not os.path.exists(event):  # a stored event: its players' ratings from its games, on the page
            from scorebook.analyze.ratings import ratings as rate_archive
            page = dict(doc, ratings=rate_archive(store, event=event)["ratings"])
        _write_file(html_path, render_standings(page))
    if out.human:
        click.echo(f"{doc['event']}  (tiebreaks: {', '.join(doc['tiebreaks'])})")
    from scorebook.analyze.standings import match_results
    results = match_results(doc)
    rows = [dict(r, **results.get(r["player"], {}), matches="; ".join(_match_text(r["player"], m)
                                                                     for m in doc.get("matches", [])
                                                                     if r["player"] in m["players"]))
            for r in doc["standings"]]
    columns = ([(k, k) for k in ["rank", "player"] + doc["tiebreaks"]]
               + [("games", "games"), ("won", "W"), ("drawn", "D"), ("lost", "L")])
    if out.json:
        out.rows(columns, rows, doc)
    elif out.human:
        out.rows(columns, rows)
        if doc.get("matches"):
            click.echo("\nmatches:")
            for m in doc["matches"]:
                click.echo(safe(f"  {m['match'] or '-'}: {m['players'][0]} {m['totals'][0]}-{m['totals'][1]} "
                                f"{m['players'][1]}, margin {m['margin']:+d}, {m['result']}"))
    else:
        out.rows(columns + [("matches", "matches")], rows)


def _match_text(player: str, m: dict) -> str:
    """One match from a player's side: ``vs Bob +3 (1-0)``."""
    seat = m["players"].index(player)
    other = m["players"][1 - seat]
    margin = m["margin"] if seat == 0 else -m["margin"]
    points = {"1-0": ("1", "0"), "0-1": ("0", "1")}.get(m["result"], ("1/2", "1/2"))[seat]
    return f"vs {other} {margin:+d} ({points})"


@main.command("warm-up", short_help="Compile the engines ahead of their first use.")
@click.argument("game", type=GAME, required=False)
@db_option
@output_options
def warm_up_command(game, out):
    """Compile every game's engine (or GAME's) ahead of its first use: a game of each bot,
    stored and analysed in a database in memory; numba caches the code for every later start.

    Example: scorebook warm-up tiny-islands"""
    from scorebook.analyze.warm import warm_up
    rows = []
    for g in [game] if game else registry.game_ids():
        click.echo(f"scorebook: compiling {g}…", err=True)
        done = warm_up(g)
        rows.append({"game": done["game"], "bots": " ".join(done["bots"]), "seconds": done["seconds"]})
    out.rows([("game", "game"), ("bots", "bots"), ("seconds", "seconds")], rows, {"games": rows})


# ------------------------------------------------------------------ ratings

RATING_COLUMNS = [("game", "game"), ("rank", "rank"), ("player", "player"), ("rating", "rating"), ("mu", "mu"),
                  ("sigma", "±"), ("games", "games"), ("wins", "won"), ("shared", "shared"), ("losses", "lost")]
SOLO_COLUMNS = [("game", "game"), ("rank", "rank"), ("player", "player"), ("mean", "mean"), ("stderr", "s.e."),
                ("best", "best"), ("games", "games")]


@main.command(short_help="Ratings of every player from the stored games.")
@click.option("--game", type=GAME, help="Only this game's records.")
@click.option("--event", help="Only this event's records (its Event tag).")
@click.option("--since", metavar="DATE", help="Only games played on or after this day, YYYY-MM-DD.")
@click.option("--rebuild", is_flag=True, help="Rate every stored game again from the first and keep the result "
                                            "(the kept ratings are updated as games arrive; this is never needed "
                                            "for correct numbers, only to store them after an upgrade).")
@db_option
@output_options
@click.pass_context
def ratings(ctx, game, event, since, rebuild, out):
    """Ratings of every player (bots too, by their spec) from the stored games, in the order
    they were played: rating = mu - 3 sigma (openskill's Plackett-Luce), ± sigma; solo games
    get a summary of each player's totals instead. The database keeps them, updated as games
    arrive (a game dated before the latest rated rates its game again from the first);
    --event and --since rate the games they choose from the first. CSV, TSV and --nl print one list, each row
    with its kind (rating or solo).

    Example: scorebook ratings --game tsuro --since 2026-01-01"""
    from scorebook.analyze.ratings import ratings as rate_archive, rebuild as rebuild_ratings
    if rebuild:
        store = _store(ctx)
        click.echo(f"scorebook: rated {rebuild_ratings(store):,} games again from the first", err=True)
    else:
        store = _store(ctx, write=False)
    doc = rate_archive(store, game, event, since)
    if out.json:
        out.rows([], [], doc)
    elif out.human:
        if doc["ratings"] or not doc["solo"]:
            out.rows(RATING_COLUMNS, doc["ratings"])
        if doc["solo"]:
            if doc["ratings"]:
                click.echo("")
            out.rows(SOLO_COLUMNS, doc["solo"])
        click.echo(f"{doc['games']} games rated")
    else:
        columns = [("kind", "kind")] + RATING_COLUMNS + [c for c in SOLO_COLUMNS if c not in RATING_COLUMNS]
        out.rows(columns, [dict(r, kind="rating") for r in doc["ratings"]] + [dict(r, kind="solo") for r in doc["solo"]])


# ------------------------------------------------------------------ analyze

ANALYSIS_COLUMNS = [("ply", "ply"), ("player", "player"), ("played", "played"), ("best", "best"),
                    ("value_best", "value best"), ("value_played", "value played"), ("loss", "loss"),
                    ("stderr", "stderr"), ("class", "class"), ("next", "next best")]


def candidate_text(candidate: dict) -> str:
    """A candidate of a move's ``top`` as a person reads it: ``B2 12.1 ± 0.3``."""
    se = "" if candidate.get("stderr") is None else f" ± {candidate['stderr']}"
    return f"{candidate['move']} {candidate['value']}{se}"


@main.command(short_help="Per-move loss against the bot, stored with the record.")
@click.argument("record_id", required=False)
@click.option("--all", "all_", is_flag=True, help="Analyse every record not analysed yet (in parallel, resumable).")
@click.option("--bot", "bot", default=None, help="Bot settings, KEY:N separated by commas; " + "; ".join(
              f"{g.id}: " + ", ".join(f"{k} (default {v})" for k, v in g.info.analysis.options.items())
              + (f"; with --{g.info.analysis.uses}: " + ", ".join(
                  f"{k} (default {v})" for k, v in g.info.analysis.options_with_file.items())
                 if g.info.analysis.uses else "")
              for g in registry.games() if g.info.analysis) + ".")
@click.option("--seed", default=0, show_default=True, type=int)
@executor_options("the cores")
@click.option("--force", is_flag=True, help="Analyse again even when a stored analysis exists (with --all: every "
                                            "record of the games the bot fits).")
@click.option("--html", "html_path", type=click.Path(dir_okay=False), help="Write a self-contained HTML report.")
@user_file_options
@db_option
@output_options
@click.pass_context
def analyze(ctx, record_id, all_, bot, seed, jobs, executor, scheduler, force, html_path, out, **named):
    """Per-move expected-score loss against the bot, stored with the record: for every move the
    value of the bot's best move and of the move played, the loss and its class.

    Example: scorebook analyze 3f2a --html report.html"""
    from scorebook.analyze.run import analysis_files, analyze_one
    if all_ == bool(record_id):
        raise UsageError("give a record id or --all")
    if all_ and html_path:
        raise UsageError("--html writes the report of one record")
    _check_writable(html_path)
    store = _store(ctx)
    row = None if all_ else store.get(record_id)
    games = None if all_ else [row["game"]]
    files, notes = analysis_files(_files(named), games)
    for note in notes:
        click.echo(f"scorebook: {note}", err=True)
    if all_:
        _analyze_all(store, bot, seed, jobs, executor, scheduler, force, files, out)
        return
    with _Progress(len(store.moves(row["id"])), "analysing", not out.json and sys.stderr.isatty(), "moves",
                   lines=not out.json) as bar:
        report = analyze_one(store, record_id, bot, seed, force=force, progress=bar.update, files=files, row=row)
    if html_path:
        from scorebook.analyze.html import render
        _write_file(html_path, render(row, report))
    _show_analysis(report, out)
    if out.human and html_path:
        click.echo(f"report written to {html_path}")


def _analyze_all(store, bot, seed, jobs, executor, scheduler, force, files, out) -> None:
    """``analyze --all``: the batch, its progress (records committed), a row per analysis."""
    from scorebook.analyze.run import analyze_all
    bar = {}

    def progress(step, total):
        if "bar" not in bar:
            bar["bar"] = _Progress(total, "analysing", not out.json and sys.stderr.isatty(), "records",
                                   lines=not out.json).__enter__()
        bar["bar"].update(step)
    reports = analyze_all(store, bot, seed, jobs=jobs, executor=executor, scheduler=scheduler, progress=progress,
                          force=force, files=files)
    if "bar" in bar:
        bar["bar"].__exit__(None, None, None)
    failed = [r for r in reports if "error" in r]
    done = [r for r in reports if "error" not in r]
    rows = [{"id": r["id"], "game": r["game"], "bot": r["bot"], "moves": len(r["moves"]),
             "players": "; ".join(f"{n} {s['mean_loss']}, {s['accuracy']}%" for n, s in r["summary"].items())}
            for r in done]
    out.rows([("id", "id"), ("game", "game"), ("bot", "bot"), ("moves", "moves"),
              ("players", "players (mean loss, accuracy)")], rows, {"analyses": done, "errors": failed})
    if out.human:
        click.echo(f"{len(done)} records analysed, {len(failed)} failed")
    for r in failed:
        click.echo(f"scorebook: analysis of {r['id']} failed: {r['error']}", err=True)
    if failed:
        sys.exit(1)


def _show_analysis(report: dict, out) -> None:
    """One record's analysis: a row per move (ties said), then each player's summary."""
    if out.human:
        click.echo(f"{report['id']}  {report['game']}  bot {report['bot']}  seed {report['seed']}")
    rows = [dict(m, ply=(f"game {m['game']}, " if "game" in m else "") + str(m["ply"]),
                 next="; ".join(candidate_text(c) for c in m.get("top", [])[1:]),
                 **({"class": "best (tied)"} if m.get("tied") else {})) for m in report["moves"]]
    out.rows(ANALYSIS_COLUMNS, rows, {k: report[k] for k in ("id", "bot", "seed", "game", "engine_version", "settings",
                                                              "thresholds", "moves", "summary")})
    if out.human:
        for name, s in report["summary"].items():
            click.echo(f"{name}: mean loss {s['mean_loss']} over {s['moves']} moves, total {s['total_loss']}, "
                       f"accuracy {s['accuracy']}%, best move {s['best_move_rate']}%, "
                       + ", ".join(f"{k} {v}" for k, v in s["classes"].items()))


# ------------------------------------------------------------------ the process

def _children(pid: int) -> list[int]:
    """The processes ``pid`` started (worker pools, a forked ingest), and theirs, from /proc;
    elsewhere the multiprocessing children this process knows of."""
    try:
        found = []
        for entry in os.scandir("/proc"):
            if entry.name.isdigit():
                try:
                    with open(f"/proc/{entry.name}/stat", "rb") as f:
                        stat = f.read().rsplit(b")", 1)[1].split()
                except OSError:
                    continue
                if int(stat[1]) == pid:
                    found.append(int(entry.name))
        return found + [g for c in found for g in _children(c)]
    except OSError:
        import multiprocessing
        return [p.pid for p in multiprocessing.active_children()]


def _interrupted(signum, frame) -> None:
    """SIGINT or SIGTERM: one line and exit 130, at once, the workers this process started
    stopped first (none is left running, nor writing to the pipe of a parent gone). Whatever
    was being written is rolled back by SQLite (a file or a game is committed whole or not at
    all); jitted code need not be unwound, so this is safe at any moment."""
    for child in _children(os.getpid()):
        try:
            os.kill(child, signal.SIGKILL)
        except OSError:
            pass
    os.write(2, b"scorebook: interrupted\n")
    os._exit(130)


def run() -> None:
    """The console entry point: the command runs in a worker thread while this, the main
    thread, only waits, so an interrupt is served at once even during a long jitted search
    (which releases the GIL). Exit codes as ``main``'s; 130 when interrupted."""
    signal.signal(signal.SIGINT, _interrupted)
    signal.signal(signal.SIGTERM, _interrupted)
    outcome: dict = {"code": 0}

    def command() -> None:
        try:
            main(prog_name="scorebook")
        except SystemExit as exc:
            outcome["code"] = exc.code
        except BaseException as exc:  # noqa: BLE001 - the main thread reports it
            outcome["error"] = exc

    worker = threading.Thread(target=command, name="scorebook", daemon=True)
    worker.start()
    while worker.is_alive():
        worker.join(0.2)
    sys.stdout.flush()
    if "error" in outcome:
        raise outcome["error"]
    sys.exit(outcome["code"])

