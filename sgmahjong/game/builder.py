"""The mutable working copy behind each ``apply`` and the shared, prebuilt Action objects.

Each ``apply`` copies the state into a :class:`Builder`, plays the action and every automatic step it
causes, and freezes the result into a new :class:`HandState` (unchanged seats are shared).
"""

from __future__ import annotations

from typing import Any, TypeVar

from ..analysis.waits import waits
from ..rules import RuleSet
from ..tiles import NUM_PLAYING, Tile
from .actions import Action
from .events import Event, make_event
from .state import HandState, SeatState

T = TypeVar("T", HandState, SeatState)
_new = object.__new__
_setattr = object.__setattr__


def seat_waits(concealed: tuple[Tile, ...] | list[Tile]) -> frozenset[int]:
    """The shape waits of a 13-tile-equivalent concealed part."""
    counts = [0] * NUM_PLAYING
    for t in concealed:
        counts[t] += 1
    return frozenset(waits(counts))


def derive(old: T, changes: dict[str, Any]) -> T:
    """A copy of the frozen dataclass ``old`` (a :class:`HandState` or :class:`SeatState`, which keep a
    ``__dict__``) with ``changes``: copies the old instance's dict, much cheaper than
    ``dataclasses.replace`` (no ``__init__`` setting every field through ``object.__setattr__``)."""
    d = old.__dict__.copy()
    d.update(changes)
    new = _new(type(old))
    _setattr(new, "__dict__", d)
    return new


# shared Action objects (the hot path builds no new ones)


DISCARD = tuple(tuple(Action(s, "discard", Tile(t)) for t in range(NUM_PLAYING)) for s in range(4))


KONG = tuple(tuple(Action(s, "kong", Tile(t)) for t in range(NUM_PLAYING)) for s in range(4))


CHOW = tuple(tuple(Action(s, "chow", Tile(t)) for t in range(27)) for s in range(4))


PONG = tuple(Action(s, "pong") for s in range(4))


PASS = tuple(Action(s, "pass") for s in range(4))


WIN = tuple(Action(s, "win") for s in range(4))


class Builder:
    """Mutable working copy of a :class:`HandState` for one ``apply``: ``f`` holds every field (read
    with :meth:`get`, written with :meth:`set`), ``seats`` the seats (replaced by :meth:`upd`)."""

    def __init__(self, state: HandState) -> None:
        self.s = state
        self.seats = list(state.seats)
        self.events: list[Event] = []
        self.f: dict[str, Any] = state.__dict__.copy()

    # -- field access ----------------------------------------------------------------------------
    def get(self, name: str) -> Any:
        return self.f[name]

    def set(self, **kw: Any) -> None:
        self.f.update(kw)

    @property
    def rules(self) -> RuleSet:
        return self.s.rules

    def seat(self, i: int) -> SeatState:
        return self.seats[i]

    def upd(self, i: int, **kw: Any) -> None:
        """Replace seat ``i`` with a copy changing ``kw``; a change of the concealed tiles forgets the
        cached ``waits`` unless they are given too."""
        if "concealed" in kw and "waits" not in kw:
            kw["waits"] = None
        self.seats[i] = derive(self.seats[i], kw)

    def emit(self, kind: str, seat: int | None = None, /, **data: Any) -> None:
        self.events.append(make_event(kind, seat, data))

    def remaining(self) -> int:
        f = self.f
        return len(self.s.wall) - f["front"] - f["back"] - 15  # type: ignore[no-any-return]

    def pay(self, amounts: list[int]) -> None:
        ledger = self.f["ledger"]
        self.f["ledger"] = tuple(a + b for a, b in zip(ledger, amounts, strict=True))

    def freeze(self, version: int) -> HandState:
        f = self.f
        f["seats"] = tuple(self.seats)
        f["version"] = version
        new = _new(HandState)
        _setattr(new, "__dict__", f)  # f is not used after this
        return new
