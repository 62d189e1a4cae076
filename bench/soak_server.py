"""The server soak of :mod:`bench.bench_soak` (``server``): a live server in this process (uvicorn in a
thread, a temporary SQLite file) playing bot tables match after match, printing its memory every N
hands, with glibc malloc and tracemalloc experiments."""

from __future__ import annotations

import gc
import multiprocessing
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from .soak_memory import big_memos, memo_entries, memory_breakdown, rss_mb


def tune_malloc(spec: str) -> float:
    """Apply glibc malloc options for an experiment: ``arena_max=N``, ``mmap_threshold=BYTES``,
    ``trim_threshold=BYTES`` (mallopt) and ``trim=SECONDS`` (returned: call malloc_trim(0) that often,
    0 = never), comma-separated."""
    import ctypes

    libc = ctypes.CDLL("libc.so.6")
    params = {"arena_max": -8, "mmap_threshold": -3, "trim_threshold": -1}
    trim = 0.0
    for item in filter(None, spec.split(",")):
        key, _, value = item.partition("=")
        if key == "trim":
            trim = 0.0 if value == "report" else float(value)
        elif not libc.mallopt(params[key], int(value)):
            raise SystemExit(f"mallopt {key}={value} failed")
    return trim


class Tracer:
    """Where Python's memory grew between two reports (``--trace``): tracemalloc snapshots compared
    (by line, and by call stack for the biggest), and the collector's objects counted by type."""

    def __init__(self, frames: int, start: int, top: int = 25) -> None:
        import tracemalloc

        self.start, self.top = start, top
        self.base: Any = None
        self.types: dict[str, int] = {}
        self.blocks = 0
        tracemalloc.start(frames)

    @staticmethod
    def _types() -> dict[str, int]:
        out: dict[str, int] = {}
        for obj in gc.get_objects():
            name = type(obj).__qualname__
            out[name] = out.get(name, 0) + 1
        return out

    def report(self, done: int) -> None:
        import tracemalloc

        if done < self.start:
            return
        snap = tracemalloc.take_snapshot().filter_traces([tracemalloc.Filter(False, tracemalloc.__file__)])
        types, blocks = self._types(), sys.getallocatedblocks()
        if self.base is None:
            self.base, self.types, self.blocks, self.at = snap, types, blocks, done
            traced = tracemalloc.get_traced_memory()[0] / 2**20
            print(f"           trace: baseline at {done} hands ({traced:.1f} MB traced, {blocks} blocks)",
                  flush=True)
            return

        def show(stats: list[Any], count: int) -> None:
            for d in sorted(stats, key=lambda d: -abs(d.size_diff))[:count]:
                print(f"             {d.size_diff / 1024:+9.1f} KB {d.count_diff:+7d}  {d.traceback[-1]}",
                      flush=True)

        memo_modules = ("/sgmahjong/bots/", "/sgmahjong/analysis/")

        def outside(stat: Any) -> bool:  # allocated outside the memo modules
            return not any(m in stat.traceback[-1].filename for m in memo_modules)

        diff = snap.compare_to(self.base, "lineno")
        grew = sum(d.size_diff for d in diff) / 1024
        print(f"           trace since {self.at} hands: {grew:+.0f} KB traced, "
              f"{blocks - self.blocks:+d} blocks; by line:", flush=True)
        show(diff, 10)
        rest = [d for d in diff if outside(d)]
        grew = sum(d.size_diff for d in rest) / 1024
        print(f"           the same outside the memo modules (bots, analysis): {grew:+.0f} KB", flush=True)
        show(rest, self.top)
        stacks = [d for d in snap.compare_to(self.base, "traceback") if outside(d)]
        for d in sorted(stacks, key=lambda d: -d.size_diff)[:8]:
            print(f"             stack {d.size_diff / 1024:+.1f} KB {d.count_diff:+d}:", flush=True)
            for line in d.traceback.format()[-12:]:
                print(f"               {line}", flush=True)
        grown = sorted(((types.get(k, 0) - self.types.get(k, 0), k) for k in set(types) | set(self.types)),
                       reverse=True)
        print("           objects by type: " + " ".join(f"{k} {n:+d}" for n, k in grown[:12] if n),
              flush=True)


_client: Any = None


def _client_table(url: str, options: dict[str, Any]) -> str:
    """(In the clients' process.) A new table of bots whose one human starts the match and leaves."""
    global _client
    import httpx

    from tests.conftest import WsClient

    if _client is None:
        _client = httpx.Client(base_url=url, timeout=30)
    code: str = _client.post("/api/tables", json={"name": "soak", "options": options,
                                                   "rules": {"rounds": 1}}).json()["code"]
    joined = httpx.post(f"{url}/api/tables/{code}/join", json={"name": "Ann"}, timeout=30)  # a new visitor
    token = joined.json()["token"]
    with WsClient(url.replace("http://", "ws://", 1) + f"/ws/{code}",
                  cookie=f"sg_session={joined.cookies['sg_session']}") as ws:
        ws.hello(token)
        ws.send({"type": "start"})
        ws.until("view")
    return code


