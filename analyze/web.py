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
from datasette.utils import actor_matches_allow
from markupsafe import Markup

from scorebook.errors import NotFound, ScorebookError
from scorebook.records import tokens
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
{% block extra_head %}<style>{{ css }}</style>{% if refresh %}<meta http-equiv="refresh" content="3">{% endif %}{% endblock %}
{% block content %}
<h1>{{ title }}</h1>
<p class="scorebook-links">This record's row in <a href="{{ row_url }}">{{ database }} / records</a>;
each seat's result in <a href="{{ results_url }}">player_results</a>; <a href="{{ ratings_url }}">ratings</a>.</p>
{% if job %}<p id="job" class="job-{{ job.status }}">Analysis {{ job.status }}{% if job.progress %}: move {{ job.progress.moves }}
of {{ job.progress.of }}{% endif %}{% if job.error %}: {{ job.error }}{% endif %} ({{ job.bot }}, seed {{ job.seed }}).</p>{% endif %}
{% if can_analyze %}<form method="post" action="{{ analyse_url }}" id="analyse"><input type="hidden" name="csrftoken"
value="{{ csrftoken() }}"><button type="submit">Analyse with the default bot</button></form>{% endif %}
<div class="scorebook-report">{{ body }}</div>
{% endblock %}"""


def _latest_job(path: str, record_id: str) -> dict | None:
    """The newest analysis job of a record, if the database has a queue (``jobs.latest_job``)."""
    from .jobs import latest_job
    with Store(path, write=False) as store:
        try:
            return latest_job(store, record_id)
        except sqlite3.Error:  # a database from before the service: no queue
            return None


async def _record_view(request, datasette):
    database = datasette.get_database()
    try:
        rid, title, body = await database.execute_fn(lambda conn: record_parts(database.path, request.url_vars["id"]))
        job = await database.execute_fn(lambda conn: _latest_job(database.path, rid))
    except ScorebookError as err:
        return Response.html(f"<p>{html.escape(str(err))}</p>", status=404)
    urls = datasette.urls
    can_analyze = await _refusal(request, datasette, "analyze") is None
    context = {"title": title, "body": Markup(body), "css": Markup(report_html.REPORT_CSS), "database": database.name,
               "row_url": urls.table(database.name, "records") + f"?id={rid}",
               "results_url": urls.table(database.name, "player_results") + f"?record={rid}", "ratings_url": RATINGS_ROUTE,
               "job": job, "refresh": job is not None and job["status"] in ("queued", "running"),
               "can_analyze": can_analyze, "analyse_url": f"{ROUTE}{rid}/analyse"}
    template = datasette.jinja_env.from_string(RECORD_TEMPLATE)
    return Response.html(await datasette.render_template(template, context, request=request))


async def _analyse_form_view(request, datasette):
    """The record page's button: queue its analysis by the default bot, then back to the page
    (which shows the job until it is done). Datasette checks the form's CSRF token first."""
    if request.method != "POST":
        return Response.redirect(f"{ROUTE}{request.url_vars['id']}")
    refused = await _refusal(request, datasette, "analyze")
    if refused is not None:
        return Response.html(f"<p>{html.escape(refused[1])}</p>", status=refused[0])
    from .jobs import MAX_QUEUED, TooManyJobs, ask
    limit = int(_settings(datasette).get("max_queued", MAX_QUEUED))

    def work():
        with _write_store(datasette) as store:
            return ask(store, request.url_vars["id"], None, 0, request.actor.get("id"), max_queued=limit)
    try:
        await asyncio.get_running_loop().run_in_executor(None, work)
    except (TooManyJobs, ScorebookError) as err:
        return Response.html(f"<p>{html.escape(str(err))}</p>", status=429 if isinstance(err, TooManyJobs) else 404)
    return Response.redirect(f"{ROUTE}{request.url_vars['id']}")


