"""``sgmahjong restore FILE``: put a backup made by ``sgmahjong backup`` back, with the server stopped.

- SQLite: the backup is copied into the database file with SQLite's backup API (the file's lock is
  held meanwhile, so a running server on it is refused: stop it first).
- PostgreSQL: ``pg_restore --single-transaction`` into the database (refused while any other session,
  such as a worker, is connected to it).

A database that already holds tables is replaced only with ``--replace``. The restored schema is
then migrated to this version's (a backup from an older version works). docs/operations.md.
"""

from __future__ import annotations

import argparse
import fcntl
import sqlite3
import time
from pathlib import Path
from typing import Any

from ..cli import CliError
from .backup import (
    PG_DUMP_MAGIC,
    SQLITE_MAGIC,
    add_database_argument,
    counts,
    postgres_program,
    resolve,
    run_program,
)

SESSION_GRACE_SECONDS = 3.0  # how long a session that just closed may take to leave pg_stat_activity


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a backup written by `sgmahjong backup`")
    add_database_argument(parser)
    parser.add_argument("--replace", action="store_true",
                        help="replace a database that already holds tables (else refused)")


def check_kind(file: Path, magic: bytes, kind: str) -> None:
    try:
        with file.open("rb") as f:
            head = f.read(len(magic))
    except OSError as exc:
        raise CliError(f"cannot read {file}: {exc.strerror or exc}") from None
    if head != magic:
        raise CliError(f"{file} is not {kind}")


def restore_sqlite(file: Path, path: str, replace: bool) -> str:
    check_kind(file, SQLITE_MAGIC, "a SQLite backup (made by `sgmahjong backup` from a SQLite store)")
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    # the lock a running server holds: an exclusive flock on the database file itself (store/sqlite.py),
    # whichever path or link names it; held until SQLite has closed the file
    with open(path, "ab") as lock:
        try:
            fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise CliError(f"the database {path} is in use by a running server: stop it first") from None
        try:
            target = sqlite3.connect(path)
            source = sqlite3.connect(f"file:{file}?mode=ro", uri=True)
            try:
                has = target.execute("SELECT 1 FROM sqlite_master WHERE name = 'tables'").fetchone()
                if has and target.execute("SELECT count(*) FROM tables").fetchone()[0] and not replace:
                    raise CliError(f"the database {path} holds tables; give --replace to replace them")
                source.backup(target)
                target.execute("PRAGMA journal_mode=WAL")  # as the server runs it
                return counts(target)
            finally:
                source.close()
                target.close()
        except sqlite3.Error as exc:
            raise CliError(f"cannot restore into {path}: {exc}") from None


def other_sessions(db: Any, grace: float = SESSION_GRACE_SECONDS) -> int:
    """Client sessions on this database besides ours, once those just closed have gone.

    A backend ends a moment after its client closes (a worker just stopped, the backup's pg_dump), so
    the count is asked again for up to ``grace`` seconds before it stands; autovacuum and other
    background processes are not sessions and are not counted.
    """
    deadline = time.monotonic() + grace
    while True:
        row = db.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                         " AND backend_type = 'client backend' AND pid <> pg_backend_pid()").fetchone()
        count = int(row[0]) if row else 0
        if not count or time.monotonic() >= deadline:
            return count
        time.sleep(0.1)


def restore_postgres(file: Path, url: str, replace: bool) -> str:
    import psycopg

    check_kind(file, PG_DUMP_MAGIC, "a PostgreSQL backup (made by `sgmahjong backup` from PostgreSQL)")
    try:
        with psycopg.connect(url, connect_timeout=10) as db:
            others = other_sessions(db)
            row = db.execute("SELECT to_regclass('public.tables') IS NOT NULL").fetchone()
            exists = bool(row and row[0])  # a schema, maybe empty: replaced (pg_restore --clean)
            found = db.execute("SELECT EXISTS (SELECT 1 FROM tables)").fetchone() if exists else None
            held = bool(found and found[0])
    except psycopg.Error as exc:
        raise CliError(f"cannot connect to the database: {str(exc).strip().splitlines()[0]}") from None
    if others:
        raise CliError(f"{others} other session(s) connected to the database: stop the workers first")
    if held and not replace:
        raise CliError("the database holds tables; give --replace to replace them")
    command = [postgres_program("pg_restore"), "--single-transaction", "--no-owner", "--dbname", url]
    if exists:
        command += ["--clean", "--if-exists"]
    run_program([*command, str(file)])
    with psycopg.connect(url, connect_timeout=10) as db:
        tables = db.execute("SELECT count(*) FROM tables").fetchone()
        hands = db.execute("SELECT count(*) FROM hands").fetchone()
    return f"tables: {tables[0] if tables else 0}, hands: {hands[0] if hands else 0}"


def run(args: argparse.Namespace) -> int:
    from ..server.store import StoreError, database_path, describe_url, is_postgres, open_store

    url = resolve(args.database)
    file = Path(args.file)
    if not file.is_file():
        raise CliError(f"no such file: {file}")
    if is_postgres(url):
        summary = restore_postgres(file, url, args.replace)
    else:
        path = database_path(url)
        if path == ":memory:":
            raise CliError("cannot restore into an in-memory database")
        summary = restore_sqlite(file, path, args.replace)
    try:
        open_store(url).close()  # the schema migrated to this version's
    except StoreError as exc:
        raise CliError(str(exc)) from None
    print(f"restored {file} into {describe_url(url)} ({summary})")
    return 0
