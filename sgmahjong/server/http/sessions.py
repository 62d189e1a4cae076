"""Signed-in sessions and device link codes.

A session is a random id (256 bits) in a cookie (HttpOnly, SameSite=Lax, Secure when the request came
over TLS), stored only as its SHA-256; it lasts ``session_days`` and is renewed when half of that has
passed. A device link code is 10 characters of Crockford base32 (50 bits), shown as ``XXXXX-XXXXX``,
stored only as its SHA-256, valid ``link_code_seconds`` and spent at its first use.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
import unicodedata
from dataclasses import dataclass
from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import Response

from ..settings import ServerSettings
from ..store.accounts import AccountRow, SessionRow

COOKIE = "sg_session"
CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford base32: no I, L, O, U
CODE_LENGTH = 10  # characters: 50 bits
CODE_BITS = 5 * CODE_LENGTH
SESSION_RE = re.compile(r"^[A-Za-z0-9_-]{43}$")
TOUCH_SECONDS = 300.0  # a session's last use is written at most this often
LABEL_MAX = 60


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def name_key(name: str) -> str:
    """How account names are compared (unique among accounts): NFKC, case-folded, spaces squeezed."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def new_code() -> str:
    """A fresh device link code, ``XXXXX-XXXXX``."""
    raw = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    return f"{raw[:5]}-{raw[5:]}"


def normalize_code(text: str) -> str | None:
    """A typed code as issued (case, spaces and dashes ignored; O read as 0, I and L as 1), or None."""
    raw = "".join(text.split()).replace("-", "").upper()
    raw = raw.translate(str.maketrans("OIL", "011"))
    if len(raw) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in raw):
        return None
    return f"{raw[:5]}-{raw[5:]}"


def device_label(request: Request) -> str:
    """A short name of the device from its User-Agent (for the list of devices; never trusted)."""
    agent = request.headers.get("user-agent", "")
    browser = next((b for b in ("Edg", "Firefox", "Chrome", "Safari") if b in agent), "Browser")
    system = next((s for s in ("Android", "iPhone", "iPad", "Windows", "Mac OS", "Linux") if s in agent), "")
    name = {"Edg": "Edge"}.get(browser, browser)
    return (f"{name} on {system}" if system else name)[:LABEL_MAX]


@dataclass
class Signed:
    """The account of a request's session."""

    account: AccountRow
    session: SessionRow


def current(request: HTTPConnection, store: Any, settings: ServerSettings) -> Signed | None:
    """The request's signed-in account (its session renewed when half of it has passed), or None."""
    token = request.cookies.get(COOKIE)
    if token is None or not SESSION_RE.match(token):
        return None
    now = time.time()
    session = store.session(digest(token), now)
    if session is None:
        return None
    account = store.account(session.account_id)
    if account is None:
        return None
    lifetime = settings.session_days * 86400
    renew = session.expires - now < lifetime / 2
    if renew or now - session.last_seen > TOUCH_SECONDS:
        expires = now + lifetime if renew else session.expires
        store.touch_session(session.id_hash, now, expires)
        session.last_seen, session.expires = now, expires
    return Signed(account, session)


def start(request: Request, response: Response, store: Any, settings: ServerSettings,
          account_id: int) -> None:
    """Sign ``account_id`` in: a new session, its id set in the response's cookie."""
    token = secrets.token_urlsafe(32)
    lifetime = settings.session_days * 86400
    store.add_session(digest(token), account_id, time.time() + lifetime, device_label(request),
                      settings.sessions_per_account)
    response.set_cookie(COOKIE, token, max_age=int(lifetime), path="/", httponly=True, samesite="lax",
                        secure=request.url.scheme == "https")


def clear(request: Request, response: Response) -> None:
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax",
                           secure=request.url.scheme == "https")


def device_ref(session: SessionRow) -> str:
    """A session's name in the list of devices (a prefix of its hash: it signs nobody in)."""
    return session.id_hash[:16]
