"""The HTML pages: a record's page (its boards and latest analysis, the job that analyses it,
the buttons to ask for one or cancel it), the submit form, the ratings, the sign-in form.
Their templates are files (``templates/``) extending Datasette's own; every text from a
record is escaped by the templates or by the report's drawing code."""
from __future__ import annotations

import asyncio
import functools
import html
import sqlite3
import threading
import time
import urllib.parse
from importlib import resources

from datasette import Response
from markupsafe import Markup

from scorebook.analyze import html as report_html
from scorebook.errors import ScorebookError

from . import jobs
from .accounts import account_version, new_session_id
from .writer import Unavailable
from .state import read, reading, refusal, service_of, submission_status, submit

ROUTE = report_html.RECORD_ROUTE
SUBMIT_ROUTE = "/-/scorebook/submit"
RATINGS_ROUTE = "/-/scorebook/ratings"
STANDINGS_ROUTE = "/-/scorebook/standings"
TOURNAMENT_ROUTE = "/-/scorebook/tournament"  # a tournament run here (``service/tournaments.py``)
LOGIN_ROUTE = "/-/login"
LOGOUT_ROUTE = "/-/logout"
PAGES_CACHED = 64
SESSION_COOKIE = "ds_actor"  # Datasette's name for it: its pages show the account signed in
CSRF_COOKIE = "ds_csrftoken"  # asgi-csrf's: the sign-in form's page sets it
FAILED_SIGN_IN_DELAY = 1.0  # seconds a failed or refused sign-in waits for its answer (no thread held)


@functools.lru_cache(maxsize=None)
def _template_text(name: str) -> str:
    return resources.files("scorebook.service").joinpath("templates", name).read_text(encoding="utf-8")


_COMPILED: dict = {}


async def render(datasette, request, name: str, context: dict, status: int = 200) -> Response:
    key = (id(datasette.jinja_env), name)
    template = _COMPILED.get(key)
    if template is None:  # compiled once per server: compiling is most of a small page's cost
        template = _COMPILED[key] = datasette.jinja_env.from_string(_template_text(name))
    return Response.html(await datasette.render_template(template, context, request=request), status=status)


async def error_page(datasette, request, status: int, why: str) -> Response:
    """A refusal or a page not found, in the site's own page (its header and menu), the reason
    as text."""
    titles = {400: "Bad request", 403: "Not allowed", 404: "Not found", 405: "Method not allowed",
              413: "Too large", 429: "Too many requests"}
    return await site_page(datasette, request, titles.get(status, "Refused"), error=why, status=status)


# ---------------------------------------------------------------- a record's page

def record_parts(path: str, record_id: str) -> tuple[str, str, str]:
    """(id, title, body) of one record's page: its latest stored analysis as the report, or
    its boards alone. Drawn once and cached (a record's text never changes; a new analysis is
    a new page)."""
    row, latest = reading(path, lambda store: (store.get(record_id), store.latest_analysis(record_id)))
    return (row["id"], *_drawn(path, row["id"], latest[0] if latest else None))


def record_page(path: str, record_id: str) -> str:
    """The record's page on its own (``analyze --html``'s page)."""
    return report_html.page(*record_parts(path, record_id)[1:])


@functools.lru_cache(maxsize=PAGES_CACHED)
def _drawn(path: str, record_id: str, analysis_id: int | None) -> tuple[str, str]:
    def parts(store):
        row = store.get(record_id)
        report = store.find_analysis(row["id"], *store.analysis_key(analysis_id)) if analysis_id is not None else None
        return row, report
    row, report = reading(path, parts)
    return report_html.report_parts(row, report) if report is not None else report_html.boards_parts(row)


