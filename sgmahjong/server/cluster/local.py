"""A local PostgreSQL (and HAProxy) from Debian's packages, for ``make cluster`` and the tests.

:class:`LocalPostgres` runs ``initdb`` into a folder and ``pg_ctl`` on a 127.0.0.1 port. PostgreSQL
refuses to run as root, so when this process is root the server runs as the ``postgres`` user
(Debian's package creates it; else ``nobody``) in a folder that user owns.
"""

from __future__ import annotations

import contextlib
import errno
import os
import pwd
import shutil
import socket
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..settings import SettingsError, from_environment
from .haproxy import ProxySettings, haproxy_config

PG_BIN_DIRS = ("/usr/lib/postgresql/17/bin", "/usr/lib/postgresql/16/bin", "/usr/lib/postgresql/15/bin")


class ClusterError(Exception):
    """A local component could not be set up or started (the message says which and why)."""


@dataclass(frozen=True)
class ClusterPorts:
    """The ports of ``sgmahjong cluster up``, from ``SGMAHJONG_CLUSTER_<FIELD>`` (its flags override
    them). 0 or none: a free port, found when it starts."""

    port: int = 8000  # HAProxy's (the players' address)
    worker_ports: tuple[int, ...] = ()  # one per worker, in order (w1, w2, ...)
    postgres_port: int = 0  # the local PostgreSQL's (not with --database)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: Any) -> ClusterPorts:
        return from_environment(cls, "SGMAHJONG_CLUSTER_", env, **overrides)


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


HAPROXY = "/usr/sbin/haproxy"


