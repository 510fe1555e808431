"""The bots' commands: play, warm-up, analyze."""
from __future__ import annotations

import sys

import click

from scorebook import registry
from scorebook.errors import UsageError
from scorebook.records.notation import score_text

from .archive import RATING_COLUMNS, SOLO_COLUMNS, rate_new
from .common import (GAME, Progress, check_writable, db_option, executor_options, main, named_files, open_store,
                     play_options, user_file_options, write_file)
from .output import output_options, plural


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
@play_options
@user_file_options
@click.option("--out", "out_dir", metavar="FOLDER", help="Also write each record to this folder.")
@executor_options("1, one game after another in this process, so a game's seconds are a lone bot's")
@db_option
@output_options
@click.pass_context
def play(ctx, game, players, ladder, n_games, seed, out_dir, jobs, executor, scheduler, out, **game_options):
    """Let bots play; their records go to the database (each game is committed as it ends).

    Example: scorebook play tsuro --players mc:16,simple --games 100 --seed 1"""
    from scorebook.records.play import check_out_dir
    if bool(players) == bool(ladder):
        raise UsageError("give --players or --ladder")
    files = named_files(game_options)
    options = {name.replace("_", "-"): value for name, value in game_options.items() if value is not None}
    check_out_dir(out_dir)
    run = dict(games=n_games, seed=seed, options=options, out_dir=out_dir, progress=_game_line, jobs=jobs or 1,
               executor=executor, scheduler=scheduler, files=files)
    if ladder:
        _play_ladder(open_store(ctx), game, ladder.split(","), run, out)
    else:
        _play_match(open_store(ctx), game, players.split(","), run, out)


def _game_line(outcome: dict, done: int, total: int) -> None:
    """One line a game: long games are not silent."""
    # the game's number, as the table's row (with --jobs, games end out of order)
    click.echo(f"game {outcome['round']}/{total}: {' / '.join(outcome['players'])}, {outcome['status']}, score "
               f"{score_text(outcome.get('score'))}, {outcome['seconds']:.1f} s", err=True)


def _play_ladder(store, game: str, bots: list[str], run: dict, out) -> None:
    """``play --ladder``: the round robin, then the ratings from its games."""
    from scorebook.analyze.ratings import ladder as play_ladder
    click.echo(f"scorebook: ladder of {game}: {','.join(bots)}", err=True)
    done = play_ladder(store, game, bots, **run)
    rate_new(store, [game])
    doc = done["ratings"]
    if out.json:
        out.rows([], [], done)
        return
    if doc["ratings"]:
        out.rows(RATING_COLUMNS, doc["ratings"])
    if doc["solo"]:
        out.rows(SOLO_COLUMNS, doc["solo"])
    if out.human:
        click.echo(f"{done['games']} games, event {done['event']!r}")


def _play_match(store, game: str, bots: list[str], run: dict, out) -> None:
    """``play --players``: the games, a row each, then the first player's summary."""
    from scorebook.records.play import parse_bots, play as play_games
    parse_bots(registry.get_game(game), bots)  # a typo is refused before anything is said
    store.check_writable()  # and a database it cannot write to: before a game is played, not after it
    click.echo(f"scorebook: playing {game}: {','.join(bots)}", err=True)
    result = play_games(store, game, bots, **run)
    rate_new(store, [game])
    games, summary = result["games"], result["summary"]
    names = summary["players"]
    value = summary["measure"] if len(names) == 1 else f"{summary['measure']} ({names[0]})"
    rows = [{"game": i + 1, "id": g.get("id"), "status": g["status"], "players": " / ".join(g["players"]),
             "score": score_text(g.get("score")), "value": _rounded(g.get("value")),
             "seconds": _seconds(g["seconds"])}
            for i, g in enumerate(games)]
    # a game of one seat: its score is its total, said once
    columns = [("game", "game"), ("id", "id"), ("status", "status"), ("players", "players"), ("score", "score")] \
        + ([("value", value)] if len(names) > 1 else []) + [("seconds", "seconds")]
    out.rows(columns, rows,
             {"games": [{k: v for k, v in g.items() if k not in ("source", "index", "game")} for g in games],
              "mean": summary["mean"], "stderr": summary["stderr"], "players": names, "summary": summary})
    if out.human and summary["mean"] is not None:
        click.echo(summary_line(summary))


