"""Tournaments online: the pages a room full of players reads (every tournament run here, a
tournament's standings, rounds and a player's line, refreshed by a light poll while a round is
open) and what a director does from a browser (forms) or a program (JSON), with the
``tournament`` permission. Every write is one library call (``tournaments.director``) on the
server's one writer, so two directors pairing at once make one round.

| request | answers |
|---|---|
| GET /-/scorebook/tournaments | the tournaments run here (a director: the create form) |
| GET /-/scorebook/tournament?event=E[&player=P] | its standings, accuracy, rounds (a director: forms) |
| POST /-/scorebook/tournament/act | a director's form (CSRF-checked), back to the page |
| GET /-/scorebook/api/tournaments?event=E | the tournament and its standings (JSON) |
| GET /-/scorebook/api/tournaments/version?event=E | what the page's poll compares |
| POST /-/scorebook/api/tournaments | a director's JSON ``{"action": ..., "event": ...}`` |
"""
from __future__ import annotations

import functools
import urllib.parse
from typing import Literal

from datasette import Response
from markupsafe import Markup
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from scorebook.errors import NotFound, ScorebookError, UsageError
from scorebook.tournaments import director, html as tournament_html

from . import jobs
from .guard import TOURNAMENT_PATHS
from .pages import ROUTE, TOURNAMENT_ROUTE, error_page, site_page
from .state import read, reading, refusal, service_of

TOURNAMENTS_ROUTE = "/-/scorebook/tournaments"
API_ROUTE, ACT_ROUTE = TOURNAMENT_PATHS  # the guard bounds their bodies
VERSION_ROUTE = "/-/scorebook/api/tournaments/version"
POLL_SECONDS = 15  # a page of a round in play asks this often whether anything changed
MAX_EVENT = 200


class Act(BaseModel):
    """What a director asks: every field bounded, anything unknown refused."""
    model_config = ConfigDict(extra="forbid")
    action: Literal["create", "join", "withdraw", "absent", "pair", "result", "analyse"]
    event: str = Field(min_length=1, max_length=MAX_EVENT)
    game: str | None = Field(None, max_length=40)
    format: str | None = Field(None, max_length=40)
    rounds: int | None = Field(None, ge=1, le=director.MAX_ROUNDS)
    table_size: int | None = Field(None, ge=3, le=8)
    names: list[str] = Field(default_factory=list, max_length=500)
    name: str | None = Field(None, max_length=100)
    rating: int | None = Field(None, ge=0, le=9999)
    round: int | None = Field(None, ge=1, le=director.MAX_ROUNDS)
    table: int | None = Field(None, ge=1, le=director.MAX_ENTRANTS)
    result: str | None = Field(None, max_length=100)
    replace: bool = False
    force: bool = False
    bot: str | None = Field(None, max_length=200)


def act(store, ask: Act, actor: str, max_queued: int) -> tuple[int, dict]:
    """(status, answer) of a director's ask, on the writer."""
    e = ask.event
    if ask.action == "create":
        if not ask.game:
            raise UsageError("create names its game")
        t = director.create(store, e, ask.game, ask.format or None, rounds=ask.rounds, table_size=ask.table_size)
        return 201, director.show(store, t.event)
    if ask.action == "join":
        names = [n for n in ask.names or ([ask.name] if ask.name else []) if n.strip()]
        if not names:
            raise UsageError("join names its players")
        director.join(store, e, names, ask.rating)
    elif ask.action in ("withdraw", "absent"):
        if not ask.name:
            raise UsageError(f"{ask.action} names its player")
        if ask.action == "absent" or ask.round:
            if not ask.round:
                raise UsageError("absent names its round")
            director.absent(store, e, ask.name, ask.round)
        else:
            director.withdraw(store, e, ask.name)
    elif ask.action == "pair":
        return 200, director.pair(store, e, force=ask.force)
    elif ask.action == "result":
        if not (ask.round and ask.table and ask.result):
            raise UsageError("result names its round, table and result")
        director.result(store, e, ask.round, ask.table, ask.result, replace=ask.replace)
    elif ask.action == "analyse":
        return 202, analyse_round(store, e, ask.round, ask.bot, actor, max_queued)
    return 200, director.show(store, e)


def analyse_round(store, event: str, round_: int | None, bot: str | None, actor: str, max_queued: int) -> dict:
    """Queue the analysis of every record of a round (the last paired by default): the service's
    own jobs, bounded by the round's records."""
    t = director.load(store, event)
    r = round_ or t.paired_rounds
    records = [x.record for x in t.round_tables(r) if x.record]
    if not records:
        raise UsageError(f"{event}: round {r} has no record to analyse yet")
    queued = [jobs.ask(store, rid, bot, 0, actor, max_queued=max_queued + len(records))[0] for rid in records]
    return {"round": r, "jobs": queued}


