"""The server's limits on the open internet (issue 13): slow and silent connections are closed,
connections per address are capped, a message flood is answered once and closed, table creation is
rate-limited, request bodies are bounded, cross-site requests are refused, every response carries the
security headers, and the lobby lists open public tables a page at a time."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from sgmahjong.server.http.limits import AddressBuckets, TokenBucket
from sgmahjong.server.http.middleware import json_depth_ok
from sgmahjong.server.settings import ServerSettings, SettingsError
from tests.conftest import FAST_OPTIONS, LiveServer, free_port, serving

LIMITS = ServerSettings(
    header_timeout=1.0, hello_timeout=1.0, max_connections_per_address=8, message_rate=5, message_burst=20,
    table_burst=3, tables_per_hour=1, max_body=2048,
)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    with serving(tmp_path / "limits.sqlite3", settings=LIMITS) as live:
        yield live


def raw(server: LiveServer) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=30)
    return sock


def closed_by_server(sock: socket.socket, timeout: float = 30) -> bool:
    """Whether the server closes ``sock`` (EOF or reset) within ``timeout`` seconds."""
    sock.settimeout(timeout)
    try:
        while True:
            data = sock.recv(4096)
            if not data:
                return True
    except (ConnectionResetError, BrokenPipeError):
        return True
    except TimeoutError:
        return False


def get_ok(server: LiveServer) -> bool:
    try:
        return httpx.get(server + "/api/health", timeout=10).status_code == 200
    except httpx.HTTPError:
        return False


# -- connections -------------------------------------------------------------------------------------

def test_slow_headers_are_closed(server: LiveServer) -> None:
    sock = raw(server)
    sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")
    sent = 0
    try:
        for _ in range(100):  # one header byte every 0.1 s: the headers never complete in time
            sock.sendall(b"X")
            sent += 1
            time.sleep(0.1)
    except (BrokenPipeError, ConnectionResetError):
        pass
    assert sent < 100  # the server closed the connection while the headers were still coming
    assert closed_by_server(sock)
    assert get_ok(server)


def test_silent_connections_are_closed(server: LiveServer) -> None:
    socks = [raw(server) for _ in range(5)]
    for sock in socks:
        assert closed_by_server(sock)
    assert get_ok(server)


def test_a_keep_alive_connection_stays_usable_within_the_limits(server: LiveServer) -> None:
    with httpx.Client(base_url=server.url, timeout=10) as client:
        for _ in range(3):
            assert client.get("/api/health").status_code == 200


def test_connections_per_address_are_capped(server: LiveServer) -> None:
    held = [raw(server) for _ in range(LIMITS.max_connections_per_address)]
    for sock in held:  # each is a live connection (a pipelined request would be answered)
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
        assert b"200 OK" in sock.recv(4096)
    extra = raw(server)
    assert closed_by_server(extra, timeout=10)
    for sock in held:
        sock.close()
    end = time.monotonic() + 30
    while not get_ok(server):  # the count drops as the server sees the closes
        assert time.monotonic() < end
        time.sleep(0.05)


def test_a_websocket_without_hello_is_closed(server: LiveServer) -> None:
    code = server.create_table(options=FAST_OPTIONS)["code"]
    with server.ws(code) as ws:
        msg = ws.recv(timeout=30)
        assert msg["type"] == "error" and msg["code"] == "hello_timeout"
        with pytest.raises(Exception, match="1008"):
            ws.recv(timeout=30)


def test_a_websocket_with_hello_stays_open_past_the_hello_timeout(server: LiveServer) -> None:
    code = server.create_table(options=FAST_OPTIONS)["code"]
    with server.ws(code) as ws:
        ws.hello(None)
        time.sleep(LIMITS.hello_timeout * 1.5)
        ws.send({"type": "ping"})
        assert ws.until("pong")["type"] == "pong"


def test_a_flood_is_answered_once_and_closed_and_another_table_keeps_answering(server: LiveServer) -> None:
    a = server.create_table("A", options=FAST_OPTIONS)["code"]
    b = server.create_table("B", options=FAST_OPTIONS)["code"]
    with server.ws(a) as flood, server.ws(b) as calm:
        flood.hello(None)
        calm.hello(None)
        frames = [json.dumps({"type": "ping"})] * 2000
        try:
            for frame in frames:
                flood.conn.send(frame)
        except Exception:
            pass  # the server may close while we still send
        pongs = errors = 0
        closed = False
        while True:
            try:
                msg = flood.recv(timeout=30)
            except Exception as exc:  # the close
                closed = "1008" in str(exc)
                break
            pongs += msg["type"] == "pong"
            if msg["type"] == "error":
                errors += 1
                assert msg["code"] == "rate_limited"
        assert closed and errors == 1
        assert pongs <= LIMITS.message_burst  # the rest of the flood was never processed
        calm.send({"type": "ping"})
        assert calm.until("pong")["type"] == "pong"


def test_table_creation_is_rate_limited_per_address(server: LiveServer) -> None:
    for i in range(LIMITS.table_burst):
        server.create_table(f"T{i}")
    r = server.post("/api/tables", {"name": "one too many"})
    assert r.status_code == 429
    assert "too many new tables" in r.json()["error"] and int(r.headers["retry-after"]) >= 1
    assert len(server.get("/api/tables").json()["tables"]) == LIMITS.table_burst


def test_table_creation_counts_an_ipv6_client_by_its_64(tmp_path: Path) -> None:
    """Before, the rate of new tables was keyed by the whole address, so one IPv6 subscriber (a /64:
    2^64 addresses) had a fresh burst at each address and could fill ``max_tables`` for everyone. Now
    it counts the /64, as every other limit does; another /64 still creates its own."""
    settings = ServerSettings(table_burst=2, tables_per_hour=1, trusted_proxies=("127.0.0.1",))
    with serving(tmp_path / "v6.sqlite3", settings=settings) as live:
        def create(address: str) -> int:
            r = httpx.post(live + "/api/tables", json={"name": "T", "options": FAST_OPTIONS}, timeout=10,
                           headers={"X-Forwarded-For": address})
            return r.status_code
        assert [create(f"2001:db8:0:7::{i}") for i in range(1, 5)] == [201, 201, 429, 429]
        assert create("2001:db8:0:8::1") == 201


def test_the_number_of_live_tables_is_capped(tmp_path: Path) -> None:
    live = LiveServer(free_port(), str(tmp_path / "cap.sqlite3"), settings=ServerSettings(max_tables=2))
    live.start()
    try:
        live.create_table("one")
        live.create_table("two")
        r = live.post("/api/tables", {"name": "three"})
        assert r.status_code == 503 and "as many tables" in r.json()["error"]
    finally:
        live.stop()


# -- request bodies ----------------------------------------------------------------------------------

def test_a_large_body_is_refused_by_its_length_before_it_is_read(server: LiveServer) -> None:
    sock = raw(server)
    sock.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                 b"Content-Length: 209715200\r\n\r\n")  # 200 MiB announced, none sent
    answer = sock.recv(4096)
    assert answer.startswith(b"HTTP/1.1 413")
    assert b"larger than 2048 bytes" in answer
    sock.close()


def test_a_large_body_without_a_length_is_cut_off(server: LiveServer) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"name": "'
        for _ in range(100):
            yield b"x" * 1000
        yield b'"}'

    r = httpx.post(server + "/api/tables", content=chunks(), timeout=10,
                   headers={"Content-Type": "application/json"})
    assert r.status_code == 413


def test_deeply_nested_bodies_are_400(server: LiveServer) -> None:
    """Every route reading a JSON body, the accounts' and the ranked queue's too (before, their own
    reader skipped the depth limit: 1,000 brackets were a RecursionError and a 500)."""
    for depth in (40, 1000):
        body = b"[" * depth + b"]" * depth
        for path in ("/api/tables", "/api/score", "/api/account/signout", "/api/account/link",
                     "/api/ranked/leave"):
            r = httpx.post(server + path, content=body, timeout=10,
                           headers={"Content-Type": "application/json"})
            assert r.status_code == 400, (path, depth, r.text)
            assert "JSON" in r.json()["error"]
    assert json_depth_ok({"a": [1, {"b": []}]}, 4) and not json_depth_ok({"a": [1, {"b": []}]}, 3)


# -- cross-site requests and headers -----------------------------------------------------------------

def test_posts_from_another_site_are_refused(server: LiveServer) -> None:
    body = json.dumps({"name": "evil"})
    r = httpx.post(server + "/api/tables", content=body, timeout=10,
                   headers={"Content-Type": "text/plain", "Origin": "https://evil.example"})
    assert r.status_code == 403
    r = httpx.post(server + "/api/tables", content=body, timeout=10,
                   headers={"Content-Type": "application/json", "Origin": "https://evil.example"})
    assert r.status_code == 403 and "another site" in r.json()["error"]
    r = httpx.post(server + "/api/tables", content=body, timeout=10, headers={"Content-Type": "text/plain"})
    assert r.status_code == 415
    r = httpx.post(server + "/api/tables", data={"name": "form"}, timeout=10)
    assert r.status_code == 415
    assert server.get("/api/tables").json()["tables"] == []  # none of these made a table
    own = f"http://127.0.0.1:{server.port}"
    r = httpx.post(server + "/api/tables", content=body, timeout=10,
                   headers={"Content-Type": "application/json; charset=utf-8", "Origin": own})
    assert r.status_code == 201


def test_a_websocket_from_another_site_is_refused(server: LiveServer) -> None:
    from websockets.sync.client import connect

    code = server.create_table(options=FAST_OPTIONS)["code"]
    with pytest.raises(Exception, match="403"):
        connect(f"{server.ws_url}/ws/{code}", origin="https://evil.example", open_timeout=10,  # type: ignore[arg-type]
                proxy=None)
    with connect(f"{server.ws_url}/ws/{code}", origin=f"http://127.0.0.1:{server.port}",  # type: ignore[arg-type]
                 open_timeout=10, proxy=None) as ws:
        ws.send(json.dumps({"type": "hello", "token": None}))
        assert json.loads(ws.recv(timeout=10))["type"] in ("welcome", "table")


def test_every_response_has_the_security_headers(server: LiveServer) -> None:
    for path in ("/", "/api/health", "/static/app.css", "/no/such/page"):
        r = server.get(path)
        csp = r.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp and "unsafe-inline" not in csp
        assert r.headers["x-frame-options"] == "DENY"
        assert r.headers["x-content-type-options"] == "nosniff"


# -- the lobby list ----------------------------------------------------------------------------------

def test_the_lobby_lists_open_public_tables_a_page_at_a_time(tmp_path: Path) -> None:
    live = LiveServer(free_port(), str(tmp_path / "lobby.sqlite3"), settings=ServerSettings(table_burst=20))
    live.start()
    try:
        codes = [live.create_table(f"T{i}")["code"] for i in range(7)]
        live.create_table("hidden", private=True)
        first = live.get("/api/tables?limit=3").json()
        assert first["total"] == 7 and len(first["tables"]) == 3
        assert [t["code"] for t in first["tables"]] == codes[::-1][:3]  # newest first
        seen = [t["code"] for t in first["tables"]]
        nxt = first["next"]
        while nxt:
            page = live.get(nxt).json()
            seen += [t["code"] for t in page["tables"]]
            nxt = page["next"]
        assert sorted(seen) == sorted(codes)
        assert live.get("/api/tables?limit=0").status_code == 400
        assert live.get("/api/tables?offset=x").status_code == 400
        assert live.get(f"/api/tables?offset={'9' * 20}").status_code == 400  # too big for SQL: a 500
        assert len(live.get("/api/tables").json()["tables"]) == 7
    finally:
        live.stop()


# -- units --------------------------------------------------------------------------------------------

def test_token_bucket_and_address_buckets() -> None:
    now = [0.0]
    bucket = TokenBucket(rate=2, burst=3, clock=lambda: now[0])
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    assert bucket.wait() == pytest.approx(0.5)
    now[0] = 0.5
    assert bucket.take() and not bucket.take()
    per = AddressBuckets(rate=0, burst=1, size=2, clock=lambda: now[0])
    assert per.take("a") and not per.take("a") and per.take("b") and per.take("c")
    assert len(per) == 2  # "a" was forgotten (least recent)


def test_settings_from_the_environment() -> None:
    s = ServerSettings.from_env({"SGMAHJONG_HELLO_TIMEOUT": "3.5", "SGMAHJONG_MAX_BODY": "100",
                                 "SGMAHJONG_ALLOWED_ORIGINS": "https://a.example, https://b.example"})
    assert s.hello_timeout == 3.5 and s.max_body == 100
    assert s.allowed_origins == ("https://a.example", "https://b.example")
    with pytest.raises(SettingsError, match="SGMAHJONG_MAX_BODY must be a whole number"):
        ServerSettings.from_env({"SGMAHJONG_MAX_BODY": "lots"})
    with pytest.raises(SettingsError, match="must not be negative"):
        ServerSettings(hello_timeout=-1)


def test_the_settings_page_lists_every_setting_with_its_default() -> None:
    readme = (Path(__file__).parent.parent / "docs" / "settings.md").read_text(encoding="utf-8")
    for variable, default in ServerSettings.describe():
        shown = ("(none)" if default == () else "(empty)" if default == ""
                 else str(int(default) if isinstance(default, bool) else default))
        assert f"| `{variable}` | {shown} |" in readme, variable


def test_serve_turns_automatic_garbage_collection_off_and_collects_on_its_interval() -> None:
    import asyncio
    import gc
    import weakref

    from sgmahjong.commands.serve import tune_gc
    from sgmahjong.server.memory import collect_garbage

    assert ServerSettings.from_env({"SGMAHJONG_GC_INTERVAL_SECONDS": "30"}).gc_interval_seconds == 30
    assert ServerSettings().gc_interval_seconds == 600
    callbacks = list(gc.callbacks)
    try:
        tune_gc(ServerSettings().gc_interval_seconds)
        assert not gc.isenabled()
        assert gc.get_freeze_count() > 0  # what exists after start-up is left out of every pass

        class Node:
            other: Any = None

        a, b = Node(), Node()
        a.other, b.other = b, a  # a cycle: only the collector frees it
        gone = weakref.ref(a)
        del a, b
        assert gone() is not None

        async def main() -> None:
            task = asyncio.get_running_loop().create_task(collect_garbage(0.01))
            for _ in range(100):
                await asyncio.sleep(0.01)
                if gone() is None:
                    break
            task.cancel()

        asyncio.run(main())
        assert gone() is None  # freed by the interval's pass
    finally:
        gc.enable()
        gc.unfreeze()
        gc.callbacks[:] = callbacks


def test_serve_refuses_a_bad_setting(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    from sgmahjong.cli import main

    monkeypatch.setenv("SGMAHJONG_MESSAGE_RATE", "fast")
    assert main(["serve", "--port", "1"]) != 0
    err = capsys.readouterr().err
    assert "SGMAHJONG_MESSAGE_RATE must be a number" in err and "Traceback" not in err


# -- table lifecycle: idle tables close, finished ones leave the live set ---------------------------

def test_a_table_whose_humans_left_is_closed_and_stays_readable(tmp_path: Path) -> None:
    from tests.test_server import seated

    settings = ServerSettings(idle_table_seconds=3, sweep_seconds=0.1)
    live = LiveServer(free_port(), str(tmp_path / "idle.sqlite3"), settings=settings)
    live.start()
    try:
        empty = live.create_table("nobody came")["code"]
        kept = live.create_table("Ann stays")["code"]
        left = live.create_table("Bo leaves")["code"]
        ann, _ = seated(live, kept, "Ann", 0)
        with ann:
            bo, _ = seated(live, left, "Bo", 0)
            bo.close()
            end = time.monotonic() + 30
            while live.get(f"/api/tables/{left}").json()["status"] != "closed":
                assert time.monotonic() < end
                time.sleep(0.05)
            assert live.get(f"/api/tables/{empty}").json()["status"] == "closed"
            time.sleep(4)  # past the grace: Ann is still connected, so her table stays
            assert live.get(f"/api/tables/{kept}").json()["status"] == "lobby"
            listed = [t["code"] for t in live.get("/api/tables").json()["tables"]]
            assert listed == [kept]
            assert live.get(f"/t/{left}").status_code == 410
            assert live.get("/t/nosuchtable").status_code == 404
            ann.send({"type": "ping"})
            assert ann.until("pong")
        live.restart()  # a restart resumes only the live table
        assert [t["code"] for t in live.get("/api/tables").json()["tables"]] == [kept]
        assert live.get(f"/api/tables/{left}").json()["name"] == "Bo leaves"
    finally:
        live.stop()


def test_reading_closed_tables_never_holds_more_than_max_tables(tmp_path: Path) -> None:
    """Before, reading a table the sweep had closed loaded it back among the live tables with no bound:
    a script reading old codes held any number of them (6 live here with max_tables 3). Beyond the
    bound a closed table is now served as it is and not held; below it, as before."""
    settings = ServerSettings(idle_table_seconds=1.5, sweep_seconds=0.1, max_tables=3, table_burst=20)
    with serving(tmp_path / "closed.sqlite3", settings=settings) as live:
        def held() -> float:
            lines = live.get("/metrics").text.splitlines()
            return float(next(x for x in lines if x.startswith("sgmahjong_live_tables")).split()[-1])

        old = [live.create_table(f"Old {i}")["code"] for i in range(3)]
        end = time.monotonic() + 30
        while held() > 0:  # the sweep closes them (nobody came)
            assert time.monotonic() < end
            time.sleep(0.05)
        for i in range(3):
            live.create_table(f"New {i}")
        for code in old:
            r = live.get(f"/api/tables/{code}")
            assert r.status_code == 200 and r.json()["status"] == "closed"
            assert live.get(f"/api/tables/{code}/results").json() == {"hands": []}
        assert held() <= 3


def test_only_an_events_tables_go_on_unattended(tmp_path: Path) -> None:
    """An unattended table is never swept while it is not finished: an event's alone. Before, only
    POST /api/tables refused the option; a club's new table (a lobby kept forever, towards max_tables)
    and play vs bots (bots playing on with nobody there) took it."""
    from tests.test_clubs import call, new_club, player

    with serving(tmp_path / "unattended.sqlite3", settings=ServerSettings(table_burst=20)) as live:
        owner = player(live, "Owner")
        club = new_club(live, owner)["code"]
        options = {**FAST_OPTIONS, "unattended": True}
        for path, body in [("/api/tables", {"name": "T", "options": options}),
                           ("/api/play", {"name": "Ann", "options": options}),
                           (f"/api/clubs/{club}/tables", {"name": "T", "options": options})]:
            r = call(live, "POST", path, owner, body)
            assert r.status_code == 400 and r.json()["code"] == "invalid", (path, r.text)
        assert live.get("/api/tables").json()["tables"] == []


def test_upkeep_archives_tables_left_by_their_humans() -> None:
    from types import SimpleNamespace

    from sgmahjong.server.lobby import Upkeep

    watcher = SimpleNamespace(seat=None)
    player = SimpleNamespace(seat=2)
    plain, unattended = SimpleNamespace(unattended=False), SimpleNamespace(unattended=True)
    tables: dict[str, Any] = {
        "done": SimpleNamespace(code="done", status="finished", conns=[], options=plain),
        "watched": SimpleNamespace(code="watched", status="finished", conns=[watcher], options=plain),
        "played": SimpleNamespace(code="played", status="playing", conns=[player], options=plain),
        "bots": SimpleNamespace(code="bots", status="playing", conns=[watcher], options=plain),
        "lobby": SimpleNamespace(code="lobby", status="lobby", conns=[], options=plain),
        # an event's table plays on with nobody at it until its match is finished
        "event": SimpleNamespace(code="event", status="playing", conns=[], options=unattended),
        "event_over": SimpleNamespace(code="event_over", status="finished", conns=[], options=unattended),
    }
    upkeep = Upkeep(tables, ServerSettings(idle_table_seconds=100))
    assert upkeep.due(now=0) == []
    assert upkeep.due(now=99) == []
    tables["played"].conns = []  # the player leaves at 99
    del tables["done"]
    due = sorted((t.code, s) for t, s in upkeep.due(now=100))
    assert due == [("bots", "closed"), ("event_over", "finished"), ("lobby", "closed"),
                   ("watched", "finished")]
    del tables["event_over"]
    assert "done" not in upkeep.seen  # forgotten with its table
    for code in ("bots", "lobby", "watched"):  # archived
        del tables[code]
    assert upkeep.due(now=198) == []
    assert [(t.code, s) for t, s in upkeep.due(now=199)] == [("played", "closed")]
