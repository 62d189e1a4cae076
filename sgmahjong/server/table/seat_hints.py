"""Each connected human seat's beginner hints (``sgmahjong.hints``: shanten, waits, unseen copies and
the tai of each wait), sent to that seat's connections only. A part of :class:`~.table.Table`.

Cost: the waits and their scores depend only on the seat's own tiles, so they are computed when those
change (cached per seat, one entry each); the unseen counts are recounted on a change of the table
only for a seat that is ready, and a seat is sent its hints only when they changed. Every cache holds
one entry per seat at most."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ... import hints
from ...rules import RuleSet
from . import engine


class SeatHints:
    """The hints of one table's seats, under its ``rules`` (the caller holds the table lock)."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.ready: dict[int, tuple[Any, dict[str, Any]]] = {}  # seat -> (key, the waits' part)
        self.sent: dict[int, dict[str, Any]] = {}  # seat -> last hints sent
        # seat -> (hand number, the seat's tile tuples) when its last hints were sent without waits
        self.same: dict[int, tuple[Any, ...]] = {}

    def for_seat(self, match: engine.Match, status: str, hand_number: int,
                 seat: int) -> dict[str, Any] | None:
        """The hints of ``seat`` in the hand in play (None when no hand is being played)."""
        hand = engine.hand_of(match)
        if status != "playing" or hand.ended:
            return None
        st = hand.seats[seat]
        tiles = list(st.concealed)
        drawn = st.drawn if st.drawn is not None and st.drawn in tiles else None
        if drawn is not None:
            tiles.remove(drawn)
        melds = tuple(m.meld for m in st.melds)
        seat_wind = (seat - hand.dealer) % 4
        key = (hand_number, tuple(tiles), melds, tuple(st.bonus), seat_wind, hand.prevailing)
        cached = self.ready.get(seat)
        if cached is not None and cached[0] == key:
            ready = cached[1]
        else:
            ready = hints.ready_hints(tiles, melds, st.bonus, seat_wind, hand.prevailing, self.rules)
            self.ready[seat] = (key, ready)
        drawn_wins = False
        if drawn is not None and ready["shanten"] == 0:
            drawn_wins = any(w["tile"] == drawn.notation for w in ready["waits"])
        visible = [0] * 34
        if ready["waits"]:
            visible = hints.visible_counts(
                [s.discards for s in hand.seats], [[m.meld for m in s.melds] for s in hand.seats]
            )
        out = hints.with_unseen(ready, st.concealed, visible, drawn, drawn_wins)
        out["hand_number"] = hand_number
        out["version"] = hand.version
        return out

    def push(self, match: engine.Match, status: str, hand_number: int, seats: Iterable[int],
             send: Callable[[int, dict[str, Any]], None]) -> None:
        """After a change: each of the connected human ``seats`` whose hints changed is sent them
        (``send(seat, message)``). A seat whose tiles did not change and whose hand is not ready is
        skipped at once (without waits its hints do not depend on the other seats' tiles)."""
        hand = engine.hand_of(match)
        for seat in seats:
            st = hand.seats[seat]
            same = (hand_number, hand.ended, st.concealed, st.drawn, st.melds, st.bonus)
            if self.same.get(seat) == same:
                continue
            data = self.for_seat(match, status, hand_number, seat)
            if data is None:
                self.sent.pop(seat, None)
                self.same.pop(seat, None)
                continue
            if data["waits"]:
                self.same.pop(seat, None)
            else:
                self.same[seat] = same
            compare = {k: v for k, v in data.items() if k != "version"}
            if self.sent.get(seat) == compare:
                continue
            self.sent[seat] = compare
            send(seat, {"type": "hints", "hints": data})
