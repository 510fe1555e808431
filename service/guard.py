"""What stands in front of every request, before Datasette or any of its middleware sees it.

``Guard`` (ASGI middleware, the outermost):
- on a loopback address, only requests naming a loopback host (421 otherwise: a page from
  another site, its name rebound to 127.0.0.1, names its own host);
- only ``Authorization: Bearer sbk_...`` (a Scorebook token) is taken: HTTP Basic and any
  other scheme are 401, answered a second late (guessing is slow; the wait holds no thread),
  and a token beside a sign-in cookie is 400 (a request is a program's
  or a browser's, never both: a browser's needs its CSRF token);
- GET, HEAD and POST only; no multipart body (415: the forms send urlencoded text);
- a body is read here, whole, before anything else reads it: refused at once (413) when its
  declared length is past the route's limit, cut off when it sends more than its limit,
  408 when it takes longer than ``body_seconds``; a form's body must be UTF-8 text (400).
  Without a credential a body is small (a sign-in form);
- the pages that would show the server's configuration (``/-/metadata``), its database's
  path, threads or versions, and Datasette's debugging tools are not served; a Cookie header
  that is not UTF-8 is 400;
- every answer says ``nosniff``, is never framed by another site, and sends no referrer away.

``GuardedH11`` (uvicorn's HTTP protocol): a connection that has not sent a request's headers
within ``header_seconds`` of opening, or of its last answer, is closed: idle connections
cannot pile up until the server runs out of files.
"""
from __future__ import annotations

import asyncio
import collections
import ipaddress
import json
import re
import urllib.parse

from uvicorn.protocols.http.h11_impl import H11Protocol

from .settings import Limits

API = "/-/scorebook/api/"
SUBMIT_API = "/-/scorebook/api/records"
SUBMIT_FORM = "/-/scorebook/submit"
LOGIN = "/-/login"
TOKEN = re.compile(rb"Bearer sbk_[0-9a-f]{16}_[0-9A-Za-z_-]{43}")
# the server's configuration, its files' paths, threads and versions: shown to no one
HIDDEN = re.compile(r"^/-/(metadata|password-tool|databases|threads|versions|plugins|messages|allow-debug|permissions"
                    r"|create-token)(\.json)?/?$")
LOGIN_BYTES = 8 * 1024  # a sign-in form
SMALL_BYTES = 16 * 1024  # any other body of a request with a credential (an analysis asked for, a cancel)
# a director's ask (JSON or a form): at most 500 players of 100 characters joined at once
TOURNAMENT_PATHS = ("/-/scorebook/api/tournaments", "/-/scorebook/tournament/act")
TOURNAMENT_BYTES = 64 * 1024
ANONYMOUS_BYTES = 4 * 1024  # a body without any credential: it will be refused, so it is not read far
FORM_OVERHEAD = 3  # a form's text, percent-encoded, takes at most three bytes a byte
SECURITY_HEADERS = [(b"x-content-type-options", b"nosniff"), (b"x-frame-options", b"DENY"),
                    (b"referrer-policy", b"same-origin")]
