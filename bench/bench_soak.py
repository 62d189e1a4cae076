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
import time

from .soak_memory import deep_size, dicts_of, memo_entries, rss_mb
from .soak_server import server_soak
from .soak_startup import startup

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
