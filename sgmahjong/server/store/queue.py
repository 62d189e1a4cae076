"""The store's ranked queue: entries of waiting accounts, matched into tables of four by whichever
worker gets to them first.

:meth:`match_queue` takes the waiting entries in one transaction, on PostgreSQL with
``FOR UPDATE SKIP LOCKED`` (the rows another worker is matching at that moment are skipped, never
waited for, and never taken twice), groups them by rating (a window that widens with the oldest
entry's wait) and marks each group matched; the worker then opens the table and records where each
entry sits (:meth:`seat_queue`). A group whose worker died before seating it returns to the queue
after ``MATCH_GRACE`` seconds. SQLite has one process, so one matcher.
"""

from __future__ import annotations

import abc
from dataclasses import dataclass
from typing import Any

from .hooks import SqlHooks
from .identity_sql import Sighting

MATCH_GRACE = 15.0  # seconds a matched group may wait for its table before it is queued again


@dataclass
class QueueEntry:
    id: int
    ticket_hash: str
    account_id: int
    player_id: int
    name: str
    rating: float
    joined: float
    status: str  # waiting | matched
    table_code: str | None = None
    seat: int | None = None


class QueueMethods(abc.ABC):
    """The queue part of :class:`~.base.Store`."""

    @abc.abstractmethod
    def enqueue(self, entry: QueueEntry, now: float) -> None:
        """Queue the account (its earlier entry, if any, is replaced)."""

    @abc.abstractmethod
    def queue_entry(self, ticket_hash: str, now: float) -> QueueEntry | None:
        """The entry of a ticket (its wait renewed: an entry not asked about for a while is dropped)."""

    @abc.abstractmethod
    def leave_queue(self, ticket_hash: str) -> bool: ...

    @abc.abstractmethod
    def queue_size(self, now: float, stale: float) -> int:
        """How many are waiting."""

    @abc.abstractmethod
    def match_queue(self, now: float, window: float, widen: float, stale: float,
                    worker: str, alt_window: float = 0.0) -> list[list[QueueEntry]]:
        """Take groups of four waiting entries whose ratings are within the oldest one's window
        (``window + widen * seconds waited``), marked matched by ``worker``; never two accounts seen
        on one device, or from one address within ``alt_window`` seconds (:func:`kept_apart`)."""

    @abc.abstractmethod
    def seat_queue(self, entry_id: int, table_code: str, seat: int) -> None: ...

    @abc.abstractmethod
    def queue_waits(self, since: float, most: int) -> list[float]:
        """How long the latest ``most`` entries matched since ``since`` waited (seconds, newest first):
        the queue's estimate of a wait (counts only, never who)."""

    @abc.abstractmethod
    def accounts_online(self, since: float) -> int:
        """How many accounts have a session used since ``since`` (a session's use is written at most
        every few minutes: identity.TOUCH_SECONDS)."""


_ENTRY = "id, ticket_hash, account_id, player_id, name, rating, joined, status, table_code, seat"


def _entry(r: tuple[Any, ...]) -> QueueEntry:
    return QueueEntry(int(r[0]), r[1], int(r[2]), int(r[3]), r[4], float(r[5]), float(r[6]), r[7], r[8],
                      None if r[9] is None else int(r[9]))


def kept_apart(sightings: list[Sighting], now: float, alt_window: float) -> set[frozenset[int]]:
    """The pairs of accounts the queue never seats together: seen on one device (a session lineage,
    ever), or from one address within ``alt_window`` seconds of now."""
    by_value: dict[tuple[str, str], set[int]] = {}
    for s in sightings:
        if s.kind == "device" or s.last_seen >= now - alt_window:
            by_value.setdefault((s.kind, s.value), set()).add(s.account_id)
    return {frozenset((a, b)) for ids in by_value.values() for a in ids for b in ids if a < b}


def groups_of_four(waiting: list[QueueEntry], now: float, window: float,
                   widen: float, apart: set[frozenset[int]] | None = None) -> list[list[QueueEntry]]:
    """Oldest first: each entry with three others, the four closest in rating (the narrowest run of
    four, in rating order, that holds it; of runs as narrow, one with a multiple of four below it, so
    the rest can still form fours), if their spread is within its window. No two accounts of a pair in
    ``apart`` (:func:`kept_apart`) are grouped: the run is taken among the entries that may sit with
    the oldest, and a run holding such a pair is passed over."""
    apart = apart or set()

    def fits(group: list[QueueEntry]) -> bool:
        return not any(frozenset((a.account_id, b.account_id)) in apart
                       for i, a in enumerate(group) for b in group[i + 1:])

    left = list(waiting)  # oldest first
    out = []
    while left:
        head = left[0]
        reach = window + widen * max(0.0, now - head.joined)
        ranked = sorted((e for e in left if e is head or fits([head, e])), key=lambda e: (e.rating, e.joined))
        at = ranked.index(head)
        starts = [i for i in range(max(0, at - 3), min(at, len(ranked) - 4) + 1) if fits(ranked[i:i + 4])]
        best_start = min(starts, key=lambda i: (ranked[i + 3].rating - ranked[i].rating, i % 4 != 0),
                         default=None)
        if best_start is not None:
            best: list[QueueEntry] | None = ranked[best_start:best_start + 4]
        else:  # every run holds a pair kept apart: the nearest in rating that may all sit together
            best = [head]
            for e in sorted(ranked, key=lambda e: abs(e.rating - head.rating)):
                if e is not head and len(best) < 4 and fits([*best, e]):
                    best.append(e)
            best = sorted(best, key=lambda e: e.rating) if len(best) == 4 else None
        if best is not None and best[-1].rating - best[0].rating <= reach:
            out.append([head, *(e for e in best if e is not head)])
            left = [e for e in left if e not in best]
        else:
            left = left[1:]
    return out


