"""SQLite backend (stdlib ``sqlite3``): the embedded default, one server process per file.

One connection, guarded by the store's lock; WAL journal. A single process owns every table, so
claiming a table always succeeds; a second process on the same file is refused at open (a lock file
beside the database is held while the store is open), and so is a file this process cannot write.
A database error that is not the SQL's fault (disk full, read-only, I/O) is :class:`StorageUnavailable`.

Checkpoints: a commit never writes the WAL back into the database file (``wal_autocheckpoint`` is
off on the store's connection, and with ``synchronous=NORMAL`` a commit does not wait for the disk);
a checkpointer thread does it every ``CHECKPOINT_SECONDS`` on a connection of its own, alongside the
commits (a passive checkpoint does not block writers). So the write-back and its ``fsync``, which can
take tens of milliseconds or more on a busy disk, never hold up a commit, and with it every message
waiting for that commit (group commit, server/store/committer.py).
"""

from __future__ import annotations

import fcntl
import logging
import sqlite3
import threading
from pathlib import Path
from typing import IO, Any

from .base import StorageUnavailable, StoreError
from .sql import SqlStore

log = logging.getLogger("sgmahjong.server")

CHECKPOINT_SECONDS = 1.0  # how often the checkpointer writes the WAL back into the database file


def _reason(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    if "readonly" in text or "read-only" in text.lower():
        return f"{text}: the file or its folder cannot be written"
    return text


class SqliteStore(SqlStore):
    dialect = "sqlite"
    shared = False
    commits_inline = True  # WAL with synchronous=NORMAL: a commit writes the WAL, no fsync

    def __init__(self, path: str, worker: str | None = None) -> None:
        super().__init__(worker)
        self.path = path
        self._lockfile: IO[bytes] | None = None
        self._checkpointer: threading.Thread | None = None
        self._stop = threading.Event()
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
        if path != ":memory:":
            self._db.execute("PRAGMA wal_autocheckpoint=0")
            self._checkpointer = threading.Thread(target=self._checkpoint_loop, name="sgmahjong-checkpoint",
                                                  daemon=True)
            self._checkpointer.start()

    def _checkpoint_loop(self) -> None:
        """Write the WAL back every ``CHECKPOINT_SECONDS`` (passive: alongside the commits)."""
        db: sqlite3.Connection | None = None
        try:
            while not self._stop.wait(CHECKPOINT_SECONDS):
                try:
                    if db is None:
                        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                except sqlite3.Error as exc:  # e.g. the disk is full: try again next time
                    log.warning("SQLite checkpoint of %s failed: %s", self.path, exc)
        finally:
            if db is not None:
                db.close()

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
        self._stop.set()
        if self._checkpointer is not None:
            self._checkpointer.join(timeout=10)
        with self._lock:
            if self._checkpointer is not None:
                try:  # leave the database file whole (and the WAL empty) behind
                    self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
                except sqlite3.Error as exc:
                    log.warning("SQLite checkpoint of %s at close failed: %s", self.path, exc)
            self._db.close()
            self._let_go()

    def owns(self, table_id: int) -> bool:
        return True

    def _run(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        try:
            return self._db.execute(sql, params).fetchall()
        except sqlite3.OperationalError as exc:  # full, read-only, I/O error, locked: not our SQL
            raise StorageUnavailable(_reason(exc)) from exc

    def _run_many(self, sql: str, rows: list[tuple[Any, ...]]) -> None:
        try:
            self._db.executemany(sql, rows)
        except sqlite3.OperationalError as exc:
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
