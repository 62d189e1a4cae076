"""Who a request or a WebSocket is: one identity for every visitor (docs/security.md).

Every visitor is a player with a server-side session: a random 256-bit id in the ``sg_session`` cookie
(HttpOnly, SameSite=Lax, Secure over TLS), stored only as its SHA-256. A **guest** is a player without
an account; an **account** owns the players that signed in to it. The session is made by the first
request that needs one (:func:`ensure`: taking a seat, naming yourself, joining a club...), new
sessions are limited per address, and every route authorises from the session alone.

Signing in, signing out and deleting replace the session (:func:`replace`): the device keeps its
*lineage* (the id of the first session it had), so the ranked queue can tell that two accounts were
used on one device. A signed-out device is a new guest with no power over the account's hands, seats
or clubs.

Every limit counts per person, never per connection: by the visitor's identity and by its address (an
IPv6 client by its /64, the block one subscriber is given); :func:`person_keys` gives both keys.
"""

from __future__ import annotations

import ipaddress
import secrets
import time
from dataclasses import dataclass
from typing import Any

from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..protocol import ProtocolError
from ..store.accounts import AccountRow
from ..store.identity_sql import SessionRow
from ..table.seats import hash_token as digest
from .limits import AddressBuckets

COOKIE = "sg_session"
TOUCH_SECONDS = 300.0  # a session's last use (and its account's sightings) is written at most this often
_BOX = "sg_set_cookie"  # where a route leaves the Set-Cookie values for :class:`SessionCookies`
_VISITOR = "sg_visitor"  # the request's visitor, once read
LABEL_MAX = 60


@dataclass
class Visitor:
    """The person behind a request: its session, its player, and its account when signed in."""

    session: SessionRow
    account: AccountRow | None
    player_ids: list[int]  # every player it acts as: the account's, or its own

    @property
    def player_id(self) -> int:
        return self.session.player_id


def address_key(host: str | None) -> str:
    """The address a limit counts: an IPv4 address as it is, an IPv6 address by its /64."""
    if not host:
        return "?"
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))
    return str(ip)


def address_of(conn: HTTPConnection) -> str:
    """The client address of a request or WebSocket (behind a trusted proxy: the forwarded one)."""
    return address_key(conn.client.host if conn.client else None)


def device_label(conn: HTTPConnection) -> str:
    """A short name of the device from its User-Agent (for the list of devices; never trusted)."""
    agent = conn.headers.get("user-agent", "")
    browser = next((b for b in ("Edg", "Firefox", "Chrome", "Safari") if b in agent), "Browser")
    system = next((s for s in ("Android", "iPhone", "iPad", "Windows", "Mac OS", "Linux") if s in agent), "")
    name = {"Edg": "Edge"}.get(browser, browser)
    return (f"{name} on {system}" if system else name)[:LABEL_MAX]


def _token_ok(token: str | None) -> bool:
    return token is not None and len(token) == 43 and token.replace("-", "").replace("_", "").isalnum()


def visitor(server: Any, conn: HTTPConnection) -> Visitor | None:
    """The visitor of a request or WebSocket by its session cookie (renewed when half of its life has
    passed), or None: no session yet, or one that ended (signed out, expired, deleted)."""
    state = conn.scope.setdefault("state", {})
    if _VISITOR in state:
        found: Visitor | None = state[_VISITOR]
        return found
    found = _read(server, conn)
    state[_VISITOR] = found
    return found


def _read(server: Any, conn: HTTPConnection) -> Visitor | None:
    token = conn.cookies.get(COOKIE)
    if not _token_ok(token):
        return None
    store, settings = server.store, server.settings
    now = time.time()
    session = store.session(digest(str(token)), now)
    if session is None:
        return None
    account = None
    if session.account_id is not None:
        account = store.account(session.account_id)
        if account is None:
            return None
    lifetime = _lifetime(settings, account is not None)
    renew = session.expires - now < lifetime / 2
    address = address_of(conn)
    if renew or now - session.last_seen > TOUCH_SECONDS or address != session.address:
        expires = now + lifetime if renew else session.expires
        store.touch_session(session.id_hash, now, expires, address)
        session.last_seen, session.expires, session.address = now, expires, address
        if account is not None:
            _sighted(store, account.id, session, now)
        if renew:
            _set_cookie(conn, str(token), lifetime)
    ids = store.account_players(account.id) if account is not None else [session.player_id]
    return Visitor(session, account, ids or [session.player_id])


def _lifetime(settings: Any, signed_in: bool) -> float:
    return float(settings.session_days if signed_in else settings.guest_session_days) * 86400


def _sighted(store: Any, account_id: int, session: SessionRow, now: float) -> None:
    store.note_sighting(account_id, "device", session.lineage, now)
    if session.address:
        store.note_sighting(account_id, "address", session.address, now)


