"""A finished test run must end: a plugin (loaded by ``tests/conftest.py``) that, once the last test has
run, gives the interpreter ``SGMJ_EXIT_GRACE_SECONDS`` (default 120) to exit. If something a test left
behind (a non-daemon thread, a pool) keeps it alive longer, every thread's stack is printed to stderr
and the process exits with status 1: CI reports the hang, and where it hangs, rather than waiting on it."""

from __future__ import annotations

import faulthandler
import os
import sys

import pytest

EXIT_GRACE_SECONDS = 120.0


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    grace = float(os.environ.get("SGMJ_EXIT_GRACE_SECONDS") or EXIT_GRACE_SECONDS)
    stream = sys.__stderr__  # the real stderr, not pytest's capture: the stacks must reach the log
    if stream is not None and grace > 0:
        faulthandler.dump_traceback_later(grace, exit=True, file=stream)
