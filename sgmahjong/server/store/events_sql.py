"""The store's events (migrations 0041 and 0042, docs/events.md): an event, its entrants (players), the tables
of each round, a duplicate round's walls (each hand's secret and commitment), and what the standings are
computed from: the results of the ended hands at the event's tables (:meth:`event_hands`)."""

from __future__ import annotations

import abc
import json
from dataclasses import dataclass
from typing import Any

from .hooks import SqlHooks

OPEN, RUNNING, FINISHED = "open", "running", "finished"


@dataclass
class EventRow:
    id: int
    code: str  # the event's address (/event/CODE): random
    name: str
    owner: int  # the player who made it
    format: str  # swiss | round_robin | duplicate
    rounds: int
    hands: int  # hands a round
    absent: str  # zero | bot: what an absent entrant's seat counts
    preset: str  # the house rules of its tables
    options: dict[str, Any]  # the table options of its tables (timers, pace, bots)
    status: str  # open | running | finished
    round: int  # the round under way, or the last one played (0: none yet)
    created: float
    starts: float | None = None  # when its first round begins by itself (None: the organiser starts it)
    zone: str = "Asia/Singapore"  # the time zone its start was given in
    entry: str = "open"  # open | club (the members of club_id) | code (whoever has the join code)
    club_id: int | None = None
    join_hash: str | None = None  # the join code's SHA-256 (entry code)


@dataclass
class EntrantRow:
    player_id: int
    name: str
    entered: float


@dataclass
class EventTableRow:
    round: int
    table_no: int
    table_id: int
    code: str
    status: str  # the table's: lobby, playing, between_hands, finished, ...


@dataclass
class EventWallRow:
    round: int
    hand: int  # counted from 0
    secret: str
    wall_hash: str


@dataclass
class EventHandRow:
    """An ended hand at an event's table: its result (the hand's JSON result), which seats acted
    themselves (a human's action) and which seats a bot played."""

    table_id: int
    number: int  # from 1
    wall_hash: str | None
    result: dict[str, Any]
    human: set[int]
    bot: set[int]


class EventMethods(abc.ABC):
    """The events part of :class:`~.base.Store`."""

    @abc.abstractmethod
    def create_event(self, code: str, name: str, owner: int, fmt: str, rounds: int, hands: int, absent: str,
                     preset: str, options: dict[str, Any], when: float, *, starts: float | None = None,
                     zone: str = "Asia/Singapore", entry: str = "open", club_id: int | None = None,
                     join_hash: str | None = None) -> int: ...

    @abc.abstractmethod
    def event(self, code: str) -> EventRow | None: ...

    @abc.abstractmethod
    def player_events(self, player_ids: list[int], limit: int) -> list[tuple[EventRow, bool]]:
        """The latest ``limit`` events these players organised or entered, newest first, each with
        whether they organised it."""

    @abc.abstractmethod
    def running_events(self) -> list[EventRow]:
        """The events under way (status running)."""

    @abc.abstractmethod
    def due_events(self, now: float) -> list[EventRow]:
        """The open events whose start time has come (``starts <= now``)."""

    @abc.abstractmethod
    def unschedule_event(self, event_id: int) -> bool:
        """Forget an open event's start time (it could not begin then: the organiser starts it)."""

    @abc.abstractmethod
    def set_event_join_hash(self, event_id: int, join_hash: str) -> None:
        """A new join code's hash for the event (the old code stops working)."""

    @abc.abstractmethod
    def enter_event(self, event_id: int, player_id: int, when: float) -> bool:
        """Add an entrant (only while the event is open); False if they had entered or it is not open."""

    @abc.abstractmethod
    def leave_event(self, event_id: int, player_id: int) -> bool: ...

    @abc.abstractmethod
    def event_entrants(self, event_id: int) -> list[EntrantRow]:
        """The entrants in entry order (their current names)."""

    @abc.abstractmethod
    def begin_round(self, event_id: int, round_: int, tables: list[tuple[int, int]],
                    walls: list[tuple[int, str, str]]) -> bool:
        """Record round ``round_``'s tables (table number, table id) and walls (hand, secret, hash) and
        make it the event's round, if the event's round is ``round_ - 1`` (so two workers never begin
        the same round: the second gets False and nothing is written)."""

    @abc.abstractmethod
    def end_event(self, event_id: int, round_: int) -> bool:
        """Mark the event finished after its last round ``round_`` (False: done already)."""

    @abc.abstractmethod
    def event_tables(self, event_id: int) -> list[EventTableRow]:
        """Every table of the event, by round and table number."""

    @abc.abstractmethod
    def event_walls(self, event_id: int) -> list[EventWallRow]: ...

    @abc.abstractmethod
    def table_secrets(self, table_id: int) -> list[str] | None:
        """The secrets of the hands of a duplicate event's table, hand 1 first (None: not one)."""

    @abc.abstractmethod
    def event_hands(self, event_id: int) -> list[EventHandRow]:
        """Every ended hand at the event's tables."""


