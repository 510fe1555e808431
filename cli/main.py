"""``scorebook``: a thin click façade over the library (contract: shared/specs/cli.md).

Every command takes ``--json`` and then prints exactly one JSON document on stdout.
Exit codes: 0 success, 1 some input rejected, 2 usage error. No tracebacks for bad input.
"""
from __future__ import annotations

import functools
import json
import math
import os
import sys

import click

from scorebook.records.errors import ScorebookError, UsageError

GAMES = ("tiny-islands", "game-of-islands", "iwoki", "patchwork", "tsuro")


def _emit_json(doc) -> None:
    click.echo(json.dumps(doc, ensure_ascii=False, indent=None))


def output_options(fn):
    """The shared ``--json`` flag and one-line error handling for every command."""
    @click.option("--json", "as_json", is_flag=True, help="Print one JSON document on stdout.")
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except ScorebookError as err:
            click.echo(f"scorebook: {err}", err=True)
            sys.exit(2 if isinstance(err, UsageError) else 1)
    return wrapper


def _store(ctx):
    from scorebook.records.store import Store
    return Store(ctx.obj["db"])


class _Group(click.Group):
    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except ScorebookError as err:
            click.echo(f"scorebook: {err}", err=True)
            sys.exit(2 if isinstance(err, UsageError) else 1)
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
@click.option("--format", "fmt", default="auto", type=click.Choice(["auto", "tinybot", "pgn", "iwoki-log"]),
              help="Force a format instead of detecting it from content.")
@click.option("--strict", is_flag=True, help="Reject a whole file when any of its records is rejected.")
@click.option("--lenient", is_flag=True, help="Store records whose stated score differs, with a warning.")
@output_options
@click.pass_context
def ingest(ctx, paths, fmt, strict, lenient, as_json):
    """Read, validate by replay, and store records from files, directories or - (stdin)."""
    from scorebook.records.ingest import expand_paths, ingest_file
    store = _store(ctx)
    files = expand_paths(list(paths))
    outcomes: list[dict] = []
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
@click.option("--game", type=click.Choice(GAMES), help="Only records of this game.")
@click.option("--player", help="Only records with this player.")
@output_options
@click.pass_context
def list_(ctx, game, player, as_json):
    """List stored records."""
    rows = _store(ctx).list(game, player)
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
    row = _store(ctx).get(record_id)
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
        where = f"game {s['game']} ({s['grid']}x{s['grid']}), " if "game" in s else ""
        click.echo(f"\n{where}ply {s['ply']}: {s['move']}")
        click.echo(s["board"])
    click.echo("\nscore: " + ", ".join(f"{k} {v}" for k, v in row["score"].items()))


@main.command()
@click.argument("record_id")
@click.option("--format", "fmt", default="pgn", type=click.Choice(["pgn", "tinybot", "iwoki-log"]),
              show_default=True)
@click.option("--out", "out_path", type=click.Path(dir_okay=False), help="Write to this file instead of stdout.")
@output_options
@click.pass_context
def export(ctx, record_id, fmt, out_path, as_json):
    """Export a stored record in any format its game can be read in."""
    from scorebook.records.export import export_record
    row = _store(ctx).get(record_id)
    text = export_record(row, fmt)
    if out_path:
        with open(out_path, "w") as fh:
            fh.write(text)
    if as_json:
        _emit_json({"id": row["id"], "format": fmt, "text": text})
    elif not out_path:
        click.echo(text, nl=False)


# ------------------------------------------------------------------ play

@main.command()
@click.argument("game", type=click.Choice(GAMES))
@click.option("--players", required=True, help="Bots, comma separated. tiny-islands: random, heuristic, mc:N, halving:N (halving:256 is the strongest within a minute a game); "
              "game-of-islands: two of random, greedy, search; iwoki: two of random, greedy, minimax:D, "
              "minimax-sim:D, sampler:K.")
@click.option("--games", "n_games", default=1, show_default=True, type=click.IntRange(1, 1_000_000))
@click.option("--seed", default=0, show_default=True, type=int)
@click.option("--deck", default="two-deck", show_default=True, type=click.Choice(["two-deck", "one-deck"]),
              help="Tiny Islands deck model for new shuffles.")
