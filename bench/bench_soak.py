"""Memory over a long run, and startup time against history size (issue 13).

* ``self-play``: bot self-play in this process, printing the resident set size (RSS) and the entries of
  every module-level memo every N hands (flat once the memos are full: each has a bound);
* ``server``: a live server in this process (uvicorn in a thread, a temporary SQLite file) playing
  bot tables match after match (each match's humans leave, so bots play and the finished tables leave
  the live set), printing RSS every N hands;
* ``memos``: bot self-play under the server's memo bound, then each memo's entries and deep size (the
  objects it holds, shared ones counted once), and what it would hold full: the ceiling of the
  memos' part of a server's memory (``SGMAHJONG_MEMO_LIMIT``);
* ``startup``: how long a server takes to open a database with a few live tables and 0, then H stored
  finished hands (written straight into the database: tables, hands and their actions); and how long
  one live table takes to resume in hand 1 and in hand D of a long match (from its last hand's
  snapshot), and the deep one without snapshots (every hand replayed, as before migration 0006).

    python -m bench.bench_soak                 # all three, short
    python -m bench.bench_soak self-play --hands 20000 --every 1000
    python -m bench.bench_soak server --hands 2000 --every 200
    python -m bench.bench_soak memos --hands 3000 --memo-limit 5000
    python -m bench.bench_soak startup --finished 100000 --deep 50
"""

from __future__ import annotations

import argparse
import gc
import importlib
import multiprocessing
import os
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def rss_mb(field: str = "VmRSS") -> float:
    """The resident set size (``VmHWM``: its peak so far) in MB."""
    with open(f"/proc/{os.getpid()}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return 0.0


def memory_breakdown() -> str:
    """Where the RSS is (from /proc/PID/smaps): the brk heap, anonymous mappings (glibc's thread arenas,
    big blocks, Python's obmalloc arenas), file-backed pages; glibc's own figures (mallinfo2: bytes in
    use and free in its arenas, and in mmap'd blocks); SQLite's heap; Python's allocated blocks; threads."""
    import ctypes
    import threading

    kinds = {"heap": 0, "anon": 0, "file": 0, "stack": 0}
    name = ""
    with open(f"/proc/{os.getpid()}/smaps") as f:
        for line in f:
            first = line.split(None, 1)[0]
            if not first.endswith(":") and "-" in first:  # a mapping's header line
                parts = line.split()
                name = parts[5] if len(parts) > 5 else ""
            elif first == "Rss:":
                kb = int(line.split()[1])
                kind = ("heap" if name == "[heap]" else "stack" if name.startswith("[stack")
                        else "anon" if not name or name.startswith("[") else "file")
                kinds[kind] += kb
    out = " ".join(f"{k} {v / 1024:.1f}" for k, v in kinds.items())

    class Mallinfo2(ctypes.Structure):
        _fields_ = [(n, ctypes.c_size_t) for n in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks",
                                                   "fsmblks", "uordblks", "fordblks", "keepcost")]

    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.mallinfo2.restype = Mallinfo2
        mi = libc.mallinfo2()
        out += (f" | malloc: arenas {mi.arena / 2**20:.1f} (in use {mi.uordblks / 2**20:.1f}, free "
                f"{mi.fordblks / 2**20:.1f}) mmap {mi.hblkhd / 2**20:.1f}")
    except (OSError, AttributeError):
        pass
    try:
        lib = ctypes.CDLL("libsqlite3.so.0")
        lib.sqlite3_memory_used.restype = ctypes.c_int64
        out += f" | sqlite {lib.sqlite3_memory_used() / 2**20:.1f}"
    except OSError:
        pass
    stats = _obmalloc_stats()
    if stats:
        free = stats.get("available", 0) + stats.get("unused", 0)
        out += (f" | obmalloc: arenas {stats.get('arenas', 0) / 2**20:.1f}"
                f" (blocks {stats.get('allocated', 0) / 2**20:.1f}, free {free / 2**20:.1f})")
    out += (f" | py blocks {sys.getallocatedblocks()} objects {len(gc.get_objects())}"
            f" threads {threading.active_count()}")
    return out


