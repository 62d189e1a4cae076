"""A table's bot driver: the bots' decisions (in a worker thread, on the immutable match) for the seats
a bot plays now (bots, and humans who are away), made during a human-like pause, and acting on them
at its end through the table's commit path. A part of :class:`~.table.Table`."""

from __future__ import annotations

import asyncio
import hashlib
import logging
import random
import time
from collections.abc import Callable
from typing import Protocol

from ...bots.base import Bot
from ...rules import RuleSet
from ..options import TableOptions
from ..protocol import ProtocolError
from ..store import LeaseLost, StorageUnavailable
from . import engine
from .bot_timing import human_delay, pace_of
from .steps import TableSteps

log = logging.getLogger("sgmahjong.server")


class BotTable(TableSteps, Protocol):
    """What the bot driver needs of its table beyond :class:`TableSteps`."""

    def bot_seats(self) -> list[int]:
        """The awaited seats a bot plays now."""

    def bot_level(self, seat: int) -> str:
        """The level of the bot playing ``seat``."""


class BotDriver:
    """The bots of one table, built once per seat and level, seeded by the table's code."""

    def __init__(self, table: BotTable, rules: RuleSet, options: TableOptions,
                 lone_human: Callable[[], bool] = lambda: False,
                 expert: engine.ExpertLimits | None = None) -> None:
        self.table = table
        self.rules = rules
        self.expert = expert  # the expert's search limits (None: the expert's defaults)
        self.options = options
        self.lone_human = lone_human  # one human seated, the others bots: claim windows decide at once
        self.bots: dict[tuple[int, str], Bot] = {}
        self.thinking: int | None = None  # the version the bots are deciding (and pausing) at

    async def run(self, version: int) -> None:
        """The bots awaited at ``version`` decide at once (in a worker thread, on the immutable match, so
        the server stays responsive) and act, under the lock, when their human-like pause
        (:meth:`delay`) from the start has passed, if nothing changed meanwhile: a decision's time is
        part of the pause, not added to it. Every bot of one claim window decides at once; a turn is one
        decision. Another seat's private decision in the same window (same hand, same version) does not
        void their choices: they could not see it, and the window asks them the same. Whatever fails is
        logged and the table is scheduled again later (a bot never stops a table)."""
        table = self.table
        try:
            await self._run(version)
        except asyncio.CancelledError:
            raise
        except (LeaseLost, StorageUnavailable) as exc:  # nothing of the refused action was applied
            log.warning("table %s: bot action not stored (%s); trying again", table.code, exc)
            table.retry_later()
        except Exception:
            log.exception("table %s: the bots' step at version %s failed; trying again", table.code, version)
            table.retry_later()

    async def _run(self, version: int) -> None:
        table = self.table
        match = table.match
        if table.closed or table.status != "playing" or match is None or self.thinking == version:
            return
        if engine.hand_of(match).version != version:
            return  # something changed meanwhile; that change scheduled its own bots
        seats = table.bot_seats()
        targets = seats if engine.phase(match) == "claim" else seats[:1]
        if not targets:
            return
        levels = {seat: table.bot_level(seat) for seat in targets}
        self.thinking = version
        try:  # the bots decide during their pause: the pause is the pace, however busy the machine
            until = time.monotonic() + self.delay(version)
            choices = await asyncio.to_thread(self.choose_all, match, levels)
            await asyncio.sleep(max(0.0, until - time.monotonic()))
        finally:
            self.thinking = None
        async with table.lock:
            now = table.match
            if (table.closed or table.status != "playing" or now is None
                    or now.hand_number != match.hand_number or engine.hand_of(now).version != version):
                return
            for seat in targets:
                if table.status != "playing" or seat not in table.bot_seats():
                    break
                self.play(seat, choices.get(seat))

    def delay(self, version: int) -> float:
        """A human-like pause before the bots awaited now act, at the table's pace (:mod:`.bot_timing`);
        none in a claim window with one human seated (the window's own pause is the same either way)."""
        pace = pace_of(self.options.pace)
        base = self.options.bot_delay * pace.delay
        match = self.table.match
        seats = self.table.bot_seats() if base > 0 and match is not None else []
        if not seats or match is None:
            return base
        phase = engine.phase(match)
        if phase == "claim" and self.lone_human():
            return 0.0
        choices = len(engine.legal_texts(match, seats[0])) if phase == "turn" else 0
        rng = random.Random(f"{self.table.code}:{version}")
        return human_delay(base, self.options.bot_think * pace.think, phase, choices, rng)

    def choose_all(self, match: engine.Match, levels: dict[int, str]) -> dict[int, str | None]:
        """Each seat's bot choice on ``match`` (None where the bot failed)."""
        out: dict[int, str | None] = {}
        for seat, level in levels.items():
            try:
                out[seat] = self.choice(match, seat, level)
            except Exception:
                log.exception("table %s: bot failed", self.table.code)
                out[seat] = None
        return out

    def play(self, seat: int, choice: str | None) -> None:
        """Play the bot's choice for ``seat``; a refused or missing choice falls back to the first
        legal action (a bot bug must never stop a table)."""
        table = self.table
        if choice is not None:
            match = table.match
            assert match is not None
            try:
                table.act(seat, choice, engine.hand_of(match).version, "bot")
                return
            except ProtocolError as exc:
                log.error("table %s: bot action %r refused: %s", table.code, choice, exc.message)
        match = table.match
        assert match is not None
        fallback = engine.legal_texts(match, seat)
        if fallback:
            table.act(seat, fallback[0], engine.hand_of(match).version, "bot")

    def choice(self, match: engine.Match, seat: int, level: str) -> str:
        key = (seat, level)
        bot = self.bots.get(key)
        if bot is None:
            digest = hashlib.sha256(f"{self.table.code}:{seat}:{level}".encode()).digest()
            bot = engine.make_bot(level, int.from_bytes(digest[:4], "big"), self.rules, self.expert)
            self.bots[key] = bot
        return engine.bot_choose(bot, match, seat)