LOOPBACK_NAMES = (b"localhost", b"127.0.0.1", b"[::1]")
REFUSED_CREDENTIAL_DELAY = 1.0  # seconds before a refused Authorization is answered (no thread held)


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class Guard:
    def __init__(self, app, limits: Limits, *, loopback: bool, signed_in=None):
        """``signed_in(cookie value)``: whether a ``ds_actor`` cookie is one this server
        signed (Datasette's ``unsign``)."""
        self.app, self.limits, self.loopback = app, limits, loopback
        self.signed_in = signed_in or (lambda value: False)

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refused = self.refusal(scope)
        if refused is not None:
            if refused[0] == 401:  # a credential refused: answered late, so that guessing is slow
                await asyncio.sleep(REFUSED_CREDENTIAL_DELAY)
            await answer(send, scope, *refused)
            return
        if scope["method"] == "POST":
            got = await self.body(scope, receive)
            if isinstance(got, tuple):
                await answer(send, scope, *got)
                return
            receive = _replay(got, receive)

        async def send_secure(message):
            if message["type"] == "http.response.start":
                message = dict(message, headers=[*message.get("headers", []), *SECURITY_HEADERS])
            await send(message)
        await self.app(scope, receive, send_secure)

    def refusal(self, scope) -> tuple[int, str] | None:
        headers = dict(scope.get("headers") or [])
        if self.loopback:
            host = headers.get(b"host", b"").lower()
            name = host.split(b"]")[0] + b"]" if host.startswith(b"[") else host.split(b":")[0]
            if name not in LOOPBACK_NAMES:
                return 421, "misdirected request: this server answers for the local machine's own names only"
        if scope["method"] not in ("GET", "HEAD", "POST"):
            return 405, f"{scope['method'][:10]} is not taken here: GET, HEAD and POST"
        if HIDDEN.match(scope["path"]):
            return 404, "not found"
        try:
            headers.get(b"cookie", b"").decode("utf-8")
        except UnicodeDecodeError:
            return 400, "a Cookie header is UTF-8 text"
        authorization = headers.get(b"authorization")
        if authorization is not None:
            if not TOKEN.fullmatch(authorization.strip()):
                return 401, ("only Authorization: Bearer with a Scorebook token is taken (scorebook token create); "
                             "people sign in at /-/login")
            if self._signed_cookie(headers):
                return 400, "a request carries a token or a sign-in cookie, not both"
        if scope["method"] == "POST" and headers.get(b"content-type", b"").lower().startswith(b"multipart/"):
            return 415, "multipart bodies are not taken: send the text (forms send it urlencoded)"
        return None

    def _signed_cookie(self, headers: dict) -> bool:
        cookies = headers.get(b"cookie", b"").decode("latin-1")
        for part in cookies.split(";"):
            name, _, value = part.strip().partition("=")
            if name == "ds_actor" and self.signed_in(value):
                return True
        return False

    def limit(self, scope, headers: dict) -> int:
        path = scope["path"]
        if path == LOGIN:
            return LOGIN_BYTES
        credential = TOKEN.fullmatch(headers.get(b"authorization", b"").strip()) or self._signed_cookie(headers)
        if not credential:
            return ANONYMOUS_BYTES
        if path == SUBMIT_API:
            return self.limits.max_submission_bytes
        if path == SUBMIT_FORM:
            return FORM_OVERHEAD * self.limits.max_submission_bytes + 4096
        if path in TOURNAMENT_PATHS:
            return TOURNAMENT_BYTES
        return SMALL_BYTES

    async def body(self, scope, receive) -> bytes | tuple[int, str]:
        headers = dict(scope.get("headers") or [])
        limit = self.limit(scope, headers)
        too_large = (413, f"a body here is at most {limit:,} bytes"
                     + (" (max_submission_bytes)" if scope["path"] in (SUBMIT_API, SUBMIT_FORM) else ""))
        declared = headers.get(b"content-length")
        if declared is not None:
            if not declared.isdigit() or len(declared) > 18:
                return 400, "Content-Length is not a number"
            if int(declared) > limit:
                return too_large
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.limits.body_seconds
        chunks, size = [], 0
        while True:
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - loop.time()))
            except asyncio.TimeoutError:
                return 408, f"the body took longer than {self.limits.body_seconds:g} s"
            if message["type"] == "http.disconnect":
                return 400, "the client went away"
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                return too_large
            chunks.append(chunk)
            if not message.get("more_body"):
                break
        data = b"".join(chunks)
        if headers.get(b"content-type", b"").lower().startswith(b"application/x-www-form-urlencoded"):
            try:
                urllib.parse.parse_qsl(data.decode("ascii"), keep_blank_values=True, errors="strict",
                                       max_num_fields=100)
            except (UnicodeDecodeError, ValueError):
                return 400, "a form's body is urlencoded UTF-8 text of at most 100 fields"
        return data


def _replay(data: bytes, receive):
    sent = False

    async def replay():
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": data, "more_body": False}
        return await receive()  # after the body: the disconnect, when it comes
    return replay


async def answer(send, scope, status: int, why: str) -> None:
    """A refusal, as JSON on the API's paths, as text elsewhere; the connection then closes."""
    if scope["path"].startswith(API):
        body, kind = json.dumps({"error": why}).encode(), b"application/json"
    else:
        body, kind = (why + "\n").encode(), b"text/plain; charset=utf-8"
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", kind), (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close"), *SECURITY_HEADERS]})
    await send({"type": "http.response.body", "body": body})


class GuardedH11(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request's headers, and a limit of open
    connections from one address (``max_connections_per_address``): past it a connection is
    closed as it opens, so that one client's idle connections never take the server's whole
    ``max_connections`` from everyone else."""

    #: open connections by peer address (one server a process; the event loop's thread only)
    by_address: collections.Counter = collections.Counter()

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        peer = transport.get_extra_info("peername")
        self._peer = peer[0] if peer else "?"
        GuardedH11.by_address[self._peer] += 1
        if GuardedH11.by_address[self._peer] > self.config.per_address:
            transport.close()
            return
        self._arm_header_deadline()

    def connection_lost(self, exc) -> None:
        super().connection_lost(exc)
        peer = getattr(self, "_peer", None)
        if peer is not None:
            GuardedH11.by_address[peer] -= 1
            if GuardedH11.by_address[peer] <= 0:
                del GuardedH11.by_address[peer]
            self._peer = None

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._arm_header_deadline()

    def _arm_header_deadline(self) -> None:
        self.loop.call_later(self.config.header_seconds, self._headers_due, self.cycle)

    def _headers_due(self, cycle) -> None:
        # the same cycle as when armed: no request's headers came since
        if self.cycle is cycle and not self.transport.is_closing():
            self.transport.close()
