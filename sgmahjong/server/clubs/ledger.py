"""A club's ledger (pure): each member's net over a period, from the payments of their matches' hands.

A hand's ``net`` per seat is the table's hand ledger (the rule set's payment chart: instant payments
and the win's payments, in points); a club plays at a stake, ``cents_per_point``, that turns points
into money. Seats not held by a member (bots, guests) are left out of the ledger.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class HandRecord:
    net: tuple[int, int, int, int]  # points won (+) or paid (-) by each seat in the hand
    winner: int | None  # the winning seat (None: a drawn hand)
    tai: int = 0  # the winner's tai


@dataclass(frozen=True)
class MatchRecord:
    members: tuple[str | None, str | None, str | None, str | None]  # the member at each seat, if any
    hands: tuple[HandRecord, ...]


@dataclass
class Line:
    """One member's line of the ledger."""

    net: int = 0  # points
    money: int = 0  # cents at the club's stake
    matches: int = 0
    wins: int = 0  # hands won
    biggest: int = 0  # the most tai of a hand the member won
    hands: list[int] = field(default_factory=list)  # the member's net of each hand, in order


def ledger(matches: Iterable[MatchRecord], cents_per_point: int) -> dict[str, Line]:
    """member -> their line over ``matches``."""
    out: dict[str, Line] = {}
    for match in matches:
        for seat, member in enumerate(match.members):
            if member is None:
                continue
            line = out.setdefault(member, Line())
            line.matches += 1
            for hand in match.hands:
                line.net += hand.net[seat]
                line.hands.append(hand.net[seat])
                if hand.winner == seat:
                    line.wins += 1
                    line.biggest = max(line.biggest, hand.tai)
    for line in out.values():
        line.money = line.net * cents_per_point
    return out


def balances(lines: dict[str, Line]) -> dict[str, int]:
    """The money each member is owed (+) or owes (-), for :func:`.settle.settle`. A ledger of matches
    with a seat outside the club does not sum to zero; settle-up needs one that does."""
    return {member: line.money for member, line in lines.items()}
