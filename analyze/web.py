"""Scorebook inside Datasette: a plugin (registered by the ``datasette`` entry point) that
gives every record a page, ``/-/scorebook/record/<id>``, with its board before every move in
SVG and, where the record has been analysed, the analysis chart and classes: the HTML of
``analyze --html``, drawn by the same code; and the ratings, ``/-/scorebook/ratings``. Record
ids in any table link to their page. No HTML is stored in the database.

``serve`` runs Datasette in this process (``scorebook serve``), read-only and guarded: no
arbitrary SQL unless asked for, no CSV streaming of whole tables, SQLite's string and blob
length capped on every connection the plugin's Datasette opens, record pages cached, and
behind a check of the Host header while it listens on a loopback address (a page from
another site cannot reach it by DNS rebinding).
"""
from __future__ import annotations

import asyncio
import functools
import html
import ipaddress
import json
import socket
import sqlite3

import os

from datasette import Response, hookimpl
from markupsafe import Markup

from scorebook.errors import ScorebookError
from scorebook.records.store import Store

from . import html as report_html

ROUTE = "/-/scorebook/record/"


MAX_LENGTH = 16 * 1024 * 1024  # SQLite's longest string or blob on a served connection (a record is far less)
PAGES_CACHED = 64


def record_parts(path: str, record_id: str) -> tuple[str, str, str]:
    """(id, title, body) of one record's page: its latest stored analysis as the report, or
    its boards alone. Drawn once and cached (a record's text never changes; a new analysis is
    a new page)."""
    with Store(path, write=False) as store:  # one short-lived connection a request
        row = store.get(record_id)
        latest = store.db.execute("SELECT a.id, a.bot, a.seed, a.engine_version FROM analyses a JOIN records r ON "
                                  "r.key = a.record_key WHERE r.id = ? ORDER BY a.id DESC LIMIT 1",
                                  [row["id"]]).fetchone()
    return (row["id"], *_drawn(path, row["id"], latest[0] if latest else None))


def record_page(path: str, record_id: str) -> str:
    """The record's page on its own (``analyze --html``'s page)."""
    return report_html.page(*record_parts(path, record_id)[1:])


@functools.lru_cache(maxsize=PAGES_CACHED)
def _drawn(path: str, record_id: str, analysis_id: int | None) -> tuple[str, str]:
    with Store(path, write=False) as store:
        row = store.get(record_id)
        report = None
        if analysis_id is not None:
            bot, seed, version = store.db.execute("SELECT bot, seed, engine_version FROM analyses WHERE id = ?",
                                                  [analysis_id]).fetchone()
            report = store.find_analysis(row["id"], bot, seed, version)
    return report_html.report_parts(row, report) if report is not None else report_html.boards_parts(row)


# Datasette's own page around the report: its header, menu and style, a way back to the table
RECORD_TEMPLATE = """{% extends "base.html" %}
{% block title %}{{ title }}{% endblock %}
{% block extra_head %}<style>{{ css }}</style>{% endblock %}
{% block content %}
<h1>{{ title }}</h1>
<p class="scorebook-links">This record's row in <a href="{{ row_url }}">{{ database }} / records</a>;
each seat's result in <a href="{{ results_url }}">player_results</a>; <a href="{{ ratings_url }}">ratings</a>.</p>
<div class="scorebook-report">{{ body }}</div>
{% endblock %}"""


async def _record_view(request, datasette):
    database = datasette.get_database()
    try:
        rid, title, body = await database.execute_fn(lambda conn: record_parts(database.path, request.url_vars["id"]))
    except ScorebookError as err:
        return Response.html(f"<p>{html.escape(str(err))}</p>", status=404)
    urls = datasette.urls
    context = {"title": title, "body": Markup(body), "css": Markup(report_html.REPORT_CSS), "database": database.name,
               "row_url": urls.table(database.name, "records") + f"?id={rid}",
               "results_url": urls.table(database.name, "player_results") + f"?record={rid}", "ratings_url": RATINGS_ROUTE}
    template = datasette.jinja_env.from_string(RECORD_TEMPLATE)
    return Response.html(await datasette.render_template(template, context, request=request))


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


@hookimpl
def prepare_connection(conn):
    """Every connection Datasette opens: one SQLite call cannot build a huge string."""
    conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_LENGTH)


# ---------------------------------------------------------------- serve

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class HostCheck:
    """ASGI middleware: while the server listens on a loopback address only requests naming a
    loopback host are served (a page from another site, its name rebound to 127.0.0.1, names
    its own host)."""

    def __init__(self, app):
        self.app = app
        self.allowed = {name.encode() for name in LOOPBACK_NAMES}

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            host = dict(scope.get("headers") or []).get(b"host", b"").lower()
            name = host.split(b"]")[0] + b"]" if host.startswith(b"[") else host.split(b":")[0]  # the port off
            if name not in self.allowed:
                await send({"type": "http.response.start", "status": 421,
                            "headers": [(b"content-type", b"text/plain; charset=utf-8")]})
                await send({"type": "http.response.body", "body": b"misdirected request: this server answers "
                            b"for the local machine's own names only\n"})
                return
        await self.app(scope, receive, send)


def metadata(path: str, allow_sql: bool) -> dict:
    """Scorebook's Datasette metadata for the database at ``path`` (kept in memory, no file)."""
    from importlib import resources
    meta = json.loads(resources.files("scorebook.records").joinpath("metadata.json").read_text())
    name = os.path.splitext(os.path.basename(path))[0]
    meta["databases"] = {name: meta["databases"]["scorebook"]}
    if not allow_sql:
        meta["allow_sql"] = False
    return meta


def port_free(host: str, port: int) -> bool:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family) as s:
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True


def serve(path: str, host: str, port: int, *, allow_sql: bool = False, on_start=None) -> None:
    """Serve the database read-only until the process is stopped (``on_start(url)`` first)."""
    import uvicorn
    from datasette.app import Datasette
    settings = {"truncate_cells_html": 120, "allow_csv_stream": False, "allow_download": False,
                "sql_time_limit_ms": 1000, "max_returned_rows": 1000}
    ds = Datasette([path], metadata=metadata(path, allow_sql), settings=settings)
    asyncio.run(ds.invoke_startup())
    app = ds.app()
    if is_loopback(host):
        app = HostCheck(app)
    if on_start:
        on_start(f"http://{host if ':' not in host else f'[{host}]'}:{port}/")
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="off")
    uvicorn.Server(config).run()
