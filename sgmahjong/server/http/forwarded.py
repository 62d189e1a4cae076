"""The client's address behind a reverse proxy, believed from the proxy only.

Behind HAProxy every request's TCP peer is the proxy, which names the player in ``X-Forwarded-For``.
That header is believed only from the addresses of ``trusted_proxies`` (a setting; none by default,
so a client talking to the server directly cannot pose as another address): for a request from one
of them, :class:`ForwardedMiddleware` takes the client to be the right-most address of the header
that is not itself a trusted proxy, and puts it in the request's ``client`` (so the table-creation
rate counts players, not the proxy), and ``X-Forwarded-Proto`` in its ``scheme``.

The per-address connection cap (``max_connections_per_address``) is counted on TCP connections by
:mod:`.guard`, where a trusted proxy's connections are not capped, being everyone's. For requests
through a proxy the middleware counts instead, by the forwarded address (an IPv6 one by its /64), the
requests in progress and the WebSockets open: one address beyond the cap is answered 429 (a WebSocket
is refused before its handshake completes). A request from a trusted proxy without the header (its
health check) is the proxy's own and not counted.
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Iterable

from starlette.types import ASGIApp, Receive, Scope, Send

from ..settings import ServerSettings
from .identity import address_key

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class AddressSet:
    """Addresses and networks (``10.0.0.5``, ``10.0.0.0/24``, ``::1``); ``in`` tells whether an
    address is one of them."""

    def __init__(self, entries: Iterable[str]) -> None:
        self.networks: list[Network] = [ipaddress.ip_network(e.strip(), strict=False) for e in entries]
        self.exact = frozenset(str(n.network_address) for n in self.networks if n.num_addresses == 1)

    def __bool__(self) -> bool:
        return bool(self.networks)

    def __contains__(self, address: object) -> bool:
        if not isinstance(address, str) or not self.networks:
            return False
        if address in self.exact:
            return True
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        return any(ip in n for n in self.networks)


def _header(scope: Scope, name: bytes) -> str | None:
    values = [v.decode("latin-1") for k, v in scope.get("headers", ()) if k == name]
    return ",".join(values) if values else None


def forwarded_client(forwarded_for: str, trusted: AddressSet) -> str | None:
    """The client named by an ``X-Forwarded-For`` value: the right-most address that is not a trusted
    proxy (each proxy appends its own peer, so what is left of that one is the client's to write);
    the left-most if every one is a proxy; None if it names none."""
    hops = [h.strip() for h in forwarded_for.split(",") if h.strip()]
    for hop in reversed(hops):
        if hop not in trusted:
            return _bare(hop)
    return _bare(hops[0]) if hops else None


def _bare(hop: str) -> str:
    """An address without brackets or a port (``[::1]:80`` -> ``::1``, ``1.2.3.4:80`` -> ``1.2.3.4``)."""
    if hop.startswith("["):
        return hop[1:].split("]", 1)[0]
    if hop.count(":") == 1:
        return hop.split(":", 1)[0]
    return hop


class ForwardedMiddleware:
    """See the module docstring."""

    def __init__(self, app: ASGIApp, settings: ServerSettings) -> None:
        self.app = app
        self.trusted = AddressSet(settings.trusted_proxies)
        self.per_address = settings.max_connections_per_address
        self.unlimited = AddressSet(settings.unlimited_addresses)
        self.open: dict[str, int] = {}  # forwarded address -> requests in progress and WebSockets open
        self.refused = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = scope.get("client")
        if (scope["type"] not in ("http", "websocket") or not self.trusted or client is None
                or client[0] not in self.trusted):
            await self.app(scope, receive, send)
            return
        forwarded = _header(scope, b"x-forwarded-for")
        address = forwarded_client(forwarded, self.trusted) if forwarded else None
        if address is None:  # the proxy's own request (a health check)
            await self.app(scope, receive, send)
            return
        scope = {**scope, "client": (address, 0)}
        proto = (_header(scope, b"x-forwarded-proto") or "").split(",")[-1].strip().lower()
        if proto in ("http", "https"):
            scope["scheme"] = proto if scope["type"] == "http" else {"http": "ws", "https": "wss"}[proto]
        key = address_key(address)  # an IPv6 client counts by its /64
        count = self.open.get(key, 0)
        if count >= self.per_address and address not in self.unlimited:
            self.refused += 1
            await _refuse(scope, receive, send)
            return
        self.open[key] = count + 1
        try:
            await self.app(scope, receive, send)
        finally:
            left = self.open[key] - 1
            if left:
                self.open[key] = left
            else:
                del self.open[key]


async def _refuse(scope: Scope, receive: Receive, send: Send) -> None:
    if scope["type"] == "websocket":
        await receive()  # websocket.connect; closing before accepting answers the handshake with 403
        await send({"type": "websocket.close", "code": 1013, "reason": "too many connections"})
        return
    body = json.dumps({"error": "too many connections from your address; try again later"}).encode()
    await send({"type": "http.response.start", "status": 429,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()), (b"retry-after", b"5")]})
    await send({"type": "http.response.body", "body": body})
