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


_GroupDecomp = tuple[int, Sets, Sets]  # (pair or -1, chows, pongs), global tiles, each sorted
_GLOBAL: tuple[dict[bytes, list[_GroupDecomp]], ...] = ({}, {}, {})
_HONOURS: dict[bytes, _GroupDecomp | None] = {}


def _suit_decomps(suit: int, key: bytes) -> list[_GroupDecomp] | None:
    """The decompositions of one suit with global tile indices (memoised per suit), None if none."""
    local = SUIT_DECOMPS.get(key)
    if local is None:
        return None
    off = 9 * suit
    return remember(_GLOBAL[suit], key, [
        (
            pair + off if pair >= 0 else -1,
            tuple((CHOW, t + off) for kind, t in sets if kind == CHOW),
            tuple((PONG, t + off) for kind, t in sets if kind == PONG),
        )
        for pair, sets in local
    ])


def _honour_decomp(key: bytes) -> _GroupDecomp | None:
    """The one decomposition of the honours (pongs and at most one pair), None if none; memoised."""
    if key in _HONOURS:
        return _HONOURS[key]
    pair = -1
    pongs: list[tuple[int, int]] = []
    got: _GroupDecomp | None = None
    if honour_complete(key) >= 0:
        for i, c in enumerate(key):
            if c % 3 == 2:
                pair = 27 + i
            pongs.extend([(PONG, 27 + i)] * (c // 3))
        got = (pair, (), tuple(pongs))
    return remember(_HONOURS, key, got)


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
    k1 = b[0:9]
    d1 = _GLOBAL[0].get(k1) or _suit_decomps(0, k1)
    if d1 is None:
        return []
    k2 = b[9:18]
    d2 = _GLOBAL[1].get(k2) or _suit_decomps(1, k2)
    if d2 is None:
        return []
    k3 = b[18:27]
    d3 = _GLOBAL[2].get(k3) or _suit_decomps(2, k3)
    if d3 is None:
        return []
    hd = _honour_decomp(b[27:34])
    if hd is None:
        return []
    ph, _, qh = hd
    # every decomposition of a group has the same number of pairs (fixed by its tile count)
    if (d1[0][0] >= 0) + (d2[0][0] >= 0) + (d3[0][0] >= 0) + (ph >= 0) != 1:
        return []
    if len(d1) == 1 and len(d2) == 1 and len(d3) == 1:
        p1, c1, q1 = d1[0]
        p2, c2, q2 = d2[0]
        p3, c3, q3 = d3[0]
        return [Decomposition(max(p1, p2, p3, ph), c1 + c2 + c3 + q1 + q2 + q3 + qh)]
    out = [
        Decomposition(max(p1, p2, p3, ph), c1 + c2 + c3 + q1 + q2 + q3 + qh)
        for (p1, c1, q1), (p2, c2, q2), (p3, c3, q3) in product(d1, d2, d3)
    ]
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
