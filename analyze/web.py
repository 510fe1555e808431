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

from scorebook.records.errors import ScorebookError
from scorebook.records.store import Store

from . import html as report_html

ROUTE = "/-/scorebook/record/"


def record_page(path: str, record_id: str) -> str:
    """The page of one record: its latest stored analysis as the report, or its boards alone."""
    with Store(path, write=False) as store:  # one short-lived connection a request
        row = store.get(record_id)
        latest = store.db.execute("SELECT a.bot, a.seed, a.engine_version FROM analyses a JOIN records r ON "
                                  "r.key = a.record_key WHERE r.id = ? ORDER BY a.id DESC LIMIT 1",
                                  [row["id"]]).fetchone()
        report = store.find_analysis(row["id"], *latest) if latest is not None else None
    return report_html.render(row, report) if report is not None else report_html.render_boards(row)


async def _record_view(request, datasette):
    record_id = request.url_vars["id"]
    database = datasette.get_database()
    try:
        page = await database.execute_fn(lambda conn: record_page(database.path, record_id))
    except ScorebookError as err:
        return Response.html(f"<p>{html.escape(str(err))}</p>", status=404)
    return Response.html(page)


RATINGS_ROUTE = "/-/scorebook/ratings"


def ratings_page(path: str, game: str | None) -> str:
    """Every player's rating from the stored games (``scorebook ratings``), as one page."""
    from .ratings import ratings
    with Store(path, write=False) as store:
        return report_html.render_ratings(ratings(store, game))


async def _ratings_view(request, datasette):
    database = datasette.get_database()
    game = request.args.get("game") or None
    try:
        page = await database.execute_fn(lambda conn: ratings_page(database.path, game))
    except ScorebookError as err:
        return Response.html(f"<p>{html.escape(str(err))}</p>", status=404)
    return Response.html(page)


@hookimpl
def register_routes():
    return [(ROUTE.replace("/", r"\/") + r"(?P<id>[0-9a-f]{1,64})$", _record_view),
            (RATINGS_ROUTE.replace("/", r"\/") + "$", _ratings_view)]


@hookimpl
def render_cell(value, column, table, database, datasette):
    """A record's id, wherever the tables and views show it, links to its page."""
    if column in ("id", "record") and table in ("records", "games", "player_results", "analysed_moves") \
            and isinstance(value, str):
        return Markup(f'<a href="{ROUTE}{html.escape(value)}">{html.escape(value)}</a>')
    return None
