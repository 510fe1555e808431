"""Scorebook inside Datasette: a plugin (registered by the ``datasette`` entry point) that
gives every record a page, ``/-/scorebook/record/<id>``, with its board before every move in
SVG and, where the record has been analysed, the analysis chart and classes: the HTML of
``analyze --html``, drawn by the same code. Record ids in any table link to their page. No
HTML is stored in the database. ``scorebook serve`` starts Datasette with it.
"""
from __future__ import annotations

import html

from datasette import Response, hookimpl
from markupsafe import Markup

from scorebook import registry
from scorebook.records.errors import ScorebookError
from scorebook.records.store import Store

from . import html as report_html
from .run import record_of

ROUTE = "/-/scorebook/record/"


def record_page(path: str, record_id: str) -> str:
    """The page of one record: its latest stored analysis as the report, or its boards alone."""
    store = Store(path, write=False)
    row = store.get(record_id)
    latest = store.db.execute("SELECT a.bot, a.seed, a.engine_version FROM analyses a JOIN records r ON "
                              "r.key = a.record_key WHERE r.id = ? ORDER BY a.id DESC LIMIT 1", [row["id"]]).fetchone()
    if latest is not None:
        report = store.find_analysis(row["id"], *latest)
        return report_html.render(row, report)
    game = registry.get_game(row["game"])
    cards = []
    for p in game.notation.positions(record_of(row)):
        where = f"game {p.game}, " if p.game != 1 else ""
        cards.append(f'<div class="move" id="move-{p.game}-{p.ply}"><h3>{where}ply {p.ply}: {html.escape(p.move)}</h3>'
                     f'{game.analysis.svg_board(p.before, None, None)}</div>')
    title = f"Scorebook record {row['id']} ({game.info.name})"
    players = row.get("players") or ""
    return (f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            f"<style>{report_html.CSS}</style></head><body><h1>{html.escape(title)}</h1>"
            f"<p>{html.escape(players)}; not analysed yet (<code>scorebook analyze {row['id']}</code>).</p>"
            f"<h2>Boards</h2><p>Before each move. {game.analysis.legend()}</p>"
            f"<div class='boards'>{''.join(cards)}</div></body></html>")


async def _record_view(request, datasette):
    record_id = request.url_vars["id"]
    database = datasette.get_database()
    try:
        page = await database.execute_fn(lambda conn: record_page(database.path, record_id))
    except ScorebookError as err:
        return Response.html(f"<p>{html.escape(str(err))}</p>", status=404)
    return Response.html(page)


@hookimpl
def register_routes():
    return [(ROUTE.replace("/", r"\/") + r"(?P<id>[0-9a-f]{1,64})$", _record_view)]


@hookimpl
def render_cell(value, column, table, database, datasette):
    """A record's id, wherever the tables and views show it, links to its page."""
    if column in ("id", "record") and table in ("records", "games", "player_results", "analysed_moves") \
            and isinstance(value, str):
        return Markup(f'<a href="{ROUTE}{html.escape(value)}">{html.escape(value)}</a>')
    return None
