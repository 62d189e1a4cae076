"""A table's bots: which seats a bot plays now (bots, and humans who are away), their decisions (in a
worker thread, on the immutable match) and acting on them. Mixed into :class:`~.table.Table`."""

from __future__ import annotations

import asyncio
import hashlib
import logging
import random
from typing import Any

from ..protocol import ProtocolError
from ..store import StorageUnavailable
from . import engine
from .base import TableBase
from .bot_timing import human_delay, pace_of

log = logging.getLogger("sgmahjong.server")

STORAGE_RETRY_SECONDS = 2.0  # set from the server settings (storage_retry_seconds)


class BotsMixin(TableBase):
    """Bots of one table."""

    def _bot_seats(self) -> list[int]:
        """Awaited seats a bot plays now: bots, and humans with no connection."""
        if self.status != "playing":
            return []
        return [
            s for s in engine.awaiting(self.match)
            if self.seats[s].kind == "bot" or self._taken_over(s)
        ]

    async def _bots_act(self, version: int) -> None:
        """After ``bot_delay``, the bots awaited at ``version`` decide (in a worker thread, on the
        immutable match, so the server stays responsive) and act under the lock if nothing changed
        meanwhile. Every bot of one claim window decides at once; a turn is one decision. Another
        seat's private decision in the same window (same hand, same version) does not void their
        choices: they could not see it, and the window asks them the same."""
        await asyncio.sleep(self._bot_delay(version))
        if self.closed or self.status != "playing" or self._thinking == version:
            return
        match, hand = self.match, self.hand_number
        if engine.hand_of(match).version != version:
            return  # something changed meanwhile; that change scheduled its own bots
        seats = self._bot_seats()
        targets = seats if engine.phase(match) == "claim" else seats[:1]
        if not targets:
            return
        self._thinking = version
        try:
            choices = await asyncio.to_thread(self._choose_all, match, targets)
        finally:
            self._thinking = None
        async with self.lock:
            if (self.closed or self.status != "playing" or self.hand_number != hand
                    or engine.hand_of(self.match).version != version):
                return
            try:
                for seat in targets:
                    if self.status != "playing" or seat not in self._bot_seats():
                        break
                    self._bot_act(seat, choices.get(seat))
            except StorageUnavailable as exc:  # nothing of the refused action was applied
                log.warning("table %s: bot action not stored (%s); trying again", self.code, exc)
                self._spawn(self._after_storage_failure())

    async def _after_storage_failure(self) -> None:
        """Bots (and timers) go on after a storage failure: they decide again a while later."""
        await asyncio.sleep(STORAGE_RETRY_SECONDS)
        async with self.lock:
            if not self.closed:
                self._schedule()

    def _bot_delay(self, version: int) -> float:
        """A human-like pause before the bots awaited now act, at the table's pace (:mod:`.bot_timing`);
        none in a claim window with one human seated (the window's own pause is the same either way)."""
        pace = pace_of(self.options.pace)
        base = self.options.bot_delay * pace.delay
        seats = self._bot_seats() if base > 0 else []
        if not seats:
            return base
        phase = engine.phase(self.match)
        if phase == "claim" and self._lone_human():
            return 0.0
        choices = len(engine.legal_texts(self.match, seats[0])) if phase == "turn" else 0
        rng = random.Random(f"{self.code}:{version}")
        return human_delay(base, self.options.bot_think * pace.think, phase, choices, rng)

    def _choose_all(self, match: Any, seats: list[int]) -> dict[int, str | None]:
        """Each seat's bot choice on ``match`` (None where the bot failed)."""
        out: dict[int, str | None] = {}
        for seat in seats:
            try:
                out[seat] = self._bot_choice(match, seat)
            except Exception:
                log.exception("table %s: bot failed", self.code)
                out[seat] = None
        return out

    def _bot_act(self, seat: int, choice: str | None) -> None:
        """Play the bot's choice for ``seat``; a refused or missing choice falls back to the first
        legal action (a bot bug must never stop a table)."""
        if choice is not None:
            try:
                self.act(seat, choice, engine.hand_of(self.match).version, "bot")
                return
            except ProtocolError as exc:
                log.error("table %s: bot action %r refused: %s", self.code, choice, exc.message)
        fallback = engine.legal_texts(self.match, seat)
        if fallback:
            self.act(seat, fallback[0], engine.hand_of(self.match).version, "bot")

    def _bot_choice(self, match: Any, seat: int) -> str:
        s = self.seats[seat]
        level = s.bot_level if s.kind == "bot" and s.bot_level else self.options.bot_level
        key = (seat, level)
        bot = self._bots.get(key)
        if bot is None:
            digest = hashlib.sha256(f"{self.code}:{seat}:{level}".encode()).digest()
            bot = engine.make_bot(level, int.from_bytes(digest[:4], "big"), self.rules)
            self._bots[key] = bot
        return engine.bot_choose(bot, match, seat)
