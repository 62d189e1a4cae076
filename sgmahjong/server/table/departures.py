"""Players deleted while they sit at a table (``DELETE /api/me``), and devices signed out while they
have a table open: the table plays on.

A seat in play keeps its place in the match and passes to a bot (its player's sockets are sent away and
nobody's token opens it again); its name becomes "a deleted player". A seat in the lobby is emptied.
At a ranked match the seat counts as abandoned (its player is not there at the end): the others are
rated as they would have been (:mod:`..ranking.record`).

A device signed out (here, from another device, or everywhere) is a new guest at once: each socket it
opened with the ended session is sent away, so a tab left open plays no seat of the account; its page
reconnects as whoever the device is now (a spectator, unless it signs in again).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..store.identity_sql import DELETED_NAME
from .seats import Seat

if TYPE_CHECKING:
    from .table import Table

GONE = {"type": "error", "code": "player_deleted", "ref": None,
        "message": "this player was deleted; the seat is played by a bot"}
GONE_CLOSE = 4401  # the WebSocket close code of a socket sent away because its player was deleted
SIGNED_OUT = {"type": "error", "code": "signed_out", "ref": None,
              "message": "this device was signed out; reconnecting as a guest"}
SIGNED_OUT_CLOSE = 4402  # ... because the session it opened with ended (signed out)


def players_gone(table: Table, player_ids: list[int]) -> list[int]:
    """Seat the deleted ``player_ids`` out of ``table`` (the caller holds its lock); the seats."""
    seats = sorted(seat for seat, pid in table.records.seat_links().items()
                   if pid in player_ids and table.seats[seat].kind == "human")
    for seat in seats:
        for conn in list(table.conns):
            if conn.seat == seat or conn.owner_seat == seat:
                conn.send_away(GONE, GONE_CLOSE)
        if table.status == "lobby":
            table.seating.empty(seat)
            table.store.link_seat_player(table.id, seat, None)
        else:
            old = table.seats[seat]
            table.seating.put(Seat(seat, "human", DELETED_NAME, old.bot_level, None))
        table.seat_ranks.pop(seat, None)
    if seats:
        table.records.forget()
        table.broadcast_table()
    return seats


def sessions_ended(table: Table, session_hashes: set[str]) -> int:
    """Send away the sockets of ``table`` opened with one of the ended sessions (the caller holds its
    lock); how many."""
    gone = [c for c in table.conns if c.session and c.session in session_hashes]
    for conn in gone:
        conn.send_away(SIGNED_OUT, SIGNED_OUT_CLOSE)
    return len(gone)
