"""Server speed as players load it: N tables of four WebSocket players against one ``sgmahjong serve``.

Each step starts a fresh server (``sgmahjong serve`` in a subprocess, 127.0.0.1, a free port, a temp
SQLite file), then client processes (asyncio + ``websockets``) create N tables (no bot delay, no
timers), join four seats each, say hello with the tokens and start. Every player answers its legal
actions after a think time (default 1.5 s): a win when offered, mostly a pass in a claim window, else a
random legal action; between hands it sends ``next``. Tables keep the default ``claim_pause`` (every
discard waits 1 s for claims, no tells), so a table plays about one action per 2.5 s. Measured over a
window after a warm-up:

* actions/s: the players' actions acknowledged per second (all tables),
* steps/s: actions the server applied per second (its ``/metrics``): the players' and the table's own
  steps (closing each claim window after its pause),
* CPU ms/act: the server process's CPU (``/proc/PID/stat``, user+system) per action,
* p50/p99/max: action-to-update latency, from sending an action to receiving the first message
  (``view`` or ``delta``) that reflects it (a new version, or, for a private decision in a claim
  window, which keeps the version, the seat's legal actions gone),
* RSS/table: the server's resident memory over its empty baseline, per table,
* srv p99: the server's own part of that latency (its ``sgmahjong_action_update_seconds`` histogram:
  message received to every seat's update queued; the bucket bound), the rest is waiting for the
  commit, the sockets and the clients,
* gc max: the longest garbage-collector pass in the window (``sgmahjong_gc_pause_seconds``, the
  bucket bound; it pauses every table),
* send p99: how long messages waited between being queued and their socket write (the commit wait;
  ``sgmahjong_send_delay_seconds``, the bucket bound),
* client %: the client processes' CPU over the window, per process (near 100%: the clients limit the
  figures).

``make bench`` runs a small default (20 and 100 tables, short windows). The big run::

    python -m bench.bench_server --tables 50,250,1000 --measure 20 --clients 2

``--cluster N`` measures a local cluster instead (sgmahjong.server.cluster.local: a PostgreSQL initialised in
a temporary folder, N workers, HAProxy in front; the clients go through HAProxy); CPU and RSS are
then the workers' sums (PostgreSQL's and HAProxy's CPU not counted).

Options: ``--think`` seconds, ``--warmup``/``--measure`` seconds per step, ``--clients`` processes,
``--profile FILE`` (cProfile of the server over the last step's measured window; ``python -m pstats
FILE``).
The machine is shared with other work: figures are noisy; compare within one run.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from .server_players import _client_main

# every player comes from 127.0.0.1 here, unlike real users: lift the per-address and table-creation
# limits (sgmahjong/server/settings.py) so they do not refuse the bench's own players
LIMITS = {
    "SGMAHJONG_UNLIMITED_ADDRESSES": "127.0.0.1", "SGMAHJONG_MAX_CONNECTIONS_PER_ADDRESS": "100000",
    "SGMAHJONG_MAX_CONNECTIONS": "100000", "SGMAHJONG_MAX_TABLES": "100000",
    "SGMAHJONG_TABLE_BURST": "100000", "SGMAHJONG_TABLES_PER_HOUR": "10000000",
    "SGMAHJONG_IDENTITY_BURST": "100000", "SGMAHJONG_IDENTITIES_PER_HOUR": "10000000",
}
CLK_TCK = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


# -- the server process --------------------------------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _cpu_seconds(pid: int) -> tuple[float, float]:
    """User and system CPU seconds of a process (all its threads)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) / CLK_TCK, int(fields[12]) / CLK_TCK  # utime, stime


def _rss_bytes(pid: int) -> int:
    with open(f"/proc/{pid}/statm") as f:
        return int(f.read().split()[1]) * PAGE


def _cpu_all(pids: list[int]) -> tuple[float, float]:
    times = [_cpu_seconds(p) for p in pids]
    return sum(t[0] for t in times), sum(t[1] for t in times)


