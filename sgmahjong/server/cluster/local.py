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


# -- HAProxy ------------------------------------------------------------------------------------------
def haproxy_config(bind: str, workers: list[tuple[str, str]], *, check_ms: int = 1000,
                   maxconn: int = 4000) -> str:
    """An HAProxy configuration routing every table's requests to one worker by the table's code.

    ``workers``: (name, host:port). The code is the third path field of ``/t/CODE``, ``/ws/CODE``
    and ``/replay/CODE/N``, the fourth of ``/api/tables/CODE...``; ``balance hash`` on it with
    consistent hashing sends each table to one worker, and moves only a dead worker's tables when it
    goes (other requests, with no code, are spread by round robin). Workers are health-checked on
    ``/api/health`` (a dead worker's sockets close with it, and its clients reconnect elsewhere; a
    merely slow one keeps its sessions).
    """
    servers = "\n".join(f"    server {name} {addr} check" for name, addr in workers)
    checks = f"inter {check_ms}ms fastinter {check_ms // 2}ms downinter {check_ms // 2}ms fall 2 rise 2"
    return f"""\
# sgmahjong: HAProxy in front of several `sgmahjong serve` workers sharing one PostgreSQL.
# Generated by sgmahjong.localcluster.haproxy_config (see deploy/README.md).
global
    maxconn {maxconn}

defaults
    mode http
    timeout connect 2s
    timeout client 60s
    timeout server 60s
    timeout check 5s
    timeout tunnel 1h
    timeout http-keep-alive 10s
    option forwardfor
    option redispatch
    retries 3

frontend web
    bind {bind}
    default_backend workers

backend workers
    # the table code: /t/CODE, /ws/CODE, /replay/CODE/N -> field 3; /api/tables/CODE/... -> field 4
    http-request set-var(txn.code) path,field(3,/) if {{ path_beg /t/ /ws/ /replay/ }}
    http-request set-var(txn.code) path,field(4,/) if {{ path_beg /api/tables/ }}
    balance hash var(txn.code)
    hash-type consistent
    option httpchk GET /api/health
    http-check expect status 200
    default-server {checks}
{servers}
"""


def haproxy() -> str:
    found = HAPROXY if Path(HAPROXY).is_file() else shutil.which("haproxy")
    if not found:
        raise ClusterError("haproxy not found: install Debian's haproxy package (apt-get install haproxy)")
    return found


# -- a whole local cluster ----------------------------------------------------------------------------
class Worker:
    """One ``sgmahjong serve`` process."""

    def __init__(self, name: str, port: int, database: str, log: Path, env: dict[str, str]) -> None:
        import sys

        self.name, self.port, self.log_path = name, port, log
        self.url = f"http://127.0.0.1:{port}"
        self.log_file = log.open("ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "sgmahjong", "serve", "--port", str(port), "--database", database],
            # HAProxy (127.0.0.1) is every client's TCP peer: not capped per address (the per-address
            # request limits count X-Forwarded-For instead)
            env={"SGMAHJONG_UNLIMITED_ADDRESSES": "127.0.0.1", **os.environ, **env, "SGMAHJONG_WORKER": name},
            stdout=self.log_file, stderr=subprocess.STDOUT,
        )

    def healthy(self) -> bool:
        import urllib.request

        try:
            with urllib.request.urlopen(self.url + "/api/health", timeout=1) as r:
                return bool(r.status == 200)
        except OSError:
            return False

    def kill(self) -> None:
        """SIGKILL: what a crash does."""
        with contextlib.suppress(ProcessLookupError):
            self.proc.kill()
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
        self.log_file.close()


