"""The store's clubs (migration 0022, docs/clubs.md): clubs, their members (browser identities: the
``players`` rows /me keys), invite links (only the code's hash is kept; each with the owner's label and
its maker, migration 0032), seasons and settle-up periods,
and the tables played in a club (each the members' alone unless the owner made it public, migration
0031). A club's ledger is read from the recorded hands of its tables (``player_hands``, the numbers /me
shows): :meth:`club_hands`. The daily quotas of new clubs and invite links count uses per person key
(:meth:`take_quota`)."""

from __future__ import annotations

import abc
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .hooks import SqlHooks

OWNER = "owner"
MEMBER = "member"


@dataclass
class ClubRow:
    id: int
    code: str  # the club's address (/club/CODE): random, so clubs cannot be counted or guessed
    name: str
    stake: int  # cents a point of the payment chart is worth
    preset: str  # the house rules of the club's tables
    created: float
    money: bool = False  # the owner opted in to money (else the ledger is in points), migration 0033


@dataclass
class MemberRow:
    player_id: int
    name: str  # the account's name for a signed-in member, else the browser identity's
    role: str  # owner | member
    joined: float
    account_id: int | None


@dataclass
class InviteRow:
    id: int
    created: float
    expires: float | None
    revoked: float | None
    label: str = ""  # the owner's words for it ("for Mei Ling"), plain text; "" for none
    code_hash: str = ""  # the hash of its code (its first characters tell the owner's links apart)
    maker: str | None = None  # the name of the member who made it; None: made before, or since left


@dataclass
class PeriodRow:
    number: int
    season: int
    started: float
    ended: float | None  # None: the current period
    settled: bool


@dataclass
class ClubHandRow:
    """One ended hand of a member-or-not player's seat at a club table."""

    table_id: int
    hand: int
    seat: int
    player_id: int
    account_id: int | None
    ended: float
    won: bool
    tai: int
    net: int


@dataclass
class ClubTableRow:
    table_id: int
    code: str
    name: str
    status: str
    created: float
    public: bool = False  # the owner opened it to everyone (else: the members' alone)


