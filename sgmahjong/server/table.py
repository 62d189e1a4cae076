"""One live table: its seats, its match, its connections, its timers and bots.

Every change of a table happens under ``table.lock`` (one message at a time). A change is first
applied to a copy (the engine is pure), then written to SQLite, then made current and broadcast, so a
restart (replaying the stored actions) never loses what a client was shown.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import SgMahjongError
from ..rules import RuleSet
from . import engine
from .options import TableOptions
from .protocol import PROTOCOL_VERSION, ProtocolError
from .store import SeatRow, Store, TableRow

log = logging.getLogger("sgmahjong.server")

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


@dataclass
class Deadline:
    kind: str  # turn | claim | next_hand
    seats: list[int]
    seconds: float
    at: float  # time.monotonic() deadline

    def to_json(self, viewer: int | None = None) -> dict[str, Any]:
        """The timer as ``viewer`` sees it: a claim window names only the viewer (if asked), since
        who else may claim would tell which seats hold a pair or a wait."""
        remaining = max(0, int((self.at - time.monotonic()) * 1000))
        seats = [s for s in self.seats if s == viewer] if self.kind == "claim" else self.seats
        return {"kind": self.kind, "seats": seats, "seconds": self.seconds, "remaining_ms": remaining}


@dataclass
class _Since:
    version: int = -1
    legal: tuple[str, ...] = ()
    at: float = 0.0


@dataclass
class Table:
    """A table's live state. Build with :meth:`create` or :meth:`load`."""

    store: Store
    id: int
    code: str
    name: str
    private: bool
    rules: RuleSet
    options: TableOptions
    status: str = "lobby"
    seats: list[Seat] = field(default_factory=lambda: [Seat(i) for i in range(4)])
    first_wall: str | None = None
    first_seed: int | None = None
    match: Any = None
    hand_number: int = 0
    action_seq: int = 0
    event_seq: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    conns: set[Connection] = field(default_factory=set)
    since: list[_Since] = field(default_factory=lambda: [_Since() for _ in range(4)])
    deadline: Deadline | None = None
    _tasks: set[asyncio.Task[None]] = field(default_factory=set)
    _timer: asyncio.Task[None] | None = None
    _bots: dict[tuple[int, str], Any] = field(default_factory=dict)
    away_since: dict[int, float] = field(default_factory=dict)
    _thinking: int | None = None
    closed: bool = False

    # -- construction ------------------------------------------------------------------------------
    @classmethod
    def from_rows(cls, store: Store, row: TableRow, seats: list[SeatRow]) -> Table:
        table = cls(
            store=store, id=row.id, code=row.code, name=row.name, private=row.private,
            rules=RuleSet.from_dict(row.rules), options=TableOptions.parse(row.options),
            status=row.status, first_wall=row.first_wall, first_seed=row.first_seed,
        )
        for s in seats:
            table.seats[s.seat] = Seat(s.seat, s.kind, s.name, s.bot_level, s.token_hash)
        return table

    def resume(self, match_seed: int | None) -> None:
        """Rebuild the match by replaying every stored hand's actions (after a restart)."""
        if self.status == "lobby" or match_seed is None:
            return
        for h in self.store.hands(self.id):
            if h.number == 1:
                wall = engine.parse_wall(self.first_wall) if self.first_wall else None
                self.match, _ = engine.start_match(self.rules, match_seed, wall)
            else:
                self.match, _ = engine.next_hand(self.match)
            if engine.hand_of(self.match).wall_hash != h.wall_hash:
                raise SgMahjongError(f"hand {h.number} does not replay to its stored wall")
            self.hand_number = h.number
            self.action_seq = 0
            for a in self.store.actions(self.id, h.number):
                self.match, _ = engine.apply(self.match, a.seat, a.action)
                self.action_seq = a.seq + 1
            self.event_seq = len(self.store.events(self.id, h.number))
        if self.match is None:
            return
        self.status = "playing"
        if engine.hand_of(self.match).ended:
            self._hand_ended(record=False)
        self._refresh_since()

    # -- summaries and views -----------------------------------------------------------------------
    def connected(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.conns)

    def _taken_over(self, seat: int) -> bool:
        """A human seat with no connection for ``takeover_seconds`` is played by a bot."""
        if self.connected(seat):
            return False
        away = self.away_since.get(seat)
        return away is None or time.monotonic() - away >= self.options.takeover_seconds

    def summary(self) -> dict[str, Any]:
        wall_hash = None
        if self.match is not None:
            wall_hash = engine.hand_of(self.match).wall_hash
        return {
            "code": self.code,
            "name": self.name,
            "private": self.private,
            "status": self.status,
            "rules": self.rules.to_dict(),
            "changed_rules": self.rules.changed_from_default(),
            "options": self.options.model_dump(),
            "seats": [
                {
                    "seat": s.seat, "name": s.name, "kind": s.kind, "bot_level": s.bot_level,
                    "connected": s.kind == "bot" or (s.kind == "human" and self.connected(s.seat)),
                    "ready": s.ready,
                }
                for s in self.seats
            ],
            "hand_number": self.hand_number,
            "wall_hash": wall_hash,
        }

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

    # -- lobby ------------------------------------------------------------------------------------
    def join(self, name: str, seat: int | None) -> tuple[int, str]:
        """Take a seat (lobby only): the seat number and its secret token. Caller holds the lock."""
        if self.status != "lobby":
            raise ProtocolError("wrong_status", "the match has started; seats can no longer be taken")
        name = _clean_name(name)
        if seat is None:
            free = [s.seat for s in self.seats if s.kind == "empty"]
            if not free:
                raise ProtocolError("seat_taken", "the table is full")
            seat = free[0]
        if not 0 <= seat <= 3:
            raise ProtocolError("bad_seat", "seat must be 0-3")
        if self.seats[seat].kind != "empty":
            raise ProtocolError("seat_taken", f"seat {seat} is taken")
        token = secrets.token_urlsafe(24)
        self.seats[seat] = Seat(seat, "human", name, None, hash_token(token))
        self.store.set_seat(self.id, self.seats[seat].row())
        self._broadcast_table()
        return seat, token

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
        self.seats[seat] = Seat(seat, "bot", f"Bot {'ESWN'[seat]} ({level})", level, None)
        self.store.set_seat(self.id, self.seats[seat].row())
        self._broadcast_table()

    def remove_bot(self, conn: Connection, seat: int) -> None:
        self._require_seated(conn, "remove_bot")
        self._require_status("lobby", "remove_bot")
        if self.seats[seat].kind != "bot":
            raise ProtocolError("bad_seat", f"seat {seat} has no bot", "remove_bot")
        self.seats[seat] = Seat(seat)
        self.store.set_seat(self.id, self.seats[seat].row())
        self._broadcast_table()

    def leave(self, conn: Connection) -> None:
        seat = self._require_seated(conn, "leave")
        self._require_status("lobby", "leave")
        self.seats[seat] = Seat(seat)
        self.store.set_seat(self.id, self.seats[seat].row())
        for c in self.conns:
            if c.seat == seat:
                c.seat = None
                c.push({"type": "welcome", "protocol": PROTOCOL_VERSION, "code": self.code, "seat": None})
        self._broadcast_table()

    def start(self, conn: Connection) -> None:
        self._require_seated(conn, "start")
        self._require_status("lobby", "start")
        for s in self.seats:
            if s.kind == "empty":
                level = self.options.bot_level
                self.seats[s.seat] = Seat(s.seat, "bot", f"Bot {'ESWN'[s.seat]} ({level})", level, None)
                self.store.set_seat(self.id, self.seats[s.seat].row())
        seed = self.first_seed if self.first_seed is not None else secrets.randbits(63)
        wall = engine.parse_wall(self.first_wall) if self.first_wall else None
        match, events = engine.start_match(self.rules, seed, wall)
        hand = engine.hand_of(match)
        self.store.start_match(
            self.id, seed, hand.seed, hand.wall_hash, [engine.full_event(e) for e in events]
        )
        self.match, self.hand_number, self.action_seq, self.event_seq = match, 1, 0, len(events)
        self.status = "playing"
        self.mark_all_away()
        self._broadcast_table()
        self._after_change(events)

    def ready(self, conn: Connection) -> None:
        seat = self._require_seated(conn, "next")
        self._require_status("between_hands", "next")
        self.seats[seat].ready = True
        self._broadcast_table()
        if self._all_ready():
            self._start_next_hand()

    def _all_ready(self) -> bool:
        humans = [s for s in self.seats if s.kind == "human" and self.connected(s.seat)]
        return bool(humans) and all(s.ready for s in humans)

    def _start_next_hand(self) -> None:
        if self.status != "between_hands":
            return
        match, events = engine.next_hand(self.match)
        number = self.hand_number + 1
        hand = engine.hand_of(match)
        self.store.add_hand(
            self.id, number, hand.seed, hand.wall_hash, [engine.full_event(e) for e in events]
        )
        self.match, self.hand_number, self.action_seq, self.event_seq = match, number, 0, len(events)
        self.status = "playing"
        for s in self.seats:
            s.ready = False
        self._broadcast_table()
        self._after_change(events)

    def _hand_ended(self, *, record: bool) -> list[Any]:
        """The current hand has ended: between hands, or the match is over (the engine's next_hand
        says so; then the finished match replaces the current one). Returns the extra events."""
        peek, extra = engine.next_hand(self.match)
        self.status = "finished" if engine.finished(peek) else "between_hands"
        if record:
            result = engine.view(self.match, None).get("result")
            self.store.end_hand(self.id, self.hand_number, result, self.status)
        if self.status == "finished":
            if record:
                self.store.add_events(
                    self.id, self.hand_number, [engine.full_event(e) for e in extra], self.event_seq
                )
                self.event_seq += len(extra)
            self.match = peek
            return extra
        return []

    # -- play -------------------------------------------------------------------------------------
    def act(self, seat: int, text: str, version: int, source: str) -> None:
        """Apply one action for ``seat`` (caller holds the lock); refuse it with a reason."""
        if self.status != "playing" or self.match is None:
            raise ProtocolError("wrong_status", f"no hand is being played (table is {self.status})", "action")
        hand = engine.hand_of(self.match)
        if version > hand.version or version < self.since[seat].version:
            raise ProtocolError(
                "stale",
                f"action sent against version {version}; the current version is {hand.version}",
                "action",
            )
        try:
            match, events = engine.apply(self.match, seat, text)
        except SgMahjongError as exc:
            raise ProtocolError("illegal", str(exc), "action") from None
        self.store.add_action(
            self.id, self.hand_number, self.action_seq, seat, engine.canonical(text, seat), version, source,
            [engine.full_event(e) for e in events], self.event_seq,
        )
        self.match = match
        self.action_seq += 1
        self.event_seq += len(events)
        self._after_change(events)

    def _after_change(self, events: list[Any]) -> None:
        hand = engine.hand_of(self.match)
        if hand.ended and self.status == "playing":
            events = [*events, *self._hand_ended(record=True)]
            for s in self.seats:
                s.ready = False
        self._refresh_since()
        self._set_deadline()
        self._broadcast(events)
        if self.status != "playing":
            self._broadcast_table()
        self._schedule()

    def _refresh_since(self) -> None:
        if self.match is None:
            return
        hand = engine.hand_of(self.match)
        now = time.monotonic()
        for seat in range(4):
            legal = tuple(engine.legal_texts(self.match, seat))
            if legal != self.since[seat].legal:
                self.since[seat] = _Since(hand.version, legal, now)

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

    # -- bots and timers ----------------------------------------------------------------------------
    def _bot_seats(self) -> list[int]:
        """Awaited seats a bot plays now: bots, and humans with no connection."""
        if self.status != "playing":
            return []
        return [
            s for s in engine.awaiting(self.match)
            if self.seats[s].kind == "bot" or self._taken_over(s)
        ]

    def _spawn(self, coro: Any) -> asyncio.Task[None]:
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("table %s: background task failed", self.code, exc_info=task.exception())

    def _schedule(self) -> None:
        """After any change: start the bots that must act and (re)arm the deadline timer."""
        if self.closed:
            return
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # no loop (e.g. resumed before the server runs): done at startup
            return
        if self._bot_seats():
            version = engine.hand_of(self.match).version
            self._spawn(self._bots_act(version))
        if self.status == "between_hands" and self._all_ready():
            self._start_next_hand()
            return
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.deadline is not None:
            self._timer = self._spawn(self._on_deadline(self.deadline))

    def schedule(self) -> None:
        """Public kick (after startup): arm the deadline and start the bots."""
        self.mark_all_away()
        if self.deadline is None:
            self._set_deadline()
        self._schedule()
        if self.options.takeover_seconds > 0 and any(s.kind == "human" for s in self.seats):
            self._spawn(self._takeover_later(self.options.takeover_seconds))

    async def _bots_act(self, version: int) -> None:
        """After ``bot_delay``, the bots awaited at ``version`` decide (in a worker thread, on the
        immutable match, so the server stays responsive) and act under the lock if nothing changed
        meanwhile. Every bot of one claim window decides at once; a turn is one decision."""
        await asyncio.sleep(self.options.bot_delay)
        if self.closed or self.status != "playing" or self._thinking == version:
            return
        match = self.match
        if engine.hand_of(match).version != version:
            return  # something changed meanwhile; that change scheduled its own bots
        seats = self._bot_seats()
        targets = seats if engine.phase(match) == "claim" else seats[:1]
        if not targets:
            return
        self._thinking = version
        try:
            choices = await asyncio.to_thread(self._choose_all, match, targets)
        finally:
            self._thinking = None
        async with self.lock:
            if self.closed or self.status != "playing" or self.match is not match:
                return
            for seat in targets:
                if self.status != "playing" or seat not in self._bot_seats():
                    break
                self._bot_act(seat, choices.get(seat))

    def _choose_all(self, match: Any, seats: list[int]) -> dict[int, str | None]:
        """Each seat's bot choice on ``match`` (None where the bot failed)."""
        out: dict[int, str | None] = {}
        for seat in seats:
            try:
                out[seat] = self._bot_choice(match, seat)
            except Exception:
                log.exception("table %s: bot failed", self.code)
                out[seat] = None
        return out

    def _bot_act(self, seat: int, choice: str | None) -> None:
        """Play the bot's choice for ``seat``; a refused or missing choice falls back to the first
        legal action (a bot bug must never stop a table)."""
        if choice is not None:
            try:
                self.act(seat, choice, engine.hand_of(self.match).version, "bot")
                return
            except ProtocolError as exc:
                log.error("table %s: bot action %r refused: %s", self.code, choice, exc.message)
        fallback = engine.legal_texts(self.match, seat)
        if fallback:
            self.act(seat, fallback[0], engine.hand_of(self.match).version, "bot")

    def _bot_choice(self, match: Any, seat: int) -> str:
        s = self.seats[seat]
        level = s.bot_level if s.kind == "bot" and s.bot_level else self.options.bot_level
        key = (seat, level)
        bot = self._bots.get(key)
        if bot is None:
            digest = hashlib.sha256(f"{self.code}:{seat}:{level}".encode()).digest()
            bot = engine.make_bot(level, int.from_bytes(digest[:4], "big"), self.rules)
            self._bots[key] = bot
        return engine.bot_choose(bot, match, seat)

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

    # -- connections ------------------------------------------------------------------------------
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

    def close(self) -> None:
        self.closed = True
        for t in list(self._tasks):
            t.cancel()


def _clean_name(name: str) -> str:
    name = " ".join(name.split())
    if not name:
        raise ProtocolError("invalid", "a name is needed")
    if len(name) > NAME_MAX:
        raise ProtocolError("invalid", f"a name has at most {NAME_MAX} characters")
    if any(not ch.isprintable() for ch in name):
        raise ProtocolError("invalid", "a name must be printable text")
    return name