class LocalCluster:
    """PostgreSQL + ``workers`` server processes + HAProxy on ``127.0.0.1:port``, files in ``folder``.

    ``database``: a PostgreSQL URL to use; else a PostgreSQL in ``folder/postgres`` is started (and
    initialised the first time) with a database ``sgmahjong``.
    """

    def __init__(self, folder: str | Path, *, workers: int = 2, port: int = 8000,
                 database: str | None = None, env: dict[str, str] | None = None,
                 bind: str = "127.0.0.1") -> None:
        self.folder = Path(folder).resolve()
        self.n_workers = workers
        self.port = port
        self.bind = bind
        self.database = database
        self.env = env or {}
        self.postgres: LocalPostgres | None = None
        self.workers: list[Worker] = []
        self.proxy: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _start_postgres(self) -> str:
        import psycopg

        pg = LocalPostgres(self.folder / "postgres", port=free_port())
        pg.start()
        self.postgres = pg
        with psycopg.connect(pg.url, autocommit=True) as conn:
            if not conn.execute("SELECT 1 FROM pg_database WHERE datname = 'sgmahjong'").fetchall():
                conn.execute("CREATE DATABASE sgmahjong")
        return pg.url_for("sgmahjong")

    def start(self, timeout: float = 60) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        try:
            if self.database is None:
                self.database = self._start_postgres()
            from ..store import open_store

            open_store(self.database, worker="setup").close()  # migrate once, before the workers start
            for i in range(self.n_workers):
                name = f"w{i + 1}"
                self.workers.append(
                    Worker(name, free_port(), self.database, self.folder / f"{name}.log", self.env))
            end = time.monotonic() + timeout
            for w in self.workers:
                while not w.healthy():
                    if w.proc.poll() is not None or time.monotonic() > end:
                        raise ClusterError(f"worker {w.name} did not start: see {w.log_path}:\n"
                                           + w.log_path.read_text(errors="replace")[-2000:])
                    time.sleep(0.1)
            self.start_proxy()
            self.write_pids()
        except BaseException:
            self.stop()
            raise

    def start_proxy(self) -> None:
        cfg = self.folder / "haproxy.cfg"
        cfg.write_text(haproxy_config(f"{self.bind}:{self.port}",
                                      [(w.name, f"127.0.0.1:{w.port}") for w in self.workers]))
        check = subprocess.run([haproxy(), "-c", "-q", "-f", str(cfg)], capture_output=True, text=True,
                               check=False)
        if check.returncode != 0:
            raise ClusterError(f"haproxy refused {cfg}: {check.stderr.strip() or check.stdout.strip()}")
        log = (self.folder / "haproxy.log").open("ab")
        self.proxy = subprocess.Popen([haproxy(), "-db", "-f", str(cfg)], stdout=log,
                                      stderr=subprocess.STDOUT)
        end = time.monotonic() + 20
        while True:
            with socket.socket() as s:
                s.settimeout(0.5)
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            if self.proxy.poll() is not None or time.monotonic() > end:
                raise ClusterError(f"haproxy did not start: see {self.folder / 'haproxy.log'}")
            time.sleep(0.05)

    def write_pids(self) -> None:
        import json

        (self.folder / "cluster.json").write_text(json.dumps({
            "pid": os.getpid(), "port": self.port, "database": self.database,
            "workers": [{"name": w.name, "port": w.port, "pid": w.proc.pid} for w in self.workers],
            "haproxy": self.proxy.pid if self.proxy else None,
            "postgres": str(self.postgres.folder) if self.postgres else None,
        }, indent=2))

    def worker(self, name: str) -> Worker:
        return next(w for w in self.workers if w.name == name)

    def stop(self) -> None:
        if self.proxy is not None and self.proxy.poll() is None:
            self.proxy.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proxy.wait(timeout=10)
        self.proxy = None
        for w in self.workers:
            w.stop()
        self.workers = []
        if self.postgres is not None:
            self.postgres.stop()
            self.postgres = None
        with contextlib.suppress(FileNotFoundError):
            (self.folder / "cluster.json").unlink()


def stop_recorded(folder: str | Path) -> list[str]:
    """Stop a cluster started by another process in ``folder`` (``make cluster-stop``): its
    processes by the ids it recorded, then its PostgreSQL. What was done, line by line."""
    import json
    import signal

    folder = Path(folder).resolve()
    done: list[str] = []
    info_path = folder / "cluster.json"
    if info_path.exists():
        info = json.loads(info_path.read_text())
        pids = [("cluster", info.get("pid")), ("haproxy", info.get("haproxy"))]
        pids += [(f"worker {w['name']}", w["pid"]) for w in info.get("workers", [])]
        for what, pid in pids:
            if pid and pid != os.getpid():
                with contextlib.suppress(ProcessLookupError):
                    os.kill(int(pid), signal.SIGTERM)
                    done.append(f"stopped {what} (pid {pid})")
        time.sleep(1)
        with contextlib.suppress(FileNotFoundError):
            info_path.unlink()
    pg_folder = folder / "postgres"
    if (pg_folder / "pgdata" / "PG_VERSION").exists():
        pg = LocalPostgres(pg_folder)
        if pg.running():
            pg.stop()
            done.append("stopped postgresql")
    return done
