"""Chat at a table: players' and spectators' short messages, quick phrases and emotes. A part of
:class:`~.table.Table` (``table.chat``).

A message is text only (the client shows it with ``textContent``): at most :data:`TEXT_MAX`
characters, not empty, no control characters and no bidi overrides (a message cannot restyle or
reorder the messages around it). A quick phrase or an emote is sent as its id and shown in each
viewer's language. Each seat (each spectator's connection) has a token bucket (the server settings
``chat_rate`` and ``chat_burst``): beyond it a message is refused and the socket stays open.

Every message is stored with the hand it was said in and the number of that hand's actions applied
by then (``step``: the replay's step), so a reload shows the recent ones and a replay shows each at
its moment. The host (the human in the lowest seat) can mute a seat for everyone and turn the
spectators' chat off; the table option ``chat`` turns chat off, ``spectator_chat`` sets the
spectators' at the start. What the host changes lives with the table in memory (a restart goes back
to the options)."""

from __future__ import annotations

import time
import unicodedata
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from ..options import TableOptions
from ..protocol import ProtocolError
from ..store import Store

if TYPE_CHECKING:
    from ..store import ChatRow
    from .connections import Connection
    from .seats import Seat

TEXT_MAX = 200  # characters of one chat message
KEEP = 50  # recent messages sent to a connection at hello (and kept in memory per table)
BUCKETS_MAX = 64  # spectators' rate buckets kept per table (the least recent dropped)
#: quick phrases (the client shows each in the viewer's language: strings "chat.phrase.ID")
PHRASES: tuple[str, ...] = (
    "huat", "wait", "so_fast", "sorry", "jiayou", "good_hand", "your_turn", "nice", "again",
)
#: emotes (SVG stickers drawn by the client: the four animals of the tile set and a few faces)
EMOTES: tuple[str, ...] = ("cat", "rat", "rooster", "centipede", "laugh", "cry", "angry", "heart")
SPECTATOR = "Spectator"
_BIDI = frozenset(range(0x202A, 0x202F)) | frozenset(range(0x2066, 0x206A))


def text_problem(text: str) -> tuple[str, str] | None:
    """Why ``text`` cannot be a chat message (error code, reason), or None when it can."""
    if not text.strip():
        return "chat_empty", "the message is empty"
    if len(text) > TEXT_MAX:
        return "chat_too_long", f"a message is at most {TEXT_MAX} characters (this one has {len(text)})"
    for ch in text:
        if ord(ch) in _BIDI:
            return "chat_bad_text", f"the message holds a text-direction override (U+{ord(ch):04X})"
        if unicodedata.category(ch) in ("Cc", "Cs"):
            return "chat_bad_text", f"the message holds a control character (U+{ord(ch):04X})"
    return None


def row_json(row: ChatRow) -> dict[str, Any]:
    return {"type": "chat", "seq": row.seq, "seat": row.seat, "name": row.name, "kind": row.kind,
            "body": row.body, "hand": row.hand, "step": row.step, "at": row.at}


class Bucket(Protocol):
    """A rate limit (the HTTP edge's token bucket): :meth:`take` spends one message if it may go."""

    def take(self) -> bool: ...


@dataclass
class ChatState:
    """A table's chat in memory."""

    seq: int | None = None  # the next message's number (None: not read from the store yet)
    recent: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=KEEP))
    buckets: dict[object, Bucket] = field(default_factory=dict)
    muted: set[int] = field(default_factory=set)  # seats the host muted for everyone
    spectators: bool | None = None  # spectators may chat (None: as the option says)


class ChatTable(Protocol):
    """What the chat uses of its table."""

    store: Store
    id: int
    options: TableOptions
    hand_number: int
    action_seq: int

    @property
    def seats(self) -> list[Seat]: ...

    @property
    def conns(self) -> set[Connection]: ...


