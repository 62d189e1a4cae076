"""Persistence in SQLite (stdlib ``sqlite3``): tables, seats, hands, their actions and event logs.

Every write commits at once (write-through), so a restart loses nothing that a client was told.
A table is resumed by replaying its hands' action logs with the engine (see ``table.py``).
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DEFAULT_DATABASE = "data/sgmahjong.sqlite3"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    code TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    private INTEGER NOT NULL,
    rules TEXT NOT NULL,
    options TEXT NOT NULL,
    status TEXT NOT NULL,
    first_wall TEXT,
    first_seed INTEGER,
    match_seed INTEGER,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    table_id INTEGER NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,
    name TEXT,
    bot_level TEXT,
    token_hash TEXT,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS hands (
    table_id INTEGER NOT NULL REFERENCES tables(id),
    number INTEGER NOT NULL,
    seed TEXT NOT NULL,
    wall_hash TEXT,
    started REAL NOT NULL,
    ended REAL,
    result TEXT,
    PRIMARY KEY (table_id, number)
);
CREATE TABLE IF NOT EXISTS actions (
    table_id INTEGER NOT NULL REFERENCES tables(id),
    hand INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    version INTEGER NOT NULL,
    source TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (table_id, hand, seq)
);
CREATE TABLE IF NOT EXISTS events (
    table_id INTEGER NOT NULL REFERENCES tables(id),
    hand INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    event TEXT NOT NULL,
    PRIMARY KEY (table_id, hand, seq)
);
"""


def database_path(url: str | None = None) -> str:
    """The SQLite file named by ``url`` (``sqlite:///path``, a bare path, or ``:memory:``), else
    ``$DATABASE_URL``, else ``./data/sgmahjong.sqlite3``."""
    url = url or os.environ.get("DATABASE_URL") or DEFAULT_DATABASE
    if url.startswith("sqlite:///"):
        return url[len("sqlite:///"):] or ":memory:"
    if url.startswith("sqlite://"):
        rest = url[len("sqlite://"):]
        return rest or ":memory:"
    if "://" in url:
        raise ValueError(f"only sqlite databases are supported; got {url!r}")
    return url


@dataclass
class SeatRow:
    seat: int
    kind: str  # empty | human | bot
    name: str | None
    bot_level: str | None
    token_hash: str | None


@dataclass
class TableRow:
    id: int
    code: str
    name: str
    private: bool
    rules: dict[str, Any]
    options: dict[str, Any]
    status: str
    first_wall: str | None
    first_seed: int | None
    match_seed: int | None
    created: float


@dataclass
class HandRow:
    number: int
    seed: str
    wall_hash: str | None
    ended: float | None


@dataclass
class ActionRow:
    hand: int
    seq: int
    seat: int
    action: str
    version: int
    source: str


