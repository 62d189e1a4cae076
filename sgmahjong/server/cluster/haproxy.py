"""HAProxy as the front door of several workers: the one generator of its configuration, used by
``sgmahjong cluster up`` (``make cluster``) and for ``deploy/haproxy.cfg`` (``python -m
sgmahjong.server.cluster.haproxy > deploy/haproxy.cfg``; a test checks the committed file is current).

The front door's limits are :class:`ProxySettings`, each a setting ``SGMAHJONG_PROXY_<FIELD>`` with a
default: slow or silent clients are cut by ``timeout http-request`` (the whole request, headers and
body, buffered before it reaches a worker), each client (an IPv4 address, an IPv6 /64) has a cap on
its open connections, its new connections and its requests per 10 s (a stick table), and WebSockets,
once upgraded, live by ``timeout tunnel`` (the workers ping every socket every 20 s). ``maxconn``,
the client connections in all, is sized from the machine (:func:`size_maxconn`: its open-file limit
and its memory) unless set, so that many clients each under their cap (a distributed slowloris)
cannot fill it. HAProxy passes the client's address in ``X-Forwarded-For``; the workers believe it
from the proxy's address only (``SGMAHJONG_TRUSTED_PROXIES``), and then apply their per-address
limits to each player.
"""

from __future__ import annotations

import os
import resource
import socket
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..settings import SettingsError, from_environment

KIB, GIB = 1024, 1024**3


@dataclass(frozen=True)
class ProxySettings:
    """HAProxy's limits and timeouts (see the module docstring)."""

    maxconn: int = 0  # open client connections in all (0: sized from the machine, see size_maxconn)
    fd_limit: int = 0  # open files HAProxy may hold (0: this process's hard limit, RLIMIT_NOFILE)
    memory: int = 0  # bytes of memory of the machine (0: this machine's, or its cgroup's limit if lower)
    memory_share: float = 0.25  # the part of that memory the front door's connections may take
    connection_memory: int = 64 * KIB  # bytes one client connection may take at most (HAProxy's two
    # 16 kB buffers, its connection to a worker, the kernel's socket buffers on both sides)
    fd_reserve: int = 1000  # open files kept aside from maxconn's 2 per connection (listeners, checks, logs)
    admin_connections: int = 10  # connections beyond maxconn kept for the runtime API (stats socket)
    client_connections: int = 100  # open connections of one client (beyond: closed at once)
    client_connection_rate: int = 300  # new connections of one client per 10 s
    client_request_rate: int = 1000  # HTTP requests of one client per 10 s (beyond: 429)
    ipv6_prefix: int = 64  # an IPv6 client is its network of this prefix (a home or phone has a /64)
    tracked_clients: int = 100000  # clients the stick table remembers (for 60 s each; at least maxconn)
    request_timeout: float = 10.0  # seconds to send a whole request, headers and body (slowloris)
    client_timeout: float = 30.0  # seconds a client may stay silent mid-request or mid-response
    server_timeout: float = 30.0  # seconds a worker may take to answer
    keep_alive_timeout: float = 10.0  # seconds an idle keep-alive connection stays open
    tunnel_timeout: float = 3600.0  # seconds an upgraded WebSocket may stay silent both ways
    connect_timeout: float = 2.0  # seconds to connect to a worker
    check_interval: float = 1.0  # seconds between health checks of each worker (half that when down)
    reload_grace: float = 300.0  # seconds the old process keeps its connections after a reload

    def __post_init__(self) -> None:
        for name, value in self.__dict__.items():
            if value < 0 or (value == 0 and name not in _MACHINE_FIELDS):
                raise SettingsError(f"proxy setting {name} must be positive; got {value}")
        if self.memory_share > 1:
            raise SettingsError(f"proxy setting memory_share is a part (0-1]; got {self.memory_share}")
        if not 1 <= self.ipv6_prefix <= 128:
            raise SettingsError(f"proxy setting ipv6_prefix must be 1-128; got {self.ipv6_prefix}")

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: Any) -> ProxySettings:
        return from_environment(cls, "SGMAHJONG_PROXY_", env, **overrides)


_MACHINE_FIELDS = ("maxconn", "fd_limit", "memory")  # 0: found on this machine


def machine_fd_limit() -> int:
    """The open files a process started from this one may hold: the hard RLIMIT_NOFILE (HAProxy raises
    its own soft limit to what maxconn needs), or the kernel's ``fs.nr_open`` when unlimited."""
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    if hard == resource.RLIM_INFINITY:
        try:
            return int(Path("/proc/sys/fs/nr_open").read_text())
        except (OSError, ValueError):
            return 1_048_576
    return int(hard)


