"""Tokens for programs that write to a served archive: ``scorebook token create ACTOR --can
submit --can analyze`` prints ``sbk_<id>_<secret>`` once; the database keeps the id, the
actor, what it may do and a SHA-256 of the secret, never the secret. A request presents it as
``Authorization: Bearer sbk_...``; ``scorebook token revoke ID`` ends it at once.

>>> from scorebook.records.store import Store
>>> store = Store(":memory:")
>>> token = create(store, "club-bot", ["submit"])
>>> who(store, token)["id"], who(store, token)["scorebook"]
('club-bot', ['submit'])
>>> revoke(store, token.split("_")[1]); who(store, token) is None
True
"""
from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets

from scorebook.errors import NotFound, UsageError

PERMISSIONS = ("submit", "analyze", "tournament")
TOKEN_RE = re.compile(r"sbk_([0-9a-f]{16})_([0-9A-Za-z_-]{43})")


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


RESERVED_ACTORS = frozenset({"root"})  # Datasette's own administrator: never a token's or an account's


def check_actor(actor: str) -> str:
    """An actor's name as the service takes it: printable, 1 to 64 characters, not reserved."""
    actor = actor.strip()
    if not actor or len(actor) > 64 or not actor.isprintable():
        raise UsageError("an actor is a printable name of 1 to 64 characters")
    if actor.lower() in RESERVED_ACTORS:
        raise UsageError(f"{actor!r} is reserved (Datasette's administrator): choose another name")
    return actor


def create(store, actor: str, permissions: list[str]) -> str:
    """A new token for ``actor`` with these permissions; the only time its secret is seen."""
    actor = check_actor(actor)
    unknown = sorted(set(permissions) - set(PERMISSIONS))
    if unknown or not permissions:
        raise UsageError(f"--can takes {', '.join(PERMISSIONS)} (at least one)")
    token_id, secret = secrets.token_hex(8), secrets.token_urlsafe(32)
    store.add_token(token_id, actor, json.dumps(sorted(set(permissions))), _hash(secret))
    return f"sbk_{token_id}_{secret}"


def revoke(store, token_id: str) -> None:
    """End a token (its id, the part after ``sbk_``); it is kept, marked revoked."""
    if not store.revoke_token(token_id):
        raise NotFound(f"no active token with id {token_id[:20]!r}")


def listed(store) -> list[dict]:
    """Every token: id, actor, permissions, created, revoked (never a secret)."""
    return [dict(r, permissions=json.loads(r["permissions"])) for r in store.tokens()]


def any_active(store) -> bool:
    return store.any_active_token()


def who(store, token: str) -> dict | None:
    """The actor a presented token stands for (Datasette's actor shape: ``id``, the
    permissions under ``scorebook``, the token's id under ``token``), or None: unknown,
    revoked, wrong secret, or a reserved name."""
    m = TOKEN_RE.fullmatch(token.strip())
    if not m:
        return None
    row = store.active_token(m.group(1))
    if row is None or not hmac.compare_digest(row[2], _hash(m.group(2))) or row[0].lower() in RESERVED_ACTORS:
        return None
    return {"id": row[0], "scorebook": json.loads(row[1]), "token": m.group(1)}
