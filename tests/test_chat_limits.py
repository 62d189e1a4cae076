"""Chat limits count people and addresses, never connections (http/limits.PersonLimits, table/chat.py):
a reconnect gives no fresh burst, one address's flood leaves another's seat its own allowance, one
identity is one allowance from any address; spectators' chat is off by default at ranked and club
tables."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from sgmahjong.server.http.limits import PersonLimits
from sgmahjong.server.settings import ServerSettings
from sgmahjong.server.store import open_store
from tests.conftest import LiveServer, WsClient, serving, session_cookie
from tests.test_accounts import device, key_for, register
from tests.test_clubs import call, new_club, player
from tests.test_matchmaking import wait_matched

FLOOD = "203.0.113.7"  # the address of a crowd of spectator sockets
HOME = "198.51.100.9"  # a seated player's


def proxied_server(tmp_path: Path, **overrides: Any) -> contextlib.AbstractContextManager[LiveServer]:
    """A server that believes this test's X-Forwarded-For (it trusts 127.0.0.0/8 as its proxy)."""
    settings = ServerSettings(trusted_proxies=("127.0.0.0/8",), sign_in_burst=50, queue_interval_seconds=0.2,
                              queue_window=50, queue_widen_per_second=40, spectators_per_address=64,
                              spectators_per_table=128, **overrides)
    return serving(tmp_path / "chat.sqlite3", settings=settings)


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[LiveServer]:
    with proxied_server(tmp_path) as live:
        yield live


@pytest.fixture
def no_refill(tmp_path: Path) -> Iterator[LiveServer]:
    """The same, where an address's allowance does not refill within a test (one line per 1,000 s): what
    a test counts does not depend on how fast a busy machine sends it."""
    with proxied_server(tmp_path, chat_address_rate=0.001) as live:
        yield live


def socket_from(live: LiveServer, code: str, address: str, token: str | None = None,
                cookie: str | None = None) -> WsClient:
    headers = {"X-Forwarded-For": address} | ({"Cookie": cookie} if cookie else {})
    ws = WsClient(f"{live.ws_url}/ws/{code}", headers)
    ws.hello(token)
    return ws


def say(ws: WsClient, body: str) -> bool:
    """Send a line and wait for its answer: True when it was said (it comes back), False if refused."""
    ws.send({"type": "chat", "kind": "text", "body": body})
    while True:
        m = ws.recv()
        if m["type"] == "chat" and m["body"] == body:
            return True
        if m["type"] == "error" and m["ref"] == "chat":
            assert m["code"] == "chat_rate", m
            return False


def leave(ws: WsClient) -> None:
    """Close a socket that read little of what it was sent (what is waiting is read first: a client
    whose queue is full does not read the server's closing frame)."""
    with contextlib.suppress(TimeoutError):
        while True:
            ws.conn.recv(timeout=0)
    ws.close()


def stored_lines(live: LiveServer, code: str) -> list[Any]:
    """The table's chat as stored (the server is stopped first: it holds the database)."""
    live.stop()
    store = open_store(live.database)
    try:
        table = store.table_by_code(code)
        assert table is not None
        return store.chat(table.id, 100_000)
    finally:
        store.close()


def test_sixty_reconnecting_spectators_of_one_address_store_what_the_address_may_say(
        proxied: LiveServer) -> None:
    s = proxied.settings
    code = proxied.create_table()["code"]
    started = time.monotonic()
    said = 0
    for attempt in range(2):  # 60 spectators, then each of them again on a new socket
        crowd = [socket_from(proxied, code, FLOOD) for _ in range(60)]
        for n, ws in enumerate(crowd):
            said += sum(say(ws, f"{attempt}.{n}.{i}") for i in range(3))
        for ws in crowd:
            leave(ws)
    elapsed = time.monotonic() - started
    lines = stored_lines(proxied, code)
    assert len(lines) == said  # what was said was stored, and nothing else
    most = s.chat_address_burst + s.chat_address_rate * elapsed
    assert s.chat_address_burst <= said <= most, (said, elapsed)


def test_a_seat_keeps_its_allowance_while_another_address_floods(no_refill: LiveServer) -> None:
    s = no_refill.settings
    code = no_refill.create_table()["code"]
    joined = httpx.post(f"{no_refill}/api/tables/{code}/join", json={"name": "Ann"},
                        headers={"X-Forwarded-For": HOME}, timeout=10)
    ann = socket_from(no_refill, code, HOME, joined.json()["token"], session_cookie(joined))
    crowd = [socket_from(no_refill, code, FLOOD) for _ in range(6)]
    flood = [say(ws, f"flood {n}.{i}") for n, ws in enumerate(crowd) for i in range(s.chat_burst)]
    assert flood.count(True) == s.chat_address_burst and not flood[-1]  # the address ran dry
    assert all(say(ann, f"ann {i}") for i in range(s.chat_burst))  # the seat did not
    assert not say(crowd[0], "still flooding")
    for ws in (ann, *crowd):
        leave(ws)


