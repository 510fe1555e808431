"""``scorebook serve``: Datasette with Scorebook's plugin in this process, behind the guard,
on uvicorn with deadlines for every connection.

Read-only unless ``writes``: no arbitrary SQL unless asked for, no CSV stream or download of
whole tables, SQLite's strings capped, a time limit on every query, no suggested facets.
With ``writes``, the one writer, the analysis worker, accounts from their own file.
"""
from __future__ import annotations

import asyncio
import html
import importlib.abc
import json
import os
import socket
import sys
from dataclasses import dataclass
from importlib import resources

from scorebook.errors import Unavailable, UsageError
from scorebook.records.store import MIGRATIONS
from scorebook.records.tokens import any_active

from .accounts import Accounts
from .guard import Guard, GuardedH11, is_loopback
from .settings import ServeConfig
from .state import Service
from .writer import Writer

DATASETTE_SETTINGS = {"truncate_cells_html": 120, "allow_csv_stream": False, "allow_download": False,
                      "sql_time_limit_ms": 1000, "max_returned_rows": 1000, "suggest_facets": False,
                      "facet_time_limit_ms": 200, "allow_signed_tokens": False}
# plugins whose hooks would undo the guard: datasette-auth-passwords takes HTTP Basic on every
# request and checks each password on the event loop (Scorebook's accounts replace it)
UNWANTED_PLUGINS = ("datasette_auth_passwords",)
# Datasette's reading of the sign-in cookie trusts any it signed, forever: Scorebook's reads it
# with its session (``pages.signed_in_actor``)
UNWANTED_MODULES = ("datasette.actor_auth_cookie",)


@dataclass(frozen=True)
class Plan:
    """What ``serve`` will do, checked before anything starts."""
    path: str
    host: str
    port: int
    writes: bool
    allow_sql: bool
    config: ServeConfig
    public: bool

    @property
    def url(self) -> str:
        return f"http://{self.host if ':' not in self.host else f'[{self.host}]'}:{self.port}/"

    @property
    def mode(self) -> str:
        return "taking submissions and analysis requests from those permitted" if self.writes else "read-only"


def plan(open_store, host: str, port: int, *, public: bool, writes: bool, allow_sql: bool,
         config: ServeConfig, executor: str = "local", scheduler: str | None = None) -> Plan:
    """Check everything ``serve`` needs before it serves: a network address only when meant,
    the schema current (``open_store()``: the database, opened for writing only to upgrade
    it, the one write serve may make), a permission on a network address with writes, the
    accounts file readable, the port free, the Dask cluster reached."""
    if not is_loopback(host) and not public:
        raise UsageError(f"--host {host} serves the archive to other machines: add --public to mean it")
    with open_store() as store:
        if store.schema_version < len(MIGRATIONS):
            raise UsageError(f"{store.path} has an older schema ({store.schema_version}, this Scorebook's is "
                             f"{len(MIGRATIONS)}): serve --upgrade brings it up to date (serve writes nothing else)")
        path = store.path
        tokens = any_active(store)
    limits = config.scorebook
    if limits.accounts:
        Accounts(limits.accounts)  # read now: a broken file is one line before serving
    permitted = any(getattr(limits, k) for k in ("submit", "analyze", "tournament")) or tokens
    if writes and not is_loopback(host) and not permitted:
        raise UsageError("--writes on a network address needs a permission: a token (scorebook token create) or "
                         "--config naming who may submit or analyze")
    if not port_free(host, port):
        raise Unavailable(f"port {port} on {host} is in use: choose another with --port")
    if writes and executor == "dask":  # the cluster is reached before serving, not at the first request
        from scorebook import batch
        with batch.dask_client(scheduler):
            pass
    return Plan(path, host, port, writes, allow_sql, config, public)


