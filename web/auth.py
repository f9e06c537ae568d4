"""Who may use the page: the access code, the session cookie it buys, the CSRF token on every
form, and the limit on guessing the code.

- On a loopback address (the default) only this laptop reaches the server: no code is asked.
  The Host header must then name the loopback address, so a web page elsewhere cannot reach the
  server through a name that resolves to 127.0.0.1 (DNS rebinding).
- On any other address the server prints an access code at start-up. Every request without a
  session bought with that code is refused with 401 (a GET gets the code page as the 401's
  body). The code is 8 characters from 31 (about 2^39.6), compared in constant time, and
  failed attempts are limited per client address and in all.
- The session is Flask's signed cookie (HttpOnly, SameSite=Strict). It holds the referee's
  folder id, the CSRF token and a fingerprint of the code it was bought with (a new code at
  the next start-up asks for the code again, and the referee finds his disputes again).
- Every POST carries the session's CSRF token, and a browser's Origin, when sent, must be
  this server.
"""
from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
import threading
import time
from collections import deque
from urllib.parse import urlsplit

from flask import Flask, abort, request, session

from referee.web.store import new_owner

ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"     # no 0/O, 1/I/L: read aloud and typed on a phone
CODE_LENGTH = 8


def is_loopback(host: str) -> bool:
    if host in ("localhost", "ip6-localhost"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def new_code() -> str:
    raw = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))
    return f"{raw[:4]}-{raw[4:]}"


def normalize(code: str) -> str:
    return "".join(ch for ch in (code or "").upper() if ch.isalnum())


class Attempts:
    """Failed code attempts in a sliding window, per client address and in all."""

    def __init__(self, per_client: int = 5, overall: int = 60, window: float = 60.0, clock=time.monotonic):
        self.per_client, self.overall, self.window, self.clock = per_client, overall, window, clock
        self._failed: dict[str, deque] = {}
        self._all: deque = deque()
        self._lock = threading.Lock()

    def _trim(self, q: deque, now: float) -> None:
        while q and q[0] <= now - self.window:
            q.popleft()

    def wait(self, client: str) -> int:
        """Seconds the client must wait before the next attempt (0: may try now)."""
        with self._lock:
            now = self.clock()
            q = self._failed.get(client, deque())
            self._trim(q, now)
            self._trim(self._all, now)
            waits = []
            if len(q) >= self.per_client:
                waits.append(q[0] + self.window - now)
            if len(self._all) >= self.overall:
                waits.append(self._all[0] + self.window - now)
            return max(1, int(max(waits) + 0.999)) if waits else 0

    def failed(self, client: str) -> None:
        with self._lock:
            now = self.clock()
            self._failed.setdefault(client, deque()).append(now)
            self._all.append(now)
            if len(self._failed) > 10_000:          # a flood of addresses: forget the oldest
                self._failed.pop(next(iter(self._failed)))

    def succeeded(self, client: str) -> None:
        with self._lock:
            self._failed.pop(client, None)


class Guard:
    """Installs the checks on an app. ``code`` None: loopback, no code asked."""

    OPEN = ("web.code", "web.code_post")       # the only endpoints a visitor without the code reaches

    def __init__(self, code: str | None, hosts: set[str] | None = None, attempts: Attempts | None = None):
        self.code = code
        self.hosts = hosts                     # allowed Host headers (loopback), None: any
        self.attempts = attempts or Attempts()

    def fingerprint(self, secret: bytes) -> str:
        return hmac.new(secret, normalize(self.code or "").encode(), hashlib.sha256).hexdigest()[:32]

    def install(self, app: Flask) -> None:
        app.before_request(self._before)
        app.jinja_env.globals["csrf_token"] = csrf_token

    # --- each request --------------------------------------------------------------------
    def _before(self):
        if self.hosts is not None and request.host.lower() not in self.hosts:
            abort(400, "this server answers only to its loopback address")
        if request.method not in ("GET", "HEAD"):
            check_origin()
            check_csrf()
        if self.code is None:
            session.setdefault("owner", new_owner())
            session.permanent = True
            return None
        if self.authorized():
            return None
        if request.endpoint in self.OPEN:
            return None
        abort(401)

    def authorized(self) -> bool:
        from flask import current_app
        if self.code is None:
            return True
        given = session.get("auth") or ""
        return bool(given) and hmac.compare_digest(given, self.fingerprint(_secret(current_app)))

    def try_code(self, typed: str) -> tuple[bool, int]:
        """Check a typed code: (accepted, seconds to wait when refused for too many attempts)."""
        from flask import current_app
        client = request.remote_addr or "?"
        wait = self.attempts.wait(client)
        if wait:
            return False, wait
        if self.code is None or not hmac.compare_digest(normalize(typed), normalize(self.code)):
            self.attempts.failed(client)
            return False, 0
        self.attempts.succeeded(client)
        owner = session.get("owner") if isinstance(session.get("owner"), str) else None
        session.clear()                      # a fresh session: nothing from before the code survives
        session["owner"] = owner or new_owner()  # but the referee's folder: he finds his disputes
        session["auth"] = self.fingerprint(_secret(current_app))
        session["csrf"] = secrets.token_urlsafe(24)
        session.permanent = True
        return True, 0


def _secret(app: Flask) -> bytes:
    key = app.secret_key
    return key if isinstance(key, bytes) else str(key).encode()


def csrf_token() -> str:
    token = session.get("csrf")
    if not token:
        token = session["csrf"] = secrets.token_urlsafe(24)
    return token


def check_csrf() -> None:
    sent = request.form.get("csrf", "")
    token = session.get("csrf", "")
    if not token or not sent or not hmac.compare_digest(sent, token):
        abort(403, "the form's security token is missing or stale: reload the page")


def check_origin() -> None:
    origin = request.headers.get("Origin")
    if origin and origin != "null" and urlsplit(origin).netloc.lower() != request.host.lower():
        abort(403, "a form from another site")


def loopback_hosts(host: str, port: int) -> set[str]:
    names = {"127.0.0.1", "localhost", "[::1]", host if ":" not in host else f"[{host}]"}
    return {f"{n}:{port}" for n in names} | ({n for n in names} if port == 80 else set())
