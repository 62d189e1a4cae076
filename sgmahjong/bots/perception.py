"""What a bot reads from its player view: counts of its own tiles, the visible tiles, opponents.

Built only from the view dict (the same JSON a human client receives); nothing else. Tile notation
strings are parsed through a cached table (the view repeats the same few dozen strings).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..notation import parse_tile
from ..tiles import NUM_FACES, Tile

_TILE: dict[str, Tile] = {Tile(i).notation: Tile(i) for i in range(NUM_FACES)}


def tile_of(text: str) -> Tile:
    """The tile a view string names (cached; falls back on the notation parser for aliases)."""
    t = _TILE.get(text)
    if t is None:
        t = parse_tile(text)
        _TILE[text] = t
    return t


@dataclass(slots=True)
class SeatSeen:
    """What everybody can see of one seat."""

    seat: int
    melds: list[tuple[str, int, bool]] = field(default_factory=list)  # (kind, lowest tile, concealed)
    bonus: list[Tile] = field(default_factory=list)
    discards: list[int] = field(default_factory=list)
    concealed_count: int = 0


@dataclass(slots=True)
class Perception:
    """A seat's knowledge, parsed from its view."""

    seat: int
    phase: str
    dealer: int
    prevailing: int
    turn: int
    wall_remaining: int
    hand: list[int]  # 34 counts of own concealed tiles (the drawn tile added back in)
    drawn: int | None
    seats: list[SeatSeen]
    visible: list[int]  # 34 counts: own concealed + every exposed meld + every discard pool
    in_pools: list[int]  # 34 counts of tiles in discard pools (claimed tiles count as discarded)
    last_discard: tuple[int, int] | None
    claim: tuple[str, int, int] | None = None  # an open claim window: (kind, source seat, tile)

    @property
    def me(self) -> SeatSeen:
        return self.seats[self.seat]

    @property
    def n_melds(self) -> int:
        return len(self.seats[self.seat].melds)

    def live(self, tile: int) -> int:
        """Copies of ``tile`` that may still be drawn or discarded (not visible to this seat)."""
        n = 4 - self.visible[tile]
        return n if n > 0 else 0


_INDEX: dict[str, int] = {Tile(i).notation: i for i in range(NUM_FACES)}


def _indexes(texts: Any) -> list[int]:
    """Tile indexes of a list of view strings (a C-level map; the parser only for aliases)."""
    try:
        return list(map(_INDEX.__getitem__, texts))
    except (KeyError, TypeError):
        return [int(tile_of(x)) for x in texts if isinstance(x, str)]


_MELDS: dict[tuple[str, ...], tuple[tuple[int, ...], int]] = {}


def _meld(texts: Any) -> tuple[tuple[int, ...], int]:
    """(playing-tile indexes, lowest tile) of a meld's tile strings, memoised (few distinct melds)."""
    key = tuple(texts)
    hit = _MELDS.get(key)
    if hit is None:
        tiles = _indexes(key)
        hit = (tuple(t for t in tiles if t < 34), min(tiles)) if tiles else ((), -1)
        if len(_MELDS) < 10_000:
            _MELDS[key] = hit
    return hit


def _tiles_of(texts: Any) -> list[Tile]:
    """The tiles of a list of view strings."""
    try:
        return list(map(_TILE.__getitem__, texts))
    except (KeyError, TypeError):
        return [tile_of(x) for x in texts if isinstance(x, str)]


def _seat_of(s: SeatSeen) -> int:
    return s.seat


def perceive(view: dict[str, Any]) -> Perception:
    """Parse a ``player_view`` dict (for a seated player) into a :class:`Perception`."""
    seat = int(view["seat"])
    hand = [0] * 34
    visible = [0] * 34
    in_pools = [0] * 34
    seats: list[SeatSeen] = []
    drawn: int | None = None
    for s in view["seats"]:
        ss = SeatSeen(int(s["seat"]), concealed_count=int(s.get("concealed_count") or 0))
        melds = s.get("melds")
        if melds:
            for m in melds:
                tiles, lo = _meld(m.get("tiles") or ())
                if lo < 0:
                    continue
                kind = str(m.get("kind"))
                for t in tiles:
                    visible[t] += 1
                ss.melds.append((kind, lo, bool(m.get("concealed"))))
                if kind != "chow" and m.get("from") is not None:
                    in_pools[lo] += 1
        bonus = s.get("bonus")
        if bonus:
            ss.bonus = _tiles_of(bonus)
        discards = s.get("discards")
        if discards:
            ss.discards = pool = _indexes(discards)
            for t in pool:
                if t < 34:
                    visible[t] += 1
                    in_pools[t] += 1
        if ss.seat == seat:
            for t in _indexes(s.get("concealed") or ()):
                if t < 34:
                    hand[t] += 1
                    visible[t] += 1
            d = s.get("drawn")
            if d:
                drawn = int(tile_of(d))
                if drawn < 34:
                    hand[drawn] += 1
                    visible[drawn] += 1
        seats.append(ss)
    seats.sort(key=_seat_of)
    if max(visible) > 4:
        visible = [v if v <= 4 else 4 for v in visible]
    last = view.get("last_discard")
    last_discard = (int(last["seat"]), int(tile_of(last["tile"]))) if last else None
    window = view.get("window")
    claim = (str(window.get("kind")), int(window["seat"]), int(tile_of(window["tile"]))) if window else None
    return Perception(
        seat=seat,
        phase=str(view.get("phase")),
        dealer=int(view.get("dealer") or 0),
        prevailing=int(view.get("prevailing") or 0),
        turn=int(view.get("turn") or 0),
        wall_remaining=int(view.get("wall_remaining") or 0),
        hand=hand,
        drawn=drawn,
        seats=seats,
        visible=visible,
        in_pools=in_pools,
        last_discard=last_discard,
        claim=claim,
    )