def _obmalloc_stats() -> dict[str, int]:
    """Python's small-object allocator (``sys._debugmallocstats``, which writes to file descriptor 2):
    bytes of its arenas, of the blocks allocated in them, and free in them (available blocks, unused
    pools)."""
    import re

    debug = getattr(sys, "_debugmallocstats", None)
    if debug is None:
        return {}
    with tempfile.TemporaryFile(mode="w+") as tmp:
        sys.stderr.flush()
        saved = os.dup(2)
        try:
            os.dup2(tmp.fileno(), 2)
            debug()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        tmp.seek(0)
        text = tmp.read()
    out: dict[str, int] = {}
    for key, pattern in (("arenas", r"\d+ arenas \* \d+ bytes/arena\s+=\s+([\d,]+)"),
                         ("allocated", r"# bytes in allocated blocks\s+=\s+([\d,]+)"),
                         ("available", r"# bytes in available blocks\s+=\s+([\d,]+)"),
                         ("unused", r"\d+ unused pools \* \d+ bytes\s+=\s+([\d,]+)")):
        found = re.search(pattern, text)
        if found:
            out[key] = int(found.group(1).replace(",", ""))
    return out


PACKAGES = ("sgmahjong.bots", "sgmahjong.analysis", "sgmahjong.game", "sgmahjong.scoring")


def dicts_of(value: Any) -> list[dict[Any, Any]]:
    """The dicts a module-level value is: itself, or the dicts of a tuple or list of tables."""
    return [t for t in (value if isinstance(value, (tuple, list)) else (value,)) if isinstance(t, dict)]


def memos() -> dict[str, int]:
    """Entries of every module-level dict (or tuple or list of dicts) of the bots, analysis, game and scoring
    packages whose name looks like a memo, by ``module.name`` (a dict bound to two names once)."""
    out: dict[str, int] = {}
    seen: set[int] = set()
    for name, module in list(sys.modules.items()):
        if not name.startswith(PACKAGES):
            continue
        for attr, value in vars(module).items():
            if not attr.startswith("_") or attr.startswith("__"):
                continue
            tables = [t for t in dicts_of(value) if id(t) not in seen]
            if tables:
                seen.update(id(t) for t in tables)
                out[f"{name.rsplit('.', 1)[-1]}.{attr}"] = sum(len(t) for t in tables)
    return out


def memo_entries() -> int:
    return sum(memos().values())


def big_memos(least: int = 1000) -> str:
    return " ".join(f"{k} {v}" for k, v in sorted(memos().items(), key=lambda kv: -kv[1]) if v >= least)


# -- self-play -----------------------------------------------------------------------------------------

def self_play(hands: int, every: int, level: str) -> None:
    from sgmahjong.bots import make_bot
    from sgmahjong.bots.arena import play_hand
    from sgmahjong.rules import RuleSet

    rules = RuleSet()
    bots = [make_bot(level, i, rules) for i in range(4)]
    print(f"self-play, four {level} bots: RSS every {every} hands")
    start = time.perf_counter()
    for n in range(1, hands + 1):
        play_hand(rules, bots, seed=n, dealer=n % 4)
        if n % every == 0:
            gc.collect()
            print(f"  {n:>7} hands  RSS {rss_mb():7.1f} MB  memo entries {memo_entries():>9}  "
                  f"({n / (time.perf_counter() - start):.0f} hands/s)", flush=True)


# -- the memos' sizes ----------------------------------------------------------------------------------

def deep_size(root: Any, seen: set[int]) -> int:
    """Bytes of ``root`` and everything it holds (containers and the package's objects), skipping
    objects in ``seen`` (and adding the ones it counts)."""
    total = 0
    stack = [root]
    while stack:
        x = stack.pop()
        if id(x) in seen:
            continue
        seen.add(id(x))
        total += sys.getsizeof(x)
        if isinstance(x, dict):
            stack.extend(x.keys())
            stack.extend(x.values())
        elif isinstance(x, (tuple, list, set, frozenset)):
            stack.extend(x)
        elif type(x).__module__.startswith("sgmahjong"):
            if hasattr(x, "__dict__"):
                stack.append(vars(x))
            stack.extend(getattr(x, f) for f in getattr(type(x), "__slots__", ()) if hasattr(x, f))
    return total


