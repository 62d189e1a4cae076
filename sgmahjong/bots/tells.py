"""What a seat's discards tell of its concealed tiles.

A player keeps the tiles that work in its hand and throws the others, so an honour it has thrown, or
one whose other copies are all in sight, is rarely still in its hand, and a tile next to its discards
is less likely there than a middle tile far from them. Dealing the hidden tiles uniformly, as the
expert's search does by default, ignores that. :data:`FACTORS` says, for a tile face and a seat, how
many copies of it the seat holds for each one a uniform deal gives it, by a few features of the face
and the seat's discards (:func:`feature`); :func:`seat_weights` gives a seat's factor for every face,
which :func:`.determinise.deal_hidden` deals by when the expert's ``tells`` option is on.

The factors are measured, not guessed: the observed copies over the uniform expectation, over every
turn of every seat in 2,000 hands of four ``strong`` bots, smoothed towards 1 by 10 expected copies
(``python -m bench.tile_tells --hands 2000 --seed 500000`` prints this table).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..tiles import NUM_PLAYING

HONOURS: Final = 27  # the first honour face
DRAGONS: Final = 31
FLOOR: Final = 0.02  # no face is ruled out: a factor is at least this

# feature -> copies held for each one a uniform deal gives (bench/tile_tells.py measures them)
FACTORS: dict[tuple[int, ...], float] = {
    (0, 0, 0, 1, 0): 0.34,  # 221 held, 679 uniform
    (0, 0, 0, 1, 1): 0.09,  # 178 held, 2050 uniform
    (0, 0, 0, 1, 2): 0.05,  # 145 held, 2905 uniform
    (0, 0, 0, 1, 3): 0.07,  # 101 held, 1653 uniform
    (0, 0, 0, 2, 0): 0.62,  # 2233 held, 3623 uniform
    (0, 0, 0, 2, 1): 0.31,  # 2210 held, 7249 uniform
    (0, 0, 0, 2, 2): 0.30,  # 2122 held, 7017 uniform
    (0, 0, 0, 2, 3): 0.51,  # 1319 held, 2618 uniform
    (0, 0, 0, 3, 0): 0.85,  # 12304 held, 14542 uniform
    (0, 0, 0, 3, 1): 0.54,  # 6947 held, 12922 uniform
    (0, 0, 0, 3, 2): 0.49,  # 3953 held, 8080 uniform
    (0, 0, 0, 3, 3): 0.72,  # 1465 held, 2049 uniform
    (0, 0, 0, 4, 0): 1.01,  # 29449 held, 29265 uniform
    (0, 0, 0, 4, 1): 0.97,  # 14495 held, 14893 uniform
    (0, 0, 0, 4, 2): 1.10,  # 6519 held, 5932 uniform
    (0, 0, 0, 4, 3): 1.25,  # 1467 held, 1171 uniform
    (0, 0, 1, 1, 0): 0.06,  # 12 held, 355 uniform
    (0, 0, 1, 1, 1): 0.06,  # 97 held, 1825 uniform
    (0, 0, 1, 1, 2): 0.06,  # 170 held, 3110 uniform
    (0, 0, 1, 1, 3): 0.06,  # 107 held, 2075 uniform
    (0, 0, 1, 2, 0): 0.08,  # 116 held, 1513 uniform
    (0, 0, 1, 2, 1): 0.09,  # 477 held, 5196 uniform
    (0, 0, 1, 2, 2): 0.12,  # 636 held, 5478 uniform
    (0, 0, 1, 2, 3): 0.22,  # 430 held, 1997 uniform
    (0, 0, 1, 3, 0): 0.20,  # 292 held, 1468 uniform
    (0, 0, 1, 3, 1): 0.22,  # 716 held, 3358 uniform
    (0, 0, 1, 3, 2): 0.30,  # 769 held, 2577 uniform
    (0, 0, 1, 3, 3): 0.60,  # 405 held, 678 uniform
    (0, 1, 0, 1, 0): 0.23,  # 402 held, 1760 uniform
    (0, 1, 0, 1, 1): 0.07,  # 345 held, 4944 uniform
    (0, 1, 0, 1, 2): 0.04,  # 273 held, 6646 uniform
    (0, 1, 0, 1, 3): 0.06,  # 205 held, 3750 uniform
    (0, 1, 0, 2, 0): 0.46,  # 3520 held, 7713 uniform
    (0, 1, 0, 2, 1): 0.13,  # 1953 held, 14883 uniform
    (0, 1, 0, 2, 2): 0.08,  # 1199 held, 14402 uniform
    (0, 1, 0, 2, 3): 0.11,  # 534 held, 4994 uniform
    (0, 1, 0, 3, 0): 0.72,  # 21828 held, 30464 uniform
    (0, 1, 0, 3, 1): 0.31,  # 7937 held, 25826 uniform
    (0, 1, 0, 3, 2): 0.20,  # 3086 held, 15205 uniform
    (0, 1, 0, 3, 3): 0.29,  # 996 held, 3454 uniform
    (0, 1, 0, 4, 0): 0.95,  # 57671 held, 61008 uniform
    (0, 1, 0, 4, 1): 0.88,  # 25023 held, 28422 uniform
    (0, 1, 0, 4, 2): 0.93,  # 10591 held, 11336 uniform
    (0, 1, 0, 4, 3): 1.10,  # 2764 held, 2516 uniform
    (0, 1, 1, 1, 0): 0.09,  # 75 held, 919 uniform
    (0, 1, 1, 1, 1): 0.02,  # 71 held, 4254 uniform
    (0, 1, 1, 1, 2): 0.03,  # 167 held, 6876 uniform
    (0, 1, 1, 1, 3): 0.04,  # 179 held, 4469 uniform
    (0, 1, 1, 2, 0): 0.14,  # 530 held, 3883 uniform
    (0, 1, 1, 2, 1): 0.05,  # 495 held, 11135 uniform
    (0, 1, 1, 2, 2): 0.02,  # 241 held, 11476 uniform
    (0, 1, 1, 2, 3): 0.05,  # 200 held, 3978 uniform
    (0, 1, 1, 3, 0): 0.23,  # 925 held, 3996 uniform
    (0, 1, 1, 3, 1): 0.13,  # 910 held, 7304 uniform
    (0, 1, 1, 3, 2): 0.09,  # 432 held, 4881 uniform
    (0, 1, 1, 3, 3): 0.26,  # 268 held, 1062 uniform
    (1, 0, 0, 0): 0.36,  # 1590 held, 4393 uniform
    (1, 0, 0, 1): 0.43,  # 7083 held, 16590 uniform
    (1, 0, 0, 2): 0.45,  # 10555 held, 23628 uniform
    (1, 0, 0, 3): 0.51,  # 6434 held, 12556 uniform
    (1, 0, 1, 0): 0.54,  # 737 held, 1383 uniform
    (1, 0, 1, 1): 0.58,  # 4931 held, 8530 uniform
    (1, 0, 1, 2): 0.63,  # 9479 held, 15001 uniform
    (1, 0, 1, 3): 0.65,  # 5171 held, 8007 uniform
    (1, 0, 2, 0): 0.49,  # 257 held, 535 uniform
    (1, 0, 2, 1): 0.65,  # 1895 held, 2934 uniform
    (1, 0, 2, 2): 0.70,  # 4142 held, 5892 uniform
    (1, 0, 2, 3): 0.76,  # 2664 held, 3502 uniform
    (1, 0, 3, 0): 1.00,  # 144519 held, 144314 uniform
    (1, 0, 3, 1): 0.99,  # 124685 held, 125816 uniform
    (1, 0, 3, 2): 0.96,  # 69756 held, 72331 uniform
    (1, 0, 3, 3): 0.98,  # 17751 held, 18076 uniform
    (1, 1, 0, 0): 0.85,  # 911 held, 1079 uniform
    (1, 1, 0, 1): 0.76,  # 5583 held, 7309 uniform
    (1, 1, 0, 2): 0.75,  # 11284 held, 15000 uniform
    (1, 1, 0, 3): 0.79,  # 8011 held, 10102 uniform
    (1, 1, 1, 0): 0.50,  # 3405 held, 6821 uniform
    (1, 1, 1, 1): 0.72,  # 19680 held, 27425 uniform
    (1, 1, 1, 2): 0.86,  # 34590 held, 40220 uniform
    (1, 1, 1, 3): 0.93,  # 19557 held, 21059 uniform
    (1, 1, 2, 0): 0.57,  # 312 held, 559 uniform
    (1, 1, 2, 1): 0.65,  # 1778 held, 2755 uniform
    (1, 1, 2, 2): 0.76,  # 4102 held, 5427 uniform
    (1, 1, 2, 3): 0.89,  # 2545 held, 2869 uniform
    (1, 1, 3, 0): 1.08,  # 159776 held, 147582 uniform
    (1, 1, 3, 1): 1.20,  # 158869 held, 132253 uniform
    (1, 1, 3, 2): 1.27,  # 95797 held, 75636 uniform
    (1, 1, 3, 3): 1.32,  # 24686 held, 18661 uniform
    (1, 2, 0, 0): 1.34,  # 1458 held, 1088 uniform
    (1, 2, 0, 1): 1.22,  # 8578 held, 7014 uniform
    (1, 2, 0, 2): 1.20,  # 22057 held, 18443 uniform
    (1, 2, 0, 3): 1.14,  # 18885 held, 16539 uniform
    (1, 2, 1, 0): 0.53,  # 2048 held, 3893 uniform
    (1, 2, 1, 1): 0.66,  # 16920 held, 25602 uniform
    (1, 2, 1, 2): 0.78,  # 46552 held, 59760 uniform
    (1, 2, 1, 3): 0.90,  # 40032 held, 44685 uniform
    (1, 2, 2, 0): 0.56,  # 5306 held, 9447 uniform
    (1, 2, 2, 1): 0.87,  # 37838 held, 43609 uniform
    (1, 2, 2, 2): 1.12,  # 80271 held, 71524 uniform
    (1, 2, 2, 3): 1.27,  # 49074 held, 38787 uniform
    (1, 2, 3, 0): 1.09,  # 411913 held, 379528 uniform
    (1, 2, 3, 1): 1.26,  # 463816 held, 369413 uniform
    (1, 2, 3, 2): 1.39,  # 321090 held, 231193 uniform
    (1, 2, 3, 3): 1.43,  # 87212 held, 61154 uniform
}


def stage(discards: int) -> int:
    """How far into the hand a seat is, by the discards in front of it: 0-2, 3-5, 6-9, 10 or more."""
    return 0 if discards < 3 else 1 if discards < 6 else 2 if discards < 10 else 3


def feature(discards: Sequence[int], t: int, unseen: int, seat_wind: int, prevailing: int) -> tuple[int, ...]:
    """The features of face ``t`` (a playing tile) for a seat with ``discards`` (its pool, in order):
    an honour's ``(0, scores for the seat, the seat threw one, copies unseen, stage)``, a suited tile's
    ``(1, 1/9 or 2/8 or 3-7, ranks to the seat's nearest discard of its suit (3: three or more, or
    none), stage)``."""
    st = stage(len(discards))
    if t >= HONOURS:
        scores = t >= DRAGONS or t - HONOURS in (seat_wind, prevailing)
        return (0, int(scores), int(t in discards), unseen, st)
    suit, rank = divmod(t, 9)
    near = 3
    for x in discards:
        if x < HONOURS and x // 9 == suit:
            near = min(near, abs(rank - x % 9))
    kind = 0 if rank in (0, 8) else 1 if rank in (1, 7) else 2
    return (1, kind, near, st)


def seat_weights(discards: Sequence[int], unseen: Sequence[int], seat_wind: int,
                 prevailing: int) -> tuple[float, ...]:
    """A seat's factor for each playing face (1 where :data:`FACTORS` has none; unseen faces too).
    The table's factors are at least :data:`FLOOR` as ``bench/tile_tells.py`` writes them."""
    pool = [int(x) for x in discards if x < NUM_PLAYING]
    return tuple(FACTORS.get(feature(pool, t, unseen[t], seat_wind, prevailing), 1.0)
                 if unseen[t] else 1.0 for t in range(NUM_PLAYING))
