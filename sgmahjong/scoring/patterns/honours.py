"""Honour sets: dragon and wind pongs, three scholars (三元), four blessings (四喜), all honours."""

from __future__ import annotations

from ..facts import HONOUR, HandFacts
from ..registry import FIXED, LIMIT, pattern

# A honour tile cannot be in a chow, so in a complete hand a count of 3 or 4 is a pong or kong and a
# count of 2 is the pair, whatever the decomposition: these patterns are decided once per hand.


def _dragon_pongs(h: HandFacts) -> int:
    c = h.counts
    return (c[31] >= 3) + (c[32] >= 3) + (c[33] >= 3)


def _wind_pongs(h: HandFacts) -> int:
    c = h.counts
    return (c[27] >= 3) + (c[28] >= 3) + (c[29] >= 3) + (c[30] >= 3)


@pattern("dragon_pong", "Dragon pong", "三元牌", "1 each", gate="has_honours")
def dragon_pong(h: HandFacts) -> int:
    """1 tai for each pong or kong of a dragon."""
    return _dragon_pongs(h)


@pattern("seat_wind", "Seat wind pong", "门风", "1", gate="has_honours")
def seat_wind(h: HandFacts) -> int:
    """A pong or kong of the seat wind."""
    return 1 if h.counts[h.seat] >= 3 else 0


@pattern("prevailing_wind", "Prevailing wind pong", "圈风", "1 (with the seat wind: 2)", gate="has_honours")
def prevailing_wind(h: HandFacts) -> int:
    """A pong or kong of the prevailing wind (counted beside the seat wind when they coincide)."""
    return 1 if h.counts[h.prevailing] >= 3 else 0


@pattern("small_three_dragons", "Three lesser scholars", "小三元", "+1 (with its two dragon pongs: 3)",
         gate="has_honours")
def small_three_dragons(h: HandFacts) -> int:
    """Two dragon pongs and the third dragon as the pair."""
    c = h.counts
    return 1 if _dragon_pongs(h) == 2 and 2 in (c[31], c[32], c[33]) else 0


@pattern("big_three_dragons", "Three great scholars", "大三元", "10 (at most the limit)", value=FIXED,
         absorbs=("dragon_pong",), gate="has_honours")
def big_three_dragons(h: HandFacts) -> int:
    """Pongs or kongs of all three dragons: 10, absorbing its three dragon pongs."""
    return 10 if _dragon_pongs(h) == 3 else 0


@pattern("small_four_winds", "Four lesser blessings", "小四喜", "2 (+ any seat/prevailing wind pongs)",
         gate="has_honours")
def small_four_winds(h: HandFacts) -> int:
    """Three wind pongs and the fourth wind as the pair."""
    c = h.counts
    return 2 if _wind_pongs(h) == 3 and 2 in (c[27], c[28], c[29], c[30]) else 0


@pattern("big_four_winds", "Four great blessings", "大四喜", "limit", value=LIMIT, gate="has_honours")
def big_four_winds(h: HandFacts) -> int:
    """Pongs or kongs of all four winds."""
    return h.rules.limit if _wind_pongs(h) == 4 else 0


@pattern("all_honours", "All honours", "字一色", "limit", value=LIMIT, gate="has_honours")
def all_honours(h: HandFacts) -> int:
    """Only winds and dragons."""
    return h.rules.limit if h.suit_mask == HONOUR else 0
