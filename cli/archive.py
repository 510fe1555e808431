"""The archive's commands: ingest, list, events, show, export, standings, ratings."""
from __future__ import annotations

import os
import re
import shlex
import sys

import click

from scorebook import registry
from scorebook.records.notation import score_text

from .common import GAME, Progress, check_writable, db_option, main, on_interrupt, open_store, owns_process, write_file
from .output import emit_json, json_option, output_options, plural, safe


# ------------------------------------------------------------------ ingest

INGEST_COLUMNS = [("source", "source"), ("index", "record"), ("status", "status"), ("game", "game"), ("id", "id"),
                  ("score", "score"), ("code", "code")]


@main.command(short_help="Read, validate by replay, and store records.")
@click.argument("paths", nargs=-1, required=True)
@click.option("--format", "fmt", default="auto", type=click.Choice(["auto", *registry.formats()]),
              help="Force a format instead of detecting it from content.")
@click.option("--strict", is_flag=True, help="Reject a whole file when any of its records is rejected.")
@click.option("--lenient", is_flag=True, help="Store records whose stated score differs, with a warning.")
@click.option("--player", metavar="NAME",
              help="The player of solo records that name none (a TinyBot line names no one: without it, no one).")
@db_option
@output_options
@click.pass_context
def ingest(ctx, paths, fmt, strict, lenient, player, out):
    """Read, validate by replay, and store records from files, folders (recursively) or - (stdin),
    in any format a game reads (detected from the content). A file is stored whole or not at all;
    a record already stored is reported as a duplicate; a rejected one is one line on stderr.

    Example: scorebook ingest games.txt tournament/ -"""
    from scorebook.analyze.standings import ingest_tournament
    from scorebook.records.ingest import IngestPlan
    store = open_store(ctx)
    plan = IngestPlan.of(paths, fmt)
    start, db = store.last_key(), ctx.find_root().obj["db"]
    on_interrupt(lambda: _stored_before(db, start))
    if plan.skipped:
        click.echo(f"scorebook: {plan.skipped_line()}", err=True)
    with Progress(len(plan.files), "ingesting", not out.json and sys.stderr.isatty()) as bar:
        doc = plan.run(store, strict=strict, lenient=lenient, take_tournament=ingest_tournament, progress=bar.update,
                       player=_player_name(player))
    rate_new(store, {o.get("game") for o in doc["records"] if o["status"] == "ingested"})
    _say_rejections(doc)
    out.rows(INGEST_COLUMNS, [] if out.json else _ingest_rows(doc, out.human), doc)  # --json: the document alone
    if out.human:
        _say_ingested(doc, ctx.find_root().obj["db"])
    if doc["summary"]["rejected"]:
        sys.exit(1)


def _player_name(name: str | None) -> str | None:
    """``--player``: a name a tag can hold (printable, no quote or backslash, at most 100)."""
    if name is None:
        return None
    name = name.strip()
    if not name or len(name) > 100 or not name.isprintable() or any(c in name for c in '"\\[]'):
        raise click.UsageError("--player: a printable name of 1 to 100 characters, without quotes, "
                               "backslashes or brackets")
    return name


def _stored_before(db: str, start: int) -> str:
    """What an interrupted ingest had stored (read anew: the command's own connection is its
    thread's)."""
    from scorebook.records.store import Store
    with Store(db, write=False) as store:
        n = store.stored_since(start)
    return (f"{plural(n, 'record')} stored before it (each file whole or not at all; ingest again to go on: "
            "those stored are duplicates)")


def _say_rejections(doc: dict) -> None:
    """Each rejection and each warning, one line on stderr."""
    from scorebook.records.ingest import rejection_line
    for o in doc["records"]:
        if o["status"] == "rejected":
            click.echo(rejection_line(o), err=True)
        for w in o.get("warnings", []):
            click.echo(f"{o['source']}: record {o['index']}: warning: {w}", err=True)


def _ingest_rows(doc: dict, table: bool) -> list[dict]:
    """A row per record; a long run's table: the first 40 records that were not simply ingested."""
    from scorebook.records.ingest import kept_code
    rows = [{"source": o["source"], "index": o["index"], "status": o["status"], "game": o.get("game"),
             "id": o.get("id"), "score": score_text(o.get("score")) if o.get("score") else None,
             "code": o["errors"][0]["code"] if o.get("errors") else kept_code(o.get("warnings"))}
            for o in doc["records"]]
    return [r for r in rows if r["status"] != "ingested"][:40] if table and len(rows) > 40 else rows


