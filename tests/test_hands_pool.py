"""bench/hands_pool.py: the seeded-hands pool the training and measuring benches share."""

from __future__ import annotations

import time

import pytest

from bench.hands_pool import gather


def _rows(job: tuple[int, int]) -> list[int]:
    """Two rows a job; the earlier jobs finish last (they sleep longer)."""
    n, total = job
    time.sleep(0.02 * (total - n))
    return [10 * n, 10 * n + 1]


@pytest.mark.parametrize("workers", [1, 2])
def test_rows_come_in_job_order_with_progress(workers: int, capsys: pytest.CaptureFixture[str]) -> None:
    jobs = [(n, 6) for n in range(6)]
    assert gather(_rows, jobs, workers=workers, chunksize=1, every=4, what="things") == [
        x for n in range(6) for x in (10 * n, 10 * n + 1)]
    lines = capsys.readouterr().err.splitlines()
    assert [line.split(",")[0].strip() for line in lines] == ["4/6 hands", "6/6 hands"]
    assert "8 things" in lines[0] and "12 things" in lines[1]
    assert lines[-1].endswith("about 0 s left")


def test_no_jobs_no_rows(capsys: pytest.CaptureFixture[str]) -> None:
    assert gather(_rows, [], workers=2) == []
    assert capsys.readouterr().err == ""
