"""Accounts that sign in with a password, for those who submit from a browser.

The hashes live in a file of their own, never in the server's configuration: one
``NAME:pbkdf2_sha256$ITERATIONS$SALT$HASH`` line an account (the format
``datasette hash-password`` prints), written by ``scorebook account set NAME --file PATH``
with mode 600, read again when it changes. Sign-in is at ``/-/login``; HTTP Basic is never
taken. Each check of a password (0.5 s of PBKDF2) runs on one thread of its own, off the
event loop, so guesses queue behind each other and never behind a page; an unknown name
costs the same check as a known one; a failed sign-in is answered a second late; an account
with ``login_attempts`` failed sign-ins from one address in ``login_window`` seconds (an
address: four times that, whatever the accounts) is answered 429 there, without a check, a
second late too (the waits hold no thread: guessing is slow); the member, from another
address, signs in as ever.
"""
from __future__ import annotations

import asyncio
import base64
import collections
import hashlib
import hmac
import os
import secrets
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from scorebook.errors import UsageError
from scorebook.records.tokens import check_actor

ALGORITHM = "pbkdf2_sha256"
ITERATIONS = 480_000
MAX_ITERATIONS = 2_000_000  # a stored hash asking more is refused, not computed
MAX_FILE_BYTES = 1024 * 1024
MAX_PASSWORD_CHARS = 1024
MAX_WAITING_CHECKS = 8  # sign-ins waiting for the checking thread; past it, 503


def hash_password(password: str, salt: str | None = None, iterations: int = ITERATIONS) -> str:
    salt = salt or secrets.token_hex(16)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), salt.encode("utf-8"), iterations)
    return f"{ALGORITHM}${iterations}${salt}${base64.b64encode(digest).decode('ascii')}"


def _parse(stored: str) -> tuple[int, str] | None:
    parts = stored.strip().split("$")
    if len(parts) != 4 or parts[0] != ALGORITHM or not parts[1].isascii() or not parts[1].isdigit() \
            or not 1 <= int(parts[1]) <= MAX_ITERATIONS or not parts[2] or not parts[3]:
        return None
    return int(parts[1]), parts[2]


#: an unknown name's check hashes the password given with this salt, as many times as an
#: account's (the same time as a known name's); nothing is compared with it, so no hash of it
#: is made ahead (that cost every process importing this module a full hash, 0.27 s)
_UNKNOWN_SALT = secrets.token_hex(16)


def verify(password: str, stored: str | None) -> bool:
    """Whether ``password`` is the one ``stored`` hashes; an unknown account (None) or a
    malformed hash takes a full check and is False."""
    parsed = _parse(stored) if stored else None
    iterations, salt = parsed if parsed else (ITERATIONS, _UNKNOWN_SALT)
    computed = hash_password(password, salt, iterations)
    return bool(parsed) and hmac.compare_digest(computed, stored.strip())


def account_version(stored: str | None) -> str | None:
    """What a session's cookie holds of its account's password: a digest of the stored hash,
    so that a new password, or the account removed, ends every session signed in before."""
    return hashlib.sha256(stored.encode("utf-8")).hexdigest()[:16] if stored else None


def new_session_id() -> str:
    return secrets.token_urlsafe(24)


