"""The SQL every backend shares: the :class:`~.base.Store` methods written once, over a few hooks
(run a statement, begin/commit/rollback, take/drop a table's lock) that ``sqlite.py`` and
``postgres.py`` fill in. Statements use ``?`` placeholders; a backend translates them if it must.

Adding a store method: write it here once (a write as ``_w_NAME`` plus the public method calling it
in :meth:`_tx`; add NAME to :data:`~.base.BATCHABLE` if a batch may hold it), declare it on
:class:`~.base.Store`, and add a migration file per dialect in ``migrations/`` if it needs a new
column or table. Only SQL that truly differs between dialects becomes a hook.
"""

from __future__ import annotations

import abc
import contextlib
import json
import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

from ..metrics import ACTIONS, STORE_WRITE
from .accounts import SqlAccounts
from .base import (
    BATCHABLE,
    ActionRow,
    HandRow,
    LeaseLost,
    SeatRow,
    Store,
    TableRow,
    Write,
)
from .club_live_sql import SqlClubLive
from .club_ticks_sql import SqlTicks
from .clubs_sql import SqlClubs
from .events_sql import SqlEvents
from .identity_sql import SqlIdentity
from .players_sql import SqlPlayers
from .push_sql import SqlPush
from .queue import SqlQueue
from .ratings import SqlRatings
from .reviews_sql import SqlReviews
from .talk_sql import TalkSql

MIGRATIONS = Path(__file__).parent / "migrations"

_TABLE_COLUMNS = (
    "id, code, name, private, rules, options, status, first_wall, first_seed, match_seed, created"
)


def default_worker() -> str:
    """This process's name in the log of actions: ``$SGMAHJONG_WORKER``, else host-pid."""
    return os.environ.get("SGMAHJONG_WORKER") or f"{socket.gethostname()}-{os.getpid()}"


def statements(script: str) -> list[str]:
    """The statements of a migration file (``--`` comments dropped, split at ``;``)."""
    lines = [line for line in script.splitlines() if not line.lstrip().startswith("--")]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]


