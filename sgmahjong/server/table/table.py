"""One live table: its match, its hands and the play of actions (the core of a table).

What a table owns is split by module: seats and seating (``seats.py``), connections and the fan-out
of messages (``connections.py``), deadlines (``timers.py``) and bots (``table_bots.py``), each a mixin
of :class:`Table`.

Every change of a table happens under ``table.lock`` (one message at a time). A change is first
applied to a copy (the engine is pure), then written to the store, then made current and broadcast,
so a restart (replaying the stored actions) never loses what a client was shown.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from ...errors import SgMahjongError
from ...game import SeatViews
from ...rules import RuleSet
from ..http import players
from ..options import TableOptions
from ..protocol import ProtocolError
from ..ranking import record as ranking
from ..store import SeatRow, Store, TableRow
from . import engine
from .bots import BotsMixin
from .claim_pause import PauseMixin
from .connections import Connection, FanoutMixin
from .flow_state import FlowState
from .seat_hints import HintsMixin
from .seats import NAME_MAX, Seat, SeatingMixin, bot_name, hash_token
from .timers import Deadline, Since, TimersMixin

__all__ = ["NAME_MAX", "Connection", "Deadline", "Seat", "Table", "hash_token"]

log = logging.getLogger("sgmahjong.server")


@dataclass
class Table(SeatingMixin, FanoutMixin, TimersMixin, BotsMixin, HintsMixin, PauseMixin):
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
    since: list[Since] = field(default_factory=lambda: [Since() for _ in range(4)])
    deadline: Deadline | None = None
    _tasks: set[asyncio.Task[None]] = field(default_factory=set)
    _timer: asyncio.Task[None] | None = None
    _bots: dict[tuple[int, str], Any] = field(default_factory=dict)
    away_since: dict[int, float] = field(default_factory=dict)
    _thinking: int | None = None
    _pause_version: int = -1  # the version at which the current claim window opened (claim_pause.py)
    _pause_at: float = 0.0  # when its pause ends (time.monotonic())
    closed: bool = False
    flow: FlowState = field(default_factory=FlowState)
    seat_views: SeatViews = field(default_factory=SeatViews)  # seat entries kept between versions
    player_links: dict[int, int] | None = None  # seat -> player id (players.py), None: not read yet
    seat_ranks: dict[int, dict[str, Any]] = field(default_factory=dict)  # signed-in seats: rank (players.py)
    starts_at: float | None = None  # a quick-play table starts then with bots (time.time(); matchflow.py)
    _fixed: dict[str, Any] | None = None  # the parts of the summary that never change

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
        """Rebuild the match after a restart: from the latest hand stored with a snapshot of the match at
        its start (``store.last_snapshot``), replaying only that hand's actions and those of any later
        hand; hands stored without one (before migration 0006) are replayed from the match's first hand."""
        if self.status == "lobby" or match_seed is None:
            return
        point = self.store.last_snapshot(self.id)
        since = point[0] if point is not None else 1
        stored: list[dict[str, Any]] = []
        for h in self.store.hands(self.id, since):
            secret = engine.stored_secret(h.seed)  # each hand's own secret (old hands: None)
            stored = self.store.events(self.id, h.number)
            if point is not None and h.number == point[0]:
                self.match, _ = engine.resume_match(self.rules, point[1], match_seed, secret)
            elif h.number == 1:
                wall = engine.parse_wall(self.first_wall) if self.first_wall else None
                paused = bool(stored and stored[0].get("pause_windows"))  # older matches: not paused
                self.match, _ = engine.start_match(self.rules, match_seed, wall, secret, pause_windows=paused)
            else:
                self.match, _ = engine.next_hand(self.match, secret)
            if engine.hand_of(self.match).wall_hash != h.wall_hash:
                raise SgMahjongError(f"hand {h.number} does not replay to its stored wall")
            self.hand_number = h.number
            self.action_seq = 0
            for a in self.store.actions(self.id, h.number):
                self.match, _ = engine.apply(self.match, a.seat, a.action)
                self.action_seq = a.seq + 1
            self.event_seq = len(stored)
        if self.match is None:
            return
        self.status = "playing"
        if engine.hand_of(self.match).ended:
            self._hand_ended(record=False)
        self._refresh_since()

    # -- summaries and views -----------------------------------------------------------------------

    def summary(self) -> dict[str, Any]:
        wall_hash = None
        if self.match is not None:
            wall_hash = engine.hand_of(self.match).wall_hash
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

    # -- lobby ------------------------------------------------------------------------------------

    def start(self, conn: Connection) -> None:
        self._require_seated(conn, "start")
        self._require_status("lobby", "start")
        self.begin()

    def begin(self) -> None:
        """Start the match (lobby only): empty seats get bots, hand 1 is dealt."""
        for s in self.seats:
            if s.kind == "empty":
                level = self.options.bot_level
                self.seats[s.seat] = Seat(s.seat, "bot", bot_name(level), level, None)
                self.store.set_seat(self.id, self.seats[s.seat].row())
        seed = self.first_seed if self.first_seed is not None else secrets.randbits(63)
        wall = engine.parse_wall(self.first_wall) if self.first_wall else None
        match, events = engine.start_match(self.rules, seed, wall, self._hand_secret(), pause_windows=True)
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

    def _hand_secret(self) -> str | None:
        """A fresh OS secret for each hand (RULES.md §2); a table given a test seed derives its hands'
        seeds from it instead (reproducible tests)."""
        return None if self.first_seed is not None else engine.fresh_secret()

    def _start_next_hand(self) -> None:
        if self.status != "between_hands":
            return
        match, events = engine.next_hand(self.match, self._hand_secret())
        number = self.hand_number + 1
        hand = engine.hand_of(match)
        self.store.add_hand(
            self.id, number, hand.seed, hand.wall_hash, [engine.full_event(e) for e in events],
            engine.snapshot(match),
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
            players.record_hand(self, self.hand_number, engine.hand_of(self.match),
                                [s.kind for s in self.seats])
        if self.status == "finished":
            if record:
                self.store.add_events(
                    self.id, self.hand_number, [engine.full_event(e) for e in extra], self.event_seq
                )
                self.event_seq += len(extra)
                ranking.match_over(self, peek, [s.kind for s in self.seats])
            self.match = peek
            return extra
        return []

    # -- play -------------------------------------------------------------------------------------
    def act(self, seat: int, text: str, version: int, source: str) -> None:
        """Apply one action for ``seat`` (caller holds the lock); refuse it with a reason."""
        if self.status != "playing" or self.match is None:
            raise ProtocolError("wrong_status", f"no hand is being played (table is {self.status})", "action")
        hand = engine.hand_of(self.match)
        if engine.is_close(text) and source != "table":
            raise ProtocolError("illegal", "closing a claim window is the table's own step", "action")
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
        self._pause_claims()
        self._broadcast(events)
        self._push_hints()
        if self.status != "playing":
            self._broadcast_table()
        self._schedule()

    # -- tasks ----------------------------------------------------------------------------------------

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
        self._pause_claims()
        self._schedule()
        if self.options.takeover_seconds > 0 and any(s.kind == "human" for s in self.seats):
            self._spawn(self._takeover_later(self.options.takeover_seconds))

    def close(self) -> None:
        self.closed = True
        for t in list(self._tasks):
            t.cancel()


