"""Tile and hand notation (RULES.md §1): parsers and formatters in pairs that round-trip.

* Tiles: ``1m``..``9m``, ``1p``..``9p``, ``1s``..``9s``, ``E S W N``, ``C F P`` (aliases ``Rd Gd Wd``),
  ``1f``..``8f``, ``1a``..``4a``. Digits may share one suit letter: ``123m``.
* Hand: ``CONCEALED [EXPOSED MELD]... {CONCEALED KONG}... +WINNING_TILE /BONUS_TILES``.

Whitespace between tokens is ignored on input; formatters write the compact form.

The parsers live here; each formatter lives with its type (``format_tiles`` in :mod:`.tiles`,
``format_meld`` in :mod:`.melds`, ``format_hand`` in :mod:`.hand`, which their ``repr`` uses) and is
re-exported here, so notation depends on hands and melds and never the other way round.
"""

from __future__ import annotations

from .errors import InvalidHandError, NotationError
from .hand import Hand, format_hand
from .melds import Meld, MeldKind, format_meld
from .tiles import HONOUR_LETTERS, Tile, format_tiles

__all__ = ["format_hand", "format_meld", "format_tile", "format_tiles", "parse_hand", "parse_meld",
           "parse_tile", "parse_tiles"]

_SUIT_BASE = {"m": 0, "p": 9, "s": 18, "f": 34, "a": 42}
_SUIT_MAX = {"m": 9, "p": 9, "s": 9, "f": 8, "a": 4}
_HONOURS = {letter: Tile(27 + i) for i, letter in enumerate(HONOUR_LETTERS)}
_ALIASES = {"Rd": Tile.RED, "Gd": Tile.GREEN, "Wd": Tile.WHITE}


def _no_suit(digits: list[tuple[int, int]], source: str) -> NotationError:
    shown = "".join(str(d) for d, _ in digits)
    return NotationError(f"digits {shown!r} have no suit letter", source, digits[0][1] + 1, code="no_suit",
                         params={"digits": shown})


def _scan_tiles(text: str, start: int, stop: int, source: str) -> list[Tile]:
    """Tiles in ``text[start:stop]``; errors name 1-based columns of ``source``."""
    return [t for t, _ in _scan_positions(text, start, stop, source)]


def _scan_positions(text: str, start: int, stop: int, source: str) -> list[tuple[Tile, int]]:
    """Tiles in ``text[start:stop]`` with the 0-based index where each was written."""
    tiles: list[tuple[Tile, int]] = []
    digits: list[tuple[int, int]] = []  # (digit, index)
    i = start
    while i < stop:
        ch = text[i]
        if ch.isspace():
            if digits:
                raise _no_suit(digits, source)
            i += 1
            continue
        if ch.isdigit():
            digits.append((int(ch), i))
            i += 1
            continue
        if ch in _SUIT_BASE:
            if not digits:
                raise NotationError(f"suit letter {ch!r} has no digits before it", source, i + 1,
                                    code="suit_no_digits", params={"suit": ch})
            for d, at in digits:
                if not 1 <= d <= _SUIT_MAX[ch]:
                    raise NotationError(f"unknown tile '{d}{ch}'", source, at + 1, code="unknown_tile",
                                        params={"tile": f"{d}{ch}"})
                tiles.append((Tile(_SUIT_BASE[ch] + d - 1), at))
            digits = []
            i += 1
            continue
        alias = text[i:i + 2]
        known = ch in _HONOURS or (alias in _ALIASES and i + 2 <= stop)
        if not known:
            raise NotationError(f"unknown tile {ch!r}", source, i + 1, code="unknown_tile",
                                params={"tile": ch})
        if digits:
            raise _no_suit(digits, source)
        if alias in _ALIASES and i + 2 <= stop:
            tiles.append((_ALIASES[alias], i))
            i += 2
            continue
        tiles.append((_HONOURS[ch], i))
        i += 1
    if digits:
        raise _no_suit(digits, source)
    return tiles


def parse_tiles(text: str) -> list[Tile]:
    """Parse a tile list such as ``"123m EE 5p"`` (order kept)."""
    return _scan_tiles(text, 0, len(text), text)


def parse_tile(text: str) -> Tile:
    """Parse exactly one tile."""
    tiles = parse_tiles(text.strip())
    if len(tiles) != 1:
        raise NotationError(f"expected one tile, got {len(tiles)} in {text!r}", text, code="one_tile",
                            params={"count": len(tiles), "text": text})
    return tiles[0]


def format_tile(tile: Tile) -> str:
    return tile.notation


