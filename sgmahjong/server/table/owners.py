"""Whose seat is whose: a human seat belongs to the player who took it (``seat_players``; an account's
players are one person), and a socket is seated by its session, never by a token alone
(docs/security.md). A part of :class:`~.table.Table`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..protocol import ProtocolError

if TYPE_CHECKING:
    from .table import Table


def seat_of(table: Table, player_ids: list[int] | tuple[int, ...]) -> int | None:
    """The human seat of ``table`` taken by one of ``player_ids`` (one person's players), if any."""
    if not player_ids:
        return None
    for seat, pid in table.records.seat_links().items():
        if pid in player_ids and table.seats[seat].kind == "human":
            return seat
    return None


def seat_at_hello(table: Table, token: str | None, player_ids: tuple[int, ...]) -> int | None:
    """The seat a hello opens: the one of its session's player, or the seat of ``token`` when that
    seat is no other player's; None for a spectator. A token of another's seat is refused."""
    seat = seat_of(table, player_ids)
    if token is None:
        return seat
    seat = table.seating.seat_of_token(token)
    if seat is None:
        raise ProtocolError("bad_token", "this token does not open any seat of this table", "hello")
    owner = table.records.seat_links().get(seat)
    if owner is not None and owner not in player_ids:
        raise ProtocolError("bad_token", "this seat is another player's", "hello")
    return seat
