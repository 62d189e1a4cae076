"""Which tables this worker serves, when several workers share one PostgreSQL database.

A table is live in exactly one worker: the one holding its lease (``store.claim``). HAProxy routes
each table's requests by its code to one worker; that worker loads the table on first use
(:meth:`Ownership.load`: claim, replay from the store, schedule its bots and timers). If another
worker holds it (it created the table, or the routing moved after a worker came back), the loader
asks for it (``store.want``) and the holder hands it over within a fraction of a second
(:meth:`Ownership.watch`: evict, release), while the request waits for it.

The watch loop also drops every table whose lease was lost (the worker's database session ended),
so a worker that lost a table stops applying actions to it; its clients are told ``moved`` and
reconnect (through HAProxy) to the table's new owner. With SQLite (one process) nothing of this
runs: the process owns every table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Protocol

from .. import metrics
from ..events import log_event
from ..settings import ServerSettings
from ..store import StorageUnavailable, Store, TableRow
from ..table.table import Table

log = logging.getLogger("sgmahjong.server")
ENDED = ("finished", "closed")  # a table the sweep archived: it plays no more

MOVED = {"type": "error", "code": "moved", "ref": None,
         "message": "this table moved to another server; reconnecting"}


class TableElsewhere(Exception):
    """Another worker serves this table (try again shortly)."""

    def __init__(self, code: str) -> None:
        super().__init__(f"table {code} is served by another worker; try again")
        self.code = code


class TableHost(Protocol):
    """What ownership needs of the server holding the tables (:class:`~..tables.TableServer`)."""

    settings: ServerSettings
    tables: dict[str, Table]

    @property
    def store(self) -> Store:
        """The (group-committed) store."""

    def table_of(self, store: Store, row: TableRow) -> Table:
        """The table of ``row`` as stored, made with the server's settings."""

    def get(self, code: str) -> Table | None:
        """The live table of ``code``, loaded here on first use."""


class Ownership:
    """Lazy loading, hand-over and lease watching for one table server."""

    def __init__(self, server: TableHost) -> None:
        self.server = server
        self._task: asyncio.Task[None] | None = None
        self._idle_since: dict[str, float] = {}

    # -- loading ------------------------------------------------------------------------------------
    def load(self, code: str) -> Table | None:
        """The table of ``code`` loaded here (claimed and resumed), None if there is no such table;
        raises :class:`TableElsewhere` if another worker holds it (and asks it to hand it over)."""
        store = self.server.store
        row = store.table_by_code(code)
        if row is None:
            return None
        if not store.claim(row.id):
            store.want(row.id)
            raise TableElsewhere(code)
        return self._open(row)

    def adopt(self, code: str) -> Table | None:
        """Claim a live table nobody holds (an event's table going on unattended, whose worker died or
        let it go) and resume it here, without asking any holder; None if it is held or not live."""
        row = self.server.store.table_by_code(code)
        if row is None or row.status not in ("playing", "between_hands") or code in self.server.tables:
            return None
        if not self.server.store.claim(row.id):
            return None
        return self._open(row)

    def _open(self, row: TableRow) -> Table | None:
        store = self.server.store
        code = row.code
        table = self.server.table_of(store, row)
        try:
            table.resume(row.match_seed)
        except Exception:
            log.exception("table %s could not be resumed; it is left out", code)
            store.release(row.id)
            return None
        if row.status in ENDED and len(self.server.tables) >= self.server.settings.max_tables:
            store.release(row.id)  # read as it is, not held: the live tables stay within max_tables
            return table
        self.server.tables[code] = table
        with contextlib.suppress(RuntimeError):  # no running loop: scheduled by start_tasks
            asyncio.get_running_loop()
            table.schedule()
        log_event("table_claimed", table=code, status=table.status, hand=table.hand_number)
        return table

    async def find(self, code: str) -> Table | None:
        """Like :meth:`load` but waits (up to the ``handover_wait`` setting) while another worker hands the
        table over; raises :class:`TableElsewhere` if it has not by then."""
        try:
            return self.server.get(code)
        except TableElsewhere:
            pass
        store = self.server.store
        row = store.table_by_code(code)
        end = time.monotonic() + self.server.settings.handover_wait
        while row is not None:  # asked for it; the holder releases it within lease_watch_seconds
            await asyncio.sleep(0.05)
            table = self.server.tables.get(code)  # (loaded meanwhile by another request)
            if table is not None:
                return table
            if store.claim(row.id):
                return self._open(row)
            if time.monotonic() > end:
                break
        metrics.REFUSALS.labels("moved").inc()
        raise TableElsewhere(code)

    def created(self, table: Table) -> None:
        """A table just created by ``POST /api/tables``: in a cluster, let it go at once, so that the
        worker its code is routed to claims it on first use without a hand-over."""
        store = self.server.store
        if not store.shared:
            return
        table.close()
        if self.server.tables.get(table.code) is table:
            del self.server.tables[table.code]
        store.release(table.id)

    # -- giving tables up ---------------------------------------------------------------------------
    async def evict(self, table: Table, reason: str) -> None:
        """Stop serving ``table``: its tasks end, its clients are told ``moved`` and disconnected
        (they reconnect to the new owner), and its lease is released."""
        store = self.server.store
        async with table.lock:
            table.close()
            for conn in list(table.conns):
                conn.push(MOVED)
                conn.evicted = True
                conn.finish()
            if self.server.tables.get(table.code) is table:
                del self.server.tables[table.code]
            with contextlib.suppress(Exception):
                store.release(table.id)
        self._idle_since.pop(table.code, None)
        log_event("table_released", table=table.code, reason=reason, status=table.status)

    def _idle(self, table: Table, now: float) -> bool:
        busy = bool(table.conns) or (table.status == "playing" and not any(
            s.kind == "human" for s in table.seats)) or (
            table.options.unattended and table.status in ("playing", "between_hands"))
        if busy:
            self._idle_since.pop(table.code, None)
            return False
        since = self._idle_since.setdefault(table.code, now)
        return now - since >= self.server.settings.release_idle_seconds

    async def watch_once(self) -> None:
        store = self.server.store
        owned = await asyncio.to_thread(store.heartbeat)  # a lost session empties what the store owns
        wanted = await asyncio.to_thread(store.wanted) if owned else set()
        now = time.monotonic()
        live = {t.id for t in self.server.tables.values()}
        for table_id in store.owned() - live:  # archived or given up: no longer held
            store.release(table_id)
        for table in list(self.server.tables.values()):
            if not store.owns(table.id):  # now (a table may have been claimed during the awaits)
                log_event("lease_lost", table=table.code)
                metrics.ERRORS.labels("lease_lost").inc()
                await self.evict(table, "lease_lost")
            elif table.id in wanted:
                await self.evict(table, "handover")
            elif self._idle(table, now):
                await self.evict(table, "idle")

    async def watch(self) -> None:
        while True:
            try:
                await self.watch_once()
            except asyncio.CancelledError:
                raise
            except StorageUnavailable as exc:  # the database is restarting: expected, no traceback
                log.warning("the lease watch: the store is unavailable (%s); retrying", exc)
            except Exception:
                log.exception("the lease watch failed; retrying")
            await asyncio.sleep(self.server.settings.lease_watch_seconds)

    def start(self) -> None:
        store = self.server.store
        if store.shared:
            self._task = asyncio.get_running_loop().create_task(self.watch())

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None
