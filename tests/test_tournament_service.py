"""Tournaments online, against a running server (``serve --writes``): a director with a
``tournament`` token runs an event over HTTP, players submit their games with their own tokens
and see them attach, the standings page shows them, the next round is paired; every
tournament write refused without the permission (403), anonymously (401) and from a form
without its CSRF token (403); two directors pairing at once make one round; the pages in
headless Chromium at a phone's width, without a console error."""
from __future__ import annotations

import json
import re
import tempfile
import threading
import urllib.parse
from pathlib import Path

import pytest

from scorebook.records.play import play_seated
from scorebook.records.store import Store

from .conftest import cli_json
from .test_service import Server, _account_cookie, _form, _make_accounts, SECRET

pytestmark = pytest.mark.slow

EVENT = "Club <Swiss> & Co"
PLAYERS = ["random", "greedy", "random-2", "greedy-2"]


def record_text(table: dict, round_: int, seed: int) -> str:
    """A game of the table's players (bots), tagged with the event and round: its text, made in
    a database of its own (the server's gets it only by submission)."""
    with tempfile.TemporaryDirectory() as folder:
        store = Store(str(Path(folder) / "made.db"))
        seats = [(name, re.sub(r"-\d+$", "", name)) for name in table["players"]]
        made = play_seated(store, "iwoki", seats, {}, seed=seed, tags={"Event": EVENT, "Round": str(round_)})
        return store.get(made["id"])["text"]


@pytest.fixture
def server(run_cli):
    tokens = {name: cli_json(run_cli("token", "create", name, "--can", can, "--json"))["token"]
              for name, can in (("director", "tournament"), ("ada", "submit"), ("bob", "submit"))}
    running = Server(run_cli.db, "--writes")
    yield running, tokens
    running.stop()


def act(server, token, **ask):
    return server.call("POST", "/-/scorebook/api/tournaments", json.dumps(ask).encode(), token)


def page(server, path: str) -> str:
    status, doc = server.call("GET", path)
    assert status == 200, doc
    return doc["text"]


def test_a_tournament_runs_end_to_end_over_http(server):
    server, tokens = server
    status, doc = act(server, tokens["director"], action="create", event=EVENT, game="iwoki", rounds=2)
    assert status == 201 and doc["format"] == "swiss"
    assert act(server, tokens["director"], action="join", event=EVENT, names=PLAYERS)[0] == 200
    status, paired = act(server, tokens["director"], action="pair", event=EVENT)
    assert status == 200 and paired["round"] == 1 and len(paired["tables"]) == 2
    query = urllib.parse.urlencode({"event": EVENT})
    before = server.call("GET", "/-/scorebook/api/tournaments/version?" + query)[1]["version"]
    for k, (table, player) in enumerate(zip(paired["tables"], ("ada", "bob"))):
        status, answer = server.call("POST", "/-/scorebook/api/records", record_text(table, 1, k).encode(),
                                     tokens[player])
        assert status == 201
        assert answer["records"][0]["tournament"] == f"attached to {EVENT} round 1 table {table['table']}"
    after = server.call("GET", "/-/scorebook/api/tournaments/version?" + query)[1]["version"]
    assert after != before  # what the page's poll sees: then it fetches its fragment
    fragment = page(server, "/-/scorebook/tournament?" + query + "&fragment=1")
    assert fragment.startswith("<p id='state'>") and "<html" not in fragment and fragment.count("/-/scorebook/record/") == 2
    listing = page(server, "/-/scorebook/tournaments")
    assert "Club &lt;Swiss&gt; &amp; Co" in listing and "<Swiss>" not in listing
    shown = page(server, "/-/scorebook/tournament?" + urllib.parse.urlencode({"event": EVENT}))
    assert shown.count("/-/scorebook/record/") == 2 and "playing" not in shown
    rid = re.search(r"/-/scorebook/record/([0-9a-f]+)", shown).group(1)
    record_page = page(server, f"/-/scorebook/record/{rid}")
    assert re.search(r"Round 1, table \d of <a href=\"/-/scorebook/tournament\?event=Club\+%3CSwiss%3E\+%26\+Co\">"
                     r"Club &lt;Swiss&gt; &amp; Co</a>", record_page)  # back to its table's tournament
    status, ranked = server.call("GET", "/-/scorebook/api/tournaments?" + urllib.parse.urlencode({"event": EVENT}))
    assert status == 200 and sum(r["points"] for r in ranked["standings"]["standings"]) == 2
    status, queued = act(server, tokens["director"], action="analyse", event=EVENT, round=1, bot="samples:2")
    assert status == 202 and len(queued["jobs"]) == 2
    for job in queued["jobs"]:
        assert server.wait_done(job["job"])["status"] == "done"
    status, ranked = server.call("GET", "/-/scorebook/api/tournaments?" + query)
    assert len(ranked["analysed"]) == 2
    assert sorted(a["player"] for a in ranked["accuracy"]) == sorted(PLAYERS)
    assert all(a["games"] == 1 and 0 <= a["accuracy"] <= 100 for a in ranked["accuracy"])
    shown = page(server, "/-/scorebook/tournament?" + query)
    assert "Accuracy over the event" in shown and shown.count(">record and analysis</a>") == 2
    status, second = act(server, tokens["director"], action="pair", event=EVENT)
    assert status == 200 and second["round"] == 2
    met = {frozenset(t["players"]) for t in paired["tables"]}
    assert not met & {frozenset(t["players"]) for t in second["tables"]}  # no one meets twice
    status, version = server.call("GET", "/-/scorebook/api/tournaments/version?" + urllib.parse.urlencode({"event": EVENT}))
    assert status == 200 and version["version"]
    player = page(server, "/-/scorebook/tournament?" + urllib.parse.urlencode({"event": EVENT, "player": "greedy"}))
    assert player.count("<h2>Round") == 2


