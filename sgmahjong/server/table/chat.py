"""Chat at a table: players' and spectators' short messages, quick phrases and emotes. Mixed into
:class:`~.table.Table`.

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
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..http.limits import TokenBucket
from ..protocol import ProtocolError
from .base import TableBase

if TYPE_CHECKING:
    from ..store import ChatRow
    from .connections import Connection

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


@dataclass
class ChatState:
    """A table's chat in memory."""

    seq: int | None = None  # the next message's number (None: not read from the store yet)
    recent: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=KEEP))
    buckets: dict[object, TokenBucket] = field(default_factory=dict)
    muted: set[int] = field(default_factory=set)  # seats the host muted for everyone
    spectators: bool | None = None  # spectators may chat (None: as the option says)


class ChatMixin(TableBase):
    """The table's chat (the caller holds the table lock)."""

    chat: ChatState
    action_seq: int

    def chat_host(self) -> int | None:
        """The host: the human in the lowest seat (None: no human is seated)."""
        return next((s.seat for s in self.seats if s.kind == "human"), None)

    def chat_state(self) -> dict[str, Any]:
        spectators = self.chat.spectators
        return {"type": "chat_state", "enabled": self.options.chat,
                "spectators": self.options.spectator_chat if spectators is None else spectators,
                "muted": sorted(self.chat.muted), "host": self.chat_host(),
                "phrases": list(PHRASES), "emotes": list(EMOTES), "max": TEXT_MAX}

    def _chat_load(self) -> None:
        if self.chat.seq is None:
            rows = self.store.chat(self.id, KEEP)
            self.chat.recent.extend(row_json(r) for r in rows)
            self.chat.seq = rows[-1].seq + 1 if rows else 0

    def chat_hello(self, conn: Connection) -> None:
        """A connection that said hello: the chat's state and its recent messages."""
        self._chat_load()
        conn.push(self.chat_state())
        conn.push({"type": "chat_log", "messages": list(self.chat.recent)})

    def say(self, conn: Connection, kind: str, body: str, rate: float, burst: int) -> None:
        """A message from ``conn``: checked, stored, then sent to every connection of this table."""
        seat = conn.seat
        if not self.options.chat:
            raise ProtocolError("chat_off", "chat is turned off at this table", "chat")
        state = self.chat_state()
        if seat is None and not state["spectators"]:
            raise ProtocolError("chat_off", "the host has turned the spectators' chat off", "chat")
        if seat is not None and seat in self.chat.muted:
            raise ProtocolError("chat_muted", "the host has muted your seat's chat", "chat")
        if kind == "text":
            problem = text_problem(body)
            if problem is not None:
                raise ProtocolError(problem[0], problem[1], "chat")
            body = body.strip()
        elif body not in (PHRASES if kind == "phrase" else EMOTES):
            raise ProtocolError("chat_unknown", f"no {kind} is called {body[:30]!r}", "chat")
        if not self._chat_bucket(conn, rate, burst).take():
            raise ProtocolError("chat_rate", f"too many messages: at most {burst} at once, then one"
                                f" every {1 / rate:g} s" if rate > 0 else "too many messages", "chat")
        self._chat_load()
        assert self.chat.seq is not None
        name = self.seats[seat].name if seat is not None else SPECTATOR
        at = round(time.time(), 3)
        message: dict[str, Any] = {
            "type": "chat", "seq": self.chat.seq, "seat": seat, "name": name or "", "kind": kind,
            "body": body, "hand": self.hand_number, "step": self.action_seq, "at": at,
        }
        self.store.add_chat(self.id, self.chat.seq, self.hand_number, self.action_seq, seat, name or "",
                            kind, body, at)
        self.chat.seq += 1
        self.chat.recent.append(message)
        for c in list(self.conns):
            if c.hello:
                c.push(message)

    def _chat_bucket(self, conn: Connection, rate: float, burst: int) -> TokenBucket:
        key: object = conn.seat if conn.seat is not None else conn
        buckets = self.chat.buckets
        bucket = buckets.pop(key, None) or TokenBucket(rate, burst)
        buckets[key] = bucket  # most recent last
        while len(buckets) > BUCKETS_MAX:
            del buckets[next(iter(buckets))]
        return bucket

    def chat_mute(self, conn: Connection, seat: int | None, muted: bool) -> None:
        """The host mutes (or unmutes) a seat for everyone; ``seat`` None: the spectators."""
        if conn.seat is None or conn.seat != self.chat_host():
            raise ProtocolError("not_host", "only the table's host can mute a seat for everyone", "chat_mute")
        if seat is None:
            self.chat.spectators = not muted
        elif muted:
            self.chat.muted.add(seat)
        else:
            self.chat.muted.discard(seat)
        state = self.chat_state()
        for c in list(self.conns):
            if c.hello:
                c.push(state)