async def record_view(request, datasette):
    database = datasette.get_database()
    try:
        rid, title, body = await database.execute_fn(lambda conn: record_parts(database.path, request.url_vars["id"]))
        # its latest job, and the tournament table it is the result of ((event, round, table) or None)
        job, table = await read(datasette, lambda st: (jobs.latest_job(st, rid), st.tournament_of_record(rid)))
    except ScorebookError as err:
        return await error_page(datasette, request, 404, str(err))
    urls = datasette.urls
    can_analyze = await refusal(request, datasette, "analyze") is None
    can_cancel = job is not None and job["status"] in ("queued", "running") and (
        (can_analyze and request.actor.get("id") == job["actor"]) or await refusal(request, datasette, "admin") is None)
    return await render(datasette, request, "scorebook_record.html", {
        "title": title, "body": Markup(body), "css": Markup(report_html.REPORT_CSS), "database": database.name,
        "row_url": urls.table(database.name, "records") + f"?id={rid}",
        "results_url": urls.table(database.name, "player_results") + f"?record={rid}", "ratings_url": RATINGS_ROUTE,
        "job": job, "refresh": job is not None and job["status"] in ("queued", "running"),
        "can_analyze": can_analyze, "analyse_url": f"{ROUTE}{rid}/analyse",
        "can_cancel": can_cancel, "cancel_url": f"/-/scorebook/jobs/{job['job']}/cancel" if job else None,
        "table": table, "tournament_url": TOURNAMENT_ROUTE + "?" + urllib.parse.urlencode({"event": table[0]})
        if table else None})


async def analyse_form_view(request, datasette):
    """The record page's button: queue its analysis by the default bot, then back to the page
    (which shows the job until it is done). Datasette checks the form's CSRF token first."""
    if request.method != "POST":
        return Response.redirect(f"{ROUTE}{request.url_vars['id']}")
    refused = await refusal(request, datasette, "analyze")
    if refused is not None:
        return await error_page(datasette, request, *refused)
    service = service_of(datasette)
    try:
        await service.writer.run(lambda st: jobs.ask(st, request.url_vars["id"], None, 0, request.actor["id"],
                                                      max_queued=service.limits.max_queued))
    except jobs.TooManyJobs as err:
        return await error_page(datasette, request, 429, str(err))
    except ScorebookError as err:
        return await error_page(datasette, request, 404, str(err))
    return Response.redirect(f"{ROUTE}{request.url_vars['id']}")


async def cancel_form_view(request, datasette):
    """The record page's cancel button (its owner's, or an administrator's)."""
    if request.method != "POST":
        return await error_page(datasette, request, 405, "POST to cancel")
    from .api import cancel_job
    status, doc = await cancel_job(request, datasette, int(request.url_vars["job"]))
    if status != 200:
        return await error_page(datasette, request, status, doc["error"])
    return Response.redirect(f"{ROUTE}{doc['record']}")


# ---------------------------------------------------------------- the submit form

def context_lines(text: str, line: int | None, around: int = 2) -> list[tuple[int, str, bool]]:
    """The lines of a submitted text around ``line`` (1-based), each cut to 200 characters."""
    if not line:
        return []
    lines = text.split("\n")
    return [(n, lines[n - 1][:200], n == line) for n in range(max(1, line - around), min(len(lines), line + around) + 1)]


async def submit_page(request, datasette):
    """``/-/scorebook/submit``: a form to paste or load a record; its answer lists every record
    read, stored ones linked to their page, each rejection at its line and column with its code
    and reason and the lines around it."""
    service = service_of(datasette)
    refused = await refusal(request, datasette, "submit")
    why = ("This server is read-only." if not service.writes else
           "Sign in with an account that may submit records." if request.actor is None else
           f"{request.actor.get('id')} may not submit records here.")
    limit = service.limits.max_submission_bytes
    context = {"css": Markup(report_html.REPORT_CSS), "submit_route": SUBMIT_ROUTE, "record_route": ROUTE,
               "can_submit": refused is None, "why": why, "text": "", "results": None, "message": None,
               "limit": limit}
    if request.method != "POST":
        return await render(datasette, request, "scorebook_submit.html", context)
    if refused is not None:
        return await error_page(datasette, request, *refused)
    text = ((await request.post_vars()).get("text") or "").replace("\r\n", "\n")
    data = text.encode("utf-8")
    if len(data) > limit:
        return await error_page(datasette, request, 413,
                                f"a submission is at most {limit:,} bytes (max_submission_bytes): send it in parts")
    doc = await submit(service, data, f"form:{request.actor['id']}")
    results = []
    for o in doc["records"]:
        r = {"index": o["index"], "game": o.get("game"), "status": o["status"], "id": o.get("id"),
             "tournament": o.get("tournament")}  # a tournament's game: attached to its table, or why not
        if o["status"] == "rejected":
            e = o["errors"][0]
            r.update(e, id=None, context=context_lines(text, e.get("line")))
        results.append(r)
    s = doc["summary"]
    context.update(results=results, text=text if s["rejected"] else "",
                   message=f"{s['ingested']} stored, {s['duplicates']} already stored, {s['rejected']} rejected.")
    return await render(datasette, request, "scorebook_submit.html", context, submission_status(s))


