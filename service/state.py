"""What a running server holds (its configuration, its one writer, its accounts and the
sign-in limits) and the decisions every view shares: who may do what, how a submission's
summary becomes a status, the store read on a connection of its own."""
from __future__ import annotations

import asyncio
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from scorebook.errors import UsageError
from scorebook.records.store import Store

from .accounts import Accounts, Attempts, Checker
from .settings import ServeConfig
from .writer import Unavailable, Writer

ACTIONS = {"submit": "scorebook-submit", "analyze": "scorebook-analyze", "tournament": "scorebook-tournament",
           "admin": "scorebook-admin"}
PRIVATE_TABLES = frozenset({"api_tokens", "sessions"})  # never shown: no page, JSON, CSV or SQL reads them


@dataclass
class Service:
    path: str
    writes: bool = False
    config: ServeConfig = field(default_factory=ServeConfig)
    writer: Writer | None = None
    accounts: Accounts = field(default_factory=lambda: Accounts(None))
    attempts: Attempts | None = None
    checker: Checker = field(default_factory=Checker)
    # a submission is read and replayed here, four at a time, before the writer stores it
    parser: ThreadPoolExecutor = field(default_factory=lambda: ThreadPoolExecutor(4, thread_name_prefix="scorebook-read"))

    def __post_init__(self):
        if self.attempts is None:
            limits = self.config.scorebook
            self.attempts = Attempts(limits.login_attempts, limits.login_window)

    @property
    def limits(self):
        return self.config.scorebook


def service_of(datasette) -> Service:
    """The server's state; a Datasette that ``serve`` did not start (the plugin loaded by
    ``datasette`` itself) is read-only."""
    found = getattr(datasette, "scorebook_service", None)
    if found is None:
        found = Service(datasette.get_database().path)
        datasette.scorebook_service = found
    return found


async def refusal(request, datasette, what: str) -> tuple[int, str] | None:
    """None when the request may ``what`` (submit, analyze, admin), else (status, why): 403
    where the server takes no writes or the actor lacks the permission, 503 where the database
    cannot be written now, 401 without a credential."""
    service = service_of(datasette)
    if not service.writes:
        return 403, "this server is read-only (scorebook serve --writes)"
    unavailable = service.writer.refusal() if service.writer is not None else None
    if unavailable:
        return 503, unavailable
    if request.actor is None:
        return 401, "a credential is needed: Authorization: Bearer TOKEN (scorebook token create), or sign in at /-/login"
    if not await datasette.permission_allowed(request.actor, ACTIONS[what], default=False):
        return 403, f"{request.actor.get('id')} may not {what} here"
    return None


def allowed(datasette, actor: dict | None, action: str) -> bool | None:
    """The plugin's answer for Scorebook's actions: a token may do what its scopes say and
    nothing more (whatever the configuration grants its actor); an account what the
    configuration's allow block grants it. None for any other action."""
    from datasette.utils import actor_matches_allow
    if action not in ACTIONS.values():
        return None
    what = action.removeprefix("scorebook-")
    if actor is None:
        return False
    if actor.get("token"):
        return what != "admin" and what in (actor.get("scorebook") or [])
    allow = getattr(service_of(datasette).limits, what)
    return bool(allow is not None and actor_matches_allow(actor, allow))


async def submit(service: Service, data: bytes, source: str) -> dict:
    """A submission: read and replayed on a reading thread, then stored by the writer in one
    short transaction; ``ingest --json``'s document."""
    from scorebook.records.ingest import document, prepare_bytes, store_prepared
    pairs = await parse(service, prepare_bytes, data, source)
    return document(await service.writer.run(lambda st: store_prepared(st, pairs)))


async def posted(request, datasette, what: str) -> tuple[int, str] | None:
    """None when the request is a POST that may ``what``, else (status, why)."""
    if request.method != "POST":
        return 405, f"POST to {what}"
    return await refusal(request, datasette, what)


def submission_status(summary: dict) -> int:
    """201 when a record was stored, 200 when every one was a duplicate, 422 when none was
    stored and one was rejected."""
    return 201 if summary["ingested"] else 200 if not summary["rejected"] else 422


_READERS = threading.local()


def reading(path: str, fn):
    """``fn(store)`` on a read-only connection of this thread's own, kept for the next request
    (Datasette's connections cannot read the private tables)."""
    stores = getattr(_READERS, "stores", None)
    if stores is None:
        stores = _READERS.stores = {}
    store = stores.get(path)
    if store is None:
        try:
            store = stores[path] = Store(path, write=False)
        except UsageError:  # opened anew on a reading thread, and not there: 503, with why
            raise Unavailable(f"the database {os.path.basename(path)} was moved, removed or replaced while "
                              "serving") from None
    return fn(store)


async def read(datasette, fn):
    """``reading`` on one of Datasette's read threads."""
    database = datasette.get_database()
    return await database.execute_fn(lambda conn: reading(database.path, fn))


async def parse(service: Service, fn, *args):
    return await asyncio.get_running_loop().run_in_executor(service.parser, fn, *args)