_EVENT = ("id, code, name, owner, format, rounds, hands, absent, preset, options, status, round, created,"
          " starts, zone, entry, club_id, join_hash")


def _event(r: tuple[Any, ...]) -> EventRow:
    return EventRow(int(r[0]), str(r[1]), str(r[2]), int(r[3]), str(r[4]), int(r[5]), int(r[6]), str(r[7]),
                    str(r[8]), json.loads(r[9]), str(r[10]), int(r[11]), float(r[12]),
                    None if r[13] is None else float(r[13]), str(r[14]), str(r[15]),
                    None if r[16] is None else int(r[16]), None if r[17] is None else str(r[17]))


class SqlEvents(SqlHooks, EventMethods):
    """The SQL of :class:`EventMethods` (mixed into :class:`~.sql.SqlStore`)."""

    def create_event(self, code: str, name: str, owner: int, fmt: str, rounds: int, hands: int, absent: str,
                     preset: str, options: dict[str, Any], when: float, *, starts: float | None = None,
                     zone: str = "Asia/Singapore", entry: str = "open", club_id: int | None = None,
                     join_hash: str | None = None) -> int:
        with self._tx():
            rows = self._run("INSERT INTO tournaments (code, name, owner, format, rounds, hands, absent,"
                             " preset, options, status, round, created, starts, zone, entry, club_id,"
                             " join_hash)"
                             " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?) RETURNING id",
                             (code, name, owner, fmt, rounds, hands, absent, preset, json.dumps(options),
                              OPEN, when, starts, zone, entry, club_id, join_hash))
        return int(rows[0][0])

    def event(self, code: str) -> EventRow | None:
        rows = self._read(f"SELECT {_EVENT} FROM tournaments WHERE code = ?", (code,))
        return _event(rows[0]) if rows else None

    def player_events(self, player_ids: list[int], limit: int) -> list[tuple[EventRow, bool]]:
        got = tuple(player_ids) or (-1,)
        marks = ", ".join("?" * len(got))
        columns = ", ".join(f"t.{c.strip()}" for c in _EVENT.split(","))
        rows = self._read(f"SELECT {columns} FROM tournaments t WHERE t.owner IN ({marks}) OR t.id IN"
                          f" (SELECT event_id FROM tournament_entrants WHERE player_id IN ({marks}))"
                          " ORDER BY t.created DESC, t.id DESC LIMIT ?", (*got, *got, limit))
        return [(e, e.owner in got) for e in map(_event, rows)]

    def running_events(self) -> list[EventRow]:
        rows = self._read(f"SELECT {_EVENT} FROM tournaments WHERE status = ? ORDER BY id", (RUNNING,))
        return [_event(r) for r in rows]

    def due_events(self, now: float) -> list[EventRow]:
        rows = self._read(f"SELECT {_EVENT} FROM tournaments WHERE status = ? AND starts IS NOT NULL"
                          " AND starts <= ? ORDER BY starts, id", (OPEN, now))
        return [_event(r) for r in rows]

    def unschedule_event(self, event_id: int) -> bool:
        with self._tx():
            rows = self._run("UPDATE tournaments SET starts = NULL WHERE id = ? AND status = ? RETURNING id",
                             (event_id, OPEN))
        return bool(rows)

    def set_event_join_hash(self, event_id: int, join_hash: str) -> None:
        with self._tx():
            self._run("UPDATE tournaments SET join_hash = ? WHERE id = ?", (join_hash, event_id))

    def enter_event(self, event_id: int, player_id: int, when: float) -> bool:
        with self._tx():
            if not self._run("SELECT 1 FROM tournaments WHERE id = ? AND status = ?", (event_id, OPEN)):
                return False
            rows = self._run("INSERT INTO tournament_entrants (event_id, player_id, entered) VALUES (?, ?, ?)"
                             " ON CONFLICT (event_id, player_id) DO NOTHING RETURNING player_id",
                             (event_id, player_id, when))
        return bool(rows)

    def leave_event(self, event_id: int, player_id: int) -> bool:
        with self._tx():
            if not self._run("SELECT 1 FROM tournaments WHERE id = ? AND status = ?", (event_id, OPEN)):
                return False
            rows = self._run("DELETE FROM tournament_entrants WHERE event_id = ? AND player_id = ?"
                             " RETURNING player_id", (event_id, player_id))
        return bool(rows)

    def event_entrants(self, event_id: int) -> list[EntrantRow]:
        rows = self._read("SELECT e.player_id, COALESCE(a.name, p.name), e.entered FROM tournament_entrants e"
                          " JOIN players p ON p.id = e.player_id LEFT JOIN accounts a ON a.id = p.account_id"
                          " WHERE e.event_id = ? ORDER BY e.entered, e.player_id", (event_id,))
        return [EntrantRow(int(r[0]), str(r[1]), float(r[2])) for r in rows]

    def begin_round(self, event_id: int, round_: int, tables: list[tuple[int, int]],
                    walls: list[tuple[int, str, str]]) -> bool:
        with self._tx():
            claimed = self._run("UPDATE tournaments SET round = ?, status = ? WHERE id = ? AND round = ?"
                                " AND status <> ? RETURNING id",
                                (round_, RUNNING, event_id, round_ - 1, FINISHED))
            if not claimed:
                return False
            for number, table_id in tables:
                self._run("INSERT INTO tournament_tables (event_id, round, table_no, table_id)"
                          " VALUES (?, ?, ?, ?)", (event_id, round_, number, table_id))
            for hand, secret, wall_hash in walls:
                self._run("INSERT INTO tournament_walls (event_id, round, hand, secret, wall_hash)"
                          " VALUES (?, ?, ?, ?, ?)", (event_id, round_, hand, secret, wall_hash))
        return True

    def end_event(self, event_id: int, round_: int) -> bool:
        with self._tx():
            rows = self._run("UPDATE tournaments SET status = ? WHERE id = ? AND round = ? AND status = ?"
                             " RETURNING id", (FINISHED, event_id, round_, RUNNING))
        return bool(rows)

    def event_tables(self, event_id: int) -> list[EventTableRow]:
        rows = self._read("SELECT et.round, et.table_no, et.table_id, t.code, t.status"
                          " FROM tournament_tables et JOIN tables t ON t.id = et.table_id"
                          " WHERE et.event_id = ? ORDER BY et.round, et.table_no", (event_id,))
        return [EventTableRow(int(r[0]), int(r[1]), int(r[2]), str(r[3]), str(r[4])) for r in rows]

    def event_walls(self, event_id: int) -> list[EventWallRow]:
        rows = self._read("SELECT round, hand, secret, wall_hash FROM tournament_walls WHERE event_id = ?"
                          " ORDER BY round, hand", (event_id,))
        return [EventWallRow(int(r[0]), int(r[1]), str(r[2]), str(r[3])) for r in rows]

    def table_secrets(self, table_id: int) -> list[str] | None:
        rows = self._read("SELECT w.secret FROM tournament_tables et JOIN tournament_walls w"
                          " ON w.event_id = et.event_id AND w.round = et.round WHERE et.table_id = ?"
                          " ORDER BY w.hand", (table_id,))
        return [str(r[0]) for r in rows] or None

    def event_hands(self, event_id: int) -> list[EventHandRow]:
        rows = self._read("SELECT h.table_id, h.number, h.wall_hash, h.result FROM tournament_tables et"
                          " JOIN hands h ON h.table_id = et.table_id WHERE et.event_id = ?"
                          " AND h.result IS NOT NULL AND h.ended IS NOT NULL ORDER BY h.table_id, h.number",
                          (event_id,))
        acts = self._read("SELECT a.table_id, a.hand, a.seat, a.source FROM tournament_tables et"
                          " JOIN actions a ON a.table_id = et.table_id WHERE et.event_id = ?"
                          " AND a.source IN ('human', 'bot') GROUP BY a.table_id, a.hand, a.seat, a.source",
                          (event_id,))
        by: dict[tuple[int, int], tuple[set[int], set[int]]] = {}
        for table_id, hand, seat, source in acts:
            human, bot = by.setdefault((int(table_id), int(hand)), (set(), set()))
            (human if source == "human" else bot).add(int(seat))
        out = []
        for r in rows:
            result = json.loads(r[3]) if isinstance(r[3], str) else r[3]
            if not isinstance(result, dict):
                continue
            human, bot = by.get((int(r[0]), int(r[1])), (set(), set()))
            out.append(EventHandRow(int(r[0]), int(r[1]), None if r[2] is None else str(r[2]), result,
                                    human, bot))
        return out