# ---------------------------------------------------------------- ratings

_RATINGS_LOCK = threading.Lock()


def ratings_page(path: str, game: str | None) -> tuple[str, str]:
    """Every player's rating from the stored games (``scorebook ratings``): (title, body), drawn
    once for each state of the archive, one drawing at a time (many visitors at once cost one)."""
    with _RATINGS_LOCK:
        return _ratings_drawn(path, game, reading(path, lambda store: store.last_key()))


@functools.lru_cache(maxsize=16)
def _ratings_drawn(path: str, game: str | None, last_key: int) -> tuple[str, str]:
    from scorebook.analyze.ratings import ratings
    return report_html.ratings_parts(reading(path, lambda store: ratings(store, game)))


async def ratings_view(request, datasette):
    """The ratings, in the site's own page (its header, its menu)."""
    database = datasette.get_database()
    game = request.args.get("game") or None
    try:
        title, body = await database.execute_fn(lambda conn: ratings_page(database.path, game))
    except ScorebookError as err:
        return await site_page(datasette, request, "Ratings", error=str(err), status=404)
    return await site_page(datasette, request, title, body)


async def site_page(datasette, request, title: str, body: str = "", *, error: str | None = None,
                    status: int = 200) -> Response:
    """A page of Scorebook's in the site's own chrome (Datasette's header and menu): ``body`` is
    HTML Scorebook drew (every text of a record escaped), ``error`` text."""
    return await render(datasette, request, "scorebook_page.html",
                        {"title": title, "body": Markup(body), "error": error, "css": Markup(report_html.REPORT_CSS)},
                        status)


# ---------------------------------------------------------------- standings

MAX_EVENT_NAME = 200  # characters: an event's name in the query, at most


def standings_page(path: str, event: str) -> str:
    """A stored event's standings (``scorebook standings EVENT``), each match in the crosstable
    a link to its record's page; drawn once for each state of the archive."""
    return _standings_drawn(path, event, reading(path, lambda store: store.last_key()))


@functools.lru_cache(maxsize=16)
def _standings_drawn(path: str, event: str, last_key: int) -> str:
    from scorebook.analyze.standings import standings_from_store
    from scorebook.tournaments import director, html as tournament_html
    planned = reading(path, lambda store: director.page_doc(store, event)
                      if store.planned_tournament(event) is not None else None)
    if planned is not None:  # a tournament run here: its rounds, each result a link to its record
        return tournament_html.render(planned, ROUTE)
    links: dict = {}
    doc = reading(path, lambda store: standings_from_store(store, event, links))
    return report_html.render_standings(doc, ROUTE, links)


async def standings_view(request, datasette):
    event = request.args.get("event") or ""
    if not event or len(event) > MAX_EVENT_NAME:
        return await error_page(datasette, request, 400,
                                f"name the event: {STANDINGS_ROUTE}?event=NAME ({MAX_EVENT_NAME} characters at most)")
    database = datasette.get_database()
    try:
        page = await database.execute_fn(lambda conn: standings_page(database.path, event))
    except ScorebookError as err:
        return await error_page(datasette, request, 404, str(err))
    return Response.html(page)


# ---------------------------------------------------------------- sign-in

