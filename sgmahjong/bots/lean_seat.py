"""A seat of the expert's lean forward model (:mod:`.lean`) and the constants its modules share.

An :class:`LSeat` is one seat of a :class:`~.lean.Sim`: the fields of the engine's
:class:`~sgmahjong.game.state.SeatState`, mutable, with the concealed tiles as a count array. The
engine's shared actions (``game.builder``) and the tiles are held here as ``Final`` constants that the
compiled modules read without a lookup.
"""

from __future__ import annotations

from typing import Final

from ..analysis.decompose import is_standard_complete
from ..analysis.waits import waits as shape_waits
from ..game import builder
from ..game.actions import Action
from ..game.state import SeatState, SetRec
from ..game.wins import WinInfo, is_thirteen_wonders
from ..melds import MeldKind
from ..tiles import NUM_PLAYING, Tile

FLOWER_TILES: Final = frozenset(range(34, 42))
NO_WINS: Final[list[WinInfo | None]] = [None, None, None, None]
NO_ACTIONS: Final[tuple[Action, ...]] = ()
PONG_KIND: Final = MeldKind.PONG
KONG_KIND: Final = MeldKind.KONG
CHOW_KIND: Final = MeldKind.CHOW
# the engine's shared actions (``game.builder``), as constants the compiled module reads without a lookup
CHOW: Final = builder.CHOW
DISCARD: Final = builder.DISCARD
KONG: Final = builder.KONG
PASS: Final = builder.PASS
PONG: Final = builder.PONG
WIN: Final = builder.WIN
TILES: Final = tuple(Tile(i) for i in range(46))


def waits_of(c: list[int]) -> frozenset[int]:
    return frozenset(shape_waits(c))


def complete(c: list[int], n_melds: int) -> bool:
    """Sets and a pair, or thirteen wonders with no sets (``wins.complete_shape``)."""
    if n_melds == 0 and is_thirteen_wonders(c):
        return True
    return is_standard_complete(c)


SEAT_FIELDS: Final[tuple[str, ...]] = (
    "barred",
    "bonus",
    "c",
    "discards",
    "drawn",
    "has_drawn",
    "liable",
    "liable_reason",
    "melds",
    "waits",
)
"""The attributes of an :class:`LSeat` (its ``__slots__``; compiled, the class has none)."""


class LSeat:
    """One seat of a :class:`Sim` (the fields of :class:`~sgmahjong.game.state.SeatState`, mutable;
    ``c`` counts the concealed tiles, the drawn tile included)."""

    __slots__ = SEAT_FIELDS

    def __init__(self) -> None:
        self.c: list[int] = [0] * NUM_PLAYING
        self.drawn: int | None = None
        self.melds: list[SetRec] = []
        self.bonus: list[int] = []
        self.discards: list[int] = []
        self.barred: set[int] = set()
        self.has_drawn = False
        self.liable: int | None = None
        self.liable_reason: str | None = None
        self.waits: frozenset[int] | None = None

    def copy(self) -> LSeat:
        n = LSeat()
        n.c = self.c[:]
        n.drawn = self.drawn
        n.melds = self.melds[:]
        n.bonus = self.bonus[:]
        n.discards = self.discards[:]
        n.barred = set(self.barred)
        n.has_drawn = self.has_drawn
        n.liable = self.liable
        n.liable_reason = self.liable_reason
        n.waits = self.waits
        return n

    def concealed(self) -> tuple[Tile, ...]:
        """The concealed tiles, sorted (as the engine keeps them)."""
        out: list[Tile] = []
        for t, n in enumerate(self.c):
            if n:
                out.extend((TILES[t],) * n)
        return tuple(out)

    def seat_state(self) -> SeatState:
        """A :class:`SeatState` with the fields the scorer reads (concealed tiles, sets, bonus)."""
        return SeatState(concealed=self.concealed(), melds=tuple(self.melds),
                         bonus=tuple(TILES[t] for t in self.bonus))


def chow_actions(seat: int, c: list[int], t: int) -> list[Action]:
    """``claims._chows`` on a count array."""
    rank = t % 9
    lo = rank >= 1 and c[t - 1] > 0
    hi = rank <= 7 and c[t + 1] > 0
    out: list[Action] = []
    ch = CHOW[seat]
    if lo and rank >= 2 and c[t - 2]:
        out.append(ch[t - 2])
    if lo and hi:
        out.append(ch[t - 1])
    if hi and rank <= 6 and c[t + 2]:
        out.append(ch[t])
    return out
