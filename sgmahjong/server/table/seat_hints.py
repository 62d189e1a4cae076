"""Each connected human seat's beginner hints (``sgmahjong.hints``: shanten, waits, unseen copies and
the tai of each wait), sent to that seat's connections only, and the table log a connection is sent
when it says hello (the current hand's stored events, redacted for the viewer). Mixed into
:class:`~.table.Table`.

Cost: the waits and their scores depend only on the seat's own tiles, so they are computed when those
change (cached per seat, one entry each); the unseen counts are recounted on a change of the table
only for a seat that is ready, and a seat is sent its hints only when they changed."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ... import hints
from . import engine
from .base import TableBase

if TYPE_CHECKING:
    from .connections import Connection

LOG_MAX = 500  # events of the current hand sent to a connection at hello


class HintsMixin(TableBase):
    """Hints and the log at hello (the caller holds the table lock)."""

    def _hints_for(self, seat: int) -> dict[str, Any] | None:
        if self.match is None or self.status != "playing":
            return None
        hand = engine.hand_of(self.match)
        if hand.ended:
            return None
        st = hand.seats[seat]
        tiles = list(st.concealed)
        drawn = st.drawn if st.drawn is not None and st.drawn in tiles else None
        if drawn is not None:
            tiles.remove(drawn)
        melds = tuple(m.meld for m in st.melds)
        seat_wind = (seat - hand.dealer) % 4
        key = (self.hand_number, tuple(tiles), melds, tuple(st.bonus), seat_wind, hand.prevailing)
        cached = self.flow.hint_ready.get(seat)
        if cached is not None and cached[0] == key:
            ready = cached[1]
        else:
            ready = hints.ready_hints(tiles, melds, st.bonus, seat_wind, hand.prevailing, self.rules)
            self.flow.hint_ready[seat] = (key, ready)
        drawn_wins = False
        if drawn is not None and ready["shanten"] == 0:
            drawn_wins = any(w["tile"] == drawn.notation for w in ready["waits"])
        visible = [0] * 34
        if ready["waits"]:
            visible = hints.visible_counts(
                [s.discards for s in hand.seats], [[m.meld for m in s.melds] for s in hand.seats]
            )
        out = hints.with_unseen(ready, st.concealed, visible, drawn, drawn_wins)
        out["hand_number"] = self.hand_number
        out["version"] = hand.version
        return out

    def _push_hints(self) -> None:
        """After a change: each connected human seat whose hints changed is sent them. A seat whose
        tiles did not change and whose hand is not ready is skipped at once (without waits its hints
        do not depend on the other seats' tiles)."""
        seats = {c.seat for c in self.conns if c.seat is not None and c.hello}
        if not seats or self.match is None:
            return
        hand = engine.hand_of(self.match)
        for seat in seats:
            if self.seats[seat].kind != "human":
                continue
            st = hand.seats[seat]
            same = (self.hand_number, hand.ended, st.concealed, st.drawn, st.melds, st.bonus)
            if self.flow.hint_same.get(seat) == same:
                continue
            data = self._hints_for(seat)
            if data is None:
                self.flow.hint_sent.pop(seat, None)
                self.flow.hint_same.pop(seat, None)
                continue
            if data["waits"]:
                self.flow.hint_same.pop(seat, None)
            else:
                self.flow.hint_same[seat] = same
            compare = {k: v for k, v in data.items() if k != "version"}
            if self.flow.hint_sent.get(seat) == compare:
                continue
            self.flow.hint_sent[seat] = compare
            msg = {"type": "hints", "hints": data}
            for c in self.conns:
                if c.seat == seat and c.hello:
                    c.push(msg)

    def _hello_extras(self, conn: Connection) -> None:
        """A new connection: the current hand's log (redacted for it) and, for a seat, its hints."""
        if self.match is None:
            return
        stored = self.store.events(self.id, self.hand_number)[-LOG_MAX:]
        conn.push({
            "type": "log", "hand_number": self.hand_number,
            "events": [r for e in stored if (r := engine.redact_stored(e, conn.seat)) is not None],
        })
        if conn.seat is not None and self.seats[conn.seat].kind == "human":
            data = self._hints_for(conn.seat)
            if data is not None:
                conn.push({"type": "hints", "hints": data})
