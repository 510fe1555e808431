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
from datetime import datetime, timezone

from scorebook.errors import NotFound, UsageError

PERMISSIONS = ("submit", "analyze")
TOKEN_RE = re.compile(r"sbk_([0-9a-f]{16})_([0-9A-Za-z_-]{43})")


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def create(store, actor: str, permissions: list[str]) -> str:
    """A new token for ``actor`` with these permissions; the only time its secret is seen."""
    actor = actor.strip()
    if not actor or len(actor) > 64 or not actor.isprintable():
        raise UsageError("an actor is a printable name of 1 to 64 characters")
    unknown = sorted(set(permissions) - set(PERMISSIONS))
    if unknown or not permissions:
        raise UsageError(f"--can takes {' and '.join(PERMISSIONS)} (at least one)")
    token_id, secret = secrets.token_hex(8), secrets.token_urlsafe(32)
    with store.atomic():
        store.db.execute("INSERT INTO api_tokens (id, actor, permissions, secret_hash, created_at) VALUES (?,?,?,?,?)",
                         [token_id, actor, json.dumps(sorted(set(permissions))), _hash(secret), _now()])
    return f"sbk_{token_id}_{secret}"


def revoke(store, token_id: str) -> None:
    """End a token (its id, the part after ``sbk_``); it is kept, marked revoked."""
    with store.atomic():
        done = store.db.execute("UPDATE api_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
                                [_now(), token_id])
    if done.rowcount == 0:
        raise NotFound(f"no active token with id {token_id[:20]!r}")


def listed(store) -> list[dict]:
    """Every token: id, actor, permissions, created, revoked (never a secret)."""
    return [{"id": r["id"], "actor": r["actor"], "permissions": json.loads(r["permissions"]),
             "created_at": r["created_at"], "revoked_at": r["revoked_at"]}
            for r in store.db.query("SELECT * FROM api_tokens ORDER BY created_at, id")]


def any_active(store) -> bool:
    return store.db.execute("SELECT 1 FROM api_tokens WHERE revoked_at IS NULL LIMIT 1").fetchone() is not None


def who(store, token: str) -> dict | None:
    """The actor a presented token stands for (Datasette's actor shape: ``id``, and the
    permissions under ``scorebook``), or None: unknown, revoked or wrong secret. ``store``: a
    Store, or any connection with ``execute`` (Datasette's own, read-only)."""
    m = TOKEN_RE.fullmatch(token.strip())
    if not m:
        return None
    db = getattr(store, "db", store)
    row = db.execute("SELECT actor, permissions, secret_hash FROM api_tokens WHERE id = ? AND revoked_at IS NULL",
                           [m.group(1)]).fetchone()
    if row is None or not hmac.compare_digest(row[2], _hash(m.group(2))):
        return None
    return {"id": row[0], "scorebook": json.loads(row[1]), "token": m.group(1)}
