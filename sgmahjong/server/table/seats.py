"""A table's seats: who sits where (human, bot or empty), seat tokens, names, and the lobby's seating
actions (join, leave, add or remove a bot). Mixed into :class:`~.table.Table`."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .. import protocol
from ..protocol import PROTOCOL_VERSION, ProtocolError
from ..store import SeatRow
from .base import TableBase

if TYPE_CHECKING:
    from .connections import Connection

NAME_MAX = 24


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Seat:
    seat: int
    kind: str = "empty"  # empty | human | bot
    name: str | None = None
    bot_level: str | None = None
    token_hash: str | None = None
    ready: bool = False

    def row(self) -> SeatRow:
        return SeatRow(self.seat, self.kind, self.name, self.bot_level, self.token_hash)



class SeatingMixin(TableBase):
    """Seating in the lobby (the caller holds the table lock)."""

    def join(self, name: str, seat: int | None) -> tuple[int, str]:
        """Take a seat (lobby only): the seat number and its secret token. Caller holds the lock."""
        if self.status != "lobby":
            raise ProtocolError("wrong_status", "the match has started; seats can no longer be taken")
        name = clean_name(name)
        if seat is None:
            free = [s.seat for s in self.seats if s.kind == "empty"]
            if not free:
                raise ProtocolError("seat_taken", "the table is full")
            seat = free[0]
        if not 0 <= seat <= 3:
            raise ProtocolError("bad_seat", "seat must be 0-3")
        if self.seats[seat].kind != "empty":
            raise ProtocolError("seat_taken", f"seat {seat} is taken")
        self._require_free_name(name)
        token = secrets.token_urlsafe(24)
        new = Seat(seat, "human", name, None, hash_token(token))
        self.store.set_seat(self.id, new.row())  # stored first: a refused write changes nothing
        self.seats[seat] = new
        self._broadcast_table()
        return seat, token

    def _require_free_name(self, name: str) -> None:
        """Two seats of one table never share a display name (compared without case)."""
        for s in self.seats:
            if s.kind != "empty" and s.name is not None and s.name.casefold() == name.casefold():
                raise ProtocolError(
                    "name_taken", f"someone at this table is already called {s.name!r}; choose another name"
                )

    def seat_of_token(self, token: str) -> int | None:
        digest = hash_token(token)
        for s in self.seats:
            if s.kind == "human" and s.token_hash and hmac.compare_digest(s.token_hash, digest):
                return s.seat
        return None

    def _require_seated(self, conn: Connection, ref: str) -> int:
        if conn.seat is None:
            raise ProtocolError(
                "not_seated", "only a seated player may do this (send your token in hello)", ref
            )
        return conn.seat

    def _require_status(self, status: str, ref: str) -> None:
        if self.status != status:
            raise ProtocolError("wrong_status", f"not possible while the table is {self.status}", ref)

    def add_bot(self, conn: Connection, seat: int | None, level: str) -> None:
        self._require_seated(conn, "add_bot")
        self._require_status("lobby", "add_bot")
        if seat is None:
            free = [s.seat for s in self.seats if s.kind == "empty"]
            if not free:
                raise ProtocolError("seat_taken", "the table is full", "add_bot")
            seat = free[0]
        if self.seats[seat].kind != "empty":
            raise ProtocolError("seat_taken", f"seat {seat} is taken", "add_bot")
        new = Seat(seat, "bot", bot_name(level), level, None)
        self.store.set_seat(self.id, new.row())  # stored first: a refused write changes nothing
        self.seats[seat] = new
        self._broadcast_table()

    def remove_bot(self, conn: Connection, seat: int) -> None:
        self._require_seated(conn, "remove_bot")
        self._require_status("lobby", "remove_bot")
        if self.seats[seat].kind != "bot":
            raise ProtocolError("bad_seat", f"seat {seat} has no bot", "remove_bot")
        new = Seat(seat)
        self.store.set_seat(self.id, new.row())  # stored first: a refused write changes nothing
        self.seats[seat] = new
        self._broadcast_table()

    def leave(self, conn: Connection) -> None:
        seat = self._require_seated(conn, "leave")
        self._require_status("lobby", "leave")
        new = Seat(seat)
        self.store.set_seat(self.id, new.row())  # stored first: a refused write changes nothing
        self.seats[seat] = new
        for c in self.conns:
            if c.seat == seat:
                c.seat = None
                c.push({"type": "welcome", "protocol": PROTOCOL_VERSION, "code": self.code, "seat": None})
        self._broadcast_table()


def bot_name(level: str) -> str:
    """A bot's name: its level as people know it ("Bot · Casual"), never a wind (the winds move every
    hand); the pages show it in their language and number bots of the same level."""
    return f"Bot · {protocol.BOT_LEVEL_INFO.get(level, (level.title(), ''))[0]}"


def clean_name(name: str) -> str:
    name = " ".join(name.split())
    if not name:
        raise ProtocolError("invalid", "a name is needed")
    if len(name) > NAME_MAX:
        raise ProtocolError("invalid", f"a name has at most {NAME_MAX} characters")
    if any(not ch.isprintable() for ch in name):
        raise ProtocolError("invalid", "a name must be printable text")
    return name