@click.option("--rules", default=None, help="Rule set: tiny-islands published|tinybot (default published); "
              "iwoki simulator-2021|official (default simulator-2021).")
@click.option("--time-limit", type=float, default=None, help="Iwoki minimax: seconds per decision (iterative deepening).")
@click.option("--shuffles", type=click.Path(exists=True, dir_okay=False),
              help="Tiny Islands: take the deck orders from these records (TinyBot lines or Scorebook notation).")
@click.option("--grid", default=10, show_default=True, type=int, help="Game of Islands grid size.")
@click.option("--triad", is_flag=True, help="Game of Islands: play whole triads (10, 12, 14) as matches.")
@click.option("--depth", default=4, show_default=True, type=click.IntRange(2, 64),
              help="Game of Islands search bot: lines looked ahead at most.")
@click.option("--budget", default=300_000, show_default=True, type=click.IntRange(1000),
              help="Game of Islands search bot: lines evaluated per move at most.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), help="Also write each record to this folder.")
@output_options
@click.pass_context
def play(ctx, game, players, n_games, seed, deck, rules, time_limit, shuffles, grid, triad, depth, budget, out_dir,
         as_json):
    """Let bots play; their records go to the database."""
    if game == "iwoki":
        return _play_iwoki(ctx, players, n_games, seed, rules or "simulator-2021", time_limit, out_dir, as_json)
    if game == "game-of-islands":
        return _play_goi(ctx, players, n_games, seed, grid, triad, depth, budget, out_dir, as_json)
    if game != "tiny-islands":
        raise UsageError(f"play {game} is not supported yet")
    rules = rules or "published"
    if rules not in ("published", "tinybot"):
        raise UsageError("--rules for tiny-islands: published or tinybot")
    from scorebook.records.formats import decode
    from scorebook.records.play import play_tiny_islands, shuffles_from
    orders = None
    if shuffles:
        with open(shuffles, "rb") as fh:
            orders = shuffles_from(decode(fh.read()), shuffles)
    store = _store(ctx)
    total = len(orders) if orders is not None else n_games
    show_bar = not as_json and sys.stderr.isatty() and total > 1
    with click.progressbar(length=total, label="playing", file=sys.stderr) if show_bar else _nullbar(None) as bar:
        results = play_tiny_islands(store, players.strip(), games=n_games, seed=seed, deck=deck, rules=rules,
                                    shuffles=orders, out_dir=out_dir, progress=bar.update if bar else None)
    totals = [r["score"]["total"] for r in results if r.get("score")]
    mean = sum(totals) / len(totals) if totals else None
    stderr = (math.sqrt(sum((t - mean) ** 2 for t in totals) / (len(totals) - 1) / len(totals))
              if len(totals) > 1 else None)
    if as_json:
        _emit_json({"games": [{"id": r.get("id"), "status": r["status"], "score": r.get("score"),
                               "seconds": r["seconds"]} for r in results],
                    "mean": mean, "stderr": stderr})
        return
    click.echo(_table(["game", "id", "status", "score", "seconds"],
                      [[i + 1, r.get("id") or "-", r["status"], _total(r.get("score")), r["seconds"]]
                       for i, r in enumerate(results)]))
    if mean is not None:
        click.echo(f"mean {mean:.2f}" + (f" ± {stderr:.2f} (standard error)" if stderr is not None else "")
                   + f" over {len(totals)} games")


# ------------------------------------------------------------------ standings

@main.command()
@click.argument("event")
@click.option("--csv", "as_csv", is_flag=True, help="Print the standings as CSV.")
@output_options
@click.pass_context
def standings(ctx, event, as_csv, as_json):
    """Tournament standings from a tournament file or a stored event name (Game of Islands)."""
    from scorebook.analyze.standings import standings_from_file, standings_from_store
    if os.path.isfile(event):
        doc = standings_from_file(event)
    else:
        doc = standings_from_store(_store(ctx), event)
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


def _play_goi(ctx, players, n_games, seed, grid, triad, depth, budget, out_dir, as_json):
    from scorebook.records.play import play_game_of_islands
    bots = [p.strip() for p in players.split(",")]
    store = _store(ctx)
    show_bar = not as_json and sys.stderr.isatty() and n_games > 1
    with click.progressbar(length=n_games, label="playing", file=sys.stderr) if show_bar else _nullbar(None) as bar:
        results = play_game_of_islands(store, bots, grid=grid, games=n_games, seed=seed, triad=triad, depth=depth,
                                       budget=budget, out_dir=out_dir, progress=bar.update if bar else None)
    margins = [r["margin"] for r in results if r.get("margin") is not None]
    mean = sum(margins) / len(margins) if margins else None
    stderr = (math.sqrt(sum((m - mean) ** 2 for m in margins) / (len(margins) - 1) / len(margins))
              if len(margins) > 1 else None)
    names = results[0]["players"] if results else bots
    wins = {names[0]: sum(1 for m in margins if m > 0), names[1]: sum(1 for m in margins if m < 0),
            "draws": sum(1 for m in margins if m == 0)}
    if as_json:
        _emit_json({"games": [{"id": r.get("id"), "status": r["status"], "score": r.get("score"),
                               "margin": r.get("margin"), "seconds": r["seconds"]} for r in results],
                    "players": names, "mean": mean, "stderr": stderr, "wins": wins})
        return
    click.echo(_table(["game", "id", "status", "score", f"margin ({names[0]})", "seconds"],
                      [[i + 1, r.get("id") or "-", r["status"], _total(r.get("score")), r.get("margin"), r["seconds"]]
                       for i, r in enumerate(results)]))
    if mean is not None:
        click.echo(f"{names[0]} vs {names[1]}: {wins[names[0]]} wins, {wins[names[1]]} losses, {wins['draws']} draws; "
                   f"mean margin {mean:+.2f}" + (f" ± {stderr:.2f}" if stderr is not None else ""))


def _play_iwoki(ctx, players, n_games, seed, rules, time_limit, out_dir, as_json):
    from scorebook.records.play import play_iwoki
    specs = players.split(",")
    store = _store(ctx)
    show_bar = not as_json and sys.stderr.isatty() and n_games > 1
    with click.progressbar(length=n_games, label="playing", file=sys.stderr) if show_bar else _nullbar(None) as bar:
        results = play_iwoki(store, specs, games=n_games, seed=seed, rules=rules, time_limit=time_limit,
                             out_dir=out_dir, progress=bar.update if bar else None)
    names = results[0]["players"]
    diffs = [r["difference"] for r in results]
    n = len(diffs)
    mean = sum(diffs) / n
    stderr = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n) if n > 1 else None
    times = [r["decision_seconds"][0] for r in results if r["decision_seconds"][0] is not None]
    summary = {"players": names, "games": n, "wins": sum(d > 0 for d in diffs), "losses": sum(d < 0 for d in diffs),
               "draws": sum(d == 0 for d in diffs), "mean_difference": mean, "stderr": stderr,
               "mean_decision_seconds": sum(times) / len(times) if times else None,
               "mean_nodes_per_game": sum(r["nodes"][0] for r in results) / n}
    if as_json:
        _emit_json({"games": [{"id": r.get("id"), "status": r["status"], "score": r.get("score"),
                               "difference": r["difference"], "seconds": r["decision_seconds"],
                               "nodes": r["nodes"]} for r in results],
                    "mean": mean, "stderr": stderr, "summary": summary})
        return
    click.echo(_table(["game", "id", "status", "final", f"difference ({names[0]})"],
                      [[i + 1, r.get("id") or "-", r["status"], _total(r.get("score")), r["difference"]]
                       for i, r in enumerate(results)]))
    click.echo(f"{names[0]} vs {names[1]}: {summary['wins']} wins, {summary['losses']} losses, {summary['draws']} "
               f"draws; mean difference {mean:+.2f}" + (f" ± {stderr:.2f}" if stderr is not None else "")
               + (f"; {summary['mean_decision_seconds']:.4f} s a decision" if times else "")
               + f"; {summary['mean_nodes_per_game']:.0f} nodes a game")


# ------------------------------------------------------------------ analyze

@main.command()
@click.argument("record_id", required=False)
@click.option("--all", "all_", is_flag=True, help="Analyse every record not analysed yet (in parallel, resumable).")
@click.option("--bot", "bot", default=None, help="Bot settings, e.g. rollouts:32 (tiny-islands), depth:3 "
              "(game-of-islands), samples:48 (iwoki).")
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
