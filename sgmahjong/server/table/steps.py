"""What a table's timed parts (the bot driver, the claim-window pause) may ask of their table: its lock,
whether it is closed, its current state, one action through its commit path, a task, and a retry.

:class:`~.table.Table` is the one implementation; a part's tests may hand in their own.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, Protocol

from . import engine


class TableSteps(Protocol):
    code: str
    lock: asyncio.Lock
    closed: bool
    status: str
    match: engine.Match | None

    def act(self, seat: int, text: str, version: int, source: str) -> None:
        """Apply one action (the caller holds the lock); raises ``ProtocolError`` if refused."""

    def spawn(self, coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Run ``coro`` as one of the table's tasks (cancelled when it closes)."""

    def retry_later(self) -> None:
        """A step could not be taken (a storage failure, an error): schedule the table again later."""
