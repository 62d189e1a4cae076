"""The store's notifications and club evenings (migration 0035, docs/clubs.md "Evenings and
notifications"): the server's VAPID key pair (made once, kept), players' Web Push subscriptions (bounded
per player), the clubs each member asked to be told about, the evenings a club's owner proposes and the
members' answers. A reminder is claimed once (:meth:`claim_reminder`: one conditional UPDATE), so two
servers on one database send it once."""

from __future__ import annotations

import abc
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .clubs_sql import _CLUB, ClubRow, _club
from .hooks import SqlHooks

ANSWERS = ("in", "maybe", "out")


@dataclass
class SubscriptionRow:
    endpoint: str
    player_id: int
    p256dh: str
    auth: str
    lang: str


@dataclass
class RsvpRow:
    player_id: int
    name: str
    answer: str  # in | maybe | out
    at: float


@dataclass
class EveningRow:
    id: int
    club_id: int
    proposer: int
    starts: float  # UTC seconds
    zone: str  # the IANA zone it was proposed in (the club's)
    needed: int
    created: float
    cancelled: float | None
    reminded: float | None
    table_code: str | None
    answers: list[RsvpRow] = field(default_factory=list)


class PushMethods(abc.ABC):
    """Notifications and evenings (the SQL is :class:`SqlPush`)."""

    @abc.abstractmethod
    def vapid_keys(self, make: Callable[[], tuple[str, str]], when: float) -> tuple[str, str]:
        """The server's (private PEM, public key): the kept pair, else ``make()``'s, kept now (when two
        servers make one at once, both get the first kept)."""

    @abc.abstractmethod
    def add_subscription(self, row: SubscriptionRow, when: float, most: int) -> None:
        """Keep a subscription (a known endpoint is taken over by ``row``); the player's oldest beyond
        ``most`` are dropped."""

    @abc.abstractmethod
    def remove_subscription(self, endpoint: str) -> bool: ...

    @abc.abstractmethod
    def remove_subscriptions(self, player_ids: Sequence[int]) -> int:
        """Every subscription of these players (signed out everywhere, deleted)."""

    @abc.abstractmethod
    def subscriptions(self, player_ids: Sequence[int]) -> list[SubscriptionRow]: ...

    @abc.abstractmethod
    def set_club_push(self, club_id: int, player_id: int, on: bool) -> None: ...

    @abc.abstractmethod
    def club_push(self, club_id: int, player_ids: Sequence[int]) -> bool:
        """Whether one of these players asked to be told about the club."""

    @abc.abstractmethod
    def club_push_targets(self, club_id: int, only: Sequence[int] | None = None) -> list[SubscriptionRow]:
        """The subscriptions of the club's members who asked to be told about it (``only``: of these
        players alone)."""

    @abc.abstractmethod
    def club_by_id(self, club_id: int) -> ClubRow | None: ...

    @abc.abstractmethod
    def add_evening(self, club_id: int, proposer: int, starts: float, zone: str, needed: int,
                    when: float) -> int: ...

    @abc.abstractmethod
    def evening(self, club_id: int, session_id: int) -> EveningRow | None:
        """A session of the club with its answers (names as the members')."""

    @abc.abstractmethod
    def evenings(self, club_id: int, since: float, limit: int) -> list[EveningRow]:
        """The club's sessions that start after ``since`` (not cancelled), soonest first, with answers."""

    @abc.abstractmethod
    def answer_evening(self, session_id: int, player_id: int, answer: str, when: float) -> None: ...

    @abc.abstractmethod
    def cancel_evening(self, club_id: int, session_id: int, when: float) -> bool: ...

    @abc.abstractmethod
    def set_evening_table(self, club_id: int, session_id: int, table_code: str) -> bool: ...

    @abc.abstractmethod
    def due_reminders(self, until: float, since: float) -> list[EveningRow]:
        """Sessions not cancelled nor reminded that start between ``since`` and ``until``."""

    @abc.abstractmethod
    def claim_reminder(self, session_id: int, when: float) -> bool:
        """Take the session's reminder (True once, whichever server asks first)."""


def _sub(r: tuple[Any, ...]) -> SubscriptionRow:
    return SubscriptionRow(str(r[0]), int(r[1]), str(r[2]), str(r[3]), str(r[4]))