def _seconds(value):
    """Seconds as a table shows them: to a tenth, each row alike (the JSON keeps them whole)."""
    return f"{value:.1f}" if isinstance(value, (int, float)) else value


def _rounded(value):
    """A value as the table shows it: a share of a win to three places (the JSON keeps it whole)."""
    return round(value, 3) if isinstance(value, float) else value


def summary_line(summary: dict) -> str:
    """A match's summary: the first player's wins and mean margin or share, or the mean total."""
    names, measure = summary["players"], summary.get("measure", "margin")
    se = f" ± {summary['stderr']:.2f} (standard error)" if summary["stderr"] is not None else ""
    mean = f"{summary['mean']:+.2f}" if measure == "margin" else f"{summary['mean']:.2f}"
    if len(names) == 2:
        return (f"{names[0]} vs {names[1]}: {plural(summary['wins'], 'win')}, {plural(summary['losses'], 'loss')}, "
                f"{plural(summary['draws'], 'draw')}; mean {measure} {mean}{se} over {plural(summary['games'], 'game')}")
    return f"mean {measure} {mean}{se} over {plural(summary['games'], 'game')}"


@main.command("warm-up", short_help="Compile the engines ahead of their first use.")
@click.argument("game", type=GAME, required=False)
@db_option
@output_options
def warm_up_command(game, out):
    """Compile every game's engine (or GAME's) ahead of its first use: a game of each bot,
    stored and analysed in a database in memory; numba caches the code for every later start.
    The bots that need a file of yours (TinyBot's network) are compiled where it is configured.

    Example: scorebook warm-up tiny-islands"""
    from scorebook.analyze.warm import warm_up
    rows = []
    for g in [game] if game else registry.game_ids():
        click.echo(f"scorebook: compiling {g}…", err=True)
        done = warm_up(g)
        rows.append({"game": done["game"], "bots": " ".join(done["bots"]), "analyses": " / ".join(done["analyses"]),
                     "seconds": _seconds(done["seconds"])})
    out.rows([("game", "game"), ("bots", "bots"), ("analyses", "analyses"), ("seconds", "seconds")], rows,
             {"games": rows})


# ------------------------------------------------------------------ analyze

