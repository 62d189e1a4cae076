"""The server's garbage-collector setting (``SGMAHJONG_GC_YOUNG_OBJECTS``, commands/serve.py) rests on
steady play making no cyclic garbage: a table's states, views, messages and commits are freed by
reference counting. This plays tables through the server's real parts (group commit on SQLite, the
connections' writers) and finds nothing for the collector."""

from __future__ import annotations

import asyncio
import gc
import json
import random
import time
from pathlib import Path
from typing import Any

from sgmahjong.server.table import engine
from sgmahjong.server.table.connections import Connection
from sgmahjong.server.tables import CreateTable, TableServer
from tests.conftest import FAST_OPTIONS


def _choose(rng: random.Random, legal: list[str]) -> str:
    wins = [a for a in legal if a.startswith("win")]
    if wins:
        return wins[0]
    if "pass" in legal and rng.random() < 0.8:
        return "pass"
    return rng.choice(legal)


async def _play(server: TableServer, tables: int, steps: int, sent: list[int]) -> None:
    async def send(text: str) -> None:
        sent[0] += 1

    live, writers = [], []
    for i in range(tables):
        table = server.create(CreateTable(name=f"t{i}", options=FAST_OPTIONS))
        for s in range(4):
            table.join(f"P{s}", s)
            conn = Connection(send, server.commits)
            conn.seat, conn.hello = s, True
            table.conns.add(conn)
            writers.append(asyncio.create_task(conn.writer()))
        table.begin()
        live.append(table)
    await asyncio.sleep(0.01)
    rng = random.Random(3)
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for _ in range(steps):
            for table in live:
                if table.status == "between_hands":
                    for seat in table.seats:
                        seat.ready = True
                    table.next_hand()
                    continue
                if table.status != "playing":
                    continue
                version = engine.hand_of(table.match).version
                if engine.closable(table.match):
                    table.act(engine.window_source(table.match), "close", version, "table")
                else:
                    seat_no = engine.awaiting(table.match)[0]
                    table.act(seat_no, _choose(rng, engine.legal_texts(table.match, seat_no)), version,
                              "human")
            await asyncio.sleep(0)  # writers and commits run, as in the server
        await asyncio.sleep(0.01)
        gc.collect()
    finally:
        gc.set_debug(0)
    for table in live:
        for c in table.conns:
            c.finish()
    await asyncio.gather(*writers)


def test_steady_play_makes_no_cyclic_garbage(tmp_path: Path) -> None:
    server = TableServer(str(tmp_path / "db.sqlite3"))
    server.open()
    sent = [0]
    try:
        asyncio.run(_play(server, tables=4, steps=400, sent=sent))
        garbage: list[Any] = list(gc.garbage)
    finally:
        gc.garbage.clear()
        server.close()
    assert sent[0] > 1000  # the tables did play and send
    kinds = sorted({type(o).__name__ for o in garbage})
    assert garbage == [], f"{len(garbage)} objects in cycles: {kinds}"



def _server_sockets() -> int:
    """The server's protocol objects of WebSockets alive (in cycles or not): the WebSocket's, and the
    HTTP one it was upgraded from."""
    return sum(1 for o in gc.get_objects() if type(o).__name__ in ("GuardedWebSocket", "GuardedHttp"))


def test_a_closed_websocket_is_freed_without_the_collector(live_server: Any) -> None:
    """A WebSocket's server side (uvicorn's protocols, the websockets connection and its compressor
    state: ~40 KB of zlib buffers) is freed by reference counting when the socket closes. With `serve`'s
    one collector pass every 10 minutes, cycles kept every socket closed in that time: the middleware's
    raw ``send``, left in the scope that the protocol holds, pointed back to it; and the HTTP protocol
    the socket was upgraded from kept its parser, which holds its callbacks (guard.py)."""
    from websockets.sync.client import connect

    table = live_server.create_table()
    token = live_server.post(f"/api/tables/{table['code']}/join", {"name": "Ann"}).json()["token"]
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for _ in range(3):
            with connect(f"{live_server.ws_url}/ws/{table['code']}", compression=None, proxy=None) as ws:
                ws.send(json.dumps({"type": "hello", "token": token}))
                ws.recv(timeout=10)
        end = time.monotonic() + 5
        while _server_sockets() and time.monotonic() < end:  # the server sees the closes
            time.sleep(0.05)
        left = _server_sockets()
        gc.collect()
        kinds = sorted({f"{type(o).__module__}.{type(o).__qualname__}" for o in gc.garbage})
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert left == 0, f"closed WebSockets' server side not freed: {kinds}"
