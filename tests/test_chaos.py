"""The chaos run's short form (bench/chaos.py; issue 23): a two-worker cluster on PostgreSQL behind
HAProxy, two tables of scripted humans and two of bots, for 75 s while each fault is applied once
(kill -9 of a worker, PostgreSQL restarted, SIGTERM of a worker, the store's disk full for 5 s, HAProxy
reloaded). Nothing acknowledged is lost, no table stalls past its deadline plus 5 s, and the workers
log no traceback and no ERROR line. Needs root for the disk (a small tmpfs), as CI runs."""

from __future__ import annotations

import pytest

from bench.chaos import FAULTS, run


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_short_chaos_run_loses_nothing_and_stalls_nothing() -> None:
    # in a folder of its own under /tmp, not pytest's (which another pytest run makes private again,
    # shutting the postgres user out of it: its restart fault would fail)
    figures = run(1.25, 12, humans=2, bots=2, seed=7)
    print("\n" + figures.table())
    assert {f.kind for f in figures.faults} == set(FAULTS)
    assert figures.acked > 100  # the humans played
    assert figures.lost == []
    assert figures.stalls == []
    assert not figures.tracebacks and not figures.error_lines
