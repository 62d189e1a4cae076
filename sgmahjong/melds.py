"""Melds: chows, pongs and kongs, exposed or concealed."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .errors import invalid_hand
from .tiles import Tile, format_tiles


class MeldKind(Enum):
    CHOW = "chow"
    PONG = "pong"
    KONG = "kong"


@dataclass(frozen=True, slots=True)
class Meld:
    """A set of tiles. ``tile`` is the lowest tile of a chow, or the tile of a pong/kong.

    ``concealed`` is true only for a concealed kong (暗杠) in a hand string, or for sets that the
    analysis finds inside the concealed tiles.
    """

    kind: MeldKind
    tile: Tile
    concealed: bool = False

    def __post_init__(self) -> None:
        if self.kind is MeldKind.CHOW:
            if not self.tile.is_suited or self.tile.rank > 7:
                raise invalid_hand("meld.no_chow", f"no chow starts at {self.tile!r}", tile=repr(self.tile))
        elif self.tile.is_bonus:
            raise invalid_hand("meld.bonus", f"a bonus tile {self.tile!r} cannot form a {self.kind.value}",
                               tile=repr(self.tile))

    @property
    def tiles(self) -> tuple[Tile, ...]:
        t = self.tile
        if self.kind is MeldKind.CHOW:
            return (t, Tile(t + 1), Tile(t + 2))
        return (t,) * (4 if self.kind is MeldKind.KONG else 3)

    @property
    def is_chow(self) -> bool:
        return self.kind is MeldKind.CHOW

    @property
    def is_pong_or_kong(self) -> bool:
        return self.kind is not MeldKind.CHOW

    @property
    def is_kong(self) -> bool:
        return self.kind is MeldKind.KONG

    def __repr__(self) -> str:
        return format_meld(self)


def chow(tile: Tile) -> Meld:
    return Meld(MeldKind.CHOW, tile)


def pong(tile: Tile) -> Meld:
    return Meld(MeldKind.PONG, tile)


def kong(tile: Tile, concealed: bool = False) -> Meld:
    return Meld(MeldKind.KONG, tile, concealed)


def format_meld(meld: Meld) -> str:
    body = format_tiles(meld.tiles)
    return f"{{{body}}}" if meld.concealed and meld.is_kong else f"[{body}]"
