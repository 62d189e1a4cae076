"""The store's ratings: each account's rating and rank per season ('all' = all time), applied once per
finished ranked match in the transaction that records the match's end (:meth:`rate_match` is a
batchable write: group commit stores it with the last hand's other writes), and read for the
leaderboard and /me. The arithmetic is :mod:`..ranking.ladder`'s."""

from __future__ import annotations

import abc
import json
import time
from dataclasses import dataclass
from typing import Any

from ..ranking.ladder import MatchRecord, Standing, settle
from .hooks import SqlHooks

ALL_TIME = "all"


@dataclass
class BoardRow:
    account_id: int
    name: str
    standing: Standing


@dataclass
class RankedOutcome:
    """What the store knows of a table the ranked queue opened: whether its match is rated yet, and
    once it is, its record with each seat's standing before and after (all time; None for a seat
    whose account was deleted, or a match rated before these were kept)."""

    rated: bool
    voided: bool
    record: MatchRecord | None
    before: list[Standing | None]
    after: list[Standing | None]


@dataclass
class HistoryPoint:
    at: float
    place: int
    standing: Standing


class RatingMethods(abc.ABC):
    """The ratings part of :class:`~.base.Store`."""

    @abc.abstractmethod
    def mark_ranked(self, table_id: int, accounts: list[int]) -> None:
        """The ranked queue opened ``table_id`` for ``accounts`` (by seat): its match will be rated."""

    @abc.abstractmethod
    def rate_match(self, table_id: int, scores: list[int], left: list[bool], absent: list[bool],
                   when: float, season: str, leave_points: int) -> None:
        """Rate the finished match of ``table_id`` once (final ``scores`` by seat; the seats whose
        player ``left`` before the end, or was ``absent`` throughout: :func:`~..ranking.ladder.settle`),
        if the ranked queue opened it; a match already rated is left alone."""

    @abc.abstractmethod
    def ranked_outcome(self, table_id: int) -> RankedOutcome | None:
        """The rating of the match of ``table_id`` as stored, None if the ranked queue did not open it."""

    @abc.abstractmethod
    def rated_records(self, limit: int) -> list[tuple[str, float, MatchRecord, bool]]:
        """The last ``limit`` rated matches, newest first: table code, when, record, voided."""

    @abc.abstractmethod
    def void_match(self, code: str, when: float) -> bool:
        """Void the rated match of table ``code`` (it counts for nobody once ratings are recomputed);
        whether there was one."""

    @abc.abstractmethod
    def recompute_ratings(self, leave_points: int) -> int:
        """Every rating and rank computed again from the record of rated matches, in order (voided
        ones left out), in one transaction; how many matches counted."""

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


def _standing(r: tuple[Any, ...] | list[Any]) -> Standing:
    return Standing(float(r[0]), float(r[1]), int(r[2]), int(r[3]), int(r[4]))


def _row(s: Standing) -> list[float | int]:
    return [s.mu, s.sigma, s.matches, s.rank, s.points]