def memo_sizes(hands: int, level: str, limit: int) -> None:
    from sgmahjong.bots import make_bot
    from sgmahjong.bots.arena import play_hand
    from sgmahjong.rules import RuleSet
    from sgmahjong.server.memory import bound_memos

    bound_memos(limit)
    rules = RuleSet()
    bots = [make_bot(level, i, rules) for i in range(4)]
    for n in range(hands):
        play_hand(rules, bots, seed=n, dealer=n % 4)
    gc.collect()
    from tests.test_memo_bounds import BOUNDED, DERIVED  # every memo emptied at a bound, declared there

    seen: set[int] = set()
    rows = []
    for name in (*BOUNDED, *DERIVED):
        module, attr = name.rsplit(".", 1)
        value = getattr(importlib.import_module(f"sgmahjong.{module}"), attr)
        tables = dicts_of(value)
        entries = sum(len(t) for t in tables)
        if tables and entries:
            rows.append((sum(deep_size(t, seen) for t in tables), entries, len(tables), name))
    rows.sort(reverse=True)
    print(f"memos after {hands} hands of {level} self-play, each table bounded at {limit} entries:")
    total = ceiling = 0.0
    for size, entries, parts, name in rows:
        full = parts * limit * size / entries
        if name == "bots.tactics._groups":  # the group records, held by _group_tables too
            full = size
        total += size
        ceiling += full
        print(f"  {name:32} {entries:>7} entries {size / 2**20:6.2f} MB {size / entries:5.0f} B each, "
              f"full ({parts} x {limit}) {full / 2**20:5.2f} MB")
    print(f"  in all {total / 2**20:.1f} MB; with every one full about {ceiling / 2**20:.0f} MB")


# -- server soak ---------------------------------------------------------------------------------------

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
    token = _client.post(f"/api/tables/{code}/join", json={"name": "Ann"}).json()["token"]
    with WsClient(url.replace("http://", "ws://", 1) + f"/ws/{code}") as ws:
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
        server = live._runner.server.config.app.state.server  # the TableServer, for its live set
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


# -- startup ---------------------------------------------------------------------------------------------

def _stored_hand() -> tuple[str, str, list[tuple[int, str]], list[str]]:
    """What one stored hand holds, in size: (seed, wall hash, 90 (seat, action), 30 event texts)."""
    import json

    actions = [(i % 4, f"discard {i % 34}") for i in range(90)]
    events = [json.dumps({"kind": "discard", "seat": i % 4, "tile": "5p", "version": i}) for i in range(30)]
    return "1" * 20, "0" * 64, actions, events


