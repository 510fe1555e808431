"""Scorebook inside Datasette: the plugin's hooks (registered by the ``datasette`` entry
point). Every record gets a page, ``/-/scorebook/record/<id>``, with its board before every
move and its latest analysis; record ids in any table link to it; the ratings, the submit
form, the sign-in form and the JSON API are routes of their own. Tokens are a request's
actor; the private tables are denied to every actor, on every page, in every format, and
read as NULL by any SQL a visitor may run."""
from __future__ import annotations

import html
import sqlite3
import urllib.parse

from datasette import hookimpl
from markupsafe import Markup

from scorebook.records import tokens

from . import api, pages, tournaments
from .state import PRIVATE_TABLES, allowed, read
from .writer import Unavailable

MAX_LENGTH = 16 * 1024 * 1024  # SQLite's longest string or blob on a served connection (a record is far less)


def _route(path: str) -> str:
    return "^" + path.replace("/", r"\/")


@hookimpl
def register_routes():
    record = _route(pages.ROUTE) + r"(?P<id>[0-9a-f]{1,64})"
    return [(record + "$", pages.record_view),
            (record + "/analyse$", pages.analyse_form_view),
            (_route("/-/scorebook/jobs/") + r"(?P<job>[0-9]{1,12})/cancel$", pages.cancel_form_view),
            (_route(pages.RATINGS_ROUTE) + "$", pages.ratings_view),
            (_route(pages.STANDINGS_ROUTE) + "$", pages.standings_view),
            (_route(tournaments.TOURNAMENTS_ROUTE) + "$", tournaments.tournaments_view),
            (_route(tournaments.TOURNAMENT_ROUTE) + "$", tournaments.tournament_view),
            (_route(tournaments.ACT_ROUTE) + "$", tournaments.act_form_view),
            (_route(tournaments.API_ROUTE) + "$", tournaments.api_view),
            (_route(tournaments.VERSION_ROUTE) + "$", tournaments.version_view),
            (_route(pages.SUBMIT_ROUTE) + "$", pages.submit_page),
            (_route(pages.LOGIN_ROUTE) + "$", pages.login_view),
            (_route(pages.LOGOUT_ROUTE) + "$", pages.logout_view),
            (r"^/-/scorebook/api/records$", api.submit_view),
            (r"^/-/scorebook/api/records/(?P<id>[0-9a-f]{1,64})/analyses$", api.analyses_view),
            (r"^/-/scorebook/api/records/(?P<id>[0-9a-f]{1,64})/analysis$", api.analysis_view),
            (r"^/-/scorebook/api/jobs/(?P<job>[0-9]{1,12})$", api.job_view),
            (r"^/-/scorebook/api/jobs/(?P<job>[0-9]{1,12})/cancel$", api.cancel_view)]


# views of rows of every record (``moves``: each record's moves_json; ``player_results``: every
# seat of every record, joined to its record and player): counted whole, they would read them
# all on each visit of their page (1 s at a million records); counted once filtered by a column
# whose index finds its few rows
UNCOUNTED_VIEWS = {"moves": ("record_key",), "player_results": ("player", "record")}


def _counted(view: str, query: bytes) -> bool:
    """Is this query of ``view`` filtered by a column it is counted by (``col=``, ``col__exact=``)?"""
    return any(f"{column}{op}=".encode() in query for column in UNCOUNTED_VIEWS[view] for op in ("", "__exact"))


@hookimpl
def asgi_wrapper(datasette):
    """A page of a view of every record's rows (``UNCOUNTED_VIEWS``) is not counted
    (Datasette's ``_nocount``) unless it is filtered by a column its index finds rows by."""
    def wrap(app):
        async def uncounted(scope, receive, send):
            if scope.get("type") == "http":
                parts = scope.get("path", "").strip("/").split("/")
                query = scope.get("query_string", b"")
                view = parts[1].split(".")[0] if len(parts) == 2 else None
                if view in UNCOUNTED_VIEWS and not _counted(view, query):
                    scope = dict(scope, query_string=query + (b"&" if query else b"") + b"_nocount=1")
            await app(scope, receive, send)
        return uncounted
    return wrap