def haproxy() -> str:
    """The path of the haproxy program."""
    found = HAPROXY if Path(HAPROXY).is_file() else shutil.which("haproxy")
    if not found:
        raise ClusterError("haproxy not found: install Debian's haproxy package (apt-get install haproxy)")
    return found


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def check_port(host: str, port: int, what: str, flag: str) -> None:
    """Raise :class:`ClusterError` saying so if ``host:port`` cannot be listened on (taken, say)."""
    if not 0 < port < 65536:
        raise ClusterError(f"{flag}: {port} is not a port (1-65535)")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError as exc:
            reason = "is in use" if exc.errno == errno.EADDRINUSE else f"cannot be used ({exc.strerror})"
            raise ClusterError(f"port {port} for {what} {reason} on {host}: stop what listens there, or"
                               f" choose another with {flag}") from None


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

    def __init__(self, folder: str | Path, port: int | None = None, *, initdb_args: Sequence[str] = (),
                 settings: Mapping[str, str] | None = None) -> None:
        self.folder = Path(folder).resolve()
        self.initdb_args = list(initdb_args)  # e.g. ["--wal-segsize=1"]
        self.settings = dict(settings or {})  # server settings (-c name=value) beyond the defaults
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
                    "-E", "UTF8", "--locale=C", "--no-sync", *self.initdb_args)

    def _options(self) -> str:
        return (f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off"
                " -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
                + "".join(f" -c {k}={v}" for k, v in self.settings.items()))

    def start(self) -> None:
        self.init()
        self._check(pg_bin("pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-o", self._options(),
                    "-w", "-t", "60", "start")

    def restart(self) -> None:
        """A fast stop (sessions ended, as a crash of the server would end them), then a start."""
        self._check(pg_bin("pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-o", self._options(),
                    "-m", "fast", "-w", "-t", "60", "restart")

    def running(self) -> bool:
        """Whether its server runs: ``pg_ctl status``, or (should that fail, under load, say) the
        process named in ``postmaster.pid`` is alive."""
        r = subprocess.run(self._cmd(pg_bin("pg_ctl"), "-D", str(self.data), "status"),
                           capture_output=True, check=False)
        if r.returncode == 0:
            return True
        try:
            pid = int((self.data / "postmaster.pid").read_text().split("\n", 1)[0])
            os.kill(pid, 0)
        except (OSError, ValueError):
            return False
        return True

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


# -- a whole local cluster ----------------------------------------------------------------------------
class Worker:
    """One ``sgmahjong serve`` process (started again by :meth:`start` after it exits)."""

    def __init__(self, name: str, port: int, database: str, log: Path, env: dict[str, str]) -> None:
        self.name, self.port, self.log_path, self.database = name, port, log, database
        self.url = f"http://127.0.0.1:{port}"
        # HAProxy connects from 127.0.0.1: its X-Forwarded-For names each player, so the per-address
        # limits count players (sgmahjong/server/http/forwarded.py)
        self.env = {"SGMAHJONG_TRUSTED_PROXIES": "127.0.0.1", **os.environ, **env, "SGMAHJONG_WORKER": name}
        self.starts = 0
        self.exited_at: float | None = None  # when supervise() saw it exited
        self.start()

    def start(self) -> None:
        import sys

        self.starts += 1
        with self.log_path.open("ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "sgmahjong", "serve", "--port", str(self.port), "--database",
                 self.database], env=self.env, stdout=log, stderr=subprocess.STDOUT)

    def healthy(self) -> bool:
        import urllib.request

        try:
            with urllib.request.urlopen(self.url + "/api/health", timeout=1) as r:
                return bool(r.status == 200)
        except OSError:
            return False

    def wait_healthy(self, timeout: float = 60) -> None:
        end = time.monotonic() + timeout
        while not self.healthy():
            if self.proc.poll() is not None or time.monotonic() > end:
                raise ClusterError(f"worker {self.name} did not start: see {self.log_path}:\n"
                                   + self.log_path.read_text(errors="replace")[-2000:])
            time.sleep(0.1)

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


class LocalCluster:
    """PostgreSQL + ``workers`` server processes + HAProxy on ``bind:port``, files in ``folder``.

    ``database``: a PostgreSQL URL to use; else a PostgreSQL in ``folder/postgres`` is started (and
    initialised the first time) with a database ``sgmahjong``. Ports: ``port`` for HAProxy (0: a free
    one), ``worker_ports`` (one per worker; empty: free ones), ``postgres_port`` (0: a free one); a
    port that is taken is refused before anything starts. ``proxy``: HAProxy's limits.
    """

    def __init__(self, folder: str | Path, *, workers: int = 2, port: int = 8000,
                 database: str | None = None, env: dict[str, str] | None = None,
                 bind: str = "127.0.0.1", worker_ports: Sequence[int] = (), postgres_port: int = 0,
                 proxy: ProxySettings | None = None) -> None:
        self.folder = Path(folder).resolve()
        self.n_workers = workers
        if worker_ports and len(worker_ports) != workers:
            raise ClusterError(f"--worker-ports: {len(worker_ports)} ports for {workers} workers;"
                               " give one port per worker")
        self.port = port or free_port()
        self.worker_ports = list(worker_ports)
        self.postgres_port = postgres_port
        self.bind = bind
        self.database = database
        self.env = env or {}
        self.proxy_settings = proxy or ProxySettings()
        self.postgres: LocalPostgres | None = None
        self.workers: list[Worker] = []
        self.proxy: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def check_ports(self) -> None:
        """Every fixed port can be listened on (else :class:`ClusterError` names the one that cannot)."""
        check_port(self.bind, self.port, "HAProxy", "--port")
        for i, p in enumerate(self.worker_ports):
            check_port("127.0.0.1", p, f"worker w{i + 1}", "--worker-ports")
        if self.postgres_port and self.database is None:
            check_port("127.0.0.1", self.postgres_port, "PostgreSQL", "--postgres-port")
        fixed = [self.port, *self.worker_ports, *([self.postgres_port] if self.postgres_port else [])]
        if len(set(fixed)) != len(fixed):
            raise ClusterError(f"the ports {fixed} repeat one: HAProxy, each worker and PostgreSQL need"
                               " their own")

    def _start_postgres(self) -> str:
        import psycopg

        pg = LocalPostgres(self.folder / "postgres", port=self.postgres_port or free_port())
        pg.start()
        self.postgres = pg
        with psycopg.connect(pg.url, autocommit=True) as conn:
            if not conn.execute("SELECT 1 FROM pg_database WHERE datname = 'sgmahjong'").fetchall():
                conn.execute("CREATE DATABASE sgmahjong")
        return pg.url_for("sgmahjong")

    def start(self, timeout: float = 60) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        self.check_ports()
        try:
            if self.database is None:
                self.database = self._start_postgres()
            from ..store import open_store

            open_store(self.database, worker="setup").close()  # migrate once, before the workers start
            for i in range(self.n_workers):
                name = f"w{i + 1}"
                port = self.worker_ports[i] if self.worker_ports else free_port()
                self.workers.append(Worker(name, port, self.database, self.folder / f"{name}.log", self.env))
            end = time.monotonic() + timeout
            for w in self.workers:
                w.wait_healthy(end - time.monotonic())
            self.start_proxy()
            self.write_pids()
        except BaseException:
            self.stop()
            raise

    @property
    def proxy_config(self) -> Path:
        return self.folder / "haproxy.cfg"

    @property
    def stats_socket(self) -> Path | None:
        """HAProxy's runtime API (``haproxy.show_info``; ``show table web`` through ``runtime_api``);
        None when the folder's path is too long for a Unix socket's (108 bytes)."""
        path = self.folder / "haproxy.sock"
        return path if len(os.fsencode(path)) < 100 else None

    def write_proxy_config(self) -> None:
        try:
            config = haproxy_config(f"{self.bind}:{self.port}",
                                    [(w.name, f"127.0.0.1:{w.port}") for w in self.workers],
                                    self.proxy_settings,
                                    stats_socket=str(self.stats_socket) if self.stats_socket else None)
        except SettingsError as exc:
            raise ClusterError(str(exc)) from None
        self.proxy_config.write_text(config)
        check = subprocess.run([haproxy(), "-c", "-q", "-f", str(self.proxy_config)], capture_output=True,
                               text=True, check=False)
        if check.returncode != 0:
            raise ClusterError(f"haproxy refused {self.proxy_config}:"
                               f" {check.stderr.strip() or check.stdout.strip()}")

    def start_proxy(self) -> None:
        """HAProxy in master-worker mode (:meth:`reload_proxy` reloads it as ``systemctl reload`` does)."""
        self.write_proxy_config()
        with (self.folder / "haproxy.log").open("ab") as log:
            self.proxy = subprocess.Popen([haproxy(), "-W", "-db", "-f", str(self.proxy_config)],
                                          stdout=log, stderr=subprocess.STDOUT)
        end = time.monotonic() + 20
        while True:
            with socket.socket() as s:
                s.settimeout(0.5)
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            if self.proxy.poll() is not None or time.monotonic() > end:
                raise ClusterError(f"haproxy did not start: see {self.folder / 'haproxy.log'}")
            time.sleep(0.05)

    def reload_proxy(self) -> None:
        """Re-read the configuration: a new HAProxy process takes the port; the old one serves its open
        connections (WebSockets too) until they close."""
        import signal

        self.write_proxy_config()
        if self.proxy is not None and self.proxy.poll() is None:
            self.proxy.send_signal(signal.SIGUSR2)

    def supervise(self, restart_after: float = 1.0, say: Callable[[str], None] | None = None) -> None:
        """Start again every worker that has exited (for ``restart_after`` seconds), as systemd's
        ``Restart=always`` would: call it every so often."""
        for w in self.workers:
            code = w.proc.poll()
            if code is None:
                continue
            if w.exited_at is None:
                w.exited_at = time.monotonic()
                if say:
                    say(f"worker {w.name} exited ({code}); see {w.log_path}; starting it again")
            elif time.monotonic() - w.exited_at >= restart_after:
                w.exited_at = None
                w.start()
                self.write_pids()

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