def metadata(path: str, allow_sql: bool, plugins: dict | None = None) -> dict:
    """Scorebook's Datasette metadata for the database at ``path`` (kept in memory, no file):
    its tables described, SQL off unless asked for, other plugins' settings. Scorebook's own
    settings are not in it: no page shows them."""
    meta = json.loads(resources.files("scorebook.records").joinpath("metadata.json").read_text())
    name = os.path.splitext(os.path.basename(path))[0]
    meta["databases"] = {name: meta["databases"]["scorebook"]}
    # the home page lists five tables and hides the rest behind "...": what a visitor looks for
    # first is named here, with its link (the database's name escaped: it is the file's)
    from datasette.utils import tilde_encode
    base = "/" + tilde_encode(name)
    links = [(f"{base}/games", "games"), (f"{base}/player_results", "player results"),
             (f"{base}/records", "records (full-text search)"), (f"{base}/players", "players"),
             (f"{base}/events", "events"), ("/-/scorebook/tournaments", "tournaments"),
             ("/-/scorebook/ratings", "ratings")]
    meta["description_html"] = (html.escape(meta["description"]) + "<br>Browse: " + ", ".join(
        f'<a href="{html.escape(href)}">{html.escape(label)}</a>' for href, label in links) + ".")
    if not allow_sql:
        meta["allow_sql"] = False
    meta["plugins"] = dict(plugins or {})
    return meta


def port_free(host: str, port: int) -> bool:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family) as s:
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True


class _DaskUnseen(importlib.abc.MetaPathFinder):
    """Dask as not installed, while Datasette is imported: its vendored pint imports
    ``dask.array`` where Dask is (0.5-0.7 s of every start), for a kind of quantity no page
    here makes. The Dask executor imports Dask later, as it would anyway."""

    def find_spec(self, fullname, path, target=None):
        if fullname in ("dask", "dask.array"):
            raise ModuleNotFoundError(f"No module named {fullname!r}", name=fullname)
        return None


def _import_datasette():
    unseen = _DaskUnseen()
    sys.meta_path.insert(0, unseen)
    try:
        from datasette import plugins as datasette_plugins
        from datasette.app import Datasette
    finally:
        sys.meta_path.remove(unseen)
    return datasette_plugins, Datasette


def application(p: Plan, *, executor: str = "local", scheduler: str | None = None):
    """The guarded ASGI application, its worker started when it takes writes."""
    datasette_plugins, Datasette = _import_datasette()
    for plugin in list(datasette_plugins.pm.get_plugins()):
        name = getattr(plugin, "__name__", "")
        if name.split(".")[0] in UNWANTED_PLUGINS or name in UNWANTED_MODULES:
            datasette_plugins.pm.unregister(plugin)
    # a secret that outlives a restart (DATASETTE_SECRET) keeps accounts signed in
    ds = Datasette([p.path], metadata=metadata(p.path, p.allow_sql, p.config.plugins), settings=DATASETTE_SETTINGS,
                   secret=os.environ.get("DATASETTE_SECRET") or None)
    service = Service(p.path, writes=p.writes, config=p.config,
                      writer=Writer(p.path) if p.writes else None,
                      accounts=Accounts(p.config.scorebook.accounts))
    ds.scorebook_service = service
    if p.writes:
        from .jobs import Worker
        Worker(p.path, service.writer, job_seconds=p.config.scorebook.job_seconds, executor=executor,
               scheduler=scheduler).start()
    asyncio.run(ds.invoke_startup())

    def signed_in(value: str) -> bool:
        try:
            ds.unsign(value, "actor")
            return True
        except Exception:  # noqa: BLE001 - a forged or stale cookie is no credential
            return False
    return Guard(ds.app(), p.config.scorebook, loopback=is_loopback(p.host), signed_in=signed_in)


def open_files() -> int:
    """Raise this process's limit of open files to its hard limit (a service manager's
    default soft limit, 1,024, is far below what a server's connections need); the limit."""
    import resource
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else 1 << 20
    wanted = min(wanted, 1 << 20)
    if soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return soft


RESERVED_FILES = 128  # the database's files, the worker's, the log: never taken by connections


def serve(p: Plan, *, on_start=None, executor: str = "local", scheduler: str | None = None) -> None:
    """Serve until the process is stopped (``on_start(url)`` first)."""
    import uvicorn
    app = application(p, executor=executor, scheduler=scheduler)
    limits = p.config.scorebook
    connections = max(8, min(limits.max_connections, open_files() - RESERVED_FILES))
    config = uvicorn.Config(app, host=p.host, port=p.port, log_level="warning", lifespan="off", http=GuardedH11,
                            limit_concurrency=connections, timeout_keep_alive=5,
                            h11_max_incomplete_event_size=16 * 1024)
    config.header_seconds = limits.header_seconds  # GuardedH11's deadline for a request's headers
    config.per_address = limits.max_connections_per_address  # and its limit of one address's connections
    if on_start:
        on_start(p.url)
    uvicorn.Server(config).run()
