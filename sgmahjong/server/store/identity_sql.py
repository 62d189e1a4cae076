"""The store's visitors: every visitor is a player with a server-side session (docs/security.md).

A guest is a player without an account; an account owns the players that signed in to it. A session
belongs to one player (and, signed in, to that player's account); it carries its device's *lineage*
(an id kept when the session is replaced at sign-in and sign-out) and the address it was last used
from. Each account's devices (lineages, hashed) and addresses are kept as *sightings*, which the ranked
queue reads to keep one person's accounts apart and the operator reads to see who plays with whom.
Session ids arrive here already hashed; nothing secret is stored.
"""

from __future__ import annotations

import abc
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .hooks import SqlHooks

DELETED_NAME = "a deleted player"


@dataclass
class SessionRow:
    id_hash: str
    player_id: int
    account_id: int | None
    lineage: str
    address: str
    created: float
    expires: float
    last_seen: float
    label: str


@dataclass
class Sighting:
    account_id: int
    kind: str  # "device" (a session lineage, hashed) or "address"
    value: str
    first_seen: float
    last_seen: float


class IdentityMethods(abc.ABC):
    """The visitors part of :class:`~.base.Store` (see the module docstring)."""

    @abc.abstractmethod
    def new_guest(self, name: str = "") -> int:
        """A new player without an account; its id."""

    @abc.abstractmethod
    def adopt_secret(self, secret_hash: str) -> int | None:
        """The player of an old browser-held secret, once: the secret is forgotten (it opens nothing
        again). None when no guest player has it (unknown, adopted already, or an account's)."""

    @abc.abstractmethod
    def player_name(self, player_id: int) -> str | None:
        """A live player's display name (None: no such player, or deleted)."""

    @abc.abstractmethod
    def rename_player(self, player_id: int, name: str) -> None: ...

    @abc.abstractmethod
    def player_account(self, player_id: int) -> int | None:
        """The account the player belongs to, if any."""

    @abc.abstractmethod
    def add_session(self, row: SessionRow, keep: int) -> None:
        """A session; a signed-in account's oldest beyond ``keep`` are ended."""

    @abc.abstractmethod
    def session(self, id_hash: str, now: float) -> SessionRow | None:
        """The session of ``id_hash`` if it has not expired."""

    @abc.abstractmethod
    def touch_session(self, id_hash: str, now: float, expires: float, address: str) -> None: ...

    @abc.abstractmethod
    def sessions(self, account_id: int, now: float) -> list[SessionRow]:
        """The account's live sessions, newest first."""

    @abc.abstractmethod
    def end_session(self, id_hash: str) -> None: ...

    @abc.abstractmethod
    def end_sessions(self, account_id: int, id_hash: str | None = None) -> int:
        """End one session of the account (or every one, ``id_hash`` None); how many ended."""

    @abc.abstractmethod
    def note_sighting(self, account_id: int, kind: str, value: str, now: float) -> None:
        """The account was seen from a device or an address."""

    @abc.abstractmethod
    def sightings(self, account_ids: Sequence[int]) -> list[Sighting]:
        """Every device and address the accounts were seen from."""

    @abc.abstractmethod
    def delete_player(self, player_id: int) -> None:
        """Forget a guest: its hands, clubs and sessions; its row stays, anonymised, so the tables and
        matches it played in keep their records."""

    @abc.abstractmethod
    def delete_account(self, account_id: int) -> None:
        """Forget an account: its players as :meth:`delete_player`, its passkeys, sessions, codes,
        ratings and queue entry; its row stays, anonymised."""


