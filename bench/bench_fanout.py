"""The server's own cost of one action, without sockets: where an action's CPU goes inside a table.

In one process, with the server's real parts (``TableServer`` on a temporary SQLite file with group
commit, ``Table``, ``Connection`` writers) and four connected seats per table whose socket ``send``
only counts, it plays T tables' actions round-robin (a win when offered, else mostly a pass in a claim
window, else a random legal action; the table's ``close`` step as soon as a window may close) and
prints the CPU per action applied, split by part: the engine's ``apply``, the fan-out (views,
deltas, JSON), the hints, the rest of ``act`` (checks, store queue, timers), and the event loop's
part (writers, commits). ``bench_server`` measures the same path with real WebSockets and clients.

    python -m bench.bench_fanout                    # 20 tables, 4,000 actions
    python -m bench.bench_fanout --tables 50 --actions 20000
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sgmahjong.server.table import engine
from sgmahjong.server.table.connections import Connection
from sgmahjong.server.table.table import Table
from sgmahjong.server.tables import CreateTable, TableServer

from .server_players import OPTIONS, _choose  # the same tables and the same players' choices


class _Timed:
    """Wraps a function and adds its CPU time to ``totals[name]``."""

    def __init__(self, totals: dict[str, float], name: str, fn: Callable[..., Any]) -> None:
        self.totals, self.name, self.fn = totals, name, fn

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        start = time.process_time()
        try:
            return self.fn(*args, **kwargs)
        finally:
            self.totals[self.name] += time.process_time() - start


async def _run(n_tables: int, n_actions: int, folder: str, split: bool) -> dict[str, Any]:
    server = TableServer(str(Path(folder) / "bench.sqlite3"))
    server.open()
    sent = [0, 0]  # messages, bytes

    async def send(text: str) -> None:
        sent[0] += 1
        sent[1] += len(text)

    def write_now(texts: list[str]) -> bool:
        sent[0] += len(texts)
        sent[1] += sum(map(len, texts))
        return True

    tables: list[Table] = []
    writers = []
    for i in range(n_tables):
        table = server.create(CreateTable(name=f"t{i}", options=OPTIONS))
        for s in range(4):
            table.join(f"P{s}", s)
        for s in range(4):
            conn = Connection(send, server.commits, write_now)  # written at once, as by uvicorn's socket
            table.conns.add(conn)
            writers.append(asyncio.create_task(conn.writer()))
            conn.seat = s
            conn.hello = True
        table.begin()
        tables.append(table)
    await asyncio.sleep(0.05)
    totals = {"apply": 0.0, "fan-out": 0.0, "hints": 0.0}
    if split:
        for table in tables:
            table.fanout.broadcast = _Timed(totals, "fan-out", table.fanout.broadcast)  # type: ignore[method-assign]
            table.hints.push = _Timed(totals, "hints", table.hints.push)  # type: ignore[method-assign]
        real_apply = engine.apply
        engine.apply = _Timed(totals, "apply", real_apply)
    rng = random.Random(1)
    applied = 0
    act_cpu = 0.0
    wall0, cpu0 = time.perf_counter(), time.process_time()
    try:
        while applied < n_actions:
            for table in tables:
                if table.status == "between_hands":
                    for s in range(4):
                        table.seats[s].ready = True
                    table.next_hand()
                    continue
                if table.status != "playing":
                    continue
                match = table.match
                assert match is not None  # a playing table's
                hand = engine.hand_of(match)
                t0 = time.process_time()
                if engine.closable(match):
                    table.act(engine.window_source(match), "close", hand.version, "table")
                else:
                    seat = engine.awaiting(match)[0]
                    action = _choose(rng, engine.legal_texts(match, seat))
                    table.act(seat, action, hand.version, "human")
                act_cpu += time.process_time() - t0
                applied += 1
            await asyncio.sleep(0)  # writers and commits run between rounds, as in the server
        await asyncio.sleep(0.05)
    finally:
        if split:
            engine.apply = real_apply
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    for table in tables:
        for c in table.conns:
            c.finish()
    await asyncio.gather(*writers)
    server.close()
    return {"actions": applied, "cpu": cpu, "act": act_cpu, "wall": wall, "messages": sent[0],
            "bytes": sent[1], **totals}


def run(n_tables: int, n_actions: int, split: bool = True) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        return asyncio.run(_run(n_tables, n_actions, folder, split))


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m bench.bench_fanout", description=__doc__.split("\n")[0])
    p.add_argument("--tables", type=int, default=20)
    p.add_argument("--actions", type=int, default=4000)
    args = p.parse_args([] if argv is None else argv)  # `python -m bench`: the defaults
    plain = run(args.tables, args.actions, split=False)
    r = run(args.tables, args.actions, split=True)
    n = r["actions"]
    us = 1e6 / n
    print(f"{args.tables} tables x 4 seats, {plain['actions']} actions (engine steps, the table's close too),"
          f" {plain['messages'] / plain['actions']:.1f} messages and"
          f" {plain['bytes'] / plain['messages']:.0f} bytes per message")
    print(f"CPU per action: {1e6 * plain['cpu'] / plain['actions']:.0f} us in all"
          f" ({1e6 * plain['act'] / plain['actions']:.0f} us in Table.act, the rest the event loop:"
          " writers, group commit)")
    rest = r["act"] - r["apply"] - r["fan-out"] - r["hints"]
    print(f"  split (timing adds a little): apply {us * r['apply']:.0f} us,"
          f" fan-out {us * r['fan-out']:.0f} us, hints {us * r['hints']:.0f} us,"
          f" rest of act {us * rest:.0f} us,"
          f" event loop {us * (r['cpu'] - r['act']):.0f} us")


if __name__ == "__main__":
    main(sys.argv[1:])
