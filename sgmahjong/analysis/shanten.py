"""Shanten: how many tiles a hand is from ready (0 = ready/tenpai, -1 = complete).

Counts are length-34 ``list[int]`` of the concealed tiles: 3n+1 tiles (before the draw) or 3n+2
(after it), n being the sets still to make, so a hand with exposed melds just passes fewer tiles.

Definition (the usual one): for a hand H, ``shanten = min |T - H| - 1`` over complete hands T of
3n+2 tiles (multiset difference), i.e. one less than the fewest tiles to swap in. Like
:func:`.waits.waits` it is about shape: a fifth copy of a tile is not ruled out, so a 13-tile hand
has shanten 0 exactly when its waits are not empty. Thirteen wonders counts only for 13 or 14 tiles;
there is no seven-pairs hand in Singapore rules.

How: a split of the hand into m sets, t partial sets (two tiles one short of a set) and p pairs
(0 or 1) gives ``2n - 2m - min(t, n - m) - p``, and the shanten is the least of these (exact for the
definition above). Each suit's best splits, as Pareto options (A, B) = (2m + t, m) without and with
the pair, come from :mod:`.tables` (one memoised lookup per suit, the honours likewise); the
combination is ``min(sum A, n + sum B) + pair``, a few additions.
"""

from __future__ import annotations

from operator import itemgetter

from .special import ORPHANS
from .tables import GroupOptions, honour_options, remember, suit_options

_Entry = tuple[int, int, tuple[tuple[int, int], ...], bool, GroupOptions]
"""Per group: (A, B) of its best split without the pair, the (dA, dB) of each with-pair option
relative to it, whether it has other options without the pair (then the general path runs), and
all its options."""


def _entry(opts: GroupOptions) -> _Entry:
    (a0, b0), *rest = opts[0]
    return (a0, b0, tuple((a - a0, b - b0) for a, b in opts[1]), bool(rest), opts)


_SUIT_FAST: dict[bytes, _Entry] = {}
_HONOUR_FAST: dict[bytes, _Entry] = {}


def _suit_entry(key: bytes) -> _Entry:
    return remember(_SUIT_FAST, key, _entry(suit_options(key)))


def _honour_entry(key: bytes) -> _Entry:
    return remember(_HONOUR_FAST, key, _entry(honour_options(key)))


def _check(total: int, n_melds: int | None) -> None:
    if total % 3 == 0:
        raise ValueError(f"shanten needs 3n+1 or 3n+2 concealed tiles, got {total}")
    if n_melds is not None and total + 3 * n_melds not in (13, 14):
        raise ValueError(f"{total} concealed tiles and {n_melds} melds do not make 13 or 14")


def _combine(n: int, groups: tuple[GroupOptions, ...]) -> int:
    """Best ``min(A, n + B) + pair`` over one option per group, at most one group giving the pair."""
    acc0 = [(0, 0)]
    acc1: list[tuple[int, int]] = []
    for g0, g1 in groups:
        new1 = [(a + c, b + d) for a, b in acc0 for c, d in g1]
        if acc1:
            new1 += [(a + c, b + d) for a, b in acc1 for c, d in g0]
        acc0 = [(a + c, b + d) for a, b in acc0 for c, d in g0]
        acc1 = new1
    best = max(min(a, n + b) for a, b in acc0)
    for a, b in acc1:
        v = min(a, n + b) + 1
        if v > best:
            best = v
    return best


def _best(n: int, e1: _Entry, e2: _Entry, e3: _Entry, e4: _Entry) -> int:
    """Best ``min(A, n + B) + pair`` of four groups (2n less it is the shanten)."""
    if e1[3] or e2[3] or e3[3] or e4[3]:
        return _combine(n, (e1[4], e2[4], e3[4], e4[4]))
    sa = e1[0] + e2[0] + e3[0] + e4[0]
    sb = n + e1[1] + e2[1] + e3[1] + e4[1]
    best = sa if sa < sb else sb
    for da, db in e1[2] + e2[2] + e3[2] + e4[2]:
        a = sa + da
        c = sb + db
        v = (a if a < c else c) + 1
        if v > best:
            best = v
    return best


def _entries(b: bytes) -> list[_Entry]:
    k1 = b[0:9]
    k2 = b[9:18]
    k3 = b[18:27]
    k4 = b[27:34]
    get = _SUIT_FAST.get
    return [
        get(k1) or _suit_entry(k1),
        get(k2) or _suit_entry(k2),
        get(k3) or _suit_entry(k3),
        _HONOUR_FAST.get(k4) or _honour_entry(k4),
    ]


def _standard(b: bytes, n: int) -> int:
    k1 = b[0:9]
    k2 = b[9:18]
    k3 = b[18:27]
    k4 = b[27:34]
    get = _SUIT_FAST.get
    return 2 * n - _best(
        n,
        get(k1) or _suit_entry(k1),
        get(k2) or _suit_entry(k2),
        get(k3) or _suit_entry(k3),
        _HONOUR_FAST.get(k4) or _honour_entry(k4),
    )


