"""A table's connections: each browser tab's WebSocket queue, who is connected, and the fan-out of
table summaries, views and redacted events to every connection. A part of :class:`~.table.Table`.

The fan-out builds each distinct message once: one view and one list of redacted events per viewer
(seat or spectator), one ``delta`` per distinct previous view, serialised once and the same text
queued on every connection that gets it. A connection whose view would change in nothing but its
``version`` and that gets no event is sent nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import orjson

from ...game import Event, SeatViews
from ..metrics import SEND_DELAY
from . import engine
from .deltas import view_delta

if TYPE_CHECKING:
    from ..store.committer import GroupCommit


MAX_PENDING = 1000  # messages queued for one connection at most (a client that reads nothing is dropped)
LOG_MAX = 500  # events of the current hand sent to a connection at hello


class Connection:
    """One WebSocket of one browser tab: outbound messages wait in a queue drained by its writer.

    With group commit (``fence``, a :class:`~.committer.GroupCommit`), each message waits until every
    write queued before it is committed: a client is told nothing the database does not have. The
    writer is woken once per batch of messages that may go (not once per message): a message pushed
    while its writes are uncommitted is released by the fence's commit.

    With ``write_now`` (uvicorn's socket, :class:`~.guard.DirectWrites`), the messages that may go are
    written at once, in the commit's callback or the push, with no task switch; the writer task only
    sends what the socket could not take then (its buffer full), waiting until it can.

    With ``table_id``, a write of that table that failed after the connection opened (the fence's
    :meth:`~.committer.GroupCommit.lost_since`) stops it: nothing more is sent, and it ends with the
    storage error (``storage_down``), even when the table has already left the server's live set."""

    def __init__(self, send: Callable[[str], Awaitable[Any]], fence: GroupCommit | None = None,
                 write_now: Callable[[list[str]], bool] | None = None,
                 table_id: int | None = None) -> None:
        self.seat: int | None = None
        self.hello = False
        # who it is (http/identity.py): its address, the players its session acts as, and the seat of
        # theirs at this table (None: a spectator, counted against the spectators' caps)
        self.address = ""  # the client's address as limits count it (http/identity.address_of)
        self.person: tuple[str, ...] = ()  # the keys its per-person limits count under (person_keys)
        self.player_ids: tuple[int, ...] = ()
        self.session = ""  # the hash of the session it opened with ("": none): sent away when that ends
        self.name = ""  # the display name its player shows others ("" unknown): a spectator's in chat
        self.owner_seat: int | None = None
        self._send = send
        self._write_now = write_now  # a synchronous send (guard.DirectWrites), if the server has one
        self._sending = False  # the writer is inside an awaited send (direct writes wait for it)
        self.fence = fence
        self.table_id = table_id
        self._since = fence.submitted if fence is not None else 0  # writes queued before it opened
        self.closed = False  # nothing more is queued (the socket went, the client was dropped, ...)
        self.view: dict[str, Any] | None = None  # the last view this connection was sent (whole or merged)
        self.evicted = False  # the table moved to another worker (see ownership.py)
        self.close_code: int | None = None  # sent away (:meth:`send_away`): closed with this code
        self.storage_down = False  # the table's writes failed: told so, then closed (app.py)
        # (text, writes to be committed before it, when it was queued)
        self._pending: deque[tuple[str, int, float]] = deque()
        self._wake = asyncio.Event()
        self._armed = False  # the fence will wake the writer at its next commit
        self._ending = False  # finish(): send what is queued, then stop
        self._dropped = False  # nothing more is sent: the socket failed, or the client read nothing

    def push(self, message: dict[str, Any] | str) -> None:
        """Queue a message (a dict, or its JSON text when built once for many connections)."""
        if self.closed or self._ending:
            return
        if len(self._pending) >= MAX_PENDING:  # a client that reads nothing: stop feeding it
            self.closed = self._dropped = True
            self._wake.set()
            return
        text = message if isinstance(message, str) else _dumps(message)
        fence = self.fence
        seq = fence.submitted if fence is not None else 0
        self._pending.append((text, seq, time.perf_counter()))
        if fence is None or seq <= fence.committed:
            self._go()
        else:
            self._arm(fence, seq)

    def _arm(self, fence: GroupCommit, seq: int) -> None:
        """Have the fence wake the writer once the first ``seq`` writes are committed (once)."""
        if not self._armed:
            self._armed = True
            fence.on_commit(seq, self._released)

    def _released(self) -> None:
        self._armed = False
        self._go()

    def _go(self) -> None:
        """Messages may go: write them now if the socket takes them, else wake the writer."""
        if self._write_now is None or self._sending or not self._write_through():
            self._wake.set()

    def _ready(self) -> int:
        """How many queued messages, from the first, may go (their writes are committed); the fence is
        armed at the first that may not, to release it at its commit."""
        fence = self.fence
        if fence is not None:
            if self.table_id is not None and fence.lost_since(self.table_id, self._since):
                self.storage_down = self.closed = True  # its table's writes failed: none may go
                self._wake.set()
                return 0
            committed = fence.committed
            for i, (_text, seq, _queued) in enumerate(self._pending):
                if seq > committed:
                    self._arm(fence, seq)
                    return i
        return len(self._pending)

    def _write_through(self) -> bool:
        """Write the queued messages whose writes are committed straight to the socket, together (one
        system call); False when they could not go now (the writer takes over from them)."""
        if self._dropped or self.storage_down:
            return False
        write = self._write_now
        assert write is not None
        ready = self._ready()
        if not ready:
            return True
        pending = self._pending
        batch = [pending[i] for i in range(ready)]
        try:
            if not write([text for text, _seq, _queued in batch]):
                return False
        except Exception:  # the connection refused them (closing): the reader will notice
            self.closed = self._dropped = True
            return False
        now = time.perf_counter()
        for _text, _seq, queued in batch:
            pending.popleft()
            SEND_DELAY.observe(now - queued)
        return True

    def send_away(self, message: dict[str, Any], code: int) -> None:
        """Tell the client why, then close its socket with ``code`` (after what is queued)."""
        self.push(message)
        self.close_code = code
        self.finish()

    def finish(self) -> None:
        """No more messages: the writer sends what is queued (once committed) and returns."""
        self._ending = True
        self._wake.set()

    async def writer(self) -> None:
        """Send the queued messages in order, each once its writes are committed; return after
        :meth:`finish` (what was queued before it is sent first), or at once when the client is
        dropped or the table's writes failed (``storage_down``: none of its messages may go)."""
        pending = self._pending
        while True:
            await self._wake.wait()
            self._wake.clear()
            while not self._dropped and not self.storage_down and (ready := self._ready()):
                for _ in range(ready):
                    if self._dropped or self.storage_down:
                        break
                    text, _seq, queued = pending.popleft()
                    SEND_DELAY.observe(time.perf_counter() - queued)
                    self._sending = True
                    try:
                        await self._send(text)
                    except Exception:  # the socket went away; the reader will notice
                        self.closed = self._dropped = True
                    finally:
                        self._sending = False
            if self._dropped or self.storage_down or (self._ending and not pending):
                return


class Fanout:
    """The connections of one table and what each is sent (the caller holds the table lock). The
    table hands in what a message is built from (the match, the status, the deadline); the seat
    entries of the views are shared between versions (``seat_views``)."""

    def __init__(self) -> None:
        self.conns: set[Connection] = set()
        self.away_since: dict[int, float] = {}  # a seat with no connection: since when
        self.seat_views = SeatViews()

    def connected(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.conns)

    def watched(self) -> bool:
        """Anyone (a seat or a spectator) has said hello."""
        return any(c.hello for c in self.conns)

    def away_for(self, seat: int) -> float | None:
        """Seconds ``seat`` has had no connection (None: connected, or away since before we knew)."""
        if self.connected(seat):
            return None
        away = self.away_since.get(seat)
        return None if away is None else time.monotonic() - away

    def mark_away(self, seats: list[int]) -> None:
        """Each of ``seats`` with no connection is away from now (at startup, until they reconnect)."""
        now = time.monotonic()
        for seat in seats:
            if not self.connected(seat):
                self.away_since[seat] = now

    def leave(self, conn: Connection) -> bool:
        """``conn`` is gone; True when it was its seat's last connection (the seat is away now)."""
        self.conns.discard(conn)
        conn.closed = True
        if conn.seat is None or self.connected(conn.seat):
            return False
        self.away_since[conn.seat] = time.monotonic()
        return True

    def view_message(self, match: engine.Match, status: str, seat: int | None,
                     timer: dict[str, Any] | None) -> dict[str, Any]:
        return {"type": "view", "status": status, "view": engine.view(match, seat, self.seat_views),
                "timer": timer}

    def send_view(self, conn: Connection, message: dict[str, Any]) -> None:
        """A connection's whole view (on hello); later changes reach it as deltas of this one."""
        conn.view = message["view"]
        conn.push(message)

    def send_log(self, conn: Connection, hand_number: int, stored: list[dict[str, Any]]) -> None:
        """A new connection: the current hand's log so far (its last ``LOG_MAX`` stored events),
        redacted for the connection's seat."""
        conn.push({
            "type": "log", "hand_number": hand_number,
            "events": [r for e in stored[-LOG_MAX:] if (r := engine.redact_stored(e, conn.seat)) is not None],
        })

    def push_all(self, message: dict[str, Any] | str) -> None:
        text = message if isinstance(message, str) else _dumps(message)
        for c in list(self.conns):
            c.push(text)

    def push_seat(self, seat: int, message: dict[str, Any]) -> None:
        """A message for ``seat``'s connections only (that said hello)."""
        for c in self.conns:
            if c.seat == seat and c.hello:
                c.push(message)

    def hello_seats(self) -> set[int]:
        return {c.seat for c in self.conns if c.seat is not None and c.hello}

    def broadcast(self, match: engine.Match, status: str, events: list[Event],
                  timer: Callable[[int | None], dict[str, Any] | None]) -> None:
        """After a change: each connection that said hello gets one ``delta`` (its redacted events and
        what changed in its view), or its whole ``view`` if it has none to build on."""
        viewers: dict[int | None, list[Connection]] = {}
        for c in self.conns:
            if c.hello and not c.closed:
                viewers.setdefault(c.seat, []).append(c)
        built: list[tuple[dict[str, Any], str]] = []  # distinct messages and their text
        for viewer, conns in viewers.items():
            view = engine.view(match, viewer, self.seat_views)
            redacted = [e for e in (engine.redact(ev, viewer) for ev in events) if e is not None]
            seen = timer(viewer)
            per_base: dict[int, str | None] = {}
            for c in conns:
                base = c.view
                key = id(base)
                if key not in per_base:
                    per_base[key] = _update_text(status, base, view, redacted, seen, built)
                text = per_base[key]
                if text is not None:
                    c.view = view
                    c.push(text)

    def resend_views(self, match: engine.Match, status: str,
                     timer: Callable[[int | None], dict[str, Any] | None]) -> None:
        """After a fan-out failed: each connection that said hello is sent its whole view, one by one
        (one that fails again is left to its next update, which is then whole)."""
        for c in list(self.conns):
            if not c.hello or c.closed:
                continue
            c.view = None
            with contextlib.suppress(Exception):
                self.send_view(c, self.view_message(match, status, c.seat, timer(c.seat)))


def _update_text(status: str, base: dict[str, Any] | None, view: dict[str, Any], events: list[dict[str, Any]],
                 timer: dict[str, Any] | None, built: list[tuple[dict[str, Any], str]]) -> str | None:
    """The text of the message taking a client from ``base`` to ``view`` (None: nothing it can see
    changed), shared with an equal message already in ``built``."""
    delta = view_delta(base, view) if base is not None else None
    message: dict[str, Any]
    if delta is None:
        message = {"type": "view", "status": status, "view": view, "timer": timer, "events": events}
    else:
        if not events and all(k == "version" for k in delta):
            return None
        message = {"type": "delta", "status": status, "view": delta, "timer": timer, "events": events}
    for other, text in built:
        if other == message:
            return text
    text = _dumps(message)
    built.append((message, text))
    return text


def _dumps(message: dict[str, Any]) -> str:
    """Compact JSON text (orjson: the fan-out serialises every message it sends)."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