def machine_memory() -> int:
    """This machine's memory in bytes, or its cgroup's memory limit (a container's) when lower."""
    total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    try:
        limit = Path("/sys/fs/cgroup/memory.max").read_text().strip()
    except OSError:
        return total
    return min(total, int(limit)) if limit.isdigit() else total


@dataclass(frozen=True)
class Sizing:
    """How ``maxconn`` came out: the least of what the open files and the memory allow."""

    maxconn: int
    fd_limit: int
    by_fds: int  # (fd_limit - fd_reserve) / 2 per connection (client side and worker side) - admin
    memory: int
    by_memory: int  # memory * memory_share / connection_memory
    fixed: bool  # maxconn was set, not sized

    def describe(self, s: ProxySettings) -> str:
        """Two comment lines for the configuration."""
        if self.fixed:
            return (f"    # client connections: set (SGMAHJONG_PROXY_MAXCONN={self.maxconn}), and\n"
                    f"    # {s.admin_connections} more for the runtime API")
        return (f"    # client connections, the least of what open files and memory allow:"
                f" ({self.fd_limit} files - {s.fd_reserve}) / 2 - {s.admin_connections} = {self.by_fds};\n"
                f"    # {s.memory_share:g} of {self.memory / GIB:.1f} GiB / {s.connection_memory // KIB} KiB"
                f" = {self.by_memory}; and {s.admin_connections} more for the runtime API")


def size_maxconn(s: ProxySettings, fd_limit: int | None = None, memory: int | None = None) -> Sizing:
    """``maxconn`` for the machine: each client connection takes two open files (its own and its
    connection to a worker) and at most ``connection_memory`` bytes; ``fd_reserve`` files and
    ``admin_connections`` connections are kept aside. ``s.maxconn``, when set, wins."""
    fds = s.fd_limit or fd_limit or machine_fd_limit()
    mem = s.memory or memory or machine_memory()
    by_fds = (fds - s.fd_reserve) // 2 - s.admin_connections
    by_memory = int(mem * s.memory_share) // s.connection_memory
    if s.maxconn:
        return Sizing(s.maxconn, fds, by_fds, mem, by_memory, fixed=True)
    maxconn = min(by_fds, by_memory)
    if maxconn < s.client_connections:
        raise SettingsError(f"HAProxy could hold only {maxconn} connections here (open files {fds},"
                            f" memory {mem / GIB:.1f} GiB): raise the open-file limit (ulimit -Hn,"
                            " LimitNOFILE) or set SGMAHJONG_PROXY_MAXCONN")
    return Sizing(maxconn, fds, by_fds, mem, by_memory, fixed=False)


def _ms(seconds: float) -> str:
    """An HAProxy time: ``10s``, ``1h``, ``250ms``."""
    ms = max(1, round(seconds * 1000))
    for unit, size in (("h", 3_600_000), ("m", 60_000), ("s", 1000)):
        if ms % size == 0:
            return f"{ms // size}{unit}"
    return f"{ms}ms"


