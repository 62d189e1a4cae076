"""Bonus tiles: animals (动物), seat flowers (正花), flower sets (一台花), eight flowers."""

from __future__ import annotations

from ..facts import HandFacts
from ..registry import LIMIT, pattern

_RED = frozenset(range(34, 38))
_BLUE = frozenset(range(38, 42))


@pattern("animal", "Animal", "动物", "1 each", gate="has_bonus")
def animal(h: HandFacts) -> int:
    """1 tai for each animal tile."""
    return h.animals


@pattern("all_animals", "All four animals", "四只动物", "+1 (so 5 in all)", gate="has_bonus")
def all_animals(h: HandFacts) -> int:
    """All four animals: one more on top of the four (5 in all)."""
    return 1 if h.animals == 4 else 0


@pattern("seat_flower", "Seat flower", "正花", "1 each (other flowers 0)", gate="has_bonus")
def seat_flower(h: HandFacts) -> int:
    """1 tai for each of the two flowers that match the seat (n and n+4 for seat n)."""
    s = h.seat - 27
    f = h.flowers
    return (34 + s in f) + (38 + s in f)


@pattern("flower_set", "Complete flower set", "一台花", "+1 per set", gate="has_bonus")
def flower_set(h: HandFacts) -> int:
    """+1 for each complete set of four flowers of one colour (beside its seat flower)."""
    f = h.flowers
    return (f >= _RED) + (f >= _BLUE)


@pattern("eight_flowers", "Eight flowers", "八仙过海", "limit", value=LIMIT, option="eight_flowers",
         gate="has_bonus")
def eight_flowers(h: HandFacts) -> int:
    """All eight flowers (usually an instant win, see ``score_special``; a complete hand holding them
    scores the limit too)."""
    return h.rules.limit if len(h.flowers) == 8 else 0
