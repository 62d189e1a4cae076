"""Behind a reverse proxy (issue 23): X-Forwarded-For is believed from the trusted proxies only, and
then the per-address limits (WebSockets and requests at once, table creation) count the player's
address, not the proxy's. A server with no trusted proxy ignores the header."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from sgmahjong.server.http.forwarded import AddressSet, forwarded_client
from sgmahjong.server.http.guard import ConnectionGuard
from sgmahjong.server.settings import ServerSettings, SettingsError
from tests.conftest import FAST_OPTIONS, LiveServer, free_port

PER_ADDRESS = 4
SETTINGS = dict(max_connections_per_address=PER_ADDRESS, table_burst=2, tables_per_hour=1, hello_timeout=60)


def start(tmp_path: Path, name: str, **settings: Any) -> LiveServer:
    live = LiveServer(free_port(), str(tmp_path / f"{name}.sqlite3"), settings=ServerSettings(**settings))
    live.start()
    return live


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[LiveServer]:
    """A server that trusts 127.0.0.1 (this test) as its proxy."""
    live = start(tmp_path, "proxied", trusted_proxies=("127.0.0.0/8",), **SETTINGS)
    try:
        yield live
    finally:
        live.stop()


def sockets(live: LiveServer, code: str, address: str, n: int) -> tuple[list[Any], int]:
    """``n`` WebSockets to ``code`` as if from ``address`` (the proxy's X-Forwarded-For): the open
    ones and how many were refused."""
    opened, refused = [], 0
    for _ in range(n):
        try:
            opened.append(connect(f"{live.ws_url}/ws/{code}", open_timeout=10, proxy=None,
                                  additional_headers={"X-Forwarded-For": address}, legacy=True))
        except Exception:
            refused += 1
    return opened, refused


def test_the_websocket_cap_counts_the_forwarded_address(proxied: LiveServer) -> None:
    code = proxied.create_table(options=FAST_OPTIONS)["code"]
    held, refused = sockets(proxied, code, "203.0.113.7", PER_ADDRESS + 3)
    assert len(held) == PER_ADDRESS and refused == 3  # one player's sockets, capped
    others, refused_others = sockets(proxied, code, "198.51.100.9", 2)  # another player is not
    assert len(others) == 2 and refused_others == 0
    r = httpx.get(proxied + "/api/health", headers={"X-Forwarded-For": "203.0.113.7"}, timeout=10)
    assert r.status_code == 429  # nor a request while that player holds its share
    assert httpx.get(proxied + "/api/health", timeout=10).status_code == 200  # the proxy's own check
    for ws in held[:2]:
        ws.close()
    again: list[Any] = []
    end = time.monotonic() + 30
    while len(again) < 2:  # the count drops as the server sees the closes
        assert time.monotonic() < end
        again += sockets(proxied, code, "203.0.113.7", 1)[0]
    for ws in held[2:] + others + again:
        ws.close()


def test_the_websocket_cap_counts_an_ipv6_client_by_its_64(proxied: LiveServer) -> None:
    """Before, the cap counted each whole forwarded address, so one IPv6 subscriber (a /64) opened as
    many sockets as it had addresses; and a server facing clients directly counted TCP connections the
    same way. Both count the /64 now, as every other limit does."""
    code = proxied.create_table(options=FAST_OPTIONS)["code"]
    held: list[Any] = []
    refused = 0
    for i in range(1, PER_ADDRESS + 4):
        got, no = sockets(proxied, code, f"2001:db8:0:7::{i}", 1)
        held, refused = held + got, refused + no
    assert len(held) == PER_ADDRESS and refused == 3
    others, refused_others = sockets(proxied, code, "2001:db8:0:8::1", 1)  # another /64 is another player
    assert len(others) == 1 and refused_others == 0
    for ws in held + others:
        ws.close()
    settings = ServerSettings(max_connections_per_address=2, unlimited_addresses=("2001:db8:9::5",))
    guard = ConnectionGuard(settings)
    assert [guard.admit(Transport(), f"2001:db8:0:7::{i}") for i in range(1, 4)] == [True, True, False]
    assert guard.admit(Transport(), "2001:db8:0:8::1") and guard.of("2001:db8:0:7::9") == 2
    assert all(guard.admit(Transport(), "2001:db8:9::5") for _ in range(3))  # listed as unlimited


class Transport(asyncio.BaseTransport):
    """A stand-in for a connection's transport (the guard keys its count by the object)."""


def test_table_creation_is_limited_per_forwarded_address(proxied: LiveServer) -> None:
    def create(address: str) -> int:
        return httpx.post(proxied + "/api/tables", json={"name": "T", "options": FAST_OPTIONS},
                          headers={"X-Forwarded-For": address}, timeout=10).status_code

    assert [create("203.0.113.7") for _ in range(3)] == [201, 201, 429]
    assert create("198.51.100.9") == 201  # another player behind the same proxy
    # a client that writes its own header before the proxy's is still counted by the proxy's entry
    assert create("198.51.100.77, 203.0.113.7") == 429


def test_without_trusted_proxies_the_header_is_ignored(tmp_path: Path) -> None:
    live = start(tmp_path, "direct", **SETTINGS)
    try:
        codes = [httpx.post(live + "/api/tables", json={"name": "T", "options": FAST_OPTIONS},
                            headers={"X-Forwarded-For": f"203.0.113.{i}"}, timeout=10).status_code
                 for i in range(3)]
        assert codes == [201, 201, 429]  # a spoofed header does not escape the limit
    finally:
        live.stop()


def test_forwarded_client_takes_the_right_most_address_that_is_not_a_proxy() -> None:
    trusted = AddressSet(["10.0.0.0/24", "::1"])
    assert forwarded_client("203.0.113.7", trusted) == "203.0.113.7"
    assert forwarded_client("1.2.3.4, 203.0.113.7, 10.0.0.5", trusted) == "203.0.113.7"
    assert forwarded_client("10.0.0.2,10.0.0.3", trusted) == "10.0.0.2"
    assert forwarded_client("[2001:db8::1]:443", trusted) == "2001:db8::1"
    assert forwarded_client(" , ", trusted) is None
    assert "::ffff:10.0.0.9" in trusted and "10.0.1.1" not in trusted and "junk" not in trusted


def test_a_trusted_proxy_that_is_not_an_address_is_refused() -> None:
    with pytest.raises(SettingsError, match="not an IP address or network"):
        ServerSettings.from_env({"SGMAHJONG_TRUSTED_PROXIES": "10.0.0.1, haproxy.internal"})
    settings = ServerSettings.from_env({"SGMAHJONG_TRUSTED_PROXIES": "10.0.0.1, 10.1.0.0/16"})
    assert settings.trusted_proxies == ("10.0.0.1", "10.1.0.0/16")
