"""SQLite backend (stdlib ``sqlite3``): the embedded default, one server process per file.

One connection, guarded by the store's lock; WAL journal. A single process owns every table, so
claiming a table always succeeds (another process on the same file is not supported).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from .sql import SqlStore


class SqliteStore(SqlStore):
    dialect = "sqlite"
    shared = False

    def __init__(self, path: str, worker: str | None = None) -> None:
        super().__init__(worker)
        self.path = path
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._migrate()

    def describe(self) -> str:
        return f"SQLite {Path(self.path).resolve() if self.path != ':memory:' else ':memory:'}"

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def owns(self, table_id: int) -> bool:
        return True

    def _run(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        return self._db.execute(sql, params).fetchall()

    def _begin(self) -> None:
        self._db.execute("BEGIN")

    def _commit(self) -> None:
        self._db.execute("COMMIT")

    def _rollback(self) -> None:
        if self._db.in_transaction:
            self._db.execute("ROLLBACK")

    def _try_lock(self, table_id: int) -> bool:
        return True

    def _unlock(self, table_id: int) -> None:
        pass