def fill_history(path: str, finished_hands: int) -> None:
    """Write ``finished_hands`` finished hands (16 to a table, finished tables) into the database."""
    seed, wall_hash, actions, events = _stored_hand()
    db = sqlite3.connect(path)
    now = time.time()
    db.execute("BEGIN")
    table_hands = 16
    base = db.execute("SELECT COALESCE(MAX(id), 0) FROM tables").fetchone()[0] + 1
    for t in range((finished_hands + table_hands - 1) // table_hands):
        tid = base + t
        db.execute(
            "INSERT INTO tables (id, code, name, private, rules, options, status, match_seed, created)"
            " VALUES (?, ?, 'old', 0, '{}', '{}', 'finished', 1, ?)", (tid, f"old{tid:08d}", now))
        db.executemany("INSERT INTO seats (table_id, seat, kind, name) VALUES (?, ?, 'bot', 'Bot')",
                       [(tid, s) for s in range(4)])
        n = min(table_hands, finished_hands - t * table_hands)
        db.executemany(
            "INSERT INTO hands (table_id, number, seed, wall_hash, started, ended, result)"
            " VALUES (?, ?, ?, ?, ?, ?, 'null')",
            [(tid, h, seed, wall_hash, now, now) for h in range(1, n + 1)])
        db.executemany(
            "INSERT INTO actions (table_id, hand, seq, seat, action, version, source, at)"
            " VALUES (?, ?, ?, ?, ?, ?, 'bot', ?)",
            [(tid, h, i, seat, action, i, now)
             for h in range(1, n + 1) for i, (seat, action) in enumerate(actions)])
        db.executemany("INSERT INTO events (table_id, hand, seq, event) VALUES (?, ?, ?, ?)",
                       [(tid, h, i, ev) for h in range(1, n + 1) for i, ev in enumerate(events)])
    db.execute("COMMIT")
    db.close()


def _live_tables(path: str, count: int) -> None:
    """``count`` live tables: bots playing hand 1 (resumed at startup)."""
    import asyncio

    from sgmahjong.server.table import engine
    from sgmahjong.server.tables import CreateTable, TableServer

    server = TableServer(path)
    server.open()

    async def start_all() -> None:
        for i in range(count):
            table = server.create(CreateTable(name=f"live {i}", options={"bot_delay": 0}))
            table.seats = [type(table.seats[0])(s, "bot", f"Bot {s}", "greedy", None) for s in range(4)]
            for s in table.seats:
                server.store.set_seat(table.id, s.row())  # type: ignore[union-attr]
            match, events = engine.start_match(table.rules, 7 + i, None)
            hand = engine.hand_of(match)
            server.store.start_match(  # type: ignore[union-attr]
                table.id, 7 + i, hand.seed, hand.wall_hash, [engine.full_event(e) for e in events])

    asyncio.run(start_all())
    server.close()


def deep_table(path: str, hands: int, seed: int = 1) -> tuple[int, int]:
    """One live table of four bots deep into a long match: ``hands`` hands stored as a live table stores
    them (each hand's secret, snapshot, actions and events; random play, nobody winning so that the
    match lasts), the last one a few actions in. Returns the table's id and the actions stored."""
    import random

    from sgmahjong.game import format_action
    from sgmahjong.game.testing import random_action
    from sgmahjong.rules import RuleSet
    from sgmahjong.server.store import SeatRow, Write, open_store
    from sgmahjong.server.table import engine

    store = open_store(path)
    rng = random.Random(seed)
    rules = RuleSet()
    tid = store.create_table(f"deep{seed:04d}", "deep", False, rules.to_dict(), {"bot_delay": 0})
    for s in range(4):
        store.set_seat(tid, SeatRow(s, "bot", f"Bot {s}", "greedy", None))
    match, events = engine.start_match(rules, seed, None, engine.fresh_secret(), pause_windows=True)
    hand = engine.hand_of(match)
    store.start_match(tid, seed, hand.seed, hand.wall_hash, [engine.full_event(e) for e in events])
    number, stored = 1, 0
    while True:
        ops: list[Write] = []
        seq, event_seq = 0, len(events)
        while not match.hand.ended and (number < hands or seq < 30):
            action = random_action(match.hand, rng, win_bias=0.0)
            version = match.hand.version
            match, events = engine.apply(match, action.seat, format_action(action))
            ops.append(Write("add_action", (tid, number, seq, action.seat, format_action(action), version,
                                            "bot", [engine.full_event(e) for e in events], event_seq)))
            seq += 1
            event_seq += len(events)
        stored += seq
        if number >= hands:
            store.write_batch(ops)
            break
        status = "between_hands"
        ops.append(Write("end_hand", (tid, number, engine.view(match, None).get("result"), status)))
        match, events = engine.next_hand(match, engine.fresh_secret())
        if engine.finished(match):
            raise SystemExit(f"the match of seed {seed} ended at hand {number}; try another seed")
        number += 1
        hand = engine.hand_of(match)
        ops.append(Write("add_hand", (tid, number, hand.seed, hand.wall_hash,
                                      [engine.full_event(e) for e in events], engine.snapshot(match))))
        store.write_batch(ops)
    store.close()
    return tid, stored


def time_resume(path: str, table_id: int, repeats: int = 5) -> float:
    """The best time of rebuilding one table's match from the database (``Table.resume``)."""
    from sgmahjong.server.store import open_store
    from sgmahjong.server.table.table import Table

    store = open_store(path)
    (row,) = store.tables(table_id)
    seats = store.seats(table_id)
    best = float("inf")
    for _ in range(repeats):
        table = Table.from_rows(store, row, seats)
        t0 = time.perf_counter()
        table.resume(row.match_seed)
        best = min(best, time.perf_counter() - t0)
    store.close()
    return best


def deep_resume(hands: int) -> None:
    """A table at hand 1 and one at hand ``hands``, each resumed from its last hand's snapshot; and the
    deep one as a table stored before snapshots (migration 0006) is, replaying every hand."""
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "deep.sqlite3")
        shallow, _ = deep_table(path, 1, seed=2)
        seed = 1
        while True:
            try:
                deep, actions = deep_table(path, hands, seed=seed)
                break
            except SystemExit:
                seed += 1
        one, many = time_resume(path, shallow), time_resume(path, deep)
        db = sqlite3.connect(path)
        db.execute("UPDATE hands SET snapshot = NULL WHERE table_id = ?", (deep,))
        db.commit()
        db.close()
        replay = time_resume(path, deep, repeats=2)
        print(f"resume a live table in hand 1:            {1000 * one:7.1f} ms")
        print(f"resume a live table in hand {hands:>3} (snapshot): {1000 * many:7.1f} ms")
        print(f"  the same without snapshots (pre-0006):  {1000 * replay:7.1f} ms  "
              f"(replays all {actions} actions of its {hands} hands)")


