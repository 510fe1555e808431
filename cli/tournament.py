"""``scorebook tournament ...``: a director runs an event. Each command is one library call
(``scorebook.tournaments.director``) and one render."""
from __future__ import annotations

import sys

import click

from scorebook.tournaments.model import FORMATS

from . import archive
from .common import GAME, check_writable, db_option, main, open_store, say, write_file
from .output import emit_json, json_option, output_options, plural, safe


@main.group(short_help="Run a tournament: pair rounds, take results, standings.")
def tournament():
    """Run a tournament for any game: create it, let players join, pair each round (Swiss by
    the FIDE Dutch system, round robin by Berger tables, Swiss seating of tables of 3-8, or a
    duplicate event for solo games), take results from records as they arrive (a record whose
    Event, Round and players are a table's attaches to it), and rank it (scorebook standings EVENT).

    Example: scorebook tournament create 'Club Swiss' --game iwoki --rounds 5"""


def _director():
    from scorebook.tournaments import director
    return director


@tournament.command(short_help="A new tournament.")
@click.argument("event")
@click.option("--game", "game_id", required=True, type=GAME, help="The game played.")
@click.option("--format", "format_", type=click.Choice(FORMATS),
              help="swiss (two seats, FIDE Dutch), round-robin, double-round-robin, tables (3-8 seats), "
                   "duplicate (solo). Default: the game's seats decide.")
@click.option("--rounds", type=int, help="Planned rounds (a round robin's come from its players).")
@click.option("--table-size", type=int, help="tables: the seats at a table (3 to 8).")
@click.option("--bye-points", type=float, help="A bye's points (default: 1 in a Swiss, 0 in a round robin).")
@click.option("--placement", help="tables: points by place, comma separated (4,2,1,0).")
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE",
              help="A play option of the game (--option grid=12, --option triad=true).")
@click.option("--tiebreaks", help="The tie-break chain, comma separated, points first: buchholz_cut1, buchholz, "
              "sonneborn_berger, direct, wins, omb, p_zero, g_score, seniority, game_score, opponents_points, "
              "best_round (default: the format's, or the game's own).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seeds the deals and the bots' games.")
@click.option("--forbid", multiple=True, metavar="A,B", help="Two players never to be paired (Swiss).")
@db_option
@json_option
@click.pass_context
def create(ctx, event, game_id, format_, rounds, table_size, bye_points, placement, options, tiebreaks, seed, forbid,
           as_json):
    """Create a tournament under an event name; records with that Event tag are its results.

    Example: scorebook tournament create 'Tsuro night' --game tsuro --format tables --table-size 4 --rounds 3"""
    t = _director().create(open_store(ctx), event, game_id, format_, rounds=rounds, table_size=table_size,
                           bye_points=bye_points, placement=_numbers(placement, "--placement"),
                           options=_options(game_id, options), tiebreaks=tiebreaks.split(",") if tiebreaks else None,
                           seed=seed, forbidden=[_pair(f) for f in forbid])
    if as_json:
        emit_json(t.model_dump())
    else:
        rounds_text = plural(t.rounds, "round") if t.rounds else "rounds from its players"
        click.echo(safe(f"created {t.event}: {t.game} {t.format}, {rounds_text}; tie-breaks {', '.join(t.tiebreaks)}"))


def _numbers(text: str | None, name: str) -> list[float] | None:
    if not text:
        return None
    try:
        return [float(v) for v in text.split(",")]
    except ValueError:
        raise click.UsageError(f"{name}: numbers, comma separated") from None


def _pair(text: str) -> tuple[str, str]:
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 2 or not all(parts):
        raise click.UsageError("--forbid takes two names: A,B")
    return parts[0], parts[1]