SUBMIT_ROUTE = "/-/scorebook/submit"
SUBMIT_TEMPLATE = """{% extends "base.html" %}
{% block title %}Submit a record{% endblock %}
{% block extra_head %}<style>{{ css }} textarea{width:100%;max-width:900px;font-family:monospace}
.rejected{background:#fdd}.context{font-family:monospace;white-space:pre;background:#f8f8f8;padding:6px}
.context .at{background:#ffe066}</style>{% endblock %}
{% block content %}
<h1>Submit a record</h1>
{% if message %}<p class="message">{{ message }}</p>{% endif %}
{% if results %}<h2>What was read</h2><table id="results"><tr><th>record</th><th>game</th><th>status</th><th>where</th></tr>
{% for r in results %}<tr class="{{ r.status }}"><td>{{ r.index }}</td><td>{{ r.game or "-" }}</td><td>{{ r.status }}</td>
<td>{% if r.id %}<a href="{{ record_route }}{{ r.id }}">{{ r.id }}</a>{% else %}line {{ r.line or "-" }}, column {{ r.column or "-" }},
ply {{ r.ply or "-" }}, token {{ r.token or "-" }}: <b>{{ r.code }}</b>: {{ r.message }}
{% if r.context %}<div class="context">{% for n, text, at in r.context %}<span{% if at %} class="at"{% endif %}>{{ "%5d" % n }}  {{ text }}</span>
{% endfor %}</div>{% endif %}{% endif %}</td></tr>{% endfor %}</table>{% endif %}
{% if can_submit %}
<form method="post" action="{{ submit_route }}" id="submit">
<input type="hidden" name="csrftoken" value="{{ csrftoken() }}">
<p>Paste a record in any format <code>scorebook ingest</code> reads (Scorebook notation, TinyBot lines, an Iwoki
log), or choose a file: it is read here, in the page, into the box.</p>
<p><input type="file" id="file" accept=".pgn,.txt,.jsonl,.json"></p>
<p><textarea name="text" rows="16" id="text">{{ text }}</textarea></p>
<p><button type="submit">Submit</button></p>
</form>
<script>
document.getElementById("file").addEventListener("change", function (e) {
  var f = e.target.files[0];
  if (!f) { return; }
  var reader = new FileReader();
  reader.onload = function () { document.getElementById("text").value = reader.result; };
  reader.readAsText(f);
});
</script>
{% else %}<p>{{ why }}</p>{% endif %}
{% endblock %}"""
SUBMIT_FORM_LIMIT = 4 * 1024 * 1024  # a form's text: a pasted record or a few, far below a file's limit


def _context_lines(text: str, line: int | None, around: int = 2) -> list[tuple[int, str, bool]]:
    """The lines of a submitted text around ``line`` (1-based), each cut to 200 characters."""
    if not line:
        return []
    lines = text.split("\n")
    return [(n, lines[n - 1][:200], n == line) for n in range(max(1, line - around), min(len(lines), line + around) + 1)]


