"""The pace against bots while the server is busy (issue 35): N concurrent "Play vs bots" tables.

    python -m bench.bench_pace_load [--tables 200] [--hands 2] [--pace fast|normal|relaxed|all|LIST]

For each pace, a fresh ``sgmahjong serve`` (bench_server's: SQLite in a temporary folder, a free port,
the per-address limits lifted) and ``--clients`` client processes (``bench/pace_players.py``: asyncio +
``websockets``) that open N tables with ``POST /api/play`` (the pace, every other option the default:
timers, bot delays, three bots at the table's default level) and play the one human seat of each over
the WebSocket protocol, acting at once as ``bench_pace``'s player does (a win when offered, a pass on
every claim, else the rightmost tile). Every table waits on its human's first action until all are
set up, then all start within two seconds; a table plays on after its measured hands until every table has
played ``--hands``, so the load stays at N tables.

Prints progress while running (tables done, hands, turns, the load average, the server's CPU), then
per pace: the median and p90 seconds between two of a human's turns (three bots' turns and four claim
windows), the median and p90 seconds per hand, how many tables, hands and turns were measured, the
server's CPU, its event loop's lateness (p99 and max bucket of ``sgmahjong_loop_lag_seconds``), its
longest garbage-collector pass, its send delay's p99 (the commit wait) and its longest store write,
all in ms (bucket bounds), the client processes' CPU (each; near 100%: the clients limit the
figures) and the load average over the run. ``--level`` seats bots of another
level (the bots' decisions: ``bench_bots``, ``bench_expert``). One table through Chromium:
``bench_pace``. ``--profile FILE`` writes the server's cProfile of the last pace's run (``python -m
pstats FILE``; the event loop's thread only, not the bots' worker threads).
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
import urllib.request
from typing import TYPE_CHECKING, Any, cast

from .bench_server import Server, _bucket_pct, _cpu_all
from .pace_players import client_main

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

PACES = ("fast", "normal", "relaxed")
DEFAULT_PACES = "fast,normal"  # what `make bench` reports; --pace all adds relaxed
PROGRESS_SECONDS = 10.0
HAND_SECONDS = {"fast": 20.0, "normal": 35.0, "relaxed": 100.0}  # one table's hand (bench_pace)
HISTOGRAMS = {"lag": "sgmahjong_loop_lag_seconds_bucket{", "gc": "sgmahjong_gc_pause_seconds_bucket{",
              "send": "sgmahjong_send_delay_seconds_bucket{",
              "write": "sgmahjong_store_write_seconds_bucket{"}


def _buckets(url: str) -> dict[str, dict[float, float]]:
    """The cumulative buckets of the server's event-loop lateness, garbage-collector passes and send
    delay (the commit wait), from its ``/metrics``."""
    out: dict[str, dict[float, float]] = {k: {} for k in HISTOGRAMS}
    try:
        with urllib.request.urlopen(url + "/metrics", timeout=60) as r:
            text = r.read().decode()
    except OSError:
        return out
    for line in text.splitlines():
        for key, prefix in HISTOGRAMS.items():
            if line.startswith(prefix):
                le = line.split('le="', 1)[1].split('"', 1)[0]
                bound = float("inf") if le == "+Inf" else float(le)
                out[key][bound] = out[key].get(bound, 0.0) + float(line.rsplit(" ", 1)[1])
    return out


def _quantile(values: list[float], q: int) -> float:
    """The ``q``-th percentile as ``bench_pace`` takes it (``statistics.quantiles``), NaN when too few."""
    if len(values) < 2:
        return float("nan")
    return statistics.quantiles(values, n=100)[q - 1]


def _receive(pipes: list[Connection[Any, Any]], deadline: float) -> list[dict[str, Any]]:
    """The next message of each pipe that sends one before ``deadline``."""
    from multiprocessing.connection import wait

    got: list[dict[str, Any]] = []
    # some of ``pipes`` (wait's stub answers any connection, socket or handle it might have been given)
    ready = cast("list[Connection[Any, Any]]", wait(pipes, timeout=max(0.0, deadline - time.monotonic())))
    for pipe in ready:
        with contextlib.suppress(EOFError):  # a client that died: its figures are missing
            got.append(pipe.recv())
    return got


def run_pace(pace: str, tables: int, hands: int, clients: int, folder: str, timeout: float,
             profile: str | None, level: str | None = None) -> dict[str, Any]:
    server = Server(folder, profile, env={"SGMAHJONG_TEST_HOOKS": "1"})  # seeds: the same deals each run
    ctx = multiprocessing.get_context("spawn")
    procs, pipes = [], []
    try:
        for k in range(clients):
            mine, theirs = ctx.Pipe()
            indices = list(range(k, tables, clients))
            p = ctx.Process(target=client_main, args=(server.url, indices, pace, hands, theirs, level),
                            daemon=True)
            p.start()
            procs.append(p)
            pipes.append(mine)
        setup_end = time.monotonic() + 60 + tables / 2
        started, failed, setup = 0, 0, 0.0
        waiting = list(pipes)
        while waiting and time.monotonic() < setup_end:
            for pipe in [p for p in waiting if p.poll(0.5)]:
                msg = pipe.recv()
                started, failed = started + msg["ready"], failed + msg["failed"]
                setup = max(setup, msg["setup"])
                waiting.remove(pipe)
        if waiting:
            raise RuntimeError(f"{pace}: the tables were not set up within {setup_end:.0f} s")
        print(f"  {pace}: {started} tables set up in {setup:.1f} s ({failed} failed); playing", flush=True)
        for pipe in pipes:
            pipe.send("go")
        t0 = time.monotonic()
        cpu0, hist0 = _cpu_all([server.pid]), _buckets(server.url)
        server.profile(True)
        loads: list[float] = []
        progress: dict[int, dict[str, int]] = {}
        done: set[int] = set()
        next_print = t0 + PROGRESS_SECONDS
        while len(done) < len(pipes) and time.monotonic() < t0 + timeout:
            for i, pipe in enumerate(pipes):
                while pipe.poll():
                    msg = pipe.recv()
                    if "progress" in msg:
                        progress[i] = msg["progress"]
                    elif "done" in msg:
                        done.add(i)
            if time.monotonic() >= next_print:
                next_print += PROGRESS_SECONDS
                loads.append(os.getloadavg()[0])
                elapsed = time.monotonic() - t0
                cpu = sum(_cpu_all([server.pid])) - sum(cpu0)
                total = {k: sum(p.get(k, 0) for p in progress.values())
                         for k in ("tables_done", "hands", "turns", "errors")}
                print(f"  {pace} {elapsed:5.0f} s: {total['tables_done']}/{started} tables done,"
                      f" {total['hands']} hands, {total['turns']} turns,"
                      f" server CPU {100 * cpu / elapsed:.0f}%, load {loads[-1]:.1f}", flush=True)
            time.sleep(0.2)
        elapsed = time.monotonic() - t0
        server.profile(False)
        cpu1, hist1 = _cpu_all([server.pid]), _buckets(server.url)
        loads.append(os.getloadavg()[0])
        for pipe in pipes:
            pipe.send("stop")
        results: list[dict[str, Any]] = []
        end = time.monotonic() + 120
        while len(results) < len(pipes) and time.monotonic() < end:
            results += [m for m in _receive(pipes, end) if "gaps" in m]
    finally:
        for p in procs:
            p.join(timeout=10)
            if p.is_alive():
                p.kill()
        err = server.stop()
    if "Traceback" in err:
        print(err[-3000:], file=sys.stderr)
    gaps = [g for r in results for g in r["gaps"]]
    secs = [h for r in results for h in r["hands"]]
    return {
        "pace": pace, "tables": tables, "started": started, "failed": failed,
        "tables_done": sum(r["tables_done"] for r in results), "hands": len(secs), "turns": len(gaps),
        "median": statistics.median(gaps) if gaps else float("nan"), "p90": _quantile(gaps, 90),
        "hand_median": statistics.median(secs) if secs else float("nan"), "hand_p90": _quantile(secs, 90),
        "errors": sum(r["errors"] for r in results), "seconds": elapsed,
        "server_cpu_pct": 100 * (sum(cpu1) - sum(cpu0)) / elapsed,
        "lag_p99_ms": _bucket_pct(hist0["lag"], hist1["lag"], 99),
        "lag_max_ms": _bucket_pct(hist0["lag"], hist1["lag"], 100),
        "gc_max_ms": _bucket_pct(hist0["gc"], hist1["gc"], 100),
        "send_p99_ms": _bucket_pct(hist0["send"], hist1["send"], 99),
        "write_max_ms": _bucket_pct(hist0["write"], hist1["write"], 100),
        "load_mean": statistics.mean(loads), "load_max": max(loads),
        "client_cpu_pct": 100 * sum(r["cpu"] for r in results) / elapsed / clients,
    }


HEADER = (f"{'pace':<8} {'tables':>6} {'measured':>8} {'hands':>5} {'turns':>6} {'median s':>8} {'p90 s':>6}"
          f" {'hand s':>6} {'hand p90':>8} {'srv CPU%':>8} {'lag p99':>7} {'lag max':>7} {'gc max':>6}"
          f" {'send p99':>8} {'write max':>9} {'client%':>7} {'load':>9}"
          f" {'errors':>6}")


def row(r: dict[str, Any]) -> str:
    return (f"{r['pace']:<8} {r['started']:>6} {r['tables_done']:>8} {r['hands']:>5} {r['turns']:>6}"
            f" {r['median']:>8.2f} {r['p90']:>6.2f} {r['hand_median']:>6.1f} {r['hand_p90']:>8.1f}"
            f" {r['server_cpu_pct']:>8.0f} {r['lag_p99_ms']:>7.0f} {r['lag_max_ms']:>7.0f}"
            f" {r['gc_max_ms']:>6.0f} {r['send_p99_ms']:>8.0f} {r['write_max_ms']:>9.1f}"
            f" {r['client_cpu_pct']:>7.0f}"
            f" {r['load_mean']:>4.1f}/{r['load_max']:<4.1f} {r['errors']:>6}")


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m bench.bench_pace_load", description=__doc__.split("\n")[0])
    p.add_argument("--tables", type=int, default=200, help="concurrent tables (default 200)")
    p.add_argument("--hands", type=int, default=2, help="hands measured per table (default 2)")
    p.add_argument("--pace", default=DEFAULT_PACES,
                   help=f"fast, normal, relaxed, all, or a comma-separated list (default {DEFAULT_PACES})")
    p.add_argument("--clients", type=int, default=1, help="client processes (default 1)")
    p.add_argument("--level", default=None, choices=("beginner", "greedy", "strong", "expert"),
                   help="the bots' level (default: the table's default)")
    p.add_argument("--timeout", type=float, default=None,
                   help="seconds of play per pace before reporting what was measured (default: 4 x the hands'"
                        " seconds at one table, plus 60)")
    p.add_argument("--profile", default=None, help="write the server's cProfile of the last pace's run here")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv if argv is not None else sys.argv[1:] if __name__ == "__main__" else [])
    paces = list(PACES) if args.pace == "all" else [x.strip() for x in args.pace.split(",") if x.strip()]
    if unknown := [x for x in paces if x not in PACES]:
        raise SystemExit(f"unknown pace {', '.join(unknown)}: choose from {', '.join(PACES)} or all")
    bots = f"three {args.level} bots" if args.level else "three bots"
    print(f"bench_pace_load: {args.tables} tables of one scripted human and {bots},"
          f" {args.hands} hands each, {args.clients} client process(es), {os.cpu_count()} CPUs,"
          f" load {os.getloadavg()[0]:.1f} (shared: figures are noisy)", flush=True)
    rows = []
    with tempfile.TemporaryDirectory(prefix="sgmahjong-pace-") as folder:
        for i, pace in enumerate(paces):
            timeout = args.timeout if args.timeout is not None else 60 + 4 * args.hands * HAND_SECONDS[pace]
            profile = args.profile if args.profile and i == len(paces) - 1 else None
            rows.append(run_pace(pace, args.tables, args.hands, args.clients, folder, timeout, profile,
                                 args.level))
    print(HEADER)
    for r in rows:
        print(row(r))
    print("median/p90 s: between two of the human's turns; hand s: the deal to the result;"
          " measured: tables that played every hand; load: mean/max 1-minute load average", flush=True)


if __name__ == "__main__":
    main()
