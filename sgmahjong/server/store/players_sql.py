"""The players' methods of :class:`~.sql.SqlStore` (browser-held identities, the seats they joined and
their ended hands), written once for both dialects (a mixin)."""

from __future__ import annotations

import json
from collections.abc import Sequence

from .base import PlayerHandRow
from .hooks import SqlHooks


class SqlPlayers(SqlHooks):
    """``players``, ``seat_players`` and ``player_hands``."""

    def link_seat_player(self, table_id: int, seat: int, player_id: int | None) -> None:
        with self._tx():
            self._guard(table_id)
            self._run("DELETE FROM seat_players WHERE table_id = ? AND seat = ?", (table_id, seat))
            if player_id is not None:
                self._run("INSERT INTO seat_players (table_id, seat, player_id) VALUES (?, ?, ?)",
                          (table_id, seat, player_id))

    def seats_that_played(self, table_id: int) -> set[int]:
        rows = self._read("SELECT DISTINCT seat FROM actions WHERE table_id = ? AND source = 'human'",
                          (table_id,))
        return {int(r[0]) for r in rows}

    def seat_players(self, table_id: int) -> dict[int, int]:
        rows = self._read("SELECT seat, player_id FROM seat_players WHERE table_id = ?", (table_id,))
        return {int(r[0]): int(r[1]) for r in rows}

    def add_player_hands(self, table_id: int, player_ids: dict[int, int],
                         row_of_seat: dict[int, PlayerHandRow]) -> None:
        with self._tx():
            self._w_add_player_hands(table_id, player_ids, row_of_seat)

    def _w_add_player_hands(self, table_id: int, player_ids: dict[int, int],
                            row_of_seat: dict[int, PlayerHandRow]) -> None:
        self._guard(table_id)
        for seat, pid in player_ids.items():
            r = row_of_seat[seat]
            self._run(
                "INSERT INTO player_hands (player_id, table_id, hand, seat, ended, won, dealt_in, drawn,"
                " tai, net, wind) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (player_id, table_id, hand) DO NOTHING",
                (pid, table_id, r.hand, r.seat, r.ended, int(r.won), int(r.dealt_in), int(r.drawn),
                 r.tai, r.net, r.wind),
            )

    def player_hands(self, player_id: int | Sequence[int], limit: int, offset: int = 0, *,
                     newest_first: bool = True) -> list[PlayerHandRow]:
        order = "DESC" if newest_first else "ASC"
        ids = _ids(player_id)
        rows = self._read(
            "SELECT h.table_id, h.hand, h.seat, h.ended, h.won, h.dealt_in, h.drawn, h.tai, h.net, t.code,"
            " t.name, t.rules, h.wind FROM player_hands h JOIN tables t ON t.id = h.table_id"
            f" WHERE h.player_id IN ({_marks(ids)})"
            f" ORDER BY h.ended {order}, h.table_id {order}, h.hand {order} LIMIT ? OFFSET ?",
            (*ids, int(limit), int(offset)),
        )
        return [PlayerHandRow(int(r[0]), int(r[1]), int(r[2]), float(r[3]), bool(r[4]), bool(r[5]),
                              bool(r[6]), int(r[7]), int(r[8]), r[9], r[10], json.loads(r[11]),
                              None if r[12] is None else int(r[12])) for r in rows]

    def player_totals(self, player_id: int | Sequence[int]) -> dict[str, int]:
        ids = _ids(player_id)
        rows = self._read(
            "SELECT COUNT(*), COALESCE(SUM(won), 0), COALESCE(SUM(dealt_in), 0),"
            " COALESCE(SUM(CASE WHEN won = 1 THEN tai ELSE 0 END), 0), COALESCE(SUM(net), 0),"
            f" COUNT(DISTINCT table_id) FROM player_hands WHERE player_id IN ({_marks(ids)})",
            ids,
        )
        keys = ("hands", "wins", "deal_ins", "win_tai", "net", "tables")
        return {k: int(v) for k, v in zip(keys, rows[0], strict=True)}


def _ids(player_id: int | Sequence[int]) -> tuple[int, ...]:
    """One player id or several, as statement parameters (never none: -1 matches no player)."""
    ids = (player_id,) if isinstance(player_id, int) else tuple(player_id)
    return ids or (-1,)


def _marks(ids: tuple[int, ...]) -> str:
    return ", ".join("?" * len(ids))