async def _submit_page(request, datasette):
    """``/-/scorebook/submit``: a form to paste or load a record; its answer lists every record
    read, stored ones linked to their page, each rejection at its line and column with its code
    and reason and the lines around it."""
    refused = await _refusal(request, datasette, "submit")
    why = ("This server is read-only." if not _settings(datasette).get("writes") else
           "Log in with an account that may submit records." if request.actor is None else
           f"{request.actor.get('id')} may not submit records here.")
    context = {"css": Markup(report_html.REPORT_CSS), "submit_route": SUBMIT_ROUTE, "record_route": ROUTE,
               "can_submit": refused is None, "why": why, "text": "", "results": None, "message": None}
    status = 200
    if request.method == "POST":
        if refused is not None:
            return Response.html(f"<p>{html.escape(refused[1])}</p>", status=refused[0])
        from urllib.parse import parse_qs
        from scorebook.records.ingest import document, ingest_bytes
        data = await _body(request, SUBMIT_FORM_LIMIT)
        if data is None:
            return Response.html(f"<p>A form takes at most {SUBMIT_FORM_LIMIT:,} bytes: use the HTTP API for more.</p>",
                                 status=413)
        text = (parse_qs(data.decode("utf-8", "replace")).get("text") or [""])[0].replace("\r\n", "\n")

        def work():
            with _write_store(datasette) as store:
                return document(ingest_bytes(store, text.encode("utf-8"), f"form:{request.actor.get('id')}"))
        doc = await asyncio.get_running_loop().run_in_executor(None, work)
        results = []
        for o in doc["records"]:
            r = {"index": o["index"], "game": o.get("game"), "status": o["status"], "id": o.get("id")}
            if o["status"] == "rejected":
                e = o["errors"][0]
                r.update(e, id=None, context=_context_lines(text, e.get("line")))
            results.append(r)
        s = doc["summary"]
        context.update(results=results, text=text if s["rejected"] else "",
                       message=f"{s['ingested']} stored, {s['duplicates']} already stored, {s['rejected']} rejected.")
        status = 201 if s["ingested"] else 200 if not s["rejected"] else 422
    template = datasette.jinja_env.from_string(SUBMIT_TEMPLATE)
    return Response.html(await datasette.render_template(template, context, request=request), status=status)


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


# ---------------------------------------------------------------- the HTTP API (writes)

API = "/-/scorebook/api/"
ACTIONS = {"submit": "scorebook-submit", "analyze": "scorebook-analyze"}


def _json(doc: dict, status: int = 200) -> Response:
    return Response.json(doc, status=status)


def _settings(datasette) -> dict:
    return datasette.plugin_config("scorebook") or {}


async def _refusal(request, datasette, what: str) -> tuple[int, str] | None:
    """None when the request may ``what`` (submit, analyze), else (status, why): 403 where the
    server takes no writes or the actor lacks the permission, 401 without a credential."""
    if not _settings(datasette).get("writes"):
        return 403, "this server is read-only (scorebook serve --writes)"
    if request.actor is None:
        return 401, "a credential is needed: Authorization: Bearer TOKEN (scorebook token create), or an account"
    if not await datasette.permission_allowed(request.actor, ACTIONS[what], default=False):
        return 403, f"{request.actor.get('id')} may not {what} here"
    return None


async def _allowed(request, datasette, what: str):
    """``_refusal`` as the HTTP API answers it (JSON), or None."""
    refused = await _refusal(request, datasette, what)
    return None if refused is None else _json({"error": refused[1]}, refused[0])


