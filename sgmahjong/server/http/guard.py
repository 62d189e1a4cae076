"""Limits on TCP connections, enforced in uvicorn's protocol objects before any request is parsed:
how many connections in all and per client address (an IPv6 one by its /64), and how long a client
may take to send a request's headers (uvicorn has no header timeout of its own: a slow-headers client,
or one that connects and sends nothing, would hold its connection forever).

:func:`uvicorn_options` gives the keyword arguments of ``uvicorn.Config`` / ``uvicorn.run`` that put
these protocols and the other connection settings of :class:`~.settings.ServerSettings` in place.
"""

from __future__ import annotations

import asyncio
import logging
import resource
from collections.abc import Sequence
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from ..settings import ServerSettings
from .forwarded import AddressSet
from .identity import address_key

log = logging.getLogger("sgmahjong.server")

FD_RESERVE = 64  # open files kept free for the database, logs and static files


def open_file_limit() -> int:
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


class ConnectionGuard:
    """Counts open connections (by transport, so an HTTP connection upgraded to a WebSocket stays one)."""

    def __init__(self, settings: ServerSettings) -> None:
        self.settings = settings
        self.limit = max(1, min(settings.max_connections, open_file_limit() - FD_RESERVE))
        self.per_address = settings.max_connections_per_address
        # a trusted proxy's connections are everyone's: capped per forwarded address instead (forwarded.py)
        self.unlimited = AddressSet((*settings.unlimited_addresses, *settings.trusted_proxies))
        self._open: dict[int, str] = {}  # id(transport) -> client address (an IPv6 one's /64: address_key)
        self._by_address: dict[str, int] = {}
        self.refused = 0

    def admit(self, transport: asyncio.BaseTransport, address: str) -> bool:
        if len(self._open) >= self.limit:
            self.refused += 1
            return False
        key = address_key(address)
        count = self._by_address.get(key, 0)
        if count >= self.per_address and address not in self.unlimited:
            self.refused += 1
            return False
        self._open[id(transport)] = key
        self._by_address[key] = count + 1
        return True

    def release(self, transport: asyncio.BaseTransport) -> None:
        address = self._open.pop(id(transport), None)
        if address is None:
            return
        left = self._by_address[address] - 1
        if left:
            self._by_address[address] = left
        else:
            del self._by_address[address]

    @property
    def open(self) -> int:
        return len(self._open)

    def of(self, address: str) -> int:
        return self._by_address.get(address_key(address), 0)


def _address(client: tuple[str, int] | None) -> str:
    return client[0] if client else "?"


class DirectWrites(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol with a synchronous send for the tables' messages: the frame is
    written to the transport at once, without the ASGI ``send`` round (its message dict, its awaits
    and a task switch for each message). Everything else (handshake, close, pings, extensions such as
    per-message deflate, which frames the text here too) stays uvicorn's."""

    def write_now(self, texts: Sequence[str]) -> bool:
        """Send ``texts`` now, one message each, in one write to the socket (one system call for the
        messages released together); False when they cannot go now (the socket is not open, or its
        write buffer is full and the transport asked to pause: the caller sends them the async way,
        which waits). Raises when the connection refuses them (the caller drops the client)."""
        if (self.close_sent or self.disconnected or not self.handshake_complete
                or self.initial_response is not None or not self.writable.is_set()
                or self.transport.is_closing()):
            return False
        conn = self.conn
        for text in texts:
            conn.send_text(text.encode())
        self.transport.write(b"".join(conn.data_to_send()))
        return True


def protocols(guard: ConnectionGuard) -> tuple[type[asyncio.Protocol], type[asyncio.Protocol]]:
    """The HTTP and WebSocket protocol classes of uvicorn, bound to ``guard``."""
    header_timeout = guard.settings.header_timeout

    class GuardedHttp(HttpToolsProtocol):
        _header_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            if not guard.admit(transport, _address(self.client)):
                transport.abort()
                return
            self._arm_header_timer()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm_header_timer()
            guard.release(self.transport)
            super().connection_lost(exc)

        def _arm_header_timer(self) -> None:
            self._disarm_header_timer()
            if header_timeout > 0:
                self._header_timer = self.loop.call_later(header_timeout, self._headers_late)

        def _disarm_header_timer(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _headers_late(self) -> None:
            self._header_timer = None
            if not self.transport.is_closing():
                self.transport.abort()

        def on_headers_complete(self) -> None:
            self._disarm_header_timer()
            super().on_headers_complete()

        def handle_websocket_upgrade(self) -> None:
            super().handle_websocket_upgrade()
            # the connection is the WebSocket protocol's now, and this one gets no connection_lost,
            # where uvicorn drops the parser (which holds this protocol's callbacks): without this
            # the pair stayed in a cycle, with the connection's transport, until a collector pass
            self.parser = None  # type: ignore[assignment]

        def on_response_complete(self) -> None:
            queued = bool(self.pipeline)
            super().on_response_complete()
            if not queued and not self.transport.is_closing():
                self._arm_header_timer()  # the next request's headers are due in time too

    class GuardedWebSocket(DirectWrites):
        def connection_lost(self, exc: Exception | None) -> None:
            guard.release(self.transport)
            super().connection_lost(exc)

    return GuardedHttp, GuardedWebSocket


def uvicorn_options(settings: ServerSettings, guard: ConnectionGuard | None = None) -> dict[str, Any]:
    """Keyword arguments of ``uvicorn.Config`` for these settings (connection limits, timeouts)."""
    http, ws = protocols(guard or ConnectionGuard(settings))
    return {
        "http": http,
        "ws": ws,
        "timeout_keep_alive": max(1, round(settings.keep_alive_timeout)),
        "ws_max_size": settings.ws_max_size,
        "ws_ping_interval": settings.ws_ping_interval or None,
        "ws_ping_timeout": settings.ws_ping_timeout or None,
        "ws_per_message_deflate": settings.ws_deflate,
        "h11_max_incomplete_event_size": 16 * 1024,
        # X-Forwarded-For is believed from settings.trusted_proxies only (forwarded.py), not from
        # uvicorn's default of 127.0.0.1
        "proxy_headers": False,
        "timeout_graceful_shutdown": 5,
    }
