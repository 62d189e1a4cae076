"""Persistence: one interface (:class:`Store`, ``base.py``), two backends.

- SQLite (``sqlite.py``): the embedded default, ``./data/sgmahjong.sqlite3``, one server process.
- PostgreSQL (``postgres.py``, psycopg 3): ``DATABASE_URL=postgresql://...``, several workers share
  it, each owning a share of the tables.

:func:`open_store` picks the backend by the URL's scheme; the schema is created and migrated at
start from ``migrations/<dialect>/NNNN_*.sql`` (recorded in ``schema_version``). Every write commits
before it returns (write-through), so a restart loses nothing a client was told; a table is resumed
by replaying its hands' action logs with the engine (see ``table/restore.py``). The group commit
(``committer.py``) stands in for a store, batching the tables' writes.

Imports nothing of the server but its metrics; the server's other packages import it.
"""

from __future__ import annotations

import os

from .base import (
    BATCHABLE,
    ActionRow,
    HandRow,
    LeaseLost,
    PlayerHandRow,
    PlayerRow,
    SeatRow,
    StorageUnavailable,
    Store,
    StoreError,
    TableRow,
    Write,
)

__all__ = [
    "BATCHABLE", "DEFAULT_DATABASE", "ActionRow", "HandRow", "LeaseLost", "PlayerHandRow", "PlayerRow",
    "SeatRow", "StorageUnavailable", "Store", "StoreError", "TableRow", "Write", "check_url", "database_path",
    "database_url", "describe_url", "is_postgres", "open_store",
]

DEFAULT_DATABASE = "data/sgmahjong.sqlite3"
_POSTGRES = ("postgresql://", "postgres://")


def database_url(url: str | None = None) -> str:
    """The database to use: ``url``, else ``$DATABASE_URL``, else ``./data/sgmahjong.sqlite3``."""
    return url or os.environ.get("DATABASE_URL") or DEFAULT_DATABASE


def is_postgres(url: str) -> bool:
    return url.startswith(_POSTGRES)


def database_path(url: str | None = None) -> str:
    """The SQLite file named by ``url`` (``sqlite:///path``, a bare path, or ``:memory:``), else
    ``$DATABASE_URL``, else ``./data/sgmahjong.sqlite3``."""
    url = database_url(url)
    if url.startswith("sqlite:///"):
        return url[len("sqlite:///"):] or ":memory:"
    if url.startswith("sqlite://"):
        rest = url[len("sqlite://"):]
        return rest or ":memory:"
    if "://" in url:
        raise ValueError(f"only sqlite URLs name a file; got {url!r}")
    return url


def check_url(url: str | None = None) -> str:
    """``url`` resolved (see :func:`database_url`) if it names a database this server can use."""
    url = database_url(url)
    if not is_postgres(url):
        try:
            database_path(url)
        except ValueError:
            raise ValueError(
                "the database is a SQLite file (sqlite:///path) or PostgreSQL (postgresql://...);"
                f" got {url!r}"
            ) from None
    return url


def describe_url(url: str | None = None) -> str:
    """Where ``url``'s data is, for a banner (a SQLite file's absolute path; no password)."""
    url = check_url(url)
    if is_postgres(url):
        from .postgres import redact

        return f"PostgreSQL {redact(url)}"
    path = database_path(url)
    return path if path == ":memory:" else os.path.abspath(path)


def open_store(url: str | None = None, *, worker: str | None = None) -> Store:
    """The store named by ``url`` (see :func:`database_url`): PostgreSQL for ``postgresql://`` URLs,
    else a SQLite file; its schema migrated to the current version."""
    url = check_url(url)
    if is_postgres(url):
        from .postgres import PostgresStore

        return PostgresStore(url, worker)
    from .sqlite import SqliteStore

    return SqliteStore(database_path(url), worker)