async def _body(request, limit: int):
    """The request's body, read up to ``limit`` bytes; None when it is longer."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        return None
    chunks, size = [], 0
    while True:
        message = await request.receive()
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
        if not message.get("more_body"):
            return b"".join(chunks)


def _write_store(datasette):
    return Store(datasette.get_database().path)


async def _submit_view(request, datasette):
    """``POST /-/scorebook/api/records``: the body is a record text in any format ``ingest``
    reads; the answer is ``ingest --json``'s document: 201 when a record was stored, 200 when
    every one was a duplicate, 422 when none was stored and one was rejected."""
    if request.method != "POST":
        return _json({"error": "POST a record's text"}, 405)
    refused = await _allowed(request, datasette, "submit")
    if refused is not None:
        return refused
    from scorebook.records.ingest import document, ingest_bytes
    from scorebook.records.limits import MAX_FILE_BYTES
    data = await _body(request, MAX_FILE_BYTES)
    if data is None:
        return _json({"error": f"a submission is at most {MAX_FILE_BYTES:,} bytes"}, 413)
    source = f"http:{request.actor.get('id')}"

    def work():
        with _write_store(datasette) as store:
            return document(ingest_bytes(store, data, source))
    try:
        doc = await asyncio.get_running_loop().run_in_executor(None, work)
    except ScorebookError as err:
        return _json({"error": str(err)}, 503)
    s = doc["summary"]
    status = 201 if s["ingested"] else 200 if not s["rejected"] else 422
    return _json(doc, status)


async def _analyses_view(request, datasette):
    """``POST /-/scorebook/api/records/<id>/analyses`` (optional JSON ``{"bot", "seed"}``):
    202 and the job, queued (200 when it was asked before or is stored already)."""
    if request.method != "POST":
        return _json({"error": "POST to ask for an analysis"}, 405)
    refused = await _allowed(request, datasette, "analyze")
    if refused is not None:
        return refused
    from .jobs import MAX_QUEUED, TooManyJobs, ask
    data = await _body(request, 4096)
    try:
        asked = json.loads(data or b"{}") if data is not None else None
    except ValueError:
        asked = None
    if not isinstance(asked, dict) or not set(asked) <= {"bot", "seed"} \
            or not isinstance(asked.get("bot", ""), str) or type(asked.get("seed", 0)) is not int \
            or not 0 <= asked.get("seed", 0) < 10 ** 9:
        return _json({"error": 'the body is JSON: {"bot": "KEY:N,...", "seed": N}, both optional'}, 400)
    limit = int(_settings(datasette).get("max_queued", MAX_QUEUED))

    def work():
        with _write_store(datasette) as store:
            return ask(store, request.url_vars["id"], asked.get("bot") or None, asked.get("seed", 0),
                       request.actor.get("id"), max_queued=limit)
    try:
        job, new = await asyncio.get_running_loop().run_in_executor(None, work)
    except TooManyJobs as err:
        return _json({"error": str(err)}, 429)
    except NotFound as err:
        return _json({"error": str(err)}, 404)
    except ScorebookError as err:
        return _json({"error": str(err)}, 400)
    return _json(job, 202 if new and job["status"] == "queued" else 200)


async def _job_view(request, datasette):
    """``GET /-/scorebook/api/jobs/<job>``: queued, running (moves done of all), done, failed."""
    from .jobs import job
    database = datasette.get_database()
    try:
        doc = await database.execute_fn(lambda conn: _reading(database.path, lambda st: job(st, int(request.url_vars["job"]))))
    except NotFound as err:
        return _json({"error": str(err)}, 404)
    return _json(doc)


async def _analysis_view(request, datasette):
    """``GET /-/scorebook/api/records/<id>/analysis``: the latest stored analysis, the
    document ``analyze --json`` prints; 404 before there is one."""
    from .jobs import latest_report
    database = datasette.get_database()
    try:
        doc = await database.execute_fn(lambda conn: _reading(database.path,
                                                              lambda st: latest_report(st, request.url_vars["id"])))
    except NotFound as err:
        return _json({"error": str(err)}, 404)
    if doc is None:
        return _json({"error": f"record {request.url_vars['id']} has no analysis yet"}, 404)
    return _json(doc)


def _reading(path: str, fn):
    with Store(path, write=False) as store:
        return fn(store)


@hookimpl
def actor_from_request(datasette, request):
    """A program's token (``Authorization: Bearer sbk_...``): its actor and permissions."""
    auth = request.headers.get("authorization", "")
    if not auth.startswith("Bearer sbk_"):
        return None
    token = auth[len("Bearer "):]

    async def inner():
        database = datasette.get_database()

        def look(conn):
            try:
                return tokens.who(conn, token)
            except sqlite3.Error:  # a database from before the service: no tokens
                return None
        return await database.execute_fn(look)
    return inner


@hookimpl
def permission_allowed(datasette, actor, action, resource):
    """Submitting and asking for analyses: what a token grants, or who the server's
    configuration allows (``{"scorebook": {"submit": {"id": ["alice"]}}}``, Datasette's allow
    blocks). Nothing else is decided here."""
    if action not in ACTIONS.values():
        return None
    what = action.removeprefix("scorebook-")
    if actor and what in (actor.get("scorebook") or []) and actor.get("token"):
        return True
    allow = _settings(datasette).get(what)
    return bool(allow is not None and actor is not None and actor_matches_allow(actor, allow))