def _event_text(event: dict[str, Any]) -> str:
    """An event as stored: compact JSON (orjson: every action stores its events; ``json`` for what
    orjson refuses, e.g. an integer wider than 64 bits)."""
    try:
        return orjson.dumps(event, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:  # orjson.JSONEncodeError
        return json.dumps(event)


def _table_row(r: tuple[Any, ...]) -> TableRow:
    return TableRow(
        int(r[0]), r[1], r[2], bool(r[3]), json.loads(r[4]), json.loads(r[5]), r[6], r[7],
        None if r[8] is None else int(r[8]), None if r[9] is None else int(r[9]), float(r[10]),
    )


class SqlStore(SqlClubs, SqlClubLive, SqlTicks, SqlPush, SqlIdentity, SqlPlayers, SqlAccounts, SqlRatings,
               SqlQueue, SqlReviews, TalkSql, SqlEvents, Store):
    """The shared implementation. A subclass sets :attr:`dialect` (its ``migrations/`` folder),
    opens its connection, then calls :meth:`_migrate`."""

    dialect: str = ""

    def __init__(self, worker: str | None = None) -> None:
        self.worker = worker or default_worker()
        self._lock = threading.RLock()
        self._epochs: dict[int, int] = {}  # owned table -> lease number

    # -- hooks --------------------------------------------------------------------------------------
    @abc.abstractmethod
    def _run(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """Execute one statement (``?`` placeholders); its rows (empty if it returns none)."""

    def _run_many(self, sql: str, rows: list[tuple[Any, ...]]) -> None:
        """Execute one statement that returns no rows once for each of ``rows`` (a backend may send
        them together)."""
        for params in rows:
            self._run(sql, params)

    @abc.abstractmethod
    def _begin(self) -> None: ...

    @abc.abstractmethod
    def _commit(self) -> None: ...

    @abc.abstractmethod
    def _rollback(self) -> None: ...

    @abc.abstractmethod
    def _try_lock(self, table_id: int) -> bool:
        """Take this process's hold on ``table_id`` in the database (False if another has it)."""

    @abc.abstractmethod
    def _unlock(self, table_id: int) -> None: ...

    def _migration_lock(self) -> None:
        """Inside the migration transaction: keep other processes from migrating at the same time."""

    # -- plumbing -----------------------------------------------------------------------------------
    @contextlib.contextmanager
    def _tx(self) -> Iterator[None]:
        with self._lock:
            start = time.perf_counter()
            self._begin()
            try:
                yield
            except BaseException:
                self._rollback()
                raise
            self._commit()
            STORE_WRITE.observe(time.perf_counter() - start)

    def _read(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._run(sql, params)

    def _migrate(self) -> None:
        """Apply the dialect's migration files not yet recorded in ``schema_version``, in order,
        in one transaction."""
        files = sorted((MIGRATIONS / self.dialect).glob("*.sql"))
        with self._tx():
            self._migration_lock()
            self._run(
                "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
                " applied DOUBLE PRECISION NOT NULL)"
            )
            done = {int(r[0]) for r in self._run("SELECT version FROM schema_version")}
            for path in files:
                version = int(path.name.split("_", 1)[0])
                if version in done:
                    continue
                for sql in statements(path.read_text(encoding="utf-8")):
                    self._run(sql)
                self._run(
                    "INSERT INTO schema_version (version, name, applied) VALUES (?, ?, ?)",
                    (version, path.stem, time.time()),
                )

    def schema_version(self) -> int:
        rows = self._read("SELECT MAX(version) FROM schema_version")
        return int(rows[0][0] or 0)

    def _guard(self, table_id: int) -> None:
        if not self.owns(table_id):
            raise LeaseLost(table_id)

    # -- ownership ----------------------------------------------------------------------------------
    def claim(self, table_id: int) -> bool:
        with self._lock:
            if table_id in self._epochs:
                return True
            if not self._try_lock(table_id):
                return False
            try:
                with self._tx():
                    rows = self._run(
                        "INSERT INTO leases (table_id, worker, epoch, acquired) VALUES (?, ?, 1, ?)"
                        " ON CONFLICT (table_id) DO UPDATE SET worker = excluded.worker,"
                        " epoch = leases.epoch + 1, acquired = excluded.acquired RETURNING epoch",
                        (table_id, self.worker, time.time()),
                    )
            except BaseException:
                with contextlib.suppress(Exception):
                    self._unlock(table_id)
                raise
            self._epochs[table_id] = int(rows[0][0])
            return True

    def release(self, table_id: int) -> None:
        with self._lock:
            if self._epochs.pop(table_id, None) is not None:
                self._unlock(table_id)

    def owned(self) -> set[int]:
        with self._lock:
            return set(self._epochs)

    def owns(self, table_id: int) -> bool:
        return table_id in self._epochs

    def want(self, table_id: int) -> None:
        with self._tx():
            self._run("UPDATE leases SET wanted = ? WHERE table_id = ?", (time.time(), table_id))

    def wanted(self) -> set[int]:
        rows = self._read(
            "SELECT table_id FROM leases WHERE worker = ? AND wanted IS NOT NULL AND wanted > acquired",
            (self.worker,),
        )
        return {int(r[0]) for r in rows} & self.owned()

    def heartbeat(self) -> set[int]:
        with contextlib.suppress(Exception):  # a lost session has emptied the owned set
            self._read("SELECT 1")
        return self.owned()

    # -- tables -------------------------------------------------------------------------------------
    def create_table(
        self, code: str, name: str, private: bool, rules: dict[str, Any], options: dict[str, Any],
        first_wall: str | None = None, first_seed: int | None = None,
    ) -> int:
        with self._tx():
            rows = self._run(
                "INSERT INTO tables (code, name, private, rules, options, status, first_wall,"
                " first_seed, created) VALUES (?, ?, ?, ?, ?, 'lobby', ?, ?, ?) RETURNING id",
                (code, name, int(private), json.dumps(rules), json.dumps(options), first_wall,
                 first_seed, time.time()),
            )
            table_id = int(rows[0][0])
            for seat in range(4):
                self._run("INSERT INTO seats (table_id, seat, kind) VALUES (?, ?, 'empty')", (table_id, seat))
        self.claim(table_id)
        return table_id

    def tables(self, table_id: int | None = None) -> list[TableRow]:
        if table_id is None:
            rows = self._read(f"SELECT {_TABLE_COLUMNS} FROM tables ORDER BY id")
        else:
            rows = self._read(f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,))
        return [_table_row(r) for r in rows]

    def live_tables(self) -> list[TableRow]:
        rows = self._read(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE status NOT IN ('finished', 'closed') ORDER BY id"
        )
        return [_table_row(r) for r in rows]

    def open_tables(self, offset: int, limit: int) -> tuple[list[TableRow], int]:
        where = "WHERE private = 0 AND status IN ('lobby', 'playing', 'between_hands')"
        total = int(self._read(f"SELECT COUNT(*) FROM tables {where}")[0][0])
        rows = self._read(
            f"SELECT {_TABLE_COLUMNS} FROM tables {where}"
            " ORDER BY CASE WHEN status = 'lobby' THEN 0 ELSE 1 END, id DESC LIMIT ? OFFSET ?",
            (limit, offset),
        )
        return [_table_row(r) for r in rows], total

    def waiting_tables(self, limit: int) -> list[TableRow]:
        def seats(kind: str) -> str:
            return f"(SELECT COUNT(*) FROM seats WHERE seats.table_id = tables.id AND seats.kind = '{kind}')"

        rows = self._read(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE private = 0 AND status = 'lobby'"
            f" AND {seats('human')} > 0 AND {seats('empty')} > 0 ORDER BY {seats('empty')}, id LIMIT ?",
            (limit,),
        )
        return [_table_row(r) for r in rows]

    def table_by_code(self, code: str) -> TableRow | None:
        rows = self._read(f"SELECT {_TABLE_COLUMNS} FROM tables WHERE code = ?", (code,))
        return _table_row(rows[0]) if rows else None

    def set_status(self, table_id: int, status: str) -> None:
        with self._tx():
            self._w_set_status(table_id, status)

    def _w_set_status(self, table_id: int, status: str) -> None:
        self._guard(table_id)
        self._run("UPDATE tables SET status = ? WHERE id = ?", (status, table_id))

    def start_match(self, table_id: int, match_seed: int, hand_seed: int | str, wall_hash: str,
                    events: list[dict[str, Any]]) -> None:
        with self._tx():
            self._w_start_match(table_id, match_seed, hand_seed, wall_hash, events)

    def _w_start_match(self, table_id: int, match_seed: int, hand_seed: int | str, wall_hash: str,
                       events: list[dict[str, Any]]) -> None:
        self._guard(table_id)
        self._run("UPDATE tables SET status = 'playing', match_seed = ? WHERE id = ?", (match_seed, table_id))
        self._insert_hand(table_id, 1, hand_seed, wall_hash, events)

    # -- seats --------------------------------------------------------------------------------------
    def seats(self, table_id: int) -> list[SeatRow]:
        rows = self._read(
            "SELECT seat, kind, name, bot_level, token_hash FROM seats WHERE table_id = ? ORDER BY seat",
            (table_id,),
        )
        return [SeatRow(*r) for r in rows]

    def set_seat(self, table_id: int, row: SeatRow) -> None:
        with self._tx():
            self._w_set_seat(table_id, row)

    def _w_set_seat(self, table_id: int, row: SeatRow) -> None:
        self._guard(table_id)
        self._run(
            "UPDATE seats SET kind = ?, name = ?, bot_level = ?, token_hash = ?"
            " WHERE table_id = ? AND seat = ?",
            (row.kind, row.name, row.bot_level, row.token_hash, table_id, row.seat),
        )

    # -- hands, actions, events ---------------------------------------------------------------------
    def add_hand(self, table_id: int, number: int, seed: int | str, wall_hash: str,
                 events: list[dict[str, Any]], snapshot: dict[str, Any] | None = None) -> None:
        with self._tx():
            self._w_add_hand(table_id, number, seed, wall_hash, events, snapshot)

    def _w_add_hand(self, table_id: int, number: int, seed: int | str, wall_hash: str,
                    events: list[dict[str, Any]], snapshot: dict[str, Any] | None = None) -> None:
        self._guard(table_id)
        self._run("UPDATE tables SET status = 'playing' WHERE id = ?", (table_id,))
        self._insert_hand(table_id, number, seed, wall_hash, events, snapshot)

    def _insert_hand(self, table_id: int, number: int, seed: int | str, wall_hash: str,
                     events: list[dict[str, Any]], snapshot: dict[str, Any] | None = None) -> None:
        self._run(
            "INSERT INTO hands (table_id, number, seed, wall_hash, started, snapshot)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (table_id, number, str(seed), wall_hash, time.time(),
             None if snapshot is None else json.dumps(snapshot)),
        )
        self._insert_events(table_id, number, events, 0)

    def end_hand(self, table_id: int, number: int, result: Any, status: str) -> None:
        with self._tx():
            self._w_end_hand(table_id, number, result, status)

    def _w_end_hand(self, table_id: int, number: int, result: Any, status: str) -> None:
        self._guard(table_id)
        self._run(
            "UPDATE hands SET ended = ?, result = ? WHERE table_id = ? AND number = ?",
            (time.time(), json.dumps(result), table_id, number),
        )
        self._run("UPDATE tables SET status = ? WHERE id = ?", (status, table_id))

    def hands(self, table_id: int, since: int = 1) -> list[HandRow]:
        rows = self._read(
            "SELECT number, seed, wall_hash, ended FROM hands WHERE table_id = ? AND number >= ?"
            " ORDER BY number",
            (table_id, since),
        )
        return [HandRow(*r) for r in rows]

    def last_snapshot(self, table_id: int) -> tuple[int, dict[str, Any]] | None:
        rows = self._read(
            "SELECT number, snapshot FROM hands WHERE table_id = ? AND snapshot IS NOT NULL"
            " ORDER BY number DESC LIMIT 1",
            (table_id,),
        )
        return (int(rows[0][0]), json.loads(rows[0][1])) if rows else None

    def add_action(
        self, table_id: int, hand: int, seq: int, seat: int, action: str, version: int, source: str,
        events: list[dict[str, Any]], first_event_seq: int,
    ) -> None:
        with self._tx():
            self._w_add_action(table_id, hand, seq, seat, action, version, source, events, first_event_seq)

    def _w_add_action(
        self, table_id: int, hand: int, seq: int, seat: int, action: str, version: int, source: str,
        events: list[dict[str, Any]], first_event_seq: int,
    ) -> None:
        rows = _ActionRows()
        rows.add(self, table_id, hand, seq, seat, action, version, source, events, first_event_seq)
        rows.insert(self)

    def add_events(self, table_id: int, hand: int, events: list[dict[str, Any]], first_seq: int) -> None:
        with self._tx():
            self._w_add_events(table_id, hand, events, first_seq)

    def _w_add_events(self, table_id: int, hand: int, events: list[dict[str, Any]], first_seq: int) -> None:
        self._guard(table_id)
        self._insert_events(table_id, hand, events, first_seq)

    def _insert_events(self, table_id: int, hand: int, events: list[dict[str, Any]], first_seq: int) -> None:
        if events:
            self._run_many(INSERT_EVENT, _event_rows(table_id, hand, events, first_seq))

    def actions(self, table_id: int, hand: int) -> list[ActionRow]:
        rows = self._read(
            "SELECT hand, seq, seat, action, version, source, worker, lease FROM actions"
            " WHERE table_id = ? AND hand = ? ORDER BY seq",
            (table_id, hand),
        )
        return [ActionRow(*r) for r in rows]

    def events(self, table_id: int, hand: int) -> list[dict[str, Any]]:
        rows = self._read(
            "SELECT event FROM events WHERE table_id = ? AND hand = ? ORDER BY seq", (table_id, hand)
        )
        return [json.loads(r[0]) for r in rows]

    # -- group commit -------------------------------------------------------------------------------
    def write_batch(self, writes: list[Write]) -> None:
        for w in writes:
            if w.method not in BATCHABLE:
                raise ValueError(f"{w.method!r} cannot be batched; batchable: {sorted(BATCHABLE)}")
        with self._tx():
            rows = _ActionRows()  # the batch's actions and their events: two statements for all of them
            for w in writes:
                if w.method == "add_action" and not w.kwargs:
                    rows.add(self, *w.args)
                    continue
                rows.insert(self)  # before any other write, in order
                getattr(self, "_w_" + w.method)(*w.args, **dict(w.kwargs))
            rows.insert(self)


INSERT_ACTION = ("INSERT INTO actions (table_id, hand, seq, seat, action, version, source, at, worker, lease)"
                 " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
INSERT_EVENT = "INSERT INTO events (table_id, hand, seq, event) VALUES (?, ?, ?, ?)"


def _event_rows(table_id: int, hand: int, events: list[dict[str, Any]],
                first_seq: int) -> list[tuple[Any, ...]]:
    """The rows of ``events`` (numbered from ``first_seq``) for INSERT_EVENT."""
    return [(table_id, hand, first_seq + i, _event_text(ev)) for i, ev in enumerate(events)]


class _ActionRows:
    """Actions (and their events) to insert: each kind in one ``executemany`` for a whole batch."""

    __slots__ = ("actions", "events", "sources")

    def __init__(self) -> None:
        self.actions: list[tuple[Any, ...]] = []
        self.events: list[tuple[Any, ...]] = []
        self.sources: list[str] = []

    def add(self, store: SqlStore, table_id: int, hand: int, seq: int, seat: int, action: str, version: int,
            source: str, events: list[dict[str, Any]], first_event_seq: int) -> None:
        """Queue one action of a table this process owns (else :class:`LeaseLost`, as any write)."""
        store._guard(table_id)
        self.actions.append((table_id, hand, seq, seat, action, version, source, time.time(), store.worker,
                             store._epochs.get(table_id, 0)))
        self.events.extend(_event_rows(table_id, hand, events, first_event_seq))
        self.sources.append(source)

    def insert(self, store: SqlStore) -> None:
        if self.actions:
            store._run_many(INSERT_ACTION, self.actions)
            if self.events:
                store._run_many(INSERT_EVENT, self.events)
            for source in self.sources:
                ACTIONS.labels(source).inc()
            self.actions, self.events, self.sources = [], [], []
