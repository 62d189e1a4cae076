"""The chat and avatar methods of :class:`~.sql.SqlStore`, written once for both dialects (a mixin)."""

from __future__ import annotations

import contextlib
from typing import Any

from .base import ChatRow

_COLUMNS = "seq, hand, step, seat, name, kind, body, at"


class TalkSql:
    """Chat rows (``chat`` table, migration 0020) and players' avatars (migration 0021)."""

    # the SqlStore plumbing these methods use
    def _tx(self) -> contextlib.AbstractContextManager[None]:
        raise NotImplementedError

    def _run(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        raise NotImplementedError

    def _read(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        raise NotImplementedError

    def _guard(self, table_id: int) -> None:
        raise NotImplementedError

    def add_chat(self, table_id: int, seq: int, hand: int, step: int, seat: int | None, name: str,
                 kind: str, body: str, at: float) -> None:
        with self._tx():
            self._w_add_chat(table_id, seq, hand, step, seat, name, kind, body, at)

    def _w_add_chat(self, table_id: int, seq: int, hand: int, step: int, seat: int | None, name: str,
                    kind: str, body: str, at: float) -> None:
        self._guard(table_id)
        self._run(f"INSERT INTO chat (table_id, {_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                  (table_id, seq, hand, step, seat, name, kind, body, at))

    def chat(self, table_id: int, limit: int) -> list[ChatRow]:
        rows = self._read(f"SELECT {_COLUMNS} FROM chat WHERE table_id = ? ORDER BY seq DESC LIMIT ?",
                          (table_id, limit))
        return [_row(r) for r in reversed(rows)]

    def hand_chat(self, table_id: int, hand: int, limit: int) -> list[ChatRow]:
        rows = self._read(f"SELECT {_COLUMNS} FROM chat WHERE table_id = ? AND hand = ? ORDER BY seq LIMIT ?",
                          (table_id, hand, limit))
        return [_row(r) for r in rows]

    def set_avatar(self, player_id: int, avatar: str | None) -> bool:
        with self._tx():
            rows = self._run("UPDATE players SET avatar = ? WHERE id = ? AND deleted IS NULL RETURNING id",
                             (avatar, player_id))
        return bool(rows)

    def avatar(self, player_id: int) -> str | None:
        rows = self._read("SELECT avatar FROM players WHERE id = ?", (player_id,))
        return str(rows[0][0]) if rows and rows[0][0] is not None else None

    def table_avatars(self, table_id: int) -> dict[int, str]:
        rows = self._read(
            "SELECT s.seat, p.avatar FROM seat_players s JOIN players p ON p.id = s.player_id"
            " WHERE s.table_id = ? AND p.avatar IS NOT NULL", (table_id,))
        return {int(r[0]): str(r[1]) for r in rows}

    def lobby_avatars(self, table_ids: list[int]) -> dict[int, dict[int, str]]:
        if not table_ids:
            return {}
        marks = ", ".join("?" * len(table_ids))
        rows = self._read(
            "SELECT s.table_id, s.seat, p.avatar FROM seat_players s JOIN players p ON p.id = s.player_id"
            f" WHERE s.table_id IN ({marks}) AND p.avatar IS NOT NULL", tuple(table_ids))
        out: dict[int, dict[int, str]] = {}
        for r in rows:
            out.setdefault(int(r[0]), {})[int(r[1])] = str(r[2])
        return out


def _row(r: tuple[Any, ...]) -> ChatRow:
    return ChatRow(int(r[0]), int(r[1]), int(r[2]), None if r[3] is None else int(r[3]), str(r[4]),
                   str(r[5]), str(r[6]), float(r[7]))