def _options(game_id: str, given: tuple[str, ...]) -> dict:
    """``NAME=VALUE`` pairs as the game's play options (numbers and flags as they are declared)."""
    from scorebook import registry
    declared = {o.name: o for o in registry.get_game(game_id).info.play_options}
    out = {}
    for item in given:
        name, eq, value = item.partition("=")
        o = declared.get(name)
        if not eq or o is None:
            raise click.UsageError(f"--option {item}: NAME=VALUE with a play option of {game_id} "
                                   f"({', '.join(declared) or 'none'})")
        try:
            out[name] = (int(value) if o.kind == "int" else float(value) if o.kind == "float"
                         else value.lower() in ("1", "true", "yes") if o.kind == "flag" else value)
        except ValueError:
            raise click.UsageError(f"--option {item}: {name} is a number") from None
    return out


@tournament.command(short_help="Players join (late entries from the next round).")
@click.argument("event")
@click.argument("names", nargs=-1, required=True)
@click.option("--rating", type=int, help="Their rating (the Swiss's starting order).")
@db_option
@click.pass_context
def join(ctx, event, names, rating):
    """Add players by name; a bot's name (greedy, mc:8, greedy-2) lets ``tournament play`` play for it.

    Example: scorebook tournament join 'Club Swiss' Ada Bob Cy --rating 1500"""
    t = _director().join(open_store(ctx), event, list(names), rating)
    late = t.paired_rounds + 1
    click.echo(safe(f"{t.event}: {plural(len(names), 'player')} joined ({len(t.entrants)} in all)"
                    + (f", paired from round {late}" if late > 1 else "")))


@tournament.command(short_help="A player leaves (or sits out a round).")
@click.argument("event")
@click.argument("name")
@click.option("--round", "round_", type=int, help="Only sit out this round (an absence), not leave.")
@db_option
@click.pass_context
def withdraw(ctx, event, name, round_):
    """Withdraw a player from the next round on (their results stay), or with --round mark them
    absent for one round not yet paired.

    Example: scorebook tournament withdraw 'Club Swiss' Bob --round 3"""
    store = open_store(ctx)
    if round_ is not None:
        _director().absent(store, event, name, round_)
        click.echo(safe(f"{event}: {name} sits out round {round_}"))
    else:
        r = _director().withdraw(store, event, name)
        click.echo(safe(f"{event}: {name} withdrew; not paired from round {r} on"))


@tournament.command(short_help="Pair the next round.")
@click.argument("event")
@click.option("--force", is_flag=True, help="Pair though the round before has tables without a result.")
@db_option
@json_option
@click.pass_context
def pair(ctx, event, force, as_json):
    """Pair the next round; refused while the round before has a table without a result.
    --json: {"round": r, "tables": [{"table": t, "players": [first seat, ...]}], "byes": [names]}.

    Example: scorebook tournament pair 'Club Swiss' --json"""
    doc = _director().pair(open_store(ctx), event, force=force)
    if as_json:
        emit_json({k: doc[k] for k in ("round", "tables", "byes")})
        return
    click.echo(f"round {doc['round']}")
    for x in doc["tables"]:
        click.echo(safe(f"  table {x['table']}: {' - '.join(x['players'])}"))
    for label in ("byes", "absent"):
        if doc[label]:
            click.echo(safe(f"  {label}: {', '.join(doc[label])}"))


@tournament.command(short_help="Enter a table's result without a record.")
@click.argument("event")
@click.argument("round_", metavar="ROUND", type=int)
@click.argument("table", type=int)
@click.argument("outcome")
@click.option("--replace", is_flag=True, help="Replace the result the table has.")
@db_option
@click.pass_context
def result(ctx, event, round_, table, outcome, replace):
    """Enter a result: 1-0, 0-1, 1/2-1/2, or +- / -+ for a forfeit (two seats); the places in
    seat order, 1,3,2,4 (tables); the score (duplicate). Marked as entered, without a record.

    Example: scorebook tournament result 'Club Swiss' 2 1 1-0"""
    x = _director().result(open_store(ctx), event, round_, table, outcome, replace=replace)
    click.echo(safe(f"{event}: round {round_} table {table}: {' - '.join(x.seats)}: {outcome} ({x.source})"))


