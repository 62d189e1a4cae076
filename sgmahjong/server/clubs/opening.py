"""Where a club table is opened (docs/clubs.md, "Opening a club table"): :func:`open_club_table`, the
one place the club's page opens a table of the club."""

from __future__ import annotations

import time
from typing import Any

from pydantic import ValidationError

from ..store.clubs_sql import ClubRow
from ..table.table import Table
from ..tables import CreateTable, TableServer
from .choices import ClubChoices, merged, table_setup


def club_defaults(server: TableServer, club_id: int) -> ClubChoices:
    """The owner's defaults of the club's tables (none kept, or no longer valid: the site's)."""
    try:
        return ClubChoices.model_validate(server.store.club_table_defaults(club_id))
    except ValidationError:
        return ClubChoices()


def open_club_table(server: TableServer, club: ClubRow, *, name: str | None, choices: ClubChoices,
                    options: dict[str, Any]) -> Table:
    """Open a private table of ``club`` at the club's house rules, with ``choices`` over the club's
    defaults (rounds, turn timer, pace, bots' level) and any other table ``options`` (spectators' chat
    off unless asked for); it is the club's from now on (only its members sit, its ledger counts it).
    Raises ProtocolError for a refused table (the server full, a bad option)."""
    rules, chosen = table_setup(merged(club_defaults(server, club.id), choices))
    table = server.create(CreateTable(name=name or club.name, preset=club.preset, rules=rules, private=True,
                                      options={"spectator_chat": False, **options, **chosen}))
    server.store.add_club_table(club.id, table.id, time.time())
    server.ownership.created(table)
    return table
