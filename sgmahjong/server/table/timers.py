"""A table's timers: the turn, claim and next-hand deadlines, when each seat's decision began, and
what happens when a deadline passes. Mixed into :class:`~.table.Table`."""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import Any

from ..protocol import ProtocolError
from ..store import StorageUnavailable
from . import engine
from .base import TableBase

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



class TimersMixin(TableBase):
    """Deadlines of one table (the caller holds the table lock)."""

    def _refresh_since(self) -> None:
        if self.match is None:
            return
        hand = engine.hand_of(self.match)
        now = time.monotonic()
        for seat in range(4):
            legal = tuple(engine.legal_texts(self.match, seat))
            if legal != self.since[seat].legal:
                self.since[seat] = Since(hand.version, legal, now)

    def _set_deadline(self) -> None:
        self.deadline = None
        if self.status == "between_hands":
            secs = self.options.next_hand_seconds
            waiting = [s.seat for s in self.seats if s.kind == "human" and not s.ready]
            if secs > 0:
                self.deadline = Deadline("next_hand", waiting, secs, time.monotonic() + secs)
            return
        if self.status != "playing":
            return
        awaited = engine.awaiting(self.match)
        if not awaited:
            return
        kind = engine.phase(self.match)
        secs = self.options.claim_seconds if kind == "claim" else self.options.turn_seconds
        if secs <= 0:
            return
        start = max(self.since[s].at for s in awaited)
        self.deadline = Deadline(kind, sorted(awaited), secs, start + secs)

    async def _on_deadline(self, deadline: Deadline) -> None:
        await asyncio.sleep(max(0.0, deadline.at - time.monotonic()))
        async with self.lock:
            if self.closed or self.deadline is not deadline:
                return
            self._timer = None
            if deadline.kind == "next_hand":
                if self.status == "between_hands" and any(
                    s.kind == "human" and self.connected(s.seat) for s in self.seats
                ):
                    self._start_next_hand()
                else:
                    self.deadline = None  # nobody is here: wait for someone to come back
                return
            for seat in deadline.seats:
                if self.status != "playing" or seat not in engine.awaiting(self.match):
                    continue
                text = engine.timeout_action(self.match, seat)
                try:
                    self.act(seat, text, engine.hand_of(self.match).version, "timeout")
                except ProtocolError as exc:
                    log.error("table %s: timeout action refused: %s", self.code, exc.message)
                except StorageUnavailable as exc:  # not applied: the deadline fires again later
                    log.warning("table %s: timeout action not stored (%s)", self.code, exc)
                    self._spawn(self._after_storage_failure())
                    return
