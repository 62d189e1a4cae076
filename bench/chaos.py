"""A chaos run: a two-worker cluster on PostgreSQL behind HAProxy, tables of scripted humans and tables
of three bots and a scripted human (bench/chaos_play.py) playing for a set time while faults are applied
on a schedule; then the figures.

    python -m bench.chaos                       # 10 minutes, a fault every 25 s (23 faults)
    python -m bench.chaos --minutes 2 --every 12

Faults, in turn: ``kill9`` (SIGKILL of a worker), ``postgres`` (PostgreSQL restarted: a fast stop,
then a start), ``sigterm`` (SIGTERM of a worker, which stops gracefully), ``disk`` (the store's disk
full for ``--disk-seconds``: PostgreSQL's data folder is on a small tmpfs of its own, filled with a
file that is then removed), ``proxy`` (HAProxy reloaded, as ``systemctl reload`` does). A worker that
exits is started again after 1 s, as ``sgmahjong cluster up`` does (``LocalCluster.supervise``); so is
PostgreSQL if a fault stopped it for good (said in the figures). Mounting the tmpfs needs root (CI is).

Figures: acknowledged actions lost (each human client records every action of its seat the server
acknowledged; after the run every one must be in the stored log), tables that stalled (went longer
than their longest timer plus 5 s without a step), tracebacks and ERROR lines in the workers' logs,
and per fault type the longest gap: the most any table went without a step across a fault of that
type. The exit status is 1 when any of the first three is not 0.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from bench.chaos_play import BotTable, HumanTable, Table, keep_playing
from sgmahjong.server.cluster.haproxy import ProxySettings
from sgmahjong.server.cluster.local import LocalCluster, LocalPostgres, free_port

FAULTS = ("kill9", "postgres", "sigterm", "disk", "proxy")
STALL_SLACK = 5.0
DISK_MB = 160
WORKER_ENV = {"SGMAHJONG_IDLE_TABLE_SECONDS": "7200", "SGMAHJONG_RELEASE_IDLE_SECONDS": "7200"}


@dataclass
class Fault:
    kind: str
    target: str
    at: float  # monotonic, when it was applied
    note: str = ""


@dataclass
class Figures:
    minutes: float
    faults: list[Fault]
    tables: int
    acked: int
    lost: list[str]
    stalls: list[str]
    tracebacks: Counter[str]
    error_lines: Counter[str]
    gaps: dict[str, float]
    restarts: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.lost and not self.stalls and not self.tracebacks and not self.error_lines

    def table(self) -> str:
        rows = [("run", f"{self.minutes:g} min, {len(self.faults)} faults,"
                        f" {self.tables} tables ({self.acked} acknowledged human actions)"),
                ("acknowledged actions lost", str(len(self.lost))),
                ("tables stalled > deadline + 5 s", str(len(self.stalls))),
                ("tracebacks in the workers' logs", str(sum(self.tracebacks.values()))),
                ("ERROR lines in the workers' logs", str(sum(self.error_lines.values())))]
        for kind in FAULTS:
            n = sum(f.kind == kind for f in self.faults)
            if n:
                rows.append((f"longest gap, {kind} ({n}x)", f"{self.gaps.get(kind, 0.0):.2f} s"))
        width = max(len(k) for k, _ in rows)
        lines = ["chaos run", "-" * (width + 30)] + [f"{k.ljust(width)}  {v}" for k, v in rows]
        for title, items in (("lost", self.lost), ("stalled", self.stalls), ("restarted", self.restarts)):
            lines += [f"{title}: {x}" for x in items[:20]]
        lines += [f"traceback ({n}x): {x}" for x, n in self.tracebacks.most_common(10)]
        lines += [f"ERROR ({n}x): {x}" for x, n in self.error_lines.most_common(10)]
        return "\n".join(lines)


class Disk:
    """A small tmpfs of its own for PostgreSQL's data, and a file that fills it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.filler = path / "filler"
        if os.geteuid() != 0:
            raise SystemExit("bench.chaos: the disk-full fault mounts a small tmpfs for PostgreSQL's data,"
                             " which needs root (run it as root, as CI does)")
        path.mkdir(parents=True, exist_ok=True)
        subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={DISK_MB}m,mode=0755", "chaos-pg", str(path)],
                       check=True)

    def fill(self) -> None:
        st = os.statvfs(self.path)
        fd = os.open(self.filler, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            with contextlib.suppress(OSError):
                os.posix_fallocate(fd, 0, st.f_bavail * st.f_frsize)
            with contextlib.suppress(OSError):  # the last few blocks
                os.lseek(fd, 0, os.SEEK_END)
                while True:
                    os.write(fd, b"\0" * 4096)
        finally:
            os.close(fd)

    def free(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.filler.unlink()

    def unmount(self) -> None:
        subprocess.run(["umount", "-l", str(self.path)], check=False)


class Chaos:
    def __init__(self, folder: Path, *, humans: int, bots: int, seed: int, disk_seconds: float) -> None:
        self.folder, self.humans, self.bots = folder, humans, bots
        self.rng = random.Random(seed)
        self.disk_seconds = disk_seconds
        self.disk = Disk(folder / "pgdisk")
        self.pg = LocalPostgres(folder / "pgdisk" / "pg", initdb_args=["--wal-segsize=1"], settings={
            "synchronous_commit": "on", "max_wal_size": "48MB", "min_wal_size": "4MB"})
        self.cluster: LocalCluster | None = None
        self.tables: list[Table] = []
        self.faults: list[Fault] = []
        self.restarts: list[str] = []
        self.addresses = iter(f"127.0.{n // 250}.{n % 250 + 2}" for n in range(10, 60000))

    def start(self) -> None:
        import psycopg

        self.pg.start()
        with psycopg.connect(self.pg.url, autocommit=True) as conn:
            conn.execute("CREATE DATABASE sgmahjong")
        self.cluster = LocalCluster(self.folder / "cluster", workers=2, port=free_port(),
                                    database=self.pg.url_for("sgmahjong"), env=WORKER_ENV,
                                    proxy=ProxySettings(reload_grace=30))
        self.cluster.start()

    def stop(self) -> None:
        if self.cluster is not None:
            self.cluster.stop()
        self.disk.free()
        with contextlib.suppress(Exception):
            self.pg.stop()
        self.disk.unmount()

    async def new_table(self, kind: str) -> Table:
        assert self.cluster is not None
        cls = HumanTable if kind == "humans" else BotTable
        for attempt in range(60):  # a fault may be under way: try again
            table = cls(self.cluster.url, next(self.addresses), random.Random(self.rng.random()))
            try:
                await table.setup()
                self.tables.append(table)
                return table
            except Exception:
                if attempt == 59:
                    raise
                await asyncio.sleep(1)
        raise AssertionError("unreachable")

    # -- faults ------------------------------------------------------------------------------------
    def apply(self, kind: str, k: int) -> Fault:
        """Apply a fault of ``kind`` (its ``k``-th: the workers take turns)."""
        assert self.cluster is not None
        worker = self.cluster.workers[(k + (kind == "sigterm")) % 2]
        fault = Fault(kind, worker.name if kind in ("kill9", "sigterm") else kind, time.monotonic())
        if kind == "kill9":
            worker.kill()
        elif kind == "sigterm":
            worker.proc.terminate()
        elif kind == "postgres":
            self.pg.restart()
        elif kind == "disk":
            self.disk.fill()
            time.sleep(self.disk_seconds)
            self.disk.free()
        elif kind == "proxy":
            self.cluster.reload_proxy()
        if not self.pg.running():  # e.g. it stopped on a full disk: started again, as systemd would
            self.restarts.append(f"PostgreSQL after the {kind} fault at {fault.at - self.t0:.0f} s")
            self.pg.start()
        return fault

    async def schedule(self, stop: asyncio.Event, every: float, warmup: float, end: float) -> None:
        n = 0
        while not stop.is_set():
            due = self.t0 + warmup + n * every
            if due > end - 5:
                return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=max(0.0, due - time.monotonic()))
                return
            kind = FAULTS[n % len(FAULTS)]
            print(f"  {time.monotonic() - self.t0:6.1f} s  fault {n + 1}: {kind}", flush=True)
            self.faults.append(await asyncio.to_thread(self.apply, kind, n // len(FAULTS)))
            n += 1

    async def supervise(self, stop: asyncio.Event) -> None:
        assert self.cluster is not None
        while not stop.is_set():
            await asyncio.to_thread(self.cluster.supervise, 1.0, self.restarts.append)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=0.25)

    async def play(self, seconds: float, every: float, warmup: float) -> None:
        stop = asyncio.Event()
        tables = [await self.new_table("humans") for _ in range(self.humans)]
        tables += [await self.new_table("bots") for _ in range(self.bots)]
        self.t0, self.t0_wall = time.monotonic(), time.time()
        end = self.t0 + seconds
        players = asyncio.ensure_future(keep_playing(tables, self.new_table, stop))
        supervisor = asyncio.ensure_future(self.supervise(stop))
        faults = asyncio.ensure_future(self.schedule(stop, every, warmup, end))
        await asyncio.sleep(max(0.0, end - time.monotonic()))
        self.t_end = time.monotonic()
        stop.set()
        await asyncio.gather(players, supervisor, faults)

    def dump(self, path: Path) -> None:
        """What each table's clients saw, and when the faults were, for a look after the run."""
        import json

        def since(at: float) -> float:
            return round(at - self.t0, 2)

        path.write_text(json.dumps({
            "faults": [{"kind": f.kind, "target": f.target, "at": since(f.at)} for f in self.faults],
            "tables": [{"code": t.code, "kind": t.kind, "last": t.progress.last,
                        "finished": t.progress.finished, "steps": [since(s) for s in t.progress.steps]}
                       for t in self.tables],
        }, indent=1))

    # -- figures -------------------------------------------------------------------------------------
    def figures(self, minutes: float) -> Figures:
        import psycopg

        assert self.cluster is not None
        acked = [a for t in self.tables for a in t.acked]
        with psycopg.connect(self.pg.url_for("sgmahjong")) as conn:
            stored = {tuple(r) for r in conn.execute(
                "SELECT t.code, a.hand, a.seat, a.action, a.version FROM actions a"
                " JOIN tables t ON t.id = a.table_id WHERE t.code = ANY(%s)",
                ([t.code for t in self.tables],)).fetchall()}
            last = {code: (hand, n, at) for code, hand, n, at in conn.execute(
                "SELECT DISTINCT ON (t.code) t.code, a.hand,"
                " count(*) OVER (PARTITION BY t.code, a.hand), a.at"
                " FROM actions a JOIN tables t ON t.id = a.table_id WHERE t.code = ANY(%s)"
                " ORDER BY t.code, a.hand DESC, a.seq DESC", ([t.code for t in self.tables],)).fetchall()}
        lost = []
        for a in acked:
            if {(a.code, a.hand, a.seat, a.action, a.version - d) for d in (0, 1)} & stored:
                continue
            near = sorted((r[1], r[4], r[2], r[3]) for r in stored  # what the store has of that hand
                          if r[0] == a.code and r[1] == a.hand and abs(r[4] - a.version) <= 3)
            lost.append(f"{a.code} hand {a.hand} seat {a.seat} {a.action!r} (version {a.version});"
                        f" stored near it (hand, version, seat, action): {near}")
        stalls, gaps = [], dict.fromkeys(FAULTS, 0.0)
        for t in self.tables:
            p = t.progress
            steps = p.steps + ([] if p.finished else [self.t_end])
            longest = max((b - a for a, b in itertools.pairwise(steps)), default=0.0)
            if longest > p.deadline + STALL_SLACK:
                hand, n, at = last.get(t.code, (0, 0, self.t0_wall))
                stalls.append(f"{t.kind} table {t.code}: {longest:.1f} s without a step"
                              f" (deadline {p.deadline:g} s); seen last at +{p.steps[-1] - self.t0:.1f} s,"
                              f" hand {p.last[0]} version {p.last[1]}; stored last: hand {hand}, {n} actions,"
                              f" at +{at - self.t0_wall:.1f} s")
            for f in self.faults:
                before = [s for s in p.steps if s <= f.at]
                after = [s for s in steps if s > f.at]
                if before and after:
                    gaps[f.kind] = max(gaps[f.kind], after[0] - before[-1])
        tracebacks, errors = scan_logs(sorted(self.cluster.folder.glob("w*.log")))
        return Figures(minutes, self.faults, len(self.tables), len(acked), lost, stalls, tracebacks, errors,
                       gaps, self.restarts)


def scan_logs(paths: list[Path]) -> tuple[Counter[str], Counter[str]]:
    """(the last line of each traceback, each ERROR/CRITICAL line with its numbers and codes masked)."""
    tracebacks: Counter[str] = Counter()
    errors: Counter[str] = Counter()
    for path in paths:
        lines = path.read_text(errors="replace").splitlines()
        for i, line in enumerate(lines):
            if line.startswith("Traceback"):
                end = next((j for j in range(i + 1, len(lines)) if not lines[j].startswith(" ")), i)
                tracebacks[lines[end][:160]] += 1
            elif re.match(r"(ERROR|CRITICAL)\b", line):
                errors[re.sub(r"\b(table \S+|\d+(\.\d+)?)", "#", line)[:160]] += 1
    return tracebacks, errors


def run(minutes: float, every: float, *, humans: int = 3, bots: int = 3, seed: int = 1,
        disk_seconds: float = 5.0, warmup: float = 10.0, folder: Path | None = None) -> Figures:
    """Set up, play with faults for ``minutes``, tear down; the figures."""
    own = folder is None
    base = Path(tempfile.mkdtemp(prefix="sgmahjong-chaos-")) if folder is None else folder
    chaos = Chaos(base, humans=humans, bots=bots, seed=seed, disk_seconds=disk_seconds)
    try:
        chaos.start()
        asyncio.run(chaos.play(minutes * 60, every, warmup))
        if not own:
            chaos.dump(base / "progress.json")
        return chaos.figures(minutes)
    finally:
        chaos.stop()
        if own:
            subprocess.run(["rm", "-rf", str(base)], check=False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.chaos", description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=10.0, help="how long to play (default 10)")
    parser.add_argument("--every", type=float, default=25.0, help="seconds between faults (default 25)")
    parser.add_argument("--humans", type=int, default=3, help="tables of scripted humans (default 3)")
    parser.add_argument("--bots", type=int, default=3, help="tables of bots (default 3)")
    parser.add_argument("--disk-seconds", type=float, default=5.0, help="how long the disk stays full")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", type=Path, default=None, help="keep the logs in this folder")
    args = parser.parse_args(argv)
    figures = run(args.minutes, args.every, humans=args.humans, bots=args.bots, seed=args.seed,
                  disk_seconds=args.disk_seconds, folder=args.keep)
    print(figures.table(), flush=True)
    return 0 if figures.ok else 1


if __name__ == "__main__":
    sys.exit(main())
