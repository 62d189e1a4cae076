"""Waits: the tiles that complete a concealed part of 3n+1 tiles.

Counts are length-34 ``list[int]``; a hand with exposed melds just passes its concealed tiles (fewer
tiles: 3n+1 with n the sets still to make). A wait completes the standard shape (n sets and a pair) or,
for 13 tiles, thirteen wonders.

:func:`waits` is about shape only: it **includes** tiles the hand already holds four of (a fifth copy
cannot be drawn, but the shape waits on it). :func:`live_waits` leaves out tiles with no copy left.
"""

from __future__ import annotations

from .decompose import is_standard_complete
from .special import ORPHANS, is_thirteen_wonders_wait
from .tables import SUIT_COMPLETE, honour_complete, honour_waits, suit_waits

_ORPHAN_WAITS: tuple[int, ...] = ORPHANS


def _check(counts: list[int], n_melds: int | None) -> int:
    total = sum(counts)
    if total % 3 != 1:
        raise ValueError(f"waits need 3n+1 concealed tiles, got {total}")
    if n_melds is not None and total + 3 * n_melds != 13:
        raise ValueError(f"{total} concealed tiles and {n_melds} melds do not make 13")
    return total


def _thirteen_waits(counts: list[int]) -> list[int]:
    if not is_thirteen_wonders_wait(counts):
        return []
    missing = [i for i in ORPHANS if counts[i] == 0]
    return missing if missing else list(_ORPHAN_WAITS)


def standard_waits(counts: list[int]) -> list[int]:
    """Tiles completing the standard shape (sets and one pair), fifth copies included, sorted."""
    b = bytes(counts)
    if sum(b) > 13:
        return _slow_waits(counts)
    keys = (b[0:9], b[9:18], b[18:27], b[27:34])
    get = SUIT_COMPLETE.get
    st = [get(keys[0], -1), get(keys[1], -1), get(keys[2], -1), honour_complete(keys[3])]
    bad = [g for g in range(4) if st[g] < 0]
    if len(bad) > 1:
        return []
    groups = bad if bad else [g for g in range(4) if st[g] == 1]
    pairs = sum(p for p in st if p > 0)
    out: list[int] = []
    for g in groups:
        others = pairs - (st[g] if st[g] > 0 else 0)
        if others > 1:
            continue
        got = honour_waits(keys[3]) if g == 3 else suit_waits(keys[g])
        off = 9 * g
        out.extend(x + off for x in got[1 - others])
    out.sort()
    return out


def waits(counts: list[int], n_melds: int | None = None) -> list[int]:
    """Sorted tiles completing ``counts`` (3n+1 tiles): standard shape, or thirteen wonders for 13.

    Tiles the hand already holds four of are **included** (see :func:`live_waits`). ``n_melds``, if
    given, is checked: concealed tiles plus three per meld must make 13. Raises ``ValueError`` for a
    tile count that is not 3n+1.
    """
    total = _check(counts, n_melds)
    out = standard_waits(counts)
    if total == 13:
        extra = _thirteen_waits(counts)
        if extra:
            out = sorted(set(out) | set(extra))
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
