"""Each ended hand of a table, recorded for the players whose seats are theirs (a browser identity
linked to the seat when it was taken; ``/me`` lists them). A part of :class:`~.table.Table`."""

from __future__ import annotations

import time

from ...game import HandState
from ..store import PlayerHandRow, Store


class PlayerRecords:
    """The table's seats' players (``links``: read once, again after a seat is linked), so a hand's
    end reads nothing and its write is group-committed with the hand's other writes."""

    def __init__(self, store: Store, table_id: int) -> None:
        self.store = store
        self.table_id = table_id
        self.links: dict[int, int] | None = None  # seat -> player id, None: not read yet

    def seat_links(self) -> dict[int, int]:
        """seat -> player id of the seats taken by a player (read once, again after :meth:`forget`)."""
        if self.links is None:
            self.links = self.store.seat_players(self.table_id)
        return self.links

    def forget(self) -> None:
        """A seat was linked: read the links again at the next hand's end."""
        self.links = None

    def record_hand(self, number: int, hand: HandState, kinds: list[str]) -> None:
        """Record an ended hand for the players whose seats are still theirs (human seats only)."""
        links = {seat: pid for seat, pid in self.seat_links().items() if kinds[seat] == "human"}
        if not links:
            return
        result = hand.result or {}
        winner = result.get("winner")
        drawn = winner is None
        now = time.time()
        rows = {
            seat: PlayerHandRow(
                self.table_id, number, seat, now, won=winner == seat,
                dealt_in=not drawn and not result.get("self_drawn") and result.get("shooter") == seat,
                drawn=drawn, tai=int(result.get("tai") or 0), net=int(hand.ledger[seat]),
                wind=(seat - int(hand.dealer)) % 4,
            )
            for seat in links
        }
        self.store.add_player_hands(self.table_id, links, rows)
