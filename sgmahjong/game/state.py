"""Immutable hand state: frozen dataclasses of tuples, shared structurally between versions."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from ..melds import Meld, MeldKind
from ..rules import RuleSet
from ..tiles import Tile
from .actions import Action

TURN: Final = "turn"
CLAIM: Final = "claim"
ENDED: Final = "ended"


@dataclass(frozen=True, slots=True)
class SetRec:
    """An exposed set or a concealed kong, with the seat whose discard completed it (``None`` when
    made from the seat's own tiles)."""

    kind: MeldKind
    tile: Tile
    concealed: bool = False
    source: int | None = None
    meld: Meld = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "meld", Meld(self.kind, self.tile, self.concealed))


# SeatState and HandState keep a ``__dict__`` (no ``__slots__``) so that the engine can derive a new
# version by copying the old one's dict (see builder.py): much cheaper than setting every field.
@dataclass(frozen=True)
class SeatState:
    """One seat. ``concealed`` is sorted and includes the ``drawn`` tile (the last tile drawn, shown
    apart to its owner). ``discards`` are the tiles still in the seat's pile, ``taken`` the discards
    another seat claimed (where in the pile each lay, the tile, who took it), for the view. ``barred``
    holds tiles the seat may not win or pong off a discard until its next turn (sacred / missed
    discard). ``liable`` is the seat that owes the whole win (包) after a claim-triggered liability.
    ``waits`` caches the shape waits of the seat's last 13-tile hand (a speed-up for claim windows
    and self-draws; any change of the concealed tiles resets it unless given)."""

    concealed: tuple[Tile, ...] = ()
    drawn: Tile | None = None
    melds: tuple[SetRec, ...] = ()
    bonus: tuple[Tile, ...] = ()
    discards: tuple[Tile, ...] = ()
    taken: tuple[tuple[int, Tile, int], ...] = ()  # claimed discards: (place in the pile, tile, by seat)
    barred: frozenset[Tile] = frozenset()
    paid: frozenset[str] = frozenset()
    dealt_bonus: frozenset[Tile] = frozenset()
    has_drawn: bool = False
    liable: int | None = None
    liable_reason: str | None = None
    waits: frozenset[int] | None = None  # tiles completing the 13-tile shape (None: not known)

    @property
    def size(self) -> int:
        """Concealed tiles plus three per set (a kong counts as 3)."""
        return len(self.concealed) + 3 * len(self.melds)


@dataclass(frozen=True, slots=True)
class Window:
    """An open claim window. ``kind``: ``discard``, ``added_kong``, ``concealed_kong`` or ``eighth``
    (another seat drew the eighth flower). ``options[seat]`` are the actions open to each asked seat;
    ``decisions[seat]`` what each decided so far."""

    kind: str
    source: int
    tile: Tile
    options: tuple[tuple[Action, ...], ...]
    decisions: tuple[Action | None, ...] = (None, None, None, None)

    @property
    def asked(self) -> tuple[int, ...]:
        return tuple(s for s in range(4) if self.options[s])

    @property
    def waiting(self) -> tuple[int, ...]:
        return tuple(s for s in range(4) if self.options[s] and self.decisions[s] is None)


@dataclass(frozen=True)
class HandState:
    """The whole of one hand. ``wall`` is in draw order; ``front`` tiles were drawn from the front and
    ``back`` from the back. ``turn_options`` caches the legal actions of the seat on turn."""

    rules: RuleSet
    seed: int | str | None  # a hand secret (64 hex digits) or a legacy integer seed
    dealer: int
    prevailing: int
    wall: tuple[Tile, ...]
    stacked: bool
    salt: str
    wall_hash: str
    dice: tuple[int, int, int]
    front: int = 0
    back: int = 0
    seats: tuple[SeatState, ...] = ()
    phase: str = TURN
    turn: int = 0
    version: int = 0
    window: Window | None = None
    turn_options: tuple[Action, ...] = ()
    last_discard: tuple[int, Tile] | None = None
    draw_source: str = "deal"  # deal, front, flower, kong, kong_on_kong, claim
    flower_chain: int = 0
    kongs_in_turn: int = 0
    last_tile: bool = False
    kong_made: bool = False
    claims_made: bool = False
    discards_made: int = 0
    seen: tuple[int, ...] = (0,) * 34  # discards (and tiles claimed for pong/kong), for 生牌
    ledger: tuple[int, ...] = (0, 0, 0, 0)
    instant: tuple[tuple[str, int, tuple[int, ...], int | None], ...] = ()  # (reason, to, amounts, liable)
    result: dict[str, Any] | None = None
    turn_win: Any = None  # WinInfo of the seat on turn, if it may (or tried to) win
    window_wins: tuple[Any, ...] = (None, None, None, None)  # WinInfo per seat in the open window
    last_fresh: bool = False  # the last discard was a fresh tile (生牌)
    claimed: tuple[int, Tile] | None = None  # (discarder, tile) of the pong/kong that began this turn
    kong_liable: int | None = None  # 包杠: the discarder of the fresh tile konged this turn, if liable
    deal_pos: tuple[int, int, Tile] | None = None  # a deal paused by an eighth-flower window: see deal.py
    actions: tuple[Action, ...] = ()  # every applied action, in order (the replayable log)
    # no tells (RULES.md §3): every discard and kong opens its window, decisions stay private and
    # the table closes the window (action ``close``) after its pause; see engine.py
    pause_windows: bool = False

    @property
    def ended(self) -> bool:
        return self.phase == ENDED

    @property
    def wall_remaining(self) -> int:
        """Drawable tiles left (the last 15 are never drawn)."""
        return len(self.wall) - self.front - self.back - 15
