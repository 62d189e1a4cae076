"""Group commit (sgmahjong/server/store/committer.py): many tables' writes in one transaction off the event
loop, and no message sent before the writes queued ahead of it are committed."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

from sgmahjong.server.store import Store, open_store
from sgmahjong.server.store.base import StorageUnavailable, Write
from sgmahjong.server.store.committer import GroupCommit
from sgmahjong.server.table.connections import Connection


def _tables(store: Store, n: int) -> list[int]:
    return [store.create_table(f"code{i:04d}", f"t{i}", False, {}, {}) for i in range(n)]


def _action(table_id: int, seq: int) -> tuple[Any, ...]:
    return (table_id, 1, seq, 0, "discard 5p", seq, "human", [{"kind": "discard", "tile": "5p"}], seq)


def test_writes_of_many_tables_share_transactions_and_reads_see_them(tmp_path: Path) -> None:
    inner = open_store(str(tmp_path / "db.sqlite3"))
    store = GroupCommit(inner)
    ids = _tables(store, 20)

    async def main() -> None:
        for seq in range(5):
            for t in ids:
                store.add_action(*_action(t, seq))
        assert store.submitted == 100
        await store.wait(store.submitted)
        assert store.committed == 100

    asyncio.run(main())
    assert 1 <= store.batches < 100  # grouped: fewer transactions than writes
    assert [a.seq for a in store.actions(ids[7], 1)] == [0, 1, 2, 3, 4]
    store.close()


def test_a_read_commits_what_is_queued_first(tmp_path: Path) -> None:
    store = GroupCommit(open_store(str(tmp_path / "db.sqlite3")))
    (table_id,) = _tables(store, 1)

    async def main() -> list[int]:
        store.add_action(*_action(table_id, 0))
        return [a.seq for a in store.actions(table_id, 1)]  # no await: the read flushes

    assert asyncio.run(main()) == [0]
    store.close()


def test_without_an_event_loop_a_write_commits_at_once(tmp_path: Path) -> None:
    store = GroupCommit(open_store(str(tmp_path / "db.sqlite3")))
    (table_id,) = _tables(store, 1)
    store.add_action(*_action(table_id, 0))
    assert [a.seq for a in store.inner.actions(table_id, 1)] == [0]
    store.close()


class _Gate:
    """A store whose batches wait for a gate (to see what is sent while a commit is under way),
    committed in the committer's thread (as PostgreSQL's are)."""

    commits_inline = False

    def __init__(self, inner: Store) -> None:
        self.inner = inner
        self.gate = threading.Event()
        self.batches: list[list[Write]] = []

    def write_batch(self, writes: list[Write]) -> None:
        self.gate.wait(30)
        self.batches.append(list(writes))
        self.inner.write_batch(writes)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def test_a_message_waits_for_the_commit_of_the_writes_before_it(tmp_path: Path) -> None:
    gate = _Gate(open_store(str(tmp_path / "db.sqlite3")))
    store = GroupCommit(gate)  # type: ignore[arg-type]
    (table_id,) = _tables(store, 1)
    sent: list[str] = []

    async def send(text: str) -> None:
        sent.append(text)

    async def main() -> None:
        conn = Connection(send, store)
        writer = asyncio.create_task(conn.writer())
        conn.push({"type": "pong"})  # nothing queued before it: goes at once
        for _ in range(20):
            await asyncio.sleep(0)
        assert sent == ['{"type":"pong"}']
        store.add_action(*_action(table_id, 0))
        conn.push({"type": "delta", "n": 1})
        for _ in range(50):
            await asyncio.sleep(0)
        assert len(sent) == 1 and store.committed == 0  # the action is not committed: not told
        gate.gate.set()
        await store.wait(store.submitted)
        for _ in range(20):
            await asyncio.sleep(0)
        assert sent[-1] == '{"type":"delta","n":1}'
        conn.finish()
        await writer

    asyncio.run(main())
    assert [a.seq for a in gate.inner.actions(table_id, 1)] == [0]
    store.close()


class _Spy:
    """A store committed on the event loop (as SQLite's is) that notes what had been sent when each
    batch was written."""

    commits_inline = True

    def __init__(self, inner: Store, sent: list[str]) -> None:
        self.inner = inner
        self.sent = sent
        self.sent_at_batch: list[list[str]] = []

    def write_batch(self, writes: list[Write]) -> None:
        self.sent_at_batch.append(list(self.sent))
        self.inner.write_batch(writes)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def test_inline_commits_also_send_a_message_only_after_the_writes_before_it(tmp_path: Path) -> None:
    sent: list[str] = []
    spy = _Spy(open_store(str(tmp_path / "db.sqlite3")), sent)
    store = GroupCommit(spy)  # type: ignore[arg-type]
    (table_id,) = _tables(store, 1)

    async def send(text: str) -> None:
        sent.append(text)

    async def main() -> None:
        conn = Connection(send, store)
        writer = asyncio.create_task(conn.writer())
        conn.push({"type": "pong"})
        for _ in range(20):
            await asyncio.sleep(0)
        store.add_action(*_action(table_id, 0))
        store.add_action(*_action(table_id, 1))  # the same turn of the loop: the same batch
        conn.push({"type": "delta", "n": 1})
        await store.wait(store.submitted)
        for _ in range(20):
            await asyncio.sleep(0)
        conn.finish()
        await writer

    asyncio.run(main())
    assert store._pool is None  # no thread: written on the event loop
    assert spy.sent_at_batch == [['{"type":"pong"}']]  # one batch, written before the delta went
    assert sent == ['{"type":"pong"}', '{"type":"delta","n":1}']
    assert [a.seq for a in spy.inner.actions(table_id, 1)] == [0, 1]
    store.close()


def test_a_failed_write_closes_only_its_table(tmp_path: Path) -> None:
    store = GroupCommit(open_store(str(tmp_path / "db.sqlite3")))
    good, bad = _tables(store, 2)
    failed: list[set[int]] = []
    store.on_failed = failed.append
    sent: list[str] = []

    async def send(text: str) -> None:
        sent.append(text)

    async def main() -> None:
        store.add_action(*_action(bad, 0))
        await store.wait(store.submitted)
        conn = Connection(send, store)
        writer = asyncio.create_task(conn.writer())
        store.add_action(*_action(good, 0))
        store.add_action(*_action(bad, 0))  # the same seq again: the database refuses it
        conn.push({"type": "delta"})

        def close(ids: set[int]) -> None:  # as the server's _storage_failed does
            failed.append(ids)
            conn.closed = conn.storage_down = True

        store.on_failed = close
        await store.wait(store.submitted)
        conn.finish()
        await writer

    asyncio.run(main())
    assert failed == [{bad}]
    assert sent == []  # its message was never sent
    assert [a.seq for a in store.actions(good, 1)] == [0]
    store.close()


def test_on_postgresql_a_write_for_a_table_held_elsewhere_is_refused_when_queued(postgres_url: str) -> None:
    """In a cluster, group commit keeps the lease rule: the worker that holds a table gets its writes
    committed; another worker's write to it raises LeaseLost at once, before anything is queued."""
    from sgmahjong.server.store import LeaseLost

    a = GroupCommit(open_store(postgres_url, worker="wa"))
    b = GroupCommit(open_store(postgres_url, worker="wb"))
    (table_id,) = _tables(a, 1)
    assert a.claim(table_id) and not b.claim(table_id)

    async def main() -> None:
        a.add_action(*_action(table_id, 0))
        try:
            b.add_action(*_action(table_id, 1))
        except LeaseLost:
            pass
        else:
            raise AssertionError("a write by a worker without the lease was queued")
        assert b.submitted == 0
        await a.wait(a.submitted)

    asyncio.run(main())
    assert [x.seq for x in b.actions(table_id, 1)] == [0]
    a.close()
    b.close()


def test_a_failed_write_is_never_acknowledged_after_its_table_left_the_server(tmp_path: Path) -> None:
    """The chaos run's lost actions: a table's write is queued and its message pushed; the lease watch
    then takes the table out of the server's live set (lease lost) before the batch fails. The
    server's failure callback no longer finds the table, yet its connection must send nothing that
    waited for the failed write, and end with the storage error (``storage_down``)."""
    from sgmahjong.server.store.base import StorageUnavailable
    from sgmahjong.server.tables import CreateTable, TableServer

    server = TableServer(str(tmp_path / "db.sqlite3"))
    server.open()
    sent: list[str] = []

    async def send(text: str) -> None:
        sent.append(text)

    async def main() -> Connection:
        table = server.create(CreateTable(name="Lost", options={}))
        commits = server.commits
        assert commits is not None
        conn = Connection(send, commits, None, table.id)
        writer = asyncio.create_task(conn.writer())
        async with table.lock:
            conn.hello = True
            table.conns.add(conn)
            table.hello(conn, None)
        for _ in range(20):
            await asyncio.sleep(0)
        assert sent and "Ann" not in "".join(sent)  # the view as stored went out
        told = len(sent)

        def down(writes: list[Write]) -> None:
            raise StorageUnavailable("the database restarted")

        commits.inner.write_batch = down  # type: ignore[method-assign]
        async with table.lock:
            table.join("Ann", 0)  # queued (uncommitted) and told to the table's connections
        # out of server.tables, then its lease released: that commits what is queued, and fails
        await server.ownership.evict(table, "lease_lost")
        await commits.wait(commits.submitted)
        assert table.code not in server.tables and commits.committed == commits.submitted
        await asyncio.wait_for(writer, 5)
        assert not any("Ann" in m for m in sent[told:]), sent[told:]
        return conn

    conn = asyncio.run(main())
    assert conn.storage_down
    server.close()


def test_a_table_loaded_again_after_a_failure_is_not_failed_by_another_tables_fault(tmp_path: Path) -> None:
    """A failed table's stale writes are dropped; once it is loaded again its new writes are its own:
    a later batch that fails for another table retries them and stores them. The bookkeeping of
    failures empties once no stale write is queued (it is bounded)."""
    store = GroupCommit(open_store(str(tmp_path / "db.sqlite3")))
    revived, other = _tables(store, 2)
    real = store.inner.write_batch
    refuse: set[int] = set()

    def write_batch(writes: list[Write]) -> None:
        if any(int(w.args[0]) in refuse for w in writes):
            raise StorageUnavailable("disk full")
        real(writes)

    store.inner.write_batch = write_batch  # type: ignore[method-assign]
    failed: list[set[int]] = []
    store.on_failed = failed.append

    async def main() -> None:
        refuse.add(revived)
        store.add_action(*_action(revived, 0))
        await store.wait(store.submitted)
        assert failed == [{revived}] and store._failed == {}
        refuse.clear()
        refuse.add(other)  # the table was loaded again; now another table's write fails in its batch
        store.add_action(*_action(revived, 0))
        store.add_action(*_action(other, 0))
        await store.wait(store.submitted)

    asyncio.run(main())
    assert failed == [{revived}, {other}]
    assert [a.seq for a in store.actions(revived, 1)] == [0]
    assert store._failed == {}
    store.close()