@hookimpl
def skip_csrf(datasette, scope):
    """A program with a token sends no cookie a page from elsewhere could ride on: the API's
    POSTs with ``Authorization: Bearer`` need no CSRF token; forms always do."""
    headers = dict(scope.get("headers") or [])
    return scope.get("path", "").startswith(API) and headers.get(b"authorization", b"").startswith(b"Bearer sbk_") \
        and b"cookie" not in headers


@hookimpl
def register_routes():
    return [(ROUTE.replace("/", r"\/") + r"(?P<id>[0-9a-f]{1,64})$", _record_view),
            (RATINGS_ROUTE.replace("/", r"\/") + "$", _ratings_view),
            (ROUTE.replace("/", r"\/") + r"(?P<id>[0-9a-f]{1,64})/analyse$", _analyse_form_view),
            (SUBMIT_ROUTE.replace("/", r"\/") + "$", _submit_page),
            (r"^/-/scorebook/api/records$", _submit_view),
            (r"^/-/scorebook/api/records/(?P<id>[0-9a-f]{1,64})/analyses$", _analyses_view),
            (r"^/-/scorebook/api/records/(?P<id>[0-9a-f]{1,64})/analysis$", _analysis_view),
            (r"^/-/scorebook/api/jobs/(?P<job>[0-9]{1,12})$", _job_view)]


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


def metadata(path: str, allow_sql: bool, *, writes: bool = False, config: dict | None = None) -> dict:
    """Scorebook's Datasette metadata for the database at ``path`` (kept in memory, no file):
    its tables described, SQL off unless asked for, and the plugin's settings: whether it takes
    writes, who may submit and analyze (``config``'s "scorebook"), other plugins' ("plugins")."""
    from importlib import resources
    meta = json.loads(resources.files("scorebook.records").joinpath("metadata.json").read_text())
    name = os.path.splitext(os.path.basename(path))[0]
    meta["databases"] = {name: meta["databases"]["scorebook"]}
    if not allow_sql:
        meta["allow_sql"] = False
    config = config or {}
    meta["plugins"] = dict(config.get("plugins", {}), scorebook=dict(config.get("scorebook", {}), writes=writes))
    return meta


def port_free(host: str, port: int) -> bool:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family) as s:
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True


def serve(path: str, host: str, port: int, *, allow_sql: bool = False, writes: bool = False,
          config: dict | None = None, on_start=None, executor: str = "local", scheduler: str | None = None) -> None:
    """Serve the database until the process is stopped (``on_start(url)`` first): read-only,
    or with ``writes`` the HTTP API's submissions and analysis requests, the queue worked by
    a thread of this process (its jobs run here, or on a Dask cluster: ``executor``)."""
    import uvicorn
    from datasette.app import Datasette
    settings = {"truncate_cells_html": 120, "allow_csv_stream": False, "allow_download": False,
                "sql_time_limit_ms": 1000, "max_returned_rows": 1000}
    # a secret that outlives a restart (DATASETTE_SECRET) keeps accounts signed in
    ds = Datasette([path], metadata=metadata(path, allow_sql, writes=writes, config=config), settings=settings,
                   secret=os.environ.get("DATASETTE_SECRET") or None)
    if writes:
        from .jobs import Worker
        Worker(path, executor=executor, scheduler=scheduler).start()
    asyncio.run(ds.invoke_startup())
    app = ds.app()
    if is_loopback(host):
        app = HostCheck(app)
    if on_start:
        on_start(f"http://{host if ':' not in host else f'[{host}]'}:{port}/")
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="off")
    uvicorn.Server(config).run()