# run the CLI with SIGUSR1 starting cProfile and SIGUSR2 writing its stats (the measured window only)
PROFILED = """
import cProfile, signal, sys
from sgmahjong.cli import main
prof = cProfile.Profile()
signal.signal(signal.SIGUSR1, lambda *a: prof.enable())
signal.signal(signal.SIGUSR2, lambda *a: (prof.disable(), prof.dump_stats(sys.argv[1])))
sys.exit(main(sys.argv[2:]))
"""


class Server:
    """``sgmahjong serve`` on a free port with a fresh SQLite file (optionally profiled: :meth:`profile`;
    ``env``: more environment variables for it)."""

    def __init__(self, folder: str, profile: str | None = None, env: dict[str, str] | None = None) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        cmd = [sys.executable]
        cmd += ["-c", PROFILED, profile] if profile else ["-m", "sgmahjong"]
        cmd += ["serve", "--port", str(self.port),
                "--database", str(Path(folder) / f"bench-{self.port}.sqlite3")]
        self.profiled = bool(profile)
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                     env={**os.environ, **LIMITS, **(env or {})})
        end = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(self.url + "/api/health", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > end or self.proc.poll() is not None:
                self.stop()
                raise RuntimeError("the bench server did not start")
            time.sleep(0.1)

    @property
    def pid(self) -> int:
        return self.proc.pid

    @property
    def pids(self) -> list[int]:
        return [self.proc.pid]

    @property
    def metrics_urls(self) -> list[str]:
        return [self.url]

    def profile(self, on: bool) -> None:
        if self.profiled:
            self.proc.send_signal(signal.SIGUSR1 if on else signal.SIGUSR2)

    def stop(self) -> str:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        err = self.proc.stderr.read().decode(errors="replace") if self.proc.stderr else ""
        return err


class ClusterServer:
    """PostgreSQL + ``workers`` ``sgmahjong serve`` processes + HAProxy (sgmahjong.server.cluster.local)."""

    def __init__(self, folder: str, workers: int) -> None:
        from sgmahjong.server.cluster.haproxy import ProxySettings
        from sgmahjong.server.cluster.local import LocalCluster

        self.port = _free_port()
        many = 10_000_000  # and HAProxy's per-client limits
        self.cluster = LocalCluster(Path(folder) / f"cluster-{self.port}", workers=workers, port=self.port,
                                    env=LIMITS, proxy=ProxySettings(
                                        maxconn=100_000, client_connections=many,
                                        client_connection_rate=many, client_request_rate=many))
        self.cluster.start()
        self.url = self.cluster.url

    @property
    def pids(self) -> list[int]:
        return [w.proc.pid for w in self.cluster.workers]

    @property
    def metrics_urls(self) -> list[str]:
        return [w.url for w in self.cluster.workers]

    def profile(self, on: bool) -> None:
        pass

    def stop(self) -> str:
        self.cluster.stop()
        return ""


# -- one step --------------------------------------------------------------------------------------------

def _pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(p / 100 * len(s)))]


HISTOGRAMS = ("sgmahjong_action_update_seconds_bucket{", "sgmahjong_send_delay_seconds_bucket{",
              "sgmahjong_gc_pause_seconds_bucket{")


def _scrape(urls: list[str]) -> tuple[float, dict[float, float], dict[float, float], dict[float, float]]:
    """From each server's ``/metrics``: the actions applied so far (``sgmahjong_actions_applied_total``:
    the players' actions and the table's own steps, e.g. closing a claim window), and the cumulative
    buckets of the server-side action latency (``sgmahjong_action_update_seconds``: from a message
    received to every seat's update queued) and of the send delay (``sgmahjong_send_delay_seconds``:
    a message queued to its socket write, i.e. waiting for its writes' commit) and of the garbage
    collector's passes (every generation together), summed over the servers. A server that does not
    answer gives no figures (NaN), the step goes on."""
    total = 0.0
    buckets: dict[float, float] = {}
    sends: dict[float, float] = {}
    gcs: dict[float, float] = {}
    for url in urls:
        try:
            with urllib.request.urlopen(url + "/metrics", timeout=60) as r:
                text = r.read().decode()
        except OSError as exc:
            print(f"bench_server: {url}/metrics did not answer ({exc})", file=sys.stderr)
            return float("nan"), {}, {}, {}
        for line in text.splitlines():
            if line.startswith("sgmahjong_actions_applied_total{"):
                total += float(line.rsplit(" ", 1)[1])
            elif line.startswith(HISTOGRAMS):
                le = line.split('le="', 1)[1].split('"', 1)[0]
                bound = float("inf") if le == "+Inf" else float(le)
                into = (buckets if line.startswith("sgmahjong_action")
                        else sends if line.startswith("sgmahjong_send") else gcs)
                into[bound] = into.get(bound, 0.0) + float(line.rsplit(" ", 1)[1])
    return total, buckets, sends, gcs