class ClubMethods(abc.ABC):
    """The clubs part of :class:`~.base.Store`."""

    @abc.abstractmethod
    def create_club(self, code: str, name: str, stake: int, preset: str, owner: int, when: float) -> int:
        """A new club with ``owner`` (a player id) its owner, season 1 and period 1 begun; its id."""

    @abc.abstractmethod
    def club(self, code: str) -> ClubRow | None: ...

    @abc.abstractmethod
    def player_clubs(self, player_ids: Sequence[int]) -> list[tuple[ClubRow, str]]:
        """The clubs any of ``player_ids`` is a member of, with the role, oldest first."""

    @abc.abstractmethod
    def club_members(self, club_id: int) -> list[MemberRow]:
        """The members, the owner first, then by the time they joined."""

    @abc.abstractmethod
    def membership(self, club_id: int, player_ids: Sequence[int]) -> MemberRow | None:
        """The member row of any of ``player_ids`` (an account's identities are one member)."""

    @abc.abstractmethod
    def add_member(self, club_id: int, player_id: int, role: str, when: float) -> bool:
        """Add a member; False if the player is one already."""

    @abc.abstractmethod
    def remove_member(self, club_id: int, player_id: int) -> bool: ...

    @abc.abstractmethod
    def add_invite(self, club_id: int, code_hash: str, when: float, expires: float | None, *,
                   label: str = "", maker: int | None = None) -> int:
        """A new invite link (its code's hash), made by the player ``maker`` with the owner's
        ``label``; its id."""

    @abc.abstractmethod
    def invites(self, club_id: int, when: float) -> list[InviteRow]:
        """The invite links still usable at ``when`` (neither revoked nor expired), newest first."""

    @abc.abstractmethod
    def invite_by_hash(self, code_hash: str) -> tuple[ClubRow, InviteRow] | None:
        """The invite link of a code (its hash), revoked or expired or not, with its club; None:
        no such link."""

    @abc.abstractmethod
    def revoke_invite(self, club_id: int, invite_id: int, when: float) -> bool: ...

    @abc.abstractmethod
    def invite_club(self, code_hash: str, when: float) -> ClubRow | None:
        """The club an invite code (its hash) lets one join at ``when``; None if revoked, expired or
        unknown."""

    @abc.abstractmethod
    def set_club_money(self, club_id: int, money: bool, stake: int | None, when: float) -> None:
        """Turn money on (the owner confirmed the notice of the law at ``when``; ``stake``, cents a
        point is worth, when given) or off (the ledger in points again)."""

    @abc.abstractmethod
    def periods(self, club_id: int, limit: int) -> list[PeriodRow]:
        """The latest ``limit`` settle-up periods, the current one first."""

    @abc.abstractmethod
    def season_start(self, club_id: int) -> tuple[int, float]:
        """The current season's number and start."""

    @abc.abstractmethod
    def next_period(self, club_id: int, when: float, *, settled: bool, new_season: bool) -> int:
        """End the current period (marked ``settled`` or not) and begin the next, in a new season if
        ``new_season``; the new period's number."""

    @abc.abstractmethod
    def add_club_table(self, club_id: int, table_id: int, when: float) -> None: ...

    @abc.abstractmethod
    def table_club(self, table_id: int) -> int | None:
        """The club a table was opened for (None: not a club table)."""

    @abc.abstractmethod
    def club_table_access(self, table_id: int) -> tuple[int, bool] | None:
        """(the club, whether the table is public) of a club table; None: not a club table."""

    @abc.abstractmethod
    def set_club_table_public(self, club_id: int, table_id: int, public: bool) -> bool:
        """Open a club table to everyone (``public``) or keep it the members'; False: not the club's."""

    @abc.abstractmethod
    def take_quota(self, kind: str, persons: Sequence[str], most: int, since: float, when: float) -> bool:
        """Count one use of ``kind`` at ``when`` for each of ``persons`` (keys, stored as given)
        unless one of them has ``most`` uses since ``since`` already (then False, nothing counted).
        Uses older than ``since`` are forgotten."""

    @abc.abstractmethod
    def club_tables(self, club_id: int, limit: int, *, live: bool) -> list[ClubTableRow]:
        """The club's latest ``limit`` tables: those still open (``live``: in the lobby or in play),
        or every one, newest first."""

    @abc.abstractmethod
    def club_hands(self, club_id: int, since: float, until: float | None = None, *,
                   tables: Sequence[int] | None = None) -> list[ClubHandRow]:
        """Every recorded hand of a player's seat at the club's tables (or at those of ``tables``) that
        ended in [since, until), in the order played."""


_CLUB = "id, code, name, stake, preset, created, money"
_MEMBER = ("m.player_id, COALESCE(a.name, p.name), m.role, m.joined, p.account_id FROM club_members m"
           " JOIN players p ON p.id = m.player_id LEFT JOIN accounts a ON a.id = p.account_id")
_LIVE = "('lobby', 'playing', 'between_hands')"
# an invite link, its maker named while they are a member of its club (``i`` the invite)
_INVITE = "i.id, i.created, i.expires, i.revoked, i.label, i.code_hash, COALESCE(ma.name, mp.name)"
_INVITES = ("club_invites i LEFT JOIN club_members mm ON mm.club_id = i.club_id"
            " AND mm.player_id = i.maker LEFT JOIN players mp ON mp.id = mm.player_id"
            " LEFT JOIN accounts ma ON ma.id = mp.account_id")


def _club(r: tuple[Any, ...]) -> ClubRow:
    return ClubRow(int(r[0]), str(r[1]), str(r[2]), int(r[3]), str(r[4]), float(r[5]), bool(r[6]))


def _member(r: tuple[Any, ...]) -> MemberRow:
    return MemberRow(int(r[0]), str(r[1]), str(r[2]), float(r[3]), None if r[4] is None else int(r[4]))


