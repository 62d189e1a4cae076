"""The store's ticks of a club's settle-up (migration 0037, docs/clubs.md): a transfer marked as paid
by its payer or its payee, with who ticked it and when. A tick belongs to a scope ("period:N", or
"tonight:T" for the evening that began at T) and holds the transfer's amount when it was ticked."""

from __future__ import annotations

import abc
from collections.abc import Sequence
from dataclasses import dataclass

from .hooks import SqlHooks

TONIGHT = "tonight:"  # the prefix of an evening's scope; such ticks are dropped after TONIGHT_KEPT
TONIGHT_KEPT = 2 * 86400.0  # seconds an evening's ticks are kept after they were made


@dataclass(frozen=True)
class TickRow:
    scope: str
    payer: int  # members (player ids)
    payee: int
    points: int  # the transfer's amount when ticked
    ticked_by: int
    ticked_at: float


class TickMethods(abc.ABC):
    """The ticks part of :class:`~.base.Store`."""

    @abc.abstractmethod
    def tick_transfer(self, club_id: int, tick: TickRow) -> None:
        """Record ``tick`` (replacing any tick of the same transfer in the same scope); an evening's
        ticks older than :data:`TONIGHT_KEPT` are dropped meanwhile."""

    @abc.abstractmethod
    def untick_transfer(self, club_id: int, scope: str, payer: int, payee: int) -> bool:
        """Remove a transfer's tick; False if it had none."""

    @abc.abstractmethod
    def transfer_ticks(self, club_id: int, scopes: Sequence[str]) -> list[TickRow]:
        """The ticks of ``scopes``."""


class SqlTicks(SqlHooks, TickMethods):
    """The SQL of :class:`TickMethods` (mixed into :class:`~.sql.SqlStore`)."""

    def tick_transfer(self, club_id: int, tick: TickRow) -> None:
        with self._tx():
            self._run("DELETE FROM club_ticks WHERE club_id = ? AND scope LIKE ? AND ticked_at < ?",
                      (club_id, TONIGHT + "%", tick.ticked_at - TONIGHT_KEPT))
            self._run("INSERT INTO club_ticks (club_id, scope, payer, payee, points, ticked_by, ticked_at)"
                      " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (club_id, scope, payer, payee) DO UPDATE"
                      " SET points = excluded.points, ticked_by = excluded.ticked_by,"
                      " ticked_at = excluded.ticked_at",
                      (club_id, tick.scope, tick.payer, tick.payee, tick.points, tick.ticked_by,
                       tick.ticked_at))

    def untick_transfer(self, club_id: int, scope: str, payer: int, payee: int) -> bool:
        with self._tx():
            rows = self._run("DELETE FROM club_ticks WHERE club_id = ? AND scope = ? AND payer = ?"
                             " AND payee = ? RETURNING payer", (club_id, scope, payer, payee))
        return bool(rows)

    def transfer_ticks(self, club_id: int, scopes: Sequence[str]) -> list[TickRow]:
        if not scopes:
            return []
        marks = ", ".join("?" * len(scopes))
        rows = self._read("SELECT scope, payer, payee, points, ticked_by, ticked_at FROM club_ticks"
                          f" WHERE club_id = ? AND scope IN ({marks}) ORDER BY scope, payer, payee",
                          (club_id, *scopes))
        return [TickRow(str(r[0]), int(r[1]), int(r[2]), int(r[3]), int(r[4]), float(r[5])) for r in rows]