_SUB = "s.endpoint, s.player_id, s.p256dh, s.auth, s.lang"
_SESSION = "id, club_id, proposer, starts, zone, needed, created, cancelled, reminded, table_code"


def _opt(v: Any) -> float | None:
    return None if v is None else float(v)


def _evening(r: tuple[Any, ...]) -> EveningRow:
    return EveningRow(int(r[0]), int(r[1]), int(r[2]), float(r[3]), str(r[4]), int(r[5]), float(r[6]),
                      _opt(r[7]), _opt(r[8]), None if r[9] is None else str(r[9]))


def _marks(ids: Sequence[int]) -> tuple[str, tuple[int, ...]]:
    got = tuple(ids) or (-1,)
    return ", ".join("?" * len(got)), got


class SqlPush(SqlHooks, PushMethods):
    """The SQL of :class:`PushMethods` (mixed into :class:`~.sql.SqlStore`)."""

    def vapid_keys(self, make: Callable[[], tuple[str, str]], when: float) -> tuple[str, str]:
        rows = self._read("SELECT private_pem, public_key FROM push_keys WHERE id = 1")
        if not rows:
            private, public = make()
            with self._tx():
                self._run("INSERT INTO push_keys (id, private_pem, public_key, created) VALUES (1, ?, ?, ?)"
                          " ON CONFLICT (id) DO NOTHING", (private, public, when))
            rows = self._read("SELECT private_pem, public_key FROM push_keys WHERE id = 1")
        return str(rows[0][0]), str(rows[0][1])

    def add_subscription(self, row: SubscriptionRow, when: float, most: int) -> None:
        with self._tx():
            self._run("DELETE FROM push_subscriptions WHERE endpoint = ?", (row.endpoint,))
            self._run("INSERT INTO push_subscriptions (endpoint, player_id, p256dh, auth, lang, created)"
                      " VALUES (?, ?, ?, ?, ?, ?)",
                      (row.endpoint, row.player_id, row.p256dh, row.auth, row.lang, when))
            kept = self._run("SELECT endpoint FROM push_subscriptions WHERE player_id = ?"
                             " ORDER BY created DESC, endpoint", (row.player_id,))
            for (endpoint,) in kept[most:]:
                self._run("DELETE FROM push_subscriptions WHERE endpoint = ?", (endpoint,))

    def remove_subscription(self, endpoint: str) -> bool:
        with self._tx():
            return bool(self._run("DELETE FROM push_subscriptions WHERE endpoint = ? RETURNING endpoint",
                                  (endpoint,)))

    def remove_subscriptions(self, player_ids: Sequence[int]) -> int:
        marks, ids = _marks(player_ids)
        with self._tx():
            return len(self._run(f"DELETE FROM push_subscriptions WHERE player_id IN ({marks})"
                                 " RETURNING endpoint", ids))

    def subscriptions(self, player_ids: Sequence[int]) -> list[SubscriptionRow]:
        marks, ids = _marks(player_ids)
        rows = self._read(f"SELECT {_SUB} FROM push_subscriptions s WHERE s.player_id IN ({marks})"
                          " ORDER BY s.created, s.endpoint", ids)
        return [_sub(r) for r in rows]

    def set_club_push(self, club_id: int, player_id: int, on: bool) -> None:
        with self._tx():
            if on:
                self._run("INSERT INTO push_clubs (club_id, player_id) VALUES (?, ?)"
                          " ON CONFLICT (club_id, player_id) DO NOTHING", (club_id, player_id))
            else:
                self._run("DELETE FROM push_clubs WHERE club_id = ? AND player_id = ?", (club_id, player_id))

    def club_push(self, club_id: int, player_ids: Sequence[int]) -> bool:
        marks, ids = _marks(player_ids)
        return bool(self._read(f"SELECT 1 FROM push_clubs WHERE club_id = ? AND player_id IN ({marks})",
                               (club_id, *ids)))

    def club_push_targets(self, club_id: int, only: Sequence[int] | None = None) -> list[SubscriptionRow]:
        where, params = "", [club_id]
        if only is not None:
            marks, ids = _marks(only)
            where = f" AND m.player_id IN ({marks})"
            params += ids
        rows = self._read(
            f"SELECT {_SUB} FROM push_clubs pc JOIN club_members m ON m.club_id = pc.club_id"
            " AND m.player_id = pc.player_id JOIN push_subscriptions s ON s.player_id = pc.player_id"
            f" WHERE pc.club_id = ?{where} ORDER BY s.player_id, s.created, s.endpoint", tuple(params))
        return [_sub(r) for r in rows]

    def club_by_id(self, club_id: int) -> ClubRow | None:
        rows = self._read(f"SELECT {_CLUB} FROM clubs WHERE id = ?", (club_id,))
        return _club(rows[0]) if rows else None

    def add_evening(self, club_id: int, proposer: int, starts: float, zone: str, needed: int,
                    when: float) -> int:
        with self._tx():
            rows = self._run("INSERT INTO club_sessions (club_id, proposer, starts, zone, needed, created)"
                             " VALUES (?, ?, ?, ?, ?, ?) RETURNING id", (club_id, proposer, starts, zone,
                                                                          needed, when))
        return int(rows[0][0])

    def _with_answers(self, found: list[EveningRow]) -> list[EveningRow]:
        if not found:
            return found
        marks, ids = _marks([s.id for s in found])
        rows = self._read(
            "SELECT r.session_id, r.player_id, COALESCE(a.name, p.name), r.answer, r.at FROM club_rsvps r"
            " JOIN players p ON p.id = r.player_id LEFT JOIN accounts a ON a.id = p.account_id"
            f" WHERE r.session_id IN ({marks}) ORDER BY r.at, r.player_id", ids)
        by_id = {s.id: s for s in found}
        for r in rows:
            by_id[int(r[0])].answers.append(RsvpRow(int(r[1]), str(r[2]), str(r[3]), float(r[4])))
        return found

    def evening(self, club_id: int, session_id: int) -> EveningRow | None:
        rows = self._read(f"SELECT {_SESSION} FROM club_sessions WHERE club_id = ? AND id = ?",
                          (club_id, session_id))
        return self._with_answers([_evening(r) for r in rows])[0] if rows else None

    def evenings(self, club_id: int, since: float, limit: int) -> list[EveningRow]:
        rows = self._read(f"SELECT {_SESSION} FROM club_sessions WHERE club_id = ? AND starts > ?"
                          " AND cancelled IS NULL ORDER BY starts, id LIMIT ?", (club_id, since, limit))
        return self._with_answers([_evening(r) for r in rows])

    def answer_evening(self, session_id: int, player_id: int, answer: str, when: float) -> None:
        with self._tx():
            self._run("INSERT INTO club_rsvps (session_id, player_id, answer, at) VALUES (?, ?, ?, ?)"
                      " ON CONFLICT (session_id, player_id) DO UPDATE SET answer = excluded.answer,"
                      " at = excluded.at", (session_id, player_id, answer, when))

    def cancel_evening(self, club_id: int, session_id: int, when: float) -> bool:
        with self._tx():
            return bool(self._run("UPDATE club_sessions SET cancelled = ? WHERE club_id = ? AND id = ?"
                                  " AND cancelled IS NULL RETURNING id", (when, club_id, session_id)))

    def set_evening_table(self, club_id: int, session_id: int, table_code: str) -> bool:
        with self._tx():
            return bool(self._run("UPDATE club_sessions SET table_code = ? WHERE club_id = ? AND id = ?"
                                  " AND cancelled IS NULL RETURNING id", (table_code, club_id, session_id)))

    def due_reminders(self, until: float, since: float) -> list[EveningRow]:
        rows = self._read(f"SELECT {_SESSION} FROM club_sessions WHERE starts <= ? AND starts > ?"
                          " AND cancelled IS NULL AND reminded IS NULL ORDER BY starts, id", (until, since))
        return self._with_answers([_evening(r) for r in rows])

    def claim_reminder(self, session_id: int, when: float) -> bool:
        with self._tx():
            return bool(self._run("UPDATE club_sessions SET reminded = ? WHERE id = ? AND reminded IS NULL"
                                  " AND cancelled IS NULL RETURNING id", (when, session_id)))

    def _w_forget_push(self, player_id: int) -> None:
        """A player forgotten: their subscriptions, their clubs' notifications and their answers."""
        self._run("DELETE FROM push_subscriptions WHERE player_id = ?", (player_id,))
        self._run("DELETE FROM push_clubs WHERE player_id = ?", (player_id,))
        self._run("DELETE FROM club_rsvps WHERE player_id = ?", (player_id,))
