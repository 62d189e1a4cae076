"""A table's deadlines: the turn, claim and next-hand timers, when each seat's decision began, and what
is due when a deadline passes. A part of :class:`~.table.Table`.

:class:`Deadlines` computes the current deadline from the match, the table's options and the seats
awaited, and arms a task for it; when it fires, each seat still awaited plays its timeout action
(``engine.timeout_action``) through the table's commit path.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import Any, Protocol

from ..options import TableOptions
from ..protocol import ProtocolError
from ..store import LeaseLost, StorageUnavailable
from . import engine
from .steps import TableSteps

log = logging.getLogger("sgmahjong.server")


@dataclass
class Deadline:
    kind: str  # turn | claim | next_hand
    seats: list[int]
    seconds: float
    at: float  # time.monotonic() deadline

    def to_json(self, viewer: int | None = None) -> dict[str, Any] | None:
        """The timer as ``viewer`` sees it. A claim timer is shown to the asked seats only (with only
        the viewer named): a seat that is not asked sees no timer, as when nobody may claim, since
        who may claim would tell which seats hold a pair or a wait (RULES.md §3, no tells)."""
        remaining = max(0, int((self.at - time.monotonic()) * 1000))
        if self.kind == "claim" and viewer not in self.seats:
            return None
        seats = [s for s in self.seats if s == viewer] if self.kind == "claim" else self.seats
        return {"kind": self.kind, "seats": seats, "seconds": self.seconds, "remaining_ms": remaining}


@dataclass
class Since:
    version: int = -1
    legal: tuple[str, ...] = ()
    at: float = 0.0


class TimedTable(TableSteps, Protocol):
    """What the deadlines need of their table beyond :class:`TableSteps`."""

    def next_hand(self) -> None:
        """Deal the next hand (between hands only)."""

    def humans_here(self) -> bool:
        """A human seat has a connection."""


class Deadlines:
    """The deadline of one table, its timer task, and when each seat's current decision began."""

    def __init__(self, table: TimedTable, options: TableOptions) -> None:
        self.table = table
        self.options = options
        self.since = [Since() for _ in range(4)]
        self.current: Deadline | None = None
        self._timer: asyncio.Task[None] | None = None

    def timer(self, viewer: int | None) -> dict[str, Any] | None:
        return self.current.to_json(viewer) if self.current is not None else None

    def refresh_since(self, match: engine.Match | None) -> None:
        """Note when each seat's set of legal actions changed (its decision began)."""
        if match is None:
            return
        hand = engine.hand_of(match)
        now = time.monotonic()
        for seat in range(4):
            legal = tuple(engine.legal_texts(match, seat))
            if legal != self.since[seat].legal:
                self.since[seat] = Since(hand.version, legal, now)

    def set(self, status: str, match: engine.Match | None, waiting: list[int]) -> None:
        """The deadline now: between hands, for the humans not ready (``waiting``); in play, for the
        seats awaited, from when their decisions began; else none."""
        self.current = None
        if status == "between_hands":
            secs = self.options.next_hand_seconds
            if secs > 0:
                self.current = Deadline("next_hand", waiting, secs, time.monotonic() + secs)
            return
        if status != "playing" or match is None:
            return
        awaited = engine.awaiting(match)
        if not awaited:
            return
        kind = engine.phase(match)
        secs = self.options.claim_seconds if kind == "claim" else self.options.turn_seconds
        if secs <= 0:
            return
        start = max(self.since[s].at for s in awaited)
        self.current = Deadline(kind, sorted(awaited), secs, start + secs)

    def results_expired(self) -> bool:
        """Between hands: the results' delay ran out (or there is none), so whoever comes back gets
        a fresh one."""
        return self.current is None or self.current.at <= time.monotonic()

    def arm(self) -> None:
        """(Re)arm the timer task for the current deadline (the caller holds the lock, in the loop)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.current is not None:
            self._timer = self.table.spawn(self._on_deadline(self.current))

    async def _on_deadline(self, deadline: Deadline) -> None:
        await asyncio.sleep(max(0.0, deadline.at - time.monotonic()))
        table = self.table
        async with table.lock:
            if table.closed or self.current is not deadline:
                return
            self._timer = None
            try:
                self._passed(deadline)
            except (LeaseLost, StorageUnavailable) as exc:  # not applied: the deadline fires again later
                log.warning("table %s: timeout action not stored (%s)", table.code, exc)
                table.retry_later()
            except Exception:
                log.exception("table %s: the %s deadline's step failed; trying again", table.code,
                              deadline.kind)
                table.retry_later()

    def _passed(self, deadline: Deadline) -> None:
        """Between hands, the next hand is dealt if someone is here (or the table goes on unattended); in
        play, each seat still awaited plays its timeout action (``engine.timeout_action``)."""
        table = self.table
        if deadline.kind == "next_hand":
            if table.status == "between_hands" and (table.humans_here() or self.options.unattended):
                table.next_hand()
            else:
                self.current = None  # nobody is here: wait for someone to come back
            return
        for seat in deadline.seats:
            match = table.match
            if table.status != "playing" or match is None or seat not in engine.awaiting(match):
                continue
            text = engine.timeout_action(match, seat)
            try:
                table.act(seat, text, engine.hand_of(match).version, "timeout")
            except ProtocolError as exc:
                log.error("table %s: timeout action refused: %s", table.code, exc.message)
