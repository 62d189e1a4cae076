"""Direct writes (connections.Connection with ``write_now``, guard.DirectWrites): a table's messages go
straight to the socket when it takes them, the writer task only sends what it could not take, and
every message still arrives exactly once, in order, and never before its writes are committed."""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path

import pytest

from sgmahjong.server.settings import ServerSettings, SettingsError
from sgmahjong.server.store import open_store
from sgmahjong.server.store.committer import GroupCommit
from sgmahjong.server.table.connections import Connection
from tests.conftest import LiveServer, WsClient, free_port


class Socket:
    """A fake socket: ``write_now`` takes a message unless ``full``; ``send`` (the async way) waits for
    ``open`` to be set when ``gate`` is on."""

    def __init__(self) -> None:
        self.got: list[str] = []
        self.direct = 0  # writes made directly
        self.writes: list[int] = []  # messages in each
        self.full = False
        self.broken = False
        self.gate = False
        self.open = asyncio.Event()

    def write_now(self, texts: list[str]) -> bool:
        if self.broken:
            raise RuntimeError("closing")
        if self.full:
            return False
        self.got.extend(texts)
        self.direct += 1
        self.writes.append(len(texts))
        return True

    async def send(self, text: str) -> None:
        if self.gate:
            await self.open.wait()
        self.got.append(text)


def test_messages_go_at_once_without_the_writer() -> None:
    async def main() -> None:
        sock = Socket()
        conn = Connection(sock.send, None, sock.write_now)
        for i in range(5):
            conn.push(f"m{i}")
        assert sock.got == [f"m{i}" for i in range(5)]  # no await: written in push
        assert sock.direct == 5

    asyncio.run(main())


def test_a_full_socket_hands_over_to_the_writer_and_order_holds() -> None:
    async def main() -> None:
        sock = Socket()
        conn = Connection(sock.send, None, sock.write_now)
        writer = asyncio.create_task(conn.writer())
        conn.push("a")
        sock.full, sock.gate = True, True  # the transport asked to pause: the writer waits for it
        conn.push("b")
        conn.push("c")
        await asyncio.sleep(0.01)
        assert sock.got == ["a"]
        sock.full = False
        conn.push("d")  # the writer is inside its send: nothing may overtake it
        assert sock.got == ["a"]
        sock.open.set()
        await asyncio.sleep(0.01)
        conn.push("e")
        conn.finish()
        await asyncio.wait_for(writer, 2)
        assert sock.got == ["a", "b", "c", "d", "e"]

    asyncio.run(main())


def test_a_refused_write_drops_the_client() -> None:
    async def main() -> None:
        sock = Socket()
        conn = Connection(sock.send, None, sock.write_now)
        writer = asyncio.create_task(conn.writer())
        sock.broken = True
        conn.push("a")
        await asyncio.wait_for(writer, 2)  # the writer ends: the client is dropped
        assert conn.closed and sock.got == []
        conn.push("b")
        assert sock.got == []

    asyncio.run(main())


def test_nothing_is_written_before_its_writes_are_committed_then_all_at_once(tmp_path: Path) -> None:
    store = GroupCommit(open_store(str(tmp_path / "db.sqlite3")))
    table_id = store.create_table("code0001", "t", False, {}, {})

    async def main() -> None:
        sock = Socket()
        conn = Connection(sock.send, store, sock.write_now)
        store.add_action(table_id, 1, 0, 0, "discard 5p", 0, "human", [{"kind": "discard"}], 0)
        conn.push("after the write")
        conn.push("and its hints")
        assert sock.got == []  # queued behind the uncommitted write
        await store.wait(store.submitted)
        assert sock.got == ["after the write", "and its hints"]
        assert sock.writes == [2]  # released together: one write (one system call) for both
        assert [a.seq for a in store.inner.actions(table_id, 1)] == [0]

    asyncio.run(main())
    store.close()


def test_the_live_server_writes_directly(live_server: LiveServer) -> None:
    """Through uvicorn with the guard's protocol, a table's messages take the direct way (the server's
    connections have a ``write_now``) and a client gets every message in order."""
    table = live_server.create_table("direct", seed=7)
    token = live_server.join(table["code"], "Ann", 0)["token"]
    with WsClient(f"{live_server.ws_url}/ws/{table['code']}") as ws:
        ws.hello(token)
        assert live_server._runner is not None
        server = live_server._runner.server.config.app.state.server
        conns = [c for t in server.tables.values() for c in t.conns]
        assert conns and all(c._write_now is not None for c in conns)
        ws.send({"type": "start"})
        view = ws.until("view")["view"]
        assert len(view["seats"][0]["concealed"]) >= 13  # the dealt hand arrived through the direct way


def test_a_flush_in_another_thread_releases_messages_in_the_event_loop(tmp_path: Path) -> None:
    """A read made in a worker thread commits what is queued; the messages it releases are written
    by the event loop's thread, never by the worker (sockets belong to the loop)."""
    store = GroupCommit(open_store(str(tmp_path / "db.sqlite3")))
    table_id = store.create_table("code0001", "t", False, {}, {})

    async def main() -> None:
        sock = Socket()
        threads: list[int] = []

        def write_now(texts: list[str]) -> bool:
            threads.append(threading.get_ident())
            return sock.write_now(texts)

        conn = Connection(sock.send, store, write_now)
        store.add_action(table_id, 1, 0, 0, "discard 5p", 0, "human", [{"kind": "discard"}], 0)
        conn.push("m")
        await asyncio.to_thread(store.flush)
        await asyncio.sleep(0.01)
        assert sock.got == ["m"] and threads == [threading.get_ident()]

    asyncio.run(main())
    store.close()


@pytest.mark.parametrize("deflate", [False, True], ids=["plain", "deflate"])
def test_messages_are_compressed_only_when_the_setting_says_so(tmp_path: Path, deflate: bool) -> None:
    """A browser always offers permessage-deflate; the server takes it only with
    ``SGMAHJONG_WS_DEFLATE=1`` (off by default: small messages, CPU and a zlib context per socket), and
    the direct writes frame the messages through the extension when it is on."""
    from websockets.sync.client import connect

    live = LiveServer(free_port(), str(tmp_path / "db.sqlite3"), settings=ServerSettings(ws_deflate=deflate))
    live.start()
    try:
        table = live.create_table("deflate", seed=7)
        joined = live.join(table["code"], "Ann", 0)
        token = joined["token"]
        with connect(f"{live.ws_url}/ws/{table['code']}", compression="deflate", proxy=None,
                     additional_headers={"Cookie": joined["cookie"]}) as ws:
            agreed = ws.response.headers.get("Sec-WebSocket-Extensions") or ""
            assert ("permessage-deflate" in agreed) is deflate
            ws.send(json.dumps({"type": "hello", "token": token}))
            ws.send(json.dumps({"type": "start"}))
            for _ in range(50):
                message = json.loads(ws.recv(timeout=10))
                if message["type"] == "view":
                    assert len(message["view"]["seats"][0]["concealed"]) >= 13
                    break
            else:
                raise AssertionError("no view after the start")
    finally:
        live.stop()


def test_the_deflate_setting_reads_booleans() -> None:
    assert ServerSettings.from_env({"SGMAHJONG_WS_DEFLATE": "1"}).ws_deflate is True
    assert ServerSettings.from_env({"SGMAHJONG_WS_DEFLATE": "off"}).ws_deflate is False
    with pytest.raises(SettingsError, match="SGMAHJONG_WS_DEFLATE must be 1 or 0"):
        ServerSettings.from_env({"SGMAHJONG_WS_DEFLATE": "maybe"})
