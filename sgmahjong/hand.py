"""A hand as the scorer sees it: concealed tiles, melds, the winning tile and bonus tiles."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import invalid_hand
from .melds import Meld, format_meld
from .tiles import NUM_FACES, NUM_PLAYING, Tile, copies_of, format_tiles


def _copies(n: int) -> str:
    words = {1: "one copy", 2: "two copies", 3: "three copies", 4: "four copies",
             5: "five copies", 6: "six copies", 7: "seven copies", 8: "eight copies"}
    return words.get(n, f"{n} copies")


_COPIES = tuple(copies_of(Tile(i)) for i in range(NUM_FACES))


def check_copies(tiles: list[Tile]) -> None:
    """Raise :class:`InvalidHandError` if any face appears more often than the set holds."""
    counts = [0] * NUM_FACES
    for t in tiles:
        counts[t] += 1
    for index, n in enumerate(counts):
        if n > _COPIES[index]:
            tile = repr(Tile(index))
            raise invalid_hand("hand.copies", f"{_copies(n)} of {tile}", count=n, tile=tile)


@dataclass(frozen=True, slots=True)
class Hand:
    """``concealed`` tiles (sorted), ``melds`` in the order given (exposed sets and concealed
    kongs), the ``winning_tile`` (the 14th tile, or ``None`` for a 13-tile waiting hand) and the
    ``bonus`` tiles (sorted). Construction validates sizes and copy counts."""

    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...] = ()
    winning_tile: Tile | None = None
    bonus: tuple[Tile, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "concealed", tuple(sorted(self.concealed)))
        object.__setattr__(self, "bonus", tuple(sorted(self.bonus)))
        for t in self.concealed:
            if t >= NUM_PLAYING:
                raise invalid_hand("hand.bonus_concealed",
                                   f"bonus tile {t!r} belongs after '/', not among the concealed tiles",
                                   tile=repr(t))
        for t in self.bonus:
            if t < NUM_PLAYING:
                raise invalid_hand("hand.not_bonus", f"{t!r} is not a bonus tile", tile=repr(t))
        if self.winning_tile is not None and self.winning_tile >= NUM_PLAYING:
            raise invalid_hand("hand.bonus_winning",
                               f"a bonus tile ({self.winning_tile!r}) cannot be the winning tile",
                               tile=repr(self.winning_tile))
        check_copies(self.all_tiles())
        size = len(self.concealed) + 3 * len(self.melds)
        if self.winning_tile is not None:
            if size + 1 != 14:
                raise invalid_hand("hand.winning_size", f"a winning hand needs 14 tiles, got {size + 1}",
                                   count=size + 1)
        elif size != 13:
            raise invalid_hand("hand.size", f"a hand needs 13 tiles before the winning tile, got {size}",
                               count=size)

    def all_tiles(self) -> list[Tile]:
        """Every physical tile of the hand: concealed, melds (kongs as four), winning and bonus."""
        tiles = list(self.concealed)
        for m in self.melds:
            tiles.extend(m.tiles)
        if self.winning_tile is not None:
            tiles.append(self.winning_tile)
        tiles.extend(self.bonus)
        return tiles

    @property
    def concealed_with_winning(self) -> tuple[Tile, ...]:
        """The concealed tiles plus the winning tile (what must be decomposed)."""
        if self.winning_tile is None:
            return self.concealed
        return tuple(sorted((*self.concealed, self.winning_tile)))

    @property
    def exposed_melds(self) -> tuple[Meld, ...]:
        return tuple(m for m in self.melds if not m.concealed)

    @property
    def concealed_kongs(self) -> tuple[Meld, ...]:
        return tuple(m for m in self.melds if m.concealed)

    @property
    def is_closed(self) -> bool:
        """No exposed chow, pong or kong (concealed kongs allowed)."""
        return all(m.concealed for m in self.melds)

    def with_winning_tile(self, tile: Tile) -> Hand:
        return Hand(self.concealed, self.melds, tile, self.bonus)

    def without_winning_tile(self) -> Hand:
        return Hand(self.concealed, self.melds, None, self.bonus)

    def __repr__(self) -> str:
        return f"Hand({format_hand(self)!r})"


def format_hand(hand: Hand) -> str:
    """The canonical hand string; ``parse_hand(format_hand(h)) == h``."""
    parts = [format_tiles(hand.concealed)]
    parts.extend(format_meld(m) for m in hand.melds)
    if hand.winning_tile is not None:
        parts.append("+" + hand.winning_tile.notation)
    if hand.bonus:
        parts.append("/" + format_tiles(hand.bonus))
    return " ".join(p for p in parts if p)
