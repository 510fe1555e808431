"""``scorebook``: a thin click façade over the library (contract: shared/specs/cli.md).

Every command takes ``--json`` and then prints exactly one JSON document on stdout.
Exit codes: 0 success, 1 some input rejected, 2 usage error. No tracebacks for bad input.
"""
from __future__ import annotations

import functools
import json
import os
import sqlite3
import sys

import click

from scorebook import registry
from scorebook.records.errors import ScorebookError, UnknownGame, UsageError


class GameType(click.ParamType):
    """A game id, checked against the registry when the command runs (so a game registered
    later, a test's toy game, is a valid argument too)."""
    name = "GAME"

    def convert(self, value, param, ctx):
        try:
            return registry.get_game(value).id
        except UnknownGame as err:
            self.fail(str(err), param, ctx)

    def get_metavar(self, param, ctx=None):
        return "[" + "|".join(registry.game_ids()) + "]"


GAME = GameType()


def _emit_json(doc) -> None:
    click.echo(json.dumps(doc, ensure_ascii=False, indent=None))


def _fail(err: Exception) -> None:
    """One line on stderr and the exit code: 2 for a usage error, 1 for anything the data or
    the database did (an SQLite error included: never a traceback)."""
    message = str(err) if isinstance(err, ScorebookError) else f"database error: {err}"
    click.echo(f"scorebook: {message}", err=True)
    sys.exit(2 if isinstance(err, UsageError) else 1)


def output_options(fn):
    """The shared ``--json`` flag and one-line error handling for every command."""
    @click.option("--json", "as_json", is_flag=True, help="Print one JSON document on stdout.")
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except (ScorebookError, sqlite3.Error) as err:
            _fail(err)
    return wrapper


def _store(ctx, write: bool = True):
    """The database; a command that only reads never creates one."""
    from scorebook.records.store import Store
    return Store(ctx.obj["db"], write=write, on_wait=lambda message: click.echo(f"scorebook: {message}", err=True))


class _Group(click.Group):
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


@click.group(cls=_Group)
@click.option("--db", default=lambda: os.environ.get("SCOREBOOK_DB", "scorebook.db"), show_default="./scorebook.db",
              help="SQLite database (or $SCOREBOOK_DB).")
@click.version_option(package_name="scorebook")
@click.pass_context
def main(ctx, db):
    """Scorebook: game records, move-by-move validation, storage and analysis."""
    ctx.obj = {"db": db}


# ------------------------------------------------------------------ ingest

@main.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("--format", "fmt", default="auto", type=click.Choice(["auto", *registry.formats()]),
              help="Force a format instead of detecting it from content.")
@click.option("--strict", is_flag=True, help="Reject a whole file when any of its records is rejected.")
@click.option("--lenient", is_flag=True, help="Store records whose stated score differs, with a warning.")
@output_options
@click.pass_context
def ingest(ctx, paths, fmt, strict, lenient, as_json):
    """Read, validate by replay, and store records from files, directories or - (stdin)."""
    from scorebook.records.ingest import expand_paths, ingest_file
    store = _store(ctx)
    files, problems = expand_paths(list(paths))
    outcomes: list[dict] = list(problems)
    show_bar = not as_json and sys.stderr.isatty() and len(files) > 1
    with click.progressbar(files, label="ingesting", file=sys.stderr) if show_bar else _nullbar(files) as bar:
        for path in bar:
            outcomes.extend(ingest_file(store, path, fmt, strict=strict, lenient=lenient))
    summary = {k: sum(1 for o in outcomes if o["status"] == v)
               for k, v in (("ingested", "ingested"), ("duplicates", "duplicate"), ("rejected", "rejected"))}
    if as_json:
        _emit_json({"summary": summary, "records": outcomes})
    else:
        rows = []
        for o in outcomes:
            if o["status"] == "rejected":
                e = o["errors"][0]
                click.echo(f"{o['source']}:{e['line'] or '-'}:{e['column'] or '-'}: record {o['index']}, "
                           f"ply {e['ply'] if e['ply'] is not None else '-'}, token {e['token'] or '-'}: "
                           f"{e['code']}: {e['message']}", err=True)
            rows.append([o["source"], o["index"], o["status"], o.get("game") or "-", o.get("id") or "-",
                         _total(o.get("score"))])
            for w in o.get("warnings", []):
                click.echo(f"{o['source']}: record {o['index']}: warning: {w}", err=True)
        if len(rows) > 40:
            rows = [r for r in rows if r[2] != "ingested"][:40]
        if rows:
            click.echo(_table(["source", "record", "status", "game", "id", "score"], rows))
        click.echo(f"{summary['ingested']} ingested, {summary['duplicates']} duplicates, "
                   f"{summary['rejected']} rejected; database {ctx.obj['db']}")
    if summary["rejected"]:
        sys.exit(1)


