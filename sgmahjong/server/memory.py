"""The C allocator's settings for a long-running server (glibc only; elsewhere nothing is done).

A server soak (``python -m bench.bench_soak server``) showed the process growing by ~4 KB a hand with
every Python structure bounded; most of it (11 of 14.7 MB over 2,000 hands in one run) was
glibc's own free space. The bots' memo tables (tens of
thousands of entries, emptied when full and filled again) have hash tables of a few hundred KB to a
few MB; glibc maps such a block on its own (returned to the system when freed) only while it is
larger than a threshold that it *raises* to the size of each mapped block freed, so after the first
memo was emptied every later table was cut from the heap, and a heap only shrinks from its top: the
holes stayed and the heap grew by them, once per arena (glibc makes up to 8 per core, one per
thread that allocates: the event loop, the bots' and the committer's threads).

:func:`tune_malloc` fixes the threshold (``malloc_mmap_threshold``) and caps the arenas
(``malloc_arena_max``); with both the soak's glibc arenas stay level (README, "Memory"; Python's own
arenas grew on for a while, by the bots' distance-vector memos, which had no bound).

:func:`collect_garbage` is the server's garbage collection while ``sgmahjong serve`` keeps Python's
automatic passes off: one full pass every ``gc_interval_seconds`` (commands/serve.py says why).
"""

from __future__ import annotations

import asyncio
import ctypes
import gc
import logging
import sys
import time
from typing import Any

from .settings import ServerSettings

log = logging.getLogger("sgmahjong.server")

M_MMAP_THRESHOLD = -3  # mallopt parameters (glibc's malloc.h)
M_ARENA_MAX = -8


def _libc() -> Any:
    """glibc, or None (another C library, or not Linux)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt  # noqa: B018 - glibc has it, musl has not
        libc.gnu_get_libc_version  # noqa: B018
    except (OSError, AttributeError):
        return None
    return libc


def bound_memos(limit: int) -> None:
    """Bound the analysis memos and the bots' vector, convolution and group memos of this process at
    ``limit`` entries each (0: leave the library's bounds, 5,000-50,000, fit for fast self-play).

    Each memo is emptied when full, so memory is bounded either way, but with the library's bounds a
    server's memos fill for tens of thousands of hands; at 5,000 they are full within ~2,000 hands and
    the soak levels at ~100 MB. The cost: greedy bots' decisions ~15-20% slower, strong bots'
    unchanged (README, "Memory")."""
    if limit <= 0:
        return
    from ..analysis import tables
    from ..bots import efficiency, tactics

    tables.MEMO_LIMIT = efficiency.CONV_MAX = efficiency.VEC_MAX = limit
    tactics.MEMO_MAX = tactics.DERIVED_MAX = limit


def tune_malloc(settings: ServerSettings, libc: Any = None) -> dict[str, int]:
    """Apply ``settings``' glibc malloc bounds to this process (a value of 0 leaves glibc's own);
    returns what was set (mallopt parameter name -> value). Best called before threads start: the
    arena cap does not merge arenas that exist already."""
    libc = libc if libc is not None else _libc()
    done: dict[str, int] = {}
    if libc is None:
        return done
    for name, param, value in (("M_ARENA_MAX", M_ARENA_MAX, settings.malloc_arena_max),
                               ("M_MMAP_THRESHOLD", M_MMAP_THRESHOLD, settings.malloc_mmap_threshold)):
        if value <= 0:
            continue
        if libc.mallopt(param, value):
            done[name] = value
        else:
            log.warning("mallopt(%s, %d) refused; glibc's default kept", name, value)
    return done


async def collect_garbage(interval: float) -> None:
    """While Python's automatic collection is off (``sgmahjong serve``, ``gc_interval_seconds``): one
    full garbage-collector pass every ``interval`` seconds, on the event loop, so that cyclic garbage
    (steady play makes none; an error's traceback or a closed socket may) is freed within that time."""
    while True:
        await asyncio.sleep(interval)
        if gc.isenabled():  # automatic passes are on (not ``serve``): they do it
            continue
        start = time.perf_counter()
        found = gc.collect()
        log.info("garbage collection: %d objects freed in %.3f s", found, time.perf_counter() - start)
