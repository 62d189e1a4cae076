"""All decompositions of concealed tiles into sets and one pair.

Counts are length-34 ``list[int]`` (see :func:`sgmahjong.tiles.counts34`). A decomposition is a
:class:`Decomposition`: the pair tile and the concealed sets, each ``(CHOW, lowest tile)`` or
``(PONG, tile)``, the tuple sorted (so chows come first, each kind by tile). :func:`decompositions`
lists every distinct decomposition once, sorted by (pair, sets). Shapes are pure shapes: counts are
not checked against the four physical copies (a fifth copy, as when testing a wait, is allowed).

Speed: each suit is looked up in :mod:`.tables` (every complete suit shape is precomputed), the
honours are checked directly; hands of more than 14 tiles (impossible in play) take a slow path.
"""

from __future__ import annotations

from itertools import product
from typing import NamedTuple

from .tables import CHOW, PONG, SUIT_COMPLETE, SUIT_DECOMPS, Sets, honour_complete, remember

__all__ = ["CHOW", "PONG", "Decomposition", "decompositions", "is_standard_complete"]


class Decomposition(NamedTuple):
    pair: int
    sets: tuple[tuple[int, int], ...]  # (CHOW|PONG, tile index), sorted


_GlobalDecomp = tuple[int, Sets]
_GLOBAL: tuple[dict[bytes, list[_GlobalDecomp]], ...] = ({}, {}, {})


def _suit_decomps(suit: int, key: bytes) -> list[_GlobalDecomp] | None:
    """The decompositions of one suit with global tile indices (memoised per suit), None if none."""
    table = _GLOBAL[suit]
    got = table.get(key)
    if got is None:
        local = SUIT_DECOMPS.get(key)
        if local is None:
            return None
        off = 9 * suit
        got = remember(table, key, [
            (pair + off if pair >= 0 else -1, tuple((kind, tile + off) for kind, tile in sets))
            for pair, sets in local
        ])
    return got


def is_standard_complete(counts: list[int]) -> bool:
    """True if ``counts`` (3n+2 tiles) split into n sets and a pair."""
    b = bytes(counts)
    get = SUIT_COMPLETE.get
    p0 = get(b[0:9])
    if p0 is None:
        return sum(b) > 14 and _slow_complete(counts)
    p1 = get(b[9:18])
    if p1 is None:
        return sum(b) > 14 and _slow_complete(counts)
    p2 = get(b[18:27])
    if p2 is None:
        return sum(b) > 14 and _slow_complete(counts)
    h = b[27:34]
    ph = 0
    for c in h:
        if c:
            r = c % 3
            if r == 1:
                return False
            if r:
                ph += 1
    return p0 + p1 + p2 + ph == 1


def decompositions(counts: list[int]) -> list[Decomposition]:
    """Every way to split ``counts`` (3n+2 tiles) into n sets and a pair; [] if there is none."""
    b = bytes(counts)
    if sum(b) > 14:
        return _slow_decompositions(counts)
    parts: list[list[_GlobalDecomp]] = []
    for suit in range(3):
        key = b[9 * suit : 9 * suit + 9]
        if any(key):
            got = _suit_decomps(suit, key)
            if got is None:
                return []
            parts.append(got)
    h = b[27:34]
    hp = honour_complete(h)
    if hp < 0:
        return []
    honour_pair = -1
    honour_sets: list[tuple[int, int]] = []
    for i, c in enumerate(h):
        if c % 3 == 2:
            honour_pair = 27 + i
        honour_sets.extend([(PONG, 27 + i)] * (c // 3))
    pairs = hp + sum(1 for part in parts if part[0][0] >= 0)
    if pairs != 1:
        return []
    out: list[Decomposition] = []
    hsets = tuple(honour_sets)
    for combo in product(*parts):
        pair = honour_pair
        sets: list[tuple[int, int]] = []
        for p, s in combo:
            if p >= 0:
                pair = p
            sets.extend(s)
        sets.extend(hsets)
        sets.sort()
        out.append(Decomposition(pair, tuple(sets)))
    out.sort()
    return out


# -- slow path (any size) -------------------------------------------------------------------------


def _slow_sets(counts: list[int], start: int) -> list[tuple[tuple[int, int], ...]]:
    i = start
    while i < 34 and counts[i] == 0:
        i += 1
    if i == 34:
        return [()]
    out: list[tuple[tuple[int, int], ...]] = []
    if counts[i] >= 3:
        counts[i] -= 3
        for rest in _slow_sets(counts, i):
            out.append(((PONG, i), *rest))
        counts[i] += 3
    if i < 27 and i % 9 <= 6 and counts[i + 1] and counts[i + 2]:
        for j in (i, i + 1, i + 2):
            counts[j] -= 1
        for rest in _slow_sets(counts, i):
            out.append(((CHOW, i), *rest))
        for j in (i, i + 1, i + 2):
            counts[j] += 1
    return out


def _slow_decompositions(counts: list[int]) -> list[Decomposition]:
    if sum(counts) % 3 != 2:
        return []
    work = list(counts)
    out: list[Decomposition] = []
    for p in range(34):
        if work[p] >= 2:
            work[p] -= 2
            for sets in _slow_sets(work, 0):
                out.append(Decomposition(p, tuple(sorted(sets))))
            work[p] += 2
    out.sort()
    return out


def _slow_complete(counts: list[int]) -> bool:
    return bool(_slow_decompositions(counts))
