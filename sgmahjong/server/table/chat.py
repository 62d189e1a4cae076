"""Chat at a table: players' and spectators' short messages, quick phrases and emotes. A part of
:class:`~.table.Table` (``table.chat``).

A message is text only (the client shows it with ``textContent``): at most :data:`TEXT_MAX`
characters, not empty, and what :func:`~..text.text_problem` allows (one line, nothing invisible, a
few marks on a letter at most). A quick phrase or an emote is sent as its id and shown in each
viewer's language. Every message counts against its person and its address (:func:`limit_keys`;
the caller's limit, kept across reconnects: http/limits.PersonLimits): beyond it a message is
refused and the socket stays open.

Every message is stored with the hand it was said in and the number of that hand's actions applied
by then (``step``: the replay's step), so a reload shows the recent ones and a replay shows each at
its moment. The host (the human in the lowest seat) can mute a seat for everyone and turn the
spectators' chat off (and on again, but never at a match the ranked queue seated); the table option
``chat`` turns chat off, ``spectator_chat`` sets the spectators' at the start. What the host changes
lives with the table in memory (a restart goes back to the options)."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from ..options import TableOptions
from ..protocol import ProtocolError
from ..store import Store
from ..text import MAX_MARKS, TextProblem
from ..text import text_problem as shown_text_problem

if TYPE_CHECKING:
    from ..store import ChatRow
    from .connections import Connection
    from .seats import Seat

TEXT_MAX = 200  # characters of one chat message
KEEP = 50  # recent messages sent to a connection at hello (and kept in memory per table)
#: quick phrases (the client shows each in the viewer's language: strings "chat.phrase.ID")
PHRASES: tuple[str, ...] = (
    "huat", "wait", "so_fast", "sorry", "jiayou", "good_hand", "your_turn", "nice", "again",
)
#: emotes (SVG stickers drawn by the client: the four animals of the tile set and a few faces)
EMOTES: tuple[str, ...] = ("cat", "rat", "rooster", "centipede", "laugh", "cry", "angry", "heart")
SPECTATOR = "Spectator"  # the name of a spectator whose player has no display name
WATCHERS_NAMED = 20  # the watchers named in the ``watchers`` message (all of them are counted)
#: who may say a line: ``(address, person keys)`` -> whether both still have a token (one is spent)
Limit = Callable[[str, tuple[str, ...]], bool]


def text_problem(text: str, max_marks: int = MAX_MARKS) -> TextProblem | None:
    """Why ``text`` cannot be a chat message, or None when it can."""
    if not text.strip():
        return TextProblem("chat_empty", "the message is empty", {})
    if len(text) > TEXT_MAX:
        return TextProblem("chat_too_long", f"a message is at most {TEXT_MAX} characters (this one has"
                           f" {len(text)})", {"most": TEXT_MAX})
    return shown_text_problem(text, max_marks)


def limit_keys(conn: Connection, table_id: int) -> tuple[str, ...]:
    """The keys besides its address that a line from ``conn`` counts against: its identity's (from
    identity.person_keys, without the address's own key there: the address has its own, larger limit,
    shared by everyone behind it) and, from a seat, that seat's (a guest seated without an identity)."""
    keys = tuple(k for k in conn.person if k != f"a:{conn.address}")
    return keys if conn.seat is None else (*keys, f"s:{table_id}:{conn.seat}")


def row_json(row: ChatRow) -> dict[str, Any]:
    return {"type": "chat", "seq": row.seq, "seat": row.seat, "name": row.name, "kind": row.kind,
            "body": row.body, "hand": row.hand, "step": row.step, "at": row.at}