@hookimpl
def actor_from_request(datasette, request):
    """A program's token (``Authorization: Bearer sbk_...``; the guard let no other scheme
    through): its actor, with its scopes; or a person's sign-in cookie, while its session
    lives (``pages.signed_in_actor``: Datasette's own reading of the cookie is not loaded)."""
    auth = request.headers.get("authorization", "")
    if not auth.startswith("Bearer sbk_"):
        cookie = request.cookies.get(pages.SESSION_COOKIE)
        return pages.signed_in_actor(datasette, cookie) if cookie else None
    token = auth[len("Bearer "):]

    async def inner():
        try:
            return await read(datasette, lambda st: tokens.who(st, token))
        except (sqlite3.Error, Unavailable):  # a database from before the service, or gone: no actor (the
            return None  # view then says why: ``state.refusal``)
    return inner


@hookimpl
def permission_allowed(datasette, actor, action, resource):
    """Scorebook's actions (``state.allowed``), and the private tables: denied to everyone."""
    if action == "view-table" and isinstance(resource, (tuple, list)) and resource[1] in PRIVATE_TABLES:
        return False
    return allowed(datasette, actor, action)


@hookimpl
def skip_csrf(datasette, scope):
    """A program with a token sends no cookie a page from elsewhere could ride on (the guard
    refuses a token beside a sign-in cookie): the API's POSTs with a token need no CSRF token;
    forms always do."""
    headers = dict(scope.get("headers") or [])
    return scope.get("path", "").startswith("/-/scorebook/api/") \
        and headers.get(b"authorization", b"").startswith(b"Bearer sbk_")


@hookimpl
def handle_exception(datasette, request, exception):
    """A database that cannot be written now (``writer.Unavailable``): 503 with the reason, JSON
    on the API. A request's own fault that Datasette raises as a 500 (a sort by a column the
    table does not have) is the client's: 400, drawn by Datasette's own handler (``None``: it
    goes on)."""
    from datasette import Response
    from datasette.views.base import DatasetteError
    if isinstance(exception, Unavailable):
        if request.path.startswith("/-/scorebook/api/"):
            return Response.json({"error": str(exception)}, status=503, headers={"Retry-After": "60"})
        return Response.text(str(exception) + "\n", status=503, headers={"Retry-After": "60"})
    if isinstance(exception, DatasetteError) and exception.status == 500 \
            and str(exception.message).startswith("Cannot sort table by"):
        exception.status = 400
    return None


@hookimpl
def render_cell(value, column, table, database, datasette):
    """A record's id, wherever the tables and views show it, links to its page; an event's
    name to its standings, where it has some."""
    if column in ("id", "record", "record_id") and table in ("records", "games", "player_results", "analysed_moves",
                                                             "analysis_jobs") and isinstance(value, str):
        return Markup(f'<a href="{pages.ROUTE}{html.escape(value)}">{html.escape(value)}</a>')
    if column == "name" and table == "events" and isinstance(value, str):
        async def standings_link():  # only an event that has standings links to them
            try:
                ranked = await read(datasette, lambda st: st.event_ranked(value))
            except (sqlite3.Error, Unavailable):
                return None
            try:
                run_here = await read(datasette, lambda st: st.tournament_version(value) is not None)
            except (sqlite3.Error, Unavailable):
                run_here = False
            route = tournaments.TOURNAMENT_ROUTE if run_here else pages.STANDINGS_ROUTE
            return Markup(f'<a href="{route}?event={urllib.parse.quote(value, safe="")}">'
                          f'{html.escape(value)}</a>') if ranked else None
        return standings_link
    return None


def _authorizer(action, table, column, database, trigger):
    # a visitor's SQL (serve --sql) reads a private table's columns as NULL
    return sqlite3.SQLITE_IGNORE if action == sqlite3.SQLITE_READ and table in PRIVATE_TABLES else sqlite3.SQLITE_OK


@hookimpl
def prepare_connection(conn):
    """Every connection Datasette opens: one SQLite call cannot build a huge string, and no
    private table can be read."""
    conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_LENGTH)
    conn.set_authorizer(_authorizer)


@hookimpl
def menu_links(datasette, actor):
    from .state import service_of
    service = service_of(datasette)
    links = [{"href": pages.RATINGS_ROUTE, "label": "Ratings"},
             {"href": tournaments.TOURNAMENTS_ROUTE, "label": "Tournaments"}]
    if service.writes:
        links.append({"href": pages.SUBMIT_ROUTE, "label": "Submit a record"})
        if actor is None and service.accounts:
            links.append({"href": pages.LOGIN_ROUTE, "label": "Sign in"})
    return links
