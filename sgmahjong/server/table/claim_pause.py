"""No tells online (RULES.md §3): the pause of every claim window. Mixed into :class:`~.table.Table`.

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

from ..protocol import ProtocolError
from . import engine
from .base import TableBase
from .bot_timing import lone_pause

log = logging.getLogger("sgmahjong.server")


class PauseMixin(TableBase):
    """The claim-window pause of one table (the caller holds the table lock)."""

    def _lone_human(self) -> bool:
        """One human seated, the others bots: no other human for a pause to protect."""
        return sum(s.kind == "human" for s in self.seats) == 1

    def _pause_seconds(self) -> float:
        """``claim_pause`` (the pace's shorter pause with one human seated), or 0 when nobody watches:
        no connection at all (a spectator watching a table of bots would otherwise see which windows
        close at once)."""
        if not any(c.hello for c in self.conns):
            return 0.0
        if self._lone_human():
            return lone_pause(self.options.pace, self.options.claim_pause)
        return self.options.claim_pause

    def _pause_claims(self) -> None:
        """After any change: note when a window opened, and once it may close, close it after the
        rest of its pause."""
        if self.status != "playing" or self.match is None or engine.phase(self.match) != "claim":
            return
        version = engine.hand_of(self.match).version
        if self._pause_version != version:
            self._pause_version = version
            self._pause_at = time.monotonic() + self._pause_seconds()
        if engine.closable(self.match):
            self._spawn(self._close_later(version, self._pause_at))

    async def _close_later(self, version: int, at: float) -> None:
        delay = at - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        async with self.lock:
            if self.closed or self.status != "playing" or self.match is None:
                return
            if engine.hand_of(self.match).version != version or not engine.closable(self.match):
                return  # already closed (another task), or the hand moved on
            try:
                self.act(engine.window_source(self.match), "close", version, "table")
            except ProtocolError as exc:
                log.error("table %s: closing the claim window refused: %s", self.code, exc.message)
