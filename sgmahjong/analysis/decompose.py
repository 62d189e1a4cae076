"""All decompositions of concealed tiles into sets and one pair.

Counts are length-34 ``list[int]`` (see :func:`sgmahjong.tiles.counts34`). A decomposition is a
:class:`Decomposition`: the pair tile and the concealed sets (chows by their lowest tile, pongs).
"""

from __future__ import annotations

from typing import NamedTuple

CHOW = 0
PONG = 1


class Decomposition(NamedTuple):
    pair: int
    sets: tuple[tuple[int, int], ...]  # (CHOW|PONG, tile index), sorted


def _sets(counts: list[int], start: int) -> list[tuple[tuple[int, int], ...]]:
    i = start
    while i < 34 and counts[i] == 0:
        i += 1
    if i == 34:
        return [()]
    out: list[tuple[tuple[int, int], ...]] = []
    if counts[i] >= 3:
        counts[i] -= 3
        for rest in _sets(counts, i):
            out.append(((PONG, i), *rest))
        counts[i] += 3
    if i < 27 and i % 9 <= 6 and counts[i + 1] and counts[i + 2]:
        counts[i] -= 1
        counts[i + 1] -= 1
        counts[i + 2] -= 1
        for rest in _sets(counts, i):
            out.append(((CHOW, i), *rest))
        counts[i] += 1
        counts[i + 1] += 1
        counts[i + 2] += 1
    return out


def decompositions(counts: list[int]) -> list[Decomposition]:
    """Every way to split ``counts`` (3n+2 tiles) into n sets and a pair; [] if there is none."""
    total = sum(counts)
    if total % 3 != 2:
        return []
    work = list(counts)
    out: list[Decomposition] = []
    for p in range(34):
        if work[p] >= 2:
            work[p] -= 2
            for sets in _sets(work, 0):
                out.append(Decomposition(p, sets))
            work[p] += 2
    return out


def is_standard_complete(counts: list[int]) -> bool:
    """True if ``counts`` (3n+2 tiles) split into sets and a pair."""
    return bool(decompositions(counts))
