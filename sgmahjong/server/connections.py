"""A table's connections: each browser tab's WebSocket queue, who is connected, and the fan-out of
table summaries, views and redacted events to every connection. Mixed into :class:`~.table.Table`."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from . import engine
from .protocol import PROTOCOL_VERSION, ProtocolError
from .table_base import TableBase


class Connection:
    """One WebSocket of one browser tab: outbound messages go through a queue drained by a writer."""

    def __init__(self, send: Callable[[dict[str, Any]], Any]) -> None:
        self.seat: int | None = None
        self.hello = False
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue(maxsize=1000)
        self._send = send
        self.closed = False

    def push(self, message: dict[str, Any]) -> None:
        if self.closed:
            return
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:  # a client that reads nothing: stop feeding it
            self.closed = True

    async def writer(self) -> None:
        while True:
            message = await self.queue.get()
            if message is None:
                return
            try:
                await self._send(message)
            except Exception:  # the socket went away; the reader will notice
                self.closed = True
                return



class FanoutMixin(TableBase):
    """Connections of one table and what each is sent (the caller holds the table lock)."""

    def connected(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.conns)

    def _taken_over(self, seat: int) -> bool:
        """A human seat with no connection for ``takeover_seconds`` is played by a bot."""
        if self.connected(seat):
            return False
        away = self.away_since.get(seat)
        return away is None or time.monotonic() - away >= self.options.takeover_seconds

    def view_message(self, seat: int | None) -> dict[str, Any]:
        return {
            "type": "view",
            "status": self.status,
            "view": engine.view(self.match, seat),
            "timer": self.deadline.to_json(seat) if self.deadline else None,
        }

    def _broadcast_table(self) -> None:
        msg = {"type": "table", "table": self.summary()}
        for c in list(self.conns):
            c.push(msg)

    def _broadcast(self, events: list[Any]) -> None:
        version = engine.hand_of(self.match).version if self.match is not None else 0
        for c in list(self.conns):
            if not c.hello:
                continue
            for ev in events:
                c.push({"type": "event", "event": engine.redact(ev, c.seat), "version": version})
            c.push(self.view_message(c.seat))

    def hello(self, conn: Connection, token: str | None) -> None:
        seat = None
        if token is not None:
            seat = self.seat_of_token(token)
            if seat is None:
                raise ProtocolError("bad_token", "this token does not open any seat of this table", "hello")
        conn.seat = seat
        conn.hello = True
        conn.push({"type": "welcome", "protocol": PROTOCOL_VERSION, "code": self.code, "seat": seat})
        self._broadcast_table()
        self._hello_extras(conn)
        if self.match is not None:
            conn.push(self.view_message(seat))
        self._schedule_after_connection()

    def disconnect(self, conn: Connection) -> None:
        self.conns.discard(conn)
        conn.closed = True
        if conn.seat is not None:
            if not self.connected(conn.seat):
                self.away_since[conn.seat] = time.monotonic()
                if self.options.takeover_seconds > 0 and not self.closed:
                    self._spawn(self._takeover_later(self.options.takeover_seconds))
            self._broadcast_table()
            self._schedule_after_connection()

    def mark_all_away(self) -> None:
        """At startup every human is away (they reconnect within ``takeover_seconds``)."""
        now = time.monotonic()
        for s in self.seats:
            if s.kind == "human" and not self.connected(s.seat):
                self.away_since[s.seat] = now

    async def _takeover_later(self, seconds: float) -> None:
        await asyncio.sleep(seconds + 0.01)
        async with self.lock:
            if not self.closed:
                self._schedule_after_connection()

    def _schedule_after_connection(self) -> None:
        if self.status == "playing" and self._bot_seats():
            self._spawn(self._bots_act(engine.hand_of(self.match).version))
        elif self.status == "between_hands":
            if self.deadline is None or self.deadline.at <= time.monotonic():
                self._set_deadline()  # a fresh delay for whoever comes back to the results
            self._schedule()
