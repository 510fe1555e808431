"""The service: a server on loopback (``serve --writes``) takes records and analysis requests
over HTTP from programs with a token. Submissions answer ``ingest --json``'s document (201,
200 for duplicates, 422 for rejections, 413 past the limit, 401 without a credential, 403
without the permission, and then nothing is written); an analysis is queued, run by the
server's worker, and read back as ``analyze --json`` prints it; the queue survives a restart."""
from __future__ import annotations

import http.client
import importlib.util
import json
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from scorebook.records.limits import MAX_FILE_BYTES

from .conftest import SAMPLES, cli_json
from .test_serve_guards import free_port

pytestmark = [pytest.mark.slow, pytest.mark.skipif(importlib.util.find_spec("datasette") is None,
                                                   reason="Datasette is not installed (pip install -e '.[test]' installs it)")]

TSURO = SAMPLES / "tsuro" / "tsuro-mc8-simple-random-s6-0001.pgn"
IWOKI = SAMPLES / "iwoki" / "iwoki-minimax2-greedy-s5-0002.pgn"
OTHER = SAMPLES / "tsuro" / "tsuro-simple-random-s5-0001.pgn"  # stored by no test before it is sent


class Server:
    """``scorebook serve --writes`` on a free loopback port, until ``stop``."""

    def __init__(self, db: str, *extra: str, preexec_fn=None):
        self.db, self.extra, self.preexec_fn = db, extra, preexec_fn
        self.db_name, self.db_path = Path(db).stem, str(Path(db).resolve())
        self.start()

    def start(self) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen([sys.executable, "-m", "scorebook", "--db", self.db, "serve", "--port",
                                         str(self.port), *self.extra], stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True, preexec_fn=self.preexec_fn)
        for _ in range(200):
            try:
                urllib.request.urlopen(self.base + "/", timeout=2).read()
                return
            except OSError:
                time.sleep(0.2)
        raise AssertionError(self.process.stderr.read())

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=30)

    def log(self) -> str:
        """What the server wrote to its standard error (once it has stopped)."""
        if not hasattr(self, "_log"):
            self._log = self.process.stderr.read()
        return self._log

    def call(self, method: str, path: str, body: bytes | None = None, token: str | None = None,
             headers: dict | None = None) -> tuple[int, dict]:
        request = urllib.request.Request(self.base + path, data=body, method=method,
                                         headers={**({"Authorization": f"Bearer {token}"} if token else {}),
                                                  **(headers or {})})
        try:
            with urllib.request.urlopen(request, timeout=60) as r:
                status, text = r.status, r.read()
        except urllib.error.HTTPError as err:
            status, text = err.code, err.read()
        try:
            return status, json.loads(text)
        except ValueError:
            return status, {"text": text.decode(errors="replace")}

    def wait_done(self, job: int, seconds: float = 240) -> dict:
        for _ in range(int(seconds * 5)):
            status, doc = self.call("GET", f"/-/scorebook/api/jobs/{job}")
            assert status == 200
            if doc["status"] in ("done", "failed"):
                return doc
            time.sleep(0.2)
        raise AssertionError(f"job {job} still {doc}")


def _count(run_cli) -> int:
    return len(cli_json(run_cli("list", "--json"))["records"])


@pytest.fixture
def service(run_cli):
    cli_json(run_cli("ingest", str(IWOKI), "--json"))
    tokens = {name: cli_json(run_cli("token", "create", name, *args, "--json"))["token"]
              for name, args in (("club", ["--can", "submit", "--can", "analyze"]), ("reader", ["--can", "analyze"]))}
    server = Server(run_cli.db, "--writes")
    yield server, tokens
    server.stop()


