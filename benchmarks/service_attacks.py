"""The served archive under attack, before and after issue 68, side by side in one run:
submissions a second (1 and 4 clients) and a page's latency under each attack of the issue.

    git worktree add /tmp/sb-before 6121559          # the checkout before the service's redesign
    pip install datasette-auth-passwords             # the older checkout's accounts (its README's)
    python benchmarks/service_attacks.py --before /tmp/sb-before [--write]

Each checkout runs its own code (a launcher maps ``scorebook.<layer>`` to its folders and
registers its own Datasette plugin), configured as its README says: a token per program and
an account alice (before: datasette-auth-passwords with her hash in the configuration; after:
an accounts file). For each, ``serve --writes`` on loopback, then:

- submissions: distinct Tsuro and Tiny Islands records POSTed with a token, by 1 client,
  then by 4 at once (after a quarter of them, untimed, has loaded the engines);
- a page (``/``) timed 20 times: idle; while four clients guess alice's password (HTTP Basic
  on a page, and the sign-in form); while one client sends a 64 MiB form with a cookie and no
  credential; while 1,050 connections stay idle, the server started under a soft limit of
  1,024 open files (a service manager's default);
- a one-record submission while another client's large one (the largest each accepts: 8 MiB
  before, 1 MiB after) is read;
- another actor's small analysis while one actor has a huge one queued (``samples:5000000``
  before; after, that is refused and the actor queues four at the cap).

A timed-out request counts 10 s. Figures are medians; ratios are after over before's time (or
before's rate over after's, so that below 1 is faster).
"""
from __future__ import annotations

import argparse
import base64
import http.client
import json
import os
import platform
import re
import resource
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from _checkout import USE_CHECKOUT  # noqa: E402
from _report import publish  # noqa: E402

LAUNCHER = USE_CHECKOUT + r'''
root = Path(sys.argv[1])
sys.argv = ["scorebook"] + sys.argv[2:]
sys._called_from_test = True  # Datasette loads no entry points: this checkout's own plugin is registered below
use_checkout(root)
if sys.argv[1:2] == ["serve"] or "serve" in sys.argv:
    import datasette.plugins as dp
    import datasette_auth_passwords  # installed beside Scorebook, as a club following the older README had it
    dp.pm.register(datasette_auth_passwords, "datasette_auth_passwords")
    name = "scorebook.service.plugin" if (root / "service").exists() else "scorebook.analyze.web"
    dp.pm.register(importlib.import_module(name), name)
from scorebook.cli.main import run
run()
'''
TIMEOUT = 10.0
BECAUSE = """
Before, every submission was read and written in its own thread inside its write transaction,
HTTP Basic and the sign-in form ran PBKDF2 on the event loop, any body was read whole before
anything capped it, the server kept the 1,024 open files it was given, and a job ran as long as
its options asked. After, a submission is read and replayed first (four at a time), then
written by the one writer in a short transaction: one client's submissions take a thread hop
more (0.78-0.95x of before's rate over five runs of this script), four clients' overlap better.
"""


