"""The floor under ``bench_server``'s CPU per action: a server that does nothing but a table's sends.

``bench_server`` measures the real server: per player action it receives one message and sends
about 8.5 (the action's step and the table's ``close`` of the claim window it opened, each to the
four seats, and now and then a hint). This benchmark keeps exactly that traffic and drops all the
game: N tables of four sockets on 127.0.0.1; each table's players send an action at the rate the
real bench measured (0.47 per table per second at a 1.5 s think time); for each action the server
sends ``--size`` bytes to the four seats at once and again ``--pause`` seconds later (the close), and
one more to the actor every other action. Two servers:

* ``raw``: an asyncio protocol on uvloop writing WebSocket-framed bytes straight to each transport
  (the least any Python server can do per message: one ``write`` system call);
* ``uvicorn``: uvicorn with the server's own protocol classes (``guard.uvicorn_options``) and a bare
  ASGI WebSocket app receiving through uvicorn and sending as the server's tables do (straight to the
  socket: ``guard.DirectWrites``): the framework's floor, with the real clients (``websockets``).

It prints the server's CPU per action (user + system, ``/proc``) and its system share: what the
kernel charges for loopback sends alone, whatever the server is written in.

    python -m bench.bench_floor                                # 200 tables, both servers
    python -m bench.bench_floor --tables 1000 --measure 20 --clients 2
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import socket
import sys
import time
from typing import Any

from .bench_server import _cpu_seconds, _free_port

RATE = 0.47  # actions per table per second (bench_server, 1,000 tables, think 1.5 s)
SIZE = 413  # bytes per message (bench_fanout's mean)
PAUSE = 1.0  # the default claim pause: the close step follows the action by this long


def _frame(payload: bytes) -> bytes:
    """A server-to-client WebSocket text frame (unmasked)."""
    n = len(payload)
    head = bytes([0x81, n]) if n < 126 else bytes([0x81, 126]) + n.to_bytes(2, "big")
    return head + payload


class _Fanout:
    """The tables' seats (a send function each) and the traffic of one action."""

    def __init__(self, size: int, pause: float) -> None:
        self.seats: dict[int, list[Any]] = {}
        self.text = "x" * size
        self.frame = _frame(self.text.encode())
        self.pause = pause
        self.count = 0

    def action(self, table: int, seat: int, send: Any) -> None:
        seats = self.seats.get(table, [])
        self.count += 1
        send(seats)
        if self.count % 2:
            send([seats[seat]] if seat < len(seats) else [])
        asyncio.get_running_loop().call_later(self.pause, send, seats)


def _serve_raw(port: int, size: int, pause: float) -> None:
    """One asyncio protocol per socket: the first line names table and seat; each later line is an action."""
    fan = _Fanout(size, pause)
    frame = fan.frame

    def send(transports: list[Any]) -> None:
        for t in transports:
            if not t.is_closing():
                t.write(frame)

    class Seat(asyncio.Protocol):
        def connection_made(self, transport: Any) -> None:
            self.transport = transport
            self.where: tuple[int, int] | None = None
            self.buf = b""

        def data_received(self, data: bytes) -> None:
            self.buf += data
            while b"\n" in self.buf:
                line, self.buf = self.buf.split(b"\n", 1)
                if self.where is None:
                    table, seat = (int(x) for x in line.split())
                    self.where = (table, seat)
                    fan.seats.setdefault(table, []).append(self.transport)
                else:
                    fan.action(self.where[0], self.where[1], send)

    async def main() -> None:
        server = await asyncio.get_running_loop().create_server(Seat, "127.0.0.1", port, backlog=4096)
        async with server:
            await server.serve_forever()

    _run(main())


def _serve_uvicorn(port: int, size: int, pause: float) -> None:
    import uvicorn

    from sgmahjong.server.http.guard import uvicorn_options
    from sgmahjong.server.settings import ServerSettings

    fan = _Fanout(size, pause)
    texts = [fan.text]

    def send(writers: list[Any]) -> None:  # as the server's tables send (guard.DirectWrites)
        for write_now in writers:
            write_now(texts)

    async def app(scope: dict[str, Any], receive: Any, send_: Any) -> None:
        if scope["type"] == "lifespan":
            while True:
                kind = (await receive())["type"]
                await send_({"type": kind + ".complete"})
                if kind == "lifespan.shutdown":
                    return
        table, seat = (int(x) for x in scope["path"].strip("/").split("/")[1:3])
        await receive()  # websocket.connect
        await send_({"type": "websocket.accept"})
        fan.seats.setdefault(table, []).append(send_.__self__.write_now)
        while True:
            message = await receive()
            if message["type"] != "websocket.receive":
                return
            fan.action(table, seat, send)

    settings = ServerSettings(max_connections=100_000, max_connections_per_address=100_000)
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", **uvicorn_options(settings))


def _run(coro: Any) -> None:
    try:
        import uvloop
        uvloop.run(coro)
    except ImportError:
        asyncio.run(coro)


# -- the players ---------------------------------------------------------------------------------------

