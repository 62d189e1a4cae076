"""A table's background tasks (bots thinking, deadlines, the claim-window close, retries): kept so that
closing the table cancels them, and the watchdog can tell a table with nothing pending; a task that
failed is logged once with the table's code."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

from ..store import LeaseLost

log = logging.getLogger("sgmahjong.server")


class Tasks(set[asyncio.Task[None]]):
    """The pending tasks of the table ``code`` (a set of them)."""

    def __init__(self, code: str) -> None:
        super().__init__()
        self.code = code

    def spawn(self, coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(coro)
        self.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[None]) -> None:
        self.discard(task)
        if task.cancelled() or (exc := task.exception()) is None:
            return
        if isinstance(exc, LeaseLost):  # another worker holds the table now (the lease watch hands it over)
            log.warning("table %s: background task stopped: %s", self.code, exc)
        else:
            log.error("table %s: background task failed", self.code, exc_info=exc)

    def cancel_all(self) -> None:
        for task in list(self):
            task.cancel()
