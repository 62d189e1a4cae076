"""A distributed slowloris against the front door, and how long a player's first request then takes.

    python -m bench.slowloris                          # 45 addresses x 95 half-sent requests, 3 runs
    python -m bench.slowloris --runs 5 --maxconn 4000  # the same against a fixed maxconn

Starts a local cluster (PostgreSQL in a temporary folder, two workers, HAProxy with the configuration
``sgmahjong cluster up`` generates, sized from this machine unless ``--maxconn`` is given). Each run
opens ``--per-address`` connections from each of ``--addresses`` loopback addresses (127.0.0.2,
127.0.0.3, ...: all of 127.0.0.0/8 is this machine) and sends each the start of a request whose
headers never end, as a slowloris does; then a player at another address (127.0.0.250) opens a new
connection and asks for the home page, and the time to its whole answer is printed with how many of
the attack's connections were still open (held by the proxy) when it came. The attack is closed after
each run, and the next waits until the per-address connection rate has decayed.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import resource
import socket
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

PLAYER = "127.0.0.250"


def attacker_addresses(count: int) -> list[str]:
    """127.0.0.2, 127.0.0.3, ... (``count`` of them, at most 240)."""
    if not 0 < count <= 240:
        raise ValueError(f"1-240 attacking addresses; got {count}")
    return [f"127.0.0.{n}" for n in range(2, count + 2)]


def raise_fd_limit(want: int) -> None:
    """Raise this process's open-file limit to ``want`` (within its hard limit)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < want:
        limit = want if hard == resource.RLIM_INFINITY else min(want, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (limit, hard))


def half_sent(address: str, port: int, host: str = "127.0.0.1") -> socket.socket | None:
    """A connection from ``address`` that sent a request's first line and a header never finished;
    None when it was refused or reset at once."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.bind((address, 0))
        sock.settimeout(10)
        sock.connect((host, port))
        sock.sendall(b"GET / HTTP/1.1\r\nHost: sgmahjong\r\nX-Slow: ")
    except OSError:
        sock.close()
        return None
    return sock


def attack(port: int, addresses: list[str], per_address: int, host: str = "127.0.0.1") -> list[socket.socket]:
    """``per_address`` half-sent requests from each of ``addresses``, interleaved (one from each
    address in turn, as many machines would send them); the ones that were not refused at once."""
    socks: list[socket.socket] = []
    for _ in range(per_address):
        for address in addresses:
            sock = half_sent(address, port, host)
            if sock is not None:
                socks.append(sock)
    return socks


def still_open(socks: list[socket.socket]) -> int:
    """How many of ``socks`` the peer has not closed (no EOF, no reset), without waiting."""
    count = 0
    for sock in socks:
        sock.setblocking(False)
        try:
            sock.recv(4096)  # EOF, or an error page (408) before the close: no longer held
        except BlockingIOError:
            count += 1
        except OSError:
            pass
    return count


def wait_accepted(stats_socket: Path, want: int, timeout: float = 3.0) -> int:
    """HAProxy's open client connections (``show info``), once it has accepted ``want`` of them from
    its listen queue (or after ``timeout``): the attack in place before the player comes."""
    from sgmahjong.server.cluster.haproxy import show_info

    end = time.monotonic() + timeout
    while (held := int(show_info(stats_socket)["CurrConns"])) < want and time.monotonic() < end:
        time.sleep(0.05)
    return held


def first_request(port: int, source: str = PLAYER, host: str = "127.0.0.1", path: str = "/",
                  timeout: float = 30.0) -> tuple[float, int]:
    """A new connection from ``source`` asking for ``path``: (seconds to the whole answer, status)."""
    start = time.perf_counter()
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((source, 0))
        sock.settimeout(timeout)
        sock.connect((host, port))
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: sgmahjong\r\nConnection: close\r\n\r\n".encode())
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    status = int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/") else 0
    return time.perf_counter() - start, status


def rss(pid: int) -> int:
    """Resident memory in bytes of process ``pid`` and its children (HAProxy's master and worker)."""
    total = 0
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1]) * 1024
        for task in Path(f"/proc/{pid}/task").iterdir():
            for child in (task / "children").read_text().split():
                total += rss(int(child))
    except OSError:
        pass
    return total


