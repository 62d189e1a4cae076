"""Who a request or a WebSocket is: the person behind it, for authorisation and for every limit.

Every limit counts per person, never per connection: by the visitor's identity (its player, or every
player of its signed-in account) and by its address (an IPv6 client by its /64, the block one
subscriber is given). :func:`person_keys` gives both keys; a limit takes one token from each.
"""

from __future__ import annotations

import ipaddress
from typing import Any

from starlette.requests import HTTPConnection

from ..table.seats import hash_token
from . import sessions

PLAYER_HEADER = "X-Player"  # the old browser-held identity


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


def player_ids_of(server: Any, conn: HTTPConnection) -> list[int]:
    """Every player id the visitor acts as: the signed-in account's players, else its own; [] for a
    visitor the server does not know yet."""
    store = server.store
    signed = sessions.current(conn, store, server.settings)
    if signed is not None:
        return list(store.account_players(signed.account.id))
    secret = conn.headers.get(PLAYER_HEADER)
    if isinstance(secret, str) and 32 <= len(secret) <= 128:
        player = store.player(hash_token(secret))
        if player is not None:
            return [player.id]
    return []


def person_keys(server: Any, conn: HTTPConnection) -> tuple[str, ...]:
    """The keys a per-person limit counts under: the address's, and the identity's when known."""
    ids = player_ids_of(server, conn)
    keys = [f"a:{address_of(conn)}"]
    if ids:
        keys.append(f"p:{min(ids)}")
    return tuple(keys)