def test_submissions_answer_as_ingest_does(service, run_cli, tmp_path):
    server, tokens = service
    text = TSURO.read_bytes()
    before = _count(run_cli)
    assert server.call("POST", "/-/scorebook/api/records", text)[0] == 401
    assert server.call("POST", "/-/scorebook/api/records", text, "sbk_0000000000000000_" + "x" * 43)[0] == 401
    status, doc = server.call("POST", "/-/scorebook/api/records", text, tokens["reader"])
    assert status == 403 and "may not submit" in doc["error"] and _count(run_cli) == before  # nothing written
    status, doc = server.call("POST", "/-/scorebook/api/records", text, tokens["club"])
    assert status == 201 and doc["summary"] == {"ingested": 1, "duplicates": 0, "rejected": 0}
    assert _count(run_cli) == before + 1
    # the same document as ingest --json, to the record's id and score
    local = cli_json(run_cli("--db", str(tmp_path / "other.db"), "ingest", str(TSURO), "--json"))
    assert [(r["id"], r["score"]) for r in doc["records"]] == [(r["id"], r["score"]) for r in local["records"]]
    status, doc = server.call("POST", "/-/scorebook/api/records", text, tokens["club"])
    assert status == 200 and doc["records"][0]["status"] == "duplicate"
    bad = text.replace(b"@", b"#", 1)
    status, doc = server.call("POST", "/-/scorebook/api/records", bad, tokens["club"])
    error = doc["records"][0]["errors"][0]
    assert status == 422 and error["line"] and error["column"] and error["code"] and error["message"]
    assert _count(run_cli) == before + 1


def test_a_submission_past_the_limit_is_refused_before_it_is_read(service):
    server, tokens = service
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    conn.putrequest("POST", "/-/scorebook/api/records")
    conn.putheader("Authorization", f"Bearer {tokens['club']}")
    conn.putheader("Content-Length", str(MAX_FILE_BYTES + 1))
    conn.endheaders()
    conn.send(b"[Game \"tsuro\"]\n")  # the rest never comes: the answer does not wait for it
    response = conn.getresponse()
    assert response.status == 413 and "at most" in json.loads(response.read())["error"]


def test_a_revoked_token_and_a_read_only_server_take_nothing(run_cli):
    cli_json(run_cli("ingest", str(IWOKI), "--json"))
    made = cli_json(run_cli("token", "create", "club", "--can", "submit", "--json"))
    server = Server(run_cli.db)  # no --writes
    try:
        status, doc = server.call("POST", "/-/scorebook/api/records", TSURO.read_bytes(), made["token"])
        assert status == 403 and "read-only" in doc["error"]
    finally:
        server.stop()
    assert run_cli("token", "revoke", made["id"]).exit_code == 0
    server = Server(run_cli.db, "--writes")
    try:
        assert server.call("POST", "/-/scorebook/api/records", TSURO.read_bytes(), made["token"])[0] == 401
    finally:
        server.stop()
    assert len(cli_json(run_cli("list", "--json"))["records"]) == 1


def test_a_cross_site_form_post_is_refused(service, run_cli):
    """A page elsewhere can make a browser post a form with its cookies, never with a token:
    without the form's CSRF token the post is refused and nothing is written."""
    server, _ = service
    before = _count(run_cli)
    status, _ = server.call("POST", "/-/scorebook/api/records", b"csrftoken=forged&text=x",
                            headers={"Cookie": "csrftoken=other; ds_actor=forged",
                                     "Content-Type": "application/x-www-form-urlencoded",
                                     "Origin": "http://evil.example"})
    assert status == 403 and _count(run_cli) == before


