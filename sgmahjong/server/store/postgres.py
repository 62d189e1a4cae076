"""PostgreSQL backend (psycopg 3), chosen by ``DATABASE_URL=postgresql://...``: several worker
processes (on one or several machines) share one database.

Each worker keeps ONE database session for everything it does, guarded by the store's lock. A
table is owned through a session-level advisory lock on (``LOCK_SPACE``, table id): at most one
session holds it, and PostgreSQL drops it the moment that session ends (a killed worker's socket
closes, so another worker can claim its tables at once). Every write to a table checks that this
process holds it, and since every write goes through the very session that holds the lock, a worker
whose session was lost (and with it its locks) can no longer write: its next statement fails, and it
reconnects owning nothing.

A failure that is not the SQL's fault (the server unreachable, shut down or restarting, the session
terminated, disk full or out of resources: ``psycopg.OperationalError`` and a lost connection) is
:class:`~.base.StorageUnavailable` with a one-line reason; nothing of the transaction is kept, and the
next statement reconnects. Errors of the SQL itself (constraints, syntax) stay psycopg's own.
"""

from __future__ import annotations

import contextlib
import functools
import re
import time
from collections.abc import Iterator
from typing import Any

import psycopg

from ..metrics import STORE_WRITE
from .base import StorageUnavailable
from .sql import SqlStore

#: first key of the advisory locks (the second is the table id): "SG"
LOCK_SPACE = 0x5347
_MIGRATION_KEY = 0x53474D49  # "SGMI"


#: a failure of the database or of the session, not of the SQL: the server gone or shutting down,
#: the connection lost, disk full (class 53), a read-only standby (25006)
_UNAVAILABLE = (psycopg.OperationalError, psycopg.InterfaceError, psycopg.errors.ReadOnlySqlTransaction)


def reason(exc: BaseException) -> str:
    """A psycopg error in one line: its SQLSTATE (if any) and the first line of its message."""
    text = (str(exc).strip().splitlines() or [type(exc).__name__])[0].strip()
    state = getattr(getattr(exc, "diag", None), "sqlstate", None) or getattr(exc, "sqlstate", None)
    return f"{text} [{state}]" if state else text


@functools.lru_cache(maxsize=256)
def _translate(sql: str) -> str:
    return sql.replace("%", "%%").replace("?", "%s")


@functools.lru_cache(maxsize=256)
def _returns_rows(sql: str) -> bool:
    text = sql.lstrip().upper()
    return text.startswith(("SELECT", "WITH", "VALUES")) or " RETURNING " in f" {' '.join(text.split())} "


def redact(url: str) -> str:
    """``url`` without its password."""
    return re.sub(r"(://[^:/@]*):[^@/]*@", r"\1:***@", url)