def server_soak(hands: int, every: int, tables: int, diag: bool = False, level: str = "greedy",
                malloc: str = "", glibc_defaults: bool = False, poll: float = 0.5,
                memo_limit: int = -1, tactics_limit: int = 0, auto_gc: bool = False,
                trace: int = 0, trace_from: int = 0, garbage: bool = False) -> None:
    import ctypes


    trim = tune_malloc(malloc)
    last_trim = time.monotonic()

    from starlette.applications import Starlette

    from sgmahjong.server.settings import ServerSettings
    from tests.conftest import LiveServer, free_port

    fast = {"bot_delay": 0, "turn_seconds": 0, "claim_seconds": 0, "next_hand_seconds": 0.01,
            "takeover_seconds": 0, "bot_level": level}
    with tempfile.TemporaryDirectory() as tmp:
        # each table's one human leaves at the start: bots play its first hand, then it waits for a
        # human, is closed after idle_table_seconds and leaves the live set; a new table replaces it
        settings = ServerSettings(idle_table_seconds=5, sweep_seconds=0.5, table_burst=1_000_000,
                                  tables_per_hour=1e9)
        if glibc_defaults:  # as before the malloc settings (memory.py): glibc's own arenas and threshold
            settings = settings.replace(malloc_arena_max=0, malloc_mmap_threshold=0)
        if memo_limit >= 0:  # the memos' bound (memory.bound_memos; 0: the library's); else serve's
            settings = settings.replace(memo_limit=memo_limit)
        live = LiveServer(free_port(), str(Path(tmp) / "soak.sqlite3"), settings=settings)
        live.start()
        if tactics_limit:  # an experiment: the bots' group memos (tactics) apart from the others
            from sgmahjong.bots import tactics

            tactics.MEMO_MAX = tactics.DERIVED_MAX = tactics_limit
        if not auto_gc:  # as `sgmahjong serve`: automatic collection off, a full pass every interval
            from sgmahjong.commands.serve import tune_gc

            tune_gc(settings.gc_interval_seconds)
        tracer = Tracer(trace, trace_from) if trace else None
        assert live._runner is not None
        app = live._runner.server.config.app
        assert isinstance(app, Starlette)  # create_app's
        server = app.state.server  # the TableServer, for its live set
        collection = ("automatic" if auto_gc
                      else f"as serve: a full pass every {settings.gc_interval_seconds:g} s")
        print(f"server soak: {tables} tables of {level} bots at a time, each closed after its first hand; "
              f"RSS every {every} hands; garbage collection {collection}; the clients in another process")
        # the clients (HTTP and WebSocket) in a process of their own, so that this one holds the server
        # alone: a client's objects are cyclic garbage (and its compressor's buffers with them), which
        # would stay here until the report's pass while collection is as serve's
        clients = multiprocessing.get_context("spawn").Pool(1)

        def new_table() -> str:
            code: str = clients.apply(_client_table, (live.url, fast))
            return code

        live_codes = [new_table() for _ in range(tables)]
        db = sqlite3.connect(live.database)
        done_hands = 0
        next_report = every
        start = time.perf_counter()
        while done_hands < hands:
            time.sleep(poll)
            if trim and time.monotonic() - last_trim >= trim:
                ctypes.CDLL("libc.so.6").malloc_trim(0)
                last_trim = time.monotonic()
            # the tables' status from the database (as stored at each hand's end), not by HTTP: the
            # client's objects of each request are cyclic garbage, kept in this process until the
            # report's pass while collection is as serve's
            marks = ",".join("?" * len(live_codes))
            status = dict(db.execute(f"SELECT code, status FROM tables WHERE code IN ({marks})", live_codes))
            for i, code in enumerate(live_codes):
                if status.get(code) not in ("lobby", "playing"):  # lobby: its start not committed yet
                    live_codes[i] = new_table()  # the old one waits for its humans, then is closed
            done_hands = db.execute("SELECT COUNT(*) FROM hands WHERE ended IS NOT NULL").fetchone()[0]
            if done_hands >= next_report:
                if garbage:  # what the report's pass is about to free, by type
                    gc.set_debug(gc.DEBUG_SAVEALL)
                    gc.collect()
                    gc.set_debug(0)
                    kinds: dict[str, list[int]] = {}
                    for obj in gc.garbage:
                        kind = kinds.setdefault(f"{type(obj).__module__}.{type(obj).__qualname__}", [0, 0])
                        kind[0] += 1
                        kind[1] += sys.getsizeof(obj)
                    top = sorted(kinds.items(), key=lambda kv: -kv[1][1])[:15]
                    print(f"           garbage: {len(gc.garbage)} objects in cycles, "
                          f"{sum(v[1] for v in kinds.values()) / 2**20:.1f} MB shallow: "
                          + " ".join(f"{k} {n} ({b / 1024:.0f} KB)" for k, (n, b) in top), flush=True)
                    gc.garbage.clear()
                gc.collect()
                print(f"  {done_hands:>7} hands  RSS {rss_mb():7.1f} MB (peak {rss_mb('VmHWM'):6.1f})  "
                      f"memo entries {memo_entries():>9}  "
                      f"live tables {len(server.tables)}  "
                      f"({done_hands / (time.perf_counter() - start):.1f} hands/s)", flush=True)
                if diag:
                    print(f"           {memory_breakdown()}", flush=True)
                    print(f"           memos: {big_memos()}", flush=True)
                if tracer is not None:
                    tracer.report(done_hands)
                    if "trim=report" in malloc:
                        t0 = time.perf_counter()
                        ctypes.CDLL("libc.so.6").malloc_trim(0)
                        took = 1000 * (time.perf_counter() - t0)
                        print(f"           after malloc_trim(0) ({took:.1f} ms): RSS {rss_mb():.1f} MB",
                              flush=True)
                next_report += every
        db.close()
        clients.close()
        clients.join()
        live.stop()