def _bucket_pct(before: dict[float, float], after: dict[float, float], p: float) -> float:
    """The upper bound (ms) of the histogram bucket holding the ``p``-th percentile of the window."""
    counts = sorted((b, after.get(b, 0.0) - before.get(b, 0.0)) for b in after)
    total = counts[-1][1] if counts else 0.0
    if total <= 0:
        return float("nan")
    return next(1000 * b for b, c in counts if c >= p / 100 * total)


def run_step(n_tables: int, think: float, warmup: float, measure: float, clients: int, folder: str,
             setup_seconds: float, profile: str | None, cluster: int = 0) -> dict[str, Any]:
    server: Server | ClusterServer = ClusterServer(folder, cluster) if cluster else Server(folder, profile)
    procs = []
    try:
        rss0 = sum(_rss_bytes(p) for p in server.pids)
        ctx = multiprocessing.get_context("spawn")
        start_at = time.monotonic()
        pipes = []
        for k in range(clients):
            mine, theirs = ctx.Pipe()
            indices = list(range(k, n_tables, clients))
            p = ctx.Process(target=_client_main, args=(server.url, indices, think, theirs), daemon=True)
            p.start()
            procs.append(p)
            pipes.append(mine)
        for pipe in pipes:  # every table set up (or the setup bound passed)
            pipe.poll(max(0.0, start_at + setup_seconds - time.monotonic()))
        setup_wall = time.monotonic() - start_at
        w0 = time.monotonic() + warmup
        window = (w0, w0 + measure, w0 + measure + 1.0)
        for pipe in pipes:
            pipe.send(window)
        time.sleep(max(0.0, w0 - time.monotonic()))
        server.profile(True)
        cpu0 = _cpu_all(server.pids)
        ccpu0 = _cpu_all([p.pid for p in procs if p.pid is not None])
        steps0, hist0, send0, gc0 = _scrape(server.metrics_urls)
        time.sleep(max(0.0, window[1] - time.monotonic()))
        cpu1 = _cpu_all(server.pids)
        ccpu1 = _cpu_all([p.pid for p in procs if p.pid is not None])
        steps1, hist1, send1, gc1 = _scrape(server.metrics_urls)
        server.profile(False)
        rss = sum(_rss_bytes(p) for p in server.pids)
        results = []
        for pipe in pipes:
            while True:
                if not pipe.poll(300):
                    raise RuntimeError("a bench client did not answer")
                got = pipe.recv()
                if isinstance(got, dict):
                    results.append(got)
                    break
    finally:
        for p in procs:
            p.join(timeout=10)
            if p.is_alive():
                p.kill()
        err = server.stop()
    if "Traceback" in err:
        print(err[-3000:], file=sys.stderr)
    lat = [x for r in results for x in r["latencies"]]
    actions = sum(r["actions"] for r in results)
    cpu = sum(cpu1) - sum(cpu0)
    return {
        "tables": n_tables,
        "actions_per_s": actions / measure,
        "cpu_ms_per_action": 1000 * cpu / actions if actions else float("nan"),
        "steps_per_s": (steps1 - steps0) / measure,
        "server_cpu_pct": 100 * cpu / measure,
        "sys_cpu_pct": 100 * (cpu1[1] - cpu0[1]) / measure,
        "p50": 1000 * _pct(lat, 50), "p99": 1000 * _pct(lat, 99),
        "max": 1000 * max(lat, default=float("nan")),
        "rss_kb_per_table": (rss - rss0) / 1024 / n_tables,
        "client_cpu_pct": 100 * (sum(ccpu1) - sum(ccpu0)) / measure / clients,
        "server_p99_ms": _bucket_pct(hist0, hist1, 99),
        "send_p99_ms": _bucket_pct(send0, send1, 99),
        "gc_max_ms": _bucket_pct(gc0, gc1, 100),
        "setup_s": setup_wall,
        "errors": sum(r["errors"] for r in results),
        "hands": sum(r["hands"] for r in results),
    }


