"""The store's ratings: each account's rating and rank per season ('all' = all time), applied once per
finished ranked match in the transaction that records the match's end (:meth:`rate_match` is a
batchable write: group commit stores it with the last hand's other writes), and read for the
leaderboard and /me. The arithmetic is :mod:`..ranking.ladder`'s."""

from __future__ import annotations

import abc
from dataclasses import dataclass
from typing import Any

from ..ranking.ladder import Standing, placings, rate
from .hooks import SqlHooks

ALL_TIME = "all"


@dataclass
class BoardRow:
    account_id: int
    name: str
    standing: Standing


@dataclass
class HistoryPoint:
    at: float
    place: int
    standing: Standing


class RatingMethods(abc.ABC):
    """The ratings part of :class:`~.base.Store`."""

    @abc.abstractmethod
    def rate_match(self, table_id: int, scores: list[int], leavers: list[int], when: float,
                   season: str) -> None:
        """Rate the finished match of ``table_id`` (final ``scores`` by seat; ``leavers``' seats placed
        last) if its four seats are four accounts, once: a match already rated is left alone."""

    @abc.abstractmethod
    def standing(self, account_id: int, season: str = ALL_TIME) -> Standing | None: ...

    @abc.abstractmethod
    def standings(self, account_ids: list[int]) -> dict[int, Standing]:
        """All-time standings of the accounts that have one."""

    @abc.abstractmethod
    def leaderboard(self, season: str, limit: int) -> list[BoardRow]:
        """The best ``limit`` of a season, by rating."""

    @abc.abstractmethod
    def board_position(self, account_id: int, season: str) -> int | None:
        """The account's place on the season's board (1 = top), None if unrated."""

    @abc.abstractmethod
    def rating_history(self, account_id: int, season: str, limit: int) -> list[HistoryPoint]:
        """The account's last ``limit`` rated matches of the season, oldest first."""


_COLUMNS = "mu, sigma, matches, rank, points"
_ORDER = "mu - 3 * sigma"


def _standing(r: tuple[Any, ...]) -> Standing:
    return Standing(float(r[0]), float(r[1]), int(r[2]), int(r[3]), int(r[4]))


class SqlRatings(SqlHooks, RatingMethods):
    """The SQL of :class:`RatingMethods` (mixed into :class:`~.sql.SqlStore`)."""

    #: appended to the SELECT of the rows a rating changes: PostgreSQL locks them (two workers rating
    #: matches of the same player at once update one after the other); SQLite has one writer anyway
    row_lock: str = ""


    def rate_match(self, table_id: int, scores: list[int], leavers: list[int], when: float,
                   season: str) -> None:
        with self._tx():
            self._w_rate_match(table_id, scores, leavers, when, season)

    def _w_rate_match(self, table_id: int, scores: list[int], leavers: list[int], when: float,
                      season: str) -> None:
        self._guard(table_id)
        rows = self._run("SELECT sp.seat, p.account_id FROM seat_players sp JOIN players p"
                         " ON p.id = sp.player_id WHERE sp.table_id = ? ORDER BY sp.seat", (table_id,))
        accounts = [None if r[1] is None else int(r[1]) for r in rows]
        if [int(r[0]) for r in rows] != [0, 1, 2, 3] or None in accounts or len(set(accounts)) != 4:
            return  # not four accounts: an unranked match
        if not self._run("INSERT INTO rated_matches (table_id, rated, season) VALUES (?, ?, ?)"
                         " ON CONFLICT (table_id) DO NOTHING RETURNING table_id", (table_id, when, season)):
            return  # rated already (the same match recorded again)
        ids = [int(a) for a in accounts if a is not None]
        places = placings(scores, leavers)
        fresh = Standing.new()
        for which in (ALL_TIME, season):
            for aid in ids:
                self._run(f"INSERT INTO ratings (account_id, season, {_COLUMNS}, updated)"
                          " VALUES (?, ?, ?, ?, 0, 0, 0, ?) ON CONFLICT (account_id, season) DO NOTHING",
                          (aid, which, fresh.mu, fresh.sigma, when))
            marks = ", ".join("?" * len(ids))
            got = self._run(f"SELECT account_id, {_COLUMNS} FROM ratings WHERE season = ? AND account_id IN"
                            f" ({marks}){self.row_lock}", (which, *ids))
            now = {int(r[0]): _standing(r[1:]) for r in got}
            after = rate([now[a] for a in ids], places)
            for seat, (aid, s) in enumerate(zip(ids, after, strict=True)):
                self._run("UPDATE ratings SET mu = ?, sigma = ?, matches = ?, rank = ?, points = ?,"
                          " updated = ? WHERE account_id = ? AND season = ?",
                          (s.mu, s.sigma, s.matches, s.rank, s.points, when, aid, which))
                self._run(f"INSERT INTO rating_history (account_id, table_id, season, at, place, {_COLUMNS})"
                          " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                          (aid, table_id, which, when, places[seat], s.mu, s.sigma, s.matches, s.rank,
                           s.points))

    def standing(self, account_id: int, season: str = ALL_TIME) -> Standing | None:
        rows = self._read(f"SELECT {_COLUMNS} FROM ratings WHERE account_id = ? AND season = ?",
                          (account_id, season))
        return _standing(rows[0]) if rows else None

    def standings(self, account_ids: list[int]) -> dict[int, Standing]:
        if not account_ids:
            return {}
        marks = ", ".join("?" * len(account_ids))
        rows = self._read(f"SELECT account_id, {_COLUMNS} FROM ratings WHERE season = ?"
                          f" AND account_id IN ({marks})", (ALL_TIME, *account_ids))
        return {int(r[0]): _standing(r[1:]) for r in rows}

    def leaderboard(self, season: str, limit: int) -> list[BoardRow]:
        rows = self._read("SELECT r.account_id, a.name, r.mu, r.sigma, r.matches, r.rank, r.points"
                          " FROM ratings r JOIN accounts a ON a.id = r.account_id WHERE r.season = ?"
                          " ORDER BY r.mu - 3 * r.sigma DESC,"
                          " r.account_id LIMIT ?", (season, limit))
        return [BoardRow(int(r[0]), r[1], _standing(r[2:])) for r in rows]

    def board_position(self, account_id: int, season: str) -> int | None:
        mine = self.standing(account_id, season)
        if mine is None:
            return None
        rows = self._read(f"SELECT COUNT(*) FROM ratings WHERE season = ? AND ({_ORDER} > ? OR ({_ORDER} = ?"
                          " AND account_id < ?))",
                          (season, mine.mu - 3 * mine.sigma, mine.mu - 3 * mine.sigma, account_id))
        return int(rows[0][0]) + 1

    def rating_history(self, account_id: int, season: str, limit: int) -> list[HistoryPoint]:
        rows = self._read(f"SELECT at, place, {_COLUMNS} FROM rating_history WHERE account_id = ?"
                          " AND season = ? ORDER BY at DESC, table_id DESC LIMIT ?",
                          (account_id, season, limit))
        return [HistoryPoint(float(r[0]), int(r[1]), _standing(r[2:])) for r in reversed(rows)]