class _nullbar:
    def __init__(self, items):
        self.items = items

    def __enter__(self):
        return self.items

    def __exit__(self, *exc):
        return False


def _total(score) -> str:
    if not score:
        return "-"
    if "total" in score:
        return str(score["total"])
    if "final" in score:
        return f"{score['final'][0]}-{score['final'][1]}"
    if "totals" in score:
        return f"{score['totals'][0]}-{score['totals'][1]} ({score['result']})"
    if "points" in score:
        return f"{score['points'][0]}-{score['points'][1]}"
    return json.dumps(score)


def _table(headers, rows) -> str:
    cells = [[str(h) for h in headers]] + [[str(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


# ------------------------------------------------------------------ list, show, export

@main.command("list")
@click.option("--game", type=GAME, help="Only records of this game.")
@click.option("--player", help="Only records with this player.")
@output_options
@click.pass_context
def list_(ctx, game, player, as_json):
    """List stored records."""
    rows = _store(ctx, write=False).list(game, player)
    if as_json:
        _emit_json({"records": [{"id": r["id"], "game": r["game"], "players": (r["players"] or "").split(" / ")
                                 if r["players"] else [], "score": r["score"], "recorded": r["recorded"],
                                 "rules": r["rules"], "deck": r["deck"], "finished": bool(r["finished"]),
                                 "source": r["source"], "index": r["source_index"], "tags": r["tags"]}
                                for r in rows]})
        return
    click.echo(_table(["id", "game", "players", "score", "rules", "deck", "source"],
                      [[r["id"], r["game"], r["players"] or "-", _total(r["score"]) + ("" if r["finished"] else " *"),
                        r["rules"] or "-", r["deck"] or "-", f"{r['source']}#{r['source_index']}"] for r in rows]))
    click.echo(f"{len(rows)} records")


@main.command()
@click.argument("record_id")
@output_options
@click.pass_context
def show(ctx, record_id, as_json):
    """Show a record with a text board after each move."""
    from scorebook.analyze.boards import record_states
    row = _store(ctx, write=False).get(record_id)
    states = record_states(row)
    if as_json:
        _emit_json({"id": row["id"], "game": row["game"], "tags": row["tags"], "rules": row["rules"],
                    "deck": row["deck"], "score": row["score"], "recorded": row["recorded"],
                    "moves": [{k: s[k] for k in ("game", "ply", "move", "annotation", "state") if k in s}
                              for s in states]})
        return
    click.echo(f"{row['id']}  {row['game']}  rules {row['rules']}  deck {row['deck']}")
    for k, v in row["tags"].items():
        click.echo(f"  {k}: {v}")
    for s in states:
        click.echo(f"\n{s['heading']}ply {s['ply']}: {s['move']}")
        click.echo(s["board"])
    click.echo("\nscore: " + ", ".join(f"{k} {v}" for k, v in row["score"].items()))


@main.command()
@click.argument("record_id")
@click.option("--format", "fmt", default="pgn", show_default=True,
              help="pgn, or a format of the record's game: " + ", ".join(registry.formats()[1:]) + ".")
@click.option("--out", "out_path", type=click.Path(dir_okay=False), help="Write to this file instead of stdout.")
@output_options
@click.pass_context
def export(ctx, record_id, fmt, out_path, as_json):
    """Export a stored record in any format its game can be read in."""
    from scorebook.records.export import export_record
    row = _store(ctx, write=False).get(record_id)
    text, dropped = export_record(row, fmt)
    if out_path:
        with open(out_path, "w") as fh:
            fh.write(text)
    if as_json:
        _emit_json({"id": row["id"], "format": fmt, "text": text})
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


def _bots_help() -> str:
    return "Bots, comma separated. " + "; ".join(
        f"{g.id}: " + ", ".join(b.name + (f":{b.argument.upper()}" if b.argument else "") for b in g.info.bots)
        for g in registry.games()) + "."


@main.command()
@click.argument("game", type=GAME)
@click.option("--players", required=True, help=_bots_help())
@click.option("--games", "n_games", default=1, show_default=True, type=click.IntRange(1, 1_000_000))
@click.option("--seed", default=0, show_default=True, type=int)
@_play_options
@click.option("--out", "out_dir", type=click.Path(file_okay=False), help="Also write each record to this folder.")
@output_options
@click.pass_context
def play(ctx, game, players, n_games, seed, out_dir, as_json, **game_options):
    """Let bots play; their records go to the database."""
    from scorebook.records.play import play as play_games
    options = {name.replace("_", "-"): value for name, value in game_options.items() if value is not None}
    store = _store(ctx)
    count = n_games
    show_bar = not as_json and sys.stderr.isatty() and count > 1
    with click.progressbar(length=count, label="playing", file=sys.stderr) if show_bar else _nullbar(None) as bar:
        out = play_games(store, game, players.split(","), games=n_games, seed=seed, options=options, out_dir=out_dir,
                         progress=bar.update if bar else None)
    results, summary = out["games"], out["summary"]
    if as_json:
        _emit_json({"games": [{k: v for k, v in r.items() if k not in ("source", "index", "game")} for r in results],
                    "mean": summary["mean"], "stderr": summary["stderr"], "players": summary["players"],
                    "summary": summary})
        return
    names = summary["players"]
    value = "score" if len(names) == 1 else f"margin ({names[0]})"
    click.echo(_table(["game", "id", "status", "players", "score", value, "seconds"],
                      [[i + 1, r.get("id") or "-", r["status"], " / ".join(r["players"]), _total(r.get("score")),
                        "-" if r.get("value") is None else r["value"], r["seconds"]] for i, r in enumerate(results)]))
    mean, stderr = summary["mean"], summary["stderr"]
    if mean is not None:
        se = f" ± {stderr:.2f} (standard error)" if stderr is not None else ""
        if len(names) == 2:
            click.echo(f"{names[0]} vs {names[1]}: {summary['wins']} wins, {summary['losses']} losses, "
                       f"{summary['draws']} draws; mean margin {mean:+.2f}{se} over {summary['games']} games")
        else:
            click.echo(f"mean {mean:.2f}{se} over {summary['games']} games")


# ------------------------------------------------------------------ standings

@main.command()
@click.argument("event")
@click.option("--csv", "as_csv", is_flag=True, help="Print the standings as CSV.")
@output_options
@click.pass_context
def standings(ctx, event, as_csv, as_json):
    """Tournament standings from a tournament file or a stored event name."""
    from scorebook.analyze.standings import standings_from_file, standings_from_store
    if os.path.isfile(event):
        doc = standings_from_file(event)
    else:
        doc = standings_from_store(_store(ctx, write=False), event)
    if as_json:
        _emit_json(doc)
        return
    headers = ["rank", "player"] + doc["tiebreaks"]
    rows = [[r[h] if r[h] is not None else "-" for h in headers] for r in doc["standings"]]
    if as_csv:
        import csv
        writer = csv.writer(sys.stdout, lineterminator="\n")
        writer.writerow(headers)
        writer.writerows([[r[h] if r[h] is not None else "" for h in headers] for r in doc["standings"]])
        return
    click.echo(f"{doc['event']}  (tiebreaks: {', '.join(doc['tiebreaks'])})")
    click.echo(_table(headers, rows))


# ------------------------------------------------------------------ analyze

@main.command()
@click.argument("record_id", required=False)
@click.option("--all", "all_", is_flag=True, help="Analyse every record not analysed yet (in parallel, resumable).")
@click.option("--bot", "bot", default=None, help="Bot settings, KEY:N separated by commas; " + "; ".join(
              f"{g.id}: " + ", ".join(f"{k} (default {v})" for k, v in g.info.analysis.options.items())
              for g in registry.games() if g.info.analysis) + ".")
@click.option("--seed", default=0, show_default=True, type=int)
@click.option("--jobs", type=click.IntRange(1, 64), default=None, help="Worker processes for --all (default: cores).")
@click.option("--force", is_flag=True, help="Analyse again even when a stored analysis exists.")
@click.option("--html", "html_path", type=click.Path(dir_okay=False), help="Write a self-contained HTML report.")
@output_options
@click.pass_context
def analyze(ctx, record_id, all_, bot, seed, jobs, force, html_path, as_json):
    """Per-move expected-score loss against the bot, stored with the record."""
    from scorebook.analyze.run import analyze_all, analyze_one
    store = _store(ctx)
    if all_ == bool(record_id):
        raise UsageError("give a record id or --all")
    if all_:
        bar = None
        state = {"bar": None}

        def progress(step, total):
            if not as_json and sys.stderr.isatty():
                if state["bar"] is None:
                    state["bar"] = click.progressbar(length=total, label="analysing", file=sys.stderr)
                    state["bar"].__enter__()
                state["bar"].update(step)
        reports = analyze_all(store, bot, seed, jobs=jobs, progress=progress)
        if state["bar"] is not None:
            state["bar"].__exit__(None, None, None)
        failed = [r for r in reports if "error" in r]
        done = [r for r in reports if "error" not in r]
        if as_json:
            _emit_json({"analyses": done, "errors": failed})
        else:
            click.echo(_table(["id", "game", "bot", "moves", "players (mean loss, accuracy)"],
                              [[r["id"], r["game"], r["bot"], len(r["moves"]),
                                "; ".join(f"{n} {s['mean_loss']}, {s['accuracy']}%" for n, s in r["summary"].items())]
                               for r in done]))
            click.echo(f"{len(done)} records analysed, {len(failed)} failed")
        for r in failed:
            click.echo(f"scorebook: analysis of {r['id']} failed: {r['error']}", err=True)
        if failed:
            sys.exit(1)
        return
    show_bar = not as_json and sys.stderr.isatty()
    row = store.get(record_id)
    with click.progressbar(length=len(store.moves(row["id"])), label="analysing", file=sys.stderr) if show_bar \
            else _nullbar(None) as bar:
        report = analyze_one(store, record_id, bot, seed, force=force, progress=(lambda: bar.update(1)) if bar else None)
    if html_path:
        from scorebook.analyze.html import render
        with open(html_path, "w") as fh:
            fh.write(render(row, report))
    if as_json:
        _emit_json({"id": report["id"], "bot": report["bot"], "seed": report["seed"], "game": report["game"],
                    "engine_version": report["engine_version"], "settings": report["settings"],
                    "thresholds": report["thresholds"], "moves": report["moves"], "summary": report["summary"]})
        return
    click.echo(f"{report['id']}  {report['game']}  bot {report['bot']}  seed {report['seed']}")
    click.echo(_table(["ply", "player", "played", "best", "value best", "value played", "loss", "stderr", "class"],
                      [[(f"{m['game']}." if "game" in m else "") + str(m["ply"]), m["player"], m["played"], m["best"],
                        m["value_best"], m["value_played"], m["loss"], "-" if m["stderr"] is None else m["stderr"],
                        m["class"]] for m in report["moves"]]))
    for name, s in report["summary"].items():
        click.echo(f"{name}: mean loss {s['mean_loss']} over {s['moves']} moves, total {s['total_loss']}, "
                   f"accuracy {s['accuracy']}%, best move {s['best_move_rate']}%, "
                   + ", ".join(f"{k} {v}" for k, v in s["classes"].items()))
    if html_path:
        click.echo(f"report written to {html_path}")