NOTES_SHOWN = 20  # records of tournaments whose attachment ingest says, one a line


def _say_ingested(doc: dict, db: str) -> None:
    """The tournaments taken and the summary line."""
    for t in doc["tournaments"]:
        if t["status"] != "rejected":
            click.echo(f"tournament {t['event']!r} ({t['game']}): {t['matches']} matches, {t['players']} players, "
                       f"{t['status']}; rank it with: scorebook standings {shlex.quote(t['event'])}")
    notes = [f"{o.get('id')}: {o['tournament']}" for o in doc["records"] if o.get("tournament")]
    for line in notes[:NOTES_SHOWN]:  # what each record of a tournament run here became
        click.echo(safe(line))
    if len(notes) > NOTES_SHOWN:
        click.echo(f"… and {len(notes) - NOTES_SHOWN} more records of tournaments (--json lists them all)")
    summary = doc["summary"]
    click.echo(f"{summary['ingested']} ingested, {summary['duplicates']} duplicates, "
               f"{summary['rejected']} rejected; database {db if len(db) <= 50 else '…' + db[-49:]}")


def rate_new(store, games) -> None:
    """The kept ratings brought up to the games just stored (ratings reads them)."""
    from scorebook.analyze.ratings import update
    games = sorted(g for g in games if g)
    if games:
        update(store, games, alongside=True)


# ------------------------------------------------------------------ list, show, export

TABLE_LIMIT = 100  # rows the table shows unless --limit says otherwise


def shown_rows(limit: int | None, out) -> int | None:
    """How many rows to show (None: all): ``--limit`` as given (0: all), else a table's
    ``TABLE_LIMIT`` and every row of the other formats."""
    if limit is None:
        return TABLE_LIMIT if out.human else None
    return limit or None

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

    The table shows the id, game, date, event, players and score; --wide adds the rule set,
    the deck and the source file (the other formats carry them all).

    Example: scorebook list --game tsuro --where "date >= '2026.01.01'" --order "date desc" --limit 20"""
    shown = shown_rows(limit, out)
    # one more than shown: whether there are more to say so
    stored = open_store(ctx, write=False).list(game, player, where_sql=where_sql, order=order,
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
    # the label columns the store keeps (the browsing views show the same); the rule set, the
    # deck and the source file with --wide, so that a table fits the terminal uncut
    columns = out.columns([("id", "id"), ("game", "game"), ("date", "date"), ("event", "event"),
                           ("players", "players"), ("score", "score")],
                          [("rules", "rules"), ("deck", "deck"), ("source", "source")])
    n = out.stream(columns, pairs(), "records")
    if out.human:
        click.echo(plural(n, "record") + (f"; more follow: --limit N or --offset {(offset or 0) + n} for the next, "
                                     "--limit 0 for all" if more else ""))


@main.command(short_help="List the events of the stored records.")
@click.option("--limit", type=click.IntRange(0), help=f"At most this many events (0: all; the table shows "
              f"{TABLE_LIMIT} unless told, the other formats all).")
@db_option
@output_options
@click.pass_context
def events(ctx, limit, out):
    """The events of the stored records (their Event tag), with their games, records and players,
    and whether a tournament file is kept for the event (what standings EVENT ranks) and how many
    matches it names (a tournament of bot games has no record of its own: each keeps its Event).

    Example: scorebook events --csv"""
    every = open_store(ctx, write=False).events()
    shown = shown_rows(limit, out)
    rows = every[:shown] if shown else every
    columns = [("event", "event"), ("game", "game"), ("records", "records"), ("players", "players"),
               ("first", "first date"), ("last", "last date"), ("tournament", "tournament")]
    if out.human:  # one column for the tournament kept: how many matches it ranks
        out.rows(columns, [dict(r, tournament=plural(r["matches"], "match") if r["tournament"] else "-") for r in rows])
    else:
        out.rows(columns + [("matches", "matches")], rows, {"events": rows})
    if out.human:
        click.echo(f"{len(every)} events" + (f"; the first {shown} shown: --limit N for more, --limit 0 for all"
                                             if len(every) > len(rows) else ""))


@main.command(short_help="Show a record with a text board after each move.")
@click.argument("record")
@db_option
@json_option
@click.pass_context
def show(ctx, record, as_json):
    """Show a record: its tags, a text board after each move, its score. RECORD is a stored
    record's id (or its first digits), or a file of records (PATH, PATH#N for its N-th, - for
    standard input) read and walked as ingest would, nothing stored: a record the rules refuse
    is shown up to its first error, then the error (exit 1). A file named by hexadecimal digits
    alone is ./NAME; a RECORD that is neither a stored id nor a file is not found (exit 1).

    Example: scorebook show 3f2a --json; scorebook show games.pgn#2"""
    from scorebook.analyze.boards import show_document, show_lines
    row, trace, note = _shown(ctx, record)
    if as_json:
        emit_json(show_document(row, trace))
    else:
        if note:
            click.echo(f"scorebook: {note}", err=True)
        for line in show_lines(row, trace):  # the boards are drawn from the state; the rest is text from the record
            click.echo(safe(line))
    if trace.error is not None:
        sys.exit(1)


