"""The live set of tables: the lobby's list (open public tables, a page at a time) and its upkeep:
a table with no seated human connected for ``idle_table_seconds`` leaves the live set, closed (status
``closed``) or, if its match is over, finished (its players may come back to the standings and ask for
a rematch until then; the lobby lists only open tables at once). Closed and finished tables stay in the
store, readable as history."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from .settings import ServerSettings
from .store import StorageUnavailable

if TYPE_CHECKING:
    from .table.table import Table

log = logging.getLogger("sgmahjong.server")

PAGE_MAX = 200


def lobby_page(summaries: list[dict[str, Any]], total: int, offset: int, limit: int) -> dict[str, Any]:
    """The answer of ``GET /api/tables``: one page of table summaries and the link to the next."""
    after = offset + len(summaries)
    return {
        "tables": summaries,
        "total": total,
        "offset": offset,
        "limit": limit,
        "next": f"/api/tables?offset={after}&limit={limit}" if after < total else None,
    }


class Upkeep:
    """Finds the tables left by their humans and takes them out of the live set (``server.archive``)."""

    def __init__(self, tables: dict[str, Table], settings: ServerSettings) -> None:
        self.tables = tables
        self.settings = settings
        self.seen: dict[str, float] = {}  # code -> when a seated human was last connected

    def due(self, now: float | None = None) -> list[tuple[Table, str]]:
        """(table, new status) of each table to archive now."""
        now = time.monotonic() if now is None else now
        out: list[tuple[Table, str]] = []
        for code in [c for c in self.seen if c not in self.tables]:
            del self.seen[code]
        for code, table in self.tables.items():
            if any(c.seat is not None for c in table.conns) or (
                    table.options.unattended and table.status != "finished"):
                self.seen[code] = now
                continue
            if now - self.seen.setdefault(code, now) >= self.settings.idle_table_seconds:
                out.append((table, "finished" if table.status == "finished" else "closed"))
        return out

    async def run(self, archive: Callable[[Table, str], Awaitable[None]]) -> None:
        """Every ``sweep_seconds``: archive what is due (``archive(table, status)`` is awaited)."""
        while True:
            await asyncio.sleep(self.settings.sweep_seconds)
            for table, status in self.due():
                try:
                    await archive(table, status)
                except StorageUnavailable as exc:  # the database is restarting: expected, no traceback
                    log.warning("table %s could not be archived (%s); tried again later", table.code, exc)
                except Exception:
                    log.exception("table %s could not be archived; tried again later", table.code)
