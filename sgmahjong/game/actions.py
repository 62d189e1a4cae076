"""Actions a seat decides, their short text notation, and the error for a refused action.

Notation: ``discard 5p``, ``chow 345s`` (or ``chow 3s``: the lowest tile), ``pong``, ``kong 7m``,
``win``, ``pass``; ``close`` is the table's own step that ends a paused claim window (never a seat's
choice: it is in no seat's legal actions). :func:`format_action` writes the canonical form;
:func:`parse_action` reads it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import NotationError, SgMahjongError
from ..notation import parse_tiles
from ..tiles import Tile

KINDS = ("discard", "chow", "pong", "kong", "win", "pass", "close")
_NEEDS_TILE = ("discard", "chow", "kong")


class IllegalActionError(SgMahjongError):
    """The engine refused an action; the message says why."""


@dataclass(frozen=True, slots=True)
class Action:
    """One decision of one seat. ``tile``: the discarded tile, the lowest tile of a chow, the tile of
    a kong; ``None`` for pong, win and pass."""

    seat: int
    kind: str
    tile: Tile | None = None

    def __str__(self) -> str:
        return format_action(self)


def format_action(action: Action) -> str:
    """The canonical text of an action (without the seat)."""
    kind, tile = action.kind, action.tile
    if tile is None:
        return kind
    if kind == "chow":
        rank, suit = tile.notation[0], tile.notation[1]
        return f"chow {rank}{int(rank) + 1}{int(rank) + 2}{suit}"
    return f"{kind} {tile.notation}"


def parse_action(text: str, seat: int) -> Action:
    """Parse an action's text for ``seat``; raises :class:`NotationError` on bad text."""
    words = text.strip().split(None, 1)
    if not words:
        raise NotationError("empty action", text)
    kind = words[0].lower()
    if kind not in KINDS:
        raise NotationError(f"unknown action {words[0]!r}; actions: {', '.join(KINDS)}", text)
    rest = words[1].strip() if len(words) > 1 else ""
    if kind not in _NEEDS_TILE:
        if rest and kind != "pong":
            raise NotationError(f"'{kind}' takes no tile", text)
        return Action(seat, kind)
    if not rest:
        raise NotationError(f"'{kind}' needs a tile, e.g. '{kind} 5p'", text)
    tiles = parse_tiles(rest)
    if kind == "chow":
        if len(tiles) == 3:
            lo = min(tiles)
            if sorted(tiles) != [lo, lo + 1, lo + 2] or not lo.is_suited or lo.rank > 7:
                raise NotationError(f"{rest!r} is not a chow", text)
            return Action(seat, kind, lo)
        if len(tiles) == 1 and tiles[0].is_suited and tiles[0].rank <= 7:
            return Action(seat, kind, tiles[0])
        raise NotationError(f"{rest!r} is not a chow (write e.g. 'chow 345s')", text)
    if len(tiles) == 4 and kind == "kong" and len(set(tiles)) == 1:
        return Action(seat, kind, tiles[0])
    if len(tiles) != 1:
        raise NotationError(f"'{kind}' takes one tile, got {rest!r}", text)
    return Action(seat, kind, tiles[0])