class TableChat:
    """The table's chat (the caller holds the table lock)."""

    def __init__(self, table: ChatTable) -> None:
        self.table = table
        self.state = ChatState()

    def host(self) -> int | None:
        """The host: the human in the lowest seat (None: no human is seated)."""
        return next((s.seat for s in self.table.seats if s.kind == "human"), None)

    def message(self) -> dict[str, Any]:
        """The ``chat_state`` message."""
        spectators = self.state.spectators
        options = self.table.options
        return {"type": "chat_state", "enabled": options.chat,
                "spectators": options.spectator_chat if spectators is None else spectators,
                "muted": sorted(self.state.muted), "host": self.host(),
                "phrases": list(PHRASES), "emotes": list(EMOTES), "max": TEXT_MAX}

    def _load(self) -> int:
        """The next message's number (the recent messages read from the store the first time)."""
        if self.state.seq is None:
            rows = self.table.store.chat(self.table.id, KEEP)
            self.state.recent.extend(row_json(r) for r in rows)
            self.state.seq = rows[-1].seq + 1 if rows else 0
        return self.state.seq

    def hello(self, conn: Connection) -> None:
        """A connection that said hello: the chat's state and its recent messages."""
        self._load()
        conn.push(self.message())
        conn.push({"type": "chat_log", "messages": list(self.state.recent)})

    def say(self, conn: Connection, kind: str, body: str, rate: float, burst: int,
            new_bucket: Callable[[], Bucket]) -> None:
        """A message from ``conn``: checked, stored, then sent to every connection of this table. Each
        seat (each spectator's connection) has a rate limit made by ``new_bucket`` (``burst`` messages
        at once, then ``rate`` a second: for the reason given)."""
        seat = conn.seat
        table = self.table
        if not table.options.chat:
            raise ProtocolError("chat_off", "chat is turned off at this table", "chat")
        if seat is None and not self.message()["spectators"]:
            raise ProtocolError("chat_off", "the host has turned the spectators' chat off", "chat")
        if seat is not None and seat in self.state.muted:
            raise ProtocolError("chat_muted", "the host has muted your seat's chat", "chat")
        if kind == "text":
            problem = text_problem(body)
            if problem is not None:
                raise ProtocolError(problem[0], problem[1], "chat")
            body = body.strip()
        elif body not in (PHRASES if kind == "phrase" else EMOTES):
            raise ProtocolError("chat_unknown", f"no {kind} is called {body[:30]!r}", "chat")
        if not self._bucket(conn, new_bucket).take():
            raise ProtocolError("chat_rate", f"too many messages: at most {burst} at once, then one"
                                f" every {1 / rate:g} s" if rate > 0 else "too many messages", "chat")
        seq = self._load()
        name = (table.seats[seat].name if seat is not None else SPECTATOR) or ""
        at = round(time.time(), 3)
        message: dict[str, Any] = {
            "type": "chat", "seq": seq, "seat": seat, "name": name, "kind": kind,
            "body": body, "hand": table.hand_number, "step": table.action_seq, "at": at,
        }
        table.store.add_chat(table.id, seq, table.hand_number, table.action_seq, seat, name, kind, body, at)
        self.state.seq = seq + 1
        self.state.recent.append(message)
        for c in list(table.conns):
            if c.hello:
                c.push(message)

    def _bucket(self, conn: Connection, new_bucket: Callable[[], Bucket]) -> Bucket:
        key: object = conn.seat if conn.seat is not None else conn
        buckets = self.state.buckets
        bucket = buckets.pop(key, None) or new_bucket()
        buckets[key] = bucket  # most recent last
        while len(buckets) > BUCKETS_MAX:
            del buckets[next(iter(buckets))]
        return bucket

    def mute(self, conn: Connection, seat: int | None, muted: bool) -> None:
        """The host mutes (or unmutes) a seat for everyone; ``seat`` None: the spectators."""
        if conn.seat is None or conn.seat != self.host():
            raise ProtocolError("not_host", "only the table's host can mute a seat for everyone", "chat_mute")
        if seat is None:
            self.state.spectators = not muted
        elif muted:
            self.state.muted.add(seat)
        else:
            self.state.muted.discard(seat)
        state = self.message()
        for c in list(self.table.conns):
            if c.hello:
                c.push(state)
