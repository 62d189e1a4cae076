"""Tonight and the ticks of a settle-up (pure; docs/clubs.md).

*Tonight* is the club's evening: the hands that ended since the latest 06:00 in the club's time zone
(``SGMAHJONG_CLUB_TIME_ZONE``, Asia/Singapore by default), so a game that runs past midnight stays in
the evening it began. A transfer of a settle-up (since the last settle-up, or tonight) may be ticked as
paid by its payer or its payee; the tick is shown on the transfer while the transfer still has the
amount it had when ticked (more hands that change it make it a new transfer, unticked). Ticks never
change an amount: they are read beside the ledger, never into it.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from ..store.club_ticks_sql import TONIGHT, TickRow

EVENING_HOUR = 6  # tonight began at the latest 06:00, local time


def tonight_start(now: float, zone: str) -> float:
    """The epoch seconds of the latest 06:00 at or before ``now`` in ``zone``."""
    local = datetime.fromtimestamp(now, ZoneInfo(zone))
    start = local.replace(hour=EVENING_HOUR, minute=0, second=0, microsecond=0)
    if start > local:
        start = (start - timedelta(days=1)).replace(hour=EVENING_HOUR)
    return start.timestamp()


def period_scope(number: int) -> str:
    return f"period:{number}"


def tonight_scope(start: float) -> str:
    return f"{TONIGHT}{int(start)}"


def with_ticks(transfers: list[dict[str, Any]], scope: str, ticks: Sequence[TickRow],
               names: dict[str, str]) -> list[dict[str, Any]]:
    """``transfers`` (each with ``payer``, ``payee`` and ``points``), each given its ``tick``: None, or
    who ticked it (``by``: a name, ``by_member``) and when (``at``), when a tick of ``scope`` has the
    same payer, payee and amount."""
    found = {(str(t.payer), str(t.payee)): t for t in ticks if t.scope == scope}
    out = []
    for x in transfers:
        t = found.get((x["payer"], x["payee"]))
        tick = None if t is None or t.points != x["points"] else {
            "by": names.get(str(t.ticked_by), ""), "by_member": str(t.ticked_by), "at": t.ticked_at}
        out.append({**x, "tick": tick})
    return out