def test_an_analysis_is_queued_run_and_read_back(service, run_cli):
    server, tokens = service
    rid = cli_json(run_cli("list", "--json"))["records"][0]["id"]
    ask = json.dumps({"bot": "samples:2", "seed": 3}).encode()
    status, job = server.call("POST", f"/-/scorebook/api/records/{rid}/analyses", ask, tokens["reader"])
    assert status == 202 and job["status"] == "queued" and job["bot"] == "greedy samples:2"
    assert server.call("GET", f"/-/scorebook/api/records/{rid}/analysis")[0] in (200, 404)
    assert server.wait_done(job["job"])["status"] == "done"
    status, again = server.call("POST", f"/-/scorebook/api/records/{rid}/analyses", ask, tokens["reader"])
    assert status == 200 and again["job"] == job["job"]  # the same job: never run twice
    status, doc = server.call("GET", f"/-/scorebook/api/records/{rid}/analysis")
    local = cli_json(run_cli("analyze", rid, "--bot", "samples:2", "--seed", "3", "--json"))  # stored: read back
    assert status == 200 and doc == local
    assert server.call("POST", f"/-/scorebook/api/records/{rid}/analyses", b'{"bot": "depth:2"}',
                       tokens["reader"])[0] == 400
    assert server.call("POST", "/-/scorebook/api/records/ffff/analyses", None, tokens["reader"])[0] == 404
    assert server.call("GET", "/-/scorebook/api/jobs/999")[0] == 404


def test_the_queue_survives_a_restart_and_an_actor_has_a_limit(run_cli, tmp_path):
    cli_json(run_cli("ingest", str(SAMPLES / "tiny-islands"), "--json"))
    ids = [r["id"] for r in cli_json(run_cli("list", "--game", "tiny-islands", "--json"))["records"]][:3]
    token = cli_json(run_cli("token", "create", "club", "--can", "analyze", "--json"))["token"]
    config = tmp_path / "serve.json"
    config.write_text(json.dumps({"scorebook": {"max_queued": 2}}))
    server = Server(run_cli.db, "--writes", "--config", str(config))
    try:
        ask = json.dumps({"bot": "rollouts:6,candidates:4,max-rollouts:12"}).encode()
        jobs = [server.call("POST", f"/-/scorebook/api/records/{rid}/analyses", ask, token) for rid in ids]
        assert [s for s, _ in jobs] == [202, 202, 429]  # two queued or running at most
        first = jobs[0][1]["job"]
        for _ in range(600):  # stopped while the first runs
            if server.call("GET", f"/-/scorebook/api/jobs/{first}")[1]["status"] == "running":
                break
            time.sleep(0.1)
    finally:
        server.stop()
    server.start()
    try:
        assert [server.wait_done(j["job"])["status"] for _, j in jobs[:2]] == ["done", "done"]
        assert server.call("GET", f"/-/scorebook/api/records/{ids[0]}/analysis")[0] == 200
    finally:
        server.stop()


# ---------------------------------------------------------------- the browser: accounts, forms

SECRET = "test-secret"


PASSWORDS = {"alice": "correct horse", "bob": "battery staple"}  # the accounts the served tests make
_SIGNED_IN: dict = {}


def _account_cookie(server, actor: str) -> str:
    """A signed-in account's cookie, signed in for real at the server's /-/login (the form's
    page for its CSRF token and cookie, then the POST): a session of the server's store."""
    import http.cookiejar
    import re
    import urllib.parse
    key = (server.base, actor)
    if key not in _SIGNED_IN:
        jar = http.cookiejar.CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        page = opener.open(server.base + "/-/login", timeout=30).read().decode()
        token = re.search(r'name="csrftoken" value="([^"]+)"', page).group(1)
        opener.open(server.base + "/-/login", data=urllib.parse.urlencode(
            {"csrftoken": token, "username": actor, "password": PASSWORDS[actor]}).encode(), timeout=30)
        _SIGNED_IN[key] = "ds_actor=" + next(c.value for c in jar if c.name == "ds_actor")
    return _SIGNED_IN[key]


def _make_accounts(run_cli, path, *names: str) -> str:
    for name in names:
        assert run_cli("account", "set", name, "--file", str(path), "--password-stdin",
                       input=PASSWORDS[name] + "\n").exit_code == 0
    return str(path)


