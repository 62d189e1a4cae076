"""Exact per-suit lookup tables behind decompositions, waits and shanten.

A *group* is one suit (9 counts) or the honours (7 counts); its key is ``bytes`` of its counts, cut
straight out of ``bytes(counts34)``. Suits and honours are independent (no set crosses them), so a
hand's answer is combined from one lookup per group.

* :data:`SUIT_COMPLETE` / :data:`SUIT_DECOMPS`: every suit shape that splits into at most four sets
  and at most one pair (any suit of a hand of 14 tiles or fewer), built at import by enumeration
  (about 45k shapes, 0.05 s).
  Value: number of pairs (0 or 1) / the decompositions with suit-local tiles (pair -1 = none).
  Shapes are pure shapes: a count above 4 (a fifth copy, as when testing a wait) is allowed.
* :func:`honour_complete`: the same for honours, computed directly.
* :func:`suit_waits` / :func:`honour_waits`: tiles that make a group complete (memoised here or by
  the caller).
* :func:`suit_options` / :func:`honour_options`: the (A, B) Pareto options of a group for shanten, where
  a split into ``m`` sets, ``t`` partial sets (two tiles one short of a set) and a pair or not gives
  ``A = 2m + t`` and ``B = m`` (lazily memoised, with a shared memo of suffix shapes).

Every lazy memo goes through :func:`remember`, which empties a memo that reaches
:data:`MEMO_LIMIT` entries, so memory stays bounded in a long-running server.
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import TypeVar

_V = TypeVar("_V")

CHOW = 0
PONG = 1

Sets = tuple[tuple[int, int], ...]
LocalDecomp = tuple[int, Sets]  # (pair tile or -1, sets), suit-local tile indices 0-8

MEMO_LIMIT = 50_000
"""Most entries a lazily filled memo keeps; a full memo is emptied (there are ~405k suit shapes of
14 tiles or fewer; play meets far fewer, so this bounds memory in a long-running process and keeps
nearly every hit)."""


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
_Raw = tuple[tuple[int, int, int], ...]  # Pareto (A, B, p) triples


def _pareto(items: list[tuple[int, int, int]]) -> _Raw:
    """Keep the (A, B, p) that no other item with the same p matches or beats in both A and B."""
    keep: list[tuple[int, int, int]] = []
    for p in (0, 1):
        best_b = -1
        for a, b, q in sorted(items, reverse=True):
            if q == p and b > best_b:
                keep.append((a, b, p))
                best_b = b
    return tuple(keep)


_SUFFIX: dict[bytes, _Raw] = {}
_EMPTY: _Raw = ((0, 0, 0),)


def _suffix_options(s: bytes) -> _Raw:
    """Pareto (A, B, p) splits of a run of counts (a suffix of a suit: chows allowed inside it).

    The first tile is left alone, or starts a pong, a chow, a pair (as the pair or as a partial
    pong) or a partial chow (with the next tile or the one after); the rest is memoised."""
    got = _SUFFIX.get(s)
    if got is not None:
        return got
    i = 0
    n = len(s)
    while i < n and s[i] == 0:
        i += 1
    if i == n:
        return remember(_SUFFIX, s, _EMPTY)
    if i:
        return remember(_SUFFIX, s, _suffix_options(s[i:]))
    c0 = s[0]
    tail = s[1:]
    moves: list[tuple[bytes, int, int, int]] = [(bytes((c0 - 1,)) + tail, 0, 0, 0)]
    if c0 >= 3:
        moves.append((bytes((c0 - 3,)) + tail, 2, 1, 0))
    if c0 >= 2:
        rest = bytes((c0 - 2,)) + tail
        moves.append((rest, 1, 0, 0))
        moves.append((rest, 0, 0, 1))
    if n >= 2 and s[1]:
        moves.append((bytes((c0 - 1, s[1] - 1)) + s[2:], 1, 0, 0))
        if n >= 3 and s[2]:
            moves.append((bytes((c0 - 1, s[1] - 1, s[2] - 1)) + s[3:], 2, 1, 0))
    if n >= 3 and s[2]:
        moves.append((bytes((c0 - 1, s[1], s[2] - 1)) + s[3:], 1, 0, 0))
    out = [
        (a + da, b + db, p + dp)
        for rest, da, db, dp in moves
        for a, b, p in _suffix_options(rest)
        if p + dp <= 1
    ]
    return remember(_SUFFIX, s, _pareto(out))


def _to_options(raw: _Raw) -> GroupOptions:
    return (
        tuple((a, b) for a, b, p in raw if p == 0),
        tuple((a, b) for a, b, p in raw if p == 1),
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
        raw: _Raw = _EMPTY
        for c in key:
            if c:
                single = _suffix_options(bytes((c,)))
                raw = _pareto(
                    [(a + a2, b + b2, p + p2) for a, b, p in raw for a2, b2, p2 in single if p + p2 <= 1]
                )
        got = remember(_HONOUR_OPTIONS, key, _to_options(raw))
    return got