class Store:
    """One SQLite database. Safe to call from one event loop (a lock guards the connection)."""

    def __init__(self, path: str) -> None:
        self.path = path
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _write(self, sql: str, params: tuple[Any, ...]) -> sqlite3.Cursor:
        with self._lock:
            return self._db.execute(sql, params)

    def _read(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._db.execute(sql, params).fetchall()

    # -- tables -------------------------------------------------------------------------------
    def create_table(
        self, code: str, name: str, private: bool, rules: dict[str, Any], options: dict[str, Any],
        first_wall: str | None = None, first_seed: int | None = None,
    ) -> int:
        with self._lock:
            self._db.execute("BEGIN")
            try:
                cur = self._db.execute(
                    "INSERT INTO tables (code, name, private, rules, options, status, first_wall,"
                    " first_seed, created) VALUES (?, ?, ?, ?, ?, 'lobby', ?, ?, ?)",
                    (code, name, int(private), json.dumps(rules), json.dumps(options), first_wall,
                     first_seed, time.time()),
                )
                table_id = int(cur.lastrowid or 0)
                for seat in range(4):
                    self._db.execute(
                        "INSERT INTO seats (table_id, seat, kind) VALUES (?, ?, 'empty')", (table_id, seat)
                    )
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return table_id

    def tables(self, table_id: int | None = None) -> list[TableRow]:
        """Every table (or the one of ``table_id``), oldest first."""
        where = "" if table_id is None else f" WHERE id = {int(table_id)}"
        rows = self._read(
            "SELECT id, code, name, private, rules, options, status, first_wall, first_seed, match_seed,"
            f" created FROM tables{where} ORDER BY id"
        )
        return [
            TableRow(r[0], r[1], r[2], bool(r[3]), json.loads(r[4]), json.loads(r[5]), r[6], r[7], r[8], r[9],
                     r[10])
            for r in rows
        ]

    def set_status(self, table_id: int, status: str) -> None:
        self._write("UPDATE tables SET status = ? WHERE id = ?", (status, table_id))

    def start_match(self, table_id: int, match_seed: int, hand_seed: int | str, wall_hash: str,
                    events: list[dict[str, Any]]) -> None:
        """Record the start of play: the match seed, hand 1 and its first events, status playing."""
        with self._lock:
            self._db.execute("BEGIN")
            try:
                self._db.execute(
                    "UPDATE tables SET status = 'playing', match_seed = ? WHERE id = ?",
                    (match_seed, table_id),
                )
                self._insert_hand(table_id, 1, hand_seed, wall_hash, events)
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    # -- seats --------------------------------------------------------------------------------
    def seats(self, table_id: int) -> list[SeatRow]:
        rows = self._read(
            "SELECT seat, kind, name, bot_level, token_hash FROM seats WHERE table_id = ? ORDER BY seat",
            (table_id,),
        )
        return [SeatRow(*r) for r in rows]

    def set_seat(self, table_id: int, row: SeatRow) -> None:
        self._write(
            "UPDATE seats SET kind = ?, name = ?, bot_level = ?, token_hash = ?"
            " WHERE table_id = ? AND seat = ?",
            (row.kind, row.name, row.bot_level, row.token_hash, table_id, row.seat),
        )

    # -- hands, actions, events ---------------------------------------------------------------
    def add_hand(self, table_id: int, number: int, seed: int | str, wall_hash: str,
                 events: list[dict[str, Any]]) -> None:
        """Record a new hand with its seed: the hand secret (revealed when it ends), or an integer seed
        derived from the match seed (test tables, old matches)."""
        with self._lock:
            self._db.execute("BEGIN")
            try:
                self._db.execute("UPDATE tables SET status = 'playing' WHERE id = ?", (table_id,))
                self._insert_hand(table_id, number, seed, wall_hash, events)
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def _insert_hand(self, table_id: int, number: int, seed: int | str, wall_hash: str,
                     events: list[dict[str, Any]]) -> None:
        self._db.execute(
            "INSERT INTO hands (table_id, number, seed, wall_hash, started) VALUES (?, ?, ?, ?, ?)",
            (table_id, number, str(seed), wall_hash, time.time()),
        )
        self._insert_events(table_id, number, events, 0)

    def end_hand(self, table_id: int, number: int, result: Any, status: str) -> None:
        """Record a hand's result and the table's new status (between_hands or finished)."""
        with self._lock:
            self._db.execute("BEGIN")
            try:
                self._db.execute(
                    "UPDATE hands SET ended = ?, result = ? WHERE table_id = ? AND number = ?",
                    (time.time(), json.dumps(result), table_id, number),
                )
                self._db.execute("UPDATE tables SET status = ? WHERE id = ?", (status, table_id))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def hands(self, table_id: int) -> list[HandRow]:
        rows = self._read(
            "SELECT number, seed, wall_hash, ended FROM hands WHERE table_id = ? ORDER BY number", (table_id,)
        )
        return [HandRow(*r) for r in rows]

    def add_action(
        self, table_id: int, hand: int, seq: int, seat: int, action: str, version: int, source: str,
        events: list[dict[str, Any]], first_event_seq: int,
    ) -> None:
        """Record one applied action and the events it produced, in one transaction."""
        with self._lock:
            self._db.execute("BEGIN")
            try:
                self._db.execute(
                    "INSERT INTO actions (table_id, hand, seq, seat, action, version, source, at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (table_id, hand, seq, seat, action, version, source, time.time()),
                )
                self._insert_events(table_id, hand, events, first_event_seq)
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def add_events(self, table_id: int, hand: int, events: list[dict[str, Any]], first_seq: int) -> None:
        with self._lock:
            self._insert_events(table_id, hand, events, first_seq)

    def _insert_events(self, table_id: int, hand: int, events: list[dict[str, Any]], first_seq: int) -> None:
        for i, ev in enumerate(events):
            self._db.execute(
                "INSERT INTO events (table_id, hand, seq, event) VALUES (?, ?, ?, ?)",
                (table_id, hand, first_seq + i, json.dumps(ev)),
            )

    def actions(self, table_id: int, hand: int) -> list[ActionRow]:
        rows = self._read(
            "SELECT hand, seq, seat, action, version, source FROM actions WHERE table_id = ? AND hand = ?"
            " ORDER BY seq",
            (table_id, hand),
        )
        return [ActionRow(*r) for r in rows]

    def events(self, table_id: int, hand: int) -> list[dict[str, Any]]:
        rows = self._read(
            "SELECT event FROM events WHERE table_id = ? AND hand = ? ORDER BY seq", (table_id, hand)
        )
        return [json.loads(r[0]) for r in rows]