def _invite(r: tuple[Any, ...]) -> InviteRow:
    return InviteRow(int(r[0]), float(r[1]), None if r[2] is None else float(r[2]),
                     None if r[3] is None else float(r[3]), str(r[4]), str(r[5]),
                     None if r[6] is None else str(r[6]))


def _marks(ids: Sequence[int]) -> tuple[str, tuple[int, ...]]:
    got = tuple(ids) or (-1,)  # never an empty IN (): -1 is nobody
    return ", ".join("?" * len(got)), got


class SqlClubs(SqlHooks, ClubMethods):
    """The SQL of :class:`ClubMethods` (mixed into :class:`~.sql.SqlStore`)."""

    def create_club(self, code: str, name: str, stake: int, preset: str, owner: int, when: float) -> int:
        with self._tx():
            rows = self._run("INSERT INTO clubs (code, name, stake, preset, created) VALUES (?, ?, ?, ?, ?)"
                             " RETURNING id", (code, name, stake, preset, when))
            club_id = int(rows[0][0])
            self._run("INSERT INTO club_members (club_id, player_id, role, joined) VALUES (?, ?, ?, ?)",
                      (club_id, owner, OWNER, when))
            self._run("INSERT INTO club_seasons (club_id, number, started) VALUES (?, 1, ?)", (club_id, when))
            self._run("INSERT INTO club_periods (club_id, number, season, started, settled)"
                      " VALUES (?, 1, 1, ?, 0)", (club_id, when))
        return club_id

    def club(self, code: str) -> ClubRow | None:
        rows = self._read(f"SELECT {_CLUB} FROM clubs WHERE code = ?", (code,))
        return _club(rows[0]) if rows else None

    def player_clubs(self, player_ids: Sequence[int]) -> list[tuple[ClubRow, str]]:
        marks, ids = _marks(player_ids)
        rows = self._read(f"SELECT c.id, c.code, c.name, c.stake, c.preset, c.created, c.money, MAX(m.role)"
                          f" FROM clubs c JOIN club_members m ON m.club_id = c.id"
                          f" WHERE m.player_id IN ({marks})"
                          f" GROUP BY c.id, c.code, c.name, c.stake, c.preset, c.created, c.money"
                          f" ORDER BY c.id", ids)
        return [(_club(r), str(r[7])) for r in rows]  # "owner" > "member": MAX is the greater role

    def club_members(self, club_id: int) -> list[MemberRow]:
        rows = self._read(f"SELECT {_MEMBER} WHERE m.club_id = ? ORDER BY m.role = ? DESC, m.joined,"
                          " m.player_id", (club_id, OWNER))
        return [_member(r) for r in rows]

    def membership(self, club_id: int, player_ids: Sequence[int]) -> MemberRow | None:
        marks, ids = _marks(player_ids)
        rows = self._read(f"SELECT {_MEMBER} WHERE m.club_id = ? AND m.player_id IN ({marks})"
                          " ORDER BY m.role = ? DESC", (club_id, *ids, OWNER))
        return _member(rows[0]) if rows else None

    def add_member(self, club_id: int, player_id: int, role: str, when: float) -> bool:
        with self._tx():
            rows = self._run("INSERT INTO club_members (club_id, player_id, role, joined) VALUES (?, ?, ?, ?)"
                             " ON CONFLICT (club_id, player_id) DO NOTHING RETURNING player_id",
                             (club_id, player_id, role, when))
        return bool(rows)

    def remove_member(self, club_id: int, player_id: int) -> bool:
        with self._tx():
            rows = self._run("DELETE FROM club_members WHERE club_id = ? AND player_id = ?"
                             " RETURNING player_id", (club_id, player_id))
        return bool(rows)

    def add_invite(self, club_id: int, code_hash: str, when: float, expires: float | None, *,
                   label: str = "", maker: int | None = None) -> int:
        with self._tx():
            rows = self._run("INSERT INTO club_invites (club_id, code_hash, created, expires, label, maker)"
                             " VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
                             (club_id, code_hash, when, expires, label, maker))
        return int(rows[0][0])

    def invites(self, club_id: int, when: float) -> list[InviteRow]:
        rows = self._read(f"SELECT {_INVITE} FROM {_INVITES} WHERE i.club_id = ? AND i.revoked IS NULL"
                          " AND (i.expires IS NULL OR i.expires > ?) ORDER BY i.id DESC", (club_id, when))
        return [_invite(r) for r in rows]

    def invite_by_hash(self, code_hash: str) -> tuple[ClubRow, InviteRow] | None:
        rows = self._read(f"SELECT {_INVITE}, c.id, c.code, c.name, c.stake, c.preset, c.created, c.money"
                          f" FROM {_INVITES} JOIN clubs c ON c.id = i.club_id WHERE i.code_hash = ?",
                          (code_hash,))
        return (_club(rows[0][7:]), _invite(rows[0])) if rows else None

    def revoke_invite(self, club_id: int, invite_id: int, when: float) -> bool:
        with self._tx():
            rows = self._run("UPDATE club_invites SET revoked = ? WHERE club_id = ? AND id = ?"
                             " AND revoked IS NULL RETURNING id", (when, club_id, invite_id))
        return bool(rows)

    def invite_club(self, code_hash: str, when: float) -> ClubRow | None:
        rows = self._read("SELECT c.id, c.code, c.name, c.stake, c.preset, c.created, c.money"
                          " FROM club_invites i"
                          " JOIN clubs c ON c.id = i.club_id WHERE i.code_hash = ? AND i.revoked IS NULL"
                          " AND (i.expires IS NULL OR i.expires > ?)", (code_hash, when))
        return _club(rows[0]) if rows else None

    def set_club_money(self, club_id: int, money: bool, stake: int | None, when: float) -> None:
        with self._tx():
            if money:
                self._run("UPDATE clubs SET money = 1, money_at = ?, stake = COALESCE(?, stake) WHERE id = ?",
                          (when, stake, club_id))
            else:
                self._run("UPDATE clubs SET money = 0 WHERE id = ?", (club_id,))

    def periods(self, club_id: int, limit: int) -> list[PeriodRow]:
        rows = self._read("SELECT number, season, started, ended, settled FROM club_periods WHERE club_id = ?"
                          " ORDER BY number DESC LIMIT ?", (club_id, limit))
        return [PeriodRow(int(r[0]), int(r[1]), float(r[2]), None if r[3] is None else float(r[3]),
                          bool(r[4])) for r in rows]

    def season_start(self, club_id: int) -> tuple[int, float]:
        rows = self._read("SELECT number, started FROM club_seasons WHERE club_id = ? ORDER BY number DESC"
                          " LIMIT 1", (club_id,))
        return int(rows[0][0]), float(rows[0][1])

    def next_period(self, club_id: int, when: float, *, settled: bool, new_season: bool) -> int:
        with self._tx():
            rows = self._run("UPDATE club_periods SET ended = ?, settled = ? WHERE club_id = ?"
                             " AND ended IS NULL RETURNING number, season", (when, int(settled), club_id))
            number, season = (int(rows[0][0]), int(rows[0][1])) if rows else (0, 1)
            if new_season:
                season += 1
                self._run("INSERT INTO club_seasons (club_id, number, started) VALUES (?, ?, ?)",
                          (club_id, season, when))
            self._run("INSERT INTO club_periods (club_id, number, season, started, settled)"
                      " VALUES (?, ?, ?, ?, 0)", (club_id, number + 1, season, when))
        return number + 1

    def add_club_table(self, club_id: int, table_id: int, when: float) -> None:
        with self._tx():
            self._run("INSERT INTO club_tables (table_id, club_id, created) VALUES (?, ?, ?)",
                      (table_id, club_id, when))

    def table_club(self, table_id: int) -> int | None:
        rows = self._read("SELECT club_id FROM club_tables WHERE table_id = ?", (table_id,))
        return int(rows[0][0]) if rows else None

    def club_table_access(self, table_id: int) -> tuple[int, bool] | None:
        rows = self._read("SELECT club_id, public FROM club_tables WHERE table_id = ?", (table_id,))
        return (int(rows[0][0]), bool(rows[0][1])) if rows else None

    def set_club_table_public(self, club_id: int, table_id: int, public: bool) -> bool:
        with self._tx():
            rows = self._run("UPDATE club_tables SET public = ? WHERE club_id = ? AND table_id = ?"
                             " RETURNING table_id", (int(public), club_id, table_id))
        return bool(rows)

    def take_quota(self, kind: str, persons: Sequence[str], most: int, since: float, when: float) -> bool:
        if not persons:
            return True
        marks = ", ".join("?" * len(persons))
        with self._tx():
            self._run("DELETE FROM club_quota WHERE kind = ? AND at < ?", (kind, since))
            rows = self._run(f"SELECT COUNT(*) FROM club_quota WHERE kind = ? AND person IN ({marks})"
                             " GROUP BY person ORDER BY COUNT(*) DESC LIMIT 1", (kind, *persons))
            if rows and int(rows[0][0]) >= most:
                return False
            for person in persons:
                self._run("INSERT INTO club_quota (kind, person, at) VALUES (?, ?, ?)", (kind, person, when))
        return True

    def club_tables(self, club_id: int, limit: int, *, live: bool) -> list[ClubTableRow]:
        only_live = f" AND t.status IN {_LIVE}" if live else ""
        rows = self._read("SELECT t.id, t.code, t.name, t.status, ct.created, ct.public FROM club_tables ct"
                          f" JOIN tables t ON t.id = ct.table_id WHERE ct.club_id = ?{only_live}"
                          " ORDER BY ct.created DESC, t.id DESC LIMIT ?", (club_id, limit))
        return [ClubTableRow(int(r[0]), str(r[1]), str(r[2]), str(r[3]), float(r[4]), bool(r[5]))
                for r in rows]

    def club_hands(self, club_id: int, since: float, until: float | None = None, *,
                   tables: Sequence[int] | None = None) -> list[ClubHandRow]:
        where, params = "", [club_id, since]
        if until is not None:
            where += " AND h.ended < ?"
            params.append(until)
        if tables is not None:
            marks, ids = _marks(tables)
            where += f" AND ct.table_id IN ({marks})"
            params += ids
        rows = self._read(
            "SELECT h.table_id, h.hand, h.seat, h.player_id, p.account_id, h.ended, h.won, h.tai, h.net"
            " FROM club_tables ct JOIN player_hands h ON h.table_id = ct.table_id"
            " JOIN players p ON p.id = h.player_id"
            f" WHERE ct.club_id = ? AND h.ended >= ?{where} ORDER BY h.table_id, h.hand, h.seat",
            tuple(params))
        return [ClubHandRow(int(r[0]), int(r[1]), int(r[2]), int(r[3]), None if r[4] is None else int(r[4]),
                            float(r[5]), bool(r[6]), int(r[7]), int(r[8])) for r in rows]

    def _w_forget_club_member(self, player_id: int) -> None:
        """A player forgotten (``delete_player``): out of every club; a club left without its owner
        gets its longest-standing member as owner."""
        rows = self._run("DELETE FROM club_members WHERE player_id = ? AND role = ? RETURNING club_id",
                         (player_id, OWNER))
        self._run("DELETE FROM club_members WHERE player_id = ?", (player_id,))
        self._run("DELETE FROM club_presence WHERE player_id = ?", (player_id,))
        self._run("DELETE FROM club_ticks WHERE payer = ? OR payee = ? OR ticked_by = ?",
                  (player_id, player_id, player_id))
        for (club_id,) in rows:
            heir = self._run("SELECT player_id FROM club_members WHERE club_id = ? ORDER BY joined, player_id"
                             " LIMIT 1", (club_id,))
            if heir:
                self._run("UPDATE club_members SET role = ? WHERE club_id = ? AND player_id = ?",
                          (OWNER, club_id, heir[0][0]))