def read_accounts(path: str) -> dict[str, str]:
    """{name: hash} of an accounts file; UsageError naming the line of a fault."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read(MAX_FILE_BYTES + 1)
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"accounts file {path}: cannot be read ({exc})") from None
    if len(text) > MAX_FILE_BYTES:
        raise UsageError(f"accounts file {path}: larger than {MAX_FILE_BYTES:,} bytes")
    accounts = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        name, sep, stored = line.rpartition(":")
        if not sep or _parse(stored) is None:
            raise UsageError(f"accounts file {path}, line {number}: not NAME:{ALGORITHM}$ITERATIONS$SALT$HASH "
                             "(scorebook account set writes it)")
        try:
            accounts[check_actor(name)] = stored.strip()
        except UsageError as exc:
            raise UsageError(f"accounts file {path}, line {number}: {exc}") from None
    return accounts


def set_account(path: str, name: str, password: str | None) -> bool:
    """Add or change an account (``password`` None: remove it); the file is replaced whole
    (mode 600). Whether the account was there before."""
    name = check_actor(name)
    if ":" in name:
        raise UsageError("an account's name has no ':'")
    if password is not None and not 8 <= len(password) <= MAX_PASSWORD_CHARS:
        raise UsageError(f"a password has 8 to {MAX_PASSWORD_CHARS} characters")
    accounts = read_accounts(path) if os.path.exists(path) else {}
    was = name in accounts
    if password is None:
        accounts.pop(name, None)
    else:
        accounts[name] = hash_password(password)
    folder = os.path.dirname(os.path.abspath(path))
    fd, temporary = tempfile.mkstemp(dir=folder, prefix=".accounts-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write("# Scorebook accounts: NAME:HASH (scorebook account set); keep this file private\n")
            fh.writelines(f"{n}:{h}\n" for n, h in sorted(accounts.items()))
        os.chmod(temporary, 0o600)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise
    return was


class Accounts:
    """The accounts file of a running server, read again when it changes."""

    def __init__(self, path: str | None):
        self.path = path
        self._seen: tuple | None = None
        self._accounts: dict[str, str] = {}
        self._lock = threading.Lock()
        if path:
            self.hash_of("")  # read once at start: a broken file stops the server before it serves

    def __bool__(self) -> bool:
        return bool(self.path)

    def hash_of(self, name: str) -> str | None:
        if not self.path:
            return None
        with self._lock:
            try:
                info = os.stat(self.path)
                seen = (info.st_mtime_ns, info.st_size, info.st_ino)
            except OSError:
                seen = None
            if seen != self._seen:
                self._accounts = read_accounts(self.path) if seen else {}
                self._seen = seen
            return self._accounts.get(name)


ADDRESS_SHARE = 4  # an address (a club behind one NAT) may fail this many times an account's limit


class Attempts:
    """Failed sign-ins in a sliding window, counted per address and account together (an
    account's own member, from another address, is never locked out by someone else's
    guesses) and per address (``ADDRESS_SHARE`` times the limit: one address guessing many
    accounts). An attempt counts as failed from before its check until it succeeds
    (``begin``, ``succeeded``): sign-ins sent all at once cannot pass the limit."""

    def __init__(self, limit: int, window: float):
        self.limit, self.window = limit, window
        self._failures: dict[str, collections.deque] = {}

    @staticmethod
    def keys(address: str, account: str) -> tuple[str, str]:
        return f"address:{address}", f"account:{account}@{address}"

    def _recent(self, key: str) -> collections.deque:
        times = self._failures.setdefault(key, collections.deque())
        while times and times[0] < time.monotonic() - self.window:
            times.popleft()
        return times

    def _limit(self, key: str) -> int:
        return self.limit * ADDRESS_SHARE if key.startswith("address:") else self.limit

    def wait(self, *keys: str) -> int:
        """Seconds until every key may try again (0: now)."""
        waits = [self._recent(k)[-self._limit(k)] + self.window - time.monotonic() for k in keys
                 if len(self._recent(k)) >= self._limit(k)]
        return int(max(waits)) + 1 if waits else 0

    def begin(self, *keys: str) -> int:
        """An attempt: counted as failed at once where the keys may try (0), else the seconds to wait."""
        wait = self.wait(*keys)
        if not wait:
            self.fail(*keys)
        return wait

    def succeeded(self, *keys: str) -> None:
        """The attempt ``begin`` counted succeeded: it is not a failure."""
        for k in keys:
            if self._recent(k):
                self._recent(k).pop()

    def fail(self, *keys: str) -> None:
        if len(self._failures) > 100_000:  # a flood of addresses: forget the quiet ones
            self._failures = {k: v for k, v in self._failures.items() if self._recent(k)}
        for k in keys:
            self._recent(k).append(time.monotonic())


class Checker:
    """Checks passwords on one thread of its own, a few waiting at most."""

    def __init__(self):
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="scorebook-sign-in")
        self._waiting = 0

    async def check(self, password: str, stored: str | None) -> bool | None:
        """Whether it matches; None when too many sign-ins wait already."""
        if self._waiting >= MAX_WAITING_CHECKS:
            return None
        self._waiting += 1
        try:
            return await asyncio.wrap_future(self._pool.submit(verify, password, stored))
        finally:
            self._waiting -= 1
