"""What a process's memory holds, for the soaks of :mod:`bench.bench_soak`: its resident set size and
where it is (smaps, malloc, SQLite, Python's allocator), and the entries and deep size of every
module-level memo of the rules core and the bots."""

from __future__ import annotations

import gc
import os
import sys
import tempfile
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