@pytest.mark.parametrize("who", ["ada", None])
def test_every_tournament_write_is_refused_without_the_permission(server, who):
    server, tokens = server
    assert act(server, tokens["director"], action="create", event="E", game="iwoki", rounds=1)[0] == 201
    asks = [dict(action="create", event="F", game="iwoki", rounds=1), dict(action="join", event="E", names=["X", "Y"]),
            dict(action="withdraw", event="E", name="X"), dict(action="pair", event="E"),
            dict(action="result", event="E", round=1, table=1, result="1-0"), dict(action="analyse", event="E")]
    for ask in asks:
        status, doc = act(server, tokens[who] if who else None, **ask)
        assert status == (403 if who else 401), (ask, doc)
    status, doc = server.call("GET", "/-/scorebook/api/tournaments?event=E")
    assert status == 200 and doc["tournament"]["entrants"] == [] and doc["tournament"]["paired"] == 0


def test_two_directors_pairing_at_once_make_one_round(server):
    server, tokens = server
    act(server, tokens["director"], action="create", event="Race", game="iwoki", rounds=3)
    act(server, tokens["director"], action="join", event="Race", names=PLAYERS)
    answers, barrier = [], threading.Barrier(2)

    def pair():
        barrier.wait()
        answers.append(act(server, tokens["director"], action="pair", event="Race"))
    threads = [threading.Thread(target=pair) for _ in range(2)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sorted(status for status, _ in answers) == [200, 400]
    refused = next(doc for status, doc in answers if status == 400)
    assert "round 1 has no result yet" in refused["error"]
    status, doc = server.call("GET", "/-/scorebook/api/tournaments?event=Race")
    assert doc["tournament"]["paired"] == 1


@pytest.fixture
def director_accounts(run_cli, tmp_path, monkeypatch):
    monkeypatch.setenv("DATASETTE_SECRET", SECRET)
    config = tmp_path / "serve.json"
    config.write_text(json.dumps({"scorebook": {"tournament": {"id": "alice"}, "submit": {"id": ["alice", "bob"]},
                                                "accounts": _make_accounts(run_cli, tmp_path / "accounts", "alice",
                                                                           "bob")}}))
    Store(run_cli.db).close()  # the database, made
    running = Server(run_cli.db, "--writes", "--config", str(config))
    yield running
    running.stop()


def test_a_director_runs_the_event_from_forms_and_others_are_refused(director_accounts):
    server = director_accounts
    form = ("/-/scorebook/tournaments", "/-/scorebook/tournament/act")
    alice = _account_cookie(server, "alice")
    status, _ = _form(server, form, alice, {"action": "create", "event": "Night", "game": "iwoki", "rounds": "2"})
    assert status == 200  # back on the tournament's page
    event_page = ("/-/scorebook/tournament?event=Night", "/-/scorebook/tournament/act")
    _form(server, event_page, alice, {"action": "join", "event": "Night", "names": "Ada, Bob, Cy"})
    status, shown = _form(server, event_page, alice, {"action": "pair", "event": "Night"})
    assert status == 200 and "<h2>Round 1</h2>" in shown and "bye (1)" in shown
    status, doc = server.call("GET", "/-/scorebook/api/tournaments?event=Night")
    table = next(x for x in doc["tournament"]["tables"] if x["kind"] == "game")
    game = record_text({"players": ["random", "greedy"]}, 1, 5).replace(EVENT, "Night")
    for name, seat in zip(table["seats"], ("random", "greedy")):
        game = game.replace(f'"{seat}"', f'"{name}"')
    status, answer = _form(server, ("/-/scorebook/submit", "/-/scorebook/submit"), _account_cookie(server, "bob"),
                           {"text": game})
    assert status == 201 and f"attached to Night round 1 table {table['table']}" in answer  # bob sees it attach
    assert "Pair the next round" in shown  # alice directs: the forms are hers
    assert len(re.findall(r"name='csrftoken' value='[^']{20,}'", shown)) == 5  # each form carries its token
    status, _ = _form(server, event_page, _account_cookie(server, "bob"), {"action": "pair", "event": "Night",
                                                                          "force": "1"})
    assert status == 403  # bob may submit, not direct
    status, _ = _form(server, event_page, "", {"action": "pair", "event": "Night", "force": "1"})
    assert status == 401  # nobody signed in
    status, _ = server.call("POST", "/-/scorebook/tournament/act", b"action=pair&event=Night&force=1",
                            headers={"Content-Type": "application/x-www-form-urlencoded",
                                     "Cookie": _account_cookie(server, "alice")})
    assert status == 403  # alice's cookie, but no CSRF token: a page from elsewhere
    status, doc = server.call("GET", "/-/scorebook/api/tournaments?event=Night")
    assert doc["tournament"]["paired"] == 1
    anonymous = page(server, "/-/scorebook/tournament?event=Night")
    assert "Pair the next round" not in anonymous and "Ada" in anonymous


WIDTH = """JSON.stringify({page: document.documentElement.scrollWidth, window: window.innerWidth,
  rows: document.querySelectorAll('#standings tr').length})"""


@pytest.mark.browser
def test_the_pages_in_chromium_on_a_phone_without_a_console_error(run_cli, browser):
    from .browser import CHROMIUM
    if CHROMIUM is None:
        pytest.skip("Debian's chromium is not installed (bash .ci/run installs it)")
    run_cli("tournament", "create", EVENT, "--game", "iwoki", "--rounds", "3")
    run_cli("tournament", "join", EVENT, *PLAYERS, "random-3")
    run_cli("tournament", "pair", EVENT)
    run_cli("tournament", "play", EVENT)
    run_cli("tournament", "pair", EVENT)  # a round in play: the page polls
    running = Server(run_cli.db)
    event = urllib.parse.quote(EVENT)
    try:
        browser.page("Emulation.setDeviceMetricsOverride", width=390, height=844, deviceScaleFactor=1, mobile=True)
        for path in ("/-/scorebook/tournaments", f"/-/scorebook/tournament?event={event}",
                     f"/-/scorebook/tournament?event={event}&player=greedy", "/-/scorebook/standings?event=" + event):
            browser.open(running.base + path)
            assert browser.status() == 200, path
            seen = json.loads(browser.evaluate(WIDTH))
            assert seen["page"] <= seen["window"] == 390, (path, seen)
            assert browser.console_errors() == [], path
        browser.open(running.base + f"/-/scorebook/tournament?event={event}")
        assert json.loads(browser.evaluate(WIDTH))["rows"] == 6  # the heading and five players
        assert browser.evaluate("document.getElementById('tournament').dataset.open") == "1"
    finally:
        browser.page("Emulation.clearDeviceMetricsOverride")
        running.stop()


def test_a_directors_ask_is_bounded_before_it_is_read(server):
    server, tokens = server
    act(server, tokens["director"], action="create", event="Big", game="tsuro", format="tables", table_size=4,
        rounds=1)
    names = [f"player number {k:03d} of the big open event" for k in range(450)]  # 20 KiB: past the 16 KiB of a small ask
    status, doc = act(server, tokens["director"], action="join", event="Big", names=names)
    assert status == 200 and len(doc["entrants"]) == 450
    status, doc = server.call("POST", "/-/scorebook/api/tournaments", b'{"action": "join", "event": "Big", "names": ["'
                              + b"x" * (70 * 1024) + b'"]}', tokens["director"])
    assert status == 413
    status, doc = act(server, tokens["director"], action="join", event="Big", names=["y"] * 501)
    assert status == 400 and "names" in doc["error"]
