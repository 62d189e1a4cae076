"""The startup figures of :mod:`bench.bench_soak` (``startup``): how long a server takes to open a
database with a few live tables and 0, then H stored finished hands (written straight into the
database), and how long one live table takes to resume in hand 1 and in hand D of a long match (from
its last hand's snapshot, and without snapshots: every hand replayed)."""

from __future__ import annotations

import os
import sqlite3
import tempfile
import time
from pathlib import Path


def _stored_hand() -> tuple[str, str, list[tuple[int, str]], list[str]]:
    """What one stored hand holds, in size: (seed, wall hash, 90 (seat, action), 30 event texts)."""
    import json

    actions = [(i % 4, f"discard {i % 34}") for i in range(90)]
    events = [json.dumps({"kind": "discard", "seat": i % 4, "tile": "5p", "version": i}) for i in range(30)]
    return "1" * 20, "0" * 64, actions, events


def fill_history(path: str, finished_hands: int) -> None:
    """Write ``finished_hands`` finished hands (16 to a table, finished tables) into the database."""
    seed, wall_hash, actions, events = _stored_hand()
    db = sqlite3.connect(path)
    now = time.time()
    db.execute("BEGIN")
    table_hands = 16
    base = db.execute("SELECT COALESCE(MAX(id), 0) FROM tables").fetchone()[0] + 1
    for t in range((finished_hands + table_hands - 1) // table_hands):
        tid = base + t
        db.execute(
            "INSERT INTO tables (id, code, name, private, rules, options, status, match_seed, created)"
            " VALUES (?, ?, 'old', 0, '{}', '{}', 'finished', 1, ?)", (tid, f"old{tid:08d}", now))
        db.executemany("INSERT INTO seats (table_id, seat, kind, name) VALUES (?, ?, 'bot', 'Bot')",
                       [(tid, s) for s in range(4)])
        n = min(table_hands, finished_hands - t * table_hands)
        db.executemany(
            "INSERT INTO hands (table_id, number, seed, wall_hash, started, ended, result)"
            " VALUES (?, ?, ?, ?, ?, ?, 'null')",
            [(tid, h, seed, wall_hash, now, now) for h in range(1, n + 1)])
        db.executemany(
            "INSERT INTO actions (table_id, hand, seq, seat, action, version, source, at)"
            " VALUES (?, ?, ?, ?, ?, ?, 'bot', ?)",
            [(tid, h, i, seat, action, i, now)
             for h in range(1, n + 1) for i, (seat, action) in enumerate(actions)])
        db.executemany("INSERT INTO events (table_id, hand, seq, event) VALUES (?, ?, ?, ?)",
                       [(tid, h, i, ev) for h in range(1, n + 1) for i, ev in enumerate(events)])
    db.execute("COMMIT")
    db.close()


def _live_tables(path: str, count: int) -> None:
    """``count`` live tables: bots playing hand 1 (resumed at startup)."""
    import asyncio

    from sgmahjong.server.table import engine
    from sgmahjong.server.tables import CreateTable, TableServer

    server = TableServer(path)
    server.open()

    async def start_all() -> None:
        for i in range(count):
            table = server.create(CreateTable(name=f"live {i}", options={"bot_delay": 0}))
            table.seats = [type(table.seats[0])(s, "bot", f"Bot {s}", "greedy", None) for s in range(4)]
            for s in table.seats:
                server.store.set_seat(table.id, s.row())
            match, events = engine.start_match(table.rules, 7 + i, None)
            hand = engine.hand_of(match)
            server.store.start_match(table.id, 7 + i, engine.hand_seed(match), hand.wall_hash,
                                     [engine.full_event(e) for e in events])

    asyncio.run(start_all())
    server.close()


def deep_table(path: str, hands: int, seed: int = 1) -> tuple[int, int]:
    """One live table of four bots deep into a long match: ``hands`` hands stored as a live table stores
    them (each hand's secret, snapshot, actions and events; random play, nobody winning so that the
    match lasts), the last one a few actions in. Returns the table's id and the actions stored."""
    import random

    from sgmahjong.game import format_action
    from sgmahjong.game.testing import random_action
    from sgmahjong.rules import RuleSet
    from sgmahjong.server.store import SeatRow, Write, open_store
    from sgmahjong.server.table import engine

    store = open_store(path)
    rng = random.Random(seed)
    rules = RuleSet()
    tid = store.create_table(f"deep{seed:04d}", "deep", False, rules.to_dict(), {"bot_delay": 0})
    for s in range(4):
        store.set_seat(tid, SeatRow(s, "bot", f"Bot {s}", "greedy", None))
    match, events = engine.start_match(rules, seed, None, engine.fresh_secret(), pause_windows=True)
    hand = engine.hand_of(match)
    store.start_match(tid, seed, engine.hand_seed(match), hand.wall_hash,
                      [engine.full_event(e) for e in events])
    number, stored = 1, 0
    while True:
        ops: list[Write] = []
        seq, event_seq = 0, len(events)
        while not match.hand.ended and (number < hands or seq < 30):
            action = random_action(match.hand, rng, win_bias=0.0)
            version = match.hand.version
            match, events = engine.apply(match, action.seat, format_action(action))
            ops.append(Write("add_action", (tid, number, seq, action.seat, format_action(action), version,
                                            "bot", [engine.full_event(e) for e in events], event_seq)))
            seq += 1
            event_seq += len(events)
        stored += seq
        if number >= hands:
            store.write_batch(ops)
            break
        status = "between_hands"
        ops.append(Write("end_hand", (tid, number, engine.view(match, None).get("result"), status)))
        match, events = engine.next_hand(match, engine.fresh_secret())
        if engine.finished(match):
            raise SystemExit(f"the match of seed {seed} ended at hand {number}; try another seed")
        number += 1
        hand = engine.hand_of(match)
        ops.append(Write("add_hand", (tid, number, hand.seed, hand.wall_hash,
                                      [engine.full_event(e) for e in events], engine.snapshot(match))))
        store.write_batch(ops)
    store.close()
    return tid, stored


def time_resume(path: str, table_id: int, repeats: int = 5) -> float:
    """The best time of rebuilding one table's match from the database (``Table.resume``)."""
    from sgmahjong.server.settings import ServerSettings
    from sgmahjong.server.store import open_store
    from sgmahjong.server.table.table import Table

    store = open_store(path)
    (row,) = store.tables(table_id)
    seats = store.seats(table_id)
    retry = ServerSettings().storage_retry_seconds  # the server's default; no match here is rated
    best = float("inf")
    for _ in range(repeats):
        table = Table.from_rows(store, row, seats, ranked=None, retry_seconds=retry)
        t0 = time.perf_counter()
        table.resume(row.match_seed)
        best = min(best, time.perf_counter() - t0)
    store.close()
    return best


def deep_resume(hands: int) -> None:
    """A table at hand 1 and one at hand ``hands``, each resumed from its last hand's snapshot; and the
    deep one as a table stored before snapshots (migration 0006) is, replaying every hand."""
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "deep.sqlite3")
        shallow, _ = deep_table(path, 1, seed=2)
        seed = 1
        while True:
            try:
                deep, actions = deep_table(path, hands, seed=seed)
                break
            except SystemExit:
                seed += 1
        one, many = time_resume(path, shallow), time_resume(path, deep)
        db = sqlite3.connect(path)
        db.execute("UPDATE hands SET snapshot = NULL WHERE table_id = ?", (deep,))
        db.commit()
        db.close()
        replay = time_resume(path, deep, repeats=2)
        print(f"resume a live table in hand 1:            {1000 * one:7.1f} ms")
        print(f"resume a live table in hand {hands:>3} (snapshot): {1000 * many:7.1f} ms")
        print(f"  the same without snapshots (pre-0006):  {1000 * replay:7.1f} ms  "
              f"(replays all {actions} actions of its {hands} hands)")


def time_open(path: str, repeats: int = 3) -> tuple[float, int]:
    from sgmahjong.server.tables import TableServer

    best = float("inf")
    live = 0
    for _ in range(repeats):
        server = TableServer(path)
        t0 = time.perf_counter()
        server.open()
        best = min(best, time.perf_counter() - t0)
        live = len(server.tables)
        server.close()
    return best, live


def startup(finished: int, live: int, deep: int = 50) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "startup.sqlite3")
        _live_tables(path, live)
        seconds, loaded = time_open(path)
        print(f"startup with {live} live tables and      0 finished hands: {1000 * seconds:7.1f} ms "
              f"({loaded} tables resumed)")
        t0 = time.perf_counter()
        fill_history(path, finished)
        size = os.path.getsize(path) / 1e6
        took = time.perf_counter() - t0
        print(f"  (wrote {finished} finished hands in {took:.1f} s; database {size:.0f} MB)")
        seconds, loaded = time_open(path)
        print(f"startup with {live} live tables and {finished:>6} finished hands: {1000 * seconds:7.1f} ms "
              f"({loaded} tables resumed)")
    deep_resume(deep)
