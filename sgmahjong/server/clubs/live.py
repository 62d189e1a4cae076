"""The live club page's summary (docs/clubs.md, "The live club page"), read from the store so that
every worker of a cluster answers the same: who of the members is online (had the club's page open in
the last ``online_seconds``, or sits at one of the club's open tables), each open table with who sits
where (the members by name, bots marked as bots), and a stamp of the ledger that changes whenever a
hand is recorded or a period begins. Its :func:`etag` lets a page that has the summary already be
answered 304."""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from ..store import Store
from ..store.clubs_sql import ClubRow, MemberRow
from .book import member_key


def seats_of(store: Store, table_id: int, members: Sequence[MemberRow]) -> list[dict[str, Any]]:
    """Who sits at each seat of a table: ``kind`` (empty, human, bot), the seat's ``name``, the bot's
    ``level``, and ``member`` (the member's key, or None: a bot, an empty seat, a guest)."""
    keys = member_key(members)
    players = store.seat_players(table_id)
    out = []
    for s in store.seats(table_id):
        player = players.get(s.seat) if s.kind == "human" else None
        member = keys.get(("p", player)) if player is not None else None
        if player is not None and member is None:  # another identity of a member's account
            account = store.player_account(player)
            member = keys.get(("a", account)) if account is not None else None
        out.append({"seat": s.seat, "kind": s.kind, "name": s.name if s.kind != "empty" else None,
                    "level": s.bot_level if s.kind == "bot" else None, "member": member})
    return out


def live_summary(store: Store, club: ClubRow, *, now: float, online_seconds: float,
                 tables_listed: int) -> dict[str, Any]:
    """The club's live summary: ``online`` (members, each with the ``table`` they sit at, if any),
    ``tables`` (the open ones, with their ``seats``) and ``ledger`` (its stamp)."""
    members = store.club_members(club.id)
    tables = []
    seated: dict[str, str] = {}
    for t in store.club_tables(club.id, tables_listed, live=True):
        seats = seats_of(store, t.table_id, members)
        for s in seats:
            if s["member"] is not None:
                seated.setdefault(s["member"], t.code)
        tables.append({"code": t.code, "name": t.name, "status": t.status, "url": f"/t/{t.code}",
                       "public": t.public, "seats": seats})
    seen = {str(p) for p in store.club_seen_since(club.id, now - online_seconds)}
    online = [{"member": str(m.player_id), "name": m.name, "table": seated.get(str(m.player_id))}
              for m in members if str(m.player_id) in seen or str(m.player_id) in seated]
    hands, latest, period = store.club_ledger_stamp(club.id)
    return {"online": online, "tables": tables, "members": len(members),
            "ledger": f"{period}.{hands}.{latest:.3f}"}


def etag(summary: dict[str, Any]) -> str:
    """The summary's version: a quoted hash of its JSON (the same data, the same tag on every worker)."""
    text = json.dumps(summary, sort_keys=True, separators=(",", ":"))
    return '"' + hashlib.sha256(text.encode()).hexdigest()[:20] + '"'


class SeenWrites:
    """When each (club, member) was last written as seen by this worker, for at most ``size`` of them
    (the least recent forgotten: at worst one write more): a page asking every few seconds is written
    at most every ``every`` seconds."""

    def __init__(self, every: float, size: int) -> None:
        self.every, self.size = every, size
        self._last: OrderedDict[tuple[int, int], float] = OrderedDict()

    def due(self, club_id: int, player_id: int, now: float) -> bool:
        key = (club_id, player_id)
        last = self._last.get(key)
        if last is not None and now - last < self.every:
            return False
        self._last[key] = now
        self._last.move_to_end(key)
        while len(self._last) > self.size:
            self._last.popitem(last=False)
        return True

    def __len__(self) -> int:
        return len(self._last)