async def _act(request, datasette, ask: Act) -> tuple[int, dict]:
    service = service_of(datasette)
    try:
        return await service.writer.run(lambda st: act(st, ask, request.actor["id"], service.limits.max_queued))
    except jobs.TooManyJobs as err:
        return 429, {"error": str(err)}
    except NotFound as err:
        return 404, {"error": str(err)}
    except UsageError as err:
        return 400, {"error": str(err)}


# ---------------------------------------------------------------- JSON


async def api_view(request, datasette):
    """GET: the tournament (``tournament show --json``) and its standings; POST: a director's ask."""
    if request.method == "GET":
        event = request.args.get("event") or ""
        if not 0 < len(event) <= MAX_EVENT:
            return Response.json({"error": f"name the event: ?event=NAME ({MAX_EVENT} characters at most)"}, status=400)
        try:
            doc = await read(datasette, lambda st: director.page_doc(st, event))
        except ScorebookError as err:
            return Response.json({"error": str(err)}, status=404)
        return Response.json(doc)
    if request.method != "POST":
        return Response.json({"error": "GET or POST"}, status=405)
    refused = await refusal(request, datasette, "tournament")
    if refused is not None:
        return Response.json({"error": refused[1]}, status=refused[0])
    try:
        ask = Act.model_validate_json(await request.post_body() or b"{}")
    except ValidationError as err:
        e = err.errors()[0]
        return Response.json({"error": f"{'.'.join(str(p) for p in e['loc']) or 'body'}: {e['msg']}"}, status=400)
    status, doc = await _act(request, datasette, ask)
    return Response.json(doc, status=status)


async def version_view(request, datasette):
    event = request.args.get("event") or ""
    if not 0 < len(event) <= MAX_EVENT:
        return Response.json({"error": "name the event"}, status=400)
    version = await read(datasette, lambda st: st.tournament_version(event))
    if version is None:
        return Response.json({"error": f"no tournament named {event!r}"}, status=404)
    return Response.json({"version": version})


# ---------------------------------------------------------------- pages


def _page_url(event: str, **more) -> str:
    return TOURNAMENT_ROUTE + "?" + urllib.parse.urlencode({"event": event, **more})


def page_body(path: str, event: str, player: str | None) -> tuple[str, str, bool, int]:
    """(version, the page's body, whether a round is open, the rounds paired), drawn once for
    each version."""
    version = reading(path, lambda st: st.tournament_version(event))
    if version is None:
        raise NotFound(f"no tournament named {event!r} here")
    return (version, *_drawn(path, event, player, version))


@functools.lru_cache(maxsize=64)
def _drawn(path: str, event: str, player: str | None, version: str) -> tuple[str, bool, int]:
    doc = reading(path, lambda st: director.page_doc(st, event))
    if player is not None and player not in {e["name"] for e in doc["tournament"]["entrants"]}:
        raise NotFound(f"{event}: no player named {player!r}")
    player_url = _page_url(event) + "&player="
    shown = doc["tournament"]
    return tournament_html.body(doc, ROUTE, player_url, player), not shown["finished"], shown["paired"]


POLL_SCRIPT = """<script>
(function () {
  var box = document.getElementById("tournament");
  if (!box || box.dataset.open !== "1") { return; }
  var version = box.dataset.version;
  function tick() {
    fetch(box.dataset.poll, {credentials: "same-origin"}).then(function (r) { return r.json(); })
      .then(function (d) {
        if (!d.version || d.version === version) { return; }
        version = d.version;
        return fetch(box.dataset.fragment, {credentials: "same-origin"}).then(function (r) { return r.text(); })
          .then(function (t) { box.innerHTML = t; });
      })
      .catch(function () {})
      .then(function () { setTimeout(tick, %d); });
  }
  setTimeout(tick, %d);
})();
</script>""" % (POLL_SECONDS * 1000, POLL_SECONDS * 1000)


def _attr(value: str) -> str:
    return Markup.escape(value)


def director_forms(event: str, csrftoken: str, round_: int) -> str:
    """The director's forms under the page: pair, a result, players in and out, a round analysed."""
    def form(action: str, fields: str, button: str) -> str:
        return (f"<form method='post' action='{ACT_ROUTE}' class='director'>"
                f"<input type='hidden' name='csrftoken' value='{_attr(csrftoken)}'>"
                f"<input type='hidden' name='action' value='{action}'>"
                f"<input type='hidden' name='event' value='{_attr(event)}'>{fields} <button type='submit'>{button}</button></form>")
    return ("<h2>Direct this tournament</h2>"
            + form("pair", "<label><input type='checkbox' name='force' value='1'> though tables are open</label>",
                   "Pair the next round")
            + form("result", f"<label>round <input name='round' size='3' value='{round_ or ''}'></label> "
                   "<label>table <input name='table' size='3'></label> <label>result <input name='result' size='8' "
                   "placeholder='1-0, +-, 1,2,3'></label> <label><input type='checkbox' name='replace' value='1'> "
                   "replace</label>", "Enter the result")
            + form("join", "<label>players <input name='names' placeholder='Ada, Bob'></label> "
                   "<label>rating <input name='rating' size='5'></label>", "Add")
            + form("withdraw", "<label>player <input name='name'></label> <label>only round "
                   "<input name='round' size='3'></label>", "Withdraw")
            + form("analyse", f"<label>round <input name='round' size='3' value='{round_ or ''}'></label>",
                   "Analyse every game of the round"))


