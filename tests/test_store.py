"""The store (one interface, two backends): every test runs against SQLite and a real PostgreSQL
(``database_url`` is parametrized over both; see conftest), plus PostgreSQL's table ownership."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import psycopg
import pytest

from sgmahjong.server.store import (
    LeaseLost,
    SeatRow,
    Store,
    StoreError,
    Write,
    open_store,
)
from sgmahjong.server.store.sql import MIGRATIONS, SqlStore, statements
from tests.conftest import FAST_OPTIONS, LiveServer, free_port

EVENTS = [{"type": "deal", "n": 1}, {"type": "draw", "seat": 0}]


def _open(url: str, worker: str = "w1") -> SqlStore:
    store = open_store(url, worker=worker)
    assert isinstance(store, SqlStore)
    return store


def _new_table(store: Store, code: str = "ABCD") -> int:
    return store.create_table(code, "Table one", False, {"min_tai": 1}, dict(FAST_OPTIONS), "1m 2m", 7)


def test_migrations_are_applied_once_and_recorded(database_url: str) -> None:
    latest = max(int(p.name.split("_")[0]) for p in (MIGRATIONS / "sqlite").glob("*.sql"))
    assert latest == max(int(p.name.split("_")[0]) for p in (MIGRATIONS / "postgres").glob("*.sql"))
    store = _open(database_url)
    assert store.schema_version() == latest
    _new_table(store)
    store.close()
    again = _open(database_url)  # a second start applies nothing and keeps the data
    assert again.schema_version() == latest
    assert [t.code for t in again.tables()] == ["ABCD"]
    again.close()


def test_tables_seats_hands_actions_and_events_round_trip(database_url: str) -> None:
    store = _open(database_url)
    tid = _new_table(store)
    other = store.create_table("EFGH", "Table two", True, {}, {}, None, None)
    assert other > tid
    rows = store.tables()
    assert [(r.code, r.private, r.status) for r in rows] == [
        ("ABCD", False, "lobby"), ("EFGH", True, "lobby")]
    row = store.tables(tid)[0]
    assert (row.name, row.rules, row.options, row.first_wall, row.first_seed, row.match_seed) == (
        "Table one", {"min_tai": 1}, FAST_OPTIONS, "1m 2m", 7, None)
    assert store.table_by_code("EFGH") == store.tables(other)[0]
    assert store.table_by_code("NONE") is None

    assert [s.kind for s in store.seats(tid)] == ["empty"] * 4
    store.set_seat(tid, SeatRow(2, "human", "Ann", None, "hash"))
    assert store.seats(tid)[2] == SeatRow(2, "human", "Ann", None, "hash")

    big_seed = 2**63 - 1  # seeds are 63-bit
    store.start_match(tid, big_seed, 12345, "wallhash", EVENTS)
    row = store.tables(tid)[0]
    assert (row.status, row.match_seed) == ("playing", big_seed)
    assert [(h.number, h.seed, h.wall_hash, h.ended) for h in store.hands(tid)] == [
        (1, "12345", "wallhash", None)]
    store.add_action(tid, 1, 0, 0, "discard 5p", 3, "human", [{"type": "discard"}], 2)
    store.add_action(tid, 1, 1, 1, "pass", 4, "bot", [], 3)
    acts = store.actions(tid, 1)
    assert [(a.seq, a.seat, a.action, a.version, a.source, a.worker) for a in acts] == [
        (0, 0, "discard 5p", 3, "human", "w1"), (1, 1, "pass", 4, "bot", "w1")]
    assert acts[0].lease == acts[1].lease
    wide = {"type": "w", "n": 2**70, "seats": {1: "a"}}  # an integer wider than orjson writes, int keys
    store.add_events(tid, 1, [{"type": "x"}, wide], 3)
    assert store.events(tid, 1) == [*EVENTS, {"type": "discard"}, {"type": "x"},
                                     {"type": "w", "n": 2**70, "seats": {"1": "a"}}]
    store.end_hand(tid, 1, {"winner": 0, "tai": [1, "x"]}, "between_hands")
    assert store.hands(tid)[0].ended is not None and store.tables(tid)[0].status == "between_hands"
    store.add_hand(tid, 2, 99, "wh2", [{"type": "deal", "n": 2}])
    assert store.tables(tid)[0].status == "playing"
    assert [h.number for h in store.hands(tid)] == [1, 2]
    assert store.events(tid, 2) == [{"type": "deal", "n": 2}]
    store.set_status(tid, "finished")
    assert store.tables(tid)[0].status == "finished"
    store.close()


def test_a_batch_commits_all_its_writes_or_none(database_url: str) -> None:
    store = _open(database_url)
    tid = _new_table(store)
    store.start_match(tid, 1, 2, "w", EVENTS)
    store.write_batch([
        Write("add_action", (tid, 1, 0, 0, "discard 1m", 1, "human", [{"type": "a"}], 2)),
        Write("set_seat", (tid, SeatRow(0, "human", "Ann", None, "h"))),
        Write("add_action", (tid, 1, 1, 1, "pass", 2, "bot", [{"type": "b"}], 3)),
    ])
    assert [a.seq for a in store.actions(tid, 1)] == [0, 1]
    assert store.seats(tid)[0].name == "Ann"
    # the second write repeats seq 1: the whole batch is refused, the first write with it
    with pytest.raises((sqlite3.IntegrityError, psycopg.IntegrityError)):
        store.write_batch([
            Write("add_action", (tid, 1, 2, 2, "pass", 3, "bot", [], 4)),
            Write("add_action", (tid, 1, 1, 3, "pass", 3, "bot", [], 4)),
        ])
    assert [a.seq for a in store.actions(tid, 1)] == [0, 1]
    assert len(store.events(tid, 1)) == 4
    with pytest.raises(ValueError, match="cannot be batched"):
        store.write_batch([Write("create_table", ("X", "x", False, {}, {}))])
    store.write_batch([])  # nothing to do
    store.close()


def test_an_older_sqlite_file_is_migrated_in_place(tmp_path: Path) -> None:
    """A file written before migrations were recorded (no schema_version, no worker column)."""
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    for sql in statements((MIGRATIONS / "sqlite" / "0001_init.sql").read_text()):
        db.execute(sql)
    db.execute("INSERT INTO tables (code, name, private, rules, options, status, created)"
               " VALUES ('OLD1', 'Old', 0, '{}', '{}', 'lobby', 0)")
    db.execute("INSERT INTO actions VALUES (1, 1, 0, 0, 'discard 1m', 1, 'human', 0)")
    db.commit()
    db.close()
    store = _open(f"sqlite:///{path}")
    assert [t.code for t in store.tables()] == ["OLD1"]
    assert [(a.action, a.worker, a.lease) for a in store.actions(1, 1)] == [("discard 1m", "", 0)]
    store.close()


def test_postgres_a_table_is_owned_by_one_worker_at_a_time(postgres_url: str) -> None:
    a, b = _open(postgres_url, "A"), _open(postgres_url, "B")
    assert a.shared and b.shared
    tid = _new_table(a)  # the creator owns it
    assert a.owns(tid) and a.owned() == {tid}
    assert not b.claim(tid) and not b.owns(tid)
    with pytest.raises(LeaseLost):
        b.set_status(tid, "finished")
    with pytest.raises(LeaseLost):
        b.write_batch([Write("set_status", (tid, "finished"))])
    a.start_match(tid, 1, 2, "w", EVENTS)
    a.add_action(tid, 1, 0, 0, "discard 1m", 1, "human", [], 2)
    a.release(tid)
    with pytest.raises(LeaseLost):
        a.add_action(tid, 1, 1, 1, "pass", 2, "human", [], 2)
    assert b.claim(tid) and b.claim(tid)  # claiming what one owns is a no-op
    assert not a.claim(tid)
    b.add_action(tid, 1, 1, 1, "pass", 2, "human", [], 2)
    assert [(x.worker, x.lease) for x in b.actions(tid, 1)] == [("A", 1), ("B", 2)]
    a.close()
    b.close()


def test_postgres_a_worker_whose_session_is_lost_owns_nothing(postgres_url: str, postgres: Any) -> None:
    """Its session ended (a killed worker, a cut network): the advisory locks go with it, another
    worker claims the table at once, and the old worker's writes are refused."""
    a, b = _open(postgres_url, "A"), _open(postgres_url, "B")
    tid = _new_table(a)
    pid = a._read("SELECT pg_backend_pid()")[0][0]
    with psycopg.connect(postgres.url, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
    with pytest.raises(StoreError, match="session was lost"):
        a.set_status(tid, "playing")
    assert a.owned() == set() and a.heartbeat() == set()
    assert b.claim(tid)
    with pytest.raises(LeaseLost):
        a.set_status(tid, "playing")  # reconnected, but owning nothing
    assert not a.claim(tid)
    assert a.tables(tid)[0].status == "lobby"  # reads work again
    a.close()
    b.close()


def test_the_server_plays_and_resumes_on_each_backend(database_url: str) -> None:
    """A table created, joined and played through the server, then the server restarted on the same
    database: the table comes back where it was."""
    server = LiveServer(free_port(), database_url)
    server.start()
    try:
        options = {**FAST_OPTIONS, "takeover_seconds": 60}  # no bot takes the seat while Ann is away
        code = server.create_table("Both", seed=7, options=options)["code"]
        token = server.join(code, "Ann", 0)["token"]
        with server.ws(code) as ws:
            ws.hello(token)
            ws.send({"type": "start"})
            view = ws.settle()["view"]
            played = 0
            while played < 3 and 0 in view["awaiting"] and view["legal_actions"]:
                discards = [a for a in view["legal_actions"] if a.startswith("discard")]
                action = (discards or view["legal_actions"])[0]
                ws.send({"type": "action", "action": action, "version": view["version"]})
                view = ws.settle()["view"]
                played += 1
            assert played >= 1
        before = server.get(f"/api/tables/{code}").json()
        server.restart()
        after = server.get(f"/api/tables/{code}").json()
        assert after["status"] != "lobby"
        assert [after[k] for k in ("status", "hand_number", "wall_hash")] == [
            before[k] for k in ("status", "hand_number", "wall_hash")]
        with server.ws(code) as ws:
            ws.hello(token)
            resumed = ws.until("view")["view"]
            assert (resumed["version"], resumed["awaiting"]) == (view["version"], view["awaiting"])
    finally:
        server.stop()


def test_sqlite_commits_leave_the_write_back_to_the_checkpointer(tmp_path: Path) -> None:
    """A commit never writes the WAL back (its fsync would hold up every waiting message); the
    checkpointer thread does, within a few seconds, and closing the store leaves the file whole."""
    import time as _time

    from sgmahjong.server.store import sqlite as sqlite_store

    path = tmp_path / "db.sqlite3"
    store = open_store(str(path))
    assert store._db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0  # type: ignore[attr-defined]
    store.create_table("Chk00001", "t", False, {}, {})

    def in_file() -> int:  # the tables as the database file itself has them, without the WAL
        db = sqlite3.connect(f"file:{path}?immutable=1", uri=True)
        try:
            return int(db.execute("SELECT COUNT(*) FROM tables").fetchone()[0])
        except sqlite3.Error:
            return 0
        finally:
            db.close()

    end = _time.monotonic() + 10 * sqlite_store.CHECKPOINT_SECONDS
    while in_file() == 0 and _time.monotonic() < end:
        _time.sleep(0.1)
    assert in_file() == 1
    store.create_table("Chk00002", "u", False, {}, {})
    store.close()
    wal = Path(str(path) + "-wal")
    assert in_file() == 2 and (not wal.exists() or wal.stat().st_size == 0)
