"""A local PostgreSQL (and HAProxy) from Debian's packages, for ``make cluster`` and the tests.

:class:`LocalPostgres` runs ``initdb`` into a folder and ``pg_ctl`` on a 127.0.0.1 port. PostgreSQL
refuses to run as root, so when this process is root the server runs as the ``postgres`` user
(Debian's package creates it; else ``nobody``) in a folder that user owns.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import socket
import subprocess
import time
from pathlib import Path

PG_BIN_DIRS = ("/usr/lib/postgresql/17/bin", "/usr/lib/postgresql/16/bin", "/usr/lib/postgresql/15/bin")
HAPROXY = "/usr/sbin/haproxy"


class ClusterError(Exception):
    """A local component could not be set up or started (the message says which and why)."""


def pg_bin(name: str) -> str:
    """The path of a PostgreSQL program (``initdb``, ``pg_ctl``, ...)."""
    for d in PG_BIN_DIRS:
        path = Path(d) / name
        if path.is_file():
            return str(path)
    found = shutil.which(name)
    if found:
        return found
    raise ClusterError(f"{name} not found: install Debian's postgresql package (apt-get install postgresql)")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _run_as() -> pwd.struct_passwd | None:
    """The user to run PostgreSQL as: None (this user) unless we are root."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            return pwd.getpwnam(name)
    raise ClusterError("running as root, and neither a postgres nor a nobody user exists to run PostgreSQL")


class LocalPostgres:
    """A PostgreSQL server in ``folder`` (created by initdb if new) on ``127.0.0.1:port``."""

    def __init__(self, folder: str | Path, port: int | None = None) -> None:
        self.folder = Path(folder).resolve()
        self.data = self.folder / "pgdata"
        self.log = self.folder / "postgres.log"
        self.port = port or free_port()
        self.user = _run_as()

    @property
    def url(self) -> str:
        return self.url_for("postgres")

    def url_for(self, database: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def _cmd(self, *args: str) -> list[str]:
        if self.user is None:
            return list(args)
        return ["runuser", "-u", self.user.pw_name, "--", *args]

    def _check(self, *args: str, timeout: float = 120) -> None:
        r = subprocess.run(self._cmd(*args), capture_output=True, text=True, timeout=timeout, check=False)
        if r.returncode != 0:
            log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise ClusterError(f"{Path(args[0]).name} failed: {r.stderr.strip() or r.stdout.strip()}\n{log}")

    def init(self) -> None:
        """Create the folder and the database cluster in it (once)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        if self.user is not None:
            os.chown(self.folder, self.user.pw_uid, self.user.pw_gid)
            self.folder.chmod(0o700)
            # the postgres user must be able to reach the folder through its parents
            for parent in self.folder.parents:
                if parent == Path("/"):
                    break
                mode = parent.stat().st_mode
                if not mode & 0o001:
                    parent.chmod(mode | 0o001)
        if (self.data / "PG_VERSION").exists():
            return
        self._check(pg_bin("initdb"), "-D", str(self.data), "-U", "postgres", "--auth=trust",
                    "-E", "UTF8", "--locale=C", "--no-sync")

    def start(self) -> None:
        self.init()
        options = (f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off"
                   " -c synchronous_commit=off -c full_page_writes=off -c max_connections=200")
        self._check(pg_bin("pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-o", options,
                    "-w", "-t", "60", "start")

    def running(self) -> bool:
        r = subprocess.run(self._cmd(pg_bin("pg_ctl"), "-D", str(self.data), "status"),
                           capture_output=True, check=False)
        return r.returncode == 0

    def stop(self) -> None:
        if self.data.exists() and self.running():
            self._check(pg_bin("pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")

    def create_database(self, name: str) -> str:
        """A new empty database; its URL."""
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url_for(name)

    def wait(self, timeout: float = 30) -> None:
        import psycopg

        end = time.monotonic() + timeout
        while True:
            try:
                psycopg.connect(self.url, connect_timeout=2).close()
                return
            except psycopg.OperationalError:
                if time.monotonic() > end:
                    raise
                time.sleep(0.1)
