"""Flushes: half flush (半色), full flush (清一色) and its two combinations, pure green (绿一色)."""

from __future__ import annotations

from ...tiles import GREEN_TILES
from ..facts import HONOUR, Arrangement, HandFacts
from ..registry import FIXED, pattern
from .shapes import is_sequence_hand

_ONE_SUIT = (1, 2, 4)  # MAN, PIN, SOU


def is_full_flush(h: HandFacts) -> bool:
    """Every tile of one suit (no honours)."""
    return h.suit_mask in _ONE_SUIT


@pattern("half_flush", "Half flush", "半色", "2", gate="one_suit")
def half_flush(h: HandFacts) -> int:
    """One suit plus honours (both present)."""
    return 2 if h.suit_mask & HONOUR and (h.suit_mask ^ HONOUR) in _ONE_SUIT else 0


@pattern("full_flush", "Full flush", "清一色", "4", gate="one_suit")
def full_flush(h: HandFacts) -> int:
    """Every tile of one suit."""
    return 4 if is_full_flush(h) else 0


@pattern("full_flush_pong_pong", "Full flush with triplets", "清一色碰碰胡", "+2 (2 + 2 + 4 = 8)",
         scope="decomposition", gate="one_suit")
def full_flush_pong_pong(h: HandFacts, a: Arrangement) -> int:
    """A full flush that is also a triplets hand: +2 on top of the triplets hand and the full flush."""
    return 2 if a.all_pongs and is_full_flush(h) else 0


@pattern("full_flush_ping_hu", "Full flush sequence hand", "清一色平胡", "10 (at most the limit)",
         value=FIXED, scope="decomposition", absorbs=("full_flush", "ping_hu"), gate="one_suit")
def full_flush_ping_hu(h: HandFacts, a: Arrangement) -> int:
    """A full flush that is a sequence hand (no bonus tiles): 10 in place of the full flush and the
    sequence hand. With bonus tiles it is the lesser sequence hand plus the full flush (1 + 4)."""
    return 10 if not h.bonus and is_full_flush(h) and is_sequence_hand(h, a) else 0


@pattern("pure_green", "Pure green", "绿一色", "4 (instead of half flush)", option="pure_green",
         absorbs=("half_flush",), gate="one_suit")
def pure_green(h: HandFacts) -> int:
    """Option ``pure_green``: only 2, 3, 4, 6, 8 of bamboo and the green dragon, the green dragon
    present: 4 in place of the half flush. Without the green dragon the hand is a bamboo full flush
    and scores as one."""
    c = h.counts
    if not c[32]:
        return 0
    for t in range(34):
        if c[t] and t not in GREEN_TILES:
            return 0
    return 4
