"""Ready deals: the other hands dealt one tile from winning where the discards say they likely are.

Uniform deals seldom give another seat a waiting hand, so a search over them prices the risk of
dealing in at almost nothing; knowing which seats are one tile from winning, and on what, is most of
what a perfect reading of the hidden tiles would add (docs/expert-levers.md). A ready deal reads the
learned chance that each other seat can win on each face now (:mod:`.danger`), takes from it the
chance that the seat is ready at all (:func:`ready_chance`: calibrated on hands of four ``strong``,
``python -m bench.ready_calibration``), and with that chance deals the seat a hand that wins on a
face drawn by those chances (:func:`build_ready`: a single tile, two pairs or a pair and two tiles of
a run, the rest in sets, every tile from those the seat cannot see). The other seats are dealt
uniformly from what is left.
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Sequence
from typing import Any

from ..tiles import NUM_PLAYING
from .danger import chance, read
from .perception import perceive

# (the sum over the faces of a seat's learned chances of winning on each, the share of such seats that
# were ready to win on a discard): 254,115 seats in 2,000 hands of four strong, seed 555, by
# `python -m bench.ready_calibration` (docs/expert-levers.md)
READY_AT: tuple[tuple[float, float], ...] = (
    (0.0, 0.0), (0.018, 0.006), (0.071, 0.035), (0.140, 0.077), (0.248, 0.137), (0.396, 0.209),
    (0.631, 0.291), (0.991, 0.413), (1.461, 0.574), (2.222, 0.812),
)
_AT = tuple(x for x, _ in READY_AT)
PONG_SHARE = 0.35  # of the sets a ready hand is filled with, the share of pongs (the rest chows)


def ready_chance(total: float) -> float:
    """The chance a seat is ready, from the sum of its chances of winning on each face (interpolated
    in :data:`READY_AT`, its last share beyond)."""
    i = bisect.bisect_right(_AT, total)
    if i >= len(READY_AT):
        return READY_AT[-1][1]
    (x0, y0), (x1, y1) = READY_AT[i - 1], READY_AT[i]
    return y0 + (y1 - y0) * (total - x0) / (x1 - x0)


def wait_chances(view: dict[str, Any]) -> tuple[tuple[float, ...], ...]:
    """For each seat, the learned chance it can win on each playing face now (empty for the view's own
    seat and for a seat holding no concealed tiles)."""
    p = perceive(view)
    r = read(view)
    out: list[tuple[float, ...]] = []
    for s in range(4):
        if s == p.seat or p.seats[s].concealed_count % 3 != 1:
            out.append(())
            continue
        out.append(tuple(chance(p, r, s, t) for t in range(NUM_PLAYING)))
    return tuple(out)


def pick_wait(chances: Sequence[float], rng: random.Random) -> int:
    """A face drawn with probability proportional to its chance (-1 if every chance is 0)."""
    total = sum(chances)
    if total <= 0.0:
        return -1
    x = rng.random() * total
    for t, c in enumerate(chances):
        x -= c
        if x < 0.0 and c > 0.0:
            return t
    return max(range(len(chances)), key=lambda t: chances[t])


def _take(counts: list[int], tiles: Sequence[int]) -> bool:
    """Take ``tiles`` out of ``counts`` if all are there (else leave ``counts`` as it was)."""
    need: dict[int, int] = {}
    for t in tiles:
        need[t] = need.get(t, 0) + 1
    if any(counts[t] < n for t, n in need.items()):
        return False
    for t, n in need.items():
        counts[t] -= n
    return True


def _runs(t: int) -> list[tuple[int, int]]:
    """The two-tile parts of a run that ``t`` completes (none for an honour)."""
    if t >= 27:
        return []
    lo = t - t % 9
    out = []
    for a, b in ((t - 2, t - 1), (t - 1, t + 1), (t + 1, t + 2)):
        if lo <= a and b < lo + 9:
            out.append((a, b))
    return out


def _a_set(counts: list[int], rng: random.Random) -> tuple[int, ...] | None:
    """A pong or a chow the ``counts`` hold, drawn at random (pongs with :data:`PONG_SHARE`)."""
    pongs = [(t, t, t) for t in range(NUM_PLAYING) if counts[t] >= 3]
    chows = [(t, t + 1, t + 2) for t in range(27)
             if t % 9 <= 6 and counts[t] and counts[t + 1] and counts[t + 2]]
    if not pongs and not chows:
        return None
    pool = pongs if not chows or (pongs and rng.random() < PONG_SHARE) else chows
    return pool[rng.randrange(len(pool))]


def build_ready(counts: Sequence[int], n: int, t: int, rng: random.Random) -> list[int] | None:
    """A hand of ``n`` tiles (``n`` % 3 == 1) from ``counts`` (per face) that ``t`` completes: ``t``
    alone, or ``t`` paired beside another pair, or two tiles of a run ``t`` completes beside a pair;
    the rest in sets, a copy of ``t`` left in ``counts``. ``None`` when the tiles drawn do not allow one."""
    c = list(counts)
    shapes: list[tuple[int, ...]] = [(t,)]
    if n >= 4:
        shapes.append((t, t))
        shapes.extend(_runs(t))
    shape = shapes[rng.randrange(len(shapes))]
    if not _take(c, shape):
        return None
    hand = list(shape)
    if len(shape) > 1:  # a pair beside it
        pairs = [x for x in range(NUM_PLAYING) if c[x] >= 2 and x != t]
        if not pairs:
            return None
        x = pairs[rng.randrange(len(pairs))]
        c[x] -= 2
        hand += [x, x]
    while len(hand) < n:
        s = _a_set(c, rng)
        if s is None:
            return None
        _take(c, s)
        hand.extend(s)
    return hand if c[t] > 0 else None  # a copy of t left to win on
