"""The store's part of the live club page (migration 0034, docs/clubs.md): when each member last had
the club's page open (one row per club and member: bounded by the members), a cheap stamp of the
ledger (it changes whenever a hand of a club table is recorded or a period begins), and the club's
table defaults (the owner's choice, JSON)."""

from __future__ import annotations

import abc
import json
from typing import Any

from .hooks import SqlHooks


class ClubLiveMethods(abc.ABC):
    """The live club page's part of :class:`~.base.Store`."""

    @abc.abstractmethod
    def club_seen(self, club_id: int, player_id: int, when: float) -> None:
        """Member ``player_id`` has the club's page open at ``when``."""

    @abc.abstractmethod
    def club_seen_since(self, club_id: int, since: float) -> list[int]:
        """The players who had the club's page open at ``since`` or later."""

    @abc.abstractmethod
    def club_ledger_stamp(self, club_id: int) -> tuple[int, float, int]:
        """(recorded hand seats at the club's tables, the latest one's end, the current period's
        number): it changes whenever the ledger may have."""

    @abc.abstractmethod
    def club_table_defaults(self, club_id: int) -> dict[str, Any]:
        """The owner's defaults of the club's tables ({} for none)."""

    @abc.abstractmethod
    def set_club_table_defaults(self, club_id: int, defaults: dict[str, Any]) -> None: ...


class SqlClubLive(SqlHooks, ClubLiveMethods):
    """The SQL of :class:`ClubLiveMethods` (mixed into :class:`~.sql.SqlStore`)."""

    def club_seen(self, club_id: int, player_id: int, when: float) -> None:
        with self._tx():
            self._run("INSERT INTO club_presence (club_id, player_id, seen) VALUES (?, ?, ?)"
                      " ON CONFLICT (club_id, player_id) DO UPDATE SET seen = excluded.seen",
                      (club_id, player_id, when))

    def club_seen_since(self, club_id: int, since: float) -> list[int]:
        rows = self._read("SELECT player_id FROM club_presence WHERE club_id = ? AND seen >= ?"
                          " ORDER BY player_id", (club_id, since))
        return [int(r[0]) for r in rows]

    def club_ledger_stamp(self, club_id: int) -> tuple[int, float, int]:
        rows = self._read("SELECT COUNT(*), COALESCE(MAX(h.ended), 0) FROM club_tables ct"
                          " JOIN player_hands h ON h.table_id = ct.table_id WHERE ct.club_id = ?", (club_id,))
        period = self._read("SELECT COALESCE(MAX(number), 0) FROM club_periods WHERE club_id = ?", (club_id,))
        return int(rows[0][0]), float(rows[0][1]), int(period[0][0])

    def club_table_defaults(self, club_id: int) -> dict[str, Any]:
        rows = self._read("SELECT table_defaults FROM clubs WHERE id = ?", (club_id,))
        if not rows or not rows[0][0]:
            return {}
        got = json.loads(str(rows[0][0]))
        return got if isinstance(got, dict) else {}

    def set_club_table_defaults(self, club_id: int, defaults: dict[str, Any]) -> None:
        with self._tx():
            self._run("UPDATE clubs SET table_defaults = ? WHERE id = ?",
                      (json.dumps(defaults, sort_keys=True), club_id))
