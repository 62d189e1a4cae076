"""The test run's exit watchdog (tests/exit_watchdog.py): a run that something keeps from exiting is
ended with every thread's stack and status 1, and a run that exits on its own is left alone."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

HANGS = """
import threading

def test_leaves_a_thread_behind():
    threading.Thread(target=threading.Event().wait, name="left-behind").start()  # never set, not daemon
"""

ENDS = """
def test_passes():
    assert True
"""


def run(tmp_path: Path, body: str) -> subprocess.CompletedProcess[str]:
    """pytest on ``body`` in a new process, with the watchdog and a grace of 3 s."""
    (tmp_path / "test_body.py").write_text(body)
    env = {**os.environ, "SGMJ_EXIT_GRACE_SECONDS": "3", "PYTHONPATH": str(ROOT)}
    args = ["-p", "tests.exit_watchdog", "-p", "no:cacheprovider", "-q", "-o", "addopts=",
            "--rootdir", str(tmp_path), str(tmp_path)]
    return subprocess.run([sys.executable, "-m", "pytest", *args], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)


def test_a_run_a_left_thread_keeps_alive_ends_with_the_stacks_and_status_1(tmp_path: Path) -> None:
    done = run(tmp_path, HANGS)
    assert "1 passed" in done.stdout
    assert done.returncode == 1
    assert "Timeout" in done.stderr and "threading.py" in done.stderr  # the stacks, the waiting thread's too


def test_a_run_that_exits_keeps_its_status_and_prints_no_stacks(tmp_path: Path) -> None:
    done = run(tmp_path, ENDS)
    assert done.returncode == 0, done.stderr
    assert "Timeout" not in done.stderr