async def tournament_view(request, datasette):
    event = request.args.get("event") or ""
    player = request.args.get("player") or None
    if not 0 < len(event) <= MAX_EVENT or (player and len(player) > 100):
        return await error_page(datasette, request, 400,
                                f"name the event: {TOURNAMENT_ROUTE}?event=NAME ({MAX_EVENT} characters at most)")
    database = datasette.get_database()
    try:
        version, body, open_, paired = await database.execute_fn(lambda conn: page_body(database.path, event, player))
    except ScorebookError as err:
        return await error_page(datasette, request, 404, str(err))
    fragment_url = _page_url(event, **({"player": player} if player else {}), fragment="1")
    if request.args.get("fragment"):
        return Response.html(body)
    box = (f"<div id='tournament' data-version='{_attr(version)}' data-open='{1 if open_ else 0}' "
           f"data-poll='{_attr(VERSION_ROUTE + '?' + urllib.parse.urlencode({'event': event}))}' "
           f"data-fragment='{_attr(fragment_url)}'>{body}</div>")
    more = ""
    if await refusal(request, datasette, "tournament") is None:
        more = director_forms(event, request.scope.get("csrftoken", lambda: "")(), paired)
    back = f"<p><a href='{_attr(_page_url(event))}'>the whole tournament</a></p>" if player else ""
    title = f"{event}: {player}" if player else event
    return await site_page(datasette, request, title,
                           f"<style>{tournament_html.EXTRA_CSS}</style>" + back + box + more + POLL_SCRIPT)


async def tournaments_view(request, datasette):
    rows = await read(datasette, lambda st: st.planned_list())
    lines = "".join(f"<tr><td><a href='{_attr(_page_url(r['event']))}'>{_attr(r['event'])}</a></td>"
                    f"<td>{_attr(r['game'])}</td><td>{_attr(r['format'])}</td><td>{r['players']}</td>"
                    f"<td>{r['paired']} of {r['rounds'] or '?'}</td></tr>" for r in rows)
    body = f"<style>{tournament_html.EXTRA_CSS}</style>" + (
        "<div class='scroll'><table id='tournaments'><tr><th>tournament</th><th>game</th><th>format</th>"
        f"<th>players</th><th>rounds paired</th></tr>{lines}</table></div>" if rows
        else "<p>No tournament is run here yet.</p>")
    if await refusal(request, datasette, "tournament") is None:
        token = _attr(request.scope.get("csrftoken", lambda: "")())
        body += (f"<h2>A new tournament</h2><form method='post' action='{ACT_ROUTE}' class='director'>"
                 f"<input type='hidden' name='csrftoken' value='{token}'><input type='hidden' name='action' "
                 "value='create'><label>name <input name='event'></label> <label>game <input name='game' "
                 "placeholder='iwoki'></label> <label>format <input name='format' placeholder='swiss'></label> "
                 "<label>rounds <input name='rounds' size='3'></label> <label>table size <input name='table_size' "
                 "size='2'></label> <button type='submit'>Create</button></form>")
    return await site_page(datasette, request, "Tournaments", body)


FORM_INTS = ("rounds", "table_size", "rating", "round", "table")


def form_ask(form: dict) -> Act:
    """A form's fields as an ask: numbers from text, names from a comma-separated line, boxes
    ticked or not."""
    data: dict = {}
    for key, value in form.items():
        value = (value or "").strip()
        if key == "csrftoken" or value == "":
            continue
        if key in FORM_INTS:
            try:
                data[key] = int(value)
            except ValueError:
                raise UsageError(f"{key}: a whole number") from None
        elif key in ("replace", "force"):
            data[key] = value in ("1", "on", "true")
        elif key == "names":
            data[key] = [n.strip() for n in value.replace("\n", ",").split(",") if n.strip()]
        else:
            data[key] = value
    try:
        return Act.model_validate(data)
    except ValidationError as err:
        e = err.errors()[0]
        raise UsageError(f"{'.'.join(str(p) for p in e['loc']) or 'form'}: {e['msg']}") from None


async def act_form_view(request, datasette):
    """A director's form: Datasette checked its CSRF token first; then the permission; then back
    to the tournament's page (or the refusal, in the site's page)."""
    if request.method != "POST":
        return await error_page(datasette, request, 405, "POST a director's form")
    refused = await refusal(request, datasette, "tournament")
    if refused is not None:
        return await error_page(datasette, request, *refused)
    try:
        ask = form_ask(dict(await request.post_vars()))
    except UsageError as err:
        return await error_page(datasette, request, 400, str(err))
    status, doc = await _act(request, datasette, ask)
    if status >= 400:
        return await error_page(datasette, request, status, doc["error"])
    return Response.redirect(_page_url(doc.get("event", ask.event)))