def time_open(path: str, repeats: int = 3) -> tuple[float, int]:
    from sgmahjong.server.tables import TableServer

    best = float("inf")
    live = 0
    for _ in range(repeats):
        server = TableServer(path)
        t0 = time.perf_counter()
        server.open()
        best = min(best, time.perf_counter() - t0)
        live = len(server.tables)
        server.close()
    return best, live


def startup(finished: int, live: int, deep: int = 50) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "startup.sqlite3")
        _live_tables(path, live)
        seconds, loaded = time_open(path)
        print(f"startup with {live} live tables and      0 finished hands: {1000 * seconds:7.1f} ms "
              f"({loaded} tables resumed)")
        t0 = time.perf_counter()
        fill_history(path, finished)
        size = os.path.getsize(path) / 1e6
        took = time.perf_counter() - t0
        print(f"  (wrote {finished} finished hands in {took:.1f} s; database {size:.0f} MB)")
        seconds, loaded = time_open(path)
        print(f"startup with {live} live tables and {finished:>6} finished hands: {1000 * seconds:7.1f} ms "
              f"({loaded} tables resumed)")
    deep_resume(deep)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="bench.bench_soak", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", nargs="?", choices=["all", "self-play", "server", "memos", "startup"],
                        default="all")
    parser.add_argument("--hands", type=int, default=None)
    parser.add_argument("--every", type=int, default=None)
    parser.add_argument("--level", default="greedy")
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--finished", type=int, default=100_000)
    parser.add_argument("--live", type=int, default=20)
    parser.add_argument("--diag", action="store_true",
                        help="server: also print where the memory is (smaps, malloc, SQLite, Python)")
    parser.add_argument("--malloc", default="", help="server: glibc malloc options for an experiment, "
                        "e.g. arena_max=2,mmap_threshold=131072,trim=10 (see tune_malloc)")
    parser.add_argument("--glibc-defaults", action="store_true",
                        help="server: leave glibc's malloc arenas and mmap threshold at its defaults "
                        "(malloc_arena_max=0, malloc_mmap_threshold=0), as before they were settings")
    parser.add_argument("--poll", type=float, default=0.5,
                        help="server: seconds between looks for tables whose hand is over (each is replaced)")
    parser.add_argument("--memo-limit", type=int, default=-1,
                        help="server: the memos' bound (SGMAHJONG_MEMO_LIMIT; 0: the library's own; "
                             "default: serve's)")
    parser.add_argument("--tactics-limit", type=int, default=0,
                        help="server: an experiment: the bots' group memos' bound (tactics)")
    parser.add_argument("--auto-gc", action="store_true",
                        help="server: keep Python's automatic garbage collection (`serve` turns it off)")
    parser.add_argument("--trace", type=int, default=0, metavar="FRAMES",
                        help="server: tracemalloc with FRAMES frames; reports compare with the baseline")
    parser.add_argument("--trace-from", type=int, default=0, metavar="HANDS",
                        help="server: the baseline snapshot at the first report after HANDS hands")
    parser.add_argument("--garbage", action="store_true",
                        help="server: at each report, what the pass frees (objects in cycles by type)")
    parser.add_argument("--deep", type=int, default=50, help="startup: the hand of the deep live table")
    args = parser.parse_args(argv)
    if args.what in ("all", "self-play"):
        self_play(args.hands or 2000, args.every or 250, args.level)
    if args.what in ("all", "server"):
        server_soak(args.hands or 200, args.every or 40, args.tables, args.diag, args.level, args.malloc,
                    args.glibc_defaults, args.poll, args.memo_limit, args.tactics_limit, args.auto_gc,
                    args.trace, args.trace_from, args.garbage)
    if args.what == "memos":
        memo_sizes(args.hands or 3000, args.level, args.memo_limit if args.memo_limit > 0 else 5000)
    if args.what in ("all", "startup"):
        startup(args.finished, args.live, args.deep)


if __name__ == "__main__":
    main()