class Version:
    def __init__(self, label: str, root: Path, scratch: Path, launcher: Path):
        self.label, self.root, self.scratch, self.launcher = label, root, scratch, launcher
        self.db = str(scratch / f"{label}.db")
        self.after = (root / "service").exists()

    def cli(self, *args: str, stdin: str | None = None) -> str:
        done = subprocess.run([sys.executable, str(self.launcher), str(self.root), "--db", self.db, *args],
                              capture_output=True, text=True, input=stdin)
        if done.returncode:
            raise SystemExit(f"{self.label}: scorebook {' '.join(args)}: {done.stderr}")
        return done.stdout

    def prepare(self) -> None:
        # every engine the measures use compiled (numba's cache) before anything is timed
        self.cli("ingest", str(ROOT / "samples" / "iwoki"), str(ROOT / "samples" / "tiny-islands"),
                 str(ROOT / "samples" / "tsuro"))
        self.tokens = {name: json.loads(self.cli("token", "create", name, "--can", "submit", "--can", "analyze",
                                                 "--json"))["token"] for name in ("club", "other")}
        config = {"scorebook": {"submit": {"id": "alice"}, "analyze": {"id": "alice"}}}
        if self.after:
            accounts = self.scratch / "accounts"
            self.cli("account", "set", "alice", "--file", str(accounts), "--password-stdin", stdin="correct horse\n")
            config["scorebook"]["accounts"] = str(accounts)
        else:
            from datasette_auth_passwords.utils import hash_password
            config["plugins"] = {"datasette-auth-passwords": {"alice_password_hash": hash_password("correct horse")}}
        self.config = self.scratch / f"{self.label}.json"
        self.config.write_text(json.dumps(config))
        with sqlite3.connect(self.db) as conn:
            self.iwoki = [r for (r,) in conn.execute("SELECT id FROM records WHERE game = 'iwoki' ORDER BY key")]
        self.cli("analyze", self.iwoki[2], "--bot", "samples:1")

    def start(self, open_files: int | None = None) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        limit = (lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, resource.getrlimit(
            resource.RLIMIT_NOFILE)[1]))) if open_files else None
        self.server = subprocess.Popen([sys.executable, str(self.launcher), str(self.root), "--db", self.db, "serve",
                                        "--port", str(self.port), "--writes", "--config", str(self.config)],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=limit)
        for _ in range(600):
            try:
                urllib.request.urlopen(self.base + "/", timeout=2).read()
                return
            except OSError:
                time.sleep(0.1)
        raise SystemExit(f"{self.label}: the server did not start")

    def stop(self) -> None:
        self.server.send_signal(signal.SIGTERM)
        try:
            self.server.wait(30)
        except subprocess.TimeoutExpired:
            self.server.kill()
            self.server.wait()