class SqlIdentity(SqlHooks, IdentityMethods):
    """The SQL of :class:`IdentityMethods` (mixed into :class:`~.sql.SqlStore`)."""

    def new_guest(self, name: str = "") -> int:
        with self._tx():
            rows = self._run("INSERT INTO players (secret_hash, name, created) VALUES (?, ?, ?) RETURNING id",
                             (f"session:{secrets.token_hex(16)}", name, time.time()))
        return int(rows[0][0])

    def adopt_secret(self, secret_hash: str) -> int | None:
        with self._tx():
            rows = self._run("UPDATE players SET secret_hash = ? WHERE secret_hash = ? AND account_id IS NULL"
                             " AND deleted IS NULL RETURNING id",
                             (f"adopted:{secrets.token_hex(16)}", secret_hash))
        return int(rows[0][0]) if rows else None

    def player_name(self, player_id: int) -> str | None:
        rows = self._read("SELECT name FROM players WHERE id = ? AND deleted IS NULL", (player_id,))
        return str(rows[0][0]) if rows else None

    def rename_player(self, player_id: int, name: str) -> None:
        with self._tx():
            self._run("UPDATE players SET name = ? WHERE id = ? AND deleted IS NULL", (name, player_id))

    def player_account(self, player_id: int) -> int | None:
        rows = self._read("SELECT account_id FROM players WHERE id = ?", (player_id,))
        return None if not rows or rows[0][0] is None else int(rows[0][0])

    def add_session(self, row: SessionRow, keep: int) -> None:
        with self._tx():
            self._run(f"INSERT INTO sessions ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", _values(row))
            if row.account_id is not None:
                self._run("DELETE FROM sessions WHERE account_id = ? AND (expires <= ? OR id_hash NOT IN"
                          " (SELECT id_hash FROM sessions WHERE account_id = ? ORDER BY created DESC"
                          " LIMIT ?))", (row.account_id, row.created, row.account_id, keep))

    def session(self, id_hash: str, now: float) -> SessionRow | None:
        rows = self._read(f"SELECT {_COLUMNS} FROM sessions WHERE id_hash = ? AND expires > ?",
                          (id_hash, now))
        return _session(rows[0]) if rows else None

    def touch_session(self, id_hash: str, now: float, expires: float, address: str) -> None:
        with self._tx():
            self._run("UPDATE sessions SET last_seen = ?, expires = ?, address = ? WHERE id_hash = ?",
                      (now, expires, address, id_hash))

    def sessions(self, account_id: int, now: float) -> list[SessionRow]:
        rows = self._read(f"SELECT {_COLUMNS} FROM sessions WHERE account_id = ? AND expires > ?"
                          " ORDER BY created DESC", (account_id, now))
        return [_session(r) for r in rows]

    def end_session(self, id_hash: str) -> None:
        with self._tx():
            self._run("DELETE FROM sessions WHERE id_hash = ?", (id_hash,))

    def end_sessions(self, account_id: int, id_hash: str | None = None) -> int:
        with self._tx():
            if id_hash is None:
                rows = self._run("DELETE FROM sessions WHERE account_id = ? RETURNING id_hash", (account_id,))
            else:
                rows = self._run("DELETE FROM sessions WHERE account_id = ? AND id_hash = ?"
                                 " RETURNING id_hash", (account_id, id_hash))
        return len(rows)

    def note_sighting(self, account_id: int, kind: str, value: str, now: float) -> None:
        with self._tx():
            self._run("INSERT INTO account_sightings (account_id, kind, value, first_seen, last_seen)"
                      " VALUES (?, ?, ?, ?, ?) ON CONFLICT (account_id, kind, value)"
                      " DO UPDATE SET last_seen = excluded.last_seen", (account_id, kind, value, now, now))

    def sightings(self, account_ids: Sequence[int]) -> list[Sighting]:
        ids = tuple(account_ids) or (-1,)
        marks = ", ".join("?" * len(ids))
        rows = self._read("SELECT account_id, kind, value, first_seen, last_seen FROM account_sightings"
                          f" WHERE account_id IN ({marks}) ORDER BY account_id, kind, value", ids)
        return [Sighting(int(r[0]), r[1], r[2], float(r[3]), float(r[4])) for r in rows]

    def _w_forget_club_member(self, player_id: int) -> None:
        raise NotImplementedError  # store/clubs_sql.py

    def _w_forget_push(self, player_id: int) -> None:
        raise NotImplementedError  # store/push_sql.py

    def _w_forget_player(self, player_id: int, now: float) -> None:
        self._w_forget_club_member(player_id)
        self._w_forget_push(player_id)
        self._run("DELETE FROM player_hands WHERE player_id = ?", (player_id,))
        self._run("DELETE FROM sessions WHERE player_id = ?", (player_id,))
        self._run("DELETE FROM queue_entries WHERE player_id = ?", (player_id,))
        self._run("UPDATE seats SET name = ?, token_hash = NULL WHERE kind = 'human' AND EXISTS (SELECT 1"
                  " FROM seat_players sp WHERE sp.table_id = seats.table_id AND sp.seat = seats.seat"
                  " AND sp.player_id = ?)", (DELETED_NAME, player_id))
        self._run("UPDATE players SET name = ?, secret_hash = ?, account_id = NULL, deleted = ? WHERE id = ?",
                  (DELETED_NAME, f"deleted:{player_id}", now, player_id))

    def delete_player(self, player_id: int) -> None:
        with self._tx():
            self._w_forget_player(player_id, time.time())

    def delete_account(self, account_id: int) -> None:
        now = time.time()
        with self._tx():
            for (pid,) in self._run("SELECT id FROM players WHERE account_id = ?", (account_id,)):
                self._w_forget_player(int(pid), now)
            for table in ("queue_entries", "passkeys", "sessions", "link_codes", "auth_flows", "ratings",
                          "rating_history", "account_sightings"):
                self._run(f"DELETE FROM {table} WHERE account_id = ?", (account_id,))
            self._run("UPDATE accounts SET name = ?, name_key = ?, handle = ?, deleted = ? WHERE id = ?",
                      (DELETED_NAME, f"deleted:{account_id}", f"deleted:{account_id}", now, account_id))


_COLUMNS = "id_hash, player_id, account_id, lineage, address, created, expires, last_seen, label"


def _values(s: SessionRow) -> tuple[Any, ...]:
    return (s.id_hash, s.player_id, s.account_id, s.lineage, s.address, s.created, s.expires, s.last_seen,
            s.label)


def _session(r: tuple[Any, ...]) -> SessionRow:
    return SessionRow(r[0], int(r[1]), None if r[2] is None else int(r[2]), r[3], r[4], float(r[5]),
                      float(r[6]), float(r[7]), r[8])
