"""What a member sees of a club (the data of /club/CODE and its CSV export), read from the store: the
members, the ledger of the current settle-up period and of the season, the settle-up, the past
periods, the open tables and the recent matches.

Points first: a club's ledger is in points unless its owner opted in to money (``club.money``); only
then do the ledger's lines, the transfers and the recent matches carry amounts (whole cents, the page
formats them) and the club its stakes. Each member's ``owed`` is their balance among the members (the
ledger's figure: the lines sum to zero and the settle-up pays exactly them); what the bots' and
guests' seats won or paid is set apart (``bots``), never in a member's figure."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Any

from ...rules import PRESETS
from ..store import Store
from ..store.clubs_sql import OWNER, ClubHandRow, ClubRow, MemberRow, PeriodRow
from . import book, ticks
from .ledger import Line

FINGERPRINT = 6  # hex digits of an invite code's hash that tell the owner's links apart


def tai_stake(club: ClubRow) -> int:
    """The "20" of "20c/40c": cents a 1-tai hand costs each loser (base points at the club's stake)."""
    return club.stake * PRESETS[club.preset].base if club.preset in PRESETS else club.stake


def club_summary(club: ClubRow, role: str) -> dict[str, Any]:
    """A club as its lists show it; its stakes (``stake``, ``cents_per_point``) only with money on."""
    stakes = {"cents_per_point": club.stake, "stake": tai_stake(club)} if club.money else {
        "cents_per_point": None, "stake": None}
    return {"code": club.code, "name": club.name, "preset": club.preset, **stakes, "money": club.money,
            "role": role, "url": f"/club/{club.code}"}


def _cents(club: ClubRow, points: int) -> int | None:
    return points * club.stake if club.money else None


def _ledger(club: ClubRow, lines: dict[str, Line], members: Sequence[MemberRow]) -> dict[str, Any]:
    """The lines of a span: each member's ``owed`` (points, among the members) and ``money`` (cents,
    None in points), their ``net`` at the table (points, bots' seats included) and their play; then
    the bots' share apart."""
    s = book.settle_up({str(m.player_id): lines[str(m.player_id)].net for m in members})
    rows: list[dict[str, Any]] = []
    for m in members:
        line, key = lines[str(m.player_id)], str(m.player_id)
        rows.append({"member": key, "name": m.name, "owed": s.owed[key], "money": _cents(club, s.owed[key]),
                     "net": line.net, "matches": line.matches, "wins": line.wins, "biggest": line.biggest})
    rows.sort(key=lambda r: (-int(r["owed"]), str(r["name"])))
    return {"ledger": rows, "bots": {"points": -s.outside, "money": _cents(club, -s.outside)}}


def _settlement(club: ClubRow, lines: dict[str, Line], names: dict[str, str]) -> dict[str, Any]:
    """The fewest transfers settling the members' balances among themselves (points, and cents with
    money on); ``outside``: what the members won (+) from or lost (-) to bots and guests, set apart."""
    s = book.settle_up({k: v.net for k, v in lines.items() if k in names})
    return {"transfers": [{"from": names[a], "to": names[b], "payer": a, "payee": b, "points": p,
                           "cents": _cents(club, p)} for a, b, p in s.transfers],
            "outside": s.outside, "outside_cents": _cents(club, s.outside)}


def _within(hands: list[ClubHandRow], since: float, until: float | None) -> list[ClubHandRow]:
    return [h for h in hands if h.ended >= since and (until is None or h.ended < until)]


def club_page(store: Store, club: ClubRow, me: MemberRow, *, now: float, tables_listed: int,
              periods_listed: int, tonight: float | None = None) -> dict[str, Any]:
    """The club page's data for member ``me``; ``tonight``: when the evening began (ticks.py; None:
    the last 24 hours)."""
    members = store.club_members(club.id)
    names = {str(m.player_id): m.name for m in members}
    periods = store.periods(club.id, periods_listed + 1)
    current, past = periods[0], periods[1:]
    season, season_start = store.season_start(club.id)
    evening = now - 86400.0 if tonight is None else tonight
    oldest = min([season_start, evening, *(p.started for p in periods)])
    hands = store.club_hands(club.id, oldest)

    def ledger_of(since: float, until: float | None = None) -> dict[str, Line]:
        return book.lines(_within(hands, since, until), members, club.stake)

    period_lines = ledger_of(current.started)
    season_lines = ledger_of(season_start)
    tonight_lines = ledger_of(evening)
    history = [_period(club, p, ledger_of(p.started, p.ended), names) for p in past]
    owner = me.role == OWNER
    return _ticked(store, club, {
        "club": club_summary(club, me.role),
        "me": str(me.player_id),
        "members": [{"member": str(m.player_id), "name": m.name, "role": m.role, "joined": m.joined}
                    for m in members],
        "period": {"number": current.number, "started": current.started,
                   **_ledger(club, period_lines, members), **_settlement(club, period_lines, names)},
        "tonight": {"started": evening, **_ledger(club, tonight_lines, members),
                    **_settlement(club, tonight_lines, names)},
        "season": {"number": season, "started": season_start, **_ledger(club, season_lines, members)},
        "history": history,
        "tables": [{"code": t.code, "name": t.name, "status": t.status, "url": f"/t/{t.code}",
                    "public": t.public}
                   for t in store.club_tables(club.id, tables_listed, live=True)],
        "recent": _recent(store, club, members, tables_listed),
        "invites": ([{"id": i.id, "created": i.created, "expires": i.expires, "label": i.label,
                      "fingerprint": i.code_hash[:FINGERPRINT], "maker": i.maker or members[0].name}
                     for i in store.invites(club.id, now)] if owner else None),
    }, names)


def _ticked(store: Store, club: ClubRow, page: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    """``page`` with the ticks of its settle-ups (since the last settle-up, tonight): each scope's
    ``scope`` key and each transfer's ``tick`` (ticks.py), read apart from the figures."""
    scopes = {"period": ticks.period_scope(page["period"]["number"]),
              "tonight": ticks.tonight_scope(page["tonight"]["started"])}
    rows = store.transfer_ticks(club.id, list(scopes.values()))
    for name, key in scopes.items():
        page[name] = {**page[name], "scope": key,
                      "transfers": ticks.with_ticks(page[name]["transfers"], key, rows, names)}
    return page


def _period(club: ClubRow, p: PeriodRow, lines: dict[str, Line], names: dict[str, str]) -> dict[str, Any]:
    return {"number": p.number, "season": p.season, "started": p.started, "ended": p.ended,
            "settled": p.settled, **_settlement(club, lines, names)}


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
                    "nets": [{"name": names[k], "net": v, "money": _cents(club, v)}
                             for k, v in sorted(nets.items(), key=lambda kv: -kv[1])]})
    return out


def ledger_csv(page: dict[str, Any], scope: str) -> str:
    """The ledger of the ``scope`` ("period" or "season") of a :func:`club_page` as CSV: each member's
    balance among the members in points (and money, with money on), then the bots' seats apart."""
    out = io.StringIO()
    writer = csv.writer(out)
    money = bool(page["club"]["money"])
    writer.writerow(["member", "matches", "hands won", "biggest hand (tai)", "owed (points)",
                     *(["money"] if money else [])])
    for r in page[scope]["ledger"]:
        writer.writerow([_cell(str(r["name"])), r["matches"], r["wins"], r["biggest"], r["owed"],
                         *([_amount(int(r["money"]))] if money else [])])
    bots = page[scope]["bots"]
    writer.writerow(["(bots and guests)", "", "", "", bots["points"],
                     *([_amount(bots["money"])] if money else [])])
    return out.getvalue()


def _amount(cents: int) -> str:
    return f"{'-' if cents < 0 else ''}{abs(cents) // 100}.{abs(cents) % 100:02d}"


def _cell(text: str) -> str:
    """A name made safe for a spreadsheet (a leading = + - @ would be read as a formula)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
