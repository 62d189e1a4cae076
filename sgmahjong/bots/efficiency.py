"""Fast hand-efficiency arithmetic for the bots: distance to a complete hand, by tile group.

A hand is split into four *groups*: the three suits (9 counts each) and the honours (7 counts). For
each group a memoised *distance vector* says how many tiles must still be added to make ``m`` sets
(``m`` = 0..4) from the group's tiles, without a pair (``v[m]``) or with the pair (``v[5 + m]``).
Groups combine by min-plus convolution, so changing one tile only recomputes one group and one final
combination: that is what makes discard and claim evaluation cheap enough for self-play.

``distance = 0`` is a complete hand (14-tile equivalent); the shanten number is ``distance - 1``.
A *mode* restricts the blocks a group may use: ``ALL`` (any), ``PONGS`` (pongs and pairs only: the
triplets hand) and ``CHOWS`` (chows, and one pair as the head: the sequence hand).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

ALL: Final = 0
PONGS: Final = 1
CHOWS: Final = 2

INF: Final = 99
Vec = tuple[int, ...]  # 10 entries: v[0..4] without the pair, v[5..9] with it

EMPTY: Final[Vec] = (0, 3, 6, 9, 12, 2, 5, 8, 11, 14)  # sets from nothing cost 3, the pair 2

VEC_MAX = 20_000  # entries of each distance-vector memo below (emptied when full)
_memo: Final[tuple[dict[tuple[int, ...], Vec], ...]] = ({}, {}, {})  # suit shape -> vector, by mode
_honour_memo: Final[tuple[dict[tuple[int, ...], Vec], ...]] = ({}, {}, {})  # sorted honour counts -> vector
"""The vectors of the group shapes met so far. A bound is needed: the suit shapes of 14 tiles or fewer
number ~405k per mode, and a server's bots meet a few new ones every hand without end (~1.5 KB a hand
over thousands of hands of a server soak, bench/bench_soak.py)."""


def _add_set(best: list[int], sub: Vec, cost: int) -> None:
    for m in range(1, 5):
        a = sub[m - 1] + cost
        if a < best[m]:
            best[m] = a
        b = sub[4 + m] + cost
        if b < best[5 + m]:
            best[5 + m] = b


def _add_head(best: list[int], sub: Vec, cost: int) -> None:
    for m in range(5):
        a = sub[m] + cost
        if a < best[5 + m]:
            best[5 + m] = a


def _suit_vec(counts: tuple[int, ...], mode: int, chows: bool) -> Vec:
    """Distance vector of one group (``chows``: whether sequences exist in it)."""
    memo = _memo[mode] if chows else _honour_memo[mode]
    hit = memo.get(counts)
    if hit is not None:
        return hit
    n = len(counts)
    i = 0
    while i < n and counts[i] == 0:
        i += 1
    if len(memo) >= VEC_MAX:
        memo.clear()  # before any entry of this call is made (the recursion below fills it again)
    if i == n:
        memo[counts] = EMPTY
        return EMPTY
    c = list(counts)
    c[i] -= 1
    one_less = tuple(c)
    sub1 = _suit_vec(one_less, mode, chows)
    best = list(sub1)  # tile i left unused
    # tile i alone: a set at cost 2 (not in the triplets-only mode for lack of pairs? it can pong)
    _add_set(best, sub1, 2)
    _add_head(best, sub1, 1)
    ci = counts[i]
    if ci >= 2:
        c2 = list(counts)
        c2[i] -= 2
        sub2 = _suit_vec(tuple(c2), mode, chows)
        _add_head(best, sub2, 0)
        if mode != CHOWS:
            _add_set(best, sub2, 1)
        if ci >= 3 and mode != CHOWS:
            c3 = list(counts)
            c3[i] -= 3
            _add_set(best, _suit_vec(tuple(c3), mode, chows), 0)
    if chows and mode != PONGS:
        if i + 1 < n and counts[i + 1]:
            c4 = list(one_less)
            c4[i + 1] -= 1
            t4 = tuple(c4)
            _add_set(best, _suit_vec(t4, mode, chows), 1)
            if i + 2 < n and counts[i + 2]:
                c4[i + 2] -= 1
                _add_set(best, _suit_vec(tuple(c4), mode, chows), 0)
        if i + 2 < n and counts[i + 2]:
            c5 = list(one_less)
            c5[i + 2] -= 1
            _add_set(best, _suit_vec(tuple(c5), mode, chows), 1)
    # the pair may also come from nothing beside these tiles
    for m in range(5):
        if best[m] + 2 < best[5 + m]:
            best[5 + m] = best[m] + 2
    out = tuple(best)
    memo[counts] = out
    return out


def suit_vec(counts: tuple[int, ...], mode: int = ALL) -> Vec:
    """Distance vector of a suit (9 counts)."""
    hit = _memo[mode].get(counts)
    if hit is not None:
        return hit
    return _suit_vec(counts, mode, True)


def suit_code(counts: Sequence[int], base: int) -> int:
    """The counts of the suit starting at ``base`` (9 ranks) as one int, 3 bits a rank from the lowest
    bits: a memo key cheaper than the tuple (a rank's tile is removed by subtracting ``1 << 3 * rank``)."""
    code = 0
    for r in range(8, -1, -1):
        code = (code << 3) | counts[base + r]
    return code


_code_memo: Final[dict[int, Vec]] = {}  # suit code -> vector (mode ALL), emptied past VEC_MAX


def suit_vec_of_code(code: int) -> Vec:
    """:func:`suit_vec` (mode ``ALL``) of the suit with :func:`suit_code` ``code``."""
    hit = _code_memo.get(code)
    if hit is not None:
        return hit
    if len(_code_memo) > VEC_MAX:
        _code_memo.clear()
    out = _code_memo[code] = suit_vec(tuple([(code >> 3 * r) & 7 for r in range(9)]))
    return out


def honour_vec(counts: tuple[int, ...], mode: int = ALL) -> Vec:
    """Distance vector of the honours (7 counts; only their multiset matters)."""
    key = tuple(sorted(x for x in counts if x))
    hit = _honour_memo[mode].get(key)
    if hit is not None:
        return hit
    return _suit_vec(key, mode, False)


CONV_MAX = 20_000  # entries of the convolution memo (emptied when full)
_conv_memo: Final[dict[tuple[Vec, Vec], Vec]] = {}


def conv(a: Vec, b: Vec) -> Vec:
    """Min-plus convolution of two group vectors: the distance vector of both groups together."""
    key = (a, b)
    hit = _conv_memo.get(key)
    if hit is not None:
        return hit
    if len(_conv_memo) > CONV_MAX:
        _conv_memo.clear()
    out = [INF] * 10
    for i in range(5):
        a0 = a[i]
        a1 = a[5 + i]
        for j in range(5 - i):
            k = i + j
            x = a0 + b[j]
            if x < out[k]:
                out[k] = x
            y = a0 + b[5 + j]
            z = a1 + b[j]
            if z < y:
                y = z
            if y < out[5 + k]:
                out[5 + k] = y
    res = tuple(out)
    _conv_memo[key] = res
    return res


def final(g: Vec, rest: Vec, need: int) -> int:
    """Distance of the whole hand: group ``g`` with the other groups ``rest``, ``need`` sets."""
    best = INF
    for m in range(need + 1):
        x = g[m] + rest[5 + need - m]
        if x < best:
            best = x
        y = g[5 + m] + rest[need - m]
        if y < best:
            best = y
    return best


def group_vectors(counts: Sequence[int], mode: int = ALL) -> list[Vec]:
    """The four group vectors of a length-34 count array."""
    return [
        suit_vec(tuple(counts[0:9]), mode),
        suit_vec(tuple(counts[9:18]), mode),
        suit_vec(tuple(counts[18:27]), mode),
        honour_vec(tuple(counts[27:34]), mode),
    ]


def rests(vs: Sequence[Vec]) -> list[Vec]:
    """For each group, the convolution of the three others."""
    r01 = conv(vs[0], vs[1])
    r23 = conv(vs[2], vs[3])
    return [conv(vs[1], r23), conv(vs[0], r23), conv(r01, vs[3]), conv(r01, vs[2])]


def distance(counts: Sequence[int], n_melds: int = 0, mode: int = ALL) -> int:
    """Tiles still needed for a complete hand of ``4 - n_melds`` sets and a pair (0 = complete)."""
    vs = group_vectors(counts, mode)
    need = 4 - n_melds
    return final(vs[0], conv(conv(vs[1], vs[2]), vs[3]), need)


def thirteen_distance(counts: Sequence[int]) -> int:
    """Tiles still needed for thirteen wonders (with no exposed set)."""
    kinds = 0
    pair = 0
    for t in _TERMINALS:
        c = counts[t]
        if c:
            kinds += 1
            if c >= 2:
                pair = 1
    return 14 - kinds - pair


_TERMINALS: Final[tuple[int, ...]] = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


def shanten(counts: Sequence[int], n_melds: int = 0) -> int:
    """Shanten of a hand (-1 complete): standard or thirteen wonders."""
    d = distance(counts, n_melds)
    if n_melds == 0:
        d = min(d, thirteen_distance(counts))
    return d - 1
