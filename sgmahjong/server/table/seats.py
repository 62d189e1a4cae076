"""A table's seats: who sits where (human, bot or empty), seat tokens, names, and the seating rules of
the lobby (take a seat, add or remove a bot, leave). A part of :class:`~.table.Table`.

:class:`Seating` knows the four seats and writes each change to the store before making it (a refused
write changes nothing); it checks nothing of the table's status or connections (the table does).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from .. import protocol
from ..protocol import ProtocolError
from ..store import SeatRow
from ..text import MAX_MARKS, check_text

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


def bot_name(level: str) -> str:
    """A bot's name: its level as people know it ("Bot · Casual"), never a wind (the winds move every
    hand); the pages show it in their language and number bots of the same level."""
    return f"Bot · {protocol.BOT_LEVEL_INFO.get(level, (level.title(), ''))[0]}"


def bot_seat(seat: int, level: str) -> Seat:
    """A bot of ``level`` at ``seat`` (named by :func:`bot_name`)."""
    return Seat(seat, "bot", bot_name(level), level, None)


class Seating:
    """The four seats of one table. ``write`` stores a seat's row (the store's ``set_seat`` for the
    table); every change is written first, then made."""

    def __init__(self, write: Callable[[SeatRow], None]) -> None:
        self._write = write
        self.seats: list[Seat] = [Seat(i) for i in range(4)]

    def __getitem__(self, seat: int) -> Seat:
        return self.seats[seat]

    def __iter__(self) -> Iterator[Seat]:
        return iter(self.seats)

    def put(self, new: Seat) -> None:
        """Store ``new`` and seat it (stored first: a refused write changes nothing)."""
        self._write(new.row())
        self.seats[new.seat] = new

    def load(self, new: Seat) -> None:
        """A seat read from the store (nothing is written)."""
        self.seats[new.seat] = new

    def kind(self, seat: int) -> str:
        return self.seats[seat].kind

    def humans(self) -> list[int]:
        return [s.seat for s in self.seats if s.kind == "human"]

    def free_seat(self, seat: int | None, ref: str | None = None) -> int:
        """``seat`` if it is empty, or the first empty seat when ``seat`` is None."""
        if seat is None:
            free = [s.seat for s in self.seats if s.kind == "empty"]
            if not free:
                raise ProtocolError("seat_taken", "the table is full", ref)
            seat = free[0]
        if not 0 <= seat <= 3:
            raise ProtocolError("bad_seat", "seat must be 0-3", ref)
        if self.seats[seat].kind != "empty":
            raise ProtocolError("seat_taken", f"seat {seat} is taken", ref)
        return seat

    def join(self, name: str, seat: int | None, max_marks: int | None = None) -> tuple[int, str]:
        """A human takes ``seat`` (or the first free one): the seat and its secret token (``max_marks``:
        the setting ``text_max_marks``; None: its default)."""
        name = clean_name(name, MAX_MARKS if max_marks is None else max_marks)
        seat = self.free_seat(seat)
        self.require_free_name(name)
        token = secrets.token_urlsafe(24)
        self.put(Seat(seat, "human", name, None, hash_token(token)))
        return seat, token

    def require_free_name(self, name: str) -> None:
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

    def add_bot(self, seat: int | None, level: str) -> None:
        self.put(bot_seat(self.free_seat(seat, "add_bot"), level))

    def remove_bot(self, seat: int) -> None:
        if self.seats[seat].kind != "bot":
            raise ProtocolError("bad_seat", f"seat {seat} has no bot", "remove_bot")
        self.put(Seat(seat))

    def empty(self, seat: int) -> None:
        self.put(Seat(seat))

    def fill_with_bots(self, level: str) -> None:
        """Every empty seat gets a bot of ``level`` (the match starts)."""
        for s in self.seats:
            if s.kind == "empty":
                self.put(bot_seat(s.seat, level))

    def not_ready(self) -> None:
        for s in self.seats:
            s.ready = False


def clean_name(name: str, max_marks: int = MAX_MARKS) -> str:
    """A display name as others see it (its runs of white space made one space), or ProtocolError:
    empty, too long, or what :func:`~..text.text_problem` refuses."""
    name = " ".join(name.split())
    if not name:
        raise ProtocolError("invalid", "a name is needed")
    if len(name) > NAME_MAX:
        raise ProtocolError("invalid", f"a name has at most {NAME_MAX} characters")
    check_text(name, max_marks)
    return name
