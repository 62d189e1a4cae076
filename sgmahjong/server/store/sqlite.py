"""SQLite backend (stdlib ``sqlite3``): the embedded default, one server process per file.

One connection, guarded by the store's lock; WAL journal. A single process owns every table, so
claiming a table always succeeds; a second process on the same file is refused at open, and so is a
file this process cannot write. The lock is the file's own: an exclusive ``flock`` on the database
file, held while the store is open, so it follows the file (its inode), not the path: a second server
is refused whether it names the file by the same path, another one, a hard or symbolic link, or
through a bind mount. (SQLite's own locks are POSIX record locks on the same file, which ``flock``
does not touch; the descriptor holding the lock is closed only after SQLite's connections, since
closing any descriptor of a file drops the process's record locks on it.)
A database error that is not the SQL's fault (disk full, read-only, I/O) is :class:`StorageUnavailable`.

Checkpoints: a commit never writes the WAL back into the database file (``wal_autocheckpoint`` is
off on the store's connection, and with ``synchronous=NORMAL`` a commit does not wait for the disk);
a checkpointer thread does it every ``CHECKPOINT_SECONDS`` on a connection of its own, alongside the
commits (a passive checkpoint does not block writers). So the write-back and its ``fsync``, which can
take tens of milliseconds or more on a busy disk, never hold up a commit, and with it every message
waiting for that commit (group commit, server/store/committer.py).
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import sqlite3
import threading
from pathlib import Path
from typing import Any

from .base import StorageUnavailable, StoreError
from .sql import SqlStore

log = logging.getLogger("sgmahjong.server")

CHECKPOINT_SECONDS = 1.0  # how often the checkpointer writes the WAL back into the database file

# the database files (device, inode) held by this process's open stores: a second store on one of them
# is refused before it opens the file, since closing its descriptor would drop the first one's SQLite
# locks on the file
_held: set[tuple[int, int]] = set()
_held_lock = threading.Lock()


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
        self._lock_fd: int | None = None
        self._file_id: tuple[int, int] | None = None
        self._checkpointer: threading.Thread | None = None
        self._stop = threading.Event()
        db: sqlite3.Connection | None = None
        try:
            if path != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
                self._hold()
            self._db = db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute("PRAGMA foreign_keys=ON")
            self._migrate()
            db.execute("BEGIN IMMEDIATE")  # a database this process cannot write is refused now:
            try:  # a write that is rolled back
                db.execute("UPDATE schema_version SET applied = applied")
            finally:
                db.execute("ROLLBACK")
        except (OSError, sqlite3.Error) as exc:
            if db is not None:
                db.close()
            self._let_go()
            raise StoreError(f"cannot use the database {path}: {_reason(exc)}") from None
        if path != ":memory:":
            db.execute("PRAGMA wal_autocheckpoint=0")
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

    def _hold(self) -> None:
        """Lock the database file itself (created empty if new: SQLite takes an empty file as a new
        database) exclusively while this store is open: a second process (or store) on the same file,
        by whatever path, is refused, since SQLite tables are served by one process."""
        in_use = StoreError(
            f"the database {self.path} is in use by another sgmahjong server (it holds a lock on the file,"
            " whichever path or link names it); stop that one first, or give this one another --database")
        with _held_lock:
            with contextlib.suppress(FileNotFoundError):
                st = os.stat(self.path)
                if (st.st_dev, st.st_ino) in _held:
                    raise in_use
            fd = os.open(self.path, os.O_RDONLY | os.O_CREAT | os.O_CLOEXEC, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                st = os.fstat(fd)
            except OSError as exc:
                os.close(fd)
                if isinstance(exc, BlockingIOError):
                    raise in_use from None
                raise
            self._lock_fd, self._file_id = fd, (st.st_dev, st.st_ino)
            _held.add(self._file_id)

    def _let_go(self) -> None:
        with _held_lock:
            if self._lock_fd is not None:
                with contextlib.suppress(OSError):
                    os.close(self._lock_fd)  # closing drops the lock
                self._lock_fd = None
            if self._file_id is not None:
                _held.discard(self._file_id)
                self._file_id = None

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