SHOWN_AS_PYTHON_MAX_BYTES = 32 * 1024  # a file this small is read and walked faster as Python than numba starts


def _small_file(path: str) -> bool:
    try:
        return os.stat(path).st_size <= SHOWN_AS_PYTHON_MAX_BYTES
    except OSError:
        return False


def _shown(ctx, record: str):
    """(row, trace, a note on the file's other records) of a stored id or a file's record."""
    from scorebook.analyze.run import trace_of
    from scorebook.records.preview import file_record, parse_reference
    path, number = parse_reference(record)
    if re.fullmatch(r"[0-9a-f]+", record) or path != "-" and not os.path.lexists(path):  # an id, or its first digits
        if owns_process():  # one record walked once: its rules run as Python, numba never started (engines/jit.py)
            from scorebook.engines import jit
            jit.interpret()
        store = open_store(ctx, write=False)
        row = store.get(record)  # (it bounds what it says of a long one)
        table = store.tournament_of_record(row["id"])
        if table:  # the table of a tournament run here that it is the result of, said with its tags
            row = dict(row, attached=f"round {table[1]}, table {table[2]} of {table[0]}")
        return row, trace_of(row, partial=True), None
    if owns_process() and path != "-" and _small_file(path):  # a few records read and one walked: as Python
        from scorebook.engines import jit
        jit.interpret()
    found = file_record(path, number)
    others = f"{found.path} holds {found.count} records; {found.path}#N shows the N-th" if found.count > 1 else None
    return found.row, found.trace, others


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
    check_writable(out_path)
    row = open_store(ctx, write=False).get(record_id)
    text, dropped = export_record(row, fmt)
    if dropped:
        click.echo(f"scorebook: {fmt} cannot carry all of record {row['id']}: it drops " + "; ".join(dropped)
                   + " (read back, it is another record)", err=True)
    if out_path:
        write_file(out_path, text)
    if as_json:
        emit_json({"id": row["id"], "format": fmt, "text": text, "dropped": dropped})
    elif not out_path:
        click.echo(text, nl=False)


# ------------------------------------------------------------------ standings

@main.command(short_help="Tournament standings of a file, folder or stored event.")
@click.argument("event")
@click.option("--html", "html_path", type=click.Path(dir_okay=False),
              help="Also write the standings as one self-contained page (ranking, tiebreaks, crosstable).")
@click.option("--archive", "archive_url", metavar="URL",
              help="The served archive's address: the --html page links each result to its record there.")
@db_option
@output_options
@click.pass_context
def standings(ctx, event, html_path, archive_url, out):
    """Tournament standings from a tournament file (or the folder that holds one) or a stored
    event name (scorebook events lists them): match points and the tiebreaks, each player's
    matches won, drawn and lost, and the matches.

    Example: scorebook standings 'Autumn Open' --html standings.html"""
    from scorebook.analyze.standings import standing_rows, standings_of
    check_writable(html_path)
    store = None if os.path.exists(event) else open_store(ctx, write=False)
    if store is not None and store.planned_tournament(event) is not None:  # a tournament run here
        from scorebook.tournaments import director
        if html_path:
            from scorebook.analyze.html import RECORD_ROUTE
            from scorebook.tournaments import html
            page = director.page_doc(store, event)
            write_file(html_path, html.render(page, archive_url.rstrip("/") + RECORD_ROUTE if archive_url else None))
            doc = page["standings"]
        else:
            doc = director.standings_of(store, event)
    else:
        doc, store = standings_of(event, lambda: store or open_store(ctx, write=False))
        if html_path:
            _write_standings_page(html_path, doc, store, event)
    # a tournament run here counts its own games (beside the rows)
    rows = [dict(r, **doc["games"][r["player"]]) for r in doc["standings"]] if "format" in doc else standing_rows(doc)
    columns = ([(k, k) for k in ["rank", "player"] + doc["tiebreaks"]]
               + [("games", "games"), ("won", "W"), ("drawn", "D"), ("lost", "L")])
    if out.json:
        out.rows(columns, rows, doc)
    elif out.human:
        click.echo(f"{doc['event']}  (tiebreaks: {', '.join(doc['tiebreaks'])})")
        out.rows(columns, rows)
        _say_matches(doc.get("matches"))
    else:
        out.rows(columns + [("matches", "matches")], rows)