class SqlRatings(SqlHooks, RatingMethods):
    """The SQL of :class:`RatingMethods` (mixed into :class:`~.sql.SqlStore`)."""

    #: appended to the SELECT of the rows a rating changes: PostgreSQL locks them (two workers rating
    #: matches of the same player at once update one after the other); SQLite has one writer anyway
    row_lock: str = ""


    def mark_ranked(self, table_id: int, accounts: list[int]) -> None:
        with self._tx():
            self._run("INSERT INTO ranked_tables (table_id, created, accounts) VALUES (?, ?, ?)"
                      " ON CONFLICT (table_id) DO NOTHING", (table_id, time.time(), json.dumps(accounts)))

    def rate_match(self, table_id: int, scores: list[int], left: list[bool], absent: list[bool],
                   when: float, season: str, leave_points: int) -> None:
        with self._tx():
            self._w_rate_match(table_id, scores, left, absent, when, season, leave_points)

    def _w_rate_match(self, table_id: int, scores: list[int], left: list[bool], absent: list[bool],
                      when: float, season: str, leave_points: int) -> None:
        self._guard(table_id)
        rows = self._run("SELECT accounts FROM ranked_tables WHERE table_id = ?", (table_id,))
        if not rows:
            return  # not opened by the ranked queue: never rated, whatever its rules
        record = MatchRecord.from_json({"accounts": json.loads(rows[0][0]), "scores": scores, "left": left,
                                        "absent": absent})
        if not self._run("INSERT INTO rated_matches (table_id, rated, season, record) VALUES (?, ?, ?, ?)"
                         " ON CONFLICT (table_id) DO NOTHING RETURNING table_id",
                         (table_id, when, season, json.dumps(record.to_json()))):
            return  # rated already (the same match recorded again)
        self._w_apply(table_id, record, when, season, leave_points)

    def _w_apply(self, table_id: int, record: MatchRecord, when: float, season: str,
                 leave_points: int) -> None:
        ids = list(record.accounts)
        marks = ", ".join("?" * len(ids))
        live = {int(r[0]) for r in self._run(
            f"SELECT id FROM accounts WHERE deleted IS NULL AND id IN ({marks})", tuple(ids))}
        fresh = Standing.new()
        changes: list[dict[str, Any] | None] = []
        for which in (ALL_TIME, season):
            for aid in sorted(live):
                self._run(f"INSERT INTO ratings (account_id, season, {_COLUMNS}, updated)"
                          " VALUES (?, ?, ?, ?, 0, 0, 0, ?) ON CONFLICT (account_id, season) DO NOTHING",
                          (aid, which, fresh.mu, fresh.sigma, when))
            got = self._run(f"SELECT account_id, {_COLUMNS} FROM ratings WHERE season = ? AND account_id IN"
                            f" ({marks}){self.row_lock}", (which, *ids))
            now = {int(r[0]): _standing(r[1:]) for r in got}
            before = [now.get(a, fresh) for a in ids]
            after, places = settle(before, record, leave_points)
            if which == ALL_TIME:  # kept with the record, for the match's end screen
                changes = [{"before": _row(b), "after": _row(a)} if aid in live else None
                           for aid, b, a in zip(ids, before, after, strict=True)]
            for seat, (aid, s) in enumerate(zip(ids, after, strict=True)):
                if aid not in live:
                    continue  # a deleted account: the others are rated as they would have been
                self._run("UPDATE ratings SET mu = ?, sigma = ?, matches = ?, rank = ?, points = ?,"
                          " updated = ? WHERE account_id = ? AND season = ?",
                          (s.mu, s.sigma, s.matches, s.rank, s.points, when, aid, which))
                if places[seat]:
                    self._run("INSERT INTO rating_history (account_id, table_id, season, at, place,"
                              f" {_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                              (aid, table_id, which, when, places[seat], s.mu, s.sigma, s.matches, s.rank,
                               s.points))
        self._run("UPDATE rated_matches SET record = ? WHERE table_id = ?",
                  (json.dumps({**record.to_json(), "changes": changes}), table_id))

    def ranked_outcome(self, table_id: int) -> RankedOutcome | None:
        if not self._read("SELECT 1 FROM ranked_tables WHERE table_id = ?", (table_id,)):
            return None
        rows = self._read("SELECT record, voided FROM rated_matches WHERE table_id = ?", (table_id,))
        if not rows or rows[0][0] is None:
            return RankedOutcome(bool(rows), bool(rows) and rows[0][1] is not None, None, [None] * 4,
                                 [None] * 4)
        data = json.loads(rows[0][0])
        changes = data.get("changes") or [None] * 4
        return RankedOutcome(True, rows[0][1] is not None, MatchRecord.from_json(data),
                             [None if c is None else _standing(c["before"]) for c in changes],
                             [None if c is None else _standing(c["after"]) for c in changes])

    def rated_records(self, limit: int) -> list[tuple[str, float, MatchRecord, bool]]:
        rows = self._read("SELECT t.code, m.rated, m.record, m.voided FROM rated_matches m JOIN tables t"
                          " ON t.id = m.table_id WHERE m.record IS NOT NULL"
                          " ORDER BY m.rated DESC, m.table_id DESC LIMIT ?", (limit,))
        return [(r[0], float(r[1]), MatchRecord.from_json(json.loads(r[2])), r[3] is not None) for r in rows]

    def void_match(self, code: str, when: float) -> bool:
        with self._tx():
            rows = self._run("UPDATE rated_matches SET voided = ? WHERE voided IS NULL AND table_id IN"
                             " (SELECT id FROM tables WHERE code = ?) RETURNING table_id", (when, code))
        return bool(rows)

    def recompute_ratings(self, leave_points: int) -> int:
        with self._tx():
            self._w_backfill_records()
            self._run("DELETE FROM rating_history")
            self._run("DELETE FROM ratings")
            rows = self._run("SELECT table_id, rated, season, record FROM rated_matches WHERE voided IS NULL"
                             " AND record IS NOT NULL ORDER BY rated, table_id")
            for table_id, rated, season, record in rows:
                self._w_apply(int(table_id), MatchRecord.from_json(json.loads(record)), float(rated), season,
                              leave_points)
        return len(rows)

    def _w_backfill_records(self) -> None:
        """Matches rated before records were kept: their record from the rating history (each
        account's place as its score; nobody left), where all four are still there."""
        for (table_id,) in self._run("SELECT table_id FROM rated_matches WHERE record IS NULL"):
            got = self._run("SELECT account_id, place FROM rating_history WHERE table_id = ? AND season = ?"
                            " ORDER BY account_id", (table_id, ALL_TIME))
            if len(got) != 4:
                continue
            record = {"accounts": [int(r[0]) for r in got], "scores": [-int(r[1]) for r in got],
                      "left": [False] * 4, "absent": [False] * 4}
            self._run("UPDATE rated_matches SET record = ? WHERE table_id = ?",
                      (json.dumps(record), table_id))

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