async def _players(stack: str, port: int, tables: list[int], rate: float, pipe: Any) -> None:
    counts = {"actions": 0, "bytes": 0}
    window = [float("inf"), float("inf")]
    actors: list[Any] = []
    readers: list[asyncio.Task[None]] = []

    async def read_raw(reader: asyncio.StreamReader) -> None:
        while data := await reader.read(65536):
            counts["bytes"] += len(data)

    async def read_ws(ws: Any) -> None:
        async for m in ws:
            counts["bytes"] += len(m)

    for t in tables:
        seats = []
        for s in range(4):
            if stack == "raw":
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.write(f"{t} {s}\n".encode())
                readers.append(asyncio.create_task(read_raw(reader)))
                seats.append(lambda w=writer: w.write(b"a\n"))
            else:
                from websockets.asyncio.client import connect

                ws = await connect(f"ws://127.0.0.1:{port}/ws/{t}/{s}", compression="deflate", proxy=None,
                                   ping_interval=None, open_timeout=120)
                readers.append(asyncio.create_task(read_ws(ws)))
                seats.append(lambda w=ws: asyncio.create_task(w.send("a")))
        actors.append(seats)
    pipe.send("ready")
    window[:] = await asyncio.get_running_loop().run_in_executor(None, pipe.recv)

    async def play(seats: list[Any], rng: random.Random) -> None:
        await asyncio.sleep(rng.uniform(0, 1 / rate))
        turn = 0
        while time.monotonic() < window[1] + 0.5:
            seats[turn % 4]()
            if window[0] <= time.monotonic() < window[1]:
                counts["actions"] += 1
            turn += 1
            await asyncio.sleep(1 / rate)

    await asyncio.gather(*[play(s, random.Random(i)) for i, s in enumerate(actors)])
    pipe.send(counts)
    for r in readers:
        r.cancel()


def _client_main(stack: str, port: int, tables: list[int], rate: float, pipe: Any) -> None:
    _run(_players(stack, port, tables, rate, pipe))


def run(stack: str, n_tables: int, clients: int, rate: float, size: int, pause: float, warmup: float,
        measure: float) -> dict[str, float]:
    port = _free_port()
    ctx = multiprocessing.get_context("spawn")
    target = _serve_raw if stack == "raw" else _serve_uvicorn
    server = ctx.Process(target=target, args=(port, size, pause), daemon=True)
    server.start()
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            if time.monotonic() > deadline:
                raise RuntimeError("the floor server did not start") from None
            time.sleep(0.05)
    procs, pipes = [], []
    try:
        for k in range(clients):
            mine, theirs = ctx.Pipe()
            p = ctx.Process(target=_client_main, args=(stack, port, list(range(k, n_tables, clients)), rate,
                                                       theirs), daemon=True)
            p.start()
            procs.append(p)
            pipes.append(mine)
        for pipe in pipes:
            if not pipe.poll(120) or pipe.recv() != "ready":
                raise RuntimeError("a floor client did not set up")
        w0 = time.monotonic() + warmup
        for pipe in pipes:
            pipe.send((w0, w0 + measure))
        time.sleep(max(0.0, w0 - time.monotonic()))
        assert server.pid is not None
        u0, s0 = _cpu_seconds(server.pid)
        time.sleep(measure)
        u1, s1 = _cpu_seconds(server.pid)
        counts = [pipe.recv() if pipe.poll(60) else {"actions": 0, "bytes": 0} for pipe in pipes]
    finally:
        for p in procs:
            p.join(timeout=10)
            if p.is_alive():
                p.kill()
        server.kill()
        server.join()
    actions = sum(c["actions"] for c in counts)
    cpu = (u1 - u0) + (s1 - s0)
    return {"tables": n_tables, "actions_per_s": actions / measure,
            "cpu_ms_per_action": 1000 * cpu / actions if actions else float("nan"),
            "sys_ms_per_action": 1000 * (s1 - s0) / actions if actions else float("nan"),
            "server_cpu_pct": 100 * cpu / measure}


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m bench.bench_floor", description=__doc__.split("\n")[0])
    p.add_argument("--tables", type=int, default=200)
    p.add_argument("--stack", choices=["raw", "uvicorn", "both"], default="both")
    p.add_argument("--clients", type=int, default=1, help="client processes")
    p.add_argument("--rate", type=float, default=RATE, help="actions per table per second")
    p.add_argument("--size", type=int, default=SIZE, help="bytes per message")
    p.add_argument("--pause", type=float, default=PAUSE, help="seconds from an action to its close step")
    p.add_argument("--warmup", type=float, default=2.0)
    p.add_argument("--measure", type=float, default=8.0)
    args = p.parse_args([] if argv is None else argv)
    print(f"bench_floor: {args.tables} tables x 4 sockets, {args.rate} actions/table/s, 8.5 messages of"
          f" {args.size} bytes per action, {os.cpu_count()} CPUs (shared: figures are noisy)")
    print(f"{'server':>8} {'act/s':>7} {'CPU ms/act':>10} {'sys ms/act':>10} {'srv CPU%':>8}", flush=True)
    for stack in (["raw", "uvicorn"] if args.stack == "both" else [args.stack]):
        r = run(stack, args.tables, args.clients, args.rate, args.size, args.pause, args.warmup, args.measure)
        print(f"{stack:>8} {r['actions_per_s']:>7.0f} {r['cpu_ms_per_action']:>10.3f}"
              f" {r['sys_ms_per_action']:>10.3f} {r['server_cpu_pct']:>8.1f}", flush=True)
    print("bench_server's aim: <= 0.25 CPU ms per action (these servers do no game work at all)")


if __name__ == "__main__":
    main(sys.argv[1:])