def _write_standings_page(path: str, doc: dict, store, event: str) -> None:
    """The standings as one page; a stored event's with its players' ratings from its games."""
    from scorebook.analyze.html import render_standings
    if store is not None:
        from scorebook.analyze.ratings import ratings as rate_archive
        doc = dict(doc, ratings=rate_archive(store, event=event)["ratings"])
    write_file(path, render_standings(doc))


def _say_matches(matches: list | None) -> None:
    if matches:
        click.echo("\nmatches:")
        for m in matches:
            click.echo(safe(f"  {m['match'] or '-'}: {m['players'][0]} {m['totals'][0]}-{m['totals'][1]} "
                            f"{m['players'][1]}, margin {m['margin']:+d}, {m['result']}"))


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
@click.option("--limit", type=click.IntRange(0), help=f"The first this many places of each game (0: all; the table "
              f"shows {TABLE_LIMIT} unless told, the other formats all).")
@db_option
@output_options
@click.pass_context
def ratings(ctx, game, event, since, rebuild, limit, out):
    """Ratings of every player (bots too, by their spec) from the stored games, in the order
    they were played: rating = mu - 3 sigma (openskill's Plackett-Luce), ± sigma; solo games
    get a summary of each player's totals instead. The database keeps them, updated as games
    arrive (a game dated before the latest rated rates its game again from the checkpoint
    before it, kept every 20,000 games);
    --event and --since rate the games they choose from the first. CSV, TSV and --nl print one list, each row
    with its kind (rating or solo).

    Example: scorebook ratings --game tsuro --since 2026-01-01"""
    from scorebook.analyze.ratings import ratings as rate_archive, rebuild as rebuild_ratings
    if rebuild:
        store = open_store(ctx)
        click.echo(f"scorebook: rated {rebuild_ratings(store):,} games again from the first", err=True)
    else:
        store = open_store(ctx, write=False)
    shown = shown_rows(limit, out)
    print_ratings(rate_archive(store, game, event, since), out, shown)


def _ratings_tables(doc: dict, out, cut: int) -> None:
    """The ratings' table, the solo summaries' table (when there are any), the games rated."""
    if doc["ratings"] or not doc["solo"]:
        out.rows(RATING_COLUMNS, doc["ratings"])
    if doc["solo"]:
        if doc["ratings"]:
            click.echo("")
        out.rows(SOLO_COLUMNS, doc["solo"])
    click.echo(f"{doc['games']} games rated" + (f"; {cut} players below the first {doc['shown']} places of their "
                                                 "game not shown: --limit N for more, --limit 0 for all" if cut else ""))


def _first_places(doc: dict, shown: int | None) -> tuple[dict, int]:
    """The ratings document cut to the first ``shown`` places of each game (None: all), and
    how many players it left out."""
    if not shown:
        return doc, 0
    kept = {k: [r for r in doc[k] if r["rank"] <= shown] for k in ("ratings", "solo")}
    cut = len(doc["ratings"]) + len(doc["solo"]) - len(kept["ratings"]) - len(kept["solo"])
    return dict(doc, **kept, shown=shown), cut


def print_ratings(doc: dict, out, shown: int | None = None) -> None:
    """Ratings and solo summaries: two tables, or one list with each row's kind; ``shown``:
    the first places of each game only."""
    doc, cut = _first_places(doc, shown)
    if out.json:
        out.rows([], [], doc)
    elif out.human:
        _ratings_tables(doc, out, cut)
    else:  # one list: each row with its kind
        out.rows([("kind", "kind")] + RATING_COLUMNS + [c for c in SOLO_COLUMNS if c not in RATING_COLUMNS],
                 [dict(r, kind="rating") for r in doc["ratings"]] + [dict(r, kind="solo") for r in doc["solo"]])