class PostgresStore(SqlStore):
    dialect = "postgres"
    shared = True
    row_lock = " FOR UPDATE"
    skip_locked = " FOR UPDATE SKIP LOCKED"

    def __init__(self, url: str, worker: str | None = None, *, connect_timeout: int = 5) -> None:
        super().__init__(worker)
        self.url = url
        self.connect_timeout = connect_timeout
        self._conn: psycopg.Connection[Any] | None = None
        self._in_tx = False
        self._pipeline: psycopg.Pipeline | None = None
        self._migrate()

    def describe(self) -> str:
        return f"PostgreSQL {redact(self.url)}"

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
            self._epochs.clear()

    def _connection(self) -> psycopg.Connection[Any]:
        if self._conn is None or self._conn.closed:
            if self._in_tx:
                raise StorageUnavailable("the database session was lost during a transaction")
            try:
                # no prepared statements: in pipeline mode psycopg (3.3) records a statement as prepared
                # when its PREPARE came after a failed statement in the same pipeline (so was never
                # run), and every later use fails "prepared statement ... does not exist": one write
                # refused (disk full, say) wedged the session for good
                self._conn = psycopg.connect(self.url, autocommit=True, connect_timeout=self.connect_timeout,
                                             prepare_threshold=None)
            except psycopg.Error as exc:
                where = redact(self.url)
                raise StorageUnavailable(f"cannot reach the database ({where}): {reason(exc)}") from None
        return self._conn

    def _alive(self) -> bool:
        conn = self._conn
        return (conn is not None and not conn.closed and not conn.broken
                and conn.pgconn.status == psycopg.pq.ConnStatus.OK)

    def _unavailable(self, exc: Exception) -> StorageUnavailable:
        """A failure of the database, not of the SQL. If the session is gone (or may be: a client-side
        error, a connection exception 08xxx, a shutdown 57P0x), so are its advisory locks: this process
        owns nothing now, and the next statement reconnects."""
        state = getattr(exc, "sqlstate", None)
        if self._alive() and state is not None and not state.startswith(("08", "57P")):
            return StorageUnavailable(f"the database refused the write: {reason(exc)}")
        return self._lost(exc)

    def _lost(self, exc: Exception) -> StorageUnavailable:
        """The session is gone: so are its advisory locks, so this process owns nothing now."""
        if self._conn is not None:
            with contextlib.suppress(Exception):
                self._conn.close()
        self._conn = None
        self._epochs.clear()
        return StorageUnavailable(f"the database session was lost: {reason(exc)}")

    def _run(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        conn = self._connection()
        try:
            cur = conn.execute(_translate(sql), params) if params else conn.execute(sql)
            if self._pipeline is not None:
                if not _returns_rows(sql):
                    return []  # queued: sent with the rest of the transaction, in one round trip
                self._pipeline.sync()  # its rows are needed now
            return cur.fetchall() if cur.description is not None else []
        except _UNAVAILABLE as exc:
            raise self._unavailable(exc) from None

    def _run_many(self, sql: str, rows: list[tuple[Any, ...]]) -> None:
        """One ``executemany``: in a transaction's pipeline the rows go with its other statements."""
        if len(rows) == 1:
            self._run(sql, rows[0])
            return
        conn = self._connection()
        try:
            with conn.cursor() as cur:
                cur.executemany(_translate(sql), rows)
        except _UNAVAILABLE as exc:
            raise self._unavailable(exc) from None

    @contextlib.contextmanager
    def _tx(self) -> Iterator[None]:
        """A transaction in pipeline mode: its statements go in one round trip, not one each (a
        statement whose rows are read waits for them)."""
        with self._lock:
            start = time.perf_counter()
            conn = self._connection()
            try:
                with conn.pipeline() as pipeline:
                    self._pipeline = pipeline
                    try:  # (a BEGIN that fails must not leave the dead pipeline to the next statement)
                        self._begin()
                        yield
                    finally:
                        self._pipeline = None
                    self._commit()
            except _UNAVAILABLE as exc:
                error = self._unavailable(exc)
                self._rollback()
                raise error from None
            except BaseException:
                self._rollback()
                raise
            STORE_WRITE.observe(time.perf_counter() - start)

    def _begin(self) -> None:
        self._run("BEGIN")
        self._in_tx = True

    def _commit(self) -> None:
        self._in_tx = False
        self._run("COMMIT")

    def _rollback(self) -> None:
        self._in_tx = False
        if self._alive():
            try:
                assert self._conn is not None
                self._conn.execute("ROLLBACK")
            except psycopg.Error as exc:
                self._lost(exc)

    def _migration_lock(self) -> None:
        self._run("SELECT pg_advisory_xact_lock(?)", (_MIGRATION_KEY,))

    def _try_lock(self, table_id: int) -> bool:
        rows = self._run("SELECT pg_try_advisory_lock(?, ?)", (LOCK_SPACE, table_id))
        return bool(rows[0][0])

    def _unlock(self, table_id: int) -> None:
        self._run("SELECT pg_advisory_unlock(?, ?)", (LOCK_SPACE, table_id))
