"""The two special shapes of Singapore rules that analysis must know: thirteen wonders and nine gates.

Counts are length-34 ``list[int]`` (see :func:`sgmahjong.tiles.counts34`). There is no seven-pairs hand
in Singapore rules.
"""

from __future__ import annotations

ORPHANS: tuple[int, ...] = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
"""The thirteen terminal and honour tiles of thirteen wonders (十三幺)."""

_ORPHAN_SET = frozenset(ORPHANS)
_NON_ORPHANS: tuple[int, ...] = tuple(i for i in range(34) if i not in _ORPHAN_SET)
NINE_GATES_PATTERN: tuple[int, ...] = (3, 1, 1, 1, 1, 1, 1, 1, 3)
"""Counts of 1112345678999 in one suit, the 13 tiles of nine gates (九连宝灯) before the win."""


def is_thirteen_wonders(counts: list[int]) -> bool:
    """True for 14 tiles: one of each terminal and honour plus a second copy of one of them."""
    pair = False
    for i in ORPHANS:
        c = counts[i]
        if c == 2 and not pair:
            pair = True
        elif c != 1:
            return False
    return pair and not any(counts[i] for i in _NON_ORPHANS)


def is_thirteen_wonders_wait(counts: list[int]) -> bool:
    """True for 13 tiles one tile away from thirteen wonders (all 13 distinct, or 12 with a pair)."""
    return sum(counts) == 13 and not any(counts[i] for i in _NON_ORPHANS) and all(
        counts[i] <= 2 for i in ORPHANS
    ) and sum(1 for i in ORPHANS if counts[i]) >= 12


def _one_suit(counts: list[int], size: int) -> int:
    """The suit (0-2) holding every tile if the hand has ``size`` tiles all in one suit, else -1."""
    if sum(counts) != size:
        return -1
    for s in range(3):
        if sum(counts[9 * s : 9 * s + 9]) == size:
            return s
    return -1


def is_nine_gates_wait(counts: list[int]) -> bool:
    """True for exactly the 13 tiles 1112345678999 of one suit (it waits on all nine tiles)."""
    s = _one_suit(counts, 13)
    return s >= 0 and tuple(counts[9 * s : 9 * s + 9]) == NINE_GATES_PATTERN


def is_nine_gates(counts: list[int]) -> bool:
    """True for 14 tiles of one suit that are 1112345678999 plus any one tile of that suit.

    Pass all 14 tiles, exposed sets included (RULES.md §4 allows them). Which tile is the winning
    one is the scorer's business (the 14 tiles *less the winning tile* must be 1112345678999); use
    :func:`is_nine_gates_wait` on those 13 tiles for that.
    """
    s = _one_suit(counts, 14)
    if s < 0:
        return False
    extra = 0
    for c, base in zip(counts[9 * s : 9 * s + 9], NINE_GATES_PATTERN, strict=True):
        d = c - base
        if d < 0 or d > 1:
            return False
        extra += d
    return extra == 1


def nine_gates_winning_tiles(counts: list[int]) -> list[int]:
    """Tiles ``w`` such that ``counts`` less one ``w`` is 1112345678999 (at most one; [] if none)."""
    if not is_nine_gates(counts):
        return []
    s = _one_suit(counts, 14)
    return [9 * s + r for r in range(9) if counts[9 * s + r] > NINE_GATES_PATTERN[r]]