@tournament.command(short_help="The tournament: players, rounds, tables, results.")
@click.argument("event")
@db_option
@output_options
@click.pass_context
def show(ctx, event, out):
    """Every round's tables with their results and records.

    Example: scorebook tournament show 'Club Swiss'"""
    doc = _director().show(open_store(ctx, write=False), event)
    rows = [{"round": x["round"], "table": x["table"], "players": " - ".join(x["seats"]),
             "kind": x["kind"], "result": _result_text(x), "source": x["source"], "record": x["record"]}
            for x in doc["tables"]]
    if out.human:
        state = "finished" if doc["finished"] else f"{doc['paired']} of {doc['rounds'] or '?'} rounds paired"
        click.echo(safe(f"{doc['event']}: {doc['game']} {doc['format']}, {plural(len(doc['entrants']), 'player')}, "
                        f"{state}"))
    out.rows([("round", "round"), ("table", "table"), ("players", "players"), ("kind", "kind"),
              ("result", "result"), ("source", "source"), ("record", "record")], rows, doc)


def _result_text(x: dict) -> str:
    if x["points"] is None:
        return "-"
    return " - ".join(f"{p:g}" for p in x["points"])


@tournament.command(short_help="Write the tournament as TRF16 or JSON.")
@click.argument("event")
@click.option("--format", "fmt", type=click.Choice(["trf", "json"]), default="trf", show_default=True)
@click.option("--out", "out_path", type=click.Path(dir_okay=False), help="A file to write (default: stdout).")
@db_option
@click.pass_context
def export(ctx, event, fmt, out_path):
    """TRF16 (two-seat events; what it cannot hold is said on stderr) or the tournament as JSON.

    Example: scorebook tournament export 'Club Swiss' --out club.trf"""
    check_writable(out_path)
    text, dropped = _director().export(open_store(ctx, write=False), event, fmt)
    if dropped:
        click.echo(f"scorebook: {fmt} drops {'; '.join(dropped)}", err=True)
    if out_path:
        write_file(out_path, text)
    else:
        click.echo(text, nl=False)


@tournament.command("import", short_help="Read a TRF16 file as a tournament.")
@click.argument("path")
@click.option("--game", "game_id", required=True, type=GAME, help="The game (of two seats) it was played at.")
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE", help="A play option of the game.")
@db_option
@click.pass_context
def import_(ctx, path, game_id, options):
    """Read a TRF16 file (players, rounds played, XXR, XXC, 0000 - Z absences) as a two-seat
    Swiss tournament, named by its 012 line; then pair, take results and rank it as any other.

    Example: scorebook tournament import club.trf --game iwoki"""
    t, new = _director().import_trf(open_store(ctx), path, game_id, _options(game_id, options))
    click.echo(safe(f"{'imported' if new else 'already imported, unchanged:'} {t.event}: "
                    f"{plural(len(t.entrants), 'player')}, {t.paired_rounds} of {plural(t.rounds, 'round')} played"))


@tournament.command(short_help="Bots play the current round's tables.")
@click.argument("event")
@db_option
@json_option
@click.pass_context
def play(ctx, event, as_json):
    """Every table of the current round whose seats are all bots and that has no result is
    played; the records are stored and attach to their tables.

    Example: scorebook tournament play 'Bot Swiss'"""
    outcomes = _director().play_round(open_store(ctx), event)
    if as_json:
        emit_json({"games": outcomes})
        return
    for o in outcomes:
        click.echo(safe(f"table {o['table']}: {o.get('id')} {o.get('tournament') or o.get('status')}"))
    if not outcomes:
        say(f"{event}: no table of the current round is all bots without a result")
        sys.exit(0)


# the standings of a tournament run here are any event's: the one command, named here too
tournament.add_command(archive.standings, "standings")