HEADER = (f"{'tables':>7} {'act/s':>7} {'steps/s':>7} {'CPU ms/act':>10} {'srv CPU%':>8} {'sys%':>5}"
          f" {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} {'srv p99':>7} {'send p99':>8} {'gc max':>6}"
          f" {'RSS KB/tbl':>10}"
          f" {'client%':>7}"
          f" {'setup s':>7}"
          f" {'hands':>5} {'errors':>6}")


def row(r: dict[str, Any]) -> str:
    return (f"{r['tables']:>7} {r['actions_per_s']:>7.0f} {r['steps_per_s']:>7.0f}"
            f" {r['cpu_ms_per_action']:>10.3f}"
            f" {r['server_cpu_pct']:>8.1f} {r['sys_cpu_pct']:>5.1f}"
            f" {r['p50']:>7.1f} {r['p99']:>7.1f} {r['max']:>7.1f} {r['server_p99_ms']:>7.1f}"
            f" {r['send_p99_ms']:>8.1f} {r['gc_max_ms']:>6.0f}"
            f" {r['rss_kb_per_table']:>10.0f} {r['client_cpu_pct']:>7.0f} {r['setup_s']:>7.1f}"
            f" {r['hands']:>5} {r['errors']:>6}")


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m bench.bench_server", description=__doc__.split("\n")[0])
    p.add_argument("--tables", default="20,100", help="comma-separated table counts, one step each")
    p.add_argument("--think", type=float, default=1.5, help="seconds a player thinks per decision")
    p.add_argument("--warmup", type=float, default=3.0, help="seconds of play before measuring")
    p.add_argument("--measure", type=float, default=8.0, help="seconds measured per step")
    p.add_argument("--setup", type=float, default=None,
                   help="seconds allowed for creating and joining the tables (default: 30 + N/5)")
    p.add_argument("--clients", type=int, default=1, help="client processes")
    p.add_argument("--profile", default=None,
                   help="write the server's cProfile stats of the last step's measured window here")
    p.add_argument("--json", action="store_true", help="also print each step as a JSON line")
    p.add_argument("--cluster", type=int, default=0, metavar="N",
                   help="measure a local cluster of N workers (PostgreSQL + HAProxy) instead of one process")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse_args([] if argv is None else argv)
    steps = [int(x) for x in args.tables.split(",") if x.strip()]
    target = (f"a cluster of {args.cluster} workers (PostgreSQL, HAProxy)" if args.cluster
              else "one `sgmahjong serve` (SQLite)")
    print(f"bench_server: {target}, tables of 4 WebSocket players,"
          f" think {args.think} s, {args.clients} client process(es), {os.cpu_count()} CPUs"
          " (shared: figures are noisy)")
    print(HEADER, flush=True)
    with tempfile.TemporaryDirectory(prefix="sgmahjong-bench-") as folder:
        for i, n in enumerate(steps):
            setup = args.setup if args.setup is not None else 30 + n / 5
            profile = args.profile if args.profile and i == len(steps) - 1 else None
            r = run_step(n, args.think, args.warmup, args.measure, args.clients, folder, setup, profile,
                         args.cluster)
            print(row(r), flush=True)
            if args.json:
                print(json.dumps(r), flush=True)
    print("aim: <= 0.25 CPU ms per action; 1,000 tables at p99 < 100 ms")


if __name__ == "__main__":
    main(sys.argv[1:])
