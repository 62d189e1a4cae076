"""Waits: the tiles that complete a concealed part of 3n+1 tiles.

Counts are length-34 ``list[int]``; a hand with exposed melds just passes its concealed tiles (fewer
tiles: 3n+1 with n the sets still to make). A wait completes the standard shape (n sets and a pair) or,
for 13 tiles, thirteen wonders.

:func:`waits` is about shape only: it **includes** tiles the hand already holds four of (a fifth copy
cannot be drawn, but the shape waits on it). :func:`live_waits` leaves out tiles with no copy left.

Speed: each group (suit or honours) is looked up once: complete or not (with or without its pair),
and the tiles that would complete it (memoised per group shape). At most one group may be
incomplete, so most hands are answered after four lookups.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Final

from .decompose import is_standard_complete
from .special import ORPHANS
from .tables import SUIT_COMPLETE, GroupWaits, honour_complete, honour_waits, remember, suit_waits

_orphans: Final = itemgetter(*ORPHANS)
_ALL_ORPHANS: Final = list(ORPHANS)

# group shape -> (tiles completing it without a pair, with a pair), global tile indices
_GROUP_WAITS: Final[tuple[dict[bytes, GroupWaits], ...]] = ({}, {}, {}, {})
_HONOUR_STATE: Final[dict[bytes, int]] = {}


def _group_waits(g: int, key: bytes) -> GroupWaits:
    table = _GROUP_WAITS[g]
    got = table.get(key)
    if got is None:
        local = honour_waits(key) if g == 3 else suit_waits(key)
        off = 9 * g
        got = remember(table, key, (tuple(x + off for x in local[0]), tuple(x + off for x in local[1])))
    return got


def _honour_state(key: bytes) -> int:
    got = _HONOUR_STATE.get(key)
    if got is None:
        got = remember(_HONOUR_STATE, key, honour_complete(key))
    return got


def _check(total: int, n_melds: int | None) -> None:
    if total % 3 != 1:
        raise ValueError(f"waits need 3n+1 concealed tiles, got {total}")
    if n_melds is not None and total + 3 * n_melds != 13:
        raise ValueError(f"{total} concealed tiles and {n_melds} melds do not make 13")


def _standard(b: bytes) -> list[int]:
    keys = (b[0:9], b[9:18], b[18:27], b[27:34])
    get = SUIT_COMPLETE.get
    st = (get(keys[0], -1), get(keys[1], -1), get(keys[2], -1), _honour_state(keys[3]))
    bad = st.count(-1)
    if bad > 1:
        return []
    pairs = st.count(1)
    if bad:
        if pairs > 1:
            return []
        g = st.index(-1)
        return list(_group_waits(g, keys[g])[1 - pairs])
    if pairs != 2:
        return []  # a 3n+1 hand whose groups are all complete holds exactly two pairs
    out: list[int] = []
    for g in range(4):
        if st[g] == 1:
            out.extend(_group_waits(g, keys[g])[0])
    out.sort()
    return out


def standard_waits(counts: list[int]) -> list[int]:
    """Tiles completing the standard shape (sets and one pair), fifth copies included, sorted."""
    b = bytes(counts)
    total = sum(b)
    if total % 3 != 1:
        _check(total, None)
    if total > 13:
        return _slow_waits(counts)
    return _standard(b)


def waits(counts: list[int], n_melds: int | None = None) -> list[int]:
    """Sorted tiles completing ``counts`` (3n+1 tiles): standard shape, or thirteen wonders for 13.

    Tiles the hand already holds four of are **included** (see :func:`live_waits`). ``n_melds``, if
    given, is checked: concealed tiles plus three per meld must make 13. Raises ``ValueError`` for a
    tile count that is not 3n+1.
    """
    b = bytes(counts)
    total = sum(b)
    if total % 3 != 1 or n_melds is not None:
        _check(total, n_melds)
    if total > 13:
        return _slow_waits(counts)
    out = _standard(b)
    if total == 13:
        held: tuple[int, ...] = _orphans(b)
        if sum(held) == 13 and max(held) <= 2:
            missing = held.count(0)
            if missing == 0:
                return list(_ALL_ORPHANS)  # thirteen wonders waits on all 13 (no standard wait here)
            if missing == 1:
                out = sorted({*out, ORPHANS[held.index(0)]})
    return out


def live_waits(counts: list[int], visible: list[int] | None = None, n_melds: int | None = None) -> list[int]:
    """:func:`waits` less the tiles with no copy left: held four times, or held plus ``visible``
    (a length-34 count array of copies seen elsewhere: discards, melds) reaching four."""
    out = waits(counts, n_melds)
    if visible is None:
        return [t for t in out if counts[t] < 4]
    return [t for t in out if counts[t] + visible[t] < 4]


def _slow_waits(counts: list[int]) -> list[int]:
    out = []
    work = list(counts)
    for t in range(34):
        work[t] += 1
        if is_standard_complete(work):
            out.append(t)
        work[t] -= 1
    return out