class SqlQueue(SqlHooks, QueueMethods):
    """The SQL of :class:`QueueMethods` (mixed into :class:`~.sql.SqlStore`)."""

    #: appended to the SELECT of the waiting entries: PostgreSQL locks the rows it takes and skips the
    #: rows another worker has locked; SQLite has one process
    skip_locked: str = ""

    def enqueue(self, entry: QueueEntry, now: float) -> None:
        with self._tx():
            self._run("DELETE FROM queue_entries WHERE account_id = ?", (entry.account_id,))
            self._run("INSERT INTO queue_entries (ticket_hash, account_id, player_id, name, rating, joined,"
                      " heartbeat, status) VALUES (?, ?, ?, ?, ?, ?, ?, 'waiting')",
                      (entry.ticket_hash, entry.account_id, entry.player_id, entry.name, entry.rating, now,
                       now))

    def queue_entry(self, ticket_hash: str, now: float) -> QueueEntry | None:
        with self._tx():
            rows = self._run("UPDATE queue_entries SET heartbeat = ? WHERE ticket_hash = ?"
                             f" RETURNING {_ENTRY}", (now, ticket_hash))
        return _entry(rows[0]) if rows else None

    def leave_queue(self, ticket_hash: str) -> bool:
        with self._tx():
            rows = self._run("DELETE FROM queue_entries WHERE ticket_hash = ? AND status = 'waiting'"
                             " RETURNING id", (ticket_hash,))
        return bool(rows)

    def queue_size(self, now: float, stale: float) -> int:
        rows = self._read("SELECT COUNT(*) FROM queue_entries WHERE status = 'waiting' AND heartbeat > ?",
                          (now - stale,))
        return int(rows[0][0])

    def match_queue(self, now: float, window: float, widen: float, stale: float,
                    worker: str, alt_window: float = 0.0) -> list[list[QueueEntry]]:
        with self._tx():
            # a group whose worker died before seating it waits again; a player gone quiet leaves
            self._run("UPDATE queue_entries SET status = 'waiting', worker = NULL, matched_at = NULL"
                      " WHERE status = 'matched' AND table_code IS NULL AND matched_at < ?",
                      (now - MATCH_GRACE,))
            self._run("DELETE FROM queue_entries WHERE status = 'waiting' AND heartbeat <= ?", (now - stale,))
            rows = self._run(f"SELECT {_ENTRY} FROM queue_entries WHERE status = 'waiting'"
                             f" ORDER BY joined, id{self.skip_locked}")
            waiting = [_entry(r) for r in rows]
            ids = tuple({e.account_id for e in waiting}) or (-1,)
            seen = self._run("SELECT account_id, kind, value, first_seen, last_seen FROM account_sightings"
                             f" WHERE account_id IN ({', '.join('?' * len(ids))})", ids)
            apart = kept_apart([Sighting(int(r[0]), r[1], r[2], float(r[3]), float(r[4])) for r in seen],
                               now, alt_window)
            groups = groups_of_four(waiting, now, window, widen, apart)
            for group in groups:
                for e in group:
                    self._run("UPDATE queue_entries SET status = 'matched', worker = ?, matched_at = ?"
                              " WHERE id = ?", (worker, now, e.id))
                    e.status = "matched"
        return groups

    def seat_queue(self, entry_id: int, table_code: str, seat: int) -> None:
        with self._tx():
            self._run("UPDATE queue_entries SET table_code = ?, seat = ? WHERE id = ?",
                      (table_code, seat, entry_id))

    def queue_waits(self, since: float, most: int) -> list[float]:
        rows = self._read("SELECT matched_at - joined FROM queue_entries WHERE status = 'matched'"
                          " AND table_code IS NOT NULL AND matched_at > ? ORDER BY matched_at DESC LIMIT ?",
                          (since, most))
        return [max(0.0, float(r[0])) for r in rows]

    def accounts_online(self, since: float) -> int:
        rows = self._read("SELECT COUNT(DISTINCT account_id) FROM sessions WHERE account_id IS NOT NULL"
                          " AND last_seen > ?", (since,))
        return int(rows[0][0])
