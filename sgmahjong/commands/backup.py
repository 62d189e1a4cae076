"""``sgmahjong backup FILE``: a consistent copy of the store, taken while the server runs.

- SQLite: SQLite's online backup (``sqlite3.Connection.backup``) into ``FILE``, a SQLite database
  (written beside it and renamed into place, then checked with ``PRAGMA integrity_check``). The
  server goes on writing meanwhile; the copy holds every commit made before it finished.
- PostgreSQL: ``pg_dump --format=custom`` (one snapshot, workers go on meanwhile) into ``FILE``.

``sgmahjong restore FILE`` (:mod:`.restore`) puts such a file back. docs/operations.md, "Backups".
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import subprocess
from pathlib import Path

from ..cli import CliError

SQLITE_MAGIC = b"SQLite format 3\x00"
PG_DUMP_MAGIC = b"PGDMP"


def add_database_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--database",
        default=None,
        help="SQLite URL or file, or a postgresql:// URL"
        " (default $DATABASE_URL, else ./data/sgmahjong.sqlite3)",
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="the backup to write (a SQLite file; a pg_dump archive for PostgreSQL)")
    add_database_argument(parser)
    parser.add_argument("--force", action="store_true", help="overwrite FILE if it exists")


def resolve(database: str | None) -> str:
    """The database URL (``--database``, ``$DATABASE_URL`` or the default), or a one-line error."""
    from ..server.store import check_url

    try:
        return check_url(database)
    except ValueError as exc:
        raise CliError(str(exc)) from None


def postgres_program(name: str) -> str:
    """``pg_dump`` or ``pg_restore``: the newest installed server version's, else the one on PATH."""
    from ..server.cluster.local import ClusterError, pg_bin

    try:
        return pg_bin(name)
    except ClusterError as exc:
        raise CliError(str(exc)) from None


def run_program(command: list[str]) -> None:
    """Run ``command``; its own error message, if it fails, becomes a one-line error."""
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        reason = lines[-1] if lines else f"exit code {done.returncode}"
        raise CliError(f"{Path(command[0]).name} failed: {reason}")


def counts(db: sqlite3.Connection) -> str:
    tables = db.execute("SELECT count(*) FROM tables").fetchone()[0]
    hands = db.execute("SELECT count(*) FROM hands").fetchone()[0]
    return f"tables: {tables}, hands: {hands}"


def backup_sqlite(path: str, out: Path) -> str:
    """Copy the SQLite database at ``path`` into ``out`` with SQLite's online backup."""
    if not Path(path).is_file():
        raise CliError(f"no database at {path}")
    partial = out.with_name(out.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        source = sqlite3.connect(path)
        target = sqlite3.connect(partial)
        try:
            source.backup(target)  # pages copied under a read transaction: one consistent state
            target.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
            ok = target.execute("PRAGMA integrity_check").fetchone()[0]
            if ok != "ok":
                raise CliError(f"the copy failed its integrity check: {ok}")
            summary = counts(target)
        finally:
            target.close()
            source.close()
        os.replace(partial, out)
    except sqlite3.Error as exc:
        raise CliError(f"cannot back up {path}: {exc}") from None
    finally:
        partial.unlink(missing_ok=True)
    return summary


def backup_postgres(url: str, out: Path) -> str:
    partial = out.with_name(out.name + ".partial")
    try:
        dump = postgres_program("pg_dump")
        run_program([dump, "--format=custom", "--no-owner", "--file", str(partial), url])
        os.replace(partial, out)
    finally:
        partial.unlink(missing_ok=True)
    return f"{out.stat().st_size} bytes"


def run(args: argparse.Namespace) -> int:
    from ..server.store import database_path, describe_url, is_postgres

    url = resolve(args.database)
    out = Path(args.file)
    if out.exists() and not args.force:
        raise CliError(f"{out} exists; give another file or --force")
    if not out.parent.is_dir():
        raise CliError(f"no folder {out.parent}")
    if is_postgres(url):
        summary = backup_postgres(url, out)
    else:
        path = database_path(url)
        if path == ":memory:":
            raise CliError("an in-memory database cannot be backed up")
        summary = backup_sqlite(path, out)
    print(f"backed up {describe_url(url)} to {out} ({summary})")
    return 0

