"""Group commit: the writes of many tables committed together, off the event loop, and nothing a
client is sent before the writes queued ahead of it are committed. Used with both backends: in a
cluster (PostgreSQL), a write for a table this worker does not hold raises ``LeaseLost`` when it is
queued, and a lease lost later makes its batch fail for that table (``on_failed``: closed, nothing of
it sent; clients reconnect to the new owner).

:class:`GroupCommit` stands in for the :class:`~.store.Store` the tables use. A batchable write
(``add_action``, ``set_seat``, ... : ``store.BATCHABLE``) is queued and returns at once; a committer
task writes everything queued so far in ONE transaction (``Store.write_batch``), while the next writes
gather: in a worker thread, or, for a store whose commits are quick and local
(``Store.commits_inline``: SQLite), on the event loop itself once the loop's ready callbacks have run
(in a thread, each statement would have to take the GIL back from the busy event loop, waiting up to
the interpreter's switch interval every time: at 1,000 tables commits then fell seconds behind).
Every other call (reads, ``create_table``, ownership) first commits what is queued, in the calling
thread, so it sees every earlier write.

Acknowledgement: each message a :class:`~.connections.Connection` queues carries :attr:`submitted`,
the number of writes queued so far; its writer sends it only once :attr:`committed` reaches that
number (:meth:`wait`). So a crash loses only actions no client was told of, and each table's writes
land in the order they were made.

A batch that fails is retried table by table; the tables whose writes still fail are handed to
``on_failed`` (the server closes them and their connections: their in-memory state is ahead of the
database, and nothing of it was sent). The position of each table's last write that failed is kept
(:meth:`lost_since`): a connection asks it before sending, so a message that tells of an uncommitted
write never goes, whether or not the server still holds the table (its lease may have been lost a
moment before). Without a running event loop (start-up, scripts) a write is
committed at once.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from . import Store
from .base import BATCHABLE, LeaseLost, StorageUnavailable, Write

log = logging.getLogger("sgmahjong.server")

MAX_BATCH = 5000  # writes in one transaction at most (the rest go in the next)
LOST_KEEP = 10_000  # tables whose failed writes lost_since remembers (the oldest failure is forgotten first;
# a table's connections are closed when it fails, so only a connection opened before a failure asks)
LEASE_READS = frozenset({"owns", "owned"})


class GroupCommit:
    """A :class:`Store` whose batchable writes are group-committed (see the module docstring)."""

    def __init__(self, inner: Store, *, on_failed: Callable[[set[int]], None] | None = None,
                 max_batch: int = MAX_BATCH) -> None:
        self.inner = inner
        self.on_failed = on_failed
        self.max_batch = max_batch
        self.submitted = 0  # writes queued so far (a message's fence)
        self.committed = 0  # writes committed (or given up, their tables closed) so far
        self.batches = 0
        self._pending: list[Write] = []
        self._plock = threading.Lock()  # _pending and submitted
        self._wlock = threading.Lock()  # one batch written at a time, in order
        self._waiters: list[tuple[int, Callable[[], None]]] = []  # called once that many are committed
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self._pool: ThreadPoolExecutor | None = None
        # table id -> how many writes were queued when its failure was handled (on_failed): its writes
        # up to there are stale (skipped, not retried); dropped once those are all past
        self._failed: dict[int, int] = {}
        # table id -> position of its last write that failed, oldest failure first (at most LOST_KEEP)
        self._lost: OrderedDict[int, int] = OrderedDict()
        self._closed = False
        self._loop: asyncio.AbstractEventLoop | None = None  # the event loop the releases run in
        self._thread: int | None = None  # ... and its thread

    # -- the Store's methods ---------------------------------------------------------------------
    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.inner, name)
        if not callable(attr):
            return attr
        if name in BATCHABLE:
            def queue(*args: Any, **kwargs: Any) -> None:
                self._queue(Write(name, args, tuple(kwargs.items())))
            fn: Callable[..., Any] = queue
        elif name in LEASE_READS:  # what this worker holds, in memory: nothing to commit first
            fn = attr
        else:
            def call(*args: Any, **kwargs: Any) -> Any:
                self.flush()
                return attr(*args, **kwargs)
            fn = call
        setattr(self, name, fn)  # found directly next time
        return fn

    def _queue(self, write: Write) -> None:
        table_id = int(write.args[0])
        if not self.inner.owns(table_id):  # the sender learns at once (the batch would refuse it)
            raise LeaseLost(table_id)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is None or self._closed:
            self.flush()
            self.inner.write_batch([write])
            return
        with self._plock:
            self._pending.append(write)
            self.submitted += 1
        if self._task is None or self._task.done():
            self._loop, self._thread = loop, threading.get_ident()
            self._wake = asyncio.Event()
            if not self.inner.commits_inline:
                self._pool = self._pool or ThreadPoolExecutor(1, thread_name_prefix="sgmahjong-commit")
            self._task = loop.create_task(self._run())
        assert self._wake is not None
        self._wake.set()

    # -- committing --------------------------------------------------------------------------------
    def _take(self) -> tuple[list[Write], int]:
        with self._plock:
            batch = self._pending[: self.max_batch]
            del self._pending[: self.max_batch]
            upto = self.submitted - len(self._pending)
        return batch, upto

    def _write(self) -> tuple[int, set[int]]:
        """Commit the next batch (in whichever thread calls it); returns how far it got and the tables
        whose writes failed. A table's writes queued before its earlier failure was handled are stale
        (its live state was dropped with them): they are dropped, neither written nor reported again
        (the table may have been loaded again from the database since, with writes of its own)."""
        with self._wlock:
            batch, upto = self._take()
            failed: set[int] = set()
            if batch:
                with self._plock:
                    marks = dict(self._failed)
                if marks:
                    batch = [w for position, w in enumerate(batch, start=upto - len(batch) + 1)
                             if position > marks.get(int(w.args[0]), 0)]
                try:
                    if not batch:
                        return upto, failed
                    self.inner.write_batch(batch)
                except Exception:
                    failed = self._retry_by_table(batch)
                    with self._plock:  # until on_failed has run, their writes queued so far are stale
                        for table_id in failed:
                            self._failed[table_id] = upto
                    for table_id in failed:  # before ``committed`` moves past them (see lost_since)
                        self._lost[table_id] = upto
                        self._lost.move_to_end(table_id)
                    while len(self._lost) > LOST_KEEP:
                        self._lost.popitem(last=False)
                self.batches += 1
            return upto, failed

    def _retry_by_table(self, batch: list[Write]) -> set[int]:
        """Write ``batch`` table by table; the tables whose writes failed."""
        tables: dict[int, list[Write]] = {}
        for w in batch:
            tables.setdefault(int(w.args[0]), []).append(w)
        failed: set[int] = set()
        for table_id, writes in tables.items():
            try:
                self.inner.write_batch(writes)
            except StorageUnavailable as exc:  # the database's fault (down, disk full): no traceback
                log.warning("table id %s: its writes could not be stored (%s); it is closed", table_id, exc)
                failed.add(table_id)
            except Exception:
                log.exception("table id %s: its writes could not be stored; it is closed", table_id)
                failed.add(table_id)
        return failed

    def _done(self, upto: int, failed: set[int]) -> None:
        """In the event loop: close failed tables first (their messages must never go), then release
        the messages waiting for these writes (which writes them to the sockets). A flush in another
        thread (a read made there) hands this over to the loop."""
        loop = self._loop
        if loop is not None and not loop.is_closed() and threading.get_ident() != self._thread:
            loop.call_soon_threadsafe(self._done, upto, failed)
            return
        if failed and self.on_failed is not None:
            self.on_failed(failed)
        self.committed = max(self.committed, upto)
        with self._plock:
            for table_id in failed:  # what it queued so far went with the live state that was dropped
                self._failed[table_id] = self.submitted
            for table_id in [t for t, mark in self._failed.items() if mark <= self.committed]:
                del self._failed[table_id]  # bounded: only failures whose stale writes are still queued
        if self._waiters:
            keep = []
            for seq, release in self._waiters:
                if seq <= self.committed:
                    release()
                else:
                    keep.append((seq, release))
            self._waiters = keep

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        assert self._wake is not None
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self.committed < self.submitted:
                if self.inner.commits_inline:
                    await asyncio.sleep(0)  # the writes of this turn of the loop join the batch
                    upto, failed = self._write()
                else:
                    upto, failed = await loop.run_in_executor(self._pool, self._write)
                self._done(upto, failed)

    def flush(self) -> None:
        """Commit everything queued, in this thread (a read then sees every earlier write)."""
        while True:
            with self._plock:
                if not self._pending:
                    break
            upto, failed = self._write()
            self._done(upto, failed)
        with self._wlock:  # a batch being written by the committer thread has landed
            pass

    def lost_since(self, table_id: int, since: int) -> bool:
        """Whether a write of ``table_id`` queued after the first ``since`` writes failed (a message
        that waited for it must not go: the table's live state is ahead of the database)."""
        return self._lost.get(table_id, 0) > since

    def on_commit(self, seq: int, release: Callable[[], None]) -> None:
        """Call ``release`` (in the event loop) once the first ``seq`` writes are committed."""
        if seq <= self.committed:
            release()
        else:
            self._waiters.append((seq, release))

    async def wait(self, seq: int) -> None:
        """Return once the first ``seq`` writes are committed."""
        if seq <= self.committed:
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        def release() -> None:
            if not fut.done():
                fut.set_result(None)

        self._waiters.append((seq, release))
        await fut

    def close(self) -> None:
        self._closed = True
        if self._task is not None:
            self._task.cancel()
        self.flush()
        if self._pool is not None:
            self._pool.shutdown(wait=True)
        self.inner.close()