class NewVisitors:
    """How fast one address may make new identities (``identities_per_hour`` after ``identity_burst``)."""

    def __init__(self, settings: Any) -> None:
        self.buckets = AddressBuckets(settings.identities_per_hour / 3600, settings.identity_burst,
                                      settings.tracked_addresses)


def ensure(server: Any, conn: HTTPConnection, name: str = "") -> Visitor:
    """The visitor, made now if it has none: a new guest player and its session (the cookie goes
    with the answer). New identities are limited per address (``ProtocolError`` rate_limited)."""
    found = visitor(server, conn)
    if found is not None:
        return found
    address = address_of(conn)
    limit: NewVisitors = conn.app.state.new_visitors
    if not limit.buckets.take(address):
        wait = max(1, round(limit.buckets.wait(address)))
        raise ProtocolError("rate_limited", f"too many new players from your address; try again in {wait} s")
    return replace(server, conn, server.store.new_guest(name), None)


def replace(server: Any, conn: HTTPConnection, player_id: int, account_id: int | None) -> Visitor:
    """End the request's session (if any) and start one for ``player_id`` (signed in to
    ``account_id``) on the same device: its lineage is kept. The cookie goes with the answer."""
    store, settings = server.store, server.settings
    old = visitor(server, conn)
    if old is not None:
        store.end_session(old.session.id_hash)
    token = secrets.token_urlsafe(32)
    now = time.time()
    lifetime = _lifetime(settings, account_id is not None)
    lineage = old.session.lineage if old is not None else secrets.token_hex(16)
    row = SessionRow(digest(token), player_id, account_id, lineage, address_of(conn), now, now + lifetime,
                     now, device_label(conn))
    store.add_session(row, settings.sessions_per_account)
    account = None
    if account_id is not None:
        account = store.account(account_id)
        _sighted(store, account_id, row, now)
    _set_cookie(conn, token, lifetime)
    ids = store.account_players(account_id) if account_id is not None else [player_id]
    made = Visitor(row, account, ids or [player_id])
    conn.scope.setdefault("state", {})[_VISITOR] = made
    return made


def forget(server: Any, conn: HTTPConnection) -> None:
    """This device's session is gone (its player deleted): the cookie is cleared with the answer."""
    conn.scope.setdefault("state", {})[_VISITOR] = None
    _box(conn).append(_cookie_value(conn, "", 0))


def player_ids_of(server: Any, conn: HTTPConnection) -> list[int]:
    """Every player id the visitor acts as: the signed-in account's players, else its own; [] for a
    visitor without a session."""
    found = visitor(server, conn)
    return [] if found is None else list(found.player_ids)


def person_keys(server: Any, conn: HTTPConnection) -> tuple[str, ...]:
    """The keys a per-person limit counts under: the address's, and the identity's when known (an
    account's, so that its devices share one budget)."""
    found = visitor(server, conn)
    keys = [f"a:{address_of(conn)}"]
    if found is not None:
        keys.append(f"u:{found.account.id}" if found.account is not None else f"p:{found.player_id}")
    return tuple(keys)


def display_name(server: Any, conn: HTTPConnection, most: int) -> str:
    """The name the visitor shows others (a signed-in account's, else the guest player's display name),
    cut to ``most`` characters; "" when it has none (no session, or no name saved on /me)."""
    found = visitor(server, conn)
    if found is None:
        return ""
    name = found.account.name if found.account is not None else server.store.player_name(found.player_id)
    return (name or "")[:most]


# -- the cookie ------------------------------------------------------------------------------------
def _box(conn: HTTPConnection) -> list[str]:
    box: list[str] = conn.scope.setdefault("state", {}).setdefault(_BOX, [])
    return box


def _cookie_value(conn: HTTPConnection, token: str, max_age: float) -> str:
    secure = "; Secure" if conn.url.scheme in ("https", "wss") else ""
    return f"{COOKIE}={token}; Max-Age={int(max_age)}; Path=/; HttpOnly; SameSite=Lax{secure}"


def _set_cookie(conn: HTTPConnection, token: str, lifetime: float) -> None:
    box = _box(conn)
    box[:] = [_cookie_value(conn, token, lifetime)]


class SessionCookies:
    """Adds the Set-Cookie of a session a route made or renewed (:func:`ensure`, :func:`replace`,
    :func:`forget`) to the route's answer, whatever the answer is."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        box: list[str] = []
        scope.setdefault("state", {})[_BOX] = box

        async def with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start" and box:
                headers = list(message.get("headers", []))
                headers += [(b"set-cookie", value.encode("latin-1")) for value in box]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_cookie)