def _meld_from_tiles(tiles: list[Tile], concealed: bool, source: str, column: int) -> Meld:
    n = len(tiles)
    if concealed and n != 4:
        raise NotationError("a concealed kong {...} needs four identical tiles", source, column,
                            code="concealed_kong")
    if n == 4 and all(t == tiles[0] for t in tiles):
        return Meld(MeldKind.KONG, tiles[0], concealed)
    if n == 3 and all(t == tiles[0] for t in tiles):
        return Meld(MeldKind.PONG, tiles[0])
    if n == 3:
        s = sorted(tiles)
        if s[0].is_suited and s[0].rank <= 7 and s[1] == s[0] + 1 and s[2] == s[0] + 2:
            return Meld(MeldKind.CHOW, s[0])
    shown = format_tiles(tiles)
    raise NotationError(f"'{shown}' is not a chow, pong or kong", source, column, code="not_a_meld",
                        params={"tiles": shown})


def parse_meld(text: str) -> Meld:
    """Parse ``[123m]``, ``[555p]``, ``[5555p]`` or ``{5555p}``."""
    t = text.strip()
    if len(t) < 2 or (t[0], t[-1]) not in (("[", "]"), ("{", "}")):
        raise NotationError(f"a meld is written [..] or {{..}}, got {text!r}", text, code="meld_brackets",
                            params={"text": text})
    tiles = _scan_tiles(t, 1, len(t) - 1, t)
    if any(x.is_bonus for x in tiles):
        raise NotationError("bonus tiles cannot form a meld", text, 2, code="bonus_meld")
    return _meld_from_tiles(tiles, t[0] == "{", t, 1)


def parse_hand(text: str) -> Hand:
    """Parse a hand string such as ``23s55p [123m] [456m] [789p] +4s /1f1a``."""
    concealed: list[Tile] = []
    melds: list[Meld] = []
    winning: Tile | None = None
    bonus: list[Tile] = []
    n = len(text)
    i = 0
    section = "concealed"  # then "winning", then "bonus"
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
            continue
        if ch in "[{":
            if section != "concealed":
                raise NotationError("melds must come before '+' and '/'", text, i + 1, code="melds_first")
            close = "]" if ch == "[" else "}"
            j = text.find(close, i + 1)
            if j < 0:
                raise NotationError(f"unclosed {ch!r}", text, i + 1, code="unclosed", params={"char": ch})
            tiles = _scan_tiles(text, i + 1, j, text)
            if any(x.is_bonus for x in tiles):
                raise NotationError("bonus tiles cannot form a meld", text, i + 2, code="bonus_meld")
            melds.append(_meld_from_tiles(tiles, ch == "{", text, i + 1))
            i = j + 1
            continue
        if ch in "]}":
            raise NotationError(f"unexpected {ch!r}", text, i + 1, code="unexpected", params={"char": ch})
        if ch == "+":
            if section != "concealed":
                raise NotationError("only one '+' winning tile, before '/'", text, i + 1, code="one_plus")
            j = i + 1
            while j < n and text[j].isspace():
                j += 1
            k = j
            while k < n and text[k] not in "/[{+" and not text[k].isspace():
                k += 1
            tiles = _scan_tiles(text, j, k, text)
            if len(tiles) != 1:
                raise NotationError(f"'+' takes exactly one winning tile, got {len(tiles)}", text, i + 1,
                                    code="plus_one_tile", params={"count": len(tiles)})
            winning = tiles[0]
            section = "winning"
            i = k
            continue
        if ch == "/":
            if section == "bonus":
                raise NotationError("only one '/' before the bonus tiles", text, i + 1, code="one_slash")
            j = i + 1
            k = j
            while k < n and text[k] not in "/[{+":
                k += 1
            for b, at in _scan_positions(text, j, k, text):
                if not b.is_bonus:
                    raise NotationError(f"{b!r} is not a bonus tile", text, at + 1, code="not_bonus",
                                          params={"tile": repr(b)})
                bonus.append(b)
            section = "bonus"
            i = k
            continue
        if section != "concealed":
            raise NotationError(f"unexpected {ch!r} after the winning tile", text, i + 1,
                                code="after_winning", params={"char": ch})
        j = i
        while j < n and text[j] not in "[{+/]}" and not text[j].isspace():
            j += 1
        for t, at in _scan_positions(text, i, j, text):
            if t.is_bonus:
                raise NotationError(f"bonus tile {t!r} belongs after '/'", text, at + 1,
                                    code="bonus_after_slash",
                                    params={"tile": repr(t)})
            concealed.append(t)
        i = j
    try:
        return Hand(tuple(concealed), tuple(melds), winning, tuple(bonus))
    except InvalidHandError as exc:
        err = NotationError(str(exc), text)
        err.reason_code, err.params = exc.reason_code, exc.params
        raise err from exc