def call(base: str, method: str, path: str, body: bytes | None = None, token: str | None = None,
         headers: dict | None = None, timeout: float = 600) -> tuple[int, dict]:
    request = urllib.request.Request(base + path, data=body, method=method, headers={
        **({"Authorization": f"Bearer {token}"} if token else {}), **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as r:
            status, text = r.status, r.read()
    except urllib.error.HTTPError as err:
        status, text = err.code, err.read()
    except OSError:
        return 0, {}
    try:
        return status, json.loads(text)
    except ValueError:
        return status, {}


def page_ms(base: str) -> float:
    start = time.perf_counter()
    try:
        urllib.request.urlopen(base + "/", timeout=TIMEOUT).read()
    except (OSError, http.client.HTTPException):
        return TIMEOUT * 1000
    return (time.perf_counter() - start) * 1000


def pages(base: str, n: int = 20) -> float:
    return statistics.median(page_ms(base) for _ in range(n))


def under(attack, base: str, clients: int = 1, settle: float = 1.0) -> float:
    """A page's median while ``clients`` threads run ``attack(stop)``."""
    stop = threading.Event()
    threads = [threading.Thread(target=attack, args=(stop,), daemon=True) for _ in range(clients)]
    for t in threads:
        t.start()
    time.sleep(settle)
    try:
        return pages(base)
    finally:
        stop.set()
        for t in threads:
            t.join(timeout=60)


def guessing(v: Version):
    def attack(stop):
        n = 0
        while not stop.is_set():
            n += 1
            basic = base64.b64encode(f"alice:guess{n}".encode()).decode()
            call(v.base, "GET", "/", headers={"Authorization": f"Basic {basic}"}, timeout=30)
            try:
                page = urllib.request.urlopen(v.base + "/-/login", timeout=30)
                cookie = (page.headers.get("set-cookie") or "").split(";")[0]
                token = re.search(r'name="csrftoken" value="([^"]+)"', page.read().decode())
                call(v.base, "POST", "/-/login", urllib.parse.urlencode(
                    {"csrftoken": token.group(1) if token else "", "username": "alice",
                     "password": f"guess{n}"}).encode(), headers={"Cookie": cookie}, timeout=30)
            except OSError:
                pass
    return attack


def huge_form(v: Version):
    chunk = b"a" * (1 << 20)

    def attack(stop):
        while not stop.is_set():
            try:
                conn = http.client.HTTPConnection("127.0.0.1", v.port, timeout=60)
                conn.putrequest("POST", "/-/scorebook/submit")
                conn.putheader("Cookie", "csrftoken=x; ds_actor=forged")
                conn.putheader("Content-Type", "application/x-www-form-urlencoded")
                conn.putheader("Content-Length", str(64 << 20))
                conn.endheaders()
                conn.send(b"text=")
                for _ in range(64):
                    if stop.is_set():
                        break
                    conn.send(chunk)
                if not stop.is_set():
                    conn.getresponse().read()
                conn.close()
            except OSError:
                time.sleep(0.05)
    return attack


def idle_connections(v: Version) -> float:
    v.stop()
    v.start(open_files=1024)
    idle = []
    try:
        for _ in range(1050):
            try:
                idle.append(socket.create_connection(("127.0.0.1", v.port), timeout=5))
            except OSError:
                break
        time.sleep(0.5)
        return pages(v.base, 5)
    finally:
        for s in idle:
            s.close()
        v.stop()
        v.start()


def writer_held(v: Version) -> float:
    """Seconds a one-record submission takes while another client's largest is read."""
    line = (ROOT / "samples" / "tiny-islands" / "random-games.tinybot.txt").read_bytes().strip()
    size = (1 << 20) - 4096 if v.after else 8 << 20
    big = (line + b"\n") * (size // (len(line) + 1))
    small = (ROOT / "samples" / "tsuro" / "tsuro-simple-random-s5-0001.pgn").read_bytes()
    done = {}
    thread = threading.Thread(target=lambda: done.setdefault("big", call(v.base, "POST", "/-/scorebook/api/records",
                                                                         big, v.tokens["club"])[0]))
    thread.start()
    time.sleep(0.5)
    start = time.perf_counter()
    call(v.base, "POST", "/-/scorebook/api/records", small, v.tokens["other"], timeout=600)
    seconds = time.perf_counter() - start
    thread.join(timeout=600)
    return seconds


def starved(v: Version, cap: float = 90.0) -> float:
    """Seconds until another actor's small analysis is done while one actor's huge job waits."""
    if v.after:
        refused = call(v.base, "POST", f"/-/scorebook/api/records/{v.iwoki[0]}/analyses",
                       b'{"bot": "samples:5000000"}', v.tokens["club"])[0]
        assert refused == 400, refused
        for seed in range(4):  # the most the caps allow, four times
            call(v.base, "POST", f"/-/scorebook/api/records/{v.iwoki[0]}/analyses",
                 json.dumps({"bot": "samples:96", "seed": seed}).encode(), v.tokens["club"])
    else:
        call(v.base, "POST", f"/-/scorebook/api/records/{v.iwoki[0]}/analyses", b'{"bot": "samples:5000000"}',
             v.tokens["club"])
    time.sleep(0.5)
    start = time.perf_counter()
    _, job = call(v.base, "POST", f"/-/scorebook/api/records/{v.iwoki[1]}/analyses",
                  b'{"bot": "samples:2", "seed": 7}', v.tokens["other"])
    while time.perf_counter() - start < cap:
        if call(v.base, "GET", f"/-/scorebook/api/jobs/{job['job']}")[1].get("status") in ("done", "failed"):
            return time.perf_counter() - start
        time.sleep(0.2)
    return float("inf")


def submissions(v: Version, records: list[str], clients: int) -> float:
    def one(text: str) -> int:
        return call(v.base, "POST", "/-/scorebook/api/records", text.encode(), v.tokens["club"])[0]
    start = time.perf_counter()
    with ThreadPoolExecutor(clients) as pool:
        statuses = list(pool.map(one, records))
    if set(statuses) != {201}:
        raise SystemExit(f"{v.label}: not every submission was stored: {sorted(set(statuses))}")
    return len(records) / (time.perf_counter() - start)


def texts(scratch: Path, records: int) -> list[str]:
    db = str(scratch / "made.db")
    for game, players, seed in (("tsuro", "random,random,random", 1), ("tiny-islands", "random", 2)):
        subprocess.run([sys.executable, "-m", "scorebook", "--db", db, "play", game, "--players", players, "--games",
                        str(records), "--seed", str(seed), "--jobs", "1"], check=True, capture_output=True)
    with sqlite3.connect(db) as conn:
        return [t for (t,) in conn.execute("SELECT text FROM records ORDER BY key")]


def measure(v: Version, pool: list[str]) -> dict:
    v.prepare()
    v.start()
    try:
        submissions(v, pool[2::4], 1)  # warm: the server's first records of each game load its engines
        out = {"1 client": submissions(v, pool[0::4], 1), "4 clients": submissions(v, pool[1::4], 4),
               "idle": pages(v.base)}
        out["4 clients guessing passwords"] = under(guessing(v), v.base, clients=4)
        out["a 64 MiB form without a credential"] = under(huge_form(v), v.base)
        out["1,050 idle connections, 1,024 open files"] = idle_connections(v)
        out["writer"] = writer_held(v)
        out["starved"] = starved(v)
        return out
    finally:
        v.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", required=True, help="a checkout before the change (git worktree add)")
    parser.add_argument("--records", type=int, default=100, help="records of each game made for the submissions")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)  # this script's own 1,050 sockets
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 8192)), hard))
    with tempfile.TemporaryDirectory() as folder:
        scratch = Path(folder)
        launcher = scratch / "launch.py"
        launcher.write_text(LAUNCHER)
        pool = texts(scratch, args.records)
        results = {}
        for label, root in (("before", Path(args.before).resolve()), ("after", ROOT)):
            results[label] = measure(Version(label, root, scratch, launcher), pool)
    b, a = results["before"], results["after"]

    def secs(x: float) -> str:
        return "> 90 s" if x == float("inf") else f"{x:.2f} s"

    rows = [f"| submissions a second, {k} | {b[k]:.1f} | {a[k]:.1f} | {b[k] / a[k]:.2f} |" for k in ("1 client", "4 clients")]
    for k in ("idle", "4 clients guessing passwords", "a 64 MiB form without a credential",
              "1,050 idle connections, 1,024 open files"):
        rows.append(f"| page `/` median, {k} (ms) | {b[k]:.0f} | {a[k]:.0f} | {a[k] / b[k]:.2f} |")
    rows.append(f"| a one-record submission while another's largest is read | {secs(b['writer'])} | "
                f"{secs(a['writer'])} | {a['writer'] / b['writer']:.2f} |")
    ratio = "-" if b["starved"] == float("inf") else f"{a['starved'] / b['starved']:.2f}"
    rows.append(f"| another actor's small analysis, a huge one queued | {secs(b['starved'])} | "
                f"{secs(a['starved'])} | {ratio} |")
    day = date.today().isoformat()
    where = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    before_commit = subprocess.run(["git", "-C", args.before, "rev-parse", "--short", "HEAD"], capture_output=True,
                                   text=True).stdout.strip()
    report = f"""### The service under attack, before and after ({day}, {where})

`python benchmarks/service_attacks.py --before <checkout of {before_commit}>`: each version's
`serve --writes` on loopback, configured as its README says; a timed-out page counts 10 s.
Ratios: after / before in time (before / after in rate): below 1 is better.

| measure | before ({before_commit}) | after | ratio |
|---|---:|---:|---:|
""" + "\n".join(rows) + "\n" + BECAUSE
    publish("### The service under attack, before and after", report, args.write)


if __name__ == "__main__":
    main()
