"""Exact per-suit lookup tables behind decompositions, waits and shanten.

A *group* is one suit (9 counts) or the honours (7 counts); its key is ``bytes`` of its counts, cut
straight out of ``bytes(counts34)``. Suits and honours are independent (no set crosses them), so a
hand's answer is combined from one lookup per group.

* :data:`SUIT_COMPLETE` / :data:`SUIT_DECOMPS`: every suit shape that splits into at most four sets
  and at most one pair (any suit of a hand of 14 tiles or fewer), built at import by enumeration.
  Value: number of pairs (0 or 1) / the decompositions with suit-local tiles (pair -1 = none).
  Shapes are pure shapes: a count above 4 (a fifth copy, as when testing a wait) is allowed.
* :func:`honour_complete`: the same for honours, computed directly.
* :func:`suit_waits` / :func:`honour_waits`: tiles that make a group complete (lazily memoised).
* :func:`suit_options` / :func:`honour_options`: the (A, B) Pareto options of a group for shanten, where
  a split into ``m`` sets, ``t`` partial sets (two tiles one short of a set) and a pair or not gives
  ``A = 2m + t`` and ``B = m`` (lazily memoised, with a shared memo of suffix shapes).
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import TypeVar

_V = TypeVar("_V")

CHOW = 0
PONG = 1

Sets = tuple[tuple[int, int], ...]
LocalDecomp = tuple[int, Sets]  # (pair tile or -1, sets), suit-local tile indices 0-8

MEMO_LIMIT = 200_000
"""Most entries a lazily filled memo keeps; a full memo is emptied (there are ~405k suit shapes of
14 tiles or fewer, so this only bounds memory in a long-running process)."""


def remember(table: dict[bytes, _V], key: bytes, value: _V) -> _V:
    """Store ``value`` under ``key`` in a memo (emptying it first if full) and return it."""
    if len(table) >= MEMO_LIMIT:
        table.clear()
    table[key] = value
    return value


# -- complete suit shapes ------------------------------------------------------------------------

_SHAPES: tuple[tuple[tuple[int, int], tuple[int, ...]], ...] = tuple(
    [((CHOW, r), (r, r + 1, r + 2)) for r in range(7)] + [((PONG, r), (r, r, r)) for r in range(9)]
)
MAX_SUIT_SETS = 4


def _build_complete() -> tuple[dict[bytes, int], dict[bytes, list[LocalDecomp]]]:
    complete: dict[bytes, int] = {}
    decomps: dict[bytes, list[LocalDecomp]] = {}
    for k in range(MAX_SUIT_SETS + 1):
        for combo in combinations_with_replacement(range(len(_SHAPES)), k):
            base = [0] * 9
            for s in combo:
                for r in _SHAPES[s][1]:
                    base[r] += 1
            sets: Sets = tuple(sorted(_SHAPES[s][0] for s in combo))
            for pair in range(-1, 9):
                if pair >= 0:
                    base[pair] += 2
                key = bytes(base)
                complete[key] = 0 if pair < 0 else 1
                decomps.setdefault(key, []).append((pair, sets))
                if pair >= 0:
                    base[pair] -= 2
    for lst in decomps.values():
        lst.sort()
    return complete, decomps


SUIT_COMPLETE, SUIT_DECOMPS = _build_complete()


def honour_complete(key: bytes) -> int:
    """Number of pairs (0 or 1) if the honour counts are pongs and at most one pair, else -1.

    A count of 5 (a fifth copy, when testing a wait) is a pong and a pair."""
    pairs = 0
    for c in key:
        r = c % 3
        if r == 2:
            pairs += 1
        elif r == 1:
            return -1
    return pairs if pairs <= 1 else -1


# -- waits per group ------------------------------------------------------------------------------

GroupWaits = tuple[tuple[int, ...], tuple[int, ...]]
_SUIT_WAITS: dict[bytes, GroupWaits] = {}


def suit_waits(key: bytes) -> GroupWaits:
    """Local tiles ``x`` such that the suit plus ``x`` is complete: (without a pair, with a pair)."""
    got = _SUIT_WAITS.get(key)
    if got is None:
        no_pair: list[int] = []
        with_pair: list[int] = []
        counts = bytearray(key)
        for x in range(9):
            counts[x] += 1
            p = SUIT_COMPLETE.get(bytes(counts))
            if p == 0:
                no_pair.append(x)
            elif p == 1:
                with_pair.append(x)
            counts[x] -= 1
        got = remember(_SUIT_WAITS, key, (tuple(no_pair), tuple(with_pair)))
    return got


def honour_waits(key: bytes) -> GroupWaits:
    """Local honour tiles ``x`` such that the honours plus ``x`` are complete (no pair, pair)."""
    no_pair: list[int] = []
    with_pair: list[int] = []
    counts = bytearray(key)
    for x in range(len(key)):
        counts[x] += 1
        p = honour_complete(bytes(counts))
        if p == 0:
            no_pair.append(x)
        elif p == 1:
            with_pair.append(x)
        counts[x] -= 1
    return (tuple(no_pair), tuple(with_pair))


# -- shanten options per group ----------------------------------------------------------------------

Option = tuple[int, int]  # (A, B) = (2m + t, m)
GroupOptions = tuple[tuple[Option, ...], tuple[Option, ...]]  # (without pair, with pair)
_Raw = frozenset[tuple[int, int, int]]  # (m, t, p)


def _pareto(items: set[tuple[int, int, int]]) -> _Raw:
    """Keep the (m, t, p) that no other item beats in A = 2m + t and B = m at the same p."""
    keep = set()
    for m, t, p in items:
        a, b = 2 * m + t, m
        if not any(
            q == p and (2 * m2 + t2 >= a and m2 >= b) and (2 * m2 + t2, m2) != (a, b)
            for m2, t2, q in items
        ):
            keep.add((m, t, p))
    return frozenset(keep)


_SUFFIX: dict[bytes, _Raw] = {}


def _suffix_options(s: bytes) -> _Raw:
    """Pareto (m, t, p) splits of a run of counts (a suffix of a suit: chows allowed inside it)."""
    got = _SUFFIX.get(s)
    if got is not None:
        return got
    i = 0
    while i < len(s) and s[i] == 0:
        i += 1
    if i == len(s):
        return remember(_SUFFIX, s, frozenset({(0, 0, 0)}))
    if i:
        return remember(_SUFFIX, s, _suffix_options(s[i:]))
    c = bytearray(s)
    out: set[tuple[int, int, int]] = set()

    def take(idx: tuple[int, ...], dm: int, dt: int, dp: int) -> None:
        for j in idx:
            c[j] -= 1
        for m, t, p in _suffix_options(bytes(c)):
            if p + dp <= 1:
                out.add((m + dm, t + dt, p + dp))
        for j in idx:
            c[j] += 1

    n = len(s)
    take((0,), 0, 0, 0)  # the first tile is left alone
    if s[0] >= 3:
        take((0, 0, 0), 1, 0, 0)
    if n >= 3 and s[1] and s[2]:
        take((0, 1, 2), 1, 0, 0)
    if s[0] >= 2:
        take((0, 0), 0, 1, 0)
        take((0, 0), 0, 0, 1)
    if n >= 2 and s[1]:
        take((0, 1), 0, 1, 0)
    if n >= 3 and s[2]:
        take((0, 2), 0, 1, 0)
    return remember(_SUFFIX, s, _pareto(out))


def _to_options(raw: _Raw) -> GroupOptions:
    return (
        tuple(sorted({(2 * m + t, m) for m, t, p in raw if p == 0}, reverse=True)),
        tuple(sorted({(2 * m + t, m) for m, t, p in raw if p == 1}, reverse=True)),
    )


_SUIT_OPTIONS: dict[bytes, GroupOptions] = {}


def suit_options(key: bytes) -> GroupOptions:
    """Pareto (A, B) options of one suit, without and with the pair (lazily memoised)."""
    got = _SUIT_OPTIONS.get(key)
    if got is None:
        got = remember(_SUIT_OPTIONS, key, _to_options(_suffix_options(key)))
    return got


_HONOUR_OPTIONS: dict[bytes, GroupOptions] = {}


def honour_options(key: bytes) -> GroupOptions:
    """Pareto (A, B) options of the honours (no chows), without and with the pair (memoised)."""
    got = _HONOUR_OPTIONS.get(key)
    if got is None:
        raw: set[tuple[int, int, int]] = {(0, 0, 0)}
        for c in key:
            if c:
                single = _suffix_options(bytes((c,)))
                raw = {
                    (m + m2, t + t2, p + p2) for m, t, p in raw for m2, t2, p2 in single if p + p2 <= 1
                }
                raw = set(_pareto(raw))
        got = remember(_HONOUR_OPTIONS, key, _to_options(frozenset(raw)))
    return got