async def login_view(request, datasette):
    """``/-/login``: an account's name and password (the accounts file); its answer a signed
    cookie naming a session of the store (``sessions``), which ends at its expiry, at sign-out,
    and when the account's password changes or the account goes. Limited as ``accounts``
    says: a 429 costs the server nothing. Only from this page's own form: a sign-in posted
    without the form's CSRF cookie (from another site, into the attacker's account) is 403."""
    service = service_of(datasette)
    context = {"login_route": LOGIN_ROUTE, "has_accounts": bool(service.accounts) and service.writes, "error": None,
               "username": ""}
    if request.method != "POST":
        return await render(datasette, request, "scorebook_login.html", context)
    if not context["has_accounts"]:
        return await error_page(datasette, request, 403, "no one signs in here: this server takes no accounts")
    if CSRF_COOKIE not in request.cookies:
        context["error"] = "Sign in with this page's form (a sign-in sent from elsewhere is refused)."
        return await render(datasette, request, "scorebook_login.html", context, 403)
    form = await request.post_vars()
    name, password = (form.get("username") or "")[:64], (form.get("password") or "")[:1024]
    context["username"] = name
    address = (request.scope.get("client") or ("?",))[0]
    keys = service.attempts.keys(address, name)
    wait = service.attempts.begin(*keys)  # counted before the check: sign-ins sent at once cannot pass the limit
    if wait:  # answered late and without drawing the page: a guesser's loop gets nothing, slowly
        await asyncio.sleep(FAILED_SIGN_IN_DELAY)
        return Response.text(f"Too many failed sign-ins: try again in {wait} s.\n", status=429,
                             headers={"Retry-After": str(wait)})
    try:
        stored = service.accounts.hash_of(name)
    except ScorebookError:
        stored = None
    ok = await service.checker.check(password, stored)
    if ok is None:
        service.attempts.succeeded(*keys)  # not checked: not a failure
        context["error"] = "The server is busy signing others in: try again in a moment."
        return await render(datasette, request, "scorebook_login.html", context, 503)
    if not ok:
        await asyncio.sleep(FAILED_SIGN_IN_DELAY)
        context["error"] = "Wrong account or password."
        return await render(datasette, request, "scorebook_login.html", context, 401)
    service.attempts.succeeded(*keys)
    session, seconds = new_session_id(), service.limits.session_seconds
    await service.writer.run(lambda st: st.add_session(session, name, time.time() + seconds))
    response = Response.redirect(datasette.urls.path("/"))
    response.set_cookie(SESSION_COOKIE, datasette.sign({"a": {"id": name}, "s": session, "v": account_version(stored)},
                                                       "actor"),
                        max_age=seconds, httponly=True, samesite="lax", secure=behind_tls(request))
    return response


def behind_tls(request) -> bool:
    """Whether the browser reached this server over TLS (here, or at the proxy in front)."""
    return request.scheme == "https" or request.headers.get("x-forwarded-proto", "").lower() == "https"


async def logout_view(request, datasette):
    """``/-/logout``: signs out: the session the cookie names ends in the store (the cookie,
    kept or copied, signs in no more), and the cookie is cleared."""
    if request.method != "POST":
        return await render(datasette, request, "scorebook_logout.html", {"actor": request.actor})
    session = session_of(datasette, request.cookies.get(SESSION_COOKIE))
    service = service_of(datasette)
    if session and service.writer is not None:
        await service.writer.run(lambda st: st.end_session(session[1]))
    response = Response.redirect(datasette.urls.path("/"))
    response.set_cookie(SESSION_COOKIE, "", max_age=0, expires=0, httponly=True, samesite="lax",
                        secure=behind_tls(request))
    return response


def session_of(datasette, cookie: str | None) -> tuple[str, str, str] | None:
    """(account, session id, account version) a sign-in cookie names, where this server signed it."""
    if not cookie:
        return None
    try:
        decoded = datasette.unsign(cookie, "actor")
    except Exception:  # noqa: BLE001 - a forged, stale or garbled cookie names nothing
        return None
    if not isinstance(decoded, dict) or not isinstance(decoded.get("a"), dict):
        return None
    name, session, version = decoded["a"].get("id"), decoded.get("s"), decoded.get("v")
    if not all(isinstance(v, str) for v in (name, session, version)):
        return None
    return name, session, version


async def signed_in_actor(datasette, cookie: str) -> dict | None:
    """The account a sign-in cookie stands for, while its session lives: not signed out, not
    expired, the account's password the one it signed in with."""
    found = session_of(datasette, cookie)
    if found is None:
        return None
    name, session, version = found
    service = service_of(datasette)
    try:
        if not service.accounts or account_version(service.accounts.hash_of(name)) != version:
            return None
        live = await read(datasette, lambda st: st.live_session(session, time.time()))
    except (ScorebookError, sqlite3.Error, Unavailable):
        return None
    return {"id": name} if live == name else None