def kernel_tcp_memory() -> int:
    """Bytes of socket buffers the kernel holds for all TCP sockets (/proc/net/sockstat, in pages)."""
    for line in Path("/proc/net/sockstat").read_text().splitlines():
        if line.startswith("TCP:"):
            fields = line.split()
            return int(fields[fields.index("mem") + 1]) * os.sysconf("SC_PAGE_SIZE")
    return 0


@dataclass
class Run:
    attack_sockets: int  # half-sent requests the attack opened
    open_at_request: int  # of those, still open when the player's request was answered
    seconds: float  # the player's first request, connect to the last byte of the answer
    status: int
    proxy_memory: int = 0  # HAProxy's resident memory grew by this under the attack (bytes)
    kernel_memory: int = 0  # the kernel's TCP buffers grew by this (both ends: all on this machine)


def run_once(port: int, addresses: list[str], per_address: int, proxy_pid: int = 0,
             stats_socket: Path | None = None) -> Run:
    """One attack and the player's first request under it; ``proxy_pid``: HAProxy's, to weigh its
    memory; ``stats_socket``: its runtime API, to wait until it has accepted the attack."""
    rss0, tcp0 = rss(proxy_pid) if proxy_pid else 0, kernel_tcp_memory()
    socks = attack(port, addresses, per_address)
    try:
        if stats_socket is not None:
            wait_accepted(stats_socket, len(socks))
        seconds, status = first_request(port)
        held = still_open(socks)
        grown = rss(proxy_pid) - rss0 if proxy_pid else 0
        tcp = kernel_tcp_memory() - tcp0
    finally:
        for s in socks:
            s.close()
    return Run(len(socks), held, seconds, status, grown, tcp)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.slowloris", description=__doc__.split("\n\n")[0])
    parser.add_argument("--addresses", type=int, default=45, help="attacking addresses (default 45)")
    parser.add_argument("--per-address", type=int, default=95, help="half-sent requests each (default 95)")
    parser.add_argument("--runs", type=int, default=3, help="runs (default 3)")
    parser.add_argument("--maxconn", type=int, default=0,
                        help="HAProxy's maxconn (default 0: sized from this machine)")
    args = parser.parse_args(argv)

    from sgmahjong.server.cluster.haproxy import ProxySettings
    from sgmahjong.server.cluster.local import LocalCluster, LocalPostgres, free_port

    addresses = attacker_addresses(args.addresses)
    raise_fd_limit(args.addresses * args.per_address + 2000)
    proxy = ProxySettings(maxconn=args.maxconn) if args.maxconn else ProxySettings()
    with tempfile.TemporaryDirectory(prefix="sgmahjong-slowloris-") as folder:
        pg = LocalPostgres(Path(folder) / "postgres")
        pg.start()
        cluster = None
        try:
            database = pg.create_database("sgmahjong")
            cluster = LocalCluster(Path(folder) / "cluster", workers=2, port=free_port(), database=database,
                                   proxy=proxy)
            cluster.start()
            config = cluster.proxy_config.read_text()
            maxconn = [line.split()[1] for line in config.splitlines() if line.strip().startswith("maxconn")]
            print(f"HAProxy maxconn {maxconn[0]} (frontend {maxconn[-1]}); {args.addresses} addresses x"
                  f" {args.per_address} half-sent requests; the player at {PLAYER}", flush=True)
            times = []
            for i in range(args.runs):
                if i:
                    time.sleep(11)  # the per-address connection rate (10 s) decays
                pid = cluster.proxy.pid if cluster.proxy else 0
                r = run_once(cluster.port, addresses, args.per_address, pid, cluster.stats_socket)
                times.append(r.seconds)
                n = max(1, r.open_at_request)
                print(f"run {i + 1}: first request {r.seconds:.3f} s (HTTP {r.status});"
                      f" {r.open_at_request} of {r.attack_sockets} half-sent requests open;"
                      f" per open one HAProxy +{r.proxy_memory / n / 1024:.1f} KiB resident,"
                      f" kernel TCP buffers +{r.kernel_memory / n / 1024:.1f} KiB", flush=True)
            print(f"median {statistics.median(times):.3f} s, worst {max(times):.3f} s", flush=True)
        finally:
            if cluster is not None:
                cluster.stop()
            with contextlib.suppress(Exception):
                pg.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
