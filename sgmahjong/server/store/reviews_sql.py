"""Stored reviews of finished hands (``reviews`` table, migration 0023): a review by the expert is
slow to compute and a finished hand never changes, so each (table, hand, seat, mode, deals) is
computed once and kept. Any worker may store one: a review belongs to no table's lease."""

from __future__ import annotations

import abc
import json
from typing import Any

from .hooks import SqlHooks


class ReviewMethods(abc.ABC):
    """The stored-review part of :class:`~.base.Store`."""

    @abc.abstractmethod
    def add_review(self, table_id: int, hand: int, seat: int, mode: str, deals: int,
                   body: dict[str, Any], at: float) -> None:
        """Keep a computed review (a second one for the same key is ignored: the first stays)."""

    @abc.abstractmethod
    def review(self, table_id: int, hand: int, seat: int, mode: str, deals: int) -> dict[str, Any] | None:
        """The stored review of that key, or None."""

    @abc.abstractmethod
    def table_reviews(self, table_id: int, seat: int, mode: str, deals: int) -> dict[int, dict[str, Any]]:
        """hand number -> stored review, of every reviewed hand of the table for that seat."""


class SqlReviews(SqlHooks, ReviewMethods):
    """The SQL of :class:`ReviewMethods` (mixed into :class:`~.sql.SqlStore`)."""

    def add_review(self, table_id: int, hand: int, seat: int, mode: str, deals: int,
                   body: dict[str, Any], at: float) -> None:
        with self._tx():
            self._run("INSERT INTO reviews (table_id, hand, seat, mode, deals, body, created)"
                      " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                      (table_id, hand, seat, mode, deals, json.dumps(body), at))

    def review(self, table_id: int, hand: int, seat: int, mode: str, deals: int) -> dict[str, Any] | None:
        rows = self._read("SELECT body FROM reviews WHERE table_id = ? AND hand = ? AND seat = ?"
                          " AND mode = ? AND deals = ?", (table_id, hand, seat, mode, deals))
        return _body(rows[0][0]) if rows else None

    def table_reviews(self, table_id: int, seat: int, mode: str, deals: int) -> dict[int, dict[str, Any]]:
        rows = self._read("SELECT hand, body FROM reviews WHERE table_id = ? AND seat = ? AND mode = ?"
                          " AND deals = ? ORDER BY hand", (table_id, seat, mode, deals))
        return {int(r[0]): _body(r[1]) for r in rows}


def _body(text: Any) -> dict[str, Any]:
    data = json.loads(text)
    return data if isinstance(data, dict) else {}
