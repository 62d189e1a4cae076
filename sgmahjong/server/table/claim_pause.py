"""No tells online (RULES.md §3): the pause of every claim window. A part of :class:`~.table.Table`.

Live hands run in the engine's no-tells mode (``pause_windows``): every discard and every kong opens a
claim window, decisions in it are private and keep the version, and the window closes only when the
table applies the engine's ``close`` step. This part applies it: once every asked seat has decided (or
its claim timer has run out) and ``claim_pause`` seconds have passed since the window opened. So a
seat that is not asked sees the same messages, versions and pause whether or not anyone could claim.
A table nobody is connected to (bots only, nobody watching) does not wait.

The pause protects one human from another. With one human seated (the rest bots), every window lasts
the table pace's shorter pause instead (:func:`.bot_timing.lone_pause`), its bots decide at once, and
a window that asks the human still waits for the human: the window closes once every asked seat has
decided and that pause has passed, so the human's messages and their timing are the same whether or
not a bot could claim.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence

from ..options import TableOptions
from ..protocol import ProtocolError
from ..store import LeaseLost, StorageUnavailable
from . import engine
from .bot_timing import lone_pause
from .seats import Seat
from .steps import TableSteps

log = logging.getLogger("sgmahjong.server")


def lone_human(seats: Sequence[Seat]) -> bool:
    """One human seated, the others bots: no other human for the pause to protect."""
    return sum(s.kind == "human" for s in seats) == 1


class ClaimPause:
    """The claim-window pause of one table (the caller holds the table lock)."""

    def __init__(self, table: TableSteps, options: TableOptions,
                 lone_human: Callable[[], bool] = lambda: False) -> None:
        self.table = table
        self.options = options
        self.lone_human = lone_human  # one human seated, the others bots
        self.version = -1  # the version at which the current claim window opened
        self.at = 0.0  # when its pause ends (time.monotonic())

    def seconds(self, watched: bool) -> float:
        """``claim_pause`` (the pace's shorter pause with one human seated), or 0 when nobody watches:
        no connection at all (a spectator watching a table of bots would otherwise see which windows
        close at once)."""
        if not watched:
            return 0.0
        if self.lone_human():
            return lone_pause(self.options.pace, self.options.claim_pause)
        return self.options.claim_pause

    def after_change(self, watched: Callable[[], bool]) -> None:
        """After any change: note when a window opened (its pause: :meth:`seconds`, ``watched()``
        telling whether anyone watches), and once it may close, close it after the rest of its pause."""
        table = self.table
        match = table.match
        if table.status != "playing" or match is None or engine.phase(match) != "claim":
            return
        version = engine.hand_of(match).version
        if self.version != version:
            self.version = version
            self.at = time.monotonic() + self.seconds(watched())
        if engine.closable(match):
            table.spawn(self.close_later(version, self.at))

    async def close_later(self, version: int, at: float) -> None:
        delay = at - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        table = self.table
        async with table.lock:
            match = table.match
            if table.closed or table.status != "playing" or match is None:
                return
            if engine.hand_of(match).version != version or not engine.closable(match):
                return  # already closed (another task), or the hand moved on
            try:
                table.act(engine.window_source(match), "close", version, "table")
            except ProtocolError as exc:
                log.error("table %s: closing the claim window refused: %s", table.code, exc.message)
            except (LeaseLost, StorageUnavailable) as exc:  # expected in a cluster / a database restart
                log.warning("table %s: closing the claim window not stored (%s); trying again",
                            table.code, exc)
                table.retry_later()
            except Exception:  # nothing of it was applied: the table tries again
                log.exception("table %s: closing the claim window failed; trying again", table.code)
                table.retry_later()