@dataclass
class ChatState:
    """A table's chat in memory."""

    seq: int | None = None  # the next message's number (None: not read from the store yet)
    recent: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=KEEP))
    muted: set[int] = field(default_factory=set)  # seats the host muted for everyone
    spectators: bool | None = None  # spectators may chat (None: as the option says)
    ranked: bool | None = None  # the ranked queue seated this match (None: not asked of the store yet)


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

    def ranked(self) -> bool:
        """Whether the ranked queue seated this match (then the spectators' chat stays off): asked of
        the store once."""
        if self.state.ranked is None:
            self.state.ranked = self.table.store.ranked_outcome(self.table.id) is not None
        return self.state.ranked

    def message(self) -> dict[str, Any]:
        """The ``chat_state`` message."""
        spectators = self.state.spectators
        options = self.table.options
        return {"type": "chat_state", "enabled": options.chat,
                "spectators": options.spectator_chat if spectators is None else spectators,
                "muted": sorted(self.state.muted), "host": self.host(), "rail_locked": self.ranked(),
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
        conn.push(self.watchers())

    def say(self, conn: Connection, kind: str, body: str, limit: Limit, max_marks: int = MAX_MARKS) -> None:
        """A message from ``conn``: checked (a text's letters at most ``max_marks`` marks each), counted
        by ``limit`` (its address and :func:`limit_keys`), stored, then sent to every connection of this
        table."""
        seat = conn.seat
        table = self.table
        if not table.options.chat:
            raise ProtocolError("chat_off", "chat is turned off at this table", "chat")
        if seat is None and not self.message()["spectators"]:
            raise ProtocolError("chat_off", "the host has turned the spectators' chat off", "chat")
        if seat is not None and seat in self.state.muted:
            raise ProtocolError("chat_muted", "the host has muted your seat's chat", "chat")
        if kind == "text":
            problem = text_problem(body, max_marks)
            if problem is not None:
                raise ProtocolError(problem.code, problem.message, "chat", problem.params or None)
            body = body.strip()
        elif body not in (PHRASES if kind == "phrase" else EMOTES):
            raise ProtocolError("chat_unknown", f"no {kind} is called {body[:30]!r}", "chat")
        if not limit(conn.address, limit_keys(conn, table.id)):
            raise ProtocolError("chat_rate", "too many messages from you or your address; wait a moment",
                                "chat")
        seq = self._load()
        name = (table.seats[seat].name if seat is not None else conn.name or SPECTATOR) or ""
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

    def watchers(self) -> dict[str, Any]:
        """The ``watchers`` message: how many people watch (not sockets: one person's tabs count once,
        by their identity; a socket without one counts alone) and the names of the first
        :data:`WATCHERS_NAMED` of them that have one, sorted."""
        people: dict[object, str] = {}
        for c in self.table.conns:
            if c.hello and c.seat is None and not c.closed:
                who = tuple(k for k in c.person if not k.startswith("a:")) or id(c)
                people[who] = people.get(who) or c.name
        names = sorted({n for n in people.values() if n}, key=str.casefold)
        return {"type": "watchers", "count": len(people), "names": names[:WATCHERS_NAMED],
                "more": max(0, len(names) - WATCHERS_NAMED)}

    def tell_watchers(self) -> None:
        """Everyone at the table is sent who watches now (after a spectator came or went)."""
        message = self.watchers()
        for c in list(self.table.conns):
            if c.hello and not c.closed:
                c.push(message)

    def mute(self, conn: Connection, seat: int | None, muted: bool) -> None:
        """The host mutes (or unmutes) a seat for everyone; ``seat`` None: the spectators."""
        if conn.seat is None or conn.seat != self.host():
            raise ProtocolError("not_host", "only the table's host can mute a seat for everyone", "chat_mute")
        if seat is None:
            if not muted and self.ranked():
                raise ProtocolError("ranked_rail", "spectators may not talk to the players of a ranked match",
                                    "chat_mute")
            self.state.spectators = not muted
        elif muted:
            self.state.muted.add(seat)
        else:
            self.state.muted.discard(seat)
        state = self.message()
        for c in list(self.table.conns):
            if c.hello:
                c.push(state)