def test_one_identity_has_one_allowance_from_any_address(proxied: LiveServer) -> None:
    s = proxied.settings
    browser = device(proxied)
    assert browser.post("/api/players", json={"name": "Watcher"}).status_code == 200
    assert register(browser, key_for(proxied), "Watcher").status_code == 200
    cookie = "; ".join(f"{k}={v}" for k, v in browser.cookies.items())
    code = proxied.create_table()["code"]
    started = time.monotonic()
    phone = socket_from(proxied, code, "192.0.2.1", cookie=cookie)
    laptop = socket_from(proxied, code, "192.0.2.2", cookie=cookie)
    said = sum(say(ws, f"{i} {n}") for i in range(s.chat_burst) for n, ws in enumerate((phone, laptop)))
    assert s.chat_burst <= said <= s.chat_burst + s.chat_rate * (time.monotonic() - started)
    stranger = socket_from(proxied, code, "192.0.2.2")  # no identity: the address's own allowance
    assert say(stranger, "hello")
    for ws in (phone, laptop, stranger):
        ws.close()


def test_visitors_behind_one_address_share_its_larger_allowance(proxied: LiveServer) -> None:
    s = proxied.settings
    assert s.chat_address_burst > 2 * s.chat_burst
    code = proxied.create_table()["code"]
    family = [socket_from(proxied, code, HOME) for _ in range(3)]  # three unknown visitors, one address
    said = [say(ws, f"{n}.{i}") for n, ws in enumerate(family) for i in range(s.chat_burst)]
    assert all(said)  # more than one person's burst in all: the address's own allowance
    for ws in family:
        leave(ws)


def test_a_line_needs_a_token_of_the_address_and_of_the_person() -> None:
    now = [0.0]
    limits = PersonLimits(person_rate=1, person_burst=2, address_rate=1, address_burst=3, size=3,
                          clock=lambda: now[0])
    assert limits.take("A", ("p:1",)) and limits.take("A", ("p:1",))
    assert not limits.take("A", ("p:1",))  # the person is dry ...
    assert limits.take("A", ("p:2",))  # ... not the address (the refusal spent nothing of it)
    assert not limits.take("A", ("p:3",))  # now the address is dry
    assert not limits.take("B", ("p:1",))  # the person is dry from any address
    assert limits.take("B", ())  # B's own allowance (an unknown visitor)
    now[0] += 1  # a second: a token each
    assert limits.take("A", ("p:1",))
    for n in range(10):
        limits.take(f"C{n}", (f"p:c{n}",))
    assert len(limits.people) == len(limits.addresses) == 3  # bounded: the least recent forgotten


def test_spectators_may_not_chat_at_a_ranked_table_by_default(proxied: LiveServer) -> None:
    players = [device(proxied, f"198.51.100.{20 + i}") for i in range(4)]  # four homes
    tickets = []
    for i, client in enumerate(players):
        assert register(client, key_for(proxied), f"Ranked {i}").status_code == 200
        tickets.append(client.post("/api/ranked/join", json={}).json()["ticket"])
    code = wait_matched(players[0], tickets[0])["code"]
    assert proxied.get(f"/api/tables/{code}").json()["options"]["spectator_chat"] is False
    watcher = socket_from(proxied, code, FLOOD)
    state = watcher.until("chat_state")
    assert state["spectators"] is False and state["rail_locked"] is True
    watcher.send({"type": "chat", "kind": "phrase", "body": "huat"})
    assert watcher.until("error", lambda m: m["ref"] == "chat")["code"] == "chat_off"
    # nor can the host turn it on: no coaching from the rail at a rated match
    seats = [wait_matched(c, t)["seat"] for c, t in zip(players, tickets, strict=True)]
    host = players[seats.index(0)]
    with proxied.ws(code, f"sg_session={host.cookies['sg_session']}") as ws:
        assert ws.hello(None)["seat"] == 0
        ws.send({"type": "chat_mute", "seat": None, "muted": False})
        assert ws.until("error", lambda m: m["ref"] == "chat_mute")["code"] == "ranked_rail"
        ws.send({"type": "chat_mute", "seat": None, "muted": True})  # turning it off is still the host's
        assert ws.until("chat_state")["spectators"] is False
    watcher.send({"type": "chat", "kind": "phrase", "body": "huat"})
    assert watcher.until("error", lambda m: m["ref"] == "chat")["code"] == "chat_off"
    watcher.close()


def test_club_tables_start_with_spectators_chat_off_unless_asked(live_server: LiveServer) -> None:
    owner = player(live_server, "Ann")
    club = new_club(live_server, owner)["code"]

    def options(body: dict[str, Any]) -> dict[str, Any]:
        r = call(live_server, "POST", f"/api/clubs/{club}/tables", owner, body)
        assert r.status_code == 201, r.text
        summary = call(live_server, "GET", f"/api/tables/{r.json()['code']}", owner)  # a member's view
        return summary.json()["options"]  # type: ignore[no-any-return]

    assert options({})["spectator_chat"] is False
    assert options({"options": {"turn_seconds": 0}})["spectator_chat"] is False
    assert options({"options": {"spectator_chat": True}})["spectator_chat"] is True
    assert live_server.create_table()["table"]["options"]["spectator_chat"] is True  # other tables as before
