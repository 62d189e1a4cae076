"""Events: what an applied action caused, small and JSON-able, and their per-seat redaction."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    """``kind`` (``hand_start``, ``deal``, ``draw``, ``bonus``, ``discard``, ``chow``, ``pong``,
    ``kong``, ``pass``, ``payment``, ``win``, ``drawn_game``, ``hand_end``, ``window``, ``action``,
    ``decision`` (a seat's decision in a paused window, seen by that seat only)), the ``seat``
    it concerns (or ``None``) and its ``data``. No data key is ``kind`` or ``seat``: a kong's, a
    window's and a win's own kind are ``kong_kind``, ``window_kind`` and ``win_kind``."""

    kind: str
    seat: int | None = None
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The full event as a JSON-able dict (not redacted: never send this to a seat)."""
        return {"kind": self.kind, "seat": self.seat, **self.data}


_new = object.__new__
_set_kind = Event.__dict__["kind"].__set__  # the slots' member descriptors
_set_seat = Event.__dict__["seat"].__set__
_set_data = Event.__dict__["data"].__set__


def make_event(kind: str, seat: int | None, data: dict[str, Any]) -> Event:
    """``Event(kind, seat, data)`` for the engine's hot path: fills the slots directly, about twice
    as fast as the frozen dataclass's ``__init__`` (which goes through ``object.__setattr__``)."""
    event = _new(Event)
    _set_kind(event, kind)
    _set_seat(event, seat)
    _set_data(event, data)
    return event


# data keys each kind hides from everyone but the event's seat
_PRIVATE: dict[str, tuple[str, ...]] = {
    "deal": ("tiles",),
    "draw": ("tile",),
}
# keys hidden from the other seats: a claim decision and who is asked stay private (who may claim
# would tell who holds a pair or a wait); the resulting pong, chow, kong or win event is public
_OWN_ONLY: dict[str, tuple[str, ...]] = {
    "action": ("action", "seat"),
    "pass": ("seat",),
}
# data keys hidden from every seat and spectators (the wall, or who waits on a tile)
_SECRET: dict[str, tuple[str, ...]] = {
    "hand_start": ("seed", "wall", "salt"),
    "window": ("asked",),  # who may rob tells who waits on the tile
}


# kinds only the event's own seat sees at all (a decision inside a paused claim window: even an
# anonymous trace of it would tell that somebody could claim)
_SEAT_ONLY = frozenset({"decision"})


def redact_event(event: Event, seat: int | None) -> dict[str, Any] | None:
    """What ``seat`` (``None`` = spectator) may see of ``event``: its own drawn and dealt tiles, and
    everything public; another seat's concealed tiles become a count. ``None``: nothing at all (another
    seat's ``decision``)."""
    if event.kind in _SEAT_ONLY and (seat is None or seat != event.seat):
        return None
    out = event.to_json()
    for key in _SECRET.get(event.kind, ()):
        out.pop(key, None)
    if seat is None or seat != event.seat:
        for key in _OWN_ONLY.get(event.kind, ()):
            if key == "seat":
                out["seat"] = None
            else:
                out.pop(key, None)
        for key in _PRIVATE.get(event.kind, ()):
            if key in out:
                value = out.pop(key)
                if isinstance(value, list):
                    out["count"] = len(value)
    return out