def haproxy_config(bind: str, workers: list[tuple[str, str]], settings: ProxySettings | None = None, *,
                   stats_socket: str | None = None) -> str:
    """An HAProxy configuration routing every table's requests to one worker by the table's code.

    ``workers``: (name, host:port). The code is the third path field of ``/t/CODE``, ``/ws/CODE``
    and ``/replay/CODE/N``, the fourth of ``/api/tables/CODE...``; ``balance hash`` on it with
    consistent hashing sends each table to one worker, and moves only a dead worker's tables when it
    goes (other requests, with no code, are spread by round robin). Workers are health-checked on
    ``/api/health`` (a dead worker's sockets close with it, and its clients reconnect elsewhere; a
    merely slow one keeps its sessions). ``stats_socket``: a Unix socket for HAProxy's runtime API
    (``show info``, ``show table web``), kept reachable by ``admin_connections`` beyond ``maxconn``.
    """
    s = settings or ProxySettings()
    size = size_maxconn(s)
    servers = "\n".join(f"    server {name} {addr} check" for name, addr in workers)
    check, fast = _ms(s.check_interval), _ms(s.check_interval / 2)
    admin = (f"    stats socket {stats_socket} mode 660 level admin\n    stats timeout 30s\n"
             if stats_socket else "")
    tracked = max(s.tracked_clients, size.maxconn)  # a connection's entry is never evicted while it is open
    fill = -(-size.maxconn // s.client_connections)  # clients at the cap that fill maxconn
    return f"""\
# sgmahjong: HAProxy in front of several `sgmahjong serve` workers sharing one PostgreSQL.
# Generated by sgmahjong/server/cluster/haproxy.py (see deploy/README.md). Each worker must
# trust this proxy's address: SGMAHJONG_TRUSTED_PROXIES=<the address it connects from>.
global
{size.describe(s)}
    maxconn {size.maxconn + s.admin_connections}
{admin}    # after a reload the old process serves its open connections (WebSockets) this long at most
    hard-stop-after {_ms(s.reload_grace)}

defaults
    mode http
    timeout connect {_ms(s.connect_timeout)}
    # a whole request (headers and body) within this, else the connection is closed: slowloris
    timeout http-request {_ms(s.request_timeout)}
    timeout http-keep-alive {_ms(s.keep_alive_timeout)}
    timeout client {_ms(s.client_timeout)}
    timeout server {_ms(s.server_timeout)}
    timeout client-fin {_ms(s.client_timeout)}
    timeout server-fin {_ms(s.server_timeout)}
    # an upgraded WebSocket (the workers ping each every 20 s)
    timeout tunnel {_ms(s.tunnel_timeout)}
    timeout queue {_ms(s.request_timeout)}
    timeout check 5s
    option http-buffer-request
    option forwardfor
    option redispatch
    retries 3

frontend web
    bind {bind}
    maxconn {size.maxconn}
    # per client, an IPv4 address or an IPv6 /{s.ipv6_prefix} (one home, one phone): open connections, new
    # connections and HTTP requests in the last 10 s. Filling maxconn takes {fill} clients at the cap.
    stick-table type ipv6 size {tracked} expire 60s store conn_cur,conn_rate(10s),http_req_rate(10s)
    tcp-request connection track-sc0 src,ipmask(32,{s.ipv6_prefix})
    tcp-request connection reject if {{ sc0_conn_cur gt {s.client_connections} }}
    tcp-request connection reject if {{ sc0_conn_rate gt {s.client_connection_rate} }}
    http-request deny deny_status 429 if {{ sc0_http_req_rate gt {s.client_request_rate} }}
    http-request set-header X-Forwarded-Proto https if {{ ssl_fc }}
    http-request set-header X-Forwarded-Proto http if !{{ ssl_fc }}
    default_backend workers

backend workers
    # the table code: /t/CODE, /ws/CODE, /replay/CODE/N -> field 3; /api/tables/CODE/... -> field 4
    http-request set-var(txn.code) path,field(3,/) if {{ path_beg /t/ /ws/ /replay/ }}
    http-request set-var(txn.code) path,field(4,/) if {{ path_beg /api/tables/ }}
    balance hash var(txn.code)
    hash-type consistent
    option httpchk GET /api/health
    http-check expect status 200
    default-server inter {check} fastinter {fast} downinter {fast} fall 2 rise 2
{servers}
"""


def runtime_api(stats_socket: str | Path, command: str, timeout: float = 5.0) -> str:
    """One command of HAProxy's runtime API on its stats socket (``show info``, ``show table web``)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(timeout)
        sock.connect(str(stats_socket))
        sock.sendall(command.encode() + b"\n")
        out = b""
        while chunk := sock.recv(65536):
            out += chunk
    return out.decode(errors="replace")


def show_info(stats_socket: str | Path) -> dict[str, str]:
    """``show info`` as a dict (``CurrConns``, ``Maxconn``, ...)."""
    lines = runtime_api(stats_socket, "show info").splitlines()
    pairs = (line.split(":", 1) for line in lines if ":" in line)
    return {k.strip(): v.strip() for k, v in pairs}


#: the committed example, deploy/haproxy.cfg: three workers on a private network, HAProxy on port 80,
#: on a machine of its own with 4 GiB of memory (half of it for connections), started as root by
#: systemd (so it may raise its open-file limit to the kernel's fs.nr_open, 1048576 by default)
DEPLOY_EXAMPLE = ("*:80", [("w1", "10.0.0.11:8000"), ("w2", "10.0.0.12:8000"), ("w3", "10.0.0.13:8000")],
                  ProxySettings(fd_limit=1_048_576, memory=4 * GIB, memory_share=0.5))
DEPLOY_STATS_SOCKET = "/run/haproxy/admin.sock"  # Debian's haproxy package's own


def deploy_example() -> str:
    bind, workers, settings = DEPLOY_EXAMPLE
    return haproxy_config(bind, workers, settings, stats_socket=DEPLOY_STATS_SOCKET)


def main(argv: list[str] | None = None) -> int:
    """Print the deploy example; with ``--here``, sized for this machine (and SGMAHJONG_PROXY_*)."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m sgmahjong.server.cluster.haproxy",
                                     description="print deploy/haproxy.cfg")
    parser.add_argument("--here", action="store_true",
                        help="size it for this machine (open-file limit, memory) and SGMAHJONG_PROXY_*")
    args = parser.parse_args(argv)
    if not args.here:
        print(deploy_example(), end="")
        return 0
    bind, workers, _ = DEPLOY_EXAMPLE
    print(haproxy_config(bind, workers, ProxySettings.from_env(), stats_socket=DEPLOY_STATS_SOCKET), end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
