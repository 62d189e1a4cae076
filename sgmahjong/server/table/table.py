"""One live table: its match and hands, the play of actions, and the parts it is made of.

A :class:`Table` holds its parts as fields, each a plain class that gets only what it uses:
``seating`` (:mod:`.seats`), ``fanout`` (connections and what each is sent, :mod:`.connections`),
``deadlines`` (:mod:`.timers`), ``bots`` (the bot driver, :mod:`.bots`), ``pause`` (the claim-window
pause, :mod:`.claim_pause`), ``hints`` (:mod:`.seat_hints`), ``records`` (players' history,
:mod:`.records`) and ``chat`` (:mod:`.chat`).

Every change of a table happens under ``table.lock`` (one message at a time) and has one commit path
(:meth:`Table.act`): the action is applied to a copy (the engine is pure), written to the store, made
current, then sent. Whatever fails after the change is committed (hints, the fan-out, the schedule)
is logged once and the rest goes on: the change stays, the client is answered, and the table's bots
and timers are armed again (:meth:`Table.after_change`). A restart (replaying the stored actions)
never loses what a client was shown.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from ...errors import SgMahjongError
from ...game import Event
from ...rules import RuleSet
from ..options import TableOptions
from ..protocol import PROTOCOL_VERSION, ProtocolError
from ..ranking.record import RankedPolicy
from ..store import SeatRow, Store, TableRow
from . import engine, owners
from .bots import BotDriver
from .chat import TableChat
from .claim_pause import ClaimPause, lone_human
from .connections import Connection, Fanout
from .flow_state import FlowState
from .records import PlayerRecords
from .restore import stored_match
from .seat_hints import SeatHints
from .seats import Seat, Seating
from .tasks import Tasks
from .timers import Deadlines

log = logging.getLogger("sgmahjong.server")

LIVE = ("playing", "between_hands")


@dataclass(eq=False)
class Table:
    """A table's live state. Build with :meth:`from_rows` (and :meth:`resume`)."""

    store: Store
    id: int
    code: str
    name: str
    private: bool
    rules: RuleSet
    options: TableOptions
    status: str = "lobby"
    first_wall: str | None = None
    first_seed: int | None = None
    match: engine.Match | None = None
    hand_number: int = 0
    action_seq: int = 0
    event_seq: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    closed: bool = False
    flow: FlowState = field(default_factory=FlowState)
    seat_ranks: dict[int, dict[str, Any]] = field(default_factory=dict)  # signed-in seats: rank (players.py)
    starts_at: float | None = None  # a quick-play table starts then with bots (time.time(); matchflow.py)
    _fixed: dict[str, Any] | None = None  # the parts of the summary that never change
    ranked: RankedPolicy | None = None  # which matches are rated (None: none; the server's settings)
    retry_seconds: float = 2.0  # a step that failed to store is tried again this long after
    hand_secrets: list[str] = field(default_factory=list)  # a duplicate event's secrets, hand 1 first
    expert: engine.ExpertLimits | None = None  # an expert bot's search limits (the server's settings)

    def __post_init__(self) -> None:
        self._tasks = Tasks(self.code)
        self.seating = Seating(lambda row: self.store.set_seat(self.id, row))
        self.fanout = Fanout()
        self.deadlines = Deadlines(self, self.options)
        self.bots = BotDriver(self, self.rules, self.options, lambda: lone_human(self.seats), self.expert)
        self.pause = ClaimPause(self, self.options, lambda: lone_human(self.seats))
        self.hints = SeatHints(self.rules)
        self.records = PlayerRecords(self.store, self.id)
        self.chat = TableChat(self)

    @property
    def seats(self) -> list[Seat]:
        return self.seating.seats

    @seats.setter
    def seats(self, seats: list[Seat]) -> None:
        self.seating.seats = seats

    @property
    def conns(self) -> set[Connection]:
        return self.fanout.conns

    # -- construction ------------------------------------------------------------------------------
    @classmethod
    def from_rows(cls, store: Store, row: TableRow, seats: list[SeatRow], *, ranked: RankedPolicy | None,
                  retry_seconds: float, expert: engine.ExpertLimits | None = None) -> Table:
        table = cls(store=store, id=row.id, code=row.code, name=row.name, private=row.private,
                    rules=RuleSet.from_dict(row.rules), options=TableOptions.parse(row.options),
                    status=row.status, first_wall=row.first_wall, first_seed=row.first_seed,
                    ranked=ranked, retry_seconds=retry_seconds, expert=expert)
        for s in seats:
            table.seating.load(Seat(s.seat, s.kind, s.name, s.bot_level, s.token_hash))
        return table

    def resume(self, match_seed: int | None) -> None:
        """Rebuild the match after a restart from what was stored (:func:`.restore.stored_match`)."""
        if self.status == "lobby" or match_seed is None:
            return
        found = stored_match(self.store, self.id, self.rules, self.first_wall, match_seed)
        if found is None:
            return
        match, self.hand_number, self.action_seq, self.event_seq = found
        self.match = match
        self.status = "playing"
        if engine.hand_of(match).ended:
            self._hand_ended(match, record=False)
        self.deadlines.refresh_since(self.match)

    # -- summaries and views -----------------------------------------------------------------------
    def summary(self) -> dict[str, Any]:
        wall_hash = engine.hand_of(self.match).wall_hash if self.match is not None else None
        if self._fixed is None:
            self._fixed = {
                "rules": self.rules.to_dict(),
                "changed_rules": self.rules.changed_from_default(),
                "options": self.options.model_dump(),
            }
        return {
            "code": self.code,
            "name": self.name,
            "private": self.private,
            "status": self.status,
            **self._fixed,
            "seats": [
                {
                    "seat": s.seat, "name": s.name, "kind": s.kind, "bot_level": s.bot_level,
                    "connected": s.kind == "bot" or (s.kind == "human" and self.connected(s.seat)),
                    "ready": s.ready, "rank": self.seat_ranks.get(s.seat) if s.kind == "human" else None,
                }
                for s in self.seats
            ],
            "hand_number": self.hand_number,
            "wall_hash": wall_hash,
            "rematch": self.flow.summary(),
            "starts_in": (None if self.starts_at is None or self.status != "lobby"
                          else round(max(0.0, self.starts_at - time.time()), 1)),
        }

    def connected(self, seat: int) -> bool:
        return self.fanout.connected(seat)

    def view_message(self, seat: int | None) -> dict[str, Any]:
        assert self.match is not None
        return self.fanout.view_message(self.match, self.status, seat, self.deadlines.timer(seat))

    def broadcast_table(self) -> None:
        self.fanout.push_all({"type": "table", "table": self.summary()})

    # -- lobby (the caller holds the lock) -----------------------------------------------------------
    def require_seated(self, conn: Connection, ref: str) -> int:
        if conn.seat is None:
            raise ProtocolError("not_seated", "only a seated player may do this (send your token in hello)",
                                ref)
        return conn.seat

    def require_status(self, status: str, ref: str | None, message: str | None = None) -> None:
        if self.status != status:
            raise ProtocolError("wrong_status", message or f"not possible while the table is {self.status}",
                                ref)

    def join(self, name: str, seat: int | None, player_id: int | None = None,
             max_marks: int | None = None) -> tuple[int, str]:
        """Take a seat (lobby only) for ``player_id``, who has no other here (:mod:`.owners`): the seat
        number and its secret token (``max_marks``: Seating.join)."""
        self.require_status("lobby", None, "the match has started; seats can no longer be taken")
        if player_id is not None and owners.seat_of(self, [player_id]) is not None:
            raise ProtocolError("already_seated", "you already have a seat at this table")
        taken = self.seating.join(name, seat, max_marks)
        if player_id is not None:
            self.store.link_seat_player(self.id, taken[0], player_id)
            self.records.forget()
        self.broadcast_table()
        return taken

    def _in_lobby(self, conn: Connection, ref: str) -> int:  # a seated player's seat, in the lobby
        seat = self.require_seated(conn, ref)
        self.require_status("lobby", ref)
        return seat

    def add_bot(self, conn: Connection, seat: int | None, level: str) -> None:
        self._in_lobby(conn, "add_bot")
        self.seating.add_bot(seat, level)
        self.broadcast_table()

    def remove_bot(self, conn: Connection, seat: int) -> None:
        self._in_lobby(conn, "remove_bot")
        self.seating.remove_bot(seat)
        self.broadcast_table()

    def leave(self, conn: Connection) -> None:
        seat = self._in_lobby(conn, "leave")
        self.seating.empty(seat)
        for c in self.conns:
            if c.seat == seat:
                c.seat = None
                c.push({"type": "welcome", "protocol": PROTOCOL_VERSION, "code": self.code, "seat": None})
        self.broadcast_table()

    def start(self, conn: Connection) -> None:
        self._in_lobby(conn, "start")
        self.begin()

    def begin(self) -> None:
        """Start the match (lobby only): empty seats get bots, hand 1 is dealt."""
        self.seating.fill_with_bots(self.options.bot_level)
        seed = self.first_seed if self.first_seed is not None else secrets.randbits(63)
        wall = engine.parse_wall(self.first_wall) if self.first_wall else None
        match, events = engine.start_match(self.rules, seed, wall, self._hand_secret(), pause_windows=True)
        hand = engine.hand_of(match)
        self.store.start_match(
            self.id, seed, engine.hand_seed(match), hand.wall_hash, [engine.full_event(e) for e in events]
        )
        self.match, self.hand_number, self.action_seq, self.event_seq = match, 1, 0, len(events)
        self.status = "playing"
        self.mark_all_away()
        self.broadcast_table()
        self.after_change(events, ("the first deal",))

    def ready(self, conn: Connection) -> None:
        seat = self.require_seated(conn, "next")
        self.require_status("between_hands", "next")
        self.seats[seat].ready = True
        self.broadcast_table()
        if self._all_ready():
            self.next_hand()

    def humans_here(self) -> bool:
        """A human seat has a connection."""
        return any(s.kind == "human" and self.connected(s.seat) for s in self.seats)

    def _all_ready(self) -> bool:
        humans = [s for s in self.seats if s.kind == "human" and self.connected(s.seat)]
        return bool(humans) and all(s.ready for s in humans)

    def _hand_secret(self) -> str | None:
        """A fresh OS secret per hand (RULES.md §2) or a duplicate event's (docs/events.md), else a seed's."""
        if self.hand_number < len(self.hand_secrets):
            return self.hand_secrets[self.hand_number]
        return None if self.first_seed is not None else engine.fresh_secret()

    def next_hand(self) -> None:
        """Deal the next hand (between hands only)."""
        if self.status != "between_hands" or self.match is None:
            return
        match, events = engine.next_hand(self.match, self._hand_secret())
        number = self.hand_number + 1
        hand = engine.hand_of(match)
        self.store.add_hand(
            self.id, number, engine.hand_seed(match), hand.wall_hash, [engine.full_event(e) for e in events],
            engine.snapshot(match),
        )
        self.match, self.hand_number, self.action_seq, self.event_seq = match, number, 0, len(events)
        self.status = "playing"
        self.seating.not_ready()
        self.broadcast_table()
        self.after_change(events, ("the deal of hand", number))

    def _hand_ended(self, match: engine.Match, *, record: bool) -> list[Event]:
        """The current hand has ended: between hands, or the match is over (the engine's next_hand
        says so; then the finished match replaces the current one). Returns the extra events."""
        peek, extra = engine.next_hand(match)
        self.status = "finished" if engine.finished(peek) else "between_hands"
        if record:
            result = engine.view(match, None).get("result")
            self.store.end_hand(self.id, self.hand_number, result, self.status)
            kinds = [s.kind for s in self.seats]
            self._guarded("the players' records", ("the end of hand", self.hand_number),
                          self.records.record_hand, self.hand_number, engine.hand_of(match), kinds)
        if self.status == "finished":
            if record:
                self.store.add_events(self.id, self.hand_number, [engine.full_event(e) for e in extra],
                                      self.event_seq)
                self.event_seq += len(extra)
                if self.ranked is not None:
                    self._guarded("the match's rating", ("the end of the match", self.hand_number),
                                  self.ranked.match_over, self, peek, [s.kind for s in self.seats])
            self.match = peek
            return extra
        return []

    # -- play: the commit path ------------------------------------------------------------------------
    def act(self, seat: int, text: str, version: int, source: str) -> None:
        """Apply one action for ``seat`` (caller holds the lock); refuse it with a reason. Once it is
        stored, nothing that follows raises (see :meth:`after_change`)."""
        if self.status != "playing" or self.match is None:
            raise ProtocolError("wrong_status", f"no hand is being played (table is {self.status})", "action")
        hand = engine.hand_of(self.match)
        if engine.is_close(text) and source != "table":
            raise ProtocolError("illegal", "closing a claim window is the table's own step", "action")
        if version > hand.version or version < self.deadlines.since[seat].version:
            raise ProtocolError(
                "stale",
                f"action sent against version {version}; the current version is {hand.version}",
                "action",
            )
        try:
            match, events = engine.apply(self.match, seat, text)  # 1. applied to a copy
        except SgMahjongError as exc:
            raise ProtocolError("illegal", str(exc), "action") from None
        self.store.add_action(  # 2. stored
            self.id, self.hand_number, self.action_seq, seat, engine.canonical(text, seat), version, source,
            [engine.full_event(e) for e in events], self.event_seq,
        )
        self.match = match  # 3. made current
        self.action_seq += 1
        self.event_seq += len(events)
        self.after_change(events, (source, "action", text, "of seat", seat))  # 4. sent, scheduled

    def after_change(self, events: list[Event], what: tuple[object, ...]) -> None:
        """Everything after a committed change, each step on its own: a step that fails is logged once
        (with the table and ``what`` was committed) and the next steps still run; the schedule is
        tried again later if it failed, and a failed fan-out sends each connection its whole view."""
        match = self.match
        assert match is not None
        if engine.hand_of(match).ended and self.status == "playing":
            events = [*events, *self._hand_ended(match, record=True)]
            self.seating.not_ready()
        self._guarded("the deadline", what, self._refresh_deadline)
        self._guarded("the claim pause", what, self.pause.after_change, self.fanout.watched)
        if not self._guarded("the fan-out", what, self._broadcast, events) and self.match is not None:
            self.fanout.resend_views(self.match, self.status, self.deadlines.timer)
        self._guarded("the hints", what, self._push_hints)
        if self.status != "playing":
            self._guarded("the table summary", what, self.broadcast_table)
        if not self._guarded("the schedule", what, self._schedule):
            self.retry_later()

    def _guarded(self, step: str, what: tuple[object, ...], run: Callable[..., None], *args: Any) -> bool:
        """Run one step after a committed change (``what``); False, logged once, if it failed."""
        try:
            run(*args)
            return True
        except Exception:
            log.exception("table %s: %s failed after %s (the change stays; the table goes on)",
                          self.code, step, " ".join(map(str, what)))
            return False

    def _refresh_deadline(self) -> None:
        self.deadlines.refresh_since(self.match)
        self._set_deadline()

    def _set_deadline(self) -> None:
        playing = self.status == "playing"
        waiting = [] if playing else [s.seat for s in self.seats if s.kind == "human" and not s.ready]
        self.deadlines.set(self.status, self.match, waiting)

    def _broadcast(self, events: list[Event]) -> None:
        if self.match is not None:
            self.fanout.broadcast(self.match, self.status, events, self.deadlines.timer)

    def _push_hints(self) -> None:
        seats = [s for s in self.fanout.hello_seats() if self.seats[s].kind == "human"]
        if seats and self.match is not None:
            self.hints.push(self.match, self.status, self.hand_number, seats, self.fanout.push_seat)

    # -- connections ----------------------------------------------------------------------------------
    def hello(self, conn: Connection, token: str | None, player_ids: tuple[int, ...] = ()) -> None:
        """A socket says who it is: its seat (:func:`.owners.seat_at_hello`), else a spectator."""
        conn.seat = seat = owners.seat_at_hello(self, token, player_ids)
        conn.hello = True
        conn.push({"type": "welcome", "protocol": PROTOCOL_VERSION, "code": self.code, "seat": seat})
        self.broadcast_table()
        if self.match is not None:
            self.fanout.send_log(conn, self.hand_number, self.store.events(self.id, self.hand_number))
            if seat is not None and self.seats[seat].kind == "human":
                self._guarded("the hints", ("the hello of seat", seat), self._hello_hints, conn, seat)
        self._renew_results_delay()  # before the view, so the view shows the timer it will run
        if self.match is not None:
            self.fanout.send_view(conn, self.view_message(conn.seat))
        self._schedule_after_connection()

    def _hello_hints(self, conn: Connection, seat: int) -> None:
        assert self.match is not None
        data = self.hints.for_seat(self.match, self.status, self.hand_number, seat)
        if data is not None:
            conn.push({"type": "hints", "hints": data})

    def disconnect(self, conn: Connection) -> None:
        if self.fanout.leave(conn) and self.options.takeover_seconds > 0 and not self.closed:
            self.spawn(self._takeover_later(self.options.takeover_seconds))
        if conn.seat is not None:
            self.broadcast_table()
            self._schedule_after_connection()

    def mark_all_away(self) -> None:
        """At startup every human is away (they reconnect within ``takeover_seconds``)."""
        self.fanout.mark_away(self.seating.humans())

    def _taken_over(self, seat: int) -> bool:
        """A human seat with no connection for ``takeover_seconds`` is played by a bot."""
        if self.connected(seat):
            return False
        away = self.fanout.away_since.get(seat)
        return away is None or time.monotonic() - away >= self.options.takeover_seconds

    async def _takeover_later(self, seconds: float) -> None:
        await asyncio.sleep(seconds + 0.01)
        async with self.lock:
            if not self.closed:
                self._schedule_after_connection()

    def _schedule_after_connection(self) -> None:
        if self.status == "playing" and self.match is not None and self.bot_seats():
            self.spawn(self.bots.run(engine.hand_of(self.match).version))
        elif self.status == "between_hands":
            self._renew_results_delay()
            self._schedule()

    def _renew_results_delay(self) -> None:
        """Between hands, a fresh delay for whoever comes back (the last ran out while nobody was here)."""
        if self.status == "between_hands" and self.deadlines.results_expired():
            self._set_deadline()

    # -- bots (what the bot driver asks) ---------------------------------------------------------------
    def bot_seats(self) -> list[int]:
        """Awaited seats a bot plays now: bots, and humans with no connection."""
        if self.status != "playing" or self.match is None:
            return []
        return [s for s in engine.awaiting(self.match) if self.seats[s].kind == "bot" or self._taken_over(s)]

    def bot_level(self, seat: int) -> str:
        s = self.seats[seat]
        return s.bot_level if s.kind == "bot" and s.bot_level else self.options.bot_level

    # -- tasks ----------------------------------------------------------------------------------------
    def spawn(self, coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        return self._tasks.spawn(coro)

    def _schedule(self) -> None:
        """After any change: start the bots that must act and (re)arm the deadline timer."""
        if self.closed:
            return
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # no loop (e.g. resumed before the server runs): done at startup
            return
        if self.match is not None and self.bot_seats():
            self.spawn(self.bots.run(engine.hand_of(self.match).version))
        if self.status == "between_hands" and self._all_ready():
            self.next_hand()
            return
        self.deadlines.arm()

    def retry_later(self) -> None:
        """Bots and timers go on after a failed step: the table is scheduled again a while later."""
        if not self.closed:
            self.spawn(self._retry(self.retry_seconds))

    async def _retry(self, seconds: float) -> None:
        await asyncio.sleep(seconds)
        async with self.lock:
            if not self.closed and not self._guarded("the retry", ("a failed step",), self.rearm):
                self.retry_later()

    def rearm(self) -> None:
        """Start the bots, the claim pause and the timer again (after a failed step or a stall)."""
        if self.deadlines.current is None:
            self._set_deadline()
        self.pause.after_change(self.fanout.watched)
        self._schedule()

    def schedule(self) -> None:
        """Public kick (after startup): arm the deadline and start the bots."""
        self.mark_all_away()
        self.rearm()
        if self.options.takeover_seconds > 0 and any(s.kind == "human" for s in self.seats):
            self.spawn(self._takeover_later(self.options.takeover_seconds))

    def stalled(self) -> bool:
        """No task is pending, yet a bot must act, a window may close, a deadline or all are ready."""
        if self.closed or self._tasks or self.match is None or self.status not in LIVE:
            return False
        if self.status == "between_hands":
            return self.deadlines.current is not None or self._all_ready()
        return bool(self.bot_seats()) or engine.closable(self.match) or self.deadlines.current is not None

    def close(self) -> None:
        self.closed = True
        self._tasks.cancel_all()