ANALYSIS_COLUMNS = [("ply", "ply"), ("player", "player"), ("played", "played"), ("best", "best"),
                    ("value_best", "value best"), ("value_played", "value played"), ("loss", "loss"),
                    ("stderr", "stderr"), ("class", "class")]


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
    value of the bot's best move and of the move played, the loss and its class; with --wide,
    after a mistake or a blunder, the bot's line after its best move (up to five moves).

    Example: scorebook analyze 3f2a --html report.html"""
    if all_ == bool(record_id):
        raise UsageError("give a record id or --all")
    if all_ and html_path:
        raise UsageError("--html writes the report of one record")
    check_writable(html_path)
    store = open_store(ctx)
    if all_:
        # the notes of the games the archive holds only (a network no record will use is not mentioned)
        _analyze_all(store, dict(bot=bot, seed=seed, jobs=jobs, executor=executor, scheduler=scheduler, force=force,
                                 files=_analysis_files(named, store.stored_games())), out)
    else:
        _analyze_one(store, store.get(record_id), dict(bot=bot, seed=seed, force=force), named, html_path, out)


def _analysis_files(named: dict, games: list | None) -> dict:
    """The user files the analysis reads (named, or found where --net looks), a line for each note."""
    from scorebook.analyze.run import analysis_files
    files, notes = analysis_files(named_files(named), games)
    for note in notes:
        click.echo(f"scorebook: {note}", err=True)
    return files


def _analyze_one(store, row: dict, settings: dict, named: dict, html_path: str | None, out) -> None:
    """``analyze ID``: the moves' progress, the report stored, printed and (--html) written.
    The record is read and walked once, here where the table or the page needs its players
    and positions, else by the analysis if it runs."""
    from scorebook.analyze.run import analyze_one, trace_of
    files = _analysis_files(named, [row["game"]])
    trace = trace_of(row) if html_path or not out.json else None
    with Progress(len(store.moves(row["id"])), "analysing", not out.json and sys.stderr.isatty(), "moves",
                  lines=not out.json) as bar:
        report = analyze_one(store, row["id"], settings["bot"], settings["seed"], force=settings["force"],
                             progress=bar.update, files=files, row=row, trace=trace)
    if html_path:
        from scorebook.analyze.html import render
        write_file(html_path, render(row, report, trace))
    _show_analysis(report, out, [] if out.json else trace.players)
    if out.human and html_path:
        click.echo(f"report written to {html_path}")


def _analyze_all(store, settings: dict, out) -> None:
    """``analyze --all``: the batch, its progress (records committed), a row per analysis."""
    from scorebook.analyze.run import analyze_all
    with Progress(None, "analysing", not out.json and sys.stderr.isatty(), "records", lines=not out.json) as bar:
        reports = analyze_all(store, settings["bot"], settings["seed"], jobs=settings["jobs"],
                              executor=settings["executor"], scheduler=settings["scheduler"],
                              progress=lambda step, total: bar.update(step, total), force=settings["force"],
                              files=settings["files"])
    _say_analysed(reports, out)


def _say_analysed(reports: list[dict], out) -> None:
    """A row per analysis, a line per failure (exit 1 if any)."""
    failed = [r for r in reports if "error" in r]
    done = [r for r in reports if "error" not in r]
    rows = [{"id": r["id"], "game": r["game"], "bot": r["bot"], "moves": len(r["moves"]),
             "players": "; ".join(f"{n} {s['mean_loss']}, {s['accuracy']}%" for n, s in r["summary"].items())}
            for r in done]
    out.rows([("id", "id"), ("game", "game"), ("bot", "bot"), ("moves", "moves"),
              ("players", "players (mean loss, accuracy)")], rows, {"analyses": done, "errors": failed})
    if out.human:
        click.echo(f"{plural(len(done), 'record')} analysed, {len(failed)} failed")
    for r in failed:
        click.echo(f"scorebook: analysis of {r['id']} failed: {r['error']}", err=True)
    if failed:
        sys.exit(1)


def _seat_name(players: list[str], seat: int):
    return players[seat] if 0 <= seat < len(players) else seat


def _analysis_row(m: dict, players: list[str]) -> dict:
    """A move's row as the table prints it: the ply (with a triad's game), the player's name,
    the next candidates, the line, a tie said."""
    return dict(m, ply=(f"game {m['game']}, " if "game" in m else "") + str(m["ply"]),
                player=_seat_name(players, m["player"]),
                next="; ".join(candidate_text(c) for c in m.get("top", [])[1:]), best_line=" ".join(m.get("line", [])),
                **({"class": "best (tied)"} if m.get("tied") else {}))


def _show_analysis(report: dict, out, players: list[str]) -> None:
    """One record's analysis: a row per move, its player by name as the report names it
    (the JSON document keeps the seat), ties said; then each player's summary."""
    if out.human:
        click.echo(f"{report['id']}  {report['game']}  bot {report['bot']}  seed {report['seed']}")
    rows = [_analysis_row(m, players) for m in report["moves"]]
    # the bot's next candidates and its line: as wide as their cells (--wide), and in CSV or TSV
    columns = out.columns(ANALYSIS_COLUMNS, [("next", "next best"), ("best_line", "best line")])
    out.rows(columns, rows, {k: report[k] for k in ("id", "bot", "seed", "game", "engine_version", "settings",
                                                              "thresholds", "moves", "summary")})
    if out.human:
        for name, s in report["summary"].items():
            # two lines a player: each within 100 columns (one ran to 134)
            click.echo(f"{name}: mean loss {s['mean_loss']} over {plural(s['moves'], 'move')}, "
                       f"total {s['total_loss']}, accuracy {s['accuracy']}%, best move {s['best_move_rate']}%")
            click.echo("  " + ", ".join(f"{k} {v}" for k, v in s["classes"].items()))