def _form(server, path: tuple[str, str], cookie: str, fields: dict) -> tuple[int, str]:
    """GET the page (signed in as alice, who sees the form) for its CSRF token and cookie, then
    POST the form as a browser does, with ``cookie`` (another account's, or none)."""
    import http.cookiejar
    import re
    import urllib.parse
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    page = opener.open(urllib.request.Request(server.base + path[0], headers={"Cookie": _account_cookie(server, "alice")})
                       ).read().decode()
    token = re.search(r'name="csrftoken" value="([^"]+)"', page).group(1)
    csrf = next(c.value for c in jar if c.name == "ds_csrftoken")
    body = urllib.parse.urlencode({"csrftoken": token, **fields}).encode()
    request = urllib.request.Request(server.base + path[1], data=body, headers={
        "Cookie": f"{cookie + '; ' if cookie else ''}ds_csrftoken={csrf}",
        "Content-Type": "application/x-www-form-urlencoded"})
    try:
        with opener.open(request) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode()


@pytest.fixture
def accounts(run_cli, tmp_path, monkeypatch):
    monkeypatch.setenv("DATASETTE_SECRET", SECRET)
    config = tmp_path / "serve.json"
    config.write_text(json.dumps({"scorebook": {"submit": {"id": "alice"}, "analyze": {"id": "alice"},
                                                "accounts": _make_accounts(run_cli, tmp_path / "accounts", "alice",
                                                                           "bob")}}))
    cli_json(run_cli("ingest", str(IWOKI), "--json"))
    server = Server(run_cli.db, "--writes", "--config", str(config))
    yield server
    server.stop()


def test_the_submit_form_shows_each_rejection_against_the_text(accounts, run_cli):
    server = accounts
    form = ("/-/scorebook/submit", "/-/scorebook/submit")
    bad = TSURO.read_text().replace("@", "#", 1)
    status, page = _form(server, form, _account_cookie(server, "alice"), {"text": bad})
    line = next(n for n, text in enumerate(bad.split("\n"), 1) if "#" in text)
    assert status == 422 and "bad-token" in page and f"line {line}, column" in page
    assert f'<span class="at">{line:5d}  ' in page  # the line itself, marked among its neighbours
    status, page = _form(server, form, _account_cookie(server, "alice"), {"text": TSURO.read_text()})
    rid = cli_json(run_cli("list", "--game", "tsuro", "--json"))["records"][0]["id"]
    assert status == 201 and f'href="/-/scorebook/record/{rid}"' in page
    status, _ = _form(server, form, _account_cookie(server, "bob"), {"text": IWOKI.read_text()})
    assert status == 403  # bob is signed in, but not permitted
    status, page = _form(server, form, "", {"text": TSURO.read_text()})
    assert status == 401


def test_the_record_page_asks_for_an_analysis_and_follows_it(accounts, run_cli):
    server = accounts
    rid = cli_json(run_cli("list", "--json"))["records"][0]["id"]
    page = f"/-/scorebook/record/{rid}"
    anonymous = urllib.request.urlopen(server.base + page, timeout=30).read().decode()
    assert 'id="analyse"' not in anonymous  # the button only for those who may
    status, shown = _form(server, (page, page + "/analyse"), _account_cookie(server, "alice"), {})
    assert status == 200 and 'id="job"' in shown  # back on the record's page, the job shown
    job = server.call("POST", f"/-/scorebook/api/records/{rid}/analyses", None,
                      None)[0]  # without a credential: refused
    assert job == 401
    for _ in range(600):
        shown = urllib.request.urlopen(server.base + page, timeout=30).read().decode()
        if "Analysis done" in shown:
            break
        time.sleep(0.2)
    assert "Analysis done" in shown and 'id="chart"' in shown


