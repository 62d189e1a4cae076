"""SQLite backend (stdlib ``sqlite3``): the embedded default, one server process per file.

One connection, guarded by the store's lock; WAL journal. A single process owns every table, so
claiming a table always succeeds; a second process on the same file is refused at open (a lock file
beside the database is held while the store is open), and so is a file this process cannot write.
A database error that is not the SQL's fault (disk full, read-only, I/O) is :class:`StorageUnavailable`.
"""

from __future__ import annotations

import fcntl
import sqlite3
from pathlib import Path
from typing import IO, Any

from .base import StorageUnavailable, StoreError
from .sql import SqlStore


def _reason(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    if "readonly" in text or "read-only" in text.lower():
        return f"{text}: the file or its folder cannot be written"
    return text


class SqliteStore(SqlStore):
    dialect = "sqlite"
    shared = False

    def __init__(self, path: str, worker: str | None = None) -> None:
        super().__init__(worker)
        self.path = path
        self._lockfile: IO[bytes] | None = None
        try:
            if path != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
                self._hold(path + ".lock")
            self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._migrate()
            self._db.execute("BEGIN IMMEDIATE")  # a database this process cannot write is refused now:
            try:  # a write that is rolled back
                self._db.execute("UPDATE schema_version SET applied = applied")
            finally:
                self._db.execute("ROLLBACK")
        except (OSError, sqlite3.Error) as exc:
            self._let_go()
            raise StoreError(f"cannot use the database {path}: {_reason(exc)}") from None

    def _hold(self, lock_path: str) -> None:
        """Hold ``lock_path`` exclusively while this store is open: a second process (or store) on the
        same file is refused, since SQLite tables are served by one process."""
        self._lockfile = open(lock_path, "ab")  # noqa: SIM115 - kept open while the store is
        try:
            fcntl.flock(self._lockfile.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self._let_go()
            raise StoreError(
                f"the database {self.path} is in use by another sgmahjong server (it holds {lock_path});"
                " stop that one first, or give this one another --database"
            ) from None

    def _let_go(self) -> None:
        if self._lockfile is not None:
            self._lockfile.close()  # closing drops the lock
            self._lockfile = None

    def describe(self) -> str:
        return f"SQLite {Path(self.path).resolve() if self.path != ':memory:' else ':memory:'}"

    def close(self) -> None:
        with self._lock:
            self._db.close()
            self._let_go()

    def owns(self, table_id: int) -> bool:
        return True

    def _run(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        try:
            return self._db.execute(sql, params).fetchall()
        except sqlite3.OperationalError as exc:  # full, read-only, I/O error, locked: not our SQL
            raise StorageUnavailable(_reason(exc)) from exc

    def _begin(self) -> None:
        self._run("BEGIN")

    def _commit(self) -> None:
        self._run("COMMIT")

    def _rollback(self) -> None:
        if self._db.in_transaction:
            self._db.execute("ROLLBACK")

    def _try_lock(self, table_id: int) -> bool:
        return True

    def _unlock(self, table_id: int) -> None:
        pass
