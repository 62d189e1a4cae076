"""Tiles: the 46 faces of the 148-tile Singapore set (RULES.md §1).

A :class:`Tile` is an ``IntEnum`` so that it works directly as an index into count arrays (the hot
paths of hand analysis use ``list[int]`` of length :data:`NUM_PLAYING` = 34). Index layout:

* 0-8 characters ``1m``-``9m``, 9-17 dots ``1p``-``9p``, 18-26 bamboo ``1s``-``9s``
* 27-30 winds ``E S W N``, 31-33 dragons ``C F P`` (red, green, white)
* 34-41 flowers ``1f``-``8f`` (1-4 the red set, 5-8 the seasons), 42-45 animals ``1a``-``4a``
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum
from typing import Final

NUM_PLAYING: Final = 34  # suited + honours: the tiles that make sets
NUM_FACES: Final = 46  # all distinct faces, bonus tiles included
COPIES = 4  # copies of each playing tile; one copy of each bonus tile

SUITS = "mps"
HONOUR_LETTERS = "ESWNCFP"


class Tile(IntEnum):
    """One tile face. ``repr`` and ``str`` give its notation (``5p``, ``E``, ``3f``, ``1a``)."""

    M1 = 0
    M2 = 1
    M3 = 2
    M4 = 3
    M5 = 4
    M6 = 5
    M7 = 6
    M8 = 7
    M9 = 8
    P1 = 9
    P2 = 10
    P3 = 11
    P4 = 12
    P5 = 13
    P6 = 14
    P7 = 15
    P8 = 16
    P9 = 17
    S1 = 18
    S2 = 19
    S3 = 20
    S4 = 21
    S5 = 22
    S6 = 23
    S7 = 24
    S8 = 25
    S9 = 26
    EAST = 27
    SOUTH = 28
    WEST = 29
    NORTH = 30
    RED = 31
    GREEN = 32
    WHITE = 33
    PLUM = 34
    ORCHID = 35
    CHRYSANTHEMUM = 36
    BAMBOO = 37
    SPRING = 38
    SUMMER = 39
    AUTUMN = 40
    WINTER = 41
    CAT = 42
    RAT = 43
    ROOSTER = 44
    CENTIPEDE = 45

    # -- notation -------------------------------------------------------------------------------
    @property
    def notation(self) -> str:
        return _NOTATION[self]

    def __repr__(self) -> str:
        return _NOTATION[self]

    def __str__(self) -> str:
        return _NOTATION[self]

    # -- predicates -----------------------------------------------------------------------------
    @property
    def is_suited(self) -> bool:
        return self < 27

    @property
    def is_honour(self) -> bool:
        return 27 <= self < 34

    @property
    def is_wind(self) -> bool:
        return 27 <= self < 31

    @property
    def is_dragon(self) -> bool:
        return 31 <= self < 34

    @property
    def is_flower(self) -> bool:
        return 34 <= self < 42

    @property
    def is_animal(self) -> bool:
        return self >= 42

    @property
    def is_bonus(self) -> bool:
        return self >= 34

    @property
    def is_terminal(self) -> bool:
        return self < 27 and self % 9 in (0, 8)

    @property
    def is_terminal_or_honour(self) -> bool:
        return (27 <= self < 34) or (self < 27 and self % 9 in (0, 8))

    @property
    def suit(self) -> str:
        """``m``, ``p``, ``s`` for suited tiles, ``z`` for honours, ``f`` flowers, ``a`` animals."""
        if self < 27:
            return SUITS[self // 9]
        if self < 34:
            return "z"
        return "f" if self < 42 else "a"

    @property
    def rank(self) -> int:
        """1-9 for suited tiles, 1-8 for flowers, 1-4 for animals; 0 for honours."""
        if self < 27:
            return self % 9 + 1
        if self < 34:
            return 0
        return self - 33 if self < 42 else self - 41

    @property
    def flower_seat(self) -> int:
        """The seat (0 East .. 3 North) a flower belongs to; -1 for any other tile."""
        if 34 <= self < 42:
            return (self - 34) % 4
        return -1


def _notation(index: int) -> str:
    if index < 27:
        return f"{index % 9 + 1}{SUITS[index // 9]}"
    if index < 34:
        return HONOUR_LETTERS[index - 27]
    if index < 42:
        return f"{index - 33}f"
    return f"{index - 41}a"


_NOTATION: dict[int, str] = {i: _notation(i) for i in range(NUM_FACES)}

ALL_TILES: tuple[Tile, ...] = tuple(Tile)
PLAYING_TILES: tuple[Tile, ...] = ALL_TILES[:NUM_PLAYING]
BONUS_TILES: tuple[Tile, ...] = ALL_TILES[NUM_PLAYING:]
FLOWERS: tuple[Tile, ...] = ALL_TILES[34:42]
ANIMALS: tuple[Tile, ...] = ALL_TILES[42:46]
WINDS: tuple[Tile, ...] = (Tile.EAST, Tile.SOUTH, Tile.WEST, Tile.NORTH)
DRAGONS: tuple[Tile, ...] = (Tile.RED, Tile.GREEN, Tile.WHITE)
TERMINALS_AND_HONOURS: tuple[Tile, ...] = tuple(t for t in PLAYING_TILES if t.is_terminal_or_honour)
GREEN_TILES: frozenset[Tile] = frozenset(
    {Tile.S2, Tile.S3, Tile.S4, Tile.S6, Tile.S8, Tile.GREEN}
)

SEAT_NAMES = "ESWN"


def full_set() -> list[Tile]:
    """All 148 physical tiles, in face order (4 of each playing tile, 1 of each bonus tile)."""
    tiles: list[Tile] = []
    for t in PLAYING_TILES:
        tiles.extend([t] * COPIES)
    tiles.extend(BONUS_TILES)
    return tiles


def copies_of(tile: Tile) -> int:
    """How many physical copies of ``tile`` a full set holds."""
    return COPIES if tile < NUM_PLAYING else 1


def wind_of_seat(seat: int) -> Tile:
    """The wind tile of seat 0-3 (East, South, West, North)."""
    return WINDS[seat]


def seat_flowers(seat: int) -> tuple[Tile, Tile]:
    """The two flowers that match a seat (flower n and n+4 belong to seat n-1)."""
    return FLOWERS[seat], FLOWERS[seat + 4]


def counts34(tiles: object) -> list[int]:
    """A length-34 count array of the playing tiles in an iterable of tiles (bonus tiles ignored)."""
    counts = [0] * NUM_PLAYING
    for t in tiles:  # type: ignore[attr-defined]
        if t < NUM_PLAYING:
            counts[t] += 1
    return counts


def format_tiles(tiles: Iterable[Tile]) -> str:
    """Compact notation, in the order given: runs of one suit share the letter (``123m5p``)."""
    out: list[str] = []
    pending_suit = ""
    for t in tiles:
        s = t.notation
        if len(s) == 1:  # honour
            if pending_suit:
                out.append(pending_suit)
                pending_suit = ""
            out.append(s)
            continue
        digit, suit = s[0], s[1]
        if pending_suit and suit != pending_suit:
            out.append(pending_suit)
        out.append(digit)
        pending_suit = suit
    if pending_suit:
        out.append(pending_suit)
    return "".join(out)