@pytest.mark.browser
def test_hostile_text_is_inert_in_every_page(accounts, run_cli, tmp_path):
    """A record whose player names, event and comment carry markup: its page, the record
    list and the submit form's answer show it as text, and no script of it runs (Chromium)."""
    from .browser import CHROMIUM, FLAGS
    if CHROMIUM is None:
        pytest.skip("Debian's chromium is not installed (bash .ci/run installs it)")
    server = accounts
    payload = "<img src=x onerror=document.title=1><script>document.title=2</script>"
    hostile = TSURO.read_text().replace('[Event "', f'[Event "{payload} ', 1)
    if hostile == TSURO.read_text():
        hostile = hostile.replace("\n", f'\n[Event "{payload}"]\n', 1)
    status, answer = _form(server, ("/-/scorebook/submit", "/-/scorebook/submit"), _account_cookie(server, "alice"),
                           {"text": hostile.replace("@", "#", 1)})  # rejected: its text shown back
    assert status == 422 and payload not in answer
    (tmp_path / "answer.html").write_text(answer)
    _, doc = server.call("POST", "/-/scorebook/api/records", hostile.encode(),
                         cli_json(run_cli("token", "create", "club", "--can", "submit", "--json"))["token"])
    rid = doc["records"][0]["id"]
    for url in (server.base + f"/-/scorebook/record/{rid}", server.base + "/cli/records",
                (tmp_path / "answer.html").as_uri()):
        dom = subprocess.run([CHROMIUM, *FLAGS, "--user-data-dir=" + str(tmp_path / "profile"), "--dump-dom",
                              "--virtual-time-budget=2000", url], capture_output=True, text=True, timeout=120).stdout
        assert "<title>1</title>" not in dom and "<title>2</title>" not in dom and "<img src" not in dom, url
        if "/-/scorebook/record/" in url:  # shown, as text, in the record's header
            assert "&lt;img src=x onerror=document.title=1&gt;&lt;script&gt;" in dom


@pytest.mark.browser
def test_a_browser_submits_good_bad_and_duplicate_records(accounts, run_cli, tmp_path):
    """Headless Chromium, signed in as alice: the submit form shows a rejection at its line and
    column, stores a good record and links its page, calls a resubmission a duplicate; a form
    on another site posting to the server is refused and writes nothing."""
    from .browser import Browser
    from .browser import CHROMIUM, FLAGS
    if CHROMIUM is None:
        pytest.skip("Debian's chromium is not installed (bash .ci/run installs it)")
    server = accounts
    before = _count(run_cli)
    browser = Browser(CHROMIUM, FLAGS, str(tmp_path / "profile"))
    try:
        browser.set_cookie(server.base, "ds_actor", _account_cookie(server, "alice").removeprefix("ds_actor="))

        def submit(text: str) -> str:
            browser.open(server.base + "/-/scorebook/submit")
            browser.evaluate(f"document.getElementById('text').value = {json.dumps(text)}")
            browser.submit("form#submit")
            return browser.html()

        bad = TSURO.read_text().replace("@", "#", 1)
        line = next(n for n, text in enumerate(bad.split("\n"), 1) if "#" in text)
        page = submit(bad)
        assert browser.status() == 422 and "bad-token" in page and f"line {line}, column" in page
        assert _count(run_cli) == before
        page = submit(TSURO.read_text())
        rid = cli_json(run_cli("list", "--game", "tsuro", "--json"))["records"][0]["id"]
        assert browser.status() == 201 and f'href="/-/scorebook/record/{rid}"' in page
        browser.evaluate(f"document.querySelector('a[href=\"/-/scorebook/record/{rid}\"]').click()")
        browser.settle()
        assert browser.evaluate("location.pathname") == f"/-/scorebook/record/{rid}" and browser.status() == 200
        page = submit(TSURO.read_text())
        assert browser.status() == 200 and "0 stored, 1 already stored, 0 rejected" in page
        stored = _count(run_cli)
        elsewhere = tmp_path / "elsewhere.html"  # another site's page, its form aimed at the server
        elsewhere.write_text(f'<form method="post" action="{server.base}/-/scorebook/submit" id="cross">'
                             f'<textarea name="text">{OTHER.read_text().replace("&", "&amp;").replace("<", "&lt;")}'
                             '</textarea></form>')
        browser.open(elsewhere.as_uri())
        browser.submit("form#cross")
        assert browser.status() in (401, 403) and _count(run_cli) == stored
        browser.open(server.base + "/-/scorebook/submit")  # the same record, from the server's own form
        browser.evaluate(f"document.getElementById('text').value = {json.dumps(OTHER.read_text())}")
        browser.submit("form#submit")
        assert browser.status() == 201 and _count(run_cli) == stored + 1
    finally:
        browser.close()


