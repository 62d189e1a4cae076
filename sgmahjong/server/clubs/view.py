"""What a member sees of a club (the data of /club/CODE and its CSV export), read from the store: the
members, the ledger of the current settle-up period and of the season, the settle-up, the past
periods, the open tables and the recent matches. Money is in whole cents; the page formats it."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Any

from ...rules import PRESETS
from ..store import Store
from ..store.clubs_sql import OWNER, ClubHandRow, ClubRow, MemberRow, PeriodRow
from . import book
from .ledger import Line

FINGERPRINT = 6  # hex digits of an invite code's hash that tell the owner's links apart


def tai_stake(club: ClubRow) -> int:
    """The "20" of "20c/40c": cents a 1-tai hand costs each loser (base points at the club's stake)."""
    return club.stake * PRESETS[club.preset].base if club.preset in PRESETS else club.stake


def club_summary(club: ClubRow, role: str) -> dict[str, Any]:
    return {"code": club.code, "name": club.name, "preset": club.preset, "cents_per_point": club.stake,
            "stake": tai_stake(club), "role": role, "url": f"/club/{club.code}"}


def _ledger(lines: dict[str, Line], members: Sequence[MemberRow]) -> list[dict[str, Any]]:
    rows = [{"member": str(m.player_id), "name": m.name, "net": lines[str(m.player_id)].net,
             "money": lines[str(m.player_id)].money, "matches": lines[str(m.player_id)].matches,
             "wins": lines[str(m.player_id)].wins, "biggest": lines[str(m.player_id)].biggest}
            for m in members]
    return sorted(rows, key=lambda r: (-int(r["money"]), str(r["name"])))


def _settlement(lines: dict[str, Line], names: dict[str, str]) -> dict[str, Any]:
    s = book.settle_up({k: v.money for k, v in lines.items() if k in names})
    return {"transfers": [{"from": names[a], "to": names[b], "cents": c} for a, b, c in s.transfers],
            "outside": s.outside}


def _within(hands: list[ClubHandRow], since: float, until: float | None) -> list[ClubHandRow]:
    return [h for h in hands if h.ended >= since and (until is None or h.ended < until)]


def club_page(store: Store, club: ClubRow, me: MemberRow, *, now: float, tables_listed: int,
              periods_listed: int) -> dict[str, Any]:
    """The club page's data for member ``me``."""
    members = store.club_members(club.id)
    names = {str(m.player_id): m.name for m in members}
    periods = store.periods(club.id, periods_listed + 1)
    current, past = periods[0], periods[1:]
    season, season_start = store.season_start(club.id)
    oldest = min([season_start, *(p.started for p in periods)])
    hands = store.club_hands(club.id, oldest)
    cpp = club.stake

    def ledger_of(since: float, until: float | None = None) -> dict[str, Line]:
        return book.lines(_within(hands, since, until), members, cpp)

    period_lines = ledger_of(current.started)
    season_lines = ledger_of(season_start)
    history = [_period(p, ledger_of(p.started, p.ended), names) for p in past]
    owner = me.role == OWNER
    return {
        "club": club_summary(club, me.role),
        "me": str(me.player_id),
        "members": [{"member": str(m.player_id), "name": m.name, "role": m.role, "joined": m.joined}
                    for m in members],
        "period": {"number": current.number, "started": current.started,
                   "ledger": _ledger(period_lines, members), **_settlement(period_lines, names)},
        "season": {"number": season, "started": season_start, "ledger": _ledger(season_lines, members)},
        "history": history,
        "tables": [{"code": t.code, "name": t.name, "status": t.status, "url": f"/t/{t.code}",
                    "public": t.public}
                   for t in store.club_tables(club.id, tables_listed, live=True)],
        "recent": _recent(store, club, members, tables_listed),
        "invites": ([{"id": i.id, "created": i.created, "expires": i.expires, "label": i.label,
                      "fingerprint": i.code_hash[:FINGERPRINT], "maker": i.maker or members[0].name}
                     for i in store.invites(club.id, now)] if owner else None),
    }


def _period(p: PeriodRow, lines: dict[str, Line], names: dict[str, str]) -> dict[str, Any]:
    return {"number": p.number, "season": p.season, "started": p.started, "ended": p.ended,
            "settled": p.settled, **_settlement(lines, names)}


def _recent(store: Store, club: ClubRow, members: Sequence[MemberRow], limit: int) -> list[dict[str, Any]]:
    """The latest club tables played (a hand recorded), each with its members' nets."""
    tables = store.club_tables(club.id, limit, live=False)
    hands = store.club_hands(club.id, 0.0, tables=[t.table_id for t in tables])
    keys = book.member_key(members)
    names = {str(m.player_id): m.name for m in members}
    out = []
    for t in tables:
        mine = [h for h in hands if h.table_id == t.table_id]
        if not mine:
            continue
        nets: dict[str, int] = {}
        for h in mine:
            member = book.who(keys, h)
            if member is not None:
                nets[member] = nets.get(member, 0) + h.net
        out.append({"code": t.code, "name": t.name, "status": t.status, "public": t.public,
                    "played": max(h.ended for h in mine),
                    "hands": len({h.hand for h in mine}),
                    "nets": [{"name": names[k], "net": v, "money": v * club.stake}
                             for k, v in sorted(nets.items(), key=lambda kv: -kv[1])]})
    return out


def ledger_csv(page: dict[str, Any], scope: str) -> str:
    """The ledger of the ``scope`` ("period" or "season") of a :func:`club_page` as CSV."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["member", "matches", "hands won", "biggest hand (tai)", "net (points)", "money"])
    for r in page[scope]["ledger"]:
        cents = int(r["money"])
        money = f"{'-' if cents < 0 else ''}{abs(cents) // 100}.{abs(cents) % 100:02d}"
        writer.writerow([_cell(str(r["name"])), r["matches"], r["wins"], r["biggest"], r["net"], money])
    return out.getvalue()


def _cell(text: str) -> str:
    """A name made safe for a spreadsheet (a leading = + - @ would be read as a formula)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
