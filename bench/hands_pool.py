"""Seeded hands played on a pool of processes, their rows joined in hand order, with progress on stderr.

The training and measuring benches (``train_danger``, ``train_advantage``, ``ready_calibration``,
``wait_reading``) each play many seeded hands and keep rows from each; :func:`gather` is how they all
do it: ``play(job)`` for every job, on ``workers`` processes (in this one at 1, which the tests use),
the lists joined in the jobs' order whatever order the processes finish in, so a run's rows depend on
its seeds only."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

J = TypeVar("J")
R = TypeVar("R")


def gather(play: Callable[[J], list[R]], jobs: Sequence[J], *, workers: int, chunksize: int = 8,
           every: int = 200, what: str = "rows") -> list[R]:
    """``play(job)``'s rows for every job, joined in job order; every ``every`` jobs (and at the end) a
    line on stderr with the jobs done, the rows (named ``what``), the time spent and the time left.
    ``play`` must be a module-level function (the processes import it)."""
    if workers <= 1:
        return _joined(map(play, jobs), len(jobs), every, what)
    with ProcessPoolExecutor(workers) as pool:
        return _joined(pool.map(play, jobs, chunksize=chunksize), len(jobs), every, what)


def _joined(parts: Iterable[list[R]], total: int, every: int, what: str) -> list[R]:
    out: list[R] = []
    start = time.perf_counter()
    for i, part in enumerate(parts, 1):
        out.extend(part)
        if i % every == 0 or i == total:
            spent = time.perf_counter() - start
            print(f"  {i}/{total} hands, {len(out):,} {what}, {spent:.0f} s, "
                  f"about {spent / i * (total - i):.0f} s left", file=sys.stderr, flush=True)
    return out