def test_an_account_signs_in_with_its_password_and_submits(run_cli, tmp_path):
    """Accounts from their own file (``scorebook account set``, named by ``serve --config``'s
    "accounts"): alice signs in at /-/login with her password and submits through the form; a
    wrong password signs nobody in."""
    import http.cookiejar
    import re
    import urllib.parse
    accounts = tmp_path / "accounts"
    assert run_cli("account", "set", "alice", "--file", str(accounts), "--password-stdin",
                   input="correct horse\n").exit_code == 0
    assert oct(accounts.stat().st_mode & 0o777) == "0o600" and "correct horse" not in accounts.read_text()
    config = tmp_path / "serve.json"
    config.write_text(json.dumps({"scorebook": {"submit": {"id": "alice"}, "accounts": str(accounts)}}))
    cli_json(run_cli("ingest", str(IWOKI), "--json"))
    server = Server(run_cli.db, "--writes", "--config", str(config))
    try:
        def signed_in(password: str):
            jar = http.cookiejar.CookieJar()
            opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
            page = opener.open(server.base + "/-/login").read().decode()
            token = re.search(r'name="csrftoken" value="([^"]+)"', page).group(1)
            try:
                opener.open(server.base + "/-/login", data=urllib.parse.urlencode(
                    {"csrftoken": token, "username": "alice", "password": password}).encode())
            except urllib.error.HTTPError as err:
                assert err.code == 401 and password != "correct horse", err.read()
            return opener, {c.name for c in jar}

        _, cookies = signed_in("wrong password")
        assert "ds_actor" not in cookies
        opener, cookies = signed_in("correct horse")
        assert "ds_actor" in cookies
        page = opener.open(server.base + "/-/scorebook/submit").read().decode()
        token = re.search(r'name="csrftoken" value="([^"]+)"', page).group(1)
        with opener.open(server.base + "/-/scorebook/submit", data=urllib.parse.urlencode(
                {"csrftoken": token, "text": TSURO.read_text()}).encode()) as answer:
            assert answer.status == 201
        assert sorted(r["game"] for r in cli_json(run_cli("list", "--json"))["records"]) == ["iwoki", "tsuro"]
    finally:
        server.stop()


def test_the_worker_keeps_the_ratings_up_to_the_submissions(service, run_cli):
    """Submissions do not wait for the ratings: the worker brings the kept ones up to them
    between jobs, the same as rating the archive again."""
    from scorebook.analyze.ratings import rate, results
    from scorebook.records.store import Store
    server, tokens = service
    for path in (TSURO, OTHER):
        assert server.call("POST", "/-/scorebook/api/records", path.read_bytes(), tokens["club"])[0] == 201
    for _ in range(100):
        store = Store(run_cli.db, write=False)
        mark, _ = store.ratings_kept("tsuro")
        if mark is not None and mark[0] == store.last_key():
            break
        time.sleep(0.1)
    assert mark is not None and mark[0] == store.last_key()
    from scorebook.analyze.ratings import Ledger
    ledger = Ledger()
    ledger.load(store.ratings_kept("tsuro")[1])
    assert ledger.document()["ratings"] == rate(results(store, "tsuro"))["ratings"]
