"""The mutable working copy behind each ``apply`` and the shared, prebuilt Action objects.

Each ``apply`` copies the state into a :class:`Builder`, plays the action and every automatic step it
causes, and freezes the result into a new :class:`HandState` (unchanged seats are shared).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any

from ..analysis.waits import waits
from ..rules import RuleSet
from ..tiles import NUM_PLAYING, Tile
from .actions import Action
from .events import Event
from .state import HandState, SeatState
from .wins import WinInfo


def seat_waits(concealed: tuple[Tile, ...] | list[Tile]) -> frozenset[int]:
    """The shape waits of a 13-tile-equivalent concealed part."""
    counts = [0] * NUM_PLAYING
    for t in concealed:
        counts[t] += 1
    return frozenset(waits(counts))


def _make_evolve() -> Any:
    """A fast ``dataclasses.replace`` for HandState: one unrolled function, generated once."""
    names = [f.name for f in fields(HandState)]
    body = "".join(f"    s(n, {x!r}, f[{x!r}] if {x!r} in f else old.{x})\n" for x in names)
    src = f"def evolve(old, f):\n    n = new(HandState)\n{body}    return n\n"
    scope: dict[str, Any] = {"new": object.__new__, "s": object.__setattr__, "HandState": HandState}
    exec(src, scope)
    return scope["evolve"]


evolve: Callable[[HandState, dict[str, Any]], HandState] = _make_evolve()
# shared Action objects (the hot path builds no new ones)


DISCARD = tuple(tuple(Action(s, "discard", Tile(t)) for t in range(NUM_PLAYING)) for s in range(4))


KONG = tuple(tuple(Action(s, "kong", Tile(t)) for t in range(NUM_PLAYING)) for s in range(4))


CHOW = tuple(tuple(Action(s, "chow", Tile(t)) for t in range(27)) for s in range(4))


PONG = tuple(Action(s, "pong") for s in range(4))


PASS = tuple(Action(s, "pass") for s in range(4))


class Builder:
    """Mutable working copy of a :class:`HandState` for one ``apply``."""

    def __init__(self, state: HandState) -> None:
        self.s = state
        self.seats = list(state.seats)
        self.events: list[Event] = []
        self.f: dict[str, Any] = {}
        self.turn_win: WinInfo | None = None

    # -- field access ----------------------------------------------------------------------------
    def get(self, name: str) -> Any:
        return self.f[name] if name in self.f else getattr(self.s, name)

    def set(self, **kw: Any) -> None:
        self.f.update(kw)

    @property
    def rules(self) -> RuleSet:
        return self.s.rules

    def seat(self, i: int) -> SeatState:
        return self.seats[i]

    def upd(self, i: int, **kw: Any) -> None:
        st = self.seats[i]
        g = kw.get
        self.seats[i] = SeatState(
            g("concealed", st.concealed), g("drawn", st.drawn) if "drawn" in kw else st.drawn,
            g("melds", st.melds), g("bonus", st.bonus), g("discards", st.discards),
            g("barred", st.barred), g("paid", st.paid), g("dealt_bonus", st.dealt_bonus),
            g("has_drawn", st.has_drawn), g("liable", st.liable) if "liable" in kw else st.liable,
            g("liable_reason", st.liable_reason),
            kw.get("waits", None if "concealed" in kw else st.waits))

    def emit(self, kind: str, seat: int | None = None, /, **data: Any) -> None:
        self.events.append(Event(kind, seat, data))

    def remaining(self) -> int:
        front: int = self.get("front")
        back: int = self.get("back")
        return len(self.s.wall) - front - back - 15

    def pay(self, amounts: list[int]) -> None:
        ledger = self.get("ledger")
        self.set(ledger=tuple(a + b for a, b in zip(ledger, amounts, strict=True)))

    def freeze(self, version: int) -> HandState:
        f = self.f
        f["seats"] = tuple(self.seats)
        f["version"] = version
        return evolve(self.s, f)