def shanten_standard(counts: list[int], n_melds: int | None = None) -> int:
    """Shanten towards the standard shape (n sets and a pair); -1 when complete."""
    b = bytes(counts)
    total = sum(b)
    if total % 3 == 0 or n_melds is not None:
        _check(total, n_melds)
    return _standard(b, total // 3)


_orphans = itemgetter(*ORPHANS)


def _thirteen(b: bytes) -> int:
    held: tuple[int, ...] = _orphans(b)
    return held.count(0) - 1 if max(held) > 1 else held.count(0)


def shanten_thirteen(counts: list[int]) -> int:
    """Shanten towards thirteen wonders (13 or 14 tiles only, else ``ValueError``); -1 complete."""
    total = sum(counts)
    if total not in (13, 14):
        raise ValueError(f"thirteen wonders needs 13 or 14 concealed tiles, got {total}")
    return _thirteen(bytes(counts))


def shanten(counts: list[int], n_melds: int | None = None) -> int:
    """The lower of :func:`shanten_standard` and (for 13 or 14 tiles) :func:`shanten_thirteen`.

    ``n_melds``, if given, is checked: concealed tiles plus three per meld must make 13 or 14.
    Raises ``ValueError`` for a tile count that is a multiple of 3.
    """
    b = bytes(counts)
    total = sum(b)
    if total % 3 == 0 or n_melds is not None:
        _check(total, n_melds)
    s = _standard(b, total // 3)
    if s > 0 and (total == 13 or total == 14):
        t = _thirteen(b)
        if t < s:
            return t
    return s


def _near(t: int) -> tuple[int, ...]:
    if t >= 27:
        return (t,)
    r = t % 9
    return tuple(range(t - min(r, 2), t + min(8 - r, 2) + 1))


_NEAR: tuple[tuple[int, ...], ...] = tuple(_near(t) for t in range(34))
"""Tiles within two of a tile in its suit (only the tile itself for honours): a drawn tile with no
held tile this near cannot make a set, partial set or pair, so it cannot lower the standard shanten."""


_NEIGHBOURS: tuple[dict[bytes, tuple[_Entry | None, ...]], ...] = ({}, {}, {}, {})
"""Memos: (suit or honours, delta) -> group shape -> the entries of the shape with one more (delta
+1) or one fewer (delta -1) of each of its tiles (None where there is none to take)."""


def _neighbours(honours: bool, delta: int, key: bytes) -> tuple[_Entry | None, ...]:
    table = _NEIGHBOURS[2 * honours + (delta > 0)]
    got = table.get(key)
    if got is None:
        entries: list[_Entry | None] = []
        work = bytearray(key)
        for i in range(len(key)):
            if work[i] + delta < 0:
                entries.append(None)
                continue
            work[i] += delta
            k = bytes(work)
            work[i] -= delta
            if honours:
                entries.append(_HONOUR_FAST.get(k) or _honour_entry(k))
            else:
                entries.append(_SUIT_FAST.get(k) or _suit_entry(k))
        got = remember(table, key, tuple(entries))
    return got


def _changed(counts: list[int], tiles: list[int], delta: int) -> list[int]:
    """The shanten of ``counts`` with one tile of each of ``tiles`` added (delta +1) or taken
    (delta -1) in turn; only the group holding that tile changes, its new entry is memoised."""
    b = bytes(counts)
    total = sum(b) + delta
    n = total // 3
    entries = _entries(b)
    keys = (b[0:9], b[9:18], b[18:27], b[27:34])
    thirteen = total == 13 or total == 14
    held: list[int] = list(_orphans(b)) if thirteen else []
    th0 = (held.count(0) - 1 if max(held) > 1 else held.count(0)) if thirteen else 99
    out = []
    for t in tiles:
        g = t // 9 if t < 27 else 3
        e = _neighbours(g == 3, delta, keys[g])[t - 9 * g]
        if e is None:
            raise ValueError(f"no tile {t} to take")
        es = list(entries)
        es[g] = e
        s = 2 * n - _best(n, es[0], es[1], es[2], es[3])
        if s > 0 and th0 - 1 < s:  # thirteen wonders moves by at most one
            i = _ORPHAN_INDEX.get(t, -1)
            if i >= 0:
                held[i] += delta
            th = held.count(0) - 1 if max(held) > 1 else held.count(0)
            if i >= 0:
                held[i] -= delta
            if th < s:
                s = th
        out.append(s)
    return out


_ORPHAN_INDEX = {t: i for i, t in enumerate(ORPHANS)}


def useful_tiles(counts: list[int]) -> list[int]:
    """Tiles whose draw lowers the shanten of a 3n+1 hand, sorted (shape only: tiles held four times
    are not left out; drop those with no copy left yourself)."""
    b = bytes(counts)
    total = sum(b)
    if total % 3 != 1:
        raise ValueError(f"useful tiles need 3n+1 concealed tiles, got {total}")
    found: set[int] = set(ORPHANS) if total == 13 else set()
    for t in range(34):
        if b[t]:
            found.update(_NEAR[t])
    candidates = sorted(found)
    base = shanten(counts)
    return [t for t, s in zip(candidates, _changed(counts, candidates, 1), strict=True) if s < base]


def discard_shanten(counts: list[int]) -> dict[int, int]:
    """For a 3n+2 hand: each distinct held tile -> the shanten of the hand after discarding it."""
    total = sum(counts)
    if total % 3 != 2:
        raise ValueError(f"discards need 3n+2 concealed tiles, got {total}")
    held = [t for t in range(34) if counts[t]]
    return dict(zip(held, _changed(counts, held, -1), strict=True))


def best_discards(counts: list[int]) -> list[int]:
    """For a 3n+2 hand: the held tiles whose discard leaves the lowest shanten, sorted."""
    by_tile = discard_shanten(counts)
    low = min(by_tile.values())
    return [t for t, s in by_tile.items() if s == low]
