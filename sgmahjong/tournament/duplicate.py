"""Duplicate play: every table of a round plays the same walls, and each seat is scored against the
others who held that seat on that wall (docs/events.md).

Hand k of a duplicate round (counted from 0) is dealt by seat ``k mod 4`` in the prevailing wind
``(k div 4) mod 4``, whatever happened at the hands before (the dealer does not stay on a win), so that the
same secret gives the same wall in the same draw order at every table."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from fractions import Fraction

from sgmahjong.tournament.records import EventError, HandRecord


def deal_plan(hands: int) -> list[tuple[int, int]]:
    """(dealer seat, prevailing wind) of each hand of a duplicate round."""
    return [(k % 4, (k // 4) % 4) for k in range(hands)]


def seat_par(records: Iterable[HandRecord]) -> dict[tuple[int, int, int], Fraction]:
    """The par of each (round, hand, seat): the average of what that seat made at every table that
    played the hand's wall. Raises :class:`EventError` if the tables of one hand had different walls."""
    walls: dict[tuple[int, int], str] = {}
    sums: dict[tuple[int, int, int], list[int]] = defaultdict(list)
    for r in records:
        key = (r.round, r.hand)
        if walls.setdefault(key, r.wall) != r.wall:
            raise EventError(f"round {r.round} hand {r.hand + 1} was dealt two different walls")
        for seat, s in enumerate(r.seats):
            sums[(r.round, r.hand, seat)].append(s.net)
    return {k: Fraction(sum(v), len(v)) for k, v in sums.items()}
